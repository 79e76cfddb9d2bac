"""Sizes in bytes, written in larger units: "The dump is about 187 MB" of
``"size_bytes": 187342211``, "app.bundle.js is 2.5 MB" of ``ls -l``'s "2457600 Nov 18",
"Image size: 187342211 bytes." in an event's message.

A size is in bytes when its field says so (``size_bytes``, ``bytes``, ``content_length``,
``size`` of a whole number of a thousand and more), when a text writes "bytes" after
it, or when it is the size column of an ``ls -l`` line (the number before the month).
A claimed size matches when the bytes, in the claimed unit, round to the figure as
written (to its decimal places; "about 190 MB" at its last digit that is no zero), in
decimal units (1 MB = 1,000,000 bytes) or binary ones (1 MiB = 1,048,576 bytes, which
tools also print as "MB"). It only backs: a size that matches no size in bytes is left
to the figure check.
"""

from __future__ import annotations

import re

from receiptgate.checks.approximate import about_before
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import key_words

_DECIMAL = {"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12}
_BINARY = {"kib": 2.0**10, "mib": 2.0**20, "gib": 2.0**30, "tib": 2.0**40}
#: Field words of a size in bytes.
_BYTE_FIELDS = frozenset({"bytes", "byte", "length"})
_SIZE_FIELDS = frozenset({"size", "filesize"})
_BYTES_AFTER = re.compile(r"\b(\d[\d,]{2,})\s*(?:bytes|B)\b")
_LS_SIZE = re.compile(
    r"\s(\d{3,})\s+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d", re.IGNORECASE
)


def _scales(unit: str) -> tuple[float, ...]:
    """What one claimed unit is in bytes: "MB" is 10^6 or, as tools print it, 2^20."""
    if unit in _DECIMAL:
        return (_DECIMAL[unit], _BINARY[unit[0] + "ib"])
    if unit in _BINARY:
        return (_BINARY[unit],)
    return (1.0,) if unit in ("byte", "bytes", "b") else ()


def byte_size(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """Support of a size that some size in bytes rounds to (see the module doc)."""
    scales = _scales((h.unit or "").lower())
    if not scales or h.number is None or h.number <= 0:
        return None
    written = re.match(r"[\d,]*\.?\d+", h.text)
    digits = written.group().replace(",", "") if written else ""
    places = len(digits.split(".")[1]) if "." in digits else 0
    tolerance = 0.5 * 10**-places + 1e-9
    if not places and about_before(sentence, at):
        # "about 190 MB": rounded at its last digit that is not a zero
        zeros = len(digits) - len(digits.rstrip("0"))
        tolerance = 0.5 * 10 ** min(zeros, len(digits) - 1) + 1e-9
    for entry in reversed(index.entries):
        if entry.receipt.kind == "user":
            continue
        for size, line, path in _sizes(entry):
            for scale in scales:
                if abs(size / scale - h.number) <= tolerance:
                    r = entry.receipt
                    detail = f"{r.id} {line}: {size:,} bytes, matches {h.text}"
                    return Finding("supported", r.id, r.kind, detail, path, value=h)
    return None


def _sizes(entry: ReceiptEntry) -> list[tuple[int, str, str]]:
    """One receipt's sizes in bytes: (bytes, where, path), once per content."""
    return entry.worked_out("byte_sizes", _find_sizes)


def _find_sizes(entry: ReceiptEntry) -> list[tuple[int, str, str]]:
    found: list[tuple[int, str, str]] = []
    for rec in entry.records:
        for leaf in rec.leaves:
            size = _field_size(leaf)
            if size is not None:
                found.append((size, f"{leaf.path} = {leaf.value.shown}", leaf.path))
    text = entry.receipt.content
    for pattern in (_BYTES_AFTER, _LS_SIZE):
        for m in pattern.finditer(text):
            quote = text[max(0, m.start() - 30) : m.end() + 10].replace("\n", " ").strip()
            found.append((int(m.group(1).replace(",", "")), repr(quote), "text"))
    return found


def _field_size(leaf: Leaf) -> int | None:
    v = leaf.value
    if v.number is None or not float(v.number).is_integer() or v.number < 1:
        return None
    words = set(key_words(leaf.key))
    if words & _BYTE_FIELDS or (words & _SIZE_FIELDS and v.number >= 1000):
        return int(v.number)
    return None
