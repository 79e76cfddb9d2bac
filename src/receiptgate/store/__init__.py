"""Persistence for the service: audit trail, API keys, session receipts, operator facts.

SQLite in the user's data directory by default, PostgreSQL by URL for several
instances sharing one database::

    from receiptgate.store import AuditFilter, open_store

    store = open_store()  # <data dir>/receiptgate.db, migrated
    store.record_validation(result, text, session_id="s1")
    store.query(AuditFilter(verdict="block", limit=20))

Needs the ``server`` extra (SQLAlchemy, Alembic, psycopg, platformdirs).
"""

from __future__ import annotations

from receiptgate.store.connect import default_data_dir, open_store
from receiptgate.store.records import (
    ApiKey,
    AuditFilter,
    AuditRecord,
    Feedback,
    StoredFact,
    controls_for,
)
from receiptgate.store.redact import redact_mapping, redact_text
from receiptgate.store.store import Store

__all__ = [
    "ApiKey",
    "AuditFilter",
    "AuditRecord",
    "Feedback",
    "Store",
    "StoredFact",
    "controls_for",
    "default_data_dir",
    "open_store",
    "redact_mapping",
    "redact_text",
]
