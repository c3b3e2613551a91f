"""The table as the app keeps it: the contract's layout notation, with `?` for a tile whose face was not read.

`parse_slots`/`format_slots` are the pair; a layout with no `?` parses exactly as `tiles.parse_layout` does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.errors import InputError
from assistant.tiles import Tile

UNREAD = "?"

Slot = Tile | None
"""A place on the table: the tile there, or None where its face was not read yet."""

_SET_SPLIT = re.compile(r"[|\n;]")
_TILE_SPLIT = re.compile(r"[\s,]+")


def parse_slots(text: str) -> list[list[Slot]]:
    """`parse_layout` that also accepts `?` for a tile not read yet.

    Raises:
        NotationError: a token is unreadable.
    """
    sets: list[list[Slot]] = []
    for part in _SET_SPLIT.split(text):
        tokens = [token for token in _TILE_SPLIT.split(part.strip()) if token]
        if tokens:
            sets.append([None if token == UNREAD else Tile.parse(token) for token in tokens])
    return sets


def format_slots(sets: Sequence[Sequence[Slot]]) -> str:
    return " | ".join(" ".join(UNREAD if slot is None else str(slot) for slot in tiles) for tiles in sets)


def unread_count(sets: Sequence[Sequence[Slot]]) -> int:
    return sum(slot is None for tiles in sets for slot in tiles)


def known_sets(sets: Sequence[Sequence[Slot]]) -> list[list[Tile]]:
    """The sets with every tile read. Raises: InputError naming how many tiles are still unread."""
    missing = unread_count(sets)
    if missing:
        raise InputError(f"{missing} tile(s) not read yet (shown as ?): fix them before judging")
    return [[slot for slot in tiles if slot is not None] for tiles in sets]


def replace_slot(text: str, set_index: int, position: int, tile: Tile | None) -> str:
    """The layout with one tile replaced, or removed when `tile` is None (an emptied set disappears)."""
    sets = parse_slots(text)
    if not (0 <= set_index < len(sets) and 0 <= position < len(sets[set_index])):
        raise InputError(f"there is no tile {position + 1} in set {set_index + 1}")
    if tile is None:
        del sets[set_index][position]
    else:
        sets[set_index][position] = tile
    return format_slots([tiles for tiles in sets if tiles])


@dataclass(frozen=True)
class SetCount:
    """How the CLI, the app and the annotated picture count a table: every group of tiles lying together is
    a set, a tile lying alone too (a set of one, never valid: 000_*.txt section 2, sets have 3+ tiles)."""

    sets: int
    invalid: int
    unjudged: int
    single: int

    @property
    def valid(self) -> int:
        return self.sets - self.invalid - self.unjudged

    def describe(self) -> str:
        """`5 sets: 2 valid, 3 invalid (3 single tiles)`."""
        text = f"{self.sets} set{'s' if self.sets != 1 else ''}: {self.valid} valid, {self.invalid} invalid"
        if self.unjudged:
            text += f", {self.unjudged} not judged"
        if self.single:
            text += f" ({self.single} single tile{'s' if self.single != 1 else ''})"
        return text


def count_sets(sets: Sequence[Sequence[object]], valid: Sequence[bool | None]) -> SetCount:
    """Count `sets` (any tile type) with each one's verdict (`None`: not judged, e.g. a tile not read)."""
    return SetCount(
        sets=len(sets),
        invalid=sum(v is False for v in valid),
        unjudged=sum(v is None for v in valid),
        single=sum(len(tiles) == 1 for tiles in sets),
    )
