"""A second photo in one tab is read like the first (issue 31, item 1): Upload, Camera, and on the Turn screen
between Start turn and End turn."""

from __future__ import annotations

from app_fakes import FakeReader, photo_bytes, scene_detections
from test_app import NewTab, end_turn, start_turn, stored_game, texts, upload

from assistant.storage import Storage, default_db_path


def test_a_second_upload_is_read_and_shown(app: NewTab, reader: FakeReader) -> None:
    at = app()
    reader.detections = scene_detections([["r5 r6 r7"]])
    upload(at, photo_bytes(seed=31), name="first.jpg")
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 18 points."]
    reader.detections = scene_detections([["k1 k2 k3 k4", "o9 b9 r9"]])
    # The player removes the first file and adds another: the uploader holds only the new one.
    at.file_uploader(key="upload_photo").set_value(("second.jpg", photo_bytes(seed=32), "image/jpeg"))
    at.run()
    assert not at.exception
    assert texts(at, "success") == ["Table valid: 2 sets, 7 tiles, 37 points."]
    assert "7 tiles seen" in texts(at, "caption")
    assert len(at.image) == 1
    assert stored_game().table_layout == "k1 k2 k3 k4 | o9 b9 r9"


def test_a_second_camera_photo_is_read_and_shown(app: NewTab, reader: FakeReader) -> None:
    at = app()
    at.radio(key="source").set_value("camera").run()
    reader.detections = scene_detections([["o11 o12 o13"]])
    at.camera_input(key="camera_photo").set_value(("shot.jpg", photo_bytes(seed=33), "image/jpeg"))
    at.run()
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 36 points."]
    reader.detections = scene_detections([["b2 b3 b4"]])
    at.camera_input(key="camera_photo").set_value(("shot.jpg", photo_bytes(seed=34), "image/jpeg"))
    at.run()
    assert not at.exception
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 9 points."]
    assert stored_game().table_layout == "b2 b3 b4"


def test_the_turn_is_judged_on_the_photo_taken_after_start_turn(app: NewTab, reader: FakeReader) -> None:
    at = app()
    reader.detections = scene_detections([["r10 r11 r12"]])
    upload(at, photo_bytes(seed=35), name="before.jpg")
    start_turn(at, rack="k11 k12 k13 o1")
    assert any("is playing" in info for info in texts(at, "info"))
    reader.detections = scene_detections([["r10 r11 r12", "k11 k12 k13"]])  # an opening meld of 36
    at.file_uploader(key="upload_photo").set_value(("after.jpg", photo_bytes(seed=36), "image/jpeg"))
    at.run()
    assert stored_game().table_layout == "r10 r11 r12 | k11 k12 k13"
    end_turn(at)
    assert not at.exception
    assert texts(at, "success")[-1] == "Legal: played k11 k12 k13."  # not "drew a tile (table unchanged)"
    [turn] = Storage(default_db_path()).turns(stored_game().id)
    assert turn.after == "r10 r11 r12 | k11 k12 k13"
