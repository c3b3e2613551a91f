"""The Referee screen (issue 29) under AppTest: frames go through the real `GameWatcher` (a fake tile reader),
calls reach the screen with no tap, the draw and the override taps, the settle time, and a restarted app
resuming the stored referee game."""

from __future__ import annotations

import time
from collections.abc import Callable

import cv2
import numpy as np
import pytest
import streamlit as st
from app_fakes import VALID_TABLE, FakeReader, scene_detections
from streamlit.testing.v1 import AppTest

from assistant.referee import Referee
from assistant.rules import find_preset
from assistant.storage import Storage
from assistant.storage.referee import RefereeStore
from ui.referee import RefereeStream, verdict_sound

PLAYED = [["r5 r6 r7", "k9 b9 o9"], ["b1 b2 b3 b4", "o10 o11 o12"]]
BROKEN = [["r5 r6 r7", "k9 b9 o9"], ["b1 b2 b3 b4", "k12 k13"]]


def frame(rows: list[list[str]]) -> np.ndarray:
    """A picture of the table: the tiles `scene_detections` places, as light boxes on a green cloth."""
    image = np.full((480, 640, 3), (40, 110, 30), dtype=np.uint8)
    for x1, y1, x2, y2 in scene_detections(rows).xyxy.astype(int):
        cv2.rectangle(image, (int(x1), int(y1)), (int(x2), int(y2)), (235, 235, 225), -1)
    return image


class Clock:
    """The stream's clock: the frames' times are given, taps read it."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def show_table(stream: RefereeStream, reader: FakeReader, rows: list[list[str]], seconds: float) -> int:
    """A hand puts the tiles `rows` down (a new picture), then the table stays still for `seconds`; returns
    the calls the watcher made."""
    reader.detections = scene_detections(rows)
    calls = 0
    image = frame(rows)
    start = stream.clock()
    steps = int(seconds / 0.1) + 1
    for step in range(steps):
        event = stream.process(image, start + step * 0.1, step)
        calls += int(event is not None and event.call is not None)
    if isinstance(stream.clock, Clock):
        stream.clock.now = start + steps * 0.1 + 1.0
    return calls


def open_referee(app: Callable[[], AppTest]) -> AppTest:
    at = app()
    at.radio(key="screen").set_value("Referee").run()
    assert not at.exception, at.exception
    return at


def stream_of(at: AppTest) -> RefereeStream:
    stream = at.session_state["referee_stream"]
    assert isinstance(stream, RefereeStream)
    stream.clock = Clock()
    return stream


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [e.value for e in at.error] + [w.value for w in at.warning] + [i.value for i in at.info]
    return "\n".join(str(p) for p in parts)


def test_a_turn_is_judged_and_shown_with_no_tap(app: Callable[[], AppTest], reader: FakeReader) -> None:
    at = open_referee(app)
    assert "# Player 1" in texts(at) and "No turn judged yet" in texts(at)
    stream = stream_of(at)
    assert show_table(stream, reader, VALID_TABLE, seconds=2.0) == 0  # the start: no turn
    assert show_table(stream, reader, PLAYED, seconds=2.0) == 1
    at.run()  # what the screen's poll (a fragment run every second) does; no button is pressed
    assert not at.exception
    shown = texts(at)
    assert ":green[:material/check_circle: Legal]" in shown
    assert "**Turn 1 · Player 1** played o10 o11 o12" in shown
    assert "# Player 2" in shown  # whose turn it is now
    assert "Turn history (1)" in [h.value for h in at.subheader]
    assert "Turn 1 · seat 1 · played o10 o11 o12 · legal" in shown  # the call's own line
    assert len(at.image) == 1  # the snapshot of the settled table
    turns = RefereeStore(Storage(_db(at)).db).current(1).turns  # type: ignore[union-attr]
    assert [t.call.turn for t in turns] == [1] and turns[0].has_snapshot


def _db(at: AppTest) -> str:
    import os

    return os.environ["RUMMI_DB"]


def test_an_illegal_turn_is_shown_red_and_the_override_corrects_it(
    app: Callable[[], AppTest], reader: FakeReader
) -> None:
    at = open_referee(app)
    stream = stream_of(at)
    show_table(stream, reader, VALID_TABLE, seconds=2.0)
    show_table(stream, reader, BROKEN, seconds=2.0)
    at.run()
    shown = texts(at)
    assert ":red[:material/cancel: Not legal]" in shown
    assert any("k12 k13" in e.value for e in at.error)  # the reason names the broken set
    assert "put it back as it was, or mend it" in shown
    assert at.button(key="referee_drew").disabled  # no draw while the table is illegal
    at.button(key="referee_override").click().run()
    shown = texts(at)
    assert ":green[:material/check_circle: Legal (overridden)]" in shown
    assert ":orange[overridden]" in shown
    assert "# Player 2" in shown
    call = RefereeStore(Storage(_db(at)).db).current(1).turns[-1].call  # type: ignore[union-attr]
    assert call.legal and call.overridden
    at.button(key="referee_override").click().run()  # and back
    assert ":red[:material/cancel: Not legal (overridden)]" in texts(at)


def test_drew_a_tile(app: Callable[[], AppTest], reader: FakeReader) -> None:
    at = open_referee(app)
    stream_of(at)
    at.button(key="referee_drew").click().run()
    shown = texts(at)
    assert ":blue[:material/playing_cards: Player 1 drew]" in shown
    assert "Turn 1 · seat 1 · drew a tile" in shown and "# Player 2" in shown
    assert "no picture (a draw)" in shown
    at.button(key="referee_drew").click().run()
    assert "Turn history (2)" in [h.value for h in at.subheader] and "# Player 1" in texts(at)


def test_the_settle_time_setting(app: Callable[[], AppTest], reader: FakeReader) -> None:
    at = open_referee(app)
    at.number_input(key="referee_settle").set_value(3.0).run()
    assert not at.exception
    assert RefereeStore(Storage(_db(at)).db).current(1).settle_s == 3.0  # type: ignore[union-attr]
    stream = stream_of(at)
    assert stream.watcher.settle_s == 3.0
    show_table(stream, reader, VALID_TABLE, seconds=3.2)
    assert show_table(stream, reader, PLAYED, seconds=2.5) == 0  # still only 2.5 s: no call yet
    image = frame(PLAYED)
    start = stream.clock()
    calls = [stream.process(image, start + k * 0.1, k) for k in range(6)]  # the same still table, 3.1 s
    assert sum(e is not None and e.call is not None for e in calls) == 1


def test_a_settle_time_below_the_range_is_the_shortest(app: Callable[[], AppTest]) -> None:
    at = open_referee(app)
    at.number_input(key="referee_settle").set_value(0.0).run()
    assert not at.exception
    assert at.number_input(key="referee_settle").value == 0.5
    assert RefereeStore(Storage(_db(at)).db).current(1).settle_s == 0.5  # type: ignore[union-attr]


def test_a_restarted_app_resumes_the_referee_game(app: Callable[[], AppTest], reader: FakeReader) -> None:
    at = open_referee(app)
    stream = stream_of(at)
    show_table(stream, reader, VALID_TABLE, seconds=2.0)
    show_table(stream, reader, PLAYED, seconds=2.0)
    at.run()
    at.button(key="referee_drew").click().run()
    del at
    st.cache_resource.clear()  # a restarted server: nothing kept in memory
    again = open_referee(app)
    shown = texts(again)
    assert "Turn history (2)" in [h.value for h in again.subheader]
    assert "Turn 1 · seat 1 · played o10 o11 o12 · legal" in shown
    assert "Turn 2 · seat 2 · drew a tile" in shown
    assert "# Player 1" in shown  # seat 2 drew: seat 1 plays next
    # The resumed referee knows the table: the same table again is no turn, a new set is turn 3.
    stream = stream_of(again)
    assert show_table(stream, reader, PLAYED, seconds=2.0) == 0
    assert show_table(stream, reader, [*PLAYED, ["k1 k2 k3"]], seconds=2.0) == 1
    again.run()
    assert "**Turn 3 · Player 1** played k1 k2 k3" in texts(again)


def test_new_referee_game_keeps_the_old_one(app: Callable[[], AppTest]) -> None:
    at = open_referee(app)
    at.button(key="referee_drew").click().run()
    at.number_input(key="referee_players").set_value(3).run()
    at.number_input(key="referee_first").set_value(3).run()
    at.button(key="referee_new").click().run()
    assert not at.exception
    shown = texts(at)
    assert "# Seat 3" in shown and "No turn judged yet" in shown
    store = Storage(_db(at))
    assert RefereeStore(store.db).current(1).players == 3  # type: ignore[union-attr]
    kept = store.db.run(lambda c: c.exec_driver_sql("SELECT COUNT(*) FROM referee_turns").scalar_one())
    assert kept == 1
    at.number_input(key="referee_players").set_value(2).run()  # first seat 3 of 2: refused, said
    at.button(key="referee_new").click().run()
    assert any("No new referee game: the first seat must be 1 to 2, not 3" in e.value for e in at.error)
    assert RefereeStore(store.db).current(1).players == 3  # type: ignore[union-attr]


def test_each_verdict_sounds_once_and_the_sound_can_be_off(
    app: Callable[[], AppTest], reader: FakeReader
) -> None:
    at = open_referee(app)
    assert not at.get("audio")  # nothing new yet
    at.button(key="referee_drew").click().run()
    assert not at.get("audio")  # a draw is no verdict
    stream = stream_of(at)
    show_table(stream, reader, VALID_TABLE, seconds=2.0)
    show_table(stream, reader, PLAYED, seconds=2.0)
    at.run()
    assert len(at.get("audio")) == 1
    at.toggle(key="referee_sound_on").set_value(False).run()
    assert not at.get("audio")
    assert RefereeStore(Storage(_db(at)).db).current(1).sound is False  # type: ignore[union-attr]


def test_the_sounds_differ_by_verdict_and_turn() -> None:
    legal, illegal = verdict_sound(True, 1), verdict_sound(False, 1)
    assert legal[:4] == b"RIFF" and illegal[:4] == b"RIFF" and legal != illegal
    assert verdict_sound(True, 2) != legal  # two like verdicts in a row are two sounds


class SlowReader(FakeReader):
    """A tile reader that takes a second a frame (a slow computer)."""

    def read(self, image: np.ndarray, confidence: float | None = None) -> object:
        time.sleep(1.0)
        return super().read(image, confidence)


def test_the_video_keeps_its_frame_rate_while_the_table_is_read() -> None:
    reader = SlowReader(scene_detections(VALID_TABLE))
    stream = RefereeStream(reader, Referee(find_preset("standard"), players=2), referee_id=1, settle_s=0.5)
    image = frame(VALID_TABLE)
    took: list[float] = []
    end = time.monotonic() + 3.0
    while time.monotonic() < end:  # a camera at 20 frames a second
        started = time.perf_counter()
        shown = stream.on_frame(image)
        took.append(time.perf_counter() - started)
        time.sleep(max(0.0, 0.05 - took[-1]))
    assert shown.shape == image.shape
    assert reader.calls >= 1 and stream.referee.started  # the table was read and settled meanwhile
    assert max(took) < 0.5  # no frame waited for a read (each takes a second)
    assert stream.fps >= 15


def test_a_viewer_sees_the_verdicts_but_has_no_camera_or_taps(
    app: Callable[[], AppTest], reader: FakeReader, monkeypatch: pytest.MonkeyPatch
) -> None:
    director = open_referee(app)
    director.button(key="referee_drew").click().run()
    from ui import access as access_ui

    monkeypatch.setattr(access_ui, "connection_is_local", lambda: False)  # a phone on the LAN, no link
    viewer = open_referee(app)
    shown = texts(viewer)
    assert "This device only looks on" in shown
    assert "Turn 1 · seat 1 · drew a tile" in shown and "# Player 2" in shown
    assert not [b for b in viewer.button if b.key in ("referee_drew", "referee_override", "referee_new")]
    stream_of(viewer).drew()  # even a tap the page did not offer is refused in the server, at the store
    viewer.run()
    assert any("only the director or this game's table" in e.value for e in viewer.error)
    assert len(RefereeStore(Storage(_db(viewer)).db).current(1).turns) == 1  # type: ignore[union-attr]


def test_an_unreadable_stored_referee_game_is_said_and_kept(app: Callable[[], AppTest]) -> None:
    at = open_referee(app)
    at.button(key="referee_drew").click().run()
    store = Storage(_db(at))
    store.db.run(lambda c: c.exec_driver_sql("UPDATE referee_turns SET call = '{\"turn\": 1}'"))
    st.cache_resource.clear()
    again = open_referee(app)
    assert not again.exception
    said = [e.value for e in again.error]
    assert any("The referee game cannot be opened" in e and "not touched" in e for e in said), said
    stored = store.db.run(lambda c: c.exec_driver_sql("SELECT COUNT(*) FROM referee_turns").scalar_one())
    assert stored == 1  # nothing was replaced or removed
