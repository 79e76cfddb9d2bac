"""Names and e-mail addresses a sentence restates (``checks/records`` reads them with the
rest of a sentence's ids and values).

A full name one half of which is a person's of the records and the other half unknown
("Mia Lee" where the records have Mia Li) is contradicted; an e-mail address is backed by
a receipt that holds it and contradicted where the evidence holds other addresses only.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.checks.words import STOPWORDS
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.text.segment import Sentence

_FULL_NAME = re.compile(r"\b([A-Z][a-z]{1,20})\s+([A-Z][a-z]{1,20})\b")


def half_known_names(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """Full names with one half a person's of the records and the other unknown."""
    firsts, lasts = _name_halves(index)
    out = []
    for m in _FULL_NAME.finditer(s.text):
        first, last = m.group(1).lower(), m.group(2).lower()
        if f"{first} {last}" in index.people:
            continue
        other = last if first in firsts else first if last in lasts else None
        if other is None or other in STOPWORDS or _known_word(index, other):
            continue
        a, b = s.start + m.start(), s.start + m.end()
        out.append(unknown_name(index, a, b, m.group()))
    return out


def _name_halves(index: ReceiptIndex) -> tuple[frozenset[str], frozenset[str]]:
    cached = index.cache.get("name_halves")
    if cached is None:
        firsts = frozenset(p.split()[0] for p in index.people if " " in p)
        lasts = frozenset(p.split()[-1] for p in index.people if " " in p)
        cached = index.cache["name_halves"] = (firsts, lasts)
    return cached  # type: ignore[return-value]


def _known_word(index: ReceiptIndex, word: str) -> bool:
    return (
        word in index.words
        or word in index.people_words
        or word in index.user_words
        or word in index.name_words
    )


def unknown_name(index: ReceiptIndex, a: int, b: int, name: str) -> RecordClaim:
    """A person's name that no record holds, where the records name people."""
    people = ", ".join(sorted(index.people)[:3])
    detail = f"no record names {name} (the people here: {people})"
    return RecordClaim(
        "name",
        a,
        b,
        name,
        Finding("contradicted", None, None, detail, value=record_fact("name", a, b, name)),
    )


EMAIL = re.compile(r"\b[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}\b", re.IGNORECASE)


def email_claim(index: ReceiptIndex, address: str, a: int, b: int) -> RecordClaim | None:
    """An e-mail address the sentence gives: a receipt that holds it backs it; where the
    evidence holds other addresses and none is this one, it is contradicted (a lookup
    "for yusuf.rossi@gmail.com" after the user wrote yusuf.rossi@email.com)."""
    held = _emails(index)
    if not held:
        return None
    f = record_fact("id", a, b, address)
    r = held.get(address.lower())
    if r is not None:
        found = Finding("supported", r.id, r.kind, f"{r.id} holds {address}", value=f)
        return RecordClaim("id", a, b, address, found)
    shown = ", ".join(sorted(held)[:3])
    detail = f"no receipt holds the address {address} (addresses here: {shown})"
    return RecordClaim("id", a, b, address, Finding("contradicted", None, None, detail, value=f))


def _emails(index: ReceiptIndex) -> dict[str, Receipt]:
    """The addresses the receipts hold, in a call's arguments or output, with the first
    receipt that holds each (worked out once per index size)."""
    cached = index.cache.get("emails")
    if isinstance(cached, dict):
        return cached
    out: dict[str, Receipt] = {}
    for e in index.entries:
        if "@" in e.text:
            for x in EMAIL.findall(e.text):
                out.setdefault(x.lower(), e.receipt)
    index.cache["emails"] = out
    return out
