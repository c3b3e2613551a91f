"""Photos as the app takes them in: checked and decoded, read into a layout with each tile's runner-up
readings, and the live video's newest frame with the verdicts drawn on it.

A photo's `Layout` is kept beside the table text (`assistant.slots`) so the picture can be boxed with the
verdicts of the corrected text as long as the sets keep their shape.
"""

from __future__ import annotations

import importlib.util
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from assistant.errors import InputError
from assistant.sets import check_set
from assistant.slots import Slot, format_slots
from assistant.tiles import Tile, tile_from_class_id
from vision.annotate import annotate
from vision.frames import CorruptImageError, ImageError, decode_image

if TYPE_CHECKING:
    from assistant.rules import Rules
    from vision.placed import Layout

MAX_PHOTO_BYTES = 25 * 1024 * 1024
MIN_PHOTO_SIDE = 32
BLANK_FRAME_STD = 2.0
EXAMPLE_PHOTO = Path(__file__).resolve().parent / "examples" / "table.jpg"


class PhotoError(InputError):
    """A photo the app cannot use: the message says what is wrong and what to do."""


def decode_photo(data: bytes | None, name: str = "photo") -> np.ndarray:
    """BGR pixels of an uploaded or camera photo.

    Raises:
        PhotoError: no data, too large, not an image, or a blank frame (camera covered or disconnected).
    """
    if not data:
        raise PhotoError(f"{name} is empty (0 bytes): the camera sent no picture; take the photo again")
    if len(data) > MAX_PHOTO_BYTES:
        raise PhotoError(
            f"{name} is {len(data) / 1024 / 1024:.1f} MB; photos up to {MAX_PHOTO_BYTES // 1024 // 1024} MB "
            "are read: use the camera's normal size"
        )
    if not _looks_like_image(data):
        raise PhotoError(f"{name} is not a picture (JPEG, PNG or WebP expected)")
    # One decoder for files and photos: it refuses oversized images from the header, before decoding.
    try:
        frame = decode_image(data, name)
    except CorruptImageError as error:
        raise PhotoError(f"{name} is damaged: it starts like a picture but cannot be decoded") from error
    except ImageError as error:
        raise PhotoError(str(error)) from error
    height, width = frame.shape[:2]
    if min(width, height) < MIN_PHOTO_SIDE:
        raise PhotoError(f"{name} is only {width}x{height} pixels: too small to see tiles")
    if float(frame.std()) < BLANK_FRAME_STD:
        raise PhotoError(f"{name} is a blank frame (one flat colour): is the camera covered or disconnected?")
    return frame


def _looks_like_image(data: bytes) -> bool:
    signatures = (b"\xff\xd8\xff", b"\x89PNG", b"RIFF", b"GIF8", b"BM", b"II*\x00", b"MM\x00*")
    return data.startswith(signatures)


def load_example_photo() -> bytes:
    """The bundled example: a rendered table scene.

    Raises:
        PhotoError: the example is not shipped.
    """
    if not EXAMPLE_PHOTO.is_file():
        raise PhotoError(f"the bundled example {EXAMPLE_PHOTO} is missing; type the layout or upload a photo")
    return EXAMPLE_PHOTO.read_bytes()


def load_tile_reader() -> Any:
    """The shipped `vision.reader.TileReader` (loaded once per process by the detector module).

    Raises:
        vision.onnx_models.ModelLoadError: the model files are missing or broken.
    """
    from vision.reader import load_reader

    return load_reader()


@dataclass(frozen=True)
class Doubt:
    """A tile whose reading is not trusted, still as read: where it is, and the reading proposed instead."""

    set_index: int
    position: int
    read: Tile | None
    suggestion: Tile | None
    note: str | None

    def describe(self) -> str:
        where = f"set {self.set_index + 1}, tile {self.position + 1}"
        read = "not read" if self.read is None else f"reads {self.read}"
        maybe = f", maybe {self.suggestion}" if self.suggestion is not None else ""
        return f"{where} {read}{maybe}"


@dataclass
class PhotoReading:
    """One photo as the app shows it: the frame, the grouped layout, and each detection's alternatives."""

    frame: np.ndarray
    layout: Layout
    alternatives: dict[int, tuple[Tile, ...]] = field(default_factory=dict)

    @property
    def table_text(self) -> str:
        return format_slots([[placed.tile for placed in tiles] for tiles in self.layout.table])

    @property
    def rack_slots(self) -> list[Slot]:
        return [placed.tile for rack in self.layout.racks for placed in rack]

    @property
    def tiles_seen(self) -> int:
        return len(self.layout.all_tiles())

    def doubted(self) -> list[Doubt]:
        """Every table tile the reader doubted or could not read, as read."""
        return [
            Doubt(set_index, position, placed.tile, placed.suggestion, placed.note)
            for set_index, tiles in enumerate(self.layout.table)
            for position, placed in enumerate(tiles)
            if placed.doubtful or placed.tile is None
        ]


def read_photo(frame: np.ndarray, reader: Any, rules: Rules) -> PhotoReading:
    """Find and read the tiles in `frame`, group them into sets and racks, and keep runner-up readings."""
    from vision.layout import rebuild

    detections = reader.read(frame)
    height, width = frame.shape[:2]
    layout = rebuild(detections, rules, image_size=(width, height), frame=frame)
    alternatives: dict[int, tuple[Tile, ...]] = {}
    topk = np.asarray(detections.topk_class_ids)
    for index in range(len(detections)):
        if topk.ndim == 2 and topk.shape[1]:
            alternatives[index] = tuple(tile_from_class_id(int(c)) for c in topk[index] if int(c) >= 0)
    return PhotoReading(frame=frame, layout=layout, alternatives=alternatives)


class LatestFrame:
    """The newest video frame, handed from the stream's thread to the script (thread-safe)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._frame: np.ndarray | None = None

    def put(self, frame: np.ndarray) -> None:
        with self._lock:
            self._frame = frame

    def jpeg(self) -> bytes | None:
        """The newest frame as JPEG bytes, or None before the first frame."""
        with self._lock:
            frame = self._frame
        if frame is None:
            return None
        ok, encoded = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        return encoded.tobytes() if ok else None


def live_video_available() -> bool:
    return (
        importlib.util.find_spec("streamlit_webrtc") is not None
        and importlib.util.find_spec("av") is not None
    )


def live_overlay(frame: np.ndarray, reader: Any, rules: Rules) -> np.ndarray:
    """One video frame (BGR) with the sets boxed by verdict; a frame that cannot be read comes back as is."""
    try:
        reading = read_photo(frame, reader, rules)
    except Exception:  # a failing frame must not stop the stream
        return frame
    sets = [[placed.tile for placed in tiles] for tiles in reading.layout.table]
    valid = [None if any(t is None for t in s) else check_set(s, rules).valid for s in sets]  # type: ignore[arg-type]
    return cv2.cvtColor(annotate(reading, valid), cv2.COLOR_RGB2BGR)
