"""Referee games (issue 29): a game the camera follows, kept with the game so a restarted app resumes it.

A referee game holds its settings (seats, first seat, settle time, sound) and the referee's whole state
(`assistant.referee.Referee.to_json`, with each seat's side of the camera under `SEAT_SIDES`); each judged
turn is a row with its call (`Call.to_json`) and a small JPEG of the settled table it was made on (none for a
draw, which the camera cannot see). "New referee game" starts another referee game for the same game; the
earlier ones and their turns are kept.

Each change is one transaction that checks it continues what is stored: a call for a turn another tab
recorded first, or for a referee game replaced since, is refused and nothing stored is changed.

The game record (issue 36, `assistant.game_record`) of a referee game is made from what is stored, with no
table of its own: each call with its seat, verdict and table is a turn's row, the time it was judged is the
row's `recorded_at`, the snapshot is the row's JPEG (referenced as `referee/ID/turn/N`), and the table before
each call is the table after the call before it, or for the first the start the referee's state kept
(`states`). `game_record` gives it, with the game's name, rules and seat names in its header.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import bindparam, text
from sqlalchemy.engine import Connection

from assistant.errors import InputError
from assistant.game_record import GameRecord, RecordError, RecordHeader, iso_time, record_from_referee
from assistant.referee import Call
from assistant.rules import find_preset
from assistant.storage.database import Database, StorageError

SEAT_SIDES = "seat_sides"
"""The key of the referee's stored state that holds each seat's side of the camera (issue 36,
`vision.watch.SeatSides.to_json`): given by a person or learned in the first round, so a resumed game knows
them. A state stored before has none: the sides are learned again."""

MAX_SETTLE_S = 30.0
"""The longest settle time taken: beyond it a turn would hardly ever end."""


@dataclass(frozen=True)
class RefereeTurn:
    """One judged turn as stored: the call, when it was stored, and whether it has a snapshot."""

    number: int
    call: Call
    recorded_at: float
    has_snapshot: bool


@dataclass(frozen=True)
class RefereeGame:
    """A referee game: its settings, the referee's saved state and its turns in order."""

    id: int
    game_id: int
    players: int
    first_seat: int
    settle_s: float
    sound: bool
    state: dict[str, Any]
    turns: tuple[RefereeTurn, ...]
    created_at: float
    updated_at: float


def check_settle_s(settle_s: float) -> float:
    """The settle time as a float.

    Raises:
        StorageError: not a number of seconds above 0 and at most `MAX_SETTLE_S`.
    """
    try:
        value = float(settle_s)
    except (TypeError, ValueError) as error:
        raise StorageError(f"the settle time must be a number of seconds, not {settle_s!r}") from error
    if not (math.isfinite(value) and 0 < value <= MAX_SETTLE_S):
        raise StorageError(
            f"the settle time must be more than 0 and at most {MAX_SETTLE_S:g} seconds, not {value:g}"
        )
    return value


def _state_text(state: Mapping[str, Any], turns: int) -> str:
    """The state as stored, once it holds exactly `turns` calls (a state and its calls never disagree)."""
    history = state.get("history")
    if not isinstance(history, list) or len(history) != turns:
        raise StorageError(
            f"the referee's state holds {len(history) if isinstance(history, list) else 'no'} calls, "
            f"not the {turns} stored: nothing was changed"
        )
    return json.dumps(state, separators=(",", ":"))


Guard = Callable[[int, str], None]
"""Called with a game's id and what a write would do, before the write; raises (a `StorageError`, e.g.
`assistant.access.AccessDenied`) to refuse it."""


class RefereeStore:
    """The referee games of one database (`Storage.db`).

    Args:
        db: the database.
        guard: asked before each write (the app's session role); None lets every write through.
    """

    def __init__(self, db: Database, guard: Guard | None = None) -> None:
        self.db = db
        self.guard = guard

    def _check(self, game_id: int, action: str) -> None:
        if self.guard is not None:
            self.guard(game_id, action)

    def start(self, game_id: int, state: Mapping[str, Any], settle_s: float = 1.5, sound: bool = True) -> int:
        """A new referee game for `game_id` from a referee's fresh state (`Referee.to_json`); it becomes the
        game's current one. Returns its id.

        Raises:
            StorageError: no such game, a state that has calls or no seats, a bad settle time, or the write
                failed.
        """
        settle = check_settle_s(settle_s)
        try:
            players, first_seat = int(state["players"]), int(state["first_seat"])
        except (KeyError, TypeError, ValueError) as error:
            raise StorageError(f"not a referee's state: {error}") from error
        state_text = _state_text(state, 0)
        self._check(game_id, "start a referee game")

        def write(conn: Connection) -> int:
            if conn.execute(text("SELECT 1 FROM games WHERE id = :id"), {"id": game_id}).first() is None:
                raise StorageError(f"no game with id {game_id}")
            now = time.time()
            return int(
                conn.execute(
                    text(
                        "INSERT INTO referee_games (game_id, players, first_seat, settle_s, sound, state, "
                        "created_at, updated_at) VALUES (:game, :players, :first, :settle, :sound, :state, "
                        ":now, :now) RETURNING id"
                    ),
                    {
                        "game": game_id,
                        "players": players,
                        "first": first_seat,
                        "settle": settle,
                        "sound": int(sound),
                        "state": state_text,
                        "now": now,
                    },
                ).scalar_one()
            )

        return self.db.run(write)

    def current(self, game_id: int) -> RefereeGame | None:
        """The game's newest referee game with its turns (snapshots aside), or None before the first.

        Raises:
            StorageError: the stored rows cannot be read (the message names the referee game).
        """

        def read(conn: Connection) -> tuple[Any, list[Any]]:
            row = (
                conn.execute(
                    text("SELECT * FROM referee_games WHERE game_id = :game ORDER BY id DESC LIMIT 1"),
                    {"game": game_id},
                )
                .mappings()
                .first()
            )
            if row is None:
                return None, []
            turns = conn.execute(
                text(
                    "SELECT number, call, recorded_at, snapshot IS NOT NULL AS has_snapshot "
                    "FROM referee_turns WHERE referee_id = :id ORDER BY number"
                ),
                {"id": row["id"]},
            ).all()
            return row, list(turns)

        row, turn_rows = self.db.run(read, write=False)
        if row is None:
            return None
        try:
            state = json.loads(row["state"])
            turns = tuple(
                RefereeTurn(
                    int(t.number),
                    Call.from_json(json.loads(t.call)),
                    float(t.recorded_at),
                    bool(t.has_snapshot),
                )
                for t in turn_rows
            )
        except (InputError, KeyError, TypeError, ValueError) as error:
            raise StorageError(
                f"referee game {row['id']} of game {game_id} cannot be read: {error}"
            ) from error
        return RefereeGame(
            id=int(row["id"]),
            game_id=int(row["game_id"]),
            players=int(row["players"]),
            first_seat=int(row["first_seat"]),
            settle_s=float(row["settle_s"]),
            sound=bool(row["sound"]),
            state=state,
            turns=turns,
            created_at=float(row["created_at"]),
            updated_at=float(row["updated_at"]),
        )

    def record(
        self, referee_id: int, call: Call, state: Mapping[str, Any], snapshot: bytes | None = None
    ) -> None:
        """Store a new call with the referee's state after it and the settled table's JPEG, all or nothing.

        Raises:
            StorageError: the call is not the next turn (another tab recorded it first), the referee game
                was replaced by a newer one or is gone, the state does not end with this call, or the
                write failed.
        """
        state_text = _state_text(state, call.turn)
        call_text = json.dumps(call.to_json(), separators=(",", ":"))

        def write(conn: Connection) -> None:
            self._check(_check_current(conn, referee_id), "record a referee's call")
            last = _last_number(conn, referee_id)
            if call.turn != last + 1:
                raise StorageError(
                    f"turn {call.turn} is not the next turn to record (that is {last + 1}): was it recorded "
                    "in another tab? Nothing was changed"
                )
            conn.execute(
                text(
                    "INSERT INTO referee_turns (referee_id, number, call, snapshot, recorded_at) "
                    "VALUES (:id, :number, :call, :snapshot, :now)"
                ),
                {
                    "id": referee_id,
                    "number": call.turn,
                    "call": call_text,
                    "snapshot": None if snapshot is None else bytes(snapshot),
                    "now": time.time(),
                },
            )
            _store_state(conn, referee_id, state_text)

        self.db.run(write)

    def correct(self, referee_id: int, call: Call, state: Mapping[str, Any]) -> None:
        """Replace the last call by its correction (`Referee.override`) and store the state after it.

        Raises:
            StorageError: `call` is not the last stored turn (another tab went on), the referee game was
                replaced or is gone, or the write failed.
        """
        state_text = _state_text(state, call.turn)
        call_text = json.dumps(call.to_json(), separators=(",", ":"))

        def write(conn: Connection) -> None:
            self._check(_check_current(conn, referee_id), "override a referee's call")
            last = _last_number(conn, referee_id)
            if call.turn != last:
                raise StorageError(
                    f"turn {call.turn} is not the last turn recorded (that is {last}): nothing was corrected"
                )
            conn.execute(
                text("UPDATE referee_turns SET call = :call WHERE referee_id = :id AND number = :number"),
                {"call": call_text, "id": referee_id, "number": call.turn},
            )
            _store_state(conn, referee_id, state_text)

        self.db.run(write)

    def set_settings(self, referee_id: int, settle_s: float | None = None, sound: bool | None = None) -> None:
        """Change the settle time and/or the sound of a referee game.

        Raises:
            StorageError: a bad settle time, no such referee game, or the write failed.
        """
        changes: dict[str, object] = {}
        if settle_s is not None:
            changes["settle_s"] = check_settle_s(settle_s)
        if sound is not None:
            changes["sound"] = int(sound)
        if not changes:
            return
        assignments = ", ".join(f"{column} = :{column}" for column in changes)

        def write(conn: Connection) -> None:
            row = conn.execute(
                text("SELECT game_id FROM referee_games WHERE id = :id"), {"id": referee_id}
            ).first()
            if row is None:
                raise StorageError(f"no referee game with id {referee_id}")
            self._check(int(row.game_id), "change the referee's settings")
            updated = conn.execute(
                text(f"UPDATE referee_games SET {assignments}, updated_at = :now WHERE id = :id"),
                {**changes, "now": time.time(), "id": referee_id},
            ).rowcount
            if updated != 1:
                raise StorageError(f"no referee game with id {referee_id}")

        self.db.run(write)

    def set_seat_sides(self, referee_id: int, sides: Mapping[str, Any]) -> None:
        """Keep each seat's side of the camera (`vision.watch.SeatSides.to_json`) in the referee's stored
        state (under `SEAT_SIDES`), its calls untouched.

        Raises:
            StorageError: sides that are not plain JSON, no such referee game, or the write failed.
        """
        try:
            sides_value = json.loads(json.dumps(dict(sides)))
        except (TypeError, ValueError) as error:
            raise StorageError(f"the seats' sides cannot be stored: {error}") from error

        def write(conn: Connection) -> None:
            row = conn.execute(
                text("SELECT game_id, state FROM referee_games WHERE id = :id"), {"id": referee_id}
            ).first()
            if row is None:
                raise StorageError(f"no referee game with id {referee_id}")
            self._check(int(row.game_id), "change the referee's settings")
            try:
                state = json.loads(row.state)
                state[SEAT_SIDES] = sides_value
            except (TypeError, ValueError) as error:
                raise StorageError(f"referee game {referee_id} cannot be read: {error}") from error
            _store_state(conn, referee_id, json.dumps(state, separators=(",", ":")))

        self.db.run(write)

    def snapshots(self, referee_id: int, numbers: Iterable[int]) -> dict[int, bytes]:
        """The JPEG snapshots of those turns that have one, by turn number."""
        wanted = sorted({int(n) for n in numbers})
        if not wanted:
            return {}
        rows = self.db.run(
            lambda conn: conn.execute(
                text(
                    "SELECT number, snapshot FROM referee_turns WHERE referee_id = :id "
                    "AND number IN :numbers AND snapshot IS NOT NULL"
                ).bindparams(bindparam("numbers", expanding=True)),
                {"id": referee_id, "numbers": wanted},
            ).all(),
            write=False,
        )
        return {int(row.number): bytes(row.snapshot) for row in rows}


    def game_record(self, game_id: int) -> GameRecord | None:
        """The game record of the game's current referee game (`assistant.game_record`); None before the
        first. Every call in turn order with the table before it, when it was judged and its snapshot's
        reference (`snapshot_reference`; none for a draw).

        Raises:
            StorageError: no such game, or the stored rows cannot be read.
        """
        stored = self.current(game_id)
        if stored is None:
            return None

        def read(conn: Connection) -> tuple[Any, list[Any]]:
            row = conn.execute(
                text("SELECT name, preset, variants FROM games WHERE id = :id"), {"id": game_id}
            ).first()
            players = conn.execute(
                text("SELECT seat, name FROM players WHERE game_id = :id ORDER BY seat"), {"id": game_id}
            ).all()
            return row, list(players)

        row, players = self.db.run(read, write=False)
        if row is None:
            raise StorageError(f"no game with id {game_id}")
        names = {int(p.seat) + 1: str(p.name) for p in players}
        header = RecordHeader(
            game=str(row.name),
            rules=_rules_label(str(row.preset), row.variants),
            players=stored.players,
            first_seat=stored.first_seat,
            seats=tuple(names.get(seat, f"Seat {seat}") for seat in range(1, stored.players + 1)),
            created=iso_time(stored.created_at),
            source="app",
        )
        try:
            return record_from_referee(
                stored.state,
                header,
                calls=[t.call for t in stored.turns],
                recorded_at=[t.recorded_at for t in stored.turns],
                snapshots=[snapshot_reference(stored.id, t.number) if t.has_snapshot else None
                           for t in stored.turns],
            )  # fmt: skip
        except RecordError as error:
            raise StorageError(f"referee game {stored.id} of game {game_id}: {error}") from error


def snapshot_reference(referee_id: int, number: int) -> str:
    """How a game record names a stored turn's snapshot: `referee/ID/turn/N` (`RefereeStore.snapshots`)."""
    return f"referee/{referee_id}/turn/{number}"


def _rules_label(preset: str, variants: Any) -> str:
    """The game's rules as `--rules` takes them; the standard ones where they cannot be used (as the app
    judges such a game)."""
    try:
        house = json.loads(variants) if isinstance(variants, str) else list(variants or ())
        return find_preset("+".join((preset, *house))).label
    except (InputError, TypeError, ValueError):
        return find_preset("standard").label


def _check_current(conn: Connection, referee_id: int) -> int:
    """The referee game's game id, once it is its game's newest referee game."""
    row = conn.execute(
        text(
            "SELECT r.game_id, (SELECT MAX(id) FROM referee_games n WHERE n.game_id = r.game_id) AS newest "
            "FROM referee_games r WHERE r.id = :id"
        ),
        {"id": referee_id},
    ).first()
    if row is None:
        raise StorageError(f"no referee game with id {referee_id} (the game was deleted?)")
    if int(row.newest) != referee_id:
        raise StorageError(
            "a new referee game was started for this game (in another tab?): nothing was changed"
        )
    return int(row.game_id)


def _last_number(conn: Connection, referee_id: int) -> int:
    return int(
        conn.execute(
            text("SELECT COALESCE(MAX(number), 0) FROM referee_turns WHERE referee_id = :id"),
            {"id": referee_id},
        ).scalar_one()
    )


def _store_state(conn: Connection, referee_id: int, state_text: str) -> None:
    conn.execute(
        text("UPDATE referee_games SET state = :state, updated_at = :now WHERE id = :id"),
        {"state": state_text, "now": time.time(), "id": referee_id},
    )
