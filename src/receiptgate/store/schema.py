"""The store's tables, as SQLAlchemy Core (one schema for SQLite and PostgreSQL).

The migrations in ``migrations/versions`` create exactly these tables; a test
compares the two so that they cannot drift apart. JSON documents are kept as
text: the store never queries inside them, and text keeps SQLite and
PostgreSQL byte-for-byte alike.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.engine import Dialect

metadata = sa.MetaData()

#: An autoincrementing 64-bit key (SQLite only autoincrements ``INTEGER PRIMARY KEY``).
BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


class UTCDateTime(sa.TypeDecorator[datetime]):
    """A timezone-aware UTC timestamp on both databases.

    SQLite has no timestamp type and SQLAlchemy stores its datetimes as naive
    text, so values are normalised to UTC before they are written and read back
    as aware UTC datetimes. The fixed-width text sorts chronologically.
    """

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError(f"naive datetime {value.isoformat()} given; use an aware one")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


audit_records = sa.Table(
    "audit_records",
    metadata,
    # seq orders records inserted in the same millisecond; id is the result id.
    sa.Column("seq", BigId, primary_key=True, autoincrement=True),
    sa.Column("id", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", UTCDateTime(), nullable=False, index=True),
    sa.Column("agent_id", sa.String(255), nullable=True, index=True),
    sa.Column("session_id", sa.String(255), nullable=True, index=True),
    # The turn the output belongs to (revision 0003); also in the payload.
    sa.Column("turn_id", sa.String(255), nullable=True, index=True),
    sa.Column("audit_verdict", sa.String(32), nullable=False, index=True),
    sa.Column("verdict", sa.String(16), nullable=False),
    sa.Column("payload", sa.Text(), nullable=False),
    # The full output text, only when the caller opted in (store_text=True).
    sa.Column("text", sa.Text(), nullable=True),
)

audit_categories = sa.Table(
    "audit_categories",
    metadata,
    sa.Column(
        "record_id",
        sa.String(64),
        sa.ForeignKey("audit_records.id", ondelete="CASCADE"),
        primary_key=True,
    ),
    sa.Column("category", sa.String(64), primary_key=True),
    sa.Index("ix_audit_categories_category", "category", "record_id"),
)

audit_feedback = sa.Table(
    "audit_feedback",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column(
        "record_id",
        sa.String(64),
        sa.ForeignKey("audit_records.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("verdict", sa.String(16), nullable=True),
    sa.Column("note", sa.Text(), nullable=True),
    sa.Column("author", sa.String(255), nullable=True),
    sa.Column("created_at", UTCDateTime(), nullable=False),
)

api_keys = sa.Table(
    "api_keys",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    # sha256 hex of the plaintext; the plaintext itself is never stored.
    sa.Column("key_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("name", sa.String(255), nullable=True),
    sa.Column("scope", sa.String(16), nullable=False),
    sa.Column("created_at", UTCDateTime(), nullable=False),
    sa.Column("revoked_at", UTCDateTime(), nullable=True),
)

session_receipts = sa.Table(
    "session_receipts",
    metadata,
    sa.Column("seq", BigId, primary_key=True, autoincrement=True),
    sa.Column("session_id", sa.String(255), nullable=False),
    sa.Column("data", sa.Text(), nullable=False),
    sa.Column("created_at", UTCDateTime(), nullable=False),
    sa.Index("ix_session_receipts_session_seq", "session_id", "seq"),
)

facts = sa.Table(
    "facts",
    metadata,
    sa.Column("registry_id", sa.String(255), primary_key=True),
    sa.Column("fact_id", sa.String(255), primary_key=True),
    sa.Column("data", sa.Text(), nullable=False),
    sa.Column("updated_at", UTCDateTime(), nullable=False),
)

# Named counters; "facts_version" is bumped in every fact write's transaction.
meta = sa.Table(
    "meta",
    metadata,
    sa.Column("key", sa.String(64), primary_key=True),
    sa.Column("value", sa.BigInteger(), nullable=False),
)

# Per-turn provenance graphs (SPEC §7): the graph JSON plus its summary, for queries.
turn_graphs = sa.Table(
    "turn_graphs",
    metadata,
    # seq orders turns saved in the same millisecond; turn_id is the graph's id.
    sa.Column("seq", BigId, primary_key=True, autoincrement=True),
    sa.Column("turn_id", sa.String(255), nullable=False, unique=True),
    sa.Column("session_id", sa.String(255), nullable=True),
    sa.Column("agent_id", sa.String(255), nullable=True, index=True),
    sa.Column("created_at", UTCDateTime(), nullable=False, index=True),
    sa.Column("updated_at", UTCDateTime(), nullable=False),
    sa.Column("max_taint", sa.String(16), nullable=False, index=True),
    sa.Column("iteration_count", sa.Integer(), nullable=False),
    sa.Column("node_count", sa.Integer(), nullable=False),
    # JSON list of tool names, as text like every other document here.
    sa.Column("blocked_tools", sa.Text(), nullable=False),
    sa.Column("graph", sa.Text(), nullable=False),
    sa.Index("ix_turn_graphs_session_seq", "session_id", "seq"),
)
