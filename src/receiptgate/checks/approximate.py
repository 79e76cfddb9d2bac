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

#: The word before a figure that makes it an approximation.
_ABOUT = re.compile(
    r"(?:\b(?:around|about|approximately|approx\.?|roughly|nearly|almost|close\s+to)|~)"
    r"\s*$",
    re.IGNORECASE,
)


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
