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

from receiptgate._exceptions import ReceiptgateError
from receiptgate._ids import new_id
from receiptgate.evidence.receipts import inline_receipts
from receiptgate.results import ValidationResult
from receiptgate.server.deps import ServiceDep, ValidateKey, check_rate, json_body
from receiptgate.server.errors import ApiError, error_body
from receiptgate.server.models import ValidateRequest
from receiptgate.server.service import Service
from receiptgate.stream import SentenceEvent, StreamGate

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
        body = json_body(await request.body(), ValidateRequest)
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
        try:
            source = chunks if chunks is not None else _once(body.text)
            async for piece in source:
                text_parts.append(piece)
                for ev in await run_in_threadpool(_locked, session_lock, gate_stream.feed, piece):
                    yield sse("sentence", ev.to_dict())
            final_events, result = await run_in_threadpool(
                _locked, session_lock, _close, gate_stream
            )
            for ev in final_events:
                yield sse("sentence", ev.to_dict())
            text = "".join(text_parts)
            turn = body.turn_id or new_id()
            await run_in_threadpool(
                service.store.record_validation,
                result,
                text,
                session_id=body.session_id,
                turn_id=turn,
                key_name=key_name,
                store_text=service.settings.store_text,
            )
            report = result.to_dict()
            report.update(turn_id=turn, session_id=body.session_id, revised_plan=None)
            if result.delivered_text is not None and result.delivered_text != text:
                report["revised_plan"] = result.delivered_text
            yield sse("report", report)
        except ApiError as e:
            yield sse("error", error_body(e.code, e.message, e.details))
        except ReceiptgateError as e:
            yield sse("error", error_body(type(e).__name__, str(e)))
        except Exception as e:
            yield sse("error", error_body("internal_error", f"{type(e).__name__}: {e}"))

    return _SSEResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _once(text: str) -> AsyncIterator[str]:
    yield text


async def _decoded(request: Request) -> AsyncIterator[str]:
    decoder = codecs.getincrementaldecoder("utf-8")()
    async for chunk in request.stream():
        piece = decoder.decode(chunk)
        if piece:
            yield piece
    tail = decoder.decode(b"", final=True)
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


def _close(stream: StreamGate) -> tuple[list[SentenceEvent], ValidationResult]:
    events = stream.flush()
    return events, stream.close()
