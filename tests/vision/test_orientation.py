"""The table's evidence on which way is up: 6 and 9 told by the row, half-turned readings turned back."""

from __future__ import annotations

import numpy as np

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.detections import Detections
from vision.layout import rebuild
from vision.orientation import SIX_NINE_SWAP, half_turned, rack_half_turned, settle_half_turns


def row(names: list[str], angles: list[float], width: float = 30.0, height: float = 40.0) -> Detections:
    """Tiles touching side by side in one row, read as `names` with the up angles given."""
    n = len(names)
    xyxy = np.array([[i * width, 0.0, (i + 1) * width, height] for i in range(n)])
    ids = np.array([CLASS_INDEX[name] for name in names])
    runner_up = np.array([CLASS_INDEX["joker"]] * n)
    return Detections(
        xyxy=xyxy,
        confidence=np.ones(n),
        class_id=ids,
        class_confidence=np.full(n, 0.8),
        topk_class_ids=np.stack([ids, runner_up], axis=1),
        topk_scores=np.tile([0.8, 0.05], (n, 1)),
        angle=np.array(angles, dtype=np.float32),
    )


def test_six_nine_swap_pairs_the_same_colour() -> None:
    assert SIX_NINE_SWAP[CLASS_INDEX["red_6"]] == CLASS_INDEX["red_9"]
    assert SIX_NINE_SWAP[CLASS_INDEX["blue_9"]] == CLASS_INDEX["blue_6"]
    assert len(SIX_NINE_SWAP) == 8
    for a, b in SIX_NINE_SWAP.items():
        assert CLASS_NAMES[a].split("_")[0] == CLASS_NAMES[b].split("_")[0]


def test_a_nine_half_turned_among_upright_neighbours_is_an_upright_six() -> None:
    found = row(["red_4", "red_5", "red_9", "red_7"], [0.0, 0.0, 180.0, 0.0])
    settled, changed = settle_half_turns(found)
    assert changed.tolist() == [False, False, True, False]
    assert CLASS_NAMES[settled.class_id[2]] == "red_6"
    assert settled.angle[2] == 0.0
    assert CLASS_NAMES[settled.topk_class_ids[2, 0]] == "red_6"


def test_the_rebuilt_row_is_then_a_valid_run() -> None:
    layout = rebuild(row(["red_4", "red_5", "red_9", "red_7"], [0.0, 0.0, 180.0, 0.0]))
    assert [[str(t) for t in s] for s in layout.table_tiles()] == [["r4", "r5", "r6", "r7"]]


def test_a_whole_row_upside_down_is_left_alone() -> None:
    found = row(["black_9", "black_8", "black_7"], [180.0, 180.0, 180.0])
    assert not half_turned(found).any()


def test_a_tile_with_one_agreeing_neighbour_is_not_turned() -> None:
    # Two upright, two turned: nothing tells which pair is right.
    found = row(["red_4", "red_5", "red_9", "red_9"], [0.0, 0.0, 180.0, 180.0])
    assert not half_turned(found).any()


def test_other_numbers_keep_their_reading_but_turn_with_the_row() -> None:
    found = row(["blue_3", "blue_4", "blue_5"], [0.0, 180.0, 0.0])
    settled, changed = settle_half_turns(found)
    assert changed.tolist() == [False, True, False]
    assert CLASS_NAMES[settled.class_id[1]] == "blue_4"
    assert settled.angle[1] == 0.0


def test_tiles_apart_are_not_neighbours() -> None:
    found = row(["red_4", "red_9", "red_7"], [0.0, 180.0, 0.0], width=30.0)
    found.xyxy[1] += np.array([0.0, 120.0, 0.0, 120.0], dtype=np.float32)  # a row further down
    assert not half_turned(found).any()


def test_without_angles_nothing_is_settled() -> None:
    found = row(["red_4", "red_9", "red_7"], [0.0, 0.0, 0.0])
    settled, changed = settle_half_turns(found)
    assert not changed.any() and settled is found


def test_a_surely_read_nine_keeps_its_reading() -> None:
    found = row(["red_4", "red_5", "red_9", "red_7"], [0.0, 0.0, 180.0, 0.0])
    found.class_confidence[2] = 0.97
    settled, changed = settle_half_turns(found)
    assert not changed.any()
    assert CLASS_NAMES[settled.class_id[2]] == "red_9"


def on_a_rack(found: Detections, rack_xyxy: list[list[float]] | None = None) -> Detections:
    """`found` standing on one rack box around all its tiles (or on the racks given)."""
    import dataclasses

    if rack_xyxy is None:
        x1, y1 = found.xyxy[:, :2].min(axis=0) - 5
        x2, y2 = found.xyxy[:, 2:].max(axis=0) + 5
        rack_xyxy = [[x1, y1, x2, y2]]
    racks = np.asarray(rack_xyxy, np.float32)
    return dataclasses.replace(found, rack_xyxy=racks, rack_confidence=np.full(len(racks), 0.9, np.float32))


def two_tiers(names: list[str], angles: list[float]) -> Detections:
    """Tiles on a rack's two tiers seen from above: the first half on the back tier, the rest on the front
    one, a gap between the tiers and a tile's width between tiles (no row a neighbour rule sees)."""
    found = row(names, angles)
    half = (len(names) + 1) // 2
    for i in range(len(names)):
        column, tier = (i, 0) if i < half else (i - half, 1)
        found.xyxy[i] = [column * 60.0, tier * 70.0, column * 60.0 + 30.0, tier * 70.0 + 40.0]
    return found


def test_a_nine_half_turned_on_a_rack_is_a_six_even_when_read_surely() -> None:
    # A rack turns every face to its owner: the rack's evidence outweighs a sure reading of the crop.
    found = on_a_rack(two_tiers(["red_4", "black_9", "blue_1", "red_11", "orange_2", "black_13"],
                                [5.0, 183.0, 10.0, 2.0, 358.0, 12.0]))
    found.class_confidence[1] = 1.0
    assert not half_turned(found).any()  # no neighbour beside it in a row
    assert rack_half_turned(found).tolist() == [False, True, False, False, False, False]
    settled, changed = settle_half_turns(found)
    assert changed.tolist() == [False, True, False, False, False, False]
    assert CLASS_NAMES[settled.class_id[1]] == "black_6"
    assert settled.angle[1] == 3.0


def test_the_same_tiles_on_the_table_keep_their_readings() -> None:
    found = two_tiers(["red_4", "black_9", "blue_1", "red_11", "orange_2", "black_13"],
                      [5.0, 183.0, 10.0, 2.0, 358.0, 12.0])
    settled, changed = settle_half_turns(found)
    assert not changed.any() and CLASS_NAMES[settled.class_id[1]] == "black_9"
    beside = on_a_rack(found, [[500.0, 500.0, 700.0, 600.0]])  # a rack elsewhere in the frame
    assert not rack_half_turned(beside).any()


def test_a_rack_whose_tiles_do_not_agree_is_left_alone() -> None:
    # Half one way, half the other: nothing tells which way its owner sits.
    mixed = on_a_rack(two_tiers(["red_4", "black_9", "blue_1", "red_6"], [0.0, 180.0, 0.0, 180.0]))
    assert not rack_half_turned(mixed).any()
    few = on_a_rack(two_tiers(["red_4", "black_9"], [0.0, 180.0]))
    assert not rack_half_turned(few).any()


def test_each_rack_has_its_own_up() -> None:
    # Two players' racks, seen from across the table: the far one upside down in the frame.
    near = two_tiers(["red_4", "black_9", "blue_1", "red_11"], [0.0, 180.0, 0.0, 0.0])
    far = two_tiers(["red_5", "black_6", "blue_2", "red_12"], [180.0, 0.0, 180.0, 180.0])
    far.xyxy = far.xyxy + np.array([0.0, 400.0, 0.0, 400.0], np.float32)
    found = on_a_rack(Detections.merge([near, far]), [[-5, -5, 200, 120], [-5, 395, 200, 520]])
    assert rack_half_turned(found).tolist() == [False, True, False, False, False, True, False, False]
    settled, _ = settle_half_turns(found)
    assert [CLASS_NAMES[c] for c in settled.class_id[[1, 5]]] == ["black_6", "black_9"]


def test_tiles_a_gap_apart_or_of_other_sizes_are_no_row() -> None:
    apart = row(["red_4", "red_9", "red_7"], [0.0, 180.0, 0.0], width=38.0)  # boxes 30 wide, 38 apart
    apart.xyxy[:, 2] = apart.xyxy[:, 0] + 30
    assert not half_turned(apart).any()
    bigger = row(["red_4", "red_9", "red_7"], [0.0, 180.0, 0.0])
    bigger.xyxy[1] = [30, -10, 75, 50]
    assert not half_turned(bigger).any()


def test_a_tile_far_smaller_than_its_row_is_doubtful() -> None:
    found = row(["red_4", "red_5", "red_6", "red_7"], [0.0, 0.0, 0.0, 0.0])
    layout = rebuild(found)
    assert not any(t.doubtful for s in layout.table for t in s)
    tiny = row(["red_4", "red_5", "red_6", "red_7", "black_9"], [0.0] * 5)
    tiny.xyxy[4] = [400, 10, 412, 26]  # a speck far off, a third of a tile's height
    layout = rebuild(tiny)
    speck = [t for s in layout.table for t in s if t.index == 4][0]
    assert speck.doubtful and "smaller" in (speck.note or "")


def _half_turned_one_tile_at_a_time(detections: Detections) -> np.ndarray:
    """`half_turned` as it was written before its neighbour screen was vectorised: the reference."""
    from vision.orientation import (
        MIN_AGREEING_NEIGHBOURS,
        ROW_AGREES_WITHIN,
        SAME_SIZE_WITHIN,
        SIDE_BY_SIDE_WITHIN,
        _angle_gap,
        _in_row,
        tile_heights,
    )

    n = len(detections)
    flagged = np.zeros(n, bool)
    if n < 3 or not np.any(detections.angle != 0):
        return flagged
    xyxy = np.asarray(detections.xyxy, np.float64)
    angles = detections.angle.astype(np.float64)
    centers = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    widths = 0.75 * tile_heights(xyxy, angles)
    gap = _angle_gap(angles[:, None], angles[None, :])
    reach = SIDE_BY_SIDE_WITHIN * MIN_AGREEING_NEIGHBOURS
    for i in range(n):
        width = widths[i]
        ratio = widths / width
        close = np.linalg.norm(centers - centers[i], axis=1) <= reach * width
        close &= (ratio <= SAME_SIZE_WITHIN) & (ratio >= 1 / SAME_SIZE_WITHIN)
        opposed = np.flatnonzero(close & (gap[i] > 180.0 - ROW_AGREES_WITHIN))
        if len(opposed) < MIN_AGREEING_NEIGHBOURS or gap[np.ix_(opposed, opposed)].max() >= ROW_AGREES_WITHIN:
            continue
        radians = np.deg2rad(angles[opposed])
        row_up = float(np.arctan2(np.sin(radians).mean(), np.cos(radians).mean()))
        right = np.array([np.cos(row_up), -np.sin(row_up)])
        up = np.array([-np.sin(row_up), -np.cos(row_up)])
        axes = (right, up, width)
        in_row = opposed[_in_row(centers[opposed] - centers[i], *axes, reach)]
        beside = in_row[_in_row(centers[in_row] - centers[i], *axes, SIDE_BY_SIDE_WITHIN)]
        alike = np.flatnonzero(close & (gap[i] < ROW_AGREES_WITHIN))
        alike = alike[alike != i]
        facing_as_the_tile = _in_row(centers[alike] - centers[i], *axes, SIDE_BY_SIDE_WITHIN).any()
        if len(in_row) >= MIN_AGREEING_NEIGHBOURS and len(beside) and not facing_as_the_tile:
            flagged[i] = True
    return flagged


def test_half_turned_flags_what_the_one_tile_at_a_time_version_flags() -> None:
    rng = np.random.default_rng(16)
    flagged_any = 0
    for _ in range(300):
        parts = []
        for _ in range(int(rng.integers(1, 5))):  # rows, some tiles half turned, some jittered
            count = int(rng.integers(2, 8))
            found = row(["red_5"] * count, list(rng.choice([0.0, 0.0, 0.0, 180.0], count)
                                                + rng.normal(0, 6, count)))
            found.xyxy = found.xyxy + np.tile(rng.uniform(0, 600, 2), 2)
            found.xyxy = found.xyxy * rng.uniform(0.8, 1.2)
            parts.append(found)
        found = Detections.merge(parts)
        expected = _half_turned_one_tile_at_a_time(found)
        flagged_any += expected.any()
        assert np.array_equal(half_turned(found), expected)
    assert flagged_any > 30  # the rule fires on many of the layouts
