"""The solver's search: the LP, its own branch and bound, HiGHS's branch and cut, and the clock.

Every path must end in the play HiGHS's branch and cut proves best (the same tiles, points and table
sets kept), and a search the time limit cuts short must prove nothing.
"""

from __future__ import annotations

import contextlib
import itertools
import random
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings

from assistant import solver as solver_module
from assistant.rules import find_preset
from assistant.solver import _readings, is_valid_layout, solve
from assistant.tiles import JOKER, Tile, parse_layout, parse_tiles
from assistant.turn import judge_turn
from tests.assistant.test_solver import _brute_force_most_tiles, positions

STANDARD = find_preset("standard")


def tiles(text: str) -> list[Tile]:
    return parse_tiles(text)


def _solve_recording(table, rack, rules, opened: bool, maximize: str = "tiles", budget: int | None = None):  # noqa: ANN001, ANN202
    """(the play, the programme's objective value): with `budget` nodes for the own branch and bound.

    The objective weighs tiles, points and table sets kept lexicographically, so equal objectives
    are equal on all three levels; the sets shown as kept may still differ on a tie (a template can
    reproduce a table set without counting as kept).
    """
    found: list[int | None] = []
    real = solver_module._Programme.solve

    def recording(self, time_limit):  # noqa: ANN001, ANN202
        values, proved = real(self, time_limit)
        if values is None:
            found.append(None)
        else:
            found.append(round(sum(c * v for c, v in zip(self.costs, values, strict=True))))
        return values, proved

    with contextlib.ExitStack() as stack:
        stack.enter_context(mock.patch.object(solver_module._Programme, "solve", recording))
        if budget is not None:
            stack.enter_context(mock.patch.object(solver_module, "_NODE_BUDGET", budget))
        play = solve(table, rack, rules, opened, maximize)  # type: ignore[arg-type]
    return play, (found[-1] if found else None)


@pytest.mark.parametrize(
    ("preset", "table", "rack", "placed"),
    [
        # The LP relaxation places four tiles; no whole play has more than three, so the search proves
        # "four" empty and a second one, with at most three, finds the play.
        ("six-player", "k6 o6 b6 r6 | k13 b13 r13 o13", "k8 k8 r9 o10 b7 b8 k5 J", 3),
        # A fractional relaxation that the branch and bound settles in a few nodes.
        ("standard", "k9 r9 o9 b9 | o3 o4 o5 o6 o7 o8 o9 o10", "o7 k3 r5 b11 b9 k2", 1),
    ],
)
def test_fractional_relaxations_are_settled_exactly(preset: str, table: str, rack: str, placed: int) -> None:
    rules = find_preset(preset)
    before, hand = parse_layout(table), tiles(rack)
    play, objective = _solve_recording(before, hand, rules, True)
    assert play.optimal
    assert play.tiles == placed == _brute_force_most_tiles([t for s in before for t in s], hand)
    assert judge_turn(before, [list(s) for s in play.table], hand, True, rules).legal
    other, highs_objective = _solve_recording(before, hand, rules, True, budget=0)
    assert (other.tiles, other.value, highs_objective) == (play.tiles, play.value, objective)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions())
def test_own_search_reaches_what_highs_proves(
    position: tuple[str, list[list[Tile]], list[Tile], bool, str],
) -> None:
    """Tiles, points and table sets kept: the same three levels as HiGHS's own branch and cut.

    Also with a budget of 3 nodes, so that HiGHS takes over from an unfinished search, its incumbent
    handed on.
    """
    preset, table, rack, opened, maximize = position
    rules = find_preset(preset)
    results = [_solve_recording(table, rack, rules, opened, maximize, budget) for budget in (None, 0, 3)]
    assert all(play.optimal for play, _ in results)
    assert len({(play.tiles, play.value, objective) for play, objective in results}) == 1


@pytest.mark.parametrize("time_limit", [1e-6, 1e-4, 1e-3, 5e-3, 2e-2])
def test_time_limit_inside_the_search_gives_a_legal_play_never_a_false_verdict(time_limit: float) -> None:
    """A time limit that falls in the branch and bound cuts it short; it never proves anything.

    (An LP stopped by the time limit once read as "infeasible", and a valid table was called
    unarrangeable.)
    """
    before = parse_layout(
        "b7 b8 b9 b10 b11 b12 | k11 o11 r11 J | o7 k7 r7 | b7 o7 k7 | b13 o13 r13 | o3 o4 o5 | J k9 o9 | "
        "o5 b5 k5 | r1 r2 r3 r4 r5 r6 r7 r8 | b3 b4 b5 b6 | k4 b4 o4 r4 | k12 b12 o12 | b11 o11 r11 | "
        "r8 o8 k8 | b13 r13 o13 | o3 b3 k3 | k4 k5 k6 | r6 o6 k6"
    )
    rack = tiles("r12 o6 r9 o1 r12 k8 k11 k13 o9")
    exact = solve(before, rack, STANDARD, opened=True, maximize="value")
    play = solve(before, rack, STANDARD, opened=True, maximize="value", time_limit=time_limit)
    assert play.optimal or "time limit" in play.message
    if play.optimal:
        assert (play.tiles, play.value) == (exact.tiles, exact.value)
    assert judge_turn(before, [list(s) for s in play.table], rack, True, STANDARD).legal


class _ClockRunsOut:
    """A HiGHS handle whose time limit strikes after a number of LP solves, as a real one can mid-search."""

    def __init__(self, highs, runs: int) -> None:  # noqa: ANN001 - a HiGHS handle
        self._highs = highs
        self._runs = runs

    def run(self):  # noqa: ANN201
        self._runs -= 1
        if self._runs < 0:
            self._highs.setOptionValue("time_limit", 1e-9)  # its clock is past that already
        return self._highs.run()

    def __getattr__(self, name: str):  # noqa: ANN204
        return getattr(self._highs, name)


@pytest.mark.parametrize("runs", [1, 2, 3, 5, 8, 20])
def test_a_search_cut_short_by_the_clock_proves_nothing(runs: int) -> None:
    """An LP stopped by the time limit is not an infeasible one: the valid table stays arrangeable."""
    real = solver_module._new_highs

    def clocked(time_limit):  # noqa: ANN001, ANN202
        highs, core = real(time_limit)
        return _ClockRunsOut(highs, runs), core

    before = parse_layout(
        "b7 b8 b9 b10 b11 b12 | k11 o11 r11 J | o7 k7 r7 | b7 o7 k7 | b13 o13 r13 | o3 o4 o5 | J k9 o9 | "
        "o5 b5 k5 | r1 r2 r3 r4 r5 r6 r7 r8 | b3 b4 b5 b6 | k4 b4 o4 r4 | k12 b12 o12 | b11 o11 r11 | "
        "r8 o8 k8 | b13 r13 o13 | o3 b3 k3 | k4 k5 k6 | r6 o6 k6"
    )
    rack = tiles("r12 o6 r9 o1 r12 k8 k11 k13 o9")
    exact = solve(before, rack, STANDARD, opened=True, maximize="value")
    with mock.patch.object(solver_module, "_new_highs", clocked):
        play = solve(before, rack, STANDARD, opened=True, maximize="value")
    if play.optimal:  # the search finished within these LP solves
        assert (play.tiles, play.value) == (exact.tiles, exact.value)
    else:
        assert "time limit" in play.message
    assert judge_turn(before, [list(s) for s in play.table], rack, True, STANDARD).legal


def test_valid_layout_agrees_with_the_readings() -> None:
    """`is_valid_layout` skips building readings; on every layout here it answers as they do."""
    alphabet = [*tiles("r1 r2 r3 r4 r5 r11 r12 r13 k3 b3"), JOKER]
    checked = 0
    for size in range(0, 6):
        for laid in itertools.product(alphabet, repeat=size) if size <= 4 else _sampled(alphabet, size):
            expected = any(r.kind == "group" or r.layout == tuple(laid) for r in _readings(laid))
            assert is_valid_layout(laid) == expected, laid
            checked += 1
    assert checked > 10_000


def _sampled(alphabet: list[Tile], size: int) -> list[tuple[Tile, ...]]:
    rng = random.Random(size)
    return [tuple(rng.choice(alphabet) for _ in range(size)) for _ in range(20_000)]
