"""Figures the reply's own lines add up to, above or below them.

Three layouts put a computed amount where the lines that add up to it have not been
read yet, or leave one part of a sum to be worked out from the others:

- a summary first ("**The cheapest economy option on May 24 is $207.**"), then the
  lines it sums ("HAT110 ... $105", "HAT172 ... $102"): the figure is the sum of the
  first run of figures after it that receipts back;
- a split of a total ("Gift card: $128", "Mastercard: $247", "Total: $375"), where the
  total and every other part are backed: the one part no receipt holds is the total
  less the others (said twice, "charge the remaining $247" above the split, it is one
  unknown; and a remainder a record's value was taken to contradict is settled so too);
- a figure a later line works out ("the difference comes to $222" above the table row
  that derives it): that line's formula.

Both run once every sentence has been checked (``pipeline/check``); each turns an
unsupported amount into a derived one, with the lines as its formula. They make one
contradiction only: a total of one passenger's fares said to be "for all three
passengers"; a summary that the lines below do not add up to stays unsupported.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

from receiptgate.checks.arithmetic import names_operation
from receiptgate.checks.finding import Finding
from receiptgate.checks.operands import TOLERANCE, for_one_head, show_number
from receiptgate.checks.totals import NAMES_TOTAL
from receiptgate.checks.words import content_words
from receiptgate.claims.models import HardFact
from receiptgate.policy.decide import ClaimEval
from receiptgate.text.segment import Sentence

#: Figures after a summary that may add up to it (two to four lines of parts).
_MOST_PARTS = 4
#: How many figures after a part its split's total may come.
_TOTAL_WITHIN = 4


@dataclass(slots=True)
class _Amount:
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


def settle_reply_sums(
    text: str, sentences: Sequence[Sentence], groups: dict[int, list[ClaimEval]]
) -> None:
    """Back the amounts of the reply that its other lines add up to (see the module
    doc). Changes the claims' findings in place."""
    amounts = _amounts(groups, nothing=True)
    if not any(a.finding.status in ("unsupported", "contradicted") for a in amounts):
        return
    everything, amounts = amounts, [a for a in amounts if a.number != 0]
    # with the amounts taken off ("-$500"); their findings are read as they stand
    signed = _amounts(groups, taken_off=True)
    for k, a in enumerate(amounts):
        if a.finding.status == "contradicted" and a.finding.detail.startswith("miscalculated"):
            # a sum guessed over the records ("188 + 108 = 296, not 1,300") yields to the
            # reply's own lines right above, when they add up to it
            found = _total_above(amounts, k, sentences)
            if found is not None:
                a.ev.hard[a.at] = found
            continue
        worked = a.finding.status == "contradicted" and (
            _under_total(text, amounts, k, sentences)
            or _left_after(signed, a, sentences)
            or _same_label_above(amounts, k, sentences)
        )
        if worked:
            # "gift_card_6136092: $394 (of $696)" under a line whose total the items
            # split, "**Mastercard charge: $114**" under a certificate's line: what the
            # reply's own lines leave, to the cent, not the balance of a record near it
            a.ev.hard[a.at] = worked
            continue
        if a.finding.status == "contradicted" and names_operation(sentences[a.sentence].text):
            # "charge the remaining $113.75" beside the gift card it is no balance of: the
            # total below less the other parts, when the lines give them
            found = _split_part(amounts, k, sentences)
            if found is not None:
                a.ev.hard[a.at] = found
            continue
        if a.finding.status != "unsupported":
            continue
        found = (
            _summary(amounts, k)
            or _split_part(amounts, k, sentences)
            or _worked_below(amounts, k)
            or _total_above(amounts, k, sentences)
            or _left_after(signed, a, sentences)
            or _worked_above(amounts, k)
            or _same_label_above(amounts, k, sentences)
            or _under_total(text, amounts, k, sentences)
        )
        if found is not None:
            a.ev.hard[a.at] = found
    # "Mastercard: $0" under "Reservation 1 ($1,092):" once the other parts are settled:
    # nothing left is a part of the split, never a term of a sum
    for k, a in enumerate(everything):
        if a.number == 0 and a.finding.status == "unsupported":
            found = _under_total(text, everything, k, sentences)
            if found is not None:
                a.ev.hard[a.at] = found


def _amounts(
    groups: dict[int, list[ClaimEval]], *, taken_off: bool = False, nothing: bool = False
) -> list[_Amount]:
    """The reply's amounts of money in order; with ``taken_off`` those written as taken
    off ("-$500") as well, with their sign; with ``nothing`` those of $0 too."""
    out: list[_Amount] = []
    for sidx, group in groups.items():
        for ev in group:
            if ev.claim.category == "record":
                continue
            for i, m in enumerate(ev.hard):
                h = m.value
                if h is None or h.kind != "money" or h.number is None:
                    continue
                if h.number > 0 or (taken_off and h.number < 0) or (nothing and h.number == 0):
                    out.append(_Amount(sidx, ev, i, h, h.number))
    out.sort(key=lambda a: a.fact.start)
    return out


def _summary(amounts: list[_Amount], k: int) -> Finding | None:
    """``amounts[k]`` as the sum of the first run of backed amounts after its sentence
    (a restatement of the same figure, "**Cheapest option ($207):**", is skipped)."""
    target = amounts[k].number
    parts: list[_Amount] = []
    total = 0.0
    for a in amounts[k + 1 :]:
        if a.sentence == amounts[k].sentence and not parts:
            return None  # "... is $207 ($105 + $102)": the sentence's own arithmetic decides
        if abs(a.number - target) <= TOLERANCE and not parts:
            continue
        if not a.backed or len(parts) == _MOST_PARTS:
            return None
        parts.append(a)
        total += a.number
        if len(parts) >= 2 and abs(total - target) <= TOLERANCE:
            terms = " + ".join(show_number(p.number) for p in parts)
            return _derived(amounts[k], f"{terms} (the lines below)", parts[0].finding)
        if total > target + TOLERANCE:
            return None
    return None


#: How many lines above a total may add up to it.
_MOST_LINES = 8


def _total_above(amounts: list[_Amount], k: int, sentences: Sequence[Sentence]) -> Finding | None:
    """``amounts[k]``, in a sentence that names a total, as the sum of the lines right
    above it, one amount each (the last of its line): "Total cost of upcoming flights:
    $1,628" under "59XX6W ... $624", "3EMQJ6 ... $306", ... whose amounts are backed or
    derived themselves."""
    total = amounts[k]
    if not NAMES_TOTAL.search(sentences[total.sentence].text):
        return None
    last_of: dict[int, _Amount] = {}
    for a in amounts[:k]:
        if a.sentence != total.sentence:
            last_of[a.sentence] = a
    lines = [last_of[i] for i in sorted(last_of, reverse=True)][:_MOST_LINES]
    run = 0.0
    for n, a in enumerate(lines, 1):
        if not a.backed:
            return None
        run += a.number
        if n >= 2 and abs(run - total.number) <= TOLERANCE:
            parts = lines[:n][::-1]
            terms = " + ".join(show_number(p.number) for p in parts)
            found = _derived(total, f"{terms} (the lines above)", parts[0].finding)
            said = sentences[total.sentence].text
            short = for_one_head(terms, total.number, said, total.fact.text)
            if short is not None:
                # "Total new fare: $1,230 for all three passengers" over one passenger's
                # fares: the lines add up, the heads do not
                return dataclasses.replace(
                    found, status="contradicted", detail=f"miscalculated: {short}"
                )
            return found
        if run > total.number + TOLERANCE:
            return None
    return None


def _worked_below(amounts: list[_Amount], k: int) -> Finding | None:
    """``amounts[k]`` as the same figure a later line works out ("the fare difference
    comes to $222" above a table whose "Difference" row derives $222)."""
    return _worked_out(amounts[k], amounts[k + 1 :], "a line below")


def _worked_above(amounts: list[_Amount], k: int) -> Finding | None:
    """``amounts[k]`` as the same figure a line above was worked out to, here (the
    "$44" of "$44 + $621 + $621 = $1,286" under the lines that leave $44 to pay)."""
    return _worked_out(amounts[k], amounts[:k][::-1], "a line above")


def _worked_out(target: _Amount, others: Sequence[_Amount], where: str) -> Finding | None:
    for a in others:
        f = a.finding
        if (
            abs(a.number - target.number) <= TOLERANCE
            and f.status == "supported"
            and f.detail.startswith("derived: ")
            and f.receipt_id is not None
        ):
            return dataclasses.replace(f, detail=f"{f.detail} ({where})", value=target.fact)
    return None


def _split_part(amounts: list[_Amount], k: int, sentences: Sequence[Sentence]) -> Finding | None:
    """``amounts[k]`` as a total less the other parts listed with it: the total comes
    within a few figures after it, in a sentence that names a total, and it and every
    other part of the run are backed."""
    part = amounts[k]

    def again(a: _Amount) -> bool:
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
        for start in range(k, max(-1, k - _MOST_PARTS), -1):
            run = [a for a in amounts[start:t] if a is not part and not again(a)]
            if any(not a.backed for a in run):
                break
            if not run:
                continue
            rest = sum(a.number for a in run)
            if abs(total.number - rest - part.number) <= TOLERANCE:
                others = " − ".join(show_number(a.number) for a in run)
                return _derived(
                    part, f"{show_number(total.number)} − {others} (the total below)", total.finding
                )
        return None
    return None


#: A line's label: the words before its colon ("**Mastercard charge: $173**").
_LABEL = re.compile(r"^[\s*_#>-]*([^:\n]{2,80}?)[*_\s]*:")


def _same_label_above(
    amounts: list[_Amount], k: int, sentences: Sequence[Sentence]
) -> Finding | None:
    """``amounts[k]``, in a line that names a total of what its label names ("**Total
    Mastercard charge across all three reservations: $1,286**"), as the sum of the lines
    above labelled so ("**Mastercard charge: $173**", ... one in each section), two or
    more of them, every one backed or worked out."""
    total = amounts[k]
    said = sentences[total.sentence].text
    head = _LABEL.match(said)
    if head is None or not NAMES_TOTAL.search(head.group(1)):
        return None
    wanted = content_words(head.group(1))
    parts: list[_Amount] = []
    last_of: dict[int, _Amount] = {}
    for a in amounts[:k]:
        if a.sentence != total.sentence:
            last_of[a.sentence] = a
    for i in sorted(last_of)[-4 * _MOST_LINES :]:
        label = _LABEL.match(sentences[i].text)
        if label is None or NAMES_TOTAL.search(label.group(1)):
            continue
        words = content_words(label.group(1))
        if words and words <= wanted:
            parts.append(last_of[i])
    if len(parts) < 2 or any(not p.backed for p in parts):
        return None
    if abs(sum(p.number for p in parts) - total.number) > TOLERANCE:
        return None
    terms = " + ".join(show_number(p.number) for p in parts)
    return _derived(total, f"{terms} (the lines above labelled so)", parts[0].finding)


#: A list item's marker after its indent: "- ", "* ", "• ", "1. ".
_ITEM = re.compile(r"[ \t]*(?:[-*•+]|\d{1,2}[.)])[ \t]")


def _indent(text: str, at: int) -> tuple[int, bool]:
    """How far in the line holding offset ``at`` starts, and whether it is a list item."""
    line = text.rfind("\n", 0, at) + 1
    m = _ITEM.match(text, line)
    depth = len(text[line:at]) - len(text[line:at].lstrip(" \t"))
    return depth, m is not None and m.end() <= at + 2


def _under_total(
    text: str, amounts: list[_Amount], k: int, sentences: Sequence[Sentence]
) -> Finding | None:
    """``amounts[k]``, the first figure of a list item under a line whose figure is a
    total ("Reservation 1 (JFK→SFO, $364×3 = $1,092):" over "certificate: $500", "gift
    card: $198", "gift card: $394 (of $696)", "Mastercard: $0"), as that total less the
    other items' figures, every one of them and the total backed. The items are the
    lines of the same indent under it, up to the next line indented less."""
    part = amounts[k]
    where = sentences[part.sentence]
    depth, item = _indent(text, where.start)
    if not item:
        return None
    first_of: dict[int, _Amount] = {}
    last_of: dict[int, _Amount] = {}
    for a in amounts:
        first_of.setdefault(a.sentence, a)
        last_of[a.sentence] = a
    if first_of.get(part.sentence) is not part:
        return None
    siblings: list[_Amount] = []
    parent: _Amount | None = None
    for i in range(part.sentence - 1, max(-1, part.sentence - _MOST_LINES - 1), -1):
        d, is_item = _indent(text, sentences[i].start)
        if d < depth or (d == depth and not is_item):
            parent = last_of.get(i)
            break
        if d == depth and i in first_of:
            siblings.append(first_of[i])
    for i in range(part.sentence + 1, min(len(sentences), part.sentence + _MOST_LINES)):
        d, is_item = _indent(text, sentences[i].start)
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
    return _derived(part, formula, parent.finding)


#: A line that says what is left to pay: "Remaining: $44", "Balance due", "Left to pay".
_NAMES_LEFT = re.compile(
    r"\b(?:remaining|remainder|rest|left|balance|due|outstanding|owe[sd]?)\b", re.IGNORECASE
)


def _left_after(
    signed: list[_Amount], part: _Amount, sentences: Sequence[Sentence]
) -> Finding | None:
    """``part`` as what is left of an amount once the lines under it are taken off:
    "Flight cost: $871", "Certificate: -$500", "Gift card: -$198", "**Mastercard:
    $173**". The lines taken off are written with a minus sign or a dash before the
    figure, or the sentence says what is left ("Remaining balance: $173"); the amount
    they are taken from is the line right above them, and all of them are backed (or
    worked out themselves). Titles of the lines are passed over, and so is an option
    worked out the same way above ("Option A: ... Mastercard charge: $1,786", then
    "Option B: -$250 ... Mastercard charge: $2,036", both from the one total above).
    ``signed``: the reply's amounts, those taken off included."""
    last_of: dict[int, _Amount] = {}  # each line's last amount, the lines above ``part``
    for a in signed:
        if a.fact.start >= part.fact.start:
            break
        if a.sentence != part.sentence and not _titles(sentences[a.sentence]):
            last_of[a.sentence] = a
    lines = [last_of[i] for i in sorted(last_of, reverse=True)][: 2 * _MOST_LINES]
    says_left = _NAMES_LEFT.search(sentences[part.sentence].text) is not None
    off = 0.0
    taken: list[_Amount] = []
    skipping = False  # within an option above, worked out the same way: not this one's
    for a in lines:
        if not a.backed:
            return None
        off_line = a.number < 0 or says_left or _dash_before(a, sentences[a.sentence])
        if skipping:
            if off_line:
                continue
            skipping = False
        if taken and a.number > 0 and abs(a.number - off - part.number) <= TOLERANCE:
            shown = " − ".join(show_number(abs(x.number)) for x in taken[::-1])
            formula = f"{show_number(a.number)} − {shown} (the lines above)"
            return _derived(part, formula, a.finding)
        if off_line and len(taken) < _MOST_LINES:
            off += abs(a.number)
            taken.append(a)
            continue
        if taken and a.finding.detail.endswith("(the lines above)"):
            skipping = True  # "Mastercard charge: $1,786" of the option above
            continue
        return None
    return None


def _titles(sentence: Sentence) -> bool:
    """Whether a line is the title of the lines under it ("**Option A - Use your largest
    certificate ($500):**"): no line of the sum."""
    return sentence.text.rstrip("*_ ").endswith(":")


#: A dash that takes the figure after it off: "Certificate $250 = –$250", "– $500".
_TAKEN_OFF = re.compile(r"(?:^|[\s=:(])[-−–]\s?$")


def _dash_before(a: _Amount, sentence: Sentence) -> bool:
    return _TAKEN_OFF.search(sentence.text[: max(0, a.fact.start - sentence.start)]) is not None


def _derived(a: _Amount, formula: str, backing: Finding) -> Finding:
    return dataclasses.replace(
        backing,
        status="supported",
        detail=f"derived: {show_number(a.number)} = {formula}",
        path=None,
        value=a.fact,
    )
