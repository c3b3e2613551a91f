"""The open-rack teaching game (000_*.txt section 6): what the active player could do, from the solver.

"Beginners may play with racks visible to everyone. Experienced players can explain possible groups, runs,
and rearrangements without choosing moves for the active player." The hint is that explanation: the sets
the rack alone can make, whether they reach the opening threshold, and how many tiles could be placed
using the table. It changes no rule; the app shows it on request while racks are open.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.rules import Rules
from assistant.solver import Play, solve
from assistant.tiles import Tile, format_tiles
from assistant.turn import judge_turn

DEFAULT_TIME_LIMIT = 2.0


@dataclass(frozen=True)
class TeachingHint:
    """`rack_sets`: groups and runs from the rack alone (the most tiles, then the most points), worth
    `rack_value`; `play`: the solver's play placing the most tiles under the player's situation (opened:
    the table may be rearranged; not opened: new sets worth the threshold); `lines`: both in words."""

    rack_sets: tuple[tuple[Tile, ...], ...]
    rack_value: int
    play: Play
    lines: tuple[str, ...]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def teaching_hint(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: Rules,
    opened: bool,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
) -> TeachingHint:
    """What the active player could do this turn, in words a beginner follows.

    The play shown always passes `judge_turn` under `rules`: where a house rule the solver does not model
    (flexible joker replacement) forbids the play it found, the hint falls back to new sets from the rack.

    Raises:
        SolverInputError: more copies of a tile than the edition has (the supply check's message), or an
            opened player's table that cannot be arranged into valid sets.
    """
    own = solve([], rack, rules, opened=False, maximize="tiles", time_limit=time_limit, threshold=0)
    rack_sets = own.new_sets
    play = solve(table, rack, rules, opened, maximize="tiles", time_limit=time_limit)
    if not _passes(table, rack, rules, opened, play):
        play = solve(table, rack, rules, opened=False, maximize="tiles", time_limit=time_limit, threshold=0)
        play = dataclasses.replace(play, opened=opened)
    lines = [_rack_line(rack_sets, own.value)]
    needed = rules.opening_threshold
    if not opened:
        if play.placed:
            lines.append(
                f"An opening meld is possible: {_sets(play.new_sets)} ({play.value} points, {needed} needed)."
            )
        elif rack_sets:
            lines.append(
                f"Not enough for the opening meld yet ({own.value} of {needed} points): draw a tile."
            )
        else:
            lines.append("No opening meld is possible yet: draw a tile.")
    elif play.placed:
        count = play.tiles
        tiles = f"{count} tile{'s' * (count != 1)}"
        lines.append(f"Using the table too, {tiles} could be placed: {format_tiles(play.placed)}.")
        lines.append(f"One way the table could look after: {_sets(play.table)}.")
    else:
        lines.append("No tile can be placed, even rearranging the table: draw a tile.")
    if rules.discard_pile and len(play.placed) < len(rack):
        lines.append("The turn then ends with a discard from the rack (American rules).")
    if not play.optimal:
        lines.append(f"Note: {play.message}")
    return TeachingHint(tuple(rack_sets), own.value, play, tuple(lines))


def _passes(
    table: Sequence[Sequence[Tile]], rack: Sequence[Tile], rules: Rules, opened: bool, play: Play
) -> bool:
    left = sorted((Counter(rack) - Counter(play.placed)).elements())
    discard = left[0] if rules.discard_pile and left else None
    verdict = judge_turn(table, [list(s) for s in play.table], rack, opened, rules, discard=discard)
    return verdict.legal


def _sets(sets: Sequence[Sequence[Tile]]) -> str:
    return " | ".join(format_tiles(list(s)) for s in sets)


def _rack_line(rack_sets: Sequence[Sequence[Tile]], value: int) -> str:
    if not rack_sets:
        return "The rack alone makes no group or run yet."
    kinds = "set" if len(rack_sets) == 1 else "sets"
    return f"From the rack alone: {_sets(rack_sets)} ({len(rack_sets)} {kinds}, {value} points)."
