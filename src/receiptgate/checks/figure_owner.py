"""Which of the records a sentence names one figure is about: the name before it in its
clause, the name a bracket or "for" right after it gives it to, the n-th of n names for the
n-th of a list of figures, names joined by a plus as one group, "the others" (checks/anchoring
finds what a sentence is about; this module narrows it for each figure)."""

from __future__ import annotations

import re
from collections.abc import Callable

from receiptgate.checks.anchoring import Anchor
from receiptgate.claims.models import HardFact

_FIGURE_BETWEEN = re.compile(r"[$€£]\s?\d|\d[\d,.]*\s?%|\b\d+(?:[.,]\d+)?\b")


def for_figure(anchor_: Anchor, h: HardFact) -> Anchor:
    """In a sentence that names several records ("the Desk Lamp cost $19.99 and the
    Office Chair $145.50"), a figure is about the one named nearest to it — the one named
    before it in its clause: a name after it owns it only when nothing but a few linking
    words stand between ("$19.99 for the Desk Lamp"), and a figure in brackets after a
    name is that name's ("Chen Lee (born 1967-12-12) and Noah Hernandez (born ...)")."""
    if (others := _the_others(anchor_, h)) is not None:
        return others
    spans = sorted({(a, b) for a, b, _ in anchor_.named})
    if len(spans) < 2 or len({id(r) for _, _, r in anchor_.named}) < 2:
        return anchor_

    def text(lo: int, hi: int) -> str:
        return anchor_.text[max(0, lo - anchor_.start) : max(0, hi - anchor_.start)]

    def distance(span: tuple[int, int]) -> tuple[int, int]:
        a, b = span
        if b <= h.start:
            return (h.start - b, 0)
        if a >= h.end:
            return (a - h.end, 1)
        return (0, 0)

    if (paired := _respective(anchor_, spans, h)) is not None:
        return paired
    before = [sp for sp in spans if sp[1] <= h.start]
    after = [sp for sp in spans if sp[0] >= h.end]
    prior = max(before, key=lambda sp: sp[1]) if before else None
    later = min(after, key=lambda sp: sp[0]) if after else None
    if prior is not None and ";" in text(prior[1], h.start):
        # "Order #W1 (Water Bottle, Backpack; $1,023.16)": after the bracket's list, the
        # figure is the bracket's owner's, not the last item's
        opened = anchor_.text.rfind("(", 0, prior[0] - anchor_.start)
        outside = [sp for sp in before if sp[1] - anchor_.start <= opened]
        if opened >= 0 and outside and ")" not in text(anchor_.start + opened, h.start):
            prior = max(outside, key=lambda sp: sp[1])
    if prior is not None and not _FIGURE_BETWEEN.search(text(prior[1], h.start)):
        # "HAT286 + HAT047: leaves IAH 22:00": a figure of names joined by a plus is the
        # group's (the first leaves, the last arrives)
        group = _joined(prior, before, text, forward=False)
        if len(group) > 1:
            return _narrowed(anchor_, group)
    if (
        prior is not None
        and _PREDICATE.match(text(prior[1], h.start))
        and (head := _head_of(before, prior, text)) is not None
    ):
        # "the HAT047 that connects with HAT286 is the one on May 25", "the connecting
        # HAT047 for HAT286 is on May 25": the name in the phrase after the subject only
        # says which one the subject is; the figure is the subject's
        return _narrowed(anchor_, [head])
    if prior is None and later is not None:
        # "on May 26-27 (same flights: HAT021 + HAT279)": names joined by a plus after a
        # figure that no name precedes are one group, the figure the group's
        group = _joined(later, after, text, forward=True)
        if len(group) > 1:
            return _narrowed(anchor_, group)
    aside = prior is not None and _opens_aside(text(prior[1], h.start))
    # "$95.08 (item 5206946487)": a bracket that opens right after the figure names its owner
    owner = later if later and _BRACKET_NAME.fullmatch(text(h.end, later[0])) else None
    if aside or (later is not None and _CLAUSE_AFTER.search(text(h.end, later[0]))):
        # "the Vacuum Cleaner (canister, $622.12) and the Air Purifier ($473.43)": the
        # bracket is the Vacuum Cleaner's; "..., arriving at 4:00 PM, then HAT175": the
        # next clause's name is not this figure's
        later = None
    near = min([sp for sp in (prior, later) if sp is not None], key=distance, default=None)
    if later is not None and _FOR_NAME.fullmatch(text(h.end, later[0])):
        near = later  # "$158 for HAT097 and $141 for HAT251": "for" gives it to the name after
    if owner is not None and not aside:
        near = owner
    if near is None:
        near = min(spans, key=distance)
    a, b = near
    lo, hi = (b, h.start) if b <= h.start else (h.end, a)
    between = text(lo, hi)
    if a < h.start and not aside and (_FIGURE_BETWEEN.search(between) or "(" in between):
        # "the Smart Watch ($336.15) add up to $595.12": the name has its own figure;
        # this one is about what the sentence says of all of them
        return anchor_
    return _narrowed(anchor_, [near])


def _joined(
    first: tuple[int, int],
    spans: list[tuple[int, int]],
    text: Callable[[int, int], str],
    *,
    forward: bool,
) -> list[tuple[int, int]]:
    """The names joined to ``first`` by a plus, one after another away from the figure
    (``forward``: the names after it, else those before it), ``first`` included."""
    group = [first]
    for sp in sorted(spans, reverse=not forward):
        lo, hi = (group[-1][1], sp[0]) if forward else (sp[1], group[-1][0])
        if lo <= hi and _JOINED.fullmatch(text(lo, hi)):
            group.append(sp)
    return group


def _head_of(
    before: list[tuple[int, int]],
    prior: tuple[int, int],
    text: Callable[[int, int], str],
) -> tuple[int, int] | None:
    """The name a phrase holding ``prior`` modifies, when the two are joined by "for",
    "with" or a relative clause ("HAT047 that connects with HAT286")."""
    heads = [sp for sp in before if sp[1] <= prior[0]]
    if not heads:
        return None
    head = max(heads, key=lambda sp: sp[1])
    return head if _MODIFIER.fullmatch(text(head[1], prior[0])) else None


#: What joins a name to a phrase that says which one it is: "for", "with", "that
#: connects with", "which goes to".
_MODIFIER = re.compile(
    r"[\s*_]*(?:(?:that|which)\s+\w+(?:\s+(?:with|to|from|on|after|before))?|for|with)"
    r"\s+(?:the\s+|your\s+|flight\s+|order\s+)?[\s*_]*"
)

#: The verb that follows the subject's phrase: what comes next is said of the subject.
_PREDICATE = re.compile(
    r"[\s*_]*(?:is|are|was|were|departs|leaves|arrives|lands|costs|comes\s+to)\b"
)


def _narrowed(anchor_: Anchor, spans: list[tuple[int, int]]) -> Anchor:
    """The anchor cut down to the records named at ``spans``."""
    named = [n for n in anchor_.named if (n[0], n[1]) in spans]
    records = list(dict.fromkeys(r for _, _, r in named))
    return Anchor(records, anchor_.how, named, anchor_.text, anchor_.start)


#: Figures listed together: "$177 and $146", "$12, $15 and $9", "$350 + $499".
_ONE = r"[$€£]?\d(?:[\d,.]*\d)?"
_FIGURE_RUN = re.compile(
    rf"{_ONE}(?:\s*,\s*{_ONE})*\s*,?\s*(?:and|\+|&)\s*{_ONE}(?:\s*(?:\+|&)\s*{_ONE})*"
)
_ONE_FIGURE = re.compile(_ONE)


#: "the others leave at 3:00 PM", "the other two flights cost $120": the rows beside
#: the ones the sentence is about.
_OTHERS = re.compile(
    r"\bthe\s+(?:others|other\s+(?:\w+\s+)?\w+s|rest)\b(?:[^.;:()]|(?<=\d)[.:](?=\d))*$", re.I
)


def _the_others(anchor_: Anchor, h: HardFact) -> Anchor | None:
    """A figure said of "the others": the rows of the anchored records' lists that the
    anchor does not hold (strongly anchored: they are what the clause names)."""
    at = h.start - anchor_.start
    if not anchor_.records or not _OTHERS.search(anchor_.text, max(0, at - 60), at):
        return None
    mine = {id(r) for r in anchor_.records}
    rows = [
        c
        for r in anchor_.records
        if r.parent is not None
        for c in r.parent.children
        if id(c) not in mine
    ]
    if not rows:
        return None
    return Anchor(list(dict.fromkeys(rows)), "section", text=anchor_.text, start=anchor_.start)


def _respective(anchor_: Anchor, spans: list[tuple[int, int]], h: HardFact) -> Anchor | None:
    """A figure of a list of figures that follows as many names, in the same order:
    "HAT085 and HAT023 (originally $177 and $146)" gives $177 to HAT085 and $146 to
    HAT023. None when the figure is in no such list."""
    at = h.start - anchor_.start
    for run in _FIGURE_RUN.finditer(anchor_.text):
        if not run.start() <= at < run.end():
            continue
        figures = [m.start() + run.start() for m in _ONE_FIGURE.finditer(run.group())]
        names: list[tuple[int, int]] = []
        for a, b in spans:
            if b - anchor_.start <= run.start() and not any(
                _same_record(anchor_, (a, b), n) for n in names
            ):
                names.append((a, b))
        if len(names) != len(figures) or at not in figures:
            return None
        return _narrowed(anchor_, [names[figures.index(at)]])
    return None


def _same_record(anchor_: Anchor, x: tuple[int, int], y: tuple[int, int]) -> bool:
    rx = {id(r) for a, b, r in anchor_.named if (a, b) == x}
    return bool(rx & {id(r) for a, b, r in anchor_.named if (a, b) == y})


#: What gives a figure to the name right after it: "$141 for HAT251", "$55 on the return".
_FOR_NAME = re.compile(r"[\s*_]*(?:for|on)\s+(?:the\s+|your\s+|flight\s+|item\s+)?[\s*_]*")

#: What joins the names of one option: "HAT286 + HAT047".
_JOINED = re.compile(r"[\s*_]*[+&][\s*_]*")

#: A bracket right after a figure that names its owner: "$95.08 (item 5206946487)".
_BRACKET_NAME = re.compile(
    r"[\s*_]*\(\s*(?:item|flight|order|reservation|id|#)?\s*(?:id\s*)?[:#]?\s*", re.I
)

#: What ends the clause of a figure before a name after it: a comma, a bracket, "then", a
#: plus between two items ("HAT002 on 2024-05-19 + HAT106 on 2024-05-20").
_CLAUSE_AFTER = re.compile(r"[,;()+&]|\b(?:then|and|while|but)\b")


def _opens_aside(between: str) -> bool:
    """Whether a figure stands inside a bracket opened after the name before it."""
    return between.count("(") > between.count(")")
