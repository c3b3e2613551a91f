"""Table links: the token in the link (and QR code) the director hands to each table.

A token is `secrets.token_urlsafe` (256 bits): it cannot be guessed, and it grants one club game or one
table number of one tournament, nothing else. It is kept per table, as handed out, so the director's pages
can show the same link again; `renew_*` replaces it (a lost phone's link stops working at once). Who may
do what with a grant is `assistant.access`.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from sqlalchemy import text
from sqlalchemy.engine import Connection

from assistant.storage.database import Database, StorageError

TOKEN_BYTES = 32


@dataclass(frozen=True)
class GameTable:
    """A club game's table: its link records that game's turns and rounds."""

    game_id: int

    def __str__(self) -> str:
        return f"game {self.game_id}"


@dataclass(frozen=True)
class TournamentTable:
    """One table number of a tournament: its link records that table's games, whoever is seated there."""

    tournament: str
    table: int

    def __str__(self) -> str:
        return f"{self.tournament}, table {self.table}"


Grant = GameTable | TournamentTable


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class TableLinks:
    """The tables' tokens in one database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def game_token(self, game_id: int) -> str:
        """The token of the game's table, made the first time it is asked for.

        Raises:
            StorageError: no such game, or the write failed.
        """

        def write(conn: Connection) -> str:
            if conn.execute(text("SELECT 1 FROM games WHERE id = :id"), {"id": game_id}).first() is None:
                raise StorageError(f"no game with id {game_id}")
            return _token_of(conn, "game_id = :game", {"game": game_id}, {"game_id": game_id})

        return self.db.run(write)

    def table_token(self, tournament: str, table: int) -> str:
        """The token of table `table` of `tournament`, made the first time it is asked for.

        Raises:
            StorageError: no such tournament or table number, or the write failed.
        """

        def write(conn: Connection) -> str:
            tournament_id = _tournament_table(conn, tournament, table)
            return _token_of(
                conn,
                "tournament_id = :t AND table_no = :n",
                {"t": tournament_id, "n": table},
                {"tournament_id": tournament_id, "table_no": table},
            )

        return self.db.run(write)

    def renew_game_token(self, game_id: int) -> str:
        """A new token for the game's table; the old link grants nothing from now on."""
        self.game_token(game_id)
        token = new_token()
        self.db.run(
            lambda conn: conn.execute(
                text("UPDATE table_links SET token = :token, created_at = :now WHERE game_id = :game"),
                {"token": token, "now": time.time(), "game": game_id},
            )
        )
        return token

    def renew_table_token(self, tournament: str, table: int) -> str:
        """A new token for a tournament's table; the old link grants nothing from now on."""
        self.table_token(tournament, table)
        token = new_token()

        def write(conn: Connection) -> None:
            tournament_id = _tournament_table(conn, tournament, table)
            conn.execute(
                text(
                    "UPDATE table_links SET token = :token, created_at = :now "
                    "WHERE tournament_id = :t AND table_no = :n"
                ),
                {"token": token, "now": time.time(), "t": tournament_id, "n": table},
            )

        self.db.run(write)
        return token

    def grant(self, token: str) -> Grant | None:
        """What `token` grants, or None for a token that is not (or no longer) a table's."""
        token = token.strip()
        if len(token) < 32:  # never a token this module made: no need to ask the database
            return None
        row = self.db.run(
            lambda conn: conn.execute(
                text(
                    "SELECT l.game_id, t.name, l.table_no FROM table_links l "
                    "LEFT JOIN tournaments t ON t.id = l.tournament_id WHERE l.token = :token"
                ),
                {"token": token},
            ).first(),
            write=False,
        )
        if row is None:
            return None
        if row.game_id is not None:
            return GameTable(int(row.game_id))
        return TournamentTable(str(row.name), int(row.table_no))


def _token_of(conn: Connection, where: str, params: dict[str, object], columns: dict[str, object]) -> str:
    """The token of the row matching `where`, inserting one with `columns` if there is none."""
    found = conn.execute(text(f"SELECT token FROM table_links WHERE {where}"), params).first()
    if found is not None:
        return str(found.token)
    names = ", ".join(columns)
    values = ", ".join(f":{name}" for name in columns)
    # Two director tabs asking at once: the unique constraint keeps the first, and both read it back.
    conn.execute(
        text(
            f"INSERT INTO table_links (token, {names}, created_at) VALUES (:token, {values}, :now) "
            "ON CONFLICT DO NOTHING"
        ),
        {**columns, "token": new_token(), "now": time.time()},
    )
    return str(conn.execute(text(f"SELECT token FROM table_links WHERE {where}"), params).scalar_one())


def _tournament_table(conn: Connection, tournament: str, table: int) -> int:
    """The tournament's id, once `table` is one of its current tables.

    Raises:
        StorageError: no such tournament or table.
    """
    row = conn.execute(
        text(
            "SELECT t.id, MAX(s.table_no) AS tables FROM tournaments t "
            "JOIN tournament_seats s ON s.tournament_id = t.id AND s.round = t.current_round "
            "WHERE t.name = :name GROUP BY t.id"
        ),
        {"name": tournament},
    ).first()
    if row is None:
        raise StorageError(f"no tournament called {tournament!r}")
    if not 1 <= table <= int(row.tables):
        raise StorageError(f"{tournament!r} has tables 1 to {row.tables}, not {table}")
    return int(row.id)
