"""Names typed in the app are stored without control characters (issue 35, item 8): a terminal escape or a
bidi override in a game's, a player's or a tournament's name never reaches the database; a name left empty
is refused with a message."""

from __future__ import annotations

from test_app import NewTab, texts
from test_roles import press, screen

from assistant.hall import open_hall
from assistant.storage import Storage, default_db_path, default_db_url


def test_a_new_game_and_a_rename_store_clean_names(app: NewTab) -> None:
    at = screen(app(), "Game")
    at.text_input(key="new_name").input("\x1b[2JFriday")
    at.text_input(key="new_players").input("\x1b[31mAnn\x1b[0m, Ben\u202e")
    at = press(at, "Create game")
    assert not at.exception
    storage = Storage(default_db_path())
    game = storage.load_game(max(game_id for game_id, _ in storage.list_games()))
    assert game.name == "Friday" and [p.name for p in game.players] == ["Ann", "Ben"]
    at = screen(at, "Game")
    at.text_input(key=f"rename_{game.id}_1").input("\x1b]0;x\x07")
    at = press(at, "Save names")
    assert any("empty once its control characters" in e for e in texts(at, "error"))
    assert storage.load_game(game.id).player(1).name == "Ben"


def test_a_new_tournament_stores_clean_names(app: NewTab) -> None:
    at = screen(app(), "Tournament")
    at.text_input(key="new_tournament_name").input("\x1b[5mCup\x1b[0m")
    at.text_area(key="new_tournament_players").input("ann\nbob\u202e\n\x1b[1mcid\ndee")
    at = press(at, "Draw the tables")
    assert not at.exception
    hall = open_hall(default_db_url())
    assert hall.names() == ["Cup"]
    assert sorted(hall.load("Cup").players) == ["ann", "bob", "cid", "dee"]
    at.text_input(key="new_tournament_name").input("\x1b[0m")
    at.text_area(key="new_tournament_players").input("eve\nfay")
    at = press(at, "Draw the tables")
    assert any("the tournament needs a name" in e for e in texts(at, "error"))
    assert hall.names() == ["Cup"]
