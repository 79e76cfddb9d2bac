"""The highest or lowest value of a column: "the error rate peaked at 16.9%" of a time
series whose samples top out at "16.9", "CPU maxed out at 97.3%", "the lowest reading was
0.4%".

A figure said with a word of a maximum ("peak", "peaked", "highest", "max", "top") or
a minimum ("lowest", "minimum", "min", "bottomed") is backed by a column of a result (one
field of a list's rows, or a time series' values) whose largest (smallest) value is it,
written as shown or rounded to the places the sentence gives. It only backs: another
column may hold a peak the sentence does not mean.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf

_HIGH = re.compile(r"\b(?:peak(?:ed|s)?|highest|max(?:imum|ed)?|top(?:ped)?|spiked?)\b", re.I)
_LOW = re.compile(r"\b(?:lowest|minimum|min|bottom(?:ed)?|trough)\b", re.I)
_ROW_INDEX = re.compile(r"\[\d+\]")
#: Rows of a column read at most.
_MOST_ROWS = 200


def extreme(index: ReceiptIndex, h: HardFact, sentence: str) -> Finding | None:
    """Support of a figure as its column's highest or lowest value (see the module doc)."""
    if h.kind not in ("number", "percent", "money", "count") or h.number is None:
        return None
    high, low = _HIGH.search(sentence), _LOW.search(sentence)
    if high is None and low is None:
        return None
    written = h.text.replace(",", "").rstrip("%").strip()
    digits = re.match(r"-?\d+(?:\.(\d+))?", written.lstrip("$€£"))
    places = len(digits.group(1) or "") if digits else 0
    wanted = ([("highest", max)] if high else []) + ([("lowest", min)] if low else [])
    for entry in reversed(index.entries):
        if entry.receipt.kind != "tool":
            continue
        for column, values in _columns(entry).items():
            for word, pick in wanted:
                leaf = pick(values, key=_number)
                x = _number(leaf)
                if abs(x - h.number) < 0.005 or (
                    _more_places(leaf, places) and abs(x - h.number) <= 0.5 * 10.0**-places
                ):
                    r = entry.receipt
                    detail = (
                        f"{r.id} {leaf.path} = {leaf.value.shown}: the {word} of "
                        f"{len(values)} values of {column}, matches {h.text}"
                    )
                    return Finding("supported", r.id, r.kind, detail, leaf.path, value=h)
    return None


def _number(leaf: Leaf) -> float:
    return leaf.value.number if leaf.value.number is not None else 0.0


def _more_places(leaf: Leaf, places: int) -> bool:
    held = leaf.value.shown.rstrip("0")
    return "." in held and len(held.split(".")[1]) > places


def _columns(entry: ReceiptEntry) -> dict[str, list[Leaf]]:
    """One result's numeric columns: values of one field of a list's rows (once per
    content)."""
    return entry.worked_out("numeric_columns", _numeric_columns)


def _numeric_columns(entry: ReceiptEntry) -> dict[str, list[Leaf]]:
    found: dict[str, list[Leaf]] = {}
    for rec in entry.records:
        for leaf in rec.leaves:
            if "[" not in leaf.path or leaf.path.startswith("args"):
                continue
            if leaf.value.kind in ("number", "percent", "money", "count"):
                found.setdefault(_ROW_INDEX.sub("[]", leaf.path), []).append(leaf)
    return {k: v for k, v in found.items() if 2 <= len(v) <= _MOST_ROWS}
