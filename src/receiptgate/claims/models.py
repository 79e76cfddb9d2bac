"""The claim model: typed, located assertions found in agent output.

Offsets (``offset``/``end``, ``start``/``end``) always index the original text
passed to the gate, never a truncated or re-segmented copy.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

#: What a detector (built-in, custom or a judge) can say a claim is.
DetectorCategory = Literal[
    "system_state",
    "entity_name",
    "existence",
    "operational_status",
    "capability",
    "self_referential",
    "quantity",
    "temporal",
    "action",
    "attribution",
]
#: ... and "record": an id, name, state or value restated from a receipt's record, found
#: by the record check (checks/records.py), never by a detector or a fact.
ClaimCategory = Literal[DetectorCategory, "record"]

#: The RFC-003 categories, checked against fact registries with the trust-tier table.
RFC_CATEGORIES: tuple[ClaimCategory, ...] = (
    "system_state",
    "entity_name",
    "existence",
    "operational_status",
    "capability",
    "self_referential",
)

ALL_CATEGORIES: tuple[ClaimCategory, ...] = (
    *RFC_CATEGORIES,
    "quantity",
    "temporal",
    "action",
    "attribution",
    "record",
)

HardFactKind = Literal[
    "money",
    "percent",
    "count",
    "number",
    "version",
    "date",
    "time",
    "datetime",
    "duration",
    "identifier",
]


@dataclass(slots=True, frozen=True)
class HardFact:
    """A hard, checkable value inside a sentence (a number, date, amount, id).

    Attributes:
        kind: what sort of value this is.
        text: the exact text, ``original[start:end]``.
        start: offset of the first character in the original text.
        end: offset one past the last character.
        value: the normalised, comparable key: equal values give equal keys
            ("2.4 million USD" and "$2,400,000" both give ``"USD 2400000"``).
        number: the numeric magnitude when there is one.
        unit: currency code, ``%``, a count unit ("events"), a time unit, ...
    """

    kind: HardFactKind
    text: str
    start: int
    end: int
    value: str
    number: float | None = None
    unit: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "value": self.value,
            "number": self.number,
            "unit": self.unit,
        }


@dataclass(slots=True)
class DetectedClaim:
    """One claim found by a detector (RFC-003 §4.3, extended).

    Attributes:
        category: the claim category.
        detector_id: the detector (builtin or custom) that matched.
        matched_text: ``original[offset:end]``.
        offset: character offset of the match in the original text.
        end: offset one past the match.
        subject: what the claim is about ("Node.js", "The service", "Iulia").
        assertion: what is asserted ("not_installed", "running", "name_reference").
        negative: whether the claim is negative ("not X", "no X", "X doesn't").
        confidence: how certain the pattern match is, 0.0-1.0.
        sentence_index: index of the sentence holding the match.
        object: a second argument, e.g. the feature in "X doesn't support Y".
        predicate: for value claims, what is measured ("count", "percentage").
        value: for value claims, the claimed value as written ("150 items").
        hard_facts: hard values carried by the claim.
    """

    category: ClaimCategory
    detector_id: str
    matched_text: str
    offset: int
    end: int
    subject: str
    assertion: str
    negative: bool = False
    confidence: float = 0.8
    sentence_index: int = 0
    object: str | None = None
    predicate: str | None = None
    value: str | None = None
    hard_facts: list[HardFact] = field(default_factory=list)

    def dedup_key(self) -> tuple[str, str, str, bool, str | None]:
        return (self.category, self.subject.lower(), self.assertion, self.negative, self.object)

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "detector_id": self.detector_id,
            "matched_text": self.matched_text,
            "offset": self.offset,
            "end": self.end,
            "subject": self.subject,
            "assertion": self.assertion,
            "negative": self.negative,
            "confidence": self.confidence,
            "sentence_index": self.sentence_index,
            "object": self.object,
            "predicate": self.predicate,
            "value": self.value,
            "hard_facts": [h.to_dict() for h in self.hard_facts],
        }
