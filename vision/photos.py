"""Photos as the app takes them in: checked and decoded, read into a layout with each tile's runner-up
readings, and the live video's newest frame with the verdicts drawn on it.

A photo's `Layout` is kept beside the table text (`assistant.slots`) so the picture can be boxed with the
verdicts of the corrected text as long as the sets keep their shape.
"""

from __future__ import annotations

import copy
import importlib.util
import math
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from assistant.errors import InputError
from assistant.slots import Slot, format_slots
from assistant.tiles import Tile, class_id, tile_from_class_id
from vision.frames import (  # noqa: F401 (MAX_DECODED_PIXELS, REDUCE_FLAGS, shrink_factor: named here too)
    MAX_DECODED_PIXELS,
    MAX_FILE_BYTES,
    MAX_PIXELS,
    READ_FORMATS,
    REDUCE_FLAGS,
    CorruptImageError,
    ImageError,
    NotAnImageError,
    decode_image,
    shrink_factor,
)

if TYPE_CHECKING:
    from assistant.rules import Rules
    from vision.placed import Layout, PlacedTile

MAX_PHOTO_BYTES = MAX_FILE_BYTES
"""100 MB, as `rummi read`; `.streamlit/config.toml` lets the browser send as much (server.maxUploadSize)."""
MAX_SHRUNK_PIXELS = MAX_PIXELS
"""Beyond this even 1/8 size is large; no camera takes such photos."""
MIN_PHOTO_SIDE = 32
BLANK_FRAME_STD = 2.0
EXAMPLE_PHOTO = Path(__file__).resolve().parent / "examples" / "table.jpg"


class PhotoError(InputError):
    """A photo the app cannot use: the message says what is wrong and what to do."""


def decode_photo(data: bytes | None, name: str = "photo") -> np.ndarray:
    """BGR pixels of an uploaded or camera photo, decoded as `rummi read` decodes a file
    (`vision.frames.decode_scaled`: a photo over MAX_DECODED_PIXELS, a 48 MP phone photo, decoded at 1/2, 1/4
    or 1/8 size straight from the JPEG; tiles stay far larger than the detector needs).

    Raises:
        PhotoError: no data, too large, not an image, in a format not read, damaged, or a blank frame (camera
            covered or disconnected).
    """
    if not data:
        raise PhotoError(f"{name} is empty (0 bytes): the camera sent no picture; take the photo again")
    if len(data) > MAX_PHOTO_BYTES:
        raise PhotoError(
            f"{name} is {len(data) / 1e6:.1f} MB; photos up to {MAX_PHOTO_BYTES // 10**6} MB "
            "are read: use the camera's normal size"
        )
    try:
        frame = decode_image(data, name)
    except NotAnImageError as error:
        raise PhotoError(f"{name} is not a picture ({READ_FORMATS} expected)") from error
    except CorruptImageError as error:
        raise PhotoError(f"{name} is damaged: it starts like a picture but cannot be decoded") from error
    except ImageError as error:
        raise PhotoError(str(error)) from error
    height, width = frame.shape[:2]
    if min(width, height) < MIN_PHOTO_SIDE:
        raise PhotoError(f"{name} is only {width}x{height} pixels: too small to see tiles")
    if _is_blank(frame):
        raise PhotoError(f"{name} is a blank frame (one flat colour): is the camera covered or disconnected?")
    return frame


def _is_blank(frame: np.ndarray) -> bool:
    """Whether the frame is one flat colour: the spread of all its values (as `frame.std()`), summed up
    channel by channel by OpenCV without a float64 copy of the frame."""
    means, deviations = (values.ravel() for values in cv2.meanStdDev(frame))
    spread = float(np.mean(deviations**2 + means**2) - np.mean(means) ** 2)
    return math.sqrt(max(spread, 0.0)) < BLANK_FRAME_STD


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


@dataclass(frozen=True)
class RackReading:
    """One rack as read: its tiles (None: not read), per tile other readings to offer first, and which
    tiles are doubtful (`vision.confidence.DOUBTFUL_BELOW`)."""

    tiles: tuple[Slot, ...]
    likely: tuple[tuple[Tile, ...], ...]
    doubtful: tuple[bool, ...] = ()

    @property
    def text(self) -> str:
        return format_slots([self.tiles]) if self.tiles else ""

    def doubtful_count(self, text: str) -> int:
        """How many of the rack's tiles are doubtful, while the rack still reads `text` (0 once fixed)."""
        return sum(self.doubtful) if text == self.text else 0


@dataclass
class PhotoReading:
    """One photo as the app shows it: the frame, the grouped layout, and each detection's alternatives.

    `detections` (when kept) lets a fixed tile be grouped again with its neighbours (`with_fixed_tile`);
    `fixed` holds the readings fixed so far, by detection index.
    """

    frame: np.ndarray
    layout: Layout
    alternatives: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    detections: Any = None
    fixed: dict[int, Tile] = field(default_factory=dict)

    @property
    def table_text(self) -> str:
        return format_slots([[placed.tile for placed in tiles] for tiles in self.layout.table])

    @property
    def tiles_seen(self) -> int:
        return len(self.layout.all_tiles())

    def likely(self, placed: PlacedTile) -> list[Tile]:
        """Readings to offer first for a tile: the correction's suggestion, then the classifier's
        runners-up; never the tile's reading itself (that is what is being fixed)."""
        offered: list[Tile] = []
        for tile in (placed.suggestion, *self.alternatives.get(placed.index, ())):
            if tile is not None and tile != placed.tile and tile not in offered:
                offered.append(tile)
        return offered

    def doubted(self) -> list[Doubt]:
        """Every table tile the reader doubted or could not read, as read, with the likeliest other reading
        (the classifier's runner-up where the correction proposed nothing)."""
        doubts = []
        for set_index, tiles in enumerate(self.layout.table):
            for position, placed in enumerate(tiles):
                if placed.doubtful or placed.tile is None:
                    likely = self.likely(placed)
                    suggestion = likely[0] if likely else None
                    doubts.append(Doubt(set_index, position, placed.tile, suggestion, placed.note))
        return doubts

    def racks(self) -> list[RackReading]:
        """Each rack in the photo, in the reader's order; a photo where no rack was found (a close-up of one
        rack, its tiles lying flat) is one rack of every tile in it."""
        racks = [list(rack) for rack in self.layout.racks]
        if not racks:
            flat = [placed for tiles in self.layout.table for placed in tiles]
            racks = [flat] if flat else []
        doubtful = np.zeros(len(self.detections) if self.detections is not None else 0, bool)
        if self.detections is not None and len(self.detections):
            from vision.confidence import calibrated
            from vision.confidence import doubtful as under_doubt

            doubtful = under_doubt(calibrated(self.detections))
        return [
            RackReading(
                tuple(p.tile for p in rack),
                tuple(tuple(self.likely(p)) for p in rack),
                tuple(bool(p.index < len(doubtful) and doubtful[p.index]) for p in rack),
            )
            for rack in racks
        ]

    def with_fixed_tile(self, set_index: int, position: int, tile: Tile, rules: Rules) -> PhotoReading | None:
        """The photo grouped again with one table tile's reading fixed, so a set the misreading split joins
        up again (the grouping asks the rules where a gap is too close to call); None when the detections
        were not kept."""
        if self.detections is None:
            return None
        placed = self.layout.table[set_index][position]
        fixed = {**self.fixed, placed.index: tile}
        detections = copy.deepcopy(self.detections)
        for index, fixed_tile in fixed.items():
            detections.class_id[index] = class_id(fixed_tile)
            detections.class_confidence[index] = 1.0
            topk = np.asarray(detections.topk_class_ids)
            if topk.ndim == 2 and topk.shape[1]:
                detections.topk_class_ids[index, 0] = class_id(fixed_tile)
                detections.topk_scores[index, 0] = 1.0
        from vision.layout import rebuild

        height, width = self.frame.shape[:2]
        layout = rebuild(detections, rules, image_size=(width, height), frame=self.frame)
        return PhotoReading(self.frame, layout, self.alternatives, detections, fixed)


def read_photo(frame: np.ndarray, reader: Any, rules: Rules) -> PhotoReading:
    """Find and read the tiles in `frame`, group them into sets and racks, and keep runner-up readings."""
    from vision.confidence import without_no_tiles
    from vision.layout import rebuild

    detections = without_no_tiles(reader.read(frame))  # what is surely no tile is not shown at all
    height, width = frame.shape[:2]
    layout = rebuild(detections, rules, image_size=(width, height), frame=frame)
    alternatives: dict[int, tuple[Tile, ...]] = {}
    topk = np.asarray(detections.topk_class_ids)
    for index in range(len(detections)):
        if topk.ndim == 2 and topk.shape[1]:
            alternatives[index] = tuple(tile_from_class_id(int(c)) for c in topk[index] if int(c) >= 0)
    return PhotoReading(frame=frame, layout=layout, alternatives=alternatives, detections=detections)


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
