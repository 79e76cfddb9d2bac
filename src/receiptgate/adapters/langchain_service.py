"""LangChain / LangGraph adapter, service mode: the run's events go to ``receiptgate serve``.

Where :mod:`receiptgate.adapters.langchain` validates in-process, this module sends the
agent loop to a running service (:class:`~receiptgate.client.ServiceClient`), or to the same
hook handling in process (:class:`~receiptgate.hooks.local.LocalHooks`), so the provenance
policies run there, every check is audited and the dashboard shows each turn::

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
  the tool does not run); every tool end uploads the tool receipt to the session
  (``add_receipts``); the root run's end is ``agent_end``.
- :class:`ServiceGatedRunnable` runs a runnable with the handler attached and sends the
  final answer as ``message_sending``: a block raises :class:`ServiceBlockedOutput` (or
  returns the service's replacement with ``on_block="replace"``).

A failed call (a :class:`~receiptgate.client.ServiceError`: service down, a timeout, a
4xx/5xx; from ``LocalHooks`` an ``InputError`` or ``StoreError``) is never a silent pass:
``fail_mode="fail_closed"`` (default) stops the run or the answer (:class:`ServiceUnavailable`),
``"fail_open"`` lets it pass with a logged warning and a :class:`ServiceFailure` in
``handler.errors``.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from typing import Any
from uuid import UUID, uuid4

from langchain_core.messages import (
    AIMessage,
    BaseMessage,
)
from langchain_core.outputs import ChatGeneration, LLMResult
from langchain_core.runnables import Runnable, RunnableConfig

from receiptgate.adapters._service import (
    FailMode,
    ServiceFailure,
    ServiceSession,
    ServiceTurn,
    answer_verdict,
    check_fail_mode,
)
from receiptgate.adapters.langchain import (
    OnBlock,
    ReceiptsCallbackHandler,
    bound_tool_names,
    final_text,
    message_text,
    model_name,
    to_wire_messages,
    tool_call_wire,
    with_handler,
)
from receiptgate.client import HookTransport
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


# ---------------------------------------------------------------------- errors


class ServiceGateError(Exception):
    """Base of everything service mode raises to stop a run or an answer."""


class ToolCallBlocked(ServiceGateError):
    """The service blocked a tool call (``before_tool_call``); the tool did not run.

    Raised from ``on_tool_start``, so it surfaces where the agent loop invokes the tool:
    a loop that turns tool exceptions into error ``ToolMessage``s lets the model see
    ``str(error)`` and go on; otherwise the run stops. In LangGraph that loop is
    ``ToolNode(tools, handle_tool_errors=(ToolCallBlocked,))``; ``ToolNode``'s default
    re-raises it.
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
    """``fail_closed``: the transport could not answer (a
    :class:`~receiptgate.ReceiptgateError`), so the run or answer is stopped."""

    def __init__(self, event: str, error: Exception) -> None:
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


# ---------------------------------------------------------------------- the handler


class ServiceCallbackHandler(ServiceSession, ReceiptsCallbackHandler):
    """Forwards a LangChain run's events to ``receiptgate serve`` as hook events.

    One handler per agent session; attach it to every run (``config={"callbacks":
    [handler]}``, or let :class:`ServiceGatedRunnable` do it). Each root run is a turn
    whose ``runId`` (sent on every event, also as ``turnId``) is the run id, so turns never
    merge. It is also a :class:`ReceiptsCallbackHandler`: ``receipts`` / ``index`` keep the
    session's receipts locally, and each one (tool runs, human messages, ``add(...)``) is
    uploaded to the session.

    ``raise_error`` is on: a block raised in ``on_tool_start`` stops the tool before it
    runs (LangChain calls ``on_tool_start`` before the tool, outside its error handling).

    Args:
        client: the transport: a :class:`~receiptgate.client.ServiceClient` (a running
            service) or a :class:`~receiptgate.hooks.local.LocalHooks` (in process).
        session_id: the agent session (``sessionKey``; the receipts' session).
        agent_id: sent as ``agentId`` (the service's per-agent overrides).
        fail_mode: what a failed call (a :class:`~receiptgate.ReceiptgateError`) does:
            ``"fail_closed"`` raises :class:`ServiceUnavailable` (the run stops),
            ``"fail_open"`` logs a warning and goes on; both record a :class:`ServiceFailure`
            in ``errors``.
        trust: the trust level given to tool receipts.
        upload_receipts: upload each receipt to the session (default ``True``).

    Attributes (besides the ledger's): ``errors``, ``blocked_calls`` (``{"tool", "reason",
    "tool_call_id", "run_id"}``), ``removed_tools`` (by ``runId``), ``last_run_id`` (the last
    turn that ended).
    """

    raise_error = True
    run_inline = False  # in async runs, LangChain calls it in a worker thread

    def __init__(
        self,
        client: HookTransport,
        *,
        session_id: str,
        agent_id: str | None = None,
        fail_mode: FailMode = "fail_closed",
        trust: TrustLevel | None = None,
        upload_receipts: bool = True,
    ) -> None:
        ServiceSession.__init__(
            self, client, session_id=session_id, agent_id=agent_id, fail_mode=fail_mode,
            logger=logger,
        )  # fmt: skip
        ReceiptsCallbackHandler.__init__(self, trust=trust)
        self.upload_receipts = upload_receipts
        self.last_run_id: str | None = None
        self._turns: dict[UUID, ServiceTurn] = {}
        self._root_of: dict[UUID, UUID] = {}
        self._state = threading.RLock()

    # ------------------------------------------------------------------ plumbing

    def stop(self, event: str, error: Exception) -> Exception:
        """``fail_closed``: a failed call raises :class:`ServiceUnavailable` (not on an error
        path: there the run's own exception comes first)."""
        return ServiceUnavailable(event, error)

    def _gate(self, event: str, turn: ServiceTurn, fields: Mapping[str, Any]) -> dict[str, Any]:
        answer = self.send(turn, event, fields) or {}
        if answer.get("block") or answer.get("cancel"):
            raise TurnBlocked(event, str(answer.get("blockReason") or "blocked"))
        return answer

    def _enter(self, run_id: UUID, parent_run_id: UUID | None) -> ServiceTurn:
        """The turn of a starting run: its parent's, or a new one (a root run)."""
        with self._state:
            root = self._root_of.get(parent_run_id) if parent_run_id is not None else None
            if root is None or root not in self._turns:
                root = run_id
                self._turns[root] = ServiceTurn(str(run_id))
            self._root_of[run_id] = root
            return self._turns[root]

    def _turn_of(self, run_id: UUID) -> ServiceTurn | None:
        with self._state:
            root = self._root_of.get(run_id)
            return self._turns.get(root) if root is not None else None

    def _exit(self, run_id: UUID) -> ServiceTurn | None:
        """Forgets a finished run; returns its turn when it was the root run."""
        with self._state:
            root = self._root_of.pop(run_id, None)
            if root is None or root != run_id:
                return None
            return self._turns.pop(root, None)

    def _exit_and_end(self, run_id: UUID, error: BaseException | None) -> None:
        turn = self._exit(run_id)
        if turn is not None:  # the root run: the turn is over
            self._end_turn(turn, error=error)

    def has_turn(self, run_id: str) -> bool:
        """Whether a turn with this ``runId`` is open, or was the last one to end."""
        with self._state:
            return run_id == self.last_run_id or any(
                t.turn_id == run_id for t in self._turns.values()
            )

    def add(self, receipt: Receipt) -> Receipt:
        """Adds a receipt to the local ledger and uploads it to the session."""
        receipt = super().add(receipt)
        if self.upload_receipts:
            self.upload([receipt])
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

    def on_chain_end(self, outputs: Any, *, run_id: UUID, **kwargs: Any) -> None:
        self._exit_and_end(run_id, None)

    def on_chain_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._exit_and_end(run_id, error)

    def _end_turn(self, turn: ServiceTurn, *, error: BaseException | None) -> None:
        with self._state:
            self.last_run_id = turn.turn_id
        if not turn.context_sent:  # no model call: nothing reached the service
            return
        failing = error is not None
        ended = turn.end_iteration(will_continue=False)
        self.send(turn, "loop_iteration_end", ended, on_error_path=failing)
        fields = turn.end(
            turn.messages,
            success=not failing,
            error=f"{type(error).__name__}: {error}" if error is not None else None,
        )
        self.send(turn, "agent_end", fields, on_error_path=failing)

    # ------------------------------------------------------------------ models

    def on_chat_model_start(
        self,
        serialized: dict[str, Any],
        messages: list[list[BaseMessage]],
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        turn = self._enter(run_id, parent_run_id)
        # human messages -> user receipts (uploaded), as in local mode
        super().on_chat_model_start(
            serialized, messages, run_id=run_id, parent_run_id=parent_run_id, **kwargs
        )
        system, wire = to_wire_messages(messages[0] if messages else [])
        params = kwargs.get("invocation_params")
        tools = bound_tool_names(params)
        if not turn.context_sent:
            self.send(turn, "context_assembled", {"systemPrompt": system, "messages": wire})
            turn.context_sent = True
        if turn.iteration_open:
            self.send(turn, "loop_iteration_end", turn.end_iteration(will_continue=True))
        turn.messages = wire
        started = turn.next_iteration()
        self._gate("loop_iteration_start", turn, {**started, "messageCount": len(wire)})
        fields = turn.llm_call(wire, system_prompt=system, tools=tools, model=model_name(params))
        self.keep_tools(turn, tools, self._gate("before_llm_call", turn, fields))

    def on_llm_end(self, response: LLMResult, *, run_id: UUID, **kwargs: Any) -> None:
        turn = self._turn_of(run_id)
        try:
            if turn is None or turn.iteration < 0:
                return  # not a chat model run of a turn (a completion model)
            gens = response.generations[0] if response.generations else []
            message = gens[0].message if gens and isinstance(gens[0], ChatGeneration) else None
            if message is None:
                return
            calls = message.tool_calls if isinstance(message, AIMessage) else []
            assistant: dict[str, Any] = {"role": "assistant", "content": message_text(message)}
            fields: dict[str, Any] = {"iteration": turn.iteration, "response": assistant}
            if calls:
                fields["toolCalls"] = [tool_call_wire(c) for c in calls]
                assistant["toolCalls"] = fields["toolCalls"]
            turn.messages = [*turn.messages, assistant]
            self.keep_calls(
                turn, fields.get("toolCalls", []), self._gate("after_llm_call", turn, fields)
            )
        finally:
            self._exit_and_end(run_id, None)  # the chat model may be the root run

    def on_llm_error(self, error: BaseException, *, run_id: UUID, **kwargs: Any) -> None:
        self._exit_and_end(run_id, error)

    # ------------------------------------------------------------------ tools

    def on_tool_start(
        self,
        serialized: dict[str, Any],
        input_str: str,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        inputs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        turn = self._enter(run_id, parent_run_id)
        super().on_tool_start(
            serialized, input_str, run_id=run_id, parent_run_id=parent_run_id, inputs=inputs,
            **kwargs,
        )  # fmt: skip
        with self._lock:
            pending = self._pending[run_id]
        name: str = pending["tool"]
        call_id = str(pending["call_id"]) if pending["call_id"] else None
        turn.calls_in_iteration += 1
        fields: dict[str, Any] = {"toolName": name, "params": pending["args"]}
        if call_id:
            fields["toolCallId"] = call_id
        try:
            answer = self.send(turn, "before_tool_call", fields) or {}
        except ServiceGateError:
            self._forget_tool(run_id)
            raise
        reason: str | None = None
        if answer.get("block"):
            reason = str(answer.get("blockReason") or "blocked")
        elif name in turn.removed:
            reason = f"receiptgate removed {name} from this turn's tools"
        elif call_id and call_id in turn.dropped:
            reason = f"receiptgate dropped this {name} call"
        if reason is not None:
            self._forget_tool(run_id)
            self.note_blocked_call(turn, name, reason, call_id)
            raise ToolCallBlocked(name, reason, tool_call_id=call_id)

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
            self._exit_and_end(run_id, None)

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
            self._exit_and_end(run_id, error)


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
            ``fail_closed`` a failed call raises :class:`ServiceUnavailable`
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
        if fail_mode is not None:
            check_fail_mode(fail_mode)
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
        cfg = with_handler(config, self.handler)
        run_id = cfg.get("run_id")
        if run_id is None:
            run_id = uuid4()
            cfg["run_id"] = run_id  # the root run's id: the turn's runId
        return cfg, str(run_id)

    def _turn_id(self, run_id: str) -> str | None:
        # The root run is normally the wrapped runnable's (run_id from the config); a
        # runnable that does not start a run of its own leaves the handler's last turn.
        return run_id if self.handler.has_turn(run_id) else self.handler.last_run_id

    def _fields(self, text: str) -> dict[str, Any]:
        fields = {"content": text}
        if self.channel is not None:
            fields["channelId"] = self.channel
        return fields

    def _decide(self, text: str, answer: dict[str, Any] | None) -> str:
        if answer is None:  # the call failed, fail_open: the answer passes
            return text
        self.last_answer = answer
        content = answer.get("content")
        if answer_verdict(answer, text) == "block":
            if self.on_block == "raise":
                raise ServiceBlockedOutput(text, answer)
            return content if isinstance(content, str) else self.unavailable_notice
        return content if isinstance(content, str) else text

    def check(self, text: str, *, run_id: str | None = None) -> str:
        """Sends ``text`` as ``message_sending`` for the turn ``run_id`` (default: the
        handler's last turn) and returns what may be delivered (or raises)."""
        run_id = run_id or self.handler.last_run_id
        try:
            answer = self.handler.send(
                run_id, "message_sending", self._fields(text), fail_mode=self.fail_mode
            )
        except ServiceUnavailable:
            if self.on_block == "raise":
                raise
            return self.unavailable_notice
        return self._decide(text, answer)

    async def acheck(self, text: str, *, run_id: str | None = None) -> str:
        """:meth:`check` without blocking the event loop."""
        run_id = run_id or self.handler.last_run_id
        try:
            answer = await self.handler.asend(
                run_id, "message_sending", self._fields(text), fail_mode=self.fail_mode
            )
        except ServiceUnavailable:
            if self.on_block == "raise":
                raise
            return self.unavailable_notice
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
