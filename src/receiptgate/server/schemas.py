"""Response bodies of the HTTP API, for the OpenAPI schema (``/openapi.json``).

The routes serialise plain dicts (``ValidationResult.to_dict()``, orjson), so
these models document the answers rather than build them; ``tests/server/
test_openapi_fuzz.py`` runs schemathesis to check that every answer matches its
declared status and schema. They allow extra keys: clients must ignore keys
they do not know, and new ones are added over time.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class ErrorDetail(_Open):
    field: str
    reason: str


class ErrorBody(_Open):
    """Every 4xx/5xx answer of the API (except ``/healthz`` and ``/readyz``)."""

    error: str = Field(description="A stable code: invalid_request, rate_limited, ...")
    message: str = Field(description="What was wrong, naming the field or file.")
    details: list[ErrorDetail] = Field(default_factory=list)


class EvidenceOut(_Open):
    kind: str
    id: str | None
    relation: str
    detail: str
    claim_index: int | None


class SentenceOut(_Open):
    index: int
    text: str
    start: int
    end: int
    kind: str
    tag: Literal["T1", "T2", "T3", "T4", "T5", "T6", "T7"] | None
    action: Literal["pass", "warn", "block"]
    claims: list[int]
    evidence: list[EvidenceOut]
    reasons: list[str]


class ClaimOut(_Open):
    category: str
    detector_id: str
    matched_text: str
    offset: int
    end: int
    subject: str
    assertion: str
    negative: bool
    confidence: float
    sentence_index: int
    hard_facts: list[dict[str, Any]]


class TrustOut(_Open):
    score: int | None
    tier: str | None


class ValidationReport(_Open):
    """``POST /validate``: the result of SPEC §6 plus the PRD's turn fields."""

    id: str
    verdict: Literal["pass", "flag", "block"]
    grade: Literal["correct", "partially_correct", "incorrect"]
    rubric: dict[str, Any] | None
    reason: str
    audit_verdict: Literal["output_pass", "output_flag", "output_block", "error_fallback"]
    sentences: list[SentenceOut]
    claims: list[ClaimOut]
    fact_checks: list[dict[str, Any]]
    violations: list[dict[str, Any]]
    issues: list[dict[str, Any]]
    suggestions: list[str]
    delivered_text: str | None
    fail_mode_applied: Literal["fail_open", "fail_closed"] | None
    error: str | None
    trust: TrustOut
    policy: dict[str, Any]
    agent_id: str | None
    channel: str | None
    hook: str | None
    skipped: str | None
    notes: list[str]
    checks: list[dict[str, Any]]
    evaluation_us: int
    created_at: str
    turn_id: str
    session_id: str | None
    revised_plan: str | None


class HealthBody(_Open):
    """``GET /healthz`` and ``GET /readyz``: ``ok``/``ready`` or why not."""

    status: Literal["ok", "degraded", "ready", "not_ready"]
    store: str


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` entries declaring ``codes`` with the error body."""
    text = {
        400: "The body is not UTF-8 or not JSON.",
        401: "No API key, or an unknown or revoked one.",
        403: "The key's scope does not allow this.",
        404: "No such object.",
        409: "The object cannot be changed here.",
        413: "The body is over the size limit.",
        422: "A field or parameter is invalid; the message names it.",
        429: "The rate limit is spent; see Retry-After.",
        503: "The store or the rate-limit store is unavailable.",
    }
    return {c: {"model": ErrorBody, "description": text[c]} for c in codes}


#: Errors the routes answer (each route documents all of them: simpler for clients
#: than a list per route, and a code a route never sends does no harm).
COMMON_ERRORS = errors(400, 401, 403, 404, 409, 413, 422, 429, 503)

#: A JSON object answer served by ``JSONBytes`` (which FastAPI would call a string).
JSON_OBJECT: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {"schema": {"type": "object"}}}}
}
