"""A weekday a reply writes beside a date ("Friday, October 2"): it must be the date's own
weekday, in the year of the record that backs the date (2025-10-02 is a Thursday)."""

from __future__ import annotations

import dataclasses
import re
from datetime import date

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_WEEKDAY_BEFORE = re.compile(
    r"\b(mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|nesday|rsday|urday|sday)?\.?,?\s*$",
    re.IGNORECASE,
)


def wrong_weekday(anchor_: Anchor, h: HardFact, found: Finding) -> Finding | None:
    """``found`` (a date's support) turned into a contradiction when the weekday written
    right before the date is not its own; ``None`` when none is written or it agrees."""
    at = h.start - anchor_.start
    m = _WEEKDAY_BEFORE.search(anchor_.text, max(0, at - 14), max(0, at))
    day = h.value if re.fullmatch(r"\d{4}-\d\d-\d\d", h.value or "") else None
    if m is None or day is None or day not in found.detail:
        return None  # (a date of another year than the one the reply's is read as: unsaid)
    said = next(i for i, w in enumerate(_WEEKDAYS) if w.startswith(m.group(1).lower()[:3]))
    real = date.fromisoformat(day).weekday()
    if said == real:
        return None
    detail = (
        f"{day} is a {_WEEKDAYS[real].title()}, not a {_WEEKDAYS[said].title()} ({found.detail})"
    )
    return dataclasses.replace(found, status="contradicted", detail=f"contradicts: {detail}")
