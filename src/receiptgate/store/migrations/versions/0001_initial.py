"""Initial schema: audit trail, feedback, API keys, session receipts, facts.

Revision ID: 0001
Revises:
Create Date: 2026-03-11

Hand-written, and frozen: later schema changes go in new revisions, never here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels: str | None = None
depends_on: str | None = None

_BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts(name: str, *, nullable: bool = False) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "audit_records",
        sa.Column("seq", _BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("id", sa.String(64), nullable=False, unique=True),
        _ts("created_at"),
        sa.Column("agent_id", sa.String(255), nullable=True),
        sa.Column("session_id", sa.String(255), nullable=True),
        sa.Column("audit_verdict", sa.String(32), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=True),
    )
    for column in ("created_at", "agent_id", "session_id", "audit_verdict"):
        op.create_index(f"ix_audit_records_{column}", "audit_records", [column])

    op.create_table(
        "audit_categories",
        sa.Column(
            "record_id",
            sa.String(64),
            sa.ForeignKey("audit_records.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("category", sa.String(64), primary_key=True),
    )
    op.create_index("ix_audit_categories_category", "audit_categories", ["category", "record_id"])

    op.create_table(
        "audit_feedback",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column(
            "record_id",
            sa.String(64),
            sa.ForeignKey("audit_records.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=True),
        sa.Column("note", sa.Text(), nullable=True),
        sa.Column("author", sa.String(255), nullable=True),
        _ts("created_at"),
    )
    op.create_index("ix_audit_feedback_record_id", "audit_feedback", ["record_id"])

    op.create_table(
        "api_keys",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("name", sa.String(255), nullable=True),
        sa.Column("scope", sa.String(16), nullable=False),
        _ts("created_at"),
        _ts("revoked_at", nullable=True),
    )

    op.create_table(
        "session_receipts",
        sa.Column("seq", _BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("session_id", sa.String(255), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        _ts("created_at"),
    )
    op.create_index("ix_session_receipts_session_seq", "session_receipts", ["session_id", "seq"])

    op.create_table(
        "facts",
        sa.Column("registry_id", sa.String(255), primary_key=True),
        sa.Column("fact_id", sa.String(255), primary_key=True),
        sa.Column("data", sa.Text(), nullable=False),
        _ts("updated_at"),
    )

    meta = op.create_table(
        "meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.BigInteger(), nullable=False),
    )
    op.bulk_insert(meta, [{"key": "facts_version", "value": 0}])


def downgrade() -> None:
    for table in (
        "meta",
        "facts",
        "session_receipts",
        "api_keys",
        "audit_feedback",
        "audit_categories",
        "audit_records",
    ):
        op.drop_table(table)
