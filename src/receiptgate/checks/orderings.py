"""Orderings over a list: "the cheapest available T-shirt is $46.85", "the most expensive
item in your order is the Action Camera at $481.50", "the earliest flight leaves at
6:00 AM" (:func:`check_ordering`).

A sentence that calls a price the lowest or the highest, or a time or date the earliest
or the latest, is checked against
the list the value comes from: the other rows of the same list (an order's items, a
product's variants) that hold the same field. "Available" or "in stock" in the sentence
keeps only the rows whose ``available``/``in_stock`` field is true. The value must be
the minimum (or maximum) of those rows; otherwise the claim is contradicted, and the
evidence names the row that beats it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

from receiptgate.checks.words import content_words
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import claim_keys

_LOWEST = re.compile(
    r"\b(?:cheapest|least\s+expensive|lowest[- ]priced|lowest\s+(?:price|cost)|"
    r"most\s+affordable|least\s+costly)\b",
    re.IGNORECASE,
)
_HIGHEST = re.compile(
    r"\b(?:most\s+expensive|priciest|highest[- ]priced|highest\s+(?:price|cost)|"
    r"most\s+costly)\b",
    re.IGNORECASE,
)
_AVAILABLE = re.compile(r"\b(?:available|in\s+stock)\b", re.IGNORECASE)
_NOT_AVAILABLE = re.compile(r"\b(?:not|isn't|aren't|un)\s*available\b|\bout\s+of\s+stock\b", re.I)
_AVAILABILITY_KEYS = frozenset({"available", "in_stock", "instock", "is_available"})


@dataclass(frozen=True, slots=True)
class Ordering:
    """The outcome of an ordering claim about one value."""

    status: str  # supported | contradicted
    detail: str
    leaf: Leaf  # the value checked (supported) or the row that beats it (contradicted)


_EARLIEST = re.compile(r"\b(?:earliest|soonest|first\s+available)\b", re.IGNORECASE)
_LATEST = re.compile(r"\b(?:latest|last\s+available)\b", re.IGNORECASE)
#: Kinds of value whose order is time.
TIME_KINDS = frozenset({"time", "datetime", "date"})


def ordering_of(sentence: str, kind: str = "money") -> str | None:
    """ "min" or "max" when the sentence calls a price the lowest or the highest, or (for
    a time or a date) the earliest or the latest."""
    low, high = (_EARLIEST, _LATEST) if kind in TIME_KINDS else (_LOWEST, _HIGHEST)
    if low.search(sentence):
        return "min"
    if high.search(sentence):
        return "max"
    return None


#: What makes a figure a bound, not the ranked value: "a charge well above $567", "lower
#: than $1,000", "under your $500 budget".
_BOUND_BEFORE = re.compile(
    r"\b(?:than|above|below|under|over|exceeds?|exceeding|beyond|within|up\s+to|at\s+most|"
    r"at\s+least)\s+(?:\w+\s+){0,2}[$€£]?\s*$",
    re.IGNORECASE,
)
#: An operand of the reply's own arithmetic: "$248 + $259 = $507 ← cheapest" ranks the sum.
_OPERAND_AFTER = re.compile(
    r"^[\s*_]*(?:/\s*\w+\s*)?(?:\([^()]{0,40}\)\s*)?[-+−×x*=]\s*[*_]*[$€£\d(]"
)


def ranks(sentence: str, start: int, end: int) -> bool:
    """Whether the figure at ``sentence[start:end]`` is what a superlative of the sentence
    ranks: not a bound it is compared with ("a charge lower than $567") nor an operand of
    the sentence's own sum ("$248 + $259 = $507 ← cheapest" ranks $507)."""
    if _BOUND_BEFORE.search(sentence[max(0, start - 40) : start]):
        return False
    return _OPERAND_AFTER.match(sentence[end : end + 60]) is None


def _order_key(leaf: Leaf) -> float | str | None:
    """What a value is ordered by: its number, or for a time or a date its ISO form
    (UTC when the value has a zone: "06:00" EST sorts as "11:00Z")."""
    v = leaf.value
    if v.kind in ("money", "number"):
        return v.number
    if v.kind not in TIME_KINDS:
        return None
    keys = dict(k.split(":", 1) for k in v.keys if ":" in k)
    day = keys.get("d", "") if len(keys.get("d", "")) == 10 else ""
    clock = keys.get("tz") or keys.get("t") or ""
    return f"{day} {clock}".strip() or None


def check_ordering(
    index: ReceiptIndex, h: HardFact, sentence: str, direction: str, scope: AbstractSet[int]
) -> Ordering | None:
    """Whether the value the figure ``h`` restates is the lowest or highest of its list
    (the values in the anchored records, ids in ``scope``, first); ``None`` when no
    list holds it."""
    if h.kind in TIME_KINDS:
        claimed = [
            leaf
            for leaf in index.leaves(claim_keys(h))
            if leaf.value.kind in TIME_KINDS and _order_key(leaf) is not None
        ]
    elif h.number is None:
        return None
    else:
        claimed = [
            leaf
            for leaf in index.leaves(claim_keys(h))
            if leaf.value.kind in ("money", "number")
            and leaf.value.number is not None
            and abs(leaf.value.number - h.number) < 0.005
        ]
    claimed.sort(key=lambda leaf: id(leaf.record) not in scope)
    return _check(index, sentence, direction, claimed, _noun(sentence))


def _check(
    index: ReceiptIndex,
    sentence: str,
    direction: str,
    claimed: Sequence[Leaf],
    noun: str | None,
) -> Ordering | None:
    available = bool(_AVAILABLE.search(sentence)) and not _NOT_AVAILABLE.search(sentence)
    worst: Ordering | None = None
    for leaf in claimed:
        rows = _rows(leaf)
        if noun is not None:
            # "the cheapest earbud in this order": the order's earbuds, not its other items
            rows = [r for r in rows if noun in _row_words(r)]
            if _row(leaf) not in rows:
                continue
        elif _row(leaf).names:
            # "The cheapest of these is item 1646531091": of the rows of one name (an
            # order's three earbuds), when it has several, not the order's other items
            same = [r for r in rows if set(r.names) & set(_row(leaf).names)]
            if len(same) >= 2:
                rows = same
        if len(rows) < 2:
            continue
        if available:
            rows = [r for r in rows if _is_available(r) is not False]
            if _row(leaf) not in rows:
                beat = rows[0] if rows else None
                if beat is not None:
                    worst = worst or Ordering(
                        "contradicted",
                        f"{_line(index, leaf)} is not available",
                        _field(beat, leaf) or leaf,
                    )
                continue
        values: list[tuple[Any, Leaf]] = []
        for r in rows:
            x = _field(r, leaf)
            if x is not None and (k := _order_key(x)) is not None:
                values.append((k, x))
        mine = _order_key(leaf)
        if not values or mine is None or any(type(k) is not type(mine) for k, _ in values):
            continue
        best_k, best = (min if direction == "min" else max)(values, key=lambda v: v[0])
        timed = leaf.value.kind in TIME_KINDS
        if best_k == mine or (not timed and abs(best_k - mine) < 0.005):
            if timed:
                word = "earliest" if direction == "min" else "latest"
            else:
                word = "lowest" if direction == "min" else "highest"
            return Ordering(
                "supported",
                f"{_line(index, leaf)} is the {word} {leaf.key} of {len(values)}",
                leaf,
            )
        if timed:
            than = "earlier" if direction == "min" else "later"
        else:
            than = "lower" if direction == "min" else "higher"
        worst = worst or Ordering(
            "contradicted", f"{_line(index, best)} is {than} than {leaf.value.shown}", best
        )
    return worst


# What a superlative ranks when it names no kind of thing: every row of the list.
_ANY_ROW = frozenset(
    content_words(
        "item items option options one ones product products variant variants choice choices "
        "price available thing things model models version versions"
    )
)
_AFTER_SUPERLATIVE = re.compile(
    r"(?:cheapest|expensive|priciest|priced|price|cost|affordable|costly|earliest|soonest|"
    r"latest|available)\s+"
    r"(?:available\s+|in-stock\s+)?([A-Za-z][\w-]*)"
)


def _noun(sentence: str) -> str | None:
    """What the superlative ranks ("the cheapest earbud" -> earbud), if it names a kind."""
    m = _AFTER_SUPERLATIVE.search(sentence.lower())
    if m is None:
        return None
    words = content_words(m.group(1))
    if not words or words <= _ANY_ROW:
        return None
    return next(iter(words))


def _row_words(rec: Record) -> frozenset[str]:
    """A row's words: its names and text values, and its parents' (a variant's product),
    and the list it is a row of ("flights[1]": a flight)."""
    parts: list[str] = [re.sub(r"\[\d+\]", " ", rec.path)]
    for r in rec.lineage():
        parts.extend(r.names)
        parts.extend(x.value.shown for x in r.leaves if x.value.kind in ("word", "text"))
    return content_words(" ".join(parts))


_INDEX_END = re.compile(r"\[[^\[\]]*\]$")


def _row(leaf: Leaf) -> Record:
    """The row of a list a value belongs to: its record, or the row that record is an
    object field of (a line's ``plan`` of ``lines[2].plan.monthly_price``)."""
    return next((r for r in leaf.record.lineage() if _INDEX_END.search(r.path)), leaf.record)


def _rows(leaf: Leaf) -> list[Record]:
    """The rows of the list the value's row belongs to that hold the same field (the bill's
    line items, not its credits beside them)."""
    row = _row(leaf)
    if row.parent is None:
        return []
    listed = _INDEX_END.sub("", row.path)
    return [
        r
        for r in row.parent.children
        if _INDEX_END.sub("", r.path) == listed and _field(r, leaf) is not None
    ]


def _field(rec: Record, like: Leaf) -> Leaf | None:
    """The leaf of a row at the place ``like`` has in its own row: ``prices.economy``, not
    ``available_seats.economy``; ``plan.monthly_price`` of each line."""
    row = _row(like)
    rel = like.path[len(row.path) :] if like.path.startswith(row.path) else ""
    if rel:
        return next((x for x in rec.subtree_leaves() if x.path == rec.path + rel), None)
    return next((x for x in rec.leaves if x.key == like.key), None)


def _is_available(rec: Record) -> bool | None:
    for x in rec.leaves:
        if x.key.lower() in _AVAILABILITY_KEYS:
            shown = x.value.shown.strip().lower()
            if shown in ("true", "yes", "1"):
                return True
            if shown in ("false", "no", "0"):
                return False
    return None


def _line(index: ReceiptIndex, leaf: Leaf) -> str:
    return f"{index.receipt_of(leaf).id} {leaf.path} = {leaf.value.shown}"
