"""``POST /hooks/{event}``: the runtime hooks of SPEC §7 over HTTP, for runtimes in any language.

The body is the event as the seeds define it (JSON, camelCase); the answer carries
the seeds' result fields at the top level — ``cancel``, ``block``, ``blockReason``,
``content``, ``tools``, ``toolCalls`` (those a handler set) — plus ``validations``
(the reports of the texts the gate checked), ``errors`` and ``notes``. Every
validation a hook ran is in the audit, with the event as its trigger hook, the
event's ``sessionKey`` as its session and the provenance turn as its turn (so the
dashboard links a blocked output to the turn graph that explains it), before the
answer is sent.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Path
from fastapi.concurrency import run_in_threadpool

from receiptgate.hooks.events import EVENTS
from receiptgate.server.deps import JSONBytes, ServiceDep, ValidateKey, check_rate
from receiptgate.server.errors import ApiError
from receiptgate.server.schemas import JSON_OBJECT
from receiptgate.text.clean import clean_data, replaced_note

router = APIRouter(tags=["hooks"])


@router.post(
    "/hooks/{event}",
    response_class=JSONBytes,
    summary="Dispatch one runtime hook event (SPEC §7) to the gate's handlers",
    responses=JSON_OBJECT,
)
async def hook(
    service: ServiceDep,
    principal: ValidateKey,
    payload: dict[str, Any] = Body(description="The event, JSON as in the seeds."),  # noqa: B008
    event: str = Path(
        description="The event name, e.g. before_message_write.",
        json_schema_extra={"enum": list(EVENTS)},
    ),
) -> JSONBytes:
    if event not in EVENTS:
        raise ApiError(404, "not_found", f"no hook event {event!r} (known: {', '.join(EVENTS)})")
    # Hook events have their own budget per key (RECEIPTGATE_HOOK_RATE_LIMIT): an agent turn
    # sends a dozen events, so the per-user validation budget (3/minute) would stop it.
    if service.hook_limiter.shared:
        await run_in_threadpool(check_rate, service, principal, None, hooks=True)
    else:
        check_rate(service, principal, None, hooks=True)
    dispatcher = service.hook_dispatcher()
    payload, replaced = clean_data(payload)  # text/clean.py: lone surrogates -> U+FFFD
    outcome = await run_in_threadpool(dispatcher.dispatch, event, payload)
    if replaced:
        outcome.notes.append(replaced_note("event", replaced))
    if outcome.validations:
        session_id, turn_id = service.provenance.audit_ids(outcome.parsed)
        for result in outcome.validations:
            await service.record_audit(
                result,
                result.source_text or "",
                session_id=session_id,
                turn_id=turn_id,
                key_name=principal.name or principal.key_id,
            )
    return JSONBytes(outcome.answer())
