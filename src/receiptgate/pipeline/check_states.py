"""State and existence claims ("the order is pending", "there are no gift cards on
your profile", "there's no 50ft blue hose"): the record's state field, then the
absences, availability and rules that may speak to them, first that answers; and,
once a sentence's figures are checked, the state of a record it names by id and a
passive report dated by a record's field (``record_state``, ``dated_history``)."""

from __future__ import annotations

import re

from receiptgate.checks.absences import (
    absent_item,
    absent_quoted,
    absent_value,
    negated_field,
    null_field,
)
from receiptgate.checks.availability import available_count, check_availability, other_options
from receiptgate.checks.counts import field_count
from receiptgate.checks.finding import Finding
from receiptgate.checks.no_state import none_in_state
from receiptgate.checks.outcomes import outcome
from receiptgate.checks.outputs import (
    empty_result,
    found_results,
    over_budget,
    quoted_claim,
    reported_failure,
)
from receiptgate.checks.restated_rules import restated_passage, unlisted
from receiptgate.checks.runs import run_result
from receiptgate.checks.states import check_state
from receiptgate.checks.status_calls import called_state
from receiptgate.checks.unshown import unshown
from receiptgate.checks.words import content_words
from receiptgate.claims.collect import clause_of
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Record
from receiptgate.evidence.values import key_words
from receiptgate.pipeline.freshness import freshness
from receiptgate.pipeline.request import Request, Settings
from receiptgate.policy.decide import ClaimEval
from receiptgate.text.segment import Sentence

_BOUND = re.compile(
    r"[$€£]|\b(?:under|below|above|over|less\s+than|more\s+than|cheaper|within|budget)\b", re.I
)
_CLAUSE_BREAK = re.compile(r"[;,]\s+(?:but|and|though|although|while|yet|so)?\s*")
#: "other options", "alternatives": what is beside the thing the sentence described.
_OTHERS = re.compile(
    r"^(?:some\s+|several\s+|a\s+few\s+)?(?:other|alternative)\s+(?:options|variants|versions|"
    r"choices|models|colors|colours|sizes)$|^alternatives$",
    re.IGNORECASE,
)
_AVAILABILITY = {
    "available": True,
    "in_stock": True,
    "not_available": False,
    "unavailable": False,
    "out_of_stock": False,
}
_EVERY = re.compile(r"\b(?:all|every|each)\b", re.IGNORECASE)
#: "are all available", "were both cancelled": the quantifier after the verb.
_FLOATING_ALL = re.compile(r"\b(?:are|were)\s+(?:all|both)\b", re.IGNORECASE)


def _every_of(subject: str) -> str:
    """ "the flights" said of all of them, as "all flights"."""
    if _EVERY.match(subject):
        return subject
    return "all " + re.sub(r"^(?:the|these|those|your)\s+", "", subject, flags=re.IGNORECASE)


_NONE = re.compile(r"\b(?:none\s+of|no)\b", re.IGNORECASE)


def claimed_count(req: Request, c: DetectedClaim, sentence: Sentence) -> Finding | None:
    """ "Currently your reservation has 0 checked bags": the count in a field named for it
    (``total_baggages``) of the record the sentence is about, read in the claim's own
    clause, not the count of another clause ("the 1 bag on file ...; there is no bag
    fee")."""
    assert req.ledger is not None
    clause = _CLAUSE_END.split(req.work[c.offset : sentence.end], maxsplit=1)[0]
    found = field_count(req.ledger, clause, req.anchor_of(sentence.index).records)
    if found is None and (only := the_one(req.ledger, clause)) is not None:
        # "your reservation" after lines about a flight search: the one reservation the
        # evidence holds
        found = field_count(req.ledger, clause, [only])
    return found


_NOUN = re.compile(r"\b(?:your|the|this)\s+([a-z]+)\b", re.IGNORECASE)


def the_one(index: ReceiptIndex, clause: str) -> Record | None:
    """The record a clause names by its noun ("your reservation") when the evidence holds
    exactly one record of that noun (a whole result whose id field is ``reservation_id``),
    at its newest result."""
    for m in _NOUN.finditer(clause):
        key = f"{m.group(1).lower()}_id"
        found: dict[str, Record] = {}
        for e in index.entries:
            if e.receipt.kind != "tool":
                continue
            for rec in e.records:
                if rec.parent is not None or rec.path == "args":
                    continue  # a whole result, not a row of it or the call's arguments
                ident = next((x.value.shown for x in rec.leaves if x.key.lower() == key), None)
                if ident is not None:
                    found[ident] = rec  # the newest result of each
        if len(found) == 1:
            return next(iter(found.values()))
    return None


_CLAUSE_END = re.compile(r"[,;:.!?()]|\s[—–-]\s|\s(?:and|but)\s")


def check_state_claim(s: Settings, req: Request, ev: ClaimEval, sentence: Sentence) -> None:
    """Ledger evidence for one state or existence claim."""
    c, ledger, work = ev.claim, req.ledger, req.work
    assert ledger is not None
    res = run_result(ledger, sentence.text) or check_state(
        ledger, c, clause_of(work, sentence, c), sentence.text
    )
    if res.status != "unsupported":
        ev.ledger = res
    elif not c.negative and (done := outcome(ledger, clause_of(work, sentence, c))) is not None:
        # "Your sneaker return is set up": the return call that did it
        ev.ledger = done
    elif c.assertion == "not_found" and (failed := reported_failure(ledger, sentence.text)):
        # "I'm unable to locate your account" right after a lookup that found nothing
        ev.ledger = failed
    elif c.negative and (empty := empty_result(ledger, sentence.text)) is not None:
        # "There are no nonstop flights from JFK to SFO" after a search that found none
        ev.ledger = empty
    elif c.negative and (unknown := absent_quoted(ledger, sentence.text)) is not None:
        # 'We don't have a "Google Home" option': no result holds the term
        ev.ledger = unknown
    elif c.negative and (gone := absent_item(ledger, sentence.text)) is not None:
        # "Order #W5565470 does not contain a garden hose": none of its items is one
        ev.ledger = gone
    elif c.negative and (no := negated_field(ledger, sentence.text, req.anchor_of(sentence.index))):
        # "It has no travel insurance": the insurance field of the reservation the
        # sentence is about says no (another reservation's says nothing of this one)
        ev.ledger = no
    elif c.negative and (none := none_in_state(ledger, sentence.text)) is not None:
        # "There are no delivered orders right now": the newest result of each order
        ev.ledger = none
    elif c.negative and (none := absent_value(ledger, sentence.text)) is not None:
        # "There are no gift cards on your profile": the user's details hold none
        ev.ledger = none
    elif c.negative and (over := over_budget(ledger, sentence.text)) is not None:
        # "... no other nonstop flights within your budget of $100": none that cheap
        ev.ledger = over
    elif (avail := _AVAILABILITY.get(c.assertion)) is not None:
        # "None of the T-shirts are available", "All the T-shirts are available"
        # "None of the T-shirts are available", in the claim's own clause: not the "no"
        # of "There's no blue hose, but other options are available"
        head = _CLAUSE_BREAK.split(work[sentence.start : c.offset])[-1]
        # "All the flights are available", "The flights are all available"
        every = _EVERY.search(head) is not None or _FLOATING_ALL.search(c.matched_text) is not None
        if _NONE.search(head):
            every, avail = True, not avail
        # "10 of them are available": how many (else whether those described are)
        found = (
            available_count(ledger, sentence.text)
            or check_availability(ledger, sentence.text, avail, every)
            # "All flights are still available" after get_flight_status answered each
            or called_state(ledger, avail, _every_of(c.subject or "") if every else c.subject or "")
        )
        if found is None and _OTHERS.match(c.subject):
            # "..., but other options are available": the product's other variants
            found = other_options(ledger, sentence.text, avail)
        if found is None and avail and not every:
            # "direct flights are available both ways": the direct-flight searches found some
            found = found_results(ledger, clause_of(work, sentence, c))
        if found is not None:
            ev.ledger = found
    elif c.assertion == "not_exists":
        # "There's no 50ft reinforced blue garden hose in our catalog": no variant of
        # the product holds those values together
        clause = clause_of(work, sentence, c)
        if not _BOUND.search(clause):  # "... for less than $100": not the variants alone
            ev.ledger = check_availability(ledger, clause, available=False)
        if ev.ledger is None and c.subject:
            # "Issue #482 has no assignee yet": the field of that name is null
            ev.ledger = null_field(ledger, c.subject)
    if ev.ledger is None and (unseen := unshown(ledger, sentence.text)) is not None:
        # "Our product data does not include notes about shrinkage", "No estimated delivery
        # date is available yet": no field of it in the newest results (as the same words
        # with no claim detected, pipeline/claimless)
        ev.ledger = unseen
    if ev.ledger is None:
        ev.ledger = claimed_count(req, c, sentence)
    if ev.ledger is None:
        # "The error is `AttributeError: 'NoneType' object has no attribute 'format'`":
        # a claim inside a quote of what a call printed
        ev.ledger = quoted_claim(ledger, sentence.text, c.matched_text)
    if ev.ledger is None:
        # "Express shipping is not available for furniture", "basic economy flights
        # cannot be modified": no record's state but a rule of the operator's
        # documents, restated
        fresh = freshness(ledger, req.now, s.policy.freshness, None)
        if (doc := restated_passage(ledger, sentence.text, fresh)) is not None:
            r = doc.receipt
            ev.ledger = Finding("supported", r.id, r.kind, doc.line())
        elif c.negative and (gap := unlisted(ledger, sentence.text)) is not None:
            ev.ledger = gap  # "There's no separate change fee in our policy": it has no fee


def record_state(group: list[ClaimEval]) -> None:
    """ "Flight HAT052 is available": the state of a record the sentence names by its id is
    what the record's state field says (the record claim), not what tool output says of
    a host or a package."""
    states = [
        ev
        for ev in group
        if ev.claim.category == "record"
        and ev.claim.assertion == "state"
        and ev.hard
        and ev.hard[0].status == "supported"
    ]
    ids = [
        ev.claim.matched_text.lower()
        for ev in group
        if ev.claim.category == "record" and ev.claim.assertion == "id"
    ]
    for ev in group if states else ():
        c = ev.claim
        if c.category not in ("system_state", "operational_status", "existence") or ev.ledger:
            continue
        if ids and any(i in c.subject.lower() for i in ids):
            ev.ledger = states[0].hard[0]
            continue
        # "There are no uncommitted changes": the record state read over the same words
        # (git status's clean tree) settles the claim
        same = [x for x in states if x.claim.offset < c.end and c.offset < x.claim.end]
        if same:
            ev.ledger = same[0].hard[0]


def dated_history(group: list[ClaimEval]) -> None:
    """ "Your reservation was created on 2024-05-01", "the flight was scheduled to depart
    on May 21": a passive report dated by a record's field of that event (``created_at``,
    a scheduled date) is the record's history, not an action the agent claims to have
    done; the date's own finding backs it."""
    dated = [
        m
        for ev in group
        for m in ev.hard
        if m.status == "supported"
        and m.value is not None
        and m.value.kind in ("date", "datetime", "time")
        and m.path
    ]
    for ev in group if dated else ():
        c = ev.claim
        if (
            c.category != "action"
            or not c.detector_id.startswith("action.passive")
            or ev.ledger is None
            or ev.ledger.status != "unsupported"
        ):
            continue
        verb = content_words(c.matched_text)
        for m in dated:
            field = content_words(" ".join(key_words(_LAST_KEY.findall(m.path or "")[-1])))
            if verb & field or verb & _SCHEDULED:
                ev.ledger = Finding(
                    "supported",
                    m.receipt_id,
                    m.receipt_kind,
                    f"{m.receipt_id} {m.path}: when it happened, a record's history",
                    m.path,
                )
                break


_LAST_KEY = re.compile(r"[A-Za-z_][\w-]*")

#: Verbs of a plan a record's date or time states ("was scheduled to depart on ...").
_SCHEDULED = content_words("scheduled planned due")
