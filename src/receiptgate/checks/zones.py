"""A clock time said in another time zone the records name: "For Lena in Berlin it starts
at 4:15 pm" of an event at ``2025-04-16T10:15:00-04:00`` when Lena's calendar is in
``Europe/Berlin`` (the same moment, 16:15 there).

A time no record holds as written may be such a moment too ("The agenda email went out
at 11:14 am ET" of a ``sent_at`` of ``15:14:02Z``), when the moment's field is about the
sentence.

Only the zones the tool results themselves name (IANA names such as ``Europe/Berlin``,
``America/New_York``) are tried, and only for a moment recorded with its offset: a time
that is the recorded moment in none of them stays what it was (a contradiction).
"""

from __future__ import annotations

import re
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from receiptgate.checks.about import is_about
from receiptgate.checks.finding import Finding
from receiptgate.checks.rivals import evidence_line
from receiptgate.checks.spans import moment_of, moments
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import claim_keys

_IANA = re.compile(r"^(?:Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)/[A-Za-z_]+$")
_OFFSET_STAMP = re.compile(r"\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$")


def in_named_zone(
    index: ReceiptIndex, h: HardFact, rival: Leaf, moment: datetime | None = None
) -> Finding | None:
    """``h`` (a clock time) as the moment ``rival`` records (``moment``, when it is read
    already), in a zone the records name."""
    if h.kind != "time" or rival.value.kind != "datetime":
        return None
    if not _OFFSET_STAMP.search(rival.value.shown.strip()):
        return None  # (a stamp with no offset is no one moment to say elsewhere)
    moment = moment or moment_of(rival.value.shown)
    if moment is None:
        return None
    wanted = {k[2:] for k in claim_keys(h) if k.startswith("t:")}
    for zone in _zones(index):
        try:
            local = moment.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            continue
        if f"{local.hour:02d}:{local.minute:02d}" in wanted:
            r = index.receipt_of(rival)
            detail = f"{evidence_line(index, rival)} is {h.text} in {zone}"
            return Finding("supported", r.id, r.kind, detail, rival.path, value=h)
    return None


def _zones(index: ReceiptIndex) -> list[str]:
    """The IANA time zones the tool results name, once per index size."""
    cached = index.cache.get("zones")
    if isinstance(cached, tuple) and cached[0] == len(index.entries):
        return cached[1]  # type: ignore[no-any-return]
    found = sorted(
        {
            leaf.value.shown.strip()
            for leaves in index.by_field.values()
            for leaf in leaves
            if leaf.value.kind in ("word", "id") and _IANA.match(leaf.value.shown.strip())
        }
    )
    index.cache["zones"] = (len(index.entries), found)
    return found


def zoned_moment(
    index: ReceiptIndex,
    h: HardFact,
    clause: frozenset[str],
    sentence: frozenset[str],
) -> Finding | None:
    """A recorded moment that is ``h`` (a clock time) in a zone the records name, its field
    about the sentence."""
    if h.kind != "time" or not _zones(index):
        return None
    for leaf, moment in reversed(moments(index)):
        if is_about(index, leaf, clause, sentence, ()):
            found = in_named_zone(index, h, leaf, moment)
            if found is not None:
                return found
    return None
