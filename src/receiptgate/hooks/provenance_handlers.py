"""Provenance handlers: one :class:`~receiptgate.provenance.TurnGraph` per turn,
with the declarative policies applied at the agent-loop hooks (seed 002, SPEC §7).

=========================  ==========================================================
``context_assembled``      starts the turn's graph: system prompt, user messages,
                           history and tool results, each with its trust
``loop_iteration_start``   enters the iteration; blocks a runaway loop
``before_llm_call``        records new messages (tool results with their trust), an
                           ``llm_call`` node; removes tools (``remove_tools``);
                           blocks the turn (``block_turn``)
``after_llm_call``         records the output and its tool calls; filters calls to
                           removed or blocked tools; blocks the turn
``before_tool_call``       blocks a call of a removed or blocked tool
``loop_iteration_end``     enters the iteration (bookkeeping only)
``agent_end``              finishes the graph and hands it to ``on_turn_end``
=========================  ==========================================================

Turns are keyed by the event's ``sessionKey`` and, when the runtime sends one, its
``turnId`` (or ``runId``). Tool results reach the graph as the ``toolResult`` (or
``tool``) messages of the next ``before_llm_call`` (``toolName``, ``toolCallId``),
or through :meth:`ProvenanceHooks.record_tool_result`.

Every decision is a ``policy_decision`` node (rule, action, stage and reason in its
metadata, derived from the nodes that made the rule fire), and a filtered call is a
blocked ``tool_call`` node, so ``graph.summary()`` lists the blocked tools and the
OpenTelemetry export carries the reasons.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from receiptgate._exceptions import InputError
from receiptgate.hooks.dispatcher import FailMode, HookDispatcher
from receiptgate.hooks.events import (
    AfterLlmCall,
    AgentEnd,
    AgentMessage,
    BeforeLlmCall,
    BeforeToolCall,
    ContextAssembled,
    ContextSource,
    HookEvent,
    HookResult,
    LoopIterationEnd,
    LoopIterationStart,
)
from receiptgate.provenance.graph import (
    PREVIEW_CHARS,
    GraphNode,
    NodeKind,
    TurnGraph,
    mask_secrets,
)
from receiptgate.provenance.graph import content_hash as _hash
from receiptgate.provenance.policies import (
    PolicyEvaluation,
    PolicyRule,
    PolicySet,
    RuleMatch,
)
from receiptgate.provenance.trust import TRUST_LEVELS, ToolTrust, TrustLevel, lowest

__all__ = ["DEFAULT_PRIORITY", "OnTurnEnd", "ProvenanceHooks"]

logger = logging.getLogger("receiptgate.provenance")

#: Runs before the gate's handlers (1000) so the graph sees each event as sent.
DEFAULT_PRIORITY = 1100

#: Called with the finished graph at ``agent_end``.
OnTurnEnd = Callable[[TurnGraph], None]

_TOOL_ROLES = frozenset({"tool", "toolResult", "tool_result"})


def _extra(model: Any, *keys: str) -> Any:
    extra = getattr(model, "model_extra", None) or {}
    for key in keys:
        if extra.get(key) is not None:
            return extra[key]
    return None


def _trust(value: Any) -> TrustLevel | None:
    """A stated trust; an unknown name is read as ``untrusted`` (never more trust)."""
    if value is None:
        return None
    if isinstance(value, str) and value in TRUST_LEVELS:
        return value
    return "untrusted"


def _args(arguments: Mapping[str, Any] | str | None) -> dict[str, Any]:
    if isinstance(arguments, Mapping):
        return dict(arguments)
    if isinstance(arguments, str):
        try:
            parsed = json.loads(arguments)
        except ValueError:
            return {}
        return parsed if isinstance(parsed, dict) else {}
    return {}


@dataclass(slots=True)
class _Call:
    node: str
    tool: str
    args: dict[str, Any]


@dataclass(slots=True)
class _Turn:
    graph: TurnGraph
    started: float
    seen: set[str] = field(default_factory=set)
    pending: list[str] = field(default_factory=list)  # sources since the last llm_call
    last_call: str | None = None  # the last llm_call node
    last_output: str | None = None  # the last llm_output node
    calls: dict[str, _Call] = field(default_factory=dict)
    decided: dict[tuple[str, str | None, str, int | None], str] = field(default_factory=dict)


class ProvenanceHooks:
    """Builds the per-turn provenance graph and enforces the provenance policies.

    Args:
        policies: a :class:`PolicySet` (e.g. from
            :func:`~receiptgate.provenance.policies.load_provenance_policies`), a list
            of rules (built-ins on), or ``None`` (the built-in safety rules only).
        tool_trust: the tool trust classification (seed defaults when omitted).
        on_turn_end: called with the finished graph at ``agent_end`` (to persist or
            export it; :func:`~receiptgate.provenance.policies.policy_flags` says
            whether a rule asked for it).
        preview_chars: length of content previews in the graph (0: none).
        max_turns: open turns kept at most; the oldest is finished and handed to
            ``on_turn_end`` when a runtime never sends ``agent_end``.
        clock: epoch seconds, for timestamps.
    """

    def __init__(
        self,
        policies: PolicySet | Sequence[PolicyRule] | None = None,
        tool_trust: ToolTrust | None = None,
        on_turn_end: OnTurnEnd | None = None,
        *,
        preview_chars: int = PREVIEW_CHARS,
        max_turns: int = 1000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if policies is None:
            policies = PolicySet()
        elif not isinstance(policies, PolicySet):
            policies = PolicySet(tuple(policies))
        self.policies: PolicySet = policies
        self.tool_trust = tool_trust if tool_trust is not None else ToolTrust()
        self.on_turn_end = on_turn_end
        self.preview_chars = preview_chars
        self.max_turns = max(1, max_turns)
        self.clock = clock
        self.last_graph: TurnGraph | None = None
        self._turns: dict[str, _Turn] = {}
        # Turn keys of recently finished turns and their turn ids, so that an event
        # arriving after agent_end (message_sending) is still linked to its turn.
        self._finished: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.RLock()
        self._count = 0

    # -------------------------------------------------------------- turns

    @staticmethod
    def turn_key(event: HookEvent) -> str:
        """``sessionKey`` plus the runtime's ``turnId``/``runId`` when it sends one."""
        turn = _extra(event, "turnId", "turn_id", "runId", "run_id")
        return f"{event.session_key or ''}#{turn if turn is not None else ''}"

    def graph(self, event_or_key: HookEvent | str) -> TurnGraph | None:
        """The open graph of a turn (by event or :meth:`turn_key`), if any."""
        key = event_or_key if isinstance(event_or_key, str) else self.turn_key(event_or_key)
        with self._lock:
            turn = self._turns.get(key)
            return turn.graph if turn is not None else None

    def turn_id_of(self, event: HookEvent) -> str | None:
        """The id of the turn ``event`` belongs to: its open turn, else the turn that
        last finished under the same key, else the runtime's own ``turnId``/``runId``.
        ``None`` when the event names no turn and none was seen for its session."""
        key = self.turn_key(event)
        with self._lock:
            turn = self._turns.get(key)
            if turn is not None:
                return turn.graph.turn_id
            finished = self._finished.get(key)
        if finished is not None:
            return finished
        explicit = _extra(event, "turnId", "turn_id", "runId", "run_id")
        return None if explicit is None else str(explicit)

    def audit_ids(self, event: HookEvent | None) -> tuple[str | None, str | None]:
        """The session and turn ids a hook's validations are audited under: the event's
        ``sessionKey`` and :meth:`turn_id_of` (``None`` for what is unknown)."""
        if event is None:
            return None, None
        return event.session_key or None, self.turn_id_of(event)

    @property
    def open_turns(self) -> list[str]:
        with self._lock:
            return list(self._turns)

    def _new_turn(self, event: HookEvent) -> _Turn:
        key = self.turn_key(event)
        old = self._turns.pop(key, None)
        if old is not None:
            logger.warning("provenance: turn %s restarted before agent_end; finishing it", key)
            self._finish(key, old, None)
        while len(self._turns) >= self.max_turns:
            oldest = next(iter(self._turns))
            logger.warning(
                "provenance: more than %d open turns; finishing %s", self.max_turns, oldest
            )
            self._finish(oldest, self._turns.pop(oldest), None)
        self._count += 1
        turn_id = _extra(event, "turnId", "turn_id", "runId", "run_id")
        now = self.clock()
        graph = TurnGraph(
            str(turn_id) if turn_id is not None else f"{event.session_key or 'turn'}-{self._count}",
            session_key=event.session_key or "",
            agent_id=event.agent_id,
            tool_trust=self.tool_trust,
            preview_chars=self.preview_chars,
            timestamp=now,
        )
        turn = _Turn(graph, now)
        self._turns[key] = turn
        return turn

    def _turn(self, event: HookEvent, iteration: int | None = None) -> _Turn:
        turn = self._turns.get(self.turn_key(event)) or self._new_turn(event)
        if iteration is not None and turn.graph.iteration != iteration:
            turn.graph.begin_iteration(iteration)
        return turn

    def _finish(self, key: str, turn: _Turn, duration_ms: float | None) -> TurnGraph:
        graph = turn.graph
        with self._lock:
            self._finished[key] = graph.turn_id
            self._finished.move_to_end(key)
            while len(self._finished) > self.max_turns:
                self._finished.popitem(last=False)
        if duration_ms is None:
            duration_ms = max(0.0, (self.clock() - turn.started) * 1000.0)
        graph.finish(duration_ms)
        self.last_graph = graph
        if self.on_turn_end is not None:
            self.on_turn_end(graph)
        return graph

    # -------------------------------------------------------------- recording

    def _add_source(
        self,
        turn: _Turn,
        kind: NodeKind,
        content: Any,
        *,
        trust: TrustLevel | None,
        tool: str | None = None,
        call_id: str | None = None,
        source: str | None = None,
    ) -> GraphNode:
        g = turn.graph
        at = self.clock()
        if kind == "tool_result":
            name = tool or "unknown_tool"
            call = turn.calls.get(call_id) if call_id is not None else None
            args = call.args if call is not None else {}
            classified = g.tool_trust.trust_of(name, args)
            url = args.get("url")
            node = g.add_tool_result(
                name,
                content,
                args=args,
                call=call.node if call is not None else None,
                source=source or (url if isinstance(url, str) else None),
                trust=lowest(classified, trust) if trust is not None else classified,
                at=at,
                metadata={"toolCallId": call_id} if call_id is not None else None,
            )
        else:
            node = g.add_node(kind, content, trust=trust, tool=tool, source=source, at=at)
        turn.pending.append(node.id)
        return node

    def _record_messages(
        self,
        turn: _Turn,
        messages: Sequence[AgentMessage],
        sources: Mapping[int, ContextSource] | None = None,
        *,
        history: bool = False,
    ) -> None:
        """Adds the messages not seen yet in this turn as source nodes."""
        for i, m in enumerate(messages):
            src = sources.get(i) if sources else None
            role = m.role or ""
            call_id = _extra(m, "toolCallId", "tool_call_id")
            text = m.text
            content: Any = text if text is not None else m.to_json()
            key = f"{role}|{call_id or ''}|{_hash(content)}"
            if key in turn.seen:
                continue
            turn.seen.add(key)
            stated = _trust(src.trust if src is not None and src.trust else _extra(m, "trust"))
            tool = (src.tool if src is not None else None) or _extra(
                m, "toolName", "tool_name", "name"
            )
            kind_of = src.kind if src is not None else None
            kind: NodeKind | None
            if kind_of == "system_prompt" or (kind_of is None and role == "system"):
                kind = None  # the system prompt node stands for it
            elif kind_of == "user_message" or (kind_of is None and role == "user"):
                kind = "user_message"
            elif kind_of == "tool_result" or (kind_of is None and role in _TOOL_ROLES):
                kind = "tool_result"
            elif kind_of == "compacted_history" or (kind_of is None and history):
                kind, stated = "history", stated or "local"
            elif kind_of is not None:
                kind, stated = "context", stated or "untrusted"
            else:
                kind = None  # this turn's own assistant output: already an llm_output
            if kind is None:
                continue
            self._add_source(
                turn,
                kind,
                content,
                trust=stated,
                tool=str(tool) if tool is not None and kind == "tool_result" else None,
                call_id=str(call_id) if call_id is not None else None,
                source=_extra(m, "source"),
            )

    def record_tool_result(
        self,
        event: HookEvent,
        tool: str,
        content: Any,
        *,
        tool_call_id: str | None = None,
        trust: TrustLevel | None = None,
        source: str | None = None,
    ) -> GraphNode:
        """Adds a tool result to ``event``'s turn directly (for runtimes that report
        results outside the messages of ``before_llm_call``)."""
        with self._lock:
            turn = self._turn(event)
            key = f"toolResult|{tool_call_id or ''}|{_hash(content)}"
            turn.seen.add(key)
            return self._add_source(
                turn,
                "tool_result",
                content,
                trust=trust,
                tool=tool,
                call_id=tool_call_id,
                source=source,
            )

    def _origin(self, turn: _Turn) -> list[str]:
        for nid in (turn.last_output, turn.last_call):
            if nid is not None:
                return [nid]
        return list(turn.pending)

    def _decide(
        self,
        turn: _Turn,
        match: RuleMatch,
        *,
        action: str,
        stage: str,
        tool: str | None = None,
        blocked: bool = True,
    ) -> str:
        """The ``policy_decision`` node for ``match`` (one per rule, action, tool and
        iteration; the audit flags once per turn)."""
        g = turn.graph
        per_turn = action in ("log_full_context", "persist_graph")
        key = (match.rule.name, tool, action, None if per_turn else g.iteration)
        if key in turn.decided:
            return turn.decided[key]
        inputs = list(match.triggers)
        node = g.add_node(
            "policy_decision",
            trust=None if inputs else "system",
            inputs=inputs,
            tool=tool,
            blocked=blocked,
            block_reason=match.reason if blocked else None,
            at=self.clock(),
            metadata={"rule": match.rule.name, "action": action, "stage": stage},
        )
        turn.decided[key] = node.id
        logger.info(
            "provenance: turn %s iteration %s: %s %s%s",
            *(g.turn_id, g.iteration, match.rule.name, action, f" {tool}" if tool else ""),
        )
        return node.id

    def _flags(self, turn: _Turn, ev: PolicyEvaluation, stage: str) -> None:
        for m in ev.matches:
            for action in ("log_full_context", "persist_graph"):
                if getattr(m.rule.action, action):
                    self._decide(turn, m, action=action, stage=stage, blocked=False)

    def _block_turn(self, turn: _Turn, ev: PolicyEvaluation, stage: str) -> HookResult | None:
        if not ev.block_turn:
            return None
        for m in ev.matches:
            if m.rule.action.block_turn:
                self._decide(turn, m, action="block_turn", stage=stage)
        return HookResult(block=True, block_reason=f"provenance: {ev.block_reason}")

    # -------------------------------------------------------------- handlers

    def context_assembled(self, event: HookEvent) -> None:
        """Starts the turn's graph from the assembled context."""
        assert isinstance(event, ContextAssembled)
        with self._lock:
            turn = self._new_turn(event)
            system = turn.graph.add_node(
                "system", event.system_prompt, source="systemPrompt", at=self.clock()
            )
            turn.pending.append(system.id)
            sources: dict[int, ContextSource] = {}
            for s in event.sources:
                if s.message_index is not None:
                    sources[s.message_index] = s
            self._record_messages(turn, event.messages, sources, history=True)
        return None

    def loop_iteration_start(self, event: HookEvent) -> HookResult | None:
        """Enters the iteration; blocks the turn when a rule says so (runaway loop)."""
        assert isinstance(event, LoopIterationStart)
        with self._lock:
            turn = self._turn(event, event.iteration)
            ev = self.policies.evaluate(turn.graph, event.iteration)
            self._flags(turn, ev, event.name)
            return self._block_turn(turn, ev, event.name)

    def loop_iteration_end(self, event: HookEvent) -> None:
        assert isinstance(event, LoopIterationEnd)
        with self._lock:
            self._turn(event, event.iteration)
        return None

    def before_llm_call(self, event: HookEvent) -> HookResult | None:
        """Records the call; removes tools and blocks the turn per the policies."""
        assert isinstance(event, BeforeLlmCall)
        with self._lock:
            turn = self._turn(event, event.iteration)
            g = turn.graph
            if event.system_prompt and not g.nodes:
                turn.pending.append(
                    g.add_node("system", event.system_prompt, source="systemPrompt").id
                )
            self._record_messages(turn, event.messages)
            names = [t.name for t in event.tools]
            inputs = [*([turn.last_call] if turn.last_call else []), *turn.pending]
            context = {
                "systemPrompt": event.system_prompt,
                "messages": [m.to_json() for m in event.messages],
            }
            call = g.add_node(
                "llm_call",
                context,
                trust=None if inputs else "system",
                inputs=inputs,
                at=self.clock(),
                metadata={"model": event.model, "tools": names},
            )
            call.content_preview = None  # the context's sources have their own previews
            turn.pending = []
            turn.last_call, turn.last_output = call.id, None

            ev = self.policies.evaluate(g, event.iteration)
            self._flags(turn, ev, event.name)
            if ev.log_full_context:
                full = json.dumps(context, ensure_ascii=False, default=str)
                call.metadata["fullContext"] = mask_secrets(full)
                logger.info("provenance: turn %s full context: %s", g.turn_id, mask_secrets(full))
            kept = []
            removed: list[str] = []
            for tool in event.tools:
                m = ev.removing(tool.name)
                if m is None:
                    kept.append(tool)
                    continue
                removed.append(tool.name)
                decision = self._decide(
                    turn, m, action="remove_tools", stage=event.name, tool=tool.name
                )
                g.link(call.id, decision, "blocked_by")
            if removed:
                call.metadata["removedTools"] = removed
            blocked = self._block_turn(turn, ev, event.name)
            if blocked is not None:
                call.blocked, call.block_reason = True, blocked.block_reason
            if not removed and blocked is None:
                return None
            return HookResult(
                tools=kept if removed else None,
                block=blocked.block if blocked is not None else None,
                block_reason=blocked.block_reason if blocked is not None else None,
            )

    def after_llm_call(self, event: HookEvent) -> HookResult | None:
        """Records the output and its tool calls; filters calls the policies forbid."""
        assert isinstance(event, AfterLlmCall)
        with self._lock:
            turn = self._turn(event, event.iteration)
            g = turn.graph
            if turn.last_call is None:
                self._record_messages(turn, event.messages)
                inputs = list(turn.pending)
                turn.last_call = g.add_node(
                    "llm_call", trust=None if inputs else "system", inputs=inputs
                ).id
                turn.pending = []
            response = event.response
            text = response.text if response is not None else None
            content: Any = text if text else [c.to_json() for c in event.tool_calls]
            out = g.add_node(
                "llm_output",
                content,
                inputs=[turn.last_call],
                at=self.clock(),
                metadata={"model": event.model, "toolCalls": [c.name for c in event.tool_calls]},
            )
            turn.last_output = out.id
            ev = self.policies.evaluate(g, event.iteration)
            self._flags(turn, ev, event.name)
            kept = []
            for c in event.tool_calls:
                args = _args(c.arguments)
                node = g.add_node("tool_call", args, tool=c.name, inputs=[out.id], at=self.clock())
                if c.id is not None:
                    node.metadata["toolCallId"] = c.id
                    turn.calls[c.id] = _Call(node.id, c.name, args)
                m = ev.blocking_call(c.name, args)
                if m is None:
                    kept.append(c)
                    continue
                action = "remove_tools" if self._removes(m, c.name, args) else "block_tools"
                node.blocked, node.block_reason = True, m.reason
                decision = self._decide(turn, m, action=action, stage=event.name, tool=c.name)
                g.link(node.id, decision, "blocked_by")
            blocked = self._block_turn(turn, ev, event.name)
            filtered = len(kept) != len(event.tool_calls)
            if not filtered and blocked is None:
                return None
            return HookResult(
                tool_calls=kept if filtered else None,
                block=blocked.block if blocked is not None else None,
                block_reason=blocked.block_reason if blocked is not None else None,
            )

    @staticmethod
    def _removes(m: RuleMatch, tool: str, args: Mapping[str, Any]) -> bool:
        return any(s.matches_call(tool, args) for s in m.rule.action.removed)

    def before_tool_call(self, event: HookEvent) -> HookResult | None:
        """Blocks a call of a tool the policies removed or blocked (or a blocked turn)."""
        assert isinstance(event, BeforeToolCall)
        with self._lock:
            turn = self._turn(event)
            g = turn.graph
            call_id = _extra(event, "toolCallId", "tool_call_id", "callId")
            known = turn.calls.get(str(call_id)) if call_id is not None else None
            if known is not None:
                node = g.node(known.node)
            else:
                origin = self._origin(turn)
                node = g.add_node(
                    "tool_call",
                    event.params,
                    trust=None if origin else "local",
                    inputs=origin,
                    tool=event.tool_name,
                    at=self.clock(),
                )
                if call_id is not None:
                    node.metadata["toolCallId"] = str(call_id)
                    turn.calls[str(call_id)] = _Call(node.id, event.tool_name, dict(event.params))
            ev = self.policies.evaluate(g)
            self._flags(turn, ev, event.name)
            m = ev.blocking_call(event.tool_name, event.params)
            reasons: list[str] = []
            if m is not None:
                action = (
                    "remove_tools"
                    if self._removes(m, event.tool_name, event.params)
                    else "block_tools"
                )
                decision = self._decide(
                    turn, m, action=action, stage=event.name, tool=event.tool_name
                )
                if not node.blocked:
                    node.blocked, node.block_reason = True, m.reason
                    g.link(node.id, decision, "blocked_by")
                reasons.append(m.reason)
            blocked = self._block_turn(turn, ev, event.name)
            if blocked is not None and blocked.block_reason:
                reasons.append(blocked.block_reason.removeprefix("provenance: "))
            if not reasons:
                return None
            return HookResult(block=True, block_reason="provenance: " + "; ".join(reasons))

    def agent_end(self, event: HookEvent) -> None:
        """Finishes the turn's graph and hands it to ``on_turn_end``."""
        assert isinstance(event, AgentEnd)
        key = self.turn_key(event)
        with self._lock:
            turn = self._turns.pop(key, None)
            if turn is None:
                return None
            g = turn.graph
            final = next(
                (m for m in reversed(event.messages) if m.role == "assistant" and m.text), None
            )
            origin = self._origin(turn)
            if final is not None and final.text is not None and origin:
                meta = {"success": event.success, "error": event.error}
                g.add_node("output", final.text, inputs=origin, at=self.clock(), metadata=meta)
        self._finish(key, turn, event.duration_ms)
        return None

    # -------------------------------------------------------------- wiring

    EVENTS: tuple[str, ...] = (
        "context_assembled",
        "loop_iteration_start",
        "before_llm_call",
        "after_llm_call",
        "before_tool_call",
        "loop_iteration_end",
        "agent_end",
    )

    def install(
        self,
        dispatcher: HookDispatcher,
        *,
        events: Iterable[str] | None = None,
        priority: int = DEFAULT_PRIORITY,
        fail_mode: FailMode | None = None,
    ) -> list[str]:
        """Registers the handlers on ``dispatcher`` (as ``receiptgate.provenance.<event>``);
        returns the events registered. ``fail_mode`` defaults to the dispatcher's."""
        handlers: dict[str, Callable[[HookEvent], HookResult | None]] = {
            "context_assembled": self.context_assembled,
            "loop_iteration_start": self.loop_iteration_start,
            "before_llm_call": self.before_llm_call,
            "after_llm_call": self.after_llm_call,
            "before_tool_call": self.before_tool_call,
            "loop_iteration_end": self.loop_iteration_end,
            "agent_end": self.agent_end,
        }
        chosen = list(self.EVENTS if events is None else events)
        for name in chosen:
            if name not in handlers:
                raise InputError(
                    f"no provenance handler for {name!r} (have: {', '.join(handlers)})"
                )
        for name in chosen:
            dispatcher.register(
                name,
                handlers[name],
                priority=priority,
                name=f"receiptgate.provenance.{name}",
                fail_mode=fail_mode,
            )
        return chosen
