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
from collections.abc import Callable

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.approximate import about_before, approximately, rounded_span
from receiptgate.checks.arithmetic import VALUE_LINE, names_operation
from receiptgate.checks.availability import available_count
from receiptgate.checks.byte_sizes import byte_size
from receiptgate.checks.counts import kind_count, list_count, state_count, subset_count
from receiptgate.checks.document_figures import TODAY_BEFORE, document_figure, stated_today
from receiptgate.checks.document_rates import document_rate
from receiptgate.checks.documents import DOCUMENT_KINDS
from receiptgate.checks.extremes import extreme
from receiptgate.checks.factors import factor
from receiptgate.checks.facts import check_claim
from receiptgate.checks.field_sums import field_sum
from receiptgate.checks.figures import check_figure, held_anywhere
from receiptgate.checks.finding import Finding
from receiptgate.checks.ledger import ATTEMPTS, check_action, check_attribution
from receiptgate.checks.line_numbers import line_number
from receiptgate.checks.named_numbers import named_number
from receiptgate.checks.orderings import check_ordering, ordering_of, ranks
from receiptgate.checks.outcomes import OUTCOME_DETECTOR, done_today
from receiptgate.checks.outputs import (
    indent_of,
    listed_rows,
    reports_failure,
    row_count,
)
from receiptgate.checks.ports import absent_port
from receiptgate.checks.printed_counts import printed_count, tally_total
from receiptgate.checks.row_partners import row_partners
from receiptgate.checks.schedules import time_span
from receiptgate.checks.span_gaps import span_gap
from receiptgate.checks.totals import lines_total, refunded_row
from receiptgate.checks.words import content_words
from receiptgate.checks.written import (
    is_operand,
    worked_out_before,
    writes_arithmetic,
    written_arithmetic,
)
from receiptgate.claims.collect import ACTION_CLAUSE_EDGE, clause_around
from receiptgate.claims.hard import clause_words, sentence_anchors
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import claim_keys
from receiptgate.pipeline.carried import SAID_BEFORE, said_before
from receiptgate.pipeline.check_dates import clause_text_of, dated_fallbacks
from receiptgate.pipeline.check_states import (
    check_state_claim,
    claimed_count,
    dated_history,
    record_state,
)
from receiptgate.pipeline.claims import anchor_sentences, find_claims, segment_text
from receiptgate.pipeline.derived import DERIVED, computed_before, derivation_finding, derived
from receiptgate.pipeline.freshness import freshness
from receiptgate.pipeline.reply_sums import settle_reply_sums
from receiptgate.pipeline.request import Request, Settings
from receiptgate.policy.decide import ClaimEval, back_labels
from receiptgate.results import ValidationResult
from receiptgate.text.segment import Sentence
from receiptgate.text.tables import cell_label, row_label


def check_claims(s: Settings, req: Request) -> None:
    """Facts, the ledger and the records for every claim, sentence by sentence."""
    by_sentence = req.by_sentence()
    for ev in req.evals:
        _gather(s, req, ev, req.sentences[ev.claim.sentence_index])
    for sidx, group in sorted(by_sentence.items()):
        _match_hard(s, req, group, req.sentences[sidx])
        dated_history(group)
        record_state(group)
    # a summary above the lines it adds up, one part of a split below its total
    settle_reply_sums(req.text, req.sentences, by_sentence)
    for sidx, group in by_sentence.items():
        back_labels(group, by_sentence.get(sidx - 1, []))


def _recheck(s: Settings, req: Request, text: str, index: ReceiptIndex) -> list[ClaimEval]:
    """The claims of an earlier reply of the agent, checked against ``index`` (the
    receipts before it) as this one is, up to the findings (pipeline/carried)."""
    earlier = Request(
        ValidationResult(id="", verdict="pass", created_at="", source_text=text),
        text,
        req.now,
        req.policy,
        req.facts,
        index,
        req.external,
        rechecked=req.rechecked,
    )
    segment_text(s, earlier)
    find_claims(s, earlier)
    anchor_sentences(s, earlier)
    check_claims(s, earlier)
    return earlier.evals


#: A figure said to be a difference: "$6.55 more", "$1.27 back", "$26.48 in your favor",
#: "$7.80 to pay".
_COMPARED_AFTER = re.compile(
    r"[*_]*\s*(?:more|less|back|extra|cheaper|higher|lower|in\s+your\s+favou?r|to\s+pay)\b",
    re.I,
)

#: ... or an amount still to pay: "pay $9.72", "**You pay:** $12.07", "you'd owe $4".
_TO_PAY_BEFORE = re.compile(r"\b(?:pay|owe)\b[*_:\s]*$", re.I)


def _gather(s: Settings, req: Request, ev: ClaimEval, sentence: Sentence) -> None:
    """Facts and ledger evidence for one claim."""
    c, ledger, work = ev.claim, req.ledger, req.work
    if req.facts.size and not c.detector_id.startswith("hardfact.") and c.category != "action":
        ev.fact = check_claim(req.facts, c, now=req.now)
    if ledger is None:
        return
    if c.category == "action":
        if c.assertion != "forged_label" and c.detector_id != OUTCOME_DETECTOR:
            # A passive report ("'a.txt' has been written to 'b.txt'") names its object
            # before the verb; an active one ("I wrote b.txt") after it.
            start, end = c.offset, sentence.end
            if c.assertion == "test_tally":
                start = sentence.start  # "`tsc` reported 2 errors": the run it names
            if c.detector_id.endswith("passive_done"):
                # ... within its own clause: "X has been installed and its version has
                # been written to test.txt" holds two claims with two objects
                start, end = clause_around(
                    work, sentence.start, sentence.end, c.offset, c.end, ACTION_CLAUSE_EDGE
                )
            told = c.value in ATTEMPTS and reports_failure(work)
            ev.ledger = check_action(ledger, c, work[start:end], failure_told=told)
    elif c.category in ("system_state", "operational_status", "existence"):
        check_state_claim(s, req, ev, sentence)
    elif c.category == "attribution":
        ev.ledger = check_attribution(ledger, c)
    elif c.category == "quantity":
        # "Currently your reservation has 0 checked bags": total_baggages of the
        # reservation the sentence is about
        ev.ledger = claimed_count(req, c, sentence)


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
    windows = s.policy.freshness
    linked = {
        ev.ledger.receipt_id
        for ev in group
        if ev.ledger is not None and ev.ledger.status == "supported" and ev.ledger.receipt_id
    }
    pending: list[tuple[ClaimEval, int, HardFact, frozenset[str], Callable[[Receipt], bool]]] = []

    def recheck(text: str, index: ReceiptIndex) -> list[ClaimEval]:
        return _recheck(s, req, text, index)

    backed: list[Finding] = []  # this sentence's figures a receipt backs, so far
    for ev in group:
        if ev.claim.category == "record":
            continue  # checked when it was found
        risk = ev.worst_risk() or "general"
        limit = s.policy.risk_classes[risk].freshness
        fresh = freshness(ledger, req.now, windows, limit)
        for h in ev.claim.hard_facts:
            clause = clause_words(work, sentence.start, sentence.end, all_facts, h)
            if h.kind == "date" and (
                h.text.lower() == "today"
                or TODAY_BEFORE.search(work, max(sentence.start, h.start - 24), h.start)
            ):
                # "today is May 15, 2024": the day the operator's documents say it is
                stated = stated_today(ledger, h, fresh)
                if stated is not None:
                    ev.hard.append(stated)
                    continue
            m = (
                # "Coach 14 stops in sector C": a coach's number, no count of stops
                named_number(ledger, h, sentence.text, h.start - sentence.start)
                # "about 187 MB" of "size_bytes": 187342211
                or byte_size(ledger, h, sentence.text, h.start - sentence.start)
                or printed_count(ledger, h, sentence.text)
                # "2 failures out of 14 tests" of "2 failed, 12 passed"
                or tally_total(ledger, h)
                # "the milestone's 12 issues" of its open_issues and closed_issues
                or field_sum(ledger, h)
                or subset_count(ledger, h, sentence.text, h.start - sentence.start)
                # "Coach 14 still had 4 seats available": of the seats, those available
                or _available_count(ledger, h, sentence)
                or list_count(ledger, h, work[sentence.start : h.start])
                or kind_count(ledger, h, sentence.text, h.start - sentence.start)
                or state_count(ledger, h, sentence.text, h.start - sentence.start)
                or row_count(ledger, h, named)
                # "All 6 pods are Running": the rows "kubectl get pods" printed
                or listed_rows(ledger, h)
                or check_figure(ledger, h, anchor_, clause, sentence_words, fresh, named)
            )
            # a table cell read with its column's header: "Total for 3: $1,803"
            cell = cell_label(work, sentence, h.start)
            said = f"{cell[0]}: {cell[1]}" if cell is not None else sentence.text
            if cell is not None and (row := row_label(sentence)) and row not in cell[1]:
                # "| Difference | | $222 |" under "| | Flights | Fare |": the row names
                # what the figure is as much as its column does
                said = f"{row} {said}"
            topic = anchor_.topic | content_words(cell[0]) if cell is not None else anchor_.topic
            if m.status == "unsupported" and topic - clause:
                # "### Price" above "- New outbound: $146 per passenger", "| Fare |" above
                # "| $146 |": what the line's figures are, its heading says; it only
                # backs, never makes a rival
                t = check_figure(ledger, h, anchor_, clause | topic, sentence_words, fresh, named)
                m = t if t.status == "supported" else m
            if m.status == "unsupported" and is_operand(sentence.text, h.start - sentence.start):
                # "$274 (HAT028) + $365 (HAT277) = $639": the terms of a written sum
                # come from several records, whichever the sentence names
                m = held_anywhere(ledger, h, fresh) or m
                if m.status == "unsupported" and h.number is not None:
                    # "... = (101 + 43) × 2": the 101 an operation before it worked out
                    step = worked_out_before(sentence.text, h.start - sentence.start, h.number)
                    if step is not None:
                        m = derivation_finding(ledger, h, step, req, backed) or m
            if m.status == "unsupported":
                m = derived(ledger, h, anchor_, fresh, said, req, backed) or m
            elif m.status == "supported" and writes_arithmetic(sentence.text):
                # "$50 × 4 = $250": wrong as written, whatever record holds a 250
                wrong = written_arithmetic(sentence.text, h)
                if wrong is not None and wrong.status == "contradicted":
                    m = derivation_finding(ledger, h, wrong, req, backed) or m
            if m.status == "unsupported":
                # "Now `my_id` has 8 spaces": the indent of that line of a listing
                m = (
                    computed_before(req, h)
                    or indent_of(ledger, h, sentence.text)
                    or approximately(ledger, h, anchor_, work, h.start)  # "around $537"
                    or rounded_span(ledger, h)  # "1,843 ms" of "1843.217 ms"
                    # "about 3.4x faster" of a benchmark's 0.218 and 0.064 seconds
                    or factor(ledger, h, sentence.text, h.start - sentence.start)
                    # "34 minutes faster than the connection via Stuttgart": two journeys
                    or span_gap(ledger, h, sentence.text, h.start - sentence.start)
                    # "the error rate peaked at 16.9%": the highest of a series' values
                    or extreme(ledger, h, sentence.text)
                    or m
                )
            elif (
                m.status == "contradicted" and h.kind == "duration" and about_before(work, h.start)
            ):
                # "took about 3.2 seconds" of "in 3.214s": said as rounded, no other span
                m = rounded_span(ledger, h) or m
            if m.status == "unsupported":
                # "Flight cost: $871" two replies after the one that worked it out
                m = said_before(ledger, h, req.text, recheck, req.rechecked) or m
            if m.status == "unsupported" and h.kind == "number":
                # "Nothing is listening on port 5432": the socket listing holds no such port
                m = absent_port(ledger, h, work, sentence.start, sentence.end) or m
            if m.status == "unsupported" and h.kind in ("number", "count"):
                # "Line 960 is the one we fixed": grep -n's "960:", or line 960 of a file read
                m = line_number(ledger, h, sentence.text, h.start - sentence.start) or m
            if m.status == "unsupported":
                # "Refund: $473.43 back to your PayPal" after a return of that one item
                own = clause_text_of(work, sentence, h)  # the figure's clause names it
                if not _SEVERAL.search(sentence.text):  # "the refund for both items"
                    m = refunded_row(ledger, h, own, None, anchor_.scope()) or m
            if m.status == "unsupported" and h.kind == "date":
                # "since today's air purifier return": the call this conversation made
                m = done_today(ledger, h, clause_text_of(work, sentence, h)) or m
            if m.status == "unsupported":
                # a rule of the operator's documents ("refunded in 5 to 7 business days")
                m = (
                    document_figure(ledger, h, sentence.text, fresh, anchor_.topic)
                    or document_rate(ledger, h, sentence.text, anchor_, fresh)  # 3 × $30
                    or m
                )
            # a date or a duration a record implies: a day from it, the next day of a
            # schedule, how long ago it was (pipeline/check_dates)
            m = dated_fallbacks(ledger, h, m, anchor_, work, sentence, all_facts, fresh)
            if m.status == "unsupported" and h.kind == "duration":
                # "a total travel time of 5 hours": from one time of the schedule to another
                told = work[: _introduced_end(work, sentence)].lower()
                m = time_span(ledger, h, anchor_, sentence.text, fresh, told) or m
            elif m.status == "contradicted" and (
                names_operation(said)
                or _COMPARED_AFTER.match(work, h.end)
                or _TO_PAY_BEFORE.search(work, max(sentence.start, h.start - 16), h.start)
                # "Gift Card 2: $696.00 (gift_card_6136092)": the card's $129 and the $567
                # refund its id also names, one field of the records the line names
                or (anchor_.how == "named" and h.kind == "money")
                # "Basic Economy: $104" under "Option 6: HAT136 → HAT039": one field summed
                # over the rows the lines above named, not the fare of the row before
                or (anchor_.how == "previous" and h.kind == "money")
                # "Forfeited amount: $152" under "**Payment:**" and the certificate's line:
                # what is left of it, not its amount
                or (anchor_.how == "section" and h.kind == "money")
            ):
                # "the 20% discount on the lamp is $30.05": not the lamp's price,
                # a figure computed from it
                d = derived(ledger, h, anchor_, fresh, said, req, backed)
                if d is None or d.status != "supported":
                    # ... or the figure a line above worked out, restated
                    d = computed_before(req, h)
                m = d if d is not None and d.status == "supported" else m
                if m.status == "contradicted":
                    # "Refund: $45.13 to PayPal": one returned item's price, not the payment
                    own = clause_text_of(work, sentence, h)
                    if not _SEVERAL.search(sentence.text):
                        m = refunded_row(ledger, h, own, m.receipt_id) or m
            elif (
                m.status == "contradicted"
                and anchor_.how != "named"
                and (again := computed_before(req, h)) is not None
            ):
                # "Remaining: $2,613 - $500 - $327 = $1,786" and then "Mastercard charge:
                # $1,786": the reply's own result, restated, is no value of the record a
                # label happens to point at (a record the sentence names still decides)
                m = again
            elif (
                m.status == "contradicted"
                and h.number is not None
                and VALUE_LINE.match(sentence.text)
                and (run := lines_total(req.backed, h, h.number, latest=True)) is not None
            ):
                # "**Economy fare:** $312" right under the lines of the two fares: their
                # sum, not one fare's field
                m = derivation_finding(ledger, h, run, req) or m
            if (
                m.status == "contradicted"
                and anchor_.how in ("latest", "previous")
                and m.detail.startswith("miscalculated")
            ):
                # "**Total cost:** $2,613" two replies after it was worked out: not the
                # total of whatever list the newest result holds
                m = said_before(ledger, h, req.text, recheck, req.rechecked) or m
            if (
                m.status == "supported"
                and h.kind in _ORDERED
                and (direction := ordering_of(sentence.text, h.kind))
                and ranks(sentence.text, h.start - sentence.start, h.end - sentence.start)
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
                and (
                    m.detail.startswith((DERIVED, SAID_BEFORE)) or m.receipt_kind in DOCUMENT_KINDS
                )
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
    _pair_rows(ledger, group, [(ev, at, h, fresh) for ev, at, h, _, fresh in pending], anchor_)


def _pair_rows(
    ledger: ReceiptIndex,
    group: list[ClaimEval],
    pending: list[tuple[ClaimEval, int, HardFact, Callable[[Receipt], bool]]],
    anchor_: Anchor,
) -> None:
    """ "It peaked at 16.9% at 10:10 UTC": the sentence's figures still unsupported, backed
    by the row another of its figures is a value of (checks/row_partners); within the
    records the sentence names, and the rows of its figures already backed. (The
    freshness of the first such claim is every one's: one sentence, one risk class.)"""
    figures = [h for ev in group for h in ev.claim.hard_facts]
    left = [
        (ev, at, h, fresh) for ev, at, h, fresh in pending if ev.hard[at].status == "unsupported"
    ]
    if not left or len(figures) < 2:
        return
    done = {
        id(h): f
        for ev in group
        for h, f in zip(ev.claim.hard_facts, ev.hard, strict=False)
        if f.status == "supported" and f.path
    }
    named_rows = anchor_.scope() if anchor_.how in ("named", "section") else None
    unsupported = [h for _, _, h, _ in left]
    paired = row_partners(ledger, figures, unsupported, left[0][3], scope=named_rows, backed=done)
    for ev, at, h, _ in left:
        ev.hard[at] = paired.get(id(h), ev.hard[at])


def _available_count(ledger: ReceiptIndex, h: HardFact, sentence: Sentence) -> Finding | None:
    """ "10 of them are available": how many rows of the product are (checks/availability)."""
    if h.kind not in ("count", "number") or not h.text[:1].isdigit():
        return None
    if "availab" not in sentence.text and "in stock" not in sentence.text:
        return None
    found = available_count(ledger, sentence.text, h.start - sentence.start)
    return dataclasses.replace(found, value=h) if found is not None else None


def _leaves_of(ledger: ReceiptIndex, m: Finding, h: HardFact) -> list[Leaf]:
    """The leaf behind a supported figure's finding (its receipt and field path)."""
    if not m.path:
        return []
    return [
        leaf
        for leaf in ledger.leaves(claim_keys(h))
        if leaf.path == m.path and ledger.receipt_of(leaf).id == m.receipt_id
    ][:1]


#: A figure said of several rows: "the total refund for both items".
_SEVERAL = re.compile(r"\b(?:both|all|each|every|items|combined|together)\b", re.I)


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
