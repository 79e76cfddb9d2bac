"""Outbound rewrite: the text that is delivered after the gate has decided.

Blocked sentences are removed (or replaced), warned ones are labelled after the
sentence, and an optional audit tail lists what was done. When every sentence
that carried a claim is blocked, the whole output becomes the block notice of
RFC-003 §7.4. Offsets always come from the original text, so nothing the gate
reports shifts because of the rewrite.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from receiptgate.results import SentenceResult

BLOCK_NOTICE = (
    "⚠️ Governance: Agent output was blocked due to detected factual inconsistency. "
    "See audit log for details."
)

DEFAULT_LABELS: dict[str, str] = {
    "T2": "(inference)",
    "T3": "(unverified background)",
    "T5": "(unverified)",
    "T6": "(speculative)",
}

RewriteMode = Literal["sentences", "notice", "none"]


@dataclass(frozen=True, slots=True)
class RewriteSettings:
    """How to build ``delivered_text``.

    Attributes:
        mode: ``sentences`` removes/labels sentence by sentence; ``notice``
            replaces a blocked output with the notice; ``none`` delivers the
            original text unless blocked (then ``None``).
        blocked_replacement: text put where a blocked sentence was ("" removes it).
        labels: label per tag for warned sentences.
        audit_tail: append a one-line summary of tags and removed sentences.
        notice: the block notice.
    """

    mode: RewriteMode = "sentences"
    blocked_replacement: str = ""
    labels: Mapping[str, str] = field(default_factory=lambda: dict(DEFAULT_LABELS))
    audit_tail: bool = False
    notice: str = BLOCK_NOTICE


def rewrite(
    text: str, sentences: Sequence[SentenceResult], verdict: str, settings: RewriteSettings
) -> str | None:
    """Builds the delivered text for ``text`` given the per-sentence decisions."""
    blocked = [s for s in sentences if s.action == "block"]
    if settings.mode == "none":
        return None if verdict == "block" else text
    if settings.mode == "notice":
        return settings.notice if verdict == "block" else text
    if blocked and all(s.action == "block" for s in sentences if s.tag is not None):
        return settings.notice
    parts: list[str] = []
    pos = 0
    for s in sentences:
        if s.action == "block":
            parts.append(text[pos : s.start])
            parts.append(settings.blocked_replacement)
            pos = s.end
            # Drop the gap after a removed sentence so no double space remains.
            if not settings.blocked_replacement:
                while pos < len(text) and text[pos] in " \t":
                    pos += 1
        elif s.action == "warn" and s.tag is not None and settings.labels.get(s.tag):
            parts.append(text[pos : s.end])
            parts.append(" " + settings.labels[s.tag])
            pos = s.end
    parts.append(text[pos:])
    out = _tidy("".join(parts))
    if settings.audit_tail:
        tags = ", ".join(f"{s.index + 1}:{s.tag}" for s in sentences if s.tag is not None)
        removed = len(blocked)
        out += f"\n\n[receiptgate: {tags or 'no claims'}; {removed} sentence(s) removed]"
    return out


_MARKER_ONLY = re.compile(r"^\s*(?:[-*+>]|\d{1,3}[.)])\s*$")


def _tidy(text: str) -> str:
    """Drops lines a removal emptied (a bare "-" bullet) and trailing spaces."""
    lines = [ln.rstrip() for ln in text.split("\n")]
    kept = [ln for ln in lines if not _MARKER_ONLY.match(ln)]
    return "\n".join(kept).strip()
