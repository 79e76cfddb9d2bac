"""``StreamGate``: tokens in, each sentence released once complete and judged.

Feeding buffers the tokens; advancing finds the sentences whose end is settled;
judging validates the text up to the next sentence (or only its newest part,
when that provably decides the same); releasing sends each sentence as the
rewrite delivers it. See the package docstring for the guarantees.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from receiptgate._exceptions import InputError
from receiptgate.engine import Gate
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import SentenceResult, ValidationResult
from receiptgate.rubrics import Rubric
from receiptgate.stream.delivery import Delivery
from receiptgate.stream.events import (
    Record,
    SentenceEvent,
    extract,
    released_event,
    unchecked,
    unjudged,
)
from receiptgate.stream.judge import Judge
from receiptgate.stream.report import report
from receiptgate.stream.segments import blank, boundary_settled, restart, same_spans, segment_from
from receiptgate.text.clean import clean_text, replaced_note
from receiptgate.text.segment import Sentence

__all__ = ["StreamGate"]

_WORD_PIECE = re.compile(r"[A-Za-z0-9_]+")
_OVERFLOW_MARGIN = 1_000


class StreamGate:
    """Judges a token stream sentence by sentence (see the package docstring).

    Args:
        gate: the configured gate; its rewrite settings decide what is released.
        agent_id, trust, channel, hook: as for ``Gate.validate``.
        now: reference time; fixed for the whole stream (default: when the
            stream starts), so every validation sees the same relative dates.
        receipts: the session's evidence; a list is indexed once for the stream.
        rubric: grades the final report instead of the gate's rubric.
        window: validate only the newest sentences when that provably decides
            the same as validating the whole prefix (see ``Judge.judge``); ``False``
            always validates the whole prefix (quadratic in the sentences).

    ``feed`` each token, deliver the events' ``delivered`` text, then ``flush``
    for the rest and ``close`` for the report::

        sg = StreamGate(gate, receipts=receipts)
        for token in tokens:
            for ev in sg.feed(token):
                send(ev.delivered)
        for ev in sg.flush():
            send(ev.delivered)
        report = sg.close()

    Notice mode (``rewrite.mode: notice``) and an all-blocked output cannot wait
    for the end of the stream: passed and warned sentences are released, blocked
    ones are withheld, and the last event carries the notice.
    """

    def __init__(
        self,
        gate: Gate,
        *,
        agent_id: str | None = None,
        trust: int | None = None,
        channel: str | None = None,
        now: datetime | None = None,
        hook: str | None = None,
        receipts: Sequence[Receipt] | ReceiptIndex = (),
        rubric: Rubric | None = None,
        window: bool = True,
    ) -> None:
        if trust is not None and not (0 <= trust <= 100):
            raise InputError(f"trust: must be between 0 and 100 (got {trust})")
        if rubric is not None and not isinstance(rubric, Rubric):
            raise InputError(f"rubric: expected a Rubric, got {type(rubric).__name__}")
        self.gate = gate
        ref = now or datetime.now(UTC)
        self.now = ref if ref.tzinfo is not None else ref.replace(tzinfo=UTC)
        kw: dict[str, Any] = {
            "agent_id": agent_id,
            "trust": trust,
            "channel": channel,
            "hook": hook,
            "now": self.now,
        }
        if isinstance(receipts, ReceiptIndex):
            index: Sequence[Receipt] | ReceiptIndex = receipts
        else:
            index = ReceiptIndex(receipts, now=self.now) if receipts else ()
        self._judge = Judge(gate, kw, index, rubric or gate.rubric, window)
        self._buf = ""
        self._records: list[Record] = []
        self._claims = 0  # claims of the released sentences
        self._released_end = 0
        self._delivery = Delivery(gate.rewrite_settings)
        self._delivered: list[str] = []
        #: Every event emitted so far, in order.
        self.events: list[SentenceEvent] = []
        self._notes: list[str] = []
        self._floor = 0  # text before it is blanked out of validations (see _note_divergence)
        self._floor_index = 0  # records before _floor
        self._seg_from = 0  # segmentation restarts here (see _move_restart)
        self._seg_index = 0  # records before _seg_from
        self._seg_line = 0  # first line of the block that holds _seg_from
        self._stalled = -1  # a prefix end whose sentences the gate segmented otherwise
        self._flushed = False
        self._result: ValidationResult | None = None
        self._held = ""  # a high surrogate waiting for its pair
        self._replaced = 0  # lone surrogates replaced by U+FFFD
        self._limit = gate.config.performance.max_text_length
        #: Past this length tokens go to ``_tail`` (the margin lets every sentence
        #: inside maxTextLength complete first).
        self._overflow_at = self._limit + _OVERFLOW_MARGIN
        self._tail: list[str] | None = None

    # -- public API ------------------------------------------------------------------

    @property
    def text(self) -> str:
        """Everything fed so far."""
        return self._buf if self._tail is None else self._buf + "".join(self._tail)

    @property
    def rubric(self) -> Rubric:
        """Grades the final report (and every validation of the stream)."""
        return self._judge.rubric

    @rubric.setter
    def rubric(self, rubric: Rubric) -> None:
        self._judge.rubric = rubric

    @property
    def delivered_text(self) -> str:
        """Everything released so far (the concatenated ``delivered``)."""
        return "".join(self._delivered)

    @property
    def validations(self) -> int:
        """How many ``gate.validate`` calls the stream has made."""
        return self._judge.validations

    def feed(self, token: str) -> list[SentenceEvent]:
        """Adds a token; returns the events of the sentences it completed.

        Raises:
            InputError: ``token`` is not a string, or the stream was flushed.
        """
        if not isinstance(token, str):
            raise InputError(f"token: expected a string, got {type(token).__name__}")
        if self._flushed:
            raise InputError("the stream was flushed; start a new StreamGate")
        token = self._clean(token)
        if not token:
            return []
        if self._tail is not None:
            self._tail.append(token)  # past maxTextLength: released unchecked at the end
            return []
        room = self._overflow_at - len(self._buf)
        if len(token) > room:
            # Past maxTextLength the gate judges nothing: stop segmenting and
            # validating (a long stream stays linear); the rest waits for flush.
            self._buf += token[:room]
            self._tail = [token[room:]]
            return self._advance()
        self._buf += token
        if _WORD_PIECE.fullmatch(token):
            return []  # a piece of a word can neither start nor settle a sentence
        return self._advance()

    def _clean(self, token: str) -> str:
        """text/clean.py's rule for a stream: lone surrogates become U+FFFD (counted);
        a high surrogate at the end of a token waits for its pair in the next one."""
        token = self._held + token
        self._held = ""
        if token and "\ud800" <= token[-1] <= "\udbff" and not self._flushed:
            token, self._held = token[:-1], token[-1]
        token, n = clean_text(token)
        self._replaced += n
        return token

    def flush(self) -> list[SentenceEvent]:
        """Ends the stream: judges the rest and returns its events (once).

        The last event carries the end of the output; later calls return ``[]``.
        """
        if self._flushed:
            return []
        self._flushed = True
        if self._held:
            held, self._held = self._clean(""), ""
            if self._tail is not None:
                self._tail.append(held)
            else:
                self._buf += held
        if self._replaced:
            self._notes.append(replaced_note("text", self._replaced))
        text = self._buf
        full = self._judge.validate(text)
        sentences = segment_from(text, self._floor)
        if not same_spans(sentences, self._records[self._floor_index :]):
            self._note_divergence()
            sentences = segment_from(text, self._floor)
        tail = sentences[len(self._records) - self._floor_index :]
        if self._floor:
            # Boundaries moved after release: the rest is judged on its own, with the
            # text before the floor blanked out (offsets stay those of the full text).
            judge = self._judge.validate(blank(text[: self._floor]) + text[self._floor :])
            events = self._decide(judge, tail, final=True, short_ok=full.skipped is not None)
        else:
            events = self._decide(full, tail, final=True, short_ok=True)
        if self._tail is not None:
            rest, self._tail = "".join(self._tail), None
            if rest:
                start = len(text)
                text = self._buf = text + rest
                part = Sentence(len(self._records), start, len(text), rest, "prose")
                why = f"past maxTextLength {self._limit}: not validated"
                events.append(self._release(part, unchecked(part, why, self.gate.config.fail_mode)))
                closed = self.gate.config.fail_mode == "fail_closed"
                full.notes = [n for n in full.notes if not n.startswith("text truncated")]
                full.notes.append(
                    f"text truncated to maxTextLength {self._limit}; "
                    f"{len(text) - self._limit} characters not validated "
                    f"({'withheld' if closed else 'delivered, flagged'})"
                )
        self._result = result = report(
            full,
            self._records,
            rest_mode=self._floor > 0,
            notes=self._notes,
            failure=self._judge.failure,
            eval_us=self._judge.eval_us,
        )
        extra = self._delivery.end(text, result)
        if events:
            lastev = events[-1]
            events[-1] = dataclasses.replace(lastev, delivered=lastev.delivered + extra, last=True)
            self.events[-1] = events[-1]
            self._delivered[-1] += extra
        elif extra:
            end = SentenceEvent(
                len(self._records), len(text), len(text), "", "end", None, "pass", extra, last=True
            )
            events.append(end)
            self.events.append(end)
            self._delivered.append(extra)
        result.delivered_text = self.delivered_text
        self.rubric.apply(result)
        return events

    def close(self) -> ValidationResult:
        """Flushes (if not done) and returns the report for the whole text.

        When ``close`` does the flush, the last events are in ``events`` only;
        call ``flush()`` first when you deliver text.
        """
        self.flush()
        assert self._result is not None
        return self._result

    # -- completing sentences --------------------------------------------------------

    def _note_divergence(self) -> None:
        """Later text moved a released boundary: from now on, judge the rest alone.

        Released sentences stay as released; the text before the end of the last
        one is blanked out of every later validation and segmentation (the
        *floor*), so the rest streams on with boundaries of its own.
        """
        self._notes.append(
            f"stream: sentence boundaries moved after {len(self._records)} sentence(s) "
            "were released; released sentences are reported as released and the rest "
            "was judged on its own"
        )
        self._floor = self._seg_from = self._released_end
        self._floor_index = self._seg_index = len(self._records)
        self._seg_line = self._buf.rfind("\n", 0, self._floor) + 1
        self._judge.capped = False

    def _advance(self) -> list[SentenceEvent]:
        text = self._buf
        sentences = segment_from(text, self._seg_from)
        done = self._records[self._seg_index :]
        if not same_spans(sentences, done):
            self._note_divergence()
            sentences = segment_from(text, self._seg_from)
            done = []
        pending = sentences[len(done) :]
        complete: list[Sentence] = []
        for s, nxt in itertools.pairwise(pending):
            if not boundary_settled(text, s, nxt):
                break
            complete.append(s)
        if not complete:
            return []
        nxt = pending[len(complete)]
        prefix = text[: nxt.start]
        if len(prefix[self._floor :].strip()) < self.gate.config.min_text_length:
            return []  # too short to validate yet: a skipped validation is no judgement
        if nxt.start == self._stalled:
            return []  # the gate did not segment this prefix as we do; wait for more
        released = self._records[self._floor_index :]
        judged = self._judge.judge(prefix, complete, released, self._floor)
        events = self._decide(judged, complete, final=False, short_ok=False)
        if self._released_end == complete[-1].end:
            self._move_restart(text, nxt)
        elif any(s.start < self._released_end < s.end for s in judged.sentences):
            # The gate reads a released sentence as part of a longer one (a setext
            # underline arrived): judge the rest on its own from here.
            self._note_divergence()
            events += self._advance()
        else:
            self._stalled = nxt.start
        return events

    def _move_restart(self, text: str, nxt: Sentence) -> None:
        """Segments from ``nxt`` on from now on, when earlier text cannot matter
        (see ``segments.restart``)."""
        kind = self._records[-1].sentence.kind
        found = restart(text, nxt, self._released_end, kind, self._seg_line)
        if found is not None:
            self._seg_from, self._seg_line = found
            self._seg_index = len(self._records)

    # -- judging and releasing -------------------------------------------------------

    def _decide(
        self,
        judged: ValidationResult,
        sentences: Sequence[Sentence],
        *,
        final: bool,
        short_ok: bool,
    ) -> list[SentenceEvent]:
        """Releases ``sentences`` with the decisions of ``judged``, in order.

        Args:
            judged: a validation of a text that holds ``sentences`` at their offsets.
            sentences: the complete sentences to release.
            final: the stream has ended: every sentence must be decided now.
            short_ok: a validation skipped for being short delivers as is (the
                whole text is short); otherwise it judged nothing.
        """
        by_span = {(s.start, s.end): s for s in judged.sentences}
        limit = self.gate.config.performance.max_text_length
        events: list[SentenceEvent] = []
        whole_failed = judged.fail_mode_applied is not None and not judged.sentences
        for s in sentences:
            found = by_span.get((s.start, s.end))
            if whole_failed:
                # The gate itself failed: nothing was judged, the fail mode decides.
                record = unjudged(s, judged.fail_mode_applied or "", judged.error or "")
            elif judged.skipped is not None and (
                short_ok or not judged.skipped.startswith("text shorter")
            ):
                record = Record(SentenceResult(0, s.text, s.start, s.end, s.kind), judged=False)
            elif found is not None and found.kind == s.kind:
                record = extract(judged, found)
            elif s.end > limit:
                why = f"past maxTextLength {limit}: not validated"
                record = unchecked(s, why, self.gate.config.fail_mode)
            elif final:
                why = "not judged: the gate segmented this text differently"
                record = unchecked(s, why, self.gate.config.fail_mode)
            else:
                break  # wait: the next validation or close() decides it
            events.append(self._release(s, record))
        return events

    def _release(self, s: Sentence, record: Record) -> SentenceEvent:
        """Releases one decided sentence: its event, and its piece of the rewrite."""
        index = len(self._records)
        base = self._claims  # claim indexes count in release order, as in the report
        self._claims += len(record.claims)
        sr = record.sentence
        sr.index = index
        delivered = self._delivery.sentence(self._buf, s, sr)
        self._records.append(record)
        self._released_end = s.end
        event = released_event(s, sr, delivered, base)
        self.events.append(event)
        self._delivered.append(delivered)
        return event
