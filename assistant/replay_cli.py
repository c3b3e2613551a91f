"""`rummi replay FILE [--json] [--turn N]`: the calls of a game record (assistant.game_record), turn by turn.

Text: the header, then one line a turn (`turn 12, seat 2: legal, added k3 k4 k5; table before: ...`).
`--json`: each call as `rummi watch --json` printed it, one object a line (replaying a record `watch --record`
wrote prints what `watch --json` printed). `--turn N`: that turn only, with the table before it set by set
(with `--json`: the call's object and its `table_before`). Exit 0 once the record is read, 2 for a record that
cannot be read (the message names the line) or a turn it does not hold. `--rules` is not used: the record
names its own preset.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from assistant.errors import shorten_long_runs
from assistant.game_record import GameRecord, RecordedCall, RecordError, RecordHeader, read_record, table_text
from assistant.referee import DREW, PUT_BACK
from assistant.tiles import format_tiles

EXIT_OK = 0
EXIT_UNREADABLE = 2


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("record", metavar="FILE", help="a game record (`rummi watch VIDEO --record FILE`)")
    parser.add_argument(
        "--turn", type=_turn_number, metavar="N", help="only turn N, and what was on the table before it"
    )


def _turn_number(text: str) -> int:
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a turn number: {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"turns are numbered from 1, not {number}")
    return number


def _error(message: object) -> None:
    print(f"rummi replay: error: {shorten_long_runs(str(message))}", file=sys.stderr)


def run(args: argparse.Namespace, rules: Any) -> int:
    """Print the record's calls (or one turn's)."""
    try:
        record = read_record(args.record)
    except RecordError as error:
        _error(error)
        return EXIT_UNREADABLE
    try:
        chosen = [record.turn(args.turn)] if args.turn is not None else list(record.calls)
    except RecordError as error:
        _error(f"{args.record}: {error}")
        return EXIT_UNREADABLE
    if args.json:
        for entry in chosen:
            document = entry.watch_json()
            if args.turn is not None:
                document["table_before"] = entry.to_json()["table_before"]
            print(json.dumps(document), flush=True)
        return EXIT_OK
    if args.turn is not None:
        print(describe_turn_before(chosen[0]))
        return EXIT_OK
    print(describe_header(record))
    for entry in chosen:
        print(describe_call(entry))
    return EXIT_OK


def describe_header(record: GameRecord) -> str:
    """`Game record: Friday · standard rules · 3 players (seat 1 Ann, ...) · seat 2 first · 5 turns · ...`"""
    header: RecordHeader = record.header
    named = [
        f"seat {seat} {name}" for seat, name in enumerate(header.seats, start=1) if name != f"Seat {seat}"
    ]
    players = f"{header.players} player{'s' * (header.players != 1)}"
    if named:
        players += f" ({', '.join(named)})"
    turns = len(record.calls)
    parts = [
        f"Game record: {header.game or '(no name)'}",
        f"{header.rules} rules",
        players,
        f"seat {header.first_seat} first",
        f"{turns} turn{'s' * (turns != 1)}",
        f"created {header.created}",
    ]
    if header.source:
        parts.append(f"from {header.source}")
    return " · ".join(parts)


def describe_call(entry: RecordedCall) -> str:
    """`turn 12, seat 2: legal, added k3 k4 k5; table before: r1 r2 r3 | k5 k6 k7`"""
    call = entry.call
    if call.action == DREW:
        what = "drew a tile"
    else:
        verdict = "legal" if call.legal else "not legal"
        if call.overridden:
            verdict += " (overridden)"
        pieces = [verdict]
        if call.action == PUT_BACK:
            pieces.append("put the table back")
        if call.added:
            pieces.append(f"added {format_tiles(call.added)}")
        if call.removed:
            pieces.append(f"removed {format_tiles(call.removed)}")
        if call.penalty_tiles:
            noun = "tile" if call.penalty_tiles == 1 else "tiles"
            pieces.append(f"{call.penalty_tiles} penalty {noun}")
        what = ", ".join(pieces)
        if call.reasons:
            what += " (" + "; ".join(call.reasons) + ")"
        if call.unsure:
            what += "; check: " + "; ".join(call.unsure)
    return f"turn {call.turn}, seat {call.seat}: {what}; table before: {table_text(entry.table_before)}"


def describe_turn_before(entry: RecordedCall) -> str:
    """What was on the table before the turn, set by set; the turn's call; the table after it."""
    call = entry.call
    sets = len(entry.table_before)
    tiles = sum(len(s) for s in entry.table_before)
    lines = [
        f"Before turn {call.turn} (seat {call.seat}) the table held {sets} set{'s' * (sets != 1)}, "
        f"{tiles} tile{'s' * (tiles != 1)}" + (":" if sets else ".")
    ]
    lines += [f"  {index}. {format_tiles(list(s))}" for index, s in enumerate(entry.table_before, start=1)]
    lines.append(describe_call(entry))
    lines.append(f"table after: {table_text(call.table)}")
    return "\n".join(lines)
