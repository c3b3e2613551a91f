"""One way to decode a photo (issue 35): the size is found in the header as the decoder finds it, before any
pixel is decoded; formats photos are not taken in are refused by name; a big JPEG is decoded small."""

from __future__ import annotations

import io
import tracemalloc
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image

from vision import photos
from vision.frames import (
    MAX_DECODED_PIXELS,
    CorruptImageError,
    ImageError,
    UnreadFormatError,
    check_decodable,
    decode_image,
    decode_scaled,
    image_format,
    read_header,
)


def noise(height: int, width: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (height, width, 3), dtype=np.uint8)


def jpeg(image: np.ndarray, *params: int) -> bytes:
    ok, encoded = cv2.imencode(".jpg", image, list(params))
    assert ok
    return encoded.tobytes()


def with_size(data: bytes, width: int, height: int, frame: bytes = b"\xff\xc0") -> bytes:
    """The JPEG with its frame header declaring `width` x `height`."""
    at = data.index(frame)
    return data[: at + 5] + height.to_bytes(2, "big") + width.to_bytes(2, "big") + data[at + 9 :]


def png_header(width: int, height: int) -> bytes:
    ihdr = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + len(ihdr).to_bytes(4, "big") + chunk + zlib.crc32(chunk).to_bytes(4, "big")


def pillow(image: np.ndarray, format: str, mode: str = "RGB", **options: object) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(image[..., ::-1].copy()).convert(mode).save(buffer, format, **options)
    return buffer.getvalue()


def exif_turned(image: np.ndarray) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = 6  # orientation: turned a quarter clockwise
    return pillow(image, "JPEG", exif=exif.tobytes())


def insert_before(data: bytes, marker: bytes, extra: bytes) -> bytes:
    at = data.index(marker)
    return data[:at] + extra + data[at:]


IMAGE = noise(48, 64)
# A comment holding a fake frame header: skipped by its length, as libjpeg skips it.
FAKE_SOF = b"\xff\xfe\x00\x0b" + b"\xff\xc0\x00\x11\x08\x7f\xff\x7f\xff"

READ_ALIKE = {
    "baseline": jpeg(IMAGE),
    "progressive": jpeg(IMAGE, cv2.IMWRITE_JPEG_PROGRESSIVE, 1),
    "grey": jpeg(IMAGE[..., 0].copy()),
    "4:4:4": jpeg(IMAGE, cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444),
    "restart markers": jpeg(IMAGE, cv2.IMWRITE_JPEG_RST_INTERVAL, 2),
    "CMYK": pillow(IMAGE, "JPEG", "CMYK"),
    "stray bytes": insert_before(jpeg(IMAGE), b"\xff\xdb", b"\x00\x13\x37"),
    "fill bytes": insert_before(jpeg(IMAGE), b"\xff\xc0", b"\xff\xff\xff"),
    "fake frame in a comment": insert_before(jpeg(IMAGE), b"\xff\xdb", FAKE_SOF),
    "png": cv2.imencode(".png", IMAGE)[1].tobytes(),
    "webp lossy": cv2.imencode(".webp", IMAGE, [cv2.IMWRITE_WEBP_QUALITY, 80])[1].tobytes(),
    "webp lossless": cv2.imencode(".webp", IMAGE, [cv2.IMWRITE_WEBP_QUALITY, 101])[1].tobytes(),
    "webp extended": pillow(IMAGE, "WEBP", exif=Image.Exif().tobytes(), icc_profile=b"\x00" * 128),
    "bmp": cv2.imencode(".bmp", IMAGE)[1].tobytes(),
}


@pytest.mark.parametrize("data", READ_ALIKE.values(), ids=READ_ALIKE.keys())
def test_the_header_says_the_size_the_decoder_finds(data: bytes) -> None:
    header = read_header(data, "photo")
    assert (header.width, header.height) == (64, 48)
    expected = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    decoded = decode_scaled(data, "photo")
    np.testing.assert_array_equal(decoded.frame, expected)
    assert (decoded.width, decoded.height, decoded.scale) == (64, 48, (1.0, 1.0))


def test_an_exif_turned_photo_is_given_at_its_turned_size() -> None:
    data = exif_turned(IMAGE)
    decoded = decode_scaled(data, "photo")
    assert decoded.frame.shape == (64, 48, 3)
    assert (decoded.width, decoded.height) == (48, 64)


def test_a_stray_byte_before_the_frame_header_hides_no_size() -> None:
    """libjpeg skips bytes that are not 0xFF before a marker: the size is found past them too."""
    data = insert_before(with_size(jpeg(noise(32, 32)), 32768, 32768), b"\xff\xc0", b"\x00")
    assert (read_header(data).width, read_header(data).height) == (32768, 32768)
    with pytest.raises(ImageError, match=r"too large \(32768x32768 pixels; at most 200 megapixels"):
        decode_image(data, "stray.jpg")


def test_a_truncated_jpeg_declaring_196_megapixels_is_decoded_at_a_quarter() -> None:
    data = with_size(jpeg(noise(32, 32)), 14000, 14000)[:1400] + b"\xff\xd9"
    decoded = decode_scaled(data, "cut.jpg")
    assert decoded.frame.shape == (3500, 3500, 3)
    assert (decoded.width, decoded.height, decoded.scale) == (14000, 14000, (4.0, 4.0))


@pytest.mark.parametrize(
    ("size", "factor"), [((4000, 3000), 1), ((8064, 6048), 2), ((12000, 9000), 4), ((16320, 12240), 4)]
)
def test_a_jpeg_over_16_megapixels_is_decoded_smaller(size: tuple[int, int], factor: int) -> None:
    header = read_header(with_size(jpeg(noise(16, 16)), *size))
    assert check_decodable(header) == factor


def test_a_big_jpeg_is_read_at_half_size_with_the_size_it_was_given_at() -> None:
    image = cv2.resize(noise(60, 80), (4800, 3600), interpolation=cv2.INTER_NEAREST)
    decoded = decode_scaled(jpeg(image), "big.jpg")
    assert decoded.frame.shape == (1800, 2400, 3) and 1800 * 2400 <= MAX_DECODED_PIXELS
    assert (decoded.width, decoded.height, decoded.scale) == (4800, 3600, (2.0, 2.0))


@pytest.mark.parametrize(
    "data",
    [
        png_header(8000, 7000),
        b"RIFF\x00\x00\x00\x00WEBPVP8L\x00\x00\x00\x00\x2f"
        + (7999 | (6999 << 14)).to_bytes(4, "little") + bytes(8),
        b"BM" + bytes(12) + (40).to_bytes(4, "little") + (8000).to_bytes(4, "little")
        + (-7000).to_bytes(4, "little", signed=True) + bytes(30),
    ],
    ids=["png", "webp", "bmp"],
)
def test_a_format_without_scaled_decoding_is_refused_over_50_megapixels(data: bytes) -> None:
    with pytest.raises(ImageError, match="is read up to 50 megapixels"):
        decode_image(data, "scan")


def test_under_50_megapixels_a_png_is_decoded_and_made_16() -> None:
    with pytest.raises(CorruptImageError):  # allowed by its size: decoded, and its missing data found
        decode_image(png_header(7000, 7000), "scan.png")


def test_a_progressive_jpeg_too_large_for_its_coefficient_buffer_is_refused() -> None:
    """A progressive JPEG is decoded through every coefficient of the whole image, whatever the scale."""
    small = jpeg(noise(32, 32), cv2.IMWRITE_JPEG_PROGRESSIVE, 1)
    with pytest.raises(ImageError, match="progressive JPEG, which takes 576 MB to decode"):
        decode_image(with_size(small, 16000, 12000, b"\xff\xc2"), "bomb.jpg")
    assert check_decodable(read_header(with_size(small, 8064, 6048, b"\xff\xc2"))) == 2  # 48 MP: 146 MB


def test_a_progressive_jpeg_of_hundreds_of_scans_is_refused() -> None:
    data = jpeg(noise(32, 32), cv2.IMWRITE_JPEG_PROGRESSIVE, 1)
    last_scan = data[data.rindex(b"\xff\xda") : -2]
    with pytest.raises(ImageError, match="scans"):
        decode_image(data[:-2] + last_scan * 150 + b"\xff\xd9", "scans.jpg")


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b"\xff\xd8\xff\xe0" + bytes(300), "length 0"),
        (b"\xff\xd8\xff\xda\x00\x08\x01\x01\x00\x00\x3f\x00", "image data before its frame header"),
        (with_size(jpeg(noise(16, 16)), 0, 16), "declaring 0x16"),
        (with_size(jpeg(noise(16, 16)), 64, 64).replace(b"\xff\xc0", b"\xff\xc5", 1), "hierarchical"),
        (jpeg(noise(16, 16)).replace(b"\xff\xdb", b"\xff\xf3", 1), "unknown JPEG marker 0xF3"),
        (jpeg(noise(16, 16))[:200], "cut short"),
        (b"\xff\xd8\xff" + bytes(10**6), "cut short before its frame header"),
        (b"\x89PNG\r\n\x1a\n" + bytes(100), "IHDR"),
    ],
    ids=["zero length", "scan first", "empty", "hierarchical", "unknown marker", "cut", "zeros", "png"],
)
def test_a_header_whose_size_cannot_be_told_is_refused_as_corrupt(data: bytes, why: str) -> None:
    with pytest.raises(CorruptImageError, match=why):
        read_header(data, "photo")


UNREAD = {
    "a Radiance HDR image": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 16384 +X 16384\n",
    "a Netpbm PPM image": b"P6\n16384 16384\n255\n",
    "a Netpbm PFM image": b"PF\n16384 16384\n-1.0\n",
    "a Netpbm PAM image": b"P7\nWIDTH 16384\n",
    "an OpenEXR image": b"v/1\x01\x02\x00\x00\x00",
    "a JPEG 2000 image": b"\x00\x00\x00\x0cjP  \r\n\x87\n\x00\x00\x00\x14ftypjp2 ",
    "a Sun raster image": b"\x59\xa6\x6a\x95" + bytes(28),
    "a TIFF image": b"II*\x00\x08\x00\x00\x00",
    "a GIF image": b"GIF89a\x00\x40\x00\x40",
    "a HEIC image": b"\x00\x00\x00\x18ftypheic\x00\x00\x00\x00mif1heic",
    "an AVIF image": b"\x00\x00\x00\x1cftypavif\x00\x00\x00\x00avifmif1miaf",
}


@pytest.mark.parametrize(("what", "data"), UNREAD.items(), ids=UNREAD.keys())
def test_formats_photos_are_not_taken_in_are_refused_by_name(what: str, data: bytes) -> None:
    with pytest.raises(UnreadFormatError, match=f"table.x is {what}, not an image .*JPEG, PNG, WebP or BMP"):
        decode_image(data + bytes(64), "table.x")
    with pytest.raises(photos.PhotoError, match=f"the photo is {what}"):
        photos.decode_photo(data + bytes(64), "the photo")
    assert image_format(data) == what


def test_a_video_is_no_image_format() -> None:
    assert image_format(b"\x00\x00\x00\x20ftypisom\x00\x00\x02\x00isomiso2avc1mp41") is None
    assert image_format(READ_ALIKE["baseline"]) == "a JPEG image"


def test_the_blank_frame_check_makes_no_copy_of_the_frame() -> None:
    """A 16 MP frame is not copied whole as float64 (384 MB) to be found blank; the verdict is as before."""
    frame = np.full((3000, 4000, 3), 40, np.uint8)
    assert photos._is_blank(frame)
    frame[::50, ::50] = 200  # not flat: a few points
    tracemalloc.start()
    try:
        assert not photos._is_blank(frame)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 10**6
    for image in (frame, noise(40, 50), np.full((40, 50, 3), (0, 0, 200), np.uint8)):
        assert photos._is_blank(image) == (float(image.std()) < photos.BLANK_FRAME_STD)


def test_read_gives_a_photo_decoded_smaller_in_its_own_pixels() -> None:
    """`rummi read`'s boxes, width and height are of the image as given (docs/cli.md), also when it was
    decoded at half size."""
    from assistant.rules import STANDARD
    from assistant.tiles import CLASS_INDEX
    from vision.confidence import ConfidenceMap
    from vision.detections import Detections
    from vision.read import read_document

    found = Detections(xyxy=np.array([[100, 120, 140, 180]], np.float32), confidence=np.ones(1, np.float32))
    found = found.with_readings(np.array([[CLASS_INDEX["red_7"]]]), np.ones((1, 1), np.float32))
    frame = np.zeros((1800, 2400, 3), np.uint8)
    document, _ = read_document("big.jpg", frame, found, STANDARD, ConfidenceMap(), size=(4800, 3600))
    assert (document["width"], document["height"]) == (4800, 3600)
    assert document["tiles"][0]["box"] == [200.0, 240.0, 280.0, 360.0]
    as_given, _ = read_document("small.jpg", frame, found, STANDARD, ConfidenceMap())
    assert (as_given["width"], as_given["height"]) == (2400, 1800)
    assert as_given["tiles"][0]["box"] == [100.0, 120.0, 140.0, 180.0]
