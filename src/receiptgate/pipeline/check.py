"""Stage 4: every claim against its evidence (``checks/``).

A claim is checked against the operator facts, an action or a state against the
action ledger, and each figure, id, name or state in it against the records of the
receipts its sentence is anchored to — then, for a figure no record holds, as a
value computed from theirs or as a rule of the operator's documents. Each check
returns a ``checks.finding.Finding``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta

from receiptgate.checks.absences import (
    absent_field,
    absent_value,
    empty_label,
    list_count,
    negated_field,
)
from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.arithmetic import derive, names_operation
from receiptgate.checks.availability import check_availability, other_options
from receiptgate.checks.documents import DOCUMENT_KINDS, document_figure
from receiptgate.checks.facts import check_claim
from receiptgate.checks.figures import check_figure
from receiptgate.checks.finding import Finding
from receiptgate.checks.ledger import ATTEMPTS, check_action, check_attribution
from receiptgate.checks.options import option_ordering
from receiptgate.checks.orderings import check_ordering, ordering_of
from receiptgate.checks.outcomes import outcome
from receiptgate.checks.outputs import (
    empty_result,
    over_budget,
    quoted_output,
    quoted_span,
    reported_failure,
    reports_failure,
    row_count,
)
from receiptgate.checks.restated_rules import restated_passage
from receiptgate.checks.schedules import next_day, time_span
from receiptgate.checks.states import check_state
from receiptgate.checks.totals import refunded_row
from receiptgate.checks.words import content_words
from receiptgate.claims.collect import ACTION_CLAUSE_EDGE, clause_around, clause_of
from receiptgate.claims.hard import clause_words, sentence_anchors
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import claim_keys, key_words
from receiptgate.pipeline.request import Request, Settings
from receiptgate.policy.decide import ClaimEval, back_labels
from receiptgate.policy.policy_file import ReceiptKindName
from receiptgate.results import Evidence, SentenceResult
from receiptgate.text.segment import Sentence


def check_claims(s: Settings, req: Request) -> None:
    """Facts, the ledger and the records for every claim, sentence by sentence."""
    by_sentence = req.by_sentence()
    for ev in req.evals:
        _gather(s, req, ev, req.sentences[ev.claim.sentence_index])
    for sidx, group in sorted(by_sentence.items()):
        _match_hard(s, req, group, req.sentences[sidx])
        _dated_history(group)
        _record_state(group)
    for sidx, group in by_sentence.items():
        back_labels(group, by_sentence.get(sidx - 1, []))


#: A figure said to be a difference: "$6.55 more", "$1.27 back", "$26.48 in your favor".
_COMPARED_AFTER = re.compile(
    r"[*_]*\s*(?:more|less|back|extra|cheaper|higher|lower|in\s+your\s+favou?r)\b", re.I
)


def _gather(s: Settings, req: Request, ev: ClaimEval, sentence: Sentence) -> None:
    """Facts and ledger evidence for one claim."""
    c, ledger, work = ev.claim, req.ledger, req.work
    if req.facts.size and not c.detector_id.startswith("hardfact.") and c.category != "action":
        ev.fact = check_claim(req.facts, c, now=req.now)
    if ledger is None:
        return
    if c.category == "action":
        if c.assertion != "forged_label":
            # A passive report ("'a.txt' has been written to 'b.txt'") names its object
            # before the verb; an active one ("I wrote b.txt") after it.
            start, end = c.offset, sentence.end
            if c.detector_id.endswith("passive_done"):
                # ... within its own clause: "X has been installed and its version has
                # been written to test.txt" holds two claims with two objects
                start, end = clause_around(
                    work, sentence.start, sentence.end, c.offset, c.end, ACTION_CLAUSE_EDGE
                )
            told = c.value in ATTEMPTS and reports_failure(work)
            ev.ledger = check_action(ledger, c, work[start:end], failure_told=told)
    elif c.category in ("system_state", "operational_status", "existence"):
        res = check_state(ledger, c, clause_of(work, sentence, c), sentence.text)
        if res.status != "unsupported":
            ev.ledger = res
        elif c.assertion == "not_found" and (failed := reported_failure(ledger, sentence.text)):
            # "I'm unable to locate your account" right after a lookup that found nothing
            ev.ledger = failed
        elif c.negative and (empty := empty_result(ledger, sentence.text)) is not None:
            # "There are no nonstop flights from JFK to SFO" after a search that found none
            ev.ledger = empty
        elif c.negative and (no := negated_field(ledger, sentence.text)) is not None:
            # "It has no travel insurance": the reservation's insurance field says no
            ev.ledger = no
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
            every = _EVERY.search(head) is not None
            if _NONE.search(head):
                every, avail = True, not avail
            found = check_availability(ledger, sentence.text, avail, every)
            if found is None and _OTHERS.match(c.subject):
                # "..., but other options are available": the product's other variants
                found = other_options(ledger, sentence.text, avail)
            if found is not None:
                ev.ledger = found
        elif c.assertion == "not_exists":
            # "There's no 50ft reinforced blue garden hose in our catalog": no variant of
            # the product holds those values together
            clause = clause_of(work, sentence, c)
            if not _BOUND.search(clause):  # "... for less than $100": not the variants alone
                ev.ledger = check_availability(ledger, clause, available=False)
        if ev.ledger is None:
            # "Express shipping is not available for furniture", "basic economy flights
            # cannot be modified": no record's state but a rule of the operator's
            # documents, restated
            fresh = _freshness(ledger, req.now, s.policy.freshness, None)
            if (doc := restated_passage(ledger, sentence.text, fresh)) is not None:
                r = doc.receipt
                ev.ledger = Finding("supported", r.id, r.kind, doc.line())
    elif c.category == "attribution":
        ev.ledger = check_attribution(ledger, c)


def _record_state(group: list[ClaimEval]) -> None:
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
    for ev in group if states and ids else ():
        c = ev.claim
        if (
            c.category in ("system_state", "operational_status", "existence")
            and ev.ledger is None
            and any(i in c.subject.lower() for i in ids)
        ):
            ev.ledger = states[0].hard[0]


def _dated_history(group: list[ClaimEval]) -> None:
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
#: Quantifiers before an availability claim.
_EVERY = re.compile(r"\b(?:all|every|each)\b", re.IGNORECASE)
_NONE = re.compile(r"\b(?:none\s+of|no)\b", re.IGNORECASE)

#: Kinds of figure an ordering ("the cheapest", "the earliest") can rank.
_ORDERED = frozenset({"money", "time", "datetime", "date"})

#: Record claims whose words describe a row (kept among a figure's clause words).
_ROW_WORDS = frozenset({"name", "state", "value"})


def _match_hard(s: Settings, req: Request, group: list[ClaimEval], sentence: Sentence) -> None:
    """Receipts for the hard facts of one sentence's claims (checks/figures)."""
    ledger, work = req.ledger, req.work
    if ledger is None:
        for ev in group:
            ev.hard.extend(
                Finding("unsupported", detail=f"no receipts: nothing backs {h.text}", value=h)
                for h in ev.claim.hard_facts
            )
        return
    anchor_ = req.anchor_of(sentence.index)
    # A restated name, state or value ("for the web app") is what ties a figure to
    # its row: it stays among the clause's words; other figures and ids do not.
    all_facts = sorted(
        (h for ev in group for h in ev.claim.hard_facts if h.unit not in _ROW_WORDS),
        key=lambda h: h.start,
    )
    sentence_words = clause_words(work, sentence.start, sentence.end, all_facts, None)
    # with its ids and hosts, which are no claims of their own
    named = sentence_anchors(sentence.text, req.sentence_facts.get(sentence.index, []))
    freshness = s.policy.freshness
    linked = {
        ev.ledger.receipt_id
        for ev in group
        if ev.ledger is not None and ev.ledger.status == "supported" and ev.ledger.receipt_id
    }
    pending: list[tuple[ClaimEval, int, HardFact, frozenset[str], Callable[[Receipt], bool]]] = []
    backed: list[Finding] = []  # this sentence's figures a receipt backs, so far
    for ev in group:
        if ev.claim.category == "record":
            continue  # checked when it was found
        risk = ev.worst_risk() or "general"
        limit = s.policy.risk_classes[risk].freshness
        fresh = _freshness(ledger, req.now, freshness, limit)
        for h in ev.claim.hard_facts:
            clause = clause_words(work, sentence.start, sentence.end, all_facts, h)
            m = (
                list_count(ledger, h)
                or row_count(ledger, h, named)
                or check_figure(ledger, h, anchor_, clause, sentence_words, fresh, named)
            )
            if m.status == "unsupported" and anchor_.topic - clause:
                # "### Price" above "- New outbound: $146 per passenger": what the line's
                # figures are, its heading says; it only backs, never makes a rival
                t = check_figure(
                    ledger, h, anchor_, clause | anchor_.topic, sentence_words, fresh, named
                )
                m = t if t.status == "supported" else m
            if m.status == "unsupported":
                m = _derived(ledger, h, anchor_, fresh, sentence.text, req, backed) or m
            if m.status == "unsupported":
                m = _computed_before(req, h) or m
            if m.status == "unsupported":
                # a rule of the operator's documents ("refunded in 5 to 7 business days")
                m = document_figure(ledger, h, sentence.text, fresh) or m
            if h.kind == "date" and (
                m.status == "unsupported"
                or (
                    m.status == "contradicted"
                    and _ARRIVES.search(_clause_text_of(work, sentence, h))
                )
            ):
                # "arrives on May 26": a schedule's "01:00:00+1" on a May 25 flight
                m = next_day(ledger, h, anchor_, fresh) or m
            if m.status == "unsupported" and h.kind == "duration":
                # "a total travel time of 5 hours": from one time of the schedule to another
                told = work[: _introduced_end(work, sentence)].lower()
                m = time_span(ledger, h, anchor_, sentence.text, fresh, told) or m
            elif m.status == "contradicted" and (
                names_operation(sentence.text) or _COMPARED_AFTER.match(work, h.end)
            ):
                # "the 20% discount on the lamp is $30.05": not the lamp's price,
                # a figure computed from it
                d = _derived(ledger, h, anchor_, fresh, sentence.text, req, backed)
                if d is None or d.status != "supported":
                    # ... or the figure a line above worked out, restated
                    d = _computed_before(req, h)
                m = d if d is not None and d.status == "supported" else m
                if m.status == "contradicted":
                    # "Refund: $45.13 to PayPal": one returned item's price, not the payment
                    m = refunded_row(ledger, h, sentence.text, m.receipt_id) or m
            if (
                m.status == "supported"
                and h.kind in _ORDERED
                and (direction := ordering_of(sentence.text, h.kind))
            ):
                # "the cheapest available option is $46.85", "the earliest flight leaves
                # at 6:00 AM": the lowest (earliest) of its list?
                o = check_ordering(ledger, h, sentence.text, direction, anchor_.scope())
                if o is not None and o.status == "contradicted":
                    r = ledger.receipt_of(o.leaf)
                    m = Finding("contradicted", r.id, r.kind, o.detail, o.leaf.path, value=h)
                elif o is not None:
                    m = dataclasses.replace(m, detail=f"{m.detail}; {o.detail}")
            ev.hard.append(m)
            if (
                m.status == "supported"
                and (m.detail.startswith(_DERIVED) or m.receipt_kind in DOCUMENT_KINDS)
                and h.number is not None
            ):
                # a figure the reply computed, or took from a rule ("$50 per passenger"):
                # an operand of the lines after it
                req.computed.append((h.kind, h.number, m))
            if m.status == "supported" and m.receipt_id:
                backed.append(m)
                linked.add(m.receipt_id)
                req.backed.extend(_leaves_of(ledger, m, h))
            elif m.status == "unsupported":
                pending.append((ev, len(ev.hard) - 1, h, clause, fresh))
    # A receipt that backs another claim of the sentence is what it is about: the
    # test run behind "I ran the tests and all 42 pass".
    for ev, at, h, clause, fresh in pending if linked else ():
        ev.hard[at] = check_figure(
            ledger, h, anchor_, clause, sentence_words, fresh, named, frozenset(linked)
        )


def _freshness(
    ledger: ReceiptIndex,
    now: datetime,
    by_kind: Mapping[ReceiptKindName, timedelta | None],
    limit: timedelta | None,
) -> Callable[[Receipt], bool]:
    """Whether a receipt is fresh enough for a claim of one risk class (memoised per
    receipt: a figure weighs many values of the same receipts)."""
    seen: dict[int, bool] = {}

    def fresh(r: Receipt) -> bool:
        ok = seen.get(id(r))
        if ok is None:
            ok = seen[id(r)] = ledger.is_fresh(r, _tighter(by_kind.get(r.kind), limit), now)
        return ok

    return fresh


def _leaves_of(ledger: ReceiptIndex, m: Finding, h: HardFact) -> list[Leaf]:
    """The leaf behind a supported figure's finding (its receipt and field path)."""
    if not m.path:
        return []
    return [
        leaf
        for leaf in ledger.leaves(claim_keys(h))
        if leaf.path == m.path and ledger.receipt_of(leaf).id == m.receipt_id
    ][:1]


def _tighter(a: timedelta | None, b: timedelta | None) -> timedelta | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)


_DERIVED = "derived"


def _derived(
    ledger: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    fresh: Callable[[Receipt], bool],
    sentence: str,
    req: Request,
    supported: Sequence[Finding] = (),
) -> Finding | None:
    """A figure no record holds, computed from figures they do (checks/arithmetic), or
    from figures the reply derived before (``supported``: this sentence's figures that
    receipts back, so far)."""
    d = derive(
        ledger,
        h,
        anchor_.records,
        fresh,
        sentence,
        anchored=anchor_.how in ("named", "section"),
        restated=req.backed,
        computed=req.computed,
    )
    if d is None:
        return None
    rid: str | None = None
    kind: str | None = None
    if d.leaf is not None:
        r = ledger.receipt_of(d.leaf)
        rid, kind = r.id, r.kind
    elif d.origin is not None:
        rid, kind = d.origin.receipt_id, d.origin.receipt_kind
    elif d.terms:
        # written out ("$443 - $180 = $263"): backed by what backed its terms, when
        # every term is a figure of this line or a line above that a receipt backs
        held = [_backing(req, x, supported) for x in d.terms]
        if all(f is not None for f in held):
            rid, kind = held[0].receipt_id, held[0].receipt_kind  # type: ignore[union-attr]
        elif not d.stated and held[0] is None:
            # "$216.98 more than the $950": the $1,166.98 it implies must be a figure the
            # reply gave above, backed
            above = next(
                (x for x in req.backed if abs((x.value.number or 0.0) - d.terms[0]) < 0.005), None
            )
            if above is None:
                return None
            r = ledger.receipt_of(above)
            rid, kind = r.id, r.kind
    if d.status == "supported":
        return Finding("supported", rid, kind, f"{_DERIVED}: {d.formula}", value=h)
    return Finding("contradicted", rid, kind, f"miscalculated: {d.formula}", value=h)


#: A clause about an arrival: its date may be the day after the flight's.
_ARRIVES = re.compile(r"\b(?:arriv\w*|lands?|landing|gets?\s+in)\b", re.IGNORECASE)


def _clause_text_of(work: str, sentence: Sentence, h: HardFact) -> str:
    """The clause of a sentence that holds a figure."""
    a, b = clause_around(work, sentence.start, sentence.end, h.start, h.end, ACTION_CLAUSE_EDGE)
    return work[a:b]


def _settle(
    sr: SentenceResult, kind: str, rid: str | None, status: str, detail: str, what: str
) -> None:
    """A sentence with no claim of its own settled by one check: T1 with the evidence that
    backs it, or T5 with the evidence that contradicts it and the reason."""
    if status == "contradicted":
        sr.tag = "T5"
        sr.evidence.append(Evidence(kind, rid, "contradicts", detail))
        sr.reasons.append(f"Contradicted {what}: {detail}")
    else:
        sr.tag = "T1"
        sr.evidence.append(Evidence(kind, rid, "supports", detail))


def _backed_line(req: Request, at: int) -> bool:
    """Whether the sentence of the reply at offset ``at`` was decided, backed (T1, T4)."""
    return any(
        sr.start <= at < sr.end and sr.tag in ("T1", "T4") and sr.action == "pass"
        for sr in req.result.sentences
    )


def _introduced_end(work: str, sentence: Sentence) -> int:
    """Where the reply's words about a sentence end: the sentence's own end, or, for a
    sentence ending in a colon, the end of the list under it ("The fastest option takes
    6 hours:" and the flights below)."""
    if not sentence.text.rstrip().endswith(":"):
        return sentence.end
    body = re.search(r"\S", work[sentence.end :])
    if body is None:
        return sentence.end
    gap = work.find("\n\n", sentence.end + body.start())
    return len(work) if gap < 0 else gap


def _backing(req: Request, x: float, supported: Sequence[Finding]) -> Finding | None:
    """The finding with a receipt behind a figure of this sentence or of a line above."""
    for f in [*supported, *(f for _, _, f in reversed(req.computed))]:
        v = f.value
        if f.receipt_id and v is not None and v.number is not None and abs(v.number - x) < 0.005:
            return f
    return None


def _computed_before(req: Request, h: HardFact) -> Finding | None:
    """A figure an earlier sentence of the reply derived, restated ("Total: $1,327" and
    then "$1,625 - $1,327 = $298")."""
    for kind, x, f in reversed(req.computed):
        if kind == h.kind and h.number is not None and abs(x - h.number) < 0.005:
            return dataclasses.replace(f, detail=f"{f.detail} (a line above)", value=h)
    return None


def ground_claimless(s: Settings, req: Request, sr: SentenceResult) -> None:
    """The receipt of a sentence with no claim of its own (T2, T3 or T6), if it has one.

    "It seems there was an issue locating the order" right after a call that failed
    is backed by the failure, and a line a tool printed, repeated word for word, by
    that output (T1); a statement, inference or hedge that restates a rule of the
    documents by the rule's passage (T4; T1 for a fetched page).
    """
    ledger = req.ledger
    if ledger is None:
        return
    if sr.tag in ("T3", "T6"):
        found = reported_failure(ledger, sr.text) or quoted_output(ledger, sr.text)
        if found is None and sr.tag == "T3":
            found = quoted_span(ledger, sr.text)
        if found is not None and found.receipt_id is not None:
            sr.tag = "T1"
            sr.evidence.append(Evidence("tool", found.receipt_id, "supports", found.detail))
    if sr.tag == "T3" and (empty := empty_label(ledger, sr.text)) is not None:
        # "**Direct flights:** None available" after a direct-flight search found nothing
        _settle(sr, "tool", empty.receipt_id, empty.status, empty.detail, "absence")
        return
    if sr.tag == "T3" and (absent := absent_field(ledger, sr.text)) is not None:
        # "the exact departure time is not provided in the reservation details"
        _settle(sr, "tool", absent.receipt_id, absent.status, absent.detail, "absence")
        return
    if sr.tag == "T3" and (no := negated_field(ledger, sr.text)) is not None:
        # "This reservation has **no** travel insurance" (no negative claim detected)
        _settle(sr, "tool", no.receipt_id, no.status, no.detail, "absence")
        return
    if sr.tag == "T3" and (done := outcome(ledger, sr.text)) is not None:
        # "Your trip is booked.", "Both returns are in.": what a successful call did
        _settle(sr, "tool", done.receipt_id, done.status, done.detail, "outcome")
        return
    o = option_ordering(req.work, sr.text) if sr.tag in ("T2", "T3") else None
    if o is not None and (o.status == "contradicted" or all(_backed_line(req, a) for a in o.at)):
        # "Option 3 offers the lowest additional cost": over the options listed above
        _settle(sr, "reply", None, o.status, o.detail, "ordering")
        return
    if sr.tag not in ("T2", "T3", "T6"):
        return
    doc = restated_passage(ledger, sr.text, _freshness(ledger, req.now, s.policy.freshness, None))
    if doc is not None:
        sr.tag = "T1" if doc.receipt.kind == "web" else "T4"
        sr.evidence.append(Evidence(doc.receipt.kind, doc.receipt.id, "supports", doc.line()))
