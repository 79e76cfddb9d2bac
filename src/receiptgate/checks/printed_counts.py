"""A count a command printed with its unit: "1 file changed, 1 insertion(+), 1
deletion(-)" (``git diff --stat``), "Found 3 matches", "added 487 packages". A reply's
"3 insertions" is read against the figure printed beside that unit: the same number
backs it; where one output only prints the unit, another number there contradicts it.
Figures printed elsewhere (an exit code of 1, "Page(number=3)") back no such count.

A count of tests is also the sum of a test run's tally line ("2 failed, 12 passed" is
14 tests; with "3 skipped" after it, 216 or 219): :func:`tally_total`.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import failed, printed_texts
from receiptgate.checks.finding import Finding
from receiptgate.checks.words import content_words
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex

#: Units too common in outputs to pin one count: "1 of", "2 items" are read elsewhere.
_UNITS = re.compile(r"^[a-z]{4,14}$")
#: Test tallies, which the action ledger reads run by run.
_TALLY_UNITS = frozenset(
    "passed failed skipped errors error warnings warning xfailed xpassed deselected tests "
    "test".split()
)


def printed_count(index: ReceiptIndex, h: HardFact, sentence: str) -> Finding | None:
    """Support or contradiction of a count with a unit from the outputs that print that
    unit beside a number (see the module doc); ``None`` when no output prints it. A
    contradiction needs one output that prints the unit, once, on a line that shares a
    word with the sentence ("1 file changed" is no count of files a search found)."""
    if h.kind != "count" or h.number is None or not h.unit or "-" in h.text:
        return None  # ("15-inch": a size, no count)
    unit = h.unit.lower()
    if not _UNITS.match(unit) or unit in _TALLY_UNITS:
        return None
    pattern = re.compile(
        rf"{_TALLY_PLACE}(\d[\d,]*)\s+{re.escape(unit)}(?:e?s)?\b", re.IGNORECASE | re.MULTILINE
    )
    printing: list[tuple[str, list[int], list[str]]] = []
    for e in index.entries:
        if e.receipt.kind != "tool" or failed(e):
            continue
        memo = f"printed:{unit}"
        if memo not in e.memo:  # (a result is asked once per unit, however many figures)
            found = [(text, m) for text in printed_texts(e) for m in pattern.finditer(text)]
            lines = [_line_of(text, m.start()) for text, m in found]
            numbers = [int(m.group(1).replace(",", "")) for _, m in found]
            e.memo[memo] = (numbers, lines)
        numbers, lines = e.memo[memo]  # type: ignore[misc]
        if numbers:
            printing.append((e.receipt.id or "", numbers, lines))
    if not printing:
        return None
    for rid, numbers, _ in reversed(printing):
        if int(h.number) in numbers:
            detail = f"{rid} prints {int(h.number)} {unit}"
            return Finding("supported", rid, "tool", detail, value=h)
    if len(printing) == 1 and len(set(printing[0][1])) == 1:
        rid, numbers, lines = printing[0]
        said = content_words(sentence) - content_words(unit)
        if said & (content_words(lines[0]) - content_words(unit)):
            detail = f"contradicts {rid}: it prints {numbers[0]} {unit}, not {h.text}"
            return Finding("contradicted", rid, "tool", detail, value=h)
    return None


def _line_of(text: str, at: int) -> str:
    """The printed line around offset ``at``."""
    end = text.find("\n", at)
    return text[text.rfind("\n", 0, at) + 1 : end if end >= 0 else len(text)]


#: Where a printed count stands in a summary: at a line's start, after a comma or a
#: bracket, or after a verb of what a command did ("Found 3 matches", "added 487 packages").
_TALLY_PLACE = (
    r"(?:^\s*|[,(:;]\s*|\b(?:found|added|removed|changed|deleted|created|updated|installed|"
    r"scanned|audited|wrote|copied|moved|downloaded|uploaded)\s+)"
)


#: One outcome of a test run's tally line: "12 passed", "2 failed", "1 error".
_OUTCOME = re.compile(
    r"(\d+)\s+(passed|failed|errors?|skipped|ignored|xfailed|xpassed)\b", re.IGNORECASE
)
_RAN = frozenset({"passed", "failed", "error", "errors", "xfailed", "xpassed"})


def tally_total(index: ReceiptIndex, h: HardFact) -> Finding | None:
    """Support of "14 tests" by a tally line that adds up to it, with or without its
    skipped tests (see the module doc); ``None`` otherwise (it never contradicts: a run
    may have been of other tests)."""
    if h.kind != "count" or h.number is None or (h.unit or "").lower() not in ("test", "tests"):
        return None
    for e in reversed(index.entries):
        if e.receipt.kind != "tool":
            continue
        for text in printed_texts(e):
            lines = [line for line in text.splitlines() if len(_OUTCOME.findall(line)) >= 2]
            for line in lines:
                outcomes = _OUTCOME.findall(line)
                ran = sum(int(n) for n, what in outcomes if what.lower() in _RAN)
                skipped = sum(int(n) for n, what in outcomes if what.lower() == "skipped")
                if int(h.number) in (ran, ran + skipped) and ran:
                    rid = e.receipt.id or ""
                    detail = f"{rid} prints {line.strip()[:80]!r}: {int(h.number)} tests"
                    return Finding("supported", rid, "tool", detail, value=h)
            if len(lines) >= 2 and int(h.number) in _summed(lines):
                # cargo's "test result:" line per test binary: all of them together
                rid = e.receipt.id or ""
                detail = f"{rid}: {len(lines)} tally lines add up to {int(h.number)} tests"
                return Finding("supported", rid, "tool", detail, value=h)
    return None


def _summed(lines: list[str]) -> set[int]:
    """What several tally lines add up to: each outcome's sum, those that ran, and those
    with the skipped ("ignored") ones."""
    by: dict[str, int] = {}
    for line in lines:
        for n, what in _OUTCOME.findall(line):
            by[what.lower()] = by.get(what.lower(), 0) + int(n)
    ran = sum(n for what, n in by.items() if what in _RAN)
    return {*by.values(), ran, ran + by.get("skipped", 0) + by.get("ignored", 0)}
