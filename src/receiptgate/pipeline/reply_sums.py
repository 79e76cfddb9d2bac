"""Figures the reply's own lines add up to, above or below them.

These layouts put a computed amount where the lines that add up to it have not been
read yet, or under the lines it adds up:

- a summary first ("**The cheapest economy option on May 24 is $207.**"), then the
  lines it sums ("HAT110 ... $105", "HAT172 ... $102"): the figure is the sum of the
  first run of figures after it that receipts back;
- a total under the lines it adds, one amount each ("Total cost of upcoming flights:
  $1,628" under "59XX6W ... $624", "3EMQJ6 ... $306", ...), or under the lines labelled
  with what it totals ("**Total Mastercard charge across all three reservations:
  $1,286**" over each section's "**Mastercard charge: $173**");
- a figure a later line works out ("the difference comes to $222" above the table row
  that derives it), or one a line above was worked out to: that line's formula.

The layouts that leave one part of a total to be worked out from the others are in
``pipeline/reply_splits``; ``settle_reply_sums`` tries them with these. It runs once
every sentence has been checked (``pipeline/check``); each layout turns an unsupported
amount into a derived one, with the lines as its formula. They make one contradiction
only: a total of one passenger's fares said to be "for all three passengers"; a summary
that the lines below do not add up to stays unsupported.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from receiptgate.checks.arithmetic import names_operation
from receiptgate.checks.finding import Finding
from receiptgate.checks.operands import TOLERANCE, for_one_head, show_number
from receiptgate.checks.totals import NAMES_TOTAL
from receiptgate.checks.words import content_words
from receiptgate.pipeline.reply_amounts import (
    MOST_LINES,
    MOST_PARTS,
    Amount,
    amounts_of,
    derived,
    lines_above,
)
from receiptgate.pipeline.reply_splits import left_after, split_part, under_total
from receiptgate.policy.decide import ClaimEval
from receiptgate.text.segment import Sentence


def settle_reply_sums(
    text: str, sentences: Sequence[Sentence], groups: dict[int, list[ClaimEval]]
) -> None:
    """Back the amounts of the reply that its other lines add up to (see the module
    doc). Changes the claims' findings in place."""
    found_all = amounts_of(groups, taken_off=True, nothing=True)
    # $0 included ("Mastercard: $0"), the amounts taken off ("-$500") apart
    everything = [a for a in found_all if a.number >= 0]
    if not any(a.finding.status in ("unsupported", "contradicted") for a in everything):
        return
    amounts = [a for a in everything if a.number != 0]
    # with the amounts taken off; their findings are read as they stand
    signed = [a for a in found_all if a.number != 0]
    for k, a in enumerate(amounts):
        if a.finding.status == "contradicted" and a.finding.detail.startswith("miscalculated"):
            # a sum guessed over the records ("188 + 108 = 296, not 1,300") yields to the
            # reply's own lines right above, when they add up to it
            found = _total_above(amounts, k, sentences)
            if found is not None:
                a.ev.hard[a.at] = found
            continue
        worked = a.finding.status == "contradicted" and (
            under_total(text, amounts, k, sentences)
            or left_after(signed, a, sentences)
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
            found = split_part(amounts, k, sentences)
            if found is not None:
                a.ev.hard[a.at] = found
            continue
        if a.finding.status != "unsupported":
            continue
        found = (
            _summary(amounts, k)
            or split_part(amounts, k, sentences)
            or _worked_below(amounts, k)
            or _total_above(amounts, k, sentences)
            or left_after(signed, a, sentences)
            or _worked_above(amounts, k)
            or _same_label_above(amounts, k, sentences)
            or under_total(text, amounts, k, sentences)
            or _difference_above(signed, a, sentences)
        )
        if found is not None:
            a.ev.hard[a.at] = found
    # "Price difference: -$14.54" (a difference may be written below nothing)
    for a in signed:
        if a.number < 0 and a.finding.status == "unsupported":
            found = _difference_above(signed, a, sentences)
            if found is not None:
                a.ev.hard[a.at] = found
    # "Mastercard: $0" under "Reservation 1 ($1,092):" once the other parts are settled:
    # nothing left is a part of the split, never a term of a sum
    for k, a in enumerate(everything):
        if a.number == 0 and a.finding.status == "unsupported":
            found = under_total(text, everything, k, sentences)
            if found is not None:
                a.ev.hard[a.at] = found


#: A line that names a difference: "Price difference: -$14.54", "Difference: $6.01".
_NAMES_DIFFERENCE = re.compile(r"\bdifference\b|\bdiff\b", re.IGNORECASE)


def _difference_above(
    signed: list[Amount], part: Amount, sentences: Sequence[Sentence]
) -> Finding | None:
    """``part``, in a line that names a difference, as the difference of the amounts of the
    two lines right above it ("Old price: $1,917.21", "New price: $1,902.67", "Price
    difference: -$14.54"), both backed; written with a sign, the later less the earlier
    or the other way round, as the sign says."""
    said = sentences[part.sentence].text
    if not _NAMES_DIFFERENCE.search(said):
        return None
    lines = lines_above(signed, part)[-2:]
    if len(lines) != 2 or any(not a.backed for a in lines):
        return None
    earlier, later = lines
    for x, y in ((later, earlier), (earlier, later)):
        gap = x.number - y.number
        if abs(gap - part.number) <= TOLERANCE or (
            part.number > 0 and abs(abs(gap) - part.number) <= TOLERANCE
        ):
            formula = f"{show_number(x.number)} − {show_number(y.number)} (the two lines above)"
            return derived(part, formula, x.finding)
    return None


def _summary(amounts: list[Amount], k: int) -> Finding | None:
    """``amounts[k]`` as the sum of the first run of backed amounts after its sentence
    (a restatement of the same figure, "**Cheapest option ($207):**", is skipped)."""
    target = amounts[k].number
    parts: list[Amount] = []
    total = 0.0
    for a in amounts[k + 1 :]:
        if a.sentence == amounts[k].sentence and not parts:
            return None  # "... is $207 ($105 + $102)": the sentence's own arithmetic decides
        if abs(a.number - target) <= TOLERANCE and not parts:
            continue
        if not a.backed or len(parts) == MOST_PARTS:
            return None
        parts.append(a)
        total += a.number
        if len(parts) >= 2 and abs(total - target) <= TOLERANCE:
            terms = " + ".join(show_number(p.number) for p in parts)
            return derived(amounts[k], f"{terms} (the lines below)", parts[0].finding)
        if total > target + TOLERANCE:
            return None
    return None


def _total_above(amounts: list[Amount], k: int, sentences: Sequence[Sentence]) -> Finding | None:
    """``amounts[k]``, in a sentence that names a total, as the sum of the lines right
    above it, one amount each (the last of its line): "Total cost of upcoming flights:
    $1,628" under "59XX6W ... $624", "3EMQJ6 ... $306", ... whose amounts are backed or
    derived themselves."""
    total = amounts[k]
    if not NAMES_TOTAL.search(sentences[total.sentence].text):
        return None
    lines = lines_above(amounts, total)[::-1][:MOST_LINES]
    run = 0.0
    for n, a in enumerate(lines, 1):
        if not a.backed:
            return None
        run += a.number
        if n >= 2 and abs(run - total.number) <= TOLERANCE:
            parts = lines[:n][::-1]
            terms = " + ".join(show_number(p.number) for p in parts)
            found = derived(total, f"{terms} (the lines above)", parts[0].finding)
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


def _worked_below(amounts: list[Amount], k: int) -> Finding | None:
    """``amounts[k]`` as the same figure a later line works out ("the fare difference
    comes to $222" above a table whose "Difference" row derives $222)."""
    return _worked_out(amounts[k], amounts[k + 1 :], "a line below")


def _worked_above(amounts: list[Amount], k: int) -> Finding | None:
    """``amounts[k]`` as the same figure a line above was worked out to, here (the
    "$44" of "$44 + $621 + $621 = $1,286" under the lines that leave $44 to pay)."""
    return _worked_out(amounts[k], amounts[:k][::-1], "a line above")


def _worked_out(target: Amount, others: Sequence[Amount], where: str) -> Finding | None:
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


#: A line's label: the words before its colon ("**Mastercard charge: $173**").
_LABEL = re.compile(r"^[\s*_#>-]*([^:\n]{2,80}?)[*_\s]*:")


def _same_label_above(
    amounts: list[Amount], k: int, sentences: Sequence[Sentence]
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
    parts: list[Amount] = []
    for line in lines_above(amounts, total)[-4 * MOST_LINES :]:
        label = _LABEL.match(sentences[line.sentence].text)
        if label is None or NAMES_TOTAL.search(label.group(1)):
            continue
        words = content_words(label.group(1))
        if words and words <= wanted:
            parts.append(line)
    if len(parts) < 2 or any(not p.backed for p in parts):
        return None
    if abs(sum(p.number for p in parts) - total.number) > TOLERANCE:
        return None
    terms = " + ".join(show_number(p.number) for p in parts)
    return derived(total, f"{terms} (the lines above labelled so)", parts[0].finding)
