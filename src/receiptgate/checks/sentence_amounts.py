"""The amounts a sentence writes besides the figure under check, and what a figure is of.

Used by :mod:`checks.figures` to decide whether a field of the record a sentence is about
rivals a claimed figure: not when the sentence gives that field's value with another of
its amounts ("Price: $298.91 (current item is $302.67)"), nor when the figure is the other
term of a difference the sentence states ("from your current puzzle ($46.00) is $3.10"),
nor when the figure qualifies a noun of its own ("a $200 travel certificate" is no flight's
price); and a new value a change gives a record ("update the address to ...") may come
from another record.
"""

from __future__ import annotations

import re

from receiptgate.checks.about import field_words
from receiptgate.checks.anchoring import Anchor
from receiptgate.claims.models import HardFact
from receiptgate.evidence.records import Leaf

#: A change of a record to a new value, before the value: "update ... to", "switch ...
#: to", "change the address to".
NEW_VALUE_BEFORE = re.compile(
    r"\b(?:updat|chang|switch|mov|modif|set|replac)\w*\b[^.!?]{0,160}\bto\b[^.!?]*$",
    re.IGNORECASE,
)


#: An amount as a sentence writes it: with a currency sign ("$1,234", "$ 5") or to the
#: cent ("302.67"); a date's or a duration's number is none.
_AMOUNT = re.compile(
    r"[$€£]\s?(?P<a>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"|(?<![\w.,])(?P<b>\d{1,3}(?:,\d{3})*\.\d{2}|\d+\.\d{2})(?![\d.])"
)


def other_amounts(text: str, start: int, end: int) -> frozenset[float]:
    """The amounts a sentence writes outside ``text[start:end]`` (a figure's span)."""
    return frozenset(
        round(float((m.group("a") or m.group("b")).replace(",", "")), 2)
        for m in _AMOUNT.finditer(text)
        if m.end() <= start or m.start() >= end
    )


def gap_stated(anchor_: Anchor, h: HardFact, rival: Leaf) -> bool:
    """Whether the sentence states, with another figure, the gap between the claimed
    figure and the rival field's value (the difference of the two)."""
    theirs = number_of(rival)
    if h.number is None or theirs is None or h.kind != "money":
        return False
    gap = round(abs(theirs - h.number), 2)
    said = other_amounts(anchor_.text, h.start - anchor_.start, h.end - anchor_.start)
    return gap > 0 and gap in said


def number_of(leaf: Leaf) -> float | None:
    n = leaf.value.number
    return round(n, 2) if n is not None else None


#: The noun a money figure qualifies: "$200 travel certificate", "a $50 voucher".
_NOUN_AFTER = re.compile(r"[*_]*\s+(?:[a-z][a-z-]*\s+){0,2}?([a-z]{4,})\b")
#: Nouns of an amount itself, which any money field may be ("$1,973 fare", "$30 fee").
_AMOUNT_NOUNS = frozenset(
    "fare fares price prices cost costs total amount amounts charge charges fee fees payment "
    "payments refund refunds balance difference ticket tickets each per dollars usd".split()
)


def owned_by_noun(anchor_: Anchor, h: HardFact, rival: Leaf) -> bool:
    """Whether the noun right after a money figure names a thing of its own, which the
    rival field's words do not ("$200 travel certificate" against a flight's `price`)."""
    m = _NOUN_AFTER.match(anchor_.text, h.end - anchor_.start)
    if m is None:
        return False
    noun = m.group(1).lower()
    if noun in _AMOUNT_NOUNS or noun.rstrip("s") in _AMOUNT_NOUNS:
        return False
    return noun not in field_words(rival) and noun.rstrip("s") not in field_words(rival)
