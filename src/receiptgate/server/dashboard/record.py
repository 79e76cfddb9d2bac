"""One audit record: its page (highlighted report, metadata, controls) and its feedback.

Owns ``GET /records/{id}`` and ``POST /records/{id}/feedback`` (agree,
disagree or override the verdict, with a note), both admin-only, and the
reading of a stored record that the history shares (:func:`verdict_of`,
:func:`feedback_list`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from receiptgate.server.dashboard.auth import (
    admin_or_refusal,
    is_htmx,
    same_origin,
    service_of,
)
from receiptgate.server.dashboard.layout import ReportView, as_mapping, as_str, build_report
from receiptgate.server.dashboard.render import (
    PageRoute,
    forbidden_post,
    record_not_found,
    render,
    when,
)

router = APIRouter(include_in_schema=False, route_class=PageRoute)

_OVERRIDES = {
    "agree": ("agree", None),
    "disagree": ("disagree", None),
    "override_pass": ("override", "pass"),
    "override_flag": ("override", "flag"),
    "override_block": ("override", "block"),
}

#: ISO 27001 controls an audit record cites (RFC-003 §11.3).
CONTROL_NAMES = {
    "A.8.10": "information deletion: validated before propagation",
    "A.5.24": "incident management: warning recorded",
    "A.5.28": "collection of evidence",
}


def verdict_of(record: Mapping[str, Any]) -> str:
    """The verdict a record shows: ``error_fallback`` when the audit fell back."""
    audit = as_str(record.get("audit_verdict"))
    return "error_fallback" if audit == "error_fallback" else as_str(record.get("verdict")) or audit


def feedback_list(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """A record's feedback entries, each with ``who`` gave it."""
    out = []
    for fb in record.get("feedback") or ():
        if isinstance(fb, Mapping):
            d = dict(fb)
            d["who"] = as_str(fb.get("by") or fb.get("author") or fb.get("key_name"))
            out.append(d)
    return out


def _record_meta(r: Mapping[str, Any]) -> list[tuple[str, str]]:
    trust = as_mapping(r.get("trust"))
    score, tier = trust.get("score"), trust.get("tier")
    rows = [
        ("record id", r.get("id")),
        ("created", when(r.get("created_at"))),
        ("audit verdict", r.get("audit_verdict")),
        ("grade", r.get("grade")),
        ("agent", r.get("agent_id")),
        ("session", r.get("session_id")),
        ("turn", r.get("turn_id")),
        ("channel", r.get("channel")),
        ("trigger hook", r.get("trigger_hook")),
        (
            "trust",
            None
            if score is None and tier is None
            else f"{as_str(score) or '—'} ({as_str(tier) or '—'})",
        ),
        ("evaluation", f"{r['evaluation_us']} µs" if r.get("evaluation_us") is not None else None),
        ("claims", r.get("claim_count")),
        ("categories", ", ".join(map(str, r.get("categories") or ())) or None),
        ("key", r.get("key_name")),
        ("text length", r.get("text_length")),
        ("text sha256", r.get("text_sha256")),
        ("fail mode applied", r.get("fail_mode_applied")),
        ("error", r.get("error")),
    ]
    return [(k, as_str(v)) for k, v in rows if v not in (None, "")]


def _controls(raw: Any) -> list[tuple[str, str]]:
    out = []
    for c in raw or ():
        if isinstance(c, Mapping):
            ident = as_str(c.get("id") or c.get("control"))
            name = as_str(c.get("name") or c.get("title") or c.get("description"))
        else:
            ident, name = as_str(c), ""
        out.append((ident, name or CONTROL_NAMES.get(ident, "")))
    return out


def _record_view(record: Mapping[str, Any]) -> ReportView:
    ov = record.get("output_validation")
    violations = ov.get("violations") if isinstance(ov, Mapping) else None
    return build_report(
        "r-" + as_str(record.get("id")),
        record.get("sentences") or (),
        record.get("claims") or (),
        record.get("text") if isinstance(record.get("text"), str) else None,
        violations or (),
    )


def _turn_summary(request: Request, record: Mapping[str, Any]) -> dict[str, Any] | None:
    """The saved provenance turn this record belongs to, summarised; ``None`` if none."""
    turn_id = as_str(record.get("turn_id"))
    if not turn_id:
        return None
    graph = service_of(request).store.get_turn(turn_id)
    if graph is None:
        return None
    summary = as_mapping(graph.get("summary"))
    return {
        "id": turn_id,
        "max_taint": as_str(summary.get("maxTaint")) or "—",
        "blocked_tools": [as_str(t) for t in summary.get("blockedTools") or ()],
        "external_sources": [as_str(t) for t in summary.get("externalSources") or ()],
    }


@router.get("/records/{record_id}", response_class=HTMLResponse)
def record_page(request: Request, record_id: str) -> Response:
    principal = admin_or_refusal(request, "viewing audit records")
    if isinstance(principal, Response):
        return principal
    found = service_of(request).store.get_record(record_id)
    if found is None:
        return record_not_found(request, record_id)
    record = found.to_dict()
    return render(
        request,
        "record.html",
        record=record,
        turn=_turn_summary(request, record),
        verdict=verdict_of(record),
        report=_record_view(record),
        meta=_record_meta(record),
        controls=_controls(record.get("controls")),
        feedback=feedback_list(record),
    )


@router.post("/records/{record_id}/feedback", response_class=HTMLResponse)
def record_feedback(
    request: Request,
    record_id: str,
    choice: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> Response:
    if not same_origin(request):
        return forbidden_post(request)
    principal = admin_or_refusal(request, "feedback")
    if isinstance(principal, Response):
        return principal
    service = service_of(request)
    error = None
    if choice not in _OVERRIDES:
        error = "Choose Agree, Disagree or an override."
    elif len(note) > 2000:
        error = f"note: at most 2000 characters (got {len(note)})"
    else:
        kind, verdict = _OVERRIDES[choice]
        try:
            service.store.add_feedback(
                record_id,
                kind=kind,
                verdict=verdict,
                note=note.strip() or None,
                by=principal.name or principal.key_id,
            )
        except KeyError:
            error = f"There is no audit record {record_id!r}."
    found = service.store.get_record(record_id)
    if found is None:
        return record_not_found(request, record_id)
    if not is_htmx(request) and error is None:
        return RedirectResponse(
            f"{request.scope.get('root_path', '')}/records/{quote(record_id)}", 303
        )
    return render(
        request,
        "_feedback.html",
        200 if error is None else 422,
        feedback=feedback_list(found.to_dict()),
        error=error,
    )
