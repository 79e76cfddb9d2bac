"""The service's hook handling in process: what ``POST /hooks/{event}`` does, without a server.

:class:`LocalHooks` answers the same calls as :class:`receiptgate.client.ServiceClient`
(``hook``, ``ahook``, ``add_receipts``, ``aadd_receipts``) with the same JSON, so the
adapters' service mode runs against either: a process that wants the provenance policies
and the gate without running ``receiptgate serve`` passes a ``LocalHooks``::

    from receiptgate import build_gate
    from receiptgate.hooks.local import LocalHooks

    hooks = LocalHooks(build_gate(facts=["facts.yaml"]))        # built-in safety rules
    hooks.hook("before_tool_call", {"sessionKey": "s-1", "toolName": "exec", ...})

Behind it: the gate's handlers (validations see the receipts added for the event's
``sessionKey``), :class:`~receiptgate.hooks.provenance_handlers.ProvenanceHooks` with the
policies, and — when a store is given — every validation audited with its session and turn,
and every finished turn saved, exactly as the service does (so a dashboard on the same
database shows them).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from receiptgate.engine import Gate
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt, inline_receipts
from receiptgate.hooks.events import HookEvent
from receiptgate.hooks.gate_handlers import gate_dispatcher
from receiptgate.hooks.provenance_handlers import ProvenanceHooks
from receiptgate.provenance.graph import TurnGraph
from receiptgate.provenance.policies import PolicySet, load_provenance_policies

if TYPE_CHECKING:
    from receiptgate.store import Store

__all__ = ["LocalHooks"]

logger = logging.getLogger("receiptgate.hooks")


class LocalHooks:
    """Hook events dispatched in this process, answered like the service answers them.

    Args:
        gate: the gate; its config's ``provenancePolicies`` apply unless ``policies``
            is given.
        policies: the provenance policies (default: the gate config's, else the
            built-in safety rules).
        store: audit every validation and save every finished turn here
            (:func:`receiptgate.store.open_store`); ``None`` keeps nothing.
        store_text: keep full output texts in the audit (as ``serve --store-text``).
        on_turn_end: also called with each finished turn graph (e.g. to export it).
    """

    def __init__(
        self,
        gate: Gate,
        *,
        policies: PolicySet | None = None,
        store: Store | None = None,
        store_text: bool = False,
        on_turn_end: Callable[[TurnGraph], None] | None = None,
    ) -> None:
        self.gate = gate
        self.store = store
        self.store_text = store_text
        self._on_turn_end = on_turn_end
        self._receipts: dict[str, list[Receipt]] = {}
        self._lock = threading.Lock()
        if policies is None:
            policies = load_provenance_policies(gate.config.provenance_policies)
        self.provenance = ProvenanceHooks(policies, on_turn_end=self._turn_end)
        self.dispatcher = gate_dispatcher(gate, context=self._context)
        self.provenance.install(self.dispatcher)

    def __repr__(self) -> str:
        return f"LocalHooks(store={self.store.url if self.store is not None else None!r})"

    # -- the ServiceClient calls -------------------------------------------------------

    def hook(self, event: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """Dispatches one event; returns what ``POST /hooks/{event}`` would.

        Raises:
            InputError: an unknown event or a malformed payload (naming the field).
            StoreError: a validation could not be audited (the answer is not given).
        """
        outcome = self.dispatcher.dispatch(event, payload)
        if self.store is not None and outcome.validations:
            session_id, turn_id = self.provenance.audit_ids(outcome.parsed)
            for result in outcome.validations:
                self.store.record_validation(
                    result,
                    result.source_text or "",
                    session_id=session_id,
                    turn_id=turn_id,
                    key_name="local",
                    store_text=self.store_text,
                )
        return outcome.answer()

    async def ahook(self, event: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`hook` in a worker thread."""
        return await asyncio.to_thread(self.hook, event, payload)

    def add_receipts(self, session_id: str, receipts: Sequence[Mapping[str, Any]]) -> int:
        """Adds receipt objects (as in a receipts JSONL line) to the session; returns how
        many it holds. With a store they are stored there too.

        Raises:
            InputError: a malformed receipt (naming the item).
        """
        parsed = inline_receipts([dict(r) for r in receipts], None)
        if self.store is not None:
            self.store.add_receipts(session_id, parsed)
        with self._lock:
            held = self._receipts.setdefault(session_id, [])
            held.extend(parsed)
            return len(held)

    async def aadd_receipts(self, session_id: str, receipts: Sequence[Mapping[str, Any]]) -> int:
        """:meth:`add_receipts` in a worker thread."""
        return await asyncio.to_thread(self.add_receipts, session_id, receipts)

    # -- internals ---------------------------------------------------------------------

    def _context(self, event: HookEvent) -> dict[str, Any]:
        if not event.session_key:
            return {}
        with self._lock:
            receipts = list(self._receipts.get(event.session_key, ()))
        return {"receipts": ReceiptIndex(receipts)} if receipts else {}

    def _turn_end(self, graph: TurnGraph) -> None:
        if self.store is not None:
            self.store.save_turn(graph)
        if self._on_turn_end is not None:
            self._on_turn_end(graph)
