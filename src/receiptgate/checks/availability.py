"""Availability: "the blue T-shirt is available", "none of the T-shirts are available".

The records are those with an availability field (a product's variants); the sentence
describes the option values it names, and the records that hold all of them are meant
(:func:`check_availability`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.finding import Finding, FindingStatus
from receiptgate.checks.rivals import evidence_line
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record

AVAILABLE_KEYS = frozenset({"available", "availability", "in_stock", "instock", "stock"})
_VALUE_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]*")


def check_availability(
    index: ReceiptIndex, sentence: str, available: bool, every: bool = False
) -> Finding | None:
    """Whether what a sentence describes is available, as it claims.

    The records are those with an availability field (a product's variants), of the
    product the sentence names if it names one; the sentence describes the option
    values it names ("the canister-based, bagless vacuum"), and every record holding
    all of them is meant. "... is available" is backed when one of them is, and
    contradicted when none is; "... is not available" is backed when none is (or no
    record holds that combination: "the 50ft blue reinforced hose" that does not
    exist), and contradicted when every one is. ``None`` when the sentence describes
    no such record (fewer than two names or values of it).

    ``every``: a quantified claim about a product the sentence names ("all the T-shirts
    are available", "none of the blue T-shirts is available"): each variant meant must
    be as claimed, and one that is not contradicts it.
    """
    leaves = _availability_leaves(index)
    if not leaves:
        return None
    low = sentence.lower()
    by_id = [leaf for leaf in leaves if any(len(i) >= 4 and i in low for i in leaf.record.ids)]
    if by_id and not every:
        # "the umbrella option (3111466194) is unavailable": the row the sentence names
        leaf = by_id[-1]
        ok = says_available(leaf) == available
        return _availability(index, "supported" if ok else "contradicted", leaf)
    words = _sentence_words(sentence, hyphen_parts=True)
    products = [leaf for leaf in leaves if _names_product(leaf.record, words)]
    pool = products or leaves
    described = {
        v for leaf in pool for v in _option_values(leaf.record) if _value_parts(v) <= words
    }
    if every and products:
        meant = [leaf for leaf in pool if described <= _option_values(leaf.record)]
        wrong = [leaf for leaf in meant if says_available(leaf) != available]
        if wrong:
            return _availability(index, "contradicted", wrong[0])
        if meant:
            state = "available" if available else "not available"
            r = index.receipt_of(meant[0])
            line = f"{r.id}: all {len(meant)} of them are {state}"
            return Finding("supported", r.id, r.kind, line, meant[0].path)
        return None
    meant = [leaf for leaf in pool if described <= _option_values(leaf.record)]
    one = len(described) == 1 and " " in next(iter(described), "")
    if len(described) + bool(products) < 2 and not (one and len(meant) == 1):
        # (a value of two words or more describes a record no other row holds: "the
        # Junior Suite")
        return None
    held = [leaf for leaf in meant if says_available(leaf)]
    if available:
        if held:
            return _availability(index, "supported", held[-1])
        if meant:
            return _availability(index, "contradicted", meant[-1])
        return None
    if not meant:
        line = f"no record holds {', '.join(sorted(described))} together"
        return Finding("supported", None, None, line)
    if not held:
        return _availability(index, "supported", meant[-1])
    if len(held) == len(meant):
        return _availability(index, "contradicted", held[-1])
    return None


#: "10 of them are available", "3 are in stock": how many of the rows meant are.
_COUNTED_AVAILABLE = re.compile(
    # "4 of them are available", "4 seats available", "4 seats are still available"
    r"[*_]*(?:\s+of\s+(?:them|these|those|the\s+[\w-]+)|\s+[a-z][\w-]*)?\s+(?:(?:are|is)\s+)?"
    r"(?:currently\s+|still\s+|now\s+)?(?:available|in\s+stock)\b",
    re.IGNORECASE,
)
_COUNTED = re.compile(
    r"\b(\d{1,3})(?=[*_]*(?:\s+of\s+(?:them|these|those|the\s+[\w-]+))?\s+(?:are|is)\s)"
)

#: A number that names a thing, not how many: "Size 8 is available", "Item 3 is".
_NAMING_WORD = re.compile(
    r"\b(?:size|item|model|version|number|no|option|level|gate|seat|row|flight|order|#)"
    r"[\s*_#:]*$",
    re.IGNORECASE,
)


def _is_count(sentence: str, at: int) -> bool:
    return _NAMING_WORD.search(sentence, max(0, at - 12), at) is None


def available_count(index: ReceiptIndex, sentence: str, at: int | None = None) -> Finding | None:
    """ "Our T-shirt comes in 12 variants, and 10 of them are available": how many rows of
    the product the sentence names (else of the newest product listed) are available.
    ``at``: where the count stands in the sentence (else its first "N ... are available")."""
    if at is None:
        m = next(
            (
                c
                for c in _COUNTED.finditer(sentence)
                if _COUNTED_AVAILABLE.match(sentence, c.end()) and _is_count(sentence, c.start())
            ),
            None,
        )
        if m is None:
            return None
        n = int(m.group(1))
    else:
        digits = re.match(r"\d{1,3}", sentence[at:])
        if digits is None or not _COUNTED_AVAILABLE.match(sentence, at + digits.end()):
            return None
        if not _is_count(sentence, at):
            return None
        n = int(digits.group())
    # (a quantity field, "available": 760, is no yes or no: the figure check reads it)
    leaves = [leaf for leaf in _availability_leaves(index) if leaf.value.kind in ("bool", "word")]
    if not leaves:
        return None
    words = _sentence_words(sentence)
    pool = [leaf for leaf in leaves if _names_product(leaf.record, words)]
    if not pool:
        newest = max(leaves, key=index.position)
        pool = [leaf for leaf in leaves if leaf.record.parent is newest.record.parent]
    held = sum(1 for leaf in pool if says_available(leaf))
    r = index.receipt_of(pool[-1])
    what = re.sub(r"\[[^\]]*\]$", "", pool[-1].record.path) or "rows"
    if held == n:
        return Finding("supported", r.id, r.kind, f"{r.id} {what}: {held} of {len(pool)} available")
    detail = f"contradicts {r.id} {what}: {held} of {len(pool)} available, claimed {n}"
    return Finding("contradicted", r.id, r.kind, detail)


def other_options(index: ReceiptIndex, sentence: str, available: bool) -> Finding | None:
    """ "We don't carry that one, but other options are available": some variant of the
    product the sentence names is available (none is: contradicted). ``None`` when the
    sentence names no product with variants."""
    words = _sentence_words(sentence)
    products = [leaf for leaf in _availability_leaves(index) if _names_product(leaf.record, words)]
    if not products:
        return None
    held = [leaf for leaf in products if says_available(leaf)]
    if bool(held) == available:
        return _availability(index, "supported", (held or products)[-1])
    return _availability(index, "contradicted", (products if available else held)[-1])


def _sentence_words(sentence: str, *, hyphen_parts: bool = False) -> set[str]:
    """The words a sentence may name values and products by, lowercase."""
    words = set(_VALUE_WORD.findall(sentence.lower()))
    if hyphen_parts:
        # "the canister-based vacuum": the parts of a hyphenated word name values too
        words.update(part for w in list(words) if "-" in w for part in w.split("-") if part)
    # "the T-shirts": a plural names the product too
    words.update(w[:-1] for w in list(words) if w.endswith("s") and len(w) > 3)
    return words


def _availability(index: ReceiptIndex, status: FindingStatus, leaf: Leaf) -> Finding:
    r = index.receipt_of(leaf)
    line = evidence_line(index, leaf)
    detail = line if status == "supported" else f"contradicts {line}"
    return Finding(status, r.id, r.kind, detail, leaf.path)


def _names_product(rec: Record, words: set[str]) -> bool:
    return any(set(name.split()) <= words for r in rec.lineage() for name in r.names)


def _option_values(rec: Record) -> frozenset[str]:
    """The values that describe a record (its options), lowercase."""
    return frozenset(
        leaf.value.shown.lower()
        for leaf in rec.subtree_leaves()
        if leaf.value.kind not in _NOT_DESCRIPTIVE and "price" not in leaf.words
    )


def _value_parts(value: str) -> set[str]:
    """A value's words, a plural as its singular ("4 hours" is described by "4-hour")."""
    return {
        w[:-1] if w.endswith("s") and len(w) > 3 and not w.endswith("ss") else w
        for w in _VALUE_WORD.findall(value)
    }


def says_available(leaf: Leaf) -> bool:
    """Whether an availability field says available: ``true``, or a count above 0 (a
    room type's ``"available": 3``)."""
    if leaf.value.kind == "bool":
        return leaf.value.keys == ("b:true",)
    return (leaf.value.number or 0) > 0


def _is_availability(leaf: Leaf) -> bool:
    return leaf.value.kind == "bool" or (
        leaf.value.kind in ("count", "number") and leaf.value.number is not None
    )


def _availability_leaves(index: ReceiptIndex) -> list[Leaf]:
    """The availability fields of the evidence: yes/no, or how many are left."""
    cached = index.cache.get("availability")
    if isinstance(cached, list):
        return cached
    found = [
        leaf
        for key in AVAILABLE_KEYS
        for leaf in index.by_field.get(key, ())
        if _is_availability(leaf) and not leaf.path.startswith("args")
    ]
    found.sort(key=index.position)
    index.cache["availability"] = found
    return found


_NOT_DESCRIPTIVE = frozenset({"money", "bool", "id", "text"})


#: A line that gives availability under a label: "Availability: In stock", "Stock: sold out".
_LABELLED = re.compile(
    r"^[\W_]*(?:availability|stock|in\s+stock|status)[\s*_]*:[\s*_]*"
    r"(?P<state>in\s+stock|available|out\s+of\s+stock|unavailable|not\s+available|sold\s+out)"
    r"[\s.!*_]*$",
    re.IGNORECASE,
)


#: ... or a sentence that says it of what the sentence before named: "It is currently out
#: of stock.", "This variant is still available."
SAID_OF = re.compile(
    r"^[\W_]*(?:it|this|that)(?:\s+(?:one|item|variant|option|model|product))?\s+"
    r"(?:is|['’]s)\s+(?:currently\s+|still\s+|now\s+|also\s+)*"
    r"(?P<state>in\s+stock|available|out\s+of\s+stock|unavailable|not\s+available|sold\s+out)"
    r"[\s.!*_]*$",
    re.IGNORECASE,
)


def _available_fields(records: Sequence[Record]) -> list[Leaf]:
    """The yes/no availability fields (``available``) the records hold themselves."""
    return [
        x
        for rec in records
        for x in rec.leaves
        if x.key.lower() in AVAILABLE_KEYS and _is_availability(x)
    ]


def labelled_availability(
    index: ReceiptIndex, line: str, records: Sequence[Record]
) -> Finding | None:
    """ "- Availability: In stock" under the item a list is about ("It is currently out of
    stock." after the sentence that named it): backed when one of the
    records the line is about (its anchor) holds that availability, contradicted when each
    of them that has the field holds the other; ``None`` for another line, or when none
    has the field."""
    m = _LABELLED.match(line) or SAID_OF.match(line)
    if m is None or not records:
        return None
    claimed = m.group("state").lower().split()[0] in ("in", "available")
    # the records that hold the field themselves (the variant the sentence named) before
    # the rows under a whole result it is also about (every variant of the product)
    held = _available_fields(records) or _available_fields(
        [r for rec in records for r in rec.subtree()]
    )
    if not held:
        return None
    same = [x for x in held if says_available(x) == claimed]
    leaf = same[0] if same else held[0]
    shown = evidence_line(index, leaf)
    if same:
        return Finding("supported", index.receipt_of(leaf).id, "tool", shown)
    detail = f"contradicts {shown}, claimed {m.group('state').lower()}"
    return Finding("contradicted", index.receipt_of(leaf).id, "tool", detail)
