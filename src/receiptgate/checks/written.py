"""Arithmetic a sentence writes out: "$217.06 - $200.80 = $16.26", "$199 ($100 + $99)".

Checked as written: right, it backs its result (with the terms, so that the receipts
behind them back it too); wrong, it contradicts it with the right value.
"""

from __future__ import annotations

import re

from receiptgate.checks.operands import TOLERANCE, Derivation, show_number
from receiptgate.claims.models import HardFact

_ARITHMETIC = re.compile(
    r"([$€£]?\s?-?[\d,]+(?:\.\d+)?)\s*(?:\([^)]{0,20}\)\s*)?([+\-−–×x*/])\s*"
    r"([$€£]?\s?-?[\d,]+(?:\.\d+)?)\s*(?:\([^)]{0,20}\)\s*)?=\s*([$€£]?\s?-?[\d,]+(?:\.\d+)?)"
)


def _num(text: str) -> float | None:
    cleaned = re.sub(r"[^\d.\-]", "", text.replace("−", "-").replace("–", "-"))
    try:
        return float(cleaned)
    except ValueError:
        return None


_NUM = r"[$€£]?\s?-?\d[\d,]*(?:\.\d+)?"
#: "$199 ($100 + $99)": a result with its terms after it, in parentheses.
_RESULT_TERMS = re.compile(
    rf"({_NUM})\s*\(\s*((?:{_NUM}\s*[+\-−–]\s*)+{_NUM}|{_NUM}\s*[×x*]\s*{_NUM})\s*\)"
)
_TERM = re.compile(rf"([+\-−–×x*]?)\s*({_NUM})")


def _terms_total(terms: str) -> float | None:
    """The value of "$100 + $99" or "2 × $50"."""
    total: float | None = None
    for op, num in _TERM.findall(terms):
        x = _num(num)
        if x is None:
            return None
        if total is None:
            total = x
        elif op in "×x*":
            total *= x
        else:
            total = total - x if op in "-−–" else total + x
    return total


#: "$350 business fare vs. $122 originally paid = $228": a difference written out.
_VERSUS = re.compile(
    rf"({_NUM})[^=$€£\d]{{0,40}}?\b(?:vs\.?|versus|compared\s+(?:with|to))[^=$€£\d]{{0,40}}?"
    rf"({_NUM})[^=$€£\d]{{0,40}}?=[\s*_]*({_NUM})",
    re.IGNORECASE,
)
#: "$1,166.98 is $216.98 more than the $950", "is **$216.98** more than the $950": a
#: difference with one term (group 1) or without it (then it must be a figure above).
_MORE_THAN = re.compile(
    rf"(?:({_NUM})[\s*_]+(?:is|are|was|were)[\s*_]+)?\b({_NUM})[\s*_]+(?:more|less|higher|"
    rf"lower|cheaper|greater|above|below)\s+than\s+(?:the\s+|your\s+|what\s+)?({_NUM})",
    re.IGNORECASE,
)


def _compared(sentence: str, h: HardFact) -> Derivation | None:
    """A difference of two amounts the sentence compares, with ``h`` as the difference."""
    for m in _VERSUS.finditer(sentence):
        a, b, c = _num(m.group(1)), _num(m.group(2)), _num(m.group(3))
        if a is None or b is None or c is None or h.number is None:
            continue
        if abs(c - h.number) > TOLERANCE:
            continue
        formula = f"{show_number(a)} vs. {show_number(b)} = {show_number(abs(a - b))}"
        return _as_written(formula, abs(a - b), c, (a, b))
    for m in _MORE_THAN.finditer(sentence):
        c, b = _num(m.group(2)), _num(m.group(3))
        if c is None or b is None or h.number is None or abs(c - h.number) > TOLERANCE:
            continue
        a = _num(m.group(1)) if m.group(1) else None
        if a is None:
            # the amount compared is no figure of the sentence: a line above must give it
            # (``terms``, which the caller finds backed or drops)
            cues = m.group(0).lower()
            a = b - c if any(w in cues for w in ("less", "lower", "cheaper", "below")) else b + c
            formula = f"{show_number(a)} − {show_number(b)} = {show_number(a - b)}"
            return Derivation("supported", formula, None, terms=(a, b), stated=False)
        formula = f"{show_number(a)} − {show_number(b)} = {show_number(abs(a - b))}"
        return _as_written(formula, abs(a - b), c, (a, b))
    return None


def _as_written(
    formula: str, result: float, claimed: float, terms: tuple[float, ...]
) -> Derivation:
    """Arithmetic as the sentence writes it: its result backs the claimed figure (with
    the terms, whose receipts back it too), or contradicts it with the right value."""
    if abs(result - claimed) <= TOLERANCE:
        return Derivation("supported", formula, None, terms=terms)
    return Derivation("contradicted", f"{formula}, not {show_number(claimed)}", None)


def written_arithmetic(sentence: str, h: HardFact) -> Derivation | None:
    """``A op B = C`` in the sentence, with ``h`` as C, ``C (A + B)``, or a difference
    of amounts compared (``A vs. B = C``, ``A is C more than B``): right or wrong as
    written."""
    if (compared := _compared(sentence, h)) is not None:
        return compared
    for m in _RESULT_TERMS.finditer(sentence):
        c, result = _num(m.group(1)), _terms_total(m.group(2))
        if c is None or result is None or h.number is None or abs(c - h.number) > TOLERANCE:
            continue
        formula = f"{' '.join(m.group(2).split())} = {show_number(result)}"
        terms = tuple(x for _, num in _TERM.findall(m.group(2)) if (x := _num(num)) is not None)
        return _as_written(formula, result, c, terms)
    for m in _ARITHMETIC.finditer(sentence):
        c = _num(m.group(4))
        if c is None or h.number is None or abs(c - h.number) > TOLERANCE:
            continue
        a, b = _num(m.group(1)), _num(m.group(3))
        if a is None or b is None:
            continue
        op = m.group(2)
        result = {
            "+": a + b,
            "-": a - b,
            "−": a - b,
            "–": a - b,
            "×": a * b,
            "x": a * b,
            "*": a * b,
            "/": a / b if b else float("nan"),
        }[op]
        formula = f"{show_number(a)} {op} {show_number(b)} = {show_number(result)}"
        return _as_written(formula, result, c, (a, b))
    return None
