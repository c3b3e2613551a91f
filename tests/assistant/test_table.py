import pytest

from assistant.rules import find_preset
from assistant.table import check_table
from assistant.tiles import parse_layout


def full_table(copies: int, jokers: int) -> str:
    """Every tile of an edition: one run 1-13 per copy and colour, the jokers as one set of their own."""
    runs = [" ".join(f"{c}{n}" for n in range(1, 14)) for c in "kbro" for _ in range(copies)]
    return " | ".join([*runs, " ".join(["J"] * jokers)])


def test_a_pair_of_jokers_alone_is_the_only_problem() -> None:
    verdict = check_table(parse_layout(full_table(2, 2)), find_preset("standard"))
    assert [s.valid for s in verdict.sets] == [True] * 8 + [False]
    assert verdict.problems == ("set 9 (J J): only 2 tiles: a set needs at least 3",)


def test_full_editions_are_valid() -> None:
    layout = parse_layout(full_table(2, 2))
    layout[0] = layout[0][:11] + layout.pop()  # k1..k11 J J: the jokers stand for k12 and k13
    standard = check_table(layout, find_preset("standard"))
    assert standard.valid, standard.problems
    assert sum(len(s.tiles) for s in standard.sets) == 106 - 2
    six = check_table(parse_layout(full_table(3, 4)), find_preset("six-player"))
    assert six.valid, six.problems
    assert sum(len(s.tiles) for s in six.sets) == 160


@pytest.mark.parametrize(
    ("layout", "rules", "fragment"),
    [
        ("r5 r6 r7 | r5 b5 k5 | r3 r4 r5", "standard", "3 red 5s on the table"),
        ("r5 J r7 | b5 J b7 | k5 J k7", "standard", "3 jokers on the table"),
        ("r5 J r7 | b5 J b7 | k5 J k7 | o5 J o7 | o8 J o10", "six-player", "5 jokers on the table"),
    ],
)
def test_impossible_tile_counts(layout: str, rules: str, fragment: str) -> None:
    verdict = check_table(parse_layout(layout), find_preset(rules))
    assert not verdict.valid
    assert all(s.valid for s in verdict.sets)
    assert any(fragment in p for p in verdict.problems)


def test_three_red_fives_are_fine_in_six_player() -> None:
    assert check_table(parse_layout("r5 r6 r7 | r5 b5 k5 | r3 r4 r5"), find_preset("six-player")).valid


def test_invalid_set_is_named_in_problems() -> None:
    verdict = check_table(parse_layout("r5 r6 r7 | b8 r8 b8"), find_preset("standard"))
    assert verdict.problems == ("set 2 (b8 r8 b8): blue appears twice in the group of 8s",)


def test_empty_table_is_valid() -> None:
    assert check_table([], find_preset("standard")).valid


def test_a_huge_set_is_named_by_its_first_tiles_in_problems() -> None:
    verdict = check_table(parse_layout(" ".join(["r5"] * 3000)))
    first = verdict.problems[0]
    assert first.startswith("set 1 (" + " ".join(["r5"] * 13) + " … 3000 tiles): 5 appears 3000 times")
    assert len(first) < 200
