"""A figure of the operator's documents against the passages its sentence is about:
"refunded in 5 to 7 business days", "$30 per passenger".

Supported by a passage that holds it and shares a word with the sentence (or with the
heading it sits under); contradicted by the passage the sentence closely restates when it
holds another value of the figure's kind. :mod:`documents` builds the passages.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from receiptgate.checks.documents import (
    HEDGE_WORDS,
    NEGATION,
    DocumentMatch,
    Library,
    Passage,
    canon,
    doc_words,
    library,
    numerals,
    ranked,
    rule_words,
)
from receiptgate.checks.finding import Finding
from receiptgate.checks.words import GENERIC, stem
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.values import Value, claim_keys, same_family

#: A figure is backed by a passage that holds it and shares this many of the
#: sentence's words besides the figure's own (the rule it comes from).
FIGURE_SHARED = 1

#: Words of a span or its measure, not of what it is about ("within", "after").
_SPAN_WORDS = frozenset(
    "within after before about around typically usually approximately up to in of the "
    "business day days hour hours week weeks".split()
)

#: A differing figure contradicts a passage the sentence restates this closely.
CONTRADICT_SHARED = 2

CONTRADICT_COVERAGE = 0.5

#: What makes a figure a rate: "30 dollars per passenger", "$50 each", "$5/night".
RATE_AFTER = re.compile(
    r"(?:\s*(?:dollars?|usd|euros?))?\s*(?:per\b|each\b|a\s+(?:passenger|person|bag|night|"
    r"item|day)\b|/\s*\w|times\s+the\s+number\b)",
    re.IGNORECASE,
)


#: Words of a span promised or allowed, as rules give them ("will appear within 3 to 5
#: business days"), not one measured between two moments ("delivery took 62 minutes").
PROMISE = re.compile(
    r"\b(?:will|would|should|may|might|can|could|within|up\s+to|usually|typically|must)\b",
    re.IGNORECASE,
)

#: Words of what is left or used of an amount, not the amount itself.
_PART_OF = re.compile(
    r"\b(?:left|remain(?:s|ing)?|taken|used|so\s+far|spent|balance)\b", re.IGNORECASE
)

#: A passage's figure that is a limit, not a value: "at most three gift cards", "up to 24
#: hours", "no more than 5 bags".
_LIMIT_BEFORE = re.compile(
    r"\b(?:at\s+(?:most|least)|up\s+to|no\s+more\s+than|not\s+more\s+than|a\s+maximum\s+of|"
    r"maximum(?:\s+of)?|max\.?|minimum(?:\s+of)?|within|"
    # a threshold: "if its 5xx error rate has been above 5%"
    r"above|below|(?:more|less|greater|fewer|higher|lower)\s+than|exceeds?|exceeding)"
    r"\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def document_figure(
    index: ReceiptIndex,
    h: HardFact,
    sentence: str,
    fresh: Callable[[Receipt], bool],
    topic: frozenset[str] = frozenset(),
) -> Finding | None:
    """A claimed figure against the document passages its sentence is about.

    Supported by a passage that holds it and shares a word with the sentence besides
    the figure's own. Contradicted by the passage the sentence closely restates when it
    holds another value of the figure's kind, or when every passage the sentence shares
    a word with states one other value in the same measure ("10 business days" where
    the rules say "5 to 7 business days"). ``None`` when no document speaks to it.
    """
    lib, docs = library(index)
    if not lib.items:
        return None
    own = doc_words(h.text)
    # "**Timing:** 5 to 7 business days" under "Cancellation summary": the heading's words
    words = (rule_words(index, sentence, lead=True) | canon(topic - GENERIC)) - own
    keys = set(claim_keys(h))
    measure = _measure(h.text)
    negated = NEGATION.search(sentence.lower()) is not None
    close: tuple[DocumentMatch, Value] | None = None
    same_measure: dict[str, tuple[DocumentMatch, Value]] = {}
    at = sentence.find(h.text)
    about = _clause_words(sentence, at, at + len(h.text)) if at >= 0 else words
    rate = at >= 0 and bool(RATE_AFTER.match(sentence, at + len(h.text)))
    limit = at >= 0 and bool(_LIMIT_BEFORE.search(sentence, max(0, at - 16), at))
    for coverage, i, shared in ranked(lib, words)[:50]:
        if len(shared) < FIGURE_SHARED:
            continue
        k, passage = lib.items[i]
        receipt = docs[k]
        if not fresh(receipt):
            continue
        match = DocumentMatch(receipt, passage, shared, coverage)
        for fact, value in passage.values:
            if keys & set(value.keys) and _counts_alike(h, passage.text, fact):
                return _backs(match, fact, h)
        # a differing figure speaks to this one only if its clause is about the same
        # thing: "30 dollars per passenger" says nothing of "a refund of $2580"
        same = [
            (f, v)
            for f, v in passage.values
            if same_family(h, v)
            # "2 gift cards" says nothing of "three types of payment methods", nor of a
            # limit ("at most three gift cards")
            and (h.kind != "count" or not h.unit or not f.unit or stem(h.unit) == stem(f.unit))
            # (the figures were read with their numbers as digits: ``numerals``), unless
            # the sentence gives a limit too ("up to 4 gift cards")
            and (
                limit
                or not _LIMIT_BEFORE.search(numerals(passage.text), max(0, f.start - 16), f.start)
            )
            and about & _clause_words(passage.text, f.start, f.end)
            # and the sentence names what the passage is about, not only the figure's
            # measure: "ships within 1–2 business days" says nothing of "refunded
            # within 5 to 7 business days"
            and (words - _SPAN_WORDS) & passage.words
            # a rate ("30 dollars per passenger") says nothing of a total ("$414 for 2
            # passengers"), only of another rate ("$35 per passenger")
            and bool(RATE_AFTER.match(passage.text, f.end)) == rate
            # what is left or used of an allowance ("24 days of annual leave remaining")
            # is no restatement of the allowance ("30 days of annual leave a year")
            and bool(_PART_OF.search(sentence)) == bool(_PART_OF.search(passage.text))
        ]
        if not same:
            continue
        measured = [(f, v) for f, v in same if measure and _measure(f.text) == measure]
        for f, v in measured:
            timed = h.kind == "duration" and not PROMISE.search(sentence)
            if (h.kind == "money" or timed) and (
                len((about - own) & _clause_words(passage.text, f.start, f.end)) < 2
            ):
                # an amount is in every rule's measure ("$"): one word in common ("paid
                # $50 toward the sick-visit statement", "a $40 fee before the visit")
                # does not make the rule's amount this one's; nor is a time something
                # took ("delivery took 62 minutes") the span of a rule about orders ("more
                # than 15 minutes after its quoted ETA")
                continue
            same_measure.setdefault(v.keys[0] if v.keys else v.shown, (match, v))
        if (
            close is None
            and coverage >= CONTRADICT_COVERAGE
            and len(shared) >= CONTRADICT_SHARED
            and negated == passage.negated
        ):
            close = (match, (measured or same)[0][1])
    rival = close or (next(iter(same_measure.values())) if len(same_measure) == 1 else None)
    if rival is None:
        return _stated_span(lib, docs, h, keys, fresh) if h.kind == "duration" else None
    match, value = rival
    detail = f"contradicts {match.line(value.shown)} ({value.shown}), claimed {h.text}"
    return Finding(
        "contradicted", match.receipt.id, match.receipt.kind, detail, match.passage.heading, value=h
    )


#: A day the sentence gives as today's: "today is May 15, 2024", "Today (May 15)".
TODAY_BEFORE = re.compile(
    r"\b(?:today|the\s+current\s+date|the\s+date\s+today)(?:\s+is|,|\s*\(|\s*:)?\s*[*_]*$",
    re.IGNORECASE,
)


def stated_today(
    index: ReceiptIndex, h: HardFact, fresh: Callable[[Receipt], bool]
) -> Finding | None:
    """The day the operator's documents give as the current one ("The current time is
    2024-05-15 15:00:00 EST"), for a sentence that says what day today is: that day is no
    date of the records around it."""
    lib, docs = library(index)
    keys = set(claim_keys(h))
    other: Finding | None = None
    for k, passage in lib.items:
        if not _CURRENT.search(passage.text) or not fresh(docs[k]):
            continue
        for fact, value in passage.values:
            if fact.kind not in ("date", "datetime"):
                continue
            match = DocumentMatch(docs[k], passage, frozenset(), 0.0)
            if keys & set(value.keys):
                return _backs(match, fact, h)
            detail = f"contradicts {match.line(fact.text)} ({fact.text}), claimed {h.text}"
            other = other or Finding(
                "contradicted", docs[k].id, docs[k].kind, detail, passage.heading, value=h
            )
    return other


_CURRENT = re.compile(r"\b(?:current|today|now)\b", re.IGNORECASE)


def _stated_span(
    lib: Library,
    docs: list[Receipt],
    h: HardFact,
    keys: set[str],
    fresh: Callable[[Receipt], bool],
) -> Finding | None:
    """A span of time the rules state ("within the last 24 hrs"), reasoned with in other
    words ("created on May 1, more than 24 hours ago"): the one passage that holds it
    backs it, when no passage states another span in the same measure (which would be
    a choice between rules the sentence's words must make)."""
    found: list[tuple[int, Passage, HardFact]] = []
    for k, passage in lib.items:
        for fact, value in passage.values:
            if keys & set(value.keys) and fresh(docs[k]):
                found.append((k, passage, fact))
    if len({id(p) for _, p, _ in found}) != 1:
        return None
    k, passage, fact = found[0]
    return _backs(DocumentMatch(docs[k], passage, frozenset(), 0.0), fact, h)


def _backs(match: DocumentMatch, fact: HardFact, h: HardFact) -> Finding:
    """``h`` backed by the passage figure ``fact``, with the passage as its evidence."""
    r = match.receipt
    detail = f"{match.line(fact.text)}, matches {h.text}"
    return Finding("supported", r.id, r.kind, detail, match.passage.heading, value=h)


def _counts_alike(h: HardFact, text: str, fact: HardFact) -> bool:
    """A count of things ("5 items") is backed by a passage's figure only where the
    passage counts the same things: not by the "5" of "5 to 7 business days"."""
    if h.kind != "count" or not h.unit or fact.unit == h.unit:
        return True
    return stem(h.unit) in _clause_words(text, fact.start, fact.end)


#: Where a clause ends: the words on each side of one speak of different things.
_CLAUSE_EDGE = re.compile(
    r"[,;]|\s[-–—]\s|\b(?:and|but|which|while|so|because|since|if|as|then|or)\b", re.I
)


def _clause_words(text: str, start: int, end: int) -> frozenset[str]:
    """The content words of the clause of ``text`` around ``text[start:end]``."""
    a = 0
    for edge in _CLAUSE_EDGE.finditer(text, 0, start):
        a = edge.end()
    after = _CLAUSE_EDGE.search(text, end)
    b = after.start() if after is not None else len(text)
    return doc_words(text[a:b]) - HEDGE_WORDS


def _measure(text: str) -> str:
    """What a figure counts, without its number: "business days", "$", "%"."""
    return " ".join(re.sub(r"[\d.,]+", " ", text.lower()).split())
