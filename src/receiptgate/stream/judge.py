"""The stream's validations: the gate on each prefix, or only its newest part.

``Judge`` calls ``gate.validate`` with the stream's fixed arguments, counts the
calls and their time, and keeps the first internal failure for the report. It
validates only the newest sentences of a prefix when that provably decides what
validating the whole prefix would (see ``Judge.judge``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from receiptgate.engine import Gate
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import ValidationResult
from receiptgate.rubrics import Rubric
from receiptgate.stream.events import Record
from receiptgate.stream.segments import blank
from receiptgate.text.segment import Sentence

__all__ = ["Judge"]


class Judge:
    """Validates for one stream.

    Args:
        gate: the configured gate.
        kw: ``agent_id``, ``trust``, ``channel``, ``hook`` and ``now`` for every
            ``gate.validate``.
        receipts: the session's evidence, indexed once for the stream.
        rubric: grades every validation.
        window: whether ``judge`` may validate only the newest sentences.
    """

    def __init__(
        self,
        gate: Gate,
        kw: dict[str, Any],
        receipts: Sequence[Receipt] | ReceiptIndex,
        rubric: Rubric,
        window: bool,
    ) -> None:
        self.gate = gate
        self.rubric = rubric
        self._kw = kw
        self._receipts = receipts
        self._window = window
        self.validations = 0
        self.eval_us = 0
        self.failure: tuple[str, str] | None = None
        self.window_misses = 0
        self.capped = False  # maxClaimsPerOutput reached: windows no longer apply

    def validate(self, text: str) -> ValidationResult:
        result = self.gate.validate(text, receipts=self._receipts, rubric=self.rubric, **self._kw)
        self.validations += 1
        self.eval_us += result.evaluation_us
        if result.fail_mode_applied is not None and self.failure is None:
            self.failure = (result.fail_mode_applied, result.error or "")
        return result

    def judge(
        self,
        prefix: str,
        complete: Sequence[Sentence],
        records: Sequence[Record],
        floor: int,
    ) -> ValidationResult:
        """Validates ``prefix``, or only its end when that provably decides the same.

        ``records`` are the sentences released since the ``floor`` (the text
        before it is blanked out of every validation).

        The window is the last released sentence (the context a label after a
        full stop needs) and the new ones; the text before it is blanked, so
        offsets do not move. The window result is used only when it segments
        exactly as the whole prefix does, reached no budget, keeps the claims
        counted from the start under ``maxClaimsPerOutput`` (past the cap every
        later sentence is "not fully checked", which only the whole prefix
        decides), and either the new sentences hold no claim or the context
        sentence is re-decided as it was released. Otherwise the whole prefix
        is validated.
        """
        if self.capped or not self._window or not records or records[-1].sentence.kind == "code":
            return self.validate_prefix(prefix, floor)
        ctx = records[-1].sentence
        start = ctx.start if ctx.kind == "prose" else prefix.rfind("\n", 0, ctx.start) + 1
        if start <= floor:
            return self.validate_prefix(prefix, floor)  # the window would be the whole prefix
        window = self.validate(blank(prefix[:start]) + prefix[start:])
        inside = [r.sentence for r in records if r.sentence.start >= start]
        expected = [(s.start, s.end, s.kind) for s in inside]
        expected += [(s.start, s.end, s.kind) for s in complete]
        got = [(s.start, s.end, s.kind) for s in window.sentences]
        earlier = sum(len(r.claims) for r in records if r.sentence.start < start)
        if (
            window.skipped is None
            and window.fail_mode_applied is None
            and not window.notes
            and got == expected
            and earlier + len(window.claims) < self.gate.config.performance.max_claims_per_output
            and (
                all(c.sentence_index < len(inside) for c in window.claims)
                or all(
                    (w.tag, w.action) == (r.tag, r.action)
                    for w, r in zip(window.sentences, inside, strict=False)
                )
            )
        ):
            return window
        self.window_misses += 1
        return self.validate_prefix(prefix, floor)

    def validate_prefix(self, prefix: str, floor: int) -> ValidationResult:
        """Validates ``prefix`` with the text before ``floor`` blanked out."""
        result = self.validate(blank(prefix[:floor]) + prefix[floor:] if floor else prefix)
        if any("maxClaimsPerOutput" in n for n in result.notes):
            # Past the cap every later sentence is "not fully checked" in the
            # whole text; only the whole prefix can say so.
            self.capped = True
        return result
