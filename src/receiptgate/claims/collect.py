"""Where a text's figures and plans are: one hard-fact scan per text, bucketed by sentence.

Helpers the engine uses to turn a segmented text into claims: the hard facts of
each sentence, the clause around a claim, and whether a clause only plans
("I'd expand it today") rather than asserts.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime

from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import DetectedClaim, HardFact
from receiptgate.text.segment import Sentence


def facts_by_sentence(
    work: str, sentences: Sequence[Sentence], now: datetime
) -> dict[int, list[HardFact]]:
    """Hard facts of the whole text in one scan, bucketed by sentence.

    One scan is far cheaper than one call per sentence; a fact that would run
    across a sentence end is read again inside its own sentence.
    """
    out: dict[int, list[HardFact]] = {}
    if not sentences:
        return out
    # a line break inside a paragraph is a space ("... on May\n24, 2024" wrapped at 80
    # characters): the scan reads the text with them as spaces; each fact keeps the
    # characters the reply holds
    flat = _unwrapped(work, sentences)
    starts = [s.start for s in sentences]
    redo: set[int] = set()
    for h in _facts(work, flat, sentences[0].start, sentences[-1].end, now):
        i = bisect_right(starts, h.start) - 1
        if i < 0:
            continue
        s = sentences[i]
        if h.end > s.end:
            redo.add(i)
            redo.add(bisect_right(starts, h.end - 1) - 1)
        elif h.start >= s.start:
            out.setdefault(i, []).append(h)
    for i in redo:
        s = sentences[i]
        out[i] = _facts(work, flat, s.start, s.end, now)
    return out


def _unwrapped(work: str, sentences: Sequence[Sentence]) -> str:
    """``work`` with the line breaks inside prose sentences as spaces, and the emphasis
    marks right around a number too ("**12** variants" is a count of variants), the same
    length."""
    breaks: list[int] = []
    for s in sentences if "\n" in work else ():
        i = work.find("\n", s.start, s.end) if s.kind == "prose" else -1
        while i >= 0:
            breaks.append(i)
            i = work.find("\n", i + 1, s.end)
    if "*" in work or "_" in work:
        for m in _NUMBER_EMPHASIS.finditer(work):
            breaks.extend(range(m.start(), m.end()))
    if not breaks:
        return work  # (then each fact is read from the reply itself, as it is)
    chars = list(work)
    for i in breaks:
        chars[i] = " "
    return "".join(chars)


#: Emphasis marks that close right after a number before a word ("**12** variants",
#: "__3__ bags"): the number's unit follows them.
_NUMBER_EMPHASIS = re.compile(r"(?<=\d)(?:\*\*|__)(?=\s+[A-Za-z])")


def _facts(work: str, flat: str, start: int, end: int, now: datetime) -> list[HardFact]:
    facts = extract_hard_facts(flat, start, end, now=now)
    if flat is work:
        return facts
    return [
        h
        if flat[h.start : h.end] == work[h.start : h.end]
        else replace(h, text=work[h.start : h.end])
        for h in facts
    ]


# A clause that recommends or plans: its dates are proposals, not facts.
PLAN = re.compile(
    r"\b(?:i['’]d|we['’]d|i\s+would|we\s+should|i\s+should|let['’]s|i['’]ll|we['’]ll|"
    r"i\s+will|we\s+will|i\s+plan|we\s+plan|i\s+recommend|we\s+recommend|i\s+suggest|"
    r"i\s+propose|should\s+we|can\s+we|could\s+we)\b",
    re.IGNORECASE,
)
CLAUSE_EDGE = re.compile(r"[,;:]\s|\s(?:but|and|while|whereas)\s")
#: Where one reported action's clause ends and the next begins ("X has been installed,
#: and its version has been written to test.txt"); commas alone do not part them.
ACTION_CLAUSE_EDGE = re.compile(
    r",?\s+(?:and|but|while|whereas|so|then)\s+(?=\S)|;\s*|,\s+(?=which\b)"
)


def clause_around(
    text: str, start: int, end: int, at: int, until: int, edges: re.Pattern[str] = CLAUSE_EDGE
) -> tuple[int, int]:
    """The clause of ``text[start:end]`` that holds ``text[at:until]``: from the last
    ``edges`` match before it to the first one after it."""
    left = start
    # up to the figure's end, so that an edge right before it is seen whole (the
    # lookahead of "and (?=\S)" needs the character after it)
    for m in edges.finditer(text, start, until):
        if m.end() > at:
            break
        left = m.end()
    right = edges.search(text, until, end)
    return left, (right.start() if right is not None else end)


def clause_of(work: str, sentence: Sentence, claim: DetectedClaim) -> str:
    """The clause of a sentence that holds a claim ("..., but build-02 doesn't have Node")."""
    left, right = clause_around(work, sentence.start, sentence.end, claim.offset, claim.end)
    return work[left:right]


def clause_text(text: str, start: int, end: int, h: HardFact) -> str:
    """A short readable subject for a standalone hard-fact claim."""
    snippet = text[max(start, h.start - 60) : min(end, h.end + 30)].strip()
    return " ".join(snippet.split())
