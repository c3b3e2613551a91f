"""SQLite storage for games, players, rounds, scores and turn history.

Every change is one transaction (`with conn:`) on a fresh connection that is closed afterwards, so a crash
or a closed browser tab loses nothing already confirmed, and several tabs on one game read the same state.
Layouts and racks are stored in the contract's notation (`assistant.tiles.format_layout`).
"""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

DB_ENV_VAR = "RUMMI_DB"
APP_DIR_NAME = "rummi-assistant"
DB_FILE_NAME = "rummi.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL CHECK (length(name) > 0),
    preset TEXT NOT NULL,
    variants TEXT NOT NULL DEFAULT '[]',
    camera TEXT NOT NULL DEFAULT 'example',
    created_at REAL NOT NULL,
    table_layout TEXT NOT NULL DEFAULT '',
    table_photo TEXT NOT NULL DEFAULT '',
    agreed_layout TEXT NOT NULL DEFAULT '',
    turn_seat INTEGER NOT NULL DEFAULT 0,
    pending_seat INTEGER,
    pending_before TEXT,
    pending_rack TEXT,
    pending_started_at REAL
);
CREATE TABLE IF NOT EXISTS players (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    name TEXT NOT NULL CHECK (length(name) > 0),
    opened INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, name)
);
CREATE TABLE IF NOT EXISTS rounds (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL CHECK (number >= 1),
    blocked INTEGER NOT NULL,
    created_at REAL NOT NULL,
    UNIQUE (game_id, number)
);
CREATE TABLE IF NOT EXISTS scores (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    game_id INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    rack TEXT NOT NULL,
    rack_value INTEGER NOT NULL CHECK (rack_value >= 0),
    score INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    PRIMARY KEY (round_id, seat),
    FOREIGN KEY (game_id, seat) REFERENCES players(game_id, seat)
);
CREATE TABLE IF NOT EXISTS turns (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    before TEXT NOT NULL,
    after TEXT NOT NULL,
    rack TEXT NOT NULL,
    legal INTEGER NOT NULL,
    action TEXT NOT NULL,
    played TEXT NOT NULL,
    reasons TEXT NOT NULL,
    penalty_tiles INTEGER NOT NULL DEFAULT 0,
    started_at REAL NOT NULL,
    ended_at REAL NOT NULL,
    UNIQUE (game_id, number),
    FOREIGN KEY (game_id, seat) REFERENCES players(game_id, seat)
);
"""


class StorageError(Exception):
    """The database could not be read or written, or a change conflicts with what another tab confirmed."""


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    opened: bool


@dataclass(frozen=True)
class PendingTurn:
    """A turn that was started ("start turn") and not yet judged."""

    seat: int
    before: str
    rack: str
    started_at: float


@dataclass(frozen=True)
class Game:
    id: int
    name: str
    preset: str
    variants: tuple[str, ...]
    camera: str
    created_at: float
    table_layout: str
    table_photo: str
    agreed_layout: str
    turn_seat: int
    players: tuple[Player, ...]
    pending: PendingTurn | None

    def player(self, seat: int) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise StorageError(f"game {self.name!r} has no seat {seat}")


@dataclass(frozen=True)
class RoundScore:
    seat: int
    name: str
    rack: str
    rack_value: int
    score: int
    winner: bool


@dataclass(frozen=True)
class RoundRecord:
    number: int
    blocked: bool
    created_at: float
    scores: tuple[RoundScore, ...]


@dataclass(frozen=True)
class TurnRecord:
    number: int
    seat: int
    before: str
    after: str
    rack: str
    legal: bool
    action: str
    played: str
    reasons: tuple[str, ...]
    penalty_tiles: int
    started_at: float
    ended_at: float


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """`$RUMMI_DB` if set, else a file in the user's data folder (XDG, macOS or Windows convention)."""
    env = os.environ if environ is None else environ
    if env.get(DB_ENV_VAR):
        return Path(env[DB_ENV_VAR]).expanduser()
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "win32":
        base = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(env.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / APP_DIR_NAME / DB_FILE_NAME


class Storage:
    """One SQLite file. Each method opens a connection, runs one transaction and closes it."""

    def __init__(self, path: str | os.PathLike[str], timeout_s: float = 10.0) -> None:
        self.path = Path(path)
        self.timeout_s = timeout_s
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(
                f"cannot create the folder for the database {str(self.path)!r}: {error}"
            ) from error
        with self._connect() as conn, conn:
            conn.executescript(_SCHEMA)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        try:
            with closing(sqlite3.connect(self.path, timeout=self.timeout_s)) as conn:
                conn.row_factory = sqlite3.Row
                conn.execute("PRAGMA foreign_keys = ON")
                yield conn
        except sqlite3.IntegrityError as error:
            raise StorageError(f"change refused by the database: {error}") from error
        except sqlite3.Error as error:
            raise StorageError(f"database {str(self.path)!r} failed: {error}") from error

    # Games -------------------------------------------------------------------------------------------------

    def create_game(
        self,
        name: str,
        preset: str,
        players: list[str],
        variants: tuple[str, ...] | list[str] = (),
        camera: str = "example",
    ) -> int:
        """Store a new game with its players in seat order; returns its id.

        Raises:
            StorageError: blank or repeated player names, or the write failed.
        """
        names = [player.strip() for player in players]
        if len(names) < 2:
            raise StorageError("a game needs at least 2 players")
        if any(not player for player in names):
            raise StorageError("every player needs a name")
        if len(set(names)) != len(names):
            raise StorageError(f"player names must differ: {names}")
        with self._connect() as conn, conn:
            cursor = conn.execute(
                "INSERT INTO games (name, preset, variants, camera, created_at) VALUES (?, ?, ?, ?, ?)",
                (name.strip(), preset, json.dumps(list(variants)), camera, time.time()),
            )
            game_id = int(cursor.lastrowid or 0)
            conn.executemany(
                "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                [(game_id, seat, player) for seat, player in enumerate(names)],
            )
        return game_id

    def list_games(self) -> list[tuple[int, str]]:
        """(id, name) of every game, newest first."""
        with self._connect() as conn:
            rows = conn.execute("SELECT id, name FROM games ORDER BY id DESC").fetchall()
        return [(int(row["id"]), str(row["name"])) for row in rows]

    def load_game(self, game_id: int) -> Game:
        """Raises: StorageError if there is no such game."""
        with self._connect() as conn:
            row = conn.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
            if row is None:
                raise StorageError(f"no game with id {game_id} in {str(self.path)!r}")
            player_rows = conn.execute(
                "SELECT seat, name, opened FROM players WHERE game_id = ? ORDER BY seat", (game_id,)
            ).fetchall()
        pending = None
        if row["pending_before"] is not None:
            pending = PendingTurn(
                seat=int(row["pending_seat"]),
                before=str(row["pending_before"]),
                rack=str(row["pending_rack"] or ""),
                started_at=float(row["pending_started_at"]),
            )
        return Game(
            id=int(row["id"]),
            name=str(row["name"]),
            preset=str(row["preset"]),
            variants=tuple(json.loads(row["variants"])),
            camera=str(row["camera"]),
            created_at=float(row["created_at"]),
            table_layout=str(row["table_layout"]),
            table_photo=str(row["table_photo"]),
            agreed_layout=str(row["agreed_layout"]),
            turn_seat=int(row["turn_seat"]),
            players=tuple(Player(int(p["seat"]), str(p["name"]), bool(p["opened"])) for p in player_rows),
            pending=pending,
        )

    def set_table_layout(self, game_id: int, layout: str, photo: str | None = None) -> None:
        """The layout now seen on the table (read or corrected), shared by every tab on the game.

        `photo` names the photo the layout was read from; a correction leaves it as it was.
        """
        if photo is None:
            self._update_game(game_id, "UPDATE games SET table_layout = ? WHERE id = ?", (layout, game_id))
        else:
            self._update_game(
                game_id,
                "UPDATE games SET table_layout = ?, table_photo = ? WHERE id = ?",
                (layout, photo, game_id),
            )

    def rename_player(self, game_id: int, seat: int, name: str) -> None:
        """Give the player in `seat` a new name; their rounds and turns follow (they are kept by seat).

        Raises:
            StorageError: a blank name, one another player has (case aside: `Ann` and `ann` are one
                player to the table), an unknown seat, or the write failed.
        """
        name = name.strip()
        if not name:
            raise StorageError("every player needs a name")
        with self._connect() as conn, conn:
            self._check_seat(conn, game_id, seat)
            taken = conn.execute(
                "SELECT name FROM players WHERE game_id = ? AND seat != ? AND lower(name) = lower(?)",
                (game_id, seat, name),
            ).fetchone()
            if taken is not None:
                raise StorageError(f"{taken['name']!r} already plays in this game: names must differ")
            conn.execute("UPDATE players SET name = ? WHERE game_id = ? AND seat = ?", (name, game_id, seat))

    def set_agreed_layout(self, game_id: int, layout: str) -> None:
        """Accept a layout as the last agreed table (e.g. at the start of a round)."""
        self._update_game(game_id, "UPDATE games SET agreed_layout = ? WHERE id = ?", (layout, game_id))

    def set_turn_seat(self, game_id: int, seat: int) -> None:
        self._update_game(game_id, "UPDATE games SET turn_seat = ? WHERE id = ?", (seat, game_id))

    def _update_game(self, game_id: int, sql: str, params: tuple[object, ...]) -> None:
        with self._connect() as conn, conn:
            if conn.execute(sql, params).rowcount != 1:
                raise StorageError(f"no game with id {game_id}")

    # Turns -------------------------------------------------------------------------------------------------

    def start_turn(
        self, game_id: int, seat: int, before: str, rack: str, started_at: float | None = None
    ) -> None:
        """Store the layout before the turn. Starting again replaces an unfinished turn."""
        with self._connect() as conn, conn:
            self._check_seat(conn, game_id, seat)
            conn.execute(
                "UPDATE games SET pending_seat = ?, pending_before = ?, pending_rack = ?, "
                "pending_started_at = ?, turn_seat = ? WHERE id = ?",
                (seat, before, rack, time.time() if started_at is None else started_at, seat, game_id),
            )

    def cancel_turn(self, game_id: int) -> None:
        self._update_game(
            game_id,
            "UPDATE games SET pending_seat = NULL, pending_before = NULL, pending_rack = NULL, "
            "pending_started_at = NULL WHERE id = ?",
            (game_id,),
        )

    def finish_turn(
        self,
        game_id: int,
        started_at: float,
        after: str,
        legal: bool,
        action: str,
        played: str,
        reasons: list[str] | tuple[str, ...],
        penalty_tiles: int,
        agreed_layout: str,
        next_seat: int,
        opened: bool,
        ended_at: float | None = None,
        table_layout: str | None = None,
    ) -> int:
        """Record the judged turn, the new agreed layout and whose turn is next, all or nothing.

        `started_at` names the pending turn being closed, so a second tab ending the same turn is refused.
        `table_layout`, when given, replaces the layout seen on the table (an illegal turn is put back).
        Returns the turn's number.

        Raises:
            StorageError: no turn was started, or another tab already ended it.
        """
        with self._connect() as conn, conn:
            row = conn.execute(
                "SELECT pending_seat, pending_before, pending_rack, pending_started_at "
                "FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                raise StorageError(f"no game with id {game_id}")
            if row["pending_before"] is None or row["pending_started_at"] != started_at:
                raise StorageError("this turn was already ended (in another tab?); start a new turn")
            seat = int(row["pending_seat"])
            number = int(
                conn.execute(
                    "SELECT COALESCE(MAX(number), 0) + 1 FROM turns WHERE game_id = ?", (game_id,)
                ).fetchone()[0]
            )
            conn.execute(
                "INSERT INTO turns (game_id, number, seat, before, after, rack, legal, action, played, "
                "reasons, penalty_tiles, started_at, ended_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    game_id,
                    number,
                    seat,
                    row["pending_before"],
                    after,
                    row["pending_rack"] or "",
                    int(legal),
                    action,
                    played,
                    json.dumps(list(reasons)),
                    penalty_tiles,
                    started_at,
                    time.time() if ended_at is None else ended_at,
                ),
            )
            if opened:
                conn.execute("UPDATE players SET opened = 1 WHERE game_id = ? AND seat = ?", (game_id, seat))
            conn.execute(
                "UPDATE games SET pending_seat = NULL, pending_before = NULL, pending_rack = NULL, "
                "pending_started_at = NULL, agreed_layout = ?, turn_seat = ? WHERE id = ?",
                (agreed_layout, next_seat, game_id),
            )
            if table_layout is not None:
                conn.execute("UPDATE games SET table_layout = ? WHERE id = ?", (table_layout, game_id))
        return number

    def turns(self, game_id: int) -> list[TurnRecord]:
        with self._connect() as conn:
            rows = conn.execute(
                "SELECT * FROM turns WHERE game_id = ? ORDER BY number", (game_id,)
            ).fetchall()
        return [
            TurnRecord(
                number=int(row["number"]),
                seat=int(row["seat"]),
                before=str(row["before"]),
                after=str(row["after"]),
                rack=str(row["rack"]),
                legal=bool(row["legal"]),
                action=str(row["action"]),
                played=str(row["played"]),
                reasons=tuple(json.loads(row["reasons"])),
                penalty_tiles=int(row["penalty_tiles"]),
                started_at=float(row["started_at"]),
                ended_at=float(row["ended_at"]),
            )
            for row in rows
        ]

    # Rounds ------------------------------------------------------------------------------------------------

    def record_round(
        self,
        game_id: int,
        number: int,
        blocked: bool,
        racks: Mapping[int, str],
        rack_values: Mapping[int, int],
        scores: Mapping[int, int],
        winners: set[int] | frozenset[int],
    ) -> None:
        """Store round `number` with one score per seat, all or nothing; the next round starts empty.

        `number` is the round the caller scored (the next one it saw), so a second tab confirming the same
        round is refused instead of recording it twice.

        Raises:
            StorageError: the round is already recorded, a seat is unknown, or the write failed.
        """
        with self._connect() as conn, conn:
            expected = int(
                conn.execute(
                    "SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE game_id = ?", (game_id,)
                ).fetchone()[0]
            )
            if number != expected:
                raise StorageError(
                    f"round {number} is already recorded (in another tab?); the next is {expected}"
                )
            cursor = conn.execute(
                "INSERT INTO rounds (game_id, number, blocked, created_at) VALUES (?, ?, ?, ?)",
                (game_id, number, int(blocked), time.time()),
            )
            round_id = cursor.lastrowid
            conn.executemany(
                "INSERT INTO scores (round_id, game_id, seat, rack, rack_value, score, winner) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        round_id,
                        game_id,
                        seat,
                        racks.get(seat, ""),
                        rack_values[seat],
                        score,
                        int(seat in winners),
                    )
                    for seat, score in scores.items()
                ],
            )
            # The next round starts from an empty table and nobody has opened yet.
            conn.execute(
                "UPDATE games SET table_layout = '', table_photo = '', agreed_layout = '', "
                "pending_seat = NULL, pending_before = NULL, pending_rack = NULL, pending_started_at = NULL "
                "WHERE id = ?",
                (game_id,),
            )
            conn.execute("UPDATE players SET opened = 0 WHERE game_id = ?", (game_id,))

    def undo_round(self, game_id: int, number: int) -> RoundRecord:
        """Remove round `number`, which must be the last one recorded, and return it as it was stored
        (the caller offers its racks again). Only an explicit, confirmed undo calls this.

        Raises:
            StorageError: `number` is not the last round (another tab recorded or undid one since).
        """
        last = self.rounds(game_id)[-1:] or [None]
        record = last[0]
        if record is None or record.number != number:
            raise StorageError(
                f"round {number} is not the last round any more (changed in another tab?): nothing undone"
            )
        with self._connect() as conn, conn:
            deleted = conn.execute(
                "DELETE FROM rounds WHERE game_id = ? AND number = ? "
                "AND number = (SELECT MAX(number) FROM rounds WHERE game_id = ?)",
                (game_id, number, game_id),
            ).rowcount
        if deleted != 1:
            raise StorageError(f"round {number} was changed in another tab: nothing undone")
        return record

    def rounds(self, game_id: int) -> list[RoundRecord]:
        with self._connect() as conn:
            round_rows = conn.execute(
                "SELECT id, number, blocked, created_at FROM rounds WHERE game_id = ? ORDER BY number",
                (game_id,),
            ).fetchall()
            score_rows = conn.execute(
                "SELECT s.round_id, s.seat, p.name, s.rack, s.rack_value, s.score, s.winner FROM scores s "
                "JOIN players p ON p.game_id = s.game_id AND p.seat = s.seat "
                "WHERE s.game_id = ? ORDER BY s.seat",
                (game_id,),
            ).fetchall()
        by_round: dict[int, list[RoundScore]] = {}
        for row in score_rows:
            by_round.setdefault(int(row["round_id"]), []).append(
                RoundScore(
                    seat=int(row["seat"]),
                    name=str(row["name"]),
                    rack=str(row["rack"]),
                    rack_value=int(row["rack_value"]),
                    score=int(row["score"]),
                    winner=bool(row["winner"]),
                )
            )
        return [
            RoundRecord(
                number=int(row["number"]),
                blocked=bool(row["blocked"]),
                created_at=float(row["created_at"]),
                scores=tuple(by_round.get(int(row["id"]), [])),
            )
            for row in round_rows
        ]

    def export_csv(self, game_id: int) -> str:
        return rounds_to_csv(self.rounds(game_id))

    @staticmethod
    def _check_seat(conn: sqlite3.Connection, game_id: int, seat: int) -> None:
        if (
            conn.execute("SELECT 1 FROM players WHERE game_id = ? AND seat = ?", (game_id, seat)).fetchone()
            is None
        ):
            raise StorageError(f"game {game_id} has no seat {seat}")


def rounds_to_csv(rounds: list[RoundRecord]) -> str:
    """One line per player per round: round, blocked, player, rack, rack value, score, winner, total."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["round", "blocked", "player", "rack", "rack_value", "score", "winner", "total"])
    totals: dict[str, int] = {}
    for record in rounds:
        for score in record.scores:
            totals[score.name] = totals.get(score.name, 0) + score.score
            writer.writerow(
                [
                    record.number,
                    int(record.blocked),
                    score.name,
                    score.rack,
                    score.rack_value,
                    score.score,
                    int(score.winner),
                    totals[score.name],
                ]
            )
    return buffer.getvalue()
