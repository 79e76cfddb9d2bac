"""Places in source files a statement gives as ``file:line`` or ``file:line:col``: "The
borrow error is at crates/tidepool-core/src/ring.rs:142:27", "panicked at ring.rs:381:9".

Compilers, linters, test runners and ``grep -n`` print such places; a reply restates
them. A place is backed by an output that prints the file (by its base name) at that
line (and column, when the sentence gives one). It is contradicted when outputs print
the file at other lines only and none shows that line of it (a numbered listing of the
file, "381:" or "381 |" at a line's start); a file no output prints with a line decides
nothing here.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding, FindingStatus
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence

#: "ring.rs:142:27", "src/app.py:88": a file with an extension, a line and a column.
_PLACE = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]*[A-Za-z_][\w.-]*\.[A-Za-z]{1,5}):(\d{1,6})(?::(\d{1,4}))?\b"
)


def line_refs(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """The places of a statement, each backed or contradicted (see the module doc)."""
    out: list[RecordClaim] = []
    for m in _PLACE.finditer(s.text):
        base = m.group(1).rsplit("/", 1)[-1]
        line, col = m.group(2), m.group(3)
        found = _place(index, base, line, col)
        if found is None:
            continue
        status, rid, detail = found
        a, b = s.start + m.start(), s.start + m.end()
        fact = record_fact("place", a, b, m.group())
        finding = Finding(status, rid, "tool", detail, value=fact)
        out.append(RecordClaim("value", a, b, m.group(), finding))
    return out


def _place(
    index: ReceiptIndex, base: str, line: str, col: str | None
) -> tuple[FindingStatus, str, str] | None:
    printed = re.compile(
        rf"(?<![\w.-]){re.escape(base)}(?:\"?,\s+line\s+|:)(\d{{1,6}})(?::(\d{{1,4}}))?"
    )
    seen: list[tuple[str, str, str | None]] = []
    for e in reversed(index.entries):
        if e.receipt.kind != "tool":
            continue
        text = e.receipt.content.replace("\\n", "\n")
        for p in printed.finditer(text):
            rid = e.receipt.id or ""
            if p.group(1) == line and (col is None or p.group(2) in (None, col)):
                where = f"{base}:{line}" + (f":{col}" if col else "")
                return "supported", rid, f"{rid} prints {where}"
            seen.append((rid, p.group(1), p.group(2)))
    if not seen or _listed(index, base, line):
        return None
    rid = seen[0][0]
    places = ", ".join(sorted({f"{base}:{n}" + (f":{c}" if c else "") for _, n, c in seen}))
    said = f"{base}:{line}" + (f":{col}" if col else "")
    return "contradicted", rid, f"contradicts {rid}: it prints {places}, not {said}"


def _listed(index: ReceiptIndex, base: str, line: str) -> bool:
    """Whether a call showed that line of the file in a numbered listing (an editor's
    ``open``, ``cat -n``, a snippet "381 |"): the sentence may read it there."""
    numbered = re.compile(rf"(?m)^\s*{line}(?:[:|]|\s)")
    return any(
        e.receipt.kind == "tool"
        and base.lower() in e.text
        and numbered.search(e.receipt.content.replace("\\n", "\n")) is not None
        for e in index.entries
    )
