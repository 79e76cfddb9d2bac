"""Derived figures: a total, a difference, a refund, a balance, a share, computed from
figures the records hold.

A claimed figure that no record holds is tried as the result of one operation on
at most three values of the same kind (money with money in one currency, counts
with counts) taken from the records the sentence is about — else from the newest
results: a sum of two or three, a difference, a count times a value, a percentage
of a value, or the sum of one field over the rows of a list (an order's item
prices). A match supports the sentence with its formula as the evidence:
``$412.50 = 2 × 206.25 (call_4 items[1].price)``.

Written-out arithmetic ("$217.06 - $200.80 = $16.26") is checked as written; a
sentence that names the operation ("total", "difference", "remaining", "refund",
"each", "per person") of values it also names, with another result, is a
contradiction whose detail gives the right value.

The search is bounded: at most ``MAX_OPERANDS`` values, each kind of operation
costing one pass or one pass per pair over them.
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
#: Of those, the nearest that may form a sum of three.
_TRIPLE_SPAN = 12
_RATE_WORDS = frozenset("percent pct percentage rate discount off tax fee".split())
_TOLERANCE = 0.011
_ARITHMETIC = re.compile(
    r"([$€£]?\s?-?[\d,]+(?:\.\d+)?)\s*(?:\([^)]{0,20}\)\s*)?([+\-−–×x*/])\s*"
    r"([$€£]?\s?-?[\d,]+(?:\.\d+)?)\s*(?:\([^)]{0,20}\)\s*)?=\s*([$€£]?\s?-?[\d,]+(?:\.\d+)?)"
)
_NAMES_TOTAL = re.compile(r"\b(?:total|sum|altogether|in\s+all)\b", re.IGNORECASE)
_NAMES_DIFFERENCE = re.compile(
    r"\b(?:difference|remaining|left|balance|refund(?:ed|s)?|less|minus|save[sd]?|saving|savings|"
    r"off|cheaper|lower|reduc\w*|more|additional|extra|change[sd]?|credit(?:ed)?|back|"
    r"deduct\w*|after)\b",
    re.IGNORECASE,
)
_NAMES_OPERATION = re.compile(
    r"\b(?:total|sum|difference|remaining|left|balance|refund|each|per\s+(?:person|item|night|"
    r"passenger)|combined|altogether|in\s+all|subtotal|discount|save|saving|savings|off|"
    r"add(?:s|ed)?\s+up|together|both|plus|c(?:o|a)me\s+to|comes\s+to)\b"
    r"|\d\s?%",
    re.IGNORECASE,
)


_COUNT_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "both": 2, "twice": 2, "double": 2, "triple": 3,
}  # fmt: skip
_COUNT_IN_TEXT = re.compile(
    r"(?<![\d.,$€£])\d(?![\d.,:%])|\b(?:" + "|".join(_COUNT_WORDS) + r")\b", re.IGNORECASE
)


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


def written_arithmetic(sentence: str, h: HardFact) -> Derivation | None:
    """``A op B = C`` in the sentence, with ``h`` as C, or ``C (A + B)``: right or wrong
    as written."""
    for m in _RESULT_TERMS.finditer(sentence):
        c, result = _num(m.group(1)), _terms_total(m.group(2))
        if c is None or result is None or h.number is None or abs(c - h.number) > _TOLERANCE:
            continue
        formula = f"{' '.join(m.group(2).split())} = {_show(result)}"
        if abs(result - c) <= _TOLERANCE:
            terms = tuple(x for _, num in _TERM.findall(m.group(2)) if (x := _num(num)) is not None)
            return Derivation("supported", formula, None, terms=terms)
        return Derivation("contradicted", f"{formula}, not {_show(c)}", None)
    for m in _ARITHMETIC.finditer(sentence):
        c = _num(m.group(4))
        if c is None or h.number is None or abs(c - h.number) > _TOLERANCE:
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
        formula = f"{_show(a)} {op} {_show(b)} = {_show(result)}"
        if abs(result - c) <= _TOLERANCE:
            return Derivation("supported", formula, None, terms=(a, b))
        return Derivation("contradicted", f"{formula}, not {_show(c)}", None)
    return None


def _show(x: float) -> str:
    return f"{x:,.2f}".rstrip("0").rstrip(".") if not float(x).is_integer() else f"{int(x):,}"


def operands(
    index: ReceiptIndex,
    h: HardFact,
    records: Sequence[Record],
    fresh: Callable[[Receipt], bool],
    *,
    wide: bool = True,
    restated: Sequence[Leaf] = (),
) -> list[Operand]:
    """The values of ``h``'s kind to compute with: the anchored records' first, then
    (``wide``) the newest results', nearest first, at most ``MAX_OPERANDS``."""
    out: list[Operand] = []
    seen: set[int] = set()

    def take(leaves: Iterable[Leaf], anchored: bool = False) -> None:
        # numeric leaves only: "6259501109" under an id key is an item's name, not an amount
        for leaf in leaves:
            if len(out) >= MAX_OPERANDS:
                return
            if id(leaf) in seen or not _same_kind(h, leaf) or not fresh(index.receipt_of(leaf)):
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


def _same_kind(h: HardFact, leaf: Leaf) -> bool:
    v = leaf.value
    if h.kind == "money":
        if v.kind == "percent":
            return True  # a rate: "20% of $150.25"
        if v.kind == "number" and leaf.path != "text":
            # a field that is no amount ("size": 12) is not added to prices; a rate
            # ("discount": 20) is taken of them
            return bool(set(leaf.words) & _RATE_WORDS)
        return v.kind in ("money", "number") and (v.unit is None or h.unit in (None, v.unit))
    if h.kind in ("count", "number"):
        return v.kind in ("count", "number")
    if h.kind == "percent":
        return v.kind in ("percent", "number")
    return False


def derive(
    index: ReceiptIndex,
    h: HardFact,
    records: Sequence[Record],
    fresh: Callable[[Receipt], bool],
    sentence: str,
    anchored: bool = True,
    restated: Sequence[Leaf] = (),
    computed: Sequence[tuple[str, float, Finding]] = (),
) -> Derivation | None:
    """A formula over the records that gives ``h`` (see the module doc), or ``None``.

    ``restated``: the values that backed the reply's earlier figures (the lines a
    "Total: $1,000" adds up); ``computed``: the figures earlier lines derived, as (kind,
    number, what backed it), operands of a sentence that names an operation.
    ``anchored``: the sentence names the records it is about (or sits under them). A
    sentence that names no operation ("Price: $116") may only be a value of those
    records combined within one field; without an operation word or such an anchor,
    some pair among the dozens of fares of a search result gives almost any figure.
    """
    if h.number is None or h.kind not in ("money", "count", "number", "percent"):
        return None
    written = written_arithmetic(sentence, h)
    if written is not None:
        return written
    target = h.number
    operation = bool(_NAMES_OPERATION.search(sentence) or _NAMES_DIFFERENCE.search(sentence))
    if not operation and not (anchored and records):
        # "Gift cards: $327": the rows of a kind the label names, wherever they are
        plural = _PLURAL_LABEL.match(sentence) is not None
        return _kind_total(index, h, target, sentence, fresh) if plural else None
    ops = operands(index, h, records, fresh, wide=operation, restated=restated)
    if operation:
        # what the reply's earlier lines computed ("Total Cost: $216"): the operand of
        # "the difference of $2571 will be refunded"
        ops[:0] = [
            Operand(x, None, _show(x), anchored=True, origin=f)
            for kind, x, f in computed
            if kind == h.kind
        ]
        # and the amounts of the rows of a kind the sentence names, however old the
        # result: "$125 remaining on the certificate" after paying $375 of its $500
        seen = {id(o.leaf) for o in ops if o.leaf is not None}
        ops.extend(o for o in _named_rows(index, h, sentence, fresh) if id(o.leaf) not in seen)
    if not ops:
        return None
    # "costs $249 in total" is a sum: a difference of two fares that happens to give it
    # is no support (with many fares in a search result, some pair always does)
    subtract = not _NAMES_TOTAL.search(sentence) or _NAMES_DIFFERENCE.search(sentence) is not None
    found = _search(
        ops,
        target,
        _multipliers(sentence, h, records),
        money=h.kind == "money" and operation,
        subtract=subtract,
    )
    if found is not None:
        return found
    if _NAMES_TOTAL.search(sentence) or _PLURAL_LABEL.match(sentence):
        # "Total from certificates: $1,000", "Gift cards: $327"
        found = _category_total(ops, target, sentence) or _kind_total(
            index, h, target, sentence, fresh
        )
        if found is not None:
            return found
    if operation:
        # a list's total in an older result, past the operands the search could hold
        total = _list_total(index, h, target, fresh)
        if total is not None:
            return total
    return _wrong_total(ops, target, records, sentence)


#: The newest results holding a list whose rows a total may add up.
_LIST_RESULTS = 6


def _list_total(
    index: ReceiptIndex, h: HardFact, target: float, fresh: Callable[[Receipt], bool]
) -> Derivation | None:
    """The sum of one field over the rows of a list in one of the newest results that
    hold a list ("Original total price: $686" over a reservation's four flights; a
    calculator's answers since then are no lists and count for nothing here)."""
    looked = 0
    for entry in reversed(index.entries):
        lists = [rec for rec in entry.records if len(rec.children) >= 2]
        if not lists:
            continue
        looked += 1
        if looked > _LIST_RESULTS:
            break
        if not fresh(entry.receipt):
            continue
        for rec in lists:
            groups: dict[str, list[Leaf]] = {}
            for child in rec.children:
                for leaf in child.numeric_leaves():
                    groups.setdefault(_row_field(leaf), []).append(leaf)
            for leaves in groups.values():
                if len(leaves) < 2 or not _same_kind(h, leaves[0]):
                    continue
                values = [x.value.number or 0.0 for x in leaves]
                if abs(sum(values) - target) <= _TOLERANCE:
                    return _summed(target, values, leaves[0])
    return None


def _is_rate(o: Operand) -> bool:
    """A percentage to take of an amount: a percent value, or a number in a field named
    like one ("discount": 20); never an amount of money ("amount": 100)."""
    if o.leaf is None or not 0 < o.value <= 100:
        return False
    v = o.leaf.value
    return v.kind == "percent" or (v.kind == "number" and bool(set(o.leaf.words) & _RATE_WORDS))


def _multipliers(sentence: str, h: HardFact, records: Sequence[Record]) -> frozenset[int]:
    """The counts a value may be multiplied by: those the sentence states ("2 nights",
    "both", "each of the three items") and the anchored records' count fields
    ("quantity": 3). A bare multiple of some value ("net 60" beside "net 30") is a
    coincidence, not a derivation."""
    out: set[int] = set()
    for m in _COUNT_IN_TEXT.finditer(sentence):
        word = m.group(0).lower()
        n = _COUNT_WORDS.get(word) if not word.isdigit() else int(word)
        if n is not None and 2 <= n < 10 and n != h.number:
            out.add(n)
    for rec in records:
        for r in rec.subtree():
            for leaf in r.leaves:
                v = leaf.value
                if v.kind == "count" and v.number is not None and 2 <= v.number < 10:
                    out.add(int(v.number))
    if _PER.search(sentence):
        # "$50 per passenger" times the passengers of the reservation it is about
        for rec in records:
            for r in rec.lineage():
                lists: dict[str, int] = {}
                for child in r.children:
                    name = _ROW_INDEX.sub("", child.path)
                    lists[name] = lists.get(name, 0) + 1
                out.update(n for n in lists.values() if 2 <= n < 10)
    return frozenset(out)


#: A sentence about a per-head amount or a total over heads.
_PER = re.compile(r"\b(?:per|each|every|total|all|both)\b", re.IGNORECASE)


def _search(
    ops: list[Operand],
    target: float,
    multipliers: frozenset[int],
    *,
    money: bool = True,
    subtract: bool = True,
) -> Derivation | None:
    """A formula over ``ops`` that gives ``target``. Amounts of money combine across fields
    (a balance less a payment); other figures only within one field (two rows' counts):
    "12 replicas" is no sum of a deployment's available and up-to-date replicas."""
    rates = [o for o in ops if _is_rate(o)]
    if len(rates) < len(ops):
        ops = [o for o in ops if o not in rates]  # amounts are summed; rates are taken of them
    by_value: dict[float, list[Operand]] = {}
    for o in ops:
        by_value.setdefault(round(o.value, 2), []).append(o)
    # the field of each operand (None: no leaf, never one field with another)
    keys = [o.leaf.key if o.leaf is not None else None for o in ops]
    near = {id(o): i for i, o in enumerate(ops[:_TRIPLE_SPAN])}

    def find(x: float, *besides: Operand) -> Operand | None:
        """An operand of value ``x`` that is none of ``besides`` (two certificates of 500
        sum to 1,000)."""
        return next(
            (o for o in by_value.get(round(x, 2), ()) if all(o is not b for b in besides)),
            None,
        )

    # The sum of one field over a list's rows (an order's item prices).
    sums = _list_sums(ops)
    for total, parts in sums:
        if abs(total - target) <= _TOLERANCE and len(parts) >= 2:
            return _summed(target, [p.value for p in parts], parts[0].leaf)
    # What is left of an amount after such a sum: "you will have $201 remaining" on a
    # certificate of 500 after fares of 158 + 141.
    for total, parts in sums if subtract and money else ():
        b = find(total + target, *parts)
        if (
            b is not None
            and len(parts) <= 3
            and not _options(b, parts[0])
            and all(p.value > 0 for p in parts)
            # not the same field in a newer copy of the record ("522 − (522 + -114)")
            and all(b.leaf is None or p.leaf is None or p.leaf.path != b.leaf.path for p in parts)
        ):
            terms = " + ".join(_show(p.value) for p in parts)
            return _ok(target, f"{_show(b.value)} − ({terms})", b, *parts)
    for a in ops:
        # a figure a line above gave ("$50 per passenger"), times a count, before any sum
        # with it (which some value of the records would give by chance)
        for n in multipliers if a.leaf is None else ():
            if abs(a.value * n - target) <= _TOLERANCE:
                return _ok(target, f"{n} × {_show(a.value)}", a)
    for i, a in enumerate(ops):
        b = find(target - a.value, a)
        if b is not None and (money or _one_field(a, b)) and _addends(a, b):
            return _ok(target, f"{_show(a.value)} + {_show(b.value)}", a, b)
        b = find(a.value - target, a) if subtract else None
        if b is not None and a.value > target and (money or _one_field(a, b)):
            return _ok(target, f"{_show(a.value)} − {_show(b.value)}", a, b)
        for n in multipliers:
            if abs(a.value * n - target) <= _TOLERANCE:
                return _ok(target, f"{n} × {_show(a.value)}", a)
        key = keys[i]
        if i >= _TRIPLE_SPAN or key is None:
            continue
        for j in range(i + 1, min(len(ops), i + 1 + _TRIPLE_SPAN)):
            # Three operands only among the nearest values (the anchored records'), of one
            # field (three items' prices): a wider search would find some sum for almost
            # any figure ("12 replicas = 6 up-to-date + 3 available + 3 up-to-date").
            if keys[j] != key:
                continue
            b = ops[j]
            c = find(target - a.value - b.value, a, b)
            if c is not None and id(c) in near and _one_field(a, c):
                terms = f"{_show(a.value)} + {_show(b.value)} + {_show(c.value)}"
                return _ok(target, terms, a, b, c)
    for a in ops[:_TRIPLE_SPAN]:
        for rate in rates:
            if rate is not a and abs(a.value * rate.value / 100 - target) <= _TOLERANCE:
                return _ok(target, f"{_show(rate.value)}% of {_show(a.value)}", rate, a)
    return None


def _addends(a: Operand, b: Operand) -> bool:
    """Whether two amounts may be parts of one sum: values of one field (two segments'
    fares), of one record (a fare and its fee), or of the records the sentence is about;
    never two alternatives of one group (see :func:`_options`). A fare of one search
    row plus a price of another record is a coincidence."""
    if _options(a, b):
        return False
    if a.leaf is None or b.leaf is None:
        return True
    return a.leaf.key == b.leaf.key or a.leaf.record is b.leaf.record or (a.anchored and b.anchored)


def _options(a: Operand, b: Operand) -> bool:
    """Two fields of one group of alternatives ("prices": {"basic_economy": 52,
    "business": 239}): one fare or the other, never parts of one sum."""
    if a.leaf is None or b.leaf is None or a.leaf.key == b.leaf.key:
        return False
    return _group(a.leaf.path) == _group(b.leaf.path) != ""


def _group(path: str) -> str:
    """The name of the object a leaf sits in ("[0][1].prices.economy" -> "prices")."""
    parts = re.findall(r"[A-Za-z_][\w-]*", path)
    return parts[-2] if len(parts) >= 2 else ""


def _one_field(a: Operand, b: Operand) -> bool:
    return a.leaf is not None and b.leaf is not None and a.leaf.key == b.leaf.key


def _ok(target: float, expression: str, *parts: Operand) -> Derivation:
    where = ", ".join(_where(p) for p in parts)
    return Derivation(
        "supported",
        f"{_show(target)} = {expression} ({where})",
        next((p.leaf for p in parts if p.leaf is not None), None),
        next((p.origin for p in parts if p.origin is not None), None),
    )


def _where(p: Operand) -> str:
    return p.leaf.path if p.leaf is not None else "a line above"


_ROW_INDEX = re.compile(r"\[\d+\]")


def _row_field(leaf: Leaf) -> str:
    """A field of any row of its list: ``items[1].price`` -> ``items[*].price``; of an
    object keyed by its rows' ids too (``payment_methods.gift_card_1.amount``)."""
    ids = leaf.record.ids
    path = _ROW_INDEX.sub("[*]", leaf.path)
    parts = ["[*]" if part.lower() in ids else part for part in path.split(".")]
    return ".".join(parts)


def _summed(target: float, values: Sequence[float], leaf: Leaf | None) -> Derivation:
    """``target`` as the sum of the values of one field over a list's rows."""
    terms = " + ".join(_show(v) for v in values[:6])
    more = " + …" if len(values) > 6 else ""
    return Derivation("supported", f"{_show(target)} = {terms}{more}", leaf)


def _list_sums(ops: list[Operand]) -> list[tuple[float, list[Operand]]]:
    """Per field over sibling rows (``items[*].price``): the sum and its terms."""
    groups: dict[tuple[int, str], list[Operand]] = {}
    for o in ops:
        leaf = o.leaf
        if leaf is None or leaf.record.parent is None:
            continue
        key = (id(leaf.record.parent), _row_field(leaf))
        groups.setdefault(key, []).append(o)
    return [(sum(o.value for o in parts), parts) for parts in groups.values() if len(parts) > 1]


#: A label in the plural ("**Gift Cards:** $327"): a total over rows of that kind.
_PLURAL_LABEL = re.compile(r"^[\s*_-]*(?:[A-Za-z]+\s+){0,2}[A-Za-z]+s[*_\s]*:")


def _category_total(ops: list[Operand], target: float, sentence: str) -> Derivation | None:
    """The sum of one field over the rows of a list that the sentence names by a value
    they share: "Total from certificates: $1,000" over the payment methods whose
    ``source`` is ``certificate``."""
    low = sentence.lower()
    for _, parts in _list_sums(ops):
        by_kind: dict[str, list[Operand]] = {}
        for o in parts:
            assert o.leaf is not None
            for leaf in o.leaf.record.leaves:
                if leaf.value.kind == "word" and leaf is not o.leaf:
                    by_kind.setdefault(leaf.value.keys[-1][2:], []).append(o)
        for kind, rows in by_kind.items():
            if len(rows) < 2 or len(rows) == len(parts) or not _names_kind(low, kind):
                continue
            if abs(sum(o.value for o in rows) - target) <= _TOLERANCE:
                return _summed(target, [o.value for o in rows], rows[0].leaf)
    return None


def _kind_total(
    index: ReceiptIndex,
    h: HardFact,
    target: float,
    sentence: str,
    fresh: Callable[[Receipt], bool],
) -> Derivation | None:
    """:func:`_category_total` over the lists of every result (the customer's payment
    methods, read long before the reply), newest first."""
    for entry in reversed(index.entries):
        if not fresh(entry.receipt):
            continue
        for rec in entry.records:
            if len(rec.children) < 2:
                continue
            ops = [
                Operand(leaf.value.number or 0.0, leaf, leaf.value.shown)
                for child in rec.children
                for leaf in child.numeric_leaves()
                if _same_kind(h, leaf)
            ]
            found = _category_total(ops, target, sentence)
            if found is not None:
                return found
    return None


#: Rows of a named kind taken as operands at most.
_NAMED_ROWS = 8


def _named_rows(
    index: ReceiptIndex, h: HardFact, sentence: str, fresh: Callable[[Receipt], bool]
) -> list[Operand]:
    """The amounts of the list rows whose kind the sentence names (a payment method whose
    ``source`` is ``certificate``), newest result first."""
    low = sentence.lower()
    out: list[Operand] = []
    for entry in reversed(index.entries):
        if not fresh(entry.receipt):
            continue
        for rec in entry.records:
            for row in rec.children:
                kinds = [
                    leaf.value.keys[-1][2:]
                    for leaf in row.leaves
                    if leaf.value.kind == "word" and leaf.value.keys[-1].startswith("w:")
                ]
                if not any(_names_kind(low, k) for k in kinds):
                    continue
                out.extend(
                    Operand(leaf.value.number or 0.0, leaf, leaf.value.shown, anchored=True)
                    for leaf in row.numeric_leaves()
                    if _same_kind(h, leaf)
                )
                if len(out) >= _NAMED_ROWS:
                    return out
    return out


def _names_kind(low: str, kind: str) -> bool:
    """Whether a sentence names a kind of row, in the singular or plural ("gift cards")."""
    return re.search(rf"\b{re.escape(kind)}(?:s|es)?\b", low) is not None


#: "total compensation", "total price": what a total is of (the word after it).
_TOTAL_OF = re.compile(r"\btotal\s+([a-z]+)", re.IGNORECASE)
#: What a list's amounts add up to (a word after "total" that is not one of these names
#: something else).
_SUMMED = frozenset(
    "price prices cost costs amount amounts fare fares charge charges charged paid payment "
    "payments due spend spent bill order purchase sum value of for is was comes came "
    "refund refunds credit "
    "will would".split()
)


def _wrong_total(
    ops: list[Operand], target: float, records: Sequence[Record], sentence: str
) -> Derivation | None:
    """A sentence that names a total of an anchored list, with another result."""
    if not records or not _NAMES_TOTAL.search(sentence):
        return None
    what = _TOTAL_OF.search(sentence)
    if what is not None and what.group(1).lower() not in _SUMMED:
        return None  # "Total compensation: $150" is no sum of the flights' prices
    anchored = {id(r) for rec in records for r in rec.subtree()}
    sums = [
        (total, parts)
        for total, parts in _list_sums(ops)
        if parts[0].leaf is not None and id(parts[0].leaf.record) in anchored
    ]
    if len(sums) != 1:
        return None
    total, parts = sums[0]
    terms = " + ".join(_show(p.value) for p in parts[:6])
    return Derivation(
        "contradicted",
        f"{terms} = {_show(total)}, not {_show(target)}",
        parts[0].leaf,
    )


def names_operation(sentence: str) -> bool:
    return bool(_NAMES_OPERATION.search(sentence))
