"""The real-racks evaluation counts tiles, racks found, racks in the owner's order and false racks."""

from __future__ import annotations

import numpy as np

from vision.evaluation.real_racks import score_photo


def _document(tokens: list[str], boxes: list[list[float]], doubtful: list[bool] | None = None) -> dict:
    marks = doubtful or [False] * len(tokens)
    return {"tiles": [{"tile": t, "box": b, "confidence": 0.9, "doubtful": d}
                      for t, b, d in zip(tokens, boxes, marks, strict=True)]}


TRUE_BOXES = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], float)
TRUTH = [{"tiles": ["k2", "r5", "b7"], "label_lines": [0, 1, 2]}]


def test_a_rack_read_whole_and_in_order() -> None:
    document = _document(["k2", "r5", "b7"], TRUE_BOXES.tolist())
    scores, errors = score_photo(TRUE_BOXES, ["k2", "r5", "b7"], TRUTH, document, [[0, 1, 2]])
    figures = scores.figures()
    assert figures["tiles_right"] == 1.0 and figures["racks_found"] == 1
    assert figures["racks_read_exactly"] == 1
    assert figures["racks_in_order"] == 1 and figures["false_racks"] == 0 and not errors


def test_a_logo_half_counted_into_the_rack_and_a_rack_out_of_order_are_named() -> None:
    boxes = TRUE_BOXES.tolist() + [[20, 12, 30, 18]]  # the lower half of a tile, read as another tile
    document = _document(["k2", "r5", "b7", "o9"], boxes, doubtful=[False, False, False, True])
    scores, errors = score_photo(TRUE_BOXES, ["k2", "r5", "b7"], TRUTH, document, [[1, 0, 2, 3], []])
    figures = scores.figures()
    assert figures["false_tiles"] == 1 and figures["racks_found"] == 1
    assert figures["racks_in_order"] == 0 and figures["racks_read_exactly"] == 0
    assert figures["false_racks"] == 1 and figures["doubtful"] == 1
    assert figures["doubtful_wrong_or_false"] == 1
    assert any("false tile o9" in e for e in errors) and any("out of order" in e for e in errors)


def test_a_rack_split_in_two_is_not_found() -> None:
    document = _document(["k2", "r5", "b7"], TRUE_BOXES.tolist())
    scores, _ = score_photo(TRUE_BOXES, ["k2", "r5", "b7"], TRUTH, document, [[0], [1], [2]])
    assert scores.racks_found == 0 and scores.rack_tiles_in_their_rack == 1 and scores.false_racks == 2
