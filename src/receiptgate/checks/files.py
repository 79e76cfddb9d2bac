"""File names a coding agent's statement gives ("In `jsonrep.py`, the handler is not
passed"): a name no receipt holds — no call read, wrote or listed it, no message named it —
in a session whose calls name files is not backed. Names that receipts hold add nothing
here: the sentence's other claims decide.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence

#: A file name with an extension of code, text or configuration.
FILE_NAME = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]*[A-Za-z_][\w.-]*\.(?:py|sh|txt|csv|json|md|js|jsx|ts|"
    r"tsx|yaml|yml|toml|cfg|ini|rs|go|java|rb|php|c|h|cpp|hpp|html|css|sql|xml|lock))\b"
)


#: Products named like files: "Vue.js", "Node.js", "Next.js".
PRODUCT = re.compile(
    r"(?:Vue|Node|React|Next|Nuxt|Express|Three|D3|Chart|Ember|Backbone|Angular)\.js",
    re.IGNORECASE,
)


def unknown_files(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """The file names of a statement that no receipt holds, each as an unsupported claim;
    none when the session's receipts name no file at all (not a coding session)."""
    found = list(FILE_NAME.finditer(s.text))
    if not found or not _names_files(index):
        return []
    out: list[RecordClaim] = []
    for m in found:
        name = m.group(1)
        if PRODUCT.fullmatch(name):
            continue  # "Vue.js", "Node.js": a product's name, no file
        base = name.rsplit("/", 1)[-1].lower()
        if any(base in e.text for e in index.entries):
            continue
        a, b = s.start + m.start(1), s.start + m.end(1)
        detail = f"no receipt names the file {name}"
        fact = record_fact("file", a, b, name)
        out.append(
            RecordClaim("file", a, b, name, Finding("unsupported", None, None, detail, value=fact))
        )
    return out


def _names_files(index: ReceiptIndex) -> bool:
    """Whether any tool call of the session names a file (computed once per index)."""
    cached = index.cache.get("names_files")
    if isinstance(cached, bool):
        return cached
    named = any(
        e.receipt.kind == "tool" and FILE_NAME.search(e.text) is not None for e in index.entries
    )
    index.cache["names_files"] = named
    return named
