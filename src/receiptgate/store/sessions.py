"""Session receipts: appending them to a session and reading them back in commit order."""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa

from receiptgate._exceptions import InputError
from receiptgate.evidence.receipts import Receipt
from receiptgate.store.base import StoreBase, _dumps, _now
from receiptgate.store.schema import session_receipts

# Namespace of the per-session advisory locks that keep receipt seqs in commit order.
_PG_RECEIPTS_LOCK_CLASS = 0x7263


class SessionsMixin(StoreBase):
    """The session-receipt methods of :class:`~receiptgate.store.store.Store`."""

    def add_receipts(self, session_id: str, receipts: Sequence[Receipt]) -> int:
        """Appends receipts to a session, stored as given; returns the session's count.

        Within one session, sequence numbers follow commit order (writers to a
        session are serialised), so :meth:`receipts_since` with the last seq
        seen never skips a receipt.

        Raises:
            InputError: for an empty ``session_id``.
        """
        if not session_id:
            raise InputError("session_id: must not be empty")
        now = _now()
        rows = [
            {"session_id": session_id, "data": _dumps(r.model_dump(mode="json")), "created_at": now}
            for r in receipts
        ]
        with self._tx(f"adding receipts to session {session_id}", write=True) as conn:
            if self.dialect == "postgresql":
                conn.execute(
                    sa.text("SELECT pg_advisory_xact_lock(:c, hashtext(:s))"),
                    {"c": _PG_RECEIPTS_LOCK_CLASS, "s": session_id},
                )
            if rows:
                conn.execute(session_receipts.insert(), rows)
            count = conn.execute(
                sa.select(sa.func.count())
                .select_from(session_receipts)
                .where(session_receipts.c.session_id == session_id)
            ).scalar_one()
        return int(count)

    def receipts_since(self, session_id: str, after_seq: int = 0) -> list[tuple[int, Receipt]]:
        """The session's receipts after ``after_seq``, as ``(seq, receipt)`` ascending."""
        t = session_receipts.c
        with self._tx(f"reading receipts of session {session_id}") as conn:
            rows = conn.execute(
                sa.select(t.seq, t.data)
                .where(t.session_id == session_id, t.seq > after_seq)
                .order_by(t.seq)
            ).all()
        return [(int(r.seq), Receipt.model_validate(json.loads(r.data))) for r in rows]
