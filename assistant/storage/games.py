"""Games, players, rounds, scores and turn history, on SQLite or PostgreSQL (`assistant.storage.database`).

Every change is one transaction, so a crash or a closed browser tab loses nothing already confirmed, and
several tabs on one game read the same state. Layouts and racks are stored in the contract's notation
(`assistant.tiles.format_layout`).
"""

from __future__ import annotations

import csv
import io
import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import Connection

from assistant.names import BadName, clean_name
from assistant.storage.database import Database, StorageError


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
class StoredProfile:
    """A game's table profile as the database keeps it: bytes this package never reads, and the name of
    their format (the reader's side, `vision.profile`, makes and reads them)."""

    format: str
    data: bytes
    updated_at: float


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


class Storage:
    """One database (a file path or an SQLAlchemy URL). Each method runs one transaction."""

    def __init__(self, path: str | os.PathLike[str] | None = None, timeout_s: float = 10.0) -> None:
        self.db = Database(path, timeout_s)
        self.timeout_s = timeout_s

    @property
    def path(self) -> Path | None:
        """The SQLite file, or None for a database server."""
        return self.db.path

    @property
    def url(self) -> str:
        """The URL that opens this database again (password included)."""
        return self.db.url.render_as_string(hide_password=False)

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

        The game's and the players' names are cleaned of terminal escapes and other control characters
        (`assistant.names`).

        Raises:
            StorageError: a blank name (or one of control characters only), repeated player names, or
                the write failed.
        """
        if len(players) < 2:
            raise StorageError("a game needs at least 2 players")
        name = _stored_name(name, "the game")
        names = [_stored_name(player, "every player") for player in players]
        if len(set(names)) != len(names):
            raise StorageError(f"player names must differ: {names}")

        def write(conn: Connection) -> int:
            game_id = conn.execute(
                text(
                    "INSERT INTO games (name, preset, variants, camera, created_at) "
                    "VALUES (:name, :preset, :variants, :camera, :created_at) RETURNING id"
                ),
                {
                    "name": name,
                    "preset": preset,
                    "variants": json.dumps(list(variants)),
                    "camera": camera,
                    "created_at": time.time(),
                },
            ).scalar_one()
            conn.execute(
                text("INSERT INTO players (game_id, seat, name) VALUES (:game_id, :seat, :name)"),
                [{"game_id": game_id, "seat": seat, "name": player} for seat, player in enumerate(names)],
            )
            return int(game_id)

        return self.db.run(write)

    def list_games(self) -> list[tuple[int, str]]:
        """(id, name) of every game, newest first."""
        rows = self.db.run(
            lambda conn: conn.execute(text("SELECT id, name FROM games ORDER BY id DESC")).all(), write=False
        )
        return [(int(row.id), str(row.name)) for row in rows]

    def load_game(self, game_id: int) -> Game:
        """Raises: StorageError if there is no such game."""

        def read(conn: Connection) -> Game:
            row = conn.execute(text("SELECT * FROM games WHERE id = :id"), {"id": game_id}).mappings().first()
            if row is None:
                raise StorageError(f"no game with id {game_id} in {self.db.display!r}")
            player_rows = conn.execute(
                text("SELECT seat, name, opened FROM players WHERE game_id = :id ORDER BY seat"),
                {"id": game_id},
            ).all()
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
                players=tuple(Player(int(p.seat), str(p.name), bool(p.opened)) for p in player_rows),
                pending=pending,
            )

        return self.db.run(read, write=False)

    def set_table_layout(self, game_id: int, layout: str, photo: str | None = None) -> None:
        """The layout now seen on the table (read or corrected), shared by every tab on the game.

        `photo` names the photo the layout was read from; a correction leaves it as it was.
        """
        if photo is None:
            self._update_game(
                game_id, "UPDATE games SET table_layout = :layout WHERE id = :id", layout=layout
            )
        else:
            self._update_game(
                game_id,
                "UPDATE games SET table_layout = :layout, table_photo = :photo WHERE id = :id",
                layout=layout,
                photo=photo,
            )

    def rename_player(self, game_id: int, seat: int, name: str) -> None:
        """Give the player in `seat` a new name; their rounds and turns follow (they are kept by seat).

        Raises:
            StorageError: a blank name, one another player has (case aside: `Ann` and `ann` are one
                player to the table), an unknown seat, or the write failed.
        """
        name = _stored_name(name, "every player")

        def write(conn: Connection) -> None:
            self._check_seat(conn, game_id, seat)
            taken = conn.execute(
                text(
                    "SELECT name FROM players WHERE game_id = :id AND seat != :seat "
                    "AND lower(name) = lower(:name)"
                ),
                {"id": game_id, "seat": seat, "name": name},
            ).first()
            if taken is not None:
                raise StorageError(f"{taken.name!r} already plays in this game: names must differ")
            conn.execute(
                text("UPDATE players SET name = :name WHERE game_id = :id AND seat = :seat"),
                {"id": game_id, "seat": seat, "name": name},
            )

        self.db.run(write)

    def set_agreed_layout(self, game_id: int, layout: str) -> None:
        """Accept a layout as the last agreed table (e.g. at the start of a round)."""
        self._update_game(game_id, "UPDATE games SET agreed_layout = :layout WHERE id = :id", layout=layout)

    def set_turn_seat(self, game_id: int, seat: int) -> None:
        self._update_game(game_id, "UPDATE games SET turn_seat = :seat WHERE id = :id", seat=seat)

    def _update_game(self, game_id: int, sql: str, **params: object) -> None:
        def write(conn: Connection) -> None:
            if conn.execute(text(sql), {**params, "id": game_id}).rowcount != 1:
                raise StorageError(f"no game with id {game_id}")

        self.db.run(write)

    # Table profile -----------------------------------------------------------------------------------------

    def set_game_profile(self, game_id: int, data: bytes, format: str, replace: bool = True) -> bool:
        """Keep `data` as the game's table profile. With `replace=False` a profile already stored stays
        (an import that another tab made first); returns whether `data` was stored.

        Raises:
            StorageError: no such game, empty data or format, or the write failed.
        """
        if not data or not format:
            raise StorageError("a table profile needs its bytes and the name of their format")
        conflict = (
            "DO UPDATE SET format = excluded.format, data = excluded.data, updated_at = excluded.updated_at"
            if replace
            else "DO NOTHING"
        )

        def write(conn: Connection) -> bool:
            if conn.execute(text("SELECT 1 FROM games WHERE id = :id"), {"id": game_id}).first() is None:
                raise StorageError(f"no game with id {game_id}")
            stored = conn.execute(
                text(
                    "INSERT INTO game_profiles (game_id, format, data, updated_at) "
                    f"VALUES (:id, :format, :data, :updated_at) ON CONFLICT (game_id) {conflict}"
                ),
                {"id": game_id, "format": format, "data": bytes(data), "updated_at": time.time()},
            ).rowcount
            return stored == 1

        return self.db.run(write)

    def game_profile(self, game_id: int) -> StoredProfile | None:
        """The game's table profile, or None where it has none (or there is no such game)."""
        row = self.db.run(
            lambda conn: conn.execute(
                text("SELECT format, data, updated_at FROM game_profiles WHERE game_id = :id"),
                {"id": game_id},
            ).first(),
            write=False,
        )
        if row is None:
            return None
        return StoredProfile(format=str(row.format), data=bytes(row.data), updated_at=float(row.updated_at))

    def forget_game_profile(self, game_id: int) -> bool:
        """Remove the game's table profile; returns whether it had one. Its scores are not touched."""
        return self.db.run(
            lambda conn: conn.execute(
                text("DELETE FROM game_profiles WHERE game_id = :id"), {"id": game_id}
            ).rowcount
            == 1
        )

    # Turns -------------------------------------------------------------------------------------------------

    def start_turn(
        self, game_id: int, seat: int, before: str, rack: str, started_at: float | None = None
    ) -> None:
        """Store the layout before the turn. Starting again replaces an unfinished turn."""

        def write(conn: Connection) -> None:
            self._check_seat(conn, game_id, seat)
            conn.execute(
                text(
                    "UPDATE games SET pending_seat = :seat, pending_before = :before, pending_rack = :rack, "
                    "pending_started_at = :started_at, turn_seat = :seat WHERE id = :id"
                ),
                {
                    "seat": seat,
                    "before": before,
                    "rack": rack,
                    "started_at": time.time() if started_at is None else started_at,
                    "id": game_id,
                },
            )

        self.db.run(write)

    def cancel_turn(self, game_id: int) -> None:
        self._update_game(
            game_id,
            "UPDATE games SET pending_seat = NULL, pending_before = NULL, pending_rack = NULL, "
            "pending_started_at = NULL WHERE id = :id",
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

        def write(conn: Connection) -> int:
            row = (
                conn.execute(
                    text(
                        "SELECT pending_seat, pending_before, pending_rack, pending_started_at "
                        "FROM games WHERE id = :id"
                    ),
                    {"id": game_id},
                )
                .mappings()
                .first()
            )
            if row is None:
                raise StorageError(f"no game with id {game_id}")
            if row["pending_before"] is None or row["pending_started_at"] != started_at:
                raise StorageError("this turn was already ended (in another tab?); start a new turn")
            seat = int(row["pending_seat"])
            number = int(
                conn.execute(
                    text("SELECT COALESCE(MAX(number), 0) + 1 FROM turns WHERE game_id = :id"),
                    {"id": game_id},
                ).scalar_one()
            )
            conn.execute(
                text(
                    "INSERT INTO turns (game_id, number, seat, before, after, rack, legal, action, played, "
                    "reasons, penalty_tiles, started_at, ended_at) VALUES (:game_id, :number, :seat, "
                    ":before, :after, :rack, :legal, :action, :played, :reasons, :penalty_tiles, "
                    ":started_at, :ended_at)"
                ),
                {
                    "game_id": game_id,
                    "number": number,
                    "seat": seat,
                    "before": row["pending_before"],
                    "after": after,
                    "rack": row["pending_rack"] or "",
                    "legal": int(legal),
                    "action": action,
                    "played": played,
                    "reasons": json.dumps(list(reasons)),
                    "penalty_tiles": penalty_tiles,
                    "started_at": started_at,
                    "ended_at": time.time() if ended_at is None else ended_at,
                },
            )
            if opened:
                conn.execute(
                    text("UPDATE players SET opened = 1 WHERE game_id = :id AND seat = :seat"),
                    {"id": game_id, "seat": seat},
                )
            conn.execute(
                text(
                    "UPDATE games SET pending_seat = NULL, pending_before = NULL, pending_rack = NULL, "
                    "pending_started_at = NULL, agreed_layout = :agreed, turn_seat = :next_seat "
                    "WHERE id = :id"
                ),
                {"agreed": agreed_layout, "next_seat": next_seat, "id": game_id},
            )
            if table_layout is not None:
                conn.execute(
                    text("UPDATE games SET table_layout = :layout WHERE id = :id"),
                    {"layout": table_layout, "id": game_id},
                )
            return number

        return self.db.run(write)

    def turns(self, game_id: int) -> list[TurnRecord]:
        rows = self.db.run(
            lambda conn: (
                conn.execute(text("SELECT * FROM turns WHERE game_id = :id ORDER BY number"), {"id": game_id})
                .mappings()
                .all()
            ),
            write=False,
        )
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
        round is refused instead of recording it twice (the database's unique (game, number) holds it even
        when two tabs confirm at the same instant).

        Raises:
            StorageError: the round is already recorded, a seat is unknown, or the write failed.
        """

        def write(conn: Connection) -> None:
            expected = int(
                conn.execute(
                    text("SELECT COALESCE(MAX(number), 0) + 1 FROM rounds WHERE game_id = :id"),
                    {"id": game_id},
                ).scalar_one()
            )
            if number != expected:
                raise StorageError(
                    f"round {number} is already recorded (in another tab?); the next is {expected}"
                )
            round_id = conn.execute(
                text(
                    "INSERT INTO rounds (game_id, number, blocked, created_at) "
                    "VALUES (:id, :number, :blocked, :created_at) RETURNING id"
                ),
                {"id": game_id, "number": number, "blocked": int(blocked), "created_at": time.time()},
            ).scalar_one()
            conn.execute(
                text(
                    "INSERT INTO scores (round_id, game_id, seat, rack, rack_value, score, winner) "
                    "VALUES (:round_id, :game_id, :seat, :rack, :rack_value, :score, :winner)"
                ),
                [
                    {
                        "round_id": round_id,
                        "game_id": game_id,
                        "seat": seat,
                        "rack": racks.get(seat, ""),
                        "rack_value": rack_values[seat],
                        "score": score,
                        "winner": int(seat in winners),
                    }
                    for seat, score in scores.items()
                ],
            )
            # The next round starts from an empty table and nobody has opened yet.
            conn.execute(
                text(
                    "UPDATE games SET table_layout = '', table_photo = '', agreed_layout = '', "
                    "pending_seat = NULL, pending_before = NULL, pending_rack = NULL, "
                    "pending_started_at = NULL WHERE id = :id"
                ),
                {"id": game_id},
            )
            conn.execute(text("UPDATE players SET opened = 0 WHERE game_id = :id"), {"id": game_id})

        self.db.run(write)

    def undo_round(self, game_id: int, number: int) -> RoundRecord:
        """Remove round `number`, which must be the last one recorded, and return it as it was stored
        (the caller offers its racks again). Only an explicit, confirmed undo calls this.

        Raises:
            StorageError: `number` is not the last round (another tab recorded or undid one since).
        """
        stored = self.rounds(game_id)
        if not stored or stored[-1].number != number:
            raise StorageError(
                f"round {number} is not the last round any more (changed in another tab?): nothing undone"
            )

        def write(conn: Connection) -> None:
            row = conn.execute(
                text(
                    "SELECT id FROM rounds WHERE game_id = :id AND number = :number "
                    "AND number = (SELECT MAX(number) FROM rounds WHERE game_id = :id)"
                ),
                {"id": game_id, "number": number},
            ).first()
            if row is None:
                raise StorageError(f"round {number} was changed in another tab: nothing undone")
            conn.execute(text("DELETE FROM scores WHERE round_id = :rid"), {"rid": row.id})
            conn.execute(text("DELETE FROM rounds WHERE id = :rid"), {"rid": row.id})

        self.db.run(write)
        return stored[-1]

    def rounds(self, game_id: int) -> list[RoundRecord]:
        def read(conn: Connection) -> tuple[list, list]:  # type: ignore[type-arg]
            round_rows = conn.execute(
                text(
                    "SELECT id, number, blocked, created_at FROM rounds WHERE game_id = :id ORDER BY number"
                ),
                {"id": game_id},
            ).all()
            score_rows = conn.execute(
                text(
                    "SELECT s.round_id, s.seat, p.name, s.rack, s.rack_value, s.score, s.winner "
                    "FROM scores s "
                    "JOIN players p ON p.game_id = s.game_id AND p.seat = s.seat "
                    "WHERE s.game_id = :id ORDER BY s.seat"
                ),
                {"id": game_id},
            ).all()
            return list(round_rows), list(score_rows)

        round_rows, score_rows = self.db.run(read, write=False)
        by_round: dict[int, list[RoundScore]] = {}
        for row in score_rows:
            by_round.setdefault(int(row.round_id), []).append(
                RoundScore(
                    seat=int(row.seat),
                    name=str(row.name),
                    rack=str(row.rack),
                    rack_value=int(row.rack_value),
                    score=int(row.score),
                    winner=bool(row.winner),
                )
            )
        return [
            RoundRecord(
                number=int(row.number),
                blocked=bool(row.blocked),
                created_at=float(row.created_at),
                scores=tuple(by_round.get(int(row.id), [])),
            )
            for row in round_rows
        ]

    def export_csv(self, game_id: int) -> str:
        return rounds_to_csv(self.rounds(game_id))

    @staticmethod
    def _check_seat(conn: Connection, game_id: int, seat: int) -> None:
        found = conn.execute(
            text("SELECT 1 FROM players WHERE game_id = :id AND seat = :seat"), {"id": game_id, "seat": seat}
        ).first()
        if found is None:
            raise StorageError(f"game {game_id} has no seat {seat}")


def _stored_name(name: str, who: str) -> str:
    """A name as stored: cleaned of terminal escapes and other control characters (`assistant.names`).

    Raises:
        StorageError: nothing is left of it.
    """
    try:
        return clean_name(name, who)
    except BadName as error:
        raise StorageError(str(error)) from error


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
