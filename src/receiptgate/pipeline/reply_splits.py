"""Splits of a total: one part the reply's own lines leave to be worked out.

Three layouts give a total and the other parts of it, and leave one part no receipt
holds to be worked out from them:

- a split of a total ("Gift card: $128", "Mastercard: $247", "Total: $375"), where the
  total and every other part are backed: the one part no receipt holds is the total
  less the others (said twice, "charge the remaining $247" above the split, it is one
  unknown; and a remainder a record's value was taken to contradict is settled so too);
- the items under a line whose figure is a total ("Reservation 1 (JFK→SFO, $364×3 =
  $1,092):" over "certificate: $500", "gift card: $198", "gift card: $394 (of $696)",
  "Mastercard: $0"): the one item no receipt holds, $0 included, is the total less
  the other items;
- what is left once lines are taken off ("Flight cost: $871", "Certificate: -$500",
  "Gift card: -$198", "**Mastercard: $173**"): the line they are taken from, less them.

``settle_reply_sums`` (``pipeline/reply_sums``) tries them with the layouts of sums;
each turns the part's finding into a derived one, with the lines as its formula.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.finding import Finding
from receiptgate.checks.operands import TOLERANCE, show_number
from receiptgate.checks.totals import NAMES_TOTAL
from receiptgate.pipeline.reply_amounts import (
    MOST_LINES,
    MOST_PARTS,
    Amount,
    dash_before,
    derived,
    indent,
    lines_above,
    titles,
)
from receiptgate.text.segment import Sentence

#: How many figures after a part its split's total may come.
_TOTAL_WITHIN = 4


def split_part(amounts: list[Amount], k: int, sentences: Sequence[Sentence]) -> Finding | None:
    """``amounts[k]`` as a total less the other parts listed with it: the total comes
    within a few figures after it, in a sentence that names a total, and it and every
    other part of the run are backed."""
    part = amounts[k]

    def again(a: Amount) -> bool:
        """The same unknown figure, restated ("charge the remaining $5", then "Visa: $5")."""
        return a is not part and not a.backed and abs(a.number - part.number) <= TOLERANCE

    seen = 0
    for t in range(k + 1, len(amounts)):
        total = amounts[t]
        if again(total):
            continue  # no figure of its own: not counted among the next ones
        seen += 1
        if seen > _TOTAL_WITHIN:
            return None
        if total.sentence == part.sentence:
            continue
        if not (total.backed and NAMES_TOTAL.search(sentences[total.sentence].text)):
            if not amounts[t].backed:
                return None  # a second figure no receipt holds: two unknowns
            continue
        # the run of parts ends right above the total and holds this one
        for start in range(k, max(-1, k - MOST_PARTS), -1):
            run = [a for a in amounts[start:t] if a is not part and not again(a)]
            if any(not a.backed for a in run):
                break
            if not run:
                continue
            rest = sum(a.number for a in run)
            if abs(total.number - rest - part.number) <= TOLERANCE:
                others = " − ".join(show_number(a.number) for a in run)
                return derived(
                    part, f"{show_number(total.number)} − {others} (the total below)", total.finding
                )
        return None
    return None


def under_total(
    text: str, amounts: list[Amount], k: int, sentences: Sequence[Sentence]
) -> Finding | None:
    """``amounts[k]``, the first figure of a list item under a line whose figure is a
    total ("Reservation 1 (JFK→SFO, $364×3 = $1,092):" over "certificate: $500", "gift
    card: $198", "gift card: $394 (of $696)", "Mastercard: $0"), as that total less the
    other items' figures, every one of them and the total backed. The items are the
    lines of the same indent under it, up to the next line indented less."""
    part = amounts[k]
    where = sentences[part.sentence]
    depth, item = indent(text, where.start)
    if not item:
        return None
    first_of: dict[int, Amount] = {}
    last_of: dict[int, Amount] = {}
    for a in amounts:
        first_of.setdefault(a.sentence, a)
        last_of[a.sentence] = a
    if first_of.get(part.sentence) is not part:
        return None
    siblings: list[Amount] = []
    parent: Amount | None = None
    for i in range(part.sentence - 1, max(-1, part.sentence - MOST_LINES - 1), -1):
        d, is_item = indent(text, sentences[i].start)
        if d < depth or (d == depth and not is_item):
            parent = last_of.get(i)
            break
        if d == depth and i in first_of:
            siblings.append(first_of[i])
    for i in range(part.sentence + 1, min(len(sentences), part.sentence + MOST_LINES)):
        d, is_item = indent(text, sentences[i].start)
        if d < depth or (d == depth and not is_item):
            break
        if d == depth and i in first_of:
            siblings.append(first_of[i])
    if parent is None or not parent.backed or not siblings:
        return None
    if any(not a.backed for a in siblings):
        return None
    rest = sum(a.number for a in siblings)
    if abs(parent.number - rest - part.number) > TOLERANCE:
        return None
    siblings.sort(key=lambda a: a.fact.start)
    others = " − ".join(show_number(a.number) for a in siblings)
    formula = f"{show_number(parent.number)} − {others} (the line above and its items)"
    return derived(part, formula, parent.finding)


#: A line that says what is left to pay: "Remaining: $44", "Balance due", "Left to pay".
_NAMES_LEFT = re.compile(
    r"\b(?:remaining|remainder|rest|left|balance|due|outstanding|owe[sd]?)\b", re.IGNORECASE
)


def left_after(signed: list[Amount], part: Amount, sentences: Sequence[Sentence]) -> Finding | None:
    """``part`` as what is left of an amount once the lines under it are taken off:
    "Flight cost: $871", "Certificate: -$500", "Gift card: -$198", "**Mastercard:
    $173**". The lines taken off are written with a minus sign or a dash before the
    figure, or the sentence says what is left ("Remaining balance: $173"); the amount
    they are taken from is the line right above them, and all of them are backed (or
    worked out themselves). Titles of the lines are passed over, and so is an option
    worked out the same way above ("Option A: ... Mastercard charge: $1,786", then
    "Option B: -$250 ... Mastercard charge: $2,036", both from the one total above).
    ``signed``: the reply's amounts, those taken off included."""
    above = [a for a in lines_above(signed, part) if not titles(sentences[a.sentence])]
    lines = above[::-1][: 2 * MOST_LINES]
    says_left = _NAMES_LEFT.search(sentences[part.sentence].text) is not None
    off = 0.0
    taken: list[Amount] = []
    skipping = False  # within an option above, worked out the same way: not this one's
    for a in lines:
        if not a.backed:
            return None
        off_line = a.number < 0 or says_left or dash_before(a, sentences[a.sentence])
        if skipping:
            if off_line:
                continue
            skipping = False
        if taken and a.number > 0 and abs(a.number - off - part.number) <= TOLERANCE:
            shown = " − ".join(show_number(abs(x.number)) for x in taken[::-1])
            formula = f"{show_number(a.number)} − {shown} (the lines above)"
            return derived(part, formula, a.finding)
        if off_line and len(taken) < MOST_LINES:
            off += abs(a.number)
            taken.append(a)
            continue
        if taken and a.finding.detail.endswith("(the lines above)"):
            skipping = True  # "Mastercard charge: $1,786" of the option above
            continue
        return None
    return None
