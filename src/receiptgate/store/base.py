"""What every part of the store shares: its state, transactions (``_tx``) and error text.

:class:`StoreBase` is the common base of the store's parts (audit trail, API
keys, session receipts, facts); :class:`~receiptgate.store.store.Store`
composes them and sets the state declared here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from receiptgate._exceptions import StoreError
from receiptgate.store.writes import _WriterLock

#: Execution option that makes SQLite begin with ``BEGIN IMMEDIATE`` (see connect.py).
WRITE_OPTION = "receiptgate_write"


def error_detail(error: SQLAlchemyError, *, secret: str | None = None) -> str:
    """The driver's first message line, without SQL or parameters (and without ``secret``)."""
    orig = getattr(error, "orig", None)
    lines = str(orig if orig is not None else error).strip().splitlines()
    text = lines[0] if lines else type(error).__name__
    return text.replace(secret, "***") if secret else text


def _now() -> datetime:
    return datetime.now(UTC)


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode("utf-8")


class StoreBase:
    """The state shared by the parts of :class:`~receiptgate.store.store.Store`."""

    url: str
    dialect: str
    _engine: Engine
    _closed: bool
    _writer: _WriterLock

    @contextmanager
    def _tx(self, what: str, *, write: bool = False) -> Iterator[Connection]:
        """One transaction; database errors become StoreError naming ``what``."""
        if self._closed:
            raise StoreError(f"{what}: the store for {self.url} is closed")
        try:
            with self._writer.held(write), self._engine.connect() as conn:
                if write:
                    conn.execution_options(**{WRITE_OPTION: True})
                with conn.begin():
                    yield conn
        except SQLAlchemyError as e:
            raise StoreError(f"{what} failed on {self.url}: {error_detail(e)}") from e
