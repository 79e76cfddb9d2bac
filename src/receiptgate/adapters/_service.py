"""What the framework adapters' service modes share: the transport, the session, one turn per run.

A service mode (:mod:`~receiptgate.adapters.langchain_service`,
:mod:`~receiptgate.adapters.openai_agents_service`) maps its framework's callbacks to the
runtime hook events; everything else is here:

- :class:`ServiceSession`: the transport (any :class:`~receiptgate.client.HookTransport`: a
  :class:`~receiptgate.client.ServiceClient` for a running service, or a
  :class:`~receiptgate.hooks.local.LocalHooks` in process), the session and agent ids, the fail
  mode. It sends events and uploads receipts, and records every failed call as a
  :class:`ServiceFailure`, together with the tools the transport removed and the calls that
  were stopped.
- :class:`ServiceTurn`: one run is one turn: its id (sent as ``runId`` and ``turnId``), the
  iteration counter (one iteration per LLM call), the removed tools and dropped calls, the
  fields of the iteration and ``agent_end`` events.

A failed call is any :class:`~receiptgate.ReceiptgateError` (:data:`TRANSPORT_ERRORS`):
``ServiceClient`` raises :class:`~receiptgate.client.ServiceError` (no answer, a 4xx/5xx),
``LocalHooks`` raises ``InputError`` (a payload it cannot read, like the service's 400) or
``StoreError`` (the audit or the turn could not be saved). The fail mode decides what happens
next; any other exception is a bug and propagates.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import KW_ONLY, asdict, dataclass, field
from typing import Any, Literal

from receiptgate._exceptions import ReceiptgateError
from receiptgate.client import HookTransport
from receiptgate.evidence.receipts import Receipt

__all__ = [
    "TRANSPORT_ERRORS",
    "Applied",
    "FailMode",
    "ServiceFailure",
    "ServiceSession",
    "ServiceTurn",
    "answer_verdict",
    "check_fail_mode",
    "receipt_json",
]

FailMode = Literal["fail_closed", "fail_open"]
Applied = Literal["blocked", "passed", "recorded"]

#: What a transport raises when a call fails (see the module's docstring).
TRANSPORT_ERRORS: tuple[type[Exception], ...] = (ReceiptgateError,)


def check_fail_mode(fail_mode: object) -> None:
    if fail_mode not in ("fail_closed", "fail_open"):
        raise ValueError(f'fail_mode must be "fail_closed" or "fail_open", got {fail_mode!r}')


def receipt_json(receipt: Receipt) -> dict[str, Any]:
    """A receipt as the transport takes it (a receipts JSONL line)."""
    dumped: dict[str, Any] = receipt.model_dump(mode="json", exclude_none=True)
    return dumped


def answer_verdict(answer: Mapping[str, Any], text: str) -> Literal["block", "flag", "pass"]:
    """What a ``message_sending`` answer did to ``text``: ``block`` (cancelled, or a report's
    verdict is ``block``), ``flag`` (rewritten, or a report flags it) or ``pass``."""
    verdicts = [v.get("verdict") for v in answer.get("validations") or [] if isinstance(v, Mapping)]
    if answer.get("cancel") or "block" in verdicts:
        return "block"
    content = answer.get("content")
    if (isinstance(content, str) and content != text) or "flag" in verdicts:
        return "flag"
    return "pass"


@dataclass(frozen=True)
class ServiceFailure:
    """A call to the transport that failed, and what the fail mode did with it.

    ``event`` is the hook event, or ``receipts`` (a receipt upload). ``applied`` is
    ``"blocked"`` (``fail_closed``: the call, the run or the answer was stopped), ``"passed"``
    (``fail_open``), or ``"recorded"`` (the run was failing already). ``status`` is the HTTP
    status of a :class:`~receiptgate.client.ServiceError`, if one came."""

    event: str
    message: str
    _: KW_ONLY
    applied: Applied
    fail_mode: FailMode
    status: int | None = None
    turn_id: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(eq=False)
class ServiceTurn:
    """One run of the agent: one turn at the service."""

    turn_id: str
    started: float = field(default_factory=time.monotonic)
    context_sent: bool = False
    iteration: int = -1
    iteration_open: bool = False
    calls_in_iteration: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)
    #: tool -> the iteration whose ``before_llm_call`` answer removed it
    removed: dict[str, int] = field(default_factory=dict)
    #: call id -> tool name, for the calls ``after_llm_call``'s answer dropped
    dropped: dict[str, str] = field(default_factory=dict)
    #: why the transport blocked the turn (a ``block`` answer), if it did
    blocked: str | None = None
    errors: list[ServiceFailure] = field(default_factory=list)
    ended: bool = False

    def next_iteration(self) -> dict[str, Any]:
        """Opens the next iteration; returns ``loop_iteration_start``'s fields."""
        self.iteration += 1
        self.iteration_open, self.calls_in_iteration = True, 0
        return {"iteration": self.iteration}

    def end_iteration(self, *, will_continue: bool) -> dict[str, Any]:
        """Closes the iteration; returns ``loop_iteration_end``'s fields."""
        self.iteration_open = False
        return {
            "iteration": max(self.iteration, 0),
            "toolCallsMade": self.calls_in_iteration,
            "willContinue": will_continue,
        }

    def llm_call(
        self,
        messages: list[dict[str, Any]],
        *,
        system_prompt: str | None,
        tools: list[str] | None,
        model: str | None = None,
    ) -> dict[str, Any]:
        """``before_llm_call``'s fields (``tools`` left out when ``None``)."""
        fields: dict[str, Any] = {"iteration": self.iteration, "messages": messages}
        if system_prompt:
            fields["systemPrompt"] = system_prompt
        if model:
            fields["model"] = model
        if tools is not None:
            fields["tools"] = tools
        return fields

    def note_block(self, event: str, answer: Mapping[str, Any] | None) -> None:
        """Remembers the first ``block`` answer of the turn."""
        if answer is not None and answer.get("block") and self.blocked is None:
            self.blocked = str(
                answer.get("blockReason") or f"receiptgate: {event} blocked the turn"
            )

    def end(
        self, messages: list[dict[str, Any]], *, success: bool, error: str | None = None
    ) -> dict[str, Any]:
        """Marks the turn ended; returns ``agent_end``'s fields."""
        self.ended = True
        elapsed = max(0.0, (time.monotonic() - self.started) * 1000.0)
        fields: dict[str, Any] = {
            "messages": messages,
            "success": success,
            "durationMs": round(elapsed, 3),
        }
        if error is not None:
            fields["error"] = error
        return fields


class ServiceSession:
    """One agent session in service mode: the transport, the ids, the fail mode, the records.

    Args:
        client: the transport: a :class:`~receiptgate.client.ServiceClient` or a
            :class:`~receiptgate.hooks.local.LocalHooks`.
        session_id: the ``sessionKey`` of every event; the receipts' session.
        agent_id: sent as ``agentId`` (the per-agent overrides), if given.
        fail_mode: what a failed call does; see :meth:`failed`.
        logger: where failures are logged (warnings).

    Attributes:
        errors: every :class:`ServiceFailure`, in order.
        blocked_calls: the tool calls that were stopped:
            ``{"tool", "reason", "tool_call_id", "run_id"}``.
        removed_tools: the tools the transport removed from a turn's LLM calls, by turn id.
    """

    def __init__(
        self,
        client: HookTransport,
        *,
        session_id: str,
        agent_id: str | None,
        fail_mode: FailMode,
        logger: logging.Logger,
    ) -> None:
        check_fail_mode(fail_mode)
        if not session_id or not session_id.strip():
            raise ValueError("session_id must not be empty")
        self.client = client
        self.session_id = session_id
        self.agent_id = agent_id
        self.fail_mode: FailMode = fail_mode
        self.logger = logger
        self.errors: list[ServiceFailure] = []
        self.blocked_calls: list[dict[str, Any]] = []
        self.removed_tools: dict[str, list[str]] = {}
        self._records = threading.Lock()

    def base_payload(self, turn_id: str | None) -> dict[str, Any]:
        """The fields every event carries: ``sessionKey``, ``agentId``, ``runId``/``turnId``."""
        out: dict[str, Any] = {"sessionKey": self.session_id}
        if self.agent_id is not None:
            out["agentId"] = self.agent_id
        if turn_id is not None:
            out["runId"] = out["turnId"] = turn_id
        return out

    # -- failures ----------------------------------------------------------------------

    def record_failure(
        self,
        event: str,
        error: Exception,
        *,
        turn: ServiceTurn | str | None = None,
        fail_mode: FailMode | None = None,
        on_error_path: bool = False,
    ) -> ServiceFailure:
        """Records and logs a failed call of ``turn`` (a turn, or the id of one that ended)
        under ``fail_mode`` (default: the session's)."""
        mode: FailMode = fail_mode or self.fail_mode
        applied: Applied = (
            "recorded" if on_error_path else "blocked" if mode == "fail_closed" else "passed"
        )
        status = getattr(error, "status", None)
        failure = ServiceFailure(
            event,
            str(error),
            applied=applied,
            fail_mode=mode,
            status=status if isinstance(status, int) else None,
            turn_id=turn.turn_id if isinstance(turn, ServiceTurn) else turn,
        )
        with self._records:
            self.errors.append(failure)
            if isinstance(turn, ServiceTurn):
                turn.errors.append(failure)
        self.logger.warning(
            "receiptgate service mode: %s failed (%s) [%s, turn %s]: %s",
            event,
            applied,
            mode,
            failure.turn_id,
            error,
        )
        return failure

    def failed(
        self,
        event: str,
        error: Exception,
        *,
        turn: ServiceTurn | str | None = None,
        fail_mode: FailMode | None = None,
        on_error_path: bool = False,
    ) -> ServiceFailure:
        """Applies the fail mode to a failed call: records it, and when that blocks
        (``fail_closed``, not on an error path) raises what :meth:`stop` gives, if anything
        (the adapter then rejects or passes what depends on the call)."""
        failure = self.record_failure(
            event, error, turn=turn, fail_mode=fail_mode, on_error_path=on_error_path
        )
        stop = self.stop(event, error) if failure.applied == "blocked" else None
        if stop is not None:
            raise stop from error
        return failure

    def stop(self, event: str, error: Exception) -> Exception | None:
        """The exception that stops the run when a call fails closed; ``None``: go on."""
        return None

    # -- calls -------------------------------------------------------------------------

    def _event(self, turn: ServiceTurn | str | None, fields: Mapping[str, Any]) -> dict[str, Any]:
        turn_id = turn.turn_id if isinstance(turn, ServiceTurn) else turn
        return {**self.base_payload(turn_id), **fields}

    def send(
        self,
        turn: ServiceTurn | str | None,
        event: str,
        fields: Mapping[str, Any],
        *,
        fail_mode: FailMode | None = None,
        on_error_path: bool = False,
    ) -> dict[str, Any] | None:
        """One hook event of ``turn`` (a turn, or the id of one that ended); ``None`` when the
        call failed (see :meth:`failed`)."""
        try:
            return self.client.hook(event, self._event(turn, fields))
        except TRANSPORT_ERRORS as e:
            self.failed(event, e, turn=turn, fail_mode=fail_mode, on_error_path=on_error_path)
            return None

    async def asend(
        self,
        turn: ServiceTurn | str | None,
        event: str,
        fields: Mapping[str, Any],
        *,
        fail_mode: FailMode | None = None,
    ) -> dict[str, Any] | None:
        """:meth:`send` through the transport's ``ahook``."""
        try:
            return await self.client.ahook(event, self._event(turn, fields))
        except TRANSPORT_ERRORS as e:
            self.failed(event, e, turn=turn, fail_mode=fail_mode)
            return None

    def upload(self, receipts: Sequence[Receipt], *, turn: ServiceTurn | None = None) -> None:
        """Adds receipts to the session (``add_receipts``); a failure is ``receipts``."""
        try:
            self.client.add_receipts(self.session_id, [receipt_json(r) for r in receipts])
        except TRANSPORT_ERRORS as e:
            self.failed("receipts", e, turn=turn)

    async def aupload(
        self, receipts: Sequence[Receipt], *, turn: ServiceTurn | None = None
    ) -> None:
        """:meth:`upload` through ``aadd_receipts``."""
        try:
            await self.client.aadd_receipts(self.session_id, [receipt_json(r) for r in receipts])
        except TRANSPORT_ERRORS as e:
            self.failed("receipts", e, turn=turn)

    # -- what the answers took away -----------------------------------------------------

    def keep_tools(
        self, turn: ServiceTurn, offered: Sequence[str] | None, answer: Mapping[str, Any] | None
    ) -> list[str]:
        """Notes the tools of ``offered`` that ``before_llm_call``'s answer left out; returns
        them."""
        kept = answer.get("tools") if answer is not None else None
        if offered is None or not isinstance(kept, list):
            return []
        names = {t if isinstance(t, str) else str(t.get("name")) for t in kept}
        removed = [t for t in offered if t not in names]
        if removed:
            with self._records:
                for name in removed:
                    turn.removed[name] = turn.iteration
                listed = self.removed_tools.setdefault(turn.turn_id, [])
                listed.extend(t for t in removed if t not in listed)
        return removed

    def keep_calls(
        self,
        turn: ServiceTurn,
        calls: Sequence[Mapping[str, Any]],
        answer: Mapping[str, Any] | None,
    ) -> None:
        """Notes the calls (``{id, name, …}``) that ``after_llm_call``'s answer dropped."""
        kept = answer.get("toolCalls") if answer is not None else None
        if not calls or not isinstance(kept, list):
            return
        ids = {str(c.get("id")) for c in kept if isinstance(c, Mapping)}
        with self._records:
            for c in calls:
                if c.get("id") and str(c["id"]) not in ids:
                    turn.dropped[str(c["id"])] = str(c.get("name") or "tool")

    def note_blocked_call(
        self, turn: ServiceTurn, tool: str, reason: str, call_id: str | None
    ) -> None:
        """Lists a stopped tool call in :attr:`blocked_calls`."""
        with self._records:
            self.blocked_calls.append(
                {"tool": tool, "reason": reason, "tool_call_id": call_id, "run_id": turn.turn_id}
            )
