"""Turn judgement: given the table before and after a turn and the player's rack, was the turn legal?

Tables are compared as multisets of tiles: a tile "taken off the table" was there before and is missing
after; a tile "played" is new on the table and was on the rack. Sets are matched between the two tables
by their tiles (order inside a set matters only when it holds a joker, since there it decides what the
joker stands for). A table left as it was is a legal draw (CONTRACT.md).
"""

from __future__ import annotations

import enum
import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.rules import STANDARD, Rules
from assistant.sets import Reason, SetVerdict
from assistant.table import TableVerdict, check_table, count_problems
from assistant.tiles import JOKER, Tile, format_tiles


class TurnProblem(enum.Enum):
    TILE_TAKEN = "tile_taken"
    NOT_FROM_RACK = "not_from_rack"
    JOKER_NOT_REUSED = "joker_not_reused"
    MANIPULATION_BEFORE_OPENING = "manipulation_before_opening"
    OPENING_TOO_LOW = "opening_too_low"
    NO_OPENING_SET = "no_opening_set"
    SET_INVALID = "set_invalid"
    TOO_MANY_COPIES = "too_many_copies"
    NO_RACK_TILE = "no_rack_tile"


@dataclass(frozen=True)
class TurnVerdict:
    """`action` is "draw" when the table was left as it was, else "play".

    `meld_value` is the opening meld's value (rack tiles only, jokers as what they stand for) when a
    player who had not opened plays; None for a draw or a player who had opened. `penalty_tiles` is
    what an illegal turn costs under the preset after the table is restored (000_*.txt sections 4
    and 6, 002_*.txt, 004_*.txt).
    """

    legal: bool
    action: str
    played: tuple[Tile, ...]
    reasons: tuple[Reason, ...]
    meld_value: int | None
    table: TableVerdict
    taken: tuple[Tile, ...] = ()
    jokers_to_rack: int = 0
    penalty_tiles: int = 0

    @property
    def codes(self) -> set[TurnProblem]:
        return {r.code for r in self.reasons}  # type: ignore[misc]


_SORT_KEY = operator.attrgetter("sort_key")


def _set_key(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    if any(t.is_joker for t in tiles):
        return tuple(tiles)
    return tuple(sorted(tiles, key=_SORT_KEY))


def _name_counted(tiles: Counter[Tile], rules: Rules) -> str:
    """`red 5`, `2 blue 9s and joker`."""
    parts = []
    for tile, count in sorted(tiles.items()):
        name = rules.describe(tile)
        parts.append(name if count == 1 else f"{count} {name}s")
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _verb(tiles: Counter[Tile], singular: str, plural: str) -> str:
    return singular if sum(tiles.values()) == 1 else plural


def judge_turn(
    before: Sequence[Sequence[Tile]],
    after: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    opened: bool,
    rules: Rules = STANDARD,
    threshold: int | None = None,
) -> TurnVerdict:
    """Judge one turn. `rack` is the player's rack before the turn; `opened` whether they had already
    made their opening meld on an earlier turn. `threshold` overrides the preset's opening threshold."""
    table = check_table(after, rules)
    before_keys = Counter(_set_key(s) for s in before)
    after_keys = Counter(_set_key(s) for s in after)
    if before_keys == after_keys:
        return TurnVerdict(True, "draw", (), (), None, table)

    before_tiles = Counter(t for s in before for t in s)
    after_tiles = Counter(t for s in after for t in s)
    rack_tiles = Counter(rack)
    added = after_tiles - before_tiles
    taken = before_tiles - after_tiles
    from_rack = added & rack_tiles
    not_from_rack = added - rack_tiles
    played = _in_table_order(after, from_rack)
    reasons: list[Reason] = []

    taken_numbered = Counter({t: n for t, n in taken.items() if not t.is_joker})
    jokers_off = taken[JOKER]
    if taken_numbered:
        verb = _verb(taken_numbered, "was", "were")
        reasons.append(
            Reason(
                TurnProblem.TILE_TAKEN,
                f"{_name_counted(taken_numbered, rules)} {verb} taken off the table: tiles played stay there",
            )
        )
    if not_from_rack:
        reasons.append(
            Reason(
                TurnProblem.NOT_FROM_RACK,
                f"{_name_counted(not_from_rack, rules)} did not come from the player's rack",
            )
        )
    if jokers_off and not rules.retrieved_joker_to_rack:
        jokers = "a retrieved joker was" if jokers_off == 1 else f"{jokers_off} retrieved jokers were"
        reasons.append(
            Reason(
                TurnProblem.JOKER_NOT_REUSED,
                f"{jokers} not used again on the table: a freed joker must be played in the same turn",
            )
        )

    meld_value: int | None = None
    if not opened:
        meld_value = _check_opening(before_keys, after_keys, table, from_rack, rules, threshold, reasons)

    for index, verdict in enumerate(table.sets, start=1):
        if not verdict.valid:
            reasons.append(
                Reason(
                    TurnProblem.SET_INVALID,
                    f"set {index} ({format_tiles(verdict.tiles)}) is left invalid: {verdict.reason}",
                )
            )
    for problem in count_problems((t for s in after for t in s), rules):
        reasons.append(Reason(TurnProblem.TOO_MANY_COPIES, problem))
    if not from_rack:
        reasons.append(
            Reason(
                TurnProblem.NO_RACK_TILE,
                "no tile from the rack was played: a turn that changes the table must add a rack tile",
            )
        )

    legal = not reasons
    return TurnVerdict(
        legal,
        "play",
        played,
        tuple(reasons),
        meld_value,
        table,
        taken=tuple(sorted(taken.elements())),
        jokers_to_rack=jokers_off if legal else 0,
        penalty_tiles=0 if legal else rules.failed_move_penalty_tiles,
    )


def _in_table_order(after: Sequence[Sequence[Tile]], tiles: Counter[Tile]) -> tuple[Tile, ...]:
    """The tiles of the `tiles` multiset, in the order they lie on the table after the turn."""
    remaining = Counter(tiles)
    ordered = []
    for tile in (t for s in after for t in s):
        if remaining[tile] > 0:
            remaining[tile] -= 1
            ordered.append(tile)
    return tuple(ordered)


def _check_opening(
    before_keys: Counter[tuple[Tile, ...]],
    after_keys: Counter[tuple[Tile, ...]],
    table: TableVerdict,
    from_rack: Counter[Tile],
    rules: Rules,
    threshold: int | None,
    reasons: list[Reason],
) -> int:
    """Reasons against an opening turn (000_*.txt section 3, 004_*.txt); returns the meld's value.

    Before and during the opening meld the table's sets must stay exactly as they were; the new sets
    count only their rack tiles.
    """
    changed = before_keys - after_keys
    if changed:
        names = "; ".join(format_tiles(list(key)) for key in changed.elements())
        reasons.append(
            Reason(
                TurnProblem.MANIPULATION_BEFORE_OPENING,
                f"the table's sets were changed ({names}) before the opening meld was complete: "
                "until then only new sets from the rack may be laid",
            )
        )
    new_keys = after_keys - before_keys
    new_sets = _verdicts_for(new_keys, table.sets)
    value = _rack_value_of(new_sets, Counter(from_rack))
    needed = rules.opening_threshold if threshold is None else threshold
    if not new_sets:
        reasons.append(
            Reason(TurnProblem.NO_OPENING_SET, "no new set was laid: an opening meld is one or more new sets")
        )
    elif value < needed:
        reasons.append(
            Reason(
                TurnProblem.OPENING_TOO_LOW,
                f"the opening meld is worth {value} points, the {rules.label} rules need {needed}",
            )
        )
    return value


def _verdicts_for(keys: Counter[tuple[Tile, ...]], verdicts: Sequence[SetVerdict]) -> list[SetVerdict]:
    remaining = Counter(keys)
    chosen = []
    for verdict in verdicts:
        key = _set_key(verdict.tiles)
        if remaining[key] > 0:
            remaining[key] -= 1
            chosen.append(verdict)
    return chosen


def _rack_value_of(sets: Sequence[SetVerdict], rack_left: Counter[Tile]) -> int:
    """Value of the valid sets counting only tiles that came from the rack, jokers as what they stand for."""
    total = 0
    for verdict in sets:
        reading = verdict.reading
        if reading is None:
            continue
        for tile, number in zip(verdict.tiles, reading.numbers, strict=True):
            if rack_left[tile] > 0:
                rack_left[tile] -= 1
                total += number
    return total
