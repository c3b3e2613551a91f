import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from assistant.rules import find_preset
from assistant.sets import SetProblem, check_set
from assistant.tiles import COLORS, JOKER, Tile, format_tiles, parse_tiles

DATA = Path(__file__).resolve().parents[1] / "data"
CASES = json.loads((DATA / "set_cases.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['tiles']}@{c.get('rules', 'standard')}" for c in CASES])
def test_set_cases_from_the_rules_texts(case: dict) -> None:
    verdict = check_set(parse_tiles(case["tiles"]), find_preset(case.get("rules", "standard")))
    assert verdict.valid is case["valid"], verdict.reason
    if case["valid"]:
        assert verdict.kind == case["kind"]
        assert verdict.value == case["value"]
        assert verdict.reasons == ()
        if "jokers" in case:
            assert [str(j) if j else None for j in verdict.jokers] == case["jokers"]
        assert len(verdict.readings) == case.get("readings", 1)
    else:
        assert verdict.kind is None and verdict.value is None
        assert case["code"] in {r.code.value for r in verdict.reasons}
        if "text" in case:
            assert case["text"] in verdict.reason


def test_ambiguous_set_reports_every_reading() -> None:
    verdict = check_set(parse_tiles("r5 J J"))
    readings = {(r.kind, r.value) for r in verdict.readings}
    assert readings == {("run", 18), ("group", 15)}
    assert verdict.ambiguous


def test_jokers_only_six_player_readings_cover_all_runs_and_groups() -> None:
    verdict = check_set(parse_tiles("J J J"), find_preset("six-player"))
    runs = sorted(r.numbers for r in verdict.readings if r.kind == "run")
    groups = sorted(r.numbers for r in verdict.readings if r.kind == "group")
    assert runs[0] == (1, 2, 3) and runs[-1] == (11, 12, 13) and len(runs) == 11
    assert groups == [(n, n, n) for n in range(1, 14)]


def test_four_jokers_allowed_only_where_the_edition_has_four() -> None:
    tiles = parse_tiles("J J J J r5")
    assert check_set(tiles, find_preset("six-player")).valid
    assert check_set(tiles).reasons[0].code is SetProblem.TOO_MANY_JOKERS


# --- properties ------------------------------------------------------------------------------------

SIX = find_preset("six-player")


@st.composite
def valid_runs(draw: st.DrawFn, max_jokers: int = 4) -> list[Tile]:
    length = draw(st.integers(3, 13))
    start = draw(st.integers(1, 14 - length))
    color = draw(st.sampled_from(COLORS))
    tiles = [Tile(color, n) for n in range(start, start + length)]
    for index in draw(st.sets(st.integers(0, length - 1), max_size=max_jokers)):
        tiles[index] = JOKER
    return tiles


@st.composite
def valid_groups(draw: st.DrawFn, max_jokers: int = 4) -> list[Tile]:
    number = draw(st.integers(1, 13))
    colors = draw(st.permutations(COLORS))[: draw(st.integers(3, 4))]
    tiles = [Tile(c, number) for c in colors]
    for index in draw(st.sets(st.integers(0, len(tiles) - 1), max_size=max_jokers)):
        tiles[index] = JOKER
    return tiles


@settings(deadline=None)
@given(st.one_of(valid_runs(), valid_groups()))
def test_every_generated_valid_set_is_accepted(tiles: list[Tile]) -> None:
    verdict = check_set(tiles, SIX)
    assert verdict.valid, (format_tiles(tiles), verdict.reason)
    assert verdict.value == max(r.value for r in verdict.readings)
    for reading in verdict.readings:
        # The value equals the sum of what every tile, jokers included, stands for.
        naturals = [(n, t) for n, t in zip(reading.numbers, tiles, strict=True) if not t.is_joker]
        assert all(t.number == n for n, t in naturals)


@settings(deadline=None)
@given(valid_groups(), st.randoms(use_true_random=False))
def test_group_validity_does_not_depend_on_order(tiles: list[Tile], rng) -> None:
    shuffled = list(tiles)
    rng.shuffle(shuffled)
    assert check_set(shuffled, SIX).valid


@st.composite
def mutated_sets(draw: st.DrawFn) -> list[Tile]:
    """A valid joker-free set with one change that always breaks it."""
    tiles = draw(st.one_of(valid_runs(max_jokers=0), valid_groups(max_jokers=0)))
    unused = [n for n in range(1, 14) if n not in {t.number for t in tiles}]
    mutation = draw(st.sampled_from(["drop", "duplicate", "renumber"] if unused else ["drop", "duplicate"]))
    if mutation == "drop":
        return tiles[:2]
    if mutation == "duplicate":
        index = draw(st.integers(0, len(tiles) - 1))
        return [*tiles[: index + 1], tiles[index], *tiles[index + 1 :]]
    index = draw(st.integers(0, len(tiles) - 1))
    number = draw(st.sampled_from(unused))
    return [*tiles[:index], Tile(tiles[index].color, number), *tiles[index + 1 :]]


@settings(deadline=None)
@given(mutated_sets())
def test_a_mutated_set_is_rejected_with_a_reason(tiles: list[Tile]) -> None:
    verdict = check_set(tiles, SIX)
    assert not verdict.valid, format_tiles(tiles)
    assert verdict.reasons and all(r.text for r in verdict.reasons)


# --- is_valid_set: check_set's verdict without readings or reasons ------------------------------------


def _near_sets(rng: np.random.Generator, count: int) -> list[list[Tile]]:
    """Random sequences biased towards almost-sets: runs and groups with a tile changed, jokers added,
    lengths 0-14, so valid and invalid ones both come up often."""
    from assistant.tiles import ALL_FACES

    out = []
    for _ in range(count):
        length = int(rng.choice([0, 1, 2, 3, 3, 3, 4, 4, 5, 6, 9, 13, 14]))
        kind = rng.integers(0, 3)
        if kind == 0:  # a run, maybe off the end of the numbers
            color = COLORS[int(rng.integers(0, 4))]
            start = int(rng.integers(-2, 14))
            tiles = [Tile(color, min(13, max(1, start + i))) for i in range(length)]
        elif kind == 1:  # a group
            number = int(rng.integers(1, 14))
            tiles = [Tile(COLORS[int(rng.integers(0, 4))], number) for _ in range(length)]
        else:
            tiles = [ALL_FACES[int(rng.integers(0, len(ALL_FACES)))] for _ in range(length)]
        for _ in range(int(rng.choice([0, 0, 1, 2]))):  # a misread or a joker
            if tiles:
                pos = int(rng.integers(0, len(tiles)))
                tiles[pos] = JOKER if rng.random() < 0.6 else ALL_FACES[int(rng.integers(0, len(ALL_FACES)))]
        out.append(tiles)
    return out


def test_is_valid_set_agrees_with_check_set_on_many_sets_in_every_edition() -> None:
    from assistant.rules import PRESETS
    from assistant.sets import is_valid_set

    sets = _near_sets(np.random.default_rng(16), 6000) + [[JOKER] * n for n in range(15)]
    for rules in PRESETS.values():
        verdicts = [check_set(tiles, rules).valid for tiles in sets]
        assert 0.1 < sum(verdicts) / len(verdicts) < 0.9  # both kinds are tested (600+ valid)
        assert [is_valid_set(tiles, rules) for tiles in sets] == verdicts, rules.name


@pytest.mark.parametrize(
    ("tiles", "reason"),
    [
        (
            " ".join(["r5"] * 3000),
            "5 appears 3000 times in the run; a run holds at most 13 tiles, this one has 3000",
        ),
        ("r5 r5 r5 r6", "5 appears three times in the run"),
        ("k1 k2 r3 r3 k4", "red 3 (twice) in a black run: a run is one colour; 3 appears twice in the run"),
        ("o1 o2 r3", "red 3 in an orange run: a run is one colour"),
        ("k8 b8 r9 r9", "red 9 (twice) does not belong in the group of 8s"),
        ("r5 r7 r5 r7 r5 r7", "gap between 5 and 7; 5 comes after 7: a run goes up from left to right"),
    ],
)
def test_each_problem_is_reported_once_with_its_count(tiles: str, reason: str) -> None:
    assert check_set(parse_tiles(tiles)).reason == reason
