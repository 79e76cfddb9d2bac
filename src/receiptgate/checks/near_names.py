"""A name one word off a name the records hold: "Dr. Leah Whitman" where the records name
Dr. Leah Whitfield, "Walgreens #04471" for Walgreens #04417, "Blue Shield Gold PPO" for the
Blue Shield Silver PPO plan.

A name written as names are (capitalised words, a title, a store's number) that no
receipt holds anywhere, with as many words as a name the records hold and only one of
them different, is that name changed: contradicted by it. A name with another number of
words ("Dr. Rao", "the Blue Shield plan") or held by a receipt is left to the other
checks.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.checks.words import stem
from receiptgate.claims.hard import NOT_NAMES
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence

#: Two to four words written as a name: capitalised words, a title with its dot, a number
#: after "#" ("Walgreens #04417").
_NAME = re.compile(
    r"\b(?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?[A-Z][\w'’&-]*(?:\s+(?:[A-Z][\w'’&-]*|#\d{2,}))+"
)
_WORD = re.compile(r"[#\w'’&-]+")


def _words(text: str) -> tuple[str, ...]:
    return tuple(_POSSESSIVE.sub("", w.lower()) for w in _WORD.findall(text))


_POSSESSIVE = re.compile(r"['’]s$")


def _held_names(index: ReceiptIndex) -> dict[int, list[tuple[tuple[str, ...], str]]]:
    """The records' names as words (with the name), by their number of words (once per
    index size)."""
    cached = index.cache.get("near_names")
    if isinstance(cached, tuple) and cached[0] == len(index.records_by_name):
        return cached[1]  # type: ignore[no-any-return]
    by_len: dict[int, list[tuple[tuple[str, ...], str]]] = {}
    for name in index.records_by_name:
        words = _words(name.replace(".", " "))
        if 2 <= len(words) <= 5:
            by_len.setdefault(len(words), []).append((words, name))
    index.cache["near_names"] = (len(index.records_by_name), by_len)
    return by_len


def near_names(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """The names of a sentence one word off a held name (see the module doc)."""
    if not index.records_by_name:
        return []
    out: list[RecordClaim] = []
    held = _held_names(index)
    for m in _NAME.finditer(s.text):
        words = _words(m.group().replace(".", " "))
        while words and words[0] in NOT_NAMES:
            words = words[1:]
        if len(words) < 2 or len(words) not in held:
            continue
        # (the names first, in memory; the receipts' text only for a name one word off)
        near = next((n for h, n in held[len(words)] if _one_off(words, h)), None)
        if near is None or near in index.people:
            continue  # (a person's name: the people of the records are read apart)
        shown = " ".join(words)
        if any(shown in e.text or m.group().lower() in e.text for e in index.entries):
            continue  # held as written somewhere (a user's message, a result's text)
        held_words = _words(near.replace(".", " "))
        other = next(w for w, h in zip(words, held_words, strict=True) if w != h)
        if any(other in e.text for e in index.entries):
            continue  # "Daiki Muller": a name of words the records hold apart (first_name)
        a, b = s.start + m.start(), s.start + m.end()
        fact = record_fact("name", a, b, m.group())
        rec = index.records_by_name[near][0]
        r = index.receipt_of(rec)
        shown = next((x.value.shown for x in rec.leaves if x.value.shown.lower() == near), near)
        detail = f"contradicts {r.id}: the records name {shown!r}, not {m.group()!r}"
        finding = Finding("contradicted", r.id, r.kind, detail, value=fact)
        out.append(RecordClaim("name", a, b, m.group(), finding))
    return out


def _one_off(said: tuple[str, ...], held: tuple[str, ...]) -> bool:
    """Whether two names differ in exactly one word past the first, of three characters
    or more each, and not as one word's forms ("Tea Kettles", "Tea Kettle")."""
    diff = [(i, x, y) for i, (x, y) in enumerate(zip(said, held, strict=True)) if x != y]
    if len(diff) != 1:
        return False
    i, x, y = diff[0]
    if i == 0 and not any(c.isdigit() for c in x):
        return False  # "Old Camera" of "Digital Camera": a word before the noun describes it
    return len(x) >= 3 and len(y) >= 3 and stem(x) != stem(y)
