"""Payments a reply says were made: "the payment was processed using your gift card".

An action that takes a payment names its method in its arguments (``payment_id``:
``gift_card_9823297``; ``payment_methods[0].payment_id`` for a booking split over
several). A sentence that reports a payment as made — "was processed", "has been
charged", "was covered", "was made using" — with a method ("your gift card", "your
credit card", "the original payment method") is checked against the newest successful
call that was given one: a method of that kind backs it, another kind contradicts it.
A refund is checked against the method the newest refund recorded in a result went to
(a payment of ``-5382`` to ``gift_card_1642017``; the refund of the amount the sentence
names, when one is). "The original payment method" is the first payment in the history
of the record the call changed. Where the sentence says the customer paid ("the payment
was processed", "the additional cost has been covered"), the payment the call's result
records for that method must be one: a negative entry is a refund, and "the payment of
$600" is contradicted by an entry of 1200. Where no call was given a method, the
sentence has no such claim (an offer or a plan names any method the customer holds).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.calls import failed
from receiptgate.checks.card_digits import digits_owners
from receiptgate.checks.figures import supported
from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import record_fact
from receiptgate.checks.rivals import evidence_line
from receiptgate.checks.totals import NAMES_TOTAL
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import in_minor_units

#: The brands of a credit card, as a sentence writes them.
_BRANDS = r"visa|mastercard|amex|american\s+express|discover"
#: A method a sentence names: a kind of instrument, or the original one.
_METHOD = re.compile(
    r"\b(?:(gift\s+cards?|paypal|credit\s+cards?|certificates?|"
    # a card by its brand: "your Visa card ending in 1777" is a credit card
    rf"(?:{_BRANDS})(?:\s+(?:credit\s+)?card)?)"
    r"|(?:the\s+|your\s+)?(original|same)\s+(?:form\s+of\s+)?payment(?:\s+methods?)?)\b",
    re.IGNORECASE,
)
#: A card named by its last digits: "your Visa card ending in 7285" (group 1: the card).
_CARD_DIGITS = re.compile(
    rf"\b((?:{_BRANDS}|debit|credit)?\s*card)"
    r"[^.\n\d]{0,12}?\bending\s+(?:in\s+|with\s+)?\d{3,4}\b",
    re.IGNORECASE,
)

#: The kinds of payment method ids (``credit_card_3124723``).
_METHOD_KINDS = frozenset({"credit_card", "gift_card", "paypal", "certificate", "debit_card"})

#: A payment reported as made (not offered, not planned).
_DONE = re.compile(
    r"\b(?:was|were|has\s+been|have\s+been)\s+(?:\w+\s+)?"
    r"(?:processed|made|charged|covered|adjusted|applied|paid|deducted|billed|taken)\b"
    # a line of a record's details: "- Paid with PayPal", "Charged to your gift card"
    r"|^[\W_]*(?:paid|charged|billed)\s+(?:with|by|via|using|to|on)\b",
    re.IGNORECASE,
)
#: A pay verb right before the method it names: "paid via", "charged to your".
_PAID_BY = re.compile(
    r"\b(?:paid|charged|billed)\s+(?:with|by|via|using|to|on|through)\s+(?:your\s+|the\s+|a\s+)?$",
    re.IGNORECASE,
)
#: A refund: the method it went to is the one a result's negative payment names.
_REFUND = re.compile(r"\brefund\w*|\bback\s+to\b|\bcredited\b|\breturned\s+to\b", re.I)
#: An amount of money as a reply writes it: "$39.00", "$1,286" (group 1: the number).
AMOUNT = re.compile(r"[$€£]\s?(\d[\d,]*(?:\.\d+)?)")


def amounts(text: str) -> list[float]:
    """The amounts of money a text writes, in order ("$39.00 ... $1,286": 39.0, 1286.0)."""
    return [float(m.group(1).replace(",", "")) for m in AMOUNT.finditer(text)]


def minor_units(e: ReceiptEntry) -> bool:
    """Whether a call's amounts are in cents: its result has a ``currency`` in Stripe's
    lowercase style ("usd"), so ``refund(amount=1250)`` refunded $12.50."""
    return any(
        leaf.key.lower() == "currency" and in_minor_units(leaf.value.shown)
        for rec in e.records
        for leaf in rec.leaves
    )


#: Argument fields that name the method a call paid with.
_PAY_KEYS = frozenset({"payment_id", "payment_method_id"})
_KIND = re.compile(r"^([a-z]+(?:_[a-z]+)*?)_?\d")


#: A brand in a method's name with its words joined ("visa_card", "american_express").
_BRAND = re.compile("(?:" + _BRANDS.replace(r"\s+", "_") + ")(?:_|$)")


def _kind(method: str) -> str:
    """The kind of a method id or a sentence's name for one: ``gift_card_98`` and "gift
    cards" -> ``gift_card``."""
    low = "_".join(method.lower().split())
    if _BRAND.match(low):
        return "credit_card"
    m = _KIND.match(low)
    kind = m.group(1) if m is not None else low
    return kind[:-1] if kind.endswith("s") and kind != "paypal" else kind


def _paying_call(
    index: ReceiptIndex, refund: bool, amounts: set[float]
) -> tuple[ReceiptEntry, list[Leaf]] | None:
    """The newest successful call given a payment method, and those arguments; for a
    refund, the newest whose result records one (a negative payment) of an amount the
    sentence names, else the newest, and the methods it went to."""
    newest: tuple[ReceiptEntry, list[Leaf]] | None = None
    for entry in reversed(index.entries):
        if entry.receipt.kind != "tool" or failed(entry):
            continue
        if not refund:
            paid = _paid_by(entry)
            if paid:
                return entry, paid
            continue
        named = _refunded_to(entry, amounts)
        if named:
            return entry, named
        if newest is None and (paid := _refunded_to(entry, None)):
            newest = entry, paid
    return newest


def _paid_by(entry: ReceiptEntry) -> list[Leaf]:
    return [
        leaf
        for rec in entry.records
        for leaf in rec.subtree_leaves()
        if leaf.path.startswith("args.") and leaf.key.lower() in _PAY_KEYS
    ]


def _refunded_to(entry: ReceiptEntry, amounts: set[float] | None) -> list[Leaf]:
    """The payment methods of a result's negative payments (``{"payment_id": "gift_card_1",
    "amount": -5382}``), of one of ``amounts`` when given."""
    out: list[Leaf] = []
    for rec in entry.records:
        for r in rec.subtree():
            for leaf in r.leaves:
                x = leaf.value.number or 0
                if leaf.value.kind == "money" and x < 0 and (amounts is None or -x in amounts):
                    out.extend(p for p in r.leaves if p.key.lower() in _PAY_KEYS)
    return out


def _original(entry: ReceiptEntry) -> Leaf | None:
    """The first payment of the record a call changed (``payment_history[0]``)."""
    for rec in entry.records:
        for leaf in rec.subtree_leaves():
            if leaf.path.endswith("payment_history[0].payment_id"):
                return leaf
    return None


#: A sentence that says the customer paid (not only that a method was used): "the
#: payment was processed", "the additional cost has been covered", "charged".
_PAID_MORE = re.compile(
    r"\b(?:charged|additional|extra|covered|paid|cost\s+of|payment\s+(?:for|of)|"
    r"the\s+payment\s+(?:was|has))\b",
    re.IGNORECASE,
)


def _newest_leaf(entry: ReceiptEntry, method: str) -> Leaf | None:
    """The amount of the newest payment of ``method`` a call's result records."""
    newest: Leaf | None = None
    for rec in entry.records:
        for r in rec.subtree():
            if r.path.startswith("args") or not any(
                x.key.lower() in _PAY_KEYS and x.value.shown == method for x in r.leaves
            ):
                continue
            for leaf in r.leaves:
                if leaf.value.kind == "money" and leaf.value.number is not None:
                    newest = leaf
    return newest


def _wrong_payment(
    entry: ReceiptEntry, method: str, amounts: set[float], paid: bool
) -> tuple[Leaf, str] | None:
    """What the call's result says it charged ``method``, when that is no payment of the
    sentence's amount: the newest payment of that method is negative (a refund) where the
    sentence says the customer paid, or the sentence names one amount and the payment is
    another."""
    newest = _newest_leaf(entry, method)
    if newest is None or newest.value.number is None:
        return None
    x = newest.value.number
    if x < 0:
        return (newest, f"a refund of {-x:g} to {method}, not a payment") if paid else None
    if len(amounts) == 1 and all(abs(a - x) > 0.005 for a in amounts):
        return newest, f"{method} was charged {x:g}, not {next(iter(amounts)):g}"
    return None


#: How many of the newest calls that paid with a method a total may add up.
_MOST_CALLS = 6


def _charged_in_all(index: ReceiptIndex, method: str, amount: float) -> bool:
    """Whether ``amount`` is what ``method`` was charged by the newest calls that paid
    with it, two or more of them, added up (each call's newest payment of the method)."""
    run, calls = 0.0, 0
    for entry in reversed(index.entries):
        if entry.receipt.kind != "tool" or failed(entry):
            continue
        if not any(leaf.value.shown == method for leaf in _paid_by(entry)):
            continue
        leaf = _newest_leaf(entry, method)
        x = leaf.value.number if leaf is not None else None
        if x is None or x <= 0:
            return False
        run += x
        calls += 1
        if calls >= 2 and abs(run - amount) <= 0.005:
            return True
        if calls == _MOST_CALLS or run > amount:
            return False
    return False


_CLAUSE_EDGE = re.compile(
    r"[;()]|\b(?:because|since|but|although|though|however|as\s+there|after|before|if|unless|"
    r"or)\b",
    re.IGNORECASE,
)


def _clauses(text: str) -> list[tuple[int, int]]:
    """Where the clauses of a sentence start and end."""
    out, start = [], 0
    for m in _CLAUSE_EDGE.finditer(text):
        out.append((start, m.start()))
        start = m.end()
    out.append((start, len(text)))
    return out


def paid_with(index: ReceiptIndex, text: str, offset: int = 0) -> list[tuple[int, int, Finding]]:
    """The payment methods a sentence says were used, each (start, end, finding), with
    offsets into the reply (``text`` starts at ``offset``); none when the sentence
    reports no payment made."""
    if not _DONE.search(text) or not _METHOD.search(text):
        return []
    said = set(amounts(text))
    refund = _REFUND.search(text) is not None
    call = _paying_call(index, refund, said)
    if call is None:
        return []
    entry, paid = call
    out: list[tuple[int, int, Finding]] = []
    # the methods of the clauses that report the payment ("... was charged to your credit
    # card because there was an issue with the certificates": not the certificates)
    clauses = [c for c in _clauses(text) if _DONE.search(text, c[0], c[1])]
    for m in _METHOD.finditer(text):
        if not any(a <= m.start() < b for a, b in clauses):
            continue
        shown = m.group()
        a, b = offset + m.start(), offset + m.end()
        fact = record_fact("method", a, b, shown)
        if m.group(1):
            held = [leaf for leaf in paid if _kind(leaf.value.shown) == _kind(m.group(1))]
        else:
            first = _original(entry)
            if first is None:
                continue
            held = [leaf for leaf in paid if leaf.value.shown == first.value.shown]
        if held and not refund:
            # the payment the call recorded for that method: a refund is no payment, and
            # "the payment of $600" is no payment of 1200
            paid_more = _PAID_MORE.search(text) is not None
            wrong = _wrong_payment(entry, held[0].value.shown, said, paid_more)
            # "your Mastercard was charged $1,286 in total": the method's payments over
            # the newest calls that paid with it (three bookings: 44 + 621 + 621)
            if (
                wrong is not None
                and NAMES_TOTAL.search(text)
                and len(said) == 1
                and _charged_in_all(index, held[0].value.shown, next(iter(said)))
            ):
                wrong = None
            if wrong is not None:
                leaf, what = wrong
                r = entry.receipt
                detail = f"contradicts {evidence_line(index, leaf)}: {what}"
                out.append(
                    (a, b, Finding("contradicted", r.id, r.kind, detail, leaf.path, value=fact))
                )
                continue
        if held:
            out.append((a, b, supported(index, fact, held[0])))
            continue
        r = entry.receipt
        detail = f"contradicts {evidence_line(index, paid[0])}, claimed {shown}"
        out.append((a, b, Finding("contradicted", r.id, r.kind, detail, paid[0].path, value=fact)))
    return out


def recorded_payment(
    index: ReceiptIndex,
    records: Sequence[Record],
    text: str,
    offset: int = 0,
    *,
    right_after: bool = False,
) -> list[tuple[int, int, Finding]]:
    """The method a sentence says a record was paid with ("Order #W5490111 ... was paid
    with your PayPal account"), against the payments that record's history holds; none
    when the records hold no payment history. ``right_after``: for records the sentence
    does not name (the lines under an order), only the method right after the verb ("paid
    via PayPal, and I don't see a gift card": not the gift card)."""
    if not _DONE.search(text) or _REFUND.search(text):
        return []
    paid: list[Leaf] = []
    for rec in records:
        for row in rec.subtree():
            kinds = {x.key.lower(): x for x in row.leaves}
            method = kinds.get("payment_method_id")
            what = kinds.get("transaction_type")
            if method is not None and (what is None or what.value.shown.lower() == "payment"):
                paid.append(method)
    if not paid:
        return []
    # the methods of the clauses that report the payment ("your PayPal (the one the
    # order was paid with) or your Visa ending in 9904?": not the Visa)
    clauses = [c for c in _clauses(text) if _DONE.search(text, c[0], c[1])]
    out: list[tuple[int, int, Finding]] = []
    for m in _CARD_DIGITS.finditer(text):
        if not any(a <= m.start() < b for a, b in clauses):
            continue
        # "paid with your Visa card ending in 7285": the payment methods whose number
        # ends so (not a profile that holds one)
        method_kinds = {_kind(leaf.value.shown) for leaf in paid} | _METHOD_KINDS
        owners = {o for o in digits_owners(index, m.group()) if _kind(o) in method_kinds}
        if not owners:
            continue
        a, b = offset + m.start(1), offset + m.end(1)
        held = [leaf for leaf in paid if leaf.value.shown.lower() in owners]
        fact = record_fact("method", a, b, m.group(1))
        out.append((a, b, _paid_with(index, fact, held, paid, m.group())))
    for m in _METHOD.finditer(text):
        if not m.group(1) or not any(a <= m.start() < b for a, b in clauses):
            continue
        if right_after and not _PAID_BY.search(text, max(0, m.start() - 30), m.start()):
            continue
        a, b = offset + m.start(), offset + m.end()
        held = [leaf for leaf in paid if _kind(leaf.value.shown) == _kind(m.group(1))]
        fact = record_fact("method", a, b, m.group())
        out.append((a, b, _paid_with(index, fact, held, paid, m.group())))
    return out


def _paid_with(
    index: ReceiptIndex, fact: HardFact, held: list[Leaf], paid: list[Leaf], claimed: str
) -> Finding:
    """A method a sentence names for a payment: backed by the payment that used it, else
    contradicted by the record's first payment."""
    if held:
        return supported(index, fact, held[0])
    leaf = paid[0]
    r = index.receipt_of(leaf)
    detail = f"contradicts {evidence_line(index, leaf)}, claimed {claimed}"
    return Finding("contradicted", r.id, r.kind, detail, leaf.path, value=fact)


#: "the original payment method (gift card gift_card_7480005)", "your original form of
#: payment, credit_card_4421486": the method's id after the words.
_ORIGINAL_ID = re.compile(
    r"\boriginal\s+(?:form\s+of\s+)?payment(?:\s+method)?[\s,:(–-]*"
    r"(?:(?:gift\s+card|credit\s+card|debit\s+card|card|paypal(?:\s+account)?)[\s,:(–-]*)?"
    r"\b((?:gift_card|credit_card|paypal|certificate|debit_card)_\d+)\b",
    re.IGNORECASE,
)


def original_method(
    index: ReceiptIndex,
    records: Sequence[Record],
    text: str,
    offset: int = 0,
    context: Sequence[Record] = (),
) -> list[tuple[int, int, Finding]]:
    """The id a sentence gives as the original payment method, against the first payment
    the history of the records it is about holds; none when they hold no history.
    ``context``: the records of the item or section the sentence sits under."""
    m = _ORIGINAL_ID.search(text)
    if m is None:
        return []
    said = m.group(1).lower()
    # the records the sentence is about, unless it is about them only by naming the method
    # (every reservation paid with that card): then the newest record with a history
    about = [r for r in records if said not in {i.lower() for i in r.ids}]
    if not any(_history(r) for r in about):
        # "- refund details: to the original method credit_card_3951670" under "- order
        # id: #W8855135": the order the line sits under
        about = [r for r in context if _history(r)]
    if not about:
        about = [rec for e in reversed(index.entries) for rec in e.records if _history(rec)][:1]
    first = next((x for rec in about for x in _history(rec)), None)
    if first is None:
        return []
    a, b = offset + m.start(1), offset + m.end(1)
    same = first.value.shown.lower() == m.group(1).lower()
    return [(a, b, _as_original(index, first, m.group(1), a, b, same))]


def _as_original(
    index: ReceiptIndex, first: Leaf, said: str, a: int, b: int, same: bool
) -> Finding:
    """A method a sentence gives as the original one, against the record's first payment:
    backed by it when ``same``, else contradicted by it."""
    fact = record_fact("method", a, b, said)
    if same:
        return supported(index, fact, first)
    r = index.receipt_of(first)
    detail = f"contradicts {evidence_line(index, first)}, claimed {said} as the original"
    return Finding("contradicted", r.id, r.kind, detail, first.path, value=fact)


#: A kind of method said to be the original one: "Refund method: PayPal (original payment
#: method)", "back to your credit card, the original form of payment", "the original
#: payment method (PayPal)".
_ORIGINAL_KIND = re.compile(
    rf"\b(?P<a>paypal|gift\s+card|credit\s+card|{_BRANDS})(?:\s+(?:account|card))?"
    r"[\s,:(–—-]*(?:which\s+is\s+|i\.e\.\s+)?(?:your\s+|the\s+)?original\s+(?:form\s+of\s+)?payment"
    r"|\boriginal\s+(?:form\s+of\s+)?payment(?:\s+method)?[\s,:(–—-]*(?:your\s+|the\s+)?"
    rf"(?P<b>paypal|gift\s+card|credit\s+card|{_BRANDS})\b(?![\s_]*\d)",
    re.IGNORECASE,
)


def original_kind(
    index: ReceiptIndex,
    records: Sequence[Record],
    text: str,
    offset: int = 0,
    context: Sequence[Record] = (),
) -> list[tuple[int, int, Finding]]:
    """The kind of method a sentence gives as the original one ("PayPal (original payment
    method)"), against the first payment the history of the records it is about (or
    those it sits under) holds; none when they hold no history."""
    m = _ORIGINAL_KIND.search(text)
    if m is None:
        return []
    g = "a" if m.group("a") else "b"
    # the whole result of each (an item of an order: the order's history)
    about = [r.root for r in records if _history(r.root)] or [
        r.root for r in context if _history(r.root)
    ]
    first = next((x for rec in about for x in _history(rec)), None)
    if first is None:
        return []
    said = m.group(g)
    a, b = offset + m.start(g), offset + m.end(g)
    same = _kind(first.value.shown) == _kind(said)
    return [(a, b, _as_original(index, first, said, a, b, same))]


def _history(rec: Record) -> list[Leaf]:
    """The methods of a record's payment history, oldest first ("payment_id":
    "gift_card_7091239" of ``payment_history[0]``)."""
    return [x for x in rec.subtree_leaves() if "history" in x.path and x.key.lower() in _PAY_KEYS]
