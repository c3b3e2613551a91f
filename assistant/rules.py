"""Rule presets: the one place that knows how the editions and house rules differ.

A `Rules` value is frozen. `find_preset("standard")` returns a preset; house variants compose with `+`,
e.g. `find_preset("standard+reduced-opening+gentle-joker")`. Every other module reads fields of `Rules`
and never branches on a preset's name.

Sources (in `../shared/rules/`):
- standard: 000_*.txt (106 tiles, opening 30, joker on a rack 30 points, 2-4 players).
- goliath: 001_*.txt (joker on a rack 25; colours printed black/red/blue/yellow).
- six-player: 002_*.txt (160 tiles: three copies, 4 jokers, up to 6 players; joker 30; 1-minute turns,
  3 penalty tiles for an incomplete move; the match is won on games won, ties broken by score).
- tournament: 004_*.txt (joker on a rack 50; failed opening 100/200; 1-minute turns, 3 penalty tiles;
  most game wins advances, ties broken by cumulative score).
- house variants: 000_*.txt section 6.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.errors import InputError
from assistant.tiles import Color, Tile


class PresetError(InputError):
    """An unknown preset or house-rule name."""


@dataclass(frozen=True)
class Rules:
    """Everything a verdict or a score depends on. Build with `find_preset`, adjust with `with_house`."""

    name: str = "standard"
    source: str = "000_*.txt"
    copies: int = 2
    jokers: int = 2
    min_players: int = 2
    max_players: int = 4
    opening_threshold: int = 30
    joker_penalty: int = 30
    failed_move_penalty_tiles: int = 1
    turn_seconds: int | None = None
    # (could not have melded, chose not to meld); 004_*.txt only.
    failed_opening_penalty: tuple[int, int] | None = None
    # 000_*.txt section 4: a retrieved joker must be used on the table in the same turn.
    # The gentle joker rule (section 6) lets it go back to the rack.
    retrieved_joker_to_rack: bool = False
    # How the match winner is found: "score" (highest cumulative total, 000_*.txt section 5) or
    # "wins" (most games won, ties broken by score: 002_*.txt, 004_*.txt, simple win counting).
    match_decided_by: str = "score"
    # Simple win counting (000_*.txt section 6): one win per round, no tile arithmetic.
    simple_win_counting: bool = False
    # Partnership play (000_*.txt section 6): four players, opposite partners combine round scores.
    partnership: bool = False
    # Short match (000_*.txt section 6): three rounds. None: as many as agreed.
    match_rounds: int | None = None
    # How the edition prints the colour the notation calls orange (`y` reads as orange).
    orange_label: str = "orange"
    house: tuple[str, ...] = ()

    @property
    def tile_count(self) -> int:
        """Tiles in the box: 106 for two copies and 2 jokers, 160 for three copies and 4 jokers."""
        return 52 * self.copies + self.jokers

    @property
    def label(self) -> str:
        """`standard`, or `standard+gentle-joker` with house rules."""
        return "+".join((self.name, *self.house))

    def tile_value_on_rack(self, tile: Tile) -> int:
        """Penalty a tile left on a rack carries: face value, or the preset's joker penalty."""
        return self.joker_penalty if tile.is_joker else tile.points

    def color_label(self, color: Color) -> str:
        """The colour's name as this edition prints it (Goliath: yellow for orange)."""
        return self.orange_label if color is Color.ORANGE else color.label

    def describe(self, tile: Tile) -> str:
        """`red 5`, `yellow 7` (Goliath), `joker`."""
        if tile.color is None:
            return "joker"
        return f"{self.color_label(tile.color)} {tile.number}"

    def with_house(self, *names: str) -> Rules:
        """These rules with house variants applied (000_*.txt section 6).

        Raises:
            PresetError: an unknown house-rule name.
        """
        rules = self
        for raw in names:
            key = _normalise(raw)
            key = _HOUSE_ALIASES.get(key, key)
            if key not in HOUSE_RULES:
                known = ", ".join(sorted(HOUSE_RULES))
                raise PresetError(f"unknown house rule {raw!r} (known: {known})")
            if key in rules.house:
                continue
            changes = HOUSE_RULES[key]
            rules = dataclasses.replace(rules, **changes, house=(*rules.house, key))
        return rules


def rack_value(tiles: Iterable[Tile], rules: Rules) -> int:
    """Points a rack counts at the end of a round: face values, jokers at the preset's penalty."""
    return sum(rules.tile_value_on_rack(tile) for tile in tiles)


def joker_penalty(rules: Rules) -> int:
    """Points a joker left on a rack counts under these rules (30, 25 or 50)."""
    return rules.joker_penalty


STANDARD = Rules()

GOLIATH = dataclasses.replace(
    STANDARD, name="goliath", source="001_*.txt", joker_penalty=25, orange_label="yellow"
)

SIX_PLAYER = dataclasses.replace(
    STANDARD,
    name="six-player",
    source="002_*.txt",
    copies=3,
    jokers=4,
    max_players=6,
    turn_seconds=60,
    failed_move_penalty_tiles=3,
    match_decided_by="wins",
)

TOURNAMENT = dataclasses.replace(
    STANDARD,
    name="tournament",
    source="004_*.txt",
    joker_penalty=50,
    failed_opening_penalty=(100, 200),
    turn_seconds=60,
    failed_move_penalty_tiles=3,
    match_decided_by="wins",
)

PRESETS: dict[str, Rules] = {r.name: r for r in (STANDARD, GOLIATH, SIX_PLAYER, TOURNAMENT)}

_PRESET_ALIASES = {"default": "standard", "six": "six-player", "sixplayer": "six-player", "6": "six-player"}

# House variants of 000_*.txt section 6 that change a verdict or a score, as field changes.
HOUSE_RULES: dict[str, dict[str, object]] = {
    "reduced-opening": {"opening_threshold": 20},
    "no-threshold": {"opening_threshold": 0},
    "failed-move-penalty": {"failed_move_penalty_tiles": 3},
    "gentle-joker": {"retrieved_joker_to_rack": True},
    "simple-win-counting": {"simple_win_counting": True, "match_decided_by": "wins"},
    "partnership": {"partnership": True},
    "short-match": {"match_rounds": 3},
    "turn-timer": {"turn_seconds": 120},
}

_HOUSE_ALIASES = {
    "reduced-opening-total": "reduced-opening",
    "opening-20": "reduced-opening",
    "no-opening-threshold": "no-threshold",
    "penalty-3": "failed-move-penalty",
    "gentle-joker-rule": "gentle-joker",
    "simple-wins": "simple-win-counting",
    "partners": "partnership",
    "partnership-play": "partnership",
    "timer": "turn-timer",
}


def _normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def find_preset(name: str) -> Rules:
    """The preset called `name`, with any `+house-rule` suffixes applied.

    >>> find_preset("goliath").joker_penalty
    25
    >>> find_preset("standard+reduced-opening").opening_threshold
    20

    Raises:
        PresetError: an unknown preset or house-rule name.
    """
    base, *house = _normalise(name).split("+")
    base = _PRESET_ALIASES.get(base, base)
    if base not in PRESETS:
        known = ", ".join(PRESETS)
        raise PresetError(f"unknown rules preset {name!r} (known: {known}; add house rules with '+')")
    return PRESETS[base].with_house(*house)
