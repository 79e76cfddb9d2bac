"""A rate the operator's documents state, times a count: "$90 for travel insurance" for three
passengers under "30 dollars per passenger"; "a $150 certificate" under "$50 times the
number of passengers".

A money figure no record holds is backed when a passage the sentence shares a word with
states an amount followed by a rate ("per passenger", "each", "times the number of") and
that amount times a count of the conversation makes the figure: a count the sentence
gives ("for 3 passengers", "× 2 bags") or the number of passengers of the reservation the
sentence is about. Any other product leaves the figure unsupported (it is never a
contradiction: which count was meant, the sentence may not say).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.document_figures import RATE_AFTER
from receiptgate.checks.documents import doc_words, library, ranked, rule_words
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt

#: A count the sentence gives: "for 3 passengers", "× 2 bags", "3 travelers".
_COUNT = re.compile(
    r"\b(\d{1,2})\s*(?:x\s+|×\s*)?(?:passengers?|people|persons?|travell?ers?|bags?|items?|"
    r"guests?|nights?|tickets?)\b",
    re.IGNORECASE,
)
_PASSENGER_ROW = re.compile(r"(?:^|\.)passengers\[\d+\]$")
#: Counts a rate is multiplied by (one is the rate itself, checked elsewhere).
_COUNTS = range(2, 13)
#: How many of the best passages are read.
_PASSAGES = 20


def document_rate(
    index: ReceiptIndex,
    h: HardFact,
    sentence: str,
    anchor_: Anchor,
    fresh: Callable[[Receipt], bool],
) -> Finding | None:
    """``h`` as a rate of the operator's documents times a count (see the module doc)."""
    if h.kind != "money" or h.number is None or h.number <= 0:
        return None
    lib, docs = library(index)
    if not lib.items:
        return None
    counts = {int(m.group(1)) for m in _COUNT.finditer(sentence)}
    for root in anchor_.results():
        # the reservation's passengers: its rows "passengers[0]", "passengers[1]", ...
        riders = {rec.path for rec in root.subtree() if _PASSENGER_ROW.search(rec.path)}
        if riders:
            counts.add(len(riders))
    counts &= set(_COUNTS)
    if not counts:
        return None
    words = rule_words(index, sentence, lead=True) - doc_words(h.text)
    for _, i, shared in ranked(lib, words)[:_PASSAGES]:
        if not shared:
            continue
        k, passage = lib.items[i]
        if not fresh(docs[k]):
            continue
        for fact, value in passage.values:
            rate = value.number
            at = passage.text.find(fact.text)
            if rate is None or fact.kind != "money" or at < 0:
                continue
            if not RATE_AFTER.match(passage.text, at + len(fact.text)):
                continue
            for n in sorted(counts):
                if abs(rate * n - h.number) <= 0.005:
                    r = docs[k]
                    detail = (
                        f"derived: {h.number:g} = {n} × {rate:g} ({r.id}: {passage.text[:60]!r})"
                    )
                    return Finding("supported", r.id, r.kind, detail, value=h)
    return None
