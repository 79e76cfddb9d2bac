"""Which row of a list a sentence names: "flight HAT522 from ORD" names the row whose
origin is ORD, not the row beside it; an id or a name the sentence restates picks its
record (checks/figures)."""

from __future__ import annotations

import functools
import re

from receiptgate.checks.anchoring import TOKEN, Anchor, id_key
from receiptgate.checks.words import word_pattern
from receiptgate.evidence.index import ReceiptIndex, id_shape
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import Value


def other_row(leaf: Leaf, low: str) -> bool:
    """The sentence names what a sibling row holds and this row does not.

    "48 customers on the Enterprise plan" is not backed by the row plan=pro
    customers=48 when plan=enterprise is another row; "the checkout deployment ... 12
    replicas" not by the row of search; "68% in FY2025" not by the FY2024 row.
    """
    rec = leaf.record
    parent = rec.parent
    if parent is None or not low:
        return False
    named = _named_rows(parent, low)
    if not named or names_row(rec, low):
        # "HAT286 + HAT047: leaves IAH 22:00, arrives SEA 15:30": the row is named by its
        # id, and IAH (another row's origin) is no sign that 15:30 is not HAT047's
        return False
    own = {x.key: x for x in rec.leaves}
    # what this row holds in any field: "flight HAT522 from ORD" names this row's origin,
    # not the destination of the row before it
    held = {x.value.shown.lower() for x in rec.leaves}
    for sibling, other in named:
        if sibling is rec or other.key == leaf.key:
            continue
        mine = own.get(other.key)
        if mine is None or other.value.shown.lower() in held:
            continue
        if not _named_in(mine.value, low) and not _named_too(rec, sibling, low):
            return True
    return False


def _named_too(rec: Record, sibling: Record, low: str) -> bool:
    """Whether the sentence also names this row by its kind, which the sibling does not hold
    ("Your current gift card balance is $86.00; ... your PayPal (paypal_3798357)": the
    gift card's row is named by its source as much as the PayPal's by its id)."""
    theirs = {x.value.shown.lower() for x in sibling.leaves}
    return any(
        x.key.lower() in _KIND_KEYS
        and x.value.kind == "word"
        and x.value.shown.lower() not in theirs
        and _named_in(x.value, low)
        for x in rec.leaves
    )


#: Fields that say what kind of thing a row is ("source": "gift_card").
_KIND_KEYS = frozenset({"source", "type", "kind", "category"})


_ROW_VALUE_KINDS = frozenset({"word", "id", "date", "datetime"})


def _named_rows(parent: Record, low: str) -> tuple[tuple[Record, Leaf], ...]:
    """The leaves of ``parent``'s rows that a sentence names (worked out once per sentence:
    every figure of it asks about every row)."""
    cache = parent.named_by
    found = cache.get(low)
    if found is None:
        if len(cache) >= 8:
            cache.clear()
        found = cache[low] = tuple(
            (child, other)
            for child in parent.children
            for other in child.leaves
            if other.value.kind in _ROW_VALUE_KINDS and _named_in(other.value, low)
        )
    return found


def names_row(rec: Record, low: str) -> bool:
    """Whether a text (lowercase) names a record by one of its ids (lowercase too), or by
    the name of one of its object fields ("Dr. Leah Whitfield", its provider's)."""
    if any(literal_in(i, low) for i in rec.ids):
        return True
    return any(
        literal_in(n, low) for r in rec.fields() if r is not rec for n in r.names if len(n) > 3
    )


def _named_in(value: Value, low: str) -> bool:
    return _named_shown(value.shown, value.kind, low)


@functools.lru_cache(maxsize=16384)
def _named_shown(shown: str, kind: str, low: str) -> bool:
    """Whether a sentence (lowercase) names a value, shown as a record holds it (cached:
    the rows of a long search result are asked about again for every figure)."""
    shown = shown.lower()
    if len(shown) < 2:
        return False
    if kind == "word" and "_" in shown:
        shown = shown.replace("_", " ")  # "gift_card" is named by "your $62 gift card"
    if literal_in(shown, low) or (
        shown[-1:].isalpha() and (literal_in(shown + "s", low) or literal_in(shown + "es", low))
    ):
        return True  # "engineer" is named by "14 engineers"
    if kind in ("date", "datetime"):
        return _month_named(shown, low)
    words = shown.split()
    if 2 <= len(words) <= 4 and kind == "word":
        # "Search latency" is named by "Search p99 latency": every word, in order
        return _in_order(tuple(words)).search(low) is not None
    return False


@functools.lru_cache(maxsize=4096)
def _in_order(words: tuple[str, ...]) -> re.Pattern[str]:
    """Words in order, a few characters apart (compiled once per value: one pattern per
    value would thrash ``re``'s own cache, as in ``word_pattern``)."""
    return re.compile(r"\b" + r"\b.{0,30}?\b".join(map(re.escape, words)) + r"\b")


_MONTHS = (
    "january february march april may june july august september october november december"
).split()


def _month_named(shown: str, low: str) -> bool:
    m = re.match(r"(\d{4})-(\d{2})", shown)
    if m is None:
        return False
    month = _MONTHS[int(m.group(2)) - 1]
    return bool(word_pattern(month).search(low))


def named_ids(text: str, index: ReceiptIndex) -> set[str]:
    """The record ids a sentence names, lowercase without "#"."""
    return {
        m.group().lower().rstrip(".").lstrip("#")
        for m in TOKEN.finditer(text)
        if id_key(m.group(), index) is not None
    }


def anchor_ids(anchor_: Anchor) -> set[str]:
    """The ids of the records a sentence is about, and of the records they belong to."""
    return {i.lstrip("#") for rec in anchor_.records for r in rec.lineage() for i in r.ids}


def another_row(rec: Record, own: set[str]) -> bool:
    """Whether a record is another row of the kind the sentence is about: it has an id of
    the form the anchored record's own ids have (an item id), and none of them — even
    when both belong to one product (two variants share its product id)."""
    if not own:
        return False
    ids = {i.lstrip("#") for i in rec.ids}
    if ids & own:
        return False
    shapes = {id_shape(i) for i in own}
    return any(id_shape(i) in shapes for i in ids)


def of_a_sibling(rec: Record, named: set[str]) -> bool:
    """Whether a record belongs to another record of the kind the sentence names: one
    with an id of the same form (another order) and none of the named ids."""
    if not named:
        return False
    shapes = {id_shape(i) for i in named}
    for r in rec.lineage():
        ids = {i.lstrip("#") for i in r.ids}
        if ids & named:
            return False
        if any(id_shape(i) in shapes for i in ids):
            return True
    return False


def has_id(rec: Record) -> bool:
    """Whether a record is, or belongs to, a record with an id (an order's payment)."""
    return any(r.ids for r in rec.lineage())


def row_text(index: ReceiptIndex, leaf: Leaf) -> str:
    entry = index.entries[index.position(leaf)]
    if leaf.path == "text":
        return entry.text
    values = " ".join(
        x.value.shown.lower() for x in leaf.record.leaves if x.value.kind in ("word", "id")
    )
    return f"{entry.text.split(chr(10), 1)[0]} {values}"


def literal_in(claimed: str, shown: str, *, head: bool = False) -> bool:
    """``claimed`` written inside ``shown`` as a whole word ("Suite 640", "4K"); with
    ``head``, its first word is enough ("4K resolution" in a field holding "4K")."""
    needle = claimed.lower().strip()
    if head and " " in needle and needle not in shown.lower():
        needle = needle.split()[0]
        if not any(c.isalpha() for c in needle):
            return False  # "8 GB" is not the 8 of "Pixel 8": a bare number needs its unit
    hay = shown.lower()
    at = hay.find(needle)
    while at >= 0:
        end = at + len(needle)
        before = hay[at - 1] if at else " "
        after = hay[end : end + 2]
        # A dot ends a word unless a character follows it ("4.5", "v2.3", "web-01.lan").
        glued_after = after[:1].isalnum() or (after[:1] == "." and after[1:2].isalnum())
        if not (before.isalnum() or before == ".") and not glued_after:
            return True
        at = hay.find(needle, at + 1)
    return False
