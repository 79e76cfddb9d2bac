"""``POST /validate/stream``: one server-sent event per sentence as soon as it is decided.

The text can arrive all at once (a JSON body like ``POST /validate``) or as it
is generated: a ``text/plain`` body sent in chunks (HTTP chunked transfer), with
the other fields as query parameters. Each sentence is released only once it
has been judged (:class:`receiptgate.stream.StreamGate`):

    event: sentence
    data: {"index": 0, "tag": "T4", "action": "pass", "delivered": "...", ...}

    event: report
    data: {...the report of POST /validate...}

The audit record is committed before the ``report`` event is sent. An error
after the stream started ends it with ``event: error`` (never a silent pass).
"""

from __future__ import annotations

import codecs
import json
import threading
from collections.abc import AsyncIterator, Callable
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.concurrency import run_in_threadpool
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from receiptgate._exceptions import InputError, ReceiptgateError
from receiptgate._ids import new_id
from receiptgate.evidence.receipts import inline_receipts
from receiptgate.results import ValidationResult
from receiptgate.server.deps import ServiceDep, ValidateKey, check_rate, json_body
from receiptgate.server.errors import ApiError, BodyTooLarge, error_body
from receiptgate.server.models import ValidateRequest
from receiptgate.server.service import Service
from receiptgate.stream import StreamGate

router = APIRouter(tags=["validate"])
T = TypeVar("T")


class _SSEResponse(StreamingResponse):
    """Streams without Starlette's disconnect listener, which would swallow the
    request body chunks that this endpoint is still reading."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.stream_response(send)


def sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


@router.post(
    "/validate/stream",
    summary="Validate a text as it is generated; server-sent events per sentence",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
    openapi_extra={
        "requestBody": {
            "content": {
                "application/json": {"schema": ValidateRequest.model_json_schema()},
                "text/plain": {"schema": {"type": "string"}},
            }
        }
    },
)
async def validate_stream(
    request: Request,
    service: ServiceDep,
    principal: ValidateKey,
    agent_id: Annotated[str | None, Query()] = None,
    trust: Annotated[int | None, Query(ge=0, le=100)] = None,
    channel: Annotated[str | None, Query()] = None,
    hook: Annotated[str | None, Query()] = None,
    session_id: Annotated[str | None, Query(min_length=1, max_length=200)] = None,
    turn_id: Annotated[str | None, Query(max_length=200)] = None,
    user_id: Annotated[str | None, Query(max_length=200)] = None,
    now: Annotated[datetime | None, Query()] = None,
) -> StreamingResponse:
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype == "application/json":
        body = await run_in_threadpool(json_body, await request.body(), ValidateRequest)
        chunks: AsyncIterator[str] | None = None
    else:
        body = ValidateRequest(
            text="",
            agent_id=agent_id,
            trust=trust,
            channel=channel,
            hook=hook,
            session_id=session_id,
            turn_id=turn_id,
            user_id=user_id,
            now=now,
        )
        chunks = _decoded(request)
    check_rate(service, principal, body.user_id)
    inline = inline_receipts(body.receipts, body.messages)
    gate_stream, session_lock = await run_in_threadpool(_open_stream, service, body, inline)
    key_name = principal.name or principal.key_id

    async def events() -> AsyncIterator[str]:
        text_parts: list[str] = []
        turn = body.turn_id or new_id()
        try:
            source = chunks if chunks is not None else _once(body.text)
            async for piece in source:
                text_parts.append(piece)
                # The events of one piece leave as one write, serialised off the loop.
                out = await run_in_threadpool(_locked, session_lock, _feed, gate_stream, piece)
                if out:
                    yield out
            final_events, result = await run_in_threadpool(
                _locked, session_lock, _close, gate_stream
            )
            if final_events:
                yield final_events
            text = gate_stream.text
            result.notes.extend(body.cleaning_notes())
            await run_in_threadpool(
                service.store.record_validation,
                result,
                text,
                session_id=body.session_id,
                turn_id=turn,
                key_name=key_name,
                store_text=service.settings.store_text,
            )
            yield await run_in_threadpool(_report_event, result, text, turn, body.session_id)
        except Exception as e:
            # After the 200 went out the only way to refuse is this event; the audit
            # records the stream as cut off (the fail mode applied, never a pass).
            if isinstance(e, ApiError):
                error = error_body(e.code, e.message, e.details)
            elif isinstance(e, ReceiptgateError):
                code = "body_too_large" if isinstance(e, BodyTooLarge) else type(e).__name__
                error = error_body(code, str(e))
            else:
                error = error_body("internal_error", f"{type(e).__name__}: {e}")
            try:
                failed = service.gate.failed(
                    "".join(text_parts),
                    e,
                    agent_id=body.agent_id,
                    channel=body.channel,
                    hook=body.hook,
                    trust=body.trust,
                )
                await run_in_threadpool(
                    service.store.record_validation,
                    failed,
                    failed.source_text or "",
                    session_id=body.session_id,
                    turn_id=turn,
                    key_name=key_name,
                    store_text=service.settings.store_text,
                )
                error["audit_id"] = failed.id
            except Exception as audit_error:  # the store is down too: say so
                error["audit_error"] = f"{type(audit_error).__name__}: {audit_error}"
            yield sse("error", error)

    return _SSEResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _report_event(result: ValidationResult, text: str, turn: str, session: str | None) -> str:
    """The ``report`` event (a large report is serialised off the event loop)."""
    report = result.to_dict()
    report.update(turn_id=turn, session_id=session, revised_plan=None)
    if result.delivered_text is not None and result.delivered_text != text:
        report["revised_plan"] = result.delivered_text
    return sse("report", report)


async def _once(text: str) -> AsyncIterator[str]:
    yield text


async def _decoded(request: Request) -> AsyncIterator[str]:
    """The body's chunks as text; bytes that are not UTF-8 end the stream (text/clean.py)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    seen = 0
    try:
        async for chunk in request.stream():
            piece = decoder.decode(chunk)
            seen += len(chunk)
            if piece:
                yield piece
        tail = decoder.decode(b"", final=True)
    except UnicodeDecodeError as e:
        raise InputError(
            f"body: not UTF-8 text (byte 0x{e.object[e.start]:02x} near offset "
            f"{max(0, seen - len(e.object) + e.start)})"
        ) from None
    if tail:
        yield tail


def _locked(lock: threading.Lock | None, call: Callable[..., T], *args: Any) -> T:
    """Runs ``call`` holding the session's lock: its receipt index is shared with
    other requests of the session, which may add receipts to it."""
    if lock is None:
        return call(*args)
    with lock:
        return call(*args)


def _open_stream(
    service: Service, body: ValidateRequest, inline: list[Any]
) -> tuple[StreamGate, threading.Lock | None]:
    receipts: Any = inline
    lock: threading.Lock | None = None
    if body.session_id is not None:
        if inline:
            service.ingest(body.session_id, inline)
        lock, last, index = service.sessions.entry(body.session_id)
        with lock:
            service.sessions.refresh(body.session_id, (last, index))
        receipts = index
    stream = StreamGate(
        service.gate,
        agent_id=body.agent_id,
        trust=body.trust,
        channel=body.channel,
        now=body.now,
        hook=body.hook,
        receipts=receipts,
        rubric=service.rubric(body.rubric),
    )
    return stream, lock


def _feed(stream: StreamGate, piece: str) -> str:
    return "".join(sse("sentence", ev.to_dict()) for ev in stream.feed(piece))


def _close(stream: StreamGate) -> tuple[str, ValidationResult]:
    events = stream.flush()
    return "".join(sse("sentence", ev.to_dict()) for ev in events), stream.close()
