"""Street addresses a sentence restates: "The branch is at 705 Bush St" against the
branch's ``"line1": "705 Bush St"``.

A house number and the street after it, of an English street type ("705 Bush St",
"1600 Amphitheatre Parkway"; "St" and "Street" are one), are looked up by the street: a
value of the evidence that names the same street with the same number backs it; one that
names it with other numbers only contradicts it ("570 Bush St"). A street no value names
decides nothing here.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.text.segment import Sentence

_TYPES = (
    r"St|Street|Ave|Avenue|Rd|Road|Blvd|Boulevard|Dr|Drive|Ln|Lane|Way|Pl|Place|Ct|Court|"
    r"Sq|Square|Pkwy|Parkway|Hwy|Highway|Ter|Terrace"
)
#: "705 Bush St", "1600 Amphitheatre Parkway", "221B Baker Street".
_ADDRESS = re.compile(rf"\b(\d{{1,6}}[A-Za-z]?)\s+((?:[A-Z][\w'-]*\s+){{1,3}}(?:{_TYPES}))\b\.?")


#: Street types written short or long: one key for both.
_SHORT = {
    "street": "st", "avenue": "ave", "road": "rd", "boulevard": "blvd", "drive": "dr",
    "lane": "ln", "place": "pl", "court": "ct", "square": "sq", "parkway": "pkwy",
    "highway": "hwy", "terrace": "ter",
}  # fmt: skip


def _street(name: str) -> str:
    words = name.lower().split()
    return " ".join([*words[:-1], _SHORT.get(words[-1], words[-1])])


def street_claims(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """The street addresses of a sentence, each backed or contradicted (see the module
    doc)."""
    out: list[RecordClaim] = []
    for m in _ADDRESS.finditer(s.text):
        number, street = m.group(1).lower(), _street(m.group(2))
        held = _numbers_of(index).get(street)
        if not held:
            continue
        a, b = s.start + m.start(), s.start + m.end(1) + 1 + len(m.group(2))
        fact = record_fact("value", a, b, s.text[m.start() : m.end()].rstrip("."))
        if number in held:
            rid, shown = held[number]
            finding = Finding("supported", rid, "tool", f"{rid} holds {shown!r}", value=fact)
        else:
            rid, shown = next(iter(held.values()))
            detail = f"contradicts {rid}: it gives {shown!r}, not {number} {m.group(2)}"
            finding = Finding("contradicted", rid, "tool", detail, value=fact)
        out.append(RecordClaim("value", a, b, fact.text, finding))
    return out


def _numbers_of(index: ReceiptIndex) -> dict[str, dict[str, tuple[str, str]]]:
    """Street (lowercase) -> house number -> (receipt id, value), over the evidence's
    short values, once per index size."""
    cached = index.cache.get("streets")
    if isinstance(cached, tuple) and cached[0] == len(index.entries):
        return cached[1]  # type: ignore[no-any-return]
    found: dict[str, dict[str, tuple[str, str]]] = {}
    for e in index.entries:
        if e.receipt.kind in ("tool", "user", "rag", "doc"):
            for street, number, shown in _entry_streets(e):
                found.setdefault(street, {}).setdefault(number, (e.receipt.id or "", shown))
    index.cache["streets"] = (len(index.entries), found)
    return found


def _entry_streets(e: ReceiptEntry) -> list[tuple[str, str, str]]:
    """One receipt's streets: (street, house number, value), once per content."""
    return e.worked_out("streets", _streets_of)


def _streets_of(e: ReceiptEntry) -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for rec in e.records:
        for leaf in rec.leaves:
            if leaf.value.kind not in ("word", "text", "id") or len(leaf.value.shown) > 120:
                continue
            for m in _ADDRESS.finditer(leaf.value.shown):
                street = _street(m.group(2))
                out.append((street, m.group(1).lower(), leaf.value.shown))
    return out
