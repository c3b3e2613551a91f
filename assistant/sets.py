"""One set on the table: group, run or invalid, with each joker's identity read from its position.

Tiles are given in physical order, left to right. A run is read low to high: `J r5 r6` is red 4-5-6 and
`r5 r6 J` is red 5-6-7 (CONTRACT.md). Groups hold 3-4 tiles of one number in different colours; runs hold
3-13 tiles of one colour in consecutive numbers; 1 is only the low end and 13 is never followed by 1
(000_*.txt section 1, 001_*.txt, 002_*.txt).

A set with at most one numbered tile can be read more than one way (`r5 J J` is red 5-6-7 or a group of
5s). `SetVerdict.readings` lists every reading; the verdict's own kind, value and jokers are those of the
reading worth most, which is the one a player would claim.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from assistant.rules import STANDARD, Rules
from assistant.tiles import COLORS, NUMBERS, Color, Tile

MAX_GROUP = 4
MAX_RUN = len(NUMBERS)
MIN_SET = 3


class SetProblem(enum.Enum):
    TOO_FEW_TILES = "too_few_tiles"
    TOO_MANY_JOKERS = "too_many_jokers"
    GROUP_TOO_LONG = "group_too_long"
    DUPLICATE_COLOR = "duplicate_color"
    MIXED_NUMBERS = "mixed_numbers"
    MIXED_COLORS = "mixed_colors"
    GAP = "gap"
    CROWDED = "crowded"
    REPEATED_NUMBER = "repeated_number"
    DESCENDING = "descending"
    WRAP_AROUND = "wrap_around"
    JOKER_AFTER_13 = "joker_after_13"
    JOKER_BEFORE_1 = "joker_before_1"
    RUN_TOO_LONG = "run_too_long"
    NOT_A_SET = "not_a_set"


@dataclass(frozen=True)
class Reason:
    """Why something is not allowed: a code to test against and a sentence a player understands."""

    code: enum.Enum
    text: str

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Reading:
    """One way to read a valid set: its kind, what each joker stands for, and its value.

    `jokers` has one entry per joker in position order; an entry is None where the joker's colour is
    open (a joker in a group of three, or a run made only of jokers). `numbers` gives the number at
    every position, so the value is always known.
    """

    kind: str
    numbers: tuple[int, ...]
    jokers: tuple[Tile | None, ...]
    color: Color | None = None

    @property
    def value(self) -> int:
        return sum(self.numbers)

    def describe(self) -> str:
        """`red 5-6-7`, `group of 5s`, `run 11-12-13 (any colour)`."""
        if self.kind == "group":
            return f"group of {self.numbers[0]}s"

        span = "-".join(str(n) for n in self.numbers)
        return f"{self.color.label} {span}" if self.color else f"run {span} (any colour)"


@dataclass(frozen=True)
class SetVerdict:
    """The verdict on one set. `value` is None and `kind` None when the set is invalid."""

    tiles: tuple[Tile, ...]
    valid: bool
    kind: str | None
    value: int | None
    jokers: tuple[Tile | None, ...] = ()
    reasons: tuple[Reason, ...] = ()
    readings: tuple[Reading, ...] = field(default=())

    @property
    def reason(self) -> str | None:
        """All reasons as one sentence, or None for a valid set."""
        if not self.reasons:
            return None
        return "; ".join(r.text for r in self.reasons)

    @property
    def ambiguous(self) -> bool:
        return len(self.readings) > 1

    @property
    def reading(self) -> Reading | None:
        """The reading the verdict reports (worth most; readings are best first), None if invalid."""
        return self.readings[0] if self.readings else None


def check_set(tiles: Sequence[Tile], rules: Rules = STANDARD) -> SetVerdict:
    """Decide whether `tiles`, in physical order, form a group, a run, or nothing valid."""
    tiles = tuple(tiles)
    joker_count = sum(t.is_joker for t in tiles)
    if len(tiles) < MIN_SET:
        count = {0: "no tiles", 1: "only 1 tile"}.get(len(tiles), f"only {len(tiles)} tiles")
        reason = Reason(SetProblem.TOO_FEW_TILES, f"{count}: a set needs at least 3")
        return SetVerdict(tiles, False, None, None, reasons=(reason,))
    if joker_count > rules.jokers:
        reason = Reason(
            SetProblem.TOO_MANY_JOKERS,
            f"{joker_count} jokers in one set, but the {rules.name} edition has only {rules.jokers}",
        )
        return SetVerdict(tiles, False, None, None, reasons=(reason,))

    # Best first: the highest value, a run before a group of equal value.
    readings = sorted(
        _group_readings(tiles) + _run_readings(tiles), key=lambda r: (-r.value, r.kind != "run")
    )
    if readings:
        best = readings[0]
        return SetVerdict(tiles, True, best.kind, best.value, best.jokers, (), tuple(readings))
    return SetVerdict(tiles, False, None, None, reasons=tuple(_diagnose(tiles, rules)))


def is_valid_set(tiles: Sequence[Tile], rules: Rules = STANDARD) -> bool:
    """`check_set(tiles, rules).valid`, without working out the readings or the reasons (the reader's
    correction asks this of hundreds of candidate readings per frame)."""
    count = len(tiles)
    if count < MIN_SET:
        return False
    naturals = [t for t in tiles if not t.is_joker]
    if count - len(naturals) > rules.jokers:
        return False
    colors = [t.color for t in naturals]
    if count <= MAX_GROUP and len({t.number for t in naturals}) <= 1 and len(set(colors)) == len(colors):
        return True  # a group (all jokers: of any number)
    if count > MAX_RUN or len(set(colors)) > 1:
        return False
    starts = {t.number - i for i, t in enumerate(tiles) if not t.is_joker}
    if not starts:
        return True  # all jokers: a run starting at 1
    if len(starts) > 1:
        return False
    start = next(iter(starts))
    return start >= 1 and start + count - 1 <= MAX_RUN


# --- readings of valid sets -------------------------------------------------------------------------


def _group_readings(tiles: tuple[Tile, ...]) -> list[Reading]:
    if len(tiles) > MAX_GROUP:
        return []
    naturals = [t for t in tiles if not t.is_joker]
    numbers = {t.number for t in naturals}
    colors = [t.color for t in naturals]
    if len(numbers) > 1 or len(set(colors)) != len(colors):
        return []
    candidates = sorted(numbers) if numbers else list(NUMBERS)
    missing = [c for c in COLORS if c not in colors]
    joker_count = len(tiles) - len(naturals)
    readings = []
    for number in candidates:
        # A joker's colour is determined only when exactly one colour is free for exactly one joker.
        if joker_count == 1 and len(missing) == 1:
            jokers: tuple[Tile | None, ...] = (Tile(missing[0], number),)
        else:
            jokers = (None,) * joker_count
        readings.append(Reading("group", (number,) * len(tiles), jokers))
    return readings


def _run_readings(tiles: tuple[Tile, ...]) -> list[Reading]:
    if len(tiles) > MAX_RUN:
        return []
    naturals = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    colors = {t.color for _, t in naturals}
    if len(colors) > 1:
        return []
    starts = {t.number - i for i, t in naturals}
    if len(starts) > 1:
        return []
    candidates = sorted(starts) if starts else list(range(1, MAX_RUN - len(tiles) + 2))
    color = next(iter(colors)) if colors else None
    readings = []
    for start in candidates:
        if start < 1 or start + len(tiles) - 1 > MAX_RUN:
            continue
        numbers = tuple(range(start, start + len(tiles)))
        jokers = tuple(Tile(color, numbers[i]) if color else None for i, t in enumerate(tiles) if t.is_joker)
        readings.append(Reading("run", numbers, jokers, color))
    return readings


# --- reasons for invalid sets -----------------------------------------------------------------------


def _diagnose(tiles: tuple[Tile, ...], rules: Rules) -> list[Reason]:
    """Reasons for an invalid set, phrased for what the player was most likely building."""
    naturals = [t for t in tiles if not t.is_joker]
    same_number = max(Counter(t.number for t in naturals).values())
    same_color = max(Counter(t.color for t in naturals).values())
    if len(naturals) >= 2 and same_number < 2 and same_color < 2:
        numbers = ", ".join(str(t.number) for t in naturals)
        return [
            Reason(
                SetProblem.NOT_A_SET,
                f"not a set: the numbers differ ({numbers}) and so do the colours; a group needs one number "
                "in different colours, a run one colour in consecutive numbers",
            )
        ]
    group_reasons = _group_problems(tiles, rules)
    run_reasons = _run_problems(tiles, rules)
    if same_number > same_color:
        return group_reasons
    if same_color > same_number or len(tiles) > MAX_GROUP:
        return run_reasons
    return min(group_reasons, run_reasons, key=len)


def _group_problems(tiles: tuple[Tile, ...], rules: Rules) -> list[Reason]:
    naturals = [t for t in tiles if not t.is_joker]
    number = Counter(t.number for t in naturals).most_common(1)[0][0]
    reasons = []
    for tile, count in Counter(t for t in naturals if t.number != number).items():
        text = f"{rules.describe(tile)}{_copies(count)} does not belong in the group of {number}s"
        reasons.append(Reason(SetProblem.MIXED_NUMBERS, text))
    color_counts = Counter(t.color for t in naturals if t.number == number)
    for color, count in color_counts.items():
        if count > 1:
            reasons.append(
                Reason(
                    SetProblem.DUPLICATE_COLOR,
                    f"{rules.color_label(color)} appears {_times(count)} in the group of {number}s",
                )
            )
    if len(tiles) > MAX_GROUP:
        reasons.append(
            Reason(SetProblem.GROUP_TOO_LONG, f"a group holds at most 4 tiles, this one has {len(tiles)}")
        )
    return reasons


def _run_problems(tiles: tuple[Tile, ...], rules: Rules) -> list[Reason]:
    naturals = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    color = Counter(t.color for _, t in naturals).most_common(1)[0][0]
    reasons = []
    for tile, count in Counter(t for _, t in naturals if t.color != color).items():
        run = _with_article(rules.color_label(color))
        text = f"{rules.describe(tile)}{_copies(count)} in {run} run: a run is one colour"
        reasons.append(Reason(SetProblem.MIXED_COLORS, text))
    numbers = Counter(t.number for _, t in naturals)
    for (i, left), (j, right) in zip(naturals, naturals[1:], strict=False):
        for reason in _pair_problems(i, left, j, right):
            if reason.code is SetProblem.REPEATED_NUMBER:
                text = f"{left.number} appears {_times(numbers[left.number])} in the run"
                reason = Reason(SetProblem.REPEATED_NUMBER, text)
            # Each problem once (a 3000-tile run of r5 is one "appears 3000 times"); one "goes down" is
            # enough for a run laid high to low.
            if reason in reasons or (
                reason.code is SetProblem.DESCENDING and any(r.code is reason.code for r in reasons)
            ):
                continue
            reasons.append(reason)
    first_index, first = naturals[0]
    if first.number - first_index < 1:
        text = f"a joker cannot stand before 1 (it is left of the {first.number})"
        reasons.append(Reason(SetProblem.JOKER_BEFORE_1, text))
    last_index, last = naturals[-1]
    if last.number + (len(tiles) - 1 - last_index) > MAX_RUN:
        text = f"a joker cannot stand after 13 (it is right of the {last.number})"
        reasons.append(Reason(SetProblem.JOKER_AFTER_13, text))
    if len(tiles) > MAX_RUN:
        text = f"a run holds at most 13 tiles, this one has {len(tiles)}"
        reasons.append(Reason(SetProblem.RUN_TOO_LONG, text))
    return reasons


def _with_article(word: str) -> str:
    """`a black`, `an orange`."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def _times(count: int) -> str:
    return {1: "once", 2: "twice", 3: "three times"}.get(count, f"{count} times")


def _copies(count: int) -> str:
    """` (twice)` after a tile named in a reason when the set holds it more than once, else nothing."""
    return f" ({_times(count)})" if count > 1 else ""


def _pair_problems(i: int, left: Tile, j: int, right: Tile) -> list[Reason]:
    """Problems between two numbered tiles of a run at positions i < j (jokers may lie between)."""
    step = right.number - left.number
    slots = j - i
    a, b = left.number, right.number
    if step == slots:
        return []
    if left.number == MAX_RUN and right.number == 1:
        return [Reason(SetProblem.WRAP_AROUND, "13 cannot be followed by 1: runs do not wrap around")]
    if step == 0:
        return [Reason(SetProblem.REPEATED_NUMBER, f"{a} appears twice in the run")]
    if step < 0:
        return [Reason(SetProblem.DESCENDING, f"{b} comes after {a}: a run goes up from left to right")]
    if step > slots:
        if slots == 1:
            return [Reason(SetProblem.GAP, f"gap between {a} and {b}")]
        jokers = slots - 1
        plural = "s" * (jokers > 1)
        text = f"gap between {a} and {b}: {jokers} joker{plural} cannot fill {step - 1} missing numbers"
        return [Reason(SetProblem.GAP, text)]
    between = slots - 1
    return [
        Reason(
            SetProblem.CROWDED,
            f"too many tiles between {a} and {b}: {between} joker{'s' * (between > 1)} where "
            f"{step - 1} number{'s' * (step - 1 != 1)} fit",
        )
    ]
