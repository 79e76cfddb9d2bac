"""Page rendering: the Jinja2 environment, the headers every page carries, the HTML error pages.

Owns where the dashboard's files are (:data:`TEMPLATES_DIR`, :data:`STATIC_DIR`,
found next to the ``receiptgate.server`` package, so an installed wheel serves
them as well as a checkout does), the autoescaping environment (agent output is
untrusted), :func:`render`, and the pages that answer a refusal or a failing
store in HTML rather than the API's JSON (:class:`PageRoute`).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse, Response
from fastapi.routing import APIRoute

from receiptgate._exceptions import RuntimeFailure
from receiptgate.server.auth import Principal
from receiptgate.server.dashboard.layout import as_str

_HERE = Path(__file__).resolve().parent.parent
#: Jinja2 templates of the dashboard (package data).
TEMPLATES_DIR = _HERE / "templates"
#: CSS, htmx and the dashboard script, served at ``/static``.
STATIC_DIR = _HERE / "static"

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

#: The templates' environment; ``when`` is its one filter.
env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def when(value: Any) -> str:
    """``2026-03-11 10:00:05 UTC`` from an ISO string or datetime."""
    moment: datetime | None = value if isinstance(value, datetime) else None
    if isinstance(value, str):
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            return value
    if moment is None:
        return as_str(value)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC")


env.filters["when"] = when


def render(
    request: Request,
    name: str,
    status: int = 200,
    headers: Mapping[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    """The template ``name`` as a page, with the page headers (plus ``headers``)."""
    context.setdefault("principal", getattr(request.state, "principal", None))
    context.setdefault("error", None)
    html = env.get_template(name).render(
        root=request.scope.get("root_path", ""),
        tags=TAGS,
        **context,
    )
    return HTMLResponse(html, status, headers={**_PAGE_HEADERS, **(headers or {})})


class PageRoute(APIRoute):
    """Answers a failing store or component with an HTML page, not the API's JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def page_handler(request: Request) -> Response:
            try:
                return await handler(request)
            except RuntimeFailure as e:
                return render(
                    request, "message.html", 503, title="Service unavailable", message=str(e)
                )

        return page_handler


def forbidden_post(request: Request) -> HTMLResponse:
    """The 403 page for a POST that did not come from the dashboard itself."""
    return render(
        request,
        "message.html",
        403,
        title="Request refused",
        message="This form must be sent from the receiptgate dashboard itself "
        "(cross-site request refused).",
    )


def needs_admin(request: Request, principal: Principal, what: str) -> HTMLResponse:
    """The 403 page for a validate-scope key asking for ``what``."""
    return render(
        request,
        "message.html",
        403,
        title="Admin key needed",
        message=f"This key has scope {principal.scope!r}: {what} needs an admin key. "
        "Log out and log in with an admin key, or use the Validate box.",
    )


def record_not_found(request: Request, record_id: str) -> HTMLResponse:
    """The 404 page for an audit record that does not exist."""
    return render(
        request,
        "message.html",
        404,
        title="Record not found",
        message=f"There is no audit record {record_id!r}.",
    )
