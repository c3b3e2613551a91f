"""Storage: games, turns, rounds on SQLite and PostgreSQL; every change all or nothing."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from assistant.storage import Storage, StorageError, default_db_path, rounds_to_csv
from assistant.storage.database import data_folder_db_path


@pytest.fixture
def store(db_url: str) -> Storage:
    return Storage(db_url)


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Storage:
    (tmp_path / "sub").mkdir()
    return Storage(tmp_path / "sub" / "game.sqlite3")


@pytest.fixture
def game_id(store: Storage) -> int:
    return store.create_game(
        "Friday", "standard", ["Ann", "Bob", "Cid"], variants=["no-timer"], camera="upload"
    )


def _record(store: Storage, game_id: int, number: int, scores: dict[int, int]) -> None:
    winners = {seat for seat, score in scores.items() if score > 0}
    store.record_round(
        game_id,
        number,
        blocked=False,
        racks={seat: "r5" for seat in scores},
        rack_values={seat: max(0, -score) for seat, score in scores.items()},
        scores=scores,
        winners=winners,
    )


def test_game_round_trip(store: Storage, game_id: int) -> None:
    game = store.load_game(game_id)
    assert game.name == "Friday"
    assert game.preset == "standard"
    assert game.variants == ("no-timer",)
    assert game.camera == "upload"
    assert [p.name for p in game.players] == ["Ann", "Bob", "Cid"]
    assert game.pending is None
    assert store.list_games() == [(game_id, "Friday")]


@pytest.mark.parametrize(
    "players, message",
    [(["Ann"], "at least 2"), (["Ann", " "], "needs a name"), (["Ann", "Ann"], "must differ")],
)
def test_bad_players_are_refused(store: Storage, players: list[str], message: str) -> None:
    with pytest.raises(StorageError, match=message):
        store.create_game("x", "standard", players)
    assert store.list_games() == []


def test_unknown_game_names_the_id(store: Storage) -> None:
    with pytest.raises(StorageError, match="no game with id 42"):
        store.load_game(42)


def test_a_second_connection_sees_confirmed_state(store: Storage, game_id: int) -> None:
    store.set_table_layout(game_id, "r1 r2 r3")
    other_tab = Storage(store.url)
    assert other_tab.load_game(game_id).table_layout == "r1 r2 r3"


def test_a_correction_keeps_the_photo_it_came_from(store: Storage, game_id: int) -> None:
    store.set_table_layout(game_id, "r1 r2 ?", photo="abc")
    store.set_table_layout(game_id, "r1 r2 r3")
    game = store.load_game(game_id)
    assert (game.table_layout, game.table_photo) == ("r1 r2 r3", "abc")


def test_turn_is_recorded_with_new_agreed_layout(store: Storage, game_id: int) -> None:
    store.start_turn(game_id, seat=1, before="", rack="r1 r2 r3 k9", started_at=100.0)
    pending = store.load_game(game_id).pending
    assert pending is not None and pending.seat == 1 and pending.rack == "r1 r2 r3 k9"
    number = store.finish_turn(
        game_id,
        100.0,
        after="r1 r2 r3",
        legal=True,
        action="play",
        played="r1 r2 r3",
        reasons=[],
        penalty_tiles=0,
        agreed_layout="r1 r2 r3",
        next_seat=2,
        opened=True,
        ended_at=130.0,
    )
    game = store.load_game(game_id)
    assert number == 1
    assert game.pending is None
    assert game.agreed_layout == "r1 r2 r3"
    assert game.turn_seat == 2
    assert game.player(1).opened and not game.player(0).opened
    [turn] = store.turns(game_id)
    assert (turn.seat, turn.before, turn.after, turn.legal, turn.ended_at) == (1, "", "r1 r2 r3", True, 130.0)


def test_a_turn_cannot_be_ended_twice(store: Storage, game_id: int) -> None:
    store.start_turn(game_id, seat=0, before="", rack="", started_at=5.0)
    kwargs = dict(
        after="",
        legal=True,
        action="draw",
        played="",
        reasons=[],
        penalty_tiles=0,
        agreed_layout="",
        next_seat=1,
        opened=False,
    )
    store.finish_turn(game_id, 5.0, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(StorageError, match="already ended"):
        store.finish_turn(game_id, 5.0, **kwargs)  # type: ignore[arg-type]
    assert len(store.turns(game_id)) == 1


def test_rounds_and_csv(store: Storage, game_id: int) -> None:
    _record(store, game_id, 1, {0: 30, 1: -10, 2: -20})
    _record(store, game_id, 2, {0: -5, 1: 12, 2: -7})
    rounds = store.rounds(game_id)
    assert [r.number for r in rounds] == [1, 2]
    assert [s.score for s in rounds[1].scores] == [-5, 12, -7]
    lines = store.export_csv(game_id).splitlines()
    assert lines[0] == "round,blocked,player,rack,rack_value,score,winner,total"
    assert lines[4] == "2,0,Ann,r5,5,-5,0,25"
    assert rounds_to_csv([]).splitlines() == [lines[0]]


def test_the_same_round_twice_is_refused(store: Storage, game_id: int) -> None:
    _record(store, game_id, 1, {0: 30, 1: -10, 2: -20})
    with pytest.raises(StorageError, match="round 1 is already recorded"):
        _record(store, game_id, 1, {0: 30, 1: -10, 2: -20})
    assert len(store.rounds(game_id)) == 1


def test_a_failed_write_keeps_earlier_scores(store: Storage, game_id: int) -> None:
    _record(store, game_id, 1, {0: 30, 1: -10, 2: -20})
    # Seat 7 does not exist: the score row violates the foreign key after the round row was inserted.
    with pytest.raises(StorageError, match="refused"):
        _record(store, game_id, 2, {0: 5, 7: -5})
    rounds = store.rounds(game_id)
    assert [r.number for r in rounds] == [1]
    assert [s.score for s in rounds[0].scores] == [30, -10, -20]
    _record(store, game_id, 2, {0: 5, 1: -5, 2: 0})
    assert [r.number for r in store.rounds(game_id)] == [1, 2]


def test_a_round_clears_the_table_and_opening(store: Storage, game_id: int) -> None:
    store.set_table_layout(game_id, "r1 r2 r3")
    store.start_turn(game_id, seat=0, before="", rack="r1 r2 r3", started_at=1.0)
    store.finish_turn(
        game_id,
        1.0,
        after="r1 r2 r3",
        legal=True,
        action="play",
        played="r1 r2 r3",
        reasons=[],
        penalty_tiles=0,
        agreed_layout="r1 r2 r3",
        next_seat=1,
        opened=True,
    )
    _record(store, game_id, 1, {0: 30, 1: -10, 2: -20})
    game = store.load_game(game_id)
    assert (game.table_layout, game.agreed_layout) == ("", "")
    assert not any(p.opened for p in game.players)


def test_unreadable_file_is_a_storage_error(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-db.sqlite3"
    bad.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StorageError, match="not-a-db"):
        Storage(bad)


def test_locked_database_is_a_storage_error(sqlite_store: Storage) -> None:
    store = sqlite_store
    game_id = store.create_game("Friday", "standard", ["Ann", "Bob"])
    assert store.path is not None
    blocker = sqlite3.connect(store.path)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageError, match="locked"):
            Storage(store.path, timeout_s=0.05).set_table_layout(game_id, "r1 r2 r3")
    finally:
        blocker.rollback()
        blocker.close()
    assert store.load_game(game_id).table_layout == ""


@pytest.mark.parametrize("where", ["clubb/games.sqlite3", "club/night/games.sqlite3"])
def test_a_database_in_a_folder_that_does_not_exist_is_refused_and_no_folder_made(
    tmp_path: Path, where: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "club").mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    for target in (tmp_path / where, f"sqlite:///{tmp_path / where}"):
        with pytest.raises(StorageError, match=r"no folder .* for the database .*: is the path mistyped\?"):
            Storage(target)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["club"]


def test_a_database_whose_folder_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "club").write_text("notes")
    with pytest.raises(StorageError, match="is a file, not a folder"):
        Storage(tmp_path / "club" / "games.sqlite3")
    assert (tmp_path / "club").read_text() == "notes"


def test_the_default_database_s_folder_is_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RUMMI_DB", raising=False)
    for variable in ("HOME", "XDG_DATA_HOME", "APPDATA"):  # Linux, macOS, Windows: all under tmp_path
        monkeypatch.setenv(variable, str(tmp_path / variable.lower()))
    store = Storage()
    assert store.path == data_folder_db_path() and store.path.exists()
    assert str(tmp_path) in str(store.path)
    # The same file named by RUMMI_DB or --db is the default location too.
    store.path.unlink()
    for folder in (store.path.parent, *store.path.parent.parents):
        if folder == tmp_path:
            break
        folder.rmdir()
    monkeypatch.setenv("RUMMI_DB", str(store.path))
    Storage()
    assert store.path.exists()


@pytest.mark.parametrize(
    "environ, expected_end",
    [
        ({"RUMMI_DB": "/tmp/x/my.db", "HOME": "/home/a"}, "/tmp/x/my.db"),
        ({"XDG_DATA_HOME": "/data", "HOME": "/home/a"}, "/data/rummi-assistant/rummi.sqlite3"),
    ],
)
def test_default_db_path(environ: dict[str, str], expected_end: str) -> None:
    assert str(default_db_path(environ)) == expected_end


def test_an_in_memory_database_keeps_its_games_while_open() -> None:
    store = Storage("sqlite://")
    game_id = store.create_game("Quick", "standard", ["Ann", "Bob"])
    assert store.load_game(game_id).name == "Quick" and store.path is None


def test_a_renamed_player_keeps_their_rounds(store: Storage, game_id: int) -> None:
    _record(store, game_id, 1, {0: 10, 1: -5, 2: -5})
    store.rename_player(game_id, 1, " Bea ")
    assert [p.name for p in store.load_game(game_id).players] == ["Ann", "Bea", "Cid"]
    assert [s.name for s in store.rounds(game_id)[0].scores] == ["Ann", "Bea", "Cid"]


@pytest.mark.parametrize("name, message", [("ann", "already plays"), ("  ", "needs a name")])
def test_a_rename_to_a_taken_or_blank_name_is_refused(
    store: Storage, game_id: int, name: str, message: str
) -> None:
    with pytest.raises(StorageError, match=message):
        store.rename_player(game_id, 1, name)
    assert store.load_game(game_id).player(1).name == "Bob"


def test_undo_removes_only_the_last_round_and_returns_it(store: Storage, game_id: int) -> None:
    _record(store, game_id, 1, {0: 10, 1: -5, 2: -5})
    _record(store, game_id, 2, {0: -4, 1: 8, 2: -4})
    with pytest.raises(StorageError, match="not the last round"):
        store.undo_round(game_id, 1)
    undone = store.undo_round(game_id, 2)
    assert undone.number == 2 and [s.score for s in undone.scores] == [-4, 8, -4]
    assert [r.number for r in store.rounds(game_id)] == [1]
    _record(store, game_id, 2, {0: -4, 1: 8, 2: -4})  # recorded again as round 2
    assert [r.number for r in store.rounds(game_id)] == [1, 2]
