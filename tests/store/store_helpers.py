"""Helpers of the store tests: real validation results and raw database contents."""

from __future__ import annotations

import dataclasses
import sqlite3
import uuid
from datetime import UTC, datetime
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

from receiptgate import Gate, ValidationResult

FACTS = Path(__file__).resolve().parents[1] / "fixtures" / "facts" / "system-state.yaml"
NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)

PASS_TEXT = "Node.js is installed."
FLAG_TEXT = "The pipeline is broken."
BLOCK_TEXT = "Node.js is not installed."


def validate(
    gate: Gate, text: str, *, agent_id: str | None = None, hook: str | None = None
) -> ValidationResult:
    """Validates ``text`` with the gate at :data:`NOW`, trust 30."""
    return gate.validate(text, now=NOW, trust=30, agent_id=agent_id, hook=hook)


def at(result: ValidationResult, when: datetime) -> ValidationResult:
    """A copy of ``result`` with a fresh id, created at ``when``."""
    return dataclasses.replace(
        result, id=uuid.uuid4().hex, created_at=when.isoformat(timespec="milliseconds")
    )


def raw_dump(url: str) -> str:
    """Every cell of every table of the database, as one string (to search for leaks)."""
    parsed = make_url(url)
    cells: list[str] = []
    if parsed.get_backend_name() == "sqlite":
        with sqlite3.connect(str(parsed.database)) as conn:
            tables = [
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            ]
            for table in tables:
                for row in conn.execute(f'SELECT * FROM "{table}"'):
                    cells.extend(str(c) for c in row)
        conn.close()
    else:
        with psycopg.connect(url) as conn:
            tables = [
                r[0]
                for r in conn.execute(
                    "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                ).fetchall()
            ]
            for table in tables:
                for row in conn.execute(f'SELECT * FROM "{table}"').fetchall():
                    cells.extend(str(c) for c in row)
    return "\n".join(cells)
