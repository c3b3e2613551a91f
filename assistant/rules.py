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
- american: 003_*.txt (every turn ends with a discard onto one's own pile; after the opening meld the left
  neighbour's top discard may be taken instead of drawing, only to play it at once; the trump tile; joker 30).
- house variants: 000_*.txt section 6.

`docs/rules.md` lists every rule the engine applies, per preset, with its source and the decisions taken
where a text is silent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.errors import InputError, quote
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
    # When a tile drawn from the pool may be played: "next-turn" (000_*.txt section 4, 002_*.txt: drawing
    # ends the turn), "at-once" (immediate-draw, 000_*.txt section 6: the drawn tile may be played at once,
    # then the turn ends) or "this-turn" (003_*.txt: the draw opens the turn, which goes on to melds and
    # a discard).
    drawn_tile: str = "next-turn"
    # 003_*.txt: a turn ends with one rack tile laid face up on the player's own discard pile; after the
    # opening meld the left neighbour's top discard may be taken instead of drawing, to be played at once.
    discard_pile: bool = False
    # 003_*.txt: the last tile of the pool lies face up; it may be taken instead of drawing only to go out,
    # added to a meld already on the table.
    trump_tile: bool = False
    # Flexible joker replacement (000_*.txt section 6): a joker leaves a group only when both (all)
    # missing colours are added, each from the active player's rack, and it is reused at once.
    flexible_joker: bool = False
    # 002_*.txt: "a round is made up of multiple games", as many as there are players.
    games_per_round_by_players: bool = False
    # How the edition prints the colour the notation calls orange (`y` reads as orange).
    orange_label: str = "orange"
    house: tuple[str, ...] = ()

    @property
    def tile_count(self) -> int:
        """Tiles in the box: 106 for two copies and 2 jokers, 160 for three copies and 4 jokers."""
        return 52 * self.copies + self.jokers

    def copies_of(self, tile: Tile) -> int:
        """How many of `tile` the box holds: the jokers for a joker, else the copies of each tile."""
        return self.jokers if tile.is_joker else self.copies

    @property
    def turn_inputs(self) -> tuple[str, ...]:
        """What a turn needs besides the tables and the rack, in the order a screen asks for it:
        `discard`, `took_discard`, `took_trump` (003_*.txt) and `drew` (a drawn tile that may be played
        this turn). The names are `judge_turn`'s keyword arguments (`--discard` etc. on the CLI)."""
        inputs: list[str] = []
        if self.discard_pile:
            inputs += ["discard", "took_discard"]
        if self.trump_tile:
            inputs.append("took_trump")
        if self.drawn_tile != "next-turn":
            inputs.append("drew")
        return tuple(inputs)

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
                raise PresetError(f"unknown house rule {quote(raw)} (known: {known})")
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
    games_per_round_by_players=True,
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

# 003_*.txt. Where the text is silent (edition, opening threshold, rearranging, jokers) the standard rules
# apply; docs/rules.md names each decision and the sentence it rests on.
AMERICAN = dataclasses.replace(
    STANDARD,
    name="american",
    source="003_*.txt",
    discard_pile=True,
    trump_tile=True,
    drawn_tile="this-turn",
)

PRESETS: dict[str, Rules] = {r.name: r for r in (STANDARD, GOLIATH, SIX_PLAYER, TOURNAMENT, AMERICAN)}

_PRESET_ALIASES = {
    "default": "standard",
    "six": "six-player",
    "sixplayer": "six-player",
    "6": "six-player",
    "us": "american",
    "america": "american",
}

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
    "immediate-draw": {"drawn_tile": "at-once"},
    "flexible-joker": {"flexible_joker": True},
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
    "immediate-use": "immediate-draw",
    "immediate-use-of-a-drawn-tile": "immediate-draw",
    "flexible-joker-replacement": "flexible-joker",
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
        raise PresetError(f"unknown rules preset {quote(name)} (known: {known}; add house rules with '+')")
    return PRESETS[base].with_house(*house)
