"""The Round screen as a table uses it: racks read from photos and fixed in two taps, what is still to enter,
the notice on confirming, undo, the chart after one round; the Game screen's players and games."""

from __future__ import annotations

import pytest
from app_fakes import FakeReader, photo_bytes, rack_detections, scene_detections
from test_app import NewTab, stored_game, table_with, texts

from assistant.storage import Storage, default_db_path


def round_screen(at: object) -> object:
    at.radio(key="screen").set_value("Round").run()  # type: ignore[attr-defined]
    return at


def confirm(at: object, number: int) -> None:
    [button] = [b for b in at.button if b.label == f"Confirm round {number}"]  # type: ignore[attr-defined]
    button.click().run()


def three_players(at: object) -> None:
    at.radio(key="screen").set_value("Game").run()  # type: ignore[attr-defined]
    at.text_input(key="new_players").input("Ann, Ben, Cy")  # type: ignore[attr-defined]
    [b for b in at.button if b.label == "Create game"][0].click().run()  # type: ignore[attr-defined]


def test_one_photo_of_two_racks_scores_the_round(app: NewTab, reader: FakeReader) -> None:
    at = round_screen(app())
    reader.detections = rack_detections(["r5 k3 J", "o1 o2"])
    at.file_uploader(key="rack_photos_1").set_value([("racks.jpg", photo_bytes(seed=21), "image/jpeg")])
    at.run()
    assert not at.exception
    assert at.text_input(key="rack_1_0").value == "r5 k3 J"
    assert at.text_input(key="rack_1_1").value == "o1 o2"
    labels = [p.label for p in at.pills]
    assert "Player 1: 3 tiles · 38 points" in labels and "Player 2: 2 tiles · 3 points" in labels
    assert "Blocked round: nobody went out, the lowest rack wins." in texts(at, "caption")


def test_each_players_photo_fills_their_rack_and_a_tile_is_fixed_in_two_taps(
    app: NewTab, reader: FakeReader
) -> None:
    at = round_screen(app())
    # One close-up per player, in seat order from Player 2; the second reads b6 with r6 the runner-up.
    shots = []
    for seed in (22, 23):
        shots.append((f"rack{seed}.jpg", photo_bytes(seed=seed), "image/jpeg"))
    readings = iter([scene_detections([["k13"]]), scene_detections([["r4 b6"]], runner_up={"b6": "r6"})])
    reader.read = lambda image, confidence=None: next(readings)  # type: ignore[method-assign]
    at.selectbox(key="rack_first_1").set_value(1)
    at.file_uploader(key="rack_photos_1").set_value(shots)
    at.run()
    assert at.text_input(key="rack_1_1").value == "k13"
    assert at.text_input(key="rack_1_0").value == "r4 b6"
    [ann] = [p for p in at.pills if p.label.startswith("Player 1:")]
    assert ann.label == "Player 1: 2 tiles · 10 points"
    ann.set_value(1).run()  # tap 1: the tile
    likely = at.pills(key="rack_fix_likely")
    assert likely.options[0] == ":red[**r6**]"  # the runner-up first, not the wrong reading
    assert ":blue[**6**]" not in likely.options
    likely.set_value("r6").run()  # tap 2: what it is
    assert at.text_input(key="rack_1_0").value == "r4 r6"
    assert "Player 1: 2 tiles · 10 points" in [p.label for p in at.pills]
    confirm(at, 1)
    stored = Storage(default_db_path()).rounds(stored_game().id)
    assert [s.rack for s in stored[0].scores] == ["r4 r6", "k13"]


def test_a_rack_tile_not_read_must_be_picked(app: NewTab, reader: FakeReader) -> None:
    at = round_screen(app())
    detections = rack_detections(["r1 r2", "k5"])
    detections.class_id[1] = -1
    reader.detections = detections
    at.file_uploader(key="rack_photos_1").set_value([("racks.jpg", photo_bytes(seed=24), "image/jpeg")])
    at.run()
    assert at.text_input(key="rack_1_0").value == "r1 ?"
    assert any("unread tiles (?) of Player 1" in c for c in texts(at, "caption"))
    assert not [b for b in at.button if b.label.startswith("Confirm")]
    [row] = [p for p in at.pills if p.label.startswith("Player 1:")]
    row.set_value(1).run()
    at.pills(key="rack_fix_any_b").set_value("b13").run()
    assert at.text_input(key="rack_1_0").value == "r1 b13"
    assert [b for b in at.button if b.label == "Confirm round 1"]


def test_one_typed_rack_of_three_asks_for_the_others(app: NewTab) -> None:
    at = app()
    three_players(at)
    round_screen(at)
    at.text_input(key="rack_1_0").input("r5").run()
    assert texts(at, "error") == []  # not "only one player can go out"
    assert "Still to enter: Ben, Cy (leave only the winner's rack blank)." in texts(at, "caption")
    at.text_input(key="rack_1_2").input("k2").run()
    assert "Ben went out." in texts(at, "caption")


def test_a_turn_screen_error_does_not_show_on_the_round_screen(app: NewTab) -> None:
    at = app()
    at.radio(key="source").set_value("type").run()
    at.text_area(key="layout_text").input("r1 ?").run()
    at.radio(key="screen").set_value("Turn").run()
    [b for b in at.button if b.label == "Start turn"][0].click().run()
    assert any(e.startswith("Turn not started") for e in texts(at, "error"))
    round_screen(at)
    assert texts(at, "error") == []


def test_after_one_round_the_chart_has_whole_rounds(app: NewTab) -> None:
    at = round_screen(app())
    at.text_input(key="rack_1_1").input("r5").run()
    confirm(at, 1)
    [chart] = at.get("arrow_vega_lite_chart") or at.get("vega_lite_chart")
    spec = chart.proto.spec
    assert '"round:O"' in spec or '"type": "ordinal"' in spec or '"ordinal"' in spec


def test_undo_of_the_last_round_is_explicit_and_gives_the_racks_back(app: NewTab) -> None:
    at = round_screen(app())
    at.text_input(key="rack_1_1").input("r5 k3").run()
    confirm(at, 1)
    [undo] = [b for b in at.button if b.label == "Undo round 1"]
    assert undo.disabled  # nothing is removed by one stray tap
    at.checkbox(key="undo_sure_1").check().run()
    [b for b in at.button if b.label == "Undo round 1"][0].click().run()
    assert not at.exception
    assert Storage(default_db_path()).rounds(stored_game().id) == []
    assert texts(at, "success") == ["Round 1 undone: its racks are back in the boxes to fix and confirm."]
    assert at.subheader[0].value == "Round 1: racks at the end"
    assert at.text_input(key="rack_1_1").value == "r5 k3"
    assert at.text_input(key="rack_1_0").value == ""
    confirm(at, 1)
    assert len(Storage(default_db_path()).rounds(stored_game().id)) == 1


def test_players_are_renamed_and_the_games_table_shows_totals(app: NewTab) -> None:
    at = round_screen(app())
    at.text_input(key="rack_1_1").input("r5").run()
    confirm(at, 1)
    at.radio(key="screen").set_value("Game").run()
    game_id = stored_game().id
    at.text_input(key=f"rename_{game_id}_0").input("Ann")
    at.text_input(key=f"rename_{game_id}_1").input("Ben")
    [b for b in at.button if b.label == "Save names"][0].click().run()
    assert not at.exception
    assert [p.name for p in stored_game().players] == ["Ann", "Ben"]
    games = table_with(at, "totals")
    assert list(games["game"]) == ["Table 1"] and list(games["rounds"]) == [1]
    assert list(games["totals"]) == ["Ann +5 · Ben -5"] and list(games["leading"]) == ["Ann"]
    assert [e.label for e in at.expander if e.label == "Open on a phone"] and len(at.image) == 1  # the QR
    assert any("copy that file to back them up" in c for c in texts(at, "caption"))
    at.radio(key="screen").set_value("Round").run()
    assert list(table_with(at, "games won")["player"]) == ["Ann", "Ben"]  # the history follows the seat


def test_a_rename_to_a_taken_name_is_refused(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Game").run()
    game_id = stored_game().id
    at.text_input(key=f"rename_{game_id}_1").input("player 1")
    [b for b in at.button if b.label == "Save names"][0].click().run()
    assert any("already plays" in e for e in texts(at, "error"))
    assert [p.name for p in stored_game().players] == ["Player 1", "Player 2"]


def test_confirm_records_the_racks_as_they_stand_when_pressed(app: NewTab) -> None:
    """A box typed into without Enter is sent with the click: the round uses it, not those drawn before."""
    at = round_screen(app())
    at.text_input(key="rack_1_0").input("r5 k3").run()  # Enter: Player 2 would go out
    assert "Player 2 went out." in texts(at, "caption")
    at.text_input(key="rack_1_0").set_value("")
    at.text_input(key="rack_1_1").set_value("o1 o2")  # typed, no Enter, then Confirm
    confirm(at, 1)
    assert not at.exception
    [record] = Storage(default_db_path()).rounds(stored_game().id)
    assert {s.name: (s.rack, s.score) for s in record.scores} == {
        "Player 1": ("", 3),
        "Player 2": ("o1 o2", -3),
    }
    assert texts(at, "success")[0] == "Round 1 recorded: Player 1 went out. Scores: Player 1 +3; Player 2 -3."


def test_confirm_with_a_box_left_unreadable_records_nothing(app: NewTab) -> None:
    at = round_screen(app())
    at.text_input(key="rack_1_0").input("r5 k3").run()
    at.text_input(key="rack_1_0").set_value("r5 z9")  # no Enter, then Confirm
    confirm(at, 1)
    assert not at.exception
    assert Storage(default_db_path()).rounds(stored_game().id) == []
    assert any("Round not recorded" in e and "z9" in e for e in texts(at, "error"))


def test_the_round_screen_uses_no_deprecated_streamlit_argument(
    app: NewTab, caplog: pytest.LogCaptureFixture
) -> None:
    at = round_screen(app())
    at.text_input(key="rack_1_1").input("r5").run()
    confirm(at, 1)
    assert len(at.get("vega_lite_chart")) == 1  # the totals chart is drawn
    deprecated = [r.getMessage() for r in caplog.records if "use_container_width" in r.getMessage()]
    shown = [w for w in texts(at, "warning") if "use_container_width" in w]
    assert deprecated == [] and shown == []
