"""Sentence boundaries in a growing text: when one is settled, where to re-segment.

The stream runs the real segmenter on what has arrived; these helpers say when
a boundary can no longer move, and from where the segmenter may restart so a
long stream is not segmented from its start for every token.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.stream.events import Record
from receiptgate.text.segment import Sentence, segment

__all__ = ["blank", "boundary_settled", "restart", "same_spans", "segment_from"]

# What the segmenter reads after a boundary to decide it: opening quotes and
# brackets, blockquote markers, then one word ("Inc. The" splits, "Inc.
# Theodore" does not; "running. redis is" splits only once "redis" is whole).
_FIRST_WORD = re.compile(r"[\"'“‘(\[*_>\s]*+[A-Za-z0-9_-]*+")
# A blank line (quote markers alone count as blank) closes every segmenter block.
_BLANK_LINE = re.compile(r"\n[ \t>]*\n")
_BLOCK_STARTS = frozenset({"list_item", "heading", "table_row"})


def blank(text: str) -> str:
    """``text`` with every character but line breaks made a space (same offsets)."""
    return "\n".join(" " * len(line) for line in text.split("\n"))


def segment_from(text: str, start: int) -> list[Sentence]:
    """``segment(text[start:])`` with offsets into ``text``."""
    if start == 0:
        return segment(text)
    return [
        Sentence(s.index, s.start + start, s.end + start, s.text, s.kind)
        for s in segment(text[start:])
    ]


def same_spans(sentences: Sequence[Sentence], records: Sequence[Record]) -> bool:
    """Whether ``sentences`` begin with exactly the released ``records``."""
    if len(sentences) < len(records):
        return False
    return all(
        (s.start, s.end, s.kind) == (r.sentence.start, r.sentence.end, r.sentence.kind)
        for s, r in zip(sentences, records, strict=False)
    )


def boundary_settled(text: str, s: Sentence, nxt: Sentence) -> bool:
    """Whether later text can no longer move the boundary between ``s`` and ``nxt``."""
    word = _FIRST_WORD.match(text, nxt.start)
    if word is None or word.end() >= len(text):
        return False  # the next sentence's first word may still grow
    if s.kind == "code" or "\n" in text[s.end :]:
        return True  # inline code never spans lines
    # An unpaired backtick before the boundary may still open a code span across it.
    line = text[text.rfind("\n", 0, s.end) + 1 : s.end]
    return "``" not in line and line.count("`") % 2 == 0


def restart(
    text: str, nxt: Sentence, released_end: int, last_kind: str, seg_line: int
) -> tuple[int, int] | None:
    """Where to segment from, from ``nxt`` on, when earlier text cannot matter.

    Restarting is safe at a line that opens a block (after a blank line, or
    a list item, heading or table row: each closes the block before it)
    unless a code fence may be open, and inside the first line of a prose
    paragraph before a sentence that starts with a letter (nothing before
    it changes how the rest of the line splits). The whole text is
    segmented again at the end, which would catch a mistake.

    Args:
        text: the text so far.
        nxt: the first sentence not released yet.
        released_end: where the last released sentence ends.
        last_kind: the kind of the last released sentence.
        seg_line: the first line of the block that holds the current restart.

    Returns:
        The new restart and the first line of its block, or ``None`` to keep
        the current one.
    """
    line_start = text.rfind("\n", 0, nxt.start) + 1
    if line_start > released_end:
        gap = text[released_end : nxt.start]
        if "```" in gap or "~~~" in gap or last_kind == "code":
            return None
        if _BLANK_LINE.search(gap) is None and nxt.kind not in _BLOCK_STARTS:
            return None
        start = line_start
    else:
        line = text[line_start : nxt.start]
        if (
            line_start != seg_line
            or nxt.kind != "prose"
            or not text[nxt.start].isalpha()
            or line.lstrip().startswith(">")
            or "``" in line
            or line.count("`") % 2
        ):
            return None
        start = nxt.start
    check = segment_from(text, start)
    if check and (check[0].start, check[0].kind) == (nxt.start, nxt.kind):
        return start, line_start if start == line_start else seg_line
    return None
