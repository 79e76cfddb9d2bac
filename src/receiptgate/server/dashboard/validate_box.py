"""The Validate box: paste agent output (and receipts), see the highlighted report.

Owns ``POST /validate-ui``. It reads the form into the same
:class:`~receiptgate.server.models.ValidateRequest` the API takes, counts against
the key's rate limit and records the result like ``POST /validate`` does. Any
key scope may use it. An htmx request gets the result fragment; a plain form
post gets the whole home page.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from receiptgate._exceptions import ConfigError, InputError, RuntimeFailure
from receiptgate.evidence.receipts import parse_receipts
from receiptgate.server.dashboard.auth import (
    is_htmx,
    principal_of,
    same_origin,
    service_of,
    to_login,
)
from receiptgate.server.dashboard.history import index_page, parse_time
from receiptgate.server.dashboard.layout import as_str, build_report
from receiptgate.server.dashboard.render import PageRoute, forbidden_post, render
from receiptgate.server.deps import check_rate
from receiptgate.server.errors import ApiError
from receiptgate.server.models import ValidateRequest
from receiptgate.server.routes.validate import run_validation

router = APIRouter(include_in_schema=False, route_class=PageRoute)


def _validate_body(form: dict[str, str]) -> ValidateRequest:
    """The ValidateRequest the Validate box describes; InputError names the bad field."""
    text = form["text"]
    if not text.strip():
        raise InputError("text: paste the agent output to validate")
    trust: int | None = None
    if form["trust"].strip():
        try:
            trust = int(form["trust"].strip())
        except ValueError:
            raise InputError(
                f"trust: must be a whole number from 0 to 100 (got {form['trust']!r})"
            ) from None
        if not 0 <= trust <= 100:
            raise InputError(f"trust: must be from 0 to 100 (got {trust})")
    now: datetime | None = None
    if form["now"].strip():
        errors: list[str] = []
        now = parse_time("reference time", form["now"], errors)
        if errors:
            raise InputError(errors[0])
    receipts = None
    if form["receipts"].strip():
        parsed = parse_receipts(form["receipts"], source_name="receipts")
        receipts = [r.model_dump(mode="json", exclude_none=True) for r in parsed]
    try:
        return ValidateRequest(
            text=text,
            agent_id=form["agent_id"].strip() or None,
            trust=trust,
            channel=form["channel"].strip() or None,
            session_id=form["session_id"].strip() or None,
            receipts=receipts,
            now=now,
        )
    except ValidationError as e:
        problems = "; ".join(
            f"{'.'.join(map(str, err['loc']))}: {err['msg']}" for err in e.errors()[:3]
        )
        raise InputError(problems) from None


@router.post("/validate-ui", response_class=HTMLResponse)
def validate_box(
    request: Request,
    text: Annotated[str, Form()] = "",
    agent_id: Annotated[str, Form()] = "",
    trust: Annotated[str, Form()] = "",
    channel: Annotated[str, Form()] = "",
    now: Annotated[str, Form()] = "",
    session_id: Annotated[str, Form()] = "",
    receipts: Annotated[str, Form()] = "",
) -> Response:
    if not same_origin(request):
        return forbidden_post(request)
    principal = principal_of(request)
    if principal is None:
        return to_login(request)
    service = service_of(request)
    form = {
        "text": text,
        "agent_id": agent_id,
        "trust": trust,
        "channel": channel,
        "now": now,
        "session_id": session_id,
        "receipts": receipts,
    }
    status = 200
    result: dict[str, Any]
    try:
        body = _validate_body(form)
        check_rate(service, principal, None)
        _, report = run_validation(service, body, principal.name or principal.key_id)
        violations = report.get("violations") or ()
        result = {
            "report": report,
            "view": build_report(
                "v-" + as_str(report.get("id")),
                report.get("sentences") or (),
                report.get("claims") or (),
                body.text,
                violations,
            ),
            "error": None,
        }
    except (InputError, ConfigError) as e:
        status, result = 422, {"error": str(e)}
    except ApiError as e:  # the rate limit
        status, result = e.status, {"error": e.message}
    except RuntimeFailure as e:  # the store or a component is down
        status, result = 503, {"error": f"validation failed: {e}"}
    if not is_htmx(request):
        return index_page(request, principal, status, result=result, form=form)
    headers = {"HX-Trigger": "receiptgate:recorded"} if status == 200 else None
    return render(request, "_validate_result.html", status, headers, result=result)
