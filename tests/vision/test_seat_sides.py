"""Each seat's side of the frame (`vision.watch.SeatSides`, issue 36): given by a person or learned, kept as
JSON with a stored referee game, and a game stored without them learning them anew."""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext

import pytest

from assistant.referee import Referee
from vision.watch import GameWatcher, SeatSides, SeatSidesError, given_sides


@pytest.mark.parametrize(
    "seats",
    [
        SeatSides(2),
        SeatSides(2, {1: "bottom", 2: "top"}),
        SeatSides(3, {1: "bottom"}, {2: "top", 3: "left"}),
        SeatSides(4, learned={3: "right"}),
    ],
    ids=["none", "given", "given and learned", "learned"],
)
def test_sides_round_trip_through_json(seats: SeatSides) -> None:
    data = json.loads(json.dumps(seats.to_json()))
    again = SeatSides.from_json(data, seats.players)
    assert again == seats
    assert (again.sides, again.fixed, again.learned) == (seats.sides, seats.fixed, seats.learned)


def test_given_sides_are_fixed_and_learned_ones_keep_learning_the_missing_seats() -> None:
    seats = SeatSides.from_json({"given": {"1": "bottom"}, "learned": {"2": "top"}}, players=3)
    assert seats.fixed == {1} and seats.given == {1: "bottom"} and seats.learned == {2: "top"}
    seats.learn(1, "left")  # a given side is never learned over
    seats.learn(2, "left")  # nor a learned one
    seats.learn(3, "top")  # a side another seat has is no seat 3's
    assert seats.sides == {1: "bottom", 2: "top"} and seats.seat_of("top") is None  # seat 3 still to learn
    seats.learn(3, "right")
    assert seats.sides == {1: "bottom", 2: "top", 3: "right"} and seats.seat_of("top") == 2


def test_a_game_stored_without_sides_learns_them() -> None:
    seats = SeatSides.from_json(None, players=2)
    assert seats.sides == {} and not seats.fixed
    seats.learn(1, "bottom")
    seats.learn(2, "top")
    assert seats.seat_of("top") == 2 and seats.learned == {1: "bottom", 2: "top"}


def test_a_given_side_drops_a_learned_one_it_contradicts() -> None:
    seats = SeatSides(3, given={1: "top"}, learned={2: "top", 3: "left"})
    assert seats.sides == {1: "top", 3: "left"} and seats.learned == {3: "left"}


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"given": {"1": "top", "2": "top"}}, "seat 1 and seat 2 are both given the top side"),
        ({"given": {"1": "ceiling"}}, "'ceiling' is no side of the picture"),
        ({"learned": {"2": "under"}}, "'under' is no side of the picture"),
        ({"given": {"3": "left"}}, "there is no seat 3: this game has seats 1 to 2"),
        ({"given": {"one": "left"}}, "the seats' sides cannot be read"),
        ({"given": ["left"]}, "the seats' sides cannot be read"),
    ],
    ids=["side twice", "no such side", "no such learned side", "no such seat", "not a seat", "not a map"],
)
def test_sides_that_cannot_be_the_seats_are_refused_by_name(data: dict[str, object], said: str) -> None:
    with pytest.raises(SeatSidesError, match=said) as raised:
        SeatSides.from_json(data, players=2)
    assert isinstance(raised.value, ValueError)


@pytest.mark.parametrize(
    ("chosen", "expected", "raises"),
    [
        ({1: "bottom", 2: None}, {1: "bottom"}, nullcontext()),
        ({1: None, 2: None}, {}, nullcontext()),
        ({1: "left", 2: "right"}, {1: "left", 2: "right"}, nullcontext()),
        ({1: "left", 2: "left"}, None, pytest.raises(SeatSidesError, match="both given the left side")),
    ],
)
def test_given_sides_leave_out_the_seats_to_learn(
    chosen: dict[int, str | None], expected: dict[int, str] | None, raises: AbstractContextManager[object]
) -> None:
    with raises:
        assert given_sides(chosen, players=2) == expected


def test_the_sides_in_words() -> None:
    seats = SeatSides(3, {1: "bottom"}, {2: "top"})
    assert seats.describe() == "Seat 1: bottom (set) · Seat 2: top (learned) · Seat 3: learning"
    assert seats.describe({1: "Ann"}).startswith("Ann: bottom (set) · Seat 2:")


def test_the_watcher_takes_a_resumed_games_sides() -> None:
    seats = SeatSides(2, {1: "bottom"}, {2: "top"})
    watcher = GameWatcher(object(), Referee(players=2), seat_sides=seats)
    assert watcher.seats is seats
    given = GameWatcher(object(), Referee(players=2), seat_sides={1: "left"})
    assert given.seats == SeatSides(2, {1: "left"})
