"""Rules-engine speed: validating a full 106-tile table and judging a turn on it.

.venv/bin/python -m pytest benchmarks/bench_rules.py -q -p no:cacheprovider   # pytest-benchmark table
.venv/bin/python benchmarks/bench_rules.py                                    # plain microseconds per call
"""

from __future__ import annotations

import timeit

from assistant.rules import STANDARD
from assistant.sets import check_set
from assistant.table import check_table
from assistant.tiles import Tile, parse_layout
from assistant.turn import judge_turn


def full_table() -> list[list[Tile]]:
    """All 106 tiles in valid sets: the first copies as runs 1-13, the second copies as groups of 1s and
    13s plus runs 2-12, and the two jokers at the ends of two of those runs."""
    first = [" ".join(f"{c}{n}" for n in range(1, 14)) for c in "kbro"]
    groups = ["k1 b1 r1 o1", "k13 b13 r13 o13"]
    middles = {c: " ".join(f"{c}{n}" for n in range(2, 13)) for c in "kbro"}
    middles["k"] += " J"
    middles["b"] = "J " + middles["b"]
    return parse_layout(" | ".join([*first, *groups, *middles.values()]))


def turn_on_full_table() -> tuple[list[list[Tile]], list[list[Tile]], list[Tile]]:
    """The last tile (a black 12) goes from the rack into the black run 2-11+joker: 105 -> 106 tiles."""
    after = full_table()
    before = [list(s) for s in after]
    black = next(i for i, s in enumerate(before) if s[-1].is_joker)
    twelve = before[black][-2]
    del before[black][-2]
    return before, after, [twelve]


TABLE = full_table()
BEFORE, AFTER, RACK = turn_on_full_table()
assert sum(map(len, TABLE)) == 106 and check_table(TABLE, STANDARD).valid
assert judge_turn(BEFORE, AFTER, RACK, True, STANDARD).legal


def test_check_full_table(benchmark) -> None:
    verdict = benchmark(check_table, TABLE, STANDARD)
    assert verdict.valid


def test_judge_turn_on_full_table(benchmark) -> None:
    verdict = benchmark(judge_turn, BEFORE, AFTER, RACK, True, STANDARD)
    assert verdict.legal and [str(t) for t in verdict.played] == ["k12"]


def test_check_one_set_with_jokers(benchmark) -> None:
    tiles = parse_layout("r5 J r7 r8 J")[0]
    assert benchmark(check_set, tiles, STANDARD).valid


if __name__ == "__main__":
    cases = {
        "check_table (106 tiles)": lambda: check_table(TABLE, STANDARD),
        "judge_turn (106-tile table)": lambda: judge_turn(BEFORE, AFTER, RACK, True, STANDARD),
        "check_set (5 tiles, 2 jokers)": lambda: check_set(parse_layout("r5 J r7 r8 J")[0], STANDARD),
    }
    for name, call in cases.items():
        number, _ = timeit.Timer(call).autorange()
        best = min(timeit.repeat(call, number=number, repeat=5)) / number
        print(f"{name:<32} {best * 1e6:9.1f} us per call")
