"""One database, SQLite or PostgreSQL, chosen by a URL; transactions, retries and errors in one place.

`RUMMI_DB` (or `--db`) holds either an SQLAlchemy URL (`postgresql+psycopg://user@host/db`,
`sqlite:///path`) or a plain file path, which means SQLite. Without either, the local SQLite file.

SQLite serves several processes at once in WAL mode: readers never wait, and a writer takes the write lock
when its transaction begins (`BEGIN IMMEDIATE`), so two writers queue on the busy timeout instead of failing
halfway; what is still locked after that is retried until `timeout_s` runs out. PostgreSQL transactions are
retried on serialization failures and deadlocks; a lost server is `StorageUnavailable`, never retried behind
the caller's back (whether its last commit arrived is unknown: the caller retries with the same key).
The schema is brought up to date (Alembic migrations) when a `Database` is opened.
"""

from __future__ import annotations

import functools
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.pool import NullPool, StaticPool

DB_ENV_VAR = "RUMMI_DB"
APP_DIR_NAME = "rummi-assistant"
DB_FILE_NAME = "rummi.sqlite3"
MIGRATIONS = Path(__file__).with_name("migrations")
# Any fixed number: the PostgreSQL advisory lock that lets one process at a time migrate the schema.
_MIGRATION_LOCK_KEY = 7_316_842_051

HEAD_REVISION = "0005"
VERSION_TABLE = "alembic_version"
T = TypeVar("T")
_ENGINES: dict[tuple[str, float], Engine] = {}
_ENGINES_LOCK = threading.Lock()


class StorageError(Exception):
    """The database could not be read or written, or a change conflicts with what another tab confirmed."""


class StorageUnavailable(StorageError):
    """The database server cannot be reached (down, restarted, network gone). Nothing confirmed is lost."""


def default_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """`$RUMMI_DB` if set, else a file in the user's data folder (XDG, macOS or Windows convention)."""
    env = os.environ if environ is None else environ
    if env.get(DB_ENV_VAR):
        return Path(env[DB_ENV_VAR]).expanduser()
    return data_folder_db_path(env)


def data_folder_db_path(environ: Mapping[str, str] | None = None) -> Path:
    """The default location: the file in the user's data folder, whatever `$RUMMI_DB` says. Its folder is
    made when missing; any other file's folder must exist (`Database`)."""
    env = os.environ if environ is None else environ
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "win32":
        base = Path(env.get("APPDATA") or home / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = home / "Library" / "Application Support"
    else:
        base = Path(env.get("XDG_DATA_HOME") or home / ".local" / "share")
    return base / APP_DIR_NAME / DB_FILE_NAME


def is_url(target: str) -> bool:
    """An SQLAlchemy URL (`dialect[+driver]://...`), as opposed to a file path."""
    scheme, sep, _ = target.partition("://")
    return bool(sep) and bool(scheme) and all(c.isalnum() or c in "+-." for c in scheme)


def default_db_url(environ: Mapping[str, str] | None = None) -> str:
    """`$RUMMI_DB` as given when it is a URL, else the SQLite file `default_db_path` names."""
    env = os.environ if environ is None else environ
    value = env.get(DB_ENV_VAR, "")
    if value and is_url(value):
        return value
    return str(default_db_path(env))


def to_url(target: str | os.PathLike[str] | None) -> sa.URL:
    """The SQLAlchemy URL for a URL, a file path (SQLite) or None (the default).

    Raises:
        StorageError: the URL cannot be read or names a database this program does not support.
    """
    if target is None:
        target = default_db_url()
    text = os.fspath(target)
    if not is_url(text):
        return sa.URL.create("sqlite", database=str(Path(text).expanduser()))
    if text.startswith("postgres://"):  # libpq's spelling; SQLAlchemy knows only postgresql://
        text = "postgresql://" + text[len("postgres://") :]
    try:
        url = make_url(text)
    except exc.ArgumentError as error:
        raise StorageError(f"not a database URL: {text!r} ({error})") from error
    if url.get_backend_name() == "postgresql" and "+" not in url.drivername:
        # plain postgresql:// would mean psycopg2; the project depends on psycopg (3)
        url = url.set(drivername="postgresql+psycopg")
    if url.get_backend_name() not in ("sqlite", "postgresql"):
        raise StorageError(
            f"unsupported database {url.get_backend_name()!r} in {text!r}: use sqlite or postgresql"
        )
    return url


def is_in_memory(url: sa.URL) -> bool:
    """An SQLite database that lives only while it is open (`sqlite://`, `sqlite:///`, `:memory:`,
    `mode=memory`): what a command writes there is gone when the command ends."""
    if url.get_backend_name() != "sqlite":
        return False
    database = url.database or ""
    return (
        database in ("", ":memory:")
        or database.startswith("file::memory:")
        or url.query.get("mode") == "memory"
    )


def sqlite_file(url: sa.URL) -> Path | None:
    """The file an SQLite URL names; None for a server or a database in memory."""
    if is_in_memory(url) or url.get_backend_name() != "sqlite" or url.database is None:
        return None
    return Path(url.database)


class Database:
    """An engine on one URL with the project's transaction rules. Cheap to open: connections are made
    per transaction (SQLite) or pooled and checked before use (PostgreSQL)."""

    def __init__(self, target: str | os.PathLike[str] | None = None, timeout_s: float = 10.0) -> None:
        self.url = to_url(target)
        self.timeout_s = timeout_s
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.path: Path | None = None
        if self.is_sqlite and self.url.database and self.url.database != ":memory:":
            self.path = Path(self.url.database)
            self.display = str(self.path)
            if not is_in_memory(self.url):
                _check_folder(self.path)
        else:
            self.display = self.url.render_as_string(hide_password=True)
        self.engine = self._shared_engine()
        upgrade_schema(self)

    def _shared_engine(self) -> Engine:
        """One engine (and so one connection pool) per database server in a process; a file needs none."""
        if self.is_sqlite:
            return self._make_engine()
        key = (self.url.render_as_string(hide_password=False), self.timeout_s)
        with _ENGINES_LOCK:
            if key not in _ENGINES:
                _ENGINES[key] = self._make_engine()
            return _ENGINES[key]

    def _make_engine(self) -> Engine:
        if self.is_sqlite:
            if self.path is None:  # in memory: one connection for the engine's life, or each would be empty
                engine = sa.create_engine(
                    self.url, poolclass=StaticPool, connect_args={"check_same_thread": False}
                )
            else:
                engine = sa.create_engine(
                    self.url, poolclass=NullPool, connect_args={"timeout": self.timeout_s}
                )
            busy_ms = max(1, int(self.timeout_s * 1000))

            @event.listens_for(engine, "connect")
            def _on_connect(dbapi_connection: Any, _record: Any) -> None:
                dbapi_connection.isolation_level = None  # we emit BEGIN ourselves (below)
                cursor = dbapi_connection.cursor()
                cursor.execute(f"PRAGMA busy_timeout = {busy_ms}")
                cursor.execute("PRAGMA foreign_keys = ON")
                if self.path is not None:
                    cursor.execute("PRAGMA journal_mode = WAL")
                    cursor.execute("PRAGMA synchronous = NORMAL")  # durable in WAL mode except on power loss
                cursor.close()

            @event.listens_for(engine, "begin")
            def _on_begin(conn: Connection) -> None:
                mode = conn.get_execution_options().get("rummi_write", False)
                conn.exec_driver_sql("BEGIN IMMEDIATE" if mode else "BEGIN")

            return engine
        connect_args = {"connect_timeout": max(1, int(self.timeout_s))}
        return sa.create_engine(self.url, pool_pre_ping=True, pool_size=2, connect_args=connect_args)

    @contextmanager
    def connect(self, write: bool) -> Iterator[Connection]:
        """One transaction: committed when the block ends, rolled back if it raises."""
        engine = self.engine.execution_options(rummi_write=True) if write else self.engine
        with engine.begin() as conn:
            yield conn

    def run(self, work: Callable[[Connection], T], write: bool = True) -> T:
        """`work` in one transaction, retried while the database is busy, errors as `StorageError`."""
        deadline = time.monotonic() + self.timeout_s
        delay = 0.005
        while True:
            try:
                with self.connect(write) as conn:
                    return work(conn)
            except exc.DBAPIError as error:
                if self._retryable(error) and time.monotonic() < deadline:
                    time.sleep(delay)
                    delay = min(delay * 2, 0.2)
                    continue
                raise self.storage_error(error, write) from error

    def _retryable(self, error: exc.DBAPIError) -> bool:
        if self.is_sqlite:
            return isinstance(error, exc.OperationalError) and "locked" in str(error.orig)
        return _sqlstate(error) in ("40001", "40P01")  # serialization failure, deadlock

    def storage_error(self, error: exc.DBAPIError, write: bool = True) -> StorageError:
        """The message a person reads for a database failure."""
        if not self.is_sqlite and _connection_lost(error):
            then = (
                "this change may not have been recorded: send it again when the server is back (a game "
                "sent again with its key is recorded once)"
                if write
                else "try again when the server is back"
            )
            return StorageUnavailable(
                f"cannot reach the database server {self.display} ({_first_line(error.orig)}). "
                f"Everything confirmed before is kept; {then}."
            )
        if isinstance(error, exc.IntegrityError):
            return StorageError(f"change refused by the database: {_first_line(error.orig)}")
        return StorageError(f"database {self.display!r} failed: {_first_line(error.orig)}")


def _check_folder(path: Path) -> None:
    """The folder of an SQLite file must exist: a mistyped `--db` or `RUMMI_DB` is refused rather than
    a new folder (and an empty database) made where nobody looks. The default location's folder
    (`data_folder_db_path`) is made when missing.

    Raises:
        StorageError: the folder is missing (or is a file), or the default one cannot be made.
    """
    folder = path.parent
    if folder.is_dir():
        return
    if folder.exists():
        raise StorageError(f"cannot use the database {str(path)!r}: {str(folder)!r} is a file, not a folder")
    if os.path.abspath(path) == os.path.abspath(data_folder_db_path()):
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StorageError(
                f"cannot create the folder for the database {str(path)!r}: {error.strerror or error}"
            ) from error
        return
    raise StorageError(
        f"no folder {str(folder)!r} for the database {str(path)!r}: is the path mistyped? Create the folder "
        "first or give another path (nothing was created)"
    )


def _sqlstate(error: exc.DBAPIError) -> str | None:
    return getattr(error.orig, "sqlstate", None)


def _connection_lost(error: exc.DBAPIError) -> bool:
    if error.connection_invalidated:
        return True
    state = _sqlstate(error)
    if isinstance(error, exc.IntegrityError):
        return False
    # No SQLSTATE: the client failed to connect or lost the socket; 08: connection exception; 57P: the
    # server shut down or restarted.
    return state is None or state.startswith("08") or state.startswith("57P")


def _first_line(value: object) -> str:
    text = str(value).strip()
    return text.splitlines()[0] if text else type(value).__name__


# Migrations ----------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _alembic_config() -> Any:
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def head_revision() -> str:
    """The newest schema version this code knows (the last file in migrations/versions; a test checks)."""
    return HEAD_REVISION


def schema_revision(conn: Connection) -> str | None:
    """The database's schema version; None before any migration ran. Read without importing Alembic, which
    costs most of a short command's start-up."""
    if not sa.inspect(conn).has_table(VERSION_TABLE):
        return None
    return conn.execute(sa.text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def upgrade_schema(db: Database) -> None:
    """Bring the schema to the newest version, one process at a time; a file from before the migrations
    existed (no version table) is adopted as version 0001.

    Raises:
        StorageError: the database cannot be read, or holds a newer schema than this code knows.
    """
    head = head_revision()
    current = db.run(schema_revision, write=False)
    if current == head:
        return

    def migrate(conn: Connection) -> None:
        from alembic import command

        if not db.is_sqlite:
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY})
        found = schema_revision(conn)
        if found == head:
            return  # another process migrated it meanwhile
        config = _alembic_config()
        config.attributes["connection"] = conn
        try:
            command.upgrade(config, "head")
        finally:
            config.attributes.pop("connection", None)

    try:
        db.run(migrate, write=True)
    except StorageError:
        raise
    except Exception as error:  # alembic: a revision it cannot find means a newer program wrote the file
        raise StorageError(
            f"database {db.display!r} has schema version {current!r}, which this program does not know "
            f"(it knows up to {head!r}): is it from a newer version? ({error})"
        ) from error
