"""Runtime hooks (SPEC §7): JSON-shaped events, a dispatcher, and the gate's handlers.

::

    from receiptgate import build_gate
    from receiptgate.hooks import gate_dispatcher

    dispatcher = gate_dispatcher(build_gate(facts=["facts.yaml"]))
    outcome = dispatcher.dispatch(
        "before_message_write",
        {"message": {"role": "assistant", "content": "Node.js is not installed."}},
    )
    outcome.result.block  # True
"""

from __future__ import annotations

from receiptgate.hooks.dispatcher import (
    DispatchOutcome,
    HandlerAnswer,
    HandlerError,
    HookDispatcher,
)
from receiptgate.hooks.events import EVENTS, HookEvent, HookResult, parse_event
from receiptgate.hooks.gate_handlers import GateHooks, gate_dispatcher

__all__ = [
    "EVENTS",
    "DispatchOutcome",
    "GateHooks",
    "HandlerAnswer",
    "HandlerError",
    "HookDispatcher",
    "HookEvent",
    "HookResult",
    "gate_dispatcher",
    "parse_event",
]
