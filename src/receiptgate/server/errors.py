"""JSON errors for every failure, and the request-body size limit.

Every error body has the same shape::

    {"error": "invalid_request", "message": "trust: must be <= 100 (got 120)",
     "details": [{"field": "trust", "reason": "must be <= 100 (got 120)"}]}

so a client can show ``message`` and a form can use ``details``. Internal
failures are 5xx with the reason, never a verdict.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from receiptgate._exceptions import ConfigError, InputError, RuntimeFailure, StoreError
from receiptgate.text.clean import decode_utf8

logger = logging.getLogger("receiptgate.server")


class ApiError(Exception):
    """An error answered as JSON with a status code."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        details: Sequence[dict[str, Any]] = (),
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = list(details)
        self.headers = headers


def error_body(code: str, message: str, details: Sequence[dict[str, Any]] = ()) -> dict[str, Any]:
    return {"error": code, "message": message, "details": list(details)}


def _field(loc: Sequence[int | str]) -> str:
    parts = list(loc)
    if parts and parts[0] in ("body", "query", "path", "header"):
        parts = parts[1:]
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "body"


def _reason(err: dict[str, Any]) -> str:
    kind = err.get("type", "")
    if kind == "missing":
        return "field required"
    if kind == "extra_forbidden":
        return "unknown field"
    if kind == "json_invalid":
        ctx = err.get("ctx") or {}
        return f"invalid JSON ({ctx.get('error', 'syntax error')})"
    msg = str(err.get("msg", "invalid value"))
    value = err.get("input")
    if kind not in ("model_attributes_type", "dict_type") and isinstance(
        value, str | int | float | bool
    ):
        msg += f" (got {value!r})"
    return msg


def validation_details(errors: Sequence[Any]) -> list[dict[str, str]]:
    """pydantic errors as ``{field, reason}`` pairs, as every 422 answer lists them."""
    return [{"field": _field(e.get("loc", ())), "reason": _reason(e)} for e in errors]


def _invalid_response(errors: Sequence[Any]) -> JSONResponse:
    details = validation_details(errors)
    message = "; ".join(f"{d['field']}: {d['reason']}" for d in details[:5])
    return JSONResponse(error_body("invalid_request", message, details), 422)


_UNPARSED = "There was an error parsing the body"


def install_error_handlers(app: FastAPI) -> None:
    """Maps every exception type to a JSON error response."""

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(
            error_body(exc.code, exc.message, exc.details), exc.status, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        return _invalid_response(exc.errors())

    @app.exception_handler(ValidationError)
    async def _invalid_model(request: Request, exc: ValidationError) -> JSONResponse:
        # A body validated by hand (streamed or raw-content endpoints).
        return _invalid_response(exc.errors())

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and exc.detail == _UNPARSED:
            # FastAPI says only "error parsing the body": name the problem.
            try:
                decode_utf8(await request.body(), "body")
                message = "body: not a JSON document"
            except InputError as e:
                message = str(e)
            return JSONResponse(error_body("invalid_body", message), 400)
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        return JSONResponse(error_body(code, str(exc.detail)), exc.status_code, headers=exc.headers)

    @app.exception_handler(InputError)
    async def _input(request: Request, exc: InputError) -> JSONResponse:
        return JSONResponse(error_body("invalid_input", str(exc)), 422)

    @app.exception_handler(ConfigError)
    async def _config(request: Request, exc: ConfigError) -> JSONResponse:
        return JSONResponse(error_body("invalid_input", str(exc)), 422)

    @app.exception_handler(StoreError)
    async def _store(request: Request, exc: StoreError) -> JSONResponse:
        logger.error("audit store failure: %s", exc)
        return JSONResponse(error_body("store_unavailable", str(exc)), 503)

    @app.exception_handler(RuntimeFailure)
    async def _runtime(request: Request, exc: RuntimeFailure) -> JSONResponse:
        logger.error("runtime failure: %s", exc)
        return JSONResponse(error_body("unavailable", str(exc)), 503)

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error on %s %s", request.method, request.url.path)
        return JSONResponse(error_body("internal_error", f"{type(exc).__name__}: {exc}"), 500)


class BodyTooLarge(InputError):
    """A streamed body passed the size limit after the answer had started."""


class BodyLimitMiddleware:
    """Refuses bodies over ``max_bytes`` with 413 before they are read whole.

    A declared ``Content-Length`` over the limit is refused at once; a chunked
    body is counted as it arrives and refused as soon as it passes the limit.
    """

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await self._refuse(send, declared)
                    return
        seen = 0
        refused = False
        started = False

        async def counting_receive() -> Message:
            # Over the limit: answer 413 now and tell the app the client left, so
            # it stops reading; whatever it sends afterwards is dropped.
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    refused = True
                    if started:
                        # A streamed answer is under way (/validate/stream): the
                        # route ends it with "event: error" and an audit record.
                        raise BodyTooLarge(
                            f"request body passed the limit of {self.max_bytes} bytes "
                            "(RECEIPTGATE_MAX_BODY_BYTES) while streaming; the rest was "
                            "not read"
                        )
                    await self._refuse(send, seen)
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if refused and not started:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counting_receive, guarded_send)

    async def _refuse(self, send: Send, size: int) -> None:
        import json

        body = json.dumps(
            error_body(
                "body_too_large",
                f"request body of {size} bytes or more is over the limit of "
                f"{self.max_bytes} bytes (RECEIPTGATE_MAX_BODY_BYTES)",
            )
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
