"""Schema versions: a file from before the migrations opens and keeps every score; new databases start at
the newest version on SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

import pytest
import sqlalchemy as sa

from assistant.hall import open_hall, record_table_game, start_tournament
from assistant.storage import Database, Storage, StorageError
from assistant.storage.database import head_revision, schema_revision

DATA = Path(__file__).resolve().parents[2] / "data"
# Written by the SQLite-only storage of commit 3f06407 (tests/data/make_storage_v0.py), before SQLAlchemy.
V0_FILE = DATA / "storage_v0.sqlite3"
V0_CONTENT = json.loads((DATA / "storage_v0.json").read_text())


def _contents(store: Storage) -> dict[str, object]:
    by_game = {}
    for game_id, _ in store.list_games():
        by_game[str(game_id)] = {
            "game": asdict(store.load_game(game_id)),
            "rounds": [asdict(r) for r in store.rounds(game_id)],
            "turns": [asdict(t) for t in store.turns(game_id)],
            "csv": store.export_csv(game_id),
        }
    return json.loads(json.dumps({"games": store.list_games(), "by_game": by_game}))


@pytest.fixture
def v0_copy(tmp_path: Path) -> Path:
    target = tmp_path / "old.sqlite3"
    shutil.copyfile(V0_FILE, target)
    return target


def test_the_head_revision_is_the_last_migration() -> None:
    from alembic.script import ScriptDirectory

    from assistant.storage.database import _alembic_config

    assert ScriptDirectory.from_config(_alembic_config()).get_current_head() == head_revision()


def test_the_fixture_is_from_before_migrations() -> None:
    with sqlite3.connect(f"file:{V0_FILE}?mode=ro", uri=True) as conn:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert "alembic_version" not in tables and "tournaments" not in tables
    assert {"games", "players", "rounds", "scores", "turns"} <= tables


def test_an_old_file_migrates_keeping_every_score(v0_copy: Path) -> None:
    store = Storage(v0_copy)
    assert _contents(store) == V0_CONTENT
    with store.db.connect(write=False) as conn:
        assert schema_revision(conn) == head_revision()
    # Reopened: nothing to do, nothing changed.
    assert _contents(Storage(v0_copy)) == V0_CONTENT


def test_an_old_file_goes_on_where_it_stopped(v0_copy: Path) -> None:
    store = Storage(v0_copy)
    friday = 1
    pending = store.load_game(friday).pending
    assert pending is not None and pending.started_at == 200.0  # the turn left running in the old version
    store.record_round(
        friday,
        3,
        blocked=False,
        racks={0: "", 1: "r3", 2: "k4"},
        rack_values={0: 0, 1: 3, 2: 4},
        scores={0: 7, 1: -3, 2: -4},
        winners={0},
    )
    totals = store.export_csv(friday).splitlines()[-3:]
    assert [line.split(",")[-1] for line in totals] == ["32", "-1", "-31"]  # 25+7, 2-3, -27-4
    hall = open_hall(v0_copy)
    start_tournament(hall, "Spring cup", ["Ann", "Bob", "Cid", "Dee"], seed="1")
    assert hall.names() == ["Spring cup"]


def test_a_new_database_is_at_the_newest_version(db_url: str) -> None:
    db = Database(db_url)
    with db.connect(write=False) as conn:
        assert schema_revision(conn) == head_revision()
        tables = set(sa.inspect(conn).get_table_names())
    assert {"games", "players", "rounds", "scores", "turns", "tournaments", "tournament_games"} <= tables


def test_a_database_from_a_newer_program_is_refused(db_url: str) -> None:
    db = Database(db_url)
    with db.connect(write=True) as conn:
        conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999_future'"))
    with pytest.raises(StorageError, match="newer version"):
        Storage(db_url)


def test_a_failed_migration_leaves_the_old_file_as_it_was(v0_copy: Path) -> None:
    # A second writer holds the file: the migration cannot start, and the old tables stay untouched.
    blocker = sqlite3.connect(v0_copy)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        with pytest.raises(StorageError, match="locked"):
            Storage(v0_copy, timeout_s=0.05)
    finally:
        blocker.rollback()
        blocker.close()
    assert _contents(Storage(v0_copy)) == V0_CONTENT


def test_a_game_recorded_after_migration_counts(v0_copy: Path) -> None:
    hall = open_hall(v0_copy)
    start_tournament(hall, "Cup", ["Ann", "Bob"], table_size=2, seed="x")
    game = record_table_game(hall, "Cup", 1, {"Ann": "", "Bob": "r5 J"})
    assert game.points == {"Ann": 55, "Bob": -55}  # tournament preset: a joker left on a rack is 50


def test_without_a_server_ci_fails_instead_of_skipping(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("RUMMI_TEST_PG_URL", "RUMMI_REQUIRE_PG")}
    env["CI"] = "true"
    test = f"{Path(__file__).name}::test_a_new_database_is_at_the_newest_version"
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
        cwd=Path(__file__).parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout
    assert "1 passed, 1 error" in done.stdout and "in CI the PostgreSQL tests must run" in done.stdout


PREVIOUS_HEAD = "0002"  # the schema before the games' table profiles (0003)


def _migrate_only_to(revision: str):  # type: ignore[no-untyped-def]
    """`upgrade_schema` as a program that knew migrations up to `revision` only."""
    from alembic import command

    from assistant.storage.database import _alembic_config

    def upgrade(db: Database) -> None:
        def migrate(conn: sa.Connection) -> None:
            config = _alembic_config()
            config.attributes["connection"] = conn
            try:
                command.upgrade(config, revision)
            finally:
                config.attributes.pop("connection", None)

        db.run(migrate, write=True)

    return upgrade


def test_a_database_at_the_previous_head_migrates_keeping_every_score(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as patched:
        patched.setattr("assistant.storage.database.upgrade_schema", _migrate_only_to(PREVIOUS_HEAD))
        old = Storage(db_url)
        with old.db.connect(write=False) as conn:
            assert schema_revision(conn) == PREVIOUS_HEAD
            assert "game_profiles" not in sa.inspect(conn).get_table_names()
        game = old.create_game("Friday", "standard", ["Ann", "Bob", "Cid"])
        old.record_round(game, 1, False, {0: "", 1: "r3", 2: "k4 J"}, {0: 0, 1: 3, 2: 34},
                         {0: 37, 1: -3, 2: -34}, {0})
        old.start_turn(game, 1, before="", rack="r5")
        start_tournament(open_hall(db_url), "Cup", ["Ann", "Bob"], table_size=2, seed="x")
        before = _contents(old)
    store = Storage(db_url)
    with store.db.connect(write=False) as conn:
        assert schema_revision(conn) == head_revision()
    assert _contents(store) == before
    assert store.game_profile(game) is None
    store.set_game_profile(game, b"\x00profile", "rummi-profile/1")
    assert store.game_profile(game).data == b"\x00profile"  # type: ignore[union-attr]
    assert open_hall(db_url).names() == ["Cup"]


def test_the_old_file_reaches_the_newest_head_with_room_for_profiles(v0_copy: Path) -> None:
    store = Storage(v0_copy)
    assert store.game_profile(1) is None
    store.set_game_profile(1, b"p", "rummi-profile/1")
    assert _contents(Storage(v0_copy)) == V0_CONTENT  # a profile changes no score
