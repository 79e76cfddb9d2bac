"""Custom detectors from configuration (RFC-003 §4.5), compiled with RE2.

User patterns run on a linear-time engine, so no configured pattern can make
the gate backtrack catastrophically. A pattern RE2 rejects, or one longer than
``MAX_PATTERN_LENGTH``, fails at load with an error naming the detector.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import re2

from receiptgate._exceptions import ConfigError
from receiptgate.claims.detectors.base import Detector
from receiptgate.claims.models import DetectedClaim

if TYPE_CHECKING:
    from receiptgate.config import CustomClaimDetector
    from receiptgate.text.segment import Sentence

MAX_PATTERN_LENGTH = 500


def compile_user_pattern(pattern: str, where: str) -> Any:
    """Compiles a user-supplied pattern with RE2, or raises ``ConfigError`` naming ``where``."""
    if len(pattern) > MAX_PATTERN_LENGTH:
        raise ConfigError(
            f"{where}: pattern is {len(pattern)} characters long; the limit is {MAX_PATTERN_LENGTH}"
        )
    options = re2.Options()
    options.log_errors = False  # the error goes into our one-line message, not to stderr
    try:
        return re2.compile(pattern, options)
    except re2.error as e:
        reason = e.args[0] if e.args else e
        if isinstance(reason, bytes):
            reason = reason.decode("utf-8", "replace")
        raise ConfigError(f"{where}: RE2 cannot compile {pattern!r}: {reason}") from e


class CustomDetector(Detector):
    """A detector defined by one ``customDetectors`` entry of the config."""

    priority = 10  # an operator's own detector outranks a built-in reading the same words

    def __init__(self, spec: CustomClaimDetector, where: str = "customDetectors") -> None:
        super().__init__()
        self.id = spec.id
        self.category = spec.category
        self.spec = spec
        self._user_patterns = [
            compile_user_pattern(p, f"{where} {spec.id!r}: patterns[{i}]")
            for i, p in enumerate(spec.patterns)
        ]
        if spec.subject_group is not None:
            for i, compiled in enumerate(self._user_patterns):
                if spec.subject_group not in compiled.groupindex:
                    raise ConfigError(
                        f"{where} {spec.id!r}: patterns[{i}]: subjectGroup "
                        f"{spec.subject_group!r} is not a named group of the pattern"
                    )

    def prefilter_patterns(self) -> Iterator[tuple[int, str]]:
        yield from enumerate(self.spec.patterns)

    def detect(self, text: str, sentence: Sentence, pattern_index: int) -> Iterator[DetectedClaim]:
        compiled = self._user_patterns[pattern_index]
        spec = self.spec
        for m in compiled.finditer(text, sentence.start, sentence.end):
            if spec.subject_group is not None:
                subject = m.group(spec.subject_group) or ""
            elif compiled.groups >= 1:
                subject = m.group(1) or ""
            else:
                subject = m.group(0)
            start, end = m.span()
            if end <= start:
                continue  # an empty match asserts nothing
            yield DetectedClaim(
                category=spec.category,
                detector_id=spec.id,
                matched_text=text[start:end],
                offset=start,
                end=end,
                subject=subject.strip(),
                assertion=spec.assertion,
                negative=spec.negative,
                confidence=spec.confidence,
                sentence_index=sentence.index,
            )

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        return claim
