"""Schedules: dates and spans a flight schedule gives without stating them.

A schedule time of ``01:00:00+1`` is 1:00 the next day, so "arrives on May 26" is backed
for a flight of May 25 (:func:`next_day`); "a total travel time of 5 hours" or "a layover
of 2 hours" is a span between a departure and an arrival of one option's segments
(:func:`time_span`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.finding import Finding
from receiptgate.checks.rivals import evidence_line
from receiptgate.checks.rows import names_row
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record

_NEXT_DAY = re.compile(r"\+(\d)$")


def next_day(
    index: ReceiptIndex, h: HardFact, anchor_: Anchor, fresh: Callable[[Receipt], bool]
) -> Finding | None:
    """A date a schedule gives as a time on a later day: "01:00:00+1" in a row of a flight
    on May 25 (its own ``date``, else the date the call asked for) arrives on May 26. Only
    the rows the sentence is about, or the newest result's, are read."""
    if not h.value or len(h.value) < 10:
        return None
    try:
        claimed = date.fromisoformat(h.value[:10])
    except ValueError:
        return None
    rows = [r for rec in anchor_.records for r in rec.subtree()]
    # the same flight in another result (the reservation's row, the search's times)
    rows += [
        other
        for rec in list(rows)
        for ident in rec.ids
        for other in index.records_by_id.get(ident, ())
        if other not in rows
    ]
    for rec in rows:
        root = rec.root
        dates = [x.value.shown for x in rec.leaves if x.key == "date"] or [
            x.value.shown for x in root.leaves if x.path == "args.date"
        ]
        for leaf in rec.leaves:
            m = _NEXT_DAY.search(leaf.value.shown) if leaf.value.kind == "time" else None
            if m is None or not dates or not fresh(index.receipt_of(leaf)):
                continue
            try:
                day = date.fromisoformat(dates[0][:10]) + timedelta(days=int(m.group(1)))
            except ValueError:
                continue
            if day == claimed:
                r = index.receipt_of(leaf)
                detail = f"{evidence_line(index, leaf)}: the day after {dates[0][:10]}"
                return Finding("supported", r.id, r.kind, detail, leaf.path, value=h)
    return None


#: Words of a sentence that gives a span between two times of a schedule.
_SPAN_WORDS = re.compile(
    r"\b(?:travel\s+time|duration|layover|connection|flight\s+time|journey|takes?|lasts?|"
    r"total|altogether|end[- ]to[- ]end|door[- ]to[- ]door)\b",
    re.IGNORECASE,
)
_ISO_SPAN = re.compile(r"^PT(?:(\d+(?:\.\d+)?)H)?(?:(\d+)M)?$")


def time_span(
    index: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    sentence: str,
    fresh: Callable[[Receipt], bool],
    told: str = "",
) -> Finding | None:
    """A duration between two times of one schedule: "a total travel time of 5 hours"
    from the first segment's departure to the last one's arrival, "a layover of 2
    hours" between them. Only in a sentence that names such a span or the flights it
    spans, and only over the rows the sentence is about and the rows beside them (the
    segments of one option). ``told`` is the reply up to the end of the sentence: a span
    over two rows needs both named in it ("This option has a total travel time of 5
    hours" after the lines of HAT290 and HAT175 is their option's span, not that of
    another option through HAT175)."""
    m = _ISO_SPAN.match(h.value or "")
    named = anchor_.how in ("named", "section")  # "| A | HAT290 + HAT175 | ... | 6 hours |"
    if m is None or not (_SPAN_WORDS.search(sentence) or named):
        return None
    # "5.5 hours" (PT5.5H) and "5 hours 30 minutes" (PT5H30M) are 330 minutes
    minutes = round(float(m.group(1) or 0) * 60) + int(m.group(2) or 0)
    if minutes < 0:
        return None
    rows: dict[int, Record] = {}
    for rec in anchor_.records:
        for r in (rec, *(rec.parent.children if rec.parent is not None else ())):
            rows.setdefault(id(r), r)
    times = [
        (leaf, t, _option(leaf))
        for r in rows.values()
        for leaf in r.leaves
        if leaf.value.kind in ("time", "datetime")
        and (t := _minutes(leaf.value.shown)) is not None
        and fresh(index.receipt_of(leaf))
    ]
    for a, ta, group in times:
        for b, tb, other in times:
            if a is b or group != other:
                continue  # two times of one option (its segments), never of two options
            if a.record is not b.record and not group[1]:
                continue  # rows of a flat list are flights of their own
            if a.record is not b.record and told and not (_told(a, told) and _told(b, told)):
                continue  # an option the reply has not named
            # a departure to an arrival (travel time), or an arrival to the next departure
            # (a layover); within one row, its own departure to its arrival
            travel = "depart" in a.key and "arriv" in b.key
            layover = "arriv" in a.key and "depart" in b.key and a.record is not b.record
            if ((travel and minutes > 0) or layover) and tb - ta == minutes:
                # a connection of 0 minutes: an arrival at the next departure's time
                r = index.receipt_of(b)
                detail = f"{h.text} = {evidence_line(index, b)} − {evidence_line(index, a)}"
                return Finding("supported", r.id, r.kind, detail, b.path, value=h)
    return None


def _told(leaf: Leaf, told: str) -> bool:
    """Whether the reply so far names the leaf's row by one of its ids (a row with none
    is not asked about)."""
    return not leaf.record.ids or names_row(leaf.record, told)


def _option(leaf: Leaf) -> tuple[int, str]:
    """The group a schedule row belongs to: its parent and its path without the last index
    (the segments ``[2][0]`` and ``[2][1]`` of one-stop option ``[2]``)."""
    return id(leaf.record.parent), re.sub(r"\[\d+\]$", "", leaf.record.path)


def _minutes(shown: str) -> int | None:
    """Minutes after midnight of a schedule time ("06:00:00", "01:00:00+1" the next day),
    or since 1970 of a moment ("2025-10-17T06:12:00+02:00", to the minute)."""
    m = re.match(r"^(\d{1,2}):(\d{2})(?::\d{2})?(?:\+(\d))?$", shown.strip())
    if m is None:
        try:
            moment = datetime.fromisoformat(shown.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        return int(moment.timestamp()) // 60
    return int(m.group(1)) * 60 + int(m.group(2)) + int(m.group(3) or 0) * 24 * 60


#: A date said to be a day from another: "(the day after your original reservation)".
_DAY_FROM = re.compile(
    r"\b(?:the\s+)?day\s+(?P<after>after|before)\b|\bthe\s+(?P<next>next|following|previous)"
    r"\s+day\b|\ba\s+day\s+(?P<later>later|earlier)\b",
    re.IGNORECASE,
)


def day_from(index: ReceiptIndex, h: HardFact, anchor_: Anchor, sentence: str) -> Finding | None:
    """ "The cheapest flight on 2024-05-24 (the day after your original reservation)":
    a date one day from a date of the results the sentence's records are in, as the
    sentence says (after or before)."""
    m = _DAY_FROM.search(sentence)
    if m is None or not h.value or len(h.value) < 10:
        return None
    try:
        claimed = date.fromisoformat(h.value[:10])
    except ValueError:
        return None
    word = (m.group("after") or m.group("next") or m.group("later")).lower()
    step = -1 if word in ("before", "previous", "earlier") else 1
    for rec in anchor_.results():  # "your original reservation" of a passenger's line
        for leaf in rec.subtree_leaves():
            if leaf.value.kind != "date":
                continue
            try:
                day = date.fromisoformat(leaf.value.shown[:10])
            except ValueError:
                continue
            if day + timedelta(days=step) == claimed:
                r = index.receipt_of(leaf)
                detail = f"{evidence_line(index, leaf)}: the day {word} it"
                return Finding("supported", r.id, r.kind, detail, leaf.path, value=h)
    return None
