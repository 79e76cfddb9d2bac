"""What the stream records and emits for each sentence it releases.

``SentenceEvent`` is what a client receives; ``Record`` is what the final report
needs about a released sentence, with its claim indexes made local so records
from different validations can be joined (see ``report.py``).
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from typing import Any

from receiptgate.claims.models import DetectedClaim
from receiptgate.results import (
    FactCheckRecord,
    SentenceAction,
    SentenceResult,
    ValidationResult,
    Violation,
)
from receiptgate.text.segment import Sentence

__all__ = ["Record", "SentenceEvent", "extract", "released_event", "unchecked", "unjudged"]


@dataclass(frozen=True, slots=True)
class SentenceEvent:
    """One sentence decided: what it is, what the gate said, what to send.

    Attributes:
        index: position of the sentence in the stream (and in the final report).
        start: offset of its first character in the streamed text.
        end: offset one past its last character.
        text: the sentence as the model wrote it.
        kind: the segmenter's block kind (``prose``, ``list_item``, ...).
        tag: T1-T7, or ``None`` for a sentence without a factual claim.
        action: ``pass``, ``warn`` or ``block``.
        delivered: the text to send now: the layout before the sentence (spaces,
            newlines, list markers) and the sentence as the rewrite delivers it;
            ``""`` when the sentence is dropped. The last event also carries what
            ends the output (trailing layout, the block notice, the audit tail).
        evidence: the sentence's evidence, as in ``SentenceResult.to_dict()``
            (``claim_index`` counts the claims of the stream in release order,
            as the report does).
        reasons: why the gate decided so.
        last: whether this is the final event of the stream.
    """

    index: int
    start: int
    end: int
    text: str
    kind: str
    tag: str | None
    action: SentenceAction
    delivered: str
    evidence: list[dict[str, Any]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    last: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "kind": self.kind,
            "tag": self.tag,
            "action": self.action,
            "delivered": self.delivered,
            "evidence": list(self.evidence),
            "reasons": list(self.reasons),
            "last": self.last,
        }


@dataclass(slots=True)
class Record:
    """A released sentence with everything the report needs about it.

    Claim indexes inside (``sentence.claims``, evidence, violations, issues) are
    local to ``claims``, so records from different validations can be joined.
    """

    sentence: SentenceResult
    claims: list[DetectedClaim] = field(default_factory=list)
    fact_checks: list[FactCheckRecord] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    violation_issues: list[dict[str, Any]] = field(default_factory=list)
    warn_issues: list[dict[str, Any]] = field(default_factory=list)
    judged: bool = True


def released_event(s: Sentence, sr: SentenceResult, delivered: str, base: int) -> SentenceEvent:
    """The event of ``s``, released as ``sr`` with ``delivered`` as its text to send.

    ``base`` is the number of claims released before it: the event's claim
    indexes count in release order, as the report's do.
    """
    return SentenceEvent(
        index=sr.index,
        start=s.start,
        end=s.end,
        text=s.text,
        kind=s.kind,
        tag=sr.tag,
        action=sr.action,
        delivered=delivered,
        evidence=[
            {
                **e.to_dict(),
                "claim_index": None if e.claim_index is None else base + e.claim_index,
            }
            for e in sr.evidence
        ],
        reasons=list(sr.reasons),
    )


def extract(result: ValidationResult, s: SentenceResult) -> Record:
    """Copies one sentence's share of ``result``, with claim indexes made local."""
    owned = [i for i, c in enumerate(result.claims) if c.sentence_index == s.index]
    local = {g: j for j, g in enumerate(owned)}
    sentence = SentenceResult(
        s.index,
        s.text,
        s.start,
        s.end,
        s.kind,
        tag=s.tag,
        action=s.action,
        claims=[local[g] for g in s.claims if g in local],
        evidence=[
            dataclasses.replace(e, claim_index=local.get(e.claim_index))
            if e.claim_index is not None
            else dataclasses.replace(e)
            for e in s.evidence
        ],
        reasons=list(s.reasons),
    )
    return Record(
        sentence,
        claims=[copy.copy(result.claims[g]) for g in owned],
        fact_checks=[
            dataclasses.replace(f, claim_index=local[f.claim_index])
            for f in result.fact_checks
            if f.claim_index in local
        ],
        violations=[
            dataclasses.replace(v, claim_index=local[v.claim_index])
            for v in result.violations
            if v.sentence_index == s.index and v.claim_index in local
        ],
        violation_issues=[
            {**d, "claim_index": local[d["claim_index"]]}
            for d in result.issues
            if d.get("sentence_index") == s.index and d.get("claim_index") in local
        ],
        warn_issues=[
            dict(d)
            for d in result.issues
            if d.get("sentence_index") == s.index and d.get("claim_index") is None
        ],
    )


def unjudged(s: Sentence, mode: str, error: str) -> Record:
    """A sentence whose validation hit an internal error: the fail mode decides
    (fail_closed withholds it, fail_open delivers it flagged: never a pass)."""
    action: SentenceAction = "block" if mode == "fail_closed" else "warn"
    reason = f"internal error ({mode}): {error}"
    return Record(
        SentenceResult(0, s.text, s.start, s.end, s.kind, action=action, reasons=[reason]),
        judged=False,
    )


def unchecked(s: Sentence, why: str, fail_mode: str) -> Record:
    """A sentence no validation could judge: never a silent pass."""
    closed = fail_mode == "fail_closed"
    action: SentenceAction = "block" if closed else "warn"
    reason = f"{why} ({'fail_closed: withheld' if closed else 'fail_open: delivered, flagged'})"
    return Record(
        SentenceResult(0, s.text, s.start, s.end, s.kind, action=action, reasons=[reason]),
        judged=False,
    )
