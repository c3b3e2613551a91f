"""The move solver: exact plays that the turn judge accepts, in both editions."""

from __future__ import annotations

import functools
import itertools
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from assistant.rules import PRESETS, find_preset
from assistant.sets import check_set
from assistant.solver import (
    SolverInputError,
    best_opening_value,
    best_reading,
    can_open,
    solve,
    templates,
    tile_of_type,
)
from assistant.tiles import COLORS, JOKER, Tile, parse_layout, parse_tiles
from assistant.turn import judge_turn

STANDARD = find_preset("standard")
SIX = find_preset("six-player")
TOURNAMENT = find_preset("tournament")


def tiles(text: str) -> list[Tile]:
    return parse_tiles(text)


# ---------------------------------------------------------------- set readings agree with assistant.sets


def test_every_template_with_jokers_reads_as_assistant_sets_does() -> None:
    checked = 0
    for template in templates():
        for k in range(0, len(template.faces)):
            for places in itertools.combinations(range(len(template.faces)), k):
                laid = template.layout(places)
                reading = best_reading(laid)
                assert reading is not None, laid
                verdict = check_set(reading.layout, SIX)
                assert verdict.valid, reading.layout
                assert verdict.value == reading.value, reading.layout
                assert reading.value >= template.value
                assert Counter(reading.layout) == Counter(laid)
                checked += 1
    assert checked == 4 * (11 * 7 + 10 * 15 + 9 * 31) + 13 * (4 * 7 + 15)  # every run and group, 0+ jokers


@pytest.mark.parametrize(
    ("text", "layout", "value"),
    [
        ("r5 J J", "r5 J J", 18),  # red 5-6-7 beats a group of 5s and J J r5
        ("J J r13", "r13 J J", 39),  # a group of 13s (39) beats red 11-12-13 (36)
        ("r7 J r5", "r5 J r7", 18),
        ("k1 J", None, None),
        ("r5 b6 k7", None, None),
        ("J J J", "J J J", 39),
    ],
)
def test_best_reading_orders_jokers_by_position(text: str, layout: str | None, value: int | None) -> None:
    reading = best_reading(tiles(text))
    if layout is None:
        assert reading is None
    else:
        assert reading is not None
        assert list(reading.layout) == tiles(layout)
        assert reading.value == value
        assert check_set(reading.layout, SIX).value == value


@functools.cache
def _splits_into_short_runs(pattern: tuple[bool, ...]) -> bool:
    """Can a run (True = joker) be cut into pieces of 3-5 that each keep a real tile or are 3-4 jokers?"""
    if not pattern:
        return True
    for cut in (3, 4, 5):
        piece = pattern[:cut]
        if len(piece) == cut and (not all(piece) or cut <= 4):
            if _splits_into_short_runs(pattern[cut:]):
                return True
    return False


@pytest.mark.parametrize("jokers", [2, 4])
def test_long_runs_split_into_templates_keeping_joker_places(jokers: int) -> None:
    # The module docstring's claim: runs of 3-5 (plus sets of jokers only) are enough.
    for length in range(6, 14):
        for k in range(0, jokers + 1):
            for places in itertools.combinations(range(length), k):
                pattern = tuple(i in places for i in range(length))
                assert _splits_into_short_runs(pattern), (length, places)


# ---------------------------------------------------------------- plays, opened


@pytest.mark.parametrize(
    ("table", "rack", "placed"),
    [
        ("r4 r5 r6 r7 r8", "r3", 1),  # split the run: r3 r4 r5 | r6 r7 r8
        ("", "r6 r7 r8 J", 4),  # a joker at the end of a run of four
        ("k5 b5 r5", "o5 J r6 r7", 4),
        ("k5 b5 r5 o5", "k5", 0),  # a second black 5 has nowhere to go
        ("r1 r2 r3 | k1 b1 o1", "r4 J", 2),
        ("", "", 0),
        ("k9 k10 k11 | b9 b10 b11 | r9 r10 r11", "o9 o10 o11 o12", 4),
        ("J k5 k6", "k4 b6 o6", 3),  # k4 frees the joker, which joins b6 o6
        ("J k5 k6", "k5 b5", 0),  # k5 b5 J would leave k5 k6 alone
    ],
)
def test_opened_plays(table: str, rack: str, placed: int) -> None:
    before = parse_layout(table)
    play = solve(before, tiles(rack), STANDARD, opened=True)
    assert play.optimal and play.tiles == placed
    verdict = judge_turn(before, [list(s) for s in play.table], tiles(rack), True, STANDARD)
    assert verdict.legal, [r.text for r in verdict.reasons]
    assert Counter(verdict.played) == Counter(play.placed)


def test_sets_the_play_does_not_need_stay_as_they_were() -> None:
    before = parse_layout("o6 o7 o8 o9 o10 o11 o12 o13 | J k2 k3 | k4 k5 k6 k7 | r9 r10 r11")
    play = solve(before, tiles("b4 r4"), STANDARD, opened=True)
    assert play.tiles == 2
    after = [list(s) for s in play.table]
    assert after[:3] == [before[0], before[1], before[3]]  # in their order, jokers where they were
    assert tiles("k5 k6 k7") in after


def test_draw_leaves_the_table_exactly_as_it_was() -> None:
    before = parse_layout("k5 k6 k7 k8 | J r5 r6")
    play = solve(before, tiles("o1"), STANDARD, opened=True)
    assert play.is_draw
    assert [list(s) for s in play.table] == before


def test_ties_in_tiles_go_to_the_most_value() -> None:
    # The joker can be black 4 or black 10: both place 7 tiles, black 10 is worth more.
    play = solve([], tiles("k1 k2 k3 k11 k12 k13 J"), STANDARD, opened=True)
    assert play.tiles == 7 and play.value == 1 + 2 + 3 + 10 + 11 + 12 + 13
    assert tiles("J k11 k12 k13") in [list(s) for s in play.table]


def test_value_objective_prefers_points_over_tiles() -> None:
    # One joker: b1 b2 J b4 (4 tiles, 10 points) or J k12 k13 (3 tiles, 36 points).
    rack = tiles("b1 b2 b4 k12 k13 J")
    most_tiles = solve([], rack, STANDARD, opened=True, maximize="tiles")
    most_value = solve([], rack, STANDARD, opened=True, maximize="value")
    assert (most_tiles.tiles, most_tiles.value) == (4, 10)
    assert (most_value.tiles, most_value.value) == (3, 36)


def test_rack_joker_counts_as_the_tile_it_stands_for() -> None:
    play = solve([], tiles("r11 r12 J"), STANDARD, opened=True)
    assert play.value == 36  # J r11 r12 would be 33; r11 r12 J is 36
    assert [str(t) for t in play.table[0]] == ["r11", "r12", "J"]


# ---------------------------------------------------------------- plays, not opened


def test_opening_only_new_sets_from_the_rack() -> None:
    before = parse_layout("r4 r5 r6")
    rack = tiles("r7 k10 b10 o10")
    play = solve(before, rack, STANDARD, opened=False)
    # r7 could extend the table's run, but not before opening: only the group of 10s (30) is laid.
    assert Counter(play.placed) == Counter(tiles("k10 b10 o10"))
    assert [list(s) for s in play.table[:1]] == before
    verdict = judge_turn(before, [list(s) for s in play.table], rack, False, STANDARD)
    assert verdict.legal and verdict.meld_value == play.value == 30


def test_opening_below_threshold_is_a_draw() -> None:
    play = solve([], tiles("k1 k2 k3 b4 b5 b6"), STANDARD, opened=False)
    assert play.is_draw and play.optimal


def test_opening_threshold_override() -> None:
    play = solve([], tiles("k1 k2 k3 b4 b5 b6"), STANDARD, opened=False, threshold=21)
    assert play.tiles == 6 and play.value == 21


@pytest.mark.parametrize(
    ("rack", "threshold", "expected"),
    [
        ("r10 r11 r12", None, True),
        ("r9 r10 r11", None, True),
        ("r8 r9 r10 k1", None, False),  # 27
        ("r8 r9 J", None, False),  # at best r8 r9 J = 8 + 9 + 10 = 27
        ("k13 J J", None, True),  # group of 13s: 39
        ("k1 k2 k3", 6, True),
        ("k1 k2 k3", 7, False),
        ("", None, False),
    ],
)
def test_can_open(rack: str, threshold: int | None, expected: bool) -> None:
    value = best_opening_value(tiles(rack), TOURNAMENT)
    goal = TOURNAMENT.opening_threshold if threshold is None else threshold
    assert can_open(tiles(rack), TOURNAMENT, threshold) is expected
    assert (value >= goal) is expected


def test_best_opening_value_counts_jokers_as_what_they_stand_for() -> None:
    assert best_opening_value(tiles("r8 r9 J"), STANDARD) == 8 + 9 + 10
    assert best_opening_value(tiles("r1 r2 r3 k4 k5 J"), STANDARD) == 6 + 4 + 5 + 6


def test_six_player_rack_of_three_jokers_is_a_set() -> None:
    # 002_*.txt: four jokers; assistant.sets reads J J J as a group of 13s (39 points).
    assert can_open(tiles("J J J"), SIX)
    assert solve([], tiles("J J J"), SIX, opened=True).tiles == 3


# ---------------------------------------------------------------- bad input


def test_too_many_copies_is_an_input_error() -> None:
    with pytest.raises(SolverInputError, match="3 copies of red 5"):
        solve(parse_layout("r5 r6 r7 | r5 k5 b5"), tiles("r5"), STANDARD, opened=True)
    with pytest.raises(SolverInputError, match="jokers"):
        solve([], tiles("J J J"), STANDARD, opened=True)


def test_unarrangeable_table_is_an_input_error_when_opened() -> None:
    with pytest.raises(SolverInputError, match="cannot be arranged"):
        solve(parse_layout("r5 r6"), tiles("k1"), STANDARD, opened=True)


def test_unknown_objective() -> None:
    with pytest.raises(SolverInputError, match="objective"):
        solve([], tiles("r5"), STANDARD, opened=True, maximize="points")  # type: ignore[arg-type]


def test_time_limit_gives_a_clear_message_and_a_legal_play() -> None:
    before = parse_layout(
        "k1 k2 k3 k4 | b5 b6 b7 | r9 r10 r11 r12 | o1 o2 o3 | k7 b7 r7 o7 | J b10 b11 | k12 b12 r12"
    )
    rack = tiles("k5 k6 b4 b8 r8 r13 o4 o5 k13 J b9 o7 r7 k11 o12 o13")
    play = solve(before, rack, SIX, opened=True, time_limit=1e-6)
    assert not play.optimal
    assert "time limit" in play.message
    verdict = judge_turn(before, [list(s) for s in play.table], rack, True, SIX)
    assert verdict.legal


# ---------------------------------------------------------------- exactness against brute force


@functools.cache
def _valid_multiset(group: tuple[Tile, ...]) -> bool:
    """Does some physical order of these tiles pass `check_set`? (reals sorted, jokers anywhere)"""
    real = sorted(t for t in group if not t.is_joker)
    jokers = len(group) - len(real)
    for places in itertools.combinations(range(len(group)), jokers):
        rest = iter(real)
        order = [JOKER if i in places else next(rest) for i in range(len(group))]
        if check_set(order, SIX).valid:
            return True
    return False


@functools.cache
def _arrangeable(tiles_sorted: tuple[Tile, ...]) -> bool:
    """Brute force: can these tiles be split into valid sets? (independent of the solver)"""
    if not tiles_sorted:
        return True
    first, rest = tiles_sorted[0], tiles_sorted[1:]
    for size in range(2, min(len(rest), 4) + 1):  # sets of 3-5 are enough (test above)
        for others in set(itertools.combinations(rest, size)):
            if _valid_multiset(tuple(sorted((first, *others)))):
                remaining = list(rest)
                for t in others:
                    remaining.remove(t)
                if _arrangeable(tuple(remaining)):
                    return True
    return False


def _brute_force_most_tiles(table: list[Tile], rack: list[Tile]) -> int:
    for count in range(len(rack), 0, -1):
        for chosen in set(itertools.combinations(sorted(rack), count)):
            if _arrangeable(tuple(sorted(table + list(chosen)))):
                return count
    return 0


def _box(rules_copies: int, jokers: int) -> list[Tile]:
    return [tile_of_type(t) for t in range(52) for _ in range(rules_copies)] + [JOKER] * jokers


small_racks = st.lists(st.sampled_from(_box(2, 2)), min_size=1, max_size=6)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rack=small_racks, color=st.sampled_from(COLORS), start=st.integers(1, 9))
def test_most_tiles_matches_brute_force(rack: list[Tile], color, start: int) -> None:
    table_set = [Tile(color, n) for n in range(start, start + 4)]
    supply = Counter(rack) + Counter(table_set)
    if any(n > 2 for n in supply.values()):
        return
    play = solve([table_set], rack, STANDARD, opened=True)
    assert play.tiles == _brute_force_most_tiles(table_set, rack)


@functools.cache
def _set_value(group: tuple[Tile, ...]) -> int | None:
    """Most points any physical order of these tiles is worth by `check_set`, or None if no set."""
    real = sorted(t for t in group if not t.is_joker)
    values = []
    for places in itertools.combinations(range(len(group)), len(group) - len(real)):
        rest = iter(real)
        verdict = check_set([JOKER if i in places else next(rest) for i in range(len(group))], STANDARD)
        if verdict.valid and verdict.value is not None:
            values.append(verdict.value)
    return max(values, default=None)


@functools.cache
def _most_points(tiles_sorted: tuple[Tile, ...]) -> int | None:
    """Brute force: the most points these tiles are worth split into valid sets (None: no split)."""
    if not tiles_sorted:
        return 0
    first, rest = tiles_sorted[0], tiles_sorted[1:]
    best = None
    for size in range(2, min(len(rest), 4) + 1):
        for others in set(itertools.combinations(rest, size)):
            value = _set_value(tuple(sorted((first, *others))))
            if value is None:
                continue
            remaining = list(rest)
            for t in others:
                remaining.remove(t)
            tail = _most_points(tuple(remaining))
            if tail is not None and (best is None or value + tail > best):
                best = value + tail
    return best


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rack=st.lists(st.sampled_from(_box(2, 2)), min_size=3, max_size=7))
def test_best_opening_value_matches_brute_force(rack: list[Tile]) -> None:
    if any(n > 2 for n in Counter(rack).values()):
        return
    best = 0
    for count in range(3, len(rack) + 1):
        for chosen in set(itertools.combinations(sorted(rack), count)):
            points = _most_points(chosen)
            if points is not None:
                best = max(best, points)
    assert best_opening_value(rack, STANDARD) == best
    assert can_open(rack, STANDARD) is (best >= 30)


# ---------------------------------------------------------------- property: the judge accepts every play


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, list[list[Tile]], list[Tile], bool, str]:
    preset = draw(st.sampled_from(sorted(PRESETS)))
    rules = find_preset(preset)
    supply = Counter({tile_of_type(t): rules.copies for t in range(52)})
    supply[JOKER] = rules.jokers
    table: list[list[Tile]] = []
    for _ in range(draw(st.integers(0, 12))):
        if draw(st.booleans()):
            length = draw(st.integers(3, 7))
            start = draw(st.integers(1, 14 - length))
            color = draw(st.sampled_from(COLORS))
            layout = [Tile(color, n) for n in range(start, start + length)]
        else:
            number = draw(st.integers(1, 13))
            colors = draw(st.permutations(COLORS))[: draw(st.integers(3, 4))]
            layout = [Tile(c, number) for c in colors]
        if draw(st.integers(0, 3)) == 0:
            layout[draw(st.integers(0, len(layout) - 1))] = JOKER
        need = Counter(layout)
        if all(supply[t] >= n for t, n in need.items()):
            supply -= need
            table.append(layout)
    pool = sorted(supply.elements())
    rack = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=20)) if pool else []
    rack_counts = Counter(rack)
    rack = [t for t in rack_counts for _ in range(min(rack_counts[t], supply[t]))]
    opened = draw(st.booleans())
    maximize = draw(st.sampled_from(["tiles", "value"]))
    return preset, table, rack, opened, maximize


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions())
def test_every_play_passes_the_turn_judge(
    position: tuple[str, list[list[Tile]], list[Tile], bool, str],
) -> None:
    preset, table, rack, opened, maximize = position
    rules = find_preset(preset)
    play = solve(table, rack, rules, opened, maximize)  # type: ignore[arg-type]
    assert play.optimal
    after = [list(s) for s in play.table]
    # 003_*.txt: an American turn ends with a discard from what is left on the rack.
    left = sorted((Counter(rack) - Counter(play.placed)).elements())
    discard = left[0] if rules.discard_pile and left else None
    verdict = judge_turn(table, after, rack, opened, rules, discard=discard)
    assert verdict.legal, [r.text for r in verdict.reasons]
    assert Counter(verdict.rack_after) + Counter(play.placed) + Counter(
        [discard] if discard else []
    ) == Counter(rack)
    assert Counter(verdict.played) == Counter(play.placed)
    assert Counter(t for s in after for t in s) == Counter(t for s in table for t in s) + Counter(play.placed)
    for s in after:
        assert check_set(s, rules).valid
    if not opened:
        assert after[: len(table)] == table
        if play.placed:
            assert verdict.meld_value == play.value >= rules.opening_threshold
    if play.is_draw:
        assert verdict.action == "draw"
    # Never worse than laying out only new sets from the rack, which an opened player may always do.
    if opened and maximize == "tiles":
        assert play.tiles >= solve([], rack, rules, opened=True).tiles
