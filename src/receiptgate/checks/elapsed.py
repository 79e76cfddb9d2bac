"""How long ago a recorded moment was: "created on 2024-05-14, which is more than 24 hours
ago", "booked May 14 — within the last 24 hours" (:func:`elapsed`).

The moment is the record's own datetime of the day the sentence gives (``created_at``:
``2024-05-14T16:03:16``), and "now" is the current time the operator's documents state
("The current time is 2024-05-15 15:00:00 EST"), read in the same clock as the records'
times when neither names a zone; else the validation's reference time. A comparison
that holds supports the figure, one that does not contradicts it; within an hour of the
bound (where a clock's zone could decide) nothing is said.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from receiptgate.checks.documents import library
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import claim_keys

_NUMBERS = {"one": 1, "two": 2, "three": 3, "seven": 7, "fourteen": 14, "thirty": 30, "a": 1}
_N = r"(\d{1,3}|one|two|three|seven|fourteen|thirty|a)"
_UNIT = r"(hours?|hrs?|days?|weeks?)"
#: "more than 24 hours ago", "less than a day ago", "over 30 days ago"; "within the last
#: 24 hours", "in the past 7 days".
_AGO = re.compile(
    rf"\b(more|over|longer|less|under|fewer)\s+(?:than\s+)?{_N}\s*{_UNIT}\s+(?:ago|before|earlier)\b"
    rf"|\b(?:within|in)\s+the\s+(?:last|past)\s+{_N}\s*{_UNIT}\b",
    re.IGNORECASE,
)
#: A span measured, not compared: "(approximately 29 hours ago)", "10 days past the
#: booking date", "about 3 days since".
_ABOUT = re.compile(
    rf"\b(?:(?:approximately|about|around|roughly|nearly|almost|some|just)\s+)?{_N}\s*{_UNIT}"
    rf"\s+(?:ago|past|since|after|earlier|before\s+now)\b",
    re.IGNORECASE,
)
_HOURS = {"h": 1.0, "d": 24.0, "w": 168.0}
#: How near the bound a comparison is left unsaid (a zone's offset, a rounding).
MARGIN = timedelta(hours=1)


def elapsed(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """Whether the recorded moment of ``h`` (a date at ``at`` in ``sentence``) is as long ago
    as the words right after it say; ``None`` when they say nothing of it, no record holds
    a time of that day, or the answer is within :data:`MARGIN` of the bound."""
    if h.kind not in ("date", "datetime"):
        return None
    m = _AGO.search(sentence, at, at + 80)
    measured = None if m is not None else _ABOUT.search(sentence, at, at + 80)
    if m is None and measured is None:
        return None
    if measured is not None:
        more, n, unit = None, measured.group(1), measured.group(2)
    elif m is not None and m.group(1) is not None:
        more = m.group(1).lower() in ("more", "over", "longer")
        n, unit = m.group(2), m.group(3)
    else:
        assert m is not None
        more, n, unit = False, m.group(4), m.group(5)
    span = timedelta(hours=_NUMBERS.get(n.lower(), 0) if not n.isdigit() else int(n))
    span *= _HOURS[unit[0].lower()]
    leaf, when = _moment(index, h)
    if leaf is None or when is None or not span:
        return None
    now = _stated_now(index, naive=when.tzinfo is None)
    if now is None:
        now = (
            index.now if when.tzinfo is not None else index.now.astimezone(UTC).replace(tzinfo=None)
        )
    ago = now - when
    r = index.receipt_of(leaf)
    hours = ago.total_seconds() / 3600
    line = f"{r.id} {leaf.path} = {leaf.value.shown}, {hours:.1f} hours before {now:%Y-%m-%d %H:%M}"
    if more is None:
        # a span measured: right to the unit it counts in (an hour, a day), give or take
        # the margin a zone or a rounding makes
        slack = max(MARGIN, timedelta(hours=_HOURS[unit[0].lower()]))
        if abs(ago - span) <= slack:
            return Finding("supported", r.id, r.kind, line, leaf.path, value=h)
        return Finding("contradicted", r.id, r.kind, f"contradicts {line}", leaf.path, value=h)
    if abs(ago - span) < MARGIN:
        return None
    holds = ago > span if more else ago < span
    if holds:
        return Finding("supported", r.id, r.kind, line, leaf.path, value=h)
    return Finding("contradicted", r.id, r.kind, f"contradicts {line}", leaf.path, value=h)


def elapsed_bound(
    index: ReceiptIndex, h: HardFact, sentence: str, at: int, days: list[HardFact]
) -> Finding | None:
    """The span a comparison states ("24 hours" of "created on May 14, which is more than 24
    hours ago"), backed when the comparison with the day before it (``days``: the
    sentence's dates, offsets into ``sentence``) holds."""
    if h.kind != "duration":
        return None
    for day in reversed([d for d in days if d.end <= at]):
        m = _AGO.search(sentence, day.end, day.end + 80) or _ABOUT.search(
            sentence, day.end, day.end + 80
        )
        if m is None or not m.start() <= at < m.end():
            continue
        found = elapsed(index, day, sentence, day.end)
        if found is not None and found.status == "supported":
            return Finding(
                "supported", found.receipt_id, found.receipt_kind, found.detail, found.path, value=h
            )
        return None
    return None


def _moment(index: ReceiptIndex, h: HardFact) -> tuple[Leaf | None, datetime | None]:
    """The newest record datetime of the day ``h`` gives (a tool's, not a user's)."""
    for leaf in reversed(index.leaves(claim_keys(h))):
        if leaf.value.kind != "datetime" or index.receipt_of(leaf).kind != "tool":
            continue
        try:
            return leaf, datetime.fromisoformat(leaf.value.shown.strip().replace("Z", "+00:00"))
        except ValueError:
            continue
    return None, None


def _stated_now(index: ReceiptIndex, *, naive: bool) -> datetime | None:
    """The current time the operator's documents state, in the records' clock."""
    lib, _ = library(index)
    for _, passage in lib.items:
        if "current" not in passage.text.lower():
            continue
        for fact, _value in passage.values:
            if fact.kind == "datetime" and isinstance(fact.value, str):
                try:
                    stated = datetime.fromisoformat(fact.value)
                except ValueError:
                    continue
                # one clock or none: a stated "15:00 EST" and a record's naive time are
                # both the operator's local time
                return stated.replace(tzinfo=None) if naive else None
    return None
