"""The detector seam: a small base class, a pattern spec and the registry.

A detector is one class of constants (``PATTERNS``) plus an optional
``validate_result`` hook, in the manner of presidio's recognizers. Built-in
detectors and third-party ones register through the same entry-point group,
``receiptgate.detectors``: each entry point names a function that takes a
``register`` callback and calls it once per detector.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib import metadata
from typing import TYPE_CHECKING, Literal

from receiptgate.claims.detectors.phrases import phrase_after, subject_before
from receiptgate.claims.models import ClaimCategory, DetectedClaim

if TYPE_CHECKING:
    from receiptgate.text.segment import Sentence

ENTRY_POINT_GROUP = "receiptgate.detectors"

SubjectSource = Literal["before", "after", "self"] | int

# A condition or a purpose asserts nothing: "if the file does not exist", "to ensure that
# there are no other issues".
_CONDITIONAL = re.compile(
    r"\b(?:if|unless|whether|in\s+case|as\s+long\s+as|provided\s+that|assuming|"
    r"to\s+(?:ensure|make\s+sure|verify|confirm|check|see)|"
    # a check still to be done: "I'll check what options are available", "I'll just need
    # to double-check that the item is in stock"
    r"(?:['’]ll|will|need\s+to|going\s+to|let\s+me)\s+(?:\w+\s+){0,2}?"
    r"(?:double-check|check|verify|confirm|see)|check\s+(?:what|which|whether))\b",
    re.IGNORECASE,
)
_CLAUSE_END = re.compile(r"[,;:]\s")


def _clause_start(text: str, sentence_start: int, at: int) -> int:
    start = sentence_start
    for m in _CLAUSE_END.finditer(text, sentence_start, at):
        start = m.end()
    return start


#: Confidence below which hedged claims fall (they never block on their own).
HEDGED_CONFIDENCE = 0.5


@dataclass(frozen=True, slots=True)
class Pattern:
    """One pattern of a detector.

    ``regex`` must be valid for both RE2 (it feeds a prefilter set) and Python's
    ``re`` (which extracts groups); it is matched case-insensitively.

    Attributes:
        name: short id, unique within the detector (``detector_id`` becomes
            ``"<detector>.<name>"``).
        regex: the pattern; anchored on a verb phrase wherever possible.
        subject: where the subject is: read backwards from the match
            (``"before"``), forwards from its end (``"after"``) or a group number.
        assertion: fixed assertion, or the group number holding it.
        negative: fixed polarity, or the groups whose presence makes it negative.
        confidence: confidence of a match.
        obj: where the claim's object is: a group number, or the phrase read
            after the match (``"after"``) or before it (``"before"``).
        predicate: for value claims, what is measured ("count", "percentage").
        value: the group holding the claimed value of a value claim.
    """

    name: str
    regex: str
    subject: SubjectSource
    assertion: str | int
    negative: bool | int | tuple[int, ...] = False
    confidence: float = 0.9
    obj: int | Literal["after", "before"] | None = None
    predicate: str | None = None
    value: int | None = None


class Detector:
    """Base class of claim detectors.

    Subclasses set ``id``, ``category``, ``PATTERNS`` and optionally
    ``config_key`` (the ``builtinDetectors`` switch) and override
    ``validate_result`` to veto or adjust a claim.
    """

    id: str = ""
    category: ClaimCategory = "system_state"
    config_key: str | None = None
    #: Wins overlaps against lower priorities (custom detectors: 10).
    priority: int = 0
    PATTERNS: tuple[Pattern, ...] = ()

    def __init__(self) -> None:
        self._compiled = tuple(re.compile(p.regex, re.IGNORECASE) for p in self.PATTERNS)

    def prefilter_patterns(self) -> Iterator[tuple[int, str]]:
        """Yields ``(pattern_index, regex)`` for the shared RE2 prefilter set."""
        for i, p in enumerate(self.PATTERNS):
            yield i, p.regex

    def detect(self, text: str, sentence: Sentence, pattern_index: int) -> Iterator[DetectedClaim]:
        """Runs one pattern over one sentence of ``text``."""
        spec = self.PATTERNS[pattern_index]
        for m in self._compiled[pattern_index].finditer(text, sentence.start, sentence.end):
            claim = self._build(text, sentence, spec, m)
            if claim is not None:
                checked = self.validate_result(claim, text, sentence, m)
                if checked is not None:
                    yield checked

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        """Hook: return the claim (possibly adjusted) or ``None`` to drop it."""
        return claim

    def _build(
        self, text: str, sentence: Sentence, spec: Pattern, m: re.Match[str]
    ) -> DetectedClaim | None:
        start, end = m.start(), m.end()
        if _CONDITIONAL.search(text, _clause_start(text, sentence.start, start), start):
            return None  # "If the config file does not exist, ..." asserts nothing
        confidence = spec.confidence
        obj: str | None = None
        if spec.subject == "before":
            subject, s_start, hedged, conditional = subject_before(text, sentence.start, start)
            if conditional or not subject:
                return None
            if hedged:
                confidence = min(confidence, HEDGED_CONFIDENCE)
            start = s_start
        elif spec.subject == "after":
            subject, kind, s_end = phrase_after(text, end, sentence.end)
            if not subject:
                return None
            end = max(end, s_end)
            obj = kind
        elif spec.subject == "self":
            subject = "self"
        else:
            subject = (m.group(spec.subject) or "").strip("\"'`“”‘’").rstrip(".,;:!?")
            if not subject:
                return None
        if spec.obj == "after":
            name, kind, o_end = phrase_after(text, m.end(), sentence.end)
            # "the config file" stays whole: the kind word says which file.
            obj = (f"{kind} {name}" if kind else name) or None
            end = max(end, o_end)
        elif spec.obj == "before":
            obj = subject_before(text, sentence.start, m.start())[0] or None
        elif spec.obj is not None:
            obj = m.group(spec.obj) or obj
        if isinstance(spec.assertion, int):
            assertion = (m.group(spec.assertion) or "").lower()
            assertion = re.sub(r"\s+", "_", assertion.strip())
        else:
            assertion = spec.assertion
        if isinstance(spec.negative, bool):
            negative = spec.negative
        elif isinstance(spec.negative, int):
            negative = m.group(spec.negative) is not None
        else:
            negative = any(m.group(g) is not None for g in spec.negative)
        if negative and not assertion.startswith("not_") and isinstance(spec.assertion, int):
            assertion = "not_" + assertion
        return DetectedClaim(
            category=self.category,
            detector_id=f"{self.id}.{spec.name}",
            matched_text=text[start:end],
            offset=start,
            end=end,
            subject=subject,
            assertion=assertion,
            negative=negative,
            confidence=confidence,
            sentence_index=sentence.index,
            object=obj,
            predicate=spec.predicate,
            value=m.group(spec.value) if spec.value is not None else None,
        )


RegisterFn = Callable[[Detector], None]


class DetectorRegistry:
    """All known detectors by id: built-ins, plugins and custom ones from config."""

    def __init__(self) -> None:
        self._detectors: dict[str, Detector] = {}

    def register(self, detector: Detector) -> None:
        """Adds a detector; a second detector with the same id replaces the first."""
        if not detector.id:
            raise ValueError(f"{type(detector).__name__} has no id")
        self._detectors[detector.id] = detector

    def get(self, detector_id: str) -> Detector | None:
        return self._detectors.get(detector_id)

    def __iter__(self) -> Iterator[Detector]:
        return iter(self._detectors.values())

    def __len__(self) -> int:
        return len(self._detectors)

    def ids(self) -> list[str]:
        return list(self._detectors)


def _entry_point_hooks() -> Iterable[tuple[str, Callable[[RegisterFn], None]]]:
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        yield ep.name, ep.load()


def load_plugin_detectors(registry: DetectorRegistry) -> None:
    """Registers every detector exposed through the ``receiptgate.detectors`` group.

    The built-in set is registered through its own entry point; when receiptgate
    runs from a source tree without installed metadata, it is registered directly
    so that the gate never runs without its built-ins.
    """
    from receiptgate.claims.detectors import builtin

    seen_builtin = False
    for _name, hook in _entry_point_hooks():
        seen_builtin = seen_builtin or hook is builtin.register_detectors
        hook(registry.register)
    if not seen_builtin:
        builtin.register_detectors(registry.register)
