"""The home page: the verdict history with its filters and pages.

Owns ``GET /`` (the whole page, or only the history fragment when htmx asks
for it), the filter form's validation (agent, verdict, category, since/until)
and paging, :data:`PAGE_SIZE` rows at a time. Admin keys see the history; a
validate key gets the page with the Validate box only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlencode

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from receiptgate.bounds import MAX_OFFSET, time_problem
from receiptgate.claims.models import ALL_CATEGORIES
from receiptgate.server.auth import Principal
from receiptgate.server.dashboard.auth import is_htmx, principal_of, service_of, to_login
from receiptgate.server.dashboard.record import feedback_list, verdict_of
from receiptgate.server.dashboard.render import PageRoute, needs_admin, render
from receiptgate.server.service import Service
from receiptgate.store import AuditFilter

router = APIRouter(include_in_schema=False, route_class=PageRoute)

#: History rows per page.
PAGE_SIZE = 25

VERDICTS = ("pass", "flag", "block", "error_fallback")


@dataclass(slots=True)
class HistoryView:
    values: dict[str, str]
    errors: list[str]
    rows: list[dict[str, Any]]
    total: int
    offset: int
    newer: str | None
    older: str | None
    url: str = "/"


def parse_time(label: str, raw: str, errors: list[str]) -> datetime | None:
    """``raw`` as an aware datetime (UTC if it names no zone); a bad one goes to ``errors``."""
    raw = raw.strip()
    if not raw:
        return None
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        errors.append(f"{label}: not a date and time (got {raw!r}; e.g. 2026-03-11T10:00)")
        return None
    value = value.replace(tzinfo=UTC) if value.tzinfo is None else value
    if (problem := time_problem(value)) is not None:
        errors.append(f"{label}: {problem}")
        return None
    return value


def _history(service: Service, params: Mapping[str, str]) -> HistoryView:
    values = {k: params.get(k, "").strip() for k in ("agent_id", "verdict", "category")}
    values["since"] = params.get("since", "").strip()
    values["until"] = params.get("until", "").strip()
    errors: list[str] = []
    if values["verdict"] and values["verdict"] not in VERDICTS:
        errors.append(f"verdict: must be one of {', '.join(VERDICTS)} (got {values['verdict']!r})")
    since = parse_time("since", values["since"], errors)
    until = parse_time("until", values["until"], errors)
    if since and until and until <= since:
        errors.append("until: must be later than since")
    try:
        offset = min(MAX_OFFSET, max(0, int(params.get("offset", "0") or 0)))
    except ValueError:
        offset = 0
    if errors:
        return HistoryView(values, errors, [], 0, 0, None, None, "/?" + urlencode(values))
    f = AuditFilter(
        agent_id=values["agent_id"] or None,
        verdict=values["verdict"] or None,
        category=values["category"] or None,
        since=since,
        until=until,
        limit=PAGE_SIZE,
        offset=offset,
    )
    rows = []
    for record in service.store.query(f):
        d = record.to_dict()
        d["shown_verdict"] = verdict_of(d)
        feedback = feedback_list(d)
        d["feedback_count"] = len(feedback)
        d["override"] = next(
            (fb.get("verdict") for fb in reversed(feedback) if fb.get("kind") == "override"), None
        )
        rows.append(d)
    total = service.store.count(f)
    kept = {k: v for k, v in values.items() if v}

    def page(at: int) -> str:
        query = urlencode({**kept, **({"offset": str(at)} if at else {})})
        return "/?" + query if query else "/"

    newer = page(max(0, offset - PAGE_SIZE)) if offset > 0 else None
    older = page(offset + PAGE_SIZE) if offset + PAGE_SIZE < total else None
    return HistoryView(values, errors, rows, total, offset, newer, older, page(offset))


def index_page(
    request: Request,
    principal: Principal,
    status: int = 200,
    result: dict[str, Any] | None = None,
    form: dict[str, str] | None = None,
) -> HTMLResponse:
    """The whole home page; the Validate box's ``result`` and ``form`` when it was sent."""
    service = service_of(request)
    history = _history(service, request.query_params) if principal.allows("admin") else None
    return render(
        request,
        "index.html",
        status,
        history=history,
        categories=ALL_CATEGORIES,
        verdicts=VERDICTS,
        result=result,
        form=form or {},
    )


@router.get("/", response_class=HTMLResponse)
def index(request: Request) -> Response:
    principal = principal_of(request)
    if principal is None:
        return to_login(request)
    partial = (
        is_htmx(request)
        and request.headers.get("hx-target") == "history"
        and not request.headers.get("hx-history-restore-request")
    )
    if partial:
        if not principal.allows("admin"):
            return needs_admin(request, principal, "the verdict history")
        history = _history(service_of(request), request.query_params)
        headers = None
        if request.headers.get("hx-trigger") == "filters":
            # The filter form: the address bar shows the filters, without empty ones.
            headers = {"HX-Push-Url": request.scope.get("root_path", "") + history.url}
        return render(
            request,
            "_history.html",
            headers=headers,
            history=history,
            categories=ALL_CATEGORIES,
            verdicts=VERDICTS,
        )
    return index_page(request, principal)
