"""Code a statement names that no receipt shows: "The failing tests were
`test_parse_header_empty_string` and `test_parse_header_folded_value`" after a run that
printed only the first, "`HeaderError` subclasses `KeyError`" after a read of a file
that says ``ValueError``.

A name in backticks that looks like code (an identifier, a dotted or ``::`` path, a
call) is looked up in every receipt's content and arguments, as written; a dotted name
is held when each of its parts is (``PVSystem.__init__`` after a read of the class).
What no receipt holds is unverified: the sentence is flagged, never blocked — an agent
may name a standard library's exception or a function it knows without a receipt for
it. Files have their own check (:mod:`files`); only coding sessions (receipts that
name a file) are read.
"""

from __future__ import annotations

import re

from receiptgate.checks.files import FILE_NAME, names_files
from receiptgate.checks.record_claim import RecordClaim, unsupported_claim
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence

#: A span in backticks.
_SPAN = re.compile(r"`([^`\n]{2,80})`")
#: Code in it: a name with an underscore, a capital after its first letter, a dot or
#: "::" inside, or a call ("parse_header()", "KeyError", "os.path.join", "Foo::bar").
_CODE = re.compile(r"[A-Za-z_][\w]*(?:(?:\.|::)[A-Za-z_]\w*)*(?:\(\))?")
_CODE_LIKE = re.compile(r"_|[a-z][A-Z]|^[A-Z]\w*[a-z]\w*[A-Z]|\.|::|\(\)$")
#: Words that name no code of the session: values and keywords of many languages.
_COMMON = frozenset(
    "None True False null true false nil undefined self this cls __init__ __main__ "
    "main master HEAD".split()
)
_PARTS = re.compile(r"[.:()]+")

#: The receipts' text as written, once per index size (``code_text`` in its cache).
_CACHE_KEY = "code_text"


def _receipts_text(index: ReceiptIndex) -> str:
    cached = index.cache.get(_CACHE_KEY)
    if isinstance(cached, tuple) and cached[0] == len(index.entries):
        return cached[1]  # type: ignore[no-any-return]
    parts: list[str] = []
    for e in index.entries:
        if e.receipt.kind == "reply":
            continue
        parts.append(e.receipt.content)
        if e.receipt.args:
            parts.append(repr(e.receipt.args))
    text = "\n".join(parts)
    index.cache[_CACHE_KEY] = (len(index.entries), text)
    return text


def unheld_code(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """The code names of a statement that no receipt holds, each an unsupported claim
    (flagged: see the module doc)."""
    if "`" not in s.text or not names_files(index):
        return []
    out: list[RecordClaim] = []
    text: str | None = None
    for m in _SPAN.finditer(s.text):
        name = m.group(1).strip()
        if (
            not _CODE.fullmatch(name)
            or not _CODE_LIKE.search(name)
            or name in _COMMON
            or FILE_NAME.fullmatch(name)
        ):
            continue
        text = _receipts_text(index) if text is None else text
        parts = [p for p in _PARTS.split(name) if p]
        if name in text or all(p in text for p in parts):
            continue
        a, b = s.start + m.start(1), s.start + m.end(1)
        out.append(unsupported_claim("code", a, b, name, f"no receipt shows {name}"))
    return out
