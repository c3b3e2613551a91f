"""Tournaments in the database, on SQLite and PostgreSQL: seating, games recorded once, standings, rounds,
and a server lost in the middle of a game."""

from __future__ import annotations

import threading
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from assistant.hall import next_round, open_hall, record_table_game, standings, start_tournament
from assistant.rules import find_preset
from assistant.scoring import FailedOpening
from assistant.storage import StorageError, StorageUnavailable
from assistant.storage.tournaments import GameConflict, KeyReused, TournamentStore, UnknownTournament
from assistant.tournament import TournamentError, draw_tables

PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


@pytest.fixture
def hall(db_url: str) -> TournamentStore:
    return open_hall(db_url)


@pytest.fixture
def cup(hall: TournamentStore) -> tuple[tuple[str, ...], ...]:
    return start_tournament(hall, "Cup", PLAYERS, table_size=4, seed="s1").tables


def _game_at(tables: tuple[tuple[str, ...], ...], table: int, winner: int = 0) -> dict[str, str]:
    """Racks for a game at `table`: the `winner`-th player went out, the others hold r1, r2, ..."""
    racks = {}
    for index, player in enumerate(tables[table - 1]):
        racks[player] = "" if index == winner else f"r{index + 1}"
    return racks


def test_a_tournament_is_seated_by_its_seed(hall: TournamentStore, cup: Any) -> None:
    tournament = hall.load("Cup")
    assert tournament.tables == draw_tables(PLAYERS, 4, "s1", find_preset("tournament"))
    assert (tournament.preset, tournament.current_round, tournament.seed, tournament.games) == (
        "tournament",
        1,
        "s1",
        0,
    )
    assert tournament.players == tuple(PLAYERS)
    assert hall.names() == ["Cup"]


def test_names_are_unique(hall: TournamentStore, cup: Any) -> None:
    with pytest.raises(StorageError, match="'Cup' already exists"):
        start_tournament(hall, "Cup", ["X", "Y"])
    assert hall.load("Cup").players == tuple(PLAYERS)


def test_unknown_tournament(hall: TournamentStore) -> None:
    with pytest.raises(UnknownTournament, match="no tournament called 'Nope'"):
        record_table_game(hall, "Nope", 1, {"a": ""})
    with pytest.raises(UnknownTournament):
        standings(hall, "Nope")


def test_games_score_by_the_tournament_preset(hall: TournamentStore, cup: Any) -> None:
    table = cup[0]
    racks = {table[0]: "", table[1]: "J r5", table[2]: "k13", table[3]: "o1 o2"}
    game = record_table_game(hall, "Cup", 1, racks, {table[3]: FailedOpening.CHOSE_NOT})
    # 004_*.txt: a joker left on a rack is 50; a player who could have opened and did not owes 200.
    assert game.points == {table[0]: 55 + 13 + 203, table[1]: -55, table[2]: -13, table[3]: -203}
    assert (game.number, game.table, game.round, game.table_game, game.replayed) == (1, 1, 1, 1, False)
    assert sum(game.points.values()) == 0


def test_standings_by_games_won_then_score(hall: TournamentStore, cup: Any) -> None:
    first, second = cup
    record_table_game(hall, "Cup", 1, {first[0]: "", first[1]: "r9", first[2]: "k9", first[3]: "b9"})
    record_table_game(hall, "Cup", 1, {first[0]: "r1", first[1]: "", first[2]: "k1", first[3]: "b1"})
    record_table_game(hall, "Cup", 2, {second[0]: "r1", second[1]: "r2", second[2]: "", second[3]: "r3"})
    games, rows = standings(hall, "Cup")
    assert games == 3
    top = [(r.name, r.games_won, r.score) for r in rows[:3]]
    assert top == [(first[0], 1, 27 - 1), (second[2], 1, 6), (first[1], 1, -9 + 3)]
    assert sum(r.score for r in rows) == 0
    assert [r.games for r in rows].count(0) == 0


def test_a_player_at_another_table_is_refused_and_nothing_is_stored(hall: TournamentStore, cup: Any) -> None:
    first, second = cup
    record_table_game(hall, "Cup", 1, _game_at(cup, 1))
    racks = {**_game_at(cup, 1), second[0]: "r5"}
    with pytest.raises(TournamentError, match=f"'{second[0]}' plays at table 2, not at table 1"):
        record_table_game(hall, "Cup", 1, racks)
    assert standings(hall, "Cup")[0] == 1


def test_the_same_submission_twice_records_once(hall: TournamentStore, cup: Any) -> None:
    first = record_table_game(hall, "Cup", 1, _game_at(cup, 1), request_key="dev-1:game-1")
    again = record_table_game(hall, "Cup", 1, _game_at(cup, 1), request_key="dev-1:game-1")
    assert again.replayed and (again.number, again.points) == (first.number, first.points)
    assert standings(hall, "Cup")[0] == 1


def test_a_key_sent_again_with_another_result_is_refused(hall: TournamentStore, cup: Any) -> None:
    racks = {player: "" if i == 0 else f"r{i} k{i}" for i, player in enumerate(cup[0])}
    first = record_table_game(hall, "Cup", 1, racks, request_key="k1")
    shuffled = {player: " ".join(reversed(rack.split())) for player, rack in racks.items()}
    assert record_table_game(hall, "Cup", 1, shuffled, request_key="k1").replayed  # racks in any order
    with pytest.raises(KeyReused, match="key 'k1' already recorded game 1 .* is different and was not"):
        record_table_game(hall, "Cup", 1, _game_at(cup, 1, winner=1), request_key="k1")
    # The device resending after a lost answer may see its game recorded and so offer the next number.
    assert record_table_game(hall, "Cup", 1, racks, request_key="k1", table_game=2).replayed
    with pytest.raises(KeyReused):
        record_table_game(hall, "Cup", 2, _game_at(cup, 2), request_key="k1")
    with pytest.raises(StorageError, match="key is empty"):
        record_table_game(hall, "Cup", 1, _game_at(cup, 1, winner=2), request_key="")
    assert [(g.request_key, g.points) for g in hall.games("Cup")] == [("k1", first.points)]


def test_two_devices_entering_the_same_table_game_record_it_once(hall: TournamentStore, cup: Any) -> None:
    record_table_game(hall, "Cup", 1, _game_at(cup, 1), request_key="phone", table_game=1)
    with pytest.raises(GameConflict, match="game 1 at table 1 is already recorded"):
        record_table_game(hall, "Cup", 1, _game_at(cup, 1, winner=1), request_key="tablet", table_game=1)
    assert [g.request_key for g in hall.games("Cup")] == ["phone"]


def test_two_devices_at_the_same_instant(db_url: str, cup: Any) -> None:
    # Eight threads, each with its own connection, send the same two games at once (two devices, each
    # sending four times): each game is stored once, under the first key that won.
    barrier = threading.Barrier(8)
    results: list[Any] = []

    def device(index: int) -> None:
        hall = open_hall(db_url)
        barrier.wait()
        key = f"game-{index % 2}"
        try:
            results.append(
                record_table_game(hall, "Cup", 1 + index % 2, _game_at(cup, 1 + index % 2), request_key=key)
            )
        except StorageError as error:  # pragma: no cover - shown if it happens
            results.append(error)

    threads = [threading.Thread(target=device, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(not isinstance(r, Exception) for r in results), results
    assert sorted(r.replayed for r in results) == [False, False] + [True] * 6
    games = open_hall(db_url).games("Cup")
    assert sorted(g.request_key for g in games) == ["game-0", "game-1"]
    assert sorted(g.number for g in games) == [1, 2]


def test_rounds_reseat_by_standings_or_a_new_raffle(hall: TournamentStore, cup: Any) -> None:
    first, second = cup
    record_table_game(hall, "Cup", 1, _game_at(cup, 1, winner=2))
    record_table_game(hall, "Cup", 2, _game_at(cup, 2, winner=1))
    by_standings = next_round(hall, "Cup", "standings")
    leaders = [r.name for r in standings(hall, "Cup")[1]]
    assert by_standings.current_round == 2 and by_standings.seating == "standings"
    assert by_standings.tables == (tuple(leaders[:4]), tuple(leaders[4:]))
    by_raffle = next_round(hall, "Cup", "raffle", seed="r3")
    assert by_raffle.current_round == 3
    assert by_raffle.tables == draw_tables(PLAYERS, 4, "r3", find_preset("tournament"))
    assert hall.tables("Cup", 1) == cup


def test_a_round_is_started_once(hall: TournamentStore, cup: Any) -> None:
    tables = hall.load("Cup").tables
    hall.new_round("Cup", 2, tables, "raffle", "x")
    with pytest.raises(StorageError, match="round 2 of 'Cup' cannot start: round 2 is the current one"):
        hall.new_round("Cup", 2, tables, "raffle", "y")


def test_a_late_game_of_an_earlier_round_counts_there(hall: TournamentStore, cup: Any) -> None:
    next_round(hall, "Cup", "raffle", seed="other")
    late = record_table_game(hall, "Cup", 1, _game_at(cup, 1), round_number=1)
    assert late.round == 1
    assert standings(hall, "Cup", round_number=1)[0] == 1
    assert standings(hall, "Cup", round_number=2)[0] == 0


# A lost server (PostgreSQL) ------------------------------------------------------------------------------


@pytest.fixture
def pg_hall(pg_url: str) -> TournamentStore:
    return open_hall(pg_url, timeout_s=3)


def test_an_unreachable_server_is_a_clear_message() -> None:
    with pytest.raises(StorageUnavailable, match="cannot reach the database server .*Everything confirmed"):
        open_hall("postgresql+psycopg://rummi@/rummi?host=/nonexistent-folder", timeout_s=1)


def test_a_server_lost_mid_game_loses_nothing_confirmed(
    pg_hall: TournamentStore, pg_admin: sa.Engine, request: pytest.FixtureRequest
) -> None:
    start_tournament(pg_hall, "Cup", PLAYERS, seed="s1")
    tables = pg_hall.load("Cup").tables
    confirmed = record_table_game(pg_hall, "Cup", 1, _game_at(tables, 1), request_key="first")

    def cut_the_line(conn: Any, _cursor: Any, statement: str, *_: Any) -> None:
        if statement.startswith("INSERT INTO tournament_scores"):
            pid = conn.connection.dbapi_connection.info.backend_pid
            with pg_admin.connect() as admin:
                admin.execute(sa.text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})

    engine = pg_hall.db.engine
    event.listen(engine, "before_cursor_execute", cut_the_line)
    request.addfinalizer(
        lambda: (
            event.contains(engine, "before_cursor_execute", cut_the_line)
            and event.remove(engine, "before_cursor_execute", cut_the_line)
        )
    )
    with pytest.raises(StorageUnavailable, match="Everything confirmed before is kept"):
        record_table_game(pg_hall, "Cup", 2, _game_at(tables, 2), request_key="second")
    event.remove(engine, "before_cursor_execute", cut_the_line)

    [kept] = pg_hall.games("Cup")  # the half-written game is not there; the confirmed one is
    assert (kept.request_key, kept.points) == ("first", confirmed.points)
    sent_again = record_table_game(pg_hall, "Cup", 2, _game_at(tables, 2), request_key="second")
    assert not sent_again.replayed and sent_again.number == 2
    assert record_table_game(pg_hall, "Cup", 2, _game_at(tables, 2), request_key="second").replayed
    assert standings(pg_hall, "Cup")[0] == 2
