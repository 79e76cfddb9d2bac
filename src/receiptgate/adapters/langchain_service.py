"""LangChain / LangGraph adapter, service mode: the run's events go to ``receiptgate serve``.

Where :mod:`receiptgate.adapters.langchain` validates in-process, this module sends the
agent loop to a running service (:class:`~receiptgate.client.ServiceClient`), so the
provenance policies run there, every check is audited and the dashboard shows each turn::

    client = ServiceClient()                               # RECEIPTGATE_URL / _API_KEY
    handler = ServiceCallbackHandler(client, session_id="s-1")
    gated = ServiceGatedRunnable(agent, handler)          # agent: any Runnable
    try:
        reply = gated.invoke(inputs)                      # the text that may be delivered
    except ToolCallBlocked: ...                           # a tool call the service blocked
    except ServiceBlockedOutput as blocked: ...           # the final answer was blocked

- :class:`ServiceCallbackHandler` forwards each root run (a turn, ``runId`` = its run id)
  as hook events: the first chat-model start is ``context_assembled``; every chat-model
  start is ``loop_iteration_start`` + ``before_llm_call`` (the previous iteration's
  ``loop_iteration_end`` first); every chat-model end is ``after_llm_call``; every tool
  start is ``before_tool_call`` (a block raises :class:`ToolCallBlocked` in the callback:
  the tool does not run); every tool end uploads the tool receipt to
  ``/sessions/{session_id}/receipts``; the root run's end is ``agent_end``.
- :class:`ServiceGatedRunnable` runs a runnable with the handler attached and sends the
  final answer as ``message_sending``: a block raises :class:`ServiceBlockedOutput` (or
  returns the service's replacement with ``on_block="replace"``).

A :class:`~receiptgate.client.ServiceError` (service down, a timeout, a 4xx/5xx) is never
a silent pass: ``fail_mode="fail_closed"`` (default) stops the run or the answer
(:class:`ServiceUnavailable`), ``"fail_open"`` lets it pass with a logged warning and a
:class:`ServiceFailure` in ``handler.errors``.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote
from uuid import UUID, uuid4

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.runnables import Runnable, RunnableConfig
from langchain_core.runnables.config import ensure_config

from receiptgate.adapters.langchain import (
    OnBlock,
    ReceiptsCallbackHandler,
    final_text,
    message_text,
)
from receiptgate.client import ServiceClient, ServiceError
from receiptgate.evidence.receipts import Receipt, TrustLevel

__all__ = [
    "FailMode",
    "ServiceBlockedOutput",
    "ServiceCallbackHandler",
    "ServiceFailure",
    "ServiceGateError",
    "ServiceGatedRunnable",
    "ServiceUnavailable",
    "ToolCallBlocked",
    "TurnBlocked",
    "to_wire_messages",
]

logger = logging.getLogger("receiptgate.adapters.langchain")

FailMode = Literal["fail_closed", "fail_open"]


# ---------------------------------------------------------------------- errors


class ServiceGateError(Exception):
    """Base of everything service mode raises to stop a run or an answer."""


class ToolCallBlocked(ServiceGateError):
    """The service blocked a tool call (``before_tool_call``); the tool did not run.

    Raised from ``on_tool_start``, so it surfaces where the agent loop invokes the tool:
    a loop that turns tool exceptions into error ``ToolMessage``s lets the model see
    ``str(error)`` and go on; otherwise the run stops.
    """

    def __init__(self, tool: str, reason: str, *, tool_call_id: str | None = None) -> None:
        super().__init__(f"receiptgate blocked the {tool} call: {reason}")
        self.tool = tool
        self.reason = reason
        self.tool_call_id = tool_call_id


class TurnBlocked(ServiceGateError):
    """The service blocked the turn (``loop_iteration_start``, ``before_llm_call`` or
    ``after_llm_call`` answered ``block``: a runaway loop, a ``block_turn`` rule)."""

    def __init__(self, event: str, reason: str) -> None:
        super().__init__(f"receiptgate blocked the turn at {event}: {reason}")
        self.event = event
        self.reason = reason


class ServiceUnavailable(ServiceGateError):
    """``fail_closed``: the service could not answer, so the run or answer is stopped."""

    def __init__(self, event: str, error: ServiceError) -> None:
        super().__init__(f"receiptgate service unavailable at {event} (fail_closed): {error}")
        self.event = event
        self.error = error


class ServiceBlockedOutput(ServiceGateError):
    """The service blocked the final answer (``message_sending``).

    Attributes:
        text: the answer that was checked.
        answer: the service's whole hook answer (``cancel``, ``content``, ``validations``…).
        report: the first validation report (``verdict``, ``sentences``…), if any.
        delivered: what the service would deliver instead (``content``), if anything.
        record_id: the audit record of the check, if the service returned one.
    """

    def __init__(self, text: str, answer: Mapping[str, Any]) -> None:
        self.text = text
        self.answer = dict(answer)
        validations = answer.get("validations") or []
        self.report: dict[str, Any] | None = (
            validations[0] if validations and isinstance(validations[0], dict) else None
        )
        content = answer.get("content")
        self.delivered: str | None = content if isinstance(content, str) else None
        reasons = _reasons(self.report)
        record = (self.report or {}).get("id") or (self.report or {}).get("record_id")
        self.record_id: str | None = str(record) if record else None
        super().__init__(
            "receiptgate blocked the answer: "
            + ("; ".join(reasons) or str(answer.get("blockReason") or "cancelled"))
        )


def _reasons(report: Mapping[str, Any] | None) -> list[str]:
    if not report:
        return []
    out: list[str] = []
    for s in report.get("sentences") or []:
        if isinstance(s, dict) and s.get("action") == "block":
            out.extend(str(r) for r in s.get("reasons") or [])
    if not out and report.get("reason"):
        out.append(str(report["reason"]))
    return out


@dataclass(frozen=True)
class ServiceFailure:
    """A :class:`ServiceError` met by service mode, and what the fail mode did with it.

    ``applied`` is ``"blocked"`` (``fail_closed``) or ``"passed"`` (``fail_open``), or
    ``"recorded"`` on an error path (the run was failing already)."""

    event: str
    message: str
    status: int | None
    applied: Literal["blocked", "passed", "recorded"]


# ---------------------------------------------------------------------- messages


def _tool_call_wire(call: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"name": str(call.get("name") or "tool")}
    if call.get("id"):
        out["id"] = str(call["id"])
    args = call.get("args")
    out["arguments"] = dict(args) if isinstance(args, Mapping) else {}
    return out


def to_wire_messages(messages: Sequence[BaseMessage]) -> tuple[str, list[dict[str, Any]]]:
    """LangChain messages as the hook events' transcript: ``(system prompt, messages)``.

    ``SystemMessage`` texts are joined into the system prompt; ``HumanMessage`` is
    ``user``, ``AIMessage`` ``assistant`` (with ``toolCalls``), ``ToolMessage``
    ``toolResult`` with ``toolName`` (the message's name, else the name of the call it
    answers) and ``toolCallId``; other messages keep their role or type.
    """
    system: list[str] = []
    out: list[dict[str, Any]] = []
    call_names: dict[str, str] = {}
    for m in messages:
        text = message_text(m)
        if isinstance(m, SystemMessage):
            system.append(text)
        elif isinstance(m, HumanMessage):
            out.append({"role": "user", "content": text})
        elif isinstance(m, AIMessage):
            entry: dict[str, Any] = {"role": "assistant", "content": text}
            if m.tool_calls:
                entry["toolCalls"] = [_tool_call_wire(c) for c in m.tool_calls]
                for c in m.tool_calls:
                    if c.get("id"):
                        call_names[str(c["id"])] = c["name"]
            out.append(entry)
        elif isinstance(m, ToolMessage):
            entry = {
                "role": "toolResult",
                "toolName": m.name or call_names.get(m.tool_call_id) or "unknown_tool",
                "toolCallId": m.tool_call_id,
                "content": text,
            }
            if m.status == "error":
                entry["isError"] = True
            out.append(entry)
        elif isinstance(m, ChatMessage):
            out.append({"role": m.role, "content": text})
        else:
            out.append({"role": m.type, "content": text})
    return "\n\n".join(s for s in system if s), out


def _tool_names(params: Any) -> list[str] | None:
    """The names of the tools bound to the model (``invocation_params["tools"]``)."""
    tools = params.get("tools") if isinstance(params, Mapping) else None
    if not isinstance(tools, Sequence) or isinstance(tools, str | bytes):
        return None
    names: list[str] = []
    for t in tools:
        name: Any = None
        if isinstance(t, str):
            name = t
        elif isinstance(t, Mapping):
            fn = t.get("function")
            name = t.get("name") or (fn.get("name") if isinstance(fn, Mapping) else None)
        else:
            name = getattr(t, "name", None)
        if isinstance(name, str) and name:
            names.append(name)
    return names or None


def _model_name(params: Any) -> str | None:
    if isinstance(params, Mapping):
        for key in ("model", "model_name", "model_id"):
            if isinstance(params.get(key), str):
                return str(params[key])
    return None


# ---------------------------------------------------------------------- the handler


@dataclass
class _Turn:
    run_id: str
    started: float
    iteration: int = -1
    context_sent: bool = False
    calls_in_iteration: int = 0
    transcript: list[dict[str, Any]] = field(default_factory=list)
    removed: set[str] = field(default_factory=set)
    dropped_calls: set[str] = field(default_factory=set)


class ServiceCallbackHandler(ReceiptsCallbackHandler):
    """Forwards a LangChain run's events to ``receiptgate serve`` as hook events.

    One handler per agent session; attach it to every run (``config={"callbacks":
    [handler]}``, or let :class:`ServiceGatedRunnable` do it). Each root run is a turn
    whose ``runId`` (sent on every event) is the run id, so turns never merge. It is also a
    :class:`ReceiptsCallbackHandler`: ``receipts`` / ``index`` keep the session's receipts
    locally, and each one (tool runs, human messages, ``add(...)``) is uploaded to the
    service's session.

    ``raise_error`` is on: a block raised in ``on_tool_start`` stops the tool before it
    runs (LangChain calls ``on_tool_start`` before the tool, outside its error handling).

    Args:
        client: the service.
        session_id: the agent session (``sessionKey``; the receipts' session).
        agent_id: sent as ``agentId`` (the service's per-agent overrides).
        fail_mode: what a :class:`ServiceError` does: ``"fail_closed"`` raises
            :class:`ServiceUnavailable` (the run stops), ``"fail_open"`` logs a warning and
            goes on; both record a :class:`ServiceFailure` in ``errors``.
        trust: the trust level given to tool receipts.
        upload_receipts: upload each receipt to the session (default ``True``).
    """

    raise_error = True
    run_inline = False  # in async runs, LangChain calls it in a worker thread

    def __init__(
        self,
        client: ServiceClient,
        *,
        session_id: str,
        agent_id: str | None = None,
        fail_mode: FailMode = "fail_closed",
        trust: TrustLevel | None = None,
        upload_receipts: bool = True,
    ) -> None:
        if fail_mode not in ("fail_closed", "fail_open"):
            raise ValueError(f'fail_mode must be "fail_closed" or "fail_open", got {fail_mode!r}')
        if not session_id:
            raise ValueError("session_id must not be empty")
        super().__init__(trust=trust)
        self.client = client
        self.session_id = session_id
        self.agent_id = agent_id
        self.fail_mode: FailMode = fail_mode
        self.upload_receipts = upload_receipts
        #: Every service failure met, with what the fail mode did.
        self.errors: list[ServiceFailure] = []
        #: Tool calls that were stopped: ``{"tool", "reason", "tool_call_id", "run_id"}``.
        self.blocked_calls: list[dict[str, Any]] = []
        #: Tools the service removed from a turn's LLM call, by turn (``runId``).
        self.removed_tools: dict[str, list[str]] = {}
        #: The ``runId`` of the last turn that ended.
        self.last_run_id: str | None = None
        self._turns: dict[UUID, _Turn] = {}
        self._root_of: dict[UUID, UUID] = {}
        self._state = threading.RLock()

    # ------------------------------------------------------------------ plumbing

    def base_payload(self, run_id: str | None) -> dict[str, Any]:
        """The fields every event carries: ``sessionKey``, ``agentId``, ``runId``."""
        out: dict[str, Any] = {"sessionKey": self.session_id}
        if self.agent_id is not None:
            out["agentId"] = self.agent_id
        if run_id is not None:
            out["runId"] = run_id
        return out

    def failed(self, event: str, error: ServiceError, *, on_error_path: bool = False) -> None:
        """Applies the fail mode to ``error``: records it; raises when failing closed."""
        closed = self.fail_mode == "fail_closed"
        applied: Literal["blocked", "passed", "recorded"] = (
            "recorded" if on_error_path else "blocked" if closed else "passed"
        )
        self.errors.append(ServiceFailure(event, str(error), error.status, applied))
        logger.warning("receiptgate service mode: %s failed (%s): %s", event, applied, error)
        if closed and not on_error_path:
            raise ServiceUnavailable(event, error) from error

    def _send(
        self, event: str, turn: _Turn, payload: Mapping[str, Any], *, on_error_path: bool = False
    ) -> dict[str, Any]:
        body = {**self.base_payload(turn.run_id), **payload}
        try:
            return self.client.hook(event, body)
        except ServiceError as e:
            self.failed(event, e, on_error_path=on_error_path)
            return {}

    def _gate(self, event: str, turn: _Turn, payload: Mapping[str, Any]) -> dict[str, Any]:
        answer = self._send(event, turn, payload)
        if answer.get("block") or answer.get("cancel"):
            raise TurnBlocked(event, str(answer.get("blockReason") or "blocked"))
        return answer

    def _enter(self, run_id: UUID, parent_run_id: UUID | None) -> _Turn:
        """The turn of a starting run: its parent's, or a new one (a root run)."""
        with self._state:
            root = self._root_of.get(parent_run_id) if parent_run_id is not None else None
            if root is None or root not in self._turns:
                root = run_id
                self._turns[root] = _Turn(str(run_id), time.monotonic())
            self._root_of[run_id] = root
            return self._turns[root]

    def _turn_of(self, run_id: UUID) -> _Turn | None:
        with self._state:
            root = self._root_of.get(run_id)
            return self._turns.get(root) if root is not None else None

    def _exit(self, run_id: UUID) -> _Turn | None:
        """Forgets a finished run; returns its turn when it was the root run."""
        with self._state:
            root = self._root_of.pop(run_id, None)
            if root is None or root != run_id:
                return None
            return self._turns.pop(root, None)

    def has_turn(self, run_id: str) -> bool:
        """Whether a turn with this ``runId`` is open, or was the last one to end."""
        with self._state:
            return run_id == self.last_run_id or any(
                t.run_id == run_id for t in self._turns.values()
            )

    # ------------------------------------------------------------------ receipts

    def add(self, receipt: Receipt) -> Receipt:
        """Adds a receipt to the local ledger and uploads it to the session."""
        receipt = super().add(receipt)
        if self.upload_receipts:
            body = {"receipts": [receipt.model_dump(mode="json", exclude_none=True)]}
            path = f"/sessions/{quote(self.session_id, safe='')}/receipts"
            try:
                self.client.request("POST", path, body)
            except ServiceError as e:
                self.failed("receipts", e)
        return receipt

    # ------------------------------------------------------------------ chains

    def on_chain_start(
        self,
        serialized: dict[str, Any] | None,
        inputs: Any,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        self._enter(run_id, parent_run_id)

    def on_chain_end(
        self, outputs: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        turn = self._exit(run_id)
        if turn is not None:
            self._end_turn(turn, error=None)

    def on_chain_error(
        self,
        error: BaseException,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        turn = self._exit(run_id)
        if turn is not None:
            self._end_turn(turn, error=error)

    def _end_turn(self, turn: _Turn, *, error: BaseException | None) -> None:
        with self._state:
            self.last_run_id = turn.run_id
        if not turn.context_sent:  # no model call: nothing reached the service
            return
        failing = error is not None
        self._send(
            "loop_iteration_end",
            turn,
            {
                "iteration": turn.iteration,
                "toolCallsMade": turn.calls_in_iteration,
                "willContinue": False,
            },
            on_error_path=failing,
        )
        payload: dict[str, Any] = {
            "messages": turn.transcript,
            "success": not failing,
            "durationMs": round((time.monotonic() - turn.started) * 1000.0, 3),
        }
        if error is not None:
            payload["error"] = f"{type(error).__name__}: {error}"
        self._send("agent_end", turn, payload, on_error_path=failing)

    # ------------------------------------------------------------------ models

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        turn = self._enter(run_id, parent_run_id)
        # human messages -> user receipts (uploaded), as in local mode
        super().on_chat_model_start(
            serialized, messages, run_id=run_id, parent_run_id=parent_run_id, **kwargs
        )
        system, wire = to_wire_messages(messages[0] if messages else [])
        params = kwargs.get("invocation_params")
        tools = _tool_names(params)
        model = _model_name(params)
        if not turn.context_sent:
            self._send("context_assembled", turn, {"systemPrompt": system, "messages": wire})
            turn.context_sent = True
        if turn.iteration >= 0:
            self._send(
                "loop_iteration_end",
                turn,
                {
                    "iteration": turn.iteration,
                    "toolCallsMade": turn.calls_in_iteration,
                    "willContinue": True,
                },
            )
        turn.iteration += 1
        turn.calls_in_iteration = 0
        turn.transcript = wire
        self._gate(
            "loop_iteration_start",
            turn,
            {"iteration": turn.iteration, "messageCount": len(wire)},
        )
        payload: dict[str, Any] = {"iteration": turn.iteration, "messages": wire}
        if system:
            payload["systemPrompt"] = system
        if model:
            payload["model"] = model
        if tools is not None:
            payload["tools"] = tools
        answer = self._gate("before_llm_call", turn, payload)
        kept = answer.get("tools")
        if tools is not None and isinstance(kept, list):
            names = {t if isinstance(t, str) else str(t.get("name")) for t in kept}
            removed = [t for t in tools if t not in names]
            if removed:
                with self._state:
                    turn.removed.update(removed)
                    listed = self.removed_tools.setdefault(turn.run_id, [])
                    listed.extend(t for t in removed if t not in listed)

    def on_llm_end(
        self,
        response: LLMResult,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        turn = self._turn_of(run_id)
        try:
            if turn is None or turn.iteration < 0:
                return  # not a chat model run of a turn (a completion model)
            gens = response.generations[0] if response.generations else []
            message = gens[0].message if gens and isinstance(gens[0], ChatGeneration) else None
            if message is None:
                return
            calls = message.tool_calls if isinstance(message, AIMessage) else []
            text = message_text(message)
            assistant: dict[str, Any] = {"role": "assistant", "content": text}
            payload: dict[str, Any] = {"iteration": turn.iteration, "response": assistant}
            if calls:
                payload["toolCalls"] = [_tool_call_wire(c) for c in calls]
                assistant["toolCalls"] = payload["toolCalls"]
            turn.transcript = [*turn.transcript, assistant]
            answer = self._gate("after_llm_call", turn, payload)
            kept = answer.get("toolCalls")
            if calls and isinstance(kept, list):
                kept_ids = {c.get("id") for c in kept if isinstance(c, dict)}
                with self._state:
                    turn.dropped_calls.update(
                        str(c["id"]) for c in calls if c.get("id") and c["id"] not in kept_ids
                    )
        finally:
            ended = self._exit(run_id)
            if ended is not None:  # the chat model was the root run
                self._end_turn(ended, error=None)

    def on_llm_error(
        self,
        error: BaseException,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        ended = self._exit(run_id)
        if ended is not None:
            self._end_turn(ended, error=error)

    # ------------------------------------------------------------------ tools

    def on_tool_start(
        self,
        serialized: dict[str, Any],
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        tags: list[str] | None = None,
        metadata: dict[str, Any] | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        turn = self._enter(run_id, parent_run_id)
        super().on_tool_start(
            serialized,
            input_str,
            run_id=run_id,
            parent_run_id=parent_run_id,
            inputs=inputs,
            **kwargs,
        )
        with self._lock:
            pending = self._pending[run_id]
        name: str = pending["tool"]
        call_id = pending["call_id"]
        turn.calls_in_iteration += 1
        payload: dict[str, Any] = {"toolName": name, "params": pending["args"]}
        if call_id:
            payload["toolCallId"] = str(call_id)
        try:
            answer = self._send("before_tool_call", turn, payload)
        except ServiceGateError:
            self._forget_tool(run_id)
            raise
        reason: str | None = None
        if answer.get("block"):
            reason = str(answer.get("blockReason") or "blocked")
        elif name in turn.removed:
            reason = f"receiptgate removed {name} from this turn's tools"
        elif call_id and str(call_id) in turn.dropped_calls:
            reason = f"receiptgate dropped this {name} call"
        if reason is not None:
            self._forget_tool(run_id)
            with self._state:
                self.blocked_calls.append(
                    {"tool": name, "reason": reason, "tool_call_id": call_id, "run_id": turn.run_id}
                )
            raise ToolCallBlocked(name, reason, tool_call_id=str(call_id) if call_id else None)

    def _forget_tool(self, run_id: UUID) -> None:
        """A tool stopped in ``on_tool_start`` gets no end callback: drop its state."""
        with self._lock:
            self._pending.pop(run_id, None)
        with self._state:
            self._root_of.pop(run_id, None)

    def on_tool_end(
        self, output: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        try:
            super().on_tool_end(output, run_id=run_id, parent_run_id=parent_run_id, **kwargs)
        finally:
            ended = self._exit(run_id)
            if ended is not None:
                self._end_turn(ended, error=None)

    def on_tool_error(
        self,
        error: BaseException,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        try:
            super().on_tool_error(error, run_id=run_id, parent_run_id=parent_run_id, **kwargs)
        except ServiceUnavailable:
            pass  # recorded in errors; the tool's own error is the one to surface
        finally:
            ended = self._exit(run_id)
            if ended is not None:
                self._end_turn(ended, error=error)


# ---------------------------------------------------------------------- the answer gate


class ServiceGatedRunnable(Runnable[Any, str]):
    """Runs a runnable with a :class:`ServiceCallbackHandler` attached, then sends its final
    answer to the service as ``message_sending`` (same session and ``runId`` as the turn,
    so the audit record links to the turn's provenance graph).

    Args:
        runnable: the agent, graph or chain; its output holds the final answer (see
            :func:`~receiptgate.adapters.langchain.final_text`).
        handler: the session's handler (its client, session, agent id).
        on_block: ``"raise"`` (default) raises :class:`ServiceBlockedOutput` when the
            service cancels the answer or a report's verdict is ``block``; ``"replace"``
            returns the service's replacement (the answer without its blocked sentences, or
            the block notice).
        fail_mode: for the ``message_sending`` check; default: the handler's. With
            ``fail_closed`` a :class:`ServiceError` raises :class:`ServiceUnavailable`
            (``on_block="replace"``: returns ``unavailable_notice``); with ``fail_open``
            the answer passes, with a warning and a :class:`ServiceFailure` in ``errors``.
        channel: sent as ``channelId``.
        unavailable_notice: what ``"replace"`` delivers when the check could not run.

    ``invoke``/``ainvoke`` return the text that may be delivered; ``last_answer`` holds the
    service's last answer, ``errors`` the handler's service failures.
    """

    def __init__(
        self,
        runnable: Runnable[Any, Any],
        handler: ServiceCallbackHandler,
        *,
        on_block: OnBlock = "raise",
        fail_mode: FailMode | None = None,
        channel: str | None = None,
        unavailable_notice: str = "[receiptgate: the answer was withheld: it could not be checked]",
    ) -> None:
        if on_block not in ("raise", "replace"):
            raise ValueError(f'on_block must be "raise" or "replace", got {on_block!r}')
        if fail_mode not in (None, "fail_closed", "fail_open"):
            raise ValueError(f'fail_mode must be "fail_closed" or "fail_open", got {fail_mode!r}')
        self.runnable = runnable
        self.handler = handler
        self.on_block: OnBlock = on_block
        self.fail_mode: FailMode = fail_mode or handler.fail_mode
        self.channel = channel
        self.unavailable_notice = unavailable_notice
        self.last_answer: dict[str, Any] | None = None
        self.last_run_id: str | None = None

    @property
    def errors(self) -> list[ServiceFailure]:
        return self.handler.errors

    def _config(self, config: RunnableConfig | None) -> tuple[RunnableConfig, str]:
        cfg = ensure_config(config)
        callbacks = cfg.get("callbacks")
        if callbacks is None:
            cfg["callbacks"] = [self.handler]
        elif isinstance(callbacks, list):
            if self.handler not in callbacks:
                cfg["callbacks"] = [*callbacks, self.handler]
        else:  # a callback manager
            manager = callbacks.copy()
            manager.add_handler(self.handler, inherit=True)
            cfg["callbacks"] = manager
        run_id = cfg.get("run_id")
        if run_id is None:
            run_id = uuid4()
            cfg["run_id"] = run_id  # the root run's id: the turn's runId
        return cfg, str(run_id)

    def _turn_id(self, run_id: str) -> str | None:
        # The root run is normally the wrapped runnable's (run_id from the config); a
        # runnable that does not start a run of its own leaves the handler's last turn.
        return run_id if self.handler.has_turn(run_id) else self.handler.last_run_id

    def _payload(self, text: str, run_id: str | None) -> dict[str, Any]:
        payload = {**self.handler.base_payload(run_id), "content": text}
        if self.channel is not None:
            payload["channelId"] = self.channel
        return payload

    def _decide(self, text: str, answer: dict[str, Any]) -> str:
        self.last_answer = answer
        validations = answer.get("validations") or []
        blocked = bool(answer.get("cancel")) or any(
            isinstance(v, dict) and v.get("verdict") == "block" for v in validations
        )
        content = answer.get("content")
        if blocked:
            if self.on_block == "raise":
                raise ServiceBlockedOutput(text, answer)
            return content if isinstance(content, str) else self.unavailable_notice
        return content if isinstance(content, str) else text

    def _unavailable(self, text: str, error: ServiceError) -> str:
        closed = self.fail_mode == "fail_closed"
        self.handler.errors.append(
            ServiceFailure(
                "message_sending", str(error), error.status, "blocked" if closed else "passed"
            )
        )
        logger.warning(
            "receiptgate service mode: message_sending failed (%s): %s",
            "blocked" if closed else "passed",
            error,
        )
        if not closed:
            return text
        if self.on_block == "raise":
            raise ServiceUnavailable("message_sending", error) from error
        return self.unavailable_notice

    def check(self, text: str, *, run_id: str | None = None) -> str:
        """Sends ``text`` as ``message_sending`` for the turn ``run_id`` (default: the
        handler's last turn) and returns what may be delivered (or raises)."""
        run_id = run_id or self.handler.last_run_id
        try:
            answer = self.handler.client.hook("message_sending", self._payload(text, run_id))
        except ServiceError as e:
            return self._unavailable(text, e)
        return self._decide(text, answer)

    async def acheck(self, text: str, *, run_id: str | None = None) -> str:
        """:meth:`check` without blocking the event loop."""
        run_id = run_id or self.handler.last_run_id
        try:
            answer = await self.handler.client.ahook("message_sending", self._payload(text, run_id))
        except ServiceError as e:
            return self._unavailable(text, e)
        return self._decide(text, answer)

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> str:
        cfg, run_id = self._config(config)
        output = self.runnable.invoke(input, cfg, **kwargs)
        self.last_run_id = self._turn_id(run_id)
        return self.check(final_text(output), run_id=self.last_run_id)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> str:
        cfg, run_id = self._config(config)
        output = await self.runnable.ainvoke(input, cfg, **kwargs)
        self.last_run_id = self._turn_id(run_id)
        return await self.acheck(final_text(output), run_id=self.last_run_id)
