"""``POST /validate``: validate one output, record it in the audit, answer the report."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool

from receiptgate._ids import new_id
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import inline_receipts
from receiptgate.results import ValidationResult
from receiptgate.rubrics import Rubric
from receiptgate.server.deps import (
    JSONBytes,
    ServiceDep,
    ValidateKey,
    count_validation,
    json_body,
)
from receiptgate.server.models import ValidateRequest
from receiptgate.server.schemas import ValidationReport
from receiptgate.server.service import Service

router = APIRouter(tags=["validate"])

#: A body up to this size is validated on the event loop (well under a millisecond;
#: a thread hop would cost more); larger ones, and chunked ones, in the thread pool.
INLINE_BODY_BYTES = 16_384


def run_gate(gate: Gate, body: ValidateRequest, rubric: Rubric | None) -> ValidationResult:
    """Runs ``gate`` on a request without a session (also in the worker process)."""
    result = gate.validate(
        body.text,
        receipts=inline_receipts(body.receipts, body.messages),
        agent_id=body.agent_id,
        trust=body.trust,
        channel=body.channel,
        now=body.now,
        hook=body.hook,
        rubric=rubric,
    )
    result.notes.extend(body.cleaning_notes())
    return result


def judge(service: Service, body: ValidateRequest) -> ValidationResult:
    """Runs the gate on the request (session receipts first brought up to date)."""
    if body.session_id is None:
        return run_gate(service.gate, body, service.rubric(body.rubric))
    inline = inline_receipts(body.receipts, body.messages)
    if inline:
        service.ingest(body.session_id, inline)
    lock, last, index = service.sessions.entry(body.session_id)
    with lock:
        service.sessions.refresh(body.session_id, (last, index))
        result = service.gate.validate(
            body.text,
            receipts=index,
            agent_id=body.agent_id,
            trust=body.trust,
            channel=body.channel,
            now=body.now,
            hook=body.hook,
            rubric=service.rubric(body.rubric),
        )
    result.notes.extend(body.cleaning_notes())
    return result


def record(
    service: Service, body: ValidateRequest, result: ValidationResult, key_name: str | None
) -> dict[str, Any]:
    """Commits the audit record, then builds the report (PRD fields included)."""
    turn_id = body.turn_id or new_id()
    service.store.record_validation(
        result,
        body.text,
        session_id=body.session_id,
        turn_id=turn_id,
        key_name=key_name,
        store_text=service.settings.store_text,
    )
    return report_of(body, result, turn_id)


def report_of(body: ValidateRequest, result: ValidationResult, turn_id: str) -> dict[str, Any]:
    """The answer: the result (SPEC §6) plus the PRD's turn_id and revised_plan."""
    report = result.to_dict()
    report["turn_id"] = turn_id
    report["session_id"] = body.session_id
    delivered = result.delivered_text
    report["revised_plan"] = delivered if delivered is not None and delivered != body.text else None
    return report


def run_validation(
    service: Service, body: ValidateRequest, key_name: str | None
) -> tuple[ValidationResult, dict[str, Any]]:
    """Validates, commits the audit record, and returns the result and the report."""
    result = judge(service, body)
    return result, record(service, body, result, key_name)


@router.get("/rubrics", summary="Rubrics a request can name (PRD rubric library)")
def rubrics(service: ServiceDep, principal: ValidateKey) -> dict[str, Any]:
    def summary(r: Rubric) -> dict[str, Any]:
        return r.model_dump(mode="json", by_alias=True)

    return {
        "default": summary(service.gate.rubric),
        "rubrics": [summary(r) for r in service.rubrics.values()],
    }


@router.post(
    "/validate",
    response_class=JSONBytes,
    summary="Validate one agent output",
    response_description="The ValidationReport (SPEC §6), recorded in the audit before it is sent.",
    responses={200: {"model": ValidationReport}},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": ValidateRequest.model_json_schema()}},
        }
    },
)
async def validate(request: Request, principal: ValidateKey) -> JSONBytes:
    # The service straight from the app state, as ``get_service`` reads it: one
    # dependency fewer to resolve on the hottest route.
    service: Service = request.app.state.service
    # A small body is parsed and validated on the event loop: well under a
    # millisecond, less than two thread hand-offs. A large one (many receipts:
    # tens of milliseconds of CPU), a session (receipts from the database) and the
    # checkers (the LLM judge waits on its endpoint) go to the thread pool, so no
    # request holds up the loop and the small requests behind it. The audit commit
    # comes before the answer (Service.record_audit).
    raw = await request.body()
    if len(raw) <= INLINE_BODY_BYTES:
        body = json_body(raw, ValidateRequest)
        await count_validation(service, principal, body.user_id)
        if body.session_id is None and not service.gate.checkers:
            result = judge(service, body)
        else:
            result = await run_in_threadpool(judge, service, body)
    else:
        # The key's budget is checked before the work; its user's share once the
        # worker has read the body (the user id is inside it).
        await count_validation(service, principal, None, "key")
        done = await service.offload.validate(raw)
        if done is None:  # a session's receipts live here; or no worker
            body = await run_in_threadpool(json_body, raw, ValidateRequest)
            await count_validation(service, principal, body.user_id, "user")
            result = await run_in_threadpool(judge, service, body)
        else:
            body, result = done
            await count_validation(service, principal, body.user_id, "user")
    turn_id = body.turn_id or new_id()
    await service.record_audit(
        result,
        body.text,
        session_id=body.session_id,
        turn_id=turn_id,
        key_name=principal.name or principal.key_id,
    )
    return JSONBytes(report_of(body, result, turn_id))
