"""Detections: shape checks, indexing, merging, readings, the Tile boundary."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.tiles import CLASS_INDEX, Tile
from vision.detections import UNKNOWN_CLASS, Detections, box_iou


def _three() -> Detections:
    return Detections(
        xyxy=np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]]),
        confidence=np.array([0.9, 0.8, 0.7]),
    )


def test_defaults_mark_tiles_unread() -> None:
    found = _three()
    assert found.class_id.tolist() == [UNKNOWN_CLASS] * 3
    assert found.topk_class_ids.shape == (3, 0)
    assert found.tiles() == [None, None, None]
    assert not found.is_read.any()


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("confidence", np.zeros(2), "confidence"),
        ("angle", np.zeros(4), "angle"),
        ("topk_class_ids", np.zeros((2, 3)), "topk_class_ids"),
        ("class_id", np.array([0, 1, 99]), "out of range"),
    ],
)
def test_mismatched_shapes_are_named(field: str, value: np.ndarray, message: str) -> None:
    arrays = {"xyxy": np.zeros((3, 4)), "confidence": np.ones(3), field: value}
    with pytest.raises(ValueError, match=message):
        Detections(**arrays)


def test_mask_slice_and_int_indexing_return_detections() -> None:
    found = _three()
    assert found[np.array([True, False, True])].confidence.tolist() == pytest.approx([0.9, 0.7])
    assert len(found[1:]) == 2
    assert found[0].xyxy.tolist() == [[0, 0, 10, 10]]


def test_with_readings_fills_best_reading_and_tiles() -> None:
    ids = np.array(
        [[CLASS_INDEX["red_5"], CLASS_INDEX["orange_5"]], [CLASS_INDEX["joker"], 0]] * 1 + [[0, 1]]
    )
    scores = np.array([[0.9, 0.1], [0.8, 0.2], [0.6, 0.4]])
    read = _three().with_readings(ids, scores, np.array([0, 90, 180]))
    assert read.tiles() == [Tile.parse("r5"), Tile.joker(), Tile.parse("k1")]
    assert read.class_confidence.tolist() == pytest.approx([0.9, 0.8, 0.6])
    assert read.angle.tolist() == [0, 90, 180]


def test_no_detections_take_no_readings() -> None:
    # A read with a profile can leave out every find as the cloth: its readings are (0, k).
    read = Detections.empty().with_readings(np.zeros((0, 3), np.int64), np.zeros((0, 3)), np.zeros(0))
    assert len(read) == 0 and read.topk_class_ids.shape == (0, 3) and read.tiles() == []


def test_merge_pads_topk() -> None:
    read = _three()[:1].with_readings(np.array([[3, 4]]), np.array([[0.7, 0.3]]))
    merged = Detections.merge([read, _three()[1:]])
    assert len(merged) == 3
    assert merged.topk_class_ids.tolist() == [[3, 4], [-1, -1], [-1, -1]]
    assert Detections.merge([]).xyxy.shape == (0, 4)


def test_box_iou() -> None:
    iou = box_iou(np.array([[0, 0, 10, 10]]), np.array([[0, 0, 10, 10], [5, 0, 15, 10], [20, 20, 30, 30]]))
    assert iou[0].tolist() == pytest.approx([1.0, 50 / 150, 0.0])
