"""A count that is the sum of one record's fields of its unit: "the milestone's 12
issues" of ``"open_issues": 3, "closed_issues": 9``, "14 seats" of "seats_sold" and
"seats_free".

A count with a unit is backed when one record has two fields or more named for that
unit (and something else: "open", "closed") whose whole numbers add up to it. Only the
fields of one record are added, all of them, so the search is linear and a changed
count seldom meets a sum. It only backs.
"""

from __future__ import annotations

from receiptgate.checks.finding import Finding
from receiptgate.checks.words import stem
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import key_words


def field_sum(index: ReceiptIndex, h: HardFact) -> Finding | None:
    """Support of a count by the sum of a record's fields of its unit (see the module
    doc), or ``None``."""
    if h.kind != "count" or h.number is None or not h.unit:
        return None
    unit = stem(h.unit.lower())
    for entry in reversed(index.entries):
        if entry.receipt.kind != "tool":
            continue
        for rec in entry.records:
            parts = [leaf for leaf in rec.leaves if _counts(leaf, unit)]
            if len(parts) < 2:
                continue
            total = sum(leaf.value.number or 0 for leaf in parts)
            if abs(total - h.number) < 0.005:
                rid = entry.receipt.id
                terms = " + ".join(f"{leaf.path} = {leaf.value.shown}" for leaf in parts)
                detail = f"{h.text} = {terms} ({rid})"
                return Finding("supported", rid, entry.receipt.kind, detail, parts[0].path, value=h)
    return None


def _counts(leaf: Leaf, unit: str) -> bool:
    """A whole number in a field named for the unit and one more word ("open_issues")."""
    v = leaf.value
    if v.kind not in ("count", "number") or v.number is None or not float(v.number).is_integer():
        return False
    words = key_words(leaf.key)
    return len(words) >= 2 and unit in {stem(w) for w in words}
