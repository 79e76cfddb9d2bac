"""Arithmetic a sentence writes out: "$217.06 - $200.80 = $16.26", "$199 ($100 + $99)".

Checked as written: right, it backs its result (with the terms, so that the receipts
behind them back it too); wrong, it contradicts it with the right value.
"""

from __future__ import annotations

import re

from receiptgate.checks.operands import TOLERANCE, Derivation, show_number
from receiptgate.claims.models import HardFact


def _num(text: str) -> float | None:
    cleaned = re.sub(r"[^\d.\-]", "", text.replace("−", "-").replace("–", "-"))
    try:
        return float(cleaned)
    except ValueError:
        return None


_NUM = r"[$€£]?\s?-?\d[\d,]*(?:\.\d+)?"
#: What a count counts, after it: "$50 × 4 passengers", "2 nights × $120".
_UNIT_TEXT = r"(?<=\d)\s+(?!(?:less|plus|minus|was|is|has|this|its)\b)[a-z]{3,14}s\b"
_UNIT = re.compile(_UNIT_TEXT)
#: "$199 ($100 + $99)": a result with its terms after it, in parentheses.
_RESULT_TERMS = re.compile(
    rf"({_NUM})\s*\(\s*((?:{_NUM}\s*[+\-−–]\s*)+{_NUM}|"
    rf"{_NUM}(?:{_UNIT_TEXT})?\s*[×x*]\s*{_NUM}(?:{_UNIT_TEXT})?)\s*\)"
)

#: A label in brackets after an operand ("(HAT028)", "(business)"): two letters in a row.
_LABEL_TEXT = r"\((?=[^()]*[^\W\d_]{2})[^()=]{1,30}\)"
#: A label in words before an operand ("+ Gift cards $198"): one to three words of two
#: letters or more (a lone "x" is a times sign).
_WORDS_TEXT = r"(?:[A-Za-z]{2,}\s+){1,3}"
#: One operand of a written equation: a figure, perhaps bold, perhaps with a short label
#: before it in words ("Gift cards $198") or after it in brackets ("$274 (HAT028)"),
#: perhaps opening or closing a bracket.
_OPERAND = (
    rf"(?:\(\s*)*(?:{_WORDS_TEXT}(?=[$€£]))?[*_]*{_NUM}(?:{_UNIT_TEXT})?[*_]*"
    rf"(?:\s*{_LABEL_TEXT})?(?:\s*\))*"
)
#: The left side of a step of a calculation, whatever it equals ("(a - b) + c = d + e"):
#: two to six operands.
_CALCULATION = rf"(?<![\d.,])({_OPERAND}(?:\s*[+\-−–×x*/÷]\s*{_OPERAND}){{1,5}})\s*="
#: "$364 + $248 + $259 = $871", "$2,613 - $500 - $327 = $1,786", "($639 – $241) × 2 =
#: **$796**", "$1,786 ÷ 3 = $595.33": a calculation, then its result.
_EQUATION = re.compile(
    # a dash before the result takes it off what comes before ("$500 + $198 = –$698")
    rf"{_CALCULATION}\s*[*_]*\s*(?P<dash>[-−–](?=\s?[$€£]))?(?P<result>{_NUM})"
    # the whole of what it equals: "= $12.85 + $40.20 = $53.05" is a step, not a result
    r"(?![\d,]|\.\d)(?![*_]*\s*[+\-−–×x*/÷]\s*[$€£(\d])"
)
_STEP = re.compile(_CALCULATION)
#: A label in brackets after an operand, or in words before it: no part of the arithmetic.
_LABEL = re.compile(rf"{_LABEL_TEXT}|{_WORDS_TEXT}(?=[$€£])")
_OPERAND_TOKEN = re.compile(rf"\s*(?:({_NUM})|(\())")
_OPERATOR_TOKEN = re.compile(r"\s*(?:([+\-−–×x*/÷])|(\)))")
_PRECEDENCE = {"+": 1, "-": 1, "×": 2, "/": 2}


def writes_arithmetic(sentence: str) -> bool:
    """Whether the sentence writes out a calculation with its result ("$338 + $378 =
    $716")."""
    return "=" in sentence and _EQUATION.search(sentence) is not None


def is_operand(sentence: str, at: int) -> bool:
    """Whether the figure at offset ``at`` of the sentence is a term of a calculation it
    writes out ("$274 (HAT028) + $365 (HAT277) = $639", or in words with its result:
    "you'll receive €126.65, the €149.00 you paid less the €22.35 fee"): terms are
    gathered from several records, so none of them is a value of the record the sentence
    is about."""
    if "=" in sentence and any(m.start(1) <= at < m.end(1) for m in _STEP.finditer(sentence)):
        return True
    return _worded_term(sentence, at)


#: "€149.00 you paid, less the 15% restocking fee of €22.35", "$300 minus $45": two
#: amounts and the operation between them in words.
_WORDED = re.compile(
    rf"({_NUM})[^$€£\d=.;]{{0,40}}?\b(less|minus|plus)\b(?:[^$€£\d=;]|\d+(?:\.\d+)?\s?%){{0,50}}?"
    rf"({_NUM})(?![\d.,]*\s?%)",
    re.IGNORECASE,
)
_FIGURE = re.compile(_NUM)


def _worded_term(sentence: str, at: int) -> bool:
    """Whether the figure at ``at`` is a term of an operation in words whose result the
    sentence also gives (another of its figures)."""
    for m in _WORDED.finditer(sentence):
        if not (m.start(1) <= at < m.end(1) or m.start(3) <= at < m.end(3)):
            continue
        a, c = _num(m.group(1)), _num(m.group(3))
        if a is None or c is None:
            continue
        result = a + c if m.group(2).lower() == "plus" else a - c
        for f in _FIGURE.finditer(sentence):
            if m.start(1) <= f.start() < m.end(3):
                continue
            x = _num(f.group())
            if x is not None and abs(x - result) <= TOLERANCE:
                return True
    return False


_PAIR = re.compile(rf"({_NUM})\s*([+\-−–×x*/÷])\s*({_NUM})")


def worked_out_before(sentence: str, at: int, x: float) -> Derivation | None:
    """A term of a calculation that an operation written before it in the sentence gives
    ("(166-65 + 126-83) × 2 = (101 + 43) × 2": the 101 is 166-65): derived, with the
    operation's terms (whose receipts back it)."""
    for m in _PAIR.finditer(sentence, 0, at):
        evaluated = _evaluate(m.group())
        if evaluated is None:
            continue
        result, terms, shown = evaluated
        if abs(result - x) <= TOLERANCE:
            return Derivation("supported", f"{shown} = {show_number(result)}", None, terms=terms)
    return None


def _evaluate(expr: str) -> tuple[float, tuple[float, ...], str] | None:
    """The value of a written expression (``+ - × ÷`` and brackets, the usual order), its
    figures and the expression as a formula shows it; ``None`` when it does not read as
    one."""
    expr = expr.replace("**", "  ").replace("__", "  ")  # bold marks
    expr = _UNIT.sub(lambda m: " " * len(m.group()), expr)  # "4 passengers": the 4
    values: list[float] = []
    ops: list[str] = []
    terms: list[float] = []
    shown: list[str] = []
    expect_operand = True

    def apply() -> bool:
        if len(values) < 2:
            return False
        b, a = values.pop(), values.pop()
        op = ops.pop()
        if op == "/":
            if b == 0:
                return False
            values.append(a / b)
        else:
            values.append({"+": a + b, "-": a - b, "×": a * b}[op])
        return True

    pos = 0
    while pos < len(expr):
        if expr[pos:].strip() == "":
            break
        if expect_operand:
            m = _OPERAND_TOKEN.match(expr, pos)
            if m is None:
                return None
            pos = m.end()
            number = m.group(1)
            if number is None:
                ops.append("(")
                shown.append("(")
                continue
            x = _num(number)
            if x is None:
                return None
            values.append(x)
            terms.append(x)
            shown.append(show_number(x))
            expect_operand = False
            continue
        m = _OPERATOR_TOKEN.match(expr, pos)
        if m is None:
            return None
        pos = m.end()
        op = m.group(1)
        if op is None:  # a closing bracket
            shown.append(")")
            while ops and ops[-1] != "(":
                if not apply():
                    return None
            if not ops:
                return None
            ops.pop()
            continue
        shown.append(f" {op} ")
        op = {"−": "-", "–": "-", "x": "×", "*": "×", "÷": "/"}.get(op, op)
        while ops and ops[-1] != "(" and _PRECEDENCE[ops[-1]] >= _PRECEDENCE[op]:
            if not apply():
                return None
        ops.append(op)
        expect_operand = True
    if expect_operand:
        return None
    while ops:
        if ops[-1] == "(" or not apply():
            return None
    if len(values) != 1 or len(terms) < 2:
        return None
    return values[0], tuple(terms), "".join(shown)


#: "$350 business fare vs. $122 originally paid = $228": a difference written out.
_VERSUS = re.compile(
    rf"({_NUM})[^=$€£\d]{{0,40}}?\b(?:vs\.?|versus|compared\s+(?:with|to))[^=$€£\d]{{0,40}}?"
    rf"({_NUM})[^=$€£\d]{{0,40}}?=[\s*_]*({_NUM})",
    re.IGNORECASE,
)
#: "$1,166.98 is $216.98 more than the $950", "is **$216.98** more than the $950": a
#: difference with one term (group 1) or without it (then it must be a figure above).
_MORE_THAN = re.compile(
    rf"(?:({_NUM})[\s*_]*(?:,\s*which\s+)?(?:is|are|was|were)[\s*_]+)?\b({_NUM})[\s*_]+(?:more|"
    rf"less|higher|lower|cheaper|greater|above|below)\s+than\s+(?:the\s+|your\s+|what\s+)?"
    # "than Dr. Rao's $185": whose it is, in a few words
    rf"(?:[A-Z][\w.]*(?:\s+[A-Z][\w.]*)?[’']s\s+(?:\w+\s+)?)?({_NUM})",
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
        hi, lo = max(a, b), min(a, b)
        formula = f"{show_number(hi)} − {show_number(lo)} = {show_number(hi - lo)}"
        return _as_written(formula, hi - lo, c, (a, b))
    return None


def _as_written(
    formula: str, result: float, claimed: float, terms: tuple[float, ...]
) -> Derivation:
    """Arithmetic as the sentence writes it: its result backs the claimed figure (with
    the terms, whose receipts back it too), or contradicts it with the right value."""
    if abs(result - claimed) <= TOLERANCE:
        return Derivation("supported", formula, None, terms=terms)
    return Derivation("contradicted", f"{formula}, not {show_number(claimed)}", None)


#: "269 kWh (24,342 to 24,611)": a figure, then the two it is the gap between.
_GAP_OF = re.compile(
    rf"({_NUM})(?:\s+[A-Za-z]{{1,6}})?\s*\(\s*(?:from\s+)?({_NUM})(?:\s*[A-Za-z]{{1,6}})?"
    rf"\s+(?:to|→)\s+({_NUM})(?:\s*[A-Za-z]{{1,6}})?\s*\)"
)


def written_arithmetic(sentence: str, h: HardFact) -> Derivation | None:
    """``A op B = C`` in the sentence, with ``h`` as C, ``C (A + B)``, or a difference
    of amounts compared (``A vs. B = C``, ``A is C more than B``): right or wrong as
    written."""
    if (compared := _compared(sentence, h)) is not None:
        return compared
    for m in _GAP_OF.finditer(sentence):
        c, a, b = _num(m.group(1)), _num(m.group(2)), _num(m.group(3))
        if a is None or b is None or c is None or h.number is None:
            continue
        if abs(c - h.number) <= TOLERANCE:
            formula = f"{show_number(max(a, b))} − {show_number(min(a, b))}"
            return _as_written(f"{formula} = {show_number(abs(b - a))}", abs(b - a), c, (a, b))
    for m in _RESULT_TERMS.finditer(sentence):
        c, evaluated = _num(m.group(1)), _evaluate(m.group(2))
        if c is None or evaluated is None or h.number is None or abs(c - h.number) > TOLERANCE:
            continue
        result, terms, _ = evaluated
        formula = f"{' '.join(m.group(2).split())} = {show_number(result)}"
        return _as_written(formula, result, c, terms)
    for m in _EQUATION.finditer(sentence):
        c = _num(m.group("result"))
        if c is None or h.number is None or abs(c - h.number) > TOLERANCE:
            continue
        expr = _LABEL.sub(" ", m.group(1))
        evaluated = _evaluate(expr)
        if evaluated is None:
            continue
        result, terms, shown = evaluated
        if m.group("dash") and abs(result + c) <= TOLERANCE:
            # "$396 - $510 = -$114": a dash before the result is its sign, as much as the
            # mark of an amount taken off ("... = –$827")
            c = -c
        formula = f"{shown} = {show_number(result)}"
        return _as_written(formula, result, c, terms)
    return None
