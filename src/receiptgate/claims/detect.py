"""Run the detectors over segmented text: prefilter, extract, deduplicate, cap.

Every pattern of every enabled detector goes into one RE2 set. One set match
per sentence tells which patterns can match there at all, so the per-pattern
regexes (which extract subjects and groups) only run where they will hit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

import re2

from receiptgate._exceptions import DetectorError
from receiptgate.claims.detectors.base import Detector
from receiptgate.claims.models import DetectedClaim
from receiptgate.text.segment import Sentence

#: Claims that are always checked, whatever the budget: the agent's own actions,
#: attributions and figures cost a lookup each, and dropping them would let a lie
#: through behind enough true sentences.
ALWAYS_CHECKED = frozenset({"action", "attribution", "quantity", "temporal"})


@dataclass(slots=True)
class DetectionResult:
    """Claims found, and which were past the budget."""

    claims: list[DetectedClaim]
    dropped: int = 0  # claims past maxClaimsPerOutput
    #: Sentences holding dropped claims: "not checked", the fail mode decides.
    unchecked: set[int] = field(default_factory=set)


def cap_claims(
    claims: list[DetectedClaim], max_claims: int
) -> tuple[list[DetectedClaim], list[DetectedClaim]]:
    """Keeps every always-checked claim and the first ``max_claims`` of the others.

    Budgets count work, never time, so the same text always gets the same verdict.
    Returns ``(kept, dropped)``, each in order; the dropped claims' sentences are for
    the caller to mark as not checked.
    """
    kept: list[DetectedClaim] = []
    dropped: list[DetectedClaim] = []
    counted = 0
    for c in claims:
        if c.category in ALWAYS_CHECKED or c.detector_id.startswith(("quantity.", "hardfact.")):
            kept.append(c)
        elif counted < max_claims:
            counted += 1
            kept.append(c)
        else:
            dropped.append(c)
    return kept, dropped


class ClaimDetector:
    """Runs a fixed set of detectors over sentences."""

    def __init__(self, detectors: Iterable[Detector]) -> None:
        self.detectors: list[Detector] = list(detectors)
        options = re2.Options()
        options.case_sensitive = False
        self._set = re2.Set.SearchSet(options)
        self._slots: list[tuple[Detector, int]] = []
        for det in self.detectors:
            for index, regex in det.prefilter_patterns():
                self._set.Add(regex)
                self._slots.append((det, index))
        self._empty = not self._slots
        if not self._empty:
            self._set.Compile()

    def detect(
        self,
        text: str,
        sentences: Sequence[Sentence],
        *,
        max_claims: int = 50,
        only: frozenset[str] | None = None,
    ) -> DetectionResult:
        """Finds claims in ``sentences`` of ``text``.

        Args:
            text: the original text (offsets index it).
            sentences: its segments.
            max_claims: cap on the claims that are not always checked
                (``maxClaimsPerOutput``, see :func:`cap_claims`).
            only: if given, only detectors with these ids run (detection depth).
        """
        result = DetectionResult(claims=[])
        if self._empty:
            return result
        claims = result.claims
        for sentence in sentences:
            hits = self._set.Match(sentence.text)
            if not hits:
                continue
            found: list[tuple[int, DetectedClaim]] = []
            for slot in sorted(cast("list[int]", hits)):
                det, index = self._slots[slot]
                if only is not None and det.id not in only:
                    continue
                try:
                    found.extend((det.priority, c) for c in det.detect(text, sentence, index))
                except Exception as e:  # a plugin bug must reach the fail mode, not crash
                    raise DetectorError(f"detector {det.id!r} failed: {e}") from e
            if found:
                claims.extend(_dedup(found))
        kept, dropped = cap_claims(claims, max_claims)
        if dropped:
            result.unchecked.update(c.sentence_index for c in dropped)
            result.claims = kept
            result.dropped = len(dropped)
        return result


def _norm(subject: str) -> str:
    return " ".join(subject.lower().split())


def _dedup(found: list[tuple[int, DetectedClaim]]) -> list[DetectedClaim]:
    """Drops repeats within one sentence.

    Two claims are the same when they share a key, or when their spans overlap
    and one subject contains the other (two patterns read the same words); the
    claim of the higher-priority detector (custom ones outrank built-ins), then
    the more confident, then the longer match stays.
    """
    found.sort(
        key=lambda pc: (-pc[0], -pc[1].confidence, -(pc[1].end - pc[1].offset), pc[1].offset)
    )
    kept: list[DetectedClaim] = []
    keys: set[tuple[str, str, str, bool, str | None]] = set()
    for _, c in found:
        key = c.dedup_key()
        if key in keys:
            continue
        subj = _norm(c.subject)
        clash = False
        for k in kept:
            if c.offset < k.end and k.offset < c.end:
                other = _norm(k.subject)
                if subj in other or other in subj:
                    clash = True
                    break
        if clash:
            continue
        keys.add(key)
        kept.append(c)
    kept.sort(key=lambda c: c.offset)
    return kept
