"""Every flow of the Streamlit app, driven by AppTest with the tile reader replaced by fixed detections."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np
import pytest
from app_fakes import APP, FakeReader, photo_bytes, scene_detections
from streamlit.testing.v1 import AppTest

from assistant.storage import Storage, default_db_path

NewTab = Callable[[], AppTest]


def texts(at: AppTest, kind: str) -> list[str]:
    return [str(element.value) for element in getattr(at, kind)]


MARKS = {
    "valid": ":green[:material/check_circle:]",
    "invalid": ":red[:material/cancel:]",
    "unjudged": ":gray[:material/help:]",
}


def set_row(at: AppTest, number: int) -> Any:
    """The tile buttons of set `number`, labelled `MARK Set n: verdict`."""
    [found] = [p for p in at.pills if f" Set {number}: " in p.label]
    return found


def set_verdict(at: AppTest, number: int) -> tuple[str, str]:
    """(valid / invalid / unjudged, the verdict text) of set `number`."""
    mark, text = set_row(at, number).label.split(f" Set {number}: ")
    return {v: k for k, v in MARKS.items()}[mark], text


def table_with(at: AppTest, column: str) -> Any:
    """The last dataframe on the page that has `column`."""
    return [frame.value for frame in at.dataframe if column in frame.value.columns][-1]


def stored_game() -> Any:
    store = Storage(default_db_path())
    [(game_id, _)] = store.list_games()
    return store.load_game(game_id)


def upload(at: AppTest, data: bytes, name: str = "table.jpg", mime: str = "image/jpeg") -> AppTest:
    at.radio(key="source").set_value("upload").run()
    at.file_uploader(key="upload_photo").set_value((name, data, mime))
    return at.run()


def type_layout(at: AppTest, text: str) -> AppTest:
    at.radio(key="source").set_value("type").run()
    at.text_area(key="layout_text").input(text)
    return at.run()


def test_opens_on_the_bundled_example_with_a_verdict(app: NewTab, reader: FakeReader) -> None:
    at = app()
    assert not at.exception
    assert texts(at, "success") == ["Table valid: 3 sets, 10 tiles, 55 points."]
    assert "10 tiles seen" in texts(at, "caption")
    assert len(at.image) == 1
    assert reader.calls == 1
    assert stored_game().table_layout == "r5 r6 r7 | k9 b9 o9 | b1 b2 b3 b4"


def test_upload_gives_a_verdict_with_the_reason(app: NewTab, reader: FakeReader) -> None:
    at = app()
    reader.detections = scene_detections([["r5 r6 r7", "k7 b7 k7"]])
    upload(at, photo_bytes(seed=2))
    assert not at.exception
    assert texts(at, "error") == ["Table not valid: 1 of 2 sets break the rules."]
    assert set_verdict(at, 2) == ("invalid", "black appears twice in the group of 7s")
    assert set_verdict(at, 1) == ("valid", "red 5-6-7 · 18 points")


def test_camera_photo_gives_a_verdict(app: NewTab, reader: FakeReader) -> None:
    at = app()
    reader.detections = scene_detections([["o11 o12 o13"]])
    at.radio(key="source").set_value("camera").run()
    at.camera_input(key="camera_photo").set_value(("shot.jpg", photo_bytes(seed=3), "image/jpeg"))
    at.run()
    assert not at.exception
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 36 points."]


def test_a_doubtful_tile_is_fixed_in_two_clicks(app: NewTab, reader: FakeReader) -> None:
    at = app()
    # The third tile reads as b6 (doubtful, 45%); the classifier's runner-up is r6.
    reader.detections = scene_detections([["r4 r5 b6"]], runner_up={"b6": "r6"})
    upload(at, photo_bytes(seed=4))
    assert texts(at, "error") == ["Table not valid: the set breaks the rules."]
    [check] = texts(at, "warning")
    assert check.startswith("Check: set 1, tile 3 reads b6, maybe r6")
    assert set_row(at, 1).options[2] == ":orange-background[:blue[**6**]?]"
    assert set_verdict(at, 1)[0] == "invalid"
    set_row(at, 1).set_value(2).run()  # click 1: the tile
    assert at.pills(key="fix_likely").options[0] == ":red[**r6**]"  # red 6 offered first
    at.pills(key="fix_likely").set_value("r6").run()  # click 2: what it is
    assert not at.exception
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 15 points."]
    assert texts(at, "warning") == []
    assert stored_game().table_layout == "r4 r5 r6"


def test_any_tile_can_be_replaced_or_removed(app: NewTab) -> None:
    at = type_layout(app(), "r5 r6 r7 k1")
    assert texts(at, "error") == ["Table not valid: the set breaks the rules."]
    assert set_verdict(at, 1)[0] == "invalid"
    set_row(at, 1).set_value(3).run()
    at.pills(key="fix_any_j").set_value("remove").run()
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 18 points."]
    set_row(at, 1).set_value(0).run()
    at.pills(key="fix_any_j").set_value("J").run()
    assert stored_game().table_layout == "J r6 r7"
    assert set_verdict(at, 1) == ("valid", "red 5-6-7 · 18 points · joker as r5")


def test_typed_correction_recomputes_and_bad_text_keeps_the_layout(app: NewTab) -> None:
    at = type_layout(app(), "r1 r2 r3 | k4 k5")
    assert texts(at, "error") == ["Table not valid: 1 of 2 sets break the rules."]
    at.text_area(key="layout_text").input("r1 r2 r3 | k4 k5 k6").run()
    assert texts(at, "success") == ["Table valid: 2 sets, 6 tiles, 21 points."]
    at.text_area(key="layout_text").input("r1 r2 x3").run()
    assert any("x3" in e for e in texts(at, "error"))
    assert stored_game().table_layout == "r1 r2 r3 | k4 k5 k6"


def test_unread_tiles_must_be_fixed_before_judging(app: NewTab, reader: FakeReader) -> None:
    at = app()
    detections = scene_detections([["r1 r2 r3"]])
    detections.class_id[1] = -1
    reader.detections = detections
    upload(at, photo_bytes(seed=5))
    assert texts(at, "warning")[0].startswith("1 tile(s) not read")
    assert stored_game().table_layout == "r1 ? r3"
    assert set_verdict(at, 1) == ("unjudged", "not judged: a tile is not read")
    set_row(at, 1).set_value(1).run()
    at.pills(key="fix_any_r").set_value("r2").run()
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 6 points."]


BAD_PHOTOS = [
    ("notes.txt", b"this is not a picture", "text/plain", "is not a picture"),
    ("empty.jpg", b"", "image/jpeg", "is empty"),
    ("huge.jpg", b"\xff\xd8\xff" + bytes(100 * 10**6), "image/jpeg", "100.0 MB; photos up to 100 MB"),
    (
        "black.jpg",
        cv2.imencode(".jpg", np.zeros((480, 640, 3), np.uint8))[1].tobytes(),
        "image/jpeg",
        "blank",
    ),
    ("broken.jpg", photo_bytes(seed=6)[:300], "image/jpeg", "damaged"),
]


@pytest.mark.parametrize("name, data, mime, message", BAD_PHOTOS, ids=[p[0] for p in BAD_PHOTOS])
def test_a_bad_upload_shows_a_message_and_keeps_the_table(
    app: NewTab, reader: FakeReader, name: str, data: bytes, mime: str, message: str
) -> None:
    at = app()
    before = stored_game().table_layout
    upload(at, data, name=name, mime=mime)
    assert not at.exception
    [error] = texts(at, "error")
    assert message in error and "kept as it was" in error
    assert stored_game().table_layout == before
    assert reader.calls == 1  # only the example was read


def test_no_tiles_in_the_photo_is_an_empty_table_said_so(app: NewTab, reader: FakeReader) -> None:
    at = app()
    reader.detections = scene_detections([])  # the bare table (issue 35: not refused, an empty table)
    upload(at, photo_bytes(seed=7))
    assert texts(at, "error") == []
    assert any(i.startswith("No tiles seen: the table is empty") for i in texts(at, "info"))
    assert stored_game().table_layout == ""


def test_a_model_that_fails_to_load_is_a_message(app: NewTab, monkeypatch: pytest.MonkeyPatch) -> None:
    from vision import photos
    from vision.onnx_models import ModelLoadError

    def broken() -> Any:
        raise ModelLoadError("model file 'tile_detector.onnx' not found")

    monkeypatch.setattr(photos, "load_tile_reader", broken)
    at = upload(type_layout(app(), "r1 r2 r3"), photo_bytes(seed=8))
    assert not at.exception
    assert any("tile_detector.onnx" in e for e in texts(at, "error"))
    assert stored_game().table_layout == "r1 r2 r3"


def start_turn(at: AppTest, rack: str = "") -> AppTest:
    at.radio(key="screen").set_value("Turn").run()
    at.text_input(key="turn_rack").input(rack)
    at.button[0].click()
    return at.run()


def end_turn(at: AppTest) -> AppTest:
    [end] = [b for b in at.button if b.label == "End turn"]
    end.click()
    return at.run()


def test_turn_judge_legal_opening(app: NewTab) -> None:
    at = type_layout(app(), "")
    start_turn(at, rack="r10 r11 r12 k1 k2")
    assert any("is playing" in info for info in texts(at, "info"))
    at.text_area(key="layout_text").input("r10 r11 r12").run()
    end_turn(at)
    assert not at.exception
    assert texts(at, "success")[-1] == "Legal: played r10 r11 r12."
    game = stored_game()
    assert game.agreed_layout == "r10 r11 r12"
    assert game.player(0).opened and game.turn_seat == 1 and game.pending is None


def test_turn_judge_illegal_says_what_to_put_back_and_the_penalty(app: NewTab) -> None:
    at = type_layout(app(), "r10 r11 r12")
    start_turn(at)
    at.text_area(key="layout_text").input("r10 r11 r12 r13 | k5 k6").run()
    end_turn(at)
    assert not at.exception
    assert "Not legal. Put the table back as it was:" in texts(at, "error")
    shown = "\n".join(texts(at, "markdown"))
    assert "k5 k6" in shown and "left invalid" in shown
    assert "**Take back to the rack: r13 k5 k6**" in shown
    assert "**Take apart: r10 r11 r12 r13**" in shown
    assert "**Put back as it was: r10 r11 r12**" in shown
    assert texts(at, "warning")[-1] == "Penalty: draw 1 tile."
    game = stored_game()
    assert game.agreed_layout == "r10 r11 r12"
    assert game.table_layout == "r10 r11 r12"  # put back
    assert at.text_area(key="layout_text").value == "r10 r11 r12"
    assert at.selectbox(key="turn_seat").value == 1  # the next player's turn
    assert not game.player(0).opened
    # A second tab on the same game sees the same judged turn.
    other = app()
    other.radio(key="screen").set_value("Turn").run()
    assert "**Take back to the rack: r13 k5 k6**" in "\n".join(texts(other, "markdown"))


def test_tournament_penalty_is_three_tiles(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Game").run()
    at.text_input(key="new_name").input("Cup")
    at.selectbox(key="new_preset").set_value("tournament")
    at.text_input(key="new_players").input("Ann, Ben, Cy")
    at.radio(key="new_camera").set_value("type")
    [create] = [b for b in at.button if b.label == "Create game"]
    create.click().run()
    assert not at.exception
    assert at.markdown[0].value == "#### Cup · tournament"
    assert at.radio(key="screen").value == "Table"
    type_layout(at, "r1 r2 r3")
    start_turn(at)
    at.text_area(key="layout_text").input("r1 r2").run()
    end_turn(at)
    assert texts(at, "warning")[-1] == "Penalty: draw 3 tiles."


@pytest.mark.parametrize("players, message", [("Ann", "2–4 players, not 1"), ("A, B, C, D, E", "not 5")])
def test_new_game_checks_the_player_count(app: NewTab, players: str, message: str) -> None:
    at = app()
    at.radio(key="screen").set_value("Game").run()
    at.text_input(key="new_players").input(players)
    [create] = [b for b in at.button if b.label == "Create game"]
    create.click().run()
    assert any(message in e for e in texts(at, "error"))
    assert len(Storage(default_db_path()).list_games()) == 1


def test_round_scoring_and_ledger(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Round").run()
    assert at.subheader[0].value == "Round 1: racks at the end"
    at.text_input(key="rack_1_1").input("r5 k3 J").run()
    assert texts(at, "caption")[-1] == "Player 1 went out."
    [confirm] = [b for b in at.button if b.label == "Confirm round 1"]
    confirm.click().run()
    assert not at.exception
    assert texts(at, "success") == [
        "Round 1 recorded: Player 1 went out. Scores: Player 1 +38; Player 2 -38."
    ]  # confirming says so
    assert at.subheader[0].value == "Round 2: racks at the end"
    standings = table_with(at, "games won")
    assert list(standings["player"]) == ["Player 1", "Player 2"]
    assert list(standings["total"]) == [38, -38]
    assert list(standings["games won"]) == [1, 0]
    # A blocked round: nobody went out, the lowest rack wins.
    at.text_input(key="rack_2_0").input("k13 b13")
    at.text_input(key="rack_2_1").input("o2").run()
    assert "Blocked round: nobody went out, the lowest rack wins." in texts(at, "caption")
    [confirm] = [b for b in at.button if b.label == "Confirm round 2"]
    confirm.click().run()
    standings = table_with(at, "games won")
    assert dict(zip(standings["player"], standings["total"], strict=True)) == {
        "Player 1": 14,
        "Player 2": -14,
    }
    assert len(at.get("vega_lite_chart")) == 1
    per_round = table_with(at, "blocked")
    assert list(per_round["round"]) == [1, 2] and list(per_round["blocked"]) == ["", "yes"]
    assert list(per_round["Player 1"]) == [38, -24]
    assert [b.label for b in at.get("download_button")] == ["Download scores (CSV)"]
    csv_lines = Storage(default_db_path()).export_csv(stored_game().id).splitlines()
    assert csv_lines[-1] == "2,1,Player 2,o2,2,24,1,-14"


def test_a_stale_tab_cannot_confirm_the_same_round_twice(app: NewTab) -> None:
    first, second = app(), app()
    for at in (first, second):
        at.radio(key="screen").set_value("Round").run()
        at.text_input(key="rack_1_1").input("r5").run()
    [b for b in first.button if b.label == "Confirm round 1"][0].click().run()
    [b for b in second.button if b.label == "Confirm round 1"][0].click().run()
    assert any("round 1 is already recorded" in e for e in texts(second, "error"))
    assert len(Storage(default_db_path()).rounds(stored_game().id)) == 1


def test_a_bad_rack_names_the_token(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Round").run()
    at.text_input(key="rack_1_1").input("r5 z9").run()
    assert any("z9" in e for e in texts(at, "error"))
    assert not [b for b in at.button if b.label.startswith("Confirm")]


def test_an_unusable_database_is_a_message(
    app: NewTab, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "a-folder"
    folder.mkdir()
    monkeypatch.setenv("RUMMI_DB", str(folder))
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    assert any("cannot be used" in e for e in texts(at, "error"))


def test_opening_meld_counts_the_new_sets_and_the_joker(app: NewTab) -> None:
    at = type_layout(app(), "r10 r11 r12")
    storage = Storage(default_db_path())
    storage.set_agreed_layout(stored_game().id, "r10 r11 r12")
    at.text_area(key="layout_text").input("r10 r11 r12 | J k5 k6").run()
    assert at.multiselect[0].value == [1]
    assert at.metric[0].value == "15 / 30"
    assert any("joker counts as k4 (4 points)" in line for line in texts(at, "markdown"))
    at.text_area(key="layout_text").input("r10 r11 r12 | J k12 k13 | o9 b9 k9").run()
    assert at.metric[0].value == "63 / 30"


def test_live_video_without_a_server_session_is_a_message(app: NewTab) -> None:
    at = app()
    at.radio(key="source").set_value("live").run()
    assert not at.exception
    assert any("live video is not available" in e for e in texts(at, "error"))
    assert texts(at, "success") == ["Table valid: 3 sets, 10 tiles, 55 points."]


def test_a_second_tab_sees_a_correction_made_in_the_first(app: NewTab) -> None:
    first, second = app(), app()
    set_row(first, 3).set_value(0).run()
    first.pills(key="fix_any_b").set_value("b5").run()
    assert set_verdict(first, 3)[0] == "invalid"
    second.run()
    assert second.text_area(key="layout_text").value == "r5 r6 r7 | k9 b9 o9 | b5 b2 b3 b4"
    assert set_verdict(second, 3) == set_verdict(first, 3)


def test_tournament_round_charges_a_failed_opening(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Game").run()
    at.selectbox(key="new_preset").set_value("tournament")
    at.text_input(key="new_players").input("Ann, Ben")
    [b for b in at.button if b.label == "Create game"][0].click().run()
    at.radio(key="screen").set_value("Round").run()
    at.text_input(key="rack_1_1").input("r5").run()
    at.radio(key="failed_opening_1").set_value(at.radio(key="failed_opening_1").options[1]).run()
    preview = at.dataframe[0].value
    assert dict(zip(preview["player"], preview["score"], strict=True)) == {"Ann": 105, "Ben": -105}


def test_the_page_has_no_database_field(app: NewTab) -> None:
    """The database is the server's setting (RUMMI_DB, `-- --db PATH`, the secret `db`), not the page's."""
    at = app()
    at.radio(key="screen").set_value("Game").run()
    assert not at.exception
    assert not [t for t in at.text_input if "atabase" in t.label]
    assert "db_path" not in at.session_state


def test_a_locked_database_is_a_message_not_a_traceback(app: NewTab, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    at = app()
    connect = sqlite3.connect
    monkeypatch.setattr(
        sqlite3, "connect", lambda *args, **kwargs: connect(*args, **{**kwargs, "timeout": 0.05})
    )
    blocker = connect(default_db_path())
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        at.text_area(key="layout_text").input("r1 r2 r3").run()
    finally:
        blocker.rollback()
        blocker.close()
    assert not at.exception
    assert any("locked" in e for e in texts(at, "error"))
    assert stored_game().table_layout == "r5 r6 r7 | k9 b9 o9 | b1 b2 b3 b4"


def test_choosing_the_example_again_shows_it_again(app: NewTab) -> None:
    at = type_layout(app(), "k1 k2 k3")
    assert stored_game().table_layout == "k1 k2 k3"
    at.radio(key="source").set_value("example").run()
    assert stored_game().table_layout == "r5 r6 r7 | k9 b9 o9 | b1 b2 b3 b4"
    assert texts(at, "error") == []


def test_a_scanned_rack_fills_in_the_rack(app: NewTab, reader: FakeReader) -> None:
    at = app()
    at.radio(key="screen").set_value("Round").run()
    reader.detections = scene_detections([["r5 k3 J"]])
    at.selectbox(key="rack_first_1").set_value(1)
    at.file_uploader(key="rack_photos_1").set_value([("rack.jpg", photo_bytes(seed=9), "image/jpeg")])
    at.run()
    assert not at.exception
    assert at.text_input(key="rack_1_1").value == "r5 k3 J"
    assert texts(at, "caption")[-1] == "Player 1 went out."
    preview = at.dataframe[0].value
    assert dict(zip(preview["player"], preview["rack value"], strict=True)) == {"Player 1": 0, "Player 2": 38}


def test_a_short_match_ends_after_three_rounds(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Game").run()
    at.multiselect(key="new_variants").set_value(["short-match"])
    at.text_input(key="new_players").input("Ann, Ben")
    [b for b in at.button if b.label == "Create game"][0].click().run()
    at.radio(key="screen").set_value("Round").run()
    for number, rack in enumerate(["r5", "k9", "o1"], start=1):
        at.text_input(key=f"rack_{number}_1").input(rack).run()
        [b for b in at.button if b.label == f"Confirm round {number}"][0].click().run()
    assert texts(at, "success")[-1] == "Match over after 3 rounds: Ann won."
    assert not [b for b in at.button if b.label.startswith("Confirm")]


def test_partnership_needs_four_players(app: NewTab) -> None:
    at = app()
    at.radio(key="screen").set_value("Game").run()
    at.multiselect(key="new_variants").set_value(["partnership"])
    at.text_input(key="new_players").input("Ann, Ben, Cy")
    [b for b in at.button if b.label == "Create game"][0].click().run()
    assert any("partnership play needs 4 players" in e for e in texts(at, "error"))
    at.text_input(key="new_players").input("Ann, Ben, Cy, Di")
    [b for b in at.button if b.label == "Create game"][0].click().run()
    at.radio(key="screen").set_value("Round").run()
    for seat, rack in ((1, "r5"), (2, "k1"), (3, "o2")):
        at.text_input(key=f"rack_1_{seat}").input(rack)
    at.run()
    [b for b in at.button if b.label == "Confirm round 1"][0].click().run()
    assert not at.exception
    standings = table_with(at, "games won")
    assert dict(zip(standings["player"], standings["total"], strict=True)) == {"Ann+Cy": 7, "Ben+Di": -7}


def test_opens_on_the_bundled_example_with_the_shipped_models(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No fakes: the shipped detector and classifier read the bundled example photo."""
    import streamlit as st

    monkeypatch.setenv("RUMMI_DB", str(tmp_path / "games.sqlite3"))
    st.cache_resource.clear()
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception
    assert texts(at, "error") == [] or texts(at, "error")[0].startswith("Table not valid")
    [seen] = [c for c in texts(at, "caption") if "tiles seen" in c]
    assert int(seen.split()[0]) >= 10
    assert len(at.pills) >= 2  # one row of tile buttons per set
