"""Roles: where the director's key comes from, who a session is, and the guarded stores refusing every
write a role may not make (nothing written), whatever the page showed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from assistant.access import (
    HALL_READS,
    STORAGE_READS,
    Access,
    AccessDenied,
    GuardedHall,
    GuardedStorage,
    KeySetting,
    decide_access,
    digest,
    director_key_setting,
)
from assistant.errors import InputError
from assistant.hall import open_hall, record_table_game, start_tournament
from assistant.storage import Storage, StorageError
from assistant.storage.links import GameTable, TournamentTable
from assistant.storage.tournaments import TournamentStore

KEY = "correct-horse-battery"
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal"]
DIRECTOR = Access(director=True)
VIEWER = Access(director=False)
GAME_1 = Access(director=False, grant=GameTable(1))
CUP_1 = Access(director=False, grant=TournamentTable("Cup", 1))


@pytest.mark.parametrize(
    ("argv", "environ", "secrets", "expected"),
    [
        (
            ["--director-key", "from-the-command"],
            {"RUMMI_DIRECTOR_KEY": KEY},
            {"director_key": KEY},
            KeySetting("from-the-command", "the --director-key option"),
        ),
        (
            ["--db", "x.sqlite3"],
            {"RUMMI_DIRECTOR_KEY": KEY},
            {"director_key": "secret-file-key"},
            KeySetting(KEY, "the RUMMI_DIRECTOR_KEY environment variable"),
        ),
        (
            [],
            {},
            {"director_key": "secret-file-key"},
            KeySetting("secret-file-key", "the secret 'director_key'"),
        ),
        ([], {}, {}, KeySetting(None, "no director key is set")),
    ],
)
def test_the_key_comes_from_the_server_first_found_wins(
    argv: list[str], environ: dict[str, str], secrets: dict[str, Any], expected: KeySetting
) -> None:
    assert director_key_setting(argv, environ, secrets) == expected


@pytest.mark.parametrize(
    ("argv", "environ", "message"),
    [
        (["--director-key"], {}, "expected one argument"),
        (["--director-key", "short"], {}, "has 5 characters; it needs at least 12"),
        ([], {"RUMMI_DIRECTOR_KEY": "   x   "}, "RUMMI_DIRECTOR_KEY environment variable has 1 characters"),
    ],
)
def test_a_missing_or_short_key_is_refused_with_a_message(
    argv: list[str], environ: dict[str, str], message: str
) -> None:
    with pytest.raises(InputError, match=message):
        director_key_setting(argv, environ, {})


@pytest.mark.parametrize(
    ("key", "signed_in", "local", "grant", "expected"),
    [
        # No key set: the server's own computer is the director; elsewhere a link's table or a viewer.
        (None, None, True, None, DIRECTOR),
        (None, None, True, GameTable(1), DIRECTOR),
        (None, None, False, None, VIEWER),
        (None, digest(KEY), False, None, VIEWER),  # nothing to sign in to
        (None, None, False, GameTable(1), GAME_1),
        # A key set: only signing in with it makes the director, on this computer or any other.
        (KEY, None, True, None, VIEWER),
        (KEY, digest("wrong-key-of-twelve"), True, None, VIEWER),
        (KEY, digest(KEY), False, None, DIRECTOR),
        (KEY, digest(KEY), False, TournamentTable("Cup", 1), DIRECTOR),
        (KEY, None, True, TournamentTable("Cup", 1), CUP_1),
    ],
)
def test_who_a_session_is(
    key: str | None, signed_in: str | None, local: bool, grant: Any, expected: Access
) -> None:
    setting = KeySetting(key, "test")
    assert decide_access(setting, signed_in, local, grant) == expected


def test_the_key_matches_only_itself() -> None:
    setting = KeySetting(KEY, "test")
    assert setting.matches(KEY)
    assert not setting.matches(KEY + " ") and not setting.matches("") and not setting.matches(KEY.upper())
    assert not KeySetting(None, "test").matches("")


@pytest.fixture
def stores(tmp_path: Path) -> tuple[Storage, TournamentStore]:
    storage = Storage(tmp_path / "club.sqlite3")
    storage.create_game("Table 1", "standard", ["Ann", "Ben"])
    storage.create_game("Table 2", "standard", ["Cy", "Dee"])
    hall = open_hall(storage.url)
    start_tournament(hall, "Cup", PLAYERS, table_size=4, seed="s1")
    return storage, hall


def _writes(storage: Storage, game_id: int) -> dict[str, Callable[[], object]]:
    """Every write of a game's storage, by method name."""
    return {
        "set_table_layout": lambda: storage.set_table_layout(game_id, "r1 r2 r3"),
        "set_agreed_layout": lambda: storage.set_agreed_layout(game_id, "r1 r2 r3"),
        "set_turn_seat": lambda: storage.set_turn_seat(game_id, 1),
        "set_game_profile": lambda: storage.set_game_profile(game_id, b"x", "test"),
        "forget_game_profile": lambda: storage.forget_game_profile(game_id),
        "start_turn": lambda: storage.start_turn(game_id, 0, "", "r1"),
        "cancel_turn": lambda: storage.cancel_turn(game_id),
        "finish_turn": lambda: storage.finish_turn(game_id, 0.0, "", True, "play", "", (), 0, "", 1, True),
        "record_round": lambda: storage.record_round(
            game_id, 1, False, {0: "", 1: "r5"}, {0: 0, 1: 5}, {0: 5, 1: -5}, {0}
        ),
        "undo_round": lambda: storage.undo_round(game_id, 1),
        "rename_player": lambda: storage.rename_player(game_id, 0, "Zed"),
        "create_game": lambda: storage.create_game("Table 3", "standard", ["Eve", "Fay"]),
    }


DIRECTOR_ONLY = {"undo_round", "rename_player", "create_game"}


def _snapshot(storage: Storage) -> tuple[object, ...]:
    games = storage.list_games()
    return (
        games,
        [storage.load_game(game_id) for game_id, _ in games],
        [storage.rounds(game_id) for game_id, _ in games],
        [storage.turns(game_id) for game_id, _ in games],
        [storage.game_profile(game_id) for game_id, _ in games],
    )


def test_every_public_method_is_a_read_or_a_checked_write() -> None:
    """A write added to the stores later must be given a role here, or this fails."""
    for store, guard, reads in (
        (Storage, GuardedStorage, STORAGE_READS),
        (TournamentStore, GuardedHall, HALL_READS),
    ):
        public = {name for name in dir(store) if not name.startswith("_")}
        checked = {name for name in public if getattr(guard, name) is not getattr(store, name)}
        assert public == reads | checked, sorted(public - reads - checked)
        assert not reads & checked
    assert set(_writes(Storage.__new__(Storage), 1)) == {
        name
        for name in dir(GuardedStorage)
        if getattr(GuardedStorage, name) is not getattr(Storage, name) and not name.startswith("_")
    }


@pytest.mark.parametrize("access", [VIEWER, CUP_1, Access(director=False, grant=GameTable(2))])
@pytest.mark.parametrize("write", sorted(_writes(Storage.__new__(Storage), 1)))
def test_no_write_to_game_1_but_its_tables_and_the_directors(
    stores: tuple[Storage, TournamentStore], access: Access, write: str
) -> None:
    storage, _ = stores
    before = _snapshot(storage)
    guarded = GuardedStorage(storage, lambda: access)
    with pytest.raises(AccessDenied, match="only the director"):
        _writes(guarded, 1)[write]()
    assert _snapshot(storage) == before


@pytest.mark.parametrize("write", sorted(_writes(Storage.__new__(Storage), 1)))
def test_a_games_table_records_its_game_but_never_undoes_renames_or_creates(
    stores: tuple[Storage, TournamentStore], write: str
) -> None:
    storage, _ = stores
    guarded = GuardedStorage(storage, lambda: GAME_1)
    if write == "undo_round":
        guarded.record_round(1, 1, False, {0: "", 1: "r5"}, {0: 0, 1: 5}, {0: 5, 1: -5}, {0})
    action = _writes(guarded, 1)[write]
    if write in DIRECTOR_ONLY:
        before = _snapshot(storage)
        with pytest.raises(
            AccessDenied, match=r"only the director can .* \(this device is the table of game 1\)"
        ):
            action()
        assert _snapshot(storage) == before
    else:
        try:
            action()
        except AccessDenied:
            pytest.fail(f"{write} refused to the game's own table")
        except StorageError:
            pass  # the storage's own refusal (no turn running...): the role was let through


@pytest.mark.parametrize("write", sorted(_writes(Storage.__new__(Storage), 1)))
def test_the_director_writes_everywhere(stores: tuple[Storage, TournamentStore], write: str) -> None:
    storage, _ = stores
    guarded = GuardedStorage(storage, lambda: DIRECTOR)
    if write == "undo_round":
        guarded.record_round(2, 1, False, {0: "", 1: "r5"}, {0: 0, 1: 5}, {0: 5, 1: -5}, {0})
    try:
        _writes(guarded, 2)[write]()
    except AccessDenied:
        pytest.fail(f"{write} refused to the director")
    except StorageError:
        pass


def test_the_access_is_asked_again_at_each_write(stores: tuple[Storage, TournamentStore]) -> None:
    storage, _ = stores
    now = [GAME_1]
    guarded = GuardedStorage(storage, lambda: now[0])
    guarded.set_table_layout(1, "r1 r2 r3")
    now[0] = VIEWER  # e.g. the director gave the table a new link
    with pytest.raises(AccessDenied):
        guarded.set_table_layout(1, "k1 k2 k3")
    assert storage.load_game(1).table_layout == "r1 r2 r3"


def _racks(hall: TournamentStore, table: int) -> dict[str, str]:
    seated = hall.load("Cup").tables[table - 1]
    return {player: ("" if i == 0 else f"r{i + 1}") for i, player in enumerate(seated)}


def test_a_tournament_table_records_its_own_table_only(stores: tuple[Storage, TournamentStore]) -> None:
    _, hall = stores
    guarded = GuardedHall(hall, lambda: CUP_1)
    record_table_game(guarded, "Cup", 1, _racks(hall, 1))
    with pytest.raises(AccessDenied, match="only the director or Cup's table 2"):
        record_table_game(guarded, "Cup", 2, _racks(hall, 2))
    with pytest.raises(AccessDenied, match="only the director can start a round"):
        guarded.new_round("Cup", 2, hall.load("Cup").tables, "raffle", "s2")
    with pytest.raises(AccessDenied, match="only the director can start a tournament"):
        start_tournament(guarded, "Cup 2", PLAYERS, table_size=4, seed="s1")
    assert [(g.table, g.table_game) for g in hall.games("Cup")] == [(1, 1)]
    assert hall.load("Cup").current_round == 1 and hall.names() == ["Cup"]


@pytest.mark.parametrize(
    "access", [VIEWER, GAME_1, Access(director=False, grant=TournamentTable("Other", 1))]
)
def test_no_tournament_write_without_the_tables_link(
    stores: tuple[Storage, TournamentStore], access: Access
) -> None:
    _, hall = stores
    guarded = GuardedHall(hall, lambda: access)
    for table in (1, 2):
        with pytest.raises(AccessDenied):
            record_table_game(guarded, "Cup", table, _racks(hall, table))
    assert hall.games("Cup") == []


def test_the_director_records_at_every_table_and_runs_the_tournament(
    stores: tuple[Storage, TournamentStore],
) -> None:
    _, hall = stores
    guarded = GuardedHall(hall, lambda: DIRECTOR)
    record_table_game(guarded, "Cup", 1, _racks(hall, 1))
    record_table_game(guarded, "Cup", 2, _racks(hall, 2))
    start_tournament(guarded, "Cup 2", PLAYERS, table_size=4, seed="s1")
    guarded.new_round("Cup", 2, hall.load("Cup").tables, "raffle", "s2")
    assert len(hall.games("Cup")) == 2 and hall.load("Cup").current_round == 2
