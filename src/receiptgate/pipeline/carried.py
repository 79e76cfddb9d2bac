"""Figures the agent worked out in an earlier reply of the conversation, said again.

A conversation's agent restates what it computed turns before: "Flight cost: $871" in
the payment plan, three replies after "$364 + $248 + $259 = $871" under the flights it
found. No record holds $871 and this reply names none of the flights, so on its own the
figure is unsupported.

The agent's earlier replies come with the receipts (``reply`` receipts, from a
transcript's assistant messages) and are never evidence: what they say backs nothing.
What backs a figure here is the check of that earlier reply, run again against the
receipts that came before it: when the figure was worked out there from records (a
derivation, not a value one record holds, which this reply's own check would have
found), the same figure said now is backed by that, with the earlier reply's evidence
and formula. A figure the earlier reply got wrong stays unsupported; so does a figure
changed since, one no earlier reply states, and one read off another record.

A figure is carried where it is checked (``pipeline/check``), after every other way of
backing it failed, so a carried figure is an operand of the lines after it like any
figure the reply worked out ("Remaining: $871 - $500 = $371"). Only the latest few
replies that state the figure are checked, each once per validation (the rechecks share
what they found), at most four in all, each read down to the line that states the
figure last, and only for figures left unsupported, so a reply that needs none of this
costs nothing.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from receiptgate.checks.finding import Finding
from receiptgate.checks.operands import TOLERANCE, show_number
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.policy.decide import ClaimEval

#: How a carried figure's evidence starts: "said before (reply a3): derived: ...".
SAID_BEFORE = "said before"
#: Earlier replies that state a figure, checked at most (the latest ones).
_MOST_REPLIES = 3
#: Earlier replies checked again in one validation, at most (rechecks included).
_MOST_RECHECKS = 4
#: Kinds of figure an earlier reply can have worked out.
_CARRIED_KINDS = frozenset({"money", "number", "percent", "count"})

#: Checks one earlier reply against the receipts before it: its claims' findings.
Recheck = Callable[[str, ReceiptIndex], list[ClaimEval]]


def said_before(
    ledger: ReceiptIndex,
    h: HardFact,
    itself: str,
    recheck: Recheck,
    checked: dict[tuple[int, int], list[Finding]],
) -> Finding | None:
    """``h`` as a figure an earlier reply of the agent worked out (see the module doc),
    or ``None``. ``itself``: the reply under check (a transcript that ends with it holds
    it too); ``checked``: the worked-out figures of the replies checked again so far, by
    their place among the replies (the same in the rechecks, whose replies come first)
    and how much of the reply was read."""
    number = h.number
    if not ledger.replies or h.kind not in _CARRIED_KINDS or number is None or number <= 0:
        return None
    itself = itself.strip()
    shown = _written(number)
    looked = 0
    for k in range(len(ledger.replies) - 1, -1, -1):
        said = ledger.replies[k][1]
        content = said.content
        last = max(shown.finditer(content), key=lambda m: m.start(), default=None)
        if last is None or content.strip() == itself:
            continue  # (a transcript that ends with the reply under check holds it too)
        looked += 1
        if looked > _MOST_REPLIES:
            return None
        # the reply down to the line that states the figure last: what works it out is
        # there or above it, and the rest costs a recheck for nothing
        cut = content.find("\n", last.end())
        cut = len(content) if cut < 0 else cut
        findings = checked.get((k, cut))
        if findings is None:
            if len(checked) >= _MOST_RECHECKS:
                return None
            earlier = ReceiptIndex(ledger.given(before_reply=k), now=ledger.now)
            evals = recheck(content[:cut], earlier) if len(earlier) else []
            # only what it worked out: a value a record holds the records are read for
            # here too, for the record this sentence is about
            findings = checked[(k, cut)] = [
                m
                for ev in evals
                for m in ev.hard
                if m.status == "supported" and m.value and _WORKED_OUT.match(m.detail)
            ]
        for m in findings:
            value = m.value
            assert value is not None
            if value.kind == h.kind and abs((value.number or 0.0) - number) <= TOLERANCE:
                # the reply that said it last, and how the first one backed it
                how = _SAID_BEFORE.sub("", m.detail)
                detail = f"{SAID_BEFORE} (reply {said.id}): {how}"
                if m.receipt_id is None:
                    # "3 passengers × $871 = 2,613" where that reply's $871 was itself
                    # carried from the reply before: the receipt behind its terms
                    behind = _terms_backed(ledger, h, how, itself, recheck, checked)
                    if behind is None:
                        continue
                    m = dataclasses.replace(
                        m, receipt_id=behind.receipt_id, receipt_kind=behind.receipt_kind
                    )
                return dataclasses.replace(m, detail=detail, value=h)
    return None


#: The amounts of a formula ("3 passengers × $871 = 2,613": 3 and 871 before "=").
_TERM = re.compile(r"\$?(\d[\d,]*(?:\.\d+)?)")


def _terms_backed(
    ledger: ReceiptIndex,
    h: HardFact,
    formula: str,
    itself: str,
    recheck: Recheck,
    checked: dict[tuple[int, int], list[Finding]],
) -> Finding | None:
    """The finding with a receipt behind the first amount of a formula whose every
    amount (but counts of 2 to 12) an earlier reply worked out from receipts."""
    left = formula.split("=", 1)[0].removeprefix("derived:")
    terms = [float(t.replace(",", "")) for t in _TERM.findall(left)]
    terms = [t for t in terms if not (t.is_integer() and 2 <= t <= 12)]
    first: Finding | None = None
    for t in terms:
        if abs(t - (h.number or 0.0)) <= TOLERANCE:
            return None  # no figure backs itself
        term = dataclasses.replace(h, number=t, text=show_number(t))
        found = said_before(ledger, term, itself, recheck, checked)
        if found is None or found.receipt_id is None:
            return None
        first = first or found
    return first


_SAID_BEFORE = re.compile(rf"^{SAID_BEFORE} \(reply [^)]*\): ")
_WORKED_OUT = re.compile(rf"^(?:{SAID_BEFORE} \(reply [^)]*\): )?derived: ")


def _written(number: float) -> re.Pattern[str]:
    """The figure as a reply may write it: "871", "1,286", "1286", "12.50"."""
    plain = show_number(number)
    forms = {plain, plain.replace(",", "")}
    if "." not in plain:
        forms.add(f"{plain}.00")
    alts = "|".join(re.escape(f) for f in sorted(forms, key=len, reverse=True))
    return re.compile(rf"(?<![\d.,])(?:{alts})(?![\d]|[.,]\d)")
