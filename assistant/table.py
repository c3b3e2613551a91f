"""The whole table: every set valid, and no more copies of a tile than the edition has."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from assistant.rules import STANDARD, Rules
from assistant.sets import SetVerdict, check_set
from assistant.tiles import Tile, format_tiles


@dataclass(frozen=True)
class TableVerdict:
    """`valid` is False when any set is invalid or a tile appears more often than the edition allows."""

    valid: bool
    sets: tuple[SetVerdict, ...]
    problems: tuple[str, ...]

    @property
    def value(self) -> int:
        """Sum of the valid sets' values."""
        return sum(s.value or 0 for s in self.sets)


def count_problems(tiles: Iterable[Tile], rules: Rules = STANDARD, where: str = "on the table") -> list[str]:
    """Sentences for every tile seen more often than the edition has it (three red 5s, three jokers)."""
    problems = []
    for tile, count in sorted(Counter(tiles).items()):
        limit = rules.copies_of(tile)
        if count > limit:
            name = "jokers" if tile.is_joker else f"{rules.describe(tile)}s"
            problems.append(f"{count} {name} {where}, but the {rules.name} edition has only {limit}")
    return problems


# No valid set is longer than a 13-tile run: a longer one is named by its first tiles and its length.
_LISTED = 13


def _listed(tiles: Sequence[Tile]) -> str:
    if len(tiles) <= _LISTED:
        return format_tiles(list(tiles))
    return f"{format_tiles(list(tiles[:_LISTED]))} … {len(tiles)} tiles"


def check_table(sets: Sequence[Sequence[Tile]], rules: Rules = STANDARD) -> TableVerdict:
    """Check every set of a layout, and the tile counts across the whole table."""
    verdicts = tuple(check_set(tiles, rules) for tiles in sets)
    problems = [
        f"set {index} ({_listed(v.tiles)}): {v.reason}"
        for index, v in enumerate(verdicts, start=1)
        if not v.valid
    ]
    problems.extend(count_problems((t for tiles in sets for t in tiles), rules))
    return TableVerdict(not problems, verdicts, tuple(problems))
