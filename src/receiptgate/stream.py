"""Streaming: release an LLM's output sentence by sentence, each only once judged.

``StreamGate`` buffers tokens and runs the real segmenter on the buffer. A
sentence is *complete* when a following sentence has begun (its first word has
arrived in full and the segmenter still splits there) or when the stream ends.
Complete sentences are judged by ``gate.validate`` on the text up to the next
sentence, so every offset is an offset into the final text, and each sentence
is released as the gate's rewrite would deliver it: passed sentences as they
are, warned ones labelled, blocked ones dropped (or replaced). A blocked
sentence never reaches the output, and a passed one leaves as soon as the next
sentence starts instead of at the end of the stream.

Released decisions are final. ``close()`` validates the whole text once; when
that agrees with what was released (the ordinary case) the report *is* that
validation. When it does not (a later sentence moved a boundary, a budget or an
internal error differed), the report keeps the released sentences as released,
judges the rest, and says so in ``notes``; no sentence is ever released with
one decision and reported with another.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import re
from collections.abc import AsyncIterable, AsyncIterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from receiptgate._exceptions import InputError
from receiptgate.claims.models import DetectedClaim
from receiptgate.engine import Gate
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.pipeline import suggestions_of, top_reasons, verdict_of
from receiptgate.results import (
    FactCheckRecord,
    SentenceAction,
    SentenceResult,
    ValidationResult,
    Violation,
    worst,
)
from receiptgate.rubrics import Rubric
from receiptgate.text.clean import clean_text, replaced_note
from receiptgate.text.segment import Sentence, segment

__all__ = ["AsyncStream", "SentenceEvent", "StreamGate", "astream"]

# What the segmenter reads after a boundary to decide it: opening quotes and
# brackets, blockquote markers, then one word ("Inc. The" splits, "Inc.
# Theodore" does not; "running. redis is" splits only once "redis" is whole).
_FIRST_WORD = re.compile(r"[\"'“‘(\[*_>\s]*+[A-Za-z0-9_-]*+")
# rewrite._tidy drops lines that hold only a list or quote marker.
_MARKER_ONLY = re.compile(r"^\s*(?:[-*+>]|\d{1,3}[.)])\s*$")
# A line that may still turn out to be marker-only ("1" may become "1.").
_MARKER_PREFIX = re.compile(r"^\s*(?:[-*+>]|\d{1,3}[.)]?)?\s*$")
# A blank line (quote markers alone count as blank) closes every segmenter block.
_BLANK_LINE = re.compile(r"\n[ \t>]*\n")
_RANK = {"pass": 0, "warn": 1, "block": 2}
_WORD_PIECE = re.compile(r"[A-Za-z0-9_]+")
_BLOCK_STARTS = frozenset({"list_item", "heading", "table_row"})
_OVERFLOW_MARGIN = 1_000


@dataclass(frozen=True, slots=True)
class SentenceEvent:
    """One sentence decided: what it is, what the gate said, what to send.

    Attributes:
        index: position of the sentence in the stream (and in the final report).
        start: offset of its first character in the streamed text.
        end: offset one past its last character.
        text: the sentence as the model wrote it.
        kind: the segmenter's block kind (``prose``, ``list_item``, ...).
        tag: T1-T7, or ``None`` for a sentence without a factual claim.
        action: ``pass``, ``warn`` or ``block``.
        delivered: the text to send now: the layout before the sentence (spaces,
            newlines, list markers) and the sentence as the rewrite delivers it;
            ``""`` when the sentence is dropped. The last event also carries what
            ends the output (trailing layout, the block notice, the audit tail).
        evidence: the sentence's evidence, as in ``SentenceResult.to_dict()``
            (``claim_index`` counts the claims of the stream in release order,
            as the report does).
        reasons: why the gate decided so.
        last: whether this is the final event of the stream.
    """

    index: int
    start: int
    end: int
    text: str
    kind: str
    tag: str | None
    action: SentenceAction
    delivered: str
    evidence: list[dict[str, Any]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)
    last: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "kind": self.kind,
            "tag": self.tag,
            "action": self.action,
            "delivered": self.delivered,
            "evidence": list(self.evidence),
            "reasons": list(self.reasons),
            "last": self.last,
        }


@dataclass(slots=True)
class _Record:
    """A released sentence with everything the report needs about it.

    Claim indexes inside (``sentence.claims``, evidence, violations, issues) are
    local to ``claims``, so records from different validations can be joined.
    """

    sentence: SentenceResult
    claims: list[DetectedClaim] = field(default_factory=list)
    fact_checks: list[FactCheckRecord] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    violation_issues: list[dict[str, Any]] = field(default_factory=list)
    warn_issues: list[dict[str, Any]] = field(default_factory=list)
    judged: bool = True


class _TidyStream:
    """``rewrite._tidy`` as a stream: the same text, emitted as early as possible.

    ``_tidy`` strips trailing spaces per line, drops marker-only lines and strips
    the whole output; here a line is held only while it could still be dropped,
    and blank lines only until text follows them (so trailing ones never leave).
    """

    def __init__(self) -> None:
        self.line = ""
        self.emitted = 0  # characters of ``line`` already sent
        self.newlines = 0  # line breaks owed before the next text
        self.started = False

    def write(self, text: str) -> str:
        out: list[str] = []
        pieces = text.split("\n")
        for i, piece in enumerate(pieces):
            self.line += piece
            if i < len(pieces) - 1:
                self._end_line(out)
            elif self.emitted or not _MARKER_PREFIX.match(self.line):
                self._emit(out)
        return "".join(out)

    def finish(self) -> str:
        out: list[str] = []
        if self.emitted or not _MARKER_ONLY.match(self.line):
            self._emit(out)
        self.line, self.emitted = "", 0
        return "".join(out)

    def _emit(self, out: list[str]) -> None:
        text = self.line.rstrip()
        if len(text) <= self.emitted:
            return
        if self.emitted == 0:
            if self.started:
                out.append("\n" * self.newlines + text)
            else:  # leading blank lines and indentation are stripped
                out.append(text.lstrip())
                self.started = True
            self.newlines = 0
        else:
            out.append(text[self.emitted :])
        self.emitted = len(text)

    def _end_line(self, out: list[str]) -> None:
        if self.emitted or not _MARKER_ONLY.match(self.line):
            self._emit(out)
            if self.started:
                self.newlines += 1
        self.line, self.emitted = "", 0


class StreamGate:
    """Judges a token stream sentence by sentence (see the module docstring).

    Args:
        gate: the configured gate; its rewrite settings decide what is released.
        agent_id, trust, channel, hook: as for ``Gate.validate``.
        now: reference time; fixed for the whole stream (default: when the
            stream starts), so every validation sees the same relative dates.
        receipts: the session's evidence; a list is indexed once for the stream.
        rubric: grades the final report instead of the gate's rubric.
        window: validate only the newest sentences when that provably decides
            the same as validating the whole prefix (see ``_judge``); ``False``
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
        self._kw: dict[str, Any] = {
            "agent_id": agent_id,
            "trust": trust,
            "channel": channel,
            "hook": hook,
            "now": self.now,
        }
        if isinstance(receipts, ReceiptIndex):
            self._receipts: Sequence[Receipt] | ReceiptIndex = receipts
        else:
            self._receipts = ReceiptIndex(receipts, now=self.now) if receipts else ()
        self.rubric = rubric or gate.rubric
        self._settings = gate.rewrite_settings
        self._buf = ""
        self._records: list[_Record] = []
        self._claims = 0  # claims of the released sentences
        self._released_end = 0
        self._pos = 0  # where the next gap starts (rewrite's ``pos``)
        self._carry = ""  # layout of dropped sentences, sent with the next one
        self._skip_blanks = False
        self._out = _TidyStream()
        self._delivered: list[str] = []
        #: Every event emitted so far, in order.
        self.events: list[SentenceEvent] = []
        self._notes: list[str] = []
        self._floor = 0  # text before it is blanked out of validations (see _note_divergence)
        self._floor_index = 0  # records before _floor
        self._failure: tuple[str, str] | None = None
        self._eval_us = 0
        self._validations = 0
        self._window = window
        self._window_misses = 0
        self._seg_from = 0  # segmentation restarts here (see _move_restart)
        self._seg_index = 0  # records before _seg_from
        self._seg_line = 0  # first line of the block that holds _seg_from
        self._capped = False  # maxClaimsPerOutput reached: windows no longer apply
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
    def delivered_text(self) -> str:
        """Everything released so far (the concatenated ``delivered``)."""
        return "".join(self._delivered)

    @property
    def validations(self) -> int:
        """How many ``gate.validate`` calls the stream has made."""
        return self._validations

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
        full = self._validate(text)
        sentences = _segment_from(text, self._floor)
        if not _same_spans(sentences, self._records[self._floor_index :]):
            self._note_divergence()
            sentences = _segment_from(text, self._floor)
        tail = sentences[len(self._records) - self._floor_index :]
        if self._floor:
            # Boundaries moved after release: the rest is judged on its own, with the
            # text before the floor blanked out (offsets stay those of the full text).
            judge = self._validate(_blank(text[: self._floor]) + text[self._floor :])
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
                events.append(self._release(part, self._unchecked(part, why)))
                closed = self.gate.config.fail_mode == "fail_closed"
                full.notes = [n for n in full.notes if not n.startswith("text truncated")]
                full.notes.append(
                    f"text truncated to maxTextLength {self._limit}; "
                    f"{len(text) - self._limit} characters not validated "
                    f"({'withheld' if closed else 'delivered, flagged'})"
                )
        rest_mode = self._floor > 0
        self._result = report = self._report(full, rest_mode)
        extra = self._end_of_output(text, report)
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
        report.delivered_text = self.delivered_text
        self.rubric.apply(report)
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
        self._capped = False

    def _advance(self) -> list[SentenceEvent]:
        text = self._buf
        sentences = _segment_from(text, self._seg_from)
        done = self._records[self._seg_index :]
        if not _same_spans(sentences, done):
            self._note_divergence()
            sentences = _segment_from(text, self._seg_from)
            done = []
        pending = sentences[len(done) :]
        complete: list[Sentence] = []
        for s, nxt in itertools.pairwise(pending):
            if not _boundary_settled(text, s, nxt):
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
        judged = self._judge(prefix, complete)
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
        """Segments from ``nxt`` on from now on, when earlier text cannot matter.

        Restarting is safe at a line that opens a block (after a blank line, or
        a list item, heading or table row: each closes the block before it)
        unless a code fence may be open, and inside the first line of a prose
        paragraph before a sentence that starts with a letter (nothing before
        it changes how the rest of the line splits). The whole text is
        segmented again at the end, which would catch a mistake.
        """
        line_start = text.rfind("\n", 0, nxt.start) + 1
        if line_start > self._released_end:
            gap = text[self._released_end : nxt.start]
            if "```" in gap or "~~~" in gap or self._records[-1].sentence.kind == "code":
                return
            if _BLANK_LINE.search(gap) is None and nxt.kind not in _BLOCK_STARTS:
                return
            start = line_start
        else:
            line = text[line_start : nxt.start]
            if (
                line_start != self._seg_line
                or nxt.kind != "prose"
                or not text[nxt.start].isalpha()
                or line.lstrip().startswith(">")
                or "``" in line
                or line.count("`") % 2
            ):
                return
            start = nxt.start
        check = _segment_from(text, start)
        if check and (check[0].start, check[0].kind) == (nxt.start, nxt.kind):
            self._seg_from, self._seg_index = start, len(self._records)
            if start == line_start:
                self._seg_line = line_start

    def _judge(self, prefix: str, complete: Sequence[Sentence]) -> ValidationResult:
        """Validates ``prefix``, or only its end when that provably decides the same.

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
        records = self._records[self._floor_index :]
        if self._capped or not self._window or not records or records[-1].sentence.kind == "code":
            return self._validate_prefix(prefix)
        ctx = records[-1].sentence
        start = ctx.start if ctx.kind == "prose" else prefix.rfind("\n", 0, ctx.start) + 1
        if start <= self._floor:
            return self._validate_prefix(prefix)  # the window would be the whole prefix
        window = self._validate(_blank(prefix[:start]) + prefix[start:])
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
        self._window_misses += 1
        return self._validate_prefix(prefix)

    def _validate_prefix(self, prefix: str) -> ValidationResult:
        floor = self._floor
        result = self._validate(_blank(prefix[:floor]) + prefix[floor:] if floor else prefix)
        if any("maxClaimsPerOutput" in n for n in result.notes):
            # Past the cap every later sentence is "not fully checked" in the
            # whole text; only the whole prefix can say so.
            self._capped = True
        return result

    # -- judging and releasing -------------------------------------------------------

    def _validate(self, text: str) -> ValidationResult:
        result = self.gate.validate(text, receipts=self._receipts, rubric=self.rubric, **self._kw)
        self._validations += 1
        self._eval_us += result.evaluation_us
        if result.fail_mode_applied is not None and self._failure is None:
            self._failure = (result.fail_mode_applied, result.error or "")
        return result

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
                record = self._unjudged(s, judged.fail_mode_applied or "", judged.error or "")
            elif judged.skipped is not None and (
                short_ok or not judged.skipped.startswith("text shorter")
            ):
                record = _Record(SentenceResult(0, s.text, s.start, s.end, s.kind), judged=False)
            elif found is not None and found.kind == s.kind:
                record = _extract(judged, found)
            elif s.end > limit:
                record = self._unchecked(s, f"past maxTextLength {limit}: not validated")
            elif final:
                record = self._unchecked(s, "not judged: the gate segmented this text differently")
            else:
                break  # wait: the next validation or close() decides it
            events.append(self._release(s, record))
        return events

    def _unjudged(self, s: Sentence, mode: str, error: str) -> _Record:
        """A sentence whose validation hit an internal error: the fail mode decides
        (fail_closed withholds it, fail_open delivers it flagged: never a pass)."""
        action: SentenceAction = "block" if mode == "fail_closed" else "warn"
        reason = f"internal error ({mode}): {error}"
        return _Record(
            SentenceResult(0, s.text, s.start, s.end, s.kind, action=action, reasons=[reason]),
            judged=False,
        )

    def _unchecked(self, s: Sentence, why: str) -> _Record:
        """A sentence no validation could judge: never a silent pass."""
        closed = self.gate.config.fail_mode == "fail_closed"
        action: SentenceAction = "block" if closed else "warn"
        reason = f"{why} ({'fail_closed: withheld' if closed else 'fail_open: delivered, flagged'})"
        return _Record(
            SentenceResult(0, s.text, s.start, s.end, s.kind, action=action, reasons=[reason]),
            judged=False,
        )

    def _release(self, s: Sentence, record: _Record) -> SentenceEvent:
        """Releases one decided sentence: its event, and its piece of the rewrite."""
        index = len(self._records)
        base = self._claims  # claim indexes count in release order, as in the report
        self._claims += len(record.claims)
        sr = record.sentence
        sr.index = index
        text = self._buf
        gap = text[self._pos : s.start]
        if self._skip_blanks:
            gap = gap.lstrip(" \t")
            self._skip_blanks = False
        settings = self._settings
        body: str | None = s.text
        if sr.action == "block":
            body = settings.blocked_replacement if settings.mode == "sentences" else ""
        elif sr.action == "warn" and sr.tag is not None and settings.mode == "sentences":
            label = settings.labels.get(sr.tag)
            if label:
                body = f"{s.text} {label}"
        if body:
            delivered = self._out.write(self._carry + gap + body)
            self._carry = ""
        else:
            delivered = ""
            self._carry += gap
            self._skip_blanks = True
        self._pos = s.end
        self._records.append(record)
        self._released_end = s.end
        event = SentenceEvent(
            index=index,
            start=s.start,
            end=s.end,
            text=s.text,
            kind=s.kind,
            tag=sr.tag,
            action=sr.action,
            delivered=delivered,
            evidence=[
                {
                    **e.to_dict(),
                    "claim_index": None if e.claim_index is None else base + e.claim_index,
                }
                for e in sr.evidence
            ],
            reasons=list(sr.reasons),
        )
        self.events.append(event)
        self._delivered.append(delivered)
        return event

    def _end_of_output(self, text: str, report: ValidationResult) -> str:
        """What follows the last sentence: trailing layout, notice, audit tail."""
        tail = text[self._pos :]
        if self._skip_blanks:
            tail = tail.lstrip(" \t")
        out = self._out.write(self._carry + tail) + self._out.finish()
        self._carry = ""
        settings = self._settings
        blocked = [s for s in report.sentences if s.action == "block"]
        if report.fail_mode_applied == "fail_closed":
            notice = True  # as the engine does: an internal error blocks the output
        elif settings.mode == "notice":
            notice = report.verdict == "block"
        elif settings.mode == "sentences":
            notice = bool(blocked) and all(
                s.action == "block" for s in report.sentences if s.tag is not None
            )
        else:
            notice = False
        if notice:
            return out + ("\n\n" if self._out.started else "") + settings.notice
        if settings.mode == "sentences" and settings.audit_tail:
            tags = ", ".join(f"{s.index + 1}:{s.tag}" for s in report.sentences if s.tag)
            out += f"\n\n[receiptgate: {tags or 'no claims'}; {len(blocked)} sentence(s) removed]"
        return out

    # -- the final report ------------------------------------------------------------

    def _report(self, full: ValidationResult, rest_mode: bool) -> ValidationResult:
        """The report: ``full`` itself when it agrees with every release."""
        records = self._records
        if full.skipped is not None and not any(r.judged for r in records):
            report = full
        else:
            full_spans = {(s.start, s.end): s for s in full.sentences}
            changed: list[tuple[SentenceResult, SentenceResult]] = []
            if full.fail_mode_applied is None:
                for r in records:
                    f = full_spans.get((r.sentence.start, r.sentence.end))
                    if f is not None and (f.tag, f.action) != (r.sentence.tag, r.sentence.action):
                        changed.append((r.sentence, f))
            same = (
                not rest_mode
                and not changed
                and full.fail_mode_applied is None
                and all(r.judged for r in records)
                and [(s.start, s.end, s.kind) for s in full.sentences]
                == [(r.sentence.start, r.sentence.end, r.sentence.kind) for r in records]
            )
            report = full if same else self._assemble(full, records)
            for released, whole in changed:
                note = (
                    f"stream: sentence {released.index + 1} was released as "
                    f"{released.tag or 'untagged'}/{released.action}; the whole text decides "
                    f"{whole.tag or 'untagged'}/{whole.action}; the released decision stands"
                )
                self._notes.append(note)
                if _RANK[whole.action] > _RANK[released.action]:
                    # Already delivered, but the gate now judges it worse: never silent.
                    report.verdict = worst(report.verdict, "flag")  # type: ignore[assignment]
                    report.issues.append(
                        {
                            "sentence_index": released.index,
                            "claim_index": None,
                            "category": None,
                            "severity": "medium",
                            "action": "flag",
                            "start": released.start,
                            "end": released.end,
                            "message": note,
                        }
                    )
        if self._failure is not None and report.fail_mode_applied is None:
            report.fail_mode_applied = self._failure[0]  # type: ignore[assignment]
            report.error = self._failure[1]
        report.notes = [*report.notes, *self._notes]
        report.evaluation_us = self._eval_us
        return report

    def _assemble(self, full: ValidationResult, records: list[_Record]) -> ValidationResult:
        """A report made of the released records, renumbered into one result."""
        out = ValidationResult(
            id=full.id,
            verdict="pass",
            created_at=full.created_at,
            agent_id=full.agent_id,
            channel=full.channel,
            hook=full.hook,
            trust_score=full.trust_score,
            trust_tier=full.trust_tier,
            policy=dict(full.policy),
            skipped=full.skipped if not any(r.judged for r in records) else None,
            notes=list(full.notes),
            fail_mode_applied=full.fail_mode_applied,
            error=full.error,
            checks=[dict(c) for c in full.checks],
        )
        warn_issues: list[dict[str, Any]] = []
        for i, rec in enumerate(records):
            base = len(out.claims)
            sr = rec.sentence
            out.sentences.append(
                dataclasses.replace(
                    sr,
                    index=i,
                    claims=[base + j for j in sr.claims],
                    evidence=[
                        dataclasses.replace(
                            e, claim_index=None if e.claim_index is None else base + e.claim_index
                        )
                        for e in sr.evidence
                    ],
                    reasons=list(sr.reasons),
                )
            )
            for c in rec.claims:
                claim = copy.copy(c)
                claim.sentence_index = i
                out.claims.append(claim)
            out.fact_checks.extend(
                dataclasses.replace(f, claim_index=base + f.claim_index) for f in rec.fact_checks
            )
            out.violations.extend(
                dataclasses.replace(v, claim_index=base + v.claim_index, sentence_index=i)
                for v in rec.violations
            )
            out.issues.extend(
                {**d, "sentence_index": i, "claim_index": base + d["claim_index"]}
                for d in rec.violation_issues
            )
            warn_issues.extend({**d, "sentence_index": i} for d in rec.warn_issues)
        out.issues.extend(warn_issues)
        out.issues.extend(d for d in full.issues if "sentence_index" not in d)
        out.suggestions = suggestions_of(out.violations, out.claims)
        verdict: str = verdict_of(out.sentences)
        own = verdict_of(full.sentences)
        if full.verdict != own and worst(full.verdict, own) == full.verdict:
            verdict = worst(verdict, full.verdict)  # truncation or fail_closed: not per sentence
        out.verdict = verdict  # type: ignore[assignment]
        if out.violations:
            why = top_reasons(out.violations)
        elif verdict == "flag":
            why = "sentences labelled as inference/unverified or not fully checked"
        else:
            why = "all claims supported or allowed by policy"
        out.reason = f"{verdict} (streamed; released decisions kept): {why}"
        return out


def _blank(text: str) -> str:
    """``text`` with every character but line breaks made a space (same offsets)."""
    return "\n".join(" " * len(line) for line in text.split("\n"))


def _segment_from(text: str, start: int) -> list[Sentence]:
    """``segment(text[start:])`` with offsets into ``text``."""
    if start == 0:
        return segment(text)
    return [
        Sentence(s.index, s.start + start, s.end + start, s.text, s.kind)
        for s in segment(text[start:])
    ]


def _same_spans(sentences: Sequence[Sentence], records: Sequence[_Record]) -> bool:
    """Whether ``sentences`` begin with exactly the released ``records``."""
    if len(sentences) < len(records):
        return False
    return all(
        (s.start, s.end, s.kind) == (r.sentence.start, r.sentence.end, r.sentence.kind)
        for s, r in zip(sentences, records, strict=False)
    )


def _boundary_settled(text: str, s: Sentence, nxt: Sentence) -> bool:
    """Whether later text can no longer move the boundary between ``s`` and ``nxt``."""
    word = _FIRST_WORD.match(text, nxt.start)
    if word is None or word.end() >= len(text):
        return False  # the next sentence's first word may still grow
    if s.kind == "code" or "\n" in text[s.end :]:
        return True  # inline code never spans lines
    # An unpaired backtick before the boundary may still open a code span across it.
    line = text[text.rfind("\n", 0, s.end) + 1 : s.end]
    return "``" not in line and line.count("`") % 2 == 0


def _extract(result: ValidationResult, s: SentenceResult) -> _Record:
    """Copies one sentence's share of ``result``, with claim indexes made local."""
    owned = [i for i, c in enumerate(result.claims) if c.sentence_index == s.index]
    local = {g: j for j, g in enumerate(owned)}
    sentence = SentenceResult(
        s.index,
        s.text,
        s.start,
        s.end,
        s.kind,
        tag=s.tag,
        action=s.action,
        claims=[local[g] for g in s.claims if g in local],
        evidence=[
            dataclasses.replace(e, claim_index=local.get(e.claim_index))
            if e.claim_index is not None
            else dataclasses.replace(e)
            for e in s.evidence
        ],
        reasons=list(s.reasons),
    )
    return _Record(
        sentence,
        claims=[copy.copy(result.claims[g]) for g in owned],
        fact_checks=[
            dataclasses.replace(f, claim_index=local[f.claim_index])
            for f in result.fact_checks
            if f.claim_index in local
        ],
        violations=[
            dataclasses.replace(v, claim_index=local[v.claim_index])
            for v in result.violations
            if v.sentence_index == s.index and v.claim_index in local
        ],
        violation_issues=[
            {**d, "claim_index": local[d["claim_index"]]}
            for d in result.issues
            if d.get("sentence_index") == s.index and d.get("claim_index") in local
        ],
        warn_issues=[
            dict(d)
            for d in result.issues
            if d.get("sentence_index") == s.index and d.get("claim_index") is None
        ],
    )


class AsyncStream:
    """An async iterator of ``SentenceEvent``; ``result`` holds the report at the end.

    Built by :func:`astream`. The stream flushes itself when the token source
    ends; if you stop iterating early, ``stream_gate.close()`` gives the report
    of what was read.
    """

    def __init__(self, stream_gate: StreamGate, tokens: AsyncIterable[str]) -> None:
        self.stream_gate = stream_gate
        self._tokens = tokens

    def __aiter__(self) -> AsyncIterator[SentenceEvent]:
        return self._events()

    async def _events(self) -> AsyncIterator[SentenceEvent]:
        async for token in self._tokens:
            for ev in self.stream_gate.feed(token):
                yield ev
        for ev in self.stream_gate.flush():
            yield ev

    @property
    def result(self) -> ValidationResult:
        """The report for the whole text.

        Raises:
            RuntimeError: the stream has not been iterated to the end.
        """
        if self.stream_gate._result is None:
            raise RuntimeError("the stream has not ended: iterate it to the end first")
        return self.stream_gate._result


def astream(
    gate: Gate,
    tokens: AsyncIterable[str],
    *,
    agent_id: str | None = None,
    trust: int | None = None,
    channel: str | None = None,
    now: datetime | None = None,
    hook: str | None = None,
    receipts: Sequence[Receipt] | ReceiptIndex = (),
    rubric: Rubric | None = None,
) -> AsyncStream:
    """Streams an async token source through ``gate``::

        stream = astream(gate, tokens, receipts=receipts)
        async for ev in stream:
            await send(ev.delivered)
        report = stream.result

    Validation is synchronous CPU work (about a millisecond a sentence) and
    runs inline on the event loop, like ``gate.validate`` in a hook.
    """
    sg = StreamGate(
        gate,
        agent_id=agent_id,
        trust=trust,
        channel=channel,
        now=now,
        hook=hook,
        receipts=receipts,
        rubric=rubric,
    )
    return AsyncStream(sg, tokens)
