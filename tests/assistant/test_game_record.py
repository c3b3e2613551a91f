"""Game records (issue 36): written and read back whole, `rummi replay` turn by turn, and every bad file
refused with exit 2 and a message naming the line and what is wrong (never a traceback)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from assistant import game_record as gr
from assistant.cli import main
from assistant.game_record import (
    FORMAT,
    GameRecord,
    RecordError,
    RecordHeader,
    RecordWriter,
    parse_record,
    read_record,
    record_from_referee,
    write_record,
)
from assistant.referee import Referee, seen_table
from assistant.rules import find_preset
from assistant.tiles import parse_layout

HEADER = RecordHeader(
    game="Friday", rules="standard", players=3, first_seat=2, seats=("Ann", "Bob", "Seat 3"),
    created="2025-06-01T12:00:00.000Z", source="test",
)  # fmt: skip


def played_game() -> Referee:
    """A referee after five calls: an opening, a draw, an illegal set, put back, a play on a table."""
    referee = Referee(find_preset("standard"), players=3, first_seat=2)
    for time_s, layout in [
        (1.0, "r10 r11 r12"),  # the start: a game under way, every seat has opened
        (4.0, "r10 r11 r12 | k7 b7 o7"),  # seat 2
        (9.0, "r10 r11 r12 | k7 b7 o7 | k1 k2"),  # seat 1 (after seat 3 drew): not legal
        (12.0, "r10 r11 r12 | k7 b7 o7"),  # put back
        (15.0, "r10 r11 r12 r13 | k7 b7 o7"),  # seat 2
    ]:
        referee.observe(seen_table(parse_layout(layout)), time_s=time_s, frame=int(time_s * 5))
        if time_s == 4.0:
            referee.drew(6.0, 30)
    return referee


def record_of(referee: Referee) -> GameRecord:
    calls = len(referee.history)
    return record_from_referee(
        referee.to_json(), HEADER, recorded_at=[1_750_000_000.0 + k for k in range(calls)],
        snapshots=[f"referee/1/turn/{k + 1}" for k in range(calls)],
    )  # fmt: skip


def write(tmp_path: Path, data: bytes | str, name: str = "game.jsonl") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def test_a_record_round_trips_through_its_file(tmp_path: Path) -> None:
    referee = played_game()
    record = record_of(referee)
    assert [c.call.action for c in record.calls] == ["play", "drew", "play", "put back", "play"]
    path = tmp_path / "game.jsonl"
    write_record(record, path)
    again = read_record(path)
    assert again == record
    assert [c.watch_json() for c in again.calls] == [c.to_json() for c in referee.history]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == {
        "format": FORMAT, "version": 1, "game": "Friday", "rules": "standard", "players": 3, "first_seat": 2,
        "seats": ["Ann", "Bob", "Seat 3"], "created": "2025-06-01T12:00:00.000Z", "source": "test",
    }  # fmt: skip
    first = json.loads(lines[1])
    assert list(first)[: len(gr.WATCH_FIELDS)] == list(gr.WATCH_FIELDS)
    assert first["table_before"] == [["r10", "r11", "r12"]]  # the start
    assert first["snapshot"] == "referee/1/turn/1" and first["recorded_at"] == "2025-06-15T15:06:40.000Z"
    # Each table before is the table after the turn before.
    for earlier, later in zip(record.calls, record.calls[1:], strict=False):
        assert later.table_before == earlier.call.table


def test_the_writer_writes_line_by_line_and_refuses_a_turn_out_of_order(tmp_path: Path) -> None:
    referee = played_game()
    path = tmp_path / "live.jsonl"
    writer = RecordWriter.create(path, HEADER)
    assert len(path.read_text().splitlines()) == 1  # the header at once
    before = parse_layout("r10 r11 r12")
    writer.add(referee.history[0], before, 1_750_000_000.0)
    assert len(path.read_text().splitlines()) == 2  # flushed: readable while the game goes on
    with pytest.raises(RecordError, match="turn 3 is not the next turn"):
        writer.add(referee.history[2], before)
    writer.close()
    assert read_record(path).calls[0].call == referee.history[0]


def test_rummi_replay_prints_every_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    write_record(record_of(played_game()), path)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Game record: Friday · standard rules · 3 players (seat 1 Ann, seat 2 Bob)")
    assert out[1] == "turn 1, seat 2: legal, added k7 b7 o7; table before: r10 r11 r12"
    assert out[2] == "turn 2, seat 3: drew a tile; table before: r10 r11 r12 | k7 b7 o7"
    assert out[3].startswith("turn 3, seat 1: not legal, added k1 k2 (set 3 (k1 k2) is left invalid")
    assert out[4].startswith("turn 4, seat 1: legal, put the table back, removed k1 k2, 1 penalty tile")
    assert len(out) == 6


def test_rummi_replay_json_prints_the_calls_as_watch_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    referee = played_game()
    path = tmp_path / "game.jsonl"
    write_record(record_of(referee), path)
    assert main(["replay", str(path), "--json"]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert printed == [c.to_json() for c in referee.history]


def test_rummi_replay_turn_shows_the_table_before_that_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.jsonl"
    write_record(record_of(played_game()), path)
    assert main(["replay", str(path), "--turn", "5"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == [
        "Before turn 5 (seat 2) the table held 2 sets, 6 tiles:",
        "  1. r10 r11 r12",
        "  2. k7 b7 o7",
    ]
    assert out[3].startswith("turn 5, seat 2: legal, added r13")
    assert out[4] == "table after: r10 r11 r12 r13 | k7 b7 o7"
    assert main(["replay", str(path), "--turn", "4", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["turn"] == 4 and document["action"] == "put back"
    assert document["table_before"] == [["r10", "r11", "r12"], ["k7", "b7", "o7"], ["k1", "k2"]]
    assert main(["replay", str(path), "--turn", "6"]) == 2
    assert "holds turns 1 to 5, not turn 6" in capsys.readouterr().err
    assert main(["replay", str(path), "--turn", "0"]) == 2
    assert "turns are numbered from 1" in capsys.readouterr().err


def good_lines() -> list[str]:
    return record_of(played_game()).lines()


def replace_field(line: str, key: str, value: object) -> str:
    document = json.loads(line)
    document[key] = value
    return json.dumps(document)


def drop_field(line: str, key: str) -> str:
    document = json.loads(line)
    del document[key]
    return json.dumps(document)


def bad_records() -> list[tuple[str, str, str]]:
    """(what, the file's text, what the message says)."""
    lines = good_lines()
    text = "\n".join(lines) + "\n"
    return [
        ("truncated", text[: text.rindex('"reasons"')], "line 6 is cut short: the file ends inside it"),
        ("not JSON", "\n".join([*lines[:2], "{turn: 2}", *lines[3:]]), "line 3 is not JSON"),
        ("wrong version", "\n".join([replace_field(lines[0], "version", 2), *lines[1:]]),
         "line 1: version 2 of rummi-game-record is not known: this program reads version 1"),
        ("another format", "\n".join([replace_field(lines[0], "format", "csv"), *lines[1:]]),
         "line 1: not a game record (format \"csv\")"),
        ("no header", "\n".join(lines[1:]), "line 1 is a call, not the header"),
        ("empty", "", "is empty: a game record starts with its header line"),
        ("a list", "[1, 2]\n", "line 1 is a JSON list, not a JSON object"),
        ("a blank line", "\n".join([*lines[:3], "", *lines[3:]]), "line 4 is empty"),
        ("not UTF-8", text.replace("Friday", "Fr\udcffday"), "line 1 is not UTF-8 text"),
        ("a field missing", "\n".join([*lines[:2], drop_field(lines[2], "table_before"), *lines[3:]]),
         "line 3: no 'table_before' field"),
        ("a bad tile", "\n".join([*lines[:2], replace_field(lines[2], "added", ["r14"]), *lines[3:]]),
         "line 3: 'added' holds number out of range in 'r14'"),
        ("a turn missing", "\n".join([*lines[:2], *lines[3:]]), "line 3: 'turn' is 3 where turn 2 comes"),
        ("a seat off the table", "\n".join([lines[0], replace_field(lines[1], "seat", 4), *lines[2:]]),
         "line 2: 'seat' must be 1 to 3, not 4"),
        ("a table before that does not follow",
         "\n".join([*lines[:3], replace_field(lines[3], "table_before", [["k1", "k2", "k3"]]), *lines[4:]]),
         "line 4: 'table_before' is not the table after turn 2 (line 3)"),
        ("a bool for a number", "\n".join([*lines[:2], replace_field(lines[2], "frame", True), *lines[3:]]),
         "line 3: 'frame' must be a whole number, not true"),
        ("an unknown preset", "\n".join([replace_field(lines[0], "rules", "chess"), *lines[1:]]),
         "line 1: 'rules' is not a rules preset"),
        ("NaN", "\n".join([*lines[:2], replace_field(lines[2], "time_s", 1.0).replace("1.0", "NaN"),
                           *lines[3:]]), "line 3 is not JSON"),
    ]  # fmt: skip


@pytest.mark.parametrize(("what", "text", "said"), bad_records(), ids=[b[0] for b in bad_records()])
def test_a_bad_record_exits_2_naming_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], what: str, text: str, said: str
) -> None:
    data = text.encode("utf-8", "surrogateescape")
    path = write(tmp_path, data)
    assert main(["replay", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert said in captured.err, captured.err
    assert captured.err.startswith("rummi replay: error: ") and "Traceback" not in captured.err
    with pytest.raises(RecordError, match="game.jsonl"):
        parse_record(data, "game.jsonl")


def test_a_last_line_without_its_new_line_is_read_when_it_is_whole(tmp_path: Path) -> None:
    lines = good_lines()
    assert len(read_record(write(tmp_path, "\n".join(lines))).calls) == 5
    assert len(read_record(write(tmp_path, "\r\n".join(lines) + "\r\n")).calls) == 5  # Windows' line ends


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_is_refused_without_waiting_for_a_writer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "game.jsonl"
    os.mkfifo(fifo)
    assert main(["replay", str(fifo)]) == 2  # returns at once: nothing opened the FIFO for writing
    assert "is a named pipe, not a game record file" in capsys.readouterr().err


def test_a_folder_and_a_missing_file_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path)]) == 2
    assert "is a folder, not a game record file" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "nothing.jsonl")]) == 2
    assert "nothing.jsonl: no such file" in capsys.readouterr().err


def test_a_record_over_the_size_limit_is_refused_reading_no_more_than_the_limit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as out:  # sparse where the file system can: twice the limit
        out.truncate(2 * gr.MAX_RECORD_BYTES)
    assert main(["replay", str(path)]) == 2  # refused by its size, unread (assistant.user_files)
    assert "the file is too large (17 MB; at most 8 MB)" in capsys.readouterr().err
    # At the limit exactly it is read (and then judged line by line).
    lines = good_lines()
    text = "\n".join(lines) + "\n"
    with pytest.raises(RecordError, match="larger than"):
        parse_record(text.encode(), "small.jsonl", limit=len(text) - 1)
    assert len(parse_record(text.encode(), "small.jsonl", limit=len(text)).calls) == 5



def test_the_documented_example_is_a_record_it_reads() -> None:
    import re

    text = (Path(__file__).resolve().parents[2] / "docs" / "game-record.md").read_text(encoding="utf-8")
    block = re.search(r"```\n(.*?)```", text, re.S)
    assert block is not None
    record = parse_record(block.group(1).encode(), "docs/game-record.md")
    assert [c.call.action for c in record.calls] == ["play", "drew"]
    assert record.calls[1].table_before == record.calls[0].call.table
