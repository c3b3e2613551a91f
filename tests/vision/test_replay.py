"""`rummi watch VIDEO --record FILE` and `rummi replay FILE` (issue 36): a rendered game watched with the
shipped models; the record it writes replays to exactly what `watch --json` printed, turn by turn."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from assistant.game_record import FORMAT, read_record
from datasets.game_script import simulate_game
from datasets.game_video import render_game_video
from rummi import main

# The smallest game video of tests/datasets/test_game_video.py: four turns with illegal ones put back.
BUSY = {"opening_under": 0.45, "invalid_set": 0.2, "tile_taken": 0.25, "mended": 0.35}


@pytest.fixture(scope="module")
def watched(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list[dict]]:
    """(the video, its record, the lines `watch --json --record` printed)."""
    folder = tmp_path_factory.mktemp("replay")
    video = folder / "game.mp4"
    render_game_video(simulate_game(3, turns=4, **BUSY), video, fps=5, size=(400, 300), light_changes=0.0,
                      shakes=0.5)  # fmt: skip
    record = folder / "game.jsonl"
    out = io.StringIO()  # capsys is one test's: the module's fixture catches stdout itself
    with contextlib.redirect_stdout(out):
        assert main(["watch", str(video), "--json", "--record", str(record)]) == 0
    printed = [json.loads(line) for line in out.getvalue().splitlines()]
    return video, record, printed


def test_replay_json_prints_exactly_what_watch_printed(
    watched: tuple[Path, Path, list[dict]], capsys: pytest.CaptureFixture[str]
) -> None:
    video, record, printed = watched
    assert len(printed) >= 4, "the game should have turns"
    assert any(not call["legal"] for call in printed)
    assert main(["replay", str(record), "--json"]) == 0
    assert [json.loads(line) for line in capsys.readouterr().out.splitlines()] == printed


def test_the_record_holds_the_header_and_each_call_with_the_table_before_it(
    watched: tuple[Path, Path, list[dict]],
) -> None:
    video, record, printed = watched
    header = json.loads(record.read_text().splitlines()[0])
    assert (header["format"], header["version"], header["game"]) == (FORMAT, 1, "game.mp4")
    assert (header["rules"], header["players"], header["first_seat"]) == ("standard", 2, 1)
    game = read_record(record)
    assert game.header.seats == ("Seat 1", "Seat 2")
    assert game.calls[0].table_before == ()  # the rendered game starts on a bare table
    for earlier, later in zip(game.calls, game.calls[1:], strict=False):
        assert later.table_before == earlier.call.table
    assert all(c.snapshot == f"{video}#frame={c.call.frame}" and c.recorded_at for c in game.calls)


def test_replay_turn_shows_the_table_before_that_turn(
    watched: tuple[Path, Path, list[dict]], capsys: pytest.CaptureFixture[str]
) -> None:
    _, record, printed = watched
    turn = len(printed)
    assert main(["replay", str(record), "--turn", str(turn)]) == 0
    out = capsys.readouterr().out.splitlines()
    before = printed[turn - 2]["table"]  # the table after the turn before
    seat = printed[-1]["seat"]
    assert out[0].startswith(f"Before turn {turn} (seat {seat}) the table held {len(before)} set")
    assert out[1 : 1 + len(before)] == [f"  {i}. {' '.join(s)}" for i, s in enumerate(before, start=1)]
    assert out[1 + len(before)].startswith(f"turn {turn}, seat {seat}: ")
    assert main(["replay", str(record), "--turn", str(turn), "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document == {**printed[-1], "table_before": before}


def test_replay_prints_one_line_a_turn(
    watched: tuple[Path, Path, list[dict]], capsys: pytest.CaptureFixture[str]
) -> None:
    _, record, printed = watched
    assert main(["replay", str(record)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Game record: game.mp4 · standard rules · 2 players")
    assert len(lines) == 1 + len(printed)
    for line, call in zip(lines[1:], printed, strict=True):
        verdict = "legal" if call["legal"] else "not legal"
        assert line.startswith(f"turn {call['turn']}, seat {call['seat']}: {verdict}")


def test_a_video_that_cannot_be_read_leaves_no_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video = tmp_path / "broken.mp4"
    video.write_bytes(b"\x00" * 100)
    record = tmp_path / "game.jsonl"
    assert main(["watch", str(video), "--record", str(record)]) == 2
    assert "broken.mp4" in capsys.readouterr().err
    assert not record.exists()


def test_a_record_that_cannot_be_written_exits_2(
    watched: tuple[Path, Path, list[dict]], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    video, _, _ = watched
    assert main(["watch", str(video), "--record", str(tmp_path / "no-folder" / "game.jsonl")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("rummi watch: error: cannot write the game record") and "Traceback" not in err
