import json
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from assistant.rules import find_preset
from assistant.supply import SupplyError, supply_problems
from assistant.tiles import Tile, parse_layout, parse_tiles
from assistant.turn import TurnProblem, judge_turn

DATA = Path(__file__).resolve().parents[1] / "data"
CASES = json.loads((DATA / "turn_cases.json").read_text(encoding="utf-8"))["cases"]


def _tile(case: dict, key: str) -> Tile | None:
    return Tile.parse(case[key]) if key in case else None


def _judge(case: dict):  # noqa: ANN202 - a TurnVerdict
    return judge_turn(
        parse_layout(case["before"]),
        parse_layout(case["after"]),
        parse_tiles(case["rack"]),
        case["opened"],
        find_preset(case.get("rules", "standard")),
        discard=_tile(case, "discard"),
        took_discard=_tile(case, "took_discard"),
        drew=_tile(case, "drew"),
        took_trump=_tile(case, "took_trump"),
    )


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_turn_cases_from_the_rules_texts(case: dict) -> None:
    if case.get("refused"):
        with pytest.raises(SupplyError, match="table and racks hold"):
            _judge(case)
        return
    verdict = _judge(case)
    assert verdict.legal is case["legal"], [r.text for r in verdict.reasons]
    assert verdict.action == case.get("action", verdict.action)
    if "played" in case:
        assert [str(t) for t in verdict.played] == case["played"]
    if "meld_value" in case:
        assert verdict.meld_value == case["meld_value"]
    if "rack_after" in case:
        assert [str(t) for t in verdict.rack_after] == case["rack_after"]
    if "went_out" in case:
        assert verdict.went_out is case["went_out"]
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


# --- properties ------------------------------------------------------------------------------------

SIX = find_preset("six-player")
small_valid_sets = st.sampled_from(
    [
        parse_layout(text)[0]
        for text in ("r1 r2 r3", "k5 b5 o5", "J b7 b8", "J o11 o12 o13", "r9 k9 b9 o9", "k2 J k4")
    ]
)


def _in_supply(sets: list, rack: list) -> bool:
    """Could one 160-tile box hold these sets and this rack? (Else the judge refuses the position.)"""
    return not supply_problems([*(t for s in sets for t in s), *rack], SIX)


@settings(deadline=None)
@given(st.lists(small_valid_sets, max_size=6), st.randoms(use_true_random=False), st.booleans())
def test_a_table_left_as_it_was_is_a_legal_draw(sets: list, rng, opened: bool) -> None:
    assume(_in_supply(sets, parse_tiles("k1 k2")))
    shuffled = list(sets)
    rng.shuffle(shuffled)
    verdict = judge_turn(sets, shuffled, parse_tiles("k1 k2"), opened, SIX)
    assert verdict.legal and verdict.action == "draw" and verdict.played == ()


@settings(deadline=None)
@given(
    st.lists(small_valid_sets, max_size=5), st.lists(small_valid_sets, min_size=1, max_size=3), st.booleans()
)
def test_new_sets_from_the_rack_are_a_legal_play(table: list, new: list, opened: bool) -> None:
    counts = Counter(t for s in table + new for t in s)
    assume(all(n <= (SIX.jokers if t.is_joker else SIX.copies) for t, n in counts.items()))
    rack = [t for s in new for t in s] + parse_tiles("k13")
    verdict = judge_turn(table, table + new, rack, opened, SIX.with_house("no-threshold"))
    assert verdict.legal, [r.text for r in verdict.reasons]
    assert sorted(verdict.played) == sorted(rack[:-1])
    assert (verdict.meld_value is None) is opened


@settings(deadline=None)
@given(st.lists(small_valid_sets, min_size=1, max_size=5), st.data())
def test_removing_any_table_tile_is_illegal(table: list, data: st.DataObject) -> None:
    assume(_in_supply(table, parse_tiles("k13")))
    index = data.draw(st.integers(0, len(table) - 1))
    position = data.draw(st.integers(0, len(table[index]) - 1))
    after = [list(s) for s in table]
    del after[index][position]
    verdict = judge_turn(table, after, parse_tiles("k13"), True, SIX)
    assert not verdict.legal and verdict.reasons
