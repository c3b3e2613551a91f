"""Turn judgement: given the table before and after a turn and the player's rack, was the turn legal?

Tables are compared as multisets of tiles: a tile "taken off the table" was there before and is missing
after; a tile "played" is new on the table and was on the rack. Sets are matched between the two tables
by their tiles (order inside a set matters only when it holds a joker, since there it decides what the
joker stands for). A table left as it was is a draw (CONTRACT.md), legal unless the preset's discard
rules (003_*.txt) say otherwise. The rules each check rests on: docs/rules.md.
"""

from __future__ import annotations

import enum
import operator
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from assistant.rules import STANDARD, Rules
from assistant.sets import Reason, SetVerdict, check_set
from assistant.supply import check_supply
from assistant.table import TableVerdict, check_table, count_problems
from assistant.tiles import COLORS, JOKER, Tile, format_tiles


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
    DRAWN_TILE_PLAYED = "drawn_tile_played"
    PLAYED_AFTER_DRAWING = "played_after_drawing"
    TWO_TILES_TAKEN = "two_tiles_taken"
    NO_DISCARD_PILE = "no_discard_pile"
    NO_DISCARD = "no_discard"
    DISCARD_NOT_FROM_RACK = "discard_not_from_rack"
    DISCARD_TAKEN_BEFORE_OPENING = "discard_taken_before_opening"
    TAKEN_DISCARD_NOT_PLAYED = "taken_discard_not_played"
    NO_TRUMP = "no_trump"
    TRUMP_NOT_ON_A_MELD = "trump_not_on_a_meld"
    TRUMP_NOT_GOING_OUT = "trump_not_going_out"
    JOKER_REPLACEMENT_NOT_FROM_RACK = "joker_replacement_not_from_rack"


@dataclass(frozen=True)
class TurnVerdict:
    """`action` is "draw" when the table was left as it was, else "play".

    `meld_value` is the opening meld's value (rack tiles only, jokers as what they stand for) when a
    player who had not opened plays; None for a draw or a player who had opened. `penalty_tiles` is
    what an illegal turn costs under the preset after the table is restored (000_*.txt sections 4
    and 6, 002_*.txt, 004_*.txt).

    A draw can be illegal too: a discard missing or not from the rack, a taken discard not played.
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
    discard: Tile | None = None
    # The rack after a legal turn (003_*.txt's accounting: the rack before, plus the tile drawn or taken,
    # equals this plus the tiles played plus the discard). After an illegal turn: the rack as it was, plus
    # a tile drawn from the pool (a taken discard or trump goes back); penalty tiles not counted.
    rack_after: tuple[Tile, ...] = ()
    # The tile drawn from the pool or taken (discard, trump) this turn, when the caller named it.
    picked_up: tuple[Tile, ...] = ()

    @property
    def went_out(self) -> bool:
        """A legal turn that left the rack empty: the player has won the round."""
        return self.legal and not self.rack_after

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
    *,
    discard: Tile | None = None,
    took_discard: Tile | None = None,
    drew: Tile | None = None,
    took_trump: Tile | None = None,
) -> TurnVerdict:
    """Judge one turn. `rack` is the player's rack before the turn; `opened` whether they had already
    made their opening meld on an earlier turn. `threshold` overrides the preset's opening threshold.

    `drew` is a tile drawn from the pool this turn, `took_discard` the left neighbour's top discard and
    `took_trump` the trump, each taken instead of drawing (003_*.txt), none of them on `rack`; `discard` the
    tile laid on the player's discard pile to end the turn (003_*.txt). `rules.turn_inputs` says which of
    these a preset uses.

    Raises:
        SupplyError: the table, the rack and the tiles taken hold more copies of a tile than the edition has.
    """
    picked_up = [t for t in (drew, took_discard, took_trump) if t is not None]
    check_supply([*(t for s in before for t in s), *rack, *picked_up], rules)
    table = check_table(after, rules)
    before_keys = Counter(_set_key(s) for s in before)
    after_keys = Counter(_set_key(s) for s in after)
    hand = Counter(rack) + Counter(picked_up)
    is_draw = before_keys == after_keys

    before_tiles = Counter(t for s in before for t in s)
    after_tiles = Counter(t for s in after for t in s)
    added = after_tiles - before_tiles
    taken = before_tiles - after_tiles
    from_rack = added & hand
    not_from_rack = added - hand
    played = _in_table_order(after, from_rack)
    reasons: list[Reason] = []
    group_released = False

    if not is_draw:
        taken_numbered = Counter({t: n for t, n in taken.items() if not t.is_joker})
        if taken_numbered:
            verb = _verb(taken_numbered, "was", "were")
            reasons.append(
                Reason(
                    TurnProblem.TILE_TAKEN,
                    f"{_name_counted(taken_numbered, rules)} {verb} taken off the table: "
                    "tiles played stay there",
                )
            )
        if not_from_rack:
            reasons.append(
                Reason(
                    TurnProblem.NOT_FROM_RACK,
                    f"{_name_counted(not_from_rack, rules)} did not come from the player's rack",
                )
            )
        if rules.flexible_joker:
            group_released = _flexible_joker_reasons(before, after, from_rack, rules, reasons)
    jokers_off = taken[JOKER]
    if jokers_off and (not rules.retrieved_joker_to_rack or group_released):
        jokers = "a retrieved joker was" if jokers_off == 1 else f"{jokers_off} retrieved jokers were"
        reasons.append(
            Reason(
                TurnProblem.JOKER_NOT_REUSED,
                f"{jokers} not used again on the table: a freed joker must be played in the same turn",
            )
        )

    meld_value: int | None = None
    if not opened and not is_draw:
        meld_value = _check_opening(before_keys, after_keys, table, from_rack, rules, threshold, reasons)

    if not is_draw:
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

    # What the hand holds once the tiles are played: a joker freed under the gentle rule is back in it.
    returned = jokers_off if rules.retrieved_joker_to_rack and not group_released else 0
    left = hand - from_rack + Counter({JOKER: returned})
    _pick_up_reasons(
        rules, opened, is_draw, rack, added, drew, took_discard, took_trump, before, after, reasons
    )
    if took_trump is not None and rules.trump_tile and left:
        count = sum(left.values())
        reasons.append(
            Reason(
                TurnProblem.TRUMP_NOT_GOING_OUT,
                f"the trump may be taken only to go out with it, but {count} tile{'s' * (count != 1)} "
                "would be left on the rack",
            )
        )
    rack_after = _discard_reasons(rules, discard, left, bool(from_rack), took_trump is not None, reasons)

    legal = not reasons
    return TurnVerdict(
        legal,
        "draw" if is_draw else "play",
        played,
        tuple(reasons),
        meld_value,
        table,
        taken=tuple(sorted(taken.elements())),
        jokers_to_rack=jokers_off if legal else 0,
        penalty_tiles=0 if legal else rules.failed_move_penalty_tiles,
        discard=discard,
        picked_up=tuple(picked_up),
        rack_after=tuple(sorted(rack_after.elements() if legal else [*rack, *([drew] if drew else [])])),
    )


def _pick_up_reasons(
    rules: Rules,
    opened: bool,
    is_draw: bool,
    rack: Sequence[Tile],
    added: Counter[Tile],
    drew: Tile | None,
    took_discard: Tile | None,
    took_trump: Tile | None,
    before: Sequence[Sequence[Tile]],
    after: Sequence[Sequence[Tile]],
    reasons: list[Reason],
) -> None:
    """Reasons against the tile drawn or taken this turn (000_*.txt sections 4 and 6, 002_*.txt,
    003_*.txt)."""
    picked = [t for t in (drew, took_discard, took_trump) if t is not None]
    if len(picked) > 1:
        reasons.append(
            Reason(
                TurnProblem.TWO_TILES_TAKEN,
                "a turn takes at most one tile: draw from the pool, take the discard or take the trump, "
                "not two of them",
            )
        )
    if drew is not None and not is_draw:
        name = rules.describe(drew)
        if rules.drawn_tile == "next-turn":
            if added[drew] > Counter(rack)[drew]:
                text = (
                    f"the {name} was drawn this turn: a drawn tile can be played on your next turn, "
                    "not this one"
                )
                reasons.append(Reason(TurnProblem.DRAWN_TILE_PLAYED, text))
            else:
                text = "a tile was drawn this turn: drawing ends the turn, so nothing more may be played"
                reasons.append(Reason(TurnProblem.PLAYED_AFTER_DRAWING, text))
        elif rules.drawn_tile == "at-once" and not added[drew]:
            text = (
                f"after drawing, the only play allowed is one that uses the drawn {name} "
                "(immediate use of a drawn tile)"
            )
            reasons.append(Reason(TurnProblem.PLAYED_AFTER_DRAWING, text))
    if took_discard is not None:
        if not rules.discard_pile:
            reasons.append(
                Reason(
                    TurnProblem.NO_DISCARD_PILE,
                    f"the {rules.label} rules have no discard pile, so there is no discard to take",
                )
            )
        else:
            if not opened:
                reasons.append(
                    Reason(
                        TurnProblem.DISCARD_TAKEN_BEFORE_OPENING,
                        "a discard may be taken only after your opening meld; before it, draw from the pool",
                    )
                )
            if not added[took_discard]:
                reasons.append(
                    Reason(
                        TurnProblem.TAKEN_DISCARD_NOT_PLAYED,
                        f"the discard you took ({rules.describe(took_discard)}) must be played this turn: "
                        "a taken discard may not go onto your rack",
                    )
                )
    if took_trump is not None:
        if not rules.trump_tile:
            reasons.append(
                Reason(
                    TurnProblem.NO_TRUMP, f"the {rules.label} rules have no trump tile at the end of the pool"
                )
            )
        elif not _added_to_a_meld(took_trump, before, after):
            reasons.append(
                Reason(
                    TurnProblem.TRUMP_NOT_ON_A_MELD,
                    f"the trump ({rules.describe(took_trump)}) must be added to a meld already on the table",
                )
            )


def _added_to_a_meld(tile: Tile, before: Sequence[Sequence[Tile]], after: Sequence[Sequence[Tile]]) -> bool:
    """Is `tile` in a set after the turn that holds every tile of some set that was there before?"""
    for laid in after:
        rest = Counter(laid)
        if not rest[tile]:
            continue
        rest[tile] -= 1
        if any(not Counter(old) - rest for old in before):
            return True
    return False


def _discard_reasons(
    rules: Rules,
    discard: Tile | None,
    left: Counter[Tile],
    played: bool,
    took_trump: bool,
    reasons: list[Reason],
) -> Counter[Tile]:
    """Reasons against the discard (003_*.txt); returns the rack left after the turn."""
    if not rules.discard_pile:
        if discard is not None:
            reasons.append(
                Reason(
                    TurnProblem.NO_DISCARD_PILE,
                    f"the {rules.label} rules have no discard pile: a turn does not end with a discard",
                )
            )
        return left
    if discard is None:
        if left and not took_trump:
            reasons.append(
                Reason(
                    TurnProblem.NO_DISCARD,
                    "the turn must end with a discard: lay one tile from your rack face up on your "
                    "discard pile",
                )
            )
        return left
    if not left[discard]:
        where = "left on your rack after the play" if played else "on your rack"
        reasons.append(
            Reason(
                TurnProblem.DISCARD_NOT_FROM_RACK,
                f"the discard must come from your rack, and no {rules.describe(discard)} is {where}",
            )
        )
        return left
    return left - Counter([discard])


def _flexible_joker_reasons(
    before: Sequence[Sequence[Tile]],
    after: Sequence[Sequence[Tile]],
    from_rack: Counter[Tile],
    rules: Rules,
    reasons: list[Reason],
) -> bool:
    """Flexible joker replacement (000_*.txt section 6): a joker leaves a group only when every missing
    colour is added from the rack. Returns whether a joker left a group this turn."""
    unused = Counter(from_rack)
    released_any = False
    for old in before:
        if JOKER not in old or any(not Counter(old) - Counter(laid) for laid in after):
            continue  # no joker, or the set's tiles (jokers included) are still together
        reading = check_set(old, rules).reading
        if reading is None or reading.kind != "group":
            continue
        released_any = True
        number = next(t.number for t in old if not t.is_joker)
        present = {t.color for t in old if not t.is_joker}
        missing = [Tile(c, number) for c in COLORS if c not in present]
        lacking = [t for t in missing if not unused[t]]
        unused -= Counter(t for t in missing if unused[t])
        if lacking:
            names = " and ".join(rules.describe(t) for t in missing)
            reasons.append(
                Reason(
                    TurnProblem.JOKER_REPLACEMENT_NOT_FROM_RACK,
                    f"the joker left the group {format_tiles(list(old))} without {names} from the rack: "
                    "under flexible joker replacement every missing colour comes from the active "
                    "player's rack",
                )
            )
    return released_any


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
