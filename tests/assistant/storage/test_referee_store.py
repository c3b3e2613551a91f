"""Referee games stored with their game (issue 29), on SQLite and PostgreSQL: each judged turn with its call
and snapshot, the referee resumed from the database, and stale or bad writes refused with nothing lost."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from assistant.referee import Referee, seen_table
from assistant.rules import find_preset
from assistant.storage import Storage, StorageError
from assistant.storage.referee import RefereeStore
from assistant.tiles import parse_layout

RULES = find_preset("standard")
JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8 + b"\xff\xd9"


@pytest.fixture
def store(db_url: str) -> Storage:
    return Storage(db_url)


@pytest.fixture
def game_id(store: Storage) -> int:
    return store.create_game("Friday", "standard", ["Ann", "Bob", "Cid"])


def observe(referee: Referee, layout: str) -> object:
    return referee.observe(seen_table(parse_layout(layout)), time_s=1.0, frame=5)


def test_a_game_has_no_referee_game_until_one_is_started(store: Storage, game_id: int) -> None:
    assert RefereeStore(store.db).current(game_id) is None


def test_turns_and_state_round_trip_and_the_referee_resumes(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    referee = Referee(RULES, players=3, first_seat=2)
    rid = referees.start(game_id, referee.to_json(), settle_s=2.5, sound=False)
    observe(referee, "r10 r11 r12")  # the start: no call
    played = observe(referee, "r10 r11 r12 | k7 b7 o7 | o1 o2 o3")
    assert played is not None and played.legal
    referees.record(rid, played, referee.to_json(), JPEG)
    drew = referee.drew(3.0)
    referees.record(rid, drew, referee.to_json())

    stored = RefereeStore(Storage(store.url).db).current(game_id)  # another connection, as a restarted app
    assert stored is not None
    assert (stored.id, stored.players, stored.first_seat, stored.settle_s, stored.sound) == (
        rid,
        3,
        2,
        2.5,
        False,
    )
    assert [t.call for t in stored.turns] == [played, drew]
    assert [t.has_snapshot for t in stored.turns] == [True, False]
    assert referees.snapshots(rid, [1, 2, 7]) == {1: JPEG}
    resumed = Referee.from_json(stored.state, RULES)
    assert resumed.history == [played, drew] and resumed.seat == referee.seat == 1


def test_an_override_replaces_the_last_call(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    referee = Referee(RULES, players=2)
    rid = referees.start(game_id, referee.to_json())
    observe(referee, "r10 r11 r12")
    bad = observe(referee, "r10 r11 r12 | k7 b7")
    assert bad is not None and not bad.legal
    referees.record(rid, bad, referee.to_json(), JPEG)
    fixed = referee.override(True)
    referees.correct(rid, fixed, referee.to_json())
    stored = referees.current(game_id)
    assert stored is not None and len(stored.turns) == 1
    assert stored.turns[0].call.legal and stored.turns[0].call.overridden
    assert stored.turns[0].has_snapshot  # the correction keeps the snapshot
    assert Referee.from_json(stored.state, RULES).seat == 2


def test_a_turn_recorded_twice_is_refused_and_nothing_changes(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    referee = Referee(RULES, players=2)
    rid = referees.start(game_id, referee.to_json())
    first = referee.drew()
    referees.record(rid, first, referee.to_json())
    other_tab = Referee.from_json(referees.current(game_id).state, RULES)  # type: ignore[union-attr]
    second = referee.drew()
    referees.record(rid, second, referee.to_json())
    stale = other_tab.drew()  # the other tab's referee did not see turn 2
    with pytest.raises(StorageError, match="not the next turn"):
        referees.record(rid, stale, other_tab.to_json())
    with pytest.raises(StorageError, match="not the last turn"):
        referees.correct(rid, first, Referee.from_json(referee.to_json(), RULES).to_json() | {"history": [1]})
    stored = referees.current(game_id)
    assert stored is not None and [t.call for t in stored.turns] == [first, second]
    assert Referee.from_json(stored.state, RULES).history == [first, second]


def test_a_state_that_does_not_end_with_the_call_is_refused(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    referee = Referee(RULES, players=2)
    rid = referees.start(game_id, referee.to_json())
    before = referee.to_json()
    call = referee.drew()
    with pytest.raises(StorageError, match="holds 0 calls, not the 1"):
        referees.record(rid, call, before)
    assert referees.current(game_id).turns == ()  # type: ignore[union-attr]


def test_a_new_referee_game_keeps_the_old_one_and_the_old_tab_is_refused(
    store: Storage, game_id: int
) -> None:
    referees = RefereeStore(store.db)
    old = Referee(RULES, players=2)
    old_id = referees.start(game_id, old.to_json())
    referees.record(old_id, old.drew(), old.to_json())
    new_id = referees.start(game_id, Referee(RULES, players=3, first_seat=3).to_json(), settle_s=1.0)
    current = referees.current(game_id)
    assert current is not None and (current.id, current.players, current.turns) == (new_id, 3, ())
    with pytest.raises(StorageError, match="new referee game was started"):
        referees.record(old_id, old.drew(), old.to_json())
    # The old game's turn is still there.
    assert (
        store.db.run(
            lambda conn: conn.exec_driver_sql("SELECT COUNT(*) FROM referee_turns").scalar_one(), write=False
        )
        == 1
    )


@pytest.mark.parametrize("settle", [0, -1, 31, float("nan"), "soon"])
def test_a_bad_settle_time_is_refused(store: Storage, game_id: int, settle: object) -> None:
    referees = RefereeStore(store.db)
    rid = referees.start(game_id, Referee(RULES).to_json(), settle_s=1.5)
    with pytest.raises(StorageError, match="settle time"):
        referees.set_settings(rid, settle_s=settle)  # type: ignore[arg-type]
    with pytest.raises(StorageError, match="settle time"):
        referees.start(game_id, Referee(RULES).to_json(), settle_s=settle)  # type: ignore[arg-type]
    assert referees.current(game_id).settle_s == 1.5  # type: ignore[union-attr]


def test_settings_change(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    rid = referees.start(game_id, Referee(RULES).to_json(), settle_s=1.5, sound=True)
    referees.set_settings(rid, settle_s=3)
    referees.set_settings(rid, sound=False)
    stored = referees.current(game_id)
    assert stored is not None and (stored.settle_s, stored.sound) == (3.0, False)
    with pytest.raises(StorageError, match="no referee game"):
        referees.set_settings(rid + 100, sound=True)


def test_no_such_game(store: Storage) -> None:
    with pytest.raises(StorageError, match="no game with id 99"):
        RefereeStore(store.db).start(99, Referee(RULES).to_json())


def test_deleting_a_game_deletes_its_referee_games(store: Storage, game_id: int) -> None:
    referees = RefereeStore(store.db)
    referee = Referee(RULES, players=2)
    rid = referees.start(game_id, referee.to_json())
    referees.record(rid, referee.drew(), referee.to_json(), JPEG)
    store.db.run(lambda conn: conn.exec_driver_sql(f"DELETE FROM games WHERE id = {game_id}"))
    assert referees.current(game_id) is None
    assert referees.snapshots(rid, [1]) == {}


def test_a_guard_refuses_writes_and_nothing_changes(store: Storage, game_id: int) -> None:
    asked: list[tuple[int, str]] = []

    def viewer(game: int, action: str) -> None:
        asked.append((game, action))
        raise StorageError(f"a viewer cannot {action}")

    open_store = RefereeStore(store.db)
    referee = Referee(RULES, players=2)
    rid = open_store.start(game_id, referee.to_json())
    guarded = RefereeStore(store.db, guard=viewer)
    with pytest.raises(StorageError, match="cannot record a referee's call"):
        guarded.record(rid, referee.drew(), referee.to_json())
    with pytest.raises(StorageError, match="cannot change the referee's settings"):
        guarded.set_settings(rid, settle_s=4)
    with pytest.raises(StorageError, match="cannot start a referee game"):
        guarded.start(game_id, Referee(RULES).to_json())
    assert [game for game, _ in asked] == [game_id] * 3
    stored = open_store.current(game_id)
    assert stored is not None and (stored.id, stored.turns, stored.settle_s) == (rid, (), 1.5)


def test_a_database_from_before_the_referee_migrates_keeping_every_score(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from alembic import command

    import assistant.storage.database as database

    def only_to_0004(db: database.Database) -> None:
        def migrate(conn: sa.Connection) -> None:
            config = database._alembic_config()
            config.attributes["connection"] = conn
            try:
                command.upgrade(config, "0004")
            finally:
                config.attributes.pop("connection", None)

        db.run(migrate, write=True)

    with monkeypatch.context() as patched:
        patched.setattr(database, "upgrade_schema", only_to_0004)
        old = Storage(db_url)
        with old.db.connect(write=False) as conn:
            assert database.schema_revision(conn) == "0004"
            assert "referee_games" not in sa.inspect(conn).get_table_names()
        game = old.create_game("Friday", "standard", ["Ann", "Bob"])
        old.record_round(game, 1, False, {0: "", 1: "r3"}, {0: 0, 1: 3}, {0: 3, 1: -3}, {0})
        before = (old.load_game(game), old.rounds(game))
    store = Storage(db_url)
    with store.db.connect(write=False) as conn:
        assert database.schema_revision(conn) == database.head_revision() == "0005"
    assert (store.load_game(game), store.rounds(game)) == before
    referees = RefereeStore(store.db)
    referee = Referee(RULES, players=2)
    rid = referees.start(game, referee.to_json())
    referees.record(rid, referee.drew(), referee.to_json())
    assert len(referees.current(game).turns) == 1  # type: ignore[union-attr]


def test_the_game_record_is_made_from_what_is_stored_and_survives_a_new_storage(
    store: Storage, game_id: int
) -> None:
    from assistant.game_record import parse_record

    referees = RefereeStore(store.db)
    assert referees.game_record(game_id) is None  # no referee game yet
    referee = Referee(find_preset("standard+gentle-joker"), players=3, first_seat=2)
    rid = referees.start(game_id, referee.to_json())
    observe(referee, "r10 r11 r12")  # the start
    played = observe(referee, "r10 r11 r12 | k7 b7 o7")
    referees.record(rid, played, referee.to_json(), JPEG)
    referees.record(rid, referee.drew(3.0), referee.to_json())
    bad = observe(referee, "r10 r11 r12 | k7 b7 o7 | k1 k2")
    referees.record(rid, bad, referee.to_json(), JPEG)
    fixed = referee.override(True)
    referees.correct(rid, fixed, referee.to_json())

    again = RefereeStore(Storage(store.url).db)  # a new storage object on the same database: a restarted app
    record = again.game_record(game_id)
    assert record is not None and record == referees.game_record(game_id)
    header = record.header
    assert (header.game, header.players, header.first_seat) == ("Friday", 3, 2)
    assert header.seats == ("Ann", "Bob", "Cid") and header.source == "app"
    assert header.rules == "standard"  # the game's own rules, as the app judges it
    assert [c.call for c in record.calls] == [played, referee.history[1], fixed]
    assert record.calls[2].call.overridden and record.calls[2].call.legal
    start = tuple(tuple(s) for s in parse_layout("r10 r11 r12"))
    assert [c.table_before for c in record.calls] == [start, played.table, played.table]
    assert [c.snapshot for c in record.calls] == [f"referee/{rid}/turn/1", None, f"referee/{rid}/turn/3"]
    assert all(c.recorded_at and c.recorded_at.endswith("Z") for c in record.calls)
    assert parse_record(record.to_bytes()) == record  # the file the app exports reads back the same
    number = int(record.calls[2].snapshot.rsplit("/", 1)[1])  # type: ignore[union-attr]
    assert again.snapshots(rid, [number]) == {3: JPEG}  # the reference finds the picture


def test_a_game_record_of_a_game_with_more_seats_than_players_names_them_by_seat(
    store: Storage, game_id: int
) -> None:
    referees = RefereeStore(store.db)
    referees.start(game_id, Referee(RULES, players=4).to_json())
    record = referees.game_record(game_id)
    assert record is not None and record.header.seats == ("Ann", "Bob", "Cid", "Seat 4")
    assert record.calls == ()
