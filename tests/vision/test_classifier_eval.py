"""vision.evaluation.crops: label parsing, the known real-dev label fix and the score counts."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.tiles import CLASS_INDEX
from vision.evaluation.crops import CropScores, fix_known_label_errors, polygon_label_boxes


def test_polygon_and_box_lines_become_pixel_boxes() -> None:
    text = "3 0.1 0.2 0.3 0.2 0.3 0.6 0.1 0.6\n\n26 0.5 0.5 0.2 0.4\n"
    class_ids, boxes = polygon_label_boxes(text, width=200, height=100)
    assert class_ids.tolist() == [3, 26]
    assert np.allclose(boxes, [[20, 20, 60, 60], [80, 30, 120, 70]])


@pytest.mark.parametrize("line", ["5 0.1 0.2 0.3", "5 0.1 0.2 0.3 0.4 0.5", "x 0.1 0.2 0.3 0.4"])
def test_malformed_label_line_is_a_value_error(line: str) -> None:
    with pytest.raises(ValueError):
        polygon_label_boxes(line, width=10, height=10)


def test_rummy2_lower_blue_row_is_black() -> None:
    blue_5, black_5, red_5 = CLASS_INDEX["blue_5"], CLASS_INDEX["black_5"], CLASS_INDEX["red_5"]
    class_ids = np.array([blue_5, blue_5, red_5])
    boxes = np.array([[0, 300, 10, 320], [0, 100, 10, 120], [20, 200, 30, 220]], dtype=float)
    fixed = fix_known_label_errors("rummy-2_jpeg.rf.abc.jpg", class_ids, boxes)
    assert fixed.tolist() == [black_5, blue_5, red_5]
    assert fix_known_label_errors("rummy-20_jpeg.rf.abc.jpg", class_ids, boxes).tolist() == class_ids.tolist()


def test_scores_count_colour_number_and_jokers() -> None:
    scores = CropScores()
    red_5, orange_5, red_6, joker = (CLASS_INDEX[n] for n in ("red_5", "orange_5", "red_6", "joker"))
    scores.add(red_5, np.array([red_5, red_6, orange_5]))
    scores.add(red_5, np.array([orange_5, red_5, red_6]))  # colour wrong, number right, in top 3
    scores.add(red_5, np.array([red_6, orange_5, joker]))  # number wrong, not in top 3
    scores.add(joker, np.array([joker, red_5, red_6]))
    scores.add(joker, np.array([red_5, joker, red_6]))
    assert (scores.tiles, scores.right, scores.in_top3) == (5, 2, 4)
    assert (scores.faces, scores.colour_right, scores.number_right) == (3, 2, 2)
    assert (scores.jokers, scores.jokers_found) == (2, 1)
    assert scores.confusions[("red_5", "orange_5")] == 1
    assert "crop accuracy 40.00% (2/5)" in scores.summary()
