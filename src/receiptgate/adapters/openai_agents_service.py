"""OpenAI Agents SDK adapter, service mode: the run's events go to a running ``receiptgate serve``.

``openai-agents`` only (``pip install 'receiptgate[openai-agents]'``); the service is reached with
:class:`~receiptgate.client.ServiceClient` (``RECEIPTGATE_URL`` / ``RECEIPTGATE_API_KEY``), or
its hook handling runs in process with :class:`~receiptgate.hooks.local.LocalHooks`::

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
``RunHooks.on_tool_end``                the ``tool`` receipt → the session (``add_receipts``)
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

import contextvars
import logging
import threading
import uuid
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

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

from receiptgate.adapters._service import (
    FailMode,
    ServiceFailure,
    ServiceSession,
    ServiceTurn,
    answer_verdict,
)
from receiptgate.adapters.openai_agents import (
    ReceiptsHooks,
    TripOn,
    content_text,
    hook_messages,
    output_text,
    tool_arguments,
)
from receiptgate.client import HookTransport

__all__ = [
    "FailMode",
    "ServiceFailure",
    "ServiceGuardrails",
    "ServiceRunHooks",
    "receiptgate_service_guardrails",
]

logger = logging.getLogger("receiptgate.adapters.openai_agents")

#: Runs remembered at most (a run's state is needed until its output guardrail ran).
MAX_RUNS = 1024


@dataclass(eq=False, kw_only=True)
class _Run(ServiceTurn):
    """The turn of one ``Runner.run``; keyed by the run's ``Usage`` object, which the SDK
    shares between the run's context, its tool contexts and its hook contexts."""

    usage: Any
    owner: ServiceGuardrails
    call_names: dict[str, str] = field(default_factory=dict)  # call id -> tool name
    decisions: dict[str, ToolGuardrailFunctionOutput] = field(default_factory=dict)


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
            await o.aupload(users, turn=run)
        messages = run.messages = hook_messages(input_items, run.call_names)
        if not run.context_sent:
            run.context_sent = True
            context_fields = {"systemPrompt": system_prompt or "", "messages": messages}
            await o.asend(run, "context_assembled", context_fields)
        if run.iteration_open:
            await o.asend(run, "loop_iteration_end", run.end_iteration(will_continue=True))
        started = await o.asend(run, "loop_iteration_start", run.next_iteration())
        run.note_block("loop_iteration_start", started)
        tools = [str(t.name) for t in agent.tools if getattr(t, "name", None)]
        fields = run.llm_call(messages, system_prompt=system_prompt, tools=tools)
        answer = await o.asend(run, "before_llm_call", fields)
        run.note_block("before_llm_call", answer)
        o.keep_tools(run, tools, answer)

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
                arguments = tool_arguments(item.arguments)
                calls.append({"id": item.call_id, "name": item.name, "arguments": arguments})
            elif isinstance(item, ResponseOutputMessage):
                texts.append(content_text([p.model_dump() for p in item.content]))
        run.calls_in_iteration += len(calls)
        fields: dict[str, Any] = {"iteration": max(run.iteration, 0), "toolCalls": calls}
        if texts:
            fields["response"] = {"role": "assistant", "content": "\n".join(texts)}
        answer = await o.asend(run, "after_llm_call", fields)
        run.note_block("after_llm_call", answer)
        o.keep_calls(run, calls, answer)

    async def on_tool_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool, result: object
    ) -> None:
        run = self.owner._run_of(context)
        receipt = self.add(self._tool_receipt(context, agent, tool, result))
        await self.owner.aupload([receipt], turn=run)

    async def on_agent_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], output: Any
    ) -> None:
        o = self.owner
        run = o._run_of(context)
        if run.iteration_open:
            await o.asend(run, "loop_iteration_end", run.end_iteration(will_continue=False))
        messages = [*run.messages, {"role": "assistant", "content": output_text(output)}]
        await o._finish(run, messages=messages, success=True)


class ServiceGuardrails(ServiceSession):
    """Receiptgate in service mode for one agent session: run hooks, a tool input guardrail
    and an output guardrail that talk to a running ``receiptgate serve``.

    Args:
        client: the transport: a :class:`~receiptgate.client.ServiceClient` (a running
            service; a key with the ``validate`` scope) or a
            :class:`~receiptgate.hooks.local.LocalHooks` (the same hook handling in process).
        session_id: the session's id: the service's ``sessionKey``, the receipts' session, the
            audit's ``session_id``. Keep one object per session; every run gets its own turn.
        agent_id: sent as ``agentId`` (the service's ``agentOverrides``), if given.
        fail_mode: what a failed call does (a :class:`~receiptgate.ReceiptgateError`: from
            ``ServiceClient`` a :class:`~receiptgate.client.ServiceError`, from ``LocalHooks``
            an ``InputError`` or ``StoreError``).
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
        blocked_calls: the tool calls the tool input guardrail rejected
            (``{"tool", "reason", "tool_call_id", "run_id"}``).
        removed_tools: the tools the service removed from a turn's LLM calls, by turn id.
        turn_ids: the turn id of every run, in order (``GET /turns/{id}``, the dashboard).
        last_output_info: the ``output_info`` of the last output check.
    """

    def __init__(
        self,
        client: HookTransport,
        *,
        session_id: str,
        agent_id: str | None = None,
        fail_mode: FailMode = "fail_closed",
        trip_on: TripOn = "block",
        name: str = "receiptgate",
    ) -> None:
        ServiceSession.__init__(
            self, client, session_id=session_id, agent_id=agent_id, fail_mode=fail_mode,
            logger=logger,
        )  # fmt: skip
        if trip_on not in ("block", "flag"):
            raise ValueError(f'trip_on must be "block" or "flag", got {trip_on!r}')
        self.trip_on: TripOn = trip_on
        self.name = name
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
            run = _Run(turn_id=f"oa-{uuid.uuid4().hex[:20]}", usage=usage, owner=self)
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

    async def _finish(
        self, run: _Run, *, messages: list[dict[str, Any]], success: bool, error: str | None = None
    ) -> None:
        await self.asend(run, "agent_end", run.end(messages, success=success, error=error))
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
        fields = {"toolName": tool, "params": tool_arguments(arguments), "toolCallId": call_id}
        failed = len(run.errors)
        answer = await self.asend(run, "before_tool_call", fields)
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
                reasons.append(
                    f"receiptgate: the service's provenance policy removed {tool!r} from "
                    f"LLM call {run.removed[tool]} of turn {run.turn_id}"
                )
            elif call_id in run.dropped:
                reasons.append(
                    f"receiptgate: the service's provenance policy dropped this call of "
                    f"{run.dropped[call_id]!r} (turn {run.turn_id})"
                )
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
            self.note_blocked_call(run, tool, why, call_id)
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
        answer = await self.asend(run, "message_sending", {"content": text})
        info: dict[str, Any] = {
            "session_id": self.session_id,
            "turn_id": run.turn_id,
            "fail_mode": self.fail_mode,
        }
        if answer is None:
            info.update(verdict="error", error=run.errors[failed].message)
            trips = self.fail_mode == "fail_closed"
        else:
            verdict = answer_verdict(answer, text)
            content = answer.get("content")
            info.update(
                verdict=verdict,
                cancel=bool(answer.get("cancel")),
                content=content if isinstance(content, str) else text,
                block_reason=answer.get("blockReason"),
                answer=answer,
            )
            trips = verdict == "block" or (self.trip_on == "flag" and verdict == "flag")
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
    client: HookTransport,
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
