"""Tiles and the contract's notation: `r5`, `k12`, `o13`, `J`; layouts of sets separated by `|` (or `;`)."""

from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass

from assistant.errors import InputError, quote


class NotationError(InputError):
    """Text that is not a tile, a set or a layout. The message names the offending token."""

    def __init__(self, message: str, token: str | None = None) -> None:
        super().__init__(message)
        self.token = token


class Color(enum.Enum):
    BLACK = "k"
    BLUE = "b"
    RED = "r"
    ORANGE = "o"

    @property
    def letter(self) -> str:
        return self.value

    @property
    def label(self) -> str:
        """The colour's name as a player says it."""
        return self.name.lower()


COLORS: tuple[Color, ...] = (Color.BLACK, Color.BLUE, Color.RED, Color.ORANGE)
_COLOR_ORDER = {color: index for index, color in enumerate(COLORS)}
NUMBERS: tuple[int, ...] = tuple(range(1, 14))

_COLOR_ALIASES = {"k": Color.BLACK, "b": Color.BLUE, "r": Color.RED, "o": Color.ORANGE, "y": Color.ORANGE}
_JOKER_ALIASES = {"j", "*", "joker"}
# ASCII digits only: `\d` would also read r٥ (Arabic-Indic) or r５ (full width) as r5.
_TILE_RE = re.compile(r"^([a-z])([0-9]+)$")
_ANY_DIGITS_RE = re.compile(r"^[a-z]\d+$")


@functools.total_ordering
@dataclass(frozen=True)
class Tile:
    """One physical tile: a coloured number 1-13, or a joker (color and number are None).

    Tiles sort by colour (black, blue, red, orange), then number; jokers last.
    """

    color: Color | None = None
    number: int | None = None

    def __post_init__(self) -> None:
        if (self.color is None) != (self.number is None):
            raise ValueError("a tile has both a colour and a number, or neither (a joker)")
        if self.number is not None and not 1 <= self.number <= 13:
            raise ValueError(f"tile number must be 1-13, got {self.number}")
        # Tiles are hashed and compared in every set and turn check: keep one small int per tile.
        code = 16 * len(_COLOR_ORDER) if self.color is None else 16 * _COLOR_ORDER[self.color] + self.number
        object.__setattr__(self, "_code", code)

    def __hash__(self) -> int:
        return self._code

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self._code == other._code

    @property
    def is_joker(self) -> bool:
        return self.color is None

    @property
    def sort_key(self) -> int:
        """Colour (in COLORS order), then number; jokers sort after every numbered tile."""
        return self._code

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self._code < other._code

    @property
    def points(self) -> int:
        """Face value; a joker's value depends on its position or the preset, so it is 0 here."""
        return self.number or 0

    @classmethod
    def joker(cls) -> Tile:
        return cls()

    @classmethod
    def parse(cls, token: str) -> Tile:
        """Parse `r5`, `K12`, `y7` (orange), `J`, `*`, `joker`.

        Raises:
            NotationError: the token is not a tile.
        """
        text = token.strip().lower()
        if text in _JOKER_ALIASES:
            return JOKER
        match = _TILE_RE.match(text)
        if not match:
            if _ANY_DIGITS_RE.match(text):
                raise NotationError(
                    f"not a tile: {quote(token)} (write the number with the digits 0-9, e.g. r5)", token
                )
            raise NotationError(f"not a tile: {quote(token)} (expected e.g. r5, k12, o13, J)", token)
        letter, digits = match.groups()
        if letter not in _COLOR_ALIASES:
            raise NotationError(
                f"unknown colour {quote(letter)} in {quote(token)} (use k, b, r, o or y)", token
            )
        number = int(digits)
        if not 1 <= number <= 13:
            raise NotationError(f"number out of range in {quote(token)} (tiles go from 1 to 13)", token)
        return cls(_COLOR_ALIASES[letter], number)

    def __str__(self) -> str:
        if self.color is None:
            return "J"
        return f"{self.color.letter}{self.number}"

    def __repr__(self) -> str:
        return f"Tile.parse({str(self)!r})"

    def describe(self) -> str:
        """`red 5`, `joker`: how a player names the tile."""
        if self.color is None:
            return "joker"
        return f"{self.color.label} {self.number}"


JOKER = Tile()

ALL_FACES: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLORS for n in NUMBERS)

_SET_SPLIT = re.compile(r"[|\n;]")
_TILE_SPLIT = re.compile(r"[\s,]+")


def parse_tiles(text: str) -> list[Tile]:
    """Parse a rack: tiles separated by spaces or commas. May be empty.

    Raises:
        NotationError: a token is not a tile.
    """
    return [Tile.parse(tok) for tok in _TILE_SPLIT.split(text.strip()) if tok]


def format_tiles(tiles: list[Tile] | tuple[Tile, ...]) -> str:
    return " ".join(str(t) for t in tiles)


def parse_layout(text: str) -> list[list[Tile]]:
    """Parse a layout: sets separated by `|`, `;` or new lines, tiles in physical order.

    A blank layout is an empty table, and blank lines between sets are only spacing. Any other set with no
    tile in it (`r1 r2 r3 | | k1`, `r1 r2 r3 ;; k1`, a lone `,`) is an error naming its position.

    Raises:
        NotationError: a token is unreadable or a set is empty.
    """
    if not text.strip():
        return []
    parts = _SET_SPLIT.split(text)
    separators = _SET_SPLIT.findall(text)
    sets: list[list[Tile]] = []
    for index, part in enumerate(parts):
        tiles = parse_tiles(part)
        if tiles:
            sets.append(tiles)
            continue
        # The layout's edges count as line breaks: a leading or trailing new line is spacing too.
        left = separators[index - 1] if index > 0 else ""
        right = separators[index] if index < len(separators) else ""
        if part.strip() or left not in ("", "\n") or right not in ("", "\n"):
            where = (
                f"{quote(part.strip())} holds no tile"
                if part.strip()
                else f"nothing between {_name(left, 'the start')} and {_name(right, 'the end')}"
            )
            raise NotationError(
                f"empty set (position {len(sets) + 1}): {where} in layout {quote(text.strip())}",
                part.strip() or left or right,
            )
    return sets


def _name(separator: str, edge: str) -> str:
    """How a message names a set separator; `edge` for the start or end of the layout."""
    return {"": edge, "\n": "a line break"}.get(separator, repr(separator))


def format_layout(sets: list[list[Tile]] | list[tuple[Tile, ...]]) -> str:
    return " | ".join(format_tiles(list(s)) for s in sets)


# Class scheme shared by the renderer, the model and the evaluation: the alphabetical order of
# ../shared/real-dev/data.yaml (`black_1, black_10, ..., joker, ..., red_9`); both jokers are one class.
_COLOR_WORDS = {Color.BLACK: "black", Color.BLUE: "blue", Color.RED: "red", Color.ORANGE: "orange"}
_WORD_COLORS = {v: k for k, v in _COLOR_WORDS.items()}


def class_name(tile: Tile) -> str:
    if tile.color is None:
        return "joker"
    return f"{_COLOR_WORDS[tile.color]}_{tile.number}"


def tile_from_class_name(name: str) -> Tile:
    """Raises: NotationError for an unknown class name."""
    if name == "joker":
        return JOKER
    word, _, digits = name.partition("_")
    if word not in _WORD_COLORS or not re.fullmatch("[0-9]+", digits) or not 1 <= int(digits) <= 13:
        raise NotationError(f"unknown tile class {quote(name)}", name)
    return Tile(_WORD_COLORS[word], int(digits))


CLASS_NAMES: tuple[str, ...] = tuple(sorted([class_name(t) for t in ALL_FACES] + ["joker"]))
CLASS_INDEX: dict[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}


def class_id(tile: Tile) -> int:
    return CLASS_INDEX[class_name(tile)]


_CLASS_TILES: tuple[Tile, ...] = tuple(tile_from_class_name(name) for name in CLASS_NAMES)


def tile_from_class_id(index: int) -> Tile:
    return _CLASS_TILES[index]
