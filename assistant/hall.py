"""A tournament hall: the plain functions the CLI and the app's Tournament screen share.

Rules come from the tournament's preset (the `tournament` preset, 004_*.txt, unless the director chose
another); scoring is `assistant.scoring.score_round`; storage is `assistant.storage.tournaments`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import TypeVar

from assistant.rules import find_preset
from assistant.scoring import FailedOpening, score_round
from assistant.storage.database import Database
from assistant.storage.tournaments import GameEntry, Tournament, TournamentGame, TournamentStore
from assistant.tiles import format_tiles, parse_tiles
from assistant.tournament import (
    SEATINGS,
    Standing,
    TournamentError,
    check_table_players,
    draw_tables,
    new_seed,
    seat_by_standings,
    stored_name,
)

T = TypeVar("T")
DEFAULT_PRESET = "tournament"
DEFAULT_TABLE_SIZE = 4


def open_hall(target: str | os.PathLike[str] | None = None, timeout_s: float = 10.0) -> TournamentStore:
    """The tournaments in the database at `target` (URL or file; None: `RUMMI_DB` or the local file)."""
    return TournamentStore(Database(target, timeout_s))


def start_tournament(
    store: TournamentStore,
    name: str,
    players: Sequence[str],
    table_size: int = DEFAULT_TABLE_SIZE,
    seed: str | None = None,
    preset: str = DEFAULT_PRESET,
) -> Tournament:
    """Register the players and draw round 1's tables by raffle (`seed`: the same seed, the same draw).

    Raises:
        TournamentError, PresetError: bad players, size or preset; StorageError: the name is taken.
    """
    rules = find_preset(preset)
    seed = new_seed() if seed is None else seed
    tables = draw_tables(players, table_size, seed, rules)
    return store.create(name, preset, players, table_size, tables, seed)


def next_round(store: TournamentStore, name: str, seating: str, seed: str | None = None) -> Tournament:
    """Start the next round, re-seated by the standings so far or by a new raffle.

    Raises:
        TournamentError: an unknown seating; StorageError: another device started that round first.
    """
    if seating not in SEATINGS:
        raise TournamentError(f"seating is one of {', '.join(SEATINGS)}, not {seating!r}")
    tournament = store.load(name)
    rules = find_preset(tournament.preset)
    if seating == "raffle":
        seed = new_seed() if seed is None else seed
        tables = draw_tables(tournament.players, tournament.table_size, seed, rules)
    else:
        _, standings = store.standings(name)
        tables = seat_by_standings(standings, tournament.table_size, rules)
        seed = None
    store.new_round(name, tournament.current_round + 1, tables, seating, seed)
    return store.load(name)


def record_table_game(
    store: TournamentStore,
    name: str,
    table: int,
    racks: Mapping[str, str],
    failed_openings: Mapping[str, FailedOpening] | None = None,
    request_key: str | None = None,
    table_game: int | None = None,
    round_number: int | None = None,
) -> TournamentGame:
    """Score one game from the racks left at its end (an empty rack went out) and record it.

    Raises:
        NotationError: an unreadable rack; TournamentError: a player unknown, at another table or
        missing; ScoringError: racks that cannot be scored; GameConflict, StorageError.
    """
    tournament = store.load(name)
    rules = find_preset(tournament.preset)
    tables = tournament.tables
    if round_number is not None and round_number != tournament.current_round:
        tables = store.tables(name, round_number)
    racks = _by_stored_name(tournament.players, racks, "is given two racks")
    failed_openings = _by_stored_name(tournament.players, failed_openings or {}, "has two failed openings")
    parsed = {player: parse_tiles(tiles) for player, tiles in racks.items()}
    check_table_players(tables, table, racks, tournament.players)
    result = score_round(parsed, rules, failed_openings)
    entry = GameEntry(
        table=table,
        blocked=result.blocked,
        racks={player: format_tiles(tiles) for player, tiles in parsed.items()},
        rack_values=result.rack_values,
        scores=result.scores,
        winners=result.winners,
        penalties=result.penalties,
        request_key=request_key,
        table_game=table_game,
        round=round_number,
    )
    return store.record_game(name, entry)


def _by_stored_name(players: Sequence[str], given: Mapping[str, T], twice: str) -> dict[str, T]:
    """`given` keyed by the players' registered spelling (names are compared ignoring case).

    Raises:
        TournamentError: two given names are one player (`HAL=` and `hal=`).
    """
    found: dict[str, T] = {}
    spelled: dict[str, str] = {}
    for name, value in given.items():
        player = stored_name(players, name)
        if player in found:
            raise TournamentError(
                f"player {player!r} {twice} (as {spelled[player]!r} and {name!r}: names are compared "
                "ignoring case)"
            )
        found[player], spelled[player] = value, name
    return found


def standings(
    store: TournamentStore, name: str, round_number: int | None = None
) -> tuple[int, list[Standing]]:
    """(games recorded, players ranked by games won then cumulative score)."""
    return store.standings(name, round_number)
