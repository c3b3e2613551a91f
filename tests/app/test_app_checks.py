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


def test_the_any_tile_picker_has_one_row_per_colour_with_letters(app: NewTab) -> None:
    at = type_layout(app(), "r5 r6 r8")
    [row] = [p for p in at.pills if " Set 1: " in p.label]
    row.set_value(2).run()  # tap the r8
    rows = {letter: at.pills(key=f"fix_any_{letter}") for letter in "kbroj"}
    # Each tile with its letter, in its colour: red and orange are told apart by the letter too.
    markup = {"k": "**{}**", "b": ":blue[**{}**]", "r": ":red[**{}**]", "o": ":orange[**{}**]"}
    for letter in "kbro":
        assert rows[letter].options == [markup[letter].format(f"{letter}{n}") for n in range(1, 14)]
    assert rows["j"].options[0] == "**J**" and rows["j"].options[1].endswith("remove")
    rows["r"].set_value("r7").run()
    assert not at.exception
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 18 points."]
    assert stored_game().table_layout == "r5 r6 r7"
