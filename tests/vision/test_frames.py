"""Frame sources: good images decode to BGR, bad files raise ImageError naming the cause."""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.frames import (
    CameraError,
    ImageError,
    Webcam,
    check_size,
    decode_image,
    frame_from_rgb,
    load_image,
)


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


def _jpeg_header_only(width: int, height: int) -> bytes:
    """A JPEG start (an APP0 segment, then a baseline frame header declaring `width` x `height`)."""
    app0 = b"\xff\xe0" + (16).to_bytes(2, "big") + b"JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    frame = b"\x08" + height.to_bytes(2, "big") + width.to_bytes(2, "big") + b"\x03" + b"\x01\x22\x00" * 3
    return b"\xff\xd8" + app0 + b"\xff\xc0" + (len(frame) + 2).to_bytes(2, "big") + frame


@pytest.mark.parametrize(
    ("width", "height", "allowed"),
    [(8000, 6000, True), (12000, 9000, True), (16320, 12240, True), (20000, 10001, False)],
    ids=["48 MP", "108 MP", "200 MP", "over 200 MP"],
)
def test_phone_photos_up_to_200_megapixels_are_allowed(width: int, height: int, allowed: bool) -> None:
    if allowed:
        check_size(width, height)
    else:
        with pytest.raises(ImageError, match=f"too large \\({width}x{height} pixels; at most 200 megapixels"):
            check_size(width, height)


def test_a_jpeg_declaring_too_many_pixels_is_refused_before_decoding(tmp_path: Path) -> None:
    path = tmp_path / "bomb.jpg"
    path.write_bytes(_jpeg_header_only(30_000, 20_000))
    with pytest.raises(ImageError, match="too large \\(30000x20000 pixels"):
        load_image(path)
    path.write_bytes(_jpeg_header_only(16_000, 12_000))  # allowed: decoded, and found corrupt
    with pytest.raises(ImageError, match="corrupt"):
        load_image(path)
