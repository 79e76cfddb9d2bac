"""Figures given as approximations: "camera options around $537" of a $537.01 item,
"about 300 points" of 274.

A figure written after "around", "about", "approximately", "roughly", "nearly", "almost",
"close to" or "~" is backed by a value of the same kind in the results the sentence's
records are in that rounds to it at its own precision: a whole number within half a unit
(537 of 537.01), a round one within half its last non-zero place (300 of 274..349). A
figure with decimals is no approximation; a value no rounding reaches leaves it
unsupported.
"""

from __future__ import annotations

import re

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.finding import Finding
from receiptgate.checks.rivals import evidence_line
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.values import fact_keys

#: The word before a figure that makes it an approximation.
_ABOUT = re.compile(
    r"(?:\b(?:around|about|approximately|approx\.?|roughly|nearly|almost|close\s+to)|~)"
    r"\s*$",
    re.IGNORECASE,
)


def about_before(text: str, at: int) -> bool:
    """Whether an approximating word ("about", "roughly", "~") stands right before ``at``."""
    return _ABOUT.search(text, max(0, at - 20), at) is not None


def approximately(
    index: ReceiptIndex, h: HardFact, anchor_: Anchor, text: str, at: int
) -> Finding | None:
    """``h``, written at ``at`` of ``text`` after an approximating word, as a value of the
    anchored results that rounds to it (see the module doc)."""
    if h.number is None or h.kind not in ("money", "number", "count"):
        return None
    short = _SHORT.search(h.text)
    if not short and not _ABOUT.search(text, max(0, at - 20), at):
        return None
    claimed = h.number
    if claimed != int(claimed) or claimed <= 0:
        return None
    if short:
        # "48.2K", "$13.1k", "1.2M": rounded at the place of its last digit written
        decimals = len(short.group(1) or "")
        place = _SCALE[short.group(2).lower()] // 10**decimals
    else:
        place = 1
        while claimed % (place * 10) == 0:
            place *= 10
    kinds = {h.kind, "money"} if short else {h.kind}
    results = list(anchor_.results())
    if short:
        # an abbreviated figure names no field: any result may be the one it rounds
        results += [
            r for e in reversed(index.entries) if e.receipt.kind == "tool" for r in e.records
        ]
    for rec in results:
        for leaf in rec.subtree_leaves():
            v = leaf.value.number
            if v is None or leaf.value.kind not in kinds or v == claimed:
                continue
            if abs(v - claimed) <= place / 2:
                r = index.receipt_of(leaf)
                detail = f"{evidence_line(index, leaf)}: about {claimed:g}"
                return Finding("supported", r.id, r.kind, detail, leaf.path, value=h)
    return None


#: A figure written short: its digits after the point and its scale ("48.2K", "$1.5M").
_SHORT = re.compile(r"\d(?:\.(\d+))?\s?(k|K|m|M|bn|BN|B)\b")
_SCALE = {"k": 1000, "m": 1_000_000, "bn": 1_000_000_000, "b": 1_000_000_000}


#: A span as one figure and its unit ("1,843 ms", "11.8 ms", "1.8 seconds"): the digits
#: after the point say its precision.
_ONE_SPAN = re.compile(r"\d[\d,]*(?:\.(\d+))?\s*[A-Za-zµ]+")


def rounded_span(index: ReceiptIndex, h: HardFact) -> Finding | None:
    """A span written to fewer places than a tool printed it: "took 1,843 ms" of
    "Execution Time: 1843.217 ms", "11.8 ms" of "11.842 ms", "about 1.8 seconds" of the
    same: a printed span that rounds to the claim at the place of its last digit."""
    if h.kind != "duration" or not h.number:
        return None
    said = next((float(k[6:]) for k in fact_keys(h) if k.startswith("dur:s:")), None)
    m = _ONE_SPAN.fullmatch(h.text.strip())
    if said is None or m is None:
        return None  # (one figure and its unit: "2 days and 12 hours" is two)
    per_unit = said / h.number  # seconds per unit written (0.001 for ms)
    if not m.group(1) and per_unit > 1:
        return None  # "12 hours" of 11:30: whole minutes or hours are no rounded timing
    place = per_unit * 10 ** -len(m.group(1) or "")
    for key, leaves in index.by_key.items():
        if not key.startswith("dur:s:"):
            continue
        try:
            printed = float(key[6:])
        except ValueError:
            continue
        if printed == said or abs(printed - said) >= place / 2:
            continue
        for leaf in leaves:
            r = index.receipt_of(leaf)
            if r.kind == "tool":
                detail = f"{evidence_line(index, leaf)}: {h.text} as rounded"
                return Finding("supported", r.id, r.kind, detail, leaf.path, value=h)
    return None
