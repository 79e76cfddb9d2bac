"""The per-turn provenance graph (seed 002, "Provenance Graph"; SPEC §7).

A :class:`TurnGraph` is a DAG of what entered and left one agent turn: the system
prompt, the user's message, LLM calls and their outputs, tool calls and results,
policy decisions. Each node has a trust level, a SHA-256 hash of its content (to
audit without storing it) and an optional short preview with secrets masked.

Edges carry data (``derived_from``, ``input_to``) or only order (``triggers``,
``blocked_by``). A node's trust is the lowest of its own stated trust and the
trust of everything it was derived from, recomputed whenever an edge is added,
so taint reaches every downstream artifact by itself.

Node ids are deterministic: ``n<seq>.<kind>`` in insertion order (or the id the
caller gives), so the same sequence of calls always builds the same graph.
The JSON form (:meth:`TurnGraph.to_dict`) uses the seed's camelCase names.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal

import re2
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from receiptgate._exceptions import InputError
from receiptgate._validation import format_validation_error
from receiptgate.provenance.trust import (
    ToolTrust,
    TrustLevel,
    is_tainted,
    lowest,
)

__all__ = [
    "DATA_RELATIONS",
    "EdgeRelation",
    "GraphEdge",
    "GraphNode",
    "NodeKind",
    "TurnGraph",
    "TurnSummary",
    "content_hash",
    "make_preview",
    "mask_secrets",
]

NodeKind = Literal[
    "system",
    "user_message",
    "history",
    "context",
    "llm_call",
    "llm_output",
    "tool_call",
    "tool_result",
    "output",
    "policy_decision",
]
EdgeRelation = Literal["derived_from", "input_to", "triggers", "blocked_by"]

#: Relations along which trust propagates.
DATA_RELATIONS: frozenset[EdgeRelation] = frozenset({"derived_from", "input_to"})

#: Kinds whose trust follows from the kind alone when none is stated.
_KIND_TRUST: dict[NodeKind, TrustLevel] = {"system": "system", "user_message": "owner"}

PREVIEW_CHARS = 100

# ------------------------------------------------------------------ hashing, previews

REDACTED = "[REDACTED]"

# A small masker for previews (receiptgate.store.redact needs the server extra).
# Group "keep" holds a prefix that stays visible ("password=", "Bearer ").
_SECRET = re2.compile(
    "|".join(
        (
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*)",
            r"(?P<keep>(?i:\b[A-Za-z0-9_]*(?:passwd|password|pwd|secret|token|api[_-]?key"
            r"|access[_-]?key|credentials?|authorization|cookie)[A-Za-z0-9_-]*[\"']?\s*[:=]\s*"
            r"(?:(?:bearer|basic|token)\s+)?))(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s,;&\"'\]}]+)",
            r"(?P<bearer>(?i:\bbearer)\s+)[A-Za-z0-9._~+/=-]{8,}",
            r"\bsk-[A-Za-z0-9_-]{16,}",
            r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
            r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
            r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
            r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        )
    )
)


def _mask(m: Any) -> str:
    keep = m.group("keep") or m.group("bearer") or ""
    return f"{keep}{REDACTED}"


def mask_secrets(text: str) -> str:
    """Replaces keys, tokens, passwords and private keys in ``text`` with ``[REDACTED]``."""
    return str(_SECRET.sub(_mask, text))


def _canonical(content: str | bytes | Mapping[str, Any] | list[Any]) -> bytes:
    if isinstance(content, bytes):
        return content
    if isinstance(content, str):
        return content.encode("utf-8")
    return json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8"
    )


def content_hash(content: str | bytes | Mapping[str, Any] | list[Any]) -> str:
    """SHA-256 hex digest of ``content``; mappings and lists as canonical JSON."""
    return hashlib.sha256(_canonical(content)).hexdigest()


def make_preview(
    content: str | bytes | Mapping[str, Any] | list[Any], limit: int = PREVIEW_CHARS
) -> str:
    """The first ``limit`` characters of ``content``, secrets masked before cutting
    (so that a cut cannot leave half a token unrecognised), whitespace collapsed."""
    text = _canonical(content).decode("utf-8", errors="replace")
    text = " ".join(mask_secrets(text).split())
    return text if len(text) <= limit else text[: max(limit - 1, 0)] + "…"


# ------------------------------------------------------------------ models


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True, alias_generator=to_camel)


class GraphNode(_Model):
    """One node; ``trust`` is effective (after propagation), ``statedTrust`` its own."""

    id: str = Field(min_length=1)
    kind: NodeKind
    trust: TrustLevel
    stated_trust: TrustLevel | None = None
    source: str | None = None
    tool: str | None = None
    iteration: int | None = Field(default=None, ge=0)
    content_hash: str | None = None
    content_preview: str | None = None
    blocked: bool = False
    block_reason: str | None = None
    at: float | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class GraphEdge(_Model):
    """``{"from": a, "to": b, "relation": r}``: ``b`` derived_from ... reads
    "``from`` derived_from ``to``"; ``input_to`` reads "``from`` is input to ``to``"."""

    from_: str = Field(alias="from", min_length=1)
    to: str = Field(min_length=1)
    relation: EdgeRelation = "derived_from"


class TurnSummary(_Model):
    """The seed's ``summary``: lowest trust present, where taint came from, what was blocked."""

    max_taint: TrustLevel
    external_sources: list[str]
    blocked_tools: list[str]
    iteration_count: int
    node_count: int
    edge_count: int


class _GraphModel(_Model):
    turn_id: str = Field(min_length=1)
    session_key: str = ""
    agent_id: str | None = None
    timestamp: float | None = None
    duration_ms: float | None = None
    nodes: list[GraphNode] = Field(default_factory=list)
    edges: list[GraphEdge] = Field(default_factory=list)
    summary: TurnSummary | None = None


# ------------------------------------------------------------------ the graph


class TurnGraph:
    """The provenance DAG of one agent turn.

    Args:
        turn_id: the turn's id.
        session_key: the runtime's session key.
        agent_id: the agent, when known.
        tool_trust: classification of tool results (:class:`ToolTrust` defaults).
        preview_chars: length of content previews; 0 stores none.
        timestamp: start of the turn (epoch seconds), recorded as given.
    """

    def __init__(
        self,
        turn_id: str,
        *,
        session_key: str = "",
        agent_id: str | None = None,
        tool_trust: ToolTrust | None = None,
        preview_chars: int = PREVIEW_CHARS,
        timestamp: float | None = None,
    ) -> None:
        if not turn_id:
            raise InputError("turnId: must not be empty")
        self.turn_id = turn_id
        self.session_key = session_key
        self.agent_id = agent_id
        self.tool_trust = tool_trust if tool_trust is not None else ToolTrust()
        self.preview_chars = preview_chars
        self.timestamp = timestamp
        self.duration_ms: float | None = None
        self.iteration: int | None = None
        self._nodes: dict[str, GraphNode] = {}
        self._edges: list[GraphEdge] = []
        self._seq = 0

    # -------------------------------------------------------------- reading

    @property
    def nodes(self) -> list[GraphNode]:
        return list(self._nodes.values())

    @property
    def edges(self) -> list[GraphEdge]:
        return list(self._edges)

    def node(self, node_id: str) -> GraphNode:
        try:
            return self._nodes[node_id]
        except KeyError:
            raise InputError(f"node {node_id!r}: no such node in turn {self.turn_id}") from None

    def inputs_of(self, node_id: str) -> list[str]:
        """Ids of the nodes ``node_id`` was derived from (data edges only)."""
        out: list[str] = []
        for e in self._edges:
            if e.relation == "derived_from" and e.from_ == node_id:
                out.append(e.to)
            elif e.relation == "input_to" and e.to == node_id:
                out.append(e.from_)
        return out

    def ancestors(self, node_id: str) -> list[str]:
        """Every node ``node_id`` depends on through data edges, nearest first."""
        seen: dict[str, None] = {}
        stack = list(self.inputs_of(node_id))
        while stack:
            nid = stack.pop(0)
            if nid not in seen:
                seen[nid] = None
                stack.extend(self.inputs_of(nid))
        return list(seen)

    def tainted_by(self, node_id: str) -> list[str]:
        """Source labels of the ``external``/``untrusted`` origins of ``node_id``
        (the seed's ``taintedBy`` of ``before_response_emit``)."""
        labels: list[str] = []
        for nid in [node_id, *self.ancestors(node_id)]:
            n = self._nodes[nid]
            if n.stated_trust is not None and is_tainted(n.stated_trust):
                label = _label(n)
                if label not in labels:
                    labels.append(label)
        return labels

    # -------------------------------------------------------------- building

    def begin_iteration(self, iteration: int | None = None) -> int:
        """Starts an agent-loop iteration (0, 1, …); later nodes default to it."""
        self.iteration = (
            iteration
            if iteration is not None
            else (0 if self.iteration is None else self.iteration + 1)
        )
        return self.iteration

    def add_node(
        self,
        kind: NodeKind,
        content: str | bytes | Mapping[str, Any] | list[Any] | None = None,
        *,
        trust: TrustLevel | None = None,
        inputs: Iterable[str] = (),
        node_id: str | None = None,
        source: str | None = None,
        tool: str | None = None,
        iteration: int | None = None,
        blocked: bool = False,
        block_reason: str | None = None,
        at: float | None = None,
        metadata: Mapping[str, Any] | None = None,
    ) -> GraphNode:
        """Adds a node derived from ``inputs`` (existing ids) and returns it.

        The node's trust is the lowest of ``trust`` and its inputs' trust. Without a
        stated trust, ``system`` nodes are ``system`` and ``user_message`` nodes
        ``owner``; any other kind must have inputs (else :class:`InputError`).
        """
        input_ids = list(inputs)
        for i in input_ids:
            self.node(i)  # raises for an unknown id
        stated = trust if trust is not None else _KIND_TRUST.get(kind)
        if stated is None and not input_ids:
            raise InputError(f"{kind} node: give a trust level or the inputs it was derived from")
        self._seq += 1
        nid = node_id or f"n{self._seq}.{kind}"
        if nid in self._nodes:
            raise InputError(f"node {nid!r}: id already used in turn {self.turn_id}")
        node = GraphNode(
            id=nid,
            kind=kind,
            trust=stated or "system",  # replaced by _propagate
            stated_trust=stated,
            source=source,
            tool=tool,
            iteration=iteration if iteration is not None else self.iteration,
            content_hash=None if content is None else content_hash(content),
            content_preview=(
                make_preview(content, self.preview_chars)
                if content is not None and self.preview_chars > 0
                else None
            ),
            blocked=blocked,
            block_reason=block_reason,
            at=at,
            metadata=dict(metadata or {}),
        )
        self._nodes[nid] = node
        for i in input_ids:
            self._edges.append(_edge(nid, i, "derived_from"))
        node.trust = self._own_trust(node)
        return node

    def add_tool_result(
        self,
        tool: str,
        content: str | bytes | Mapping[str, Any] | list[Any] | None,
        *,
        args: Mapping[str, Any] | None = None,
        call: str | None = None,
        source: str | None = None,
        **kwargs: Any,
    ) -> GraphNode:
        """Adds a tool result whose stated trust comes from :attr:`tool_trust`.

        ``call`` (a ``tool_call`` node id) becomes an input, so a call that tainted
        content chose also taints what it returned. ``source`` labels the origin
        (a URL, a mailbox); it defaults to the tool name.
        """
        match = self.tool_trust.classify(tool, args)
        meta = dict(kwargs.pop("metadata", None) or {})
        meta.setdefault("trustRule", match.origin)
        return self.add_node(
            "tool_result",
            content,
            trust=kwargs.pop("trust", None) or match.result_trust,
            inputs=[*kwargs.pop("inputs", ()), *([call] if call else [])],
            tool=tool,
            source=source or tool,
            metadata=meta,
            **kwargs,
        )

    def block_tool(
        self,
        tool: str,
        reason: str,
        *,
        inputs: Iterable[str] = (),
        iteration: int | None = None,
    ) -> GraphNode:
        """Records a policy decision that removed or blocked ``tool``."""
        ids = list(inputs)
        node = self.add_node(
            "policy_decision",
            trust=None if ids else "system",
            inputs=ids,
            tool=tool,
            blocked=True,
            block_reason=reason,
            iteration=iteration,
        )
        return node

    def link(self, from_id: str, to_id: str, relation: EdgeRelation = "derived_from") -> None:
        """Adds an edge between existing nodes and re-propagates trust downstream.

        Raises:
            InputError: for an unknown id or an edge that would close a cycle.
        """
        self.node(from_id)
        self.node(to_id)
        edge = _edge(from_id, to_id, relation)
        if relation in DATA_RELATIONS:
            consumer, producer = (
                (from_id, to_id) if relation == "derived_from" else (to_id, from_id)
            )
            if consumer == producer or consumer in self.ancestors(producer):
                raise InputError(f"edge {from_id} -{relation}-> {to_id}: would close a cycle")
        self._edges.append(edge)
        if relation in DATA_RELATIONS:
            self._propagate()

    def finish(self, duration_ms: float | None = None) -> TurnSummary:
        """Records the turn's duration and returns its summary."""
        self.duration_ms = duration_ms
        return self.summary()

    # -------------------------------------------------------------- trust

    def _own_trust(self, node: GraphNode) -> TrustLevel:
        levels: list[TrustLevel] = [self._nodes[i].trust for i in self.inputs_of(node.id)]
        if node.stated_trust is not None:
            levels.append(node.stated_trust)
        return lowest(levels) if levels else "untrusted"  # nothing vouches for it

    def _propagate(self) -> None:
        """Recomputes every node's trust in topological order (the graph is small)."""
        pending = {nid: len(self.inputs_of(nid)) for nid in self._nodes}
        consumers: dict[str, list[str]] = {nid: [] for nid in self._nodes}
        for nid in self._nodes:
            for i in self.inputs_of(nid):
                consumers[i].append(nid)
        ready = [nid for nid, n in pending.items() if n == 0]
        while ready:
            nid = ready.pop(0)
            node = self._nodes[nid]
            node.trust = self._own_trust(node)
            for c in consumers[nid]:
                pending[c] -= 1
                if pending[c] == 0:
                    ready.append(c)

    # -------------------------------------------------------------- summary, JSON

    def max_taint(self) -> TrustLevel:
        """The lowest trust present (``system`` for an empty graph)."""
        return lowest([n.trust for n in self._nodes.values()] or ["system"])

    def summary(self) -> TurnSummary:
        sources: list[str] = []
        blocked: list[str] = []
        iterations = -1
        for n in self._nodes.values():
            if n.stated_trust is not None and is_tainted(n.stated_trust):
                label = _label(n)
                if label not in sources:
                    sources.append(label)
            if n.blocked and n.tool and n.tool not in blocked:
                blocked.append(n.tool)
            if n.iteration is not None:
                iterations = max(iterations, n.iteration)
        return TurnSummary(
            max_taint=self.max_taint(),
            external_sources=sources,
            blocked_tools=blocked,
            iteration_count=iterations + 1,
            node_count=len(self._nodes),
            edge_count=len(self._edges),
        )

    def redact(self) -> None:
        """Drops every content preview (hashes stay)."""
        for n in self._nodes.values():
            n.content_preview = None

    def to_dict(self) -> dict[str, Any]:
        """The seed's ``TurnGraph`` JSON (camelCase), summary included."""
        model = _GraphModel(
            turn_id=self.turn_id,
            session_key=self.session_key,
            agent_id=self.agent_id,
            timestamp=self.timestamp,
            duration_ms=self.duration_ms,
            nodes=self.nodes,
            edges=self.edges,
            summary=self.summary(),
        )
        return model.model_dump(mode="json", by_alias=True, exclude_none=True)

    @classmethod
    def from_dict(
        cls,
        data: Any,
        *,
        tool_trust: ToolTrust | None = None,
        source: str = "turnGraph",
    ) -> TurnGraph:
        """Rebuilds a graph from :meth:`to_dict` output; trust is recomputed from
        the stated levels and the edges. Errors name ``source`` and the field."""
        try:
            model = _GraphModel.model_validate(data)
        except ValidationError as e:
            raise InputError(format_validation_error(source, e)) from e
        graph = cls(
            model.turn_id,
            session_key=model.session_key,
            agent_id=model.agent_id,
            tool_trust=tool_trust,
            timestamp=model.timestamp,
        )
        graph.duration_ms = model.duration_ms
        for i, node in enumerate(model.nodes):
            if node.id in graph._nodes:
                raise InputError(f"{source}: nodes[{i}].id: duplicate id {node.id!r}")
            if node.stated_trust is None and node.kind in _KIND_TRUST:
                node.stated_trust = _KIND_TRUST[node.kind]
            graph._nodes[node.id] = node
        graph._seq = len(model.nodes)
        for i, edge in enumerate(model.edges):
            for end in (edge.from_, edge.to):
                if end not in graph._nodes:
                    raise InputError(f"{source}: edges[{i}]: unknown node {end!r}")
            graph._edges.append(edge)
        iterations = [n.iteration for n in graph._nodes.values() if n.iteration is not None]
        graph.iteration = max(iterations) if iterations else None
        graph._check_acyclic(source)
        graph._propagate()
        return graph

    def _check_acyclic(self, source: str) -> None:
        for nid in self._nodes:
            if nid in self.ancestors(nid):
                raise InputError(f"{source}: edges: node {nid!r} is part of a cycle")


def _edge(from_id: str, to_id: str, relation: EdgeRelation) -> GraphEdge:
    return GraphEdge.model_validate({"from": from_id, "to": to_id, "relation": relation})


def _label(node: GraphNode) -> str:
    return node.source or node.tool or node.id
