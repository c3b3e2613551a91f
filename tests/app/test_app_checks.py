"""What the screens say (issue 31, item 5): a rack no box could hold is refused at Start turn, singular counts
and articles, the "any tile" picker (the opening meld check: test_app_trust.py)."""

from __future__ import annotations

from test_app import NewTab, start_turn, stored_game, texts, type_layout


def test_start_turn_refuses_a_rack_no_box_could_hold(app: NewTab) -> None:
    at = type_layout(app(), "r5 r6 r7")
    start_turn(at, rack="r5 r5 r5")
    assert not at.exception
    [error] = texts(at, "error")
    assert error.startswith("Turn not started: the table and the rack hold 4 copies of red 5 (r5)")
    assert "has only 2" in error
    assert stored_game().pending is None
    assert not [b for b in at.button if b.label == "End turn"]


def test_one_tile_and_one_point_are_singular(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Round").run()
    at.text_input(key="rack_1_0").input("k1").run()
    assert "Player 1: 1 tile · 1 point" in [p.label for p in at.pills]


def test_a_mixed_run_names_its_colour_with_the_right_article(app: NewTab) -> None:
    at = type_layout(app(), "o1 o2 r3")
    [row] = [p for p in at.pills if " Set 1: " in p.label]
    assert row.label.endswith("red 3 in an orange run: a run is one colour")
