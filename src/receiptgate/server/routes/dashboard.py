"""The dashboard: verdict history, one report highlighted by tag, a Validate box, feedback.

Server-rendered HTML (Jinja2, autoescaped: agent output is untrusted) with htmx
for the parts that update in place; no build step. The pages authenticate with
the API key the user pasted on ``/login``, kept in an HttpOnly, SameSite=Strict
cookie (:data:`receiptgate.server.deps.KEY_COOKIE`). Because that cookie also
authenticates the dashboard's POSTs, every POST must come from the dashboard
itself: an htmx request (``HX-Request``, a header no cross-site form can send)
or a same-origin ``Origin``.

Admin keys see everything; a validate key may use the Validate box only.
Templates and static files are found next to this package, so an installed
wheel serves them as well as a checkout does.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote, urlencode, urlsplit

import jinja2
from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from pydantic import ValidationError

from receiptgate._exceptions import ConfigError, InputError, RuntimeFailure
from receiptgate.claims.models import ALL_CATEGORIES
from receiptgate.evidence.receipts import parse_receipts
from receiptgate.server.auth import Principal
from receiptgate.server.deps import KEY_COOKIE, check_rate
from receiptgate.server.errors import ApiError
from receiptgate.server.models import ValidateRequest
from receiptgate.server.routes.validate import run_validation
from receiptgate.server.service import Service
from receiptgate.store import AuditFilter

_HERE = Path(__file__).resolve().parent.parent
#: Jinja2 templates of the dashboard (package data).
TEMPLATES_DIR = _HERE / "templates"
#: CSS, htmx and the dashboard script, served at ``/static``.
STATIC_DIR = _HERE / "static"

#: History rows per page.
PAGE_SIZE = 25


class _PageRoute(APIRoute):
    """Answers a failing store or component with an HTML page, not the API's JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def page_handler(request: Request) -> Response:
            try:
                return await handler(request)
            except RuntimeFailure as e:
                return _render(
                    request, "message.html", 503, title="Service unavailable", message=str(e)
                )

        return page_handler


router = APIRouter(include_in_schema=False, route_class=_PageRoute)

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)

#: Sent with every page: the content is untrusted agent output, so nothing
#: inline may run, and the pages may not be framed.
_PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
    "Vary": "Cookie, HX-Request, HX-Target",
}

#: Tag, colour name for the legend, meaning (SPEC §4).
TAGS: tuple[tuple[str, str, str], ...] = (
    ("T1", "teal", "supported by a tool/web/API receipt"),
    ("T2", "light amber", "inference, no unsupported hard fact"),
    ("T3", "amber", "general statement, no receipt, no hard figure"),
    ("T4", "green", "supported by a fact, RAG chunk, DB row or memory"),
    ("T5", "red", "unsupported hard claim, contradicted, or forged verification"),
    ("T6", "orange", "explicitly uncertain"),
    ("T7", "lavender", "restates what the user supplied"),
)

VERDICTS = ("pass", "flag", "block", "error_fallback")

_OVERRIDES = {
    "agree": ("agree", None),
    "disagree": ("disagree", None),
    "override_pass": ("override", "pass"),
    "override_flag": ("override", "flag"),
    "override_block": ("override", "block"),
}

_MARK = {"supports": "✓", "contradicts": "✗", "missing": "?"}


# --------------------------------------------------------------------------- view models


@dataclass(slots=True)
class Part:
    """A piece of a sentence as shown: plain text, a matched claim span, or a gap."""

    text: str
    kind: str = "text"  # text | claim | gap


@dataclass(slots=True)
class SentenceView:
    index: int
    tag: str | None
    action: str | None
    parts: list[Part]
    evidence: list[dict[str, str]]
    reasons: list[str]
    title: str


@dataclass(slots=True)
class Segment:
    """The highlighted text is a run of sentences and the plain text between them."""

    text: str = ""
    sentence: SentenceView | None = None


@dataclass(slots=True)
class ReportView:
    """Everything the report partial shows for one result or audit record."""

    key: str
    segments: list[Segment]
    sentences: list[SentenceView]
    redacted: bool
    violations: list[dict[str, str]] = field(default_factory=list)


def _s(value: Any) -> str:
    return "" if value is None else str(value)


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _span_of(entry: Any, claims: Sequence[Any]) -> tuple[int | None, int | None, str]:
    """(start, end, text) of a sentence's claim: an index into claims, a span or a string."""
    if isinstance(entry, int) and not isinstance(entry, bool):
        entry = claims[entry] if 0 <= entry < len(claims) else None
    if isinstance(entry, str):
        return None, None, entry
    if not isinstance(entry, Mapping):
        return None, None, ""
    start = entry.get("offset", entry.get("start"))
    end = entry.get("end")
    text = entry.get("matched_text", entry.get("text"))
    return (
        start if isinstance(start, int) else None,
        end if isinstance(end, int) else None,
        _s(text),
    )


def _merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _full_parts(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> list[Part]:
    parts: list[Part] = []
    pos = start
    for a, b in _merged((max(a, start), min(b, end)) for a, b in spans if a < end and b > start):
        if a > pos:
            parts.append(Part(text[pos:a]))
        parts.append(Part(text[a:b], "claim"))
        pos = b
    if pos < end:
        parts.append(Part(text[pos:end]))
    return parts


def _redacted_parts(
    start: int | None, end: int | None, found: list[tuple[int | None, int | None, str]]
) -> list[Part]:
    """The matched spans of a sentence whose text was not stored; ``…`` for the rest."""
    located = [(a, b, t) for a, b, t in found if a is not None and b is not None and t]
    loose = [t for a, b, t in found if (a is None or b is None) and t]
    parts: list[Part] = []
    if located and start is not None and end is not None:
        pos = start
        for a, b, t in sorted(located, key=lambda x: (x[0], x[1])):
            assert a is not None and b is not None
            if a < pos:  # overlapping spans: the first one shown covers it
                continue
            if a > pos:
                parts.append(Part("…", "gap"))
            parts.append(Part(t, "claim"))
            pos = b
        if pos < end:
            parts.append(Part("…", "gap"))
    for t in loose:
        parts.extend((Part("…", "gap"), Part(t, "claim")))
    if loose:
        parts.append(Part("…", "gap"))
    return parts or [Part("…", "gap")]


def _evidence(raw: Any) -> list[dict[str, str]]:
    out = []
    for ev in raw or ():
        if isinstance(ev, Mapping):
            out.append(
                {
                    "kind": _s(ev.get("kind")),
                    "id": _s(ev.get("id")),
                    "relation": _s(ev.get("relation")),
                    "detail": _s(ev.get("detail")),
                    "mark": _MARK.get(_s(ev.get("relation")), "•"),
                }
            )
    return out


def _title(
    tag: str | None, action: str | None, reasons: list[str], ev: list[dict[str, str]]
) -> str:
    head = f"{tag} · {action}" if tag else "no factual claim"
    lines = [head, *(f"→ {r}" for r in reasons)]
    lines += [
        f"{e['mark']} {e['relation']} {e['kind']}{':' + e['id'] if e['id'] else ''} — {e['detail']}"
        for e in ev
    ]
    if tag and not ev:
        lines.append("no evidence found")
    return "\n".join(lines)


def _violations(raw: Any) -> list[dict[str, str]]:
    out = []
    for v in raw or ():
        if not isinstance(v, Mapping):
            continue
        claim = _map(v.get("claim"))
        ref = next(
            (
                f"{label} {v[k]}"
                for k, label in (
                    ("fact_id", "fact"),
                    ("factId", "fact"),
                    ("contradictedFactId", "fact"),
                    ("receipt_id", "receipt"),
                    ("receiptId", "receipt"),
                )
                if v.get(k)
            ),
            "",
        )
        out.append(
            {
                "text": _s(
                    v.get("matched_text")
                    or v.get("matchedText")
                    or claim.get("matched_text")
                    or claim.get("matchedText")
                    or claim.get("text")
                ),
                "category": _s(v.get("category") or claim.get("category")),
                "reason": _s(v.get("reason")),
                "severity": _s(v.get("severity")),
                "action": _s(v.get("action")),
                "ref": ref,
            }
        )
    return out


def build_report(
    key: str,
    sentences: Sequence[Any],
    claims: Sequence[Any],
    text: str | None,
    violations: Any = (),
) -> ReportView:
    """Lays a result's or record's sentences over the text (or over their spans when redacted).

    Args:
        key: Unique prefix for element ids (two reports may share a page).
        sentences: ``sentences[]`` of a result or an audit record.
        claims: ``claims[]``, for sentences that refer to claims by index.
        text: The full text, or ``None`` when it was not stored.
        violations: ``violations[]`` in either the result or the RFC-003 shape.
    """
    # Audit records list a sentence's claims as bare strings; their offsets are in
    # claims[] (by sentence_index), and are needed to place the spans.
    located_claims: dict[int, list[tuple[int | None, int | None, str]]] = {}
    for c in claims:
        at = _int(c.get("sentence_index")) if isinstance(c, Mapping) else None
        if at is not None:
            located_claims.setdefault(at, []).append(_span_of(c, claims))
    views: list[tuple[int, int, SentenceView]] = []
    usable = text is not None
    for s in sentences:
        if not isinstance(s, Mapping):
            continue
        start, end = _int(s.get("start")), _int(s.get("end"))
        index = _int(s.get("index"))
        index = len(views) if index is None else index
        found = [_span_of(c, claims) for c in s.get("claims") or ()]
        if all(a is None for a, _, _ in found) and located_claims.get(index):
            found = located_claims[index]
        if (
            text is not None
            and start is not None
            and end is not None
            and 0 <= start <= end <= len(text)
        ):
            spans = [(a, b) for a, b, _ in found if a is not None and b is not None]
            parts = _full_parts(text, start, end, spans)
        elif text is not None and s.get("text") is not None:
            usable = False
            parts = [Part(_s(s.get("text")))]
        else:
            usable = False
            parts = _redacted_parts(start, end, found)
        tag = _s(s.get("tag")) or None
        action = _s(s.get("action")) or None
        reasons = [_s(r) for r in s.get("reasons") or ()]
        ev = _evidence(s.get("evidence"))
        view = SentenceView(
            index, tag, action, parts, ev, reasons, _title(tag, action, reasons, ev)
        )
        views.append((start or 0, end or 0, view))
    segments: list[Segment] = []
    if text is not None and usable:
        pos = 0
        for start, end, view in sorted(views, key=lambda x: x[0]):
            if start > pos:
                segments.append(Segment(text[pos:start]))
            segments.append(Segment(sentence=view))
            pos = max(pos, end)
        if pos < len(text):
            segments.append(Segment(text[pos:]))
    else:
        for i, (_, _, view) in enumerate(views):
            if i:
                segments.append(Segment(" "))
            segments.append(Segment(sentence=view))
    return ReportView(
        key=key,
        segments=segments,
        sentences=[v for _, _, v in views],
        redacted=not usable,
        violations=_violations(violations),
    )


def _when(value: Any) -> str:
    """``2026-03-11 10:00:05 UTC`` from an ISO string or datetime."""
    moment: datetime | None = value if isinstance(value, datetime) else None
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
    if moment is None:
        return _s(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


_env.filters["when"] = _when


def _verdict_of(record: Mapping[str, Any]) -> str:
    audit = _s(record.get("audit_verdict"))
    return "error_fallback" if audit == "error_fallback" else _s(record.get("verdict")) or audit


# --------------------------------------------------------------------------- plumbing


def _render(
    request: Request,
    name: str,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    context.setdefault("principal", getattr(request.state, "principal", None))
    context.setdefault("error", None)
    html = _env.get_template(name).render(
        root=request.scope.get("root_path", ""),
        tags=TAGS,
        **context,
    )
    return HTMLResponse(html, status, headers={**_PAGE_HEADERS, **(headers or {})})


def _service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def _is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def _same_origin(request: Request) -> bool:
    """Whether a POST comes from the dashboard itself (CSRF check, on top of SameSite)."""
    if _is_htmx(request):
        # A custom header: a cross-site page can only send it through CORS, which
        # this service never grants.
        return True
    origin = request.headers.get("origin")
    if origin and origin != "null":
        return urlsplit(origin).netloc == request.headers.get("host", "")
    return request.headers.get("sec-fetch-site") == "same-origin"


def _principal(request: Request) -> Principal | None:
    key = request.cookies.get(KEY_COOKIE)
    if not key:
        return None
    principal = _service(request).authenticate(key)
    request.state.principal = principal
    return principal


def _to_login(request: Request) -> Response:
    path = request.url.path
    if request.url.query:
        path += "?" + request.url.query
    target = "/login" if path == "/" else "/login?next=" + quote(path, safe="")
    root = request.scope.get("root_path", "")
    if _is_htmx(request):
        return Response(status_code=401, headers={"HX-Redirect": root + target})
    return RedirectResponse(root + target, 303)


def _forbidden_post(request: Request) -> HTMLResponse:
    return _render(
        request,
        "message.html",
        403,
        title="Request refused",
        message="This form must be sent from the receiptgate dashboard itself "
        "(cross-site request refused).",
    )


def _needs_admin(request: Request, principal: Principal, what: str) -> HTMLResponse:
    return _render(
        request,
        "message.html",
        403,
        title="Admin key needed",
        message=f"This key has scope {principal.scope!r}: {what} needs an admin key. "
        "Log out and log in with an admin key, or use the Validate box.",
    )


def _safe_next(value: str | None) -> str:
    if value and value.startswith("/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/"


# --------------------------------------------------------------------------- login


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/") -> HTMLResponse:
    return _render(request, "login.html", next=_safe_next(next), principal=_principal(request))


@router.post("/login", response_class=HTMLResponse)
def login(
    request: Request,
    key: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/",
) -> Response:
    if not _same_origin(request):
        return _forbidden_post(request)
    key = key.strip()
    target = _safe_next(next)
    principal = _service(request).authenticate(key) if key else None
    if principal is None:
        message = "That key is unknown or revoked." if key else "Paste an API key."
        return _render(request, "login.html", 401, next=target, principal=None, error=message)
    response = RedirectResponse(request.scope.get("root_path", "") + target, 303)
    response.set_cookie(
        KEY_COOKIE,
        key,
        httponly=True,
        samesite="strict",
        path="/",
        secure=request.url.scheme == "https",
    )
    return response


@router.post("/logout")
def logout(request: Request) -> Response:
    if not _same_origin(request):
        return _forbidden_post(request)
    response = RedirectResponse(request.scope.get("root_path", "") + "/login", 303)
    response.delete_cookie(KEY_COOKIE, path="/", httponly=True, samesite="strict")
    return response


# --------------------------------------------------------------------------- history


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


def _parse_time(label: str, raw: str, errors: list[str]) -> datetime | None:
    raw = raw.strip()
    if not raw:
        return None
    try:
        value = datetime.fromisoformat(raw)
    except ValueError:
        errors.append(f"{label}: not a date and time (got {raw!r}; e.g. 2026-03-11T10:00)")
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


def _history(service: Service, params: Mapping[str, str]) -> HistoryView:
    values = {k: params.get(k, "").strip() for k in ("agent_id", "verdict", "category")}
    values["since"] = params.get("since", "").strip()
    values["until"] = params.get("until", "").strip()
    errors: list[str] = []
    if values["verdict"] and values["verdict"] not in VERDICTS:
        errors.append(f"verdict: must be one of {', '.join(VERDICTS)} (got {values['verdict']!r})")
    since = _parse_time("since", values["since"], errors)
    until = _parse_time("until", values["until"], errors)
    if since and until and until <= since:
        errors.append("until: must be later than since")
    try:
        offset = max(0, int(params.get("offset", "0") or 0))
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
        d["shown_verdict"] = _verdict_of(d)
        feedback = _feedback_list(d)
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


def _index(
    request: Request,
    principal: Principal,
    status: int = 200,
    result: dict[str, Any] | None = None,
    form: dict[str, str] | None = None,
) -> HTMLResponse:
    service = _service(request)
    history = _history(service, request.query_params) if principal.allows("admin") else None
    return _render(
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
    principal = _principal(request)
    if principal is None:
        return _to_login(request)
    partial = (
        _is_htmx(request)
        and request.headers.get("hx-target") == "history"
        and not request.headers.get("hx-history-restore-request")
    )
    if partial:
        if not principal.allows("admin"):
            return _needs_admin(request, principal, "the verdict history")
        history = _history(_service(request), request.query_params)
        headers = None
        if request.headers.get("hx-trigger") == "filters":
            # The filter form: the address bar shows the filters, without empty ones.
            headers = {"HX-Push-Url": request.scope.get("root_path", "") + history.url}
        return _render(
            request,
            "_history.html",
            headers=headers,
            history=history,
            categories=ALL_CATEGORIES,
            verdicts=VERDICTS,
        )
    return _index(request, principal)


# --------------------------------------------------------------------------- one record


def _feedback_list(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    for fb in record.get("feedback") or ():
        if isinstance(fb, Mapping):
            d = dict(fb)
            d["who"] = _s(fb.get("by") or fb.get("author") or fb.get("key_name"))
            out.append(d)
    return out


def _record_meta(r: Mapping[str, Any]) -> list[tuple[str, str]]:
    trust = _map(r.get("trust"))
    score, tier = trust.get("score"), trust.get("tier")
    rows = [
        ("record id", r.get("id")),
        ("created", _when(r.get("created_at"))),
        ("audit verdict", r.get("audit_verdict")),
        ("grade", r.get("grade")),
        ("agent", r.get("agent_id")),
        ("session", r.get("session_id")),
        ("turn", r.get("turn_id")),
        ("channel", r.get("channel")),
        ("trigger hook", r.get("trigger_hook")),
        (
            "trust",
            None if score is None and tier is None else f"{_s(score) or '—'} ({_s(tier) or '—'})",
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
    return [(k, _s(v)) for k, v in rows if v not in (None, "")]


#: ISO 27001 controls an audit record cites (RFC-003 §11.3).
CONTROL_NAMES = {
    "A.8.10": "information deletion: validated before propagation",
    "A.5.24": "incident management: warning recorded",
    "A.5.28": "collection of evidence",
}


def _controls(raw: Any) -> list[tuple[str, str]]:
    out = []
    for c in raw or ():
        if isinstance(c, Mapping):
            ident = _s(c.get("id") or c.get("control"))
            name = _s(c.get("name") or c.get("title") or c.get("description"))
        else:
            ident, name = _s(c), ""
        out.append((ident, name or CONTROL_NAMES.get(ident, "")))
    return out


def _record_view(record: Mapping[str, Any]) -> ReportView:
    ov = record.get("output_validation")
    violations = ov.get("violations") if isinstance(ov, Mapping) else None
    return build_report(
        "r-" + _s(record.get("id")),
        record.get("sentences") or (),
        record.get("claims") or (),
        record.get("text") if isinstance(record.get("text"), str) else None,
        violations or (),
    )


@router.get("/records/{record_id}", response_class=HTMLResponse)
def record_page(request: Request, record_id: str) -> Response:
    principal = _principal(request)
    if principal is None:
        return _to_login(request)
    if not principal.allows("admin"):
        return _needs_admin(request, principal, "viewing audit records")
    found = _service(request).store.get_record(record_id)
    if found is None:
        return _render(
            request,
            "message.html",
            404,
            title="Record not found",
            message=f"There is no audit record {record_id!r}.",
        )
    record = found.to_dict()
    return _render(
        request,
        "record.html",
        record=record,
        verdict=_verdict_of(record),
        report=_record_view(record),
        meta=_record_meta(record),
        controls=_controls(record.get("controls")),
        feedback=_feedback_list(record),
    )


@router.post("/records/{record_id}/feedback", response_class=HTMLResponse)
def record_feedback(
    request: Request,
    record_id: str,
    choice: Annotated[str, Form()] = "",
    note: Annotated[str, Form()] = "",
) -> Response:
    if not _same_origin(request):
        return _forbidden_post(request)
    principal = _principal(request)
    if principal is None:
        return _to_login(request)
    if not principal.allows("admin"):
        return _needs_admin(request, principal, "feedback")
    service = _service(request)
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
        return _render(
            request,
            "message.html",
            404,
            title="Record not found",
            message=f"There is no audit record {record_id!r}.",
        )
    if not _is_htmx(request) and error is None:
        return RedirectResponse(
            f"{request.scope.get('root_path', '')}/records/{quote(record_id)}", 303
        )
    return _render(
        request,
        "_feedback.html",
        200 if error is None else 422,
        feedback=_feedback_list(found.to_dict()),
        error=error,
    )


# --------------------------------------------------------------------------- Validate box


def _validate_body(form: dict[str, str]) -> ValidateRequest:
    """The ValidateRequest the Validate box describes; InputError names the bad field."""
    text = form["text"]
    if not text.strip():
        raise InputError("text: paste the agent output to validate")
    trust: int | None = None
    if form["trust"].strip():
        try:
            trust = int(form["trust"].strip())
        except ValueError:
            raise InputError(
                f"trust: must be a whole number from 0 to 100 (got {form['trust']!r})"
            ) from None
        if not 0 <= trust <= 100:
            raise InputError(f"trust: must be from 0 to 100 (got {trust})")
    now: datetime | None = None
    if form["now"].strip():
        errors: list[str] = []
        now = _parse_time("reference time", form["now"], errors)
        if errors:
            raise InputError(errors[0])
    receipts = None
    if form["receipts"].strip():
        parsed = parse_receipts(form["receipts"], source_name="receipts")
        receipts = [r.model_dump(mode="json", exclude_none=True) for r in parsed]
    try:
        return ValidateRequest(
            text=text,
            agent_id=form["agent_id"].strip() or None,
            trust=trust,
            channel=form["channel"].strip() or None,
            session_id=form["session_id"].strip() or None,
            receipts=receipts,
            now=now,
        )
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()[:3]
        )
        raise InputError(problems) from None


@router.post("/validate-ui", response_class=HTMLResponse)
def validate_box(
    request: Request,
    text: Annotated[str, Form()] = "",
    agent_id: Annotated[str, Form()] = "",
    trust: Annotated[str, Form()] = "",
    channel: Annotated[str, Form()] = "",
    now: Annotated[str, Form()] = "",
    session_id: Annotated[str, Form()] = "",
    receipts: Annotated[str, Form()] = "",
) -> Response:
    if not _same_origin(request):
        return _forbidden_post(request)
    principal = _principal(request)
    if principal is None:
        return _to_login(request)
    service = _service(request)
    form = {
        "text": text,
        "agent_id": agent_id,
        "trust": trust,
        "channel": channel,
        "now": now,
        "session_id": session_id,
        "receipts": receipts,
    }
    status = 200
    result: dict[str, Any]
    try:
        body = _validate_body(form)
        check_rate(service, principal, None)
        _, report = run_validation(service, body, principal.name or principal.key_id)
        violations = report.get("violations") or ()
        result = {
            "report": report,
            "view": build_report(
                "v-" + _s(report.get("id")),
                report.get("sentences") or (),
                report.get("claims") or (),
                body.text,
                violations,
            ),
            "error": None,
        }
    except (InputError, ConfigError) as e:
        status, result = 422, {"error": str(e)}
    except ApiError as e:  # the rate limit
        status, result = e.status, {"error": e.message}
    except RuntimeFailure as e:  # the store or a component is down
        status, result = 503, {"error": f"validation failed: {e}"}
    if not _is_htmx(request):
        return _index(request, principal, status, result=result, form=form)
    headers = {"HX-Trigger": "receiptgate:recorded"} if status == 200 else None
    return _render(request, "_validate_result.html", status, headers, result=result)
