"""The gate's rewrite as a stream: each released sentence's text, sent at once.

``Delivery`` turns each decided sentence into the text the rewrite would give
for it (passed as is, warned labelled, blocked dropped or replaced) together
with the layout before it, and ``TidyStream`` applies ``rewrite._tidy`` to
that text as it goes, so the concatenated output is the rewrite of the whole.
"""

from __future__ import annotations

import re

from receiptgate.results import SentenceResult, ValidationResult
from receiptgate.rewrite import RewriteSettings
from receiptgate.text.segment import Sentence

__all__ = ["Delivery", "TidyStream"]

# rewrite._tidy drops lines that hold only a list or quote marker.
_MARKER_ONLY = re.compile(r"^\s*(?:[-*+>]|\d{1,3}[.)])\s*$")
# A line that may still turn out to be marker-only ("1" may become "1.").
_MARKER_PREFIX = re.compile(r"^\s*(?:[-*+>]|\d{1,3}[.)]?)?\s*$")


class TidyStream:
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


class Delivery:
    """What the stream sends: the rewrite of each released sentence, in order.

    Args:
        settings: the gate's rewrite settings (mode, labels, replacement, notice).
    """

    def __init__(self, settings: RewriteSettings) -> None:
        self.settings = settings
        self._pos = 0  # where the next gap starts (rewrite's ``pos``)
        self._carry = ""  # layout of dropped sentences, sent with the next one
        self._skip_blanks = False
        self._out = TidyStream()

    def sentence(self, text: str, s: Sentence, sr: SentenceResult) -> str:
        """The text to send for ``s`` (decided as ``sr``) and the layout before it."""
        gap = text[self._pos : s.start]
        if self._skip_blanks:
            gap = gap.lstrip(" \t")
            self._skip_blanks = False
        settings = self.settings
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
        return delivered

    def end(self, text: str, report: ValidationResult) -> str:
        """What follows the last sentence: trailing layout, notice, audit tail."""
        tail = text[self._pos :]
        if self._skip_blanks:
            tail = tail.lstrip(" \t")
        out = self._out.write(self._carry + tail) + self._out.finish()
        self._carry = ""
        settings = self.settings
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
