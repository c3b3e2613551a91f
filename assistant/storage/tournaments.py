"""Tournaments in the database: players, seating per round, games per table, standings.

Many devices record games at once. Each game is one transaction that first takes the tournament's game
counter (`UPDATE ... games_recorded + 1`), which queues writers of one tournament on one row and hands out
game numbers without gaps or repeats; the database's unique constraints are what make a game count once:
its request key (the same submission sent again: it is answered with the game already stored) and its
place (round, table, the table's game number: another device that recorded that game first wins).
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from sqlalchemy import exc, text
from sqlalchemy.engine import Connection

from assistant.storage.database import Database, StorageError
from assistant.tournament import Standing, Tables, check_table_players, rank


class UnknownTournament(StorageError):
    """No tournament of that name in the database."""


class GameConflict(StorageError):
    """Another device already recorded this table's game (same round, table and game number)."""


class KeyReused(GameConflict):
    """A request key already recorded a different game: the one given now is not recorded."""


@dataclass(frozen=True)
class Tournament:
    id: int
    name: str
    preset: str
    table_size: int
    created_at: float
    current_round: int
    players: tuple[str, ...]
    tables: Tables  # the current round's, table 1 first
    seating: str  # how the current round was seated: "raffle" or "standings"
    seed: str | None
    games: int  # recorded so far, all rounds


@dataclass(frozen=True)
class GameScore:
    player: str
    rack: str
    rack_value: int
    penalty: int
    score: int
    winner: bool


@dataclass(frozen=True)
class TournamentGame:
    number: int  # in the tournament, 1, 2, 3... in the order recorded
    round: int
    table: int
    table_game: int  # the table's 1st, 2nd... game of the round
    request_key: str
    blocked: bool
    created_at: float
    scores: tuple[GameScore, ...]
    replayed: bool = False  # True when this answers a submission that was already recorded

    @property
    def points(self) -> dict[str, int]:
        return {s.player: s.score for s in self.scores}

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.scores if s.winner)


@dataclass(frozen=True)
class GameEntry:
    """A scored game as a device submits it (scores from `assistant.scoring.score_round`)."""

    table: int
    blocked: bool
    racks: Mapping[str, str]
    rack_values: Mapping[str, int]
    scores: Mapping[str, int]
    winners: Sequence[str]
    penalties: Mapping[str, int]
    request_key: str | None = None  # the same key sent twice records once
    table_game: int | None = None  # the game number the device saw next at its table; None: the next one
    round: int | None = None  # the round the device plays; None: the current one


class TournamentStore:
    """Tournaments in one database (a file path or an SQLAlchemy URL)."""

    def __init__(self, target: str | os.PathLike[str] | Database | None = None, timeout_s: float = 10.0):
        self.db = target if isinstance(target, Database) else Database(target, timeout_s)

    # Tournaments -----------------------------------------------------------------------------------------

    def create(
        self,
        name: str,
        preset: str,
        players: Sequence[str],
        table_size: int,
        tables: Tables,
        seed: str | None,
    ) -> Tournament:
        """Register the players and seat round 1 as drawn.

        Raises:
            StorageError: a tournament of that name exists, or the write failed.
        """
        name = name.strip()
        if not name:
            raise StorageError("a tournament needs a name")

        def write(conn: Connection) -> None:
            found = conn.execute(text("SELECT 1 FROM tournaments WHERE name = :name"), {"name": name}).first()
            if found is not None:
                raise StorageError(f"a tournament called {name!r} already exists")
            tournament_id = conn.execute(
                text(
                    "INSERT INTO tournaments (name, preset, table_size, created_at) "
                    "VALUES (:name, :preset, :size, :now) RETURNING id"
                ),
                {"name": name, "preset": preset, "size": table_size, "now": time.time()},
            ).scalar_one()
            conn.execute(
                text(
                    "INSERT INTO tournament_players (tournament_id, name, position) VALUES (:t, :name, :pos)"
                ),
                [{"t": tournament_id, "name": player, "pos": pos} for pos, player in enumerate(players)],
            )
            _insert_round(conn, tournament_id, 1, tables, "raffle", seed)

        try:
            self.db.run(write)
        except StorageError as error:
            if "refused" in str(error):  # two directors creating the same name at the same instant
                raise StorageError(f"a tournament called {name!r} already exists") from error
            raise
        return self.load(name)

    def names(self) -> list[str]:
        """Every tournament, newest first."""
        rows = self.db.run(
            lambda conn: conn.execute(text("SELECT name FROM tournaments ORDER BY id DESC")).all(),
            write=False,
        )
        return [str(row.name) for row in rows]

    def load(self, name: str) -> Tournament:
        """Raises: UnknownTournament."""
        return self.db.run(lambda conn: _load(conn, name, self.db.display), write=False)

    def tables(self, name: str, round_number: int) -> Tables:
        """The seating of one round (1-based).

        Raises:
            UnknownTournament, StorageError: no such round.
        """

        def read(conn: Connection) -> Tables:
            tournament = _load(conn, name, self.db.display)
            if not 1 <= round_number <= tournament.current_round:
                raise StorageError(f"{name!r} has rounds 1 to {tournament.current_round}, not {round_number}")
            return _tables(conn, tournament.id, round_number)

        return self.db.run(read, write=False)

    def new_round(
        self, name: str, expected_round: int, tables: Tables, seating: str, seed: str | None
    ) -> int:
        """Seat round `expected_round` (the one after the current round the director saw); returns it.

        Raises:
            StorageError: another device started that round already.
        """

        def write(conn: Connection) -> int:
            tournament = _load(conn, name, self.db.display)
            updated = conn.execute(
                text(
                    "UPDATE tournaments SET current_round = :next WHERE id = :id AND current_round = :current"
                ),
                {"next": expected_round, "id": tournament.id, "current": expected_round - 1},
            ).rowcount
            if updated != 1:
                raise StorageError(
                    f"round {expected_round} of {name!r} cannot start: round {tournament.current_round} is "
                    "the current one (another device started a round?)"
                )
            _insert_round(conn, tournament.id, expected_round, tables, seating, seed)
            return expected_round

        return self.db.run(write)

    # Games -----------------------------------------------------------------------------------------------

    def record_game(self, name: str, entry: GameEntry) -> TournamentGame:
        """Record one game at one table, all or nothing. The racks must be exactly the table's players.

        Raises:
            UnknownTournament, TournamentError (a player unknown or at another table),
            GameConflict (another device recorded that game), KeyReused (the key recorded another
            result), StorageError (also: an empty key).
        """
        if entry.request_key is not None and not entry.request_key.strip():
            raise StorageError("the game's key is empty: give a key, or none")
        key = uuid.uuid4().hex if entry.request_key is None else entry.request_key

        def write(conn: Connection) -> TournamentGame:
            found = conn.execute(
                text("SELECT id, current_round FROM tournaments WHERE name = :name"), {"name": name}
            ).first()
            if found is None:
                raise UnknownTournament(f"no tournament called {name!r} in {self.db.display!r}")
            tournament_id, current_round = int(found.id), int(found.current_round)
            round_number = current_round if entry.round is None else entry.round
            if not 1 <= round_number <= current_round:
                raise StorageError(f"{name!r} has rounds 1 to {current_round}, not {round_number}")
            players = [
                str(row.name)
                for row in conn.execute(
                    text("SELECT name FROM tournament_players WHERE tournament_id = :t"), {"t": tournament_id}
                )
            ]
            # A round's seating never changes once drawn, so it is checked before the lock is taken.
            check_table_players(
                _tables(conn, tournament_id, round_number), entry.table, entry.scores, players
            )
            # The lock: from here to the commit, writers of this tournament take turns (kept short).
            number = int(
                conn.execute(
                    text(
                        "UPDATE tournaments SET games_recorded = games_recorded + 1 WHERE id = :t "
                        "RETURNING games_recorded"
                    ),
                    {"t": tournament_id},
                ).scalar_one()
            )
            table_game = entry.table_game
            if table_game is None:
                table_game = int(
                    conn.execute(
                        text(
                            "SELECT COALESCE(MAX(table_game), 0) + 1 FROM tournament_games "
                            "WHERE tournament_id = :t AND round = :r AND table_no = :table"
                        ),
                        {"t": tournament_id, "r": round_number, "table": entry.table},
                    ).scalar_one()
                )
            created_at = time.time()
            game_id = conn.execute(
                text(
                    "INSERT INTO tournament_games (tournament_id, number, round, table_no, table_game, "
                    "request_key, blocked, created_at) VALUES (:t, :number, :round, :table, :table_game, "
                    ":key, :blocked, :now) RETURNING id"
                ),
                {
                    "t": tournament_id,
                    "number": number,
                    "round": round_number,
                    "table": entry.table,
                    "table_game": table_game,
                    "key": key,
                    "blocked": int(entry.blocked),
                    "now": created_at,
                },
            ).scalar_one()
            scores = [
                GameScore(
                    player=player,
                    rack=entry.racks.get(player, ""),
                    rack_value=entry.rack_values[player],
                    penalty=entry.penalties.get(player, 0),
                    score=score,
                    winner=player in entry.winners,
                )
                for player, score in sorted(entry.scores.items())
            ]
            conn.execute(
                text(
                    "INSERT INTO tournament_scores (game_id, tournament_id, player, rack, rack_value, "
                    "penalty, score, winner) "
                    "VALUES (:game, :t, :player, :rack, :value, :penalty, :score, :winner)"
                ),
                [
                    {
                        "game": game_id,
                        "t": tournament_id,
                        "player": s.player,
                        "rack": s.rack,
                        "value": s.rack_value,
                        "penalty": s.penalty,
                        "score": s.score,
                        "winner": int(s.winner),
                    }
                    for s in scores
                ],
            )
            return TournamentGame(
                number=number,
                round=round_number,
                table=entry.table,
                table_game=table_game,
                request_key=key,
                blocked=entry.blocked,
                created_at=created_at,
                scores=tuple(scores),
            )

        try:
            return self.db.run(write)
        except StorageError as error:
            if not isinstance(error.__cause__, exc.IntegrityError):
                raise
            # Refused by a unique constraint: this submission was recorded before (its key), or another
            # device recorded this table's game first.
            earlier = self._by_key(name, key)
            if earlier is not None:
                if not _same_result(earlier, entry):
                    raise KeyReused(
                        f"key {key!r} already recorded game {earlier.number} ({_describe(earlier)}); "
                        f"the game given now ({_describe(entry)}) is different and was not recorded: "
                        "send it with a new key to record it as another game"
                    ) from error
                return earlier
            raise GameConflict(
                f"game {entry.table_game} at table {entry.table} is already recorded (by another device?): "
                "check the table's games before entering it again"
            ) from error

    def _by_key(self, name: str, key: str) -> TournamentGame | None:
        def read(conn: Connection) -> TournamentGame | None:
            tournament = _load(conn, name, self.db.display)
            found = _game(conn, tournament.id, "g.request_key = :key", {"key": key})
            return found[0] if found else None

        found = self.db.run(read, write=False)
        return None if found is None else _replayed(found)

    def games(
        self, name: str, round_number: int | None = None, table: int | None = None
    ) -> list[TournamentGame]:
        """Recorded games in the order recorded, optionally of one round and one table."""

        def read(conn: Connection) -> list[TournamentGame]:
            tournament = _load(conn, name, self.db.display)
            where, params = ["1 = 1"], {}
            if round_number is not None:
                where.append("g.round = :round")
                params["round"] = round_number
            if table is not None:
                where.append("g.table_no = :table")
                params["table"] = table
            return _game(conn, tournament.id, " AND ".join(where), params)

        return self.db.run(read, write=False)

    def standings(self, name: str, round_number: int | None = None) -> tuple[int, list[Standing]]:
        """(games recorded, standings ranked) over the whole tournament or one round."""

        def read(conn: Connection) -> tuple[int, list[Standing]]:
            tournament = _load(conn, name, self.db.display)
            round_filter = "" if round_number is None else "AND g.round = :round"
            params = {"t": tournament.id, "round": round_number}
            rows = conn.execute(
                text(
                    "SELECT s.player, COUNT(*) AS games, SUM(s.winner) AS won, SUM(s.score) AS score "
                    "FROM tournament_scores s JOIN tournament_games g ON g.id = s.game_id "
                    f"WHERE s.tournament_id = :t {round_filter} GROUP BY s.player"
                ),
                params,
            ).all()
            games = conn.execute(
                text(f"SELECT COUNT(*) FROM tournament_games g WHERE g.tournament_id = :t {round_filter}"),
                params,
            ).scalar_one()
            by_name = {str(r.player): r for r in rows}
            standings = [
                Standing(
                    player,
                    int(by_name[player].won) if player in by_name else 0,
                    int(by_name[player].score) if player in by_name else 0,
                    int(by_name[player].games) if player in by_name else 0,
                )
                for player in tournament.players
            ]
            return int(games), rank(standings)

        return self.db.run(read, write=False)


def _insert_round(
    conn: Connection, tournament_id: int, number: int, tables: Tables, seating: str, seed: str | None
) -> None:
    conn.execute(
        text(
            "INSERT INTO tournament_rounds (tournament_id, number, seating, seed, created_at) "
            "VALUES (:t, :number, :seating, :seed, :now)"
        ),
        {"t": tournament_id, "number": number, "seating": seating, "seed": seed, "now": time.time()},
    )
    conn.execute(
        text(
            "INSERT INTO tournament_seats (tournament_id, round, player, table_no, seat) "
            "VALUES (:t, :round, :player, :table, :seat)"
        ),
        [
            {"t": tournament_id, "round": number, "player": player, "table": table_no, "seat": seat}
            for table_no, table in enumerate(tables, start=1)
            for seat, player in enumerate(table)
        ],
    )


def _load(conn: Connection, name: str, where: str) -> Tournament:
    row = conn.execute(
        text(
            "SELECT t.id, t.name, t.preset, t.table_size, t.created_at, t.current_round, t.games_recorded, "
            "r.seating, r.seed FROM tournaments t JOIN tournament_rounds r "
            "ON r.tournament_id = t.id AND r.number = t.current_round WHERE t.name = :name"
        ),
        {"name": name},
    ).first()
    if row is None:
        raise UnknownTournament(f"no tournament called {name!r} in {where!r}")
    players = tuple(
        str(p.name)
        for p in conn.execute(
            text("SELECT name FROM tournament_players WHERE tournament_id = :t ORDER BY position"),
            {"t": row.id},
        )
    )
    games = conn.execute(
        text("SELECT COUNT(*) FROM tournament_games WHERE tournament_id = :t"), {"t": row.id}
    ).scalar_one()
    return Tournament(
        id=int(row.id),
        name=str(row.name),
        preset=str(row.preset),
        table_size=int(row.table_size),
        created_at=float(row.created_at),
        current_round=int(row.current_round),
        players=players,
        tables=_tables(conn, int(row.id), int(row.current_round)),
        seating=str(row.seating),
        seed=None if row.seed is None else str(row.seed),
        games=int(games),
    )


def _tables(conn: Connection, tournament_id: int, round_number: int) -> Tables:
    tables: dict[int, list[str]] = {}
    for row in conn.execute(
        text(
            "SELECT table_no, player FROM tournament_seats WHERE tournament_id = :t AND round = :r "
            "ORDER BY table_no, seat"
        ),
        {"t": tournament_id, "r": round_number},
    ):
        tables.setdefault(int(row.table_no), []).append(str(row.player))
    return tuple(tuple(tables[number]) for number in sorted(tables))


def _game(
    conn: Connection, tournament_id: int, where: str, params: dict[str, object]
) -> list[TournamentGame]:
    rows = conn.execute(
        text(
            "SELECT g.id, g.number, g.round, g.table_no, g.table_game, g.request_key, g.blocked, "
            "g.created_at, s.player, s.rack, s.rack_value, s.penalty, s.score, s.winner "
            "FROM tournament_games g JOIN tournament_scores s ON s.game_id = g.id "
            f"WHERE g.tournament_id = :tournament_id AND {where} "
            "ORDER BY g.number, s.player"
        ),
        {**params, "tournament_id": tournament_id},
    ).all()
    games: dict[int, tuple[Any, list[GameScore]]] = {}
    for row in rows:
        games.setdefault(int(row.id), (row, []))[1].append(
            GameScore(
                str(row.player),
                str(row.rack),
                int(row.rack_value),
                int(row.penalty),
                int(row.score),
                bool(row.winner),
            )
        )
    result = []
    for head, scores in games.values():
        result.append(
            TournamentGame(
                number=int(head.number),
                round=int(head.round),
                table=int(head.table_no),
                table_game=int(head.table_game),
                request_key=str(head.request_key),
                blocked=bool(head.blocked),
                created_at=float(head.created_at),
                scores=tuple(scores),
            )
        )
    return result


def _same_result(game: TournamentGame, entry: GameEntry) -> bool:
    """Whether `entry` is the game stored as `game` sent again (racks in any order). Its table game
    number and round are not compared: a device that resends after a lost answer may already see the
    game it sent as recorded, and so the next number."""
    stored = {s.player: (sorted(s.rack.split()), s.penalty, s.score) for s in game.scores}
    given = {
        player: (sorted(entry.racks.get(player, "").split()), entry.penalties.get(player, 0), score)
        for player, score in entry.scores.items()
    }
    return stored == given and game.table == entry.table


def _describe(game: TournamentGame | GameEntry) -> str:
    """`table 1, round 2: ann= +5, bob=r5 -5`, as a message shows a game."""
    if isinstance(game, TournamentGame):
        racks = {s.player: s.rack for s in game.scores}
        head = f"table {game.table}, round {game.round}"
        points = game.points
    else:
        racks = dict(game.racks)
        head = f"table {game.table}" + ("" if game.round is None else f", round {game.round}")
        points = dict(game.scores)
    return head + ": " + ", ".join(f"{p}={racks.get(p, '')} {points[p]:+d}" for p in sorted(points))


def _replayed(game: TournamentGame) -> TournamentGame:
    return replace(game, replayed=True)


__all__ = [
    "GameConflict",
    "GameEntry",
    "GameScore",
    "KeyReused",
    "Tournament",
    "TournamentGame",
    "TournamentStore",
    "UnknownTournament",
]
