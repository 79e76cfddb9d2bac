"""Alembic revisions, hand-written, oldest first (``0001_initial`` creates every table)."""
