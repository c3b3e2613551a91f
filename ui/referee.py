"""The Referee screen (issue 29): the camera follows the game and each turn is judged as the table settles,
with no tap. The seat to play and each verdict are shown large, with a sound (switchable); the turn history
keeps each turn's snapshot and verdict; "Drew a tile" (key D) records the draw the camera cannot see; an
override corrects a wrong call. The referee and every judged turn are stored with the game
(`assistant.storage.referee`), so a restarted app resumes the game. Each verdict is also said aloud where the
browser can speak (`speechSynthesis`; switchable, per tab). The game record (issue 36,
`assistant.game_record`) of the current referee game can be downloaded, and a record file opened and shown
turn by turn, read-only. A viewer sees the verdicts and the history, and no button it may not press (the
camera's Start, Drew a tile, Override, New referee game): a caption says whose they are. Each seat's side of
the camera (issue 36, `vision.watch.SeatSides`) can be set, or is learned from the first round; the sides are
kept with the referee game (`assistant.storage.referee.SEAT_SIDES`) and shown.

Frames go to a `vision.watch.GameWatcher` in a worker thread (`RefereeStream`): the video thread only hands
each frame over and draws the overlay, so the picture keeps its frame rate while the watcher reads a still
table. Calls cross to the script through a queue that a fragment polls (`VERDICT_POLL_S`) and stores
(`flush`); the thread also wakes the screen the moment it makes a call (`ui.session_wake`), so the verdict and
the history need not wait for the poll.
"""

from __future__ import annotations

import io
import json
import math
import queue
import re
import struct
import threading
import time
import wave
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import streamlit as st

from assistant.game_record import (
    MAX_RECORD_BYTES,
    MEDIA_TYPE,
    SUFFIX,
    GameRecord,
    RecordError,
    describe_call,
    describe_header,
    parse_record,
)
from assistant.referee import DREW, PUT_BACK, Call, Referee, RefereeError
from assistant.rules import Rules
from assistant.storage import Game, Storage, StorageError
from assistant.storage.referee import SEAT_SIDES, RefereeGame, RefereeStore
from assistant.tiles import Tile, format_tiles
from ui import helpers
from ui.common import INVALID_MARK, VALID_MARK, tile_reader
from ui.session_wake import in_fragment_run, session_waker
from vision import photos
from vision.annotate import annotate
from vision.motion import SIDES
from vision.tracking import FrameRate, banner_height, draw_banner, draw_rate
from vision.watch import WATCH_FPS, GameWatcher, SeatSides, SeatSidesError, WatchEvent, given_sides

CAMERA_LAG_MAX_S = 10.0
"""Frames timed by their stream may come this far behind it; further, the stream is timed anew."""
POLL_S = 1.0
"""How often the turn history is drawn again."""
VERDICT_POLL_S = 1.0
"""How often the screen takes the calls the stream made, stores and shows them. Every 0.25 s cost the camera a
third of its frames for no sooner verdict (bench_referee_live, one hold-out game, training paused: screen
16 against 25 frames a second; verdict shown a median 1.26 against 1.04 s after the table settled)."""
BANNER_MIN_S = 1.0
BANNER_MAX_S = 20.0
"""The last call is drawn across the top of the camera picture from the moment it is made (no wait for the
screen's poll) until a hand comes in after at least `BANNER_MIN_S`, or for `BANNER_MAX_S` at most: the next
hand at work is never under the last turn's verdict (the verdict box beside the picture keeps it)."""
BANNER_COLOURS = {"legal": (30, 140, 60), "not legal": (190, 30, 30), DREW: (40, 90, 190)}
"""RGB, as the screen's green, red and blue verdicts."""
SNAPSHOT_WIDTH = 320
HISTORY_WITH_SNAPSHOTS = 12
"""The newest turns shown with their snapshot; older ones are listed as lines."""
IDLE_S = 5.0
"""The watcher's thread ends after this long without a frame (a closed tab, a stopped stream)."""
DEFAULT_SETTLE_S = 1.5
SETTLE_RANGE = (0.5, 10.0)
STREAM_KEY = "referee_stream"
LEARN_SIDE = "learn it"
SIDE_CHOICES = (LEARN_SIDE, *SIDES)
VIEWER_TAPS = ":material/visibility: Drew a tile and Override are the director's or this game's table's."
VIEWER_SETTINGS = (
    ":material/visibility: The settle time, the sound and a new referee game are the director's or this "
    "game's table's."
)
SPEECH_HELP = "Where this browser can speak: the seat and the verdict, in a short sentence (this tab)."
ONLY_LOOKS_ON = (
    "This device only looks on: the camera, Drew a tile, Override and a new referee game are the director's "
    "or this game's table's (open the game's table link there)."
)
CAMERA_TEXTS = {
    # Shown by the stream's own panel instead of the browser's raw error (streamlit-webrtc translations).
    "start": "Start",
    "stop": "Stop",
    "media_api_not_available": "This browser cannot share a camera here (open the app over https).",
    "device_ask_permission": "Allow the camera when the browser asks.",
    "device_not_available": "No camera found: connect one or open the app on a phone.",
    "device_access_denied": "The camera is blocked: allow it in the site settings, then press Start.",
}


@dataclass(frozen=True)
class Outgoing:
    """A change for the database, made in the stream's thread or by a tap; `flush` stores them in order."""

    referee_id: int
    call: Call
    state: dict[str, Any]
    snapshot: bytes | None = None
    correction: bool = False


def snapshot_jpeg(frame_bgr: np.ndarray, width: int = SNAPSHOT_WIDTH) -> bytes | None:
    """The frame as a small JPEG (`width` pixels wide), or None when it cannot be encoded."""
    height, frame_width = frame_bgr.shape[:2]
    if frame_width > width:
        frame_bgr = cv2.resize(
            frame_bgr, (width, max(1, round(height * width / frame_width))), interpolation=cv2.INTER_AREA
        )
    ok, encoded = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 75])
    return encoded.tobytes() if ok else None


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value))


def stored_sides(state: dict[str, Any], players: int) -> SeatSides:
    """The seats' sides of the camera kept with a stored referee game (`SEAT_SIDES`); none where it has none
    (a game stored before they were kept) or they cannot be read: then they are learned again."""
    try:
        return SeatSides.from_json(state.get(SEAT_SIDES), players)
    except SeatSidesError:
        return SeatSides(players)


class RefereeStream:
    """The referee behind the camera: frames in (`on_frame`, from the video thread), calls out (`drain`).

    `on_frame` shows every frame and keeps the first of each 1/WATCH_FPS s of the camera's time for a worker
    thread, which gives it to the `GameWatcher` (`process`), as `rummi watch` looks at a file: a frame that
    comes while the watcher reads is skipped, not queued, so the video never waits for a read. Taps (`drew`,
    `override`) change the same referee under the same lock.

    Args:
        reader: the tile reader (`read(frame) -> Detections`); None where it could not be loaded.
        referee: the game's referee.
        referee_id: its stored referee game.
        settle_s: how long the table must stay still to end a turn.
        clock: seconds (monotonic); frames are timed by it as they arrive.
        seat_sides: each seat's side of the camera, given or learned so far (a resumed game's); None: learned.
    """

    def __init__(
        self,
        reader: Any,
        referee: Referee,
        referee_id: int,
        settle_s: float = DEFAULT_SETTLE_S,
        clock: Callable[[], float] = time.monotonic,
        seat_sides: SeatSides | None = None,
    ) -> None:
        self.reader = reader
        self.referee_id = referee_id
        self.watcher = GameWatcher(reader, referee, settle_s=settle_s, seat_sides=seat_sides)
        self.clock = clock
        self._lock = threading.RLock()
        self._outgoing: queue.Queue[Outgoing] = queue.Queue()
        self._wake = threading.Condition()
        self._latest: tuple[np.ndarray, float, int] | None = None
        self._frames = 0
        self._worker: threading.Thread | None = None
        self._rate = FrameRate()
        self.moving = True
        self.last_error: str | None = None
        self.last_frame_at: float | None = None
        self._camera_origin: tuple[float, float, float] | None = None
        """(this clock, the stream's time) at the first frame timed by its stream; the last stream time."""
        self._last_time = -math.inf
        self._looked_slot = -math.inf
        """The last 1/WATCH_FPS s slot of the camera's time whose frame went to the watcher."""
        self.names: dict[int, str] = {}
        """Each seat's player name, for the banner (the script sets it; "Seat N" where none)."""
        self._banner: tuple[Call, float] | None = None
        """The call drawn on the picture and when it was made (this clock)."""
        self.wake: Callable[[], None] | None = None
        """Asks the screen to show a call the moment it is made (`ui.session_wake`; the script sets it)."""

    @property
    def referee(self) -> Referee:
        return self.watcher.referee

    def state(self) -> dict[str, Any]:
        """What is stored after each change: the referee's state, with the seats' sides given or learned."""
        with self._lock:
            return {**self.referee.to_json(), SEAT_SIDES: self.watcher.seats.to_json()}

    @property
    def fps(self) -> float:
        """Frames shown a second over the last two seconds (0 before two frames)."""
        return self._rate.fps

    # -- the video thread ----------------------------------------------------------------------------------

    def on_frame(self, image: np.ndarray, captured_s: float | None = None) -> np.ndarray:
        """One camera frame (BGR): handed to the watcher's thread; returns the frame to show (RGB).
        `captured_s`: the frame's own time in its stream (WebRTC's timestamp), where it has one."""
        now = self.clock()
        with self._wake:
            self._frames += 1
            time_s = self._camera_time(now, captured_s)
            self.last_frame_at = now
            self._rate.tick(now)
            # The watcher looks at WATCH_FPS frames a second of the camera's time, as `rummi watch` looks
            # at a file: its stillness is counted in frames' steps, tuned there; the live screen handing it
            # every frame (22 a second) made other calls than `rummi watch` on the same game.
            slot = math.floor(time_s * WATCH_FPS)
            if slot > self._looked_slot:
                self._looked_slot = slot
                self._latest = (image, time_s, self._frames)
                if self._worker is None:
                    self._worker = threading.Thread(target=self._run, name="referee-watch", daemon=True)
                    self._worker.start()
                self._wake.notify()
        return self.overlay(image)

    def _camera_time(self, now: float, captured_s: float | None) -> float:
        """The frame's time for the watcher: the camera's own, on this clock. Frames held up on the way come
        in bursts (bench_referee_live: up to 3 s behind, then several at once), and timed as they arrive a
        still table would settle too soon and two turns could be judged as one. A stream with no timestamps,
        or one that jumps (a restarted camera), is timed as the frames arrive."""
        timed = now
        origin = self._camera_origin
        if captured_s is None or not math.isfinite(captured_s):
            self._camera_origin = None
        elif origin is not None and captured_s >= origin[2] and (
            now - CAMERA_LAG_MAX_S <= origin[0] + (captured_s - origin[1]) <= now + 0.1
        ):
            timed = origin[0] + (captured_s - origin[1])
            self._camera_origin = (origin[0], origin[1], captured_s)
        else:
            self._camera_origin = (now, captured_s, captured_s)
        self._last_time = max(self._last_time, timed)  # never back in time: the watcher counts still seconds
        return self._last_time

    def overlay(self, image: np.ndarray) -> np.ndarray:
        """The frame to show (RGB, at most `ui.helpers.LIVE_SHOWN_WIDTH` wide): the last settled table's sets
        boxed by verdict while the table is still, the last call across its top (`banner`), and the frame
        rate; a frame that cannot be drawn on is shown as it is.

        The video thread runs this for every frame, on the cores the watcher and the browser use too, so
        the picture is made small first and the banner drawn at the size shown (bilinear, and colours
        swapped by OpenCV: 0.6 ms against 5.6 ms for a numpy copy and an area resize of a 1000x750 frame)."""
        layout = self.watcher.layout
        try:
            if layout is not None and not self.moving:
                verdicts = [None if verdict is None else verdict.valid for verdict in layout.verdicts]
                reading = photos.PhotoReading(frame=image, layout=layout)
                canvas = helpers.shown_size(annotate(reading, verdicts))
            else:
                canvas = helpers.shown_rgb(image)
            shown = self.banner()
            if shown is not None:
                draw_banner(canvas, *banner_words(shown, self.names))
                return draw_rate(canvas, self.fps, top=banner_height(canvas.shape[0]))
        except Exception:  # a failing frame must not stop the stream
            canvas = helpers.shown_rgb(image)
        return draw_rate(canvas, self.fps)

    def banner(self) -> Call | None:
        """The call to draw on the picture now, if any (see `BANNER_MIN_S`). Never waits for a read: the video
        thread calls it for every frame."""
        banner = self._banner  # one read of the pair the watcher's thread replaces whole
        if banner is None:
            return None
        call, since = banner
        shown_for = self.clock() - since
        if shown_for > BANNER_MAX_S or (shown_for > BANNER_MIN_S and self.moving):
            if self._banner is banner:  # gone for good: a hand that stops a moment does not bring it back
                self._banner = None
            return None
        return call

    def _show(self, call: Call) -> None:
        self._banner = (call, self.clock())

    def _run(self) -> None:
        while True:
            with self._wake:
                if self._latest is None:
                    self._wake.wait(timeout=IDLE_S)
                if self._latest is None:
                    self._worker = None
                    return
                frame, time_s, index = self._latest
                self._latest = None
            self.process(frame, time_s, index)

    # -- the watcher's thread (or a test) -----------------------------------------------------------------

    def process(self, frame: np.ndarray, time_s: float, index: int = 0) -> WatchEvent | None:
        """Give one frame to the watcher; a call it makes is queued with the referee's state after it and a
        snapshot of the frame. A frame that fails to be read is skipped (`last_error` says why)."""
        with self._lock:
            try:
                event = self.watcher.update(frame, time_s, index)
            except Exception as error:  # a reader failing on one frame must not stop the referee
                self.last_error = f"{type(error).__name__}: {error}"
                return None
            self.moving = event.moving
            if event.call is not None:
                self._show(event.call)
                self._outgoing.put(Outgoing(self.referee_id, event.call, self.state(), snapshot_jpeg(frame)))
                if self.wake is not None:
                    self.wake()
            return event

    # -- taps ------------------------------------------------------------------------------------------------

    def drew(self) -> Call:
        """The seat to play drew a tile.

        Raises:
            RefereeError: the table is not legal (it must be put back or mended first).
        """
        with self._lock:
            call = self.referee.drew(self.clock())
            self._show(call)
            self._outgoing.put(Outgoing(self.referee_id, call, self.state()))
            return call

    def override(self, legal: bool) -> Call:
        """A person's correction of the last call.

        Raises:
            RefereeError: there is no judged turn to correct.
        """
        with self._lock:
            before = self.referee.history[-1] if self.referee.history else None
            call = self.referee.override(legal)
            if call is not before:
                self._show(call)
                self._outgoing.put(Outgoing(self.referee_id, call, self.state(), correction=True))
            return call

    def reassign(self, seat: int) -> Call:
        """A person's correction: the last judged turn was `seat`'s (the camera gave it another seat).

        Raises:
            RefereeError: there is no judged turn to give, or no such seat.
        """
        with self._lock:
            call = self.referee.reassign(seat)
            self._show(call)
            self._outgoing.put(Outgoing(self.referee_id, call, self.state(), correction=True))
            return call

    def set_sides(self, given: dict[int, str]) -> SeatSides:
        """A person's sides of the camera for the seats (the others learned, those learned so far kept where
        no given side contradicts them); returns the sides now known.

        Raises:
            SeatSidesError: no such seat or side, or a side given twice.
        """
        with self._lock:
            seats = SeatSides(self.referee.players, given, self.watcher.seats.learned)
            self.watcher.seats = seats
            return seats

    def drain(self) -> list[Outgoing]:
        """The changes made since the last drain, oldest first."""
        items: list[Outgoing] = []
        while True:
            try:
                items.append(self._outgoing.get_nowait())
            except queue.Empty:
                return items

    def sync(self, stored: RefereeGame, rules: Rules) -> bool:
        """Follow the stored referee game (another tab's taps, a new referee game, a refused write): the
        referee is taken from the database when its calls differ and nothing is waiting to be stored (the
        first settled table, the start, is no call: it is not stored); the seats' sides are the stored ones.
        Returns whether the referee was replaced.

        Raises:
            RefereeError: the stored state cannot be read.
        """
        with self._lock:
            if not self._outgoing.empty():
                return False
            self.watcher.settle_s = stored.settle_s
            calls = _plain(self.referee.to_json()["history"])
            if stored.id == self.referee_id and calls == _plain(stored.state.get("history", [])):
                sides = stored_sides(stored.state, self.referee.players)
                if sides != self.watcher.seats:
                    self.watcher.seats = sides
                return False
            referee = Referee.from_json(stored.state, rules)
            sides = stored_sides(stored.state, referee.players)
            self.watcher = GameWatcher(self.reader, referee, settle_s=stored.settle_s, seat_sides=sides)
            self.referee_id = stored.id
            self.moving = True
            return True


def banner_words(call: Call, names: dict[int, str]) -> tuple[str, tuple[int, int, int]]:
    """The banner's line for a call and its colour (RGB): the seat, the verdict and what was played, or the
    first reason it is not legal."""
    who = names.get(call.seat) or f"Seat {call.seat}"
    if call.action == DREW:
        return f"{who} drew a tile", BANNER_COLOURS[DREW]
    corrected = " (overridden)" if call.overridden else ""
    what = _done(call)
    if call.legal:
        return f"{who}: LEGAL{corrected} - {what}", BANNER_COLOURS["legal"]
    why = call.reasons[0] if call.reasons else what
    return f"{who}: NOT LEGAL{corrected} - {why}", BANNER_COLOURS["not legal"]


def flush(referees: RefereeStore, stream: RefereeStream) -> str | None:
    """Store what the stream made since the last poll, in order. Returns a message when the database refused
    a change (the stored game stands; `RefereeStream.sync` then takes it back)."""
    for item in stream.drain():
        try:
            if item.correction:
                referees.correct(item.referee_id, item.call, item.state)
            else:
                referees.record(item.referee_id, item.call, item.state, item.snapshot)
        except StorageError as error:
            stream.drain()  # what came after it continues a game the database does not hold
            return f"Turn {item.call.turn} was not stored: {error}"
    return None


def verdict_sound(legal: bool, turn: int = 0, rate: int = 16_000) -> bytes:
    """A short WAV: two rising notes for a legal turn, a low buzz for an illegal one. Each turn's sound
    ends with a different few samples of silence, so the browser plays two like verdicts in a row anew."""
    notes = [(660.0, 0.12), (880.0, 0.18)] if legal else [(196.0, 0.45)]
    samples: list[int] = []
    for frequency, seconds in notes:
        count = int(rate * seconds)
        for i in range(count):
            fade = min(1.0, i / 200, (count - i) / 200)
            value = math.sin(2 * math.pi * frequency * i / rate)
            if not legal:
                value = 0.6 * math.copysign(1.0, value) + 0.4 * value  # harsher: part square wave
            samples.append(int(12_000 * fade * value))
    samples.extend([0] * (1 + turn % 97))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return buffer.getvalue()


def referee_store(db: Storage) -> RefereeStore:
    """The referee games of `db`; with the app's guarded storage, the session's role is asked before each
    write (`assistant.access`)."""
    access_of = getattr(db, "access_of", None)
    if access_of is None:
        return RefereeStore(db.db)
    return RefereeStore(db.db, guard=lambda game_id, action: access_of().check_game(game_id, action))


def may_record(db: Storage, game_id: int) -> bool:
    """Whether this session may record the game's turns (the director or the game's table)."""
    access_of = getattr(db, "access_of", None)
    return access_of is None or bool(access_of().may_record_game(game_id))


def seat_names(game: Game, players: int) -> dict[int, str]:
    """The referee's seats (1, 2, ...) by the game's player names; seats beyond them are "Seat N"."""
    names = {player.seat + 1: player.name for player in game.players}
    return {seat: names.get(seat, f"Seat {seat}") for seat in range(1, players + 1)}


def current_referee_game(referees: RefereeStore, game: Game, rules: Rules) -> RefereeGame:
    """The game's referee game; the first one is started here (every player, the first seat first).

    Raises:
        StorageError: the database failed or holds a referee game that cannot be read.
    """
    stored = referees.current(game.id)
    if stored is None:
        referees.start(game.id, Referee(rules, players=len(game.players)).to_json(), DEFAULT_SETTLE_S)
        stored = referees.current(game.id)
        assert stored is not None
    return stored


def stream_for(stored: RefereeGame, rules: Rules) -> RefereeStream:
    """This tab's stream, made once and kept in the session; it follows the stored referee game.

    Raises:
        RefereeError: the stored state cannot be read.
    """
    stream = st.session_state.get(STREAM_KEY)
    if not isinstance(stream, RefereeStream):
        try:
            reader = tile_reader()
        except Exception as error:  # the camera cannot read tiles; taps and the history still work
            st.session_state.referee_reader_error = f"{type(error).__name__}: {error}"
            reader = None
        referee = Referee.from_json(stored.state, rules)
        sides = stored_sides(stored.state, referee.players)
        stream = RefereeStream(reader, referee, stored.id, stored.settle_s, seat_sides=sides)
        st.session_state[STREAM_KEY] = stream
    else:
        stream.sync(stored, rules)
    return stream


# -- the screen ------------------------------------------------------------------------------------------


def show(db: Storage, game: Game, rules: Rules) -> None:
    st.session_state.setdefault("referee_error", None)
    style_ui()
    writer = may_record(db, game.id)
    referees = referee_store(db)
    try:
        stored = current_referee_game(referees, game, rules) if writer else referees.current(game.id)
        if stored is None:
            st.info("No referee game yet: the director or this game's table starts one on this screen.")
            record_ui(db, game, None)
            return
        stream = stream_for(stored, rules)
        stream.names = seat_names(game, stream.referee.players)
        stream.wake = session_waker()
    except (StorageError, RefereeError) as error:
        st.error(f"The referee game cannot be opened: {error}. The game's scores are not touched.")
        return
    camera_column, verdict_column = st.columns([3, 2], gap="medium")
    with camera_column:
        if writer:
            camera_ui(stream)
            sides_ui(db, game, stored, rules)
        else:
            st.info(ONLY_LOOKS_ON)
    with verdict_column:
        verdict_ui(db, game, rules, writer)
    history_ui(db, game, rules)
    record_ui(db, game, stored)
    settings_ui(db, game, stored, rules, writer)


def camera_ui(stream: RefereeStream) -> None:
    """The camera stream with the last settled table drawn on it (needs the optional streamlit-webrtc)."""
    if stream.reader is None:
        st.error(
            "The tile reader is not available, so the camera cannot judge turns "
            f"({st.session_state.get('referee_reader_error')}). Draws and overrides still work."
        )
        return
    if not photos.live_video_available():
        st.info("The camera stream needs streamlit-webrtc (`pip install streamlit-webrtc`).")
        return
    import av
    from streamlit_webrtc import webrtc_streamer

    def on_frame(frame: Any) -> Any:  # runs in the stream's thread, not in the script
        shown = stream.on_frame(frame.to_ndarray(format="bgr24"), frame.time)
        return av.VideoFrame.from_ndarray(shown, format="rgb24")

    try:
        streamer = webrtc_streamer(
            key="referee_video",
            video_frame_callback=on_frame,
            media_stream_constraints={"video": True, "audio": False},
            translations=CAMERA_TEXTS,  # type: ignore[arg-type]
        )
    except Exception:  # the stream needs a live server session; without one, say so and carry on
        st.info("The camera stream is not available here; draws and overrides still work.")
        return
    camera_help_ui()
    if not streamer.state.playing:
        st.caption(
            "Press **Start** and point the camera down at the table: each turn is judged when the "
            "hands have left and the table is still."
        )


def camera_help_ui() -> None:
    """A plain message in place of the browser's own error when there is no camera or it is refused: the
    stream's panel shows `NotAllowedError: Permission denied` and the like as they come."""
    st.html(
        """
<div id="rummi-camera-help" style="display:none;padding:.6rem .9rem;border-radius:.5rem;
  background:#fff3cd;color:#664d03;margin:.25rem 0"></div>
<script>
(() => {
  const FRIENDLY = {
    NotAllowedError: "The camera is blocked: allow it in the browser's site settings (the camera icon in "
      + "the address bar), then press Start.",
    NotFoundError: "No camera was found: connect one, or open the app on a phone (Game screen).",
    NotReadableError: "The camera is in use by another app: close it there, then press Start.",
    OverconstrainedError: "This camera cannot give a picture here: try another camera.",
    SecurityError: "This browser shares a camera only over https: open the app as the Game screen shows.",
  };
  const help = document.getElementById("rummi-camera-help");
  if (!help || help.dataset.watching) return;
  help.dataset.watching = "1";
  const say = (text) => { help.textContent = text; help.style.display = text ? "block" : "none"; };
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) say(FRIENDLY.SecurityError);
  const tidy = () => {
    for (const frame of document.querySelectorAll("iframe")) {
      let doc;
      try { doc = frame.contentDocument; } catch (error) { continue; }
      if (!doc) continue;
      if (!doc.rummiKeys) {
        // After a tap on Start the keys go to the stream's frame: hand them to the page (key D: drew).
        doc.rummiKeys = true;
        doc.addEventListener("keydown", (event) => {
          const copy = new KeyboardEvent("keydown", {
            key: event.key, code: event.code, keyCode: event.keyCode, which: event.which,
            shiftKey: event.shiftKey, ctrlKey: event.ctrlKey, altKey: event.altKey, metaKey: event.metaKey,
            bubbles: true, cancelable: true,
          });
          document.body.dispatchEvent(copy);
        });
      }
      for (const alert of doc.querySelectorAll(".MuiAlert-message")) {
        const text = alert.textContent || "";
        const name = Object.keys(FRIENDLY).find((key) => text.startsWith(key + ":"))
          || (/^[A-Za-z]+Error:/.test(text) ? "NotReadableError" : null);
        if (name && !alert.dataset.rummi) {
          alert.dataset.rummi = "1";
          alert.textContent = "No camera picture: see the note below.";  // one line, as the frame's height
          say(FRIENDLY[name]);
        }
      }
    }
  };
  setInterval(tidy, 500);
})();
</script>
""",
        unsafe_allow_javascript=True,
    )


def side_key(seat: int) -> str:
    return f"referee_side_{seat}"


def sides_ui(db: Storage, game: Game, stored: RefereeGame, rules: Rules) -> None:
    """For each seat the side of the picture its hand comes in from, or "learn it" (from its first turns);
    set with a button, kept with the referee game."""
    seats = stored_sides(stored.state, stored.players)
    synced = (stored.id, tuple(sorted(seats.given.items())))
    if st.session_state.get("referee_sides_synced") != synced:
        for seat in range(1, stored.players + 1):
            st.session_state[side_key(seat)] = seats.given.get(seat, LEARN_SIDE)
        st.session_state.referee_sides_synced = synced
    names = seat_names(game, stored.players)
    with st.expander("Each seat's side of the camera", icon=":material/open_with:"):
        st.caption(
            "The side of the picture each seat's hand comes in from: a turn then goes to the seat whose hand "
            "made it. A side left to learn is learned from that seat's first turn."
        )
        columns = st.columns(min(stored.players, len(SIDES)))
        for seat in range(1, stored.players + 1):
            columns[(seat - 1) % len(columns)].selectbox(names[seat], SIDE_CHOICES, key=side_key(seat))
        st.button(
            "Use these sides", key="referee_sides_set", icon=":material/check:", on_click=on_sides,
            args=(db, game.id, rules),
        )  # fmt: skip
        if st.session_state.get("referee_sides_error"):
            st.error(st.session_state.referee_sides_error)


def on_sides(db: Storage, game_id: int, rules: Rules) -> None:
    """The sides chosen, checked (each side once), given to the watcher and stored with the referee game."""
    st.session_state.referee_sides_error = None
    stream = st.session_state.get(STREAM_KEY)
    if not isinstance(stream, RefereeStream):
        return
    referees = referee_store(db)
    try:
        refused = synced(referees, stream, game_id, rules)
        players = stream.referee.players
        chosen = [st.session_state.get(side_key(seat), LEARN_SIDE) for seat in range(1, players + 1)]
        given = given_sides({seat: None if side == LEARN_SIDE else side
                             for seat, side in enumerate(chosen, start=1)}, players)  # fmt: skip
        seats = stream.set_sides(given)
        refused = flush(referees, stream) or refused  # calls made before the change, with the sides before it
        referees.set_seat_sides(stream.referee_id, seats.to_json())
        if refused:
            st.session_state.referee_error = refused
    except (RefereeError, SeatSidesError, StorageError) as error:
        # A refused write: the next poll takes the stored sides back (`RefereeStream.sync`).
        st.session_state.referee_sides_error = f"The sides were not changed: {error}"


def sides_caption(stored: RefereeGame, names: dict[int, str]) -> None:
    """The seats' sides known: given, learned, or still to learn."""
    seats = stored_sides(stored.state, stored.players)
    line = f":material/open_with: Sides of the camera: {seats.describe(names)}"
    if len(seats.sides) < stored.players:
        line += " · until every seat has a side, turns go by the order of play"
    st.caption(line)


def synced(referees: RefereeStore, stream: RefereeStream, game_id: int, rules: Rules) -> str | None:
    """What the stream made stored, and the stream set to the stored game as it is now (another tab's taps);
    the message of a refused write, if any.

    Raises:
        StorageError: the game has no referee game, or it cannot be read.
    """
    refused = flush(referees, stream)
    stored = referees.current(game_id)
    if stored is None:
        raise StorageError("this game has no referee game")
    stream.sync(stored, rules)
    return refused


def on_tap(db: Storage, game_id: int, rules: Rules, tap: Callable[[RefereeStream], Call]) -> None:
    """A tap on the referee: taken on the stored game as it is now, then stored at once."""
    st.session_state.referee_error = None
    stream = st.session_state.get(STREAM_KEY)
    if not isinstance(stream, RefereeStream):
        return
    referees = referee_store(db)
    try:
        refused = synced(referees, stream, game_id, rules)
        tap(stream)
        refused = flush(referees, stream) or refused
    except (RefereeError, StorageError) as error:
        refused = str(error)
    if refused:
        st.session_state.referee_error = refused[0].upper() + refused[1:]


def on_drew(db: Storage, game_id: int, rules: Rules) -> None:
    on_tap(db, game_id, rules, lambda stream: stream.drew())


def on_override(db: Storage, game_id: int, rules: Rules, legal: bool) -> None:
    on_tap(db, game_id, rules, lambda stream: stream.override(legal))


def on_reassign(db: Storage, game_id: int, rules: Rules) -> None:
    seat = st.session_state.get("referee_reassign_seat")
    if isinstance(seat, int):
        on_tap(db, game_id, rules, lambda stream: stream.reassign(seat))


@st.fragment(run_every=VERDICT_POLL_S)
def verdict_ui(db: Storage, game: Game, rules: Rules, writer: bool = True) -> None:
    """Whose turn it is and the last verdict, large; the taps. Polls the stream and stores its calls."""
    stream = st.session_state.get(STREAM_KEY)
    if not isinstance(stream, RefereeStream):
        return
    referees = referee_store(db)
    try:
        refused = flush(referees, stream)
        stored = referees.current(game.id)
        if stored is None:
            st.info("The referee game was removed: open the screen again.")
            return
        stream.sync(stored, rules)
        referee = Referee.from_json(stored.state, rules)
    except (StorageError, RefereeError) as error:
        st.error(f"The referee game cannot be read: {error}. Nothing stored is lost; it is tried again.")
        return
    if refused:
        st.session_state.referee_error = refused
    last = stored.turns[-1].call if stored.turns else None
    seen = (stored.id, len(stored.turns), None if last is None else (last.legal, last.overridden))
    if st.session_state.setdefault("referee_seen", seen) != seen:
        st.session_state.referee_seen = seen
        if in_fragment_run():
            st.rerun()  # a new call: the whole screen (the history too) shows it at once
    names = seat_names(game, referee.players)
    with st.container(key="referee_seat"):
        st.caption("To play")
        st.markdown(f"# {names.get(referee.seat, f'Seat {referee.seat}')}")
        if referee.pending:
            st.warning("The table is not legal: put it back as it was, or mend it.")
    with st.container(key="referee_verdict"):
        if last is None:
            st.info("No turn judged yet: each turn is judged when the table is still again.")
        else:
            verdict_box(last, names)
    sound_ui(stored, last, names, rules)
    sides_caption(stored, names)
    if not writer:
        st.caption(VIEWER_TAPS)
        if st.session_state.referee_error:
            st.error(st.session_state.referee_error)
        return
    st.button(
        "Drew a tile", key="referee_drew", shortcut="D", icon=":material/playing_cards:",
        on_click=on_drew, args=(db, game.id, rules), disabled=referee.pending, width="stretch",
        help="The camera cannot see a draw: tap this (or press D) when the player draws instead of playing.",
    )  # fmt: skip
    if last is not None and last.action != DREW:
        st.button(
            "Override: not legal" if last.legal else "Override: legal",
            key="referee_override", icon=":material/gavel:", on_click=on_override,
            args=(db, game.id, rules, not last.legal), width="stretch",
            help=f"The last call (turn {last.turn}) was wrong: call it the other way.",
        )  # fmt: skip
        others = [seat for seat in range(1, referee.players + 1) if seat != last.seat]
        with st.container(horizontal=True, vertical_alignment="bottom"):
            st.selectbox(
                f"Turn {last.turn} was", others, key="referee_reassign_seat",
                format_func=lambda seat: names.get(seat, f"Seat {seat}"),
            )
            st.button(
                "That was this seat", key="referee_reassign", icon=":material/person_pin:",
                on_click=on_reassign, args=(db, game.id, rules),
                help="The camera gave the turn to the wrong seat: it is judged again as this seat's, "
                     "and play goes on from it.",
            )  # fmt: skip
    if st.session_state.referee_error:
        st.error(st.session_state.referee_error)
    status_caption(stream)


def verdict_box(call: Call, names: dict[int, str]) -> None:
    """The last call: legal (green) or not (red) with its reasons, and the tiles to check."""
    who = names.get(call.seat, f"Seat {call.seat}")
    if call.action == DREW:
        st.markdown(f"## :blue[:material/playing_cards: {who} drew]")
        st.caption(f"Turn {call.turn}: a tile drawn, the table unchanged.")
        return
    corrected = " (overridden)" if call.overridden else ""
    if call.legal:
        st.markdown(f"## :green[:material/check_circle: Legal{corrected}]")
    else:
        st.markdown(f"## :red[:material/cancel: Not legal{corrected}]")
    what = _done(call)
    st.markdown(f"**Turn {call.turn} · {who}** {what}")
    if call.reasons:
        lines = "\n".join(f"- {reason}" for reason in call.reasons)
        (st.caption if call.legal else st.error)(lines)
    if call.penalty_tiles:
        st.warning(f"Penalty: {who} draws {helpers.counted(call.penalty_tiles, 'tile')}.")
    for note in call.unsure:
        st.warning(f"Check this tile: {note}")


def _done(call: Call) -> str:
    """What the turn did, in a few words: put the table back, or played and took which tiles."""
    return "put the table back" if call.action == PUT_BACK else _played(call)


def _played(call: Call) -> str:
    parts = []
    if call.added:
        parts.append(f"played {format_tiles(call.added)}")
    if call.removed:
        parts.append(f"took {format_tiles(call.removed)}")
    return " and ".join(parts) or "moved tiles"


def sound_ui(
    stored: RefereeGame, last: Call | None, names: dict[int, str] | None = None, rules: Rules | None = None
) -> None:
    """A sound and a spoken sentence on each new verdict (none for those there before the tab opened); each
    switchable (the sound for the referee game, the voice for this tab)."""
    heard = None if last is None else (stored.id, last.turn, last.legal, last.overridden)
    if "referee_heard" not in st.session_state:
        st.session_state.referee_heard = heard
        st.session_state.referee_sound = None
        st.session_state.referee_spoken = None
    if heard != st.session_state.referee_heard:
        st.session_state.referee_heard = heard
        st.session_state.referee_sound = (
            None if last is None or last.action == DREW else verdict_sound(last.legal, last.turn)
        )
        sentence = None if last is None else spoken_verdict(last, names or {}, rules)
        st.session_state.referee_spoken = None if sentence is None else ("-".join(map(str, heard)), sentence)
    if stored.sound and st.session_state.referee_sound is not None:
        with st.container(key="referee_sound"):  # hidden (CSS below); it plays as it appears
            st.audio(st.session_state.referee_sound, format="audio/wav", autoplay=True)
    spoken = st.session_state.get("referee_spoken")
    if st.session_state.setdefault(SPEECH_KEY, True) and spoken is not None:
        with st.container(key="referee_speech"):  # hidden too: a script, nothing to see
            st.html(speech_html(*spoken), unsafe_allow_javascript=True)


SPEECH_KEY = "referee_speech_on"
_TOKEN = re.compile(r"\b([kbroyKBROY])(1[0-3]|[1-9])\b|\bJ\b")
_OPENING = re.compile(r"the opening meld is worth (\d+) points?, the .* rules need (\d+)")


def spoken_verdict(call: Call, names: dict[int, str], rules: Rules | None = None) -> str | None:
    """The verdict as a short sentence to say aloud: `Seat 2: not legal, opening worth 24 points, 30 needed.`;
    None for a draw (no verdict, no sound)."""
    if call.action == DREW:
        return None
    name = names.get(call.seat, "")
    who = f"Seat {call.seat}"
    if name and name not in (f"Seat {call.seat}", f"Player {call.seat}"):
        who += f", {name}"
    if call.action == PUT_BACK:
        sentence = f"{who}: the table is back as it was"
        if call.penalty_tiles:
            sentence += f", {helpers.counted(call.penalty_tiles, 'penalty tile')} to draw"
    elif call.legal:
        sentence = f"{who}: legal"
    else:
        sentence = f"{who}: not legal"
        if call.reasons:
            sentence += f", {_spoken_reason(call.reasons[0], rules)}"
    if call.overridden:
        sentence += ", as a person called it"
    return sentence + "."


def _spoken_reason(reason: str, rules: Rules | None) -> str:
    """A reason said short: no tile list in brackets, two clauses at most, tiles in words (`black 12`)."""
    text = _OPENING.sub(r"opening worth \1 points, \2 needed", reason)
    text = re.sub(r"\s*\([^)]*\)", "", text)
    text = ", ".join(text.split(": ")[:2])

    def word(match: re.Match[str]) -> str:
        tile = Tile.parse(match.group(0))
        return rules.describe(tile) if rules is not None else str(tile)

    return _TOKEN.sub(word, text)


def speech_html(key: str, sentence: str) -> str:
    """A script that says `sentence` once in this browser tab (`key` tells one verdict from the next), where
    the browser has `speechSynthesis`; elsewhere it does nothing."""
    said = json.dumps(sentence).replace("<", "\\u003c")
    token = json.dumps(key).replace("<", "\\u003c")
    return f"""<script>
(() => {{
  const synth = window.speechSynthesis;
  if (!synth || typeof window.SpeechSynthesisUtterance !== "function") return;  // no voice here: nothing
  const key = {token};
  let last = window.rummiSpoken;
  try {{ last = window.sessionStorage.getItem("rummi-spoken") || last; }} catch (error) {{}}
  if (last === key) return;  // said already (the screen is drawn again each second)
  window.rummiSpoken = key;
  try {{ window.sessionStorage.setItem("rummi-spoken", key); }} catch (error) {{}}
  const utterance = new window.SpeechSynthesisUtterance({said});
  utterance.lang = "en";
  synth.cancel();
  synth.speak(utterance);
}})();
</script>"""


def status_caption(stream: RefereeStream) -> None:
    if stream.last_frame_at is None or stream.clock() - stream.last_frame_at > 3.0:
        return
    state = "hands over the table" if stream.moving else "table still"
    line = f"Camera: {stream.fps:.0f} frames a second · {state}"
    if stream.last_error:
        line += f" · last read failed ({stream.last_error})"
    st.caption(line)


@st.fragment(run_every=POLL_S)
def history_ui(db: Storage, game: Game, rules: Rules) -> None:
    """Every judged turn, newest first: its snapshot, what happened, the verdict, whether a person
    overrode it."""
    referees = referee_store(db)
    try:
        stored = referees.current(game.id)
        if stored is None or not stored.turns:
            return
        recent = list(reversed(stored.turns))[:HISTORY_WITH_SNAPSHOTS]
        shots = referees.snapshots(stored.id, [t.number for t in recent])
    except StorageError as error:
        st.error(f"The turn history cannot be read: {error}")
        return
    names = seat_names(game, stored.players)
    st.subheader(f"Turn history ({len(stored.turns)})")
    for turn in recent:
        call = turn.call
        with st.container(border=True, key=f"referee_turn_{stored.id}_{turn.number}"):
            picture, words = st.columns([1, 3], vertical_alignment="center")
            if turn.number in shots:
                picture.image(shots[turn.number], width="stretch")
            else:
                picture.markdown(":blue[:material/playing_cards:] no picture (a draw)")
            mark = VALID_MARK if call.legal else INVALID_MARK
            verdict = "drew a tile" if call.action == DREW else ("legal" if call.legal else "not legal")
            words.markdown(
                f"{mark} **Turn {call.turn} · {names.get(call.seat, f'Seat {call.seat}')}** · {verdict}"
                + (" · :orange[overridden]" if call.overridden else "")
            )
            words.caption(call.describe(rules))
    older = list(reversed(stored.turns))[HISTORY_WITH_SNAPSHOTS:]
    if older:
        with st.expander(f"Older turns ({len(older)})"):
            for turn in older:
                st.markdown(
                    f"- {turn.call.describe(rules)}" + (" · overridden" if turn.call.overridden else "")
                )


def settings_ui(db: Storage, game: Game, stored: RefereeGame, rules: Rules, writer: bool = True) -> None:
    """Settle time and sound (at once); seats and first seat (for a new referee game); the voice (this tab).
    A viewer has the voice only: the rest is the director's or the table's."""
    st.session_state.setdefault(SPEECH_KEY, True)
    if not writer:
        with st.expander("Referee settings", icon=":material/settings:"):
            st.toggle("Say each verdict aloud", key=SPEECH_KEY, help=SPEECH_HELP)
            st.caption(VIEWER_SETTINGS)
        return
    synced = st.session_state.get("referee_settings_synced")
    if synced != (stored.id, stored.settle_s, stored.sound):
        st.session_state.referee_settle = stored.settle_s
        st.session_state.referee_sound_on = stored.sound
        st.session_state.referee_players = max(1, min(stored.players, rules.max_players))
        st.session_state.referee_first = max(1, min(stored.first_seat, rules.max_players))
        st.session_state.referee_settings_synced = (stored.id, stored.settle_s, stored.sound)
    with st.expander("Referee settings", icon=":material/settings:"):
        settle, sound = st.columns(2, vertical_alignment="bottom")
        settle.number_input(
            "Settle time (seconds)", min_value=SETTLE_RANGE[0], max_value=SETTLE_RANGE[1], step=0.5,
            key="referee_settle", on_change=on_settings, args=(db, stored.id),
            help="How long the table must stay still, hands away, before the turn is judged.",
        )  # fmt: skip
        sound.toggle(
            "Sound on each verdict", key="referee_sound_on", on_change=on_settings, args=(db, stored.id)
        )
        sound.toggle("Say each verdict aloud", key=SPEECH_KEY, help=SPEECH_HELP)
        st.markdown("**A new referee game** (this one stays stored)")
        players, first, start = st.columns(3, vertical_alignment="bottom")
        most = rules.max_players
        players.number_input("Players", min_value=1, max_value=most, step=1, key="referee_players")
        first.number_input("First seat", min_value=1, max_value=most, step=1, key="referee_first")
        start.button(
            "New referee game", key="referee_new", on_click=on_new_game, args=(db, game, rules),
            width="stretch",
        )  # fmt: skip
        if st.session_state.get("referee_settings_error"):
            st.error(st.session_state.referee_settings_error)


def record_file_name(game: Game, stored: RefereeGame) -> str:
    """`friday-referee-3.jsonl`: the game's name in letters, digits and dashes, the referee game's id."""
    stem = re.sub(r"[^a-z0-9]+", "-", game.name.lower()).strip("-") or "game"
    return f"{stem[:40]}-referee-{stored.id}{SUFFIX}"


def record_ui(db: Storage, game: Game, stored: RefereeGame | None) -> None:
    """The game record: the current referee game's to download (it is in the database, so it outlives a
    restart), and a record file to open, shown turn by turn and stored nowhere."""
    record: GameRecord | None = None
    with st.expander("Game record", icon=":material/history_edu:"):
        if stored is not None:
            try:
                record = referee_store(db).game_record(game.id)
            except StorageError as error:
                st.error(f"The game record cannot be made: {error}")
        if record is not None and stored is not None:
            st.download_button(
                "Download the game record", data=record.to_bytes(), file_name=record_file_name(game, stored),
                mime=MEDIA_TYPE, key="referee_record_download", icon=":material/download:",
            )  # fmt: skip
            st.caption(
                f"{helpers.counted(len(record.calls), 'turn')} of this referee game: a header line, then one "
                "line a turn with its seat, the tables before and after, the verdict and the time "
                "(JSON lines, docs/game-record.md). `rummi replay FILE` prints it turn by turn."
            )
        upload = st.file_uploader(
            "Open a game record", type=[SUFFIX.lstrip(".")], key="referee_record_upload",
            help="A record downloaded here or written by `rummi watch VIDEO --record FILE` (at most "
            f"{MAX_RECORD_BYTES // (1024 * 1024)} MB): shown below, read-only (nothing of it is stored).",
        )  # fmt: skip
    if upload is None:
        return
    try:
        upload.seek(0)
        opened = parse_record(upload.read(MAX_RECORD_BYTES + 1), upload.name, MAX_RECORD_BYTES)
    except RecordError as error:
        st.error(f"The game record cannot be opened: {error}")
        return
    opened_record_ui(opened)


def opened_record_ui(record: GameRecord) -> None:
    """An opened record, turn by turn from the first, each with its verdict and the table before it."""
    header = record.header
    with st.container(key="referee_opened_record"):
        turns = helpers.counted(len(record.calls), "turn")
        st.subheader(f"Opened record: {header.game or '(no name)'} ({turns})")
        st.caption(describe_header(record) + " · read-only: nothing of it is stored")
        for entry in record.calls:
            call = entry.call
            with st.container(border=True, key=f"referee_record_turn_{call.turn}"):
                mark = VALID_MARK if call.legal else INVALID_MARK
                verdict = "drew a tile" if call.action == DREW else ("legal" if call.legal else "not legal")
                st.markdown(
                    f"{mark} **Turn {call.turn} · {header.seat_name(call.seat)}** · {verdict}"
                    + (" · :orange[overridden]" if call.overridden else "")
                )
                st.caption(describe_call(entry))


def on_settings(db: Storage, referee_id: int) -> None:
    st.session_state.referee_settings_error = None
    try:
        referee_store(db).set_settings(
            referee_id,
            settle_s=st.session_state.referee_settle,
            sound=bool(st.session_state.referee_sound_on),
        )
    except StorageError as error:
        st.session_state.referee_settings_error = f"Settings not changed: {error}"
        st.session_state.referee_settings_synced = None  # show the stored ones again
        return
    stream = st.session_state.get(STREAM_KEY)
    if isinstance(stream, RefereeStream):
        stream.watcher.settle_s = float(st.session_state.referee_settle)
    st.session_state.referee_settings_synced = (
        referee_id,
        float(st.session_state.referee_settle),
        bool(st.session_state.referee_sound_on),
    )


def on_new_game(db: Storage, game: Game, rules: Rules) -> None:
    """A new referee game from the table as it is now: the seats and first seat chosen, the settings kept."""
    st.session_state.referee_settings_error = None
    st.session_state.referee_error = None
    referees = referee_store(db)
    stream = st.session_state.get(STREAM_KEY)
    try:
        if isinstance(stream, RefereeStream):
            flush(referees, stream)
        referee = Referee(rules, int(st.session_state.referee_players), int(st.session_state.referee_first))
        # The sides a person gave are kept for the seats the new game has (the players sit where they sat).
        given = stream.watcher.seats.given if isinstance(stream, RefereeStream) else {}
        sides = SeatSides(referee.players, {seat: s for seat, s in given.items() if seat <= referee.players})
        referees.start(
            game.id, {**referee.to_json(), SEAT_SIDES: sides.to_json()},
            float(st.session_state.referee_settle), bool(st.session_state.referee_sound_on),
        )  # fmt: skip
        stored = referees.current(game.id)
        if isinstance(stream, RefereeStream) and stored is not None:
            stream.sync(stored, rules)
    except (RefereeError, StorageError) as error:
        st.session_state.referee_settings_error = f"No new referee game: {error}"
        return
    st.session_state.referee_settings_synced = None
    st.session_state.pop("referee_heard", None)


STYLE = """<style>
.st-key-referee_seat h1 { font-size: 3.2rem; line-height: 1.1; padding: 0; }
.st-key-referee_verdict h2 { font-size: 2.6rem; line-height: 1.15; }
.st-key-referee_sound, .st-key-referee_speech { display: none; }
</style>"""


def style_ui() -> None:
    st.html(STYLE)
