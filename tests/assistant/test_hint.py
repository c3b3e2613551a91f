"""The open-rack teaching hint (000_*.txt section 6): possibilities from the solver, always legal plays."""

from collections import Counter

import pytest

from assistant.errors import InputError
from assistant.hint import teaching_hint
from assistant.rules import find_preset
from assistant.tiles import parse_layout, parse_tiles
from assistant.turn import judge_turn

STANDARD = find_preset("standard")


def test_not_opened_rack_sets_and_the_opening() -> None:
    hint = teaching_hint([], parse_tiles("r5 r6 r7 k9 b9 o9 k1"), STANDARD, opened=False)
    assert Counter(t for s in hint.rack_sets for t in s) == Counter(parse_tiles("r5 r6 r7 k9 b9 o9"))
    assert hint.rack_value == 45
    assert "opening meld is possible" in hint.text and "45 points, 30 needed" in hint.text


def test_not_enough_for_the_opening_says_draw() -> None:
    # 000_*.txt section 3: the opening meld totals at least 30 points.
    hint = teaching_hint(parse_layout("k1 k2 k3"), parse_tiles("r5 r6 r7"), STANDARD, opened=False)
    assert hint.rack_value == 18 and hint.play.is_draw
    assert "18 of 30 points" in hint.text


def test_opened_player_sees_what_the_table_allows() -> None:
    table = parse_layout("r1 r2 r3 | k5 b5 o5")
    hint = teaching_hint(table, parse_tiles("r4 r5 k13"), STANDARD, opened=True)
    assert hint.rack_sets == ()
    assert Counter(hint.play.placed) == Counter(parse_tiles("r4 r5"))
    assert "2 tiles could be placed" in hint.text


def test_american_hint_mentions_the_discard() -> None:
    hint = teaching_hint(parse_layout("r1 r2 r3"), parse_tiles("r4 k13"), find_preset("american"), True)
    assert "discard" in hint.text


@pytest.mark.parametrize("spec", ["standard", "six-player", "american", "standard+flexible-joker"])
def test_the_play_shown_passes_the_judge(spec: str) -> None:
    rules = find_preset(spec)
    table = parse_layout("r5 b5 J | k5 k6 k7 k8")
    rack = parse_tiles("o5 k9 r1")
    hint = teaching_hint(table, rack, rules, opened=True)
    left = sorted((Counter(rack) - Counter(hint.play.placed)).elements())
    discard = left[0] if rules.discard_pile and left else None
    verdict = judge_turn(table, [list(s) for s in hint.play.table], rack, True, rules, discard=discard)
    assert verdict.legal, [r.text for r in verdict.reasons]


def test_impossible_positions_are_refused_with_the_supply_message() -> None:
    with pytest.raises(InputError, match="table and racks hold 3 copies of red 5"):
        teaching_hint(parse_layout("r5 r6 r7"), parse_tiles("r5 r5"), STANDARD, opened=True)
