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

from assistant.arguments import help_text_for
from assistant.errors import shorten_long_runs
from assistant.game_record import (
    RecordError,
    describe_call,
    describe_header,
    describe_turn_before,
    read_record,
)

EXIT_OK = 0
EXIT_UNREADABLE = 2


REPLAY_HELP = help_text_for({
    "--json": "print each call as `rummi watch --json` printed it, one JSON object per line",
    "--rules": "not used: the record names its own rules",
})


def configure(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = REPLAY_HELP
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
