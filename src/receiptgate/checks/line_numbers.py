"""A line of a file a sentence points at: "Line 960 is the one we fixed", "the
`IndexError` came from `first = lines[0]` on line 24 of `parser.py`".

A line number is backed by an output that numbers its lines and shows that one (``grep
-n``, ``cat -n``, an editor's numbered view: "960:", "   24\t", "24 |") or by the text
of a file a call read, counted from its first line; when the sentence quotes code in
backticks, that line must hold it. A sentence that names a file is about a receipt that
names it (a call on ``parser.py`` or the file's own output), when one does.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import printed_texts
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: "line 24", "lines 105 and 119", "L42", "on line 24 of": the word right before the figure.
_LINE_BEFORE = re.compile(r"(?:\blines?|\bL)\s*(?:\d+\s*(?:,|and|&|-|–|to)\s*)*$", re.IGNORECASE)
#: "parser.py:24": a file and its line.
_FILE_LINE = re.compile(r"[\w/.-]+\.[A-Za-z]\w{0,4}:$")
#: A numbered line of an output: "960:", "   24\t", "24 |", "24│".
_NUMBERED = r"^\s*{n}(?:[:\t│|]|\s{{2,}}|\s+\S)"
#: Code quoted in the sentence.
_QUOTED = re.compile(r"`([^`\n]{3,120})`")
#: File names a sentence gives.
_FILE = re.compile(r"[\w/.-]*[A-Za-z_][\w.-]*\.[A-Za-z]\w{0,4}\b")
#: Arguments that hold a file's content or path.
_CONTENT_KEYS = ("content", "text", "file_text", "data")


def is_line_number(sentence: str, at: int) -> bool:
    """Whether the figure at offset ``at`` is a line of a file ("line 24", "app.py:24")."""
    before = sentence[max(0, at - 40) : at]
    return bool(_LINE_BEFORE.search(before) or _FILE_LINE.search(before))


def line_number(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """The output or file text that shows line ``h`` (see the module doc), or ``None``."""
    if h.number is None or not float(h.number).is_integer() or not is_line_number(sentence, at):
        return None
    n = int(h.number)
    quoted = [q.strip() for q in _QUOTED.findall(sentence) if not _FILE.fullmatch(q.strip())]
    files = {f.rsplit("/", 1)[-1].lower() for f in _FILE.findall(sentence)}
    numbered = re.compile(_NUMBERED.format(n=n), re.MULTILINE)
    entries = [e for e in index.entries if e.receipt.kind == "tool"]
    if files:
        named = [e for e in entries if any(f in e.text for f in files)]
        entries = named or entries
    span = _range_around(sentence, at, n)
    for e in reversed(entries):
        for line in _lines_at(e, n, numbered):
            # "(line 328-338), it recursively calls `to_json_dict`": the code is on one of
            # the lines of the range
            held = [line] if span is None else _range_lines(e, span)
            if not quoted or any(q in x for x in held for q in quoted):
                shown = " ".join(line.split())[:80]
                return Finding("supported", e.receipt.id, "tool", f"{e.receipt.id}: {shown!r}")
    names = {w.lower() for w in _CODE_NAME.findall(sentence)}
    for e in reversed(entries):
        # "tests/test_pagination.py:58: AssertionError", "legacy.py:12: DeprecationWarning":
        # a file and its line in a traceback or a warning, of a file the sentence names or
        # under the test or function it names (within the lines above it)
        lines = [x for text in printed_texts(e) for x in text.splitlines()]
        for i, line in enumerate(lines):
            for m in _AT_LINE.finditer(line):
                if int(m.group(2)) != n:
                    continue
                base = m.group(1).rsplit("/", 1)[-1].lower()
                above = "\n".join(lines[max(0, i - _ABOVE) : i + 1]).lower()
                if (files and base in files) or (not files and any(w in above for w in names)):
                    shown = " ".join(line.split())[:80]
                    return Finding("supported", e.receipt.id, "tool", f"{e.receipt.id}: {shown!r}")
    return None


#: A file and a line in an output: "tests/test_pagination.py:58:".
_AT_LINE = re.compile(r"([\w/.-]+\.[A-Za-z]\w{0,4}):(\d+)\b")
#: Names of code a sentence gives: "test_last_partial_page", "paginate_queryset".
_CODE_NAME = re.compile(r"\b[a-z]\w*_\w{3,}\b")
#: How many lines above a file's line a traceback names its test.
_ABOVE = 12


def _lines_at(e: ReceiptEntry, n: int, numbered: re.Pattern[str]) -> list[str]:
    """The lines of a call's output numbered ``n``, and line ``n`` of a file it read."""
    content = e.receipt.content
    out = []
    for m in numbered.finditer(content):
        end = content.find("\n", m.start())
        out.append(content[m.start() : end if end >= 0 else len(content)])
    text = _file_text(e)
    if text is not None:
        lines = text.splitlines()
        if 0 < n <= len(lines):
            out.append(lines[n - 1])
    return out


#: A range of lines: "328-338", "13 to 21".
_RANGE = re.compile(r"(\d+)\s*(?:-|–|to)\s*(\d+)")
#: Lines a range may span at most.
_LONGEST_RANGE = 200


def _range_around(sentence: str, at: int, n: int) -> tuple[int, int] | None:
    """The range of lines the figure at ``at`` opens or closes, if it is one."""
    for m in _RANGE.finditer(sentence, max(0, at - 12), at + 12):
        a, b = int(m.group(1)), int(m.group(2))
        if m.start() <= at < m.end() and n in (a, b) and 0 < b - a <= _LONGEST_RANGE:
            return a, b
    return None


def _range_lines(e: ReceiptEntry, span: tuple[int, int]) -> list[str]:
    """The lines of a range an output numbers or a file read shows."""
    out: list[str] = []
    for k in range(span[0], span[1] + 1):
        out.extend(_lines_at(e, k, re.compile(_NUMBERED.format(n=k), re.MULTILINE)))
    return out


def _file_text(e: ReceiptEntry) -> str | None:
    """The text of a file a read call returned: its content field, or the whole output
    of a read tool."""
    tool = (e.receipt.tool or "").lower()
    if "read" not in tool and "view" not in tool and "open" not in tool and "cat" not in tool:
        return None
    content = e.receipt.content
    for rec in e.records[:1]:
        for leaf in rec.leaves:
            if leaf.key.lower() in _CONTENT_KEYS and "\n" in leaf.value.shown:
                return leaf.value.shown
    return content if e.format == "text" else None
