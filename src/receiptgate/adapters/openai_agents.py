"""OpenAI Agents SDK adapter: receipts from the run's tool calls, the gate as an output guardrail.

``openai-agents`` only (``pip install 'receiptgate[openai-agents]'``)::

    rg = receiptgate_guardrails(gate)  # one per session
    agent = Agent(name="ops", tools=[...], output_guardrails=rg.output_guardrails)
    try:
        result = await Runner.run(agent, question, hooks=rg.hooks)
    except OutputGuardrailTripwireTriggered as e:
        report = e.guardrail_result.output.output_info  # the ValidationResult as a dict

- :class:`ReceiptsHooks` is a ``RunHooks``: every local tool call of the run
  (``on_tool_start`` / ``on_tool_end``: tool call id, tool name, JSON arguments, output) becomes
  a ``tool`` :class:`~receiptgate.Receipt`, and every user message the model is given
  (``on_llm_start``) a ``user`` receipt, in one :class:`~receiptgate.ReceiptIndex` per session.
  Run hooks see every tool of every agent of the run (handoffs included) without touching the
  tools, which per-tool guardrails (``tool_output_guardrail``) would need.
- :func:`receiptgate_output_guardrail` is an ``OutputGuardrail`` that validates the agent's final
  output against those receipts; it trips (``tripwire_triggered=True``, ``output_info`` = the
  result's ``to_dict()``) when the gate blocks.
- :func:`receiptgate_guardrails` builds both: pass ``.output_guardrails`` to ``Agent(...)`` and
  ``.hooks`` to ``Runner.run(...)``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal

from agents import Agent, GuardrailFunctionOutput, OutputGuardrail, RunContextWrapper, RunHooks
from agents.tool import Tool
from pydantic import BaseModel

from receiptgate.adapters._ledger import ReceiptLedger, jsonable, now_utc, validate_kwargs
from receiptgate.engine import Gate
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt, TrustLevel
from receiptgate.results import ValidationResult

__all__ = [
    "DEFAULT_TOOL_ERROR",
    "ReceiptgateGuardrails",
    "ReceiptsHooks",
    "TripOn",
    "hook_messages",
    "output_text",
    "receiptgate_guardrails",
    "receiptgate_output_guardrail",
]

TripOn = Literal["block", "flag"]

DEFAULT_TOOL_ERROR = "An error occurred while running the tool. Please try again."
"""What the SDK's default ``failure_error_function`` gives the model when a tool raises."""


def _default_is_error(output: object) -> bool:
    return isinstance(output, str) and output.strip() == DEFAULT_TOOL_ERROR


def output_text(output: Any) -> str:
    """The text of an agent's final output: a string as is, a structured output as JSON."""
    if isinstance(output, str):
        return output
    if isinstance(output, BaseModel):
        return output.model_dump_json()
    return json.dumps(_jsonable(output), ensure_ascii=False)


def _item_text(content: Any) -> str:
    """The text of a Responses input item's content: a string or a list of text parts."""
    if isinstance(content, str):
        return content
    parts: list[str] = []
    if isinstance(content, Sequence):
        for part in content:
            if isinstance(part, Mapping) and part.get("type") in ("input_text", "output_text"):
                parts.append(str(part.get("text", "")))
    return "".join(parts)


def _jsonable(value: Any) -> Any:
    """Like :func:`jsonable`, but an SDK (pydantic) model becomes its JSON dump."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    return jsonable(value)


def _as_dict(item: Any) -> Mapping[str, Any] | None:
    if isinstance(item, Mapping):
        return item
    if isinstance(item, BaseModel):
        dumped: dict[str, Any] = item.model_dump(mode="json", exclude_none=True)
        return dumped
    return None


def content_text(content: Any) -> str:
    """A message's or a tool output's text: a string, text parts, else JSON."""
    if isinstance(content, str):
        return content
    text = _item_text(content)
    if text:
        return text
    return json.dumps(jsonable(content), ensure_ascii=False)


def tool_arguments(raw: Any) -> dict[str, Any]:
    """A tool call's arguments as a JSON object: a mapping, or a JSON string (a non-object
    value, or text that is not JSON, as ``{"input": ...}``)."""
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
                "content": content_text(d.get("output")),
            }
            if call_id is not None:
                message["toolCallId"] = str(call_id)
            out.append(message)
        elif role in ("user", "assistant", "system", "developer"):
            out.append(
                {
                    "role": "system" if role == "developer" else role,
                    "content": content_text(d.get("content")),
                }
            )
    return out


class ReceiptsHooks(ReceiptLedger, RunHooks[Any]):
    """Builds a session's receipts ledger from the Agents SDK's run hooks.

    Pass it to every run of the session (``Runner.run(agent, input, hooks=hooks)``). Each local
    tool call becomes a ``tool`` receipt: id = the model's tool call id, ``tool`` = the tool
    name, ``args`` = its JSON arguments, ``content`` = its output, ``ok`` = ``not
    is_error(output)``, ``meta`` = the agent's name. Each user message the model is given
    becomes a ``user`` receipt, once.

    Args:
        clock: the time stamped on receipts (``created_at``); default: the current UTC time.
        trust: the trust level given to tool receipts (``None``: the kind's default).
        index: an existing ledger to add to (default: a new, empty one).
        is_error: tells a failed tool call by its output. The SDK turns a raised exception into
            a message for the model (``failure_error_function``) before the hooks see it; the
            default recognises the SDK's default message (:data:`DEFAULT_TOOL_ERROR`). Give your
            own when your tools use another ``failure_error_function``.
        record_user_input: record user messages as ``user`` receipts (default ``True``).
    """

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = now_utc,
        trust: TrustLevel | None = None,
        index: ReceiptIndex | None = None,
        is_error: Callable[[object], bool] = _default_is_error,
        record_user_input: bool = True,
    ) -> None:
        ReceiptLedger.__init__(self, clock=clock, trust=trust, index=index)
        self.is_error = is_error
        self.record_user_input = record_user_input
        self._pending: dict[Any, dict[str, Any]] = {}
        self._counter = 0

    # ------------------------------------------------------------------ hooks

    async def on_llm_start(
        self,
        context: RunContextWrapper[Any],
        agent: Agent[Any],
        system_prompt: str | None,
        input_items: list[Any],
    ) -> None:
        if system_prompt:
            self.add_document(system_prompt)  # the agent's instructions: a document receipt
        self._user_receipts(input_items)
        self._reply_receipts(input_items)

    def _reply_receipts(self, input_items: Sequence[Any]) -> None:
        """Records the agent's earlier answers in ``input_items`` (``reply`` receipts: no
        evidence, but what they worked out may be said again)."""
        for item in input_items:
            d = _as_dict(item)
            if d is not None and d.get("role") == "assistant":
                reply_id = d.get("id")
                self.add_reply(
                    _item_text(d.get("content")),
                    message_id=reply_id if isinstance(reply_id, str) else None,
                )

    def _user_receipts(self, input_items: Sequence[Any]) -> list[Receipt]:
        """Records the user messages of ``input_items`` not seen yet; returns their receipts."""
        added: list[Receipt] = []
        if not self.record_user_input:
            return added
        for item in input_items:
            if isinstance(item, Mapping) and item.get("role") == "user":
                item_id = item.get("id")
                receipt = self.add_user_input(
                    _item_text(item.get("content")),
                    message_id=item_id if isinstance(item_id, str) else None,
                )
                if receipt is not None:
                    added.append(receipt)
        return added

    def _key(self, context: RunContextWrapper[Any], tool: Tool) -> Any:
        call_id = getattr(context, "tool_call_id", None)
        return call_id if isinstance(call_id, str) and call_id else (id(context), id(tool))

    async def on_tool_start(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool
    ) -> None:
        raw_args = getattr(context, "tool_arguments", None)
        args = tool_arguments(raw_args) if isinstance(raw_args, str) else {}
        call_id = getattr(context, "tool_call_id", None)
        with self._lock:
            self._pending[self._key(context, tool)] = {
                "tool": str(getattr(context, "tool_name", None) or tool.name),
                "args": args,
                "call_id": call_id if isinstance(call_id, str) and call_id else None,
                "agent": agent.name,
            }

    async def on_tool_end(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool, result: object
    ) -> None:
        self.add(self._tool_receipt(context, agent, tool, result))

    def _tool_receipt(
        self, context: RunContextWrapper[Any], agent: Agent[Any], tool: Tool, result: object
    ) -> Receipt:
        """The ``tool`` receipt of a finished call (its start is taken from the pending list)."""
        with self._lock:
            started = self._pending.pop(self._key(context, tool), None)
            self._counter += 1
            n = self._counter
        if started is None:  # an end without its start: record what we know
            started = {"tool": tool.name, "args": {}, "call_id": None, "agent": agent.name}
        content = result if isinstance(result, str) else output_text(result)
        call_id = started["call_id"]
        return Receipt(
            id=call_id or f"{started['tool']}-{n}",
            kind="tool",
            content=content,
            source="openai-agents",
            created_at=self.clock(),
            trust=self.trust,
            tool=started["tool"],
            args=started["args"],
            ok=not self.is_error(result),
            call_id=call_id,
            meta={"agent": started["agent"]},
        )


class ReceiptgateGuardrails:
    """The session's receipts hooks and the gate as an output guardrail.

    Args:
        gate: the gate to validate with.
        hooks: the session's receipts ledger (default: a new :class:`ReceiptsHooks`).
        trip_on: ``"block"`` (default) trips the guardrail on a blocked answer only;
            ``"flag"`` trips on a flagged one too.
        agent_id, trust, channel: passed to ``gate.validate``; ``agent_id=None`` uses the SDK
            agent's ``name`` when ``agent_id_from_agent`` is true (default false).
        now: the reference time, or a callable giving it per call (default: the current time).
        name: the guardrail's name (shown in traces and in the tripwire exception).

    ``last_result`` holds the last validation (``None`` before the first one).
    """

    def __init__(
        self,
        gate: Gate,
        *,
        hooks: ReceiptsHooks | None = None,
        trip_on: TripOn = "block",
        agent_id: str | None = None,
        agent_id_from_agent: bool = False,
        trust: int | None = None,
        channel: str | None = None,
        now: datetime | Callable[[], datetime] | None = None,
        name: str = "receiptgate",
    ) -> None:
        if trip_on not in ("block", "flag"):
            raise ValueError(f'trip_on must be "block" or "flag", got {trip_on!r}')
        self.gate = gate
        self.hooks = hooks if hooks is not None else ReceiptsHooks()
        self.trip_on: TripOn = trip_on
        self.agent_id = agent_id
        self.agent_id_from_agent = agent_id_from_agent
        self.trust = trust
        self.channel = channel
        self.now = now
        self.last_result: ValidationResult | None = None
        self.output_guardrail: OutputGuardrail[Any] = OutputGuardrail(
            guardrail_function=self._guardrail, name=name
        )

    @property
    def output_guardrails(self) -> list[OutputGuardrail[Any]]:
        """What to pass as ``Agent(output_guardrails=...)``."""
        return [self.output_guardrail]

    @property
    def index(self) -> ReceiptIndex:
        """The session's receipts ledger."""
        return self.hooks.index

    def check(self, text: str, *, agent_id: str | None = None) -> ValidationResult:
        """Validates a text against the hooks' receipts (no tripwire decision)."""
        result = self.gate.validate(
            text,
            receipts=self.hooks.index,
            **validate_kwargs(
                "openai-agents", agent_id or self.agent_id, self.trust, self.channel, self.now
            ),
        )
        self.last_result = result
        return result

    def trips(self, result: ValidationResult) -> bool:
        """Whether ``result`` trips the guardrail under ``trip_on``."""
        return result.verdict == "block" or (self.trip_on == "flag" and result.verdict == "flag")

    def _guardrail(
        self, context: RunContextWrapper[Any], agent: Agent[Any], output: Any
    ) -> GuardrailFunctionOutput:
        agent_id = self.agent_id or (agent.name if self.agent_id_from_agent else None)
        result = self.check(output_text(output), agent_id=agent_id)
        return GuardrailFunctionOutput(
            output_info=result.to_dict(), tripwire_triggered=self.trips(result)
        )


def receiptgate_guardrails(
    gate: Gate,
    *,
    hooks: ReceiptsHooks | None = None,
    trip_on: TripOn = "block",
    agent_id: str | None = None,
    agent_id_from_agent: bool = False,
    trust: int | None = None,
    channel: str | None = None,
    now: datetime | Callable[[], datetime] | None = None,
    name: str = "receiptgate",
) -> ReceiptgateGuardrails:
    """The receipts hooks and the output guardrail for one session.

    ``Agent(..., output_guardrails=rg.output_guardrails)`` and
    ``Runner.run(agent, input, hooks=rg.hooks)``; see :class:`ReceiptgateGuardrails`.
    """
    return ReceiptgateGuardrails(
        gate,
        hooks=hooks,
        trip_on=trip_on,
        agent_id=agent_id,
        agent_id_from_agent=agent_id_from_agent,
        trust=trust,
        channel=channel,
        now=now,
        name=name,
    )


def receiptgate_output_guardrail(
    gate: Gate,
    hooks: ReceiptsHooks,
    *,
    trip_on: TripOn = "block",
    agent_id: str | None = None,
    trust: int | None = None,
    channel: str | None = None,
    now: datetime | Callable[[], datetime] | None = None,
    name: str = "receiptgate",
) -> OutputGuardrail[Any]:
    """The gate as one ``OutputGuardrail`` reading ``hooks``' receipts.

    The hooks must be passed to the runs that produce the receipts
    (``Runner.run(..., hooks=hooks)``).
    """
    return ReceiptgateGuardrails(
        gate,
        hooks=hooks,
        trip_on=trip_on,
        agent_id=agent_id,
        trust=trust,
        channel=channel,
        now=now,
        name=name,
    ).output_guardrail
