"""Who is asking: the key cookie, the CSRF check, login and logout.

The pages authenticate with the API key the user pasted on ``/login``, kept in
an HttpOnly, SameSite=Strict cookie (:data:`receiptgate.server.deps.KEY_COOKIE`).
Because that cookie also authenticates the dashboard's POSTs, every POST must
come from the dashboard itself (:func:`same_origin`): an htmx request
(``HX-Request``, a header no cross-site form can send) or a same-origin
``Origin``. A request without a valid cookie is sent to ``/login``
(:func:`to_login`).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote, urlsplit

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from receiptgate.server.auth import Principal
from receiptgate.server.dashboard.render import PageRoute, forbidden_post, needs_admin, render
from receiptgate.server.deps import KEY_COOKIE
from receiptgate.server.service import Service

router = APIRouter(include_in_schema=False, route_class=PageRoute)


def service_of(request: Request) -> Service:
    """The app's :class:`Service`."""
    service: Service = request.app.state.service
    return service


def is_htmx(request: Request) -> bool:
    """Whether htmx sent the request (it then wants a fragment, not a page)."""
    return request.headers.get("hx-request") == "true"


def same_origin(request: Request) -> bool:
    """Whether a POST comes from the dashboard itself (CSRF check, on top of SameSite)."""
    if is_htmx(request):
        # A custom header: a cross-site page can only send it through CORS, which
        # this service never grants.
        return True
    origin = request.headers.get("origin")
    if origin and origin != "null":
        return urlsplit(origin).netloc == request.headers.get("host", "")
    return request.headers.get("sec-fetch-site") == "same-origin"


def principal_of(request: Request) -> Principal | None:
    """The key in the cookie, if it is known and not revoked (kept on ``request.state``)."""
    key = request.cookies.get(KEY_COOKIE)
    if not key:
        return None
    principal = service_of(request).authenticate(key)
    request.state.principal = principal
    return principal


def admin_or_refusal(request: Request, what: str) -> Principal | Response:
    """The admin principal of an admin-only page, or the answer to send instead: the
    login redirect without a known key, the "admin key needed" page (403) for a
    validate key (``what`` names what needs it)."""
    principal = principal_of(request)
    if principal is None:
        return to_login(request)
    if not principal.allows("admin"):
        return needs_admin(request, principal, what)
    return principal


def to_login(request: Request) -> Response:
    """Sends the browser to ``/login``, which comes back here once logged in."""
    path = request.url.path
    if request.url.query:
        path += "?" + request.url.query
    target = "/login" if path == "/" else "/login?next=" + quote(path, safe="")
    root = request.scope.get("root_path", "")
    if is_htmx(request):
        return Response(status_code=401, headers={"HX-Redirect": root + target})
    return RedirectResponse(root + target, 303)


def _safe_next(value: str | None) -> str:
    if value and value.startswith("/") and not value.startswith("//") and "\\" not in value:
        return value
    return "/"


@router.get("/login", response_class=HTMLResponse)
def login_page(request: Request, next: str = "/") -> HTMLResponse:
    return render(request, "login.html", next=_safe_next(next), principal=principal_of(request))


@router.post("/login", response_class=HTMLResponse)
def login(
    request: Request,
    key: Annotated[str, Form()] = "",
    next: Annotated[str, Form()] = "/",
) -> Response:
    if not same_origin(request):
        return forbidden_post(request)
    key = key.strip()
    target = _safe_next(next)
    principal = service_of(request).authenticate(key) if key else None
    if principal is None:
        message = "That key is unknown or revoked." if key else "Paste an API key."
        return render(request, "login.html", 401, next=target, principal=None, error=message)
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
    if not same_origin(request):
        return forbidden_post(request)
    response = RedirectResponse(request.scope.get("root_path", "") + "/login", 303)
    response.delete_cookie(KEY_COOKIE, path="/", httponly=True, samesite="strict")
    return response
