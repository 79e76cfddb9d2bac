"""A runtime-agnostic hook dispatcher (SPEC §7): handlers by event and priority.

``dispatch(event, payload)`` validates the JSON payload, runs the event's
handlers synchronously, highest ``priority`` first (ties: registration order),
and composes their answers into one :class:`~receiptgate.hooks.events.HookResult`:

* a ``block`` stays a block and a ``cancel`` stays a cancel: a later handler
  cannot undo them (every handler still runs, so audits see every event);
* ``tools`` only shrink: each answer is intersected (by name) with the list
  so far; ``toolCalls`` likewise (by id, else by name);
* ``content`` modifications chain: each handler sees the event with the
  previous handler's text;
* what an event cannot change is ignored and noted (``llm_output`` never blocks).

A handler that raises is never silent: the error is logged and recorded in
``DispatchOutcome.errors``. On a gate event (one that may block or cancel) under
``fail_closed`` it blocks (or cancels); otherwise the event passes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from receiptgate._exceptions import InputError
from receiptgate.hooks.events import (
    EVENTS,
    AfterLlmCall,
    BeforeLlmCall,
    HookEvent,
    HookResult,
    ToolCall,
    ToolDefinition,
    event_type,
    parse_event,
)

if TYPE_CHECKING:
    from receiptgate.results import ValidationResult

logger = logging.getLogger("receiptgate.hooks")

FailMode = Literal["fail_open", "fail_closed"]


@dataclass(slots=True)
class HandlerAnswer:
    """A handler's answer with the validations behind it (for auditing)."""

    result: HookResult | None = None
    validations: list[ValidationResult] = field(default_factory=list)


#: A handler gets the parsed event (with earlier handlers' modifications) and
#: answers a ``HookResult``, a ``HandlerAnswer`` or ``None`` (no change).
Handler = Callable[[HookEvent], HookResult | HandlerAnswer | None]


@dataclass(slots=True)
class HandlerError:
    """A handler that raised, and what the fail mode did about it."""

    handler: str
    error: str
    fail_mode: FailMode
    blocked: bool

    def to_dict(self) -> dict[str, Any]:
        return {
            "handler": self.handler,
            "error": self.error,
            "fail_mode": self.fail_mode,
            "blocked": self.blocked,
        }


@dataclass(slots=True)
class DispatchOutcome:
    """The composed result of one dispatch, with what callers need to audit it.

    Attributes:
        event: the event's name.
        result: the composed answer for the runtime.
        validations: every ``ValidationResult`` the handlers produced.
        errors: handlers that raised (never silent).
        notes: answers ignored by the composition rules, and why.
        handlers: the handlers that ran, in order.
        parsed: the event as parsed from the payload, before any handler changed it
            (``None`` only for an outcome built by hand).
    """

    event: str
    result: HookResult
    validations: list[ValidationResult] = field(default_factory=list)
    errors: list[HandlerError] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    handlers: list[str] = field(default_factory=list)
    parsed: HookEvent | None = None

    def answer(self) -> dict[str, Any]:
        """What ``POST /hooks/{event}`` answers: the result's fields (``cancel``, ``block``,
        ``blockReason``, ``content``, ``tools``, ``toolCalls``; those a handler set) at the
        top level, plus ``event``, ``validations``, ``errors``, ``notes`` and ``handlers``."""
        out = self.to_dict()
        answer: dict[str, Any] = dict(out["result"])
        answer.update(
            event=self.event,
            validations=out["validations"],
            errors=out["errors"],
            notes=out["notes"],
            handlers=out["handlers"],
        )
        return answer

    def to_dict(self) -> dict[str, Any]:
        """JSON shape: ``result`` in the seeds' camelCase, the rest snake_case."""
        return {
            "event": self.event,
            "result": self.result.to_json(),
            "validations": [v.to_dict() for v in self.validations],
            "errors": [e.to_dict() for e in self.errors],
            "notes": list(self.notes),
            "handlers": list(self.handlers),
        }


@dataclass(frozen=True, slots=True)
class _Registration:
    event: str
    handler: Handler
    priority: int
    order: int
    name: str
    fail_mode: FailMode | None


def _handler_name(handler: Handler) -> str:
    name = getattr(handler, "__qualname__", None) or getattr(handler, "__name__", None)
    return str(name) if name else type(handler).__name__


@dataclass(slots=True)
class _State:
    """The composition so far."""

    event: HookEvent
    cancel: bool = False
    block: bool = False
    reasons: list[str] = field(default_factory=list)
    content_changed: bool = False
    tools_changed: bool = False
    calls_changed: bool = False


class HookDispatcher:
    """Registers handlers per event and dispatches events to them.

    Args:
        fail_mode: what a raising handler does on a gate event (``fail_closed``
            blocks, ``fail_open`` passes); a registration may override it.
    """

    def __init__(self, *, fail_mode: FailMode = "fail_open") -> None:
        if fail_mode not in ("fail_open", "fail_closed"):
            raise InputError(f"fail_mode: expected fail_open or fail_closed, got {fail_mode!r}")
        self.fail_mode: FailMode = fail_mode
        self._handlers: dict[str, list[_Registration]] = {}
        self._count = 0

    # -- registration ----------------------------------------------------------------

    def register(
        self,
        event: str,
        handler: Handler,
        *,
        priority: int = 0,
        name: str | None = None,
        fail_mode: FailMode | None = None,
    ) -> None:
        """Adds ``handler`` for ``event``; higher ``priority`` runs first.

        Raises:
            InputError: unknown event, or a handler that is not callable.
        """
        event_type(event)
        if not callable(handler):
            raise InputError(f"handler for {event}: expected a callable")
        if fail_mode is not None and fail_mode not in ("fail_open", "fail_closed"):
            raise InputError(f"fail_mode: expected fail_open or fail_closed, got {fail_mode!r}")
        self._count += 1
        reg = _Registration(
            event, handler, priority, self._count, name or _handler_name(handler), fail_mode
        )
        regs = [*self._handlers.get(event, []), reg]
        regs.sort(key=lambda r: (-r.priority, r.order))
        self._handlers[event] = regs

    def unregister(self, event: str, name: str) -> int:
        """Removes ``event``'s handlers registered under ``name``; returns how many."""
        regs = self._handlers.get(event, [])
        kept = [r for r in regs if r.name != name]
        self._handlers[event] = kept
        return len(regs) - len(kept)

    def handlers(self, event: str) -> list[str]:
        """The names of ``event``'s handlers, in the order they run."""
        event_type(event)
        return [r.name for r in self._handlers.get(event, [])]

    @staticmethod
    def events() -> list[str]:
        """Every event the dispatcher accepts (SPEC §7)."""
        return list(EVENTS)

    # -- dispatch --------------------------------------------------------------------

    def dispatch(self, event_name: str, payload: Mapping[str, Any] | HookEvent) -> DispatchOutcome:
        """Runs ``event_name``'s handlers on ``payload`` and composes their answers.

        Raises:
            InputError: unknown event, or a bad payload (the message names the field).
        """
        data = dict(payload) if isinstance(payload, Mapping) else payload
        event = parse_event(event_name, data)
        regs = self._handlers.get(event_name, [])
        outcome = DispatchOutcome(event=event_name, result=HookResult(), parsed=event)
        if not regs:
            return outcome
        state = _State(event=event)
        for reg in regs:
            outcome.handlers.append(reg.name)
            try:
                answer = reg.handler(state.event)
            except Exception as e:
                self._on_error(reg, e, state, outcome)
                continue
            if isinstance(answer, HandlerAnswer):
                outcome.validations.extend(answer.validations)
                answer = answer.result
            if answer is None:
                continue
            if not isinstance(answer, HookResult):
                self._on_error(
                    reg,
                    TypeError(f"returned {type(answer).__name__}, expected HookResult or None"),
                    state,
                    outcome,
                )
                continue
            self._apply(reg, answer, state, outcome)
        outcome.result = self._result(state)
        return outcome

    def _on_error(
        self, reg: _Registration, error: Exception, state: _State, outcome: DispatchOutcome
    ) -> None:
        mode = reg.fail_mode or self.fail_mode
        cls = type(state.event)
        blocked = mode == "fail_closed" and cls.is_gate()
        message = f"{type(error).__name__}: {error}"
        logger.error(
            "hook %s: handler %s failed (%s): %s",
            *(reg.event, reg.name, mode, message),
            exc_info=error,
        )
        outcome.errors.append(HandlerError(reg.name, message, mode, blocked))
        if blocked:
            if "block" in cls.capabilities:
                state.block = True
            else:
                state.cancel = True
            state.reasons.append(f"handler {reg.name} failed; fail_closed ({message})")

    def _apply(
        self, reg: _Registration, answer: HookResult, state: _State, outcome: DispatchOutcome
    ) -> None:
        cls = type(state.event)
        can = cls.capabilities

        def ignored(what: str) -> None:
            outcome.notes.append(f"{reg.name}: {what} ignored ({reg.event} cannot change it)")

        stop = False
        if answer.block:
            if "block" in can:
                state.block = stop = True
            elif "cancel" in can:  # message_sending: a block is a cancel
                state.cancel = stop = True
            else:
                ignored("block")
        if answer.cancel:
            if "cancel" in can:
                state.cancel = stop = True
            elif "block" in can:
                state.block = stop = True
            else:
                ignored("cancel")
        if stop:
            state.reasons.append(answer.block_reason or f"{reg.name} stopped {reg.event}")
        if answer.content is not None:
            if "content" in can:
                if answer.content != state.event.text():
                    state.event = state.event.with_text(answer.content)
                    state.content_changed = True
            else:
                ignored("content")
        if answer.tools is not None:
            if "tools" in can and isinstance(state.event, BeforeLlmCall):
                state.event = self._shrink_tools(reg, state.event, answer.tools, outcome)
                state.tools_changed = True
            else:
                ignored("tools")
        if answer.tool_calls is not None:
            if "toolCalls" in can and isinstance(state.event, AfterLlmCall):
                state.event = self._shrink_calls(reg, state.event, answer.tool_calls, outcome)
                state.calls_changed = True
            else:
                ignored("toolCalls")

    @staticmethod
    def _shrink_tools(
        reg: _Registration,
        event: BeforeLlmCall,
        answer: list[ToolDefinition],
        outcome: DispatchOutcome,
    ) -> BeforeLlmCall:
        wanted = {t.name for t in answer}
        current = {t.name for t in event.tools}
        added = sorted(wanted - current)
        if added:
            outcome.notes.append(f"{reg.name}: tools can only be removed; not added: {added}")
        kept = [t for t in event.tools if t.name in wanted]
        return event.model_copy(update={"tools": kept})

    @staticmethod
    def _shrink_calls(
        reg: _Registration,
        event: AfterLlmCall,
        answer: list[ToolCall],
        outcome: DispatchOutcome,
    ) -> AfterLlmCall:
        wanted = {c.key for c in answer}
        current = {c.key for c in event.tool_calls}
        added = sorted(wanted - current)
        if added:
            outcome.notes.append(f"{reg.name}: tool calls can only be removed; not added: {added}")
        kept = [c for c in event.tool_calls if c.key in wanted]
        return event.model_copy(update={"tool_calls": kept})

    @staticmethod
    def _result(state: _State) -> HookResult:
        fields: dict[str, Any] = {}
        if state.cancel:
            fields["cancel"] = True
        if state.block:
            fields["block"] = True
        if state.reasons:
            fields["block_reason"] = "; ".join(dict.fromkeys(state.reasons))
        if state.content_changed:
            fields["content"] = state.event.text()
        if state.tools_changed and isinstance(state.event, BeforeLlmCall):
            fields["tools"] = list(state.event.tools)
        if state.calls_changed and isinstance(state.event, AfterLlmCall):
            fields["tool_calls"] = list(state.event.tool_calls)
        return HookResult(**fields)
