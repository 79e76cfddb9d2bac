"""A statement made of one row's values: "The ticket has high priority and is assigned to
Field Ops - Portland", "The Harborview dinner is at Osteria Morini, 218 Lafayette St",
"You're based at Hamburg HQ". No figure, no state word, no action: a sentence the claim
detectors find nothing in, which restates what one record holds.

It is backed when the values it says are written out whole in it (two of them, or one of
two words or more) and every other content word of it is a word of that row: its field
names, what its list calls it, or the words of its other values. One word that is no word
of the row ("low priority" of a ticket whose priority is high) leaves it a statement with
no receipt, as before: which of the sentence's words is wrong, the row does not say.
"""

from __future__ import annotations

import re
from collections import defaultdict

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_states import kind_words
from receiptgate.checks.words import content_words
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record

_TOKEN = re.compile(r"[a-z0-9]+")
#: Words that only link a value to its subject: "You're based at Hamburg HQ".
_LINKING = content_words("based located listed registered held set called named")
#: Values shorter than this (in characters) are not looked for: "no", "ok", "a".
_SHORTEST = 3
#: Texts longer than this are prose, not values a sentence restates whole.
_LONGEST = 80


def restated_values(index: ReceiptIndex, sentence: str) -> Finding | None:
    """Support of a sentence made of one row's values (see the module doc), or ``None``."""
    said = _TOKEN.findall(sentence.lower())
    if len(said) < 2:
        return None
    values = _values_by_head(index)
    found: dict[int, list[Leaf]] = defaultdict(list)
    rows: dict[int, Record] = {}
    for i, token in enumerate(said):
        for words, leaf in values.get(token, ()):
            if tuple(said[i : i + len(words)]) == words:
                for row in _rows_of(leaf.record):
                    rows[id(row)] = row
                    if leaf not in found[id(row)]:
                        found[id(row)].append(leaf)
    if not found:
        return None
    spoken = content_words(sentence)
    for key, leaves in sorted(found.items(), key=lambda kv: -len(kv[1])):
        whole = sum(len(_TOKEN.findall(x.value.shown.lower())) for x in leaves)
        if len(leaves) < 2 and whole < 2:
            continue
        row = rows[key]
        if spoken - _row_words(row) - _LINKING:
            continue
        leaf = leaves[0]
        rid = index.receipt_of(leaf).id
        shown = ", ".join(f"{x.path} = {x.value.shown}" for x in leaves[:3])
        return Finding("supported", rid, "tool", f"{rid} {shown}")
    return None


def _rows_of(rec: Record) -> list[Record]:
    """The rows a value is of: its record, and the records it is an object field of, up
    to a list's item (a pull request's ``head`` and ``base`` are the pull request's)."""
    out = [rec]
    node = rec
    while node.parent is not None and not node.path.endswith("]"):
        node = node.parent
        out.append(node)
    return out


def _row_words(row: Record) -> frozenset[str]:
    """Every content word of a row: its fields' names and word values, what its list or
    field calls it, over the row and its object fields (a ticket's ``assigned_to``)."""
    parts: list[str] = []
    words: set[str] = set()
    for rec in row.fields():
        words |= kind_words(rec)
        parts.extend(rec.names)
        for leaf in rec.leaves:
            parts.append(leaf.key)
            if leaf.value.kind in ("word", "id", "text") and len(leaf.value.shown) <= 80:
                parts.append(leaf.value.shown)
    return frozenset(words) | content_words(" ".join(parts))


def _values_by_head(index: ReceiptIndex) -> dict[str, list[tuple[tuple[str, ...], Leaf]]]:
    """The word values of the evidence by their first token, as token tuples; built once
    per index size."""
    cached = index.cache.get("values_by_head")
    if isinstance(cached, tuple) and cached[0] == len(index.entries):
        return cached[1]  # type: ignore[no-any-return]
    out: dict[str, list[tuple[tuple[str, ...], Leaf]]] = defaultdict(list)
    for entry in index.entries:
        if entry.receipt.kind != "tool":
            continue
        for rec in entry.records:
            for leaf in rec.leaves:
                shown = leaf.value.shown
                if leaf.value.kind not in ("word", "id", "text") or not (
                    _SHORTEST <= len(shown) <= _LONGEST
                ):
                    continue
                # "Osteria Morini, 218 Lafayette St, New York, NY": the whole, and each
                # of its parts, which a reply may give alone
                parts = [shown, *shown.split(", ")] if ", " in shown else [shown]
                for part in parts:
                    words = tuple(_TOKEN.findall(part.lower()))
                    if words:
                        out[words[0]].append((words, leaf))
    index.cache["values_by_head"] = (len(index.entries), out)
    return out
