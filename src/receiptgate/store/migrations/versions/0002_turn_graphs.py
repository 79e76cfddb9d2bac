"""Per-turn provenance graphs (SPEC §7).

Revision ID: 0002
Revises: 0001
Create Date: 2026-03-12

Hand-written, and frozen: later schema changes go in new revisions, never here.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision: str | None = "0001"
branch_labels: str | None = None
depends_on: str | None = None

_BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts(name: str) -> sa.Column[object]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=False)


def upgrade() -> None:
    op.create_table(
        "turn_graphs",
        sa.Column("seq", _BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("turn_id", sa.String(255), nullable=False, unique=True),
        sa.Column("session_id", sa.String(255), nullable=True),
        sa.Column("agent_id", sa.String(255), nullable=True),
        _ts("created_at"),
        _ts("updated_at"),
        sa.Column("max_taint", sa.String(16), nullable=False),
        sa.Column("iteration_count", sa.Integer(), nullable=False),
        sa.Column("node_count", sa.Integer(), nullable=False),
        sa.Column("blocked_tools", sa.Text(), nullable=False),
        sa.Column("graph", sa.Text(), nullable=False),
    )
    for column in ("agent_id", "created_at", "max_taint"):
        op.create_index(f"ix_turn_graphs_{column}", "turn_graphs", [column])
    op.create_index("ix_turn_graphs_session_seq", "turn_graphs", ["session_id", "seq"])


def downgrade() -> None:
    op.drop_table("turn_graphs")
