"""The database every storage test runs on: a SQLite file, and a PostgreSQL server.

PostgreSQL comes from `RUMMI_TEST_PG_URL` (scripts/test.sh starts a throwaway server and sets it). Each
test gets its own schema on it. Without the URL the PostgreSQL cases are skipped on a developer's machine
and FAIL in CI (`CI=true`) or when `RUMMI_REQUIRE_PG=1`, so a missing server never passes unnoticed.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

PG_ENV = "RUMMI_TEST_PG_URL"
BACKENDS = ["sqlite", "postgresql"]


def pg_base_url() -> str:
    """The PostgreSQL server's URL; skips (fails in CI) without one."""
    url = os.environ.get(PG_ENV, "")
    if url:
        return url
    required = os.environ.get("CI", "").lower() in ("1", "true", "yes") or os.environ.get("RUMMI_REQUIRE_PG")
    message = f"{PG_ENV} is not set: no PostgreSQL server to test on (scripts/test.sh starts one and sets it)"
    if required:
        pytest.fail(message + "; in CI the PostgreSQL tests must run")
    pytest.skip(message)


@pytest.fixture(scope="session")
def pg_admin() -> Iterator[sa.Engine]:
    engine = sa.create_engine(pg_base_url(), poolclass=NullPool)
    yield engine
    engine.dispose()


def fresh_pg_schema(admin: sa.Engine) -> tuple[str, str]:
    """(schema, URL whose connections use only that schema)."""
    schema = f"t_{uuid.uuid4().hex[:12]}"
    with admin.begin() as conn:
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    url = make_url(str(admin.url.render_as_string(hide_password=False))).update_query_dict(
        {"options": f"-csearch_path={schema}"}
    )
    return schema, url.render_as_string(hide_password=False)


def drop_pg_schema(admin: sa.Engine, schema: str) -> None:
    with admin.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database: a SQLite file path, or a PostgreSQL URL on a schema of its own."""
    if request.param == "sqlite":
        (tmp_path / "sub").mkdir()  # a database's folder is never made for it (but the default one's)
        yield str(tmp_path / "sub" / "hall.sqlite3")
        return
    admin = request.getfixturevalue("pg_admin")
    schema, url = fresh_pg_schema(admin)
    yield url
    drop_pg_schema(admin, schema)


@pytest.fixture
def pg_url(pg_admin: sa.Engine) -> Iterator[str]:
    """A PostgreSQL URL on a schema of its own (for what only a server can do: be lost)."""
    schema, url = fresh_pg_schema(pg_admin)
    yield url
    drop_pg_schema(pg_admin, schema)
