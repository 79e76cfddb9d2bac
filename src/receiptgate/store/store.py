"""The store: audit trail, API keys, session receipts and operator facts.

One :class:`Store` serves one process and is safe to call from many threads;
several processes (service instances) may share one database. Every write is
committed when the method returns. Database failures raise
:class:`~receiptgate._exceptions.StoreError` naming the database.

:class:`Store` is composed here from its parts: ``base`` (shared state and
transactions), ``audit`` (the audit trail), ``writes`` (how audit records get
committed), ``keys`` (API keys), ``sessions`` (session receipts) and ``facts``
(operator facts).
"""

from __future__ import annotations

import threading
from pathlib import Path

from sqlalchemy.engine import Engine

from receiptgate.store.audit import AuditMixin
from receiptgate.store.base import WRITE_OPTION, error_detail
from receiptgate.store.facts import FactsMixin
from receiptgate.store.keys import KeysMixin
from receiptgate.store.records import ApiKey
from receiptgate.store.sessions import SessionsMixin
from receiptgate.store.turns import TurnsMixin
from receiptgate.store.writes import _AuditWriter, _GroupCommit, _WriterLock

__all__ = ["WRITE_OPTION", "Store", "error_detail"]


class Store(AuditMixin, KeysMixin, SessionsMixin, FactsMixin, TurnsMixin):
    """Persistence for the service, on SQLite or PostgreSQL (open with ``open_store``).

    Attributes:
        url: the database URL, password masked.
        dialect: ``"sqlite"`` or ``"postgresql"``.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        url: str,
        key_cache_ttl: float = 5.0,
        write_lock: Path | None = None,
    ) -> None:
        self.url = url
        self.dialect = engine.dialect.name
        self._engine = engine
        self._closed = False
        self._writer = _WriterLock(write_lock)
        self._group = _GroupCommit(self)
        self._audit_writer = _AuditWriter(self._group)
        self._accepting = True
        self._key_cache_ttl = key_cache_ttl
        self._key_cache: dict[str, tuple[ApiKey, float]] = {}
        self._key_cache_lock = threading.Lock()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes every pooled connection; the store cannot be used afterwards."""
        self._accepting = False  # refuse new submissions, then drain the queued ones
        self._audit_writer.close()
        self._closed = True
        self._engine.dispose()
        self._writer.close()
