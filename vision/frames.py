"""Frame sources: image files, bytes from a browser upload or camera, a webcam. All give BGR uint8 frames."""

from __future__ import annotations

import io
import warnings
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from assistant.errors import InputError

# Phones take 48, 108 and 200 megapixel photos; a 200 MP JPEG is tens of megabytes.
MAX_FILE_BYTES = 100_000_000
MAX_PIXELS = 200_000_000
"""Larger images are refused before decoding. A small file can declare any size (a decompression bomb:
a PNG of a few kB says 100000 x 100000 and would decode to 30 GB), so the header's size is checked first;
200 MP, the largest phone camera, decodes to 600 MB."""

# Frame headers of JPEG (SOF0-SOF15), less DHT, JPG and DAC, which share the range.
_JPEG_FRAMES = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


class ImageError(InputError):
    """A file or upload that is not a usable image: the message names it and says why."""


class CorruptImageError(ImageError):
    """Bytes that look like an image format but do not decode."""


class CameraError(RuntimeError):
    """The webcam could not be opened or stopped giving frames."""


def check_size(width: int, height: int, name: str = "image") -> None:
    """Raises ImageError when a `width` x `height` image has more than MAX_PIXELS."""
    if width * height > MAX_PIXELS:
        raise ImageError(
            f"{name}: the image is too large ({width}x{height} pixels; "
            f"at most {MAX_PIXELS // 10**6} megapixels)"
        )


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG's frame header; None where there is none before the image data."""
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
        elif marker == 0x01 or 0xD0 <= marker <= 0xD7:  # markers without a length
            at += 2
        elif marker in _JPEG_FRAMES:
            if at + 9 > len(data):
                return None
            return int.from_bytes(data[at + 7 : at + 9], "big"), int.from_bytes(data[at + 5 : at + 7], "big")
        elif marker in (0xD9, 0xDA):  # end of image, start of scan
            return None
        else:
            at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
    return None


def _declared_size(data: bytes, name: str) -> tuple[int, int] | None:
    """(width, height) from the image header without decoding the pixels; None if the header is unknown.

    Raises:
        ImageError: a header Pillow refuses as a decompression bomb.
    """
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data[:2] == b"\xff\xd8":  # JPEG, read here: Pillow refuses one of over 179 MP
        return _jpeg_size(data)
    try:
        from PIL import Image
    except ImportError:  # pillow comes with streamlit; without it the pixel check runs after decoding
        return None
    try:
        with warnings.catch_warnings():
            # Pillow warns from 89 MP on; MAX_PIXELS is the limit here.
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as header:
                return header.size
    except Image.DecompressionBombError as error:
        raise ImageError(
            f"{name}: the image is too large (its header declares more than "
            f"{2 * (Image.MAX_IMAGE_PIXELS or 0) // 10**6} megapixels, more than Pillow reads)"
        ) from error
    except Exception:  # an unknown or broken header: cv2 decides below
        return None


def _imdecode_quietly(buffer: np.ndarray) -> np.ndarray | None:
    """cv2.imdecode without OpenCV's own warnings on stderr (the caller reports a failure itself)."""
    previous = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        return cv2.imdecode(buffer, cv2.IMREAD_COLOR)
    except cv2.error:
        return None
    finally:
        cv2.utils.logging.setLogLevel(previous)


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """Decode encoded image bytes (JPEG, PNG, WebP, BMP, ...) into a BGR uint8 frame.

    Raises:
        ImageError: empty, too large, not an image, or corrupt.
    """
    if len(data) == 0:
        raise ImageError(f"{name}: the file is empty (0 bytes), not an image")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(
            f"{name}: the file is too large ({len(data) / 1e6:.0f} MB; at most {MAX_FILE_BYTES // 10**6} MB)"
        )
    declared = _declared_size(data, name)
    if declared is not None:
        check_size(*declared, name)
    buffer = np.frombuffer(data, dtype=np.uint8)
    frame = _imdecode_quietly(buffer)
    if frame is None:
        raise CorruptImageError(
            f"{name}: not an image, or the image data is corrupt (expected JPEG, PNG, WebP or BMP)"
        )
    height, width = frame.shape[:2]
    check_size(width, height, name)
    if width < 16 or height < 16:
        raise ImageError(f"{name}: the image is too small ({width}x{height} pixels) to find tiles in")
    return frame


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as a BGR uint8 frame.

    Raises:
        ImageError: missing, a folder, unreadable, empty, too large, not an image, or corrupt.
    """
    if str(path) == "":  # Path("") is the current folder
        raise ImageError("'': the file name is empty")
    path = Path(path)
    try:  # exists() itself fails on a name too long for the file system
        if not path.exists():
            raise ImageError(f"{path}: no such file")
        if path.is_dir():
            raise ImageError(f"{path}: is a folder, not an image file")
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(
                f"{path}: the file is too large ({size / 1e6:.0f} MB; at most {MAX_FILE_BYTES // 10**6} MB)"
            )
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"{path}: cannot read the file ({exc.strerror or exc})") from exc
    return decode_image(data, str(path))


def frame_from_rgb(array: np.ndarray) -> np.ndarray:
    """A BGR uint8 frame from an RGB or RGBA array (as a browser camera or PIL gives)."""
    array = np.asarray(array)
    if array.ndim == 2:
        return cv2.cvtColor(array.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    if array.ndim != 3 or array.shape[2] not in (3, 4):
        raise ImageError(f"expected an H x W x 3 (RGB) or x 4 (RGBA) array, got shape {array.shape}")
    code = cv2.COLOR_RGBA2BGR if array.shape[2] == 4 else cv2.COLOR_RGB2BGR
    return cv2.cvtColor(array.astype(np.uint8), code)


class Webcam:
    """Frames from a local camera via cv2.VideoCapture. Use as a context manager.

    Example:
        with Webcam(0) as camera:
            frame = camera.read()
    """

    def __init__(self, index: int = 0, width: int | None = None, height: int | None = None) -> None:
        self.index = index
        self.width = width
        self.height = height
        self._capture: cv2.VideoCapture | None = None

    def open(self) -> Webcam:
        """Raises: CameraError when no camera answers at `index`."""
        capture = cv2.VideoCapture(self.index)
        if not capture.isOpened():
            capture.release()
            raise CameraError(f"cannot open camera {self.index}: no camera there, or it is in use")
        if self.width:
            capture.set(cv2.CAP_PROP_FRAME_WIDTH, self.width)
        if self.height:
            capture.set(cv2.CAP_PROP_FRAME_HEIGHT, self.height)
        self._capture = capture
        return self

    def read(self) -> np.ndarray:
        """The next frame. Raises: CameraError when the camera gives none."""
        if self._capture is None:
            self.open()
        assert self._capture is not None
        ok, frame = self._capture.read()
        if not ok or frame is None:
            raise CameraError(f"camera {self.index} gave no frame")
        return frame

    def frames(self) -> Iterator[np.ndarray]:
        while True:
            yield self.read()

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None

    def __enter__(self) -> Webcam:
        return self.open()

    def __exit__(self, *exc_info: object) -> None:
        self.close()
