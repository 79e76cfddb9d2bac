"""Shares: a percentage a reply gives of a limit or a whole ("That's about 64% of your API
quota", "you're using 92% of your seats") as one field of a row over another of the same
row (checks/arithmetic tries it first for a percentage no record holds)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.about import field_words
from receiptgate.checks.operands import Derivation, show_number
from receiptgate.checks.words import content_words
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Record

#: A share rounded or said as about: "about 64%", "roughly 92%", "~40%".
_ABOUT = re.compile(r"\b(?:about|around|roughly|approximately|nearly|almost|over|under)\s+$|~\s*$")


def share_of(
    index: ReceiptIndex, h: HardFact, records: Sequence[Record], sentence: str
) -> Derivation | None:
    """ "That's about 64% of your API quota": one field of a record over another of the
    same record (``api_calls`` over ``api_call_limit``; ``used`` over ``purchased``), as
    a percentage rounded as the claim is written (to its last digit; "about" allows one
    point more). Only two fields of one row: any two numbers of a result would give
    almost any share."""
    if h.number is None:
        return None
    at = sentence.find(h.text)
    decimals = len(h.text.split(".", 1)[1].rstrip("%").strip()) if "." in h.text else 0
    slack = 0.5 * 10**-decimals + (1.0 if at >= 0 and _ABOUT.search(sentence[:at]) else 0.0)
    said = content_words(sentence)
    rows = {id(r): r for r in records}
    for rec in list(rows.values()):
        for r in rec.subtree():
            rows.setdefault(id(r), r)
    for entry in index.entries:
        # ... and the rows of any result whose fields the sentence names ("your API quota"
        # of api_call_limit), wherever it is
        for r in entry.records:
            if any(said & field_words(x) for x in r.leaves if x.value.number is not None):
                rows.setdefault(id(r), r)
    for rec in rows.values():
        nums = [
            x
            for x in rec.leaves
            if x.value.kind in ("count", "number", "money") and x.path != "text"
        ]  # (fields of records: two figures a command printed make no share)
        for part in nums:
            for whole in nums:
                p, w = part.value.number, whole.value.number
                if part is whole or p is None or not w or p <= 0 or p >= w:
                    continue
                if not said & (field_words(part) | field_words(whole)):
                    continue  # two fields of the row the sentence does not name
                share = 100 * p / w
                if abs(share - h.number) <= slack:
                    formula = (
                        f"{h.text} ≈ {show_number(p)} / {show_number(w)} = {share:.1f}% "
                        f"({part.key} of {whole.key})"
                    )
                    return Derivation("supported", formula, part)
    return None
