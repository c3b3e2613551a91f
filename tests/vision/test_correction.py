"""Rules-aware correction: runner-up readings that make a set valid are proposed, never applied silently."""

from __future__ import annotations

import pytest
from layout_scenes import SceneBuilder

from assistant.rules import find_preset
from assistant.tiles import Tile
from vision.layout import rebuild


def one_row(tokens: str, **overrides: dict) -> SceneBuilder:
    """A row of tiles; `overrides[token] = dict(score=..., runner_ups=[...])` sets a tile's readings."""
    b = SceneBuilder()
    for k, token in enumerate(tokens.split()):
        b.add(token, (100 + 31 * k, 100), 0.0, **overrides.get(f"t{k}", {}))
    return b


def test_six_read_as_nine_is_proposed_and_raw_kept() -> None:
    b = one_row("b7 b8 b6 b10", t2={"score": 0.55, "runner_ups": [("b9", 0.4), ("o6", 0.03)]})
    layout = rebuild(b.detections())
    tile = layout.table[0][2]
    assert tile.tile == Tile.parse("b6")  # the raw reading stays
    assert tile.suggestion == Tile.parse("b9")
    assert tile.doubtful and "blue 9" in (tile.note or "")
    assert layout.verdicts[0].valid is False  # judged as read
    entry = layout.to_json()["table"][0]
    assert entry["tiles"] == ["b7", "b8", "b6", "b10"]
    assert entry["suggestions"][0]["raw"] == "b6" and entry["suggestions"][0]["proposed"] == "b9"
    assert layout.corrected_table() == [[Tile.parse(t) for t in "b7 b8 b9 b10".split()]]


def test_red_read_as_orange_in_a_group() -> None:
    b = one_row("k4 o4 r4 o4", t3={"score": 0.7, "runner_ups": [("r4", 0.1)]},
                t1={"score": 0.9, "runner_ups": [("b4", 0.05)]})
    layout = rebuild(b.detections())
    # Two orange 4s: o4 -> r4 at the end repeats red; o4 -> b4 in second place makes k4 b4 r4 o4.
    assert [t.suggestion for t in layout.table[0]] == [None, Tile.parse("b4"), None, None]


def test_likeliest_change_wins() -> None:
    b = one_row("r3 r4 r9", t2={"score": 0.5, "runner_ups": [("r5", 0.45)]},
                t0={"score": 0.9, "runner_ups": [("r8", 0.02)]})
    # r8 r4 r9 would not be valid anyway; r3 r4 r5 is.
    layout = rebuild(b.detections())
    assert layout.table[0][2].suggestion == Tile.parse("r5")
    assert layout.table[0][0].suggestion is None


def test_no_runner_up_no_suggestion() -> None:
    layout = rebuild(one_row("r3 r4 r9").detections())
    assert layout.suggestions == ()
    assert not any(t.doubtful for t in layout.table[0])
    assert layout.to_json()["table"][0]["reason"]


def test_valid_set_is_not_changed_but_low_score_is_doubtful() -> None:
    b = one_row("k1 k2 k3", t1={"score": 0.4, "runner_ups": [("b2", 0.35)]})
    layout = rebuild(b.detections())
    assert layout.verdicts[0].valid
    assert layout.suggestions == ()
    assert layout.table[0][1].doubtful and layout.table[0][1].suggestion is None


def test_two_doubtful_tiles_changed_together() -> None:
    b = one_row("o9 o9 o11 o9", t1={"score": 0.5, "runner_ups": [("o10", 0.4)]},
                t3={"score": 0.5, "runner_ups": [("o12", 0.4)]})
    layout = rebuild(b.detections())
    assert [str(t.corrected) for t in layout.table[0]] == ["o9", "o10", "o11", "o12"]
    assert len(layout.suggestions) == 2


@pytest.mark.parametrize(("preset", "flagged"), [("standard", True), ("six-player", False)])
def test_tile_count_limit_is_a_second_check(preset: str, flagged: bool) -> None:
    b = SceneBuilder()
    b.row("r5 b5 k5", (100, 100), 0)
    b.row("r3 r4 r5", (300, 100), 0)
    b.add("r5", (500, 300), 0, score=0.6, runner_ups=[("o5", 0.3)])
    layout = rebuild(b.detections(), find_preset(preset))
    assert bool(layout.problems) is flagged
    loose = layout.loose[0]
    assert (loose.suggestion == Tile.parse("o5")) is flagged
    if flagged:
        assert "3 red 5s" in layout.problems[0] and "2" in layout.problems[0]
        assert layout.to_json()["problems"] == list(layout.problems)


def test_count_limit_without_runner_up_marks_the_least_sure() -> None:
    b = SceneBuilder()
    b.add("J", (100, 100), 0, score=0.99)
    b.add("J", (300, 100), 0, score=0.97)
    b.add("J", (500, 100), 0, score=0.8)
    layout = rebuild(b.detections())
    assert layout.problems and "jokers" in layout.problems[0]
    assert [t.doubtful for t in layout.table[0] + layout.table[1] + layout.table[2]] == [False, False, True]


def test_count_limit_does_not_propose_a_reading_the_classifier_all_but_ruled_out() -> None:
    b = SceneBuilder()
    b.row("r3 r4 r5", (100, 100), 0)
    b.row("r5 b5 k5", (300, 100), 0)
    b.add("r5", (500, 300), 0, score=0.9, runner_ups=[("o5", 0.02)])  # 0.02 is under a tenth of 0.9
    layout = rebuild(b.detections())
    assert layout.problems and "3 red 5s" in layout.problems[0]
    loose = layout.loose[0]
    assert loose.doubtful and loose.suggestion is None
