"""Values by the words that label them: a figure whose clause says what it is ("ARR was
$18.5M", "paid last Friday") against the one value anywhere whose field or surrounding words
say the same (``arr_usd``, ``paid_at``). The labels of a result's values are worked out once
per content and kept with its records.
"""

from __future__ import annotations

from collections.abc import Callable

from receiptgate.checks.about import (
    field_words,
)
from receiptgate.checks.documents import DOCUMENT_KINDS
from receiptgate.checks.rows import (
    other_row,
)
from receiptgate.checks.words import GENERIC
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import same_family


def labelled_rival(
    index: ReceiptIndex,
    h: HardFact,
    clause: frozenset[str],
    low: str,
    fresh: Callable[[Receipt], bool],
) -> Leaf | None:
    """A value anywhere, of the same kind, whose field or surrounding words are what
    the clause says the figure is ("ARR was $18.5M" and ``arr_usd=17950000``; "paid
    last Friday" and ``paid_at: 2026-03-06``), when there is exactly one such value."""
    specific = clause - GENERIC
    if not specific:
        return None
    labels = _labels(index)
    candidates: dict[int, tuple[Leaf, frozenset[str]]] = {}
    for word in specific:
        for n, leaf, label in labels.get(word, ()):
            candidates.setdefault(n, (leaf, label))
    found: dict[str, Leaf] = {}
    for n in sorted(candidates):
        leaf, label = candidates[n]
        shared = label & specific
        if len(shared) < min(2, len(specific)):
            continue  # "Credit card: $171" is not what a gift card's amount is
        if not same_family(h, leaf.value) or other_row(leaf, low):
            continue
        if fresh(index.receipt_of(leaf)):
            found.setdefault(leaf.value.keys[0] if leaf.value.keys else "", leaf)
    return next(iter(found.values())) if len(found) == 1 else None


def _labels(index: ReceiptIndex) -> dict[str, list[tuple[int, Leaf, frozenset[str]]]]:
    """Label word -> the values labelled by it (field names, or the words around a value
    in a text), in receipt order; what the user said is no record of what is. Built once
    per index."""
    cached = index.cache.get("labels")
    if isinstance(cached, dict):
        return cached
    out: dict[str, list[tuple[int, Leaf, frozenset[str]]]] = {}
    n = 0
    for entry in index.entries:
        if entry.receipt.kind == "user":
            continue
        if entry.receipt.kind in DOCUMENT_KINDS and entry.format == "text":
            continue  # a rule's figure is weighed against the rule it is in (documents)
        own = _entry_labels(entry)
        for k, leaf, label in own:
            for word in label:
                out.setdefault(word, []).append((n + k, leaf, label))
        n += len(own)
    index.cache["labels"] = out
    return out


def _entry_labels(entry: ReceiptEntry) -> list[tuple[int, Leaf, frozenset[str]]]:
    """The labels of one result's values, in order (kept with its records)."""
    found = entry.memo.get("labels")
    if isinstance(found, list):
        return found
    labels: list[tuple[int, Leaf, frozenset[str]]] = []
    for rec in entry.records:
        for leaf in rec.leaves:
            label = frozenset(leaf.words) if leaf.path == "text" else field_words(leaf)
            labels.append((len(labels), leaf, label - GENERIC))
    entry.memo["labels"] = labels
    return labels
