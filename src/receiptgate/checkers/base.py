"""The ``Checker`` seam: slower checks after the deterministic stage (SPEC §5).

The deterministic pipeline decides first. A checker (the LLM judge, later an
embedding/NLI model) then sees only what that stage could not settle — or, for
an external communication, the whole text — and answers with
:class:`CheckerFinding` objects. :func:`apply_outcome` maps every finding onto
the result exactly as the deterministic evidence is mapped:

* the finding becomes an :class:`~receiptgate.results.Evidence` line of its
  sentence (``kind`` ``judge``/``semantic``, ``relation`` ``supports``,
  ``contradicts`` or ``missing``);
* a finding that does not support its sentence becomes a claim
  (``detector_id`` ``judge.<check>``) and, unless the trust-tier policy ignores
  it, a :class:`~receiptgate.results.Violation`: contradictions follow
  ``contradictionPolicy``, unsupported sentences ``unverifiedClaimPolicy``, and a
  finding below ``minBlockConfidence`` can flag but never block (RFC-003 §14.4);
* the sentence is then tagged T5 (T6 stays T6 for a hedged, merely unsupported
  sentence, as in ``tag_sentence``) and its action is the worst of what it had
  and what the finding asks. A checker can make a sentence worse, never better:
  a deterministic block cannot be turned into a pass.

A checker that fails (error, timeout, unparseable answer) or leaves sentences
unanswered does not pass them silently: the checker's fail mode applies to
those sentences, ``fail_mode_applied`` and ``error`` are set and an issue says
why.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol, runtime_checkable

from receiptgate.claims.models import ClaimCategory, DetectedClaim
from receiptgate.config import FailMode
from receiptgate.evidence.facts import Fact
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.trust import Profile
from receiptgate.results import Evidence, SentenceResult, ValidationResult, Violation, worst

Relation = Literal["supports", "contradicts", "missing"]

#: The checks of RFC-006 §4.1.1, plus ``injection`` (the text tries to instruct the checker).
CHECKS: tuple[str, ...] = (
    "false_number",
    "unsubstantiated",
    "misleading",
    "contradiction",
    "exaggerated_capability",
    "injection",
)

#: The claim category a finding gets when its checker names none.
CHECK_CATEGORY: dict[str, ClaimCategory] = {
    "false_number": "quantity",
    "exaggerated_capability": "capability",
}
DEFAULT_CATEGORY: ClaimCategory = "existence"

_POLICY_ACTION: dict[str, str] = {"ignore": "pass", "flag": "flag", "block": "block"}


@dataclass(frozen=True, slots=True)
class CheckRequest:
    """What a checker is asked to look at.

    Attributes:
        text: the validated text (offsets of ``sentences`` index it).
        sentences: every sentence of the text, in order.
        targets: indexes of the sentences to check; the others are context.
        facts: the operator facts relevant to the text (unexpired).
        receipts: the session receipts relevant to the text.
        external: whether the text is an external communication.
        channel: where the text goes.
        hook: the runtime hook that triggered the validation.
        now: the validation's reference time.
    """

    text: str
    sentences: Sequence[SentenceResult]
    targets: tuple[int, ...]
    facts: Sequence[Fact] = ()
    receipts: Sequence[Receipt] = ()
    external: bool = False
    channel: str | None = None
    hook: str | None = None
    now: datetime | None = None


@dataclass(frozen=True, slots=True)
class CheckerFinding:
    """One checker's judgement of one sentence, in the evidence format of the result.

    Attributes:
        sentence_index: the sentence judged.
        relation: ``supports``, ``contradicts`` or ``missing`` (nothing supports it).
        check: which check found it (:data:`CHECKS`), or ``none`` for a supported sentence.
        detail: the reason, for people.
        confidence: the checker's confidence, 0-1.
        kind: the evidence kind (``judge``, ``semantic``).
        source: the evidence id, e.g. ``judge:gpt-4o-mini``.
        quote: the words of the sentence the finding is about (located in the text).
        category: the claim category; by default from the check.
        fact_id: a fact the finding relies on.
        receipt_id: a receipt the finding relies on.
    """

    sentence_index: int
    relation: Relation
    check: str
    detail: str
    confidence: float = 1.0
    kind: str = "judge"
    source: str | None = None
    quote: str | None = None
    category: ClaimCategory | None = None
    fact_id: str | None = None
    receipt_id: str | None = None

    def evidence(self, claim_index: int | None = None) -> Evidence:
        """The finding as an evidence line of its sentence."""
        ref = self.fact_id or self.receipt_id
        detail = self.detail if self.check == "none" else f"{self.check}: {self.detail}"
        if ref:
            detail += f" ({ref})"
        return Evidence(self.kind, self.source, self.relation, detail, claim_index)


@dataclass(slots=True)
class CheckOutcome:
    """What one checker returns.

    Attributes:
        findings: per-sentence findings.
        calls: one record per model call (model, latency, tokens, status), copied
            to ``ValidationResult.checks``.
        error: why the checker could not decide; its fail mode then applies to
            every target sentence.
        unchecked: target sentences the checker gave no answer for; the fail
            mode applies to them.
    """

    findings: list[CheckerFinding] = field(default_factory=list)
    calls: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    unchecked: list[int] = field(default_factory=list)


@runtime_checkable
class Checker(Protocol):
    """A check that runs after the deterministic stage.

    ``check`` should not raise: failures belong in ``CheckOutcome.error``. If it
    raises anyway, the engine treats the exception as that error.
    """

    #: Short id, used in evidence ids and ``checks`` records.
    id: str
    #: ``external`` (external communications only) or ``all`` (also the
    #: unsettled sentences of internal messages).
    scope: Literal["external", "all"]
    #: What an error or a timeout does: ``fail_open`` flags, ``fail_closed`` blocks.
    fail_mode: FailMode

    def check(self, request: CheckRequest) -> CheckOutcome: ...


#: Tags whose sentences the deterministic stage settled by evidence.
SETTLED_TAGS = frozenset({"T1", "T4", "T7"})


def unsettled(sentences: Sequence[SentenceResult]) -> tuple[int, ...]:
    """Sentences the deterministic stage could not settle.

    Inferences, general statements and hedged sentences (T2, T3, T6) and
    sentences with an unsupported claim that are only flagged (T5, warn). Settled:
    sentences backed by evidence (T1, T4, T7), blocked ones, and those with no
    factual content (no tag).
    """
    out: list[int] = []
    for s in sentences:
        if s.tag is None or s.tag in SETTLED_TAGS or s.action == "block":
            continue
        out.append(s.index)
    return tuple(out)


def targets_for(
    checker: Checker, sentences: Sequence[SentenceResult], external: bool
) -> tuple[int, ...]:
    """The sentences ``checker`` should look at (none when it does not apply).

    External communications: the whole text, every sentence (a blocked one stays
    blocked, but the judge's findings still join its evidence). Otherwise, only
    with ``scope: all``, the unsettled ones.
    """
    if external:
        return tuple(s.index for s in sentences if s.text.strip())
    if checker.scope == "all":
        return unsettled(sentences)
    return ()


def _locate(sentence: SentenceResult, quote: str | None) -> tuple[int, int, str]:
    """Offsets of ``quote`` inside the sentence, or the whole sentence."""
    if quote:
        q = quote.strip()
        pos = sentence.text.find(q) if q else -1
        if pos < 0 and q:
            pos = sentence.text.lower().find(q.lower())
        if pos >= 0:
            start = sentence.start + pos
            return start, start + len(q), sentence.text[pos : pos + len(q)]
    return sentence.start, sentence.end, sentence.text


def apply_outcome(
    result: ValidationResult,
    outcome: CheckOutcome,
    *,
    checker_id: str,
    targets: Sequence[int],
    profile: Profile,
    min_block_confidence: float,
    fail_mode: FailMode,
    hedged: Sequence[bool] | None = None,
) -> str | None:
    """Maps a checker's outcome onto ``result`` (see the module docstring).

    Args:
        result: the result of the deterministic stage; changed in place.
        outcome: what the checker returned.
        checker_id: for reasons and errors.
        targets: the sentences the checker was asked about.
        profile: the effective trust-tier policies.
        min_block_confidence: below it a finding flags, never blocks.
        fail_mode: the checker's fail mode.
        hedged: per sentence, whether it is hedged (keeps T6 for unsupported findings).

    Returns:
        A one-line note when the fail mode applied (for the result's ``reason``).
    """
    by_index = {s.index: s for s in result.sentences}
    result.checks.extend(outcome.calls)
    for f in outcome.findings:
        s = by_index.get(f.sentence_index)
        if s is None or f.sentence_index not in targets:
            continue  # a checker cannot judge what it was not asked about
        if f.relation == "supports":
            s.evidence.append(f.evidence())
            continue
        _apply_finding(result, s, f, profile, min_block_confidence, hedged)

    failed = list(targets) if outcome.error is not None else sorted(set(outcome.unchecked))
    failed = [i for i in failed if i in by_index]
    if not failed:
        return None
    error = outcome.error or (f"no answer for sentence(s) {', '.join(str(i + 1) for i in failed)}")
    action = "block" if fail_mode == "fail_closed" else "flag"
    for i in failed:
        s = by_index[i]
        s.reasons.append(f"not checked by the {checker_id} ({error}; {fail_mode})")
        s.action = _sentence_action(worst(_verdict_action(s.action), action))
    result.fail_mode_applied = fail_mode
    result.error = result.error or f"CheckerError: {checker_id}: {error}"
    done = "blocked" if fail_mode == "fail_closed" else "delivered flagged"
    note = f"{checker_id} failed ({error}); {fail_mode} {done} {len(failed)} sentence(s)"
    result.issues.append({"severity": "high", "message": note})
    return note


def _verdict_action(action: str) -> str:
    return "flag" if action == "warn" else action


def _sentence_action(action: str) -> Literal["pass", "warn", "block"]:
    if action == "block":
        return "block"
    return "warn" if action == "flag" else "pass"


def _apply_finding(
    result: ValidationResult,
    s: SentenceResult,
    f: CheckerFinding,
    profile: Profile,
    min_block_confidence: float,
    hedged: Sequence[bool] | None,
) -> None:
    start, end, matched = _locate(s, f.quote)
    claim = DetectedClaim(
        category=f.category or CHECK_CATEGORY.get(f.check, DEFAULT_CATEGORY),
        detector_id=f"{f.kind}.{f.check}",
        matched_text=matched,
        offset=start,
        end=end,
        subject=matched if len(matched) <= 80 else matched[:79] + "…",
        assertion=f.check,
        confidence=f.confidence,
        sentence_index=s.index,
    )
    claim_index = len(result.claims)
    result.claims.append(claim)
    s.claims.append(claim_index)
    s.evidence.append(f.evidence(claim_index))
    source = f.source or f.kind
    if f.relation == "contradicts":
        policy = profile.contradiction
        reason = f"Contradiction ({source}): {f.check}: {f.detail}"
        severity: Literal["low", "medium", "high"] = "high"
    else:
        policy = profile.unverified
        reason = f"Unsupported ({source}): {f.check}: {f.detail}"
        severity = "medium"
    action = _POLICY_ACTION[policy]
    if action == "pass":
        s.reasons.append(f"{reason} (policy: ignore)")
        return
    if action == "block" and f.confidence < min_block_confidence:
        action = "flag"
        reason += (
            f" (confidence {f.confidence:.2f} < minBlockConfidence {min_block_confidence:.2f}: "
            "flagged, not blocked)"
        )
    s.reasons.append(reason)
    is_hedged = hedged is not None and s.index < len(hedged) and hedged[s.index]
    if f.relation == "contradicts" or not (is_hedged and s.tag == "T6"):
        s.tag = "T5"
    s.action = _sentence_action(worst(_verdict_action(s.action), action))
    result.violations.append(
        Violation(
            claim_index=claim_index,
            sentence_index=s.index,
            category=claim.category,
            reason=reason,
            severity=severity,
            action="block" if action == "block" else "flag",
            fact_id=f.fact_id,
            receipt_id=f.receipt_id,
        )
    )


def call_record(
    checker: str,
    stage: str,
    model: str | None,
    *,
    started: float,
    **extra: Any,
) -> dict[str, Any]:
    """A ``checks`` record: checker, stage, model and latency in ms since ``started``."""
    return {
        "checker": checker,
        "stage": stage,
        "model": model,
        "latency_ms": round((time.perf_counter() - started) * 1000, 3),
        **extra,
    }
