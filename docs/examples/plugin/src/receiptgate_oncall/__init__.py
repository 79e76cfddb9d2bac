"""A receiptgate detector plugin: who is on call ("Dana is on call this week")."""

from __future__ import annotations

import re

from receiptgate.claims.detectors.base import Detector, Pattern, RegisterFn
from receiptgate.claims.models import DetectedClaim
from receiptgate.text.segment import Sentence


class OnCallDetector(Detector):
    """Claims about who is on call; checked against entity_name facts."""

    id = "oncall"
    category = "entity_name"
    PATTERNS = (
        Pattern(
            "is_on_call",
            # Valid for RE2 and Python re; matched case-insensitively, so the
            # capital letter is forced with (?-i:...).
            r"\b((?-i:[A-Z])[a-z]+)\s+(?:is|was)\s+(?:the\s+)?on[- ]call\b",
            subject=1,
            assertion="on_call",
            confidence=0.9,
        ),
    )

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        if claim.subject.lower() in ("nobody", "someone", "who"):
            return None  # not a name
        return claim


def register_detectors(register: RegisterFn) -> None:
    """Entry point of the ``receiptgate.detectors`` group."""
    register(OnCallDetector())
