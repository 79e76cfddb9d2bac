"""Request dependencies: the service, the caller's key and scope, the rate limit."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import Depends, Request, Response
from pydantic import BaseModel

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


class JSONBytes(Response):
    """A JSON response serialised with orjson: FastAPI's generic encoder costs about
    1 ms for a report, more than validating it."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def check_rate(
    service: Service, principal: Principal, user_id: str | None, *, hooks: bool = False
) -> None:
    """Counts one validation (or, with ``hooks``, one hook event against the separate
    hook budget); 429 with ``Retry-After`` once the budget is spent."""
    identity = f"{principal.key_id}:{user_id or '-'}"
    limiter = service.hook_limiter if hooks else service.limiter
    decision = limiter.hit(identity)
    if not decision.allowed:
        who = (
            f"user {user_id!r} of key {principal.key_id}" if user_id else f"key {principal.key_id}"
        )
        what = "hook events" if hooks else "validations"
        raise ApiError(
            429,
            "rate_limited",
            f"rate limit of {limiter.rate} {what} reached for {who}; "
            f"retry in {decision.retry_after} s",
            headers={"Retry-After": str(decision.retry_after)},
        )


def json_body(raw: bytes, model: type[M]) -> M:
    """A JSON request body read by hand, under the same rules as FastAPI's.

    Non-UTF-8 bytes and bad JSON are refused naming the problem (422 / 400);
    lone surrogates in strings become U+FFFD (the models' rule, text/clean.py).
    pydantic's own JSON parser refuses ``"\\ud800"``, so ``json.loads`` reads it.
    """
    text = decode_utf8(raw, "body")
    if not text.strip():
        return model.model_validate({})
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ApiError(
            400, "invalid_json", f"body: invalid JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        ) from None
    except RecursionError:
        raise ApiError(400, "invalid_json", "body: invalid JSON: nested too deeply") from None
    return model.model_validate(data)
