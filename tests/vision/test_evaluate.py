"""Evaluation: label parsing, matching, known label fixes, figures."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.detections import Detections
from vision.evaluation.reading import (
    compare,
    fix_known_label_errors,
    main,
    match_boxes,
    parse_label_text,
    read_class_names,
    series_and_number,
    summarize,
)


def test_polygon_and_box_labels_become_pixel_boxes() -> None:
    text = "3 0.1 0.2 0.1 0.4 0.3 0.4 0.3 0.2\n7 0.5 0.5 0.2 0.1\n\n"
    boxes, classes = parse_label_text(text, 1000, 500)
    assert classes.tolist() == [3, 7]
    assert np.allclose(boxes, [[100, 100, 300, 200], [400, 225, 600, 275]])


@pytest.mark.parametrize(
    "yaml_text",
    [
        "nc: 3\nnames:\n  - b\n  - a\n  - c\n",
        "names: ['b', 'a', c]\n",
        "names:\n  0: b\n  1: a\n  2: c\nother: 1\n",
    ],
)
def test_read_class_names(tmp_path: Path, yaml_text: str) -> None:
    path = tmp_path / "data.yaml"
    path.write_text(yaml_text)
    assert read_class_names(path) == ["b", "a", "c"]


def test_series_and_number() -> None:
    assert series_and_number("rummy2-14_jpeg.rf.abc.jpg") == ("rummy2", 14)
    assert series_and_number("rummy-2_jpeg.rf.abc.jpg") == ("rummy", 2)
    assert series_and_number("000123.jpg") == ("other", None)


def test_matching_is_one_to_one_by_best_iou() -> None:
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10]], dtype=float)
    predicted = np.array([[1, 0, 11, 10], [0, 0, 10, 10], [50, 50, 60, 60]], dtype=float)
    assert sorted(match_boxes(predicted, truth)) == [(1, 0)]


def test_known_error_moves_the_lower_blue_row_to_black() -> None:
    blue5, black5, blue6 = CLASS_INDEX["blue_5"], CLASS_INDEX["black_5"], CLASS_INDEX["blue_6"]
    boxes = np.array([[0, 0, 10, 10], [0, 100, 10, 110], [20, 0, 30, 10]], dtype=float)
    ids = np.array([blue5, blue5, blue6])
    assert fix_known_label_errors("rummy-2_jpeg.rf.x.jpg", boxes, ids).tolist() == [blue5, black5, blue6]
    assert fix_known_label_errors("rummy-3_jpeg.rf.x.jpg", boxes, ids).tolist() == ids.tolist()


def test_figures_count_misses_false_tiles_and_misreadings() -> None:
    truth = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [60, 0, 70, 10]], dtype=float)
    true_ids = np.array([CLASS_INDEX[n] for n in ("red_5", "orange_5", "joker", "black_9")])
    found = Detections(
        xyxy=np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10], [90, 90, 99, 99]]),
        confidence=np.ones(4),
    ).with_readings(
        np.array([[CLASS_INDEX[n]] for n in ("red_5", "red_5", "joker", "blue_1")]), np.ones((4, 1))
    )
    summary = summarize([compare("rummy-1_x.jpg", found, truth, true_ids)])
    figures = summary["all"].figures()
    assert figures["detection_recall"] == pytest.approx(3 / 4)
    assert figures["detection_precision"] == pytest.approx(3 / 4)
    assert figures["false_tiles_per_photo"] == 1
    assert figures["end_to_end_accuracy"] == pytest.approx(2 / 4)
    assert figures["color_accuracy"] == pytest.approx(1 / 2)
    assert figures["number_accuracy"] == 1.0
    assert figures["joker_recall"] == 1.0
    assert figures["perfect_photos_share"] == 0.0
    assert summary["all"].confusions == {("orange_5", "red_5"): 1}
    assert set(summary) == {"all", "rummy"}


def test_detection_only_reports_no_reading_figures() -> None:
    truth = np.array([[0, 0, 10, 10]], dtype=float)
    found = Detections(xyxy=truth.copy(), confidence=np.ones(1))
    figures = summarize([compare("a-1.jpg", found, truth, np.array([0]))])["all"].figures()
    assert figures["detection_recall"] == 1.0
    assert "end_to_end_accuracy" not in figures
    assert figures["perfect_photos_share"] == 1.0


def test_command_runs_detection_only_on_a_labelled_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture
) -> None:
    from datasets.render import render_indexed

    image, truth, _ = render_indexed(9002, 0, long_side=1000, kind="scatter")
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "scene-1.jpg"), image)
    (tmp_path / "labels" / "scene-1.txt").write_text("\n".join(truth.yolo_lines()) + "\n")
    (tmp_path / "data.yaml").write_text("names:\n" + "".join(f"  - {n}\n" for n in CLASS_NAMES))
    out = tmp_path / "figures.json"
    args = ["--images", str(tmp_path / "images"), "--labels", str(tmp_path / "labels")]
    assert main([*args, "--detection-only", "--json", str(out)]) == 0
    assert "detection_recall" in capsys.readouterr().out
    figures = json.loads(out.read_text())
    assert figures["all"]["tiles"] == len(truth.yolo_lines())
    assert figures["all"]["detection_recall"] >= 0.9


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
@pytest.mark.parametrize("scale", [1.0, 0.5])
def test_a_photo_taken_otherwise_moves_its_labelled_boxes_with_its_pixels(turn: int, scale: float) -> None:
    from vision.evaluation.reading import taken_otherwise

    frame = np.zeros((300, 400, 3), np.uint8)
    boxes = np.array([[40.0, 60.0, 100.0, 140.0], [300.0, 200.0, 380.0, 280.0]])
    frame[60:140, 40:100] = (0, 0, 255)
    frame[200:280, 300:380] = (255, 0, 0)
    moved, moved_boxes = taken_otherwise(frame, boxes, turn=turn, scale=scale, jpeg_quality=90)
    height, width = (400, 300) if turn in (90, 270) else (300, 400)
    assert moved.shape[:2] == (round(height * scale), round(width * scale))
    for (x1, y1, x2, y2), colour in zip(moved_boxes, [(0, 0, 255), (255, 0, 0)], strict=True):
        inside = moved[int(y1) + 2 : int(y2) - 2, int(x1) + 2 : int(x2) - 2].reshape(-1, 3).mean(axis=0)
        assert np.abs(inside - colour).max() < 30
        assert (x2 - x1) * (y2 - y1) == pytest.approx((60 * 80 if colour[2] else 80 * 80) * scale**2)


@pytest.mark.parametrize(("turn", "scale", "quality"), [(45, 1.0, None), (0, 1.5, None), (0, 1.0, 0)])
def test_a_photo_cannot_be_taken_otherwise_in_ways_a_camera_does_not(
    turn: int, scale: float, quality: int | None
) -> None:
    from vision.evaluation.reading import taken_otherwise

    with pytest.raises(ValueError):
        taken_otherwise(np.zeros((10, 10, 3), np.uint8), np.zeros((0, 4)), turn, scale, quality)
