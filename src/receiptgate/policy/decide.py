"""From evidence to action: claim families, worst-wins, and the T1–T7 tag.

A claim can belong to several families; each decides and the worst action wins
(SPEC §4):

* **rfc** (system_state … self_referential, and value claims found by the
  quantity detector): the trust-tier policies of RFC-003 §9.2 — unverified,
  contradiction, self-referential.
* **hard** (money, percentages, counts, dates, durations, versions): the risk
  class in the policy file — ``fail_closed`` blocks, ``warn_only`` warns.
* **action** (the agent's own actions and verification labels): the risk class
  ``agent_actions``, fail-closed by default, whatever the trust tier.
* **attribution** ("the report states"): warns when no document receipt backs it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from receiptgate.checks.finding import Finding
from receiptgate.claims.models import RFC_CATEGORIES, DetectedClaim
from receiptgate.policy.policy_file import ClaimPolicy, RiskClass
from receiptgate.policy.trust import Profile

Action = Literal["pass", "flag", "block"]
Status = Literal["supported", "contradicted", "unsupported", "expired", "stale"]

_RISK_ORDER: tuple[RiskClass, ...] = (
    "medical",
    "legal",
    "contractual",
    "financial",
    "benchmark",
    "agent_actions",
    "schedule",
    "general",
)


@dataclass(slots=True)
class ClaimEval:
    """Everything gathered about one claim."""

    index: int
    claim: DetectedClaim
    fact: Finding | None = None  # the operator facts' finding
    ledger: Finding | None = None
    hard: list[Finding] = field(default_factory=list)
    risks: list[RiskClass] = field(default_factory=list)
    label_backed: bool | None = None  # for verification labels: do receipts back the sentence?
    label_kinds: set[str] = field(default_factory=set)  # the kinds of evidence behind a label

    @property
    def is_rfc(self) -> bool:
        c = self.claim
        if c.detector_id.startswith("grounding."):
            return False
        return c.category in RFC_CATEGORIES or c.detector_id.startswith("quantity.")

    @property
    def is_grounding(self) -> bool:
        return self.claim.detector_id.startswith("grounding.")

    def rfc_status(self) -> Status:
        f, led = self.fact, self.ledger
        if self.claim.detector_id.startswith("quantity.") and self.hard:
            # "Berlin had 1,240 orders": the figure's receipts settle the value claim.
            hs = self.hard_status()
            if hs in ("supported", "contradicted"):
                return hs
        if (f and f.status == "contradicted") or (led and led.status == "contradicted"):
            return "contradicted"
        if (f and f.status == "supported") or (led and led.status == "supported"):
            return "supported"
        if f and f.status == "expired":
            return "expired"
        return "unsupported"

    def hard_status(self) -> Status | None:
        if not self.hard:
            return None
        if self.fact is not None and self.fact.status == "supported":
            return "supported"
        if self.fact is not None and self.fact.status == "contradicted":
            return "contradicted"
        statuses = {m.status for m in self.hard}
        if "contradicted" in statuses:
            return "contradicted"
        if statuses == {"supported"}:
            return "supported"
        if "unsupported" in statuses:
            return "unsupported"
        return "stale"

    def status(self) -> Status:
        """Overall: contradiction anywhere wins, then any gap, then support."""
        parts: list[Status] = []
        if self.claim.category == "action":
            parts.append(self.action_status())
        elif self.is_grounding:
            parts.append("unsupported")  # only ungrounded names become claims
        elif self.is_rfc or self.claim.category == "attribution":
            parts.append(self.rfc_status())
        hs = self.hard_status()
        if hs is not None:
            parts.append(hs)
        for s in ("contradicted", "unsupported", "stale", "expired"):
            if s in parts:
                return s
        return "supported"

    def action_status(self) -> Status:
        if self.claim.assertion == "forged_label":
            return "supported" if self.label_backed else "unsupported"
        led = self.ledger
        if led is None:
            return "unsupported"
        return led.status

    def support_kinds(self) -> set[str]:
        kinds: set[str] = set(self.label_kinds) if self.label_backed else set()
        if self.fact is not None and self.fact.status == "supported":
            kinds.add("fact")
        if (
            self.ledger is not None
            and self.ledger.status == "supported"
            and self.ledger.receipt_kind
        ):
            kinds.add(self.ledger.receipt_kind)
        for m in self.hard:
            if m.status == "supported" and m.receipt_kind:
                kinds.add(m.receipt_kind)
        return kinds

    def worst_risk(self) -> RiskClass | None:
        if not self.risks:
            return None
        return min(self.risks, key=_RISK_ORDER.index)


@dataclass(slots=True)
class Decision:
    """What one family decided for one claim."""

    family: str
    action: Action
    reason: str
    severity: Literal["low", "medium", "high"]
    fact_id: str | None = None
    expected: str | None = None
    receipt_id: str | None = None


_POLICY_ACTION: dict[str, Action] = {"ignore": "pass", "flag": "flag", "block": "block"}


def decide(
    ev: ClaimEval,
    profile: Profile,
    policy: ClaimPolicy,
    *,
    sentence_hedged: bool,
    min_block_confidence: float,
) -> list[Decision]:
    """Every family's decision for one claim (only those that do not pass)."""
    out: list[Decision] = []
    claim = ev.claim
    if ev.is_rfc:
        d = _decide_rfc(ev, profile, min_block_confidence)
        if d is not None:
            out.append(d)
    hs = ev.hard_status()
    if hs is not None and hs != "supported":
        risk = ev.worst_risk() or "general"
        bad = [m for m in ev.hard if m.status != "supported"]
        detail = "; ".join(m.detail for m in bad[:2])
        mode = policy.mode_for(risk)
        excused = sentence_hedged and hs != "contradicted" and _excusable(ev, policy)
        action: Action = "flag" if (mode == "warn_only" or excused) else "block"
        # a restated record value is no figure: "Contradicted status: ..."
        what = _RECORD_NOUN.get(bad[0].hard_fact.unit or "") if claim.category == "record" else None
        if hs == "unsupported" and claim.detector_id in FLAGGED_ONLY:
            action = "flag"  # unverified, never contradicted: code no receipt shows
        if hs == "contradicted":
            reason = f"Contradicted {what or f'{risk} figure'}: {detail}"
            severity: Literal["low", "medium", "high"] = "high"
        else:
            noun = what or f"{risk} figure"
            reason = f"Unsupported {noun} {bad[0].hard_fact.text!r}: {detail}"
            severity = "high" if action == "block" else "medium"
        rid = next((m.receipt_id for m in bad if m.receipt_id), None)
        out.append(Decision("hard", action, reason, severity, receipt_id=rid))
    if claim.category == "action":
        st = ev.action_status()
        if st != "supported":
            mode = policy.mode_for("agent_actions")
            act: Action = "block" if mode == "fail_closed" else "flag"
            if claim.assertion == "forged_label":
                reason = (
                    f"Verification label {claim.matched_text!r} with no receipt backing "
                    "the sentence"
                )
            elif st == "contradicted" and ev.ledger is not None:
                reason = f"Action claim {claim.matched_text!r} contradicted: {ev.ledger.detail}"
            else:
                detail = ev.ledger.detail if ev.ledger is not None else "no matching tool call"
                reason = f"Action claim {claim.matched_text!r} has no receipt: {detail}"
            out.append(
                Decision(
                    "action",
                    act,
                    reason,
                    "high",
                    receipt_id=ev.ledger.receipt_id if ev.ledger else None,
                )
            )
    if ev.is_grounding:
        act2: Action = "block" if policy.grounded_names == "block" else "flag"
        out.append(
            Decision(
                "grounding",
                act2,
                f"Name {claim.subject!r} appears in no receipt of this grounded session",
                "medium",
            )
        )
    if claim.category == "attribution" and ev.rfc_status() != "supported":
        out.append(
            Decision(
                "attribution",
                "flag",
                f"Attribution {claim.matched_text!r} with no matching document receipt",
                "low",
            )
        )
    return out


def _decide_rfc(ev: ClaimEval, profile: Profile, min_block: float) -> Decision | None:
    claim = ev.claim
    st = ev.rfc_status()
    fact = ev.fact
    if st == "supported":
        return None
    if st == "contradicted":
        if fact is not None and fact.status == "contradicted":
            detail = fact.detail
            fid, expected, rid = fact.fact_id, fact.expected, None
        else:
            detail = ev.ledger.detail if ev.ledger else "contradicted"
            fid, expected = None, None
            rid = ev.ledger.receipt_id if ev.ledger else None
        policy = profile.contradiction
        reason = f"Contradiction: {detail}"
        severity: Literal["low", "medium", "high"] = "high"
    elif claim.category == "self_referential":
        policy = profile.self_referential
        reason = f"Self-referential claim: {claim.matched_text!r}"
        severity = "medium"
        fid = expected = rid = None
    else:
        policy = profile.unverified
        if st == "expired" and fact is not None:
            reason = f"Unverified claim (fact {fact.fact_id} expired): {claim.matched_text!r}"
        else:
            reason = f"Unverified claim: {claim.matched_text!r}"
        severity = "low"
        fid = expected = rid = None
    action = _POLICY_ACTION[policy]
    if action == "pass":
        return Decision("rfc", "pass", f"{reason} (policy: ignore)", "low", fid, expected, rid)
    if action == "block" and claim.confidence < min_block:
        action = "flag"
        reason += (
            f" (confidence {claim.confidence:.2f} < minBlockConfidence {min_block:.2f}: "
            "flagged, not blocked)"
        )
    return Decision("rfc", action, reason, severity, fid, expected, rid)


def tag_sentence(
    evals: list[ClaimEval],
    sentence_type: str,
    hedged: bool,
    policy: ClaimPolicy,
) -> Literal["T1", "T2", "T3", "T4", "T5", "T6", "T7"] | None:
    """The sentence's tag (SPEC §4): contradiction wins, then gaps, then the best support."""
    if not evals:
        if sentence_type == "user":
            return "T7"  # the user's own request, restated (the engine checked the overlap)
        if sentence_type == "inference":
            return "T2"
        if sentence_type == "hedged":
            return "T6"
        if sentence_type == "statement":
            return "T3"
        return None
    statuses = [e.status() for e in evals]
    if "contradicted" in statuses:
        return "T5"
    gaps = [e for e, s in zip(evals, statuses, strict=True) if s != "supported"]
    substantive = [e for e in gaps if e.claim.category not in ("self_referential", "attribution")]
    if substantive:
        if hedged and all(
            e.claim.category != "action" and (e.hard_status() is None or _excusable(e, policy))
            for e in substantive
        ):
            return "T6"
        return "T5"
    kinds: set[str] = set()
    for e in evals:
        kinds |= e.support_kinds()
    if kinds & {"tool", "web"}:
        return "T1"
    if kinds & {"fact", "rag", "db", "memory"}:
        return "T4"
    if "user" in kinds:
        return "T7"
    if sentence_type == "inference":
        return "T2"
    if hedged:
        return "T6"
    return "T3"


def _excusable(ev: ClaimEval, policy: ClaimPolicy) -> bool:
    """Whether a hedge excuses this claim's missing receipts (policy ``hedging``)."""
    kinds: set[str] = {m.hard_fact.kind for m in ev.hard if m.status != "supported"}
    return policy.excuses(ev.worst_risk() or "general", kinds)


def back_labels(group: list[ClaimEval], previous: list[ClaimEval]) -> None:
    """A verification label is backed when every other claim of its sentence is supported.

    A label standing alone after a full stop ("... pass. [T1 verified]") vouches
    for the sentence before it.
    """
    _back_checks(group)
    labels = [e for e in group if e.claim.assertion == "forged_label"]
    if not labels:
        return
    others = [e for e in group if e.claim.assertion != "forged_label"]
    if not others:
        others = [e for e in previous if e.claim.assertion != "forged_label"]
    backed = bool(others) and all(e.status() == "supported" for e in others)
    kinds: set[str] = set()
    for o in others:
        kinds |= o.support_kinds()
    for e in labels:
        e.label_backed = backed
        e.label_kinds = kinds


#: Record claims a missing receipt flags but never blocks (checks/code_refs, checks/urls).
FLAGGED_ONLY = frozenset({"record.code", "record.url"})

#: What a record claim restates, as a reason names it.
_RECORD_NOUN = {
    "code": "code reference",
    "url": "link",
    "id": "id",
    "name": "name",
    "state": "status",
    "value": "value",
    "digits": "card digits",
    "method": "payment method",
}


def _back_checks(group: list[ClaimEval]) -> None:
    """ "Verified against the HR system: headcount is 212.": a check the ledger finds no
    call for is backed by the result that backs the rest of its sentence (a tool's,
    a database's, a document's; never the user's own words)."""
    checks = [
        e
        for e in group
        if e.claim.category == "action"
        and e.claim.assertion == "checked"
        and (e.ledger is None or e.ledger.status == "unsupported")
    ]
    others = [e for e in group if e not in checks and e.claim.assertion != "forged_label"]
    if not checks or not others or not all(e.status() == "supported" for e in others):
        return
    backing = next(
        (
            m
            for e in others
            for m in e.hard
            if m.status == "supported" and m.receipt_kind not in (None, "user")
        ),
        None,
    )
    if backing is None:
        return
    for e in checks:
        e.ledger = Finding(
            "supported",
            backing.receipt_id,
            backing.receipt_kind,
            f"the checked result backs the sentence: {backing.detail}",
        )


def rfc_only(group: list[ClaimEval]) -> bool:
    """Sentences whose claims are all RFC-003 claims without figures: the RFC policies decide
    their action, so tag actions (T3 warn, ...) do not apply on top."""
    return bool(group) and all(e.is_rfc and not e.hard for e in group)
