"""The opening meld: sets from the rack worth at least the preset's threshold (000_*.txt section 3).

Jokers count as the tile they stand for (000_*.txt section 3, 001_*.txt, 002_*.txt). Only rack tiles
count; that the sets came from the rack alone is the turn judge's concern (`assistant.turn`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assistant.rules import STANDARD, Rules
from assistant.sets import SetVerdict
from assistant.table import check_table
from assistant.tiles import Tile


@dataclass(frozen=True)
class MeldVerdict:
    """`valid`: every set valid and tile counts possible. `value` sums the valid sets."""

    valid: bool
    value: int
    threshold: int
    sets: tuple[SetVerdict, ...]
    problems: tuple[str, ...] = ()

    @property
    def meets_threshold(self) -> bool:
        return self.value >= self.threshold

    @property
    def accepted(self) -> bool:
        """A legal opening: valid sets worth enough, and at least one set."""
        return self.valid and self.meets_threshold and bool(self.sets)


def check_meld(
    sets: Sequence[Sequence[Tile]], rules: Rules = STANDARD, threshold: int | None = None
) -> MeldVerdict:
    """Judge sets put down as an opening meld; `threshold` overrides the preset's (e.g. `--threshold 20`)."""
    needed = rules.opening_threshold if threshold is None else threshold
    table = check_table(sets, rules)
    problems = list(table.problems)
    if not sets:
        problems.append("no sets: an opening meld needs at least one group or run")
    return MeldVerdict(table.valid and bool(sets), table.value, needed, table.sets, tuple(problems))
