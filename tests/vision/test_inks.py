"""vision.inks: tiles read black in a photo's dark blue ink are read blue; black ink alone is left as read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from datasets.render import render_indexed
from vision.classifier import CropReadings
from vision.detections import box_iou
from vision.inks import bluer_group, ink_blueness, read_black, with_photo_blue

IVORY = (205, 222, 232)  # BGR, warm
BLACK_INK = (30, 32, 35)
NAVY_INK = (95, 45, 35)  # BGR: dark, blue over red
WARM_LIGHT = np.array([0.75, 0.95, 1.1])  # BGR gains of a lamp


def tile_crop(ink: tuple[int, int, int], light: np.ndarray | None = None) -> np.ndarray:
    crop = np.full((64, 64, 3), IVORY, np.uint8)
    cv2.putText(crop, "8", (20, 46), cv2.FONT_HERSHEY_SIMPLEX, 1.3, ink, 5, cv2.LINE_AA)
    if light is not None:
        crop = np.clip(crop * light, 0, 255).astype(np.uint8)
    return crop


def test_a_navy_ink_measures_bluer_than_a_black_one_under_any_light() -> None:
    for light in (None, WARM_LIGHT, WARM_LIGHT[::-1]):
        black, navy = ink_blueness(np.stack([tile_crop(BLACK_INK, light), tile_crop(NAVY_INK, light)]))
        assert navy > black + 0.5
        assert abs(black) < 0.2  # the face's white balance taken out: black ink stays neutral


def test_a_crop_with_no_dark_ink_is_not_measured() -> None:
    assert np.isnan(ink_blueness(np.full((1, 64, 64, 3), IVORY, np.uint8))[0])


def test_the_bluer_of_two_clearly_apart_groups_is_chosen() -> None:
    values = np.array([-0.2, 0.6, -0.1, np.nan, 0.55, -0.15, 0.7])
    assert bluer_group(values).tolist() == [False, True, False, False, True, False, True]


@pytest.mark.parametrize(
    "values",
    [
        [-0.3, -0.2, -0.1, 0.0, 0.1],  # one group of black ink, however spread
        [-0.2, -0.1, 0.15, 0.2],  # two groups, but the bluer one is not blue
        [0.4, 0.5, 0.6],  # one group: nothing to judge it against
        [np.nan, 0.6],
    ],
)
def test_no_two_groups_no_blue(values: list[float]) -> None:
    assert not bluer_group(np.array(values)).any()


def _readings(names: list[str]) -> CropReadings:
    ids = np.array([[CLASS_INDEX[n], CLASS_INDEX["joker"]] for n in names])
    scores = np.tile([0.9, 0.05], (len(names), 1)).astype(np.float32)
    return CropReadings(ids, scores, np.zeros(len(names), np.float32), np.zeros(len(names), np.float32))


def _photo(inks: list[tuple[int, int, int]]) -> tuple[np.ndarray, np.ndarray]:
    """A row of tiles, each 64 px wide and 80 tall, on a dark cloth, and their boxes."""
    image = np.full((120, 80 * len(inks) + 40, 3), (40, 70, 40), np.uint8)
    boxes = []
    for k, ink in enumerate(inks):
        x, y = 20 + 80 * k, 20
        image[y : y + 80, x : x + 64] = IVORY
        cv2.putText(image, "5", (x + 14, y + 58), cv2.FONT_HERSHEY_SIMPLEX, 1.5, ink, 5, cv2.LINE_AA)
        boxes.append([x, y, x + 64, y + 80])
    return image, np.array(boxes, np.float64)


def test_tiles_read_black_in_the_photos_blue_ink_are_read_blue_with_their_number_and_score() -> None:
    image, boxes = _photo([BLACK_INK, NAVY_INK, BLACK_INK, NAVY_INK, BLACK_INK])
    readings = _readings(["black_5", "black_5", "black_5", "black_6", "red_5"])
    changed, blue = with_photo_blue(readings, image, boxes, 64, 0.08)
    assert blue.tolist() == [False, True, False, True, False]
    names = [[CLASS_NAMES[i] for i in row] for row in changed.topk_class_ids]
    assert [row[0] for row in names] == ["black_5", "blue_5", "black_5", "blue_6", "red_5"]
    assert names[1][1] == "joker"  # only black and blue classes change
    np.testing.assert_array_equal(changed.topk_scores, readings.topk_scores)


def test_a_photo_of_black_ink_only_is_left_as_read() -> None:
    image, boxes = _photo([BLACK_INK] * 4)
    readings = _readings(["black_5"] * 4)
    changed, blue = with_photo_blue(readings, image, boxes, 64, 0.08)
    assert not blue.any() and changed is readings
    assert read_black(readings).all()


def test_the_reader_reads_a_rendered_dark_blue_edition_blue() -> None:
    # A tuning render of an edition printing its blue in navy (seed 8900, scene 26): ten of its twelve blue
    # tiles were read black one crop at a time (twenty-eighth session).
    from vision.reader import TileReader

    image, truth, quality = render_indexed(8900, 26, 1024, None, "dark_blue")
    saved = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])[1]  # as the render CLI saves it
    image = cv2.imdecode(saved, cv2.IMREAD_COLOR)
    blue_tiles = [t for t in truth.tiles if t.labelled and CLASS_NAMES[t.class_id].startswith("blue")]
    reader = TileReader()

    def blue_read_black() -> int:
        found = reader.read(image)
        count = 0
        for tile in blue_tiles:
            iou = box_iou(np.array([tile.box]), found.xyxy)[0]
            if len(iou) and iou.max() > 0.5:
                count += CLASS_NAMES[found.class_id[iou.argmax()]].startswith("black")
        return count

    reader.photo_blue = False
    alone = blue_read_black()
    reader.photo_blue = True
    assert alone >= 8
    assert blue_read_black() <= 1
