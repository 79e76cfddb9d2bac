"""``POST /validate``: validate one output, record it in the audit, answer the report."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool

from receiptgate._ids import new_id
from receiptgate.evidence.receipts import inline_receipts
from receiptgate.results import ValidationResult
from receiptgate.rubrics import Rubric
from receiptgate.server.deps import JSONBytes, ServiceDep, ValidateKey, check_rate
from receiptgate.server.models import ValidateRequest
from receiptgate.server.service import Service

router = APIRouter(tags=["validate"])


def judge(service: Service, body: ValidateRequest) -> ValidationResult:
    """Runs the gate on the request (session receipts first brought up to date)."""
    inline = inline_receipts(body.receipts, body.messages)
    kwargs: dict[str, Any] = {
        "agent_id": body.agent_id,
        "trust": body.trust,
        "channel": body.channel,
        "now": body.now,
        "hook": body.hook,
        "rubric": service.rubric(body.rubric),
    }
    if body.session_id is None:
        result = service.gate.validate(body.text, receipts=inline, **kwargs)
    else:
        if inline:
            service.ingest(body.session_id, inline)
        lock, last, index = service.sessions.entry(body.session_id)
        with lock:
            service.sessions.refresh(body.session_id, (last, index))
            result = service.gate.validate(body.text, receipts=index, **kwargs)
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
)
async def validate(body: ValidateRequest, request: Request, principal: ValidateKey) -> JSONBytes:
    # The service straight from the app state, as ``get_service`` reads it: one
    # dependency fewer to resolve on the hottest route.
    service: Service = request.app.state.service
    # The gate is pure CPU (under a millisecond for typical outputs): it runs on
    # the event loop, which spares two thread hand-offs per request. Anything
    # that waits on a database or Redis runs in the thread pool; the audit commit
    # comes before the answer (Service.record_audit: on SQLite on the loop, else
    # on the store's writer thread, which shares commits between requests).
    if service.limiter.shared:
        await run_in_threadpool(check_rate, service, principal, body.user_id)
    else:
        check_rate(service, principal, body.user_id)
    if body.session_id is None and not service.gate.checkers:
        result = judge(service, body)
    else:
        # Session receipts come from the database; checkers (the LLM judge) wait on
        # their endpoints: neither may hold up the event loop.
        result = await run_in_threadpool(judge, service, body)
    turn_id = body.turn_id or new_id()
    await service.record_audit(
        result,
        body.text,
        session_id=body.session_id,
        turn_id=turn_id,
        key_name=principal.name or principal.key_id,
    )
    return JSONBytes(report_of(body, result, turn_id))
