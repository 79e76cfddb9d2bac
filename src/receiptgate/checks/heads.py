"""The counts a derived figure may multiply by: those a sentence states ("2 nights",
"both", "for 3 passengers"), the count fields of the records it is about ("quantity": 3),
and the heads of a booking (its passengers, guests, travellers) — the reservation's own,
else the newest one's (checks/arithmetic, checks/named_sums).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import PATH_INDEX, ReceiptIndex
from receiptgate.evidence.records import Record

#: Counts a sentence may spell.
_COUNT_WORDS = {
    "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
    "nine": 9, "both": 2, "twice": 2, "double": 2, "triple": 3,
}  # fmt: skip
_COUNT_IN_TEXT = re.compile(
    r"(?<![\d.,$€£])\d(?![\d.,%]|:\d)|\b(?:" + "|".join(_COUNT_WORDS) + r")\b", re.IGNORECASE
)


def multiplier_counts(
    sentence: str, h: HardFact, records: Sequence[Record], index: ReceiptIndex | None = None
) -> frozenset[int]:
    """The counts a value may be multiplied by: those the sentence states ("2 nights",
    "both", "each of the three items") and the anchored records' count fields
    ("quantity": 3). A bare multiple of some value ("net 60" beside "net 30") is a
    coincidence, not a derivation."""
    out = stated_counts(sentence, h)
    if out and not _PER_HEAD.search(sentence):
        # "Total for 2: $342": the count the sentence states, not a count field of the
        # records that some fare times 3 would match ("2 free bags per passenger (6
        # total)": the 2 is per head, the heads are the reservation's)
        return frozenset(out)
    for rec in records:
        for r in rec.subtree():
            for leaf in r.leaves:
                v = leaf.value
                if v.kind == "count" and v.number is not None and 2 <= v.number < 10:
                    out.add(int(v.number))
    if _PER.search(sentence):
        # "$50 per passenger" times the passengers of the reservation it is about
        for rec in records:
            for r in rec.lineage():
                lists: dict[str, int] = {}
                for child in r.children:
                    name = PATH_INDEX.sub("", child.path)
                    lists[name] = lists.get(name, 0) + 1
                out.update(n for n in lists.values() if 2 <= n < 10)
    if index is not None and _PER_HEAD.search(sentence) and not heads_of(records):
        # "$30 per passenger ($90 total)" in a line about no reservation: the passengers of
        # the newest one the transcript holds
        out.update(n for n in (_newest_heads(index),) if 2 <= n < 10)
    return frozenset(out)


def stated_counts(sentence: str, h: HardFact) -> set[int]:
    """The counts from 2 to 9 a sentence states ("2 nights", "both", "three items"), but
    the figure itself."""
    out: set[int] = set()
    for m in _COUNT_IN_TEXT.finditer(sentence):
        word = m.group(0).lower()
        n = _COUNT_WORDS.get(word) if not word.isdigit() else int(word)
        if n is not None and 2 <= n < 10 and n != h.number:
            out.add(n)
    return out


def heads_of(records: Sequence[Record]) -> int:
    """How many passengers (guests, travelers) the records' lists hold, 0 if none."""
    for rec in records:
        for r in rec.lineage():
            n = sum(1 for c in r.children if _HEAD_LIST.search(PATH_INDEX.sub("", c.path)))
            if n:
                return n
    return 0


def _newest_heads(index: ReceiptIndex) -> int:
    for e in reversed(index.entries):
        for rec in e.records:
            n = heads_of([rec])
            if n:
                return n
    return 0


#: The list of people a booking is for.
_HEAD_LIST = re.compile(r"(?:passengers|guests|travell?ers|occupants)$", re.IGNORECASE)


#: A per-head amount the sentence states: "$30 per passenger", "2 bags per person".
_PER_HEAD = re.compile(
    r"\b(?:per|each)\s+(?:passenger|person|traveller|traveler|guest|head)\b", re.I
)

#: A sentence about a per-head amount or a total over heads.
_PER = re.compile(r"\b(?:per|each|every|total|all|both)\b", re.IGNORECASE)
