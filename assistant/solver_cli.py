"""`rummi solve`: the best play for a table and a rack (CONTRACT.md). `assistant/cli.py` wires it in."""

from __future__ import annotations

import argparse
import json
import sys

from assistant.arguments import seconds_argument, threshold_argument
from assistant.solver import OBJECTIVES, Edition, Play, solve
from assistant.tiles import Tile, format_tiles, parse_layout, parse_tiles

DEFAULT_TIME_LIMIT = 10.0


def configure(parser: argparse.ArgumentParser) -> None:
    """Add the `solve` options (the caller adds `--json` and `--rules`)."""
    parser.add_argument(
        "--table", default="", metavar="LAYOUT", help="the table, sets separated by '|', ';' or new lines"
    )
    parser.add_argument("--rack", default="", metavar="TILES", help="the player's rack; may be empty")
    opened = parser.add_mutually_exclusive_group(required=True)
    opened.add_argument("--opened", dest="opened", action="store_true", help="the player has opened")
    opened.add_argument(
        "--not-opened", dest="opened", action="store_false", help="the player has not made the opening meld"
    )
    parser.add_argument(
        "--maximize",
        choices=OBJECTIVES,
        default="tiles",
        help="place the most tiles (ties: most points; default) or the most points (ties: most tiles)",
    )
    parser.add_argument(
        "--time-limit",
        type=seconds_argument,
        default=DEFAULT_TIME_LIMIT,
        metavar="S",
        help=f"seconds to prove the best play (default {DEFAULT_TIME_LIMIT:g}); past it, the best found",
    )
    parser.add_argument(
        "--threshold",
        type=threshold_argument,
        default=None,
        metavar="N",
        help="opening threshold in points (default: the preset's)",
    )


def play_to_json(play: Play) -> dict[str, object]:
    """The contract's `{"placed", "table", "value"}` plus `tiles`, `optimal` and `message`."""
    return {
        "placed": [str(t) for t in play.placed],
        "table": [[str(t) for t in s] for s in play.table],
        "value": play.value,
        "tiles": play.tiles,
        "optimal": play.optimal,
        "message": play.message or None,
    }


def describe_play(play: Play, rack: list[Tile]) -> str:
    """The play as a player reads it."""
    lines: list[str] = []
    if play.is_draw:
        if play.opened or not rack:
            lines.append("No tile can be placed: draw a tile.")
        else:
            lines.append("No opening meld is possible with this rack: draw a tile.")
    else:
        tiles = "tile" if play.tiles == 1 else "tiles"
        placed = format_tiles(list(play.placed))
        lines.append(f"Place {play.tiles} {tiles} worth {play.value} points: {placed}")
        lines.append("Table after the play:" if play.opened else "New sets (the table stays as it was):")
        shown = play.table if play.opened else play.new_sets
        lines.extend(f"  {format_tiles(list(s))}" for s in shown)
    if not play.optimal:
        lines.append(f"Note: {play.message}")
    return "\n".join(lines)


def run(args: argparse.Namespace, rules: Edition) -> int:
    """Solve and print; returns 0 (bad notation raises `NotationError`, which the CLI maps to exit 2).

    Raises:
        NotationError: the table or the rack is unreadable.
        SolverInputError: more copies than the edition has, or an opened player's table is not valid.
    """
    table = parse_layout(args.table)
    rack = parse_tiles(args.rack)
    play = solve(
        table,
        rack,
        rules,
        opened=args.opened,
        maximize=args.maximize,
        time_limit=args.time_limit,
        threshold=args.threshold,
    )
    if not play.optimal:
        print(f"warning: {play.message}", file=sys.stderr)
    if getattr(args, "json", False):
        print(json.dumps(play_to_json(play)))
    else:
        print(describe_play(play, rack))
    return 0
