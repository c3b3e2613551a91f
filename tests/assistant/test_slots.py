"""The table text the app keeps: the contract's layout notation with `?` for an unread tile."""

from __future__ import annotations

import pytest

from assistant import slots
from assistant.errors import InputError
from assistant.tiles import NotationError, Tile, parse_layout


@pytest.mark.parametrize("text", ["r1 r2 ? | k5 b5 o5", "J r5 r6", "", "? ? ?"])
def test_slots_round_trip(text: str) -> None:
    assert slots.format_slots(slots.parse_slots(text)) == text



def test_slots_without_question_marks_agree_with_the_contract_parser() -> None:
    text = "r1 r2 r3 | k5, b5 o5\nJ o7 o8"
    assert slots.parse_slots(text) == parse_layout(text)



def test_bad_token_is_a_notation_error_naming_it() -> None:
    with pytest.raises(NotationError, match="x9"):
        slots.parse_slots("r1 x9")



def test_known_sets_refuses_unread_tiles() -> None:
    with pytest.raises(InputError, match="2 tile"):
        slots.known_sets(slots.parse_slots("r1 ? ? | k1 k2 k3"))



def test_replace_and_remove_a_tile() -> None:
    assert slots.replace_slot("r1 ? r3 | k1", 0, 1, Tile.parse("r2")) == "r1 r2 r3 | k1"
    assert slots.replace_slot("r1 r2 r3 | k1", 1, 0, None) == "r1 r2 r3"
    with pytest.raises(InputError, match="no tile 4 in set 1"):
        slots.replace_slot("r1 r2 r3", 0, 3, None)


def test_count_sets_counts_a_loose_tile_as_a_set_of_one() -> None:
    from assistant.slots import count_sets

    count = count_sets([[1, 2, 3], [4, 5, 6], [7], [8], [9, None]], [True, True, False, False, None])
    assert (count.sets, count.valid, count.invalid, count.unjudged, count.single) == (5, 2, 2, 1, 2)
    assert count.describe() == "5 sets: 2 valid, 2 invalid, 1 not judged (2 single tiles)"
    assert count_sets([[1, 2, 3]], [True]).describe() == "1 set: 1 valid, 0 invalid"
