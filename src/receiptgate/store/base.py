"""What every part of the store shares: its state, transactions (``_tx``) and error text.

:class:`StoreBase` is the common base of the store's parts (audit trail, API
keys, session receipts, facts); :class:`~receiptgate.store.store.Store`
composes them and sets the state declared here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from receiptgate._exceptions import StoreError
from receiptgate.store.schema import meta
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

    #: The SQLite file and its (device, inode) when opened; ``None`` on PostgreSQL.
    db_file: Path | None = None
    _db_identity: tuple[int, int] | None = None

    def remember_file(self, path: Path | None) -> None:
        """Notes which file the store opened, so that :meth:`check_file` can tell when
        it was deleted or replaced under the running service."""
        self.db_file = path
        if path is not None:
            st = path.stat()
            self._db_identity = (st.st_dev, st.st_ino)

    def check_file(self, what: str) -> None:
        """Raises StoreError when the SQLite file is gone or is another file now.

        A deleted file stays writable through the open handle, and every record
        written to it is lost at the next start: refusing (503) is the only honest
        answer. One ``stat`` per commit.
        """
        if self.db_file is None:
            return
        try:
            st = self.db_file.stat()
        except OSError:
            raise StoreError(
                f"{what}: the database file {self.db_file} has gone since the service "
                "opened it; records written now would be lost (restart the service)"
            ) from None
        if (st.st_dev, st.st_ino) != self._db_identity:
            raise StoreError(
                f"{what}: the database file {self.db_file} was replaced since the service "
                "opened it (restart the service)"
            )

    def probe_write(self) -> None:
        """One real write and commit (readiness: a full disk or a read-only file fails).

        Raises:
            StoreError: the store cannot write.
        """
        self.check_file("readiness probe")
        with self._tx("readiness probe (a write)", write=True) as conn:
            updated = conn.execute(
                meta.update().where(meta.c.key == "ready_probe").values(value=meta.c.value + 1)
            ).rowcount
            if not updated:
                conn.execute(meta.insert().values(key="ready_probe", value=1))

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
