"""One supply check (000_*.txt section 2, 002_*.txt): the same refusal from every command."""

import pytest

from assistant.rules import find_preset
from assistant.scoring import ScoringError, score_round
from assistant.solver import SolverInputError, solve
from assistant.supply import SupplyError, check_supply, supply_problems
from assistant.tiles import parse_layout, parse_tiles
from assistant.turn import judge_turn

STANDARD = find_preset("standard")
FOUR_OF_EVERYTHING = parse_tiles(
    " ".join(f"{c}{n} {c}{n} {c}{n} {c}{n}" for c in "kbro" for n in range(1, 14))
)


def test_two_copies_and_two_jokers_in_the_standard_box() -> None:
    assert supply_problems(parse_tiles("r5 r5 J J"), STANDARD) == []
    assert supply_problems(parse_tiles("r5 r5 r5"), STANDARD) == [
        "table and racks hold 3 copies of red 5 (r5), but the standard edition (106 tiles) has only 2"
    ]
    assert supply_problems(parse_tiles("J J J"), STANDARD) == [
        "table and racks hold 3 jokers, but the standard edition (106 tiles) has only 2"
    ]


def test_three_copies_and_four_jokers_in_the_six_player_box() -> None:
    six = find_preset("six-player")
    assert supply_problems(parse_tiles("r5 r5 r5 J J J J"), six) == []
    assert len(supply_problems(parse_tiles("r5 r5 r5 r5 J J J J J"), six)) == 2


def test_goliath_names_its_colours() -> None:
    (problem,) = supply_problems(parse_tiles("o7 o7 o7"), find_preset("goliath"))
    assert "yellow 7 (o7)" in problem


def test_check_supply_raises_with_every_problem() -> None:
    with pytest.raises(SupplyError, match="3 copies of red 5.*3 jokers"):
        check_supply(parse_tiles("r5 r5 r5 J J J"), STANDARD)


def _message(raised: pytest.ExceptionInfo) -> str:
    return str(raised.value)


def test_turn_solve_and_score_refuse_with_the_same_message() -> None:
    table = parse_layout("r5 r6 r7 | r5 b5 k5")
    with pytest.raises(SupplyError) as turn:
        judge_turn(table, table, parse_tiles("r5"), True)
    with pytest.raises(SolverInputError) as solver:
        solve(table, parse_tiles("r5"), STANDARD, opened=True)
    with pytest.raises(ScoringError) as scoring:
        score_round({"a": parse_tiles("r5 r5"), "b": parse_tiles("r5")})
    expected = "table and racks hold 3 copies of red 5 (r5), but the standard edition (106 tiles) has only 2"
    assert _message(turn) == _message(solver) == expected
    # score is given racks only: its message says so
    assert _message(scoring) == expected.replace("table and racks", "the racks")


def test_a_rack_of_four_copies_of_everything_is_refused_by_turn() -> None:
    with pytest.raises(SupplyError):
        judge_turn([], [], FOUR_OF_EVERYTHING, True)


def test_a_taken_tile_counts_towards_the_supply() -> None:
    table = parse_layout("b4 b5 b6 | b7 k7 o7")
    with pytest.raises(SupplyError, match="3 copies of blue 7"):
        judge_turn(
            table, table, parse_tiles("b7"), True, find_preset("american"), took_discard=parse_tiles("b7")[0]
        )
