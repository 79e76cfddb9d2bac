"""The operands of derived figures and what a derivation gives (checks/arithmetic).

An operand is a value of the records, or a figure an earlier line of the reply worked
out; a derivation is the formula that gives a claimed figure, or the right value
where the sentence names its operation and computed another.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record

#: Values the search considers at most (the nearest first).
MAX_OPERANDS = 48
RATE_WORDS = frozenset("percent pct percentage rate discount off tax fee".split())
TOLERANCE = 0.011


@dataclass(frozen=True, slots=True)
class Operand:
    value: float
    leaf: Leaf | None
    shown: str
    anchored: bool = False  # a value of the records the sentence is about
    origin: Finding | None = None  # for a figure of the reply's (no leaf): what backed it


@dataclass(frozen=True, slots=True)
class Derivation:
    """How a claimed figure follows from the records, or what it should have been."""

    status: str  # supported | contradicted
    formula: str
    leaf: Leaf | None  # one operand's leaf (for the receipt id)
    origin: Finding | None = None  # else what backed an operand the reply gave
    terms: tuple[float, ...] = ()  # written arithmetic: the operands the sentence wrote
    #: whether every term is written in the sentence; else one is implied ("$216.98 more
    #: than the $950") and only a backed figure of the reply may give it
    stated: bool = True


#: How many people a figure is for, and who they are: "three passengers", "2 travelers".
HEADS_COUNT = r"(?:[2-9]|two|three|four|five|six|both)"
HEADS_NOUN = r"(?:passengers|people|travell?ers|guests|persons|adults)"
#: A figure said to be for several people: "for all three passengers", "for 3 travelers".
_FOR_HEADS = re.compile(
    rf"[*_\s]*(?:in\s+total\s+)?for\s+(?:all\s+|the\s+|both\s+)*(?P<n>{HEADS_COUNT})\s+"
    rf"(?:of\s+(?:you|them)\s+)?(?P<who>{HEADS_NOUN})\b",
    re.IGNORECASE,
)
_HEADS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "both": 2}


def for_one_head(expression: str, target: float, sentence: str, figure: str) -> str | None:
    """What is wrong with a sum of the records' prices said to be "for all three
    passengers" right after the figure (``figure``: its text in ``sentence``): the prices
    are each one passenger's, so the sum is one passenger's fare and the total is short
    by the other heads; ``None`` when the figure is not followed by such heads, or the
    expression multiplies by a count (or adds nothing)."""
    at = sentence.find(figure)
    if at < 0 or "×" in expression or "+" not in expression:
        return None
    m = _FOR_HEADS.match(sentence, at + len(figure))
    if m is None:
        return None
    word = m.group("n").lower()
    n = int(word) if word.isdigit() else _HEADS[word]
    who = m.group("who")
    return (
        f"{show_number(target)} = {expression} is one of the {who}' fares; for {n} {who}: "
        f"{show_number(n * target)}"
    )


def show_number(x: float) -> str:
    return f"{x:,.2f}".rstrip("0").rstrip(".") if not float(x).is_integer() else f"{int(x):,}"


def operands(
    index: ReceiptIndex,
    h: HardFact,
    records: Sequence[Record],
    fresh: Callable[[Receipt], bool],
    *,
    wide: bool = True,
    restated: Sequence[Leaf] = (),
    named: Sequence[Record] = (),
) -> list[Operand]:
    """The values of ``h``'s kind to compute with: the anchored records' first, then
    (``wide``) the values the reply restated, the records it ``named`` elsewhere and the
    newest results', nearest first, at most ``MAX_OPERANDS``."""
    out: list[Operand] = []
    seen: set[int] = set()

    def take(leaves: Iterable[Leaf], anchored: bool = False) -> None:
        # numeric leaves only: "6259501109" under an id key is an item's name, not an amount
        for leaf in leaves:
            if len(out) >= MAX_OPERANDS:
                return
            if id(leaf) in seen or not same_kind(h, leaf) or not fresh(index.receipt_of(leaf)):
                continue
            seen.add(id(leaf))
            v = leaf.value
            assert v.number is not None
            out.append(Operand(v.number, leaf, v.shown, anchored))

    for rec in records:
        for r in rec.subtree():
            take(r.numeric_leaves(), anchored=True)
        for r in rec.lineage():
            take(r.numeric_leaves(), anchored=True)
    if wide:
        # the values the reply's earlier lines restated, latest first
        take(reversed(restated), anchored=True)
        # and the rows of their lists ("Total from certificates" after two of three)
        for leaf in reversed(restated):
            parent = leaf.record.parent
            for sibling in parent.children if parent is not None and leaf.record.ids else ():
                take(sibling.numeric_leaves())
        # and the other amounts of the records they came from ("the £400 excess ... the
        # remaining £1,440.50 of the repair": the claim's estimate, less its excess)
        for leaf in reversed(restated):
            take(leaf.record.numeric_leaves())
    for rec in named if wide else ():
        # the records the reply names elsewhere ("difference vs your robotic +2.98" in a
        # reply that names the robotic vacuum's item id further on)
        take(rec.numeric_leaves())
    for rec in records if wide else ():
        # the rows beside it (the other segment of a one-stop option, the other items
        # of an order): what a total over its group adds
        for sibling in rec.parent.children if rec.parent is not None else ():
            take(sibling.numeric_leaves())
    for entry in reversed(index.entries[-6:]) if wide else ():
        for rec in entry.records:  # every record of the result, in document order
            if len(out) >= MAX_OPERANDS:
                return out
            take(rec.numeric_leaves())
    return out


def same_kind(h: HardFact, leaf: Leaf) -> bool:
    v = leaf.value
    if h.kind == "money":
        if v.kind == "percent":
            return True  # a rate: "20% of $150.25"
        if v.kind == "number" and leaf.path != "text":
            # a field that is no amount ("size": 12) is not added to prices; a rate
            # ("discount": 20) is taken of them
            return bool(set(leaf.words) & RATE_WORDS)
        return v.kind in ("money", "number") and (v.unit is None or h.unit in (None, v.unit))
    if h.kind in ("count", "number"):
        return v.kind in ("count", "number")
    if h.kind == "percent":
        return v.kind in ("percent", "number")
    if h.kind == "duration":
        # days with days ("24 days left" less a 4-day leave); a span in hours or minutes
        # is kept in the unit its field names, which the number alone does not say
        return v.kind == "duration" and any(k.startswith("dur:d:") for k in v.keys)
    return False
