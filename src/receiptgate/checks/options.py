"""Orderings over the options a reply lists: "Option 3 offers the lowest additional cost"
after the reply listed "Option 1 … Total Additional Cost: $1,023", "Option 2 … $1,203"
and "Option 3 … $1,008" (:func:`option_ordering`).

The options are the reply's own sections, each under a line that starts with its label
("1. **Option 1:**", "### Choice B"); the figure of each is the amount on its line whose
words meet what the sentence compares ("additional cost"), or its only amount. The
claimed option must hold the lowest (or the highest) of them; otherwise the sentence is
contradicted and the evidence names the option that beats it. The figures themselves
are checked where they stand, against the receipts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from receiptgate.checks.words import content_words
from receiptgate.claims.hardfacts import extract_hard_facts

_OPTION = re.compile(r"\b(option|choice|alternative)\s+#?([A-Za-z]?\d+|[A-Z])\b", re.IGNORECASE)
_LABEL_LINE = re.compile(
    r"^[ \t>]*(?:[-*+•]|\d{1,2}[.)]|#{1,6})?[ \t]*(?:\*\*|__)?[ \t]*"
    r"(option|choice|alternative)\s+#?([A-Za-z]?\d+|[A-Z])\b"
    # a label, not a sentence that starts with one: "Option 1:", "**Option 1**", "Option 1 -"
    r"[ \t]*(?:\*\*|__)?[ \t]*(?::|$|[-–—(])",
    re.IGNORECASE | re.MULTILINE,
)
_LOWEST = re.compile(
    r"\b(?:cheapest|least\s+expensive|lowest|most\s+affordable|least\s+costly|smallest)\b",
    re.IGNORECASE,
)
_HIGHEST = re.compile(r"\b(?:most\s+expensive|priciest|highest|largest|most\s+costly)\b", re.I)
#: Words of the sentence that say nothing of what is compared.
_NOT_MEASURE = content_words(
    "option options choice choices alternative alternatives offer offers offering lowest "
    "cheapest least expensive most affordable costly smallest highest priciest largest has "
    "have with comes provides gives"
)


@dataclass(frozen=True, slots=True)
class OptionOrdering:
    """The outcome of an ordering claim over the reply's options."""

    status: str  # supported | contradicted
    detail: str
    at: tuple[int, ...]  # where the compared figures stand in the reply


def option_ordering(text: str, sentence: str) -> OptionOrdering | None:
    """Whether the one option ``sentence`` names holds the lowest (highest) figure of the
    options listed in ``text``; ``None`` when the sentence compares no listed options."""
    direction = "min" if _LOWEST.search(sentence) else "max" if _HIGHEST.search(sentence) else None
    named = {_label(m) for m in _OPTION.finditer(sentence)}
    if direction is None or len(named) != 1:
        return None
    (claimed,) = named
    measure = content_words(_OPTION.sub(" ", sentence)) - _NOT_MEASURE
    figures = _figures(text, measure)
    if claimed not in figures or len(figures) < 2:
        return None
    pick = min if direction == "min" else max
    best = pick(figures.values(), key=lambda f: f[0])
    word = "lowest" if direction == "min" else "highest"
    listed = ", ".join(f"option {k}: {shown}" for k, (_, shown, _) in figures.items())
    at = tuple(a for _, _, a in figures.values())
    value, shown, _ = figures[claimed]
    if value == best[0]:
        return OptionOrdering("supported", f"option {claimed} holds the {word}: {listed}", at)
    beats = next(k for k, v in figures.items() if v[0] == best[0])
    return OptionOrdering(
        "contradicted",
        f"option {beats} holds the {word} ({best[1]}), not option {claimed} ({shown}): {listed}",
        at,
    )


def _label(m: re.Match[str]) -> str:
    return m.group(2).lower()


def _figures(text: str, measure: frozenset[str]) -> dict[str, tuple[float, str, int]]:
    """Each listed option's amount, shown and where it stands: on the line of its section
    whose words meet ``measure`` (the last such line), else its only amount."""
    starts = list(_LABEL_LINE.finditer(text))
    out: dict[str, tuple[float, str, int]] = {}
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(text)
        amounts: list[tuple[bool, float, str, int]] = []
        at = m.start()
        for line in text[m.start() : end].splitlines(keepends=True):
            money = [h for h in extract_hard_facts(line) if h.kind == "money" and h.number]
            number = money[0].number if len(money) == 1 else None
            if number is not None:
                met = bool(content_words(line) & measure)
                amounts.append((met, number, money[0].text, at + money[0].start))
            at += len(line)
        matching = [a for a in amounts if a[0]]
        if matching:
            _, value, shown, where = matching[-1]
        elif len(amounts) == 1:
            _, value, shown, where = amounts[0]
        else:
            return {}  # an option whose figure cannot be told: no comparison
        if _label(m) in out:
            return {}  # the same label twice: not one list of options
        out[_label(m)] = (value, shown, where)
    return out
