"""Turns and their provenance graphs (SPEC §7): the list, and one turn's summary and nodes.

Owns the pages ``GET /turns`` (recent turns) and ``GET /turns/{id}`` (admin-only).
The API answers the same paths with JSON (``receiptgate.server.routes.turns``); a
page takes the request only when a browser asks for HTML without an ``Authorization`` header
(:class:`BrowserPageRoute`), so the dashboard router must be included before
the API's turns router.

Everything shown comes from the stored graph JSON, which holds agent and tool
output: the template escapes it all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.routing import Match
from starlette.types import Scope

from receiptgate._exceptions import InputError
from receiptgate.provenance.graph import TurnGraph
from receiptgate.provenance.trust import TAINTED_LEVELS, TRUST_LEVELS
from receiptgate.server.dashboard.auth import admin_or_refusal, service_of
from receiptgate.server.dashboard.layout import as_int, as_mapping, as_str
from receiptgate.server.dashboard.record import verdict_of
from receiptgate.server.dashboard.render import PageRoute, render
from receiptgate.store import AuditFilter

#: At most this many of a turn's audit records are listed on its page.
TURN_RECORDS = 200

#: How many hex digits of a content hash the page shows.
HASH_PREFIX = 12

#: Badge class per trust level (the verdict badges' colours): tainted is red.
TRUST_BADGE = {
    "system": "v-pass",
    "owner": "v-pass",
    "local": "v-pass",
    "shared": "v-flag",
    "external": "v-block",
    "untrusted": "v-block",
}


class BrowserPageRoute(PageRoute):
    """Matches only a browser's page request: ``Accept`` names ``text/html`` and no
    ``Authorization`` header is sent. Anything else falls through to the API."""

    def matches(self, scope: Scope) -> tuple[Match, Scope]:
        if scope.get("type") == "http":
            headers = dict(scope.get("headers") or ())
            accept = headers.get(b"accept", b"").decode("latin-1").lower()
            if b"authorization" in headers or "text/html" not in accept:
                return Match.NONE, {}
        return super().matches(scope)


router = APIRouter(include_in_schema=False, route_class=BrowserPageRoute)


@dataclass(slots=True)
class NodeView:
    """One node as the page shows it."""

    index: int
    id: str
    kind: str
    trust: str
    stated_trust: str
    tainted: bool
    badge: str
    hash_prefix: str
    content_hash: str
    preview: str | None
    source: str
    tool: str
    iteration: str
    inputs: list[str]
    tainted_by: list[str]
    blocked: bool
    block_reason: str
    metadata: list[tuple[str, str]] = field(default_factory=list)
    rule: str = ""
    action: str = ""
    stage: str = ""


@dataclass(slots=True)
class TurnView:
    """The turn page's view model."""

    turn_id: str
    meta: list[tuple[str, str]]
    max_taint: str
    max_taint_badge: str
    tainted: bool
    external_sources: list[str]
    blocked_tools: list[str]
    iteration_count: str
    node_count: str
    edge_count: str
    nodes: list[NodeView]
    decisions: list[NodeView]
    edges: list[tuple[str, str, str]]
    problem: str | None = None


def _trust(value: Any) -> str:
    level = as_str(value)
    return level if level in TRUST_LEVELS else ""


def _ms(value: Any) -> str:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return as_str(value)
    return f"{value:.1f} ms"


def build_turn_view(data: Mapping[str, Any]) -> TurnView:
    """The view of a stored graph JSON; tolerant of odd values (they are shown as text)."""
    problem: str | None = None
    graph: TurnGraph | None = None
    try:
        graph = TurnGraph.from_dict(data, source="stored graph")
    except InputError as e:  # stored by hand or by an older version; show what is there
        problem = str(e)
    summary = as_mapping(data.get("summary"))
    raw_nodes = [n for n in data.get("nodes") or () if isinstance(n, Mapping)]
    edges = [
        (as_str(e.get("from")), as_str(e.get("relation")), as_str(e.get("to")))
        for e in data.get("edges") or ()
        if isinstance(e, Mapping)
    ]
    nodes: list[NodeView] = []
    for i, n in enumerate(raw_nodes):
        nid = as_str(n.get("id"))
        if graph is not None:
            inputs, tainted_by = graph.inputs_of(nid), graph.tainted_by(nid)
        else:
            inputs = [t for f, r, t in edges if f == nid and r == "derived_from"]
            inputs += [f for f, r, t in edges if t == nid and r == "input_to"]
            tainted_by = []
        trust = _trust(n.get("trust"))
        digest = as_str(n.get("contentHash"))
        iteration = as_int(n.get("iteration"))
        preview = n.get("contentPreview")
        node_meta = as_mapping(n.get("metadata"))
        nodes.append(
            NodeView(
                index=i + 1,
                id=nid,
                kind=as_str(n.get("kind")),
                trust=trust or as_str(n.get("trust")),
                stated_trust=as_str(n.get("statedTrust")),
                tainted=trust in TAINTED_LEVELS,
                badge=TRUST_BADGE.get(trust, "v-none"),
                hash_prefix=digest[:HASH_PREFIX],
                content_hash=digest,
                preview=None if preview is None else as_str(preview),
                source=as_str(n.get("source")),
                tool=as_str(n.get("tool")),
                iteration="" if iteration is None else str(iteration),
                inputs=inputs,
                tainted_by=tainted_by,
                blocked=n.get("blocked") is True,
                block_reason=as_str(n.get("blockReason")),
                metadata=[(as_str(k), as_str(v)) for k, v in node_meta.items()],
                rule=as_str(node_meta.get("rule")),
                action=as_str(node_meta.get("action")),
                stage=as_str(node_meta.get("stage")),
            )
        )
    max_taint = _trust(summary.get("maxTaint"))
    meta = [
        ("turn", as_str(data.get("turnId"))),
        ("session", as_str(data.get("sessionKey"))),
        ("agent", as_str(data.get("agentId"))),
        ("duration", _ms(data.get("durationMs"))),
    ]
    return TurnView(
        turn_id=as_str(data.get("turnId")),
        meta=[(k, v) for k, v in meta if v],
        max_taint=max_taint or as_str(summary.get("maxTaint")) or "—",
        max_taint_badge=TRUST_BADGE.get(max_taint, "v-none"),
        tainted=max_taint in TAINTED_LEVELS,
        external_sources=[as_str(s) for s in summary.get("externalSources") or ()],
        blocked_tools=[as_str(s) for s in summary.get("blockedTools") or ()],
        iteration_count=as_str(summary.get("iterationCount")),
        node_count=as_str(summary.get("nodeCount", len(raw_nodes))),
        edge_count=as_str(summary.get("edgeCount", len(edges))),
        nodes=nodes,
        decisions=[v for v in nodes if v.kind == "policy_decision" or v.blocked],
        edges=edges,
        problem=problem,
    )


#: How many turns the list page shows (newest first).
TURN_LIST = 100


@router.get("/turns", response_class=HTMLResponse)
def turns_page(request: Request, session_id: str | None = None) -> Response:
    """Recent turns, newest first: where a reviewer finds removed and blocked tools even
    when no output of the turn was checked."""
    principal = admin_or_refusal(request, "viewing turn graphs")
    if isinstance(principal, Response):
        return principal
    session = (session_id or "").strip() or None
    turns = service_of(request).store.list_turns(session_id=session, limit=TURN_LIST)
    for t in turns:
        t["badge"] = TRUST_BADGE.get(as_str(t.get("max_taint")), "v-none")
        t["tainted"] = t.get("max_taint") in TAINTED_LEVELS
    return render(request, "turns.html", turns=turns, session_id=session or "", limit=TURN_LIST)


@router.get("/turns/{turn_id:path}", response_class=HTMLResponse)
def turn_page(request: Request, turn_id: str) -> Response:
    principal = admin_or_refusal(request, "viewing turn graphs")
    if isinstance(principal, Response):
        return principal
    service = service_of(request)
    data = service.store.get_turn(turn_id)
    if data is None:
        return render(
            request,
            "message.html",
            404,
            title="Turn not found",
            message=f"There is no saved provenance graph for turn {turn_id!r}.",
        )
    records = [
        r.to_dict() for r in service.store.query(AuditFilter(turn_id=turn_id, limit=TURN_RECORDS))
    ]
    return render(
        request,
        "turn.html",
        turn=build_turn_view(data),
        records=[
            {
                "id": as_str(r.get("id")),
                "verdict": verdict_of(r),
                "created_at": r.get("created_at"),
                "hook": as_str(r.get("trigger_hook")),
                "reason": as_str(r.get("reason")),
                "preview": as_str(r.get("text_preview")),
            }
            for r in reversed(records)
        ],
        more_records=len(records) == TURN_RECORDS,
    )
