"""The screens' helpers: put-back instructions, new sets of a meld, the turn timer, standings."""

from __future__ import annotations

import pytest

from assistant import slots
from assistant.rules import find_preset
from assistant.storage import RoundRecord, RoundScore
from assistant.tiles import parse_layout
from assistant.turn import judge_turn
from ui import helpers


def test_put_back_undoes_a_turn() -> None:
    before = parse_layout("r10 r11 r12 | k7 b7 o7")
    after = parse_layout("r10 r11 r12 r13 | k7 b7 | o7 o8")
    fix = helpers.put_back(before, after)
    assert [str(t) for t in fix.to_rack] == ["r13", "o8"]
    assert fix.lines() == [
        "Take back to the rack: r13 o8",
        "Take apart: r10 r11 r12 r13",
        "Take apart: k7 b7",
        "Take apart: o7 o8",
        "Put back as it was: r10 r11 r12",
        "Put back as it was: k7 b7 o7",
    ]
    assert helpers.put_back(before, before).lines() == ["The table is already as it was."]



def test_new_sets_are_those_not_on_the_agreed_table() -> None:
    agreed = slots.parse_slots("r1 r2 r3 | k5 b5 o5")
    now = slots.parse_slots("k5 b5 o5 | r1 r2 r3 | J k9 k10 | r1 r2 r3")
    assert helpers.new_set_indexes(agreed, now) == [2, 3]



@pytest.mark.parametrize(
    "preset, seconds, legal, penalty",
    [("standard", 500, True, 0), ("tournament", 59, True, 0), ("tournament", 61, False, 3)],
)
def test_turn_timer(preset: str, seconds: float, legal: bool, penalty: int) -> None:
    rules = find_preset(preset)
    verdict = judge_turn([], parse_layout("r10 r11 r12"), parse_layout("r10 r11 r12")[0], False, rules)
    assert verdict.legal
    judged = helpers.judge_time(verdict, 1000.0, 1000.0 + seconds, rules)
    assert (judged.legal, judged.penalty_tiles) == (legal, penalty)
    assert any("time is up: 61 s used, 60 s allowed" == r for r in judged.reasons) == (not legal)



def test_an_illegal_turn_keeps_the_engine_reasons_and_penalty() -> None:
    rules = find_preset("standard")
    verdict = judge_turn([], parse_layout("r1 r2"), parse_layout("r1 r2")[0], False, rules)
    judged = helpers.judge_time(verdict, 0.0, 10.0, rules)
    assert not judged.legal and judged.penalty_tiles == 1
    assert judged.reasons == tuple(r.text for r in verdict.reasons)



def _round(number: int, scores: dict[str, int], winner: str) -> RoundRecord:
    return RoundRecord(
        number=number,
        blocked=False,
        created_at=0.0,
        scores=tuple(
            RoundScore(seat, name, "", max(0, -score), score, name == winner)
            for seat, (name, score) in enumerate(scores.items())
        ),
    )



def test_standings_and_running_totals() -> None:
    rounds = [_round(1, {"Ann": 20, "Ben": -20}, "Ann"), _round(2, {"Ann": -30, "Ben": 30}, "Ben")]
    assert helpers.running_totals(rounds, ["Ann", "Ben"]) == {
        "round": [1, 2],
        "Ann": [20, -10],
        "Ben": [-20, 10],
    }
    rows = helpers.standings_rows(rounds, ["Ann", "Ben"], find_preset("standard"))
    assert [(r["place"], r["player"], r["total"], r["games won"]) for r in rows] == [
        (1, "Ben", 10, 1),
        (2, "Ann", -10, 1),
    ]
