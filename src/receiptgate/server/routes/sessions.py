"""``POST /sessions/{id}/receipts``: ingest a session's evidence once, use it in every
validation."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Request

from receiptgate.evidence.receipts import inline_receipts, parse_receipts
from receiptgate.server.deps import ServiceDep, ValidateKey, decode_body, json_body
from receiptgate.server.errors import ApiError
from receiptgate.server.models import ReceiptsRequest

router = APIRouter(tags=["sessions"])

SessionId = Path(min_length=1, max_length=200, description="The agent session's id.")


@router.post(
    "/sessions/{session_id}/receipts",
    summary="Add receipts to a session",
    openapi_extra={
        "requestBody": {
            "content": {
                "application/json": {"schema": ReceiptsRequest.model_json_schema()},
                "application/x-ndjson": {"schema": {"type": "string"}},
                "text/plain": {"schema": {"type": "string"}},
            },
            "description": "JSON {receipts|messages}, or a receipts JSONL / transcript / "
            "OpenClaw session file as the raw body (format detected by content).",
        }
    },
)
async def add_receipts(
    request: Request,
    service: ServiceDep,
    principal: ValidateKey,
    session_id: str = SessionId,
) -> dict[str, Any]:
    raw = await request.body()
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype == "application/json":
        body = json_body(raw, ReceiptsRequest)
        receipts = inline_receipts(body.receipts, body.messages)
    else:
        receipts = parse_receipts(decode_body(raw), source_name="body")
    if not receipts:
        raise ApiError(422, "invalid_input", "body: no receipts given")
    total = service.ingest(session_id, receipts)
    return {"session_id": session_id, "added": len(receipts), "total": total}
