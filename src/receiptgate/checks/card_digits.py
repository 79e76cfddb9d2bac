"""A card's or an account's last digits: where a text gives them ("Visa ending in 7285",
"Checking (…4821)") and which values of the records end in them. Read by anchoring (the
digits name the card's record), the record claims (checks/labels) and the ledger."""

from __future__ import annotations

import re

from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.text.segment import Sentence

#: "ending in 7285", "ends with 4451", "last four digits 0006", "last 4: 7285".
LAST_DIGITS = re.compile(
    r"\b(?i:ending|ends)\s+(?i:in|with)\s+[*_]*(\d{3,8})\b"
    r"|\b(?i:last)\s+(?i:four|4|three|3)(?:\s+(?i:digits?|numbers?))?"
    r"(?:\s+(?i:of|on)\s+[^,.;:\d]{1,40}?)?\s*(?:(?i:is|are|being)\s+|:\s*)?(\d{3,4})\b"
    # "Visa ending 7447", "Mastercard ending 6710": a card named, "in" left out
    r"|\b(?i:visa|mastercard|amex|card|account)\b[^.\n\d]{0,15}?\b(?i:ending)\s+[*_]*(\d{4})\b"
    # "Visa 7285", "Mastercard **4336**": a card brand and its last four
    r"|\b(?i:visa|mastercard|amex|discover)[*_]*\s+[*_(]*(\d{4})\b(?![.,]?\d)"
    # "Checking (…4821)", "card ****7714": digits after a mask (not "**2024-05-28**")
    r"|(?:…|\.\.\.|\*{4,}|•{2,})(\d{4})\b(?![.,‑-]?\d)"
)


def last_digit_spans(s: Sentence) -> list[tuple[int, int, str]]:
    """Where a sentence gives a card's or account's last digits: (start, end, digits)."""
    out = []
    for m in LAST_DIGITS.finditer(s.text):
        g = next(i for i in (1, 2, 3, 4, 5) if m.group(i))
        out.append((s.start + m.start(g), s.start + m.end(g), m.group(g)))
    return out


# Field words of a card's or account's last digits ("last_four", "last4", "card_suffix").
DIGIT_FIELDS = frozenset({"last", "four", "last4", "digits", "suffix", "ending"})


_TRAILING_DIGITS = re.compile(r"(\d{3,})$")


def digit_leaves(index: ReceiptIndex) -> dict[str, list[Leaf]]:
    """Last 3 to 8 digits -> the values ending in them: fields of last digits, and ids
    and numbers of cards and accounts (``4111111111117285``, ``paypal_3024827``). Built
    once per index."""
    cached = index.cache.get("last_digits")
    if isinstance(cached, dict):
        return cached
    out: dict[str, list[Leaf]] = {}
    for entry in index.entries:
        for rec in entry.records:  # every record of the result, nested ones too
            for leaf in rec.leaves:
                shown = leaf.value.shown.strip()
                digits = _TRAILING_DIGITS.search(shown)
                if digits is None or leaf.value.kind not in ("id", "number", "count", "word"):
                    continue
                if not (DIGIT_FIELDS & set(leaf.words) or leaf.value.kind == "id"):
                    continue
                run = digits.group(1)
                for n in range(3, min(len(run), 8) + 1):
                    out.setdefault(run[-n:], []).append(leaf)
    index.cache["last_digits"] = out
    return out


def digits_owners(index: ReceiptIndex, text: str) -> frozenset[str]:
    """The ids (lowercase) of the records whose card or account ends in the last digits a
    text gives: "your Mastercard ending in 4336" -> ``credit_card_8554680``."""
    found = digit_leaves(index)
    out: set[str] = set()
    for m in LAST_DIGITS.finditer(text):
        digits = next(g for g in m.groups() if g)
        for leaf in found.get(digits, ()):
            out.update(i.lower() for i in leaf.record.ids)
    return frozenset(out)
