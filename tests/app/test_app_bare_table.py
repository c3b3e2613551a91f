"""The Turn screen starts from an empty table (issue 35, item 5): a photo of the bare table is an empty
table, said plainly, so Start turn stores an empty table as "before" and the opening meld photographed next
is judged legal; the photo's caption says "the layout was edited" only after the player's own edit."""

from __future__ import annotations

from app_fakes import FakeReader, photo_bytes, scene_detections
from test_app import NewTab, end_turn, start_turn, stored_game, texts, upload

from assistant.storage import Storage, default_db_path

OPENING = [["b1 b2 b3 b4 b5", "k10 b10 o10 r10"]]  # 15 + 40 = 55 points


def edited_captions(at: object) -> list[str]:
    return [c for c in texts(at, "caption") if "edited" in c or "changed since" in c]


def test_a_photo_of_the_bare_table_is_an_empty_table_and_the_opening_is_legal(
    app: NewTab, reader: FakeReader
) -> None:
    at = app()  # the example's 55-point table is stored
    assert stored_game().table_layout
    at.radio(key="screen").set_value("Turn").run()
    reader.detections = scene_detections([])  # the bare table: no tiles
    upload(at, photo_bytes(seed=51), name="bare.jpg")
    assert not at.exception
    assert texts(at, "error") == []
    assert any(i.startswith("No tiles seen: the table is empty") for i in texts(at, "info"))
    assert stored_game().table_layout == ""
    start_turn(at)  # blank rack: every new tile is the player's
    assert stored_game().pending.before == ""
    reader.detections = scene_detections(OPENING)
    at.file_uploader(key="upload_photo").set_value(("opening.jpg", photo_bytes(seed=52), "image/jpeg"))
    at.run()
    assert stored_game().table_layout == "b1 b2 b3 b4 b5 | k10 b10 o10 r10"
    assert edited_captions(at) == []  # nothing was edited
    end_turn(at)
    assert not at.exception
    assert texts(at, "success")[-1] == "Legal: played b1 b2 b3 b4 b5 k10 b10 o10 r10."
    assert not [e for e in texts(at, "error") if "Not legal" in e]
    [turn] = Storage(default_db_path()).turns(stored_game().id)
    assert turn.legal and turn.before == "" and turn.penalty_tiles == 0
    assert stored_game().player(0).opened
    assert edited_captions(at) == []


def test_the_layout_is_said_edited_only_after_the_players_edit(app: NewTab, reader: FakeReader) -> None:
    at = app()
    reader.detections = scene_detections([["r10 r11 r12"]])
    upload(at, photo_bytes(seed=53), name="before.jpg")
    start_turn(at, rack="k5 k6")
    reader.detections = scene_detections([["r10 r11 r12", "k5 k6"]])  # k5 k6 is not a set
    at.file_uploader(key="upload_photo").set_value(("after.jpg", photo_bytes(seed=54), "image/jpeg"))
    at.run()
    end_turn(at)  # illegal: the table is put back to r10 r11 r12, the photo still shows two sets
    assert "Not legal. Put the table back as it was:" in texts(at, "error")
    assert stored_game().table_layout == "r10 r11 r12"
    [note] = edited_captions(at)
    assert "the layout was edited" not in note and "changed since (a turn put back" in note
    # The player's own edit under the photo: now it is "edited".
    at.text_area(key="layout_text").input("r10 r11").run()
    [note] = edited_captions(at)
    assert "the layout was edited: boxes show the photo as read" in note
