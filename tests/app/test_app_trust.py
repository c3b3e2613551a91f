"""Issue 12's "wrong or lost" flows: a second tab never overwrites the stored table, an invalid set never
makes a meld enough, a refused duplicate round is not offered again, the database is the server's setting,
a 48 MP photo is read, and the sets are counted alike everywhere."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from app_fakes import APP, FakeReader, photo_bytes, scene_detections
from streamlit.proto.Metric_pb2 import Metric
from streamlit.testing.v1 import AppTest
from test_app import NewTab, set_row, stored_game, texts, type_layout, upload

from assistant.storage import Storage, default_db_path


def test_a_second_tab_after_an_upload_shows_the_stored_table(app: NewTab, reader: FakeReader) -> None:
    first = app()
    reader.detections = scene_detections([["r4 r5 b6"]], runner_up={"b6": "r6"})
    upload(first, photo_bytes(seed=11))
    set_row(first, 1).set_value(2).run()
    first.pills(key="fix_likely").set_value("r6").run()
    assert stored_game().table_layout == "r4 r5 r6"
    calls = reader.calls
    reader.detections = scene_detections([["k1 k2 k3"]])  # what the example would read as now
    second = app()  # a new tab (or a reload) on the same database, picture source "example"
    assert not second.exception
    assert reader.calls == calls  # the example is not read over the stored table
    assert stored_game().table_layout == "r4 r5 r6"
    assert texts(second, "success") == ["Table valid: 1 set, 3 tiles, 15 points."]
    first.run()
    assert texts(first, "success") == ["Table valid: 1 set, 3 tiles, 15 points."]
    assert len(first.image) == 1  # the first tab keeps its own photo, beside its own tiles
    # Reading the example over the stored table is the player's explicit choice.
    [again] = [b for b in second.button if b.label == "Read the example"]
    again.click().run()
    assert stored_game().table_layout == "k1 k2 k3"


def test_a_reload_after_typing_keeps_the_typed_table(app: NewTab, reader: FakeReader) -> None:
    type_layout(app(), "o1 o2 o3")
    second = app()
    assert stored_game().table_layout == "o1 o2 o3"
    assert texts(second, "success") == ["Table valid: 1 set, 3 tiles, 6 points."]
    assert len(second.image) == 0


def test_choosing_the_example_in_a_second_tab_does_read_it(app: NewTab) -> None:
    type_layout(app(), "o1 o2 o3")
    second = app()
    second.radio(key="source").set_value("upload").run()
    second.radio(key="source").set_value("example").run()
    assert stored_game().table_layout == "r5 r6 r7 | k9 b9 o9 | b1 b2 b3 b4"


def test_an_invalid_set_never_makes_a_meld_enough(app: NewTab) -> None:
    """000_*.txt section 3: the opening meld is made of valid sets; `r4 r5` is not one."""
    at = type_layout(app(), "r10 r11 r12 | k13 b13 o13 | r4 r5 | o11 o12 o13")
    assert at.multiselect[0].value == [0, 1, 2, 3]  # nothing agreed yet: every set counts as new
    [metric] = at.metric
    assert metric.value == "not valid"  # never "108 / 30" with an arrow up
    assert metric.delta == "a set breaks the rules"
    assert Metric.MetricDirection.Name(metric.proto.direction) == "NONE"
    assert Metric.MetricColor.Name(metric.proto.color) == "RED"
    reasons = [line for line in texts(at, "markdown") if "only 2 tiles" in line]
    assert len(reasons) == 1 and "r4 r5" in reasons[0] and "cancel" in reasons[0]  # the reason once
    at.multiselect[0].set_value([0, 1]).run()
    assert at.metric[0].delta == "enough"


def test_a_refused_duplicate_round_is_not_offered_again(app: NewTab) -> None:
    first, second = app(), app()
    for at in (first, second):
        at.radio(key="screen").set_value("Round").run()
        at.text_input(key="rack_1_1").input("r5").run()
    [b for b in first.button if b.label == "Confirm round 1"][0].click().run()
    [b for b in second.button if b.label == "Confirm round 1"][0].click().run()
    assert any("round 1 is already recorded" in e for e in texts(second, "error"))
    assert not [b for b in second.button if b.label.startswith("Confirm round")]  # no one-click duplicate
    assert second.subheader[0].value == "Round 2: racks at the end"
    assert second.text_input(key="rack_2_1").value == ""
    assert len(Storage(default_db_path()).rounds(stored_game().id)) == 1


def test_a_tab_left_open_does_not_carry_racks_into_the_next_round(app: NewTab) -> None:
    first, second = app(), app()
    second.radio(key="screen").set_value("Round").run()
    second.text_input(key="rack_1_1").input("r5").run()
    first.radio(key="screen").set_value("Round").run()
    first.text_input(key="rack_1_1").input("r5").run()
    [b for b in first.button if b.label == "Confirm round 1"][0].click().run()
    second.run()  # the second tab only reruns
    assert second.subheader[0].value == "Round 2: racks at the end"
    assert not [b for b in second.button if b.label.startswith("Confirm round")]


def test_the_database_is_the_command_line_setting(
    app: NewTab, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    club = tmp_path / "club" / "scores.sqlite3"
    club.parent.mkdir()  # a --db file's folder must exist (only the default location's is made)
    monkeypatch.setattr(sys, "argv", ["app.py", "--db", str(club)])
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert not at.exception
    assert Storage(club).list_games() != []
    at.radio(key="screen").set_value("Game").run()
    assert any(str(club) in c for c in texts(at, "caption"))


def test_a_48_megapixel_photo_is_read(app: NewTab, reader: FakeReader) -> None:
    at = app()
    reader.detections = scene_detections([["o11 o12 o13"]])
    at.radio(key="source").set_value("upload").run()
    at.file_uploader(key="upload_photo").set_value(("phone.jpg", big_jpeg(), "image/jpeg"))
    at.run(timeout=180)  # decoding 48 MP takes well under a second on an idle CPU; a busy CI is slower
    assert not at.exception
    assert texts(at, "error") == []
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 36 points."]


def big_jpeg(width: int = 8064, height: int = 6048) -> bytes:
    """A 48 MP JPEG as a phone takes it (smooth, so it stays a few MB; made small and scaled up, in uint8)."""
    small = np.zeros((height // 8, width // 8, 3), np.uint8)
    small[..., 0] = np.linspace(0, 255, width // 8, dtype=np.uint8)[None, :]
    small[..., 1] = np.linspace(0, 255, height // 8, dtype=np.uint8)[:, None]
    cv2.rectangle(small, (250, 250), (375, 425), (250, 250, 250), -1)
    image = cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return encoded.tobytes()


def test_the_cli_the_picture_and_the_app_count_sets_alike(app: NewTab, reader: FakeReader) -> None:
    """Two sets and three tiles lying alone: 5 sets everywhere (a loose tile is a set of one)."""
    import subprocess

    from assistant.rules import find_preset
    from vision.annotate import LayoutAnnotator
    from vision.layout import rebuild

    rows = [["r5 r6 r7", "k9 b9 o9", "o1", "b2", "k4"]]
    layout = rebuild(scene_detections(rows), find_preset("standard"), image_size=(1200, 400))
    assert [len(s) for s in layout.table] == [3, 3, 1, 1, 1]
    summary = LayoutAnnotator.summary(layout)
    assert summary.startswith("5 sets: 2 valid, 3 invalid (3 single tiles)")
    cli = subprocess.run(
        [sys.executable, "-m", "assistant", "table", "r5 r6 r7 | k9 b9 o9 | o1 | b2 | k4"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert "(5 sets, 9 tiles" in cli.stdout
    at = app()
    reader.detections = scene_detections(rows)
    upload(at, photo_bytes(seed=31))
    assert texts(at, "error")[0] == "Table not valid: 3 of 5 sets break the rules (3 single tiles)."


def test_fixing_a_misread_tile_joins_the_set_it_split(app: NewTab, reader: FakeReader) -> None:
    """The reader cut `r3 r4 r5 b6 r7 r8` where a gap was too close to call (the rules decided); once b6 is
    fixed to r6 the photo is grouped again and the run is one set."""
    at = app()
    detections = scene_detections([["r3 r4 r5 b6 r7 r8"]], runner_up={"b6": "r6"})
    detections.xyxy[3:, [0, 2]] += 8  # a slightly wider gap before the misread tile
    reader.detections = detections
    upload(at, photo_bytes(seed=32))
    assert stored_game().table_layout == "r3 r4 r5 | b6 r7 r8"
    set_row(at, 2).set_value(0).run()
    likely = at.pills(key="fix_likely")
    assert likely.options[0] == ":red[**r6**]" and ":blue[**b6**]" not in likely.options
    likely.set_value("r6").run()
    assert stored_game().table_layout == "r3 r4 r5 r6 r7 r8"
    assert texts(at, "success") == ["Table valid: 1 set, 6 tiles, 33 points."]
    assert len(at.image) == 1  # the photo still boxes the (regrouped) sets


def test_camera_and_type_it_drop_the_last_picture_and_verdict(app: NewTab, reader: FakeReader) -> None:
    at = app()
    assert len(at.image) == 1 and texts(at, "success")
    at.radio(key="source").set_value("camera").run()
    assert len(at.image) == 0
    assert texts(at, "success") == [] and not at.pills  # the example's verdict is not shown as the camera's
    assert any(i.startswith("Take a photo of the table") for i in texts(at, "info"))
    reader.detections = scene_detections([["o11 o12 o13"]])
    at.camera_input(key="camera_photo").set_value(("shot.jpg", photo_bytes(seed=33), "image/jpeg"))
    at.run()
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 36 points."] and len(at.image) == 1
    at.radio(key="source").set_value("type").run()
    assert len(at.image) == 0  # typing shows the typed text's verdict, no photo
    assert at.text_area(key="layout_text").value == "o11 o12 o13"


def test_a_rejected_typed_layout_hides_the_old_verdict(app: NewTab) -> None:
    at = type_layout(app(), "r1 r2 r3")
    assert texts(at, "success") == ["Table valid: 1 set, 3 tiles, 6 points."]
    at.text_area(key="layout_text").input("r1 r2 x3").run()
    assert texts(at, "success") == [] and not at.pills
    assert any("x3" in e for e in texts(at, "error"))
    assert any("not checked" in i for i in texts(at, "info"))
    at.text_area(key="layout_text").input("r1 r2 r3 r4").run()
    assert texts(at, "success") == ["Table valid: 1 set, 4 tiles, 10 points."]
