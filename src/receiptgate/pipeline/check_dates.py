"""The fallbacks for a date or a duration no record holds as written: a day from a
date of the sentence's records ("the day after your reservation"), the next day of a
schedule's time ("arrives on May 26"), how long ago a record's moment was ("more than
24 hours ago") and the span a comparison states ("within the last 24 hours")
(``checks/schedules``, ``checks/elapsed``)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.elapsed import elapsed, elapsed_bound
from receiptgate.checks.finding import Finding
from receiptgate.checks.schedules import day_from, next_day
from receiptgate.claims.collect import ACTION_CLAUSE_EDGE, clause_around
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.text.segment import Sentence


def dated_fallbacks(
    ledger: ReceiptIndex,
    h: HardFact,
    m: Finding,
    anchor_: Anchor,
    work: str,
    sentence: Sentence,
    all_facts: list[HardFact],
    fresh: Callable[[Receipt], bool],
) -> Finding:
    """The finding ``m`` for ``h`` after the date and duration fallbacks, in order: each
    may replace it (pipeline/check ``_match_hard``)."""
    if h.kind == "date" and m.status in ("unsupported", "contradicted"):
        # "on May 24 (the day after your reservation)": a day from the record's
        m = day_from(ledger, h, anchor_, sentence.text) or m
    if h.kind == "date" and (
        m.status == "unsupported"
        or (
            m.status == "contradicted"
            and (
                _ARRIVES.search(clause_text_of(work, sentence, h))
                or _AFTER_TIME_RANGE.search(work, max(sentence.start, h.start - 40), h.start)
            )
        )
    ):
        # "arrives on May 26": a schedule's "01:00:00+1" on a May 25 flight
        m = next_day(ledger, h, anchor_, fresh) or m
    if h.kind in ("date", "datetime") and m.status != "contradicted":
        # "created on 2024-05-14, which is more than 24 hours ago": the record's
        # time of that day against the current time
        ago = elapsed(ledger, h, sentence.text, h.end - sentence.start)
        if ago is not None and (ago.status == "contradicted" or m.status != "supported"):
            m = ago
    if m.status == "unsupported" and h.kind == "duration":
        # "24 hours" of "created on May 14, which is within the last 24 hours"
        days = [
            dataclasses.replace(x, start=x.start - sentence.start, end=x.end - sentence.start)
            for x in all_facts
            if x.kind in ("date", "datetime")
        ]
        at = h.start - sentence.start
        m = elapsed_bound(ledger, h, sentence.text, at, days) or m
    return m


#: A clause about an arrival: its date may be the day after the flight's.
_ARRIVES = re.compile(r"\b(?:arriv\w*|lands?|landing|gets?\s+in)\b", re.IGNORECASE)
#: A date in brackets right after a range of times is the day the range ends on:
#: "11:00 PM - 12:00 AM EST (May 25)".
_AFTER_TIME_RANGE = re.compile(
    r"\d(?::\d\d)?\s*(?:[AP]\.?M\.?)?\s*[-–—]\s*\d{1,2}(?::\d\d)?\s*(?:[AP]\.?M\.?)?"
    r"(?:\s*[A-Z]{2,4})?\s*[(\[]\s*(?:\+\d\s*(?:day)?,?\s*)?$",
    re.IGNORECASE,
)


def clause_text_of(work: str, sentence: Sentence, h: HardFact) -> str:
    """The clause of a sentence that holds a figure."""
    a, b = clause_around(work, sentence.start, sentence.end, h.start, h.end, ACTION_CLAUSE_EDGE)
    return work[a:b]
