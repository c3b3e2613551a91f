"""Roles in the app, driven by AppTest: the director (the server's key, or with none set the server's own
computer) may change anything; a table's link records its own game or tournament table only; undo and
rename are the director's; a viewer changes nothing. Each refusal is checked in the server: the database
is read back unchanged."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from app_fakes import APP
from streamlit.testing.v1 import AppTest

from assistant.hall import open_hall, start_tournament
from assistant.storage import Storage, default_db_path, default_db_url
from assistant.storage.links import TableLinks
from ui import access as access_ui
from ui import common

NewTab = Callable[[], AppTest]
KEY = "club-night-director-2026"
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]


def texts(at: AppTest, kind: str) -> list[str]:
    return [str(element.value) for element in getattr(at, kind)]


def tab(**params: str) -> AppTest:
    """A new browser tab opened at `/?params`."""
    at = AppTest.from_file(APP, default_timeout=30)
    for name, value in params.items():
        at.query_params[name] = value
    return at.run()


def press(at: AppTest, label: str) -> AppTest:
    [button] = [b for b in at.button if b.label == label]
    button.click()
    return at.run()


def labels(at: AppTest) -> list[str]:
    return [b.label for b in at.button]


def role(at: AppTest) -> str:
    """What the sidebar says this device is."""
    return str(at.sidebar.markdown[0].value)


def sign_in(at: AppTest, key: str) -> AppTest:
    at.sidebar.text_input(key="director_key_input").input(key)
    return press(at, "Sign in as the director")


def screen(at: AppTest, name: str) -> AppTest:
    at.radio(key="screen").set_value(name)
    return at.run()


def record_round(at: AppTest, rack: str = "r5") -> AppTest:
    """Round 1 on the Round screen: the second player holds `rack`, the first went out."""
    screen(at, "Round")
    at.text_input(key="rack_1_1").input(rack).run()
    return press(at, "Confirm round 1")


def undo_round(at: AppTest) -> AppTest:
    at.checkbox(key="undo_sure_1").check().run()
    return press(at, "Undo round 1")


def two_games() -> Storage:
    storage = Storage(default_db_path())
    storage.create_game("Table 1", "standard", ["Ann", "Ben"])
    storage.create_game("Table 2", "standard", ["Cy", "Dee"])
    return storage


def cup() -> tuple[tuple[str, ...], ...]:
    return start_tournament(open_hall(default_db_url()), "Cup", PLAYERS, table_size=4, seed="7").tables


def table_link(table: int, token: str) -> dict[str, str]:
    return {"tournament": "Cup", "table": str(table), "key": token}


def racks(seated: tuple[str, ...]) -> dict[str, str]:
    return {player: ("" if i == 0 else f"r{i + 1}") for i, player in enumerate(seated)}


def enter_racks(at: AppTest, given: dict[str, str]) -> AppTest:
    for player, rack in given.items():
        at.text_input(key=f"hall_rack_{player}").input(rack)
    return at


@pytest.fixture
def keyed(app: NewTab, monkeypatch: pytest.MonkeyPatch) -> NewTab:
    """The app with a director key set on the server (a new tab per call, none signed in)."""
    monkeypatch.setenv("RUMMI_DIRECTOR_KEY", KEY)
    return app


# The director ---------------------------------------------------------------------------------------------


def test_with_a_key_set_only_signing_in_makes_the_director(keyed: NewTab) -> None:
    two_games()
    at = keyed()
    assert not at.exception
    assert role(at) == "This device is **a viewer**."  # even on the server's own computer
    at = sign_in(at, "not-the-director-key")
    assert role(at) == "This device is **a viewer**."
    assert "That is not the director key." in texts(at.sidebar, "error")
    at = sign_in(at, KEY)
    assert role(at) == "This device is **the director**."
    assert "Sign out" in labels(at)
    at = press(at, "Sign out")
    assert role(at) == "This device is **a viewer**."
    assert at.sidebar.text_input(key="director_key_input").value == ""  # the key did not stay in the page


def test_the_director_records_undoes_and_renames_in_any_game(keyed: NewTab) -> None:
    storage = two_games()
    at = sign_in(tab(game="2"), KEY)
    at = record_round(at)
    assert not at.exception
    assert [r.number for r in storage.rounds(2)] == [1]
    at = undo_round(at)
    assert storage.rounds(2) == []
    screen(at, "Game")
    at.text_input(key="rename_2_0").input("Zed")
    at = press(at, "Save names")
    assert not at.exception
    assert [p.name for p in storage.load_game(2).players] == ["Zed", "Dee"]
    at.text_input(key="new_players").input("Eve, Fay")
    at = press(at, "Create game")
    assert sorted(name for _, name in storage.list_games()) == ["Table 1", "Table 2", "Table 3"]


def test_the_director_runs_the_tournament_and_records_at_any_table(keyed: NewTab) -> None:
    at = screen(sign_in(keyed(), KEY), "Tournament")
    at.text_input(key="new_tournament_name").input("Cup")
    at.text_area(key="new_tournament_players").input("\n".join(PLAYERS))
    at.text_input(key="new_tournament_seed").input("7")
    at = press(at, "Draw the tables")
    assert "Cup: 2 tables drawn (seed 7)." in texts(at, "success")
    hall = open_hall(default_db_url())
    for table in (1, 2):
        at.radio(key="tournament_view").set_value("My table").run()
        at.text_input(key="join_tournament").input("Cup")
        at.number_input(key="join_table_number").set_value(table)
        at = press(at, "Join")
        enter_racks(at, racks(hall.load("Cup").tables[table - 1]))
        at = press(at, "Record game 1")
        assert not at.exception
        assert texts(at, "success")[0].startswith(f"Game 1 at table {table} recorded")
    assert sorted(g.table for g in hall.games("Cup")) == [1, 2]
    at.radio(key="tournament_view").set_value("Director").run()
    at = press(at, "Start round 2")
    assert hall.load("Cup").current_round == 2


# A club game's table ----------------------------------------------------------------------------------------


def test_a_games_link_records_that_game_only_and_cannot_undo_or_rename(keyed: NewTab) -> None:
    storage = two_games()
    token = TableLinks(storage.db).game_token(1)
    at = tab(game="2", key=token)  # the link of game 1, with game 2 asked for in the address
    assert not at.exception
    assert role(at) == "This device is **the table of game 1**."
    assert at.markdown[0].value.startswith("#### Table 1")  # game 1 shown, never game 2
    at = record_round(at)
    assert [r.number for r in storage.rounds(1)] == [1] and storage.rounds(2) == []
    assert "Undo round 1" not in labels(at)  # the director's: not offered (the server refuses it too)
    assert not [c for c in at.checkbox if str(c.key).startswith("undo_sure_")]
    assert [r.number for r in storage.rounds(1)] == [1]
    at = screen(at, "Game")
    assert not [t for t in at.text_input if str(t.key).startswith("rename_")]
    assert "Create game" not in labels(at) and "Save names" not in labels(at)
    assert any("renaming players and new games are the director's" in i for i in texts(at, "info"))
    assert [p.name for p in storage.load_game(1).players] == ["Ann", "Ben"]


def test_a_replaced_game_link_is_refused_at_the_next_press(keyed: NewTab) -> None:
    storage = two_games()
    links = TableLinks(storage.db)
    at = screen(tab(game="1", key=links.game_token(1)), "Round")
    at.text_input(key="rack_1_1").input("r5").run()
    links.renew_game_token(1)  # the director hands out a new link (a phone was lost)
    at = press(at, "Confirm round 1")
    assert not at.exception
    assert any("only the director or this game's table" in e for e in texts(at, "error"))
    assert storage.rounds(1) == []


# A tournament table -----------------------------------------------------------------------------------------


def test_a_tables_link_records_its_table_and_is_refused_at_another(keyed: NewTab) -> None:
    tables = cup()
    hall = open_hall(default_db_url())
    token = TableLinks(hall.db).table_token("Cup", 1)
    own = tab(**table_link(1, token))
    assert not own.exception
    assert role(own) == "This device is **the table of Cup, table 1**."
    assert own.radio(key="screen").value == "Tournament"  # the link opens on its table's form
    assert "View" not in [r.label for r in own.radio]  # no director's view
    own = press(enter_racks(own, racks(tables[0])), "Record game 1")
    assert own.success[0].value.startswith("Game 1 at table 1 recorded")
    other = tab(**table_link(2, token))  # table 1's token in table 2's address
    assert "This device holds the link of Cup, table 1: it records only there" in other.error[0].value
    assert not [b for b in other.button if b.label.startswith("Record")]
    assert not [t for t in other.text_input if str(t.key).startswith("hall_rack_")]
    assert [(g.table, g.table_game) for g in hall.games("Cup")] == [(1, 1)]


def test_a_replaced_table_link_is_refused_at_the_next_press_and_keeps_the_racks(keyed: NewTab) -> None:
    tables = cup()
    hall = open_hall(default_db_url())
    links = TableLinks(hall.db)
    at = enter_racks(tab(**table_link(2, links.table_token("Cup", 2))), racks(tables[1]))
    links.renew_table_token("Cup", 2)
    at = press(at, "Record game 1")
    assert not at.exception
    assert at.error[0].value.startswith("Game not recorded: only the director or Cup's table 2")
    assert at.session_state[f"hall_rack_{tables[1][1]}"] == "r2"  # nothing typed is lost
    assert not [b for b in at.button if b.label.startswith("Record")]
    assert hall.games("Cup") == []


def test_a_table_link_shows_no_other_tables_link(keyed: NewTab) -> None:
    cup()
    links = TableLinks(open_hall(default_db_url()).db)
    token_1, token_2 = links.table_token("Cup", 1), links.table_token("Cup", 2)
    at = tab(**table_link(1, token_1))
    page = repr([e for e in at.main]) + repr([e for e in at.sidebar])
    assert token_2 not in page and KEY not in page
    assert not at.code and not at.image  # no table's link, no QR code


def test_a_viewer_without_a_link_records_nothing(keyed: NewTab) -> None:
    cup()
    at = tab(tournament="Cup", table="1")  # an address guessed from another table's QR code, without its key
    assert role(at) == "This device is **a viewer**."
    assert any("open that table's link" in i for i in texts(at, "info"))
    assert not [b for b in at.button if b.label.startswith("Record")]
    guessed = tab(tournament="Cup", table="1", key="A" * 43)
    assert role(guessed) == "This device is **a viewer**."


# No key set ------------------------------------------------------------------------------------------------


def test_without_a_key_this_computer_is_the_director(app: NewTab) -> None:
    at = app()
    assert role(at) == "This device is **the director**."
    assert not [t for t in at.sidebar.text_input]  # nothing to sign in to
    at = undo_round(record_round(at))
    assert not at.exception
    assert Storage(default_db_path()).rounds(1) == []


def test_without_a_key_another_computer_is_a_viewer_unless_it_has_a_link(
    app: NewTab, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = two_games()
    monkeypatch.setattr(access_ui, "connection_is_local", lambda: False)  # a phone on the LAN
    viewer = tab(game="2")
    assert role(viewer) == "This device is **a viewer**."
    viewer = screen(viewer, "Round")
    assert not [t for t in viewer.text_input if str(t.key).startswith("rack_")]  # no racks to lose
    assert "Confirm round 1" not in labels(viewer)
    assert storage.rounds(2) == []
    phone = tab(**{"game": "2", "key": TableLinks(storage.db).game_token(2)})
    assert role(phone) == "This device is **the table of game 2**."
    record_round(phone)
    assert [r.number for r in storage.rounds(2)] == [1]


# Where the links point --------------------------------------------------------------------------------------


def test_the_tables_links_use_this_computers_lan_address(
    app: NewTab, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(access_ui, "lan_address", lambda: "192.168.1.20")
    cup()
    at = screen(app(), "Tournament")  # opened as http://localhost:8501 on the server
    token = TableLinks(open_hall(default_db_url()).db).table_token("Cup", 2)
    assert f"http://192.168.1.20:8501/?tournament=Cup&table=2&key={token}" in texts(at, "code")
    assert at.text_input(key="hall_address").value == "http://192.168.1.20:8501"


def test_open_on_a_phone_gives_the_games_link_on_the_lan_address(
    app: NewTab, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(common, "lan_address", lambda: "192.168.1.20")
    at = screen(app(), "Game")
    token = TableLinks(Storage(default_db_path()).db).game_token(1)
    [qr] = at.image
    assert list(qr.captions) == [f"http://192.168.1.20:8501/?game=1&key={token}"]
    monkeypatch.setattr(access_ui, "connection_is_local", lambda: False)
    phone = tab(game="1", key=token)  # the phone that scanned it
    assert role(phone) == "This device is **the table of game 1**."
    [qr] = screen(phone, "Game").image  # its own link again, for a second phone at the table
    assert list(qr.captions) == [f"http://192.168.1.20:8501/?game=1&key={token}"]


@pytest.mark.parametrize(
    ("page", "lan", "expected"),
    [
        ("http://localhost:8501", "192.168.1.20", "http://192.168.1.20:8501"),
        ("https://127.0.0.1:8443/", "10.0.0.5", "https://10.0.0.5:8443"),
        ("http://[::1]:8501", "192.168.1.20", "http://192.168.1.20:8501"),
        ("http://0.0.0.0:8501/", "192.168.1.20", "http://192.168.1.20:8501"),
        ("http://127.0.1.1", "192.168.1.20", "http://192.168.1.20"),
        ("http://localhost:8501", "fd00::5", "http://[fd00::5]:8501"),
        ("http://localhost:8501", "127.0.0.1", "http://localhost:8501"),  # no network: as it was
        ("https://hall.local:8501", "192.168.1.20", "https://hall.local:8501"),  # a name the tables reach
    ],
)
def test_a_local_page_address_becomes_the_lan_one(page: str, lan: str, expected: str) -> None:
    assert access_ui.lan_base_url(page, lan) == expected


def test_a_short_director_key_stops_the_app_with_a_message(
    app: NewTab, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RUMMI_DIRECTOR_KEY", "1234")
    at = app()
    assert not at.exception
    [error] = texts(at, "error")
    assert "the director key from the RUMMI_DIRECTOR_KEY environment variable has 4 characters" in error
    assert not at.button and not at.radio  # no screen, nothing to press


def test_the_directors_new_link_replaces_a_tables_link(keyed: NewTab) -> None:
    cup()
    links = TableLinks(open_hall(default_db_url()).db)
    old = links.table_token("Cup", 1)
    assert role(tab(**table_link(1, old))) == "This device is **the table of Cup, table 1**."
    at = screen(sign_in(keyed(), KEY), "Tournament")
    [renew] = [b for b in at.button if b.key == "renew_table_1"]
    renew.click()
    at = at.run()
    assert "Table 1 has a new link: its old one no longer records anything." in texts(at, "success")
    new = links.table_token("Cup", 1)
    assert new != old and links.grant(old) is None
    assert any(code.endswith(f"table=1&key={new}") for code in texts(at, "code"))
    assert role(tab(**table_link(1, old))) == "This device is **a viewer**."
