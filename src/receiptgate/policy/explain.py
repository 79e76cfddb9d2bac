"""Explanations for people: evidence lines, suggestions and tag reasons.

What the audit and the report show next to each sentence; no decisions here.
"""

from __future__ import annotations

from receiptgate.claims.models import DetectedClaim
from receiptgate.policy.decide import ClaimEval
from receiptgate.results import Evidence, Violation

TAG_REASON = {
    "T2": "inference: a conclusion, not evidence",
    "T3": "general statement with no receipt",
    "T6": "speculation: explicitly uncertain",
}

#: Why a sentence carries no claim, by its type (``claims.sentence_type``): kept in the
#: result so that a reviewer sees what was skipped and why.
SKIP_REASON = {
    "code": "no claim: code or a heading",
    "question": "no claim: a question",
    "greeting": "no claim: a greeting, thanks or apology",
    "imperative": "no claim: an instruction to the user",
    "intent": "no claim: a plan, an offer or an ability",
    "label": "no claim: a label for the lines under it",
    "fragment": "no claim: a line with no verb (an option or a heading)",
    "opinion": "no claim: an opinion",
    "future": "no claim: what will happen",
    "plan": "no claim: an item of a plan or a request (the list under the line before)",
    "condition": "no claim: a condition listed under the line before (its figures are checked)",
    "status": "no claim: the reply's status line (the sentences under it tell what was done)",
}


def suggestion(v: Violation, claim: DetectedClaim) -> str:
    n = v.sentence_index + 1
    if v.fact_id and v.expected:
        return (
            f"Sentence {n}: {claim.matched_text!r} conflicts with fact {v.fact_id}; "
            f"the registry says {v.expected!r}."
        )
    if claim.category == "self_referential":
        return f"Sentence {n}: report on the task rather than on the agent's own instructions."
    if claim.category == "action" and "contradict" in v.reason.lower():
        return (
            f"Sentence {n}: {claim.matched_text!r} disagrees with what the tool call returned "
            f"({v.receipt_id or 'the ledger'}); report the real result."
        )
    if claim.category == "action":
        return (
            f"Sentence {n}: only claim {claim.matched_text!r} after the tool call that does it "
            "appears in the session, or remove the claim."
        )
    if v.receipt_id and "contradict" in v.reason.lower() and not claim.hard_facts:
        return f"Sentence {n}: receipt {v.receipt_id} shows otherwise; state what it shows."
    if v.receipt_id and "contradict" in v.reason.lower():
        return f"Sentence {n}: use the value from receipt {v.receipt_id} or remove the figure."
    return f"Sentence {n}: back {claim.matched_text!r} with a fact or receipt, or remove it."


#: How a finding's status reads as an evidence relation.
_RELATION = {
    "supported": "supports",
    "contradicted": "contradicts",
    "unsupported": "missing",
    "stale": "stale",
    "expired": "expired",
}


def evidence_of(ev: ClaimEval) -> list[Evidence]:
    out: list[Evidence] = []
    f = ev.fact
    if f is not None and f.status != "unsupported":
        out.append(Evidence("fact", f.fact_id, _RELATION[f.status], f.detail, ev.index))
    led = ev.ledger
    if led is not None:
        kind = led.receipt_kind or "ledger"
        out.append(Evidence(kind, led.receipt_id, _RELATION[led.status], led.detail, ev.index))
    for m in ev.hard:
        kind = m.receipt_kind or "receipt"
        out.append(Evidence(kind, m.receipt_id, _RELATION[m.status], m.detail, ev.index))
    if ev.claim.assertion == "forged_label":
        out.append(
            Evidence(
                "ledger",
                None,
                "supports" if ev.label_backed else "missing",
                "receipts back the labelled sentence"
                if ev.label_backed
                else "no receipt backs the labelled sentence",
                ev.index,
            )
        )
    if ev.is_grounding:
        out.append(
            Evidence(
                "ledger", None, "missing", f"no receipt mentions {ev.claim.subject!r}", ev.index
            )
        )
    if not out and ev.is_rfc and ev.claim.category != "self_referential":
        out.append(Evidence("fact", None, "missing", "no fact or receipt for this claim", ev.index))
    return out
