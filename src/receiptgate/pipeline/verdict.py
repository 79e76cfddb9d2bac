"""Stages 5-7: decide each sentence, run the checkers, then the verdict and the rewrite.

``decide_sentences`` turns each claim's findings into actions and each sentence into
a T1-T7 tag and an action (``policy/``); ``run_checkers`` asks the LLM checkers about
what the deterministic stages left open (``checkers/``, SPEC §5); ``finish`` gives the
verdict, the reason, the issues and suggestions, and the delivered text
(``rewrite``). ``verdict_of``, ``top_reasons`` and ``suggestions_of`` are shared with
the stream's report (``stream/report.py``).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Iterable, Sequence

from receiptgate.checkers.base import CheckOutcome, CheckRequest, apply_outcome, targets_for
from receiptgate.checks.finding import Finding
from receiptgate.checks.runs import result_unrun
from receiptgate.claims.detectors.base import HEDGED_CONFIDENCE
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.facts import Fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.pipeline.claimless import ground_claimless
from receiptgate.pipeline.request import Request, Settings
from receiptgate.policy.decide import decide, rfc_only, tag_sentence
from receiptgate.policy.explain import SKIP_REASON, TAG_REASON, evidence_of, suggestion
from receiptgate.results import (
    Evidence,
    FactCheckRecord,
    SentenceResult,
    Verdict,
    Violation,
    worst,
)
from receiptgate.rewrite import rewrite

logger = logging.getLogger("receiptgate")

#: Sentence types whose figures are hedged or promised, not observed.
HEDGED = ("hedged", "future")


def decide_sentences(s: Settings, req: Request) -> None:
    """Actions for each claim's findings, and each sentence's tag and action."""
    cfg, result = s.config, req.result
    profile = req.policy.profile
    claim_policy = s.policy
    cap = cfg.performance.max_claims_per_output
    by_sentence = req.by_sentence()
    result.claims = [ev.claim for ev in req.evals]
    for sr, stype in zip(result.sentences, req.types, strict=True):
        group = by_sentence.get(sr.index, [])
        # A promise ("it will reach you within 5 to 7 business days") is no observed
        # fact: like a hedge, it excuses a missing receipt for a timeframe, never for
        # money or a percentage (policy ``hedging``).
        hedged = stype in HEDGED or any(e.claim.confidence <= HEDGED_CONFIDENCE for e in group)
        action = "pass"
        for ev in group:
            sr.claims.append(ev.index)
            sr.evidence.extend(evidence_of(ev))
            for d in decide(
                ev,
                profile,
                claim_policy,
                sentence_hedged=hedged,
                min_block_confidence=cfg.min_block_confidence,
            ):
                sr.reasons.append(d.reason)
                if d.action == "pass":
                    continue
                action = worst(action, d.action)
                result.violations.append(
                    Violation(
                        claim_index=ev.index,
                        sentence_index=sr.index,
                        category=ev.claim.category,
                        reason=d.reason,
                        severity=d.severity,
                        action=d.action,
                        fact_id=d.fact_id,
                        expected=d.expected,
                        receipt_id=d.receipt_id,
                    )
                )
        sr.tag = tag_sentence(group, stype, hedged, claim_policy)
        if sr.tag in ("T2", "T3", "T6") and not group:
            ground_claimless(s, req, sr)
        ran = _result_unrun(req, sr, stype)
        if ran is not None and ran.status == "supported":
            # "The fix has been applied and works correctly" after a clean run
            sr.tag = "T1" if sr.tag in (None, "T3") else sr.tag
            sr.evidence.append(Evidence("tool", ran.receipt_id, "supports", ran.detail))
        if sr.tag is not None and action == "pass" and not rfc_only(group):
            tag_action = claim_policy.tags[sr.tag]
            if sr.tag in ("T2", "T3", "T6") and profile.unverified == "ignore":
                # Trust-proportional (RFC-003 §9.2): tiers that ignore unverified
                # claims are not flagged for inferences or general statements.
                tag_action = "pass"
            if tag_action == "warn":
                action = "flag"
            elif tag_action == "block" and not group:
                action = "block"
                sr.reasons.append(f"policy tags: {sr.tag} blocks")
        if ran is not None and ran.status != "supported":
            # "The method has been updated to correctly create an identity matrix": the
            # edit is backed, that the code now behaves is for a run after it to show
            sr.tag = "T5"
            action = worst(action, "flag")
            sr.evidence.append(Evidence("ledger", ran.receipt_id, "missing", ran.detail))
            sr.reasons.append(f"Unverified result: {ran.detail}")
        if sr.index in req.unchecked:
            # Budgets must never turn into a silent pass nor into a milder tag:
            # what was not checked follows the fail mode, visibly.
            limit = "fail_closed" if cfg.fail_mode == "fail_closed" else "fail_open"
            action = worst(action, "block" if limit == "fail_closed" else "flag")
            if not group:
                sr.tag = None  # not checked is not "general statement"
            sr.reasons.append(f"not checked: past maxClaimsPerOutput {cap} ({limit})")
        sr.action = "warn" if action == "flag" else action  # type: ignore[assignment]
        if sr.action == "warn" and sr.tag in ("T2", "T3", "T6") and not sr.reasons:
            sr.reasons.append(TAG_REASON[sr.tag])
        elif sr.tag is None and not group and not sr.reasons and stype in SKIP_REASON:
            sr.reasons.append(SKIP_REASON[stype])
    result.fact_checks.extend(
        FactCheckRecord.of(ev.index, ev.fact) for ev in req.evals if ev.fact is not None
    )


#: Sentence types that may say changed code behaves ("The task is now complete." reads
#: as a closing line).
_RESULT_TYPES = frozenset({"statement", "fragment", "greeting", "status"})


def _result_unrun(req: Request, sr: SentenceResult, stype: str) -> Finding | None:
    """What the runs after the newest edit say of a sentence that says the changed code
    behaves (checks/runs), for a statement tagged T1, T3 or none."""
    if req.ledger is None or stype not in _RESULT_TYPES or sr.tag not in (None, "T1", "T3"):
        return None
    return result_unrun(req.ledger, sr.text)


def run_checkers(s: Settings, req: Request) -> str | None:
    """The configured checkers, after the deterministic decisions (SPEC §5).

    Each checker sees the sentences the deterministic stages could not settle, or
    the whole text of an external communication; its findings join the evidence,
    claims, violations and tags (``checkers.base.apply_outcome``). A checker error
    applies that checker's fail mode. Returns the fail-mode note for the result's
    reason, if any.
    """
    if not req.checkers:
        return None
    result = req.result
    hedged = [t == "hedged" for t in req.types]
    notes: list[str] = []
    evidence: tuple[list[Fact], list[Receipt]] | None = None
    for checker in req.checkers:
        targets = targets_for(checker, result.sentences, req.external)
        if not targets:
            continue
        if evidence is None:
            receipts = req.receipts
            evidence = (
                req.facts.all_facts(),
                [e.receipt for e in receipts.entries]
                if isinstance(receipts, ReceiptIndex)
                # the agent's earlier replies are no evidence for a checker either
                else [r for r in receipts if r.kind != "reply"],
            )
        request = CheckRequest(
            req.work,
            result.sentences,
            targets,
            evidence[0],
            evidence[1],
            req.external,
            result.channel,
            result.hook,
            req.now,
        )
        try:
            outcome = checker.check(request)
        except Exception as e:  # a checker must not take the gate down
            logger.error("checker %s failed: %s", checker.id, e, exc_info=e)
            outcome = CheckOutcome(error=f"{type(e).__name__}: {e}")
        note = apply_outcome(
            result,
            outcome,
            checker_id=checker.id,
            targets=targets,
            profile=req.policy.profile,
            min_block_confidence=s.config.min_block_confidence,
            fail_mode=checker.fail_mode,
            hedged=hedged,
        )
        if note:
            notes.append(note)
    return "; ".join(notes) or None


def verdict_of(sentences: Iterable[SentenceResult]) -> Verdict:
    """The worst sentence action, as a verdict."""
    verdict = "pass"
    for sr in sentences:
        verdict = worst(verdict, "flag" if sr.action == "warn" else sr.action)
    return verdict  # type: ignore[return-value]


def top_reasons(violations: Sequence[Violation]) -> str:
    """The first three reasons, blocks first: "a; b; c (+2 more)"."""
    top = sorted(violations, key=lambda v: v.action != "block")
    more = f" (+{len(top) - 3} more)" if len(top) > 3 else ""
    return "; ".join(v.reason for v in top[:3]) + more


def suggestions_of(violations: Iterable[Violation], claims: Sequence[DetectedClaim]) -> list[str]:
    """One suggestion per distinct problem, in order."""
    return list(dict.fromkeys(suggestion(v, claims[v.claim_index]) for v in violations))


def _restore(req: Request, work: str) -> None:
    """The claims were read in a plain reading of the text (``segment_text``): the
    sentences, the claims' and their figures' matched text (and, for a reading of another
    length, their offsets) become the agent's own."""
    where = req.where
    for sr in req.result.sentences:
        if where is not None:
            sr.start, sr.end = where[sr.start], where[sr.end - 1] + 1
        sr.text = work[sr.start : sr.end]
    for c in req.result.claims:
        if where is not None:
            c.offset, c.end = where[c.offset], where[max(c.end - 1, c.offset)] + 1
        c.matched_text = work[c.offset : c.end]
        for i, h in enumerate(c.hard_facts):
            # "000000\xa0AO" was read as "000000 AO": the figure's text is the agent's too
            start, end = h.start, h.end
            if where is not None:
                start, end = where[start], where[max(end - 1, start)] + 1
            if (start, end, work[start:end]) != (h.start, h.end, h.text):
                c.hard_facts[i] = dataclasses.replace(h, start=start, end=end, text=work[start:end])


def finish(s: Settings, req: Request, trust: int | None) -> None:
    """The verdict, the reason, the issues and suggestions, and the delivered text."""
    result, text = req.result, req.text
    work = text[: req.read]
    if req.work != work:
        _restore(req, work)
    verdict = verdict_of(result.sentences)
    truncated = len(text) > len(work)
    if truncated:
        # Text past maxTextLength was not validated (RFC-003 §12.2): never a pass.
        verdict = worst(verdict, "flag")  # type: ignore[assignment]
    result.verdict = verdict
    policy = req.policy
    trust_note = f"trust {trust}, tier {policy.tier}" if trust is not None else "no trust score"
    if result.violations:
        reasons = top_reasons(result.violations)
        result.reason = f"{verdict} ({trust_note}, {policy.source}): {reasons}"
    elif verdict == "flag":
        result.reason = f"flag ({trust_note}): sentences labelled as inference/unverified"
    elif result.claims:
        result.reason = f"pass ({trust_note}): all claims supported or allowed by policy"
    else:
        result.reason = "pass: no claims detected"
    for v in result.violations:
        claim = result.claims[v.claim_index]
        result.issues.append(
            {
                "sentence_index": v.sentence_index,
                "claim_index": v.claim_index,
                "category": v.category,
                "severity": v.severity,
                "action": v.action,
                "start": claim.offset,
                "end": claim.end,
                "message": v.reason,
            }
        )
    # after any a checker made
    result.suggestions = list(
        dict.fromkeys([*result.suggestions, *suggestions_of(result.violations, result.claims)])
    )
    flagged = {v.sentence_index for v in result.violations}
    for sr in result.sentences:
        if sr.action == "warn" and sr.index not in flagged:
            result.issues.append(
                {
                    "sentence_index": sr.index,
                    "claim_index": None,
                    "category": None,
                    "severity": "low",
                    "action": "flag",
                    "start": sr.start,
                    "end": sr.end,
                    "message": sr.reasons[0] if sr.reasons else f"tag {sr.tag}",
                }
            )
    delivered = rewrite(work, result.sentences, verdict, s.rewrite)
    if (
        truncated
        and delivered is not None
        and delivered != s.rewrite.notice
        and s.config.fail_mode == "fail_open"
    ):
        # fail_open delivers the unchecked tail (flagged); fail_closed withholds it.
        delivered += text[len(work) :]
    result.delivered_text = delivered
