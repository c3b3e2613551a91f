"""Frame sources: good images decode to BGR, bad files raise ImageError naming the cause."""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.frames import CameraError, ImageError, Webcam, decode_image, frame_from_rgb, load_image


def _png_header_only(width: int, height: int) -> bytes:
    """A PNG whose header declares `width` x `height` (pixel data truncated): a decompression bomb's shape."""
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + len(ihdr).to_bytes(4, "big") + chunk + zlib.crc32(chunk).to_bytes(4, "big")


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    image = np.zeros((60, 80, 3), np.uint8)
    image[:, :, 2] = 200  # red in BGR
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), image)
    return path


def test_load_image_gives_bgr(photo: Path) -> None:
    frame = load_image(photo)
    assert frame.shape == (60, 80, 3)
    assert frame.dtype == np.uint8
    assert frame[0, 0].tolist() == [0, 0, 200]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (b"hello, this is text and not a picture\n" * 10, "not an image"),
        (b"\xff\xd8\xff\xe0" + b"\x00" * 300, "not an image"),  # a JPEG start with nothing behind it
        (_png_header_only(30_000, 30_000), "too large"),
    ],
    ids=["empty", "text", "corrupt-jpeg", "huge"],
)
def test_bad_files_raise_image_error(tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    with pytest.raises(ImageError, match=message) as caught:
        load_image(path)
    assert str(path) in str(caught.value)


def test_truncated_image_is_corrupt(tmp_path: Path, photo: Path) -> None:
    cut = tmp_path / "cut.png"
    cut.write_bytes(photo.read_bytes()[:40])
    with pytest.raises(ImageError, match="corrupt"):
        load_image(cut)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(ImageError, match="no such file"):
        load_image(tmp_path / "nope.jpg")
    with pytest.raises(ImageError, match="folder"):
        load_image(tmp_path)
    with pytest.raises(ImageError, match="the file name is empty"):
        load_image("")


def test_decode_bytes_and_tiny_image() -> None:
    ok, encoded = cv2.imencode(".png", np.full((40, 50, 3), 128, np.uint8))
    assert ok
    assert decode_image(encoded.tobytes(), "upload").shape == (40, 50, 3)
    ok, tiny = cv2.imencode(".png", np.zeros((4, 4, 3), np.uint8))
    with pytest.raises(ImageError, match="too small"):
        decode_image(tiny.tobytes(), "upload")


def test_frame_from_rgb_swaps_channels_and_drops_alpha() -> None:
    rgba = np.zeros((2, 2, 4), np.uint8)
    rgba[..., 0] = 255
    assert frame_from_rgb(rgba)[0, 0].tolist() == [0, 0, 255]
    with pytest.raises(ImageError, match="shape"):
        frame_from_rgb(np.zeros((2, 2, 5), np.uint8))


def test_webcam_that_does_not_exist_raises_camera_error() -> None:
    with pytest.raises(CameraError, match="camera 97"):
        Webcam(97).open()
