"""Gaps between two spans or two moments of a list: "The direct train is 34 minutes
faster than the connection via Stuttgart" (a journey of PT5H38M against one of PT6H12M),
"The 06:12 connection arrives 18 minutes before the direct TGV" (two arrivals).

A span followed by a comparison is backed by two values of one field of one list's rows
(the connections' durations, their arrivals; not a leg's beside a connection's) that
differ by it, to the minute: two spans for "faster", "longer", "shorter"; two moments for
"before", "after", "earlier", "later", one of them of a row the sentence names by a
clock time of it. Only lists of a few rows are read, so that a changed gap seldom meets
another pair. It only backs.
"""

from __future__ import annotations

import re
from datetime import datetime
from itertools import combinations

from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import fact_keys

#: What follows a gap: the comparison it states.
_COMPARED = re.compile(
    r"\s*(?:faster|slower|quicker|longer|shorter|earlier|later|sooner|before|after|more|less)\b",
    re.IGNORECASE,
)
_ROW_INDEX = re.compile(r"\[\d+\]")
#: Comparisons of two moments (the others compare two spans).
_MOMENT_WORDS = re.compile(r"(?:earlier|later|sooner|before|after)$", re.IGNORECASE)
_CLOCK = re.compile(r"\b(\d{1,2}:\d{2})\b")
#: Rows of a list read for a gap at most.
_MOST_ROWS = 8


def span_gap(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """Support of a gap between two values of one field of a list (see the module doc)."""
    compared = _COMPARED.match(sentence, at + len(h.text))
    if h.kind != "duration" or compared is None:
        return None
    seconds = next((float(k[6:]) for k in fact_keys(h) if k.startswith("dur:s:")), None)
    if seconds is None or seconds <= 0:
        return None
    minutes = seconds / 60
    # "faster", "longer": two spans; "before", "later": two moments, one of a row the
    # sentence names by a time of it ("The 06:12 connection arrives 18 minutes before")
    moments = _MOMENT_WORDS.match(compared.group().strip()) is not None
    clocks = frozenset(_CLOCK.findall(sentence))
    for entry in reversed(index.entries):
        if entry.receipt.kind != "tool":
            continue
        for values in _columns(entry).values():
            if (values[0][0].value.kind == "datetime") != moments:
                continue
            for (a, x), (b, y) in combinations(values, 2):
                if moments and not (_timed(a, clocks) or _timed(b, clocks)):
                    continue
                if abs(abs(x - y) - minutes) < 0.5:
                    r = entry.receipt
                    first, second = (a, b) if x >= y else (b, a)
                    detail = (
                        f"{h.text} = {first.value.shown} − {second.value.shown} "
                        f"({r.id} {first.path}, {second.path})"
                    )
                    return Finding("supported", r.id, r.kind, detail, first.path, value=h)
    return None


def _timed(leaf: Leaf, clocks: frozenset[str]) -> bool:
    """Whether the leaf's row holds a moment at one of the clock times the sentence
    writes ("06:12" of a row departing 2025-10-17T06:12:00+02:00)."""
    for other in leaf.record.leaves:
        shown = other.value.shown
        if other.value.kind == "datetime" and "T" in shown:
            clock = shown.split("T", 1)[1][:5]
            if clock in clocks or clock.lstrip("0") in clocks:
                return True
    return False


def _minutes(leaf: Leaf) -> float | None:
    """A span in minutes, or a moment in minutes since 1970."""
    v = leaf.value
    if v.kind == "duration":
        seconds = next((float(k[6:]) for k in v.keys if k.startswith("dur:s:")), None)
        return seconds / 60 if seconds is not None else None
    if v.kind == "datetime" and "T" in v.shown:
        try:
            moment = datetime.fromisoformat(v.shown.split(" ")[0].replace("Z", "+00:00"))
        except ValueError:
            return None
        return moment.timestamp() / 60 if moment.tzinfo is not None else None
    return None


def _columns(entry: ReceiptEntry) -> dict[str, list[tuple[Leaf, float]]]:
    """One result's spans and moments by field of a list's rows (``connections[].duration``),
    for lists of a few rows (once per content)."""
    return entry.worked_out("span_columns", _span_columns)


def _span_columns(entry: ReceiptEntry) -> dict[str, list[tuple[Leaf, float]]]:
    found: dict[str, list[tuple[Leaf, float]]] = {}
    for rec in entry.records:
        for leaf in rec.leaves:
            if "[" not in leaf.path or leaf.path.startswith("args"):
                continue
            x = _minutes(leaf)
            if x is not None:
                found.setdefault(_ROW_INDEX.sub("[]", leaf.path), []).append((leaf, x))
    return {k: v for k, v in found.items() if 2 <= len(v) <= _MOST_ROWS}
