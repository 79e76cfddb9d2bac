"""LangChain / LangGraph adapter: build the receipts ledger from callbacks, gate the answer.

``langchain-core`` only (``pip install 'receiptgate[langchain]'``)::

    handler = ReceiptsCallbackHandler()
    config = {"callbacks": [handler]}
    ...  # run the agent with `config`: every tool run and human message becomes a receipt
    answer = GatedRunnable(agent, gate, handler).invoke(inputs)  # or agent | gate_output(...)

- :class:`ReceiptsCallbackHandler` turns tool runs (``on_tool_start`` / ``on_tool_end`` /
  ``on_tool_error``: run id, tool call id, tool name, inputs, output) and human messages seen
  by chat models (``on_chat_model_start``) into :class:`~receiptgate.Receipt` objects in one
  :class:`~receiptgate.ReceiptIndex` per session.
- :class:`GatedRunnable` wraps a runnable (an agent, a graph, a chain): it runs it with the
  handler attached, validates the final answer against the handler's receipts, and returns the
  text that may be delivered, or raises :class:`BlockedOutput` carrying the result.
- :func:`gate_output` is the same gate as a ``RunnableLambda`` to pipe after a runnable.
- :func:`to_wire_messages`, :func:`bound_tool_names`, :func:`model_name` and
  :func:`with_handler` read LangChain's messages and callback arguments into the hook
  events' JSON; the service mode (:mod:`receiptgate.adapters.langchain_service`) uses them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.runnables import Runnable, RunnableConfig, RunnableLambda
from langchain_core.runnables.config import ensure_config

from receiptgate.adapters._ledger import ReceiptLedger, jsonable, now_utc, validate_kwargs
from receiptgate.engine import Gate
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt, TrustLevel
from receiptgate.results import ValidationResult

__all__ = [
    "BlockedOutput",
    "GatedRunnable",
    "OnBlock",
    "ReceiptsCallbackHandler",
    "final_text",
    "gate_output",
    "to_wire_messages",
]

OnBlock = Literal["raise", "replace"]


def message_text(message: BaseMessage) -> str:
    """A message's text: its string content, or the text blocks of a content list."""
    content = message.content
    if isinstance(content, str):
        return content
    parts: list[str] = []
    for block in content:
        if isinstance(block, str):
            parts.append(block)
        elif isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
    return "".join(parts)


def final_text(output: Any) -> str:
    """The final answer in a runnable's output.

    Accepts a string, a message (an ``AIMessage``), a list of messages (the last one), a
    mapping with ``"messages"`` (a LangGraph state: the last message) or ``"output"`` (an
    agent executor's answer), LangGraph's ``GraphOutput`` (``invoke(..., version="v2")``:
    its ``value``), or an object with a ``messages`` list (a Pydantic or dataclass state).

    Raises:
        TypeError: no text can be found in the output.
    """
    if isinstance(output, str):
        return output
    if isinstance(output, BaseMessage):
        return message_text(output)
    if isinstance(output, Sequence) and output and isinstance(output[-1], BaseMessage):
        return message_text(output[-1])
    if isinstance(output, Mapping):
        if "messages" in output:
            return final_text(output["messages"])
        if "output" in output:
            return final_text(output["output"])
    elif hasattr(output, "value") and hasattr(output, "interrupts"):  # LangGraph's GraphOutput
        return final_text(output.value)
    else:
        messages = getattr(output, "messages", None)
        if isinstance(messages, Sequence) and not isinstance(messages, str | bytes):
            return final_text(messages)
    raise TypeError(f"cannot find the final answer's text in a {type(output).__name__}")


def tool_call_wire(call: Mapping[str, Any]) -> dict[str, Any]:
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
                entry["toolCalls"] = [tool_call_wire(c) for c in m.tool_calls]
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


def bound_tool_names(params: Any) -> list[str] | None:
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


def model_name(params: Any) -> str | None:
    if isinstance(params, Mapping):
        for key in ("model", "model_name", "model_id"):
            if isinstance(params.get(key), str):
                return str(params[key])
    return None


def with_handler(config: RunnableConfig | None, handler: BaseCallbackHandler) -> RunnableConfig:
    """A copy of ``config`` whose callbacks include ``handler`` (once; inherited by child
    runs when the callbacks are a manager)."""
    cfg = ensure_config(config)
    callbacks = cfg.get("callbacks")
    if callbacks is None:
        cfg["callbacks"] = [handler]
    elif isinstance(callbacks, list):
        if handler not in callbacks:
            cfg["callbacks"] = [*callbacks, handler]
    else:  # a callback manager
        manager = callbacks.copy()
        manager.add_handler(handler, inherit=True)
        cfg["callbacks"] = manager
    return cfg


class ReceiptsCallbackHandler(ReceiptLedger, BaseCallbackHandler):
    """Builds a session's receipts ledger from LangChain callbacks.

    Attach it to every run of the session (``config={"callbacks": [handler]}``, or let
    :class:`GatedRunnable` attach it). Each finished tool run becomes a ``tool`` receipt: id =
    the model's tool call id (or the run id), ``tool`` = the tool name, ``args`` = its inputs,
    ``content`` = its output, ``ok`` = whether it succeeded, ``meta`` = run ids. Each human
    message a chat model is given becomes a ``user`` receipt, once.

    Args:
        clock: the time stamped on receipts (``created_at``); default: the current UTC time.
        trust: the trust level given to tool receipts (``None``: the kind's default).
        index: an existing ledger to add to (default: a new, empty one).
    """

    raise_error = True  # a ledger that silently misses receipts would be wrong evidence
    run_inline = True

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = now_utc,
        trust: TrustLevel | None = None,
        index: ReceiptIndex | None = None,
    ) -> None:
        ReceiptLedger.__init__(self, clock=clock, trust=trust, index=index)
        self._pending: dict[UUID, dict[str, Any]] = {}

    # ------------------------------------------------------------------ callbacks

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
        for batch in messages:
            for m in batch:
                if isinstance(m, HumanMessage):
                    self.add_user_input(message_text(m), message_id=m.id)
                elif isinstance(m, SystemMessage):
                    self.add_document(message_text(m))
                elif isinstance(m, AIMessage):
                    # the agent's earlier answer in the history: no evidence
                    self.add_reply(message_text(m), message_id=m.id)

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
        name = kwargs.get("name") or (serialized or {}).get("name") or "tool"
        args: dict[str, Any] = dict(inputs) if inputs is not None else {"input": input_str}
        with self._lock:
            self._pending[run_id] = {
                "tool": str(name),
                "args": jsonable(args),
                "call_id": kwargs.get("tool_call_id"),
                "parent_run_id": parent_run_id,
                "started_at": self.clock(),
            }

    def on_tool_end(
        self, output: Any, *, run_id: UUID, parent_run_id: UUID | None = None, **kwargs: Any
    ) -> None:
        ok = True
        call_id: str | None = None
        if isinstance(output, ToolMessage):
            ok = output.status != "error"
            call_id = output.tool_call_id
            content = message_text(output)
        elif isinstance(output, str):
            content = output
        else:
            content = json.dumps(jsonable(output), ensure_ascii=False)
        self._finish(run_id, content, ok=ok, call_id=call_id)

    def on_tool_error(
        self,
        error: BaseException,
        *,
        run_id: UUID,
        parent_run_id: UUID | None = None,
        **kwargs: Any,
    ) -> None:
        self._finish(run_id, f"{type(error).__name__}: {error}", ok=False, call_id=None)

    def _finish(self, run_id: UUID, content: str, *, ok: bool, call_id: str | None) -> None:
        with self._lock:
            started = self._pending.pop(run_id, None)
        if started is None:  # a tool end without its start: record what we know
            started = {"tool": "tool", "args": {}, "call_id": None, "parent_run_id": None}
        call_id = call_id or started["call_id"]
        meta: dict[str, Any] = {"run_id": str(run_id)}
        if started["parent_run_id"] is not None:
            meta["parent_run_id"] = str(started["parent_run_id"])
        self.add(
            Receipt(
                id=call_id or str(run_id),
                kind="tool",
                content=content,
                source="langchain",
                created_at=self.clock(),
                trust=self.trust,
                tool=started["tool"],
                args=started["args"],
                ok=ok,
                call_id=call_id,
                meta=meta,
            )
        )


class BlockedOutput(Exception):
    """The gate blocked the final answer; ``result`` holds the whole validation."""

    def __init__(self, result: ValidationResult) -> None:
        reasons = "; ".join(r for s in result.sentences for r in s.reasons) or result.reason
        super().__init__(f"receiptgate blocked the answer: {reasons}")
        self.result = result


def _deliver(result: ValidationResult, text: str, on_block: OnBlock) -> str:
    if result.verdict == "block" and on_block == "raise":
        raise BlockedOutput(result)
    return result.delivered_text if result.delivered_text is not None else text


class GatedRunnable(Runnable[Any, str]):
    """Runs a runnable with the receipts handler attached, then gates its final answer.

    Args:
        runnable: the agent, graph or chain; its output holds the final answer (see
            :func:`final_text`).
        gate: the gate to validate with.
        handler: the session's receipts ledger (attached to every run of ``runnable``).
        on_block: ``"raise"`` (default) raises :class:`BlockedOutput`; ``"replace"`` returns
            the delivered text (the policy's block notice, or the answer without the blocked
            sentences).
        agent_id, trust, channel: passed to ``gate.validate``.
        now: the reference time, or a callable giving it per call (default: the current time).

    ``invoke`` returns the text that may be delivered (the answer itself when it passes; with
    annotations when it flags). ``last_result`` holds the last validation.
    """

    def __init__(
        self,
        runnable: Runnable[Any, Any],
        gate: Gate,
        handler: ReceiptsCallbackHandler,
        *,
        on_block: OnBlock = "raise",
        agent_id: str | None = None,
        trust: int | None = None,
        channel: str | None = None,
        now: datetime | Callable[[], datetime] | None = None,
    ) -> None:
        if on_block not in ("raise", "replace"):
            raise ValueError(f'on_block must be "raise" or "replace", got {on_block!r}')
        self.runnable = runnable
        self.gate = gate
        self.handler = handler
        self.on_block: OnBlock = on_block
        self.agent_id = agent_id
        self.trust = trust
        self.channel = channel
        self.now = now
        self.last_result: ValidationResult | None = None

    def _config(self, config: RunnableConfig | None) -> RunnableConfig:
        return with_handler(config, self.handler)

    def check(self, text: str) -> ValidationResult:
        """Validates a text against the handler's receipts (no delivery decision)."""
        result = self.gate.validate(
            text,
            receipts=self.handler.index,
            **validate_kwargs("langchain", self.agent_id, self.trust, self.channel, self.now),
        )
        self.last_result = result
        return result

    def invoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> str:
        output = self.runnable.invoke(input, self._config(config), **kwargs)
        text = final_text(output)
        return _deliver(self.check(text), text, self.on_block)

    async def ainvoke(self, input: Any, config: RunnableConfig | None = None, **kwargs: Any) -> str:
        output = await self.runnable.ainvoke(input, self._config(config), **kwargs)
        text = final_text(output)
        return _deliver(self.check(text), text, self.on_block)


def gate_output(
    gate: Gate,
    handler: ReceiptsCallbackHandler,
    *,
    on_block: OnBlock = "raise",
    agent_id: str | None = None,
    trust: int | None = None,
    channel: str | None = None,
    now: datetime | Callable[[], datetime] | None = None,
) -> RunnableLambda[Any, str]:
    """The gate as a runnable step: ``agent | gate_output(gate, handler)``.

    It takes the previous step's output (see :func:`final_text`), validates it against the
    handler's receipts, and returns the delivered text or raises :class:`BlockedOutput`.
    The handler must be attached to the runs that produce the receipts.
    """
    if on_block not in ("raise", "replace"):
        raise ValueError(f'on_block must be "raise" or "replace", got {on_block!r}')

    def step(output: Any) -> str:
        text = final_text(output)
        result = gate.validate(
            text,
            receipts=handler.index,
            **validate_kwargs("langchain", agent_id, trust, channel, now),
        )
        return _deliver(result, text, on_block)

    return RunnableLambda(step, name="receiptgate")
