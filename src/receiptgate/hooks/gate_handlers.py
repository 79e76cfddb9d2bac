"""The built-in receiptgate handlers: a :class:`~receiptgate.engine.Gate` behind the hooks.

=================================  ==================================================
``message_sending``                validates ``content``; cancels when the gate
                                   delivers nothing or only the block notice (the
                                   notice rides along as ``content``), else rewrites
                                   to ``delivered_text`` when it differs (§8.4)
``before_message_write``           assistant messages only; deterministic checks only
                                   (no judge, no network: the hook is synchronous,
                                   RFC-003 §8.5); blocks on a ``block`` verdict
``llm_output``                     validates every ``assistantTexts`` entry for the
                                   audit; never blocks or modifies (RFC-003 §8.6)
``before_tool_call``               reads the call with ``checkers.external``; a
                                   ``message`` to an external channel or an
                                   ``exec`` of ``bird tweet`` is an external
                                   communication (the judge checks it when
                                   ``llmValidator`` is enabled); blocks on ``block``
``before_external_communication``  always external; blocks on ``block``, else
                                   rewrites to ``delivered_text`` when it differs
=================================  ==================================================

Every handler answers a :class:`~receiptgate.hooks.dispatcher.HandlerAnswer`
carrying its ``ValidationResult`` s, so the dispatch outcome can be audited.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from receiptgate._exceptions import InputError
from receiptgate.checkers.external import validate_event
from receiptgate.engine import Gate
from receiptgate.hooks.dispatcher import HandlerAnswer, HookDispatcher
from receiptgate.hooks.events import (
    BeforeExternalCommunication,
    BeforeMessageWrite,
    BeforeToolCall,
    HookEvent,
    HookResult,
    LlmOutput,
    MessageSending,
)
from receiptgate.results import ValidationResult

#: Extra ``Gate.validate`` keyword arguments for an event (``trust``, ``receipts``, ``now``).
ContextFn = Callable[[HookEvent], Mapping[str, Any]]

#: Priorities of RFC-003 §8.3 (higher runs first).
DEFAULT_PRIORITY: dict[str, int] = {
    "message_sending": 1000,
    "before_message_write": 1000,
    "llm_output": 900,
    "before_tool_call": 1000,
    "before_external_communication": 1000,
}


def _reason(result: ValidationResult) -> str:
    return f"receiptgate: {result.reason}" if result.reason else "receiptgate: blocked"


class GateHooks:
    """The gate's handlers for the output-validation events.

    Args:
        gate: the configured gate.
        context: called with each event; returns extra ``Gate.validate`` keyword
            arguments (``trust``, ``receipts``, ``now``, ...). ``agent_id``,
            ``channel`` and ``hook`` come from the event unless given here.
    """

    def __init__(self, gate: Gate, *, context: ContextFn | None = None) -> None:
        self.gate = gate
        self.context = context

    # -- helpers ---------------------------------------------------------------------

    def _kwargs(self, event: HookEvent, **defaults: Any) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"agent_id": event.agent_id, "hook": event.name, **defaults}
        if self.context is not None:
            kwargs.update(self.context(event))
        return kwargs

    def deterministic_gate(self) -> Gate:
        """The gate without its slower checkers (LLM judge, semantic models).

        A shallow copy taken per call, so run-time fact updates are seen; the
        deterministic path needs no network, model or database.
        """
        if not self.gate.checkers:
            return self.gate
        det = copy.copy(self.gate)
        det.checkers = []
        return det

    # -- handlers --------------------------------------------------------------------

    def message_sending(self, event: HookEvent) -> HandlerAnswer:
        """Cancels or rewrites an outbound message per the gate's delivered text."""
        assert isinstance(event, MessageSending)
        result = self.gate.validate(event.content, **self._kwargs(event, channel=event.channel_id))
        answer = HandlerAnswer(validations=[result])
        delivered = result.delivered_text
        if result.skipped is not None:
            return answer
        if not delivered:
            answer.result = HookResult(cancel=True, block_reason=_reason(result))
        elif delivered == self.gate.rewrite_settings.notice and delivered != event.content:
            # The whole output is blocked: cancel (RFC-003 §7.4); the notice goes along
            # as ``content`` for a runtime that sends a replacement message.
            answer.result = HookResult(cancel=True, block_reason=_reason(result), content=delivered)
        elif delivered != event.content:
            answer.result = HookResult(content=delivered)
        return answer

    def before_message_write(self, event: HookEvent) -> HandlerAnswer | None:
        """Blocks persisting a contradicted assistant message (deterministic checks only)."""
        assert isinstance(event, BeforeMessageWrite)
        if event.message.role != "assistant":
            return None
        text = event.message.text
        if not text:
            return None
        result = self.deterministic_gate().validate(text, **self._kwargs(event))
        answer = HandlerAnswer(validations=[result])
        if result.verdict == "block":
            answer.result = HookResult(block=True, block_reason=_reason(result))
        return answer

    def llm_output(self, event: HookEvent) -> HandlerAnswer:
        """Validates every assistant text for the audit; never blocks or modifies."""
        assert isinstance(event, LlmOutput)
        kwargs = self._kwargs(event)
        return HandlerAnswer(
            validations=[self.gate.validate(t, **kwargs) for t in event.assistant_texts if t]
        )

    def _tool_validation(self, event: HookEvent, data: dict[str, Any]) -> ValidationResult | None:
        return validate_event(self.gate, data, **self._kwargs(event))

    def before_tool_call(self, event: HookEvent) -> HandlerAnswer | None:
        """Validates what a tool call sends; blocks an external message the gate blocks."""
        assert isinstance(event, BeforeToolCall)
        data = {**event.to_json(), "hook": event.name}
        result = self._tool_validation(event, data)
        if result is None:
            return None
        answer = HandlerAnswer(validations=[result])
        if result.verdict == "block":
            answer.result = HookResult(block=True, block_reason=_reason(result))
        return answer

    def before_external_communication(self, event: HookEvent) -> HandlerAnswer | None:
        """Validates an external message (judge included); blocks or rewrites it."""
        assert isinstance(event, BeforeExternalCommunication)
        data = {**event.to_json(), "hook": event.name}
        result = self._tool_validation(event, data)
        if result is None:
            return None
        answer = HandlerAnswer(validations=[result])
        delivered = result.delivered_text
        if result.verdict == "block" or (not delivered and result.skipped is None):
            answer.result = HookResult(block=True, block_reason=_reason(result))
        elif delivered and result.skipped is None and delivered != event.text():
            answer.result = HookResult(content=delivered)
        return answer

    # -- wiring ----------------------------------------------------------------------

    def enabled_events(self) -> list[str]:
        """The events the gate's config turns on (``hooks``); tool events always."""
        hooks = self.gate.config.hooks
        on = {
            "message_sending": hooks.message_sending,
            "before_message_write": hooks.before_message_write,
            "llm_output": hooks.llm_output,
            "before_tool_call": True,
            "before_external_communication": True,
        }
        return [e for e, enabled in on.items() if enabled]

    def install(
        self,
        dispatcher: HookDispatcher,
        *,
        events: Iterable[str] | None = None,
        priority: int | None = None,
    ) -> list[str]:
        """Registers the handlers on ``dispatcher``; returns the events registered.

        Args:
            events: which events (default: :meth:`enabled_events`).
            priority: one priority for all (default: :data:`DEFAULT_PRIORITY`).

        Raises:
            InputError: an event without a built-in gate handler.
        """
        handlers: dict[str, Callable[[HookEvent], HandlerAnswer | None]] = {
            "message_sending": self.message_sending,
            "before_message_write": self.before_message_write,
            "llm_output": self.llm_output,
            "before_tool_call": self.before_tool_call,
            "before_external_communication": self.before_external_communication,
        }
        chosen = list(self.enabled_events() if events is None else events)
        for name in chosen:
            if name not in handlers:
                known = ", ".join(handlers)
                raise InputError(f"no built-in gate handler for {name!r} (have: {known})")
        for name in chosen:
            dispatcher.register(
                name,
                handlers[name],
                priority=DEFAULT_PRIORITY[name] if priority is None else priority,
                name=f"receiptgate.{name}",
                fail_mode=self.gate.config.fail_mode,
            )
        return chosen


def gate_dispatcher(
    gate: Gate, *, events: Iterable[str] | None = None, context: ContextFn | None = None
) -> HookDispatcher:
    """A dispatcher with the gate's handlers installed and the gate's fail mode."""
    dispatcher = HookDispatcher(fail_mode=gate.config.fail_mode)
    GateHooks(gate, context=context).install(dispatcher, events=events)
    return dispatcher
