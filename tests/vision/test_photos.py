"""The app's photos: checks on what comes in, the drawing of a reading, the live video's frames."""

from __future__ import annotations

from types import SimpleNamespace

import cv2
import numpy as np
import pytest

from assistant.rules import find_preset
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



def test_live_overlay_returns_the_frame_when_reading_fails() -> None:
    frame = np.zeros((50, 50, 3), np.uint8)
    broken = SimpleNamespace(read=lambda image: 1 / 0)
    assert photos.live_overlay(frame, broken, find_preset("standard")) is frame



def test_latest_frame_hands_over_the_newest_frame_as_jpeg() -> None:
    latest = photos.LatestFrame()
    assert latest.jpeg() is None
    for value in (10, 200):
        latest.put(np.full((40, 60, 3), value, np.uint8))
    decoded = cv2.imdecode(np.frombuffer(latest.jpeg() or b"", np.uint8), cv2.IMREAD_COLOR)
    assert decoded.shape == (40, 60, 3) and abs(int(decoded.mean()) - 200) <= 2
