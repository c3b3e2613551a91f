"""Names on the way in (issue 35, item 8): terminal escapes, other C0/C1 control characters and bidi
controls are stripped from player, game and tournament names in the domain, so neither the app nor the CLI
stores or prints them raw; a name with nothing left is refused with a message that says why."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.cli import main
from assistant.errors import InputError
from assistant.hall import open_hall
from assistant.names import BadName, clean_name, strip_controls
from assistant.storage import Storage, StorageError
from assistant.tournament import TournamentError, parse_players, stored_name, tournament_name


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("Ann", "Ann"),
        ("\x1b[31mAnn\x1b[0m", "Ann"),  # colours
        ("Ann\x1b[2J\x1b[H", "Ann"),  # clear screen, cursor home
        ("\x1b]0;pwned\x07Bob", "Bob"),  # a window title (OSC ... BEL)
        ("\x1b]8;;http://x\x1b\\Cid\x1b]8;;\x1b\\", "Cid"),  # a hyperlink (OSC ... ST)
        ("\x1bcDee", "Dee"),  # reset
        ("\x9b31mEve", "Eve"),  # the 8-bit CSI
        ("Fay\x00\x07\x08\x7f", "Fay"),  # NUL, BEL, backspace, DEL
        ("Gus\x85\x90\x9f", "Gus"),  # C1 controls (NEL counts as a line break)
        ("\u202eHal", "Hal"),  # right-to-left override
        ("I\u202ad\u202c\u2066a\u2069\u200f", "Ida"),  # embedding, pop, isolate, mark
        ("Ann\tLee\n", "Ann Lee"),  # a tab becomes a space, the ends are trimmed
        ("Zoë 🎲", "Zoë 🎲"),  # letters and symbols stay
        ("👩\u200d👩\u200d👧", "👩\u200d👩\u200d👧"),  # the zero-width joiner of an emoji is not a control
    ],
)
def test_control_characters_are_stripped(given: str, expected: str) -> None:
    assert strip_controls(given) == expected
    assert clean_name(given) == expected


@pytest.mark.parametrize("given", ["\x1b[31m\x1b[0m", "\u202e", "\x00\x07", " \x1b[2J "])
def test_a_name_of_control_characters_only_is_refused_with_a_reason(given: str) -> None:
    with pytest.raises(BadName, match="empty once its control characters .* are removed: every player"):
        clean_name(given, "every player")


def test_a_blank_name_is_refused() -> None:
    with pytest.raises(BadName, match="every player needs a name"):
        clean_name("  ", "every player")
    assert issubclass(BadName, InputError)  # the CLI's exit 2, the app's message


def test_a_refused_name_is_shown_escaped() -> None:
    with pytest.raises(BadName) as raised:
        clean_name("\x1b[2J")
    assert "\x1b" not in str(raised.value) and "\\x1b[2J" in str(raised.value)


# Where names come in ---------------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Storage:
    return Storage(tmp_path / "games.sqlite3")


def test_a_game_stores_its_names_cleaned(store: Storage) -> None:
    game_id = store.create_game("\x1b[1mFriday\x1b[0m", "standard", ["\u202eAnn", "Bob\x07"])
    game = store.load_game(game_id)
    assert game.name == "Friday"
    assert [p.name for p in game.players] == ["Ann", "Bob"]
    store.rename_player(game_id, 1, "\x1b]0;title\x07Bea")
    assert store.load_game(game_id).player(1).name == "Bea"


@pytest.mark.parametrize(("name", "players"), [("\x1b[0m", ["Ann", "Bob"]), ("Friday", ["Ann", "\x1b[31m"])])
def test_a_game_name_left_empty_is_refused(store: Storage, name: str, players: list[str]) -> None:
    with pytest.raises(StorageError, match="empty once its control characters"):
        store.create_game(name, "standard", players)
    assert store.list_games() == []


def test_a_rename_left_empty_is_refused(store: Storage) -> None:
    game_id = store.create_game("Friday", "standard", ["Ann", "Bob"])
    with pytest.raises(StorageError, match="empty once its control characters"):
        store.rename_player(game_id, 0, "\u202e\u202c")
    assert store.load_game(game_id).player(0).name == "Ann"


def test_escapes_cannot_make_two_players_one_name_apart() -> None:
    with pytest.raises(TournamentError, match="given twice"):
        parse_players(["ann,\x1b[1mann"])


def test_tournament_names_and_players_are_cleaned() -> None:
    assert parse_players(["\x1b[31mann,bob\u202e,cid"]) == ["ann", "bob", "cid"]
    assert tournament_name(" \x1b[5mCup\x1b[0m ") == "Cup"
    with pytest.raises(TournamentError, match="the tournament needs a name"):
        tournament_name("\x1b[0m")
    with pytest.raises(TournamentError, match="empty once its control characters"):
        parse_players(["ann,\x07,bob"])
    assert stored_name(["ann", "bob"], "\x1b[1mBOB") == "bob"


def test_the_cli_stores_and_prints_clean_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "hall.sqlite3")
    code = main(
        ["tournament", "new", "\x1b[2JCup", "--players", "ann,\x1b[31mbob\x1b[0m,cid,dee", "--db", db]
    )
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "\x1b" not in out
    hall = open_hall(db)
    assert hall.names() == ["Cup"]
    assert sorted(hall.load("Cup").players) == ["ann", "bob", "cid", "dee"]
    assert main(["tournament", "standings", "\x1b[1mCup", "--db", db]) == 0  # looked up cleaned too
    assert "\x1b" not in capsys.readouterr().out


def test_the_cli_refuses_a_name_of_escapes_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "hall.sqlite3")
    code = main(["tournament", "new", "\x1b[0m", "--players", "ann,bob", "--db", db])
    assert code == 2
    err = capsys.readouterr().err
    assert "the tournament needs a name" in err and "\x1b" not in err
    code = main(["tournament", "new", "Cup", "--players", "ann,\u202e", "--db", db])
    assert code == 2
    assert "empty once its control characters" in capsys.readouterr().err
