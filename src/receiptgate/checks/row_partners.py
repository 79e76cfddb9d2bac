"""Two figures of one row: "It peaked at 16.9% at 10:10 UTC", "| 09:40 | 0.4 |". A
figure no field is found to be about is backed when another figure of the same sentence
is a value of a row and this one is too: the sentence reads the row, whatever words it
uses for it ("peaked" is no word of a time series' ``[1763460600, "16.9"]`` sample).

The partner must be a figure no coincidence gives (a time, a date, a decimal, a number
of three digits or more) and the row small (a sample, a table row, a line item), so two
small counts of a large record do not back each other. The row's value may be written
rounded to the places the sentence shows when the row holds a computed float ("0.4" of
0.41276595744680855, "14.8" of 14.83). Linear in the sentence's figures times the rows
their values sit in.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from collections.abc import Set as AbstractSet

from receiptgate.checks.figures import same_value, supported
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipt import Receipt
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import claim_keys

#: A row with more values than this is a record, not a row a sentence reads across.
_ROW_SIZE = 12
#: A partner value held by more rows than this names no row.
_MOST_ROWS = 8


def _specific(h: HardFact) -> bool:
    """A figure that names its row: a time, a date, a decimal, a number of 3+ digits."""
    if h.kind in ("time", "date", "datetime"):
        return True
    x = h.number
    if x is None:
        return False
    return not float(x).is_integer() or abs(x) >= 100


def _rounded(h: HardFact, leaf: Leaf) -> bool:
    """``h`` is the row's computed value written to the places it shows."""
    x, v = h.number, leaf.value.number
    if x is None or v is None or leaf.value.kind not in ("number", "percent"):
        return False
    if h.kind not in ("number", "percent"):
        return False
    written = h.text.replace(",", "").rstrip("%").strip()
    places = len(written.split(".")[1]) if "." in written else 0
    held = leaf.value.shown.rstrip("0")
    if "." not in held or len(held.split(".")[1]) <= places:
        return False  # the row's value has no more places than the sentence's
    return bool(abs(v - x) <= 0.5 * 10.0**-places + 1e-9)


def _rows(
    index: ReceiptIndex,
    h: HardFact,
    fresh: Callable[[Receipt], bool],
    scope: AbstractSet[int] | None,
    backed: Finding | None,
) -> list[Record]:
    found: dict[int, Record] = {}
    for leaf in index.leaves(claim_keys(h)):
        r = index.receipt_of(leaf)
        if r.kind != "tool" or not fresh(r) or not same_value(h, leaf):
            continue
        if backed is not None and (leaf.path != backed.path or r.id != backed.receipt_id):
            continue  # a figure already backed is of the row that backs it
        if scope is not None and id(leaf.record) not in scope:
            continue  # the sentence names its record: another row is no partner
        if len(leaf.record.leaves) <= _ROW_SIZE:
            found[id(leaf.record)] = leaf.record
    return list(found.values()) if len(found) <= _MOST_ROWS else []


def _match(h: HardFact, row: Record) -> Leaf | None:
    keys = set(claim_keys(h))
    for leaf in row.leaves:
        if leaf.value.kind == "datetime" and h.kind not in ("time", "date"):
            continue  # a sample's moment is no value of a figure beside it
        if (keys.intersection(leaf.value.keys) and same_value(h, leaf)) or _rounded(h, leaf):
            return leaf
    return None


def _beside(index: ReceiptIndex, h: HardFact, leaf: Leaf, other: HardFact) -> Finding:
    found = supported(index, h, leaf)
    return Finding(
        "supported",
        found.receipt_id,
        found.receipt_kind,
        f"{found.detail}, beside {other.text} in that row",
        found.path,
        value=h,
    )


_KINDS = frozenset({"number", "percent", "money", "count", "time", "date", "datetime"})


def row_partners(
    index: ReceiptIndex,
    figures: Sequence[HardFact],
    unsupported: Sequence[HardFact],
    fresh: Callable[[Receipt], bool],
    *,
    scope: AbstractSet[int] | None = None,
    backed: Mapping[int, Finding] | None = None,
) -> dict[int, Finding]:
    """Support of the sentence's unsupported figures by the rows its other figures are
    values of (see the module doc), by ``id`` of the figure; a partner as unsupported as
    the figure is backed by the same row. ``scope``: the records the sentence names (the
    rows must be among them); ``backed``: the findings of its figures already backed, by
    ``id`` (such a figure's row is the one that backs it)."""
    out: dict[int, Finding] = {}
    waiting = {id(h) for h in unsupported}
    for h in unsupported:
        if id(h) in out or h.kind not in _KINDS:
            continue
        for other in figures:
            if other is h or other.start == h.start or not _specific(other):
                continue
            for row in _rows(index, other, fresh, scope, (backed or {}).get(id(other))):
                leaf = _match(h, row)
                if leaf is None:
                    continue
                out[id(h)] = _beside(index, h, leaf, other)
                partner = _match(other, row) if id(other) in waiting else None
                if partner is not None and id(other) not in out:
                    out[id(other)] = _beside(index, other, partner, h)
                break
            if id(h) in out:
                break
    return out
