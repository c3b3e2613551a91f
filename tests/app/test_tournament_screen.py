"""The Tournament screen, driven by AppTest: the director draws the tables and follows the standings; a
table's device joins by its link and records games once, even when the server drops or two devices race."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from app_fakes import APP
from streamlit.testing.v1 import AppTest

from assistant import hall as hall_module
from assistant.hall import open_hall
from assistant.rules import find_preset
from assistant.storage import StorageUnavailable, default_db_url
from assistant.storage.links import TableLinks
from assistant.storage.tournaments import TournamentStore
from assistant.tournament import TableLink, draw_tables
from ui import tournament as screen

NewTab = Callable[[], AppTest]
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def director(new_tab: NewTab) -> AppTest:
    at = new_tab()
    at.radio(key="screen").set_value("Tournament").run()
    return at


def draw(at: AppTest, name: str = "Cup", seed: str = "7") -> AppTest:
    at.text_input(key="new_tournament_name").input(name)
    at.text_area(key="new_tournament_players").input("\n".join(PLAYERS))
    at.text_input(key="new_tournament_seed").input(seed)
    at.button[[b.label for b in at.button].index("Draw the tables")].click()
    return at.run()


def table_device(table: int, name: str = "Cup") -> AppTest:
    """A new tab opened from table `table`'s link (its QR code)."""
    at = AppTest.from_file(APP, default_timeout=30)
    link = TableLink(name, table)
    at.query_params["tournament"] = link.tournament
    at.query_params["table"] = str(link.table)
    return at.run()


def enter_racks(at: AppTest, racks: dict[str, str]) -> AppTest:
    for player, rack in racks.items():
        at.text_input(key=f"hall_rack_{player}").input(rack)
    return at


def press(at: AppTest, label_start: str) -> AppTest:
    [button] = [b for b in at.button if b.label.startswith(label_start)]
    button.click()
    return at.run()


@pytest.fixture
def seated(app: NewTab) -> tuple[tuple[str, ...], ...]:
    draw(director(app))
    return draw_tables(PLAYERS, 4, "7", find_preset("tournament"))


def test_the_director_draws_the_tables_by_raffle(app: NewTab) -> None:
    at = draw(director(app))
    assert not at.exception
    expected = draw_tables(PLAYERS, 4, "7", find_preset("tournament"))
    shown = [m.value for m in at.markdown if m.value.startswith("**Table ")]
    assert shown == [f"**Table {n}**: {', '.join(t)}" for n, t in enumerate(expected, start=1)]
    assert "Cup: 2 tables drawn (seed 7)." in [s.value for s in at.success]
    codes = [c.value for c in at.code]
    token = TableLinks(open_hall(default_db_url()).db).table_token("Cup", 2)  # the table's own token
    assert any(code.endswith(f"/?tournament=Cup&table=2&key={token}") for code in codes)
    assert len(at.image) == 2  # a QR code per table
    assert open_hall(default_db_url()).load("Cup").tables == expected


def test_a_bad_player_list_is_refused_with_a_message(app: NewTab) -> None:
    at = director(app)
    at.text_input(key="new_tournament_name").input("Cup")
    at.text_area(key="new_tournament_players").input("Ann, Ann, Bob")
    press(at, "Draw the tables")
    assert not at.exception
    assert "Tournament not created: player names must differ: Ann given twice" in [e.value for e in at.error]


def test_a_table_joins_by_its_link_and_records_a_game(seated: tuple[tuple[str, ...], ...]) -> None:
    table = seated[0]
    at = table_device(1)
    assert not at.exception
    assert at.radio(key="screen").value == "Tournament"
    assert f"**Cup, table 1**, round 1: {', '.join(table)}" in [m.value for m in at.markdown]
    enter_racks(at, {table[0]: "", table[1]: "r5 J", table[2]: "k1", table[3]: "o13"})
    at = press(at, "Record game 1")
    assert not at.exception, at.exception
    assert at.success[0].value.startswith("Game 1 at table 1 recorded")
    [game] = open_hall(default_db_url()).games("Cup")
    assert game.points == {table[0]: 69, table[1]: -55, table[2]: -1, table[3]: -13}  # joker 50 (004_*.txt)
    assert at.text_input(key=f"hall_rack_{table[1]}").value == ""  # ready for the next game
    assert [b.label for b in at.button if b.label.startswith("Record")] == ["Record game 2"]


def test_the_director_sees_the_standings_and_starts_a_round(app: NewTab, seated: tuple) -> None:
    device = table_device(2)
    enter_racks(device, {p: ("" if i == 1 else f"b{i + 1}") for i, p in enumerate(seated[1])})
    press(device, "Record game 1")
    at = director(app)
    frame = [d.value for d in at.dataframe if "games won" in d.value.columns][-1]
    assert frame.iloc[0]["player"] == seated[1][1] and frame.iloc[0]["games won"] == 1
    assert frame["score"].sum() == 0
    at.radio(key="next_round_by").set_value("standings")
    at = press(at, "Start round 2")
    assert not at.exception
    assert "Round 2 seated (standings)." in [s.value for s in at.success]
    assert open_hall(default_db_url()).load("Cup").tables[0][0] == seated[1][1]


def test_two_devices_on_one_game_record_it_once(seated: tuple[tuple[str, ...], ...]) -> None:
    table = seated[0]
    racks = {p: ("" if i == 0 else f"r{i + 1}") for i, p in enumerate(table)}
    phone, tablet = enter_racks(table_device(1), racks), enter_racks(table_device(1), racks)
    press(phone, "Record game 1")
    tablet = press(tablet, "Record game 1")
    assert not tablet.exception
    assert "game 1 at table 1 is already recorded" in tablet.error[0].value
    assert len(open_hall(default_db_url()).games("Cup")) == 1


def test_a_lost_server_keeps_the_racks_and_a_second_press_records_once(
    seated: tuple[tuple[str, ...], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seated[0]
    racks = {p: ("" if i == 2 else f"k{i + 1}") for i, p in enumerate(table)}
    at = enter_racks(table_device(1), racks)
    real = hall_module.record_table_game

    def arrives_but_the_answer_is_lost(*args: object, **kwargs: object) -> object:
        real(*args, **kwargs)  # type: ignore[arg-type]
        raise StorageUnavailable(
            "cannot reach the database server (test). Everything confirmed before is kept"
        )

    monkeypatch.setattr(screen, "record_table_game", arrives_but_the_answer_is_lost)
    at = press(at, "Record game 1")
    assert not at.exception
    assert at.error[0].value.startswith("Not confirmed: cannot reach the database server")
    assert at.text_input(key=f"hall_rack_{table[1]}").value == "k2"  # nothing typed is lost
    monkeypatch.setattr(screen, "record_table_game", real)
    at = press(at, "Record game")  # the same game, sent again with the same key
    assert "Game 1 at table 1 recorded (it had already arrived)" in at.success[0].value
    assert len(open_hall(default_db_url()).games("Cup")) == 1


def test_a_server_down_while_the_page_redraws_loses_no_typed_rack(
    seated: tuple[tuple[str, ...], ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    table = seated[0]
    racks = {p: ("" if i == 3 else f"o{i + 5}") for i, p in enumerate(table)}
    at = enter_racks(table_device(1), racks)

    def down(*_: object, **__: object) -> None:
        raise StorageUnavailable(
            "cannot reach the database server (test). Everything confirmed before is kept"
        )

    # The server goes down as Record is pressed: the game fails, and so does drawing the page again.
    with monkeypatch.context() as server_down:
        server_down.setattr(screen, "record_table_game", down)
        server_down.setattr(TournamentStore, "load", down)
        at = press(at, "Record game 1")
        assert not at.exception
        assert "cannot reach the database server" in at.error[0].value
        assert not [b for b in at.button if b.label.startswith("Record")]
    at.run()  # the server is back
    assert [at.text_input(key=f"hall_rack_{p}").value for p in table] == list(racks.values())
    at = press(at, "Record game 1")
    assert at.success[0].value.startswith("Game 1 at table 1 recorded")
    assert len(open_hall(default_db_url()).games("Cup")) == 1


def test_a_link_to_an_unknown_tournament_says_so(app: NewTab, tmp_path: Path) -> None:
    at = table_device(1, name="Nope")
    assert not at.exception
    assert "no tournament called 'Nope'" in at.error[0].value
