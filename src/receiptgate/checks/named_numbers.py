"""Numbers that are names, not quantities: "Coach 14 stops in sector C" (the coach
numbered 14, not fourteen stops), "The direct TGV 9576 leaves at 07:04" (a train),
"The crashing ones are 2xkqp and 9lwzt" (the tails of two pod names), "Section 001"
(of "CSCI-3410-001"), "Keller Hall 3-210" (a room).

A number is a name when the word before it is the field that holds it ("coach": 14,
"platform": "13"), when it and the word before it are a value held whole ("train": "TGV
9576"), when it is a part of an id of the field named for the word before it
(``section_id``), when the token it is in is a value held whole ("3-210"), or when the
token it starts is a part of an identifier the evidence holds, between its dashes, dots
or slashes (``checkout-api-7d9f8b6c5-2xkqp``); "MATH 2243" is also the head of the id
"MATH-2243-020". Such a number restates a name; it only backs, it never contradicts (a
name that is wrong is told by the record it names).
"""

from __future__ import annotations

import re

from receiptgate.checks.figures import supported
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import key_words, num_key

_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z-]*)\s*#?\s*$")
#: What may follow a field's noun in its name: "coach_number", "platform_no".
_NUMBER_WORDS = frozenset({"number", "no", "num", "nr", "id"})
_TOKEN = re.compile(r"[A-Za-z0-9]+")
#: A value written with dashes or slashes between its parts ("3-210", "B-12/4").
_JOINED = re.compile(r"[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)+")
_JOINED_START = re.compile(r"[A-Za-z0-9/-]*$")
_SEGMENT_SPLIT = re.compile(r"[-_./:\s]+")
#: Parts shorter than this are no name of their own ("v2", "a1").
_SHORTEST_PART = 4


def named_number(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """Support of a number written as a name (see the module doc), or ``None``."""
    if h.kind not in ("count", "number") or h.number is None:
        return None
    before = _WORD_BEFORE.search(sentence[:at])
    digits = _TOKEN.match(sentence, at)
    if digits is None:
        return None
    token = digits.group(0)
    if before is not None and token.isdigit():
        word = before.group(1).lower()
        held = (
            _whole(index, f"{word} {token}")
            or _labelled(index, word, h.number)
            or _id_part(index, word, token)
        )
        if held is not None:
            return supported(index, h, held)
    lead = _JOINED_START.search(sentence[:at])
    joined = _JOINED.match(sentence, lead.start() if lead is not None else at)
    if joined is not None and joined.group() != token and at < joined.end():
        # "Keller Hall 3-210": the room "3-210", one value with its dash
        held = _whole(index, joined.group().lower())
        if held is not None:
            return supported(index, h, held)
    if not token.isdigit() and len(token) >= _SHORTEST_PART:
        part = _parts(index).get(token.lower())
        if part is not None:
            return supported(index, h, part)
    return None


def _whole(index: ReceiptIndex, said: str) -> Leaf | None:
    """A value that is the word and the number, as written ("TGV 9576")."""
    squeezed = said.replace(" ", "")
    keys = (f"w:{said}", f"i:{said}", f"i:{squeezed}", f"i:{said.replace(' ', '-')}")
    found = [leaf for leaf in index.leaves(keys) if index.receipt_of(leaf).kind != "user"]
    # ... or the head of an id, its parts apart ("MATH 2243" of "MATH-2243-020")
    return found[-1] if found else _parts(index).get(said)


def _id_part(index: ReceiptIndex, word: str, token: str) -> Leaf | None:
    """A part of an id of the field named for the word before the number ("Section 001"
    of ``"section_id": "CSCI-3410-001"``)."""
    for key in (f"{word}_id", f"{word}id", f"{word}_number", f"{word}_code", word):
        for leaf in index.by_field.get(key, ()):
            if token in _SEGMENT_SPLIT.split(leaf.value.shown.lower()):
                return leaf
    return None


def _labelled(index: ReceiptIndex, word: str, number: float) -> Leaf | None:
    """A field named for the word before the number that holds it ("coach": 14)."""
    singular = word[:-1] if word.endswith("s") and len(word) > 3 else word
    for leaf in reversed(index.leaves((num_key(number),))):
        if leaf.value.kind not in ("count", "number", "id") or leaf.value.number != number:
            continue
        words = key_words(leaf.key)
        if words and words[0] in (word, singular) and set(words[1:]) <= _NUMBER_WORDS:
            return leaf
    return None


def _parts(index: ReceiptIndex) -> dict[str, Leaf]:
    """The parts of the evidence's identifiers and names of letters and digits both, by
    lowercase text, built once per index (again when a streaming index grows)."""
    cached = index.cache.get("id_parts")
    if isinstance(cached, tuple) and cached[0] == len(index.entries):
        return cached[1]  # type: ignore[no-any-return]
    found: dict[str, Leaf] = {}
    for entry in index.entries:
        if entry.receipt.kind != "user":
            for piece, leaf in _entry_parts(entry).items():
                found.setdefault(piece, leaf)
    index.cache["id_parts"] = (len(index.entries), found)
    return found


def _entry_parts(entry: ReceiptEntry) -> dict[str, Leaf]:
    """One receipt's identifier parts, worked out once per content (``entry.memo``)."""
    return entry.worked_out("id_parts", _id_parts)


def _id_parts(entry: ReceiptEntry) -> dict[str, Leaf]:
    found: dict[str, Leaf] = {}
    for rec in entry.records:
        for leaf in rec.leaves:
            if leaf.value.kind not in ("id", "word") or len(leaf.value.shown) > 80:
                continue
            pieces = _SEGMENT_SPLIT.split(leaf.value.shown.lower())
            for k in range(2, len(pieces) + 1) if leaf.value.kind == "id" else ():
                found.setdefault(" ".join(pieces[:k]), leaf)  # "math 2243", "math 2243 020"
            for piece in pieces if len(pieces) > 1 else ():
                if (
                    len(piece) >= _SHORTEST_PART
                    and any(c.isdigit() for c in piece)
                    and any(c.isalpha() for c in piece)
                ):
                    found.setdefault(piece, leaf)
    return found
