"""`rummi tournament new | game | standings | round`: a tournament hall from the command line.

A plug-in of `assistant.cli` (imported only for `rummi tournament`). Every sub-command takes `--db URL`
(default: `RUMMI_DB`, else the local SQLite file). Exit codes: 0 done, 2 bad input or a change the database
refused (unknown tournament or player, a player at another table, a game already recorded, the server
unreachable); the message on stderr says which, and nothing confirmed before is lost.
"""

from __future__ import annotations

import argparse
import json
import sys

from assistant.arguments import positive_argument, seed_argument
from assistant.errors import InputError
from assistant.hall import (
    DEFAULT_PRESET,
    DEFAULT_TABLE_SIZE,
    next_round,
    open_hall,
    record_table_game,
    standings,
    start_tournament,
)
from assistant.rules import Rules, find_preset
from assistant.scoring import parse_failed_openings
from assistant.storage.database import StorageError, is_in_memory, sqlite_file, to_url
from assistant.storage.tournaments import Tournament, TournamentGame, TournamentStore
from assistant.tiles import NotationError
from assistant.tournament import SEATINGS, Standing, parse_players, tournament_name

EXIT_OK = 0
EXIT_REFUSED = 2


def configure(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)

    new = commands.add_parser("new", help="register the players and draw the tables by raffle")
    new.add_argument("name", metavar="NAME", help="the tournament's name")
    new.add_argument(
        "--players", nargs="+", required=True, metavar="NAMES", help="e.g. 'ann,bob,cid,dee' or ann bob cid"
    )
    new.add_argument(
        "--table-size",
        type=positive_argument,
        default=DEFAULT_TABLE_SIZE,
        metavar="N",
        help="players per table",
    )
    new.add_argument(
        "--seed",
        type=seed_argument,
        metavar="S",
        help="the raffle's seed: the same seed draws the same tables",
    )
    new.set_defaults(tournament_handler=run_new)

    game = commands.add_parser("game", help="record a game at a table from the racks left at its end")
    game.add_argument("name", metavar="NAME")
    game.add_argument("--table", type=positive_argument, required=True, metavar="N", help="the table number")
    game.add_argument(
        "--rack",
        action="append",
        required=True,
        metavar="PLAYER=TILES",
        help="one per player; PLAYER= went out",
    )
    game.add_argument(
        "--failed-opening",
        action="append",
        metavar="PLAYER=could-not|chose-not",
        help="a player who never opened (004_*.txt: 100 or 200 points)",
    )
    game.add_argument(
        "--key", metavar="KEY", help="an idempotency key: the same command sent again records the game once"
    )
    game.add_argument(
        "--table-game",
        type=positive_argument,
        metavar="N",
        help="the table's game number this is (refused if taken)",
    )
    game.add_argument(
        "--round", type=positive_argument, metavar="N", help="the round (default: the current one)"
    )
    game.set_defaults(tournament_handler=run_game)

    table = commands.add_parser("standings", help="players ranked by games won, then cumulative score")
    table.add_argument("name", metavar="NAME")
    table.add_argument("--round", type=positive_argument, metavar="N", help="one round only")
    table.set_defaults(tournament_handler=run_standings)

    round_ = commands.add_parser("round", help="start the next round, re-seated by standings or a new raffle")
    round_.add_argument("name", metavar="NAME")
    round_.add_argument("--by", choices=SEATINGS, required=True, help="how to seat the players")
    round_.add_argument(
        "--seed", type=seed_argument, metavar="S", help="the raffle's seed (with --by raffle)"
    )
    round_.set_defaults(tournament_handler=run_round)

    for sub in (new, game, table, round_):
        sub.add_argument("--db", metavar="URL", help="SQLAlchemy URL or SQLite file (default: RUMMI_DB)")
        sub.add_argument(
            "--json", action="store_true", default=argparse.SUPPRESS, help="print one JSON document"
        )
        sub.add_argument(
            "--rules",
            dest="tournament_rules",
            metavar="PRESET",
            help=f"the tournament's rules (default {DEFAULT_PRESET}); fixed when it is created",
        )


def run(args: argparse.Namespace, rules: Rules) -> int:
    # The name as stored (`assistant.names`): a terminal escape or bidi override in it is never kept.
    args.name = tournament_name(args.name)
    try:
        return int(args.tournament_handler(args, rules))
    except StorageError as error:
        print(f"rummi: error: {error}", file=sys.stderr)
        return EXIT_REFUSED


def run_new(args: argparse.Namespace, rules: Rules) -> int:
    preset = args.tournament_rules or (rules.name if rules.name != "standard" else DEFAULT_PRESET)
    find_preset(preset)
    players = parse_players(args.players)
    tournament = start_tournament(
        _hall(args, existing=False), args.name, players, args.table_size, args.seed, preset
    )
    _emit(args, tournament_to_json(tournament), describe_tables(tournament))
    return EXIT_OK


def run_game(args: argparse.Namespace, rules: Rules) -> int:
    racks: dict[str, str] = {}
    for entry in args.rack:
        name, sep, tiles = entry.partition("=")
        name = name.strip()
        if not sep or not name:
            raise NotationError(
                f"not PLAYER=TILES: {entry!r} (e.g. --rack ann='r5 k12' or --rack bob=)", entry
            )
        if name in racks:
            raise InputError(f"player {name!r} is given two racks")
        racks[name] = tiles
    if args.key is not None and not args.key.strip():
        raise InputError("--key is empty: give the game a key (any text) or leave --key out")
    failed = parse_failed_openings(args.failed_opening, "PLAYER")
    _check_preset(args)
    store = _hall(args)
    _check_rules(args, store.load(args.name))
    game = record_table_game(
        store, args.name, args.table, racks, failed, args.key, args.table_game, args.round
    )
    _emit(args, game_to_json(game), describe_game(game))
    return EXIT_OK


def run_standings(args: argparse.Namespace, rules: Rules) -> int:
    _check_preset(args)
    store = _hall(args)
    _check_rules(args, store.load(args.name))
    games, rows = standings(store, args.name, args.round)
    document = standings_to_json(args.name, games, rows)
    _emit(args, document, describe_standings(args.name, games, rows))
    return EXIT_OK


def run_round(args: argparse.Namespace, rules: Rules) -> int:
    _check_preset(args)
    store = _hall(args)
    _check_rules(args, store.load(args.name))
    tournament = next_round(store, args.name, args.by, args.seed)
    _emit(args, tournament_to_json(tournament), describe_tables(tournament))
    return EXIT_OK


def _hall(args: argparse.Namespace, existing: bool = True) -> TournamentStore:
    """The hall `--db` names (default: RUMMI_DB or the local file).

    Raises:
        InputError: an empty `--db`, or a database in memory (a command's writes would be gone when it
            ends).
        StorageError: `existing` and the SQLite file is not there: it is not created just to answer that
            the tournament is unknown.
    """
    if args.db is not None and not args.db.strip():
        raise InputError("--db is empty: give a file or a database URL, or leave --db out (RUMMI_DB)")
    url = to_url(args.db)
    if is_in_memory(url):
        shown = args.db if args.db is not None else url.render_as_string(hide_password=True)
        raise InputError(
            f"{shown!r} is an SQLite database in memory: it is gone when this command ends, so nothing "
            "would be kept. Give a file (a path, or sqlite:///path/hall.db) or a server URL"
        )
    path = sqlite_file(url)
    if existing and path is not None and not path.exists():
        raise StorageError(
            f"no such tournament {args.name!r}: there is no database at {str(path)!r} (a tournament is "
            "created with 'rummi tournament new')"
        )
    return open_hall(args.db)


def _check_preset(args: argparse.Namespace) -> None:
    """Raises: PresetError for an unknown `--rules`, before any database is opened."""
    if args.tournament_rules:
        find_preset(args.tournament_rules)


def _check_rules(args: argparse.Namespace, tournament: Tournament) -> None:
    if args.tournament_rules and find_preset(args.tournament_rules) != find_preset(tournament.preset):
        raise InputError(
            f"{tournament.name!r} is played under the {tournament.preset} rules, not {args.tournament_rules}"
        )


# JSON and text -----------------------------------------------------------------------------------------


def tournament_to_json(tournament: Tournament) -> dict[str, object]:
    return {
        "tournament": tournament.name,
        "tables": [list(table) for table in tournament.tables],
        "round": tournament.current_round,
        "seating": tournament.seating,
        "seed": tournament.seed,
        "rules": tournament.preset,
    }


def game_to_json(game: TournamentGame) -> dict[str, object]:
    return {
        "game": game.number,
        "table": game.table,
        "scores": game.points,
        "round": game.round,
        "table_game": game.table_game,
        "winners": list(game.winners),
        "blocked": game.blocked,
        "key": game.request_key,
        "already_recorded": game.replayed,
    }


def standings_to_json(name: str, games: int, rows: list[Standing]) -> dict[str, object]:
    return {
        "tournament": name,
        "games": games,
        "players": [
            {"name": r.name, "games_won": r.games_won, "score": r.score, "games": r.games} for r in rows
        ],
    }


def describe_tables(tournament: Tournament) -> str:
    how = f"raffle, seed {tournament.seed}" if tournament.seating == "raffle" else "seated by standings"
    lines = [f"{tournament.name}: round {tournament.current_round} ({how}), {tournament.preset} rules."]
    lines += [f"  table {n}: {', '.join(table)}" for n, table in enumerate(tournament.tables, start=1)]
    return "\n".join(lines)


def describe_game(game: TournamentGame) -> str:
    again = " (already recorded: nothing changed)" if game.replayed else ""
    lines = [f"Game {game.number} recorded: table {game.table}, round {game.round}{again}."]
    lines += [f"  {s.player}: {s.score:+d}" for s in game.scores]
    return "\n".join(lines)


def describe_standings(name: str, games: int, rows: list[Standing]) -> str:
    lines = [f"{name}: {games} game{'s' * (games != 1)} recorded."]
    width = max((len(r.name) for r in rows), default=0)
    lines += [
        f"  {place:>2}. {r.name:<{width}}  won {r.games_won:>3}  score {r.score:+d}"
        for place, r in enumerate(rows, start=1)
    ]
    return "\n".join(lines)


def _emit(args: argparse.Namespace, document: dict[str, object], text: str) -> None:
    print(json.dumps(document) if getattr(args, "json", False) else text)
