"""Lines that restate a field under its label ("**Travel insurance:** Not included",
"Flight 1: DEN to LAS", "Cabin: Basic Economy") and the last digits of a card or an
account ("Visa ending in 7285"), each checked against the records.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from collections.abc import Set as AbstractSet

from receiptgate.checks.card_digits import DIGIT_FIELDS, digit_leaves
from receiptgate.checks.figures import supported
from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.checks.rivals import evidence_line
from receiptgate.checks.words import GENERIC, content_words
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import leaf_value, words_of
from receiptgate.text.segment import Sentence

_LABEL_VALUE = re.compile(
    r"^[*_\s]*([A-Za-z][\w /&'-]{0,40}?)[*_\s]*(?::|\s[—–]\s)[*_\s]*([^:—–]+?)[*_\s.]*$"
)


#: A table row of two cells: a label and its value ("| City | New York |").
_TABLE_PAIR = re.compile(
    r"^\|\s*(?:\*\*)?([A-Za-z][\w /&'-]{0,40}?)(?:\*\*)?\s*\|\s*([^|]+?)\s*\|$"
)


def labelled(text: str) -> re.Match[str] | None:
    """A "Label: value" line ("**Refund method:** PayPal", "City: New York", "City — New
    York", a table row "| City | New York |") with a label of at most four words: group 1
    the label, group 2 the value."""
    m = _LABEL_VALUE.match(text) or _TABLE_PAIR.match(text.strip())
    return m if m is not None and len(m.group(1).split()) <= 4 else None


def label_value(
    s: Sentence, index: ReceiptIndex, scope: AbstractSet[int] = frozenset()
) -> RecordClaim | None:
    """A "Label: value" line's value, backed by a field that holds it (see
    :func:`labelled`); ``scope``: the ids of the records the line is about."""
    m = labelled(s.text)
    if m is None:
        return None
    value = re.sub(r"\s*\([^)]*\)", "", m.group(2)).strip(" *_`'\"").lower()
    value = _SPREAD.sub("", " ".join(value.split()))
    if not value:
        return None
    a = s.start + m.start(2)
    b = a + len(m.group(2).rstrip(" *_."))
    f = record_fact("value", a, b, s.text[m.start(2) : m.start(2) + (b - a)])
    # "Cabin: business" of the reservation the line is about: the field the label names
    # holds another word, and no record holds this one (a value another record holds,
    # "State: NC" of the profile's province for the new address the line proposes, is
    # never a contradiction of this one; nor is a value the user gave, "City: New York")
    yes_no = value in _YES or value in _NO or value.split(" ", 1)[0] in ("no", "not")
    users = set(words_of(value)) <= index.user_words
    plain = len(value.split()) <= 3 and not (yes_no or users or any(c.isdigit() for c in value))
    # "One-way" is the record's "one_way", "Round trip" its "round_trip"
    joined = re.sub(r"[\s-]+", "_", value)
    keys = (f"w:{value}", f"w:{joined}", f"w:{joined.replace('_', ' ')}")
    own = (
        [
            leaf
            for leaf in index.by_field.get("_".join(m.group(1).lower().split()), ())
            if id(leaf.record) in scope and leaf.value.kind == "word"
        ]
        if plain and not index.leaves(keys)
        else []
    )
    if yes_no and not own:
        # "Travel insurance: no" of a reservation whose insurance is "yes"
        own = _other_answer(index, m.group(1), value, scope)
    if own:
        leaf = own[-1]
        r = index.receipt_of(leaf)
        detail = f"contradicts {evidence_line(index, leaf)}, claimed {f.text}"
        found = Finding("contradicted", r.id, r.kind, detail, leaf.path, value=f)
        return RecordClaim("value", a, b, f.text, found)
    # "Address: 443 Maple Drive" as the record has it
    hits: Sequence[Leaf] = index.leaves(keys)
    if not hits:
        hits = _labelled_field(m.group(1), value, index)
    if not hits and (route := _ROUTE.match(value)) is not None:
        # "Flight 1: DEN to LAS": a record holding both ends
        ends = index.leaves((f"w:{route.group(2)}",))
        hits = [
            leaf
            for leaf in index.leaves((f"w:{route.group(1)}",))
            if any(e.record is leaf.record for e in ends)
        ]
    if not hits:
        # "Cabin: Basic Economy" of a flight whose fares are {"basic_economy": 80, ...}:
        # one of the options the record the line is about offers, by name
        hits = sorted(
            (
                leaf
                for leaf in index.by_field.get("_".join(value.split()), ())
                if "." in leaf.path and leaf.value.number is not None and id(leaf.record) in scope
            ),
            key=lambda leaf: (leaf.value.kind != "money", (leaf.value.number or 0) <= 0),
        )
    if not hits and (code := _PARENTHESISED.search(m.group(2))) is not None:
        # "Origin: Detroit Metropolitan Wayne County Airport (DTW)": the record's code
        hits = index.leaves((f"w:{code.group(1).lower()}", f"i:{code.group(1).lower()}"))
    if hits:
        return RecordClaim("value", a, b, f.text, supported(index, f, hits[0]))
    return None


#: What a value says it holds for, after it: "business for both legs", "economy on all
#: flights", "2 each way" (the value is the field's).
_SPREAD = re.compile(
    r"\s+(?:(?:for|on|in)\s+(?:both|all|each|every)(?:\s+(?:of\s+)?(?:the\s+)?\w+)?"
    r"|each\s+way|both\s+ways|throughout)$"
)

_ROUTE = re.compile(r"^([a-z0-9]{2,8})\s+(?:to|->|→|–|-)\s+([a-z0-9]{2,8})$")
_PARENTHESISED = re.compile(r"\(\s*([A-Za-z0-9][\w-]{1,20})\s*\)")

#: Ways of writing a yes/no field's value in a "Label: value" line.
_YES = frozenset("yes included purchased added true enabled active selected on".split())
_NO = frozenset(
    {
        "no", "none", "false", "disabled", "off", "not included", "not purchased", "not added",
        "not selected", "not chosen", "declined", "opted out",
    }
)  # fmt: skip


def _answer(value: str, label: frozenset[str]) -> bool | None:
    """What a yes/no value says: True, False, or None when it is no yes/no ("no longer
    needed" is none: "no" must stand alone or before the label's own words)."""
    first, _, rest = value.partition(" ")
    if value in _YES:
        return True
    if value in _NO or (first in ("no", "not") and content_words(rest) <= label | _LABEL_FILL):
        return False
    return None


def _other_answer(
    index: ReceiptIndex, label: str, value: str, scope: AbstractSet[int]
) -> list[Leaf]:
    """The yes/no fields the label names, of the records the line is about, when each
    holds the other answer ("Travel insurance: no" of ``"insurance": "yes"``)."""
    words = content_words(label) - GENERIC
    said = _answer(value, words)
    if said is None or not words or not scope:
        return []
    if any(w in index.user_words for w in words_of(label.lower())):
        return []  # "Travel insurance: no" for a booking the user asked to have none
    named = [
        leaf
        for key in ("w:yes", "w:no", "b:true", "b:false")
        for leaf in index.by_key.get(key, ())
        if id(leaf.record) in scope and words & content_words(" ".join(leaf.words))
    ]
    if not named or any(_answer(leaf.value.shown.strip().lower(), words) == said for leaf in named):
        return []
    return named


#: Words a "Label: no ..." value may add to the label's ("No travel insurance").
_LABEL_FILL = content_words("travel checked extra additional any")


def _labelled_field(label: str, value: str, index: ReceiptIndex) -> list[Leaf]:
    """The leaves a "Label: value" line restates when the value is no distinctive word:
    an id ("Reservation ID: HATHAT") wherever a record holds it; a count or a yes/no
    ("Total baggages: 3", "Travel insurance: Not included") only in a field the label
    names."""
    typed = leaf_value(label, value)
    words = content_words(label) - GENERIC
    first, _, rest = value.partition(" ")
    if value in _YES:
        keys: tuple[str, ...] = ("w:yes", "b:true")
    elif value in _NO or (first in ("no", "not") and content_words(rest) <= words | _LABEL_FILL):
        keys = ("w:no", "b:false", "n:0")  # "Insurance: No travel insurance", "Bags: None"
    elif typed is not None and typed.kind == "id":
        return index.leaves(typed.keys)
    elif typed is not None and typed.kind in ("count", "number"):
        keys = typed.keys
    elif typed is not None and typed.kind == "word":
        # "Baggage: 0 checked bags": the count in it
        keys = tuple(k for k in typed.keys if k.startswith("n:"))
    else:
        return []
    if not words or not keys:
        return []
    return [leaf for leaf in index.leaves(keys) if words & content_words(" ".join(leaf.words))]


def last_digits(index: ReceiptIndex, digits: str, a: int, b: int) -> RecordClaim:
    f = record_fact("digits", a, b, digits)
    found = digit_leaves(index)
    hits = found.get(digits, [])
    if hits:
        named = [leaf for leaf in hits if DIGIT_FIELDS & set(leaf.words)]
        return RecordClaim("digits", a, b, digits, supported(index, f, (named or hits)[0]))
    listed = sorted(
        {
            leaf.value.shown.strip()
            for leaves in found.values()
            for leaf in leaves
            if DIGIT_FIELDS & set(leaf.words)
        }
    )
    if listed:
        detail = (
            f"no card or account here ends in {digits} (last digits here: {', '.join(listed[:4])})"
        )
        return RecordClaim(
            "digits", a, b, digits, Finding("contradicted", None, None, detail, value=f)
        )
    detail = f"no receipt holds a card or account ending in {digits}"
    return RecordClaim("digits", a, b, digits, Finding("unsupported", None, None, detail, value=f))
