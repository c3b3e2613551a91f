"""What the screens say (issue 31, item 5): a rack no box could hold is refused at Start turn, the opening meld
check of a meld with an invalid set, singular counts and articles, the "any tile" picker."""

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
