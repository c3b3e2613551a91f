"""`rummi`'s domain commands: the command line of ../shared/CONTRACT.md, less the reader.

Exit codes are decided here, in one place: 0 for a valid table / meld / legal turn / scored round, 1 for
a rule breach, 2 for input that cannot be read (the message on stderr names the offending token).
`solve` and `tournament` are this package's plug-ins, imported only when asked for. The commands that read
pixels are not known here: `main(argv, plugins)` is given them by the command module that composes `rummi`
(`rummi.py` at the repository root), so the domain imports nothing of the reader and `rummi table` loads
no vision stack.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType
from typing import NamedTuple, NoReturn

from assistant.arguments import threshold_argument
from assistant.documents import set_to_json
from assistant.errors import InputError, quote, shorten_long_runs
from assistant.meld import MeldVerdict, check_meld
from assistant.rules import HOUSE_RULES, PRESETS, Rules, find_preset
from assistant.scoring import Ledger, RoundResult, parse_failed_openings, score_round
from assistant.sets import SetVerdict
from assistant.table import TableVerdict, check_table
from assistant.tiles import NotationError, Tile, format_tiles, parse_layout, parse_tiles
from assistant.turn import TurnVerdict, judge_turn

EXIT_OK = 0
EXIT_BREACH = 1
EXIT_UNREADABLE = 2


class Plugin(NamedTuple):
    """A sub-command that lives in its own module: `load()` imports it (only when the command is named), and
    the module has `configure(parser)` and `run(args, rules) -> int`."""

    load: Callable[[], ModuleType]
    help: str


def _solve_plugin() -> ModuleType:
    from assistant import solver_cli

    return solver_cli


def _tournament_plugin() -> ModuleType:
    from assistant import tournament_cli

    return tournament_cli


def _replay_plugin() -> ModuleType:
    from assistant import replay_cli

    return replay_cli


# The domain's own plug-ins, name -> Plugin. `main(argv, plugins)` is given a larger table by rummi.py.
PLUGINS: Mapping[str, Plugin] = {
    "solve": Plugin(_solve_plugin, "the best play for a table and a rack"),
    "tournament": Plugin(_tournament_plugin, "a tournament hall: tables by raffle, games, standings"),
    "replay": Plugin(_replay_plugin, "print a game record's calls turn by turn (rummi watch --record)"),
}


# --- JSON documents --------------------------------------------------------------------------------


def table_to_json(verdict: TableVerdict) -> dict[str, object]:
    return {
        "valid": verdict.valid,
        "sets": [set_to_json(s) for s in verdict.sets],
        "problems": list(verdict.problems),
    }


def meld_to_json(verdict: MeldVerdict) -> dict[str, object]:
    return {
        "valid": verdict.valid,
        "value": verdict.value,
        "threshold": verdict.threshold,
        "meets_threshold": verdict.meets_threshold,
        "sets": [set_to_json(s) for s in verdict.sets],
        "problems": list(verdict.problems),
    }


def turn_to_json(verdict: TurnVerdict) -> dict[str, object]:
    """The contract's turn object, plus reason codes, tiles taken off the table and the penalty."""
    return {
        "legal": verdict.legal,
        "action": verdict.action,
        "played": [str(t) for t in verdict.played],
        "reasons": [r.text for r in verdict.reasons],
        "meld_value": verdict.meld_value,
        "reason_codes": [r.code.value for r in verdict.reasons],
        "taken": [str(t) for t in verdict.taken],
        "penalty_tiles": verdict.penalty_tiles,
        "discard": str(verdict.discard) if verdict.discard else None,
        "rack_after": [str(t) for t in verdict.rack_after],
        "went_out": verdict.went_out,
        "table": table_to_json(verdict.table),
    }


def round_to_json(result: RoundResult) -> dict[str, object]:
    return {
        "blocked": result.blocked,
        "winners": list(result.winners),
        "rack_values": dict(result.rack_values),
        "scores": dict(result.scores),
        "penalties": dict(result.penalties),
    }


# --- friendly text ---------------------------------------------------------------------------------


def describe_set(verdict: SetVerdict) -> str:
    if not verdict.valid:
        return f"not valid: {verdict.reason}"
    reading = verdict.reading
    assert reading is not None
    text = f"{reading.describe()}, {verdict.value} points"
    determined = [str(j) for j in verdict.jokers if j]
    if determined:
        text += f" (joker{'s' * (len(determined) > 1)} = {', '.join(determined)})"
    elif verdict.jokers:
        text += (
            " (the joker's colour is open)" if len(verdict.jokers) == 1 else " (the jokers' colours are open)"
        )
    if verdict.ambiguous:
        others = [f"{r.describe()} = {r.value}" for r in verdict.readings if r is not reading]
        shown = others[:4] + ([f"{len(others) - 4} more"] if len(others) > 4 else [])
        text += f"; can also be read as {', '.join(shown)}"
    return text


def describe_table(verdict: TableVerdict, rules: Rules) -> str:
    tiles = sum(len(s.tiles) for s in verdict.sets)
    head = "The table is valid" if verdict.valid else "The table is NOT valid"
    sets = len(verdict.sets)
    lines = [f"{head} ({sets} set{'s' * (sets != 1)}, {tiles} tiles, {rules.label} rules)."]
    width = max((len(format_tiles(s.tiles)) for s in verdict.sets), default=0)
    for index, s in enumerate(verdict.sets, start=1):
        lines.append(f"  {index}. {format_tiles(s.tiles):<{width}}  {describe_set(s)}")
    set_problems = sum(not s.valid for s in verdict.sets)
    for problem in verdict.problems[set_problems:]:
        lines.append(f"  ! {problem}")
    return "\n".join(lines)


def describe_meld(verdict: MeldVerdict, rules: Rules) -> str:
    if verdict.accepted:
        head = f"A valid opening meld: {verdict.value} points (at least {verdict.threshold} needed)."
    elif verdict.valid:
        head = f"Not enough for an opening meld: {verdict.value} points, {verdict.threshold} needed."
    else:
        head = "Not a valid opening meld."
    lines = [head]
    for index, s in enumerate(verdict.sets, start=1):
        lines.append(f"  {index}. {format_tiles(s.tiles)}  {describe_set(s)}")
    set_problems = sum(not s.valid for s in verdict.sets)
    lines.extend(f"  ! {p}" for p in verdict.problems[set_problems:])
    return "\n".join(lines)


def describe_turn(verdict: TurnVerdict) -> str:
    discard = f" The turn ends with the discard {verdict.discard}." if verdict.discard else ""
    if verdict.action == "draw" and verdict.legal:
        return "Legal: the table is as it was, so the player draws a tile." + discard
    played = format_tiles(list(verdict.played)) or "nothing"
    count = len(verdict.played)
    if verdict.legal:
        source = "the hand" if verdict.picked_up else "the rack"
        lines = [f"Legal play: {played} ({count} tile{'s' * (count != 1)} from {source}).{discard}"]
        if verdict.meld_value is not None:
            lines.append(f"Opening meld worth {verdict.meld_value} points.")
        if verdict.jokers_to_rack:
            lines.append(f"{verdict.jokers_to_rack} joker(s) go back to the rack (gentle joker rule).")
        if verdict.went_out:
            lines.append("The rack is empty: the player has gone out and wins the round.")
        return "\n".join(lines)
    lines = ["Illegal turn:"]
    lines.extend(f"  - {r.text}" for r in verdict.reasons)
    if verdict.played:
        lines.append(f"Tiles played from the rack: {played}.")
    if verdict.meld_value is not None:
        lines.append(f"Opening meld value: {verdict.meld_value} points.")
    tiles = verdict.penalty_tiles
    lines.append(
        f"Restore the table; the player takes back their tiles and draws {tiles} tile{'s' * (tiles > 1)}."
    )
    return "\n".join(lines)


def describe_round(result: RoundResult) -> str:
    winners = " and ".join(result.winners)
    if result.blocked:
        tied = " (tied for the lowest rack, sharing the win)" if len(result.winners) > 1 else ""
        lines = [f"Blocked round: {winners} won with the lowest rack{tied}."]
    else:
        lines = [f"{winners} went out and won the round."]
    width = max(len(name) for name in result.scores)
    for name, score in result.scores.items():
        penalty = f"  (+{result.penalties[name]} failed opening)" if name in result.penalties else ""
        lines.append(f"  {name:<{width}}  rack {result.rack_values[name]:>3}   score {score:+d}{penalty}")
    return "\n".join(lines)


# --- sub-commands ----------------------------------------------------------------------------------


def _layout(parts: Sequence[str]) -> list[list[Tile]]:
    return parse_layout(" ".join(parts))


def run_table(args: argparse.Namespace, rules: Rules) -> int:
    verdict = check_table(_layout(args.layout), rules)
    _emit(args, table_to_json(verdict), describe_table(verdict, rules))
    return EXIT_OK if verdict.valid else EXIT_BREACH


def run_meld(args: argparse.Namespace, rules: Rules) -> int:
    verdict = check_meld(_layout(args.layout), rules, args.threshold)
    _emit(args, meld_to_json(verdict), describe_meld(verdict, rules))
    return EXIT_OK if verdict.accepted else EXIT_BREACH


def _one_tile(text: str | None, option: str) -> Tile | None:
    """The single tile an option such as `--discard r5` names; None when the option is not given."""
    if text is None:
        return None
    try:
        tiles = parse_tiles(text)
    except NotationError as error:
        raise NotationError(f"{option}: {error}", error.token) from None
    if len(tiles) != 1:
        raise NotationError(f"{option} takes exactly one tile, got {quote(text)}", text)
    return tiles[0]


def run_turn(args: argparse.Namespace, rules: Rules) -> int:
    before = parse_layout(args.before)
    after = parse_layout(args.after)
    rack = parse_tiles(args.rack)
    verdict = judge_turn(
        before,
        after,
        rack,
        args.opened,
        rules,
        args.threshold,
        discard=_one_tile(args.discard, "--discard"),
        took_discard=_one_tile(args.took_discard, "--took-discard"),
        drew=_one_tile(args.drew, "--drew"),
        took_trump=_one_tile(args.took_trump, "--took-trump"),
    )
    _emit(args, turn_to_json(verdict), describe_turn(verdict))
    return EXIT_OK if verdict.legal else EXIT_BREACH


def run_score(args: argparse.Namespace, rules: Rules) -> int:
    racks: dict[str, list[Tile]] = {}
    for entry in args.rack:
        name, sep, tiles = entry.partition("=")
        name = name.strip()
        if not sep or not name:
            raise NotationError(
                f"not NAME=TILES: {quote(entry)} (e.g. --rack alice='r5 k12' or --rack bob=)", entry
            )
        same = [known for known in racks if known.casefold() == name.casefold()]
        if same:
            also = "" if same[0] == name else f" (as {quote(same[0])}: names are compared ignoring case)"
            raise InputError(f"player {quote(name)} is given two racks{also}")
        racks[name] = parse_tiles(tiles)
    failed = parse_failed_openings(args.failed_opening)
    result = score_round(racks, rules, failed)
    document, text = round_to_json(result), describe_round(result)
    if rules.partnership:
        ledger = Ledger(tuple(racks), rules)
        ledger.record(result)
        document["partnership_scores"] = ledger.partnership_totals
        text += "\nPartnerships: " + ", ".join(f"{k} {v:+d}" for k, v in ledger.partnership_totals.items())
    _emit(args, document, text)
    return EXIT_OK


def _emit(args: argparse.Namespace, document: dict[str, object], text: str) -> None:
    print(json.dumps(document) if args.json else text)


# --- parser ----------------------------------------------------------------------------------------


def _common(parser: argparse.ArgumentParser, defaults: bool) -> None:
    """`--json` and `--rules`, accepted before or after the sub-command."""
    default_json: object = False if defaults else argparse.SUPPRESS
    default_rules: object = "standard" if defaults else argparse.SUPPRESS
    parser.add_argument("--json", action="store_true", default=default_json, help="print one JSON document")
    parser.add_argument(
        "--rules",
        default=default_rules,
        metavar="PRESET",
        help=f"rules preset: {', '.join(PRESETS)} (default standard); add house rules with '+', "
        f"e.g. standard+gentle-joker. House rules: {', '.join(HOUSE_RULES)}",
    )


def _opened(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--opened", dest="opened", action="store_true", help="the player has opened before")
    group.add_argument("--not-opened", dest="opened", action="store_false", help="the player has not opened")


def build_parser(
    plugin: str | None = None, plugins: Mapping[str, Plugin] = PLUGINS
) -> tuple[argparse.ArgumentParser, ModuleType | None]:
    """The `rummi` parser with the domain's commands and `plugins`; only the one named `plugin` is imported.

    Raises:
        ImportError: the named plug-in's module (or what it needs) is not installed.
    """
    parser = _Parser(
        prog="rummi",
        description="Rummikub rules engine: check sets, opening melds and turns, score rounds.",
        epilog="Tiles: r5 (red), b (blue), k (black), o or y (orange), J (joker). Sets are separated by '|', "
        "';' or new lines (blank lines are only spacing); a set with no tile in it is an error.",
    )
    _common(parser, defaults=True)
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    table = commands.add_parser("table", help="check every set on a table and the tile counts")
    table.add_argument(
        "layout",
        nargs="+",
        metavar="LAYOUT",
        help="sets separated by '|', ';' or new lines, e.g. 'r5 r6 r7 | k8 b8 o8'",
    )
    table.set_defaults(handler=run_table)

    meld = commands.add_parser("meld", help="check an opening meld and its value")
    meld.add_argument("layout", nargs="+", metavar="LAYOUT")
    meld.add_argument(
        "--threshold", type=threshold_argument, metavar="N", help="points needed (default: the preset's)"
    )
    meld.set_defaults(handler=run_meld)

    turn = commands.add_parser("turn", help="judge a turn from the table before and after and the rack")
    turn.add_argument("--before", required=True, metavar="LAYOUT", help="the table at the start of the turn")
    turn.add_argument("--after", required=True, metavar="LAYOUT", help="the table at the end of the turn")
    turn.add_argument("--rack", default="", metavar="TILES", help="the player's rack before the turn")
    turn.add_argument(
        "--threshold", type=threshold_argument, metavar="N", help="opening points (default: the preset's)"
    )
    turn.add_argument(
        "--discard", metavar="TILE", help="the tile laid on one's own discard pile to end the turn (american)"
    )
    turn.add_argument(
        "--took-discard",
        metavar="TILE",
        help="the left neighbour's top discard, taken instead of drawing, to be played this turn (american)",
    )
    turn.add_argument(
        "--took-trump", metavar="TILE", help="the trump at the end of the pool, taken to go out (american)"
    )
    turn.add_argument(
        "--drew",
        metavar="TILE",
        help="the tile drawn from the pool this turn, not on --rack (playable at once with immediate-draw)",
    )
    _opened(turn)
    turn.set_defaults(handler=run_turn)

    score = commands.add_parser("score", help="score a round; an empty rack marks the player who went out")
    score.add_argument(
        "--rack", action="append", required=True, metavar="NAME=TILES", help="one per player, e.g. bob='r5 J'"
    )
    score.add_argument(
        "--failed-opening",
        action="append",
        metavar="NAME=could-not|chose-not",
        help="a player who never opened (tournament rules: 100 or 200 points)",
    )
    score.set_defaults(handler=run_score)

    for sub in (table, meld, turn, score):
        _common(sub, defaults=False)

    module = None
    for name, (load_plugin, help_text) in plugins.items():
        sub = commands.add_parser(name, help=help_text, add_help=name == plugin)
        if name == plugin:
            module = load_plugin()
            module.configure(sub)
            _common(sub, defaults=False)
            sub.set_defaults(handler=module.run)
    return parser, module


def _command_in(argv: Sequence[str]) -> str | None:
    """The sub-command named in argv, found before parsing so only that plug-in is imported."""
    skip = False
    for token in argv:
        if skip:
            skip = False
        elif token == "--rules":
            skip = True
        elif not token.startswith("-"):
            return token
    return None


def main(argv: Sequence[str] | None = None, plugins: Mapping[str, Plugin] = PLUGINS) -> int:
    """Run `rummi`; returns the exit code (0 ok, 1 rule breach, 2 unreadable input).

    `plugins` are the sub-commands beyond table, meld, turn and score: by default the domain's own
    (`PLUGINS`); `rummi.py` passes those and the reader's (`read`, `calibrate`, `watch`).

    A reader that stops early (`rummi read a.jpg b.jpg | head -1`) ends the run quietly with 0: what was
    asked for was written, and the rest has nowhere to go.
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        code = _run(argv, plugins)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except BrokenPipeError:
        # The reader is gone: point stdout at /dev/null so the exit flush does not fail again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return EXIT_OK


def _run(argv: list[str], plugins: Mapping[str, Plugin]) -> int:
    command = _command_in(argv)
    try:
        plugin = command if command in plugins else None
        try:
            parser, _ = build_parser(plugin, plugins)
        except ImportError as error:
            print(f"rummi: error: '{command}' is not available ({error})", file=sys.stderr)
            return EXIT_UNREADABLE
        try:
            args = parser.parse_args(argv)
        except SystemExit as stop:  # argparse: --help (0) or a usage error (2, already printed)
            return stop.code if isinstance(stop.code, int) else EXIT_UNREADABLE
        rules = find_preset(args.rules)
        return int(args.handler(args, rules))
    except InputError as error:
        print(f"rummi: error: {shorten_long_runs(str(error))}", file=sys.stderr)
        return EXIT_UNREADABLE


class _Parser(argparse.ArgumentParser):
    """argparse, with usage errors that never echo a huge argument back whole."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_UNREADABLE, f"{self.prog}: error: {shorten_long_runs(message)}\n")


if __name__ == "__main__":
    sys.exit(main())
