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
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from receiptgate.checks.about import counted_unit, field_words, own_words
from receiptgate.checks.finding import Finding
from receiptgate.checks.heads import multiplier_counts, stated_counts
from receiptgate.checks.operands import (
    HEADS_COUNT,
    HEADS_NOUN,
    RATE_WORDS,
    TOLERANCE,
    Derivation,
    Operand,
    for_one_head,
    operands,
    show_number,
)
from receiptgate.checks.shares import share_of
from receiptgate.checks.totals import (
    NAMES_TOTAL,
    PLURAL_LABEL,
    category_total,
    keyed_total,
    kind_total,
    lines_total,
    list_sums,
    list_total,
    named_rows,
    summed,
    wrong_total,
)
from receiptgate.checks.words import content_words
from receiptgate.checks.written import writes_arithmetic, written_arithmetic
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import MEASURES, PENNIES, fact_keys

#: The longest output that is one figure (a calculator's "-2580.0").
_BARE_OUTPUT = 24

#: Of those, the nearest that may form a sum of three.
_TRIPLE_SPAN = 12
_NAMES_DIFFERENCE = re.compile(
    r"\b(?:difference|remain(?:s|ing|der)?|left|balance|refund(?:ed|s)?|less|minus|save[sd]?|saving|savings|"
    r"off|cheaper|lower|reduc\w*|more|additional|extra|change[sd]?|credit(?:ed)?|back|"
    r"deduct\w*|after|pay|owe|net|unused|forfeit(?:ed|s)?|"
    # a change of one figure: "a rise of 0.62p", "up by 38 kWh", "jumped $37.21"
    r"rise|rose|risen|increase[sd]?|decrease[sd]?|drop(?:ped)?|higher|(?:up|down)(?=\s+(?:by\s+)?[$€£]?\d)|"
    r"went\s+(?:up|down)|jump(?:ed)?|fell|grew)\b",
    re.IGNORECASE,
)
_NAMES_OPERATION = re.compile(
    r"\b(?:total|sum|difference|remain(?:s|ing|der)?|left|balance|refund|each|per\s+(?:person|item|night|"
    r"passenger)|combined|altogether|in\s+all|subtotal|discount|save|saving|savings|off|"
    r"add(?:s|ed)?\s+up|together|both|plus|c(?:o|a)me\s+to|comes\s+to|round[-\s]trip|"
    r"both\s+ways)\b"
    r"|\d\s?%"
    # "**Air Purifier + canister vacuum:** $1,095.55": two things named, added
    r"|[A-Za-z)]\s+\+\s+[A-Za-z(]",
    re.IGNORECASE,
)


def derive(
    index: ReceiptIndex,
    h: HardFact,
    records: Sequence[Record],
    fresh: Callable[[Receipt], bool],
    sentence: str,
    anchored: bool = True,
    restated: Sequence[Leaf] = (),
    computed: Sequence[tuple[str, float, Finding]] = (),
    listed: bool = False,
    named: Sequence[Record] = (),
    lead: str = "",
) -> Derivation | None:
    """A formula over the records that gives ``h`` (see the module doc), or ``None``.

    ``restated``: the values that backed the reply's earlier figures (the lines a
    "Total: $1,000" adds up); ``computed``: the figures earlier lines derived, as (kind,
    number, what backed it), operands of a sentence that names an operation.
    ``named``: the records the reply names in its other sentences, operands of a sentence
    that names an operation.
    ``lead``: the heading or the line ending in ":" the sentence sits under; it may name
    the operation for the lines under it ("Price difference:" above "- You'll be charged
    $167.87").
    ``listed``: the sentence before named the records (two or more) this one is about:
    a figure with no operation word ("New fare $465.") may be the sum of one field over
    exactly those records, and nothing else.
    ``anchored``: the sentence names the records it is about (or sits under them). A
    sentence that names no operation ("Price: $116") may only be a value of those
    records combined within one field; without an operation word or such an anchor,
    some pair among the dozens of fares of a search result gives almost any figure.
    A sum said to be "for all three passengers" is weighed afterwards by :func:`one_head`
    (``pipeline/derived``).
    """
    if h.number is None or h.kind not in ("money", "count", "number", "percent", "duration"):
        return None
    if h.kind == "duration" and not any(k.startswith("dur:d:") for k in fact_keys(h)):
        return None  # (days only: see operands.same_kind)
    written = written_arithmetic(sentence, h)
    if written is not None:
        return written
    if h.kind == "percent" and (share := share_of(index, h, records, sentence)) is not None:
        return share
    target = h.number
    # a term of arithmetic the sentence writes out ("$605 - $503 = $102": the $605 is two
    # fares added) is an operation's result too; the written result is checked as written
    led = _named_by(lead)
    operation = bool(
        _NAMES_OPERATION.search(sentence)
        or _NAMES_DIFFERENCE.search(sentence)
        or led
        or writes_arithmetic(sentence)
        # "With 4 passengers, that would be a $200 certificate": a figure over heads
        or _OVER_HEADS.search(sentence)
    )
    if not operation and VALUE_LINE.match(sentence):
        # "**Economy fare:** $312" under the lines of two flights' fares: their sum
        found = lines_total(restated, h, target, latest=True)
        if found is not None:
            return found
    if not operation and listed and h.kind == "money":
        # "- 2FBBAH: HAT080, HAT076, HAT255, HAT148. New fare $465.": the fares of the
        # flights just listed, each once
        rows_named = [r for r in records if r.parent is not None]
        for fares, parts in list_sums(operands(index, h, rows_named, fresh, wide=False)):
            rows = {id(p.leaf.record) for p in parts if p.leaf is not None}
            parent = parts[0].leaf.record.parent if parts[0].leaf is not None else None
            listed_rows = {id(r) for r in rows_named if r.parent is parent}
            # each listed row once, and no other row
            same = len(rows) == len(parts) and rows == listed_rows
            if same and abs(fares - target) <= TOLERANCE:
                return summed(target, [p.value for p in parts], parts[0].leaf)
    if h.kind == "money" and h.unit not in PENNIES and _PER_UNIT.search(sentence) is not None:
        # "$25 a head", "$0.20 a minute": an amount over a count
        each = operands(index, h, records, fresh, wide=True, restated=restated, named=named)
        found = _per_unit(each, h, target, stated_counts(sentence, h), sentence)
        if found is not None:
            return found
    if not operation and not (anchored and records):
        # "Gift cards: $327": the rows of a kind the label names, wherever they are
        # ... or "You have $327 in gift cards": the figure's own words name the kind
        at = sentence.find(h.text)
        plural = PLURAL_LABEL.match(sentence) is not None or (
            at >= 0 and _IN_KIND.match(sentence, at + len(h.text)) is not None
        )
        return kind_total(index, h, target, sentence, fresh) if plural else None
    ops = operands(index, h, records, fresh, wide=operation, restated=restated, named=named)
    if operation:
        # what the reply's earlier lines computed ("Total Cost: $216"): the operand of
        # "the difference of $2571 will be refunded"
        ops[:0] = [
            Operand(x, None, show_number(x), anchored=True, origin=f)
            for kind, x, f in computed
            if kind == h.kind
        ]
        # and the amounts of the rows of a kind the sentence names, however old the
        # result: "$125 remaining on the certificate" after paying $375 of its $500
        seen = {id(o.leaf) for o in ops if o.leaf is not None}
        ops.extend(o for o in named_rows(index, h, sentence, fresh) if id(o.leaf) not in seen)
    # a count of things ("3 errors") from figures a tool printed among others (line and
    # column numbers, sizes, timings): two of them that happen to differ by the claim back
    # nothing; a calculator's answer (the whole output is the figure) is an operand
    ops = [
        o
        for o in ops
        if o.leaf is None
        or not (h.kind == "count" and h.unit)
        or o.leaf.path != "text"
        or index.receipt_of(o.leaf).kind != "tool"
        or len(index.receipt_of(o.leaf).content.strip()) <= _BARE_OUTPUT
    ]
    measured = bool(h.unit and h.unit.lower() in MEASURES)
    if measured and h.unit:
        # "6 GB" is made of figures in GB (a field named for the unit, "data_used_gb", or
        # a value written with it), not of the numbers of "Pixel 8 installment 14 of 24"
        ops = [
            o
            for o in ops
            if o.leaf is None
            or h.unit.lower() in o.leaf.words
            or h.unit.lower() in o.leaf.value.shown.lower()
        ]
    if h.unit not in MEASURES and (unit := counted_unit(index, h)):
        # "for 3 guests": a count of guests is made of counts of guests, not of the rooms
        # two search rows have left ("available": 3 and 0)
        ops = [o for o in ops if o.leaf is None or unit & field_words(o.leaf)]
    if not ops:
        return None
    # "costs $249 in total" is a sum: a difference of two fares that happens to give it
    # is no support (with many fares in a search result, some pair always does)
    subtract = not NAMES_TOTAL.search(sentence) or _NAMES_DIFFERENCE.search(sentence) is not None
    if _RATE.search(sentence) and not _NAMES_DIFFERENCE.search(sentence):
        # "travel insurance for $30 per passenger" is a share or a rate: two fares' gap
        # that happens to give it is no support either
        subtract = False
    found = _search(
        ops,
        target,
        multiplier_counts(sentence, h, records, index),
        # (days of leave combine across records as amounts do: a balance less a request)
        money=h.kind in ("money", "duration") and operation,
        subtract=subtract,
        back=_gives_back(sentence),
        # "$200 certificate" is no balance less two fares: what is left needs a word for it
        left=_NAMES_DIFFERENCE.search(sentence) is not None or led == "difference",
        measured=measured,
        spans=h.kind == "duration",
        amounts=h.kind == "money",
    )
    if found is not None:
        return found
    if NAMES_TOTAL.search(sentence) or PLURAL_LABEL.match(sentence):
        # "Total from certificates: $1,000", "Gift cards: $327"
        found = (
            category_total(ops, target, sentence)
            or kind_total(index, h, target, sentence, fresh)
            or lines_total(restated, h, target)
        )
        if found is not None:
            return found
    if operation:
        # a list's total in an older result, past the operands the search could hold, or
        # over the objects the sentence names ("your three plans add up to $125")
        total = list_total(index, h, target, fresh) or keyed_total(
            index, h, target, sentence, fresh
        )
        if total is not None:
            return total
    return wrong_total(ops, target, records, sentence, h.text)


#: What a heading or an introducing line says its lines are: "Price difference
#: (applied to your card):", "Refund breakdown:", "Totals for each choice:".
_LEAD_DIFFERENCE = re.compile(r"\b(?:difference|refunds?|net|balance|remaining)\b", re.IGNORECASE)
_LEAD_TOTAL = re.compile(r"\b(?:totals?|subtotals?|sum)\b", re.IGNORECASE)


def _named_by(lead: str) -> str:
    """The operation a heading or an introducing line names for the lines under it:
    "difference", "total" or "" (none)."""
    if not lead:
        return ""
    if _LEAD_DIFFERENCE.search(lead):
        return "difference"
    return "total" if _LEAD_TOTAL.search(lead) else ""


#: A rate or a share: "per passenger", "each".
_RATE = re.compile(
    r"\b(?:per\s+(?:person|item|night|passenger|guest|travell?er|bag|unit)|each)\b",
    re.IGNORECASE,
)
#: An amount for each one of something: "$25 a head", "$0.20 a minute", "£4/night".
_PER_UNIT = re.compile(
    r"\b(?:a|an|per|each|every)\s+(?:head|person|guest|passenger|minute|min|hour|day|night|"
    r"week|month|gb|kwh|unit|item|seat|ticket|user)\b|/\s?(?:min|hr|h|day|night|mo|gb|kwh)\b",
    re.IGNORECASE,
)


def _per_unit(
    ops: list[Operand], h: HardFact, target: float, counts: AbstractSet[int], sentence: str
) -> Derivation | None:
    """An amount over a count: "the deposit works out to $25 a head" with "6 people" in
    the sentence ($150 / 6), "$0.20 a minute" of a line item's $7.60 for "38 min" (a
    count its row holds). The amount's field or row is one the sentence names, and the
    quotient is exact to the cent unless the figure is said to be about."""
    at = sentence.find(h.text)
    about = at >= 0 and _ABOUT.search(sentence[:at]) is not None
    slack = 0.5 if about else 0.005 + 1e-9
    said = content_words(sentence)
    for a in ops:
        if a.leaf is None or a.value <= 0:
            continue
        if not said & (field_words(a.leaf) | own_words(a.leaf.record)):
            continue  # a reservation's balance over its nights is no room's nightly rate
        row = {
            int(x.value.number)
            for x in a.leaf.record.numeric_leaves()
            if x is not a.leaf
            and x.value.number is not None
            and x.value.kind in ("count", "number", "duration")  # "38 min" of a call
            and float(x.value.number).is_integer()
        }
        for n in sorted(set(counts) | row):
            if n >= 2 and abs(a.value / n - target) <= slack:
                return _ok(target, f"{show_number(a.value)} / {n}", a)
    return None


#: A figure said to be rounded: "about $47 a night", "roughly 40%".
_ABOUT = re.compile(r"\b(?:about|around|roughly|approximately|nearly|almost)\s+\W*$|~\s*\W*$", re.I)


#: After a figure: the kind of rows it is a total of ("$327 in gift cards").
_IN_KIND = re.compile(r"[*_]*\s+(?:in|across|on)\s+(?:your\s+|the\s+|\w+\s+)?\w+s\b", re.I)


def one_head(found: Derivation, h: HardFact, sentence: str) -> Derivation:
    """A sum said to be "for all three passengers" (see :func:`operands.for_one_head`)."""
    if found.status != "supported" or h.number is None:
        return found
    short = for_one_head(found.formula.split(" = ", 1)[-1], h.number, sentence, h.text)
    return Derivation("contradicted", short, found.leaf, found.origin) if short else found


#: Words of an amount that comes back to the customer ("Refund due", "you get back"),
#: and of one they pay on top ("an additional $114"): which way a difference runs.
_BACK = re.compile(
    r"\b(?:refund\w*|credit\w*|back|sav(?:e|es|ed|ing|ings)|less|lower|reduced)\b", re.I
)
_MORE = re.compile(r"\b(?:additional|extra|more|owe)\b", re.I)


def _gives_back(sentence: str) -> bool:
    return _BACK.search(sentence) is not None and _MORE.search(sentence) is None


#: A line that is a label and one figure: "**Economy fare:** $312", "- Total: 1,024".
VALUE_LINE = re.compile(r"^[\W_]*[A-Za-z][\w ]{0,30}[*_]*:[*_\s]*[$€£]?\s?[\d,.]+[*_\s.]*$")


def _is_rate(o: Operand) -> bool:
    """A percentage to take of an amount: a percent value, or a number in a field named
    like one ("discount": 20); never an amount of money ("amount": 100)."""
    if o.leaf is None or not 0 < o.value <= 100:
        return False
    v = o.leaf.value
    return v.kind == "percent" or (v.kind == "number" and bool(set(o.leaf.words) & RATE_WORDS))


def _search(
    ops: list[Operand],
    target: float,
    multipliers: frozenset[int],
    *,
    money: bool = True,
    subtract: bool = True,
    back: bool = False,
    left: bool = True,
    measured: bool = False,
    spans: bool = False,
    amounts: bool = False,
) -> Derivation | None:
    """A formula over ``ops`` that gives ``target``. Amounts of money combine across fields
    (a balance less a payment); other figures only within one field (two rows' counts):
    "12 replicas" is no sum of a deployment's available and up-to-date replicas.
    ``spans``: a span of days, whose difference is never of two rows of one list.
    ``amounts``: the target is money (a price times its own row's quantity is tried with
    no operation word).
    ``measured``: a figure in a unit of measure, whose operands are all in that unit: two
    of the records the sentence is about differ by it ("11.5 GB used on a 10 GB plan,
    1.5 GB over")."""
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

    for a in ops:
        # a figure a line above gave ("$50 per passenger"), times a count, before any sum
        # or difference (which some values of the records would give by chance)
        for n in multipliers if a.leaf is None else ():
            if abs(a.value * n - target) <= TOLERANCE:
                return _ok(target, f"{n} × {show_number(a.value)}", a)
    for a in ops if amounts else ():
        # a line's price times its own quantity field ("PO-88417 is worth $4,344": 1,200
        # ordered at $3.62), before any sum or difference
        for q in _quantities(a):
            if abs(a.value * q.value.number - target) <= TOLERANCE:  # type: ignore[operator]
                return _ok(target, f"{show_number(q.value.number)} × {show_number(a.value)}", a)  # type: ignore[arg-type]
    # The sum of one field over a list's rows (an order's item prices).
    sums = list_sums(ops)
    for total, parts in sums:
        if abs(total - target) <= TOLERANCE and len(parts) >= 2:
            return summed(target, [p.value for p in parts], parts[0].leaf)
    # What is left of an amount after such a sum: "you will have $201 remaining" on a
    # certificate of 500 after fares of 158 + 141.
    for total, parts in sums if subtract and money and left else ():
        b = find(total + target, *parts)
        if (
            b is not None
            and len(parts) <= 3
            and not _options(b, parts[0])
            and all(p.value > 0 for p in parts)
            # not the same field in a newer copy of the record ("522 − (522 + -114)")
            and all(b.leaf is None or p.leaf is None or p.leaf.path != b.leaf.path for p in parts)
        ):
            terms = " + ".join(show_number(p.value) for p in parts)
            return _ok(target, f"{show_number(b.value)} − ({terms})", b, *parts)
    for a in ops if money and subtract and back else ():
        # "Refund due: $414 for 2 passengers" after "$353 per passenger" above and a new
        # fare of $146: the count times the difference per head
        for n in multipliers if a.leaf is None else ():
            b = find(a.value - target / n, a)
            if b is not None and b.leaf is not None and a.value * n > target:
                per = f"{show_number(a.value)} − {show_number(b.value)}"
                return _ok(target, f"{n} × ({per})", a, b)
    for i, a in enumerate(ops):
        b = find(target - a.value, a)
        if b is not None and (money or _one_field(a, b)) and _addends(a, b):
            return _ok(target, f"{show_number(a.value)} + {show_number(b.value)}", a, b)
        b = find(a.value - target, a) if subtract else None
        if b is not None and spans and _sibling_rows(a, b):
            b = None  # annual leave's days less sick days taken: two kinds of leave
        if (
            b is not None
            and a.value > target
            and (
                money
                or _one_record(a, b)
                or _prices(a, b)
                or (measured and a.anchored and b.anchored)
            )
        ):
            return _ok(target, f"{show_number(a.value)} − {show_number(b.value)}", a, b)
        for n in multipliers:
            if abs(a.value * n - target) <= TOLERANCE:
                return _ok(target, f"{n} × {show_number(a.value)}", a)
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
                terms = f"{show_number(a.value)} + {show_number(b.value)} + {show_number(c.value)}"
                return _ok(target, terms, a, b, c)
    for a in ops[:_TRIPLE_SPAN]:
        for rate in rates:
            if rate.leaf is not None and rate.leaf.key == "text" and not rate.anchored:
                continue  # a percentage inside a note ("Splicing 60% complete") is no rate
            if rate is not a and abs(a.value * rate.value / 100 - target) <= TOLERANCE:
                return _ok(target, f"{show_number(rate.value)}% of {show_number(a.value)}", rate, a)
    return None


#: Field words of how many of a thing a row is for: "qty_ordered", "quantity" (not the
#: seats a flight has left: "available_seats" is no quantity bought).
_QUANTITY_WORDS = frozenset("qty quantity ordered".split())


def _quantities(a: Operand) -> list[Leaf]:
    """The quantity fields of an amount's own row (whole numbers of 2 and more)."""
    if a.leaf is None or a.leaf.path == "text" or a.value <= 0:
        return []
    return [
        q
        for q in a.leaf.record.leaves
        if q.value.kind in ("count", "number")
        and q.value.number is not None
        and float(q.value.number).is_integer()
        and 2 <= q.value.number <= 1_000_000
        and _QUANTITY_WORDS.intersection(q.words)
    ]


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


def _prices(a: Operand, b: Operand) -> bool:
    """Two amounts of money of one field (two rows' prices): what one costs more than the
    other is a difference a reply gives without naming it."""
    return _one_field(a, b) and a.leaf is not None and a.leaf.value.kind == "money"


def _one_record(a: Operand, b: Operand) -> bool:
    """Two counts of one record: "2 free bags" is its total_baggages less its
    nonfree_baggages; one flight's seats less another's is a coincidence ("13 seats left"
    is no 16 - 3)."""
    return a.leaf is not None and b.leaf is not None and a.leaf.record is b.leaf.record


def _sibling_rows(a: Operand, b: Operand) -> bool:
    """Two rows of one list (two leave balances, two line items): two things, not a
    whole and its part."""
    if a.leaf is None or b.leaf is None:
        return False
    ra, rb = a.leaf.record, b.leaf.record
    return (
        ra is not rb and ra.parent is rb.parent and ra.path.endswith("]") and rb.path.endswith("]")
    )


def _one_field(a: Operand, b: Operand) -> bool:
    if a.leaf is None or b.leaf is None or a.leaf.key != b.leaf.key:
        return False
    # figures printed in two fields' text (a message's and a command's output) are both
    # "text": of one field only when they are of one field's text
    return a.leaf.key != "text" or a.leaf.path == b.leaf.path


def _ok(target: float, expression: str, *parts: Operand) -> Derivation:
    where = ", ".join(_where(p) for p in parts)
    return Derivation(
        "supported",
        f"{show_number(target)} = {expression} ({where})",
        next((p.leaf for p in parts if p.leaf is not None), None),
        next((p.origin for p in parts if p.origin is not None), None),
    )


def _where(p: Operand) -> str:
    return p.leaf.path if p.leaf is not None else "a line above"


def names_operation(sentence: str) -> bool:
    """Whether a sentence names an operation ("total", "per person") or writes one out
    ("$338 + $378 = $716"), an amount on top of another ("Additional amount due") or a
    total over heads ("$456 (for 3 passengers)")."""
    return bool(
        _NAMES_OPERATION.search(sentence)
        or _ON_TOP.search(sentence)
        or _OVER_HEADS.search(sentence)
        or writes_arithmetic(sentence)
    )


#: A total over heads: "$456 (for 3 passengers)", "for both travelers", "With 4
#: passengers, that would be $200".
_OVER_HEADS = re.compile(
    rf"\b(?:for|with|across)\s+(?:all\s+|the\s+)?{HEADS_COUNT}\s+{HEADS_NOUN}\b", re.IGNORECASE
)
_ON_TOP = re.compile(r"\b(?:additional|extra|due)\b", re.IGNORECASE)
