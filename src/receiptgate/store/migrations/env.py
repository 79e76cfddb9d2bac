"""Alembic environment: runs on the connection :func:`receiptgate.store.open_store` passes.

The store opens a connection, takes its migration lock (a PostgreSQL advisory
lock, SQLite's write lock) and hands the connection over in
``config.attributes["connection"]``; the upgrade runs inside that transaction,
so a concurrent opener sees either no schema or the whole of it.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from receiptgate.store.schema import metadata

connection = context.config.attributes.get("connection")
if not isinstance(connection, Connection):
    raise RuntimeError(
        "receiptgate migrations run through receiptgate.store.open_store(), "
        "which passes an open connection; they have no alembic.ini"
    )
context.configure(connection=connection, target_metadata=metadata)
with context.begin_transaction():
    context.run_migrations()
