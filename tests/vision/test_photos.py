"""The app's photos: checks on what comes in, the drawing of a reading, the live video's frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import photos
from vision.annotate import annotate


def _jpeg(image: np.ndarray) -> bytes:
    return cv2.imencode(".jpg", image)[1].tobytes()



def test_decode_photo_reads_a_jpeg() -> None:
    image = np.random.default_rng(0).integers(0, 255, (120, 160, 3), dtype=np.uint8)
    assert photos.decode_photo(_jpeg(image)).shape == (120, 160, 3)



@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "is empty"),
        (b"GIF? no, plain text", "is not a picture"),
        (b"\x89PNG\r\n\x1a\n" + bytes(100), "damaged"),
        (b"\xff\xd8\xff" + bytes(photos.MAX_PHOTO_BYTES), "MB"),
        (_jpeg(np.full((100, 100, 3), 40, np.uint8)), "blank frame"),
        (_jpeg(np.random.default_rng(1).integers(0, 255, (20, 20, 3), dtype=np.uint8)), "too small"),
    ],
)
def test_decode_photo_refuses_bad_input_with_a_message(data: bytes, message: str) -> None:
    with pytest.raises(photos.PhotoError, match=message):
        photos.decode_photo(data, "the photo")



def test_annotate_boxes_sets_by_verdict() -> None:
    from vision.detections import Detections
    from vision.layout import rebuild

    frame = np.full((200, 400, 3), 90, np.uint8)
    boxes = [[40 + i * 43, 60, 80 + i * 43, 116] for i in range(3)]
    detections = Detections(xyxy=np.array(boxes, np.float32), confidence=np.full(3, 0.9, np.float32))
    reading = photos.PhotoReading(frame=frame, layout=rebuild(detections, image_size=(400, 200)))
    assert reading.table_text == "? ? ?"
    valid = annotate(reading, [True])
    invalid = annotate(reading, [False])
    assert valid.shape == frame.shape and not np.array_equal(valid, invalid)
    assert np.array_equal(frame, np.full((200, 400, 3), 90, np.uint8))  # the photo itself is not drawn on



def test_latest_frame_hands_over_the_newest_frame_as_jpeg() -> None:
    latest = photos.LatestFrame()
    assert latest.jpeg() is None
    for value in (10, 200):
        latest.put(np.full((40, 60, 3), value, np.uint8))
    decoded = cv2.imdecode(np.frombuffer(latest.jpeg() or b"", np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (40, 60, 3) and abs(int(decoded.mean()) - 200) <= 2


def _big_image(width: int, height: int) -> np.ndarray:
    """A smooth picture, made small and scaled up (uint8 all the way: 48 MP stays 145 MB)."""
    small = np.zeros((height // 10, width // 10, 3), np.uint8)
    small[..., 0] = np.linspace(0, 255, width // 10, dtype=np.uint8)[None, :]
    small[..., 1] = np.linspace(0, 255, height // 10, dtype=np.uint8)[:, None]
    small[::7, ::5, 2] = 200
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_NEAREST)


def test_a_48_megapixel_phone_photo_is_decoded_at_half_size() -> None:
    """8064x6048 (a 48 MP phone camera) is read, not refused: JPEG's own 1/2-scale decoding."""
    data = cv2.imencode(".jpg", _big_image(8064, 6048), [cv2.IMWRITE_JPEG_QUALITY, 85])[1].tobytes()
    assert len(data) < photos.MAX_PHOTO_BYTES
    frame = photos.decode_photo(data, "phone.jpg")
    assert frame.shape == (3024, 4032, 3)
    assert frame.shape[0] * frame.shape[1] <= photos.MAX_DECODED_PIXELS


def test_a_big_png_is_shrunk_too() -> None:
    data = cv2.imencode(".png", _big_image(6000, 4000))[1].tobytes()
    frame = photos.decode_photo(data, "scan.png")
    assert frame.shape[0] * frame.shape[1] <= photos.MAX_DECODED_PIXELS
    assert frame.shape[1] / frame.shape[0] == pytest.approx(1.5, abs=0.01)


def test_a_normal_photo_keeps_its_size() -> None:
    data = _jpeg(_big_image(4000, 3000))
    assert photos.decode_photo(data).shape == (3000, 4000, 3)


@pytest.mark.parametrize(
    "size, factor", [((4000, 3000), 1), ((8064, 6048), 2), ((12000, 9000), 4), ((40000, 30000), 8)]
)
def test_shrink_factor(size: tuple[int, int], factor: int) -> None:
    assert photos.shrink_factor(*size) == factor


def test_a_doubt_without_a_correction_offers_the_classifiers_runner_up() -> None:
    from assistant.tiles import Tile
    from vision.detections import Detections
    from vision.placed import Layout, PlacedTile

    placed = PlacedTile(0, Tile.parse("b6"), (0, 0, 10, 10), (5, 5), 0.0, (10, 10), 0.4, doubtful=True)
    detections = Detections(xyxy=np.zeros((1, 4), np.float32), confidence=np.ones(1, np.float32))
    reading = photos.PhotoReading(
        frame=np.zeros((20, 20, 3), np.uint8),
        layout=Layout(table=((placed,),)),
        alternatives={0: (Tile.parse("b6"), Tile.parse("k6"))},
        detections=detections,
    )
    [doubt] = reading.doubted()
    assert doubt.suggestion == Tile.parse("k6")  # the runner-up, never the reading itself
    assert doubt.describe() == "set 1, tile 1 reads b6, maybe k6"
    assert reading.likely(placed) == [Tile.parse("k6")]
