"""Rendered game videos: the simulated game's rules and truth, the physical layout, the video, y4m files."""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from assistant.table import check_table
from assistant.tiles import Color, Tile
from assistant.turn import TurnProblem, judge_turn
from datasets.game_script import GameScript, simulate_game
from datasets.game_video import (
    HAND_KINDS,
    RESTS,
    SETTLE_S,
    SKIN_TONES,
    game_look,
    hand_masks,
    main,
    read_frames,
    render_frames,
    render_game_video,
    seat_side,
    write_y4m,
)

SEEDS = range(6)
# High chances of every illegal turn, so a few short games show all of them.
BUSY = {"opening_under": 0.45, "invalid_set": 0.2, "tile_taken": 0.25, "mended": 0.35}


@pytest.fixture(scope="module")
def scripts() -> list[GameScript]:
    return [simulate_game(seed, turns=10, **BUSY) for seed in SEEDS]


def _tiles(table: list[list[str]]) -> list[list[Tile]]:
    return [[Tile.parse(t) for t in s] for s in table]


def _counts(table: list[list[str]]) -> Counter[str]:
    return Counter(t for s in table for t in s)


def test_simulation_is_deterministic_per_seed() -> None:
    one, two = simulate_game(11, turns=8), simulate_game(11, turns=8)
    assert one.turn_records() == two.turn_records()
    assert [s.places for s in one.states] == [s.places for s in two.states]
    assert [e.kind for e in one.events] == [e.kind for e in two.events]
    assert simulate_game(12, turns=8).turn_records() != one.turn_records()


def test_every_kind_of_turn_and_event_appears(scripts: list[GameScript]) -> None:
    kinds = Counter(r["kind"] for s in scripts for r in s.turn_records())
    for kind in ("legal", "opening-under-threshold", "invalid-set", "tile-taken", "put-back", "mended"):
        assert kinds[kind] > 0, kind
    events = Counter(e.kind for s in scripts for e in s.events)
    assert events["no-change"] > 0 and events["nudge"] > 0


def test_legal_turns_leave_a_valid_table(scripts: list[GameScript]) -> None:
    for script in scripts:
        for record in script.turn_records():
            if record["legal"]:
                verdict = check_table(_tiles(record["table"]))
                assert verdict.valid, (script.seed, record, verdict.problems)


def test_illegal_turns_break_the_rule_they_name_and_are_put_back_or_mended(scripts: list[GameScript]) -> None:
    expected = {
        "opening-under-threshold": TurnProblem.OPENING_TOO_LOW,
        "invalid-set": TurnProblem.SET_INVALID,
        "tile-taken": TurnProblem.TILE_TAKEN,
    }
    for script in scripts:
        turns = [e for e in script.events if e.kind == "turn"]
        shown_before = {id(e): (script.events[k - 1].state if k else 0) for k, e in enumerate(script.events)}
        records = script.turn_records()
        before = 0
        for n, (event, record) in enumerate(zip(turns, records, strict=True)):
            rack = [script.tiles[i] for i in event.rack_before]
            if record["kind"] in expected:
                verdict = judge_turn(script.faces(before), script.faces(event.state), rack,
                                     event.opened_before)
                assert not verdict.legal and expected[record["kind"]] in verdict.codes, (script.seed, record)
                assert record["action"] == "play"
                follow = records[n + 1]  # an illegal turn is never the last
                assert follow["seat"] == record["seat"] and follow["legal"]
                assert follow["kind"] in ("put-back", "mended")
                if follow["kind"] == "put-back":
                    assert follow["action"] == "put back"
                    assert _counts(follow["table"]) == _counts(script.tokens(before))
                    restored = script.states[turns[n + 1].state].places
                    assert restored == script.states[shown_before[id(event)]].places
                else:
                    mended = judge_turn(script.faces(before), script.faces(turns[n + 1].state), rack,
                                        event.opened_before)
                    assert mended.legal, (script.seed, mended.reasons)
            elif record["kind"] == "legal":
                verdict = judge_turn(script.faces(before), script.faces(event.state), rack,
                                     event.opened_before)
                assert verdict.legal, (script.seed, record, verdict.reasons)
            if record["kind"] not in expected:
                before = event.state


def test_seats_take_turns_in_order(scripts: list[GameScript]) -> None:
    for script in scripts:
        ends = [r["seat"] for r in script.turn_records() if r["kind"] in ("legal", "put-back", "mended")]
        assert ends == [n % script.players + 1 for n in range(len(ends))]


def test_added_and_removed_match_the_tables(scripts: list[GameScript]) -> None:
    for script in scripts:
        previous: list[list[str]] = script.tokens(0)
        for record in script.turn_records():
            after = record["table"]
            assert Counter(record["added"]) == _counts(after) - _counts(previous)
            assert Counter(record["removed"]) == _counts(previous) - _counts(after)
            for listed in (record["added"], record["removed"]):
                assert listed == [str(t) for t in sorted(Tile.parse(t) for t in listed)]
            previous = after


def test_sets_lie_apart_and_tiles_that_stay_keep_their_places(scripts: list[GameScript]) -> None:
    for script in scripts:
        geometry = script.geometry
        for state in script.states:
            for a in range(len(state.sets)):
                for b in range(a + 1, len(state.sets)):
                    sa, sb = state.slots[a], state.slots[b]
                    if sa.row == sb.row:
                        assert sa.x1 + geometry.gap <= sb.x0 + 1e-6 or sb.x1 + geometry.gap <= sa.x0 + 1e-6
            xs = [state.places[i][0] for s in state.sets for i in s]
            assert min(xs, default=1.0) >= 0 and max(xs, default=0.0) <= geometry.row_width
        nudges = {e.state for e in script.events if e.kind == "nudge"}
        for n, (old, new) in enumerate(zip(script.states, script.states[1:], strict=False), start=1):
            moved = [i for s in new.sets if s in old.sets for i in s if new.places[i] != old.places[i]]
            assert len(moved) == (1 if n in nudges else 0), (script.seed, n)


def test_sets_are_in_reading_order(scripts: list[GameScript]) -> None:
    for script in scripts:
        for n in range(len(script.states)):
            state = script.states[n]
            order = state.reading_order()
            keys = [(state.slots[k].row, state.slots[k].x0) for k in order]
            assert keys == sorted(keys)
            assert [len(s) for s in script.faces(n)] == [len(state.sets[k]) for k in order]


@pytest.fixture(scope="module")
def small_video(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, GameScript]:
    script = simulate_game(3, turns=4, **BUSY)
    path = tmp_path_factory.mktemp("video") / "game.mp4"
    render_game_video(script, path, fps=5, size=(400, 300), light_changes=0.0, shakes=0.5)
    return path, json.loads(path.with_suffix(".json").read_text()), script


def test_video_has_the_frames_and_truth_it_says(small_video: tuple[Path, dict, GameScript]) -> None:
    path, truth, script = small_video
    capture = cv2.VideoCapture(str(path))
    assert capture.get(cv2.CAP_PROP_FRAME_COUNT) == truth["frames"]
    capture.release()
    assert sum(1 for _ in read_frames(path)) == truth["frames"]
    assert (truth["fps"], truth["width"], truth["height"], truth["players"]) == (5, 400, 300, 2)
    fields = {"turn", "seat", "time_s", "frame", "action", "added", "removed", "legal", "table", "still_s",
              "kind"}
    records = script.turn_records()
    assert len(truth["turns"]) == len(records) > 0
    for turn, record in zip(truth["turns"], records, strict=True):
        assert set(turn) == fields
        assert turn["table"] == record["table"]
        judged = turn["still_s"] + SETTLE_S
        assert judged - 1e-6 <= turn["time_s"] < judged + 1 / truth["fps"]
        assert turn["frame"] == round(turn["time_s"] * truth["fps"]) < truth["frames"]
    hands = [e for e in truth["events"] if e["kind"] == "hand"]
    assert len(hands) == len(script.events)
    for hand, after in zip(hands, hands[1:], strict=False):
        assert 2.0 - 1e-9 <= after["start_s"] - hand["still_s"] <= 3.5 + 0.2 + 1e-9


def test_settled_frames_show_the_state_judged(small_video: tuple[Path, dict, GameScript]) -> None:
    path, truth, script = small_video
    _, _, images = render_frames(script, fps=5, size=(400, 300), light_changes=0.0, shakes=0.5)
    frames = list(read_frames(path))
    records = script.turn_records()
    previous = 0
    for turn, record in zip(truth["turns"], records, strict=True):
        frame = cv2.GaussianBlur(frames[turn["frame"]].astype(np.float32), (0, 0), 1.5)
        own = cv2.GaussianBlur(images[record["state"]] * 255, (0, 0), 1.5)
        other = cv2.GaussianBlur(images[previous] * 255, (0, 0), 1.5)
        own_error = float(np.abs(frame - own).max())
        assert own_error < 30, (turn, own_error)
        assert own_error < float(np.abs(frame - other).max()), turn
        previous = record["state"]
        # Just before the hand came, the frame showed the table as it was.


def test_hands_cover_the_table_while_it_changes(small_video: tuple[Path, dict, GameScript]) -> None:
    path, truth, _ = small_video
    frames = list(read_frames(path))
    for hand in (e for e in truth["events"] if e["kind"] == "hand"):
        middle = round((hand["start_s"] + hand["still_s"]) / 2 * truth["fps"])
        still = frames[round(hand["still_s"] * truth["fps"])].astype(np.float32)
        covered = np.abs(frames[middle].astype(np.float32) - still).max(axis=2) > 30
        assert covered.mean() > 0.02  # an arm is in the picture
        # The hand shows from its first frame to its last: the table is still from `still_s` on, not before.
        for edge in (round(hand["start_s"] * truth["fps"]), round(hand["still_s"] * truth["fps"]) - 1):
            shown = np.abs(frames[edge].astype(np.float32) - still).max(axis=2) > 30
            assert shown.mean() > 0.001, (hand, edge)


def test_look_frames_tiles_at_a_readable_size() -> None:
    look = game_look(simulate_game(0, turns=0), (1000, 750))
    assert 40 <= look.tile_px <= 62
    elevation = np.degrees(np.arcsin(-look.camera.rotation[2, 2]))
    assert elevation >= 74


def test_a_navy_edition_only_when_asked() -> None:
    blue_inks = {game_look(simulate_game(seed, turns=0), (400, 300)).edition.ink_names[Color.BLUE]
                 for seed in range(12)}
    assert "navy" not in blue_inks
    navy = game_look(simulate_game(0, turns=0), (400, 300), variants="dark_blue")
    assert navy.edition.ink_names[Color.BLUE] == "navy"


def test_the_chance_of_a_light_change_is_a_share(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        main([str(tmp_path / "out"), "--light-changes", "1.5"])
    assert "expected a number from 0 to 1, got '1.5'" in capsys.readouterr().err


def test_y4m_header_and_size(tmp_path: Path, small_video: tuple[Path, dict, GameScript]) -> None:
    frames = [np.full((120, 160, 3), v, np.uint8) for v in (0, 80, 160, 240)]
    out = tmp_path / "fake.y4m"
    assert write_y4m(frames, out, fps=5, size=(64, 48), source_fps=10) == 2
    data = out.read_bytes()
    header = b"YUV4MPEG2 W64 H48 F5:1 Ip A1:1 C420jpeg\n"
    assert data.startswith(header)
    frame_bytes = len(b"FRAME\n") + 64 * 48 * 3 // 2
    assert len(data) == len(header) + 2 * frame_bytes
    assert data[len(header):len(header) + 6] == b"FRAME\n"
    path, truth, _ = small_video
    video = tmp_path / "video.y4m"
    written = write_y4m(path, video, fps=5, size=(160, 120))
    assert written == truth["frames"]  # the video is at 5 fps already
    assert video.stat().st_size == len(b"YUV4MPEG2 W160 H120 F5:1 Ip A1:1 C420jpeg\n") + written * (
        6 + 160 * 120 * 3 // 2)
    with pytest.raises(ValueError):
        write_y4m(frames, out, size=(63, 48))


def test_cli_writes_videos_and_truth(tmp_path: Path) -> None:
    argv = [str(tmp_path), "--games", "1", "--seed", "2", "--turns", "2", "--fps", "4", "--size", "320x240",
            "--start-rounds", "1", "--y4m", "--quiet"]
    assert main(argv) == 0
    truth = json.loads((tmp_path / "game-000.json").read_text())
    assert truth["video"] == "game-000.mp4" and truth["seed"] == 2000
    assert truth["hands"] == "real"  # the CLI's default mix; --hands sleeve for the first renders'
    assert truth["start_table"] == simulate_game(2000, turns=2, start_rounds=1).tokens(0) != []
    assert (tmp_path / "game-000.mp4").stat().st_size > 0
    assert (tmp_path / "game-000.y4m").read_bytes().startswith(b"YUV4MPEG2 W640 H480 F5:1")
    with pytest.raises(SystemExit):
        main([str(tmp_path), "--size", "100"])


def test_frames_are_the_same_for_the_same_script() -> None:
    script = simulate_game(5, turns=2)
    first, _, _ = render_frames(script, fps=4, size=(200, 150), light_changes=1.0, shakes=1.0)
    second, truth, _ = render_frames(script, fps=4, size=(200, 150), light_changes=1.0, shakes=1.0)
    pairs = list(zip(first, second, strict=True))
    assert len(pairs) == truth.frames
    assert all(np.array_equal(a, b) for a, b in pairs)


def test_a_nudge_moves_one_tile_a_few_millimetres(scripts: list[GameScript]) -> None:
    nudges = [(script, k, e) for script in scripts for k, e in enumerate(script.events) if e.kind == "nudge"]
    assert nudges
    for script, k, event in nudges:
        before = script.states[script.events[k - 1].state if k else 0]
        after = script.states[event.state]
        assert after.sets == before.sets
        moved = [i for i in after.places if after.places[i] != before.places[i]]
        assert moved == [event.tile]
        (x0, y0, up0), (x1, y1, up1) = before.places[event.tile], after.places[event.tile]
        # 2-4 mm (a tile is about 36 mm tall), 1-3 degrees
        assert x0 == x1 and 0.06 <= abs(y1 - y0) <= 0.11 and 1.0 <= abs(up1 - up0) <= 3.0


def test_a_game_joined_midway_starts_on_a_valid_table() -> None:
    script = simulate_game(3, turns=4, start_rounds=3)
    start = script.tokens(0)
    assert len(start) >= 3 and check_table(_tiles(start)).valid
    assert all(e.state > 0 for e in script.events if e.kind == "turn")
    first = script.turn_records()[0]
    assert first["seat"] == 1
    assert Counter(first["added"]) == _counts(first["table"]) - _counts(start)


# -------------------------------------------------------------------- hands as they come (--hands real)

REAL_SIZE = (320, 240)


def _real(seed: int, players: int = 2, turns: int = 6, rests: float = RESTS, fps: int = 5) -> tuple:
    script = simulate_game(seed, players=players, turns=turns, no_change=0.3, nudge=0.3)
    frames, truth, images = render_frames(script, fps=fps, size=REAL_SIZE, light_changes=0.3, shakes=0.3,
                                          hands="real", rests=rests)
    return script, frames, truth, game_look(script, REAL_SIZE)


def _border_counts(mask: np.ndarray) -> dict[str, int]:
    on = mask > 0
    return {"bottom": int(on[-1].sum()), "top": int(on[0].sum()), "left": int(on[:, 0].sum()),
            "right": int(on[:, -1].sum())}


def test_real_hands_draw_every_kind_reproducibly_from_the_seed() -> None:
    visits = [v for seed in range(4) for v in _real(seed, players=2 + seed % 3)[2].visits]
    assert {v.kind for v in visits} == set(HAND_KINDS)
    assert {v.tone for v in visits} == set(SKIN_TONES) | {"like the table"}
    resting = sum(v.rest_at is not None for v in visits) / len(visits)
    assert 0.03 <= resting <= 0.35, resting
    again = _real(1, players=3)[2]
    assert [(v.kind, v.tone, v.start, v.end) for v in again.visits] == [
        (v.kind, v.tone, v.start, v.end) for v in _real(1, players=3)[2].visits]
    events = [e for e in again.to_json()["events"] if e["kind"] == "hand"]
    assert again.to_json()["hands"] == "real"
    drawn = [(v.side, v.kind, v.tone) for v in again.visits]
    assert [(e["side"], e["hand"], e["skin"]) for e in events] == drawn


def test_without_rests_the_real_mix_keeps_the_sleeve_mix_timing() -> None:
    script = simulate_game(4, turns=4, no_change=0.3)
    _, sleeve, _ = render_frames(script, fps=5, size=REAL_SIZE, hands="sleeve")
    _, real, _ = render_frames(script, fps=5, size=REAL_SIZE, hands="real", rests=0.0)
    assert sleeve.turns == real.turns and sleeve.frames == real.frames
    assert [v.kind for v in sleeve.visits] == ["sleeve"] * len(sleeve.visits)
    with pytest.raises(ValueError):
        render_frames(script, fps=5, size=REAL_SIZE, hands="gloves")


def test_a_bare_arm_is_skin_to_the_frame_edge_with_no_sleeve() -> None:
    bare = [(look, v) for seed in range(3) for _, _, truth, look in [_real(seed)] for v in truth.visits
            if v.bare]
    assert bare
    for look, visit in bare:
        at_work = (visit.start + visit.switch) // 2
        skin, sleeve = hand_masks(visit, at_work, look, 5)
        assert not sleeve.any()
        assert _border_counts(skin)[visit.side] > 0.5 * look.tile_px  # the forearm crosses its edge


def test_an_arm_like_the_table_shows_the_cloth_colour() -> None:
    found = 0
    for seed in range(6):
        _, frames, truth, look = _real(seed, turns=3)
        alike = {(v.start + v.switch) // 2: v for v in truth.visits if v.tone == "like the table"}
        if not alike:
            continue
        for f, frame in enumerate(frames):
            if f in alike:
                skin, _ = hand_masks(alike[f], f, look, 5)
                inside = cv2.erode(skin, np.ones((3, 3), np.uint8)) > 250
                mean = frame[inside].astype(np.float32).mean(axis=0) / 255
                assert np.abs(mean - look.cloth).max() < 0.1, (seed, f, mean, look.cloth)
                found += 1
        if found >= 3:
            break
    assert found >= 3


def test_a_resting_hand_stays_dead_still_for_two_seconds_and_the_turn_is_judged_after_it_leaves() -> None:
    fps = 5
    _, frames, truth, look = _real(2, turns=3, rests=1.0, fps=fps)
    frames = list(frames)
    noise_period = 6  # the sensor noise cycles through six fields: still frames that far apart are equal
    visits = truth.visits
    assert visits and all(v.rest_at is not None for v in visits)
    turns = iter(truth.turns)
    for visit in visits:
        assert visit.switch < visit.rest_start and visit.rest_end - visit.rest_start >= 2 * fps
        first, _ = hand_masks(visit, visit.rest_start, look, fps)
        for f in range(visit.rest_start, visit.rest_end):
            assert np.array_equal(hand_masks(visit, f, look, fps)[0], first)
            if f + noise_period < visit.rest_end:
                assert np.array_equal(frames[f], frames[f + noise_period]), f
        moved, _ = hand_masks(visit, visit.rest_end, look, fps)
        assert not np.array_equal(moved, first)  # then it lets go
        if visit.event.kind == "turn":
            turn = next(turns)
            assert turn["still_s"] == round(visit.end / fps, 3)
            assert turn["frame"] == visit.end + math.ceil(SETTLE_S * fps - 1e-9)
    rests = [e["rest_s"] for e in truth.to_json()["events"] if e["kind"] == "hand"]
    assert len(rests) == len(visits)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_each_seat_comes_in_from_its_own_side(players: int) -> None:
    sides: dict[int, set[str]] = {}
    for seed in range(2):
        _, _, truth, look = _real(seed + 10 * players, players=players)
        for visit in truth.visits:
            assert visit.side == seat_side(visit.event.from_seat, players)
            for f in (visit.start, (visit.start + visit.switch) // 2, visit.end - 1):
                skin, sleeve = hand_masks(visit, f, look, 5)
                counts = _border_counts(cv2.max(skin, sleeve))
                assert max(counts, key=counts.get) == visit.side, (seed, f, counts, visit.side)
            sides.setdefault(visit.event.from_seat, set()).add(visit.side)
    assert all(len(s) == 1 for s in sides.values())
    expected = {2: {"bottom", "top"}, 3: {"bottom", "left", "top"}, 4: {"bottom", "left", "top", "right"}}
    assert set().union(*sides.values()) == expected[players]
