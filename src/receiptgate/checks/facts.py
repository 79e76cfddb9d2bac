"""Check one detected claim against the operator's facts (RFC-003 §5.4).

:func:`check_claim` looks the claim's subject forms up in the
:class:`~receiptgate.evidence.fact_index.FactIndex`; the first live matching fact that
speaks to the claim decides: a typed fact by its kind (exists, state, name, status,
capability), a value triple by its number and unit, else by its normalised text. A fact
that answers another question ("installed" against "running") never contradicts; when
only expired facts would decide, the result is ``expired_fact``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from datetime import datetime
from typing import Final

from receiptgate.checks.finding import Finding, FindingStatus
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.fact_index import Entry, FactIndex, micros
from receiptgate.evidence.fact_words import (
    QUOTES,
    canonical_state,
    canonical_status,
    claim_forms,
    norm_value,
    norm_word,
    normalise_subject,
    parse_number,
    split_negation,
)

__all__ = ["check_claim"]

_GENERIC_PREDICATES: Final = frozenset({"", "metric", "count", "value", "amount", "number"})
_TYPED_PREDICATES: Final = frozenset(
    {"state", "exists", "name", "identity", "status", "capability", "supported"}
)

# A verdict is (agrees, expected, claimed); a string says why the fact does not speak.
_Verdict = tuple[bool, str, str] | str


_NEGATIVE_EXISTENCE: Final = frozenset(
    {"missing", "absent", "not_found", "nonexistent", "gone", "deleted", "removed", "none"}
)
_NEGATIVE_CAPABILITY: Final = frozenset({"unsupported", "unavailable", "cannot", "cant"})


def _asserts_negation(claim: DetectedClaim, negative_words: frozenset[str]) -> bool:
    if claim.negative:
        return True
    word = norm_word(claim.assertion)
    return word in negative_words or split_negation(word)[1]


def _claimed_value(claim: DetectedClaim) -> str | None:
    if claim.value is not None and claim.value.strip():
        return claim.value.strip()
    for hard in claim.hard_facts:
        if hard.number is not None:
            return hard.text
    return None


def _is_value_claim(claim: DetectedClaim) -> bool:
    if claim.category == "quantity":
        return True
    predicate = (claim.predicate or "").strip().lower()
    return claim.value is not None and predicate not in _TYPED_PREDICATES


def _judge_value(entry: Entry, claimed: str) -> _Verdict:
    fact_id = entry.fact.id
    mine = parse_number(claimed)
    theirs = entry.number
    if mine is not None and theirs is not None:
        if mine[0] != theirs[0]:
            return (False, entry.expected, claimed)
        if mine[1] and theirs[1] and mine[1] != theirs[1]:
            return f'units differ: fact {fact_id} has "{theirs[1]}", the claim "{mine[1]}"'
        return (True, entry.expected, claimed)
    if (mine is None) != (theirs is None):
        return f"fact {fact_id} and the claim cannot be compared as numbers"
    return (norm_value(claimed) == entry.text, entry.expected, claimed)


def _judge(entry: Entry, claim: DetectedClaim) -> _Verdict:
    """Compare one typed fact with the claim."""
    category = claim.category
    kind = entry.kind
    fact_id = entry.fact.id
    if kind == "exists" and category == "existence":
        claimed_exists = not _asserts_negation(claim, _NEGATIVE_EXISTENCE)
        said = "exists" if claimed_exists else "does not exist"
        return (claimed_exists == entry.flag, entry.expected, said)
    if kind == "capability" and category == "capability":
        supported = not _asserts_negation(claim, _NEGATIVE_CAPABILITY)
        said = "supported" if supported else "not supported"
        return (supported == entry.flag, entry.expected, said)
    if kind == "state" and category == "system_state" and entry.state is not None:
        word = claim.assertion.strip() or (claim.value or "").strip()
        base, polarity = canonical_state(word, claim.negative)
        if base != entry.state[0]:
            return f'fact {fact_id} about "{entry.expected}" does not speak to "{word}"'
        said = word.replace("_", " ")
        return (polarity == entry.state[1], entry.expected, said)
    if kind == "status" and category == "operational_status":
        status = canonical_status(claim.assertion, claim.negative)
        if status is None:
            return f'fact {fact_id} is a status; "{claim.assertion}" is not one'
        return (status == entry.status, entry.expected, status)
    if kind == "name" and category == "entity_name":
        name = claim.subject.strip().strip(QUOTES)
        return (normalise_subject(name) in entry.names, entry.expected, name)
    if kind == "name" and category == "self_referential":
        predicate = (claim.predicate or "name").strip().lower()
        if predicate not in ("name", "identity"):
            return f'fact {fact_id} is a name; the claim is about "{predicate}"'
        if not claim.value or not claim.value.strip():
            return f"fact {fact_id} is a name; the claim carries none"
        name = claim.value.strip().strip(QUOTES)
        return (normalise_subject(name) in entry.names, entry.expected, name)
    return f'fact {fact_id} holds a "{kind}" value, which does not fit a {category} claim'


def _select_triple(claim: DetectedClaim, triples: Sequence[Entry]) -> Entry | str:
    predicate = (claim.predicate or "").strip().lower()
    for entry in triples:
        if entry.predicate == predicate:
            return entry
    if predicate in _GENERIC_PREDICATES:
        numeric = [e for e in triples if e.number is not None]
        if len(numeric) == 1:
            return numeric[0]
    shown = predicate or "value"
    return f'no fact gives the {shown} of "{claim.subject}"'


# Findings are immutable and the same claims recur across messages; building a frozen
# dataclass costs more than the lookup itself, so both result builders are memoised.
@functools.lru_cache(maxsize=4096)
def _result(status: FindingStatus, entry: Entry, expected: str, claimed: str) -> Finding:
    fact_id = entry.fact.id
    if status == "supported":
        detail = f'confirmed by {fact_id}: "{expected}"'
    elif status == "contradicted":
        detail = f'contradicts {fact_id}: expected "{expected}", claimed "{claimed}"'
    else:
        when = entry.expires_at
        at = when.isoformat() if when and when.year > 1 else "unknown (no updatedAt)"
        detail = f"fact {fact_id} would decide this but expired at {at}"
    return Finding(
        status,
        receipt_kind="fact",
        detail=detail,
        fact_id=fact_id,
        expected=expected,
        claimed=claimed,
        registry_id=entry.registry_id,
    )


@functools.lru_cache(maxsize=4096)
def _no_fact(subject: str, category: str, reason: str | None = None) -> Finding:
    if reason is None:
        return Finding("unsupported", detail=f'no fact about "{subject}" ({category})')
    return Finding("unsupported", detail=reason)


def check_claim(index: FactIndex, claim: DetectedClaim, *, now: datetime) -> Finding:
    """Check one claim against the facts (RFC-003 §5.4).

    The first matching live fact that speaks to the claim decides (exact subjects
    before regex subjects, later registries first). Facts that match but answer a
    different question (``installed`` vs ``running``) never produce a contradiction.
    When only expired facts would decide, the result is ``expired_fact``.

    Args:
        index: the fact index.
        claim: a detected claim.
        now: reference time for TTLs (naive means UTC).
    """
    snap = index._snap  # read once: a concurrent update swaps in a new snapshot
    category = claim.category
    forms = claim_forms(claim.subject, claim.object if category == "capability" else None)
    entries = snap.collect(category, forms)
    value_claim = _is_value_claim(claim)
    if value_claim and category != "quantity":
        entries += snap.collect("quantity", forms)
    if not entries:
        return _no_fact(claim.subject, category)
    now_us: int | None = None  # only computed when a matching fact has a TTL

    reason: str | None = None
    claimed_value: str | None = None
    ordered = entries
    if value_claim:
        triples = [e for e in entries if e.kind == "value"]
        ordered = [e for e in entries if e.kind != "value"]
        if triples:
            claimed_value = _claimed_value(claim)
            if claimed_value is None:
                reason = f'the claim about "{claim.subject}" carries no value'
            else:
                if any(e.expires_us is not None for e in triples):
                    now_us = micros(now)
                    live = [e for e in triples if e.expires_us is None or e.expires_us >= now_us]
                    triples = live + [e for e in triples if e not in live]
                chosen = _select_triple(claim, triples)
                if isinstance(chosen, str):
                    reason = chosen
                else:
                    ordered.insert(0, chosen)

    expired: list[tuple[Entry, tuple[bool, str, str]]] = []
    for entry in ordered:
        if entry.kind == "value":
            if claimed_value is None:
                continue  # a triple only speaks to a value claim
            verdict = _judge_value(entry, claimed_value)
        else:
            verdict = _judge(entry, claim)
        if isinstance(verdict, str):
            reason = reason or verdict
            continue
        if entry.expires_us is not None:
            if now_us is None:
                now_us = micros(now)
            if entry.expires_us < now_us:
                expired.append((entry, verdict))
                continue
        return _result("supported" if verdict[0] else "contradicted", entry, *verdict[1:])
    if expired:
        entry, verdict = expired[0]
        return _result("expired", entry, *verdict[1:])
    if reason is None:
        reason = f'no fact about "{claim.subject}" speaks to this {category} claim'
    return _no_fact(claim.subject, category, reason)
