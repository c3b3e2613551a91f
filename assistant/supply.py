"""The supply check: the tiles in play can never outnumber the tiles in the box.

Rack plus table (plus a tile just drawn or taken) hold at most `rules.copies` of each numbered tile and
`rules.jokers` jokers (000_*.txt section 2: two copies and 2 jokers in 106 tiles; 002_*.txt: three copies
and 4 jokers in 160). Every command that is given a table and racks (`turn`, `solve`, `score`) and the app
call `check_supply`, so the refusal reads the same everywhere. A table alone with too many copies is a
verdict instead (`assistant.table.count_problems`: `rummi table` says "not valid").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Protocol

from assistant.errors import InputError
from assistant.tiles import Tile


class Supply(Protocol):
    """What the check reads from `assistant.rules.Rules`."""

    @property
    def name(self) -> str: ...

    @property
    def copies(self) -> int: ...

    @property
    def jokers(self) -> int: ...

    def describe(self, tile: Tile) -> str: ...


class SupplyError(InputError):
    """More copies of a tile than the edition has, counting the table and the racks together."""


def supply_problems(tiles: Iterable[Tile], rules: Supply, held_in: str = "table and racks") -> list[str]:
    """One sentence per tile held more often than the edition has it, in tile order; `held_in` names what
    was given (`the racks` when there is no table)."""
    problems = []
    box = 52 * rules.copies + rules.jokers
    for tile, count in sorted(Counter(tiles).items()):
        limit = rules.jokers if tile.is_joker else rules.copies
        if count > limit:
            name = "jokers" if tile.is_joker else f"copies of {rules.describe(tile)} ({tile})"
            problems.append(
                f"{held_in} hold {count} {name}, but the {rules.name} edition ({box} tiles) "
                f"has only {limit}"
            )
    return problems


def check_supply(tiles: Iterable[Tile], rules: Supply) -> None:
    """Refuse tiles in play (table, racks, a drawn or taken tile, all together) that no box could hold.

    Raises:
        SupplyError: a tile is held more often than the edition has it; the message names every one.
    """
    problems = supply_problems(tiles, rules)
    if problems:
        raise SupplyError("; ".join(problems))
