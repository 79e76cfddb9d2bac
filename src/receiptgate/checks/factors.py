"""Factors between two measurements: "about 3.4x faster" after a benchmark printed
"Django escape: 0.218 seconds" and "Python escape: 0.064 seconds"; "2.5 times larger".
A factor is followed by what it compares ("faster", "more", "the price"): "restarted 4
times" is a count.

A factor ("3.4x", "2.5 times") is backed by two values of one kind whose ratio rounds to
it: to its decimal places, or within 2% after "about" or "roughly". A factor of speed
("faster", "slower") is of two timings, of one result or of two (an EXPLAIN before an
index and one after); another is of two values of one result (two sizes, two amounts,
two counts). Only results with a few values of a kind are read (a benchmark's lines, not
a long listing), so the search stays small and a coincidence unlikely. It only backs: a
factor no pair gives stays unsupported.
"""

from __future__ import annotations

import re
from itertools import combinations

from receiptgate.checks.approximate import about_before
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf

#: Units of a factor: "3.4x", "2.5 times".
_FACTOR_UNITS = frozenset({"x", "time", "times"})
#: What follows a factor: a comparison ("3.4x faster", "2.5 times larger", "3x the
#: price", "a 2x speedup").
_COMPARED = re.compile(
    r"[\s-]*(?:faster|slower|quicker|more|less|fewer|as\b|the\b|speed-?up|improvement|"
    r"increase|reduction|[a-z]+er\b)",
    re.IGNORECASE,
)
#: Values of one kind a result may hold for its pairs to be read.
_MOST_VALUES = 12
_KINDS = ("duration", "money", "count", "number")
#: How far "about" lets a factor be from the ratio it rounds.
_ABOUT_SHARE = 0.02
#: A comparison of speed: its factor is of two timings.
_SPEED = re.compile(r"(?:faster|slower|quicker|speed-?up)", re.IGNORECASE)
#: Timings read for a factor of speed (the newest).
_MOST_SPANS = 40


def _measure(leaf: Leaf) -> float | None:
    """A leaf's magnitude, in seconds for a span."""
    v = leaf.value
    if v.kind == "duration":
        for key in v.keys:
            if key.startswith("dur:s:"):
                return float(key[6:])
        return None
    return v.number if v.kind in _KINDS else None


def factor(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """Support of a factor by the ratio of two values (see the module doc)."""
    if (h.unit or "").lower() not in _FACTOR_UNITS or h.number is None or h.number <= 1:
        return None
    compared = _COMPARED.match(sentence, at + len(h.text))
    if compared is None:
        return None  # "restarted 4 times", "2 x $20.10": a count, no factor
    written = re.match(r"\d+(?:\.(\d+))?", h.text)
    places = len(written.group(1) or "") if written else 0
    tolerance = 0.5 * 10**-places + 1e-9
    if about_before(sentence, at):
        tolerance = max(tolerance, h.number * _ABOUT_SHARE)
    if _SPEED.match(compared.group().strip()):
        # "156 times faster": two timings, of one run or of two (before and after)
        spans = [
            pair
            for entry in index.entries
            if entry.receipt.kind == "tool"
            for pair in _by_kind(entry).get("duration", ())
        ][-_MOST_SPANS:]
        groups = [spans]
    else:
        groups = [
            values
            for entry in reversed(index.entries)
            if entry.receipt.kind == "tool"
            for values in _by_kind(entry).values()
        ]
    for values in groups:
        for (a, x), (b, y) in combinations(values, 2):
            small, large = sorted((x, y))
            if small > 0 and abs(large / small - h.number) <= tolerance:
                first, second = (a, b) if x >= y else (b, a)
                r = index.receipt_of(first)
                detail = (
                    f"{h.text} = {first.value.shown} / {second.value.shown} "
                    f"({r.id} {first.path}, {index.receipt_of(second).id} {second.path})"
                )
                return Finding("supported", r.id, r.kind, detail, first.path, value=h)
    return None


def _by_kind(entry: ReceiptEntry) -> dict[str, list[tuple[Leaf, float]]]:
    """One result's values by kind, where it has a few of that kind (once per content)."""
    return entry.worked_out("factor_values", _values_by_kind)


def _values_by_kind(entry: ReceiptEntry) -> dict[str, list[tuple[Leaf, float]]]:
    found: dict[str, list[tuple[Leaf, float]]] = {}
    for rec in entry.records:
        for leaf in rec.leaves:
            x = _measure(leaf)
            if x is not None and x > 0 and not leaf.path.startswith("args"):
                found.setdefault(leaf.value.kind, []).append((leaf, x))
    return {k: v for k, v in found.items() if 2 <= len(v) <= _MOST_VALUES}
