"""The stream's final report, made from the validation of the whole text.

When that validation agrees with every release it *is* the report; otherwise
the released records are assembled into one result, each disagreement noted.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from typing import Any

from receiptgate.pipeline import suggestions_of, top_reasons, verdict_of
from receiptgate.results import SentenceResult, ValidationResult, worst
from receiptgate.stream.events import Record

__all__ = ["assemble", "report"]

_RANK = {"pass": 0, "warn": 1, "block": 2}


def report(
    full: ValidationResult,
    records: Sequence[Record],
    *,
    rest_mode: bool,
    notes: list[str],
    failure: tuple[str, str] | None,
    eval_us: int,
) -> ValidationResult:
    """The report: ``full`` itself when it agrees with every release.

    Args:
        full: the validation of the whole text.
        records: the released sentences, in order.
        rest_mode: released boundaries moved, and the rest was judged on its own.
        notes: the stream's notes; a note for each released decision the whole
            text decides otherwise is added to it.
        failure: the first fail mode a validation applied, and its error.
        eval_us: the time every validation of the stream took.
    """
    if full.skipped is not None and not any(r.judged for r in records):
        out = full
    else:
        full_spans = {(s.start, s.end): s for s in full.sentences}
        changed: list[tuple[SentenceResult, SentenceResult]] = []
        if full.fail_mode_applied is None:
            for r in records:
                f = full_spans.get((r.sentence.start, r.sentence.end))
                if f is not None and (f.tag, f.action) != (r.sentence.tag, r.sentence.action):
                    changed.append((r.sentence, f))
        same = (
            not rest_mode
            and not changed
            and full.fail_mode_applied is None
            and all(r.judged for r in records)
            and [(s.start, s.end, s.kind) for s in full.sentences]
            == [(r.sentence.start, r.sentence.end, r.sentence.kind) for r in records]
        )
        out = full if same else assemble(full, records)
        for released, whole in changed:
            note = (
                f"stream: sentence {released.index + 1} was released as "
                f"{released.tag or 'untagged'}/{released.action}; the whole text decides "
                f"{whole.tag or 'untagged'}/{whole.action}; the released decision stands"
            )
            notes.append(note)
            if _RANK[whole.action] > _RANK[released.action]:
                # Already delivered, but the gate now judges it worse: never silent.
                out.verdict = worst(out.verdict, "flag")  # type: ignore[assignment]
                out.issues.append(
                    {
                        "sentence_index": released.index,
                        "claim_index": None,
                        "category": None,
                        "severity": "medium",
                        "action": "flag",
                        "start": released.start,
                        "end": released.end,
                        "message": note,
                    }
                )
    if failure is not None and out.fail_mode_applied is None:
        out.fail_mode_applied = failure[0]  # type: ignore[assignment]
        out.error = failure[1]
    out.notes = [*out.notes, *notes]
    out.evaluation_us = eval_us
    return out


def assemble(full: ValidationResult, records: Sequence[Record]) -> ValidationResult:
    """A report made of the released records, renumbered into one result."""
    out = ValidationResult(
        id=full.id,
        verdict="pass",
        created_at=full.created_at,
        agent_id=full.agent_id,
        channel=full.channel,
        hook=full.hook,
        trust_score=full.trust_score,
        trust_tier=full.trust_tier,
        policy=dict(full.policy),
        skipped=full.skipped if not any(r.judged for r in records) else None,
        notes=list(full.notes),
        fail_mode_applied=full.fail_mode_applied,
        error=full.error,
        checks=[dict(c) for c in full.checks],
    )
    warn_issues: list[dict[str, Any]] = []
    for i, rec in enumerate(records):
        base = len(out.claims)
        sr = rec.sentence
        out.sentences.append(
            dataclasses.replace(
                sr,
                index=i,
                claims=[base + j for j in sr.claims],
                evidence=[
                    dataclasses.replace(
                        e, claim_index=None if e.claim_index is None else base + e.claim_index
                    )
                    for e in sr.evidence
                ],
                reasons=list(sr.reasons),
            )
        )
        for c in rec.claims:
            claim = copy.copy(c)
            claim.sentence_index = i
            out.claims.append(claim)
        out.fact_checks.extend(
            dataclasses.replace(f, claim_index=base + f.claim_index) for f in rec.fact_checks
        )
        out.violations.extend(
            dataclasses.replace(v, claim_index=base + v.claim_index, sentence_index=i)
            for v in rec.violations
        )
        out.issues.extend(
            {**d, "sentence_index": i, "claim_index": base + d["claim_index"]}
            for d in rec.violation_issues
        )
        warn_issues.extend({**d, "sentence_index": i} for d in rec.warn_issues)
    out.issues.extend(warn_issues)
    out.issues.extend(d for d in full.issues if "sentence_index" not in d)
    out.suggestions = suggestions_of(out.violations, out.claims)
    verdict: str = verdict_of(out.sentences)
    own = verdict_of(full.sentences)
    if full.verdict != own and worst(full.verdict, own) == full.verdict:
        verdict = worst(verdict, full.verdict)  # truncation or fail_closed: not per sentence
    out.verdict = verdict  # type: ignore[assignment]
    if out.violations:
        why = top_reasons(out.violations)
    elif verdict == "flag":
        why = "sentences labelled as inference/unverified or not fully checked"
    else:
        why = "all claims supported or allowed by policy"
    out.reason = f"{verdict} (streamed; released decisions kept): {why}"
    return out
