"""Racks the detector finds as objects: every tile standing on one goes to it, tiers in the owner's order."""

from __future__ import annotations

import numpy as np

from assistant.tiles import CLASS_INDEX
from vision.detections import Detections
from vision.layout import LayoutParams, group, rebuild
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


def _standing_tiers(
    tiers: list[int], climb: float, step_up: float, seed: int = 0
) -> tuple[np.ndarray, list[int]]:
    """Boxes of tiles (40 x 54) standing on a rack that climbs `climb` pixels per tile to the right, the
    upper tier `step_up` pixels above the lower, tiers of the given lengths; and the owner's reading order
    of the boxes, which are given shuffled."""
    rng = np.random.default_rng(seed)
    boxes, order = [], []
    for tier, count in enumerate(tiers):
        for k in range(count):
            x = 100 + 42 * k
            y = 300 - climb * k - (step_up if tier == 0 and len(tiers) == 2 else 0) + rng.uniform(-1.5, 1.5)
            boxes.append([x, y, x + 40, y + 54])
            order.append(len(order))
    shuffled = rng.permutation(len(boxes))
    xyxy = np.array(boxes, np.float32)[shuffled]
    reading = [int(np.flatnonzero(shuffled == i)[0]) for i in order]
    return xyxy, reading


def _rack_around(xyxy: np.ndarray) -> np.ndarray:
    return np.array([[*(xyxy[:, :2].min(axis=0) - 10), *(xyxy[:, 2:].max(axis=0) + 10)]])


def test_tiers_of_a_long_rack_climbing_more_than_they_lie_apart_are_told_apart() -> None:
    # Seen from the front, a little turned: 13 over 11 tiles, the rack climbing 5 pixels a tile (65 over its
    # length) while the upper tier stands 20 pixels higher (a tuning render climbed 61 with 50 between).
    xyxy, reading = _standing_tiers([13, 11], climb=5.0, step_up=20.0)
    groups = tiles_on_rack_boxes(xyxy, np.zeros(len(xyxy)), _rack_around(xyxy), orientation_known=True)
    assert groups == [reading]


def test_one_tier_with_a_tile_partly_hidden_stays_one_tier() -> None:
    xyxy, reading = _standing_tiers([9], climb=2.0, step_up=0.0, seed=3)
    hidden = reading[4]
    xyxy[hidden, 1] += 12  # its top fifth hidden behind something: the box's centre 6 pixels lower
    groups = tiles_on_rack_boxes(xyxy, np.zeros(len(xyxy)), _rack_around(xyxy), orientation_known=True)
    assert groups == [reading]


def test_a_rack_holding_two_tiles_a_tier_is_read_along_its_tiles_right() -> None:
    # Too few tiles to show the rack's line: four in a square blob, the upper pair a tile height up.
    xyxy, reading = _standing_tiers([2, 2], climb=12.0, step_up=50.0, seed=5)
    groups = tiles_on_rack_boxes(xyxy, np.zeros(len(xyxy)), _rack_around(xyxy), orientation_known=True)
    assert groups == [reading]


def test_a_rack_tile_running_out_of_the_frame_stays_on_its_rack() -> None:
    # Four tiles 40 x 60 on a rack whose box the frame cuts at x = 200; the last tile shows 16 px of 40.
    boxes = np.array([[60, 100, 100, 160], [102, 100, 142, 160], [144, 100, 184, 160], [184, 100, 200, 160]],
                     np.float32)
    found = Detections(
        xyxy=boxes, confidence=np.full(4, 0.9, np.float32),
        rack_xyxy=np.array([[50, 90, 200, 190]], np.float32), rack_confidence=np.array([0.8], np.float32),
    ).with_readings(np.array([[CLASS_INDEX[f"red_{k}"]] for k in (1, 2, 3, 4)]), np.full((4, 1), 0.99))
    layout = group(found, image_size=(200, 300))
    # Grown back to its size the cut tile would reach 24 px beyond the frame, 60 % out of the rack's box.
    assert [sorted(p.index for p in rack) for rack in layout.racks] == [[0, 1, 2, 3]]
    assert not layout.table


def test_a_tile_cut_into_the_wrong_tier_goes_to_the_tier_whose_line_passes_nearer() -> None:
    from vision.racks import _nearer_line

    # Seen at an angle the tiers converge: the upper at y 100, the lower from 160 to 120 along the rack.
    xs = np.arange(10) * 30.0
    upper_tier = np.stack([xs, np.full(10, 100.0)], 1)
    lower_tier = np.stack([xs, 160 - 4.5 * np.arange(10)], 1)
    points = np.concatenate([upper_tier, lower_tier])
    # A first cut that put the upper tier's last tile into the lower one:
    upper, lower = np.arange(9), np.concatenate([[9], np.arange(10, 20)])
    tiers = _nearer_line(points, np.array([1.0, 0.0]), np.array([0.0, -1.0]), upper, lower)  # up: -y
    assert [sorted(t.tolist()) for t in tiers] == [list(range(10)), list(range(10, 20))]


def test_a_table_tile_inside_a_rack_box_does_not_merge_its_tiers() -> None:
    # Seen from above the tiers lie a tile height apart; a tile of the table lies in the rack's box 70 px
    # below the lower tier: the widest gap across is that one, and cut there the tiers were read as one
    # (a tuning render, seed 8800: 15 over 15 tiles read interleaved).
    xyxy, reading = _standing_tiers([8, 7], climb=0.0, step_up=56.0, seed=7)
    table_tile = np.array([[190, 370, 230, 424]], np.float32)
    boxes = np.concatenate([xyxy, table_tile])
    groups = tiles_on_rack_boxes(boxes, np.zeros(len(boxes)), _rack_around(boxes), orientation_known=True)
    assert len(groups) == 1
    assert [i for i in groups[0] if i != len(xyxy)] == reading
    assert len(xyxy) in groups[0]  # which tiles stand on the rack is the box's to say, as before


def test_tiers_lying_apart_lengthwise_are_split_across_the_tiles_right() -> None:
    # A rack cut by the frame's edge: the upper tier shows its right part only, the lower its left part.
    # The tiles' main axis then slopes from the lower left to the upper right, and across it the tiers
    # part by less than across the tiles' right.
    upper = [[100 + 42 * k, 240, 140 + 42 * k, 294] for k in range(4, 8)]
    lower = [[100 + 42 * k, 276, 140 + 42 * k, 330] for k in range(4)]
    xyxy = np.array(upper + lower, np.float32)
    groups = tiles_on_rack_boxes(xyxy, np.zeros(len(xyxy)), _rack_around(xyxy), orientation_known=True)
    assert groups == [list(range(8))]
