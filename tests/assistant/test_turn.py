import json
from pathlib import Path

import pytest

from assistant.rules import find_preset
from assistant.tiles import parse_layout, parse_tiles
from assistant.turn import TurnProblem, judge_turn

DATA = Path(__file__).resolve().parents[1] / "data"
CASES = json.loads((DATA / "turn_cases.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_turn_cases_from_the_rules_texts(case: dict) -> None:
    verdict = judge_turn(
        parse_layout(case["before"]),
        parse_layout(case["after"]),
        parse_tiles(case["rack"]),
        case["opened"],
        find_preset(case.get("rules", "standard")),
    )
    assert verdict.legal is case["legal"], [r.text for r in verdict.reasons]
    assert verdict.action == case.get("action", verdict.action)
    if "played" in case:
        assert [str(t) for t in verdict.played] == case["played"]
    if "meld_value" in case:
        assert verdict.meld_value == case["meld_value"]
    if case["legal"]:
        assert verdict.reasons == () and verdict.penalty_tiles == 0
    else:
        assert sorted(r.code.value for r in verdict.reasons) == sorted(case["codes"])
        assert all(r.text for r in verdict.reasons)


def test_every_turn_problem_has_a_case() -> None:
    seen = {code for case in CASES for code in case.get("codes", [])}
    assert seen == {p.value for p in TurnProblem}


def test_opened_player_gets_no_meld_value() -> None:
    verdict = judge_turn(parse_layout(""), parse_layout("r5 r6 r7"), parse_tiles("r5 r6 r7"), True)
    assert verdict.legal and verdict.meld_value is None


def test_reasons_name_the_tiles() -> None:
    verdict = judge_turn(
        parse_layout("r5 r6 r7 | b1 b2 b3"), parse_layout("r5 r6 r7 r8"), parse_tiles("r8"), True
    )
    (reason,) = verdict.reasons
    assert "blue 1, blue 2 and blue 3" in reason.text


def test_failed_move_penalty_follows_the_preset() -> None:
    before, after, rack = parse_layout("r5 r6 r7"), parse_layout("r5 r6 r7 | b7 k7"), parse_tiles("b7 k7")
    assert judge_turn(before, after, rack, True).penalty_tiles == 1
    assert judge_turn(before, after, rack, True, find_preset("tournament")).penalty_tiles == 3
    strict = find_preset("standard+failed-move-penalty")
    assert judge_turn(before, after, rack, True, strict).penalty_tiles == 3


def test_only_rack_tiles_count_toward_the_opening() -> None:
    verdict = judge_turn(
        parse_layout("k9 k10 k11 k12"),
        parse_layout("k9 k10 k11 | k12 r12 b12"),
        parse_tiles("r12 b12"),
        False,
    )
    assert verdict.meld_value == 24
    assert verdict.codes == {TurnProblem.MANIPULATION_BEFORE_OPENING, TurnProblem.OPENING_TOO_LOW}
