"""Following a game on video: motion, tile identity over settled tables, and calls with no tap."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.referee import Referee
from assistant.tiles import Tile, class_id, tile_from_class_id
from rummi import main
from vision.detections import Detections
from vision.watch import GameWatcher, MotionWatch, TileMemory, VideoError, video_frames

W, H = 640, 480
TILE_W, TILE_H = 30, 40


INKS = {"r": (30, 30, 160), "b": (150, 70, 20), "o": (20, 120, 230)}  # BGR; black otherwise


def table_frame(rows: list[str], light: float = 1.0, shift: tuple[int, int] = (0, 0)) -> np.ndarray:
    """A green cloth with tiles as cream boxes with their number, sets in rows."""
    frame = np.full((H, W, 3), (60, 110, 40), np.uint8)
    for (x1, y1, x2, y2), token in boxes_of(rows):
        dx, dy = shift
        cv2.rectangle(frame, (x1 + dx, y1 + dy), (x2 + dx, y2 + dy), (215, 235, 240), -1)
        ink = INKS.get(token[0], (20, 20, 20))
        cv2.putText(frame, token[1:] or "J", (x1 + 4 + dx, y2 - 12 + dy), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                    ink, 1, cv2.LINE_AA)
    return np.clip(frame.astype(np.float32) * light, 0, 255).astype(np.uint8)


def boxes_of(rows: list[str], set_gap: int = 50) -> list[tuple[tuple[int, int, int, int], str]]:
    placed = []
    for r, row in enumerate(rows):
        x, y = 60, 80 + r * 110
        for set_text in row.split("|"):
            for token in set_text.split():
                placed.append(((x, y, x + TILE_W, y + TILE_H), token))
                x += TILE_W + 4
            x += set_gap
    return placed


def with_hand(frame: np.ndarray, reach: float = 0.6) -> np.ndarray:
    out = frame.copy()
    tip = (int(W * reach), int(H * 0.45))
    arm = np.array([[W, int(H * 0.3)], [W, int(H * 0.7)], [tip[0], tip[1] + 40], [tip[0], tip[1] - 40]],
                   np.int32)
    cv2.fillPoly(out, [arm], (120, 150, 200))
    return out


def detections_of(rows: list[str], doubtful: dict[str, tuple[str, float]] | None = None,
                  set_gap: int = 50) -> Detections:
    placed = boxes_of(rows, set_gap)
    n = len(placed)
    ids, scores = [], []
    for _, token in placed:
        tile = Tile.parse(token)
        second, score = (doubtful or {}).get(token, ("J" if token != "J" else "k1", 0.97))
        ids.append([class_id(tile), class_id(Tile.parse(second))])
        scores.append([score, 1.0 - score])
    topk = np.array(ids, np.int64).reshape(n, 2)
    return Detections(
        xyxy=np.array([b for b, _ in placed], np.float32).reshape(n, 4),
        confidence=np.full(n, 0.9, np.float32),
        class_id=topk[:, 0],
        class_confidence=np.array([s[0] for s in scores], np.float32),
        topk_class_ids=topk,
        topk_scores=np.array(scores, np.float32).reshape(n, 2),
        angle=np.zeros(n, np.float32),
    )


class ScriptedReader:
    """Reads whatever table the test says lies there now; counts its reads."""

    def __init__(self) -> None:
        self.now = Detections.empty()
        self.reads = 0
        self.profile = None

    def read(self, frame: np.ndarray) -> Detections:
        self.reads += 1
        return self.now

    def use_profile(self, profile: object) -> None:
        self.profile = profile

    def with_profile(self, profile: object) -> ScriptedReader:
        self.profile = profile
        return self


def test_a_still_picture_a_light_turned_up_and_a_shaking_camera_are_no_motion() -> None:
    motion = MotionWatch()
    base = table_frame(["r1 r2 r3 | k5 k6 k7"])
    assert motion.moved(base)  # the first frame has nothing to compare with
    assert not motion.moved(base)
    assert not motion.moved(table_frame(["r1 r2 r3 | k5 k6 k7"], light=1.08))
    assert not motion.moved(table_frame(["r1 r2 r3 | k5 k6 k7"], light=1.08, shift=(2, 1)))
    assert motion.moved(with_hand(table_frame(["r1 r2 r3 | k5 k6 k7"], light=1.08, shift=(2, 1))))


def test_a_tile_lying_still_keeps_its_identity_and_a_moved_one_does_not() -> None:
    memory = TileMemory()
    frame = table_frame(["k7 k8 k9"])
    first = memory.follow(frame, detections_of(["k7 k8 k9"]))
    assert [int(c) for c in first.class_id] == [class_id(Tile.parse(t)) for t in ("k7", "k8", "k9")]
    # The same tiles, the first now read r7 by a glance: it has not moved, so it is still k7.
    again = memory.follow(frame, detections_of(["r7 k8 k9"], doubtful={"r7": ("k7", 0.6)}))
    assert int(again.class_id[0]) == class_id(Tile.parse("k7"))
    # A new look in that place (another tile laid there) is read afresh.
    other = table_frame(["r12 k8 k9"])
    swapped = memory.follow(other, detections_of(["r12 k8 k9"]))
    assert int(swapped.class_id[0]) == class_id(Tile.parse("r12"))


def test_a_tile_slid_into_a_taken_tile_s_place_is_itself_and_not_the_taken_one() -> None:
    # Rendered tuning game seed 1206 game 2: r4 taken from r3 r4 r5 and r5 slid into its place kept r4's
    # identity (same place, a like look, the same ink), so the call was "r5 taken". Here the looks are not
    # compared (tiles 13 pixels tall look alike in grey), so place and ink alone would keep r4.
    memory = TileMemory(same_look_above=-1.0)
    frame = table_frame(["r3 r4 r5", "k8 k9 k10"])
    for _ in range(4):  # r4 read r4 over several settled tables
        memory.follow(frame, detections_of(["r3 r4 r5", "k8 k9 k10"]))
    slid = memory.follow(table_frame(["r3 r5", "k8 k9 k10"]), detections_of(["r3 r5", "k8 k9 k10"]))
    assert [str(tile_from_class_id(int(c))) for c in slid.class_id] == ["r3", "r5", "k8", "k9", "k10"]


def test_a_run_shifted_along_to_lay_a_tile_at_its_front_keeps_each_tile_s_identity() -> None:
    # Rendered lights game seed 1971 p3 game 1 (thirty-third session): o4 laid where o5 lay, o5 o6 o7 each
    # slid one place on. Each box took the identity of the tile that lay in its place: o4 read o5, o5 "read
    # again" from o6, the table called o5 o5 o6 o7 and a legal play not legal.
    memory = TileMemory(same_look_above=-1.0)
    for _ in range(2):
        memory.follow(table_frame(["o5 o6 o7", "k8 k9 k10"]), detections_of(["o5 o6 o7", "k8 k9 k10"]))
    shifted = memory.follow(table_frame(["o4 o5 o6 o7", "k8 k9 k10"]),
                            detections_of(["o4 o5 o6 o7", "k8 k9 k10"]))
    assert [str(tile_from_class_id(int(c))) for c in shifted.class_id] == [
        "o4", "o5", "o6", "o7", "k8", "k9", "k10"]
    assert memory.read_again == {}
    # A glance that misreads a tile lying still beside a like one does not swap the two.
    again = memory.follow(table_frame(["o4 o5 o6 o7", "k8 k9 k10"]),
                          detections_of(["o5 o5 o6 o7", "k8 k9 k10"], doubtful={"o5": ("o4", 0.6)}))
    assert [str(tile_from_class_id(int(c))) for c in again.class_id][:4] == ["o4", "o5", "o6", "o7"]


def test_a_tile_laid_in_a_taken_joker_s_place_is_read_afresh() -> None:
    # Rendered tuning game seed 1206 p2 game 2: the joker taken from k1 k2 J and k3 laid where it lay. The
    # place alone (its look unlike the joker's, its reading not the joker) is no reason to keep the joker.
    memory = TileMemory()
    for _ in range(2):
        memory.follow(table_frame(["k1 k2 J", "o8 o9 o10"]), detections_of(["k1 k2 J", "o8 o9 o10"]))
    swapped = memory.follow(table_frame(["k1 k2 k3", "o8 o9 o10"]), detections_of(["k1 k2 k3", "o8 o9 o10"]))
    assert [str(tile_from_class_id(int(c))) for c in swapped.class_id][:3] == ["k1", "k2", "k3"]


def run_script(watcher: GameWatcher, reader: ScriptedReader, script: list[tuple[list[str], float, bool]],
               fps: float = 5.0) -> list:
    """Feed frames: each step a table, seconds it lasts, whether a hand is over it."""
    calls, t, index = [], 0.0, 0
    for rows, seconds, hand in script:
        reader.now = detections_of(rows)
        for _ in range(round(seconds * fps)):
            frame = table_frame(rows)
            frame = with_hand(frame, 0.5 + 0.1 * (index % 3)) if hand else frame
            event = watcher.update(frame, t, index)
            if event.call is not None:
                calls.append(event.call)
            t += 1 / fps
            index += 1
    return calls


def test_a_game_is_judged_with_no_tap_and_a_hand_that_changes_nothing_is_no_turn() -> None:
    reader = ScriptedReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.5)
    calls = run_script(watcher, reader, [
        ([], 2.0, False),                                   # the start
        ([], 1.0, True), (["r10 r11 r12"], 2.4, False),    # seat 1 opens
        (["r10 r11 r12"], 1.0, True), (["r10 r11 r12"], 2.4, False),  # a hand passes: no turn
        (["r10 r11 r12"], 1.0, True), (["r10 r11 r12 | k1 k2"], 2.4, False),  # seat 2: invalid
        (["r10 r11 r12 | k1 k2"], 1.0, True), (["r10 r11 r12"], 2.4, False),  # put back
    ])
    assert [(c.seat, c.action, c.legal) for c in calls] == [
        (1, "play", True), (2, "play", False), (2, "put back", True)]
    # Judged once the table had been still for the settle time (to a frame at 5 fps).
    assert calls[0].time_s == pytest.approx(3.0 + 1.5, abs=0.21)
    # Only still frames are read, a few per settled table: never one with a hand in it.
    assert reader.reads <= 5 * 3


def test_a_settle_time_of_zero_is_refused() -> None:
    with pytest.raises(ValueError, match="settle"):
        GameWatcher(ScriptedReader(), Referee(), settle_s=0)


def write_video(path: Path, frames: list[np.ndarray], fps: float = 5.0) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (W, H))
    for frame in frames:
        writer.write(frame)
    writer.release()


def test_video_frames_samples_a_file_at_about_the_rate_asked(tmp_path: Path) -> None:
    path = tmp_path / "still.mp4"
    write_video(path, [table_frame(["r1 r2 r3"])] * 20, fps=10.0)
    frames = list(video_frames(str(path), sample_fps=5.0))
    assert len(frames) == 10
    assert [i for _, _, i in frames][:3] == [0, 2, 4]
    assert frames[1][1] == pytest.approx(0.2)


def test_a_file_that_is_no_video_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.mp4"
    path.write_text("not a video")
    with pytest.raises(VideoError, match="notes.mp4"):
        list(video_frames(str(path)))


def test_rummi_watch_exits_2_on_a_video_it_cannot_read(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "broken.mp4"
    path.write_bytes(b"\x00" * 100)
    assert main(["watch", str(path), "--json"]) == 2
    assert "broken.mp4" in capsys.readouterr().err


def test_rummi_watch_refuses_a_seat_outside_the_table(capsys: pytest.CaptureFixture) -> None:
    assert main(["watch", "game.mp4", "--players", "2", "--first", "3"]) == 2
    assert "first seat" in capsys.readouterr().err


def test_rummi_watch_prints_one_json_line_per_turn(tmp_path: Path, capsys: pytest.CaptureFixture,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    reader = ScriptedReader()
    tables = {0: [], 1: ["r10 r11 r12"]}
    frames, states = [], []
    for state, seconds, hand in [(0, 2.0, False), (0, 1.0, True), (1, 2.4, False)]:
        for k in range(round(seconds * 5)):
            frame = table_frame(tables[state])
            frames.append(with_hand(frame, 0.5 + 0.1 * (k % 3)) if hand else frame)
            states.append(state)
    path = tmp_path / "game.mp4"
    write_video(path, frames)

    def read(frame: np.ndarray) -> Detections:
        # The scripted table by the picture: a frame with tiles shows the opening.
        return detections_of(tables[1] if frame[100, 70].mean() > 150 else [])

    reader.read = read  # type: ignore[method-assign]
    from vision import read

    monkeypatch.setattr(read, "load_reader", lambda: reader)
    assert main(["watch", str(path), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["turn"], d["seat"], d["action"], d["added"], d["legal"]) for d in lines] == [
        (1, 1, "play", ["r10", "r11", "r12"], True)]


def test_a_second_box_over_most_of_a_flat_tile_is_dropped_and_neighbours_kept() -> None:
    from vision.watch import table_only

    found = detections_of(["b7 b8 b9"])
    lower_half = found.xyxy[2] + np.array([0, 10, 0, 10], np.float32)
    doubled = Detections(
        xyxy=np.vstack([found.xyxy, lower_half]), confidence=np.array([0.9, 0.9, 0.9, 0.7], np.float32)
    )
    kept = table_only(doubled)
    assert len(kept) == 3 and np.allclose(kept.xyxy, found.xyxy)
    assert kept.rack_xyxy is not None and len(kept.rack_xyxy) == 0


def test_what_the_game_says_a_tile_is_leads_its_readings_while_it_lies_still() -> None:
    memory = TileMemory()
    frame = table_frame(["b5 b7 b8"])
    misread = detections_of(["b5 b7 b8"], doubtful={"b5": ("b6", 0.7)})
    memory.follow(frame, misread)
    memory.confirm(0, Tile.parse("b6"))
    # Read b5 again at the next settled table: still b6.
    again = memory.follow(frame, misread)
    assert int(again.class_id[0]) == class_id(Tile.parse("b6"))


def test_a_hand_at_the_frame_s_edge_is_motion() -> None:
    motion = MotionWatch()
    base = table_frame(["r1 r2 r3 | k5 k6 k7"])
    motion.moved(base)
    assert motion.moved(with_hand(base, reach=0.95))


def test_a_tile_the_detector_misses_that_still_lies_there_is_added_back_and_a_taken_one_is_not() -> None:
    memory = TileMemory()
    frame = table_frame(["k7 k8 k9"])
    memory.follow(frame, detections_of(["k7 k8 k9"]))
    missed = detections_of(["k7 k8 k9"])[np.array([True, True, False])]
    again = memory.follow(frame, missed)
    assert len(again) == 3
    assert int(again.class_id[2]) == class_id(Tile.parse("k9"))
    # k9 taken away: the cloth shows where it lay, so it is not added back.
    taken = memory.follow(table_frame(["k7 k8"]), detections_of(["k7 k8"]))
    assert len(taken) == 2


def test_sets_lying_end_to_end_in_one_row_are_joinable_and_rows_apart_are_not() -> None:
    from vision.layout import rebuild
    from vision.watch import joinable_sets, seen_sets

    found = detections_of(["k3 k4 | k5 k6 k7", "r1 r2 r3"], set_gap=22)
    layout = rebuild(found, None, image_size=(W, H))
    seen, rows = seen_sets(layout, found)
    names = [" ".join(str(t.tile) for t in s) for s in seen]
    pairs = {(names[a], names[b]) for a, b in joinable_sets(layout, rows)}
    assert ("k3 k4", "k5 k6 k7") in pairs
    assert not {p for p in pairs if "r1 r2 r3" in p}


def test_sets_end_to_end_are_measured_in_tile_widths_centre_to_centre() -> None:
    from vision.layout import rebuild
    from vision.watch import SPLIT_APART, end_to_end_sets, seen_sets

    for set_gap in (16, 22, 30):
        found = detections_of(["k3 k4 | k5 k6 k7"], set_gap=set_gap)
        layout = rebuild(found, None, image_size=(W, H))
        seen, rows = seen_sets(layout, found)
        [(first, second, widths)] = end_to_end_sets(layout, rows)
        assert [len(seen[first]), len(seen[second])] == [2, 3]
        assert widths == pytest.approx((TILE_W + 4 + set_gap) / TILE_W, abs=0.05)
        assert widths > SPLIT_APART  # the layout parts a straight row at a gap wider than a nudge opens


def with_arm(frame: np.ndarray, side: str, reach: float = 0.45,
             colour: tuple[int, int, int] = (120, 150, 200), offset: int = 0) -> np.ndarray:
    """An arm reaching in from one edge of the frame (bottom, left, top or right) to `reach` of the way."""
    out = frame.copy()
    half = 45
    if side in ("left", "right"):
        edge = 0 if side == "left" else W
        tip = int(W * reach) if side == "left" else int(W * (1 - reach))
        y = H // 2 + offset
        arm = [[edge, y - half], [edge, y + half], [tip, y + half // 2], [tip, y - half // 2]]
    else:
        edge = 0 if side == "top" else H
        tip = int(H * reach) if side == "top" else int(H * (1 - reach))
        x = W // 2 + offset
        arm = [[x - half, edge], [x + half, edge], [x + half // 2, tip], [x - half // 2, tip]]
    cv2.fillPoly(out, [np.array(arm, np.int32)], colour)
    return out


def run_visits(watcher: GameWatcher, reader: ScriptedReader,
               visits: list[tuple[str | None, list[str], float]], fps: float = 5.0,
               colour: tuple[int, int, int] = (120, 150, 200)) -> list[tuple[float, object]]:
    """Each visit: a hand from `side` (None: no hand at all) moving for 1 s and then resting still for
    `rest` seconds while the table becomes `rows`; then 2.6 s of still table. Returns (time, call)."""
    calls, t, index = [], 0.0, 0

    def feed(frame: np.ndarray) -> None:
        nonlocal t, index
        event = watcher.update(frame, t, index)
        if event.call is not None:
            calls.append((t, event.call))
        t += 1 / fps
        index += 1

    rows_now: list[str] = []
    for _ in range(10):
        feed(table_frame(rows_now))
    for side, rows, rest in visits:
        reader.now = detections_of(rows_now)
        if side is not None:
            for step in range(int(fps)):  # the hand comes
                feed(with_arm(table_frame(rows_now), side, colour=colour, offset=12 * step))
            reader.now = detections_of(rows)
            for _ in range(round(rest * fps)):  # ... and rests dead still over the new tiles
                feed(with_arm(table_frame(rows), side, colour=colour, offset=12 * int(fps)))
        rows_now = rows
        reader.now = detections_of(rows)
        for _ in range(13):
            feed(table_frame(rows))
    return calls


def test_a_hand_resting_still_over_the_table_is_not_a_settled_table() -> None:
    reader = ScriptedReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.5)
    calls = run_visits(watcher, reader, [("bottom", ["r10 r11 r12"], 3.0)])
    assert [(c.seat, c.action, c.legal) for _, c in calls] == [(1, "play", True)]
    left_at = 2.0 + 1.0 + 3.0  # the start, the hand coming, its rest
    assert calls[0][0] >= left_at + 1.5 - 0.21  # judged once the hand had left, never under it


def test_a_bare_arm_as_light_as_the_cloth_is_seen_by_its_colour() -> None:
    cloth = table_frame([])
    cloth_grey = float(cv2.cvtColor(cloth, cv2.COLOR_BGR2GRAY).mean())
    skin = (70, 75, 110)  # BGR: about the cloth's grey level, but skin-coloured against a green cloth
    arm = with_arm(cloth, "bottom", colour=skin)
    assert abs(float(cv2.cvtColor(arm, cv2.COLOR_BGR2GRAY)[H - 5, W // 2]) - cloth_grey) < 4
    motion = MotionWatch()
    motion.moved(cloth)
    assert motion.moved(arm)


def lit_cloth(gains: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """A cloth from dark green at the left to near white at the right (a lamp's glow), under a light of
    these per-channel gains (BGR), clipped as a camera clips."""
    ramp = np.linspace(0.0, 1.0, W, dtype=np.float32)[None, :, None]
    frame = (1 - ramp) * np.float32([60, 110, 40]) + ramp * np.float32([195, 232, 244])
    return np.clip(np.repeat(frame, H, axis=0) * np.float32(gains), 0, 255).astype(np.uint8)


def test_a_warmer_light_on_a_bright_cloth_is_no_arm_and_an_arm_under_it_is() -> None:
    # Hands game seed 1981-p3 game 0 (navy edition): a light warming as a turn settled made the cloth's
    # bright part differ from the still table's picture in colour, from the frame's top edge: an "arm"
    # for 6 s, two turns missed.
    motion = MotionWatch()
    for _ in range(3):
        motion.look(lit_cloth())
    motion.settle()
    warmer = lit_cloth((1.14, 1.17, 1.14))
    motion.look(warmer)
    assert not motion.look(warmer).arm
    assert motion.look(with_arm(warmer, "top")).arm


def test_a_missed_turn_does_not_put_later_calls_on_the_wrong_seat() -> None:
    reader = ScriptedReader()
    watcher = GameWatcher(reader, Referee(players=3), settle_s=1.5)
    calls = run_visits(watcher, reader, [
        ("bottom", ["r10 r11 r12"], 0.0),                         # seat 1
        ("left", ["r10 r11 r12 | k10 k11 k12"], 0.0),             # seat 2
        ("top", ["r10 r11 r12 | k10 k11 k12 | b10 b11 b12"], 0.0),  # seat 3: every side learned
        ("bottom", ["r9 r10 r11 r12 | k10 k11 k12 | b10 b11 b12"], 0.0),  # seat 1
        ("left", ["r9 r10 r11 r12 | k10 k11 k12 | b10 b11 b12"], 0.0),  # seat 2 changes nothing (drew)
        ("top", ["r9 r10 r11 r12 | k9 k10 k11 k12 | b10 b11 b12"], 0.0),  # seat 3, though 2 was due
        ("bottom", ["r9 r10 r11 r12 | k9 k10 k11 k12 | b9 b10 b11 b12"], 0.0),  # seat 1 again
    ])
    assert [c.seat for _, c in calls] == [1, 2, 3, 1, 3, 1]
    assert all(c.legal for _, c in calls)
    assert "the hand came from seat 3's side, not seat 2's" in calls[4][1].reasons[-1]


def test_a_change_no_hand_was_seen_making_is_still_judged() -> None:
    """A tile swapped for a look-alike by a hand the camera missed: the picture hardly changes, the
    periodic read of the still table finds it."""
    reader = ScriptedReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.5)
    calls = run_visits(watcher, reader, [("bottom", ["r10 r11 r12"], 0.0)])
    frame = table_frame(["r10 r11 r12"])
    reader.now = detections_of(["r10 r11 r12 | k1 k2 k3"])  # what lies there now; the picture is the same
    t0 = 20.0
    for step in range(50):
        event = watcher.update(frame, t0 + step / 5, 200 + step)
        if event.call is not None:
            calls.append((t0 + step / 5, event.call))
    assert [c.seat for _, c in calls] == [1, 2]
    assert calls[1][1].added == tuple(Tile.parse(t) for t in ("k1", "k2", "k3"))
    assert calls[1][0] <= t0 + 4.0 + 1.0 + 1.5 + 0.5  # a read every 4 s, confirmed 1 s later, settled


@pytest.mark.parametrize(
    ("sides", "message"),
    [("bottom,middle", "'middle' is no side"), ("bottom", "1 sides for 2 seats"),
     ("top,top", "a side twice")],
)
def test_rummi_watch_refuses_sides_that_name_no_seat(sides: str, message: str,
                                                     capsys: pytest.CaptureFixture) -> None:
    assert main(["watch", "game.mp4", "--sides", sides]) == 2
    assert message in capsys.readouterr().err


def test_given_sides_name_the_seats_from_the_first_turn() -> None:
    from vision.watch_cli import seat_sides

    reader = ScriptedReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.5, seat_sides=seat_sides("bottom,top", 2))
    calls = run_visits(watcher, reader, [("top", ["r10 r11 r12"], 0.0), ("top", ["r10 r11 r12 r13"], 0.0)])
    assert [c.seat for _, c in calls] == [2, 2]  # seat 2's hand both times, though seat 1 was due first


def test_a_still_tile_read_again_as_another_is_no_tile_taken_but_one_of_another_ink_in_its_place_is() -> None:
    memory = TileMemory()
    frame = table_frame(["k8 r8 o8"])
    # A red 8 first read, with doubt, as a blue 8.
    memory.follow(frame, detections_of(["k8 b8 o8"], doubtful={"b8": ("r8", 0.6)}))
    again = memory.follow(frame, detections_of(["k8 r8 o8"]))
    assert int(again.class_id[1]) == class_id(Tile.parse("r8"))
    assert memory.read_again == {1: class_id(Tile.parse("b8"))}
    # A close call (the new reading not twice the old one's score) is no read-again.
    close = TileMemory()
    close.follow(frame, detections_of(["k8 b8 o8"], doubtful={"b8": ("r8", 0.45)}))
    close.follow(frame, detections_of(["k8 r8 o8"], doubtful={"r8": ("b8", 0.7)}))
    assert close.read_again == {}
    # A blue 8 laid where the red 8 lay looks alike in grey, but its ink is another: a new tile.
    swapped = memory.follow(table_frame(["k8 b8 o8"]), detections_of(["k8 b8 o8"]))
    assert int(swapped.class_id[1]) == class_id(Tile.parse("b8"))
    # Read afresh: its runner-up is this glance's (the joker), not the red 8 it would add up with.
    assert int(swapped.topk_class_ids[1, 1]) == class_id(Tile.parse("J"))
    assert memory.read_again == {}


def test_a_tile_misread_at_one_turn_and_read_right_at_the_next_is_not_called_taken() -> None:
    """Tuning game seed 1200 p2 game 2: a red 8 first read blue 8 was called "blue 8 was taken off the
    table" at each of the three turns after it was read right."""
    reader = ScriptedReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.0)
    drawn_then_read = [
        (["k1 k2 k3"], detections_of(["k1 k2 k3"])),
        (["k1 k2 k3", "k8 r8 o8"], detections_of(["k1 k2 k3", "k8 b8 o8"], doubtful={"b8": ("r8", 0.6)})),
        (["k1 k2 k3 | k11 k12 k13", "k8 r8 o8"], detections_of(["k1 k2 k3 | k11 k12 k13", "k8 r8 o8"])),
    ]
    calls, t, index = [], 0.0, 0
    for rows, read in drawn_then_read:
        reader.now = read
        for hand in (True, False):
            for _ in range(10 if hand else 15):
                frame = table_frame(rows)
                event = watcher.update(with_hand(frame) if hand else frame, t, index)
                if event.call is not None:
                    calls.append(event.call)
                t, index = t + 0.2, index + 1
    assert [c.legal for c in calls] == [True, True]
    assert [str(t) for t in calls[1].added] == ["k11", "k12", "k13"] and calls[1].removed == ()
    assert any("read blue 8 before is red 8" in r for r in calls[1].reasons)


def test_an_arm_from_the_top_working_at_the_far_left_comes_from_the_top() -> None:
    """Tuning game seed 1203 p3 game 0: seat 3's arm came in over the top edge and ran down the left edge to
    the tiles at the far left; counted by the edge it touched most, it was seat 2's (left)."""
    motion = MotionWatch()
    still = table_frame(["r1 r2 r3 | k5 k6 k7"])
    for k in range(3):
        motion.look(still, 0.2 * k)
    motion.settle()
    arm = still.copy()
    cv2.fillPoly(arm, [np.array([[0, 0], [int(W * 0.16), 0], [int(W * 0.16), int(H * 0.55)],
                                 [0, int(H * 0.55)]], np.int32)], (60, 90, 170))
    look = motion.look(arm, 0.8)
    assert look.hand_in_view
    assert look.sides.most_common(1)[0][0] == "top"


def test_an_arm_reaching_across_to_the_far_edge_keeps_the_side_it_came_in_over() -> None:
    """referee-photos seed 3102 game 7 (a close photo): seat 1's arm came in over the bottom and its spread
    fingers reached the top edge, crossing it wider than the wrist crosses the bottom: called seat 2's."""
    motion = MotionWatch()
    still = table_frame(["r1 r2 r3 | k5 k6 k7"])
    for k in range(3):
        motion.look(still, 0.2 * k)
    motion.settle()
    colour = (60, 90, 170)
    coming = still.copy()
    cv2.fillPoly(coming, [np.array([[280, H], [360, H], [360, H // 2], [280, H // 2]], np.int32)], colour)
    assert motion.look(coming, 0.8).sides.most_common(1)[0][0] == "bottom"
    across = still.copy()  # wrist 80 px wide at the bottom, fingers 200 px wide at the top
    cv2.fillPoly(across, [np.array([[280, H], [360, H], [420, H // 3], [420, 0], [220, 0], [220, H // 3]],
                                   np.int32)], colour)
    look = motion.look(across, 1.0)
    assert look.hand_in_view
    assert look.sides.most_common(1)[0][0] == "bottom"
    fresh = MotionWatch()  # seen at once across the frame, the wider edge is all there is to go by
    for k in range(3):
        fresh.look(still, 0.2 * k)
    fresh.settle()
    assert fresh.look(across, 0.8).sides.most_common(1)[0][0] == "top"


class ScaledReader(ScriptedReader):
    """Reads the test's table in the pixels of the frame it is given (drawn at 640 x 480, then resized)."""

    def read(self, frame: np.ndarray) -> Detections:
        self.reads += 1
        scale = frame.shape[1] / W
        now = self.now
        return dataclasses.replace(now, xyxy=np.asarray(now.xyxy, np.float32) * scale)


@dataclasses.dataclass
class ScaledPlay:
    """Frames of the test's table, drawn at 640 x 480 and resized, given to a watcher 5 a second."""

    watcher: GameWatcher
    time_s: float = 0.0
    index: int = 0
    calls: list = dataclasses.field(default_factory=list)

    def frames(self, rows: list[str], count: int, scale: float, hand: bool = False) -> None:
        for _ in range(count):
            frame = with_hand(table_frame(rows)) if hand else table_frame(rows)
            frame = cv2.resize(frame, (int(W * scale), int(H * scale)), interpolation=cv2.INTER_AREA)
            event = self.watcher.update(frame, self.time_s, self.index)
            if event.call is not None:
                self.calls.append(event.call)
            self.time_s, self.index = self.time_s + 0.2, self.index + 1


def test_a_stream_that_changes_its_picture_size_keeps_the_tiles_it_saw() -> None:
    """bench_referee_live: Chromium's WebRTC stream came at 500x375, then 750x561, then 1000x750; the watcher
    lost every tile it remembered when the size changed."""
    reader = ScaledReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.0)
    # Once the picture is larger the blue 8 lying there is read red 8, surely: its readings added up over
    # the settled tables it lay in keep it blue.
    misread = {"r8": ("b8", 0.98)}
    steps = [
        (["k8 b8 o8"], detections_of(["k8 b8 o8"]), 1.0, False),
        (["k8 b8 o8", "r9 r10 r11"], detections_of(["k8 b8 o8", "r9 r10 r11"]), 1.0, True),
        (["k8 b8 o8", "r9 r10 r11"], detections_of(["k8 r8 o8", "r9 r10 r11"], misread), 1.5, False),
        (["k8 b8 o8", "r9 r10 r11 | o4 o5 o6"],
         detections_of(["k8 r8 o8", "r9 r10 r11 | o4 o5 o6"], misread), 1.5, True),
    ]
    played = ScaledPlay(watcher)
    for rows, read, scale, hand_first in steps:
        reader.now = read
        played.frames(rows, 10 if hand_first else 0, scale, hand=True)
        played.frames(rows, 40, scale)
    assert [(c.seat, c.legal, [str(x) for x in c.added], c.removed) for c in played.calls] == [
        (1, True, ["r9", "r10", "r11"], ()),
        (2, True, ["o4", "o5", "o6"], ()),
    ]


def test_a_picture_grown_sharper_mid_game_is_no_hand_over_the_table() -> None:
    """bench_referee_live on tuning game seed 1202 p2 game 0: when Chromium's stream grew from 500x375 to
    750x561 the picture of the still table, taken at the small size, differed from the sharper frames as an
    arm does; nothing was judged for seconds, and an illegal play and its putting back were missed."""
    reader = ScaledReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.0)
    steps = [  # (table, hand comes first, scale of the picture)
        (["k1 k2 k3 | b5 b6 b7"], False, 0.5),
        (["k1 k2 k3 | b5 b6 b7", "r9 r10 r11"], True, 0.5),
        (["k1 k2 k3 | b5 b6 b7", "r9 r10 r11 | o4 o5 o6"], True, 1.0),
    ]
    calls, t, index = [], 0.0, 0
    for rows, hand_first, scale in steps:
        reader.now = detections_of(rows)
        for hand, frames in ((True, 10 if hand_first else 0), (False, 15)):
            for _ in range(frames):
                frame = table_frame(rows)
                frame = with_hand(frame) if hand else frame
                if scale != 1.0:  # the small stream: fewer pixels, softer
                    small = cv2.resize(frame, (int(W * scale), int(H * scale)), interpolation=cv2.INTER_AREA)
                    frame = cv2.GaussianBlur(small, (5, 5), 1.5)
                event = watcher.update(frame, t, index)
                if event.call is not None:
                    calls.append((t, event.call))
                t, index = t + 0.2, index + 1
    assert [(c.seat, [str(x) for x in c.added]) for _, c in calls] == [
        (1, ["r9", "r10", "r11"]), (2, ["o4", "o5", "o6"])]
    hand_left = 2 * 3.0 + 2.0  # the third step's hand left at 8 s of frames
    assert calls[1][0] <= hand_left + 1.0 + 0.5  # judged a settle time after, not seconds later


def calls_as_a_stream_switches(second_still: tuple[int, int]) -> list[tuple[int, list[str]]]:
    """Two plays on a table whose picture grows from scale 0.5 to 0.75 after the first play's hand left:
    (seat, tiles added) of each call. `second_still`: that play's still frames at 0.5, then at 0.75, before
    the next hand comes (5 a second; the settle time is 1 s)."""
    reader = ScaledReader()
    played = ScaledPlay(GameWatcher(reader, Referee(players=2), settle_s=1.0))
    first = ["k1 k2 k3"]
    second = ["k1 k2 k3", "r9 r10 r11"]
    third = ["k1 k2 k3", "r9 r10 r11 | o4 o5 o6"]
    # (table, hand frames first, still frames at scale 0.5, still frames after the switch to 0.75)
    steps = [(first, 0, 10, 0), (second, 8, *second_still), (third, 8, 0, 10)]
    for rows, hand_frames, small_frames, larger_frames in steps:
        reader.now = detections_of(rows)
        played.frames(rows, hand_frames, 0.5 if small_frames else 0.75, hand=True)
        played.frames(rows, small_frames, 0.5)
        played.frames(rows, larger_frames, 0.75)
    return [(c.seat, [str(x) for x in c.added]) for c in played.calls]


def test_a_picture_size_change_as_the_table_settles_does_not_start_its_still_time_again() -> None:
    """Chromium's stream grew 500x375 -> 750x561 as a hand had just left (bench_referee_live, 14 s into a
    game): the still time started again at the switch, the next hand came before the turn settled, and the
    two turns were read as one (`size_switch.py`, tuning game 1202-0 switched as its second hand left:
    13 of 13 calls right -> 1 of 13)."""
    # the hand of the second play left 1.2 s before the third's came: settled at 1.0 s, the switch at 0.6
    assert calls_as_a_stream_switches((3, 3)) == [(1, ["r9", "r10", "r11"]), (2, ["o4", "o5", "o6"])]


def test_a_table_still_for_the_settle_time_when_the_picture_changes_size_is_judged_then() -> None:
    """`switch_schedule.py --after-turns 3 8`, tuning game 1204-p2 game 0: the picture changed its size just
    as an illegal play had been still for the settle time; its reads, made at the size before, were dropped,
    the hand came back to put the tiles back before the new size was read, and neither turn was called."""
    # the second play's table still from its first still frame: 1.0 s at the switch, the next hand at once
    assert calls_as_a_stream_switches((5, 1)) == [(1, ["r9", "r10", "r11"]), (2, ["o4", "o5", "o6"])]


def washed(frame: np.ndarray, severity: float) -> np.ndarray:
    """A WebRTC stream's first frames at a new size: blocky, washed out, brighter (0: as it is)."""
    h, w = frame.shape[:2]
    block = max(1, round(16 * severity))
    small = cv2.resize(frame, (max(1, w // block), max(1, h // block)), interpolation=cv2.INTER_AREA)
    out = cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST).astype(np.float32)
    out += (out.mean(axis=2, keepdims=True) - out) * 0.6 * severity + 25 * severity
    return np.clip(out, 0, 255).astype(np.uint8)


class FrameKeepingReader(ScaledReader):
    """A ScaledReader that keeps the frames it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: list[np.ndarray] = []

    def read(self, frame: np.ndarray) -> Detections:
        self.frames.append(frame)
        return super().read(frame)


def test_a_stream_s_blurred_first_frames_at_a_new_size_are_no_motion_and_not_read() -> None:
    """bench_referee_live --record, hold-out game 1900-p2-0: Chromium's stream grew 500x375 -> 750x561 just
    as a turn's table had become still; its first frames at the new size were blocky and washed out and
    sharpened over half a second, each a "motion" that started the still time again: the turn was judged
    3.7 s late (the next hand nearly came first), and read from those frames its blue tiles were black."""
    reader = FrameKeepingReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.0)
    played = ScaledPlay(watcher)
    first, second = ["k1 k2 k3"], ["k1 k2 k3", "r9 r10 r11"]
    third = ["k1 k2 k3", "r9 r10 r11 | o4 o5 o6"]
    reader.now = detections_of(first)
    played.frames(first, 10, 0.5)
    reader.now = detections_of(second)
    played.frames(second, 8, 0.5, hand=True)
    played.frames(second, 3, 0.5)  # still for 0.6 s, then the switch
    ramp = []
    for severity in (0.5, 0.2):  # frame-to-frame changes of 15-19, as the live stream's first frames
        frame = washed(cv2.resize(table_frame(second), (480, 360), interpolation=cv2.INTER_AREA), severity)
        ramp.append(frame)
        event = watcher.update(frame, played.time_s, played.index)
        assert not event.moving and event.call is None
        played.time_s, played.index = played.time_s + 0.2, played.index + 1
    played.frames(second, 2, 0.75)  # sharp frames, then the next hand: 1.4 s after the last left
    reader.now = detections_of(third)
    played.frames(third, 8, 0.75, hand=True)
    played.frames(third, 10, 0.75)
    assert [(c.seat, [str(x) for x in c.added]) for c in played.calls] == [
        (1, ["r9", "r10", "r11"]), (2, ["o4", "o5", "o6"])]
    assert not [f for f in reader.frames if any(f is r for r in ramp)]


def test_a_set_laid_against_the_frame_s_edge_is_no_arm_and_its_turn_is_judged() -> None:
    """referee-photos seed 3100 game 3: a set laid against the right edge reached in from it like an arm;
    the table never settled and five turns were missed. Tiles the reader finds there are the table."""
    tiles = ["r10", "r11", "r12", "r13"]
    lefts = [W - (len(tiles) - k) * (TILE_W + 2) for k in range(len(tiles))]
    boxes = [(x, 200, x + TILE_W, 200 + TILE_H) for x in lefts]
    still = table_frame([])
    laid = still.copy()
    for x1, y1, x2, y2 in boxes:
        cv2.rectangle(laid, (x1, y1), (x2, y2), (215, 235, 240), -1)
    found = detections_of([" ".join(tiles)])
    found = dataclasses.replace(found, xyxy=np.array(boxes, np.float32))
    reader = ScriptedReader()
    watcher = GameWatcher(reader, Referee(players=2), settle_s=1.5)
    calls, t = [], 0.0
    frames = [still] * 10 + [with_arm(still, "bottom", offset=12 * k) for k in range(5)]
    frames += [with_arm(laid, "bottom", offset=60)] * 3
    left_at = len(frames) * 0.2
    frames += [laid] * 15
    for k, frame in enumerate(frames):
        reader.now = found if k >= 15 else Detections.empty()
        event = watcher.update(frame, t, k)
        if event.call is not None:
            calls.append((t, event.call))
        t += 0.2
    assert watcher.motion.look(laid, t).hand_in_view is False  # the set is the still table now
    assert [(c.seat, c.action, [str(x) for x in c.added]) for _, c in calls] == [(1, "play", tiles)]
    assert calls[0][0] <= left_at + 1.5 + 0.6  # judged as a settled table is, not after the rest limit


def test_an_arm_after_the_picture_changed_size_is_seen_over_its_own_side() -> None:
    """bench_referee_live, tuning game 1203-p3 game 0: the stream went from 750x561 to 1000x750 while the
    table lay still; with no still table to compare with until the next settled one, seat 3's arm from the
    top was placed by the cells moving at the frame's edge ("left") and its turn given to seat 2."""
    motion = MotionWatch()
    still = table_frame(["r1 r2 r3 | k5 k6 k7"])
    small = cv2.resize(still, (480, 360), interpolation=cv2.INTER_AREA)
    for k in range(3):
        motion.look(small, 0.2 * k)
    motion.settle()
    motion.new_picture(0.6)
    assert motion.look(still, 0.6).arm is False  # the new size's first frames: nothing to compare with
    assert motion.look(still, 1.4).arm is False and not motion.look(still, 1.6).hand_in_view
    arm = still.copy()  # from the top, running down the left edge to the tiles at the far left
    cv2.fillPoly(arm, [np.array([[0, 0], [int(W * 0.16), 0], [int(W * 0.16), int(H * 0.55)],
                                 [0, int(H * 0.55)]], np.int32)], (60, 90, 170))
    look = motion.look(arm, 1.8)
    assert look.arm
    assert look.sides.most_common(1)[0][0] == "top"
