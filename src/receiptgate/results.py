"""The result of one validation (SPEC §6), as plain dataclasses with ``to_dict``.

The same object is returned by the Python API, printed by ``receiptgate check
--format json`` and (later) served over HTTP. Offsets index the original text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from receiptgate.checks.finding import FACT_CHECK_STATUS, Finding
from receiptgate.claims.models import DetectedClaim

if TYPE_CHECKING:
    from receiptgate.rubrics import RubricScore

Verdict = Literal["pass", "flag", "block"]
SentenceAction = Literal["pass", "warn", "block"]
Tag = Literal["T1", "T2", "T3", "T4", "T5", "T6", "T7"]
Grade = Literal["correct", "partially_correct", "incorrect"]
Severity = Literal["low", "medium", "high"]
FailModeApplied = Literal["fail_open", "fail_closed"]

#: Default mapping from verdict to the PRD grade (a rubric may refine it).
GRADE_BY_VERDICT: dict[Verdict, Grade] = {
    "pass": "correct",
    "flag": "partially_correct",
    "block": "incorrect",
}
AUDIT_VERDICT: dict[Verdict, str] = {
    "pass": "output_pass",
    "flag": "output_flag",
    "block": "output_block",
}
_RANK = {"pass": 0, "ignore": 0, "warn": 1, "flag": 1, "block": 2}


def worst(a: str, b: str) -> str:
    """Worst-wins between two actions or verdicts (block > flag/warn > pass)."""
    return a if _RANK[a] >= _RANK[b] else b


@dataclass(slots=True)
class Evidence:
    """A piece of evidence for or against a sentence.

    ``kind`` is ``fact``, a receipt kind (``tool``, ``web``, ``rag``, ``db``,
    ``memory``, ``user``), ``ledger`` (the action ledger) or ``policy``;
    ``relation`` is ``supports``, ``contradicts``, ``expired``, ``stale`` or
    ``missing``.
    """

    kind: str
    id: str | None
    relation: str
    detail: str
    claim_index: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "id": self.id,
            "relation": self.relation,
            "detail": self.detail,
            "claim_index": self.claim_index,
        }


@dataclass(slots=True)
class FactCheckRecord:
    """A claim's fact-registry check (RFC-003 §5.4)."""

    claim_index: int
    status: str
    fact_id: str | None
    expected: str | None
    claimed: str | None
    registry_id: str | None
    detail: str

    @classmethod
    def of(cls, claim_index: int, finding: Finding) -> FactCheckRecord:
        """The record of a fact check's finding, in RFC-003's vocabulary (``confirmed``,
        ``contradicted``, ``no_fact_found``, ``expired_fact``)."""
        return cls(
            claim_index,
            FACT_CHECK_STATUS[finding.status],
            finding.fact_id,
            finding.expected,
            finding.claimed,
            finding.registry_id,
            finding.detail,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "claim_index": self.claim_index,
            "status": self.status,
            "fact_id": self.fact_id,
            "expected": self.expected,
            "claimed": self.claimed,
            "registry_id": self.registry_id,
            "detail": self.detail,
        }


@dataclass(slots=True)
class Violation:
    """Why a claim flags or blocks (RFC-003 §7.1 ``OutputViolation``)."""

    claim_index: int
    sentence_index: int
    category: str
    reason: str
    severity: Severity
    action: Literal["flag", "block"]
    fact_id: str | None = None
    expected: str | None = None
    receipt_id: str | None = None

    def to_dict(self, claims: list[DetectedClaim]) -> dict[str, Any]:
        claim = claims[self.claim_index]
        return {
            "claim_index": self.claim_index,
            "sentence_index": self.sentence_index,
            "category": self.category,
            "detector_id": claim.detector_id,
            "matched_text": claim.matched_text,
            "subject": claim.subject,
            "assertion": claim.assertion,
            "reason": self.reason,
            "severity": self.severity,
            "action": self.action,
            "fact_id": self.fact_id,
            "expected": self.expected,
            "receipt_id": self.receipt_id,
        }


@dataclass(slots=True)
class SentenceResult:
    """One sentence with its tag, action, claims and evidence."""

    index: int
    text: str
    start: int
    end: int
    kind: str
    tag: Tag | None = None
    action: SentenceAction = "pass"
    claims: list[int] = field(default_factory=list)
    evidence: list[Evidence] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "kind": self.kind,
            "tag": self.tag,
            "action": self.action,
            "claims": list(self.claims),
            "evidence": [e.to_dict() for e in self.evidence],
            "reasons": list(self.reasons),
        }


@dataclass(slots=True)
class ValidationResult:
    """Everything one validation decided (SPEC §6)."""

    id: str
    verdict: Verdict
    created_at: str
    sentences: list[SentenceResult] = field(default_factory=list)
    claims: list[DetectedClaim] = field(default_factory=list)
    fact_checks: list[FactCheckRecord] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    issues: list[dict[str, Any]] = field(default_factory=list)
    suggestions: list[str] = field(default_factory=list)
    delivered_text: str | None = None
    fail_mode_applied: FailModeApplied | None = None
    error: str | None = None
    trust_score: int | None = None
    trust_tier: str | None = None
    policy: dict[str, Any] = field(default_factory=dict)
    agent_id: str | None = None
    channel: str | None = None
    hook: str | None = None
    skipped: str | None = None
    notes: list[str] = field(default_factory=list)
    #: One record per slower check (the LLM judge's calls): model, latency, tokens, status.
    checks: list[dict[str, Any]] = field(default_factory=list)
    evaluation_us: int = 0
    reason: str = ""
    #: The validated text, for whoever records the result (the audit keeps only its
    #: hash and spans); not part of ``to_dict()``.
    source_text: str | None = field(default=None, repr=False)
    #: The rubric's score; when set it decides ``grade`` (see ``receiptgate.rubrics``).
    rubric: RubricScore | None = None

    @property
    def grade(self) -> Grade:
        """The PRD grade: the rubric's when one was applied, else by verdict."""
        if self.rubric is not None:
            return self.rubric.grade
        return GRADE_BY_VERDICT[self.verdict]

    @property
    def audit_verdict(self) -> str:
        if self.fail_mode_applied is not None:
            return "error_fallback"
        return AUDIT_VERDICT[self.verdict]

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "verdict": self.verdict,
            "grade": self.grade,
            "rubric": None if self.rubric is None else self.rubric.to_dict(),
            "reason": self.reason,
            "audit_verdict": self.audit_verdict,
            "sentences": [s.to_dict() for s in self.sentences],
            "claims": [c.to_dict() for c in self.claims],
            "fact_checks": [f.to_dict() for f in self.fact_checks],
            "violations": [v.to_dict(self.claims) for v in self.violations],
            "issues": list(self.issues),
            "suggestions": list(self.suggestions),
            "delivered_text": self.delivered_text,
            "fail_mode_applied": self.fail_mode_applied,
            "error": self.error,
            "trust": {"score": self.trust_score, "tier": self.trust_tier},
            "policy": dict(self.policy),
            "agent_id": self.agent_id,
            "channel": self.channel,
            "hook": self.hook,
            "skipped": self.skipped,
            "notes": list(self.notes),
            "checks": [dict(c) for c in self.checks],
            "evaluation_us": self.evaluation_us,
            "created_at": self.created_at,
        }
