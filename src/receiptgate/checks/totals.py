"""Totals over the rows of a list: a field summed over an order's items, over the
payment methods of a kind the sentence names ("Total from certificates: $1,000"), and
a total the sentence names that its anchored list does not add up to."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from receiptgate.checks.counts import SPELLED_COUNTS
from receiptgate.checks.document_figures import RATE_AFTER
from receiptgate.checks.finding import Finding
from receiptgate.checks.operands import TOLERANCE, Derivation, Operand, same_kind, show_number
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import PATH_INDEX, ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import claim_keys

NAMES_TOTAL = re.compile(r"\b(?:total|sum|altogether|in\s+all)\b", re.IGNORECASE)
#: The newest results holding a list whose rows a total may add up.
_LIST_RESULTS = 6


def list_total(
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
                if len(leaves) < 2 or not same_kind(h, leaves[0]):
                    continue
                values = [x.value.number or 0.0 for x in leaves]
                if abs(sum(values) - target) <= TOLERANCE:
                    return summed(target, values, leaves[0])
    return None


def lines_total(
    restated: Sequence[Leaf], h: HardFact, target: float, *, latest: bool = False
) -> Derivation | None:
    """The sum of a run of the reply's own lines above, in their order: "Total: $781.65"
    under the four items a return lists (a fifth, kept, is listed apart). ``restated``:
    the values that backed the reply's earlier figures; ``latest``: only a run that ends
    at the last of them ("Economy fare: $312" right under the two flights' fares)."""
    values = [leaf for leaf in restated if same_kind(h, leaf)][-_LINES:]
    for end in range(len(values), 1 if not latest else len(values) - 1, -1):
        total = 0.0
        for start in range(end - 1, -1, -1):
            total += values[start].value.number or 0.0
            if end - start >= 2 and abs(total - target) <= TOLERANCE:
                run = [x.value.number or 0.0 for x in values[start:end]]
                return summed(target, run, values[start])
    return None


#: How many of the reply's figures above a total may add up to it.
_LINES = 24


#: A sentence about money given back: "Refund: $45.13 to PayPal", "credited to your card".
_GIVEN_BACK = re.compile(r"\b(?:refund\w*|credit(?:ed)?|reimburs\w*|money\s+back)\b", re.I)


def refunded_row(
    index: ReceiptIndex,
    h: HardFact,
    sentence: str,
    receipt_id: str | None,
    scope: AbstractSet[int] = frozenset(),
) -> Finding | None:
    """A refund of one row's amount: "Refund: $45.13 to PayPal (paypal_7644869)" after
    an order whose items hold $45.13, though the payment the method names was $436.96 (a
    return of some items refunds their prices, not the payment). ``receipt_id``: the
    result of the record whose field differed, and the row must be in it; else ``scope``:
    the records the sentence is about, and the row must be one of them."""
    if h.kind != "money" or not _GIVEN_BACK.search(sentence):
        return None
    if receipt_id is None and not scope:
        return None
    for leaf in index.leaves(claim_keys(h)):
        r = index.receipt_of(leaf)
        parent = leaf.record.parent
        if parent is None or len(parent.children) < 2:
            continue
        if (receipt_id is not None and r.id != receipt_id) or (
            receipt_id is None and id(leaf.record) not in scope
        ):
            continue
        if leaf.value.kind == "money" or (leaf.value.kind == "number" and same_kind(h, leaf)):
            detail = f"derived: refund of {r.id} {leaf.path} = {leaf.value.shown}"
            return Finding("supported", r.id, r.kind, detail, leaf.path, value=h)
    return None


def _row_field(leaf: Leaf) -> str:
    """A field of any row of its list: ``items[1].price`` -> ``items[*].price``; of an
    object keyed by its rows' ids too (``payment_methods.gift_card_1.amount``)."""
    ids = leaf.record.ids
    path = PATH_INDEX.sub("[*]", leaf.path)
    parts = ["[*]" if part.lower() in ids else part for part in path.split(".")]
    return ".".join(parts)


#: A heading or an introducing line over how an amount is paid: "**Payment:**",
#: "Payment split:", "How it will be paid:".
PAYMENT_LEAD = re.compile(r"\b(?:payments?|paid|pay|paying|charges?)\b", re.IGNORECASE)


def remainder(
    target: float,
    totals: Sequence[tuple[float, Finding | None, Leaf | None]],
    others: Sequence[float],
) -> Derivation | None:
    """A payment line's amount as a total the reply gave above less what the other
    lines under the same "Payment:" pay: "$124.00 from gift card (gift_card_7773485)"
    after "Total cost: $163" and "- $39.00 from gift card (gift_card_7359776)".

    ``totals``: the figures the reply's lines above worked out (with what backed them)
    or a record's value backed (with that value); ``others``: the amounts of the other
    lines. Only this one formula is tried, so a changed amount is seldom it."""
    if not others:
        return None
    rest = sum(others)
    shown = " + ".join(show_number(x) for x in others)
    shown = f"({shown})" if len(others) > 1 else shown
    for total, origin, leaf in totals:
        if total > rest and abs(total - rest - target) <= TOLERANCE:
            formula = f"{show_number(target)} = {show_number(total)} − {shown}"
            formula += " (a line above, the other payment lines)"
            return Derivation("supported", formula, leaf, origin=origin)
    return None


#: What a zero amount says is left: "Total amount to be paid: $0 (fully covered by the two
#: certificates)", "Balance due: $0.00", "$0 charged to your card" (not a fee the policy
#: waives: "Adding 2 checked bags: $0 (covered by your free allowance)").
ZERO_LEFT = re.compile(
    r"\b(?:to\s+pay|to\s+be\s+paid|due|owed?|owing|remaining|left\s+to|balance|charged|"
    r"out\s+of\s+pocket)\b",
    re.IGNORECASE,
)


def covered(above: Sequence[float]) -> Derivation | None:
    """A zero left to pay, when an amount the reply gave is met exactly by the amounts
    it listed after it (two or more in a row): "$255" then "$250" and "$5" leave $0.
    ``above``: the reply's amounts before the sentence, in order."""
    for i, total in enumerate(above):
        if total <= 0:
            continue
        for j in range(i + 1, len(above)):
            run = 0.0
            for k in range(j, min(len(above), j + 5)):
                run += above[k]
                if k > j and abs(run - total) <= TOLERANCE:
                    parts = " + ".join(show_number(x) for x in above[j : k + 1])
                    formula = f"0 = {show_number(total)} − ({parts}) (lines above)"
                    return Derivation("supported", formula, None)
                if run > total:
                    break
    return None


def summed(target: float, values: Sequence[float], leaf: Leaf | None) -> Derivation:
    """``target`` as the sum of the values of one field over a list's rows."""
    terms = " + ".join(show_number(v) for v in values[:6])
    more = " + …" if len(values) > 6 else ""
    return Derivation("supported", f"{show_number(target)} = {terms}{more}", leaf)


def list_sums(ops: list[Operand]) -> list[tuple[float, list[Operand]]]:
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
PLURAL_LABEL = re.compile(r"^[\s*_-]*(?:[A-Za-z]+\s+){0,2}[A-Za-z]+s[*_\s]*:")


def category_total(ops: list[Operand], target: float, sentence: str) -> Derivation | None:
    """The sum of one field over the rows of a list that the sentence names by a value
    they share: "Total from certificates: $1,000" over the payment methods whose
    ``source`` is ``certificate``."""
    low = sentence.lower()
    for _, parts in list_sums(ops):
        by_kind: dict[str, list[Operand]] = {}
        for o in parts:
            assert o.leaf is not None
            for leaf in o.leaf.record.leaves:
                if leaf.value.kind == "word" and leaf is not o.leaf:
                    by_kind.setdefault(leaf.value.keys[-1][2:], []).append(o)
        for kind, rows in by_kind.items():
            if len(rows) < 2 or len(rows) == len(parts) or not _names_kind(low, kind):
                continue
            if abs(sum(o.value for o in rows) - target) <= TOLERANCE:
                return summed(target, [o.value for o in rows], rows[0].leaf)
    return None


def kind_total(
    index: ReceiptIndex,
    h: HardFact,
    target: float,
    sentence: str,
    fresh: Callable[[Receipt], bool],
) -> Derivation | None:
    """:func:`category_total` over the lists of every result (the customer's payment
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
                if same_kind(h, leaf)
            ]
            found = category_total(ops, target, sentence)
            if found is not None:
                return found
    return None


#: Rows of a named kind taken as operands at most.
_NAMED_ROWS = 8


def named_rows(
    index: ReceiptIndex, h: HardFact, sentence: str, fresh: Callable[[Receipt], bool]
) -> list[Operand]:
    """The amounts of the list rows whose kind the sentence names (a payment method whose
    ``source`` is ``certificate``), newest result first: the rows that hold a word the
    sentence says (or two words of it, "gift card"), looked up in the index."""
    words = re.findall(r"[a-z]+", sentence.lower())
    singular = [w[:-1] if w.endswith("s") and len(w) > 3 else w for w in words]
    names = set(singular) | {f"{a} {b}" for a, b in itertools.pairwise(singular)}
    rows: dict[int, Record] = {}
    for name in names:
        for leaf in index.leaves((f"w:{name}",)):
            if leaf.value.kind == "word" and leaf.record.parent is not None:
                rows.setdefault(id(leaf.record), leaf.record)
    ordered = sorted(rows.values(), key=index.position, reverse=True)
    out: list[Operand] = []
    for row in ordered:
        if not fresh(index.receipt_of(row)):
            continue
        out.extend(
            Operand(leaf.value.number or 0.0, leaf, leaf.value.shown, anchored=True)
            for leaf in row.numeric_leaves()
            if same_kind(h, leaf)
        )
        if len(out) >= _NAMED_ROWS:
            break
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


#: What a total is when it is what remains to pay: "to be paid", "due", "left to pay".
_BALANCE = re.compile(
    r"\b(?:to\s+(?:be\s+)?pa(?:y|id)|due|owed?|left|remaining|balance|out\s+of\s+pocket|"
    r"(?:fully\s+)?covered)\b",
    re.IGNORECASE,
)


def wrong_total(
    ops: list[Operand], target: float, records: Sequence[Record], sentence: str, figure: str = ""
) -> Derivation | None:
    """A sentence that names a total of an anchored list, with another result.

    ``figure`` is the claimed figure as written: the total is the figure nearest to the
    word "total", never a rate ("$50 per passenger, $100 total for the two passengers").
    """
    if not records or not NAMES_TOTAL.search(sentence):
        return None
    if figure and not is_the_total(sentence, figure):
        return None
    if abs(target) < 0.005 or _BALANCE.search(sentence):
        # "Total amount to be paid: $0 (fully covered by the two certificates)": what is
        # left after a payment, no sum of the list's values
        return None
    what = _TOTAL_OF.search(sentence)
    if what is not None and what.group(1).lower() not in _SUMMED:
        return None  # "Total compensation: $150" is no sum of the flights' prices
    anchored = {id(r) for rec in records for r in rec.subtree()}
    sums = [
        (total, parts)
        for total, parts in list_sums(ops)
        if parts[0].leaf is not None and id(parts[0].leaf.record) in anchored
    ]
    if len(sums) != 1:
        return None
    total, parts = sums[0]
    terms = " + ".join(show_number(p.value) for p in parts[:6])
    return Derivation(
        "contradicted",
        f"{terms} = {show_number(total)}, not {show_number(target)}",
        parts[0].leaf,
    )


#: An amount of money as a reply writes it ("$1,234.50", "1,234 USD").
_AMOUNT = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?|\b\d[\d,]*(?:\.\d+)?\s?(?:USD|EUR|dollars)\b")


def is_the_total(sentence: str, figure: str) -> bool:
    """Whether the figure written as ``figure`` is the total a sentence names: not a
    rate ("$50 per passenger") and, of the sentence's amounts, the one nearest to a word
    of a total ("$50 per passenger, $100 total for the two")."""
    at = sentence.find(figure)
    if at < 0:
        return True
    if RATE_AFTER.match(sentence, at + len(figure)):
        return False
    amounts = [(m.start(), m.end()) for m in _AMOUNT.finditer(sentence)]
    if len(amounts) < 2:
        return True
    for word in NAMES_TOTAL.finditer(sentence):

        def gap(span: tuple[int, int], w: re.Match[str] = word) -> int:
            return max(span[0] - w.end(), w.start() - span[1], 0)

        nearest = min(amounts, key=gap)
        if nearest[0] <= at < nearest[1] or at <= nearest[0] < at + len(figure):
            return True
    return False


#: A count said before the objects it counts: "your three plans", "both passes", "2 bags".
_COUNTED = re.compile(r"\b(\d|two|three|four|five|six|both|all)\s+(?:of\s+)?(?:\w+\s+)?$")
#: Object records a keyed total looks at, at most.
_KEYED_RECORDS = 400


def keyed_total(
    index: ReceiptIndex,
    h: HardFact,
    target: float,
    sentence: str,
    fresh: Callable[[Receipt], bool],
) -> Derivation | None:
    """The sum of one field over the objects the sentence names by their field name in
    the plural ("Your three plans add up to $125 a month": the ``plan`` object of each
    of the account's lines), in the newest result that has two or more of them; a count
    said before the noun ("three plans") must be the number of those objects."""
    low = sentence.lower()
    nouns: dict[str, int | None] = {}
    for m in re.finditer(r"\b([a-z]{3,}?)(?:es|s)\b", low):
        counted = _COUNTED.search(low, 0, m.start())
        said = counted.group(1) if counted else None
        n = int(said) if said and said.isdigit() else SPELLED_COUNTS.get(said or "")
        nouns[m.group(1)] = n
    if not nouns:
        return None
    looked = 0
    for entry in reversed(index.entries):
        if not fresh(entry.receipt):
            continue
        groups: dict[str, tuple[str, list[Record]]] = {}  # path pattern -> noun, rows
        for rec in entry.records:
            looked += 1
            if looked > _KEYED_RECORDS:
                return None
            words = re.findall(r"[A-Za-z]+", rec.path)
            if not words or rec.parent is None:
                continue
            last = words[-1].lower()
            noun = next(
                (n for n in (last, last.rstrip("s"), last.removesuffix("es")) if n in nouns), None
            )
            if noun is not None:
                groups.setdefault(PATH_INDEX.sub("[*]", rec.path), (noun, []))[1].append(rec)
        for noun, rows in groups.values():
            if len(rows) < 2 or nouns[noun] not in (None, len(rows)):
                continue
            fields: dict[str, list[Leaf]] = {}
            for row in rows:
                for leaf in row.numeric_leaves():
                    if same_kind(h, leaf):
                        fields.setdefault(leaf.key, []).append(leaf)
            for leaves in fields.values():
                values = [x.value.number or 0.0 for x in leaves]
                if len(leaves) == len(rows) and abs(sum(values) - target) <= TOLERANCE:
                    return summed(target, values, leaves[0])
    return None
