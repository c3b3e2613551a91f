"""Each game's table profile in the database (issue 15: "remembers the profile for the game, stored with it,
in the database"), on SQLite and PostgreSQL: opaque bytes in the storage, a `vision.profile.Profile` through
`vision.profile_store`, the previous version's profile file imported once."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from assistant.storage import Storage, StorageError

# Every byte value, a NUL first: a blob, not text.
BLOB = bytes([0, 255, 10, 13]) + bytes(range(256)) * 40


@pytest.fixture
def store(db_url: str) -> Storage:
    return Storage(db_url)


@pytest.fixture
def game_id(store: Storage) -> int:
    game = store.create_game("Friday", "standard", ["Ann", "Bob"])
    store.record_round(game, 1, False, {0: "", 1: "r5"}, {0: 0, 1: 5}, {0: 5, 1: -5}, {0})
    return game


def sample_profile(false_finds: int = 3) -> object:
    from vision.profile import ModelVersions, Profile

    return Profile(
        models=ModelVersions("0123456789abcdef", "fedcba9876543210"),
        empty_photos=1,
        false_descriptors=np.arange(false_finds * 4, dtype=np.float32).reshape(false_finds, 4) / 4,
        false_radius=6.5,
        keep_above=0.95,
    )


def test_a_game_has_no_profile_until_one_is_stored(store: Storage, game_id: int) -> None:
    assert store.game_profile(game_id) is None
    assert store.forget_game_profile(game_id) is False


def test_the_bytes_round_trip_and_a_new_profile_replaces_the_old(store: Storage, game_id: int) -> None:
    assert store.set_game_profile(game_id, BLOB, "rummi-profile/1") is True
    stored = Storage(store.url).game_profile(game_id)  # another connection, as another tab or process
    assert stored is not None and stored.data == BLOB and stored.format == "rummi-profile/1"
    assert store.set_game_profile(game_id, b"second", "rummi-profile/2") is True
    stored = store.game_profile(game_id)
    assert stored is not None and (stored.data, stored.format) == (b"second", "rummi-profile/2")


def test_an_import_does_not_replace_a_profile_already_there(store: Storage, game_id: int) -> None:
    store.set_game_profile(game_id, b"new", "f")
    assert store.set_game_profile(game_id, b"old file", "f", replace=False) is False
    assert store.game_profile(game_id).data == b"new"  # type: ignore[union-attr]


def test_profiles_are_per_game_and_forgetting_keeps_the_scores(store: Storage, game_id: int) -> None:
    other = store.create_game("Saturday", "standard", ["Cid", "Dee"])
    store.set_game_profile(game_id, b"friday's", "f")
    store.set_game_profile(other, b"saturday's", "f")
    assert store.forget_game_profile(game_id) is True
    assert store.game_profile(game_id) is None
    assert store.game_profile(other).data == b"saturday's"  # type: ignore[union-attr]
    assert [s.score for s in store.rounds(game_id)[0].scores] == [5, -5]


@pytest.mark.parametrize("data, format, message", [(b"", "f", "needs its bytes"), (b"x", "", "format")])
def test_an_empty_profile_is_refused(
    store: Storage, game_id: int, data: bytes, format: str, message: str
) -> None:
    with pytest.raises(StorageError, match=message):
        store.set_game_profile(game_id, data, format)
    assert store.game_profile(game_id) is None


def test_a_profile_for_an_unknown_game_is_refused(store: Storage) -> None:
    with pytest.raises(StorageError, match="no game with id 99"):
        store.set_game_profile(99, BLOB, "f")


# Through vision.profile_store: a Profile in, the same Profile out. -------------------------------------


def test_a_profile_round_trips_through_the_database(store: Storage, game_id: int) -> None:
    from vision.profile_store import load_game_profile, store_game_profile

    assert load_game_profile(store, game_id) is None
    profile = sample_profile()
    store_game_profile(store, game_id, profile)
    again = load_game_profile(Storage(store.url), game_id)
    assert again is not None and again.to_bytes() == profile.to_bytes()  # type: ignore[attr-defined]
    store_game_profile(store, game_id, None)
    assert load_game_profile(store, game_id) is None
    assert store.export_csv(game_id).count("\n") == 3  # header and the round's two lines, untouched


@pytest.mark.parametrize(
    "data, format, expected",
    [
        (b"\xff\xfe not json", "rummi-profile/1", "not JSON"),
        (b'{"format": "rummi-profile/1", "models": {}}', "rummi-profile/1", "damaged"),
        (b"{}", "rummi-profile/9", "format 'rummi-profile/9'"),
    ],
)
def test_a_broken_profile_is_reported_and_the_scores_stay(
    store: Storage, game_id: int, data: bytes, format: str, expected: str
) -> None:
    from vision.profile import ProfileError
    from vision.profile_store import load_game_profile, store_game_profile

    store.set_game_profile(game_id, data, format)
    with pytest.raises(ProfileError) as raised:
        load_game_profile(store, game_id)
    message = str(raised.value)
    assert expected in message and f"game {game_id}" in message and "Setup screen" in message
    assert [s.score for s in store.rounds(game_id)[0].scores] == [5, -5]
    store_game_profile(store, game_id, None)  # forgetting a broken one works
    assert load_game_profile(store, game_id) is None


# The previous version's file beside an SQLite database. -----------------------------------------------


def _legacy_file(db: Path, game_id: int, data: bytes) -> Path:
    path = db.parent / "profiles" / f"game-{game_id}.profile"
    path.parent.mkdir(parents=True)
    path.write_bytes(data)
    return path


def test_a_profile_file_of_the_previous_version_is_imported_once(tmp_path: Path) -> None:
    from vision.profile_store import legacy_profile_path, load_game_profile, store_game_profile

    db = tmp_path / "games.sqlite3"
    store = Storage(db)
    game_id = store.create_game("Friday", "standard", ["Ann", "Bob"])
    profile = sample_profile()
    path = _legacy_file(db, game_id, profile.to_bytes())  # type: ignore[attr-defined]
    assert legacy_profile_path(store, game_id) == path
    assert load_game_profile(Storage(db), game_id).to_bytes() == profile.to_bytes()  # type: ignore
    assert not path.exists() and path.with_name(path.name + ".imported").read_bytes() == profile.to_bytes()
    assert store.game_profile(game_id) is not None  # now in the database
    store_game_profile(store, game_id, None)
    assert load_game_profile(Storage(db), game_id) is None  # forgotten stays forgotten


def test_an_old_file_does_not_replace_a_profile_in_the_database(tmp_path: Path) -> None:
    from vision.profile_store import load_game_profile, store_game_profile

    db = tmp_path / "games.sqlite3"
    store = Storage(db)
    game_id = store.create_game("Friday", "standard", ["Ann", "Bob"])
    newer = sample_profile(false_finds=5)
    store_game_profile(store, game_id, newer)
    path = _legacy_file(db, game_id, sample_profile(false_finds=2).to_bytes())  # type: ignore[attr-defined]
    assert load_game_profile(store, game_id).false_finds == 5  # type: ignore[union-attr]
    assert not path.exists()


def test_a_damaged_old_file_is_imported_and_reported_not_lost(tmp_path: Path) -> None:
    from vision.profile import ProfileError
    from vision.profile_store import load_game_profile

    db = tmp_path / "games.sqlite3"
    store = Storage(db)
    game_id = store.create_game("Friday", "standard", ["Ann", "Bob"])
    _legacy_file(db, game_id, b"half a profi")
    with pytest.raises(ProfileError, match="cannot be read"):
        load_game_profile(store, game_id)
    assert store.game_profile(game_id).data == b"half a profi"  # type: ignore[union-attr]


def test_a_server_database_imports_no_file(pg_url: str) -> None:
    from vision.profile_store import legacy_profile_path

    store = Storage(pg_url)
    assert legacy_profile_path(store, store.create_game("x", "standard", ["A", "B"])) is None
