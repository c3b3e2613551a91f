import pytest

from assistant.meld import check_meld
from assistant.rules import find_preset
from assistant.tiles import parse_layout


@pytest.mark.parametrize(
    ("layout", "rules", "threshold", "value", "accepted"),
    [
        ("b9 b10 b11", "standard", None, 30, True),  # 000_*.txt section 3
        ("r10 b10 k10", "standard", None, 30, True),  # 000_*.txt section 3: a group of three 10s
        ("r6 b6 k6 | o3 o4 o5", "standard", None, 30, True),  # 000_*.txt section 3
        ("k10 k11 J", "goliath", None, 33, True),  # 001_*.txt: the joker counts for the tile it replaces
        ("r5 r6 r7", "standard", None, 18, False),
        ("r5 r6 r7", "standard+reduced-opening", None, 18, False),
        ("r6 r7 r8", "standard+reduced-opening", None, 21, True),  # 000_*.txt section 6
        ("r1 r2 r3", "standard+no-threshold", None, 6, True),  # 000_*.txt section 6
        ("r1 r2 r3", "standard", 5, 6, True),  # --threshold
        ("r9 r10 r11 | b5 b6", "standard", None, 30, False),  # a two-tile set is no meld
    ],
)
def test_opening_meld(layout: str, rules: str, threshold: int | None, value: int, accepted: bool) -> None:
    verdict = check_meld(parse_layout(layout), find_preset(rules), threshold)
    assert verdict.value == value
    assert verdict.accepted is accepted


def test_threshold_comes_from_the_preset() -> None:
    assert check_meld(parse_layout("r1 r2 r3"), find_preset("standard")).threshold == 30
    assert check_meld(parse_layout("r1 r2 r3"), find_preset("standard+reduced-opening")).threshold == 20


def test_empty_meld_is_not_valid() -> None:
    verdict = check_meld([], find_preset("standard+no-threshold"))
    assert not verdict.valid and not verdict.accepted
