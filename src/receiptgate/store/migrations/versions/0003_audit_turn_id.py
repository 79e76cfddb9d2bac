"""Audit records carry their turn id in a column, so a turn's records can be listed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22

The turn id was already in each record's JSON payload; this copies it into the
new indexed column for existing records (in batches), so nothing recorded
before the upgrade drops out of ``GET /audit?turn_id=`` or the turn page.

Hand-written, and frozen: later schema changes go in new revisions, never here.
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision: str | None = "0002"
branch_labels: str | None = None
depends_on: str | None = None

_BATCH = 1000


def upgrade() -> None:
    op.add_column("audit_records", sa.Column("turn_id", sa.String(255), nullable=True))
    op.create_index("ix_audit_records_turn_id", "audit_records", ["turn_id"])
    records = sa.table(
        "audit_records",
        sa.column("seq", sa.BigInteger()),
        sa.column("payload", sa.Text()),
        sa.column("turn_id", sa.String(255)),
    )
    conn = op.get_bind()
    last = -1
    while True:
        rows = conn.execute(
            sa.select(records.c.seq, records.c.payload)
            .where(records.c.seq > last)
            .order_by(records.c.seq)
            .limit(_BATCH)
        ).all()
        if not rows:
            break
        last = rows[-1].seq
        updates = []
        for row in rows:
            try:
                turn_id = json.loads(row.payload).get("turn_id")
            except (ValueError, AttributeError):
                continue
            if isinstance(turn_id, str) and turn_id:
                updates.append({"s": row.seq, "t": turn_id[:255]})
        if updates:
            conn.execute(
                records.update()
                .where(records.c.seq == sa.bindparam("s"))
                .values(turn_id=sa.bindparam("t")),
                updates,
            )


def downgrade() -> None:
    op.drop_index("ix_audit_records_turn_id", table_name="audit_records")
    op.drop_column("audit_records", "turn_id")
