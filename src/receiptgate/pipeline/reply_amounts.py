"""An amount of the reply: a figure of money it states, as its own lines read it.

Each is one money fact of a claim (no record's own claims), with where its finding sits,
so that a layout of the reply's lines that adds up to it (``pipeline/reply_sums``,
``pipeline/reply_splits``) can replace that finding with a derived one. The lines are
read by their indent and list markers, titles and the dashes that take a figure off.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from receiptgate.checks.finding import Finding
from receiptgate.checks.operands import show_number
from receiptgate.claims.models import HardFact
from receiptgate.policy.decide import ClaimEval
from receiptgate.text.segment import Sentence

#: Figures after a summary that may add up to it (two to four lines of parts).
MOST_PARTS = 4
#: How many lines above a total may add up to it.
MOST_LINES = 8


@dataclass(slots=True)
class Amount:
    """An amount of money the reply states, with its finding (where it sits in ``ev``)."""

    sentence: int
    ev: ClaimEval
    at: int
    fact: HardFact
    number: float

    @property
    def finding(self) -> Finding:
        return self.ev.hard[self.at]

    @property
    def backed(self) -> bool:
        return self.finding.status == "supported"


def amounts_of(
    groups: dict[int, list[ClaimEval]], *, taken_off: bool = False, nothing: bool = False
) -> list[Amount]:
    """The reply's amounts of money in order; with ``taken_off`` those written as taken
    off ("-$500") as well, with their sign; with ``nothing`` those of $0 too."""
    out: list[Amount] = []
    for sidx, group in groups.items():
        for ev in group:
            if ev.claim.category == "record":
                continue
            for i, m in enumerate(ev.hard):
                h = m.value
                if h is None or h.kind != "money" or h.number is None:
                    continue
                if h.number > 0 or (taken_off and h.number < 0) or (nothing and h.number == 0):
                    out.append(Amount(sidx, ev, i, h, h.number))
    out.sort(key=lambda a: a.fact.start)
    return out


def lines_above(amounts: list[Amount], part: Amount) -> list[Amount]:
    """The last amount of each line above ``part`` (another line's, before it), top to
    bottom: what a layout of lines adds up or takes off."""
    last_of: dict[int, Amount] = {}
    for a in amounts:
        if a.fact.start >= part.fact.start:
            break
        if a.sentence != part.sentence:
            last_of[a.sentence] = a
    return [last_of[i] for i in sorted(last_of)]


#: A list item's marker after its indent: "- ", "* ", "• ", "1. ".
_ITEM = re.compile(r"[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]")


def indent(text: str, at: int) -> tuple[int, bool]:
    """How far in the line holding offset ``at`` starts, and whether it is a list item."""
    line = text.rfind("\n", 0, at) + 1
    m = _ITEM.match(text, line)
    depth = len(text[line:at]) - len(text[line:at].lstrip(" \t"))
    return depth, m is not None and m.end() <= at + 2


def titles(sentence: Sentence) -> bool:
    """Whether a line is the title of the lines under it ("**Option A - Use your largest
    certificate ($500):**"): no line of the sum."""
    return sentence.text.rstrip("*_ ").endswith(":")


#: A dash that takes the figure after it off: "Certificate $250 = –$250", "– $500".
_TAKEN_OFF = re.compile(r"(?:^|[\s=:(])[-−–]\s?$")


def dash_before(a: Amount, sentence: Sentence) -> bool:
    return _TAKEN_OFF.search(sentence.text[: max(0, a.fact.start - sentence.start)]) is not None


def derived(a: Amount, formula: str, backing: Finding) -> Finding:
    return dataclasses.replace(
        backing,
        status="supported",
        detail=f"derived: {show_number(a.number)} = {formula}",
        path=None,
        value=a.fact,
    )
