"""Frame sources: image files, bytes from a browser upload or camera, a webcam. All give BGR uint8 frames.

Every photo, a file (`load_image`, `rummi read`) or an upload (`vision.photos.decode_photo`, the app), is
decoded one way (`decode_scaled`):

1. Only JPEG, PNG, WebP and BMP are read. Their size is taken from the header the way the decoder takes it
   (a JPEG's markers as libjpeg walks them, stray bytes between them skipped), and a file whose size cannot
   be told is refused before decoding; formats nobody photographs a table in (Radiance HDR, TIFF, GIF,
   HEIC, ...) are refused by name.
2. A JPEG of up to `MAX_PIXELS` (200 MP, the largest phone camera) is read: over `MAX_DECODED_PIXELS`
   (16 MP) straight at 1/2, 1/4 or 1/8 size by libjpeg's own scaled decoding, so even a 200 MP photo never
   takes more than 48 MB as pixels.
3. The other formats cannot be decoded smaller: they are read up to `MAX_FULL_DECODE_PIXELS` (50 MP,
   150 MB of pixels), then made `MAX_DECODED_PIXELS` at most.

A small file can declare any size (a decompression bomb: a JPEG of 1.5 kB says 32768 x 32768 and would
decode to 3 GB), which is why nothing is decoded before its declared size passes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from assistant.errors import InputError
from assistant.user_files import read_user_file

# Phones take 48, 108 and 200 megapixel photos; a 200 MP JPEG is tens of megabytes.
MAX_FILE_BYTES = 100_000_000
MAX_PIXELS = 200_000_000
"""The largest image read (a JPEG, decoded smaller): larger ones are refused before decoding."""
MAX_DECODED_PIXELS = 16_000_000
"""Frames are at most this: a 4000x3000 photo stays as it is, a 48 MP one is decoded at half size."""
MAX_FULL_DECODE_PIXELS = 50_000_000
"""A PNG, WebP or BMP (and a lossless or 12-bit JPEG) has no scaled decoding: it is decoded whole (50 MP is
150 MB of pixels), then made `MAX_DECODED_PIXELS`; a larger one is refused before decoding."""
MAX_JPEG_BUFFER_BYTES = 400_000_000
"""A progressive JPEG (or one whose colours come in separate scans) is decoded through a buffer of the whole
image's coefficients, 2 bytes each, whatever the output size: 3 bytes a pixel at the usual 4:2:0 colour, so
one of up to 133 MP is read (a 4:4:4 one up to 66 MP)."""
MAX_JPEG_SCANS = 100
"""A progressive JPEG has about 10 scans; each is a pass over the whole image."""
MAX_JPEG_MARKERS = 10_000
"""Markers looked at before a JPEG's image data (a photo has a few dozen)."""
REDUCE_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                8: cv2.IMREAD_REDUCED_COLOR_8}
"""The JPEG decoder's own scales: 1/2, 1/4 and 1/8 come out of the DCT without the full image."""
READ_FORMATS = "JPEG, PNG, WebP or BMP"


class ImageError(InputError):
    """A file or upload that is not a usable image: the message names it and says why."""


class CorruptImageError(ImageError):
    """Bytes that look like an image format but do not decode (or whose size cannot be told)."""


class NotAnImageError(ImageError):
    """Bytes of no image format at all."""


class UnreadFormatError(ImageError):
    """An image in a format photos are not read in (Radiance HDR, TIFF, GIF, HEIC, ...): refused by name."""


class CameraError(RuntimeError):
    """The webcam could not be opened or stopped giving frames."""


@dataclass(frozen=True)
class ImageHeader:
    """What a file's header declares, read without decoding.

    Attributes:
        format: "JPEG", "PNG", "WebP" or "BMP".
        width, height: the size the decoder will find (before any EXIF turn).
        scalable: the decoder can decode it at 1/2, 1/4 or 1/8 size (an 8-bit DCT JPEG).
        buffer_bytes: what the decoder holds beside the pixels it gives (a multi-scan JPEG's coefficients).
    """

    format: str
    width: int
    height: int
    scalable: bool = False
    buffer_bytes: int = 0


@dataclass(frozen=True)
class Decoded:
    """A decoded photo: the frame (at most `MAX_DECODED_PIXELS`) and the size of the image as given, in the
    frame's orientation (`width` x `height`; the frame is smaller when the photo was larger)."""

    frame: np.ndarray
    width: int
    height: int
    format: str

    @property
    def scale(self) -> tuple[float, float]:
        """(x, y): how many pixels of the image as given one pixel of the frame is."""
        height, width = self.frame.shape[:2]
        return self.width / width, self.height / height


def check_size(width: int, height: int, name: str = "image") -> None:
    """Raises ImageError when a `width` x `height` image has more than MAX_PIXELS."""
    if width * height > MAX_PIXELS:
        raise ImageError(
            f"{name}: the image is too large ({width}x{height} pixels; "
            f"at most {MAX_PIXELS // 10**6} megapixels)"
        )


def shrink_factor(width: int, height: int, max_pixels: int = MAX_DECODED_PIXELS) -> int:
    """The smallest of 1, 2, 4, 8 that brings `width x height` down to `max_pixels` (8 if none does)."""
    for factor in REDUCE_FLAGS:
        if math.ceil(width / factor) * math.ceil(height / factor) <= max_pixels:
            return factor
    return max(REDUCE_FLAGS)


# -- what the header says -----------------------------------------------------------------------------------

_NAMED_FORMATS: tuple[tuple[bytes, str], ...] = (
    (b"#?RADIANCE", "a Radiance HDR image"),
    (b"#?RGBE", "a Radiance HDR image"),
    (b"v/1\x01", "an OpenEXR image"),
    (b"\x00\x00\x00\x0cjP  \r\n\x87\n", "a JPEG 2000 image"),
    (b"\xff\x4f\xff\x51", "a JPEG 2000 image"),
    (b"\x00\x00\x00\x0cJXL \r\n\x87\n", "a JPEG XL image"),
    (b"\xff\x0a", "a JPEG XL image"),
    (b"\x59\xa6\x6a\x95", "a Sun raster image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"II+\x00", "a TIFF image"),
    (b"MM\x00+", "a TIFF image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"8BPS", "a Photoshop image"),
    (b"%PDF-", "a PDF document"),
    (b"\x00\x00\x01\x00", "a Windows icon (ICO)"),
)
_READ_SIGNATURES = ((b"\xff\xd8\xff", "a JPEG image"), (b"\x89PNG\r\n\x1a\n", "a PNG image"),
                    (b"RIFF", "a WebP image"), (b"BM", "a BMP image"))
_ISO_MEDIA = "an MP4 or QuickTime file"
_NETPBM = {b"1": "PBM", b"2": "PGM", b"3": "PPM", b"4": "PBM", b"5": "PGM", b"6": "PPM", b"7": "PAM",
           b"F": "PFM", b"f": "PFM"}
_HEIF_BRANDS = {b"heic": "a HEIC image", b"heix": "a HEIC image", b"hevc": "a HEIC image",
                b"hevx": "a HEIC image", b"heim": "a HEIC image", b"heis": "a HEIC image",
                b"avif": "an AVIF image", b"avis": "an AVIF image",
                b"mif1": "a HEIF image (HEIC or AVIF)", b"msf1": "a HEIF image (HEIC or AVIF)"}


def _unread_format(data: bytes) -> str | None:
    """What `data` is when it is an image (or document) in a format photos are not read in."""
    for signature, what in _NAMED_FORMATS:
        if data.startswith(signature):
            return what
    if data[:1] == b"P" and data[1:2] in _NETPBM and data[2:3] in (b" ", b"\t", b"\r", b"\n"):
        return f"a Netpbm {_NETPBM[data[1:2]]} image"
    if data[4:8] == b"ftyp":
        return _HEIF_BRANDS.get(data[8:12], _ISO_MEDIA)
    return None


def image_format(data: bytes) -> str | None:
    """What image (or document) `data` starts as, read or not ("a JPEG image", "a TIFF image"); None when it
    starts as none (a video, text)."""
    for signature, what in _READ_SIGNATURES:
        if data.startswith(signature) and (what != "a WebP image" or data[8:12] == b"WEBP"):
            return what
    what = _unread_format(data)
    return None if what == _ISO_MEDIA else what


def read_header(data: bytes, name: str = "image") -> ImageHeader:
    """The format and size `data` declares, found as its decoder finds them; nothing is decoded.

    Raises:
        UnreadFormatError: an image in another format than JPEG, PNG, WebP or BMP (named).
        NotAnImageError: no image at all.
        CorruptImageError: a JPEG, PNG, WebP or BMP whose size cannot be told.
    """
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg_header(data, name)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        if len(data) < 24 or data[12:16] != b"IHDR":  # libpng wants IHDR first
            raise _corrupt(name, "a PNG without its IHDR header, so its size cannot be told")
        return _checked(ImageHeader("PNG", _u32(data, 16), _u32(data, 20)), name)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _checked(_webp_header(data, name), name)
    if data[:2] == b"BM":
        return _checked(_bmp_header(data, name), name)
    what = _unread_format(data)
    if what is not None:
        raise UnreadFormatError(
            f"{name} is {what}, not an image in a format read here: photos are read as {READ_FORMATS}"
        )
    raise NotAnImageError(f"{name}: not an image (it is no {READ_FORMATS})")


def _corrupt(name: str, why: str) -> CorruptImageError:
    return CorruptImageError(f"{name}: not an image, or the image data is corrupt ({why})")


def _checked(header: ImageHeader, name: str) -> ImageHeader:
    if header.width <= 0 or header.height <= 0:
        raise _corrupt(name, f"a {header.format} declaring {header.width}x{header.height} pixels")
    return header


def _u32(data: bytes, at: int, order: str = "big") -> int:
    return int.from_bytes(data[at : at + 4], order)  # type: ignore[arg-type]


def _webp_header(data: bytes, name: str) -> ImageHeader:
    """The canvas size as libwebp's WebPGetFeatures reads it: from VP8X, or the first VP8 / VP8L frame."""
    chunk, payload = data[12:16], data[20:30]
    if len(payload) < 10:
        raise _corrupt(name, "a WebP cut short before its size")
    if chunk == b"VP8X":
        width = 1 + int.from_bytes(payload[4:7], "little")
        height = 1 + int.from_bytes(payload[7:10], "little")
    elif chunk == b"VP8L" and payload[0] == 0x2F:
        bits = int.from_bytes(payload[1:5], "little")
        width, height = 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    elif chunk == b"VP8 " and payload[3:6] == b"\x9d\x01\x2a":
        width = int.from_bytes(payload[6:8], "little") & 0x3FFF
        height = int.from_bytes(payload[8:10], "little") & 0x3FFF
    else:
        raise _corrupt(name, "a WebP without a frame libwebp reads, so its size cannot be told")
    return ImageHeader("WebP", width, height)


def _bmp_header(data: bytes, name: str) -> ImageHeader:
    """The size as OpenCV's BMP decoder reads it: 32-bit (a negative height is top-down) after a header of 36
    bytes or more, 16-bit after an OS/2 header of 12."""
    if len(data) < 26:
        raise _corrupt(name, "a BMP cut short before its size")
    header_size = _u32(data, 14, "little")
    if header_size >= 36:
        width = int.from_bytes(data[18:22], "little", signed=True)
        height = abs(int.from_bytes(data[22:26], "little", signed=True))
    elif header_size == 12:
        width, height = int.from_bytes(data[18:20], "little"), int.from_bytes(data[20:22], "little")
    else:
        raise _corrupt(name, f"a BMP header of {header_size} bytes, which no decoder reads")
    return ImageHeader("BMP", width, height)


# JPEG frame headers libjpeg decodes: baseline, extended, progressive, lossless; Huffman or arithmetic.
_JPEG_FRAMES = frozenset({0xC0, 0xC1, 0xC2, 0xC3, 0xC9, 0xCA, 0xCB})
_JPEG_PROGRESSIVE = frozenset({0xC2, 0xCA})
_JPEG_LOSSLESS = frozenset({0xC3, 0xCB})
_JPEG_UNREAD_FRAMES = frozenset({0xC5, 0xC6, 0xC7, 0xC8, 0xCD, 0xCE, 0xCF})  # hierarchical: libjpeg refuses
# Markers with a length libjpeg reads (or skips) before the image data: DHT, DAC, DNL, DQT, DRI, APPn, COM.
_JPEG_SEGMENTS = frozenset({0xC4, 0xCC, 0xDC, 0xDB, 0xDD, *range(0xE0, 0xF0), 0xFE})
_NOT_FF = re.compile(rb"[^\xff]")


def _jpeg_header(data: bytes, name: str) -> ImageHeader:
    """The frame header's size as libjpeg finds it: after the start of image, each marker is looked for the
    way its next_marker does (bytes other than 0xFF are skipped, as are fill bytes and a stuffed FF 00), up to
    the first scan; what libjpeg would refuse is refused here too."""
    size = len(data)
    at = 2
    frame: tuple[int, int, int, int, list[tuple[int, int]]] | None = None
    for _ in range(MAX_JPEG_MARKERS):
        at = data.find(b"\xff", at)
        found = _NOT_FF.search(data, at) if at >= 0 else None
        if found is None:
            break
        marker, at = data[found.start()], found.start() + 1
        if marker == 0x00 or marker == 0x01 or 0xD0 <= marker <= 0xD7:  # stuffed FF 00, TEM, RSTn
            continue
        if marker == 0xD8:
            raise _corrupt(name, "a JPEG that starts twice")
        if marker == 0xD9:
            if frame is not None:  # a size too large is said first
                check_size(frame[2], frame[3], name)
            raise _corrupt(name, "a JPEG that ends before its image data")
        if at + 2 > size:
            break
        length = int.from_bytes(data[at : at + 2], "big")
        if length < 2:
            raise _corrupt(name, f"a JPEG marker 0x{marker:02X} of length {length}")
        if marker == 0xDA:  # the first scan: all the header there is
            if frame is None:
                raise _corrupt(name, "JPEG image data before its frame header")
            if at + 3 > size or not 1 <= data[at + 2] <= 4:
                raise _corrupt(name, "a JPEG scan header that is cut short or wrong")
            return _jpeg_frame(data, name, *frame, components_in_scan=data[at + 2])
        if at + length > size:
            break
        if marker in _JPEG_FRAMES:
            if frame is not None:
                raise _corrupt(name, "a JPEG with two frame headers")
            frame = _jpeg_sof(data[at : at + length], marker, name)
        elif marker in _JPEG_UNREAD_FRAMES:
            raise _corrupt(name, f"a hierarchical JPEG (frame 0x{marker:02X}), which libjpeg does not read")
        elif marker not in _JPEG_SEGMENTS:
            raise _corrupt(name, f"an unknown JPEG marker 0x{marker:02X}")
        at += length
    else:
        raise _corrupt(name, f"a JPEG of over {MAX_JPEG_MARKERS} markers before its image data")
    what = "its frame header" if frame is None else "its image data"
    if frame is not None:
        check_size(frame[2], frame[3], name)
    raise _corrupt(name, f"a JPEG that is cut short before {what}, so its size cannot be told")


def _jpeg_sof(segment: bytes, marker: int, name: str) -> tuple[int, int, int, int, list[tuple[int, int]]]:
    """(marker, precision, width, height, each component's sampling) of a frame header, checked as libjpeg
    checks it."""
    if len(segment) < 8:
        raise _corrupt(name, "a JPEG frame header cut short")
    precision = segment[2]
    height, width = int.from_bytes(segment[3:5], "big"), int.from_bytes(segment[5:7], "big")
    components = segment[7]
    if width == 0 or height == 0 or components == 0:
        raise _corrupt(name, f"a JPEG declaring {width}x{height} pixels of {components} components")
    if len(segment) != 8 + 3 * components:
        raise _corrupt(name, "a JPEG frame header of the wrong length")
    sampling = [(segment[9 + 3 * k] >> 4, segment[9 + 3 * k] & 0x0F) for k in range(components)]
    if not all(1 <= h <= 4 and 1 <= v <= 4 for h, v in sampling):
        raise _corrupt(name, "a JPEG frame header with impossible sampling factors")
    return marker, precision, width, height, sampling


def _jpeg_frame(data: bytes, name: str, marker: int, precision: int, width: int, height: int,
                sampling: list[tuple[int, int]], components_in_scan: int) -> ImageHeader:
    """The header of a JPEG whose first scan holds `components_in_scan` components. A progressive JPEG, or
    one whose first scan holds fewer components than the frame, is decoded through a buffer of the whole
    image (libjpeg's has_multiple_scans), at full size whatever the output's."""
    lossless = marker in _JPEG_LOSSLESS
    buffer_bytes = 0
    if marker in _JPEG_PROGRESSIVE or components_in_scan < len(sampling):
        h_max, v_max = max(h for h, _ in sampling), max(v for _, v in sampling)
        block = 1 if lossless else 8
        for h, v in sampling:
            across = math.ceil(math.ceil(width * h / h_max) / block)
            down = math.ceil(math.ceil(height * v / v_max) / block)
            units = (math.ceil(across / h) * h) * (math.ceil(down / v) * v)
            buffer_bytes += units * (4 if lossless else 128)  # a difference per sample, or 64 coefficients
        scans = data.count(b"\xff\xda")
        if scans > MAX_JPEG_SCANS:
            raise ImageError(
                f"{name}: a JPEG of {scans} scans (at most {MAX_JPEG_SCANS} are read; "
                "a camera's progressive JPEG has about 10)"
            )
    return ImageHeader("JPEG", width, height, scalable=not lossless and precision == 8,
                       buffer_bytes=buffer_bytes)


# -- decoding -----------------------------------------------------------------------------------------------


def _imdecode_quietly(buffer: np.ndarray, flags: int = cv2.IMREAD_COLOR) -> np.ndarray | None:
    """cv2.imdecode without OpenCV's own warnings on stderr (the caller reports a failure itself)."""
    previous = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)
    try:
        return cv2.imdecode(buffer, flags)
    except cv2.error:
        return None
    finally:
        cv2.utils.logging.setLogLevel(previous)


def check_decodable(header: ImageHeader, name: str = "image") -> int:
    """The scale (1, 2, 4 or 8) the image of `header` is decoded at.

    Raises:
        ImageError: too large to decode: over MAX_PIXELS, over MAX_FULL_DECODE_PIXELS without scaled decoding,
            or a decoding buffer over MAX_JPEG_BUFFER_BYTES.
    """
    width, height = header.width, header.height
    check_size(width, height, name)
    if not header.scalable and width * height > MAX_FULL_DECODE_PIXELS:
        what = "a lossless or 12-bit JPEG" if header.format == "JPEG" else f"a {header.format} image"
        raise ImageError(
            f"{name}: the image is too large ({width}x{height} pixels; {what} is read up to "
            f"{MAX_FULL_DECODE_PIXELS // 10**6} megapixels, an ordinary JPEG up to {MAX_PIXELS // 10**6})"
        )
    if header.buffer_bytes > MAX_JPEG_BUFFER_BYTES:
        raise ImageError(
            f"{name}: the image is too large ({width}x{height} pixels in a progressive JPEG, which takes "
            f"{header.buffer_bytes / 1e6:.0f} MB to decode; at most {MAX_JPEG_BUFFER_BYTES // 10**6} MB)"
        )
    return shrink_factor(width, height) if header.scalable else 1


def decode_scaled(data: bytes, name: str = "image") -> Decoded:
    """Decode encoded image bytes (JPEG, PNG, WebP, BMP) into a BGR uint8 frame of at most
    MAX_DECODED_PIXELS, with the size of the image as given (see the module's notes).

    Raises:
        ImageError: empty, too large, not an image, in a format not read, corrupt, or too small.
    """
    if len(data) == 0:
        raise NotAnImageError(f"{name}: the file is empty (0 bytes), not an image")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(
            f"{name}: the file is too large ({len(data) / 1e6:.0f} MB; at most {MAX_FILE_BYTES // 10**6} MB)"
        )
    header = read_header(data, name)
    factor = check_decodable(header, name)
    frame = _imdecode_quietly(np.frombuffer(data, dtype=np.uint8), REDUCE_FLAGS[factor])
    if frame is None or frame.ndim != 3 or frame.dtype != np.uint8:
        raise _corrupt(name, f"it starts as a {header.format} but does not decode")
    frame_height, frame_width = frame.shape[:2]
    across, down = math.ceil(header.width / factor), math.ceil(header.height / factor)
    if (frame_width, frame_height) == (across, down):
        width, height = header.width, header.height
    elif (frame_width, frame_height) == (down, across):  # turned as its EXIF orientation says
        width, height = header.height, header.width
    else:
        raise _corrupt(name, f"it decodes to {frame_width}x{frame_height} pixels, not the "
                             f"{header.width}x{header.height} its header declares")
    if min(width, height) < 16:
        raise ImageError(f"{name}: the image is too small ({width}x{height} pixels) to find tiles in")
    if frame_width * frame_height > MAX_DECODED_PIXELS:  # formats without scaled decoding
        scale = (MAX_DECODED_PIXELS / (frame_width * frame_height)) ** 0.5
        size = (max(1, int(frame_width * scale)), max(1, int(frame_height * scale)))
        frame = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    return Decoded(frame, width, height, header.format)


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """The frame of `decode_scaled`: at most MAX_DECODED_PIXELS, a larger photo decoded smaller.

    Raises:
        ImageError: empty, too large, not an image, in a format not read, corrupt, or too small.
    """
    return decode_scaled(data, name).frame


def load_scaled(path: str | Path) -> Decoded:
    """An image file, read as a regular file of at most MAX_FILE_BYTES (`assistant.user_files`) and decoded by
    `decode_scaled`.

    Raises:
        ImageError: missing, not a regular file (a folder, a named pipe, a device), unreadable, too large,
            not an image, in a format not read, corrupt, or too small.
    """
    data = read_user_file(path, MAX_FILE_BYTES, "an image file", ImageError)
    return decode_scaled(data, str(path))


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as a BGR uint8 frame (`load_scaled`'s frame).

    Raises:
        ImageError: as `load_scaled`.
    """
    return load_scaled(path).frame


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
