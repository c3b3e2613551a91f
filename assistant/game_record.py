"""A game record (issue 36): every call of a referee game in one file, for `rummi replay` and the app.

The format is JSON lines (one JSON object a line, UTF-8, each line ended by a new line), described in
docs/game-record.md:

- line 1, the header: `{"format": "rummi-game-record", "version": 1, "game", "rules", "players",
  "first_seat", "seats", "created", "source"}`;
- each further line, one call in turn order: the object `rummi watch --json` prints (CONTRACT.md: `turn`,
  `seat`, `time_s`, `frame`, `action`, `added`, `removed`, `legal`, `reasons`, `table`, `unsure`,
  `penalty_tiles`, `overridden`) and `table_before` (the table at the previous call, or the start),
  `recorded_at` (when it was judged, ISO 8601 UTC, or null) and `snapshot` (where the settled table's picture
  is kept, or null).

`rummi watch VIDEO --record FILE` writes one as it watches (`RecordWriter`), the app's Referee screen exports
the current referee game's (`assistant.storage.referee.RefereeStore.game_record`), and both read one through
`read_record` / `parse_record`, which refuse a bad file with a `RecordError` naming the line and what is
wrong. Pure Python: no pixels, no widgets.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import IO, Any

from assistant.errors import InputError, quote
from assistant.referee import DREW, PLAY, PUT_BACK, Call, Table
from assistant.rules import find_preset
from assistant.tiles import NotationError, Tile, format_tiles
from assistant.user_files import read_user_file

FORMAT = "rummi-game-record"
VERSION = 1
MAX_RECORD_BYTES = 8 * 1024 * 1024
"""The largest record read (8 MiB): a long six-player game is well under one."""
WATCH_FIELDS = (
    "turn", "seat", "time_s", "frame", "action", "added", "removed", "legal", "reasons", "table", "unsure",
    "penalty_tiles", "overridden",
)  # fmt: skip
"""A call's fields as `rummi watch --json` prints them (CONTRACT.md), in its order."""
ACTIONS = (PLAY, PUT_BACK, DREW)
SUFFIX = ".jsonl"
MEDIA_TYPE = "application/jsonl"


class RecordError(InputError):
    """A game record that cannot be read or written: the message names the file, the line, what is wrong."""


def iso_time(seconds: float) -> str:
    """Unix seconds as ISO 8601 UTC to the millisecond: `2025-06-01T12:00:00.000Z`."""
    moment = datetime.fromtimestamp(seconds, timezone.utc)
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def table_text(table: Sequence[Sequence[Tile]]) -> str:
    """A table as a LAYOUT (`r1 r2 r3 | k5 k6 k7`); `(empty)` for no set."""
    return " | ".join(format_tiles(list(s)) for s in table) or "(empty)"


def _tokens(table: Sequence[Sequence[Tile]]) -> list[list[str]]:
    return [[str(t) for t in s] for s in table]


@dataclass(frozen=True)
class RecordHeader:
    """The record's first line: what game, under which rules, who sat where, when it was made.

    Attributes:
        game: the game's name (the app's game, or the video's file name for `rummi watch`).
        rules: the preset with its house rules, as `--rules` takes it (`standard+gentle-joker`).
        players: seats at the table, numbered from 1.
        first_seat: the seat that played first.
        seats: a name for each seat, seat 1 first ("Seat 3" where nobody's name is known).
        created: when the referee game began, ISO 8601 UTC.
        source: what made the record (`app`, `rummi watch VIDEO`).
    """

    game: str
    rules: str
    players: int
    first_seat: int
    seats: tuple[str, ...]
    created: str
    source: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules": self.rules,
            "players": self.players,
            "first_seat": self.first_seat,
            "seats": list(self.seats),
            "created": self.created,
            "source": self.source,
        }

    def seat_name(self, seat: int) -> str:
        return self.seats[seat - 1] if 1 <= seat <= len(self.seats) else f"Seat {seat}"


def default_seats(players: int) -> tuple[str, ...]:
    return tuple(f"Seat {seat}" for seat in range(1, players + 1))


@dataclass(frozen=True)
class RecordedCall:
    """One call as the record keeps it: the referee's call, the table before it, when, and its picture.

    Attributes:
        call: the call (its `to_json` is what `rummi watch --json` prints).
        table_before: the table at the previous call (or the start): `added`/`removed` are against it.
        recorded_at: when the call was made, ISO 8601 UTC; None where it is not known.
        snapshot: where the settled table's picture is kept (`referee/ID/turn/N` in the app's database,
            `VIDEO#frame=N` for `rummi watch`); None where there is none (a draw, a camera).
    """

    call: Call
    table_before: Table
    recorded_at: str | None = None
    snapshot: str | None = None

    def watch_json(self) -> dict[str, Any]:
        """The call exactly as `rummi watch --json` prints it."""
        return self.call.to_json()

    def to_json(self) -> dict[str, Any]:
        return {
            **self.call.to_json(),
            "table_before": _tokens(self.table_before),
            "recorded_at": self.recorded_at,
            "snapshot": self.snapshot,
        }


@dataclass(frozen=True)
class GameRecord:
    """A header and every call, in turn order."""

    header: RecordHeader
    calls: tuple[RecordedCall, ...] = field(default=())

    def lines(self) -> list[str]:
        """The record's lines, each one JSON object without its new line."""
        return [_line(self.header.to_json()), *(_line(c.to_json()) for c in self.calls)]

    def to_bytes(self) -> bytes:
        """The whole file."""
        return "".join(line + "\n" for line in self.lines()).encode("utf-8")

    def turn(self, number: int) -> RecordedCall:
        """The call of turn `number`.

        Raises:
            RecordError: the record holds no such turn.
        """
        if 1 <= number <= len(self.calls):
            return self.calls[number - 1]
        held = f"turns 1 to {len(self.calls)}" if self.calls else "no turn"
        raise RecordError(f"the record holds {held}, not turn {number}")


def _line(document: Mapping[str, Any]) -> str:
    return json.dumps(document, ensure_ascii=False, separators=(", ", ": "))


def write_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write the whole record to `path` (replaced if it exists).

    Raises:
        RecordError: the file cannot be written.
    """
    try:
        Path(path).write_bytes(record.to_bytes())
    except OSError as error:
        raise RecordError(f"cannot write the game record {str(path)!r}: {error.strerror or error}") from error


class RecordWriter:
    """A record written as the game goes: the header at once, then each call as a line, flushed, so a run that
    stops (Ctrl-C, a crash) leaves a record readable up to its last call.

    Args:
        stream: a text stream open for writing.
        header: the record's header.
    """

    def __init__(self, stream: IO[str], header: RecordHeader, name: str = "the game record") -> None:
        self.stream = stream
        self.header = header
        self.name = name
        self.calls: list[RecordedCall] = []
        self._write(_line(header.to_json()))

    @classmethod
    def create(cls, path: str | os.PathLike[str], header: RecordHeader) -> RecordWriter:
        """A writer on a new file at `path` (replaced if it exists).

        Raises:
            RecordError: the file cannot be made.
        """
        try:
            stream = open(path, "w", encoding="utf-8", newline="\n")  # noqa: SIM115 (closed by `close`)
        except OSError as error:
            raise RecordError(
                f"cannot write the game record {str(path)!r}: {error.strerror or error}"
            ) from error
        return cls(stream, header, str(path))

    def add(
        self, call: Call, table_before: Sequence[Sequence[Tile]], recorded_at: float | None = None,
        snapshot: str | None = None,
    ) -> RecordedCall:  # fmt: skip
        """Write one call (the next turn) with the table before it.

        Raises:
            RecordError: the call is not the next turn, or the file cannot be written.
        """
        if call.turn != len(self.calls) + 1:
            raise RecordError(f"turn {call.turn} is not the next turn of the record ({len(self.calls) + 1})")
        when = None if recorded_at is None else iso_time(recorded_at)
        entry = RecordedCall(call, tuple(tuple(s) for s in table_before), when, snapshot)
        self._write(_line(entry.to_json()))
        self.calls.append(entry)
        return entry

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except OSError as error:
            raise self._failed(error) from error

    def close(self) -> None:
        try:
            self.stream.close()
        except OSError as error:
            raise self._failed(error) from error

    def _failed(self, error: OSError) -> RecordError:
        return RecordError(f"cannot write the game record {self.name!r}: {error.strerror or error}")

    @property
    def record(self) -> GameRecord:
        return GameRecord(self.header, tuple(self.calls))


def record_from_referee(
    state: Mapping[str, Any],
    header: RecordHeader,
    calls: Sequence[Call] | None = None,
    recorded_at: Sequence[float | None] = (),
    snapshots: Sequence[str | None] = (),
) -> GameRecord:
    """The record of a referee's saved game (`Referee.to_json`): its calls (or `calls`, as stored), each with
    the table before it: the start for the first (the table the referee stood on before it), the call
    before's table for the others (the table `added`/`removed` are against).

    Raises:
        RecordError: the saved state cannot be read.
    """
    try:
        if calls is None:
            calls = [Call.from_json(c) for c in state["history"]]
        states = state.get("states") or []
        start = states[0]["reported_table"] if states else state.get("state", {}).get("reported_table", [])
        first: Table = tuple(tuple(Tile.parse(t) for t in s) for s in start)
    except (InputError, KeyError, TypeError, ValueError, IndexError) as error:
        raise RecordError(f"the referee game cannot be made into a record: {error}") from error
    entries = []
    before = first
    for index, call in enumerate(calls):
        moment = recorded_at[index] if index < len(recorded_at) else None
        entries.append(
            RecordedCall(
                call, before, None if moment is None else iso_time(moment),
                snapshots[index] if index < len(snapshots) else None,
            )
        )  # fmt: skip
        before = call.table
    return GameRecord(header, tuple(entries))


# -- in words (rummi replay, the Referee screen) -----------------------------------------------------------


def describe_header(record: GameRecord) -> str:
    """`Game record: Friday · standard rules · 3 players (seat 1 Ann, ...) · seat 2 first · 5 turns · ...`"""
    header = record.header
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


# -- reading -----------------------------------------------------------------------------------------------


def read_record(path: str | os.PathLike[str], limit: int = MAX_RECORD_BYTES) -> GameRecord:
    """The record in the file at `path`: a regular file of at most `limit` bytes (at most `limit` + 1 are
    read), every line as `parse_record` takes it.

    Raises:
        RecordError: no such file, not a regular file (a folder, a FIFO, a device), over the limit, or a line
            that is not as the format says (the message names the line and what is wrong).
    """
    name = str(path)
    # The one way in for a file a user names: a FIFO, a device or a folder refused unread.
    data = read_user_file(path, limit, "a game record file", RecordError)
    return parse_record(data, name, limit)


def parse_record(data: bytes, name: str = "the game record", limit: int = MAX_RECORD_BYTES) -> GameRecord:
    """The record in `data` (a file's bytes; `name` says which file in messages).

    Raises:
        RecordError: over `limit` bytes, empty, or a line that is not as the format says: not UTF-8, not
            JSON, cut short (the file ends inside it), a header of another format or version, a field missing
            or of the wrong kind, turns out of order, a table before that is not the table after the turn
            before.
    """
    if len(data) > limit:
        raise RecordError(
            f"{name} is larger than {_size(limit)}, the most a game record may be: is it a game record?"
        )
    if not data.strip():
        raise RecordError(f"{name} is empty: a game record starts with its header line")
    lines = data.split(b"\n")
    ended = lines[-1] == b""
    if ended:
        lines.pop()
    header: RecordHeader | None = None
    calls: list[RecordedCall] = []
    for number, raw in enumerate(lines, start=1):
        where = f"{name} line {number}"
        document = _json_line(raw, where, cut=number == len(lines) and not ended, first=number == 1)
        if header is None:
            header = _header(document, where)
        else:
            calls.append(_call(document, where, header, calls))
    assert header is not None
    return GameRecord(header, tuple(calls))


def _size(count: int) -> str:
    return f"{count / (1024 * 1024):g} MiB" if count >= 1024 * 1024 else f"{count} bytes"


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a number JSON allows")


def _json_line(raw: bytes, where: str, cut: bool, first: bool) -> dict[str, Any]:
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{where} is not UTF-8 text (byte {error.start + 1})") from None
    if first:
        text = text.removeprefix("\ufeff")
    if not text.strip():
        raise RecordError(f"{where} is empty: every line of a game record is one JSON object")
    try:
        document = json.loads(text, parse_constant=_no_constant)
    except (json.JSONDecodeError, ValueError) as error:
        if cut:
            raise RecordError(
                f"{where} is cut short: the file ends inside it (was the record still being written?)"
            ) from None
        detail = f"{error.msg} at column {error.colno}" if isinstance(error, json.JSONDecodeError) else error
        raise RecordError(f"{where} is not JSON ({detail})") from None
    if not isinstance(document, dict):
        raise RecordError(f"{where} is {_json_kind(document)}, not a JSON object")
    return document


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "a JSON list"
    if isinstance(value, str):
        return "a JSON string"
    if value is None:
        return "null"
    return f"the JSON value {json.dumps(value)[:20]}"


class _Fields:
    """One line's fields, each taken with its kind checked; errors name the line and the field."""

    def __init__(self, document: Mapping[str, Any], where: str) -> None:
        self.document = document
        self.where = where

    def fail(self, key: str, what: str) -> RecordError:
        return RecordError(f"{self.where}: {key!r} {what}")

    def get(self, key: str, optional: bool = False) -> Any:
        if key not in self.document:
            if optional:
                return None
            raise RecordError(f"{self.where}: no {key!r} field")
        return self.document[key]

    def integer(self, key: str, low: int | None = None, high: int | None = None) -> int:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(key, f"must be a whole number, not {_shown(value)}")
        if (low is not None and value < low) or (high is not None and value > high):
            bounds = f"{low} to {high}" if high is not None else f"at least {low}"
            raise self.fail(key, f"must be {bounds}, not {value}")
        return value

    def number(self, key: str) -> float:
        value = self.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(key, f"must be a number, not {_shown(value)}")
        return float(value)

    def boolean(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise self.fail(key, f"must be true or false, not {_shown(value)}")
        return value

    def text(self, key: str, optional: bool = False, empty: bool = True) -> str | None:
        value = self.get(key, optional)
        if value is None and optional:
            return None
        if not isinstance(value, str) or (not empty and not value.strip()):
            raise self.fail(key, f"must be {'a' if empty else 'a non-empty'} string, not {_shown(value)}")
        return value

    def moment(self, key: str, optional: bool = False) -> str | None:
        value = self.text(key, optional)
        if value is None:
            return None
        try:
            # Python 3.10's fromisoformat does not take the `Z` of UTC.
            datetime.fromisoformat(value[:-1] + "+00:00" if value.endswith(("Z", "z")) else value)
        except ValueError:
            example = "2025-06-01T12:00:00Z"
            raise self.fail(key, f"must be a time as ISO 8601 ({example}), not {quote(value)}") from None
        return value

    def strings(self, key: str) -> tuple[str, ...]:
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(key, f"must be a list of strings, not {_shown(value)}")
        return tuple(value)

    def tiles(self, key: str) -> tuple[Tile, ...]:
        return self._tiles(key, self.strings(key))

    def _tiles(self, key: str, tokens: Sequence[str]) -> tuple[Tile, ...]:
        try:
            return tuple(Tile.parse(token) for token in tokens)
        except NotationError as error:
            raise self.fail(key, f"holds {error}") from None

    def table(self, key: str) -> Table:
        value = self.get(key)
        if not isinstance(value, list) or not all(
            isinstance(s, list) and s and all(isinstance(t, str) for t in s) for s in value
        ):
            raise self.fail(key, f"must be a list of sets, each a list of tiles, not {_shown(value)}")
        return tuple(self._tiles(key, s) for s in value)


def _shown(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _header(document: Mapping[str, Any], where: str) -> RecordHeader:
    if document.get("format") != FORMAT:
        if "turn" in document and "table" in document:
            raise RecordError(
                f"{where} is a call, not the header: a game record starts with a header line (is this "
                "`rummi watch --json` output? `rummi watch VIDEO --record FILE` writes a record)"
            )
        found = f"format {_shown(document['format'])}" if "format" in document else "no 'format' field"
        raise RecordError(
            f"{where}: not a game record ({found}): the first line must be the header "
            f'{{"format": "{FORMAT}", "version": {VERSION}, ...}}'
        )
    version = document.get("version")
    if version != VERSION:
        newer = isinstance(version, int) and not isinstance(version, bool) and version > VERSION
        raise RecordError(
            f"{where}: version {_shown(version)} of {FORMAT} is not known: this program reads version "
            f"{VERSION}" + (" (is the record from a newer program?)" if newer else "")
        )
    fields = _Fields(document, where)
    rules_text = fields.text("rules", empty=False)
    assert rules_text is not None
    try:
        rules = find_preset(rules_text)
    except InputError as error:
        raise fields.fail("rules", f"is not a rules preset: {error}") from None
    players = fields.integer("players", 1, rules.max_players)
    first_seat = fields.integer("first_seat", 1, players)
    seats = fields.strings("seats")
    if len(seats) != players:
        raise fields.fail("seats", f"must name each of the {players} seats, not {len(seats)}")
    return RecordHeader(
        game=str(fields.text("game")),
        rules=rules.label,
        players=players,
        first_seat=first_seat,
        seats=seats,
        created=str(fields.moment("created")),
        source=fields.text("source", optional=True) or "",
    )


def _call(
    document: Mapping[str, Any], where: str, header: RecordHeader, before: Sequence[RecordedCall]
) -> RecordedCall:
    fields = _Fields(document, where)
    turn = fields.integer("turn", 1)
    if turn != len(before) + 1:
        raise fields.fail(
            "turn", f"is {turn} where turn {len(before) + 1} comes: the calls are every turn in order, from 1"
        )
    action = fields.text("action")
    if action not in ACTIONS:
        raise fields.fail("action", f"must be one of {', '.join(map(repr, ACTIONS))}, not {_shown(action)}")
    call = Call(
        turn=turn,
        seat=fields.integer("seat", 1, header.players),
        action=action,
        added=fields.tiles("added"),
        removed=fields.tiles("removed"),
        legal=fields.boolean("legal"),
        reasons=fields.strings("reasons"),
        table=fields.table("table"),
        time_s=fields.number("time_s"),
        frame=fields.integer("frame", 0),
        unsure=fields.strings("unsure"),
        penalty_tiles=fields.integer("penalty_tiles", 0),
        overridden=fields.boolean("overridden"),
    )
    table_before = fields.table("table_before")
    if before and table_before != before[-1].call.table:
        raise fields.fail(
            "table_before",
            f"is not the table after turn {turn - 1} (line {turn}): {table_text(table_before)}",
        )
    recorded_at = fields.moment("recorded_at", optional=True)
    return RecordedCall(call, table_before, recorded_at, fields.text("snapshot", optional=True))
