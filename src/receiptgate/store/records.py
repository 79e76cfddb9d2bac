"""What the store returns: audit records, feedback, filters, API keys, stored facts.

An :class:`AuditRecord` is built from a ``ValidationResult`` by
:func:`build_audit_record`, which decides what of the agent's output reaches
the audit trail (RFC-003 §11, §14.3): the matched claim spans, reasons and
evidence details, all with secrets masked, plus a hash and the length of the
text. The full text only with ``store_text=True``.
"""

from __future__ import annotations

import hashlib
from dataclasses import asdict, dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

import orjson

from receiptgate._exceptions import InputError
from receiptgate.results import ValidationResult
from receiptgate.store.redact import might_hold_secret, redact_mapping, redact_text

AUDIT_VERDICTS = ("output_pass", "output_flag", "output_block", "error_fallback")
PLAIN_VERDICTS = ("pass", "flag", "block")
FEEDBACK_KINDS = ("agree", "disagree", "override")
KEY_SCOPES = ("validate", "admin")
MAX_LIMIT = 1000

#: ISO 27001 controls per audit verdict (RFC-003 §11.3). ``error_fallback`` is
#: handled by :func:`controls_for`.
CONTROLS: dict[str, tuple[str, ...]] = {
    "output_pass": ("A.8.10",),
    "output_flag": ("A.8.10", "A.5.24"),
    "output_block": ("A.8.10", "A.5.24", "A.5.28"),
}

_PREVIEW_CHARS = 280
_PREVIEW_JOIN = " … "


def controls_for(audit_verdict: str, verdict: str) -> list[str]:
    """The ISO 27001 controls of one record.

    An ``error_fallback`` is an incident whatever the fail mode decided, so it
    gets ``A.5.24`` on top of the controls of the verdict actually applied:
    fail-open (pass) gives ``A.8.10, A.5.24``; fail-closed (block) adds ``A.5.28``.
    """
    if audit_verdict != "error_fallback":
        return list(CONTROLS[audit_verdict])
    applied = CONTROLS["output_" + verdict]
    return [*applied, "A.5.24"] if "A.5.24" not in applied else list(applied)


@dataclass(slots=True)
class Feedback:
    """An operator's judgement of one audit record (agree, disagree, override)."""

    id: str
    record_id: str
    kind: str
    verdict: str | None
    note: str | None
    by: str | None
    created_at: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class AuditRecord:
    """One validation as the audit trail keeps it (RFC-003 §11, SPEC §8).

    ``created_at`` is the validation's ISO 8601 UTC time. ``text`` is ``None``
    unless the caller opted in with ``store_text=True``; ``text_preview`` holds
    the matched claim spans instead.
    """

    id: str
    created_at: str
    audit_verdict: str
    verdict: str
    grade: str
    agent_id: str | None = None
    session_id: str | None = None
    turn_id: str | None = None
    channel: str | None = None
    trigger_hook: str | None = None
    trust: dict[str, Any] = field(default_factory=dict)
    evaluation_us: int = 0
    claim_count: int = 0
    categories: list[str] = field(default_factory=list)
    controls: list[str] = field(default_factory=list)
    output_validation: dict[str, Any] = field(default_factory=dict)
    sentences: list[dict[str, Any]] = field(default_factory=list)
    claims: list[dict[str, Any]] = field(default_factory=list)
    text_sha256: str = ""
    text_length: int = 0
    text_preview: str = ""
    text: str | None = None
    fail_mode_applied: str | None = None
    error: str | None = None
    reason: str = ""
    key_name: str | None = None
    #: Calls of the checkers after the deterministic stage (the LLM judge): checker,
    #: stage, model, latency and token counts; no prompt or answer text.
    checks: list[dict[str, Any]] = field(default_factory=list)
    feedback: list[Feedback] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict: the export format and what the service returns."""
        out = {name: getattr(self, name) for name in _RECORD_FIELDS}
        out["feedback"] = [fb.to_dict() for fb in self.feedback]
        return out

    def payload(self) -> dict[str, Any]:
        """What goes in the ``payload`` column: everything but text and feedback."""
        return {name: getattr(self, name) for name in _PAYLOAD_FIELDS}

    @classmethod
    def from_payload(
        cls, payload: dict[str, Any], text: str | None, feedback: list[Feedback]
    ) -> AuditRecord:
        """Rebuilds a record from its stored row; unknown keys (newer writers) are dropped."""
        known = _PAYLOAD_FIELD_SET
        return cls(**{k: v for k, v in payload.items() if k in known}, text=text, feedback=feedback)


#: The record's fields in declaration order (``to_dict`` keys); the payload's are
#: the same without ``text`` and ``feedback``.
_RECORD_FIELDS = tuple(f.name for f in fields(AuditRecord))
_PAYLOAD_FIELDS = tuple(n for n in _RECORD_FIELDS if n not in ("text", "feedback"))
_PAYLOAD_FIELD_SET = frozenset(_PAYLOAD_FIELDS)


@dataclass(slots=True)
class AuditFilter:
    """Which audit records to return (RFC-003 §11.4 ``AuditFilter``, extended).

    Attributes:
        agent_id: only this agent's records.
        verdict: an audit verdict (``output_pass|output_flag|output_block|
            error_fallback``) or a plain one (``pass|flag|block``, which also
            matches an ``error_fallback`` whose fail mode applied that verdict).
        category: only records with at least one claim of this category
            (``claimCategory``).
        since: created at or after (inclusive); a naive datetime is UTC.
        until: created before (exclusive); a naive datetime is UTC.
        session_id: only this session's records.
        turn_id: only this turn's records.
        output_validation_only: ``outputValidationOnly``; every record is an
            output validation, so it filters nothing. Kept for compatibility.
        limit: page size for :meth:`Store.query`, 1-1000.
        offset: records to skip, newest first.
    """

    agent_id: str | None = None
    verdict: str | None = None
    category: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    session_id: str | None = None
    turn_id: str | None = None
    output_validation_only: bool | None = None
    limit: int = 100
    offset: int = 0

    def check(self) -> None:
        """Raises InputError naming the field when a value is out of range."""
        if self.verdict is not None and self.verdict not in AUDIT_VERDICTS + PLAIN_VERDICTS:
            allowed = ", ".join(AUDIT_VERDICTS + PLAIN_VERDICTS)
            raise InputError(f"verdict: must be one of {allowed} (got {self.verdict!r})")
        if not 1 <= self.limit <= MAX_LIMIT:
            raise InputError(f"limit: must be between 1 and {MAX_LIMIT} (got {self.limit})")
        if self.offset < 0:
            raise InputError(f"offset: must not be negative (got {self.offset})")


@dataclass(slots=True, frozen=True)
class ApiKey:
    """An API key's public part; the plaintext is shown once, at creation."""

    id: str
    name: str | None
    scope: str
    created_at: datetime
    revoked_at: datetime | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "scope": self.scope,
            "created_at": _iso(self.created_at),
            "revoked_at": _iso(self.revoked_at) if self.revoked_at else None,
        }


@dataclass(slots=True, frozen=True)
class StoredFact:
    """An operator fact written through the admin API, as stored."""

    registry_id: str
    fact_id: str
    data: dict[str, Any]
    updated_at: datetime

    def to_dict(self) -> dict[str, Any]:
        return {
            "registry_id": self.registry_id,
            "fact_id": self.fact_id,
            "data": self.data,
            "updated_at": _iso(self.updated_at),
        }


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds")


def parse_created_at(value: str) -> datetime:
    """Parses a result's ``created_at``; a time without a zone is UTC."""
    parsed = datetime.fromisoformat(value)
    return parsed.replace(tzinfo=UTC) if parsed.tzinfo is None else parsed.astimezone(UTC)


def _preview(spans: list[tuple[int, str]]) -> str:
    seen: set[tuple[int, str]] = set()
    parts: list[str] = []
    for span in sorted(spans):
        if span not in seen:
            seen.add(span)
            parts.append(span[1])
    # One screen of all spans: a word the screen needs inside one span is also in
    # the joined text, so no match there proves no span would be redacted.
    if might_hold_secret("\n".join(parts)):
        parts = [redact_text(part) for part in parts]
    preview = _PREVIEW_JOIN.join(parts)
    return preview if len(preview) <= _PREVIEW_CHARS else preview[: _PREVIEW_CHARS - 1] + "…"


_CHECK_FIELDS = (
    "checker", "stage", "model", "latency_ms", "cached", "attempts", "status",
    "prompt_tokens", "completion_tokens", "total_tokens", "external", "escalated",
    "votes", "findings", "error",
)  # fmt: skip


def _check_summary(call: dict[str, Any]) -> dict[str, Any]:
    """The audited part of one checker call (an error message is redacted with the rest)."""
    return {k: call[k] for k in _CHECK_FIELDS if k in call}


def build_audit_record(
    result: ValidationResult,
    text: str,
    *,
    session_id: str | None = None,
    turn_id: str | None = None,
    key_name: str | None = None,
    store_text: bool = False,
) -> AuditRecord:
    """Builds the audit record of one validation, redacted (RFC-003 §11, §14.3).

    Of the output, only matched claim spans, subjects, reasons and evidence
    details are kept, each with secrets masked; sentence texts are not. With
    ``store_text`` the full text is kept as given (not redacted: the caller
    asked for the exact output).
    """
    record, _ = build_audit_record_and_payload(
        result,
        text,
        session_id=session_id,
        turn_id=turn_id,
        key_name=key_name,
        store_text=store_text,
    )
    return record


def build_audit_record_and_payload(
    result: ValidationResult,
    text: str,
    *,
    session_id: str | None = None,
    turn_id: str | None = None,
    key_name: str | None = None,
    store_text: bool = False,
) -> tuple[AuditRecord, str]:
    """:func:`build_audit_record`, with the record's ``payload()`` serialised as
    the store writes it (orjson, UTF-8): the redaction screen serialises it
    anyway, so the store need not do it again."""
    claims = result.claims
    violations = [
        {
            "detectorId": claims[v.claim_index].detector_id,
            "category": v.category,
            "matchedText": claims[v.claim_index].matched_text,
            "subject": claims[v.claim_index].subject,
            "assertion": claims[v.claim_index].assertion,
            "reason": v.reason,
            "severity": v.severity,
            "contradictedFactId": v.fact_id,
            "receiptId": v.receipt_id,
        }
        for v in result.violations
    ]
    sentences = [
        {
            "index": s.index,
            "start": s.start,
            "end": s.end,
            "tag": s.tag,
            "action": s.action,
            "claims": [claims[i].matched_text for i in s.claims],
            "evidence": [
                {"kind": e.kind, "id": e.id, "relation": e.relation, "detail": e.detail}
                for e in s.evidence
            ],
            "reasons": list(s.reasons),
        }
        for s in result.sentences
    ]
    record = AuditRecord(
        id=result.id,
        created_at=_iso(parse_created_at(result.created_at)),
        audit_verdict=result.audit_verdict,
        verdict=result.verdict,
        grade=result.grade,
        agent_id=result.agent_id,
        session_id=session_id,
        turn_id=turn_id,
        channel=result.channel,
        trigger_hook=result.hook,
        trust={"score": result.trust_score, "tier": result.trust_tier},
        evaluation_us=result.evaluation_us,
        claim_count=len(claims),
        categories=sorted({c.category for c in claims}),
        controls=controls_for(result.audit_verdict, result.verdict),
        output_validation={
            "claimCount": len(claims),
            "violations": violations,
            "triggerHook": result.hook,
        },
        sentences=sentences,
        claims=[
            {
                "category": c.category,
                "detector_id": c.detector_id,
                "matched_text": c.matched_text,
                "offset": c.offset,
                "end": c.end,
                "sentence_index": c.sentence_index,
            }
            for c in claims
        ],
        text_sha256=hashlib.sha256(text.encode("utf-8")).hexdigest(),
        text_length=len(text),
        text_preview=_preview([(c.offset, c.matched_text) for c in claims]),
        fail_mode_applied=result.fail_mode_applied,
        error=result.error,
        reason=result.reason,
        key_name=key_name,
        checks=[_check_summary(c) for c in result.checks],
    )
    # One pass over every string of the record: nothing can be forgotten. Most
    # records hold nothing secret-shaped: one scan of the serialised record
    # proves it (the screen's words hold no character JSON escapes) and spares
    # the walk over every string, which costs more than the database write.
    payload = record.payload()
    serialised = orjson.dumps(payload).decode("utf-8")
    if might_hold_secret(serialised):
        record = AuditRecord.from_payload(redact_mapping(payload), None, [])
        serialised = orjson.dumps(record.payload()).decode("utf-8")
    record.text = text if store_text else None
    return record, serialised
