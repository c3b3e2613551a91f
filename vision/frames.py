"""Frame sources: image files, bytes from a browser upload or camera, a webcam. All give BGR uint8 frames."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from assistant.errors import InputError

MAX_FILE_BYTES = 50_000_000
MAX_PIXELS = 40_000_000
"""Larger photos are refused before decoding: 40 MP is above any phone camera and below memory trouble."""


class ImageError(InputError):
    """A file or upload that is not a usable image: the message names it and says why."""


class CorruptImageError(ImageError):
    """Bytes that look like an image format but do not decode."""


class CameraError(RuntimeError):
    """The webcam could not be opened or stopped giving frames."""


def _declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from the image header without decoding the pixels; None if the header is unknown."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    try:
        from PIL import Image
    except ImportError:  # pillow comes with streamlit; without it the pixel check runs after decoding
        return None
    try:
        with Image.open(io.BytesIO(data)) as header:
            return header.size
    except Image.DecompressionBombError:
        return (MAX_PIXELS, MAX_PIXELS)
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
    declared = _declared_size(data)
    if declared is not None and declared[0] * declared[1] > MAX_PIXELS:
        raise ImageError(
            f"{name}: the image is too large ({declared[0]}x{declared[1]} pixels; "
            f"at most {MAX_PIXELS // 10**6} megapixels)"
        )
    buffer = np.frombuffer(data, dtype=np.uint8)
    frame = _imdecode_quietly(buffer)
    if frame is None:
        raise CorruptImageError(
            f"{name}: not an image, or the image data is corrupt (expected JPEG, PNG, WebP or BMP)"
        )
    height, width = frame.shape[:2]
    if width * height > MAX_PIXELS:
        raise ImageError(f"{name}: the image is too large ({width}x{height} pixels)")
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
    if not path.exists():
        raise ImageError(f"{path}: no such file")
    if path.is_dir():
        raise ImageError(f"{path}: is a folder, not an image file")
    try:
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
