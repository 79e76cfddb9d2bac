"""Stages 1-3: segment the text, find its claims, anchor each sentence to its records.

``segment`` splits and types the sentences (``text/``, ``claims/sentence_type``);
``claims`` runs the detectors and makes a claim of every figure no detector claim
holds (``claims/``); ``anchor`` indexes the receipts, finds the records each sentence
is about and the ids, names, states and values it restates (``evidence/``,
``checks/anchoring``, ``checks/records``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.addresses import street_claims
from receiptgate.checks.anchoring import SPACED_ID, Anchor, anchor
from receiptgate.checks.card_digits import last_digit_spans
from receiptgate.checks.code_refs import unheld_code
from receiptgate.checks.files import unknown_files
from receiptgate.checks.flags import flag_claims
from receiptgate.checks.git_status import git_claims
from receiptgate.checks.grounding import is_grounded, ungrounded_names
from receiptgate.checks.line_refs import line_refs
from receiptgate.checks.near_names import near_names
from receiptgate.checks.outcomes import OUTCOME_DETECTOR, failed_outcome
from receiptgate.checks.record_states import names_process
from receiptgate.checks.records import record_claims
from receiptgate.checks.urls import link_claims
from receiptgate.claims.collect import (
    ACTION_CLAUSE_EDGE,
    PLAN,
    clause_around,
    clause_text,
    facts_by_sentence,
)
from receiptgate.claims.hard import (
    RiskWords,
    clause_bounds,
    hard_claim,
    in_code_span,
    in_expression,
    requires_receipt,
    risk_class,
)
from receiptgate.claims.models import DetectedClaim, HardFact
from receiptgate.claims.sentence_context import (
    plain_title,
    plain_titles,
    plan_items,
    status_line,
    table_headers,
)
from receiptgate.claims.sentence_phrases import INTENT, not_yet, proposed, verbless
from receiptgate.claims.sentence_type import NO_HARD_FACT_TYPES, classify
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Record
from receiptgate.pipeline.request import Request, Settings
from receiptgate.pipeline.user_words import check_user_restatements
from receiptgate.policy.decide import ClaimEval
from receiptgate.results import SentenceResult
from receiptgate.text.clean import plain_reading
from receiptgate.text.segment import Sentence, segment
from receiptgate.text.tables import row_subject


def segment_text(s: Settings, req: Request) -> None:
    """The sentences of the text (up to ``maxTextLength``) and what kind each is."""
    limit = s.config.performance.max_text_length
    req.work = req.text
    if len(req.text) > limit:
        req.work = req.text[:limit]
        handled = "delivered, flagged" if s.config.fail_mode == "fail_open" else "withheld"
        req.result.notes.append(
            f"text truncated to maxTextLength {limit}; "
            f"{len(req.text) - len(req.work)} characters not validated ({handled})"
        )
    # Claims are read in the plain reading of the text (text/clean.plain_reading);
    # the result's sentences and the delivered text keep the agent's characters (finish).
    req.read = len(req.work)
    req.work, req.where = plain_reading(req.work)
    req.sentences = segment(req.work)
    req.result.sentences = [
        SentenceResult(x.index, x.text, x.start, x.end, x.kind) for x in req.sentences
    ]
    req.types = [classify(x.text, x.kind, s.hedges) for x in req.sentences]
    plan_items(req.sentences, req.types, s.hedges)
    table_headers(req.work, req.sentences, req.types)
    plain_titles(req.work, req.sentences, req.types)
    status_line(req.sentences, req.types)


def find_claims(s: Settings, req: Request) -> None:
    """The detectors' claims, then a claim for each figure no detector claim holds."""
    cap = s.config.performance.max_claims_per_output
    detector = s.detector
    if req.policy.profile.depth == "contradiction_only":
        detector = s.detector_for(req.facts.categories_with_facts())
    found = detector.detect(req.work, req.sentences, max_claims=cap)
    # Questions, instructions and titles assert nothing ("Make sure nginx is running.",
    # "### Updated Total").
    claims = [
        c
        for c in found.claims
        if (
            req.types[c.sentence_index] not in ("question", "imperative", "status", "condition")
            or (req.types[c.sentence_index] == "imperative" and _in_reason(req, c))
        )
        and not (
            req.types[c.sentence_index] == "code"
            and req.sentences[c.sentence_index].kind == "heading"
        )
        and not plain_title(req.work, req.sentences[c.sentence_index])
    ]
    req.sentence_facts = facts_by_sentence(req.work, req.sentences, req.now)
    req.evals = _with_hard_facts(s, req, claims, cards=bool(len(req.receipts)))
    # The cap was applied in detection; hard-fact claims are always checked.
    req.unchecked = set(found.unchecked)
    if found.dropped:
        req.result.notes.append(
            f"{found.dropped} claim(s) past maxClaimsPerOutput {cap} were not checked"
        )


#: The conjunction of a reason clause: "Let me finish the task since we've fixed the issue".
_REASON = re.compile(r"\b(?:since|because|now\s+that|as)\s+", re.IGNORECASE)


def _in_reason(req: Request, c: DetectedClaim) -> bool:
    """Whether a claim of an instruction or a plan sits in its reason clause: "Let me
    finish this task since we've successfully fixed the issue" asserts the fix."""
    sent = req.sentences[c.sentence_index]
    before = req.work[sent.start : c.offset]
    ends = [m.end() for m in _REASON.finditer(before)]
    return bool(ends) and not any(x in before[ends[-1] :] for x in ",;:")


def _with_hard_facts(
    s: Settings, req: Request, claims: list[DetectedClaim], *, cards: bool
) -> list[ClaimEval]:
    """Attaches hard facts (and their risk classes) to value claims and makes claims of
    the rest.

    With ``cards`` (there are receipts), a card's last digits ("Visa ending in 7285")
    are no figure: checks/records checks them against the records' last digits.
    """
    small = s.policy.small_numbers_are_facts
    work = req.work
    by_sentence: dict[int, list[ClaimEval]] = {}
    for c in claims:
        by_sentence.setdefault(c.sentence_index, []).append(ClaimEval(0, c))
    out: list[ClaimEval] = []
    for sent, stype in zip(req.sentences, req.types, strict=True):
        own = by_sentence.get(sent.index, [])
        out.extend(own)
        facts = req.sentence_facts.get(sent.index)
        if not facts or (stype in NO_HARD_FACT_TYPES and stype not in ("question", "imperative")):
            continue
        if stype in ("question", "imperative"):
            # "Would you like to book HAT072 for $198?", "**Cancel the reservation** —
            # refund of $584": the price it offers is quoted
            facts = [h for h in facts if h.kind == "money"]
            if not facts:
                continue
        words: RiskWords | None = None
        card_spans = {(a, b) for a, b, _ in last_digit_spans(sent)} if cards else set()
        for h in facts:
            if not requires_receipt(h, small) or in_expression(work, h) or in_code_span(work, h):
                continue
            if h.kind in ("date", "time", "datetime", "duration") and (
                (
                    # "Now let me search for flights on May 24:" leads the lines it finds
                    (stype == "intent" or (stype == "label" and _leads_with_intent(sent)))
                    and _in_intent_clause(work, sent, h)
                    and not _deadline(work, sent, h)
                )
                or PLAN.search(work, clause_bounds(work, sent.start, sent.end, h)[0], h.start)
            ):
                continue  # "I'll look into it tomorrow", "I'd expand it today": plans
            holder = next(
                (
                    ev
                    for ev in own
                    if ev.claim.detector_id.startswith("quantity.")
                    and ev.claim.offset <= h.start < ev.claim.end
                ),
                None,
            )
            if holder is None:
                if any(a <= h.start < b for a, b in card_spans):
                    continue  # "ending in 7447" (read as "7447 pays"): a card's digits
                claim = hard_claim(h, sent.index, clause_text(work, sent.start, sent.end, h))
                holder = ClaimEval(0, claim)
                out.append(holder)
            else:
                holder.claim.hard_facts.append(h)
            words = words or RiskWords.of(sent.text)
            holder.risks.append(risk_class(h, words))
    return _numbered(out)


def _numbered(evals: list[ClaimEval]) -> list[ClaimEval]:
    """Claims in text order, numbered as the result lists them."""
    evals.sort(key=lambda ev: (ev.claim.sentence_index, ev.claim.offset))
    for i, ev in enumerate(evals):
        ev.index = i
    return evals


#: A right of the user's, or what follows from the user's act: "You can cancel free of
#: charge ...", "you have until ...", "If you cancel before the deadline, ...".
_YOUR_RIGHT = re.compile(
    r"[\W_]*(?:you\s+(?:can|may|could|have|are\s+able\s+to)|(?:if|once|when)\s+you)\b",
    re.IGNORECASE,
)
#: A deadline or a bound before a figure: "until April 11 at 6:00 PM", "no later than
#: May 3", "within 5 business days".
_DEADLINE_BEFORE = re.compile(
    r"\b(?:until|till|by|before|no\s+later\s+than|within)\b[^,;.!?]{0,30}$", re.IGNORECASE
)
#: The agent as the one who acts: "I'll", "we can", "let me" (its plan, its offer).
_AGENT_ACTS = re.compile(r"\b(?:i|we|let\s+me|let['’]s)\b", re.IGNORECASE)


def _deadline(work: str, s: Sentence, h: HardFact) -> bool:
    """Whether a date, a time or a span is the deadline or the bound of a rule the sentence
    tells the user of ("You can cancel free of charge until April 11", "If you cancel,
    the deposit is refunded within 5 business days"): a fact of the records or the rules,
    not a plan (the agent's own "I'll have it done by Friday" stays a plan)."""
    if _YOUR_RIGHT.match(work, s.start) is None:
        return False
    if _DEADLINE_BEFORE.search(work, max(s.start, h.start - 40), h.start) is None:
        return False
    start, _ = clause_bounds(work, s.start, s.end, h)
    return _AGENT_ACTS.search(work, start, h.start) is None


def _leads_with_intent(s: Sentence) -> bool:
    """Whether a sentence opens with the agent's plan ("Let me search ...")."""
    return INTENT.match(s.text.lower().lstrip("*_#> ")) is not None


def _in_intent_clause(work: str, s: Sentence, h: HardFact) -> bool:
    """Whether a figure of an offer or a plan sits in its intent clause: "I'll call you
    tomorrow" yes; "I can proceed, but the refund takes 5 to 10 business days" no (a
    later clause that is not itself a plan states a fact)."""
    start, end = clause_around(work, s.start, s.end, h.start, h.end, ACTION_CLAUSE_EDGE)
    if start == s.start:
        return True
    clause = work[start : h.start].lstrip().lower()
    if not clause:
        # "... on May 26 for the outbound flight and May 28 for the return": a figure that
        # opens a clause with no verb is one more object of the plan; "and May 28 is
        # full" states a fact
        return verbless(work[h.end : end].lower())
    # "I'll search for flights on May 19, and then for flights back on May 23": a clause
    # with no subject of its own goes on with the plan; so does one with no verb ("Option:
    # search DTW–LGA flights on May 17 and LGA–DTW on May 19")
    return bool(INTENT.match(clause) or _GOES_ON.match(clause) or verbless(clause))


_GOES_ON = re.compile(r"(?:then\s+|also\s+)?(?:for|to|from|on|at|in|with|by)\b")


def anchor_sentences(s: Settings, req: Request) -> None:
    """The receipts indexed once, what each sentence is about, and the ids, names, states
    and values sentences restate (claims of their own, checked as they are found)."""
    receipts = req.receipts
    if isinstance(receipts, ReceiptIndex):
        req.ledger = receipts if len(receipts) else None
    else:
        req.ledger = ReceiptIndex(receipts, now=req.now) if receipts else None
    ledger = req.ledger
    if ledger is not None and s.policy.grounded_names != "off" and is_grounded(ledger):
        req.evals.extend(
            ClaimEval(0, c) for c in ungrounded_names(req.sentences, req.types, ledger)
        )
    req.anchors = anchor(req.work, req.sentences, ledger) if ledger is not None else None
    req.types = check_user_restatements(req.sentences, req.types, ledger)
    if req.anchors is not None and ledger is not None:
        _drop_spaced_ids(req)
        req.evals.extend(_record_claims(req, req.anchors, ledger))
    if ledger is not None:
        req.evals.extend(_failed_outcomes(req, ledger))
    _numbered(req.evals)


#: Sentence types that report what happened (not a question, a plan or a hedge).
_REPORTS = frozenset({"statement", "status", "label", "fragment", "opinion"})


def _failed_outcomes(req: Request, ledger: ReceiptIndex) -> list[ClaimEval]:
    """An outcome told as a state ("Your reservation is already confirmed") in a sentence
    with no action claim of its own, where the call that would have done it failed: an
    action claim, contradicted by that call (checks/outcomes)."""
    acts = {ev.claim.sentence_index for ev in req.evals if ev.claim.category == "action"}
    out: list[ClaimEval] = []
    for sent, stype in zip(req.sentences, req.types, strict=True):
        if stype not in _REPORTS or sent.index in acts:
            continue
        found = failed_outcome(ledger, sent.text)
        if found is None:
            continue
        claim = DetectedClaim(
            category="action",
            detector_id=OUTCOME_DETECTOR,
            matched_text=sent.text,
            offset=sent.start,
            end=sent.end,
            subject="self",
            assertion="done",
            confidence=0.9,
            sentence_index=sent.index,
        )
        out.append(ClaimEval(0, claim, ledger=found, risks=["agent_actions"]))
    return out


def _drop_spaced_ids(req: Request) -> None:
    """The digits of an id written with a space ("HAT 023") are no figure: the id's own
    claim (checks/records) holds them."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for sent, about in zip(req.sentences, req.anchors or (), strict=True):
        for a, b, _ in about.named:
            if SPACED_ID.fullmatch(req.work, a, b):
                spans.setdefault(sent.index, []).append((a, b))
    if not spans:
        return
    kept: list[ClaimEval] = []
    for ev in req.evals:
        inside = spans.get(ev.claim.sentence_index, ())
        facts = ev.claim.hard_facts
        gone = [i for i, h in enumerate(facts) if any(a <= h.start < b for a, b in inside)]
        if not gone:
            kept.append(ev)
            continue
        ev.claim.hard_facts = [h for i, h in enumerate(facts) if i not in gone]
        if len(ev.risks) == len(facts):
            ev.risks = [r for i, r in enumerate(ev.risks) if i not in gone]
        if ev.claim.hard_facts or not ev.claim.detector_id.startswith("hardfact."):
            kept.append(ev)
    req.evals = _numbered(kept)


def _record_claims(
    req: Request, anchors: Sequence[Anchor], ledger: ReceiptIndex
) -> list[ClaimEval]:
    """Claims for the ids, names, states and values a sentence restates (checks/records)."""
    out: list[ClaimEval] = []
    taken: dict[int, list[tuple[int, int]]] = {}
    for ev in req.evals:
        for h in ev.claim.hard_facts:
            taken.setdefault(ev.claim.sentence_index, []).append((h.start, h.end))
    for sent, stype in zip(req.sentences, req.types, strict=True):
        if stype in ("code", "status") or (stype == "plan" and proposed(sent.text)):
            continue  # a title, the reply's status line, a value proposed to confirm
        about = anchors[sent.index]
        if stype == "label" and about.how != "named":
            # "Cancelled orders:" is about the records its lines name
            about = _lines_under(sent.index, req.sentences, req.types, anchors) or about
        pending = stype == "intent" and not_yet(sent.text.lower())
        # "| Attempt | Cabin | Result |" above "| 1 | Economy | Failed: no seats on HAT229 |":
        # a row of attempts says what became of an attempt, not a flight's status
        subject = row_subject(req.work, sent) if sent.kind == "table_row" else None
        states = subject is None or not names_process(subject)
        found = record_claims(sent, about, ledger, taken.get(sent.index, ()), states=states)
        if stype == "statement":
            # "In `jsonrep.py`, the handler is not passed": a file no receipt names
            found += unknown_files(sent, ledger)
            # "The failing tests were `test_a` and `test_b`": code no receipt shows
            found += unheld_code(sent, ledger)
            # "The borrow error is at ring.rs:142:27": the place a compiler printed
            found += line_refs(sent, ledger)
            # "The branch is at 570 Bush St" where it is at 705 Bush St
            found += street_claims(sent, ledger)
            # "Your label: https://.../RMA-2025-061284.pdf": a link the receipts give
            found += link_claims(sent, ledger)
            # "Dr. Leah Whitman" where the records name Dr. Leah Whitfield
            found += near_names(sent, ledger)
            # "Breakfast is included in your rate": the booking's breakfast_included
            found += flag_claims(sent, about, ledger)
            # "client.ts is modified", "the working tree is clean": the newest git status
            found += git_claims(sent, ledger)
        for rc in found:
            if pending and rc.kind == "state":
                continue  # "Nothing has been booked yet": no state of a record
            claim = DetectedClaim(
                category="record",
                detector_id=f"record.{rc.kind}",
                matched_text=rc.text,
                offset=rc.start,
                end=rc.end,
                subject=rc.text,
                assertion=rc.kind,
                confidence=0.9,
                sentence_index=sent.index,
                value=rc.text,
                hard_facts=[rc.match.hard_fact],
            )
            out.append(ClaimEval(0, claim, hard=[rc.match], risks=["general"]))
    return out


def _lines_under(
    at: int, sentences: Sequence[Sentence], types: Sequence[str], anchors: Sequence[Anchor]
) -> Anchor | None:
    """The records the lines under a label name, up to the next label ("Cancelled orders:"
    then "Order #W1 and #W2 have been cancelled.")."""
    records: list[Record] = []
    for j in range(at + 1, len(sentences)):
        if types[j] == "label":
            break
        if anchors[j].how == "named":
            records.extend(r for r in anchors[j].records if r not in records)
    if not records:
        return None
    return Anchor(records, "section", text=sentences[at].text, start=sentences[at].start)
