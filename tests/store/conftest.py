"""Store fixtures: every store test runs on a SQLite file and on a PostgreSQL database."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from sqlalchemy.engine import make_url
from store_helpers import FACTS

from receiptgate import Gate, build_gate
from receiptgate.store import Store, open_store


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A URL of an empty database: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'receiptgate.db'}"
        return
    server = make_url(request.getfixturevalue("postgres_url"))
    name = f"rg_{uuid.uuid4().hex[:12]}"
    admin = server.set(database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield server.set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A migrated store on ``db_url``, closed after the test."""
    with open_store(db_url) as s:
        yield s


@pytest.fixture(scope="session")
def gate() -> Gate:
    """The real gate, with the RFC-003 system-state facts (node-installed, ...)."""
    return build_gate(facts=[FACTS])
