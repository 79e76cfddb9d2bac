"""A group said to hold no record in a state: "there are no delivered orders", "there are no
pending or processed orders remaining", "**Delivered orders:** none at the moment".

The records are those the evidence names by the noun (an ``order_id`` names an order), each
at its newest result; the state is a value of their state field (``status``), as the
evidence or the status vocabulary spells it. When a result lists the ids of that noun (a
user's ``orders``), every one of them must have been looked up, else the sentence says
more than the evidence shows (unsupported). One record in the state contradicts the
sentence; none backs it.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_states import STATE_SPELLINGS, STATE_UMBRELLAS, latest, state_heads
from receiptgate.checks.rivals import evidence_line
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record

#: "no delivered orders", "no pending or processed orders", "Delivered orders: none".
_NO_STATE = re.compile(
    r"\bno\s+(?P<a>[a-z]+(?:(?:,\s*|\s+or\s+|\s+and\s+)[a-z]+){0,2})\s+(?P<n>[a-z]+s)\b"
    r"|^[\W_]*(?P<b>[a-z]+(?:(?:,\s*|\s+or\s+|\s+and\s+)[a-z]+){0,2})\s+(?P<m>[a-z]+s)"
    r"[*_]*\s*:[*_\s]*none\b"
)
_JOIN = re.compile(r",\s*|\s+or\s+|\s+and\s+")


def none_in_state(index: ReceiptIndex, sentence: str) -> Finding | None:
    """A group said to hold no record in a state, against the newest result of each record
    of that noun (see the module doc); ``None`` when the words are no state of such
    records, or not every record of a listed group was looked up."""
    m = _NO_STATE.search(" ".join(sentence.replace("*", "").split()).lower())
    if m is None:
        return None
    said = _JOIN.split(m.group("a") or m.group("b"))
    noun = (m.group("n") or m.group("m"))[:-1]
    heads = state_heads(index)
    states: set[str] = set()
    fields: set[str] = set()
    for word in said:
        known = [
            (f, v)
            for w in (word, *STATE_SPELLINGS.get(word, ()))
            for f, v in heads.get(w, ())
            if v == w
        ]
        if not known:
            return None  # "no additional holds": no state of the records
        fields.update(f for f, _ in known)
        states.update(v for _, v in known)
        states.update(STATE_UMBRELLAS.get(word, ()))
    records = _of_noun(index, noun, fields)
    if not records:
        return None
    listed = _listed_ids(index, noun)
    seen = {i for rec in records for i in rec.ids}
    if listed and not listed <= seen:
        # some of the user's orders were never looked up: not shown either way (and no
        # result about the account that lacks the word may back it instead)
        missing = sorted(i for i in listed - seen if i.startswith("#") or f"#{i}" not in listed)
        detail = f"not every {noun} was looked up ({', '.join(missing[:3])} never was)"
        return Finding("unsupported", None, None, detail)
    for rec in records:
        for leaf in _state_leaves(rec, fields):
            if leaf.value.shown.lower() in states:
                r = index.receipt_of(leaf)
                detail = f"contradicts {evidence_line(index, leaf)}"
                return Finding("contradicted", r.id, r.kind, detail, leaf.path)
    first = next(leaf for rec in records for leaf in _state_leaves(rec, fields))
    r = index.receipt_of(first)
    shown = ", ".join(
        f"{_id_of(rec, noun)} {leaf.value.shown}"
        for rec in records
        for leaf in _state_leaves(rec, fields)
    )
    return Finding("supported", r.id, r.kind, f"no {' or '.join(said)} {noun}: {shown}")


def _id_of(rec: Record, noun: str) -> str:
    return next((x.value.shown for x in rec.leaves if x.key.lower() == f"{noun}_id"), rec.ids[0])


def _state_leaves(rec: Record, fields: set[str]) -> list[Leaf]:
    return [leaf for leaf in rec.leaves if leaf.key.lower() in fields]


def _of_noun(index: ReceiptIndex, noun: str, fields: set[str]) -> list[Record]:
    """The newest result of each record the evidence names by ``noun`` (its own id field
    is ``<noun>_id``) that holds one of ``fields``."""
    found = [
        rec
        for e in index.entries
        if e.receipt.kind == "tool"
        for rec in e.records
        if rec.ids
        and _state_leaves(rec, fields)
        and any(leaf.value.kind == "id" and leaf.key.lower() == f"{noun}_id" for leaf in rec.leaves)
    ]
    return latest(index, found)


def _listed_ids(index: ReceiptIndex, noun: str) -> set[str]:
    """The ids a result lists under the noun's plural (a user's ``orders``), from the
    newest result that lists them."""
    for e in reversed(index.entries):
        ids = {
            leaf.value.shown.lower()
            for rec in e.records
            for leaf in rec.leaves
            if re.fullmatch(rf"{noun}s\[\d+\]", leaf.path.rsplit(".", 1)[-1])
        }
        if ids:
            return ids | {i.lstrip("#") for i in ids}
    return set()
