"""Each seat's side of the camera on the Referee screen (issue 36): set by a person (each side once, a refusal
said), given to the watcher, shown, and kept with the stored referee game through a restart, another tab's
call and a new referee game; a referee game stored before sides were kept still opens and learns them."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
import streamlit as st
from app_fakes import VALID_TABLE, FakeReader
from streamlit.testing.v1 import AppTest
from test_referee_screen import PLAYED, open_referee, show_table, stream_of, texts

from assistant.referee import Call, Referee
from assistant.rules import find_preset
from assistant.storage import Storage
from assistant.storage.referee import SEAT_SIDES, RefereeGame, RefereeStore
from tests.vision.test_watch import detections_of, table_frame, with_arm
from ui.referee import RefereeStream
from vision.watch import SeatSides


def stored(at: AppTest) -> RefereeGame:
    game = RefereeStore(Storage(os.environ["RUMMI_DB"]).db).current(1)
    assert game is not None
    return game


def set_sides(at: AppTest, *sides: str) -> None:
    for seat, side in enumerate(sides, start=1):
        at.selectbox(key=f"referee_side_{seat}").set_value(side)
    at.button(key="referee_sides_set").click().run()
    assert not at.exception, at.exception


def sides_line(at: AppTest) -> str:
    lines = [c.value for c in at.caption if "Sides of the camera" in c.value]
    assert len(lines) == 1, [c.value for c in at.caption]
    return lines[0]


class Visits:
    """Frames through the stream at 5 a second (as `tests/vision/test_watch.run_visits`): a hand comes in
    over one side of the picture for a second while the table changes, then the table lies still."""

    def __init__(self, stream: RefereeStream, reader: FakeReader, rows: list[str] | None = None) -> None:
        self.stream, self.reader, self.rows = stream, reader, rows or []
        self.time_s, self.index = 0.0, 0

    def _feed(self, frame: object) -> Call | None:
        event = self.stream.process(frame, self.time_s, self.index)  # type: ignore[arg-type]
        self.time_s += 0.2
        self.index += 1
        return None if event is None else event.call

    def still(self, frames: int = 13) -> list[Call]:
        self.reader.detections = detections_of(self.rows)
        calls = [self._feed(table_frame(self.rows)) for _ in range(frames)]
        return [call for call in calls if call is not None]

    def hand(self, side: str, rows: list[str]) -> list[Call]:
        self.reader.detections = detections_of(self.rows)
        calls = [self._feed(with_arm(table_frame(self.rows), side, offset=12 * step)) for step in range(5)]
        self.rows = rows
        return [call for call in calls if call is not None] + self.still()


def test_sides_set_on_the_screen_go_to_the_watcher_and_are_stored(
    app: Callable[[], AppTest], reader: FakeReader
) -> None:
    at = open_referee(app)
    assert [at.selectbox(key=f"referee_side_{seat}").value for seat in (1, 2)] == ["learn it", "learn it"]
    assert "Player 1: learning · Player 2: learning" in sides_line(at)
    set_sides(at, "bottom", "top")
    stream = stream_of(at)
    assert stream.watcher.seats.sides == {1: "bottom", 2: "top"} and stream.watcher.seats.fixed == {1, 2}
    assert stored(at).state[SEAT_SIDES] == {"given": {"1": "bottom", "2": "top"}, "learned": {}}
    assert "Player 1: bottom (set) · Player 2: top (set)" in sides_line(at)
    assert "order of play" not in sides_line(at)  # every seat has a side: a turn goes to the hand's seat
    # A turn judged with the sides set keeps them with the state stored after it.
    show_table(stream, reader, VALID_TABLE, seconds=2.0)
    assert show_table(stream, reader, PLAYED, seconds=2.0) == 1
    at.run()
    assert len(stored(at).turns) == 1
    assert stored(at).state[SEAT_SIDES]["given"] == {"1": "bottom", "2": "top"}


def test_a_side_chosen_for_two_seats_is_said_and_nothing_changes(app: Callable[[], AppTest]) -> None:
    at = open_referee(app)
    set_sides(at, "top", "top")
    errors = [e.value for e in at.error]
    said = "The sides were not changed: seat 1 and seat 2 are both given the top side"
    assert any(e.startswith(said) for e in errors), errors
    assert stream_of(at).watcher.seats.sides == {}
    assert SEAT_SIDES not in stored(at).state
    assert at.selectbox(key="referee_side_2").value == "top"  # the choice stays, to be mended
    set_sides(at, "top", "left")
    assert not at.error and stream_of(at).watcher.seats.sides == {1: "top", 2: "left"}


def test_a_restarted_app_keeps_the_sides_given_and_learned(
    app: Callable[[], AppTest], reader: FakeReader
) -> None:
    at = open_referee(app)
    set_sides(at, "bottom", "learn it")
    stream = stream_of(at)
    assert stream.watcher.seats.fixed == {1}
    table = Visits(stream, reader)
    assert table.still(10) == []  # the start
    assert [c.seat for c in table.hand("bottom", ["r10 r11 r12"])] == [1]
    assert [c.seat for c in table.hand("top", ["r10 r11 r12 | k10 k11 k12"])] == [2]  # seat 2: the top
    at.run()  # the poll stores the calls, each with the sides known after it
    assert len(stored(at).turns) == 2
    assert stored(at).state[SEAT_SIDES] == {"given": {"1": "bottom"}, "learned": {"2": "top"}}
    assert "Player 1: bottom (set) · Player 2: top (learned)" in sides_line(at)
    del at
    st.cache_resource.clear()  # a restarted server: nothing kept in memory
    again = open_referee(app)
    stream = stream_of(again)
    seats = stream.watcher.seats
    assert seats == SeatSides(2, {1: "bottom"}, {2: "top"}) and seats.fixed == {1}
    assert [again.selectbox(key=f"referee_side_{seat}").value for seat in (1, 2)] == ["bottom", "learn it"]
    assert "Player 1: bottom (set) · Player 2: top (learned)" in sides_line(again)
    # The resumed watcher names the seat by its hand: seat 1 is due, the hand over the top is seat 2's.
    table = Visits(stream, reader, ["r10 r11 r12 | k10 k11 k12"])
    assert table.still(10) == []  # the same table: no turn
    calls = table.hand("top", ["r10 r11 r12 | k10 k11 k12 | b10 b11 b12"])
    assert [c.seat for c in calls] == [2]
    assert "the hand came from seat 2's side, not seat 1's" in calls[0].reasons[-1]


def test_another_tabs_call_resumes_the_game_with_its_sides(app: Callable[[], AppTest]) -> None:
    at = open_referee(app)
    set_sides(at, "left", "right")
    stream = stream_of(at)
    other = open_referee(app)  # another tab (the table's phone) taps Drew a tile
    other.button(key="referee_drew").click().run()
    at.run()  # this tab's poll takes the stored game, a call further on
    assert len(stream.referee.history) == 1
    assert stream.watcher.seats.sides == {1: "left", 2: "right"} and stream.watcher.seats.fixed == {1, 2}


def test_a_new_referee_game_keeps_the_sides_a_person_gave(
    app: Callable[[], AppTest], reader: FakeReader
) -> None:
    at = open_referee(app)
    set_sides(at, "bottom", "learn it")
    table = Visits(stream_of(at), reader)
    table.still(10)
    table.hand("bottom", ["r10 r11 r12"])
    table.hand("top", ["r10 r11 r12 | k10 k11 k12"])
    at.run()
    assert stored(at).state[SEAT_SIDES]["learned"] == {"2": "top"}
    at.number_input(key="referee_players").set_value(3).run()
    at.button(key="referee_new").click().run()
    assert not at.exception
    assert stored(at).players == 3
    assert stream_of(at).watcher.seats == SeatSides(3, {1: "bottom"})  # learned ones are learned anew
    assert "Seat 3: learning" in sides_line(at)


def test_a_referee_game_stored_before_sides_were_kept_opens_and_learns_them(
    app: Callable[[], AppTest], reader: FakeReader
) -> None:
    at = open_referee(app)
    store = RefereeStore(Storage(os.environ["RUMMI_DB"]).db)
    referee = Referee(find_preset("standard"), players=2)
    rid = store.start(1, referee.to_json())  # as stored before: the referee's state alone
    store.record(rid, referee.drew(1.0), referee.to_json())
    assert SEAT_SIDES not in stored(at).state
    del at
    st.cache_resource.clear()
    again = open_referee(app)
    assert not again.exception and not again.error
    assert "Turn 1 · seat 1 · drew a tile" in texts(again)
    assert "Player 1: learning · Player 2: learning" in sides_line(again)
    stream = stream_of(again)
    assert stream.watcher.seats.sides == {} and not stream.watcher.seats.fixed
    table = Visits(stream, reader)
    assert table.still(10) == []  # the start
    assert [c.seat for c in table.hand("top", ["r10 r11 r12"])] == [2]  # seat 2 was due: it sits at the top
    again.run()
    assert stored(again).state[SEAT_SIDES] == {"given": {}, "learned": {"2": "top"}}
    assert "Player 1: learning · Player 2: top (learned)" in sides_line(again)


def test_a_viewer_sees_the_sides_but_cannot_set_them(
    app: Callable[[], AppTest], monkeypatch: pytest.MonkeyPatch
) -> None:
    director = open_referee(app)
    set_sides(director, "bottom", "top")
    from ui import access as access_ui

    monkeypatch.setattr(access_ui, "connection_is_local", lambda: False)  # a phone on the LAN, no link
    viewer = open_referee(app)
    assert not viewer.exception
    assert not [s for s in viewer.selectbox if str(s.key).startswith("referee_side_")]
    assert not [b for b in viewer.button if b.key == "referee_sides_set"]
    assert "Player 1: bottom (set) · Player 2: top (set)" in sides_line(viewer)
