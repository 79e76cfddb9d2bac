"""File names a coding agent's statement gives ("In `jsonrep.py`, the handler is not
passed"): a name no receipt holds — no call read, wrote or listed it, no message named it —
in a session whose calls name files is not backed. Names that receipts hold add nothing
here: the sentence's other claims decide.
"""

from __future__ import annotations

import re

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, unsupported_claim
from receiptgate.checks.words import content_words
from receiptgate.claims.detectors.phrases import PRODUCT
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence

#: A file name with an extension of code, text or configuration.
FILE_NAME = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]*[A-Za-z_][\w.-]*\.(?:py|sh|txt|csv|json|md|js|jsx|ts|"
    r"tsx|yaml|yml|toml|cfg|ini|rs|go|java|rb|php|c|h|cpp|hpp|html|css|sql|xml|lock))\b"
)


def unknown_files(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """The file names of a statement that no receipt holds, each as an unsupported claim;
    none when the session's receipts name no file at all (not a coding session)."""
    found = list(FILE_NAME.finditer(s.text))
    if not found or not names_files(index):
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
        out.append(unsupported_claim("file", a, b, name, f"no receipt names the file {name}"))
    return out


#: A sentence that says a file is there: "There's already a hello.py file in the current
#: directory", "config.yaml exists", "README.md is present in the repo".
_THERE = re.compile(
    r"\bthere(?:['’]s|\s+is|\s+are)\s+(?:already\s+)?(?:an?\s+|the\s+)?`?(?P<a>[\w./-]+)`?"
    r"\s+file\b|(?P<b>[\w./-]+\.\w+)`?\s+(?:file\s+)?(?:already\s+)?(?:exists|is\s+present)\b",
    re.IGNORECASE,
)


def existing_file(index: ReceiptIndex, sentence: str) -> Finding | None:
    """A file said to be there, backed by the newest call whose output lists or shows it by
    name (``ls``, a read of it); a listing of its folder without it does not decide."""
    m = _THERE.search(sentence)
    name = (m.group("a") or m.group("b")) if m is not None else None
    if name is None or FILE_NAME.fullmatch(name) is None:
        return None
    base = name.rsplit("/", 1)[-1]
    shown = re.compile(rf"(?<![\w.-]){re.escape(base)}(?![\w-])")
    for e in reversed(index.entries):
        content = e.receipt.content
        if (
            e.receipt.kind == "tool"
            and e.receipt.ok is not False
            and shown.search(content)
            and "no such file" not in content.lower()
        ):
            rid = e.receipt.id
            return Finding("supported", rid, "tool", f"{rid} shows {base}")
    return None


#: Where a statement puts a thing: "lives in", "is in", "can be found at", "an example
#: script at".
_LOCATED = re.compile(
    r"\b(?:lives?|lies|sits?|is|are|was|were|located|found|defined|kept|stored)\s+(?:in|at|under)\b"
    r"|\b(?:in|at|under)\s+`?(?:[\w.-]+/)+",
    re.IGNORECASE,
)
#: What a statement of where things are places: parts of a code base ...
_CODE_THINGS = content_words(
    "implementation code tests test script scripts example examples module modules class "
    "function functions config configuration helper helpers docs documentation source "
    "fixture fixtures entry handler definition logic package"
)
#: ... not events, whose place is a claim of its own.
_EVENTS = content_words(
    "error errors warning warnings failure failures fail fails failing assertion bug bugs "
    "exception crash problem issue issues change changes diff"
)
_NOT = re.compile(
    r"\b(?:not|no|never|neither|nor|none|isn['’]t|aren['’]t|wasn['’]t|doesn['’]t)\b", re.IGNORECASE
)


def located_files(index: ReceiptIndex, sentence: str) -> Finding | None:
    """Where things are: "The implementation lives in src/pagekit/pagination.py and its
    tests in tests/test_pagination.py", "There's also an example script at
    docs/examples/pagination_demo.py". Backed when every path it gives (with a folder)
    is one a call's output printed, the newest first; ``None`` for a sentence that
    denies, or gives a name no output printed."""
    if not _LOCATED.search(sentence) or _NOT.search(sentence):
        return None
    said = content_words(FILE_NAME.sub(" ", sentence))
    if not said & _CODE_THINGS or said & _EVENTS:
        return None  # "Two of the three lint warnings are in csv.ts": where events are
    paths = [m.group(1) for m in FILE_NAME.finditer(sentence)]
    if not paths or any("/" not in p for p in paths):
        return None
    found: list[str] = []
    for path in paths:
        shown = re.compile(rf"(?<![\w.-]){re.escape(path.lstrip('./'))}(?![\w-])")
        held = next(
            (
                e.receipt.id
                for e in reversed(index.entries)
                if e.receipt.kind == "tool"
                and e.receipt.ok is not False
                and shown.search(e.receipt.content)
            ),
            None,
        )
        if held is None:
            return None
        found.append(f"{held} shows {path}")
    first = found[0].split(" ", 1)[0]
    return Finding("supported", first, "tool", "; ".join(found))


def names_files(index: ReceiptIndex) -> bool:
    """Whether any tool call of the session names a file (computed once per index)."""
    cached = index.cache.get("names_files")
    if isinstance(cached, bool):
        return cached
    named = any(
        e.receipt.kind == "tool" and FILE_NAME.search(e.text) is not None for e in index.entries
    )
    index.cache["names_files"] = named
    return named
