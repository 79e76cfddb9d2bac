"""Grounded names: in a document-grounded answer, every name must come from the evidence.

When an answer is built from retrieved documents, database rows or the user's
own material, a person, place, product or organisation that none of them
mentions is a likely invention ("The agreement was signed by Pendant
Publishing" when the contract names Kramerica). Off by default; the policy key
``groundedNames`` turns it into a warning or a block.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from receiptgate.claims.hard import NOT_NAMES
from receiptgate.claims.models import DetectedClaim
from receiptgate.claims.sentence_type import NO_HARD_FACT_TYPES
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence

#: Receipt kinds that make a session "grounded" (answers are built from them).
GROUNDING_KINDS = frozenset({"rag", "db", "web", "user", "memory"})

_NAME = re.compile(
    r"[A-Z][a-zA-Z0-9'’&.-]*[a-zA-Z0-9](?:\s+(?:of\s+|de\s+|van\s+)?[A-Z][a-zA-Z0-9'’&.-]*[a-zA-Z0-9])*"
)


def names_in(sentence: str) -> Iterator[tuple[int, int, str]]:
    """Capitalised names in a sentence: ``(start, end, name)`` relative to it.

    The first word of a sentence counts only when it is not a common word
    ("The", "It", "However").
    """
    for m in _NAME.finditer(sentence):
        words = m.group().split()
        while words and words[0].lower().strip("'’") in NOT_NAMES:
            words = words[1:]
        if not words:
            continue
        name = " ".join(words)
        if len(name) < 3 or (name.isupper() and len(name) <= 3):
            continue  # acronyms like "API" or "SLA" name kinds of things, not entities
        start = m.end() - len(name) if m.group().endswith(name) else m.start()
        yield start, start + len(name), name


def is_grounded(index: ReceiptIndex) -> bool:
    """Whether the session holds document-like evidence to ground names in."""
    return any(e.receipt.kind in GROUNDING_KINDS for e in index.entries)


def known(index: ReceiptIndex, name: str) -> str | None:
    """The id of a receipt that mentions ``name`` (any of its words), if any."""
    low = name.lower()
    parts = [p for p in re.split(r"[\s'’]+", low) if len(p) > 2 and p not in NOT_NAMES]
    for e in index.entries:
        if low in e.text or (parts and any(p in e.text for p in parts)):
            return e.receipt.id
    return None


def ungrounded_names(
    sentences: Sequence[Sentence],
    types: Sequence[str],
    ledger: ReceiptIndex,
) -> list[DetectedClaim]:
    """A claim for each name no receipt mentions (policy ``groundedNames``)."""
    out: list[DetectedClaim] = []
    for s, stype in zip(sentences, types, strict=True):
        if stype in NO_HARD_FACT_TYPES or stype == "opinion":
            continue
        for start, end, name in names_in(s.text):
            if known(ledger, name) is None:
                out.append(
                    DetectedClaim(
                        category="entity_name",
                        detector_id="grounding.name",
                        matched_text=name,
                        offset=s.start + start,
                        end=s.start + end,
                        subject=name,
                        assertion="name_reference",
                        confidence=0.8,
                        sentence_index=s.index,
                    )
                )
    return out
