"""The table's evidence on which way is up: 6 and 9 told by the row, half-turned readings turned back."""

from __future__ import annotations

import numpy as np

from assistant.tiles import CLASS_INDEX, CLASS_NAMES
from vision.detections import Detections
from vision.layout import rebuild
from vision.orientation import SIX_NINE_SWAP, half_turned, settle_half_turns


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


def test_tiles_a_gap_apart_or_of_other_sizes_are_no_row() -> None:
    apart = row(["red_4", "red_9", "red_7"], [0.0, 180.0, 0.0], width=38.0)  # boxes 30 wide, 38 apart
    apart.xyxy[:, 2] = apart.xyxy[:, 0] + 30
    assert not half_turned(apart).any()
    bigger = row(["red_4", "red_9", "red_7"], [0.0, 180.0, 0.0])
    bigger.xyxy[1] = [30, -10, 75, 50]
    assert not half_turned(bigger).any()
