"""Fixtures for the service tests (the helpers live in live_server.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import LiveServer, start_server


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    """A fresh service on an embedded SQLite file, with admin and validate keys."""
    server = start_server(tmp_path / "data")
    yield server
    server.stop()
