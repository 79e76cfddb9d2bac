"""What stands against a claimed figure (``checks/figures``): the field of an anchored
record that holds another value (:func:`field_rival`), the same field of the same thing in
another receipt (:func:`disagreed`), and the field of the same row the sentence's words name
instead of the one that holds the figure (:func:`other_field`). Evidence lines name the
receipt and the field path (:func:`evidence_line`): ``call_3 items[0].price = 153``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from collections.abc import Set as AbstractSet

from receiptgate.checks.about import field_words
from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.finding import Finding
from receiptgate.checks.rows import has_id, other_row
from receiptgate.checks.sentence_amounts import number_of, other_amounts, owned_by_noun
from receiptgate.checks.words import content_words
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import claim_keys, same_family


def evidence_line(index: ReceiptIndex, leaf: Leaf) -> str:
    """How evidence shows a value: ``call_3 items[0].price = 153``, or in a text the
    words around it."""
    r = index.receipt_of(leaf)
    if leaf.quote:
        return f"{r.id}: {leaf.quote!r}"
    return f"{r.id} {leaf.path} = {leaf.value.shown}"


def disagreed(
    index: ReceiptIndex,
    h: HardFact,
    support: Leaf,
    low: str,
    fresh: Callable[[Receipt], bool],
) -> Finding | None:
    """Contradiction wins over support (SPEC §4): another receipt gives another value
    for the same field of the same thing.

    The same thing is a row without ids in another receipt with the same field that
    no named value tells apart (``revenue_usd`` in two reports). Records with ids (an
    order before and after a change) are states over time, not a disagreement.
    """
    rec = support.record
    if support.path.startswith("args"):
        return None  # what a call asked for ("date": the day searched) is no measurement
    if support.quote:
        # a figure of a text has no field: "43 passed" in a test run and a number in a
        # source file read before are not two measurements of one thing
        return None
    for other in index.by_field.get(support.key.lower(), ()):
        if index.position(other) == index.position(support) or not same_family(h, other.value):
            continue
        if other.path.startswith("args") or other.quote:
            continue  # two searches for two days do not disagree
        if other.value.keys[:1] == support.value.keys[:1] or not fresh(index.receipt_of(other)):
            continue
        if has_id(rec) or has_id(other.record) or other_row(other, low):
            continue  # records with ids change over time; state checks read the latest
        if set(rec.names).intersection(other.record.names):
            continue  # one named thing read twice (a pod's AGE in two listings): two times
        if tell_apart(rec, other.record, support.key):
            continue  # two releases, two days: other fields say they are other things
        r = index.receipt_of(other)
        agree = index.receipt_of(support).id
        line = evidence_line(index, other)
        detail = f"contradicts {line}, claimed {h.text} (though {agree} agrees)"
        return Finding("contradicted", r.id, r.kind, detail, other.path, value=h)
    return None


def other_field(
    index: ReceiptIndex, h: HardFact, support: Leaf, clause: frozenset[str]
) -> Finding | None:
    """The field of the same row the sentence's words name instead of the one that holds
    the figure: "Support closed 23 tickets yesterday" with yesterday's row holding
    ``tickets_opened=23 tickets_closed=19`` is yesterday's closed count, 19."""
    mine = content_words(support.key.replace("_", " "))
    for other in support.record.leaves:
        if other is support or other.value.kind != support.value.kind or other.value.number is None:
            continue
        theirs = content_words(other.key.replace("_", " "))
        own, named = mine - theirs, theirs - mine
        if own and named and named <= clause and not own & clause and mine & theirs:
            # the two fields share what they count ("tickets") and differ in how
            return contradicted(index, h, other)
    return None


def tell_apart(a: Record, b: Record, key: str) -> bool:
    """Whether two id-less records differ in a field other than ``key``."""
    mine = {x.key: x.value.keys[:1] or (x.value.shown,) for x in a.leaves if x.key != key}
    return any(
        x.key in mine and mine[x.key] != (x.value.keys[:1] or (x.value.shown,))
        for x in b.leaves
        if x.key != key
    )


def contradicted(index: ReceiptIndex, h: HardFact, rival: Leaf) -> Finding:
    r = index.receipt_of(rival)
    detail = f"contradicts {evidence_line(index, rival)}, claimed {h.text}"
    return Finding("contradicted", r.id, r.kind, detail, rival.path, value=h)


_CLAUSE_BREAK = re.compile(r"[,;]\s+(?:and|but|so|or|while)\s|;\s")


def _apart(anchor_: Anchor, h: HardFact) -> bool:
    """Whether every name of the sentence stands in another clause than the figure."""
    at = h.start - anchor_.start
    starts = [m.end() for m in _CLAUSE_BREAK.finditer(anchor_.text, 0, at)]
    lo = anchor_.start + (starts[-1] if starts else 0)
    after = _CLAUSE_BREAK.search(anchor_.text, at)
    hi = anchor_.start + (after.start() if after else len(anchor_.text))
    return bool(anchor_.named) and not any(lo <= a and b <= hi for a, b, _ in anchor_.named)


def field_rival(
    index: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    clause: frozenset[str],
    scope: AbstractSet[int],
    fresh: Callable[[Receipt], bool],
) -> Leaf | None:
    """The anchored records' field of the same kind that the claim is about."""
    if not scope:
        return None
    same: list[Leaf] = []
    for rec in anchor_.records:
        for r in rec.subtree():
            same.extend(
                leaf
                for leaf in r.leaves
                if same_family(h, leaf.value) and fresh(index.receipt_of(leaf))
            )
    # "Price: $298.91 (current item is $302.67)": a field whose value the sentence gives
    # with another of its figures is that figure's, no rival of this one
    if h.kind == "money" and anchor_.how != "named":
        # (a sentence that names its records, "$146 and $177 for HAT085 and HAT023",
        # gives each its own figure: the other figure is no claim on this one's field)
        said = other_amounts(anchor_.text, h.start - anchor_.start, h.end - anchor_.start)
        same = [leaf for leaf in same if number_of(leaf) not in said]
    if not same:
        return None
    scored = [(len(field_words(leaf) & clause), leaf) for leaf in same]
    best = max(s for s, _ in scored)
    top = [leaf for s, leaf in scored if s == best]
    values = {leaf.value.keys[0] if leaf.value.keys else leaf.value.shown for leaf in top}
    if best == 0 and (len(values) > 1 or anchor_.how != "named" or _apart(anchor_, h)):
        # no field named, and the record is not the sentence's own, or not its clause's:
        # "go ahead with item 3613716226, and where should the $0.35 go?"
        return None
    if len(values) > 1 or not set(claim_keys(h)).isdisjoint(top[0].value.keys):
        return None  # a field that holds the claimed value is no rival of it
    if (
        best == 0
        and h.kind in ("date", "time", "datetime")
        and all(top[0].record is not rec for rec in anchor_.records)
        and top[0].record.path.endswith("]")
    ):
        # "Pickup is Tuesday, October 14 at San Francisco Downtown": the date of a row of
        # one of the branch's lists (a holiday) is that row's event, not the branch's (an
        # order's one item's price is what the order comes to: amounts stay rivals)
        return None
    if h.kind == "money" and best == 0 and owned_by_noun(anchor_, h, top[0]):
        # "Issue a $200 travel certificate ... for the delay on flight HAT045": the figure is
        # the certificate's, not the named flight's price
        return None
    return top[0]
