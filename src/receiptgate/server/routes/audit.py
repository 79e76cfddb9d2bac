"""Audit queries (RFC-003 §11.4), JSONL export and reviewer feedback (admin keys)."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query
from fastapi.responses import StreamingResponse

from receiptgate.bounds import MAX_OFFSET, MAX_PAGE, BoundedTime
from receiptgate.server.deps import AdminKey, ServiceDep
from receiptgate.server.errors import ApiError
from receiptgate.server.models import FeedbackRequest
from receiptgate.store import AuditFilter

router = APIRouter(tags=["audit"])

VerdictFilter = Literal[
    "pass", "flag", "block", "output_pass", "output_flag", "output_block", "error_fallback"
]


def audit_filter(
    agent_id: Annotated[str | None, Query(description="Only this agent.")] = None,
    verdict: Annotated[VerdictFilter | None, Query(description="Audit or plain verdict.")] = None,
    category: Annotated[
        str | None, Query(description="Records with a claim of this category.")
    ] = None,
    since: Annotated[
        BoundedTime | None, Query(description="Created at or after (ISO 8601).")
    ] = None,
    until: Annotated[BoundedTime | None, Query(description="Created before (ISO 8601).")] = None,
    session_id: Annotated[str | None, Query(description="Only this session.")] = None,
    turn_id: Annotated[
        str | None, Query(description="Only this turn (see GET /turns/{id}).")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_OFFSET)] = 0,
) -> AuditFilter:
    if since is not None and until is not None and until <= since:
        raise ApiError(
            422,
            "invalid_request",
            "until: must be later than since",
            details=[{"field": "until", "reason": "must be later than since"}],
        )
    return AuditFilter(
        agent_id=agent_id,
        verdict=verdict,
        category=category,
        since=since,
        until=until,
        session_id=session_id,
        turn_id=turn_id,
        limit=limit,
        offset=offset,
    )


Filter = Annotated[AuditFilter, Depends(audit_filter)]
RecordId = Path(min_length=1, max_length=100)


@router.get("/audit", summary="Query audit records (newest first)")
def query_audit(service: ServiceDep, principal: AdminKey, f: Filter) -> dict[str, Any]:
    records = service.store.query(f)
    return {
        "total": service.store.count(f),
        "limit": f.limit,
        "offset": f.offset,
        "records": [r.to_dict() for r in records],
    }


@router.get(
    "/audit/export",
    summary="Export matching audit records as JSONL (oldest first, every match)",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
)
def export_audit(service: ServiceDep, principal: AdminKey, f: Filter) -> StreamingResponse:
    # Written whole before the first byte is sent, so a store error is still a
    # JSON error and not a cut-off file; large exports spill to disk.
    spool = tempfile.SpooledTemporaryFile(max_size=8 << 20, mode="w+", encoding="utf-8")  # noqa: SIM115
    service.store.export_jsonl(f, spool)
    spool.seek(0)

    def chunks() -> Iterator[str]:
        with spool:
            while block := spool.read(64 << 10):
                yield block

    return StreamingResponse(
        chunks(),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": 'attachment; filename="receiptgate-audit.jsonl"'},
    )


@router.get("/audit/{record_id}", summary="One audit record with its feedback")
def get_record(
    service: ServiceDep, principal: AdminKey, record_id: str = RecordId
) -> dict[str, Any]:
    record = service.store.get_record(record_id)
    if record is None:
        raise ApiError(404, "not_found", f"no audit record {record_id!r}")
    return record.to_dict()


@router.post(
    "/audit/{record_id}/feedback",
    status_code=201,
    summary="Record a reviewer's agreement, disagreement or override",
)
def add_feedback(
    body: FeedbackRequest,
    service: ServiceDep,
    principal: AdminKey,
    record_id: str = RecordId,
) -> dict[str, Any]:
    if body.kind == "override" and body.verdict is None:
        raise ApiError(
            422,
            "invalid_request",
            "verdict: an override needs the verdict it sets (pass, flag or block)",
            details=[{"field": "verdict", "reason": "required when kind is override"}],
        )
    try:
        fb = service.store.add_feedback(
            record_id,
            kind=body.kind,
            verdict=body.verdict,
            note=body.note,
            by=principal.name or principal.key_id,
        )
    except KeyError:
        raise ApiError(404, "not_found", f"no audit record {record_id!r}") from None
    return fb.to_dict()
