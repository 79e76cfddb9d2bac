"""Run the detectors over segmented text: prefilter, extract, deduplicate, cap.

Every pattern of every enabled detector goes into one RE2 set. One set match
per sentence tells which patterns can match there at all, so the per-pattern
regexes (which extract subjects and groups) only run where they will hit.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import cast

import re2

from receiptgate._exceptions import DetectorError
from receiptgate.claims.detectors.base import Detector
from receiptgate.claims.models import DetectedClaim
from receiptgate.text.segment import Sentence


@dataclass(slots=True)
class DetectionResult:
    """Claims found, and whether detection stopped early."""

    claims: list[DetectedClaim]
    dropped: int = 0  # claims past maxClaimsPerOutput
    budget_exceeded: bool = False
    #: Sentences not (fully) checked: past the time budget, or holding dropped claims.
    unchecked: set[int] = field(default_factory=set)


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
        deadline_ns: int | None = None,
    ) -> DetectionResult:
        """Finds claims in ``sentences`` of ``text``.

        Args:
            text: the original text (offsets index it).
            sentences: its segments.
            max_claims: cap on claims returned (``maxClaimsPerOutput``).
            only: if given, only detectors with these ids run (detection depth).
            deadline_ns: ``time.perf_counter_ns()`` value after which detection
                stops at the next sentence (``maxEvalUs`` bail-out).
        """
        result = DetectionResult(claims=[])
        if self._empty:
            return result
        claims = result.claims
        for sentence in sentences:
            if deadline_ns is not None and time.perf_counter_ns() > deadline_ns:
                result.budget_exceeded = True
                result.unchecked.update(range(sentence.index, len(sentences)))
                break
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
                if len(claims) > max_claims:
                    # The cap is reached: later sentences are not checked (and are
                    # marked so), rather than scanned only to be dropped.
                    result.unchecked.update(range(sentence.index + 1, len(sentences)))
                    break
        if len(claims) > max_claims:
            result.dropped = len(claims) - max_claims
            result.unchecked.update(c.sentence_index for c in claims[max_claims:])
            del claims[max_claims:]
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
