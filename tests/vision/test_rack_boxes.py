"""Racks the detector finds as objects: every tile standing on one goes to it, tiers in the owner's order."""

from __future__ import annotations

import numpy as np

from assistant.tiles import CLASS_INDEX
from vision.detections import Detections
from vision.layout import LayoutParams, rebuild
from vision.racks import tiles_on_rack_boxes


def rack_scene(rack_box: list[float] | None, with_rack_class: bool = True) -> Detections:
    """Two tiers of four standing tiles (upper k1-k4, lower r10-r13), a row of three lying further down."""
    boxes, names = [], []
    for i in range(4):
        boxes.append([100 + 30 * i, 100, 128 + 30 * i, 140])
        names.append(f"black_{i + 1}")
    for i in range(4):
        boxes.append([100 + 30 * i, 150, 128 + 30 * i, 190])
        names.append(f"red_{i + 10}")
    for i in range(3):
        boxes.append([100 + 30 * i, 400, 128 + 30 * i, 440])
        names.append(f"blue_{i + 5}")
    n = len(boxes)
    ids = np.array([CLASS_INDEX[name] for name in names])
    racks = None
    if with_rack_class:
        racks = np.zeros((0, 4)) if rack_box is None else np.array([rack_box])
    return Detections(
        xyxy=np.array(boxes, dtype=np.float32),
        confidence=np.ones(n),
        class_id=ids,
        class_confidence=np.full(n, 0.95),
        topk_class_ids=ids[:, None],
        topk_scores=np.full((n, 1), 0.95),
        angle=np.zeros(n),
        rack_xyxy=racks,
    )


def test_tiles_on_a_rack_box_are_read_upper_tier_first() -> None:
    found = rack_scene([90, 90, 230, 200])
    groups = tiles_on_rack_boxes(found.xyxy, found.angle, found.rack_xyxy, orientation_known=True)
    assert groups == [[0, 1, 2, 3, 4, 5, 6, 7]]


def test_the_layout_puts_rack_tiles_in_racks_never_on_the_table() -> None:
    layout = rebuild(rack_scene([90, 90, 230, 200]))
    assert [[str(t) for t in rack] for rack in layout.rack_tiles()] == [
        ["k1", "k2", "k3", "k4", "r10", "r11", "r12", "r13"]
    ]
    assert [[str(t) for t in s] for s in layout.table_tiles()] == [["b5", "b6", "b7"]]


def test_a_rack_seen_turned_reads_along_its_tiles_up() -> None:
    found = rack_scene([90, 90, 230, 200])
    # The same rack turned a quarter turn counter-clockwise: (x, y) -> (y, 1000 - x); tiles' up points left.
    turned = found.xyxy[:, [1, 0, 3, 2]].copy()
    turned[:, [1, 3]] = 1000 - turned[:, [3, 1]]
    rack = np.array([[90, 770, 200, 910]])
    groups = tiles_on_rack_boxes(turned, np.full(len(turned), 90.0), rack, orientation_known=True)
    assert groups == [[0, 1, 2, 3, 4, 5, 6, 7]]


def test_no_rack_found_by_a_rack_aware_detector_means_no_rack() -> None:
    layout = rebuild(rack_scene(None))
    assert layout.racks == ()
    assert sum(len(s) for s in layout.table) == 11


def test_a_tile_half_off_the_rack_box_stays_on_the_table() -> None:
    found = rack_scene([90, 90, 230, 145])  # only the upper tier inside
    groups = tiles_on_rack_boxes(found.xyxy, found.angle, found.rack_xyxy, orientation_known=True)
    assert groups == [[0, 1, 2, 3]]


def test_the_geometric_finder_can_still_be_asked_for() -> None:
    params = LayoutParams(geometric_racks=True)
    layout = rebuild(rack_scene(None), params=params)
    assert all(len(rack) for rack in layout.racks)


def test_detections_keep_their_racks_when_selected() -> None:
    found = rack_scene([90, 90, 230, 200])
    assert found[[0, 1]].rack_xyxy.shape == (1, 4)
    assert Detections.merge([found, found]).rack_xyxy.shape == (2, 4)
