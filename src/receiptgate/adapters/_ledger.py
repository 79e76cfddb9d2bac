"""The receipts ledger that every framework adapter fills: unique ids, user inputs once.

An adapter's callback or hook object inherits :class:`ReceiptLedger` and adds the
receipts of the framework's events; the gate then reads ``index``.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import (
    Receipt,
    TrustLevel,
    document_id,
    document_receipt,
)


def now_utc() -> datetime:
    return datetime.now(UTC)


def jsonable(value: Any) -> Any:
    """A JSON-safe copy (receipt args are indexed as JSON): unknown objects become strings."""
    return json.loads(json.dumps(value, default=str))


def validate_kwargs(
    hook: str,
    agent_id: str | None,
    trust: int | None,
    channel: str | None,
    now: datetime | Callable[[], datetime] | None,
) -> dict[str, Any]:
    """``Gate.validate`` keyword arguments of an adapter; ``now`` may be a clock."""
    return {
        "agent_id": agent_id,
        "trust": trust,
        "channel": channel,
        "now": now() if callable(now) else now,
        "hook": hook,
    }


class ReceiptLedger:
    """The session's receipts: a :class:`ReceiptIndex` plus the list, thread-safe.

    Args:
        clock: the time stamped on receipts (``created_at``).
        trust: the trust level given to tool receipts (``None``: the kind's default).
        index: an existing ledger to add to (default: a new, empty one).
    """

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = now_utc,
        trust: TrustLevel | None = None,
        index: ReceiptIndex | None = None,
    ) -> None:
        self.clock = clock
        self.trust = trust
        self.index = index if index is not None else ReceiptIndex(now=clock())
        self.receipts: list[Receipt] = []
        self._ids: set[str] = {e.receipt.id for e in self.index.entries}
        self._user_seen: set[tuple[str | None, str]] = set()
        self._docs_seen: set[tuple[str, str]] = set()
        self._replies_seen: set[tuple[str | None, str]] = set()
        self._lock = threading.Lock()

    def add(self, receipt: Receipt) -> Receipt:
        """Adds a receipt of your own (a RAG chunk, a DB row); its id is made unique."""
        with self._lock:
            rid, n = receipt.id, 1
            while rid in self._ids:
                n += 1
                rid = f"{receipt.id}#{n}"
            if rid != receipt.id:
                receipt = receipt.model_copy(update={"id": rid})
            self._ids.add(rid)
            self.index.add(receipt)
            self.receipts.append(receipt)
        return receipt

    def add_document(self, text: str, *, source: str = "system") -> Receipt | None:
        """Records a system prompt or developer message as a document receipt (``rag``,
        trust ``system``), once per text: the rules a reply may restate."""
        key = (source, text)
        with self._lock:
            if not text.strip() or key in self._docs_seen:
                return None
            self._docs_seen.add(key)
            n = sum(1 for k, _ in self._docs_seen if k == source)
        return self.add(document_receipt(document_id(source, n), source, text, self.clock()))

    def add_reply(self, text: str, *, message_id: str | None = None) -> Receipt | None:
        """Records an earlier reply of the agent, from the history the model is sent, as a
        ``reply`` receipt (once per id and text): never evidence, but a figure it worked
        out may be said again in a later answer (docs/receipts.md "Figures said again")."""
        key = (message_id, text)
        with self._lock:
            if not text.strip() or key in self._replies_seen:
                return None
            self._replies_seen.add(key)
            n = len(self._replies_seen)
        return self.add(
            Receipt(
                id=message_id or f"reply-{n}", kind="reply", content=text, created_at=self.clock()
            )
        )

    def add_user_input(self, text: str, *, message_id: str | None = None) -> Receipt | None:
        """Records a user input as a ``user`` receipt (once per id and text)."""
        key = (message_id, text)
        with self._lock:
            if not text.strip() or key in self._user_seen:
                return None
            self._user_seen.add(key)
            n = len(self._user_seen)
        return self.add(
            Receipt(
                id=message_id or f"user-{n}", kind="user", content=text, created_at=self.clock()
            )
        )
