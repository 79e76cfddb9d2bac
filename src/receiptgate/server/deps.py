"""Request dependencies: the service, the caller's key and scope, the rate limit."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, TypeVar

import orjson
from fastapi import Depends, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from receiptgate._exceptions import InputError
from receiptgate.server.auth import Principal, Scope
from receiptgate.server.errors import ApiError
from receiptgate.server.service import Service
from receiptgate.text.clean import decode_utf8

M = TypeVar("M", bound=BaseModel)

#: Cookie the dashboard keeps the pasted key in (HttpOnly, SameSite=Strict).
KEY_COOKIE = "receiptgate_key"


async def get_service(request: Request) -> Service:
    service: Service = request.app.state.service
    return service


def _presented_key(request: Request) -> str | None:
    header = request.headers.get("authorization")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ApiError(
                401,
                "unauthorized",
                "Authorization header must be 'Bearer <key>'",
                headers={"WWW-Authenticate": "Bearer"},
            )
        return token.strip()
    return request.cookies.get(KEY_COOKIE)


def require(scope: Scope) -> Callable[[Request], Awaitable[Principal]]:
    """A dependency that answers 401 without a valid key and 403 without ``scope``.

    Async on purpose: a key check is a hash and a cached lookup, cheaper than the
    thread hop a sync dependency costs on every request.
    """

    async def dependency(request: Request) -> Principal:
        service: Service = request.app.state.service
        key = _presented_key(request)
        if not key:
            raise ApiError(
                401,
                "unauthorized",
                "an API key is required: send 'Authorization: Bearer <key>' "
                "(create one with: receiptgate keys create --scope validate)",
                headers={"WWW-Authenticate": "Bearer"},
            )
        principal = service.authenticate(key)
        if principal is None:
            raise ApiError(
                401,
                "unauthorized",
                "unknown or revoked API key",
                headers={"WWW-Authenticate": "Bearer"},
            )
        if not principal.allows(scope):
            raise ApiError(
                403, "forbidden", f"this key has scope {principal.scope!r}; {scope!r} is required"
            )
        request.state.principal = principal
        return principal

    return dependency


ServiceDep = Annotated[Service, Depends(get_service)]
ValidateKey = Annotated[Principal, Depends(require("validate"))]
AdminKey = Annotated[Principal, Depends(require("admin"))]


class JSONBytes(JSONResponse):
    """A JSON response serialised with orjson: FastAPI's generic encoder costs about
    1 ms for a report, more than validating it."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def check_rate(
    service: Service,
    principal: Principal,
    user_id: str | None,
    *,
    hooks: bool = False,
    part: Literal["both", "key", "user"] = "both",
) -> None:
    """Counts one validation (or, with ``hooks``, one hook event against the separate
    hook budget); 429 with ``Retry-After`` once a budget is spent.

    A validation counts against the key's budget (``key_rate_limit``) and against
    its user's share (``rate_limit`` per key and ``user_id``): the budget belongs to
    the key, ``user_id`` only divides it, so made-up user ids gain nothing.
    ``part`` counts only the key's budget or only the user's share (a large body
    is counted against the key before it is read, against its user after).
    """
    checks = (
        [(service.hook_limiter, principal.key_id, "hook events", f"key {principal.key_id}")]
        if hooks
        else [
            (service.key_limiter, principal.key_id, "validations", f"key {principal.key_id}"),
            (
                service.limiter,
                f"{principal.key_id}:{user_id or '-'}",
                "validations",
                f"user {user_id!r} of key {principal.key_id}"
                if user_id
                else f"key {principal.key_id}",
            ),
        ]
    )
    for limiter, identity, what, who in checks:
        decision = limiter.hit(identity)
        if not decision.allowed:
            raise ApiError(
                429,
                "rate_limited",
                f"rate limit of {limiter.rate} {what} reached for {who}; "
                f"retry in {decision.retry_after} s",
                headers={"Retry-After": str(decision.retry_after)},
            )


def decode_body(raw: bytes) -> str:
    """The body as text; 400 naming the first bad byte when it is not UTF-8."""
    try:
        return decode_utf8(raw, "body")
    except InputError as e:
        raise ApiError(400, "invalid_body", str(e)) from None


def json_body(raw: bytes, model: type[M]) -> M:
    """A JSON request body read by hand, under the same rules as FastAPI's.

    Non-UTF-8 bytes (400) and bad JSON (422) are refused naming the problem;
    lone surrogates in strings become U+FFFD (the models' rule, text/clean.py).
    pydantic's own JSON parser refuses ``"\\ud800"``, so ``json.loads`` reads it.
    """
    text = decode_body(raw)
    if not text.strip():
        return model.model_validate({})
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        # 422 as FastAPI answers bad JSON in the bodies it parses itself.
        message = f"body: invalid JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        raise ApiError(422, "invalid_request", message) from None
    except RecursionError:
        raise ApiError(422, "invalid_request", "body: invalid JSON: nested too deeply") from None
    return model.model_validate(data)


async def count_validation(
    service: Service,
    principal: Principal,
    user_id: str | None,
    part: Literal["both", "key", "user"] = "both",
) -> None:
    """:func:`check_rate` for a validation, off the event loop when Redis counts."""
    if service.limiter.shared:
        await run_in_threadpool(check_rate, service, principal, user_id, part=part)
    else:
        check_rate(service, principal, user_id, part=part)
