"""Fixtures shared by the whole suite: private PostgreSQL and Redis servers (tests/services.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from services import start_postgres, start_redis


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private PostgreSQL server for the session, with an empty ``receiptgate`` database."""
    url, stop = start_postgres(tmp_path_factory.mktemp("postgres"))
    try:
        yield url
    finally:
        stop()


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A private, non-persistent Redis server for the session."""
    url, stop = start_redis(tmp_path_factory.mktemp("redis"))
    try:
        yield url
    finally:
        stop()
