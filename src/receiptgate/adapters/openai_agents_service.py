"""OpenAI Agents SDK adapter, service mode: the run's events go to a running ``receiptgate serve``.

``openai-agents`` only (``pip install 'receiptgate[openai-agents]'``); the service is reached with
:class:`~receiptgate.client.ServiceClient` (``RECEIPTGATE_URL`` / ``RECEIPTGATE_API_KEY``)::

    rg = receiptgate_service_guardrails(ServiceClient(), session_id="chat-42")  # one per session
    agent = rg.attach(Agent(name="ops", tools=[...]))  # tool input guardrails + output guardrail
    try:
        result = await Runner.run(agent, question, hooks=rg.hooks)
    except OutputGuardrailTripwireTriggered as e:
        info = e.guardrail_result.output.output_info  # the service's answer, the turn id

Where :mod:`receiptgate.adapters.openai_agents` validates in-process, this module sends the
SDK run's events to the service as the runtime hook events of ``POST /hooks/{event}``, so the
service builds the turn's provenance graph, applies its provenance policies (untrusted content
removes or blocks tools), validates the answer against the session's receipts, audits every
check with the session and the turn, and the dashboard shows it all:

======================================  =================================================
SDK                                     service
======================================  =================================================
``RunHooks.on_agent_start`` (first)     a new turn id for the run (``runId``/``turnId``)
``RunHooks.on_llm_start``               ``context_assembled`` (first call of the run);
                                        ``loop_iteration_end`` of the previous iteration,
                                        ``loop_iteration_start``, ``before_llm_call``
                                        (messages from the input items; the agent's tool
                                        names); user messages as ``user`` receipts
``RunHooks.on_llm_end``                 ``after_llm_call`` (the function calls returned)
``RunHooks.on_tool_end``                the ``tool`` receipt → ``POST /sessions/{id}/receipts``
``RunHooks.on_agent_end``               ``loop_iteration_end``, ``agent_end``
``ToolInputGuardrail`` (per tool)       ``before_tool_call``; a block rejects the call
``OutputGuardrail``                     ``message_sending``; a cancel (or a blocked
                                        sentence) trips it
======================================  =================================================

Run hooks observe; they cannot change the tools of an LLM call already being made. Tools the
service removes at ``before_llm_call`` (and calls it drops at ``after_llm_call``) are enforced
by the tool input guardrail, which rejects calls to them: the model still sees those tools,
and only function tools that carry the guardrail are enforced.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import quote

from agents import (
    Agent,
    FunctionTool,
    GuardrailFunctionOutput,
    ModelResponse,
    OutputGuardrail,
    RunContextWrapper,
    Runner,
    RunResult,
    ToolGuardrailFunctionOutput,
    ToolInputGuardrail,
    ToolInputGuardrailData,
)
from agents.tool import Tool
from openai.types.responses import ResponseFunctionToolCall, ResponseOutputMessage
from pydantic import BaseModel

from receiptgate.adapters._ledger import jsonable
from receiptgate.adapters.openai_agents import (
    ReceiptsHooks,
    TripOn,
    _item_text,
    output_text,
)
from receiptgate.client import ServiceClient, ServiceError
from receiptgate.evidence.receipts import Receipt

__all__ = [
    "FailMode",
    "ServiceFailure",
    "ServiceGuardrails",
    "ServiceRunHooks",
    "receiptgate_service_guardrails",
]

logger = logging.getLogger("receiptgate.adapters.openai_agents")

FailMode = Literal["fail_closed", "fail_open"]

#: Runs remembered at most (a run's state is needed until its output guardrail ran).
MAX_RUNS = 1024


@dataclass(frozen=True)
class ServiceFailure:
    """One request to the service that failed (``ServiceError``), and what it affected."""

    event: str
    """The hook event, ``receipts`` (a receipt upload), or ``agent_end``."""
    turn_id: str | None
    message: str
    fail_mode: FailMode

    def to_dict(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "turn_id": self.turn_id,
            "message": self.message,
            "fail_mode": self.fail_mode,
        }


@dataclass(eq=False)
class _Run:
    """What the adapter knows of one ``Runner.run``; keyed by the run's ``Usage`` object, which
    the SDK shares between the run's context, its tool contexts and its hook contexts."""

    usage: Any
    owner: ServiceGuardrails
    turn_id: str
    started: float = field(default_factory=time.monotonic)
    context_sent: bool = False
    iteration: int = -1
    iteration_open: bool = False
    calls_in_iteration: int = 0
    messages: list[dict[str, Any]] = field(default_factory=list)
    call_names: dict[str, str] = field(default_factory=dict)  # call id -> tool name
    removed: dict[str, str] = field(default_factory=dict)  # tool -> why (before_llm_call)
    dropped: dict[str, str] = field(default_factory=dict)  # call id -> why (after_llm_call)
    blocked: str | None = None  # the service blocked the turn: why
    errors: list[ServiceFailure] = field(default_factory=list)
    decisions: dict[str, ToolGuardrailFunctionOutput] = field(default_factory=dict)
    ended: bool = False


_RUNS: OrderedDict[int, _Run] = OrderedDict()
_RUNS_LOCK = threading.Lock()
#: The runs opened under :meth:`ServiceGuardrails.run` (to end them when the run raises).
_OPENED: contextvars.ContextVar[list[_Run] | None] = contextvars.ContextVar(
    "receiptgate_openai_agents_runs", default=None
)


def _lookup(usage: Any) -> _Run | None:
    with _RUNS_LOCK:
        run = _RUNS.get(id(usage))
    return run if run is not None and run.usage is usage else None


def _register(run: _Run) -> None:
    with _RUNS_LOCK:
        _RUNS[id(run.usage)] = run
        _RUNS.move_to_end(id(run.usage))
        while len(_RUNS) > MAX_RUNS:
            _RUNS.popitem(last=False)
    opened = _OPENED.get()
    if opened is not None:
        opened.append(run)


def _as_dict(item: Any) -> Mapping[str, Any] | None:
    if isinstance(item, Mapping):
        return item
    if isinstance(item, BaseModel):
        dumped: dict[str, Any] = item.model_dump(mode="json", exclude_none=True)
        return dumped
    return None


def _content_text(content: Any) -> str:
    """A message's or a tool output's text: a string, text parts, else JSON."""
    if isinstance(content, str):
        return content
    text = _item_text(content)
    if text:
        return text
    return json.dumps(jsonable(content), ensure_ascii=False)


def _arguments(raw: Any) -> dict[str, Any]:
    if isinstance(raw, Mapping):
        return dict(jsonable(dict(raw)))
    if isinstance(raw, str) and raw.strip():
        try:
            parsed = json.loads(raw)
        except ValueError:
            return {"input": raw}
        return dict(parsed) if isinstance(parsed, dict) else {"input": jsonable(parsed)}
    return {}


def hook_messages(
    input_items: Iterable[Any], call_names: Mapping[str, str]
) -> list[dict[str, Any]]:
    """The runtime-hook messages of a model's input items (the service's transcript shape).

    User, system/developer and assistant messages become ``{"role", "content"}``; a
    ``function_call_output`` becomes ``{"role": "toolResult", "toolName", "toolCallId",
    "content"}`` (the name from the matching ``function_call``, else ``call_names``), which
    is how the service learns what each tool returned and taints the turn by the tool's trust.
    Other ``*_call_output`` items are tool results named after their type; the rest
    (function calls, reasoning) is left out: the calls reach the service with ``after_llm_call``.
    """
    items = [d for d in (_as_dict(i) for i in input_items) if d is not None]
    names = dict(call_names)
    for d in items:
        if d.get("type") == "function_call" and isinstance(d.get("call_id"), str):
            names[str(d["call_id"])] = str(d.get("name") or "")
    out: list[dict[str, Any]] = []
    for d in items:
        kind, role = d.get("type"), d.get("role")
        if isinstance(kind, str) and kind.endswith("_call_output"):
            call_id = d.get("call_id")
            tool = names.get(str(call_id)) if call_id is not None else None
            message: dict[str, Any] = {
                "role": "toolResult",
                "toolName": tool or kind.removesuffix("_call_output"),
                "content": _content_text(d.get("output")),
            }
            if call_id is not None:
                message["toolCallId"] = str(call_id)
            out.append(message)
        elif role in ("user", "assistant", "system", "developer"):
            out.append(
                {
                    "role": "system" if role == "developer" else role,
                    "content": _content_text(d.get("content")),
                }
            )
    return out


def _guarded(tool: Any) -> bool:
    return any(isinstance(g, _ServiceToolGuardrail) for g in (tool.tool_input_guardrails or ()))


@dataclass
class _ServiceToolGuardrail(ToolInputGuardrail[Any]):
    """A receiptgate service tool input guardrail (told apart so it is attached once)."""


class ServiceRunHooks(ReceiptsHooks):
    """The ``RunHooks`` of :class:`ServiceGuardrails`: forwards the run's events to the service
    and uploads its receipts. Also a local :class:`ReceiptsHooks` ledger: ``receipts`` lists
    what was uploaded."""

    def __init__(self, owner: ServiceGuardrails) -> None:
        super().__init__()
        self.owner = owner

    async def on_agent_start(self, context: RunContextWrapper[Any], agent: Agent[Any]) -> None:
        self.owner._run_of(context)
        self.owner._warn_unguarded(agent)

    async def on_llm_start(
        self,
        context: RunContextWrapper[Any],
        agent: Agent[Any],
        system_prompt: str | None,
        input_items: list[Any],
    ) -> None:
        o = self.owner
        run = o._run_of(context)
        users = self._user_receipts(input_items)
        if users:
            await o._upload(run, users)
        messages = hook_messages(input_items, run.call_names)
        run.messages = messages
        if not run.context_sent:
            run.context_sent = True
            await o._send(
                run,
                "context_assembled",
                {"systemPrompt": system_prompt or "", "messages": messages},
            )
        if run.iteration_open:
            await o._end_iteration(run, will_continue=True)
        run.iteration += 1
        run.iteration_open, run.calls_in_iteration = True, 0
        started = await o._send(run, "loop_iteration_start", {"iteration": run.iteration})
        o._note_block(run, started, "loop_iteration_start")
        tools = [str(t.name) for t in agent.tools if getattr(t, "name", None)]
        payload: dict[str, Any] = {"iteration": run.iteration, "messages": messages}
        payload["tools"] = tools
        if system_prompt:
            payload["systemPrompt"] = system_prompt
        answer = await o._send(run, "before_llm_call", payload)
        o._note_block(run, answer, "before_llm_call")
        if answer is not None and isinstance(answer.get("tools"), list):
            kept = {t if isinstance(t, str) else str(t.get("name")) for t in answer["tools"]}
            for name in tools:
                if name not in kept:
                    run.removed[name] = (
                        f"receiptgate: the service's provenance policy removed {name!r} from "
                        f"LLM call {run.iteration} of turn {run.turn_id}"
                    )

    async def on_llm_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], response: ModelResponse
    ) -> None:
        o = self.owner
        run = o._run_of(context)
        calls: list[dict[str, Any]] = []
        texts: list[str] = []
        for item in response.output:
            if isinstance(item, ResponseFunctionToolCall):
                run.call_names[item.call_id] = item.name
                calls.append(
                    {"id": item.call_id, "name": item.name, "arguments": _arguments(item.arguments)}
                )
            elif isinstance(item, ResponseOutputMessage):
                texts.append(_content_text([p.model_dump() for p in item.content]))
        run.calls_in_iteration += len(calls)
        payload: dict[str, Any] = {"iteration": max(run.iteration, 0), "toolCalls": calls}
        if texts:
            payload["response"] = {"role": "assistant", "content": "\n".join(texts)}
        answer = await o._send(run, "after_llm_call", payload)
        o._note_block(run, answer, "after_llm_call")
        if answer is not None and isinstance(answer.get("toolCalls"), list):
            kept = {str(c.get("id")) for c in answer["toolCalls"] if isinstance(c, Mapping)}
            for c in calls:
                if c["id"] not in kept:
                    run.dropped[c["id"]] = (
                        f"receiptgate: the service's provenance policy dropped this call of "
                        f"{c['name']!r} (turn {run.turn_id})"
                    )

    async def on_tool_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool, result: object
    ) -> None:
        run = self.owner._run_of(context)
        receipt = self.add(self._tool_receipt(context, agent, tool, result))
        await self.owner._upload(run, [receipt])

    async def on_agent_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], output: Any
    ) -> None:
        o = self.owner
        run = o._run_of(context)
        if run.iteration_open:
            await o._end_iteration(run, will_continue=False)
        messages = [*run.messages, {"role": "assistant", "content": output_text(output)}]
        await o._finish(run, messages=messages, success=True)


class ServiceGuardrails:
    """Receiptgate in service mode for one agent session: run hooks, a tool input guardrail
    and an output guardrail that talk to a running ``receiptgate serve``.

    Args:
        client: the service (a key with the ``validate`` scope).
        session_id: the session's id: the service's ``sessionKey``, the receipts' session, the
            audit's ``session_id``. Keep one object per session; every run gets its own turn.
        agent_id: sent as ``agentId`` (the service's ``agentOverrides``), if given.
        fail_mode: what a failed request (:class:`~receiptgate.client.ServiceError`) does.
            ``"fail_closed"`` (default): a tool call is rejected and the output guardrail
            trips (a failed event earlier in the run does too: the service did not see it);
            ``"fail_open"``: the call or the answer passes. Either way the failure is logged
            (warning) and listed in :attr:`errors` and in the guardrail's ``output_info``.
        trip_on: ``"block"`` (default): the output guardrail trips when the service cancels the
            answer or blocks a sentence of it; ``"flag"``: also when it rewrites or flags it.
        name: the guardrails' name (shown in traces and the tripwire exceptions).

    Attributes:
        hooks: the :class:`ServiceRunHooks` for ``Runner.run(..., hooks=...)``.
        tool_input_guardrail: a ``ToolInputGuardrail`` for ``function_tool(...,
            tool_input_guardrails=[...])`` (or :meth:`guard_tools` / :meth:`attach`).
        output_guardrail: an ``OutputGuardrail``; :attr:`output_guardrails` is the list.
        errors: every :class:`ServiceFailure`, in order.
        turn_ids: the turn id of every run, in order (``GET /turns/{id}``, the dashboard).
        last_output_info: the ``output_info`` of the last output check.
    """

    def __init__(
        self,
        client: ServiceClient,
        *,
        session_id: str,
        agent_id: str | None = None,
        fail_mode: FailMode = "fail_closed",
        trip_on: TripOn = "block",
        name: str = "receiptgate",
    ) -> None:
        if fail_mode not in ("fail_closed", "fail_open"):
            raise ValueError(f'fail_mode must be "fail_closed" or "fail_open", got {fail_mode!r}')
        if trip_on not in ("block", "flag"):
            raise ValueError(f'trip_on must be "block" or "flag", got {trip_on!r}')
        if not session_id or not session_id.strip():
            raise ValueError("session_id must not be empty")
        self.client = client
        self.session_id = session_id
        self.agent_id = agent_id
        self.fail_mode: FailMode = fail_mode
        self.trip_on: TripOn = trip_on
        self.name = name
        self.errors: list[ServiceFailure] = []
        self.turn_ids: list[str] = []
        self.last_output_info: dict[str, Any] | None = None
        self.hooks = ServiceRunHooks(self)
        self.tool_input_guardrail: ToolInputGuardrail[Any] = _ServiceToolGuardrail(
            guardrail_function=self._tool_guardrail, name=name
        )
        self.output_guardrail: OutputGuardrail[Any] = OutputGuardrail(
            guardrail_function=self._output_guardrail, name=name
        )
        self._warned: set[str] = set()

    def __repr__(self) -> str:
        return f"ServiceGuardrails({self.client!r}, session_id={self.session_id!r})"

    # ------------------------------------------------------------------ wiring

    @property
    def output_guardrails(self) -> list[OutputGuardrail[Any]]:
        """What to pass as ``Agent(output_guardrails=...)``."""
        return [self.output_guardrail]

    @property
    def tool_input_guardrails(self) -> list[ToolInputGuardrail[Any]]:
        """What to pass as ``function_tool(..., tool_input_guardrails=...)``."""
        return [self.tool_input_guardrail]

    def guard_tools(self, tools: Sequence[Any]) -> list[Any]:
        """Adds :attr:`tool_input_guardrail` to every ``FunctionTool`` of ``tools`` that has no
        receiptgate service guardrail yet (in place: the tool objects are changed); returns the
        tools. A tool shared by several sessions needs it once: the guardrail acts for the
        session whose :attr:`hooks` run the current run. Other tools (hosted tools) cannot carry
        tool input guardrails and are left alone."""
        for tool in tools:
            if isinstance(tool, FunctionTool) and not _guarded(tool):
                tool.tool_input_guardrails = [
                    *(tool.tool_input_guardrails or []),
                    self.tool_input_guardrail,
                ]
        return list(tools)

    def attach(self, agent: Agent[Any]) -> Agent[Any]:
        """:meth:`guard_tools` on the agent's tools and :attr:`output_guardrail` added to its
        output guardrails (once); returns the agent."""
        self.guard_tools(agent.tools)
        if self.output_guardrail not in agent.output_guardrails:
            agent.output_guardrails = [*agent.output_guardrails, self.output_guardrail]
        return agent

    async def run(self, agent: Agent[Any], input: Any, **kwargs: Any) -> RunResult:
        """``Runner.run(agent, input, hooks=self.hooks, **kwargs)``; when the run raises before
        it ended (a model error, ``MaxTurnsExceeded``, a cancelled task), its turn is ended at
        the service with ``agent_end`` (``success: false``) before the exception propagates.
        (With a bare ``Runner.run`` such a turn stays open at the service until it evicts it.)"""
        opened: list[_Run] = []
        token = _OPENED.set(opened)
        try:
            return await Runner.run(agent, input, hooks=self.hooks, **kwargs)
        except BaseException as exc:
            for run in opened:
                if not run.ended:
                    error = f"{type(exc).__name__}: {exc}"[:500]
                    await run.owner._finish(run, messages=run.messages, success=False, error=error)
            raise
        finally:
            _OPENED.reset(token)

    # ------------------------------------------------------------------ runs

    def _run_of(self, context: RunContextWrapper[Any]) -> _Run:
        """The run ``context`` belongs to; opened (under this session) if unknown."""
        usage = context.usage
        run = _lookup(usage)
        if run is None:
            run = _Run(usage=usage, owner=self, turn_id=f"oa-{uuid.uuid4().hex[:20]}")
            _register(run)
            self.turn_ids.append(run.turn_id)
        return run

    def _warn_unguarded(self, agent: Agent[Any]) -> None:
        for tool in agent.tools:
            name = str(getattr(tool, "name", ""))
            if name in self._warned:
                continue
            if isinstance(tool, FunctionTool) and not _guarded(tool):
                self._warned.add(name)
                logger.warning(
                    "receiptgate: function tool %r of agent %r has no receiptgate tool input "
                    "guardrail: the service's tool decisions are not enforced on it "
                    "(attach it with guard_tools() or attach())",
                    name,
                    agent.name,
                )
            elif not isinstance(tool, FunctionTool):
                self._warned.add(name)
                logger.warning(
                    "receiptgate: tool %r of agent %r is not a function tool: its calls are "
                    "not checked with the service",
                    name,
                    agent.name,
                )

    def _payload(self, run: _Run, fields: Mapping[str, Any]) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "sessionKey": self.session_id,
            "runId": run.turn_id,
            "turnId": run.turn_id,
        }
        if self.agent_id is not None:
            payload["agentId"] = self.agent_id
        payload.update(fields)
        return payload

    def _fail(self, run: _Run, event: str, error: ServiceError) -> ServiceFailure:
        failure = ServiceFailure(event, run.turn_id, str(error), self.fail_mode)
        run.errors.append(failure)
        self.errors.append(failure)
        logger.warning(
            "receiptgate: %s of turn %s failed (%s): %s",
            event,
            run.turn_id,
            self.fail_mode,
            error,
        )
        return failure

    async def _send(
        self, run: _Run, event: str, fields: Mapping[str, Any]
    ) -> dict[str, Any] | None:
        """One hook event; ``None`` when the service failed (recorded in :attr:`errors`)."""
        try:
            return await self.client.ahook(event, self._payload(run, fields))
        except ServiceError as e:
            self._fail(run, event, e)
            return None

    async def _upload(self, run: _Run, receipts: Sequence[Receipt]) -> None:
        body = {"receipts": [r.model_dump(mode="json", exclude_none=True) for r in receipts]}
        path = f"/sessions/{quote(self.session_id, safe='')}/receipts"
        try:
            await asyncio.to_thread(self.client.request, "POST", path, body)
        except ServiceError as e:
            self._fail(run, "receipts", e)

    def _note_block(self, run: _Run, answer: Mapping[str, Any] | None, event: str) -> None:
        if answer is not None and answer.get("block") and run.blocked is None:
            run.blocked = str(answer.get("blockReason") or f"receiptgate: {event} blocked the turn")

    async def _end_iteration(self, run: _Run, *, will_continue: bool) -> None:
        run.iteration_open = False
        await self._send(
            run,
            "loop_iteration_end",
            {
                "iteration": max(run.iteration, 0),
                "toolCallsMade": run.calls_in_iteration,
                "willContinue": will_continue,
            },
        )

    async def _finish(
        self,
        run: _Run,
        *,
        messages: list[dict[str, Any]],
        success: bool,
        error: str | None = None,
    ) -> None:
        run.ended = True
        fields: dict[str, Any] = {
            "messages": messages,
            "success": success,
            "durationMs": max(0.0, (time.monotonic() - run.started) * 1000.0),
        }
        if error is not None:
            fields["error"] = error
        await self._send(run, "agent_end", fields)
        run.messages = []

    # ------------------------------------------------------------------ guardrails

    async def _tool_guardrail(self, data: ToolInputGuardrailData) -> ToolGuardrailFunctionOutput:
        ctx = data.context
        run = self._run_of(ctx)
        return await run.owner._check_tool(run, ctx.tool_name, ctx.tool_call_id, ctx.tool_arguments)

    async def _check_tool(
        self, run: _Run, tool: str, call_id: str, arguments: str
    ) -> ToolGuardrailFunctionOutput:
        cached = run.decisions.get(call_id)
        if cached is not None:  # another session's guardrail on the same tool decided it
            return cached
        fields = {"toolName": tool, "params": _arguments(arguments), "toolCallId": call_id}
        failed = len(run.errors)
        answer = await self._send(run, "before_tool_call", fields)
        reasons: list[str] = []
        if answer is None:
            if self.fail_mode == "fail_closed":
                reasons.append(
                    f"the service could not check this call "
                    f"({run.errors[failed].message}); rejected (fail_closed)"
                )
        elif answer.get("block"):
            reasons.append(str(answer.get("blockReason") or "receiptgate: blocked"))
        if not reasons:
            if tool in run.removed:
                reasons.append(run.removed[tool])
            elif call_id in run.dropped:
                reasons.append(run.dropped[call_id])
            elif run.blocked is not None:
                reasons.append(run.blocked)
            elif self.fail_mode == "fail_closed" and run.errors:
                reasons.append(
                    f"the service missed events of this turn "
                    f"({run.errors[0].event}: {run.errors[0].message}); rejected (fail_closed)"
                )
        info = {
            "session_id": self.session_id,
            "turn_id": run.turn_id,
            "tool": tool,
            "call_id": call_id,
            "answer": answer,
            "reasons": reasons,
            "errors": [f.to_dict() for f in run.errors[failed:]],
        }
        if reasons:
            why = "; ".join(r.removeprefix("receiptgate: ") for r in reasons)
            message = f"Tool call rejected by receiptgate: {why}"
            decision = ToolGuardrailFunctionOutput.reject_content(message, output_info=info)
        else:
            decision = ToolGuardrailFunctionOutput.allow(output_info=info)
        run.decisions[call_id] = decision
        return decision

    async def _output_guardrail(
        self, context: RunContextWrapper[Any], agent: Agent[Any], output: Any
    ) -> GuardrailFunctionOutput:
        run = self._run_of(context)
        return await run.owner._check_output(run, output_text(output))

    async def _check_output(self, run: _Run, text: str) -> GuardrailFunctionOutput:
        failed = len(run.errors)
        answer = await self._send(run, "message_sending", {"content": text})
        info: dict[str, Any] = {
            "session_id": self.session_id,
            "turn_id": run.turn_id,
            "fail_mode": self.fail_mode,
        }
        if answer is None:
            info.update(verdict="error", error=run.errors[failed].message)
            trips = self.fail_mode == "fail_closed"
        else:
            verdicts = [
                v.get("verdict") for v in answer.get("validations") or [] if isinstance(v, Mapping)
            ]
            cancelled = bool(answer.get("cancel"))
            content = answer.get("content")
            rewritten = not cancelled and isinstance(content, str) and content != text
            blocked = cancelled or "block" in verdicts
            flagged = rewritten or "flag" in verdicts
            verdict = "block" if blocked else "flag" if flagged else "pass"
            info.update(
                verdict=verdict,
                cancel=cancelled,
                content=content if isinstance(content, str) else text,
                block_reason=answer.get("blockReason"),
                answer=answer,
            )
            trips = blocked or (self.trip_on == "flag" and flagged)
            if not trips and run.blocked is not None:
                info.update(verdict="block", block_reason=run.blocked)
                trips = True
            if not trips and self.fail_mode == "fail_closed" and run.errors:
                info["verdict"] = "error"
                info["error"] = f"the service missed events of this turn ({run.errors[0].message})"
                trips = True
        info["errors"] = [f.to_dict() for f in run.errors]
        self.last_output_info = info
        return GuardrailFunctionOutput(output_info=info, tripwire_triggered=trips)


def receiptgate_service_guardrails(
    client: ServiceClient,
    *,
    session_id: str,
    agent_id: str | None = None,
    fail_mode: FailMode = "fail_closed",
    trip_on: TripOn = "block",
    name: str = "receiptgate",
) -> ServiceGuardrails:
    """Service mode for one session; see :class:`ServiceGuardrails`."""
    return ServiceGuardrails(
        client,
        session_id=session_id,
        agent_id=agent_id,
        fail_mode=fail_mode,
        trip_on=trip_on,
        name=name,
    )
