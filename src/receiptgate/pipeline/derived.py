"""Derived figures as findings of the check stage (``pipeline/check``).

A figure no record holds is computed from figures they do (``checks/arithmetic``), or is
one an earlier line of the reply computed, restated; its finding names the receipt
behind the formula.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.arithmetic import derive, one_head
from receiptgate.checks.finding import Finding
from receiptgate.checks.line_numbers import is_line_number
from receiptgate.checks.named_sums import named_sum
from receiptgate.checks.operands import Derivation
from receiptgate.checks.payments import amounts
from receiptgate.checks.spans import span_between
from receiptgate.checks.totals import PAYMENT_LEAD, ZERO_LEFT, covered, remainder
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record
from receiptgate.pipeline.request import Request

DERIVED = "derived"

#: A number written to the cent ("-30.49"), and words of a sentence about money.
_CENTS = re.compile(r"^[+\-−]?\d[\d,]*\.\d{2}$")
_MONEY = re.compile(
    r"\b(?:price|prices|priced|cost|costs|fare|fee|refund\w*|charge\w*|paid|pay|balance|"
    r"difference|total|amount)\b",
    re.IGNORECASE,
)


def derived(
    ledger: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    fresh: Callable[[Receipt], bool],
    sentence: str,
    req: Request,
    supported: Sequence[Finding] = (),
) -> Finding | None:
    """A figure no record holds, computed from figures they do (checks/arithmetic), or
    from figures the reply derived before (``supported``: this sentence's figures that
    receipts back, so far)."""
    if h.kind == "number" and _CENTS.search(h.text) and _MONEY.search(sentence):
        # "price 655.59 (difference vs your robotic +2.98)": an amount with no currency sign
        h = dataclasses.replace(h, kind="money")
    elif h.kind == "count" and _CENTS.search(h.text.split()[0]) and _MONEY.search(h.text):
        # "a -3.76 refund": no count of refunds but an amount (to the cent) of one
        h = dataclasses.replace(h, kind="money")
    at = sentence.find(h.text)
    if at >= 0 and is_line_number(sentence, at):
        return None  # "line 24" is a line of a file, never a sum of two figures
    if h.kind == "time" and (shifted := _shifted_time(ledger, h, sentence, fresh)) is not None:
        return derivation_finding(ledger, h, shifted, req, supported)
    if h.kind == "duration" and (span := span_between(ledger, h, sentence, fresh)) is not None:
        return derivation_finding(ledger, h, span, req, supported)
    d = derive(
        ledger,
        h,
        anchor_.records,
        fresh,
        sentence,
        anchored=anchor_.how in ("named", "section"),
        listed=anchor_.how == "previous" and len(anchor_.records) >= 2,
        restated=req.backed,
        computed=req.computed,
        named=_named_elsewhere(req, anchor_),
        lead=anchor_.lead,
    )
    if (d is None or d.status == "contradicted") and h.kind == "money":
        d = _paid_rest(h, anchor_, req) or _nothing_left(h, anchor_, req) or d
    if (d is None or d.status == "contradicted") and req.anchors is not None:
        # an itinerary's fare: one field over the rows the reply names, per head or all
        # (not the total of the reservation's own rows that a "total" was taken for)
        before = [a for a in req.anchors if a.start < anchor_.start]
        d = named_sum(ledger, h, sentence, anchor_, before, fresh) or d
    if d is None:
        return None
    if h.kind == "money":
        d = one_head(d, h, sentence)  # "$1,230 for all three passengers": one's fare
    return derivation_finding(ledger, h, d, req, supported)


def _paid_rest(h: HardFact, anchor_: Anchor, req: Request) -> Derivation | None:
    """A line under "Payment:" that pays what the other lines under it leave of a total
    the reply gave above (checks/totals.remainder)."""
    if h.number is None or not anchor_.lead or not PAYMENT_LEAD.search(anchor_.lead):
        return None
    anchors = req.anchors or []
    at = next((i for i, a in enumerate(anchors) if a is anchor_), None)
    if at is None:
        return None
    # the lines under the same lead, next to this one
    first = at
    while first > 0 and anchors[first - 1].lead == anchor_.lead:
        first -= 1
    last = at
    while last + 1 < len(anchors) and anchors[last + 1].lead == anchor_.lead:
        last += 1
    others = [x for a in anchors[first : last + 1] if a is not anchor_ for x in amounts(a.text)]
    totals: list[tuple[float, Finding | None, Leaf | None]] = [
        (x, f, None) for kind, x, f in req.computed if kind == "money"
    ]
    totals += [(x.value.number, None, x) for x in req.backed if x.value.number is not None]
    return remainder(h.number, totals, others)


def _nothing_left(h: HardFact, anchor_: Anchor, req: Request) -> Derivation | None:
    """ "Total amount to be paid: $0 (fully covered by the two certificates)": the
    amounts listed above meet the total above them (checks/totals.covered)."""
    if h.number != 0 or not ZERO_LEFT.search(anchor_.text):
        return None
    found = covered(amounts(req.text[: anchor_.start]))
    if found is None:
        return None
    # what backed the reply's first figure above it (the reply's own lines are its operands)
    origin = next((f for kind, _, f in req.computed if kind == "money"), None)
    leaf = req.backed[0] if req.backed else None
    return dataclasses.replace(found, origin=origin, leaf=leaf)


def _named_elsewhere(req: Request, anchor_: Anchor) -> list[Record]:
    """The records the reply's other sentences name (the operands of a difference with
    a record the sentence calls by a word: "vs your robotic")."""
    own = {id(r) for r in anchor_.records}
    out: dict[int, Record] = {}
    for a in req.anchors or ():
        if a.how == "named" and a is not anchor_:
            out.update((id(r), r) for r in a.records if id(r) not in own)
    return list(out.values())


def derivation_finding(
    ledger: ReceiptIndex,
    h: HardFact,
    d: Derivation,
    req: Request,
    supported: Sequence[Finding] = (),
) -> Finding | None:
    """A derivation as the figure's finding, with the receipt behind it (``None``: a
    written term that no figure above backs)."""
    rid: str | None = None
    kind: str | None = None
    if d.leaf is not None:
        r = ledger.receipt_of(d.leaf)
        rid, kind = r.id, r.kind
    elif d.origin is not None:
        rid, kind = d.origin.receipt_id, d.origin.receipt_kind
    elif d.terms:
        # written out ("$443 - $180 = $263"): backed by what backed its terms, when
        # every term is a figure of this line or a line above that a receipt backs
        held = [_backing(req, x, supported) for x in d.terms]
        # a count the figure is multiplied or divided by ("$871 × 3") needs no receipt of
        # its own: the amount's receipt backs the product
        counted = _COUNTED.search(d.formula) is not None
        needed = [f for f, x in zip(held, d.terms, strict=True) if not (counted and _a_count(x))]
        if needed and all(f is not None for f in needed):
            # the first term that a receipt backs (a term worked out above may have none)
            first = next((f for f in needed if f and f.receipt_id), needed[0])
            rid, kind = first.receipt_id, first.receipt_kind  # type: ignore[union-attr]
        elif not d.stated and held[0] is None:
            # "$216.98 more than the $950": the $1,166.98 it implies must be a figure the
            # reply gave above, backed
            above = next(
                (x for x in req.backed if abs((x.value.number or 0.0) - d.terms[0]) < 0.005), None
            )
            if above is None:
                return None
            r = ledger.receipt_of(above)
            rid, kind = r.id, r.kind
    if d.status == "supported":
        return Finding("supported", rid, kind, f"{DERIVED}: {d.formula}", value=h)
    return Finding("contradicted", rid, kind, f"miscalculated: {d.formula}", value=h)


#: A formula that multiplies or divides: one of its terms may be a count.
_COUNTED = re.compile(r"[×x*÷/]")


def _a_count(x: float) -> bool:
    """A small whole number, as the count of passengers, nights or items is."""
    return float(x).is_integer() and 2 <= x <= 12


def _backing(req: Request, x: float, supported: Sequence[Finding]) -> Finding | None:
    """The finding with a receipt behind a figure of this sentence or of a line above."""
    for f in [*supported, *(f for _, _, f in reversed(req.computed))]:
        v = f.value
        if f.receipt_id and v is not None and v.number is not None and abs(v.number - x) < 0.005:
            return f
    return None


def computed_before(req: Request, h: HardFact) -> Finding | None:
    """A figure an earlier sentence of the reply derived, restated ("Total: $1,327" and
    then "$1,625 - $1,327 = $298")."""
    for kind, x, f in reversed(req.computed):
        if kind == h.kind and h.number is not None and abs(x - h.number) < 0.005:
            return dataclasses.replace(f, detail=f"{f.detail} (a line above)", value=h)
    return None


#: A clock time said to lie a span from another: "30 minutes before the start", "an hour
#: after the meeting ends".
_SHIFT = re.compile(
    r"\b(?P<n>\d{1,3}|an?|one|two|three)\s+(?P<unit>min(?:ute)?s?|hours?|hrs?)\s+"
    r"(?P<way>before|after|earlier\s+than|later\s+than|ahead\s+of|prior\s+to)\b",
    re.IGNORECASE,
)
_SMALL = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3}


def _shifted_time(
    ledger: ReceiptIndex, h: HardFact, sentence: str, fresh: Callable[[Receipt], bool]
) -> Derivation | None:
    """ "It will pop up at 9:45 am, 30 minutes before the start": the time is a recorded
    time (in its own zone) less or plus the span the sentence gives."""
    m = _SHIFT.search(sentence)
    if m is None or not re.fullmatch(r"\d\d:\d\d", h.value or ""):
        return None
    n = int(m.group("n")) if m.group("n").isdigit() else _SMALL[m.group("n").lower()]
    minutes = n * (60 if m.group("unit").lower().startswith("h") else 1)
    sign = 1 if m.group("way").lower().startswith(("before", "earlier", "ahead", "prior")) else -1
    hh, mm = int(h.value[:2]), int(h.value[3:])
    total = (hh * 60 + mm + sign * minutes) % (24 * 60)
    key = f"t:{total // 60:02d}:{total % 60:02d}"
    held = [x for x in ledger.leaves((key,)) if fresh(ledger.receipt_of(x))]
    if not held:
        return None
    way = "−" if sign > 0 else "+"
    formula = f"{h.value} = {key[2:]} {way} {minutes} min ({held[-1].path})"
    return Derivation("supported", formula, held[-1])
