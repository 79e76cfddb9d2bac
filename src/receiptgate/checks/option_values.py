"""A line that lists option values of one record: "Canister, bagged, cordless" of a
vacuum variant whose options are ``{"type": "canister", "bag type": "bagged", "features":
"cordless"}``.

Such a line restates a record in its own words, comma by comma; it is backed when one
record (the options of one variant, one row) holds every value it lists, and left
unsettled otherwise (a value no record pairs with the others is no contradiction here:
which record the line meant, it does not say).
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Record

#: A remark in brackets after the values: "(already in your order)".
_REMARK = re.compile(r"\s*\([^()]*\)\s*[.!]?\s*$")
#: How many values a line may list, and how long each may be (words).
_MOST_VALUES = 6
_MOST_WORDS = 4


def option_values(index: ReceiptIndex, sentence: str) -> Finding | None:
    """The record that holds every value a line of comma-separated values lists."""
    line = _REMARK.sub("", sentence.replace("**", "")).strip().rstrip(".")
    parts = [p.strip().lower() for p in line.split(",")]
    if not 2 <= len(parts) <= _MOST_VALUES or any(
        not p or len(p.split()) > _MOST_WORDS or not re.fullmatch(r"[a-z][a-z0-9 '&/-]*", p)
        for p in parts
    ):
        return None
    first = index.leaves((f"w:{parts[0]}",))
    for leaf in first:
        for rec in _rows(leaf.record):
            held = {x.value.shown.lower() for x in rec.subtree_leaves()}
            if all(p in held for p in parts):
                r = index.receipt_of(rec)
                path = rec.path or "record"
                return Finding("supported", r.id, r.kind, f"{r.id} {path} holds {line}", path)
    return None


def _rows(rec: Record) -> list[Record]:
    """The record a value sits in and the ones above it, up to the nearest with an id
    (the options of a variant: the variant)."""
    out = []
    for r in rec.lineage():
        out.append(r)
        if r.ids:
            break
    return out
