"""Alembic migrations of the store, run by :func:`receiptgate.store.open_store`."""
