"""Each seat's side of the camera kept with a stored referee game (issue 36, `RefereeStore.set_seat_sides`),
on SQLite and PostgreSQL: stored in the referee's state with its calls untouched, carried by the states
stored after it, and a game stored without them still read."""

from __future__ import annotations

import pytest

from assistant.referee import Referee
from assistant.rules import find_preset
from assistant.storage import Storage, StorageError
from assistant.storage.referee import SEAT_SIDES, RefereeStore

RULES = find_preset("standard")
SIDES = {"given": {"1": "bottom"}, "learned": {"2": "top"}}


@pytest.fixture
def store(db_url: str) -> Storage:
    return Storage(db_url)


@pytest.fixture
def game_id(store: Storage) -> int:
    return store.create_game("Friday", "standard", ["Ann", "Bob"])


def test_the_sides_are_kept_with_the_state_and_its_calls(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    referee = Referee(RULES, players=2)
    rid = referees.start(game_id, referee.to_json())
    drew = referee.drew(1.0)
    referees.record(rid, drew, referee.to_json())
    assert SEAT_SIDES not in referees.current(game_id).state  # type: ignore[union-attr]  # stored before
    referees.set_seat_sides(rid, SIDES)
    stored = RefereeStore(Storage(store.url).db).current(game_id)  # another connection, as a restarted app
    assert stored is not None and stored.state[SEAT_SIDES] == SIDES
    assert [t.call for t in stored.turns] == [drew]
    assert Referee.from_json(stored.state, RULES).history == [drew]  # the referee reads past them
    referees.record(rid, referee.drew(2.0), {**referee.to_json(), SEAT_SIDES: {"given": {}, "learned": {}}})
    assert referees.current(game_id).state[SEAT_SIDES] == {"given": {}, "learned": {}}  # type: ignore[union-attr]


def test_sides_for_no_such_referee_game_are_refused(store: Storage, game_id: int) -> None:
    with pytest.raises(StorageError, match="no referee game with id 99"):
        RefereeStore(store.db).set_seat_sides(99, SIDES)


def test_sides_that_are_not_json_are_refused_and_nothing_changes(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    rid = referees.start(game_id, Referee(RULES, players=2).to_json())
    with pytest.raises(StorageError, match="cannot be stored"):
        referees.set_seat_sides(rid, {"given": {1: object()}})
    assert SEAT_SIDES not in referees.current(game_id).state  # type: ignore[union-attr]
