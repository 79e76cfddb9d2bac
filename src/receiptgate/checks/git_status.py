"""What ``git status`` printed, and a report of it: "client.ts is modified and retry.ts is
a new untracked file", "the working tree is clean", "there are uncommitted changes".

The newest call whose command runs ``git status`` is read, in its short form (``git
status --short`` / ``--porcelain``: `` M src/a.ts``, ``?? b.ts``, ``A  c.py``) or its long
one ("Changes to be committed:", "Changes not staged for commit:", "Untracked files:",
"nothing to commit, working tree clean"), as each file's states: modified, staged,
untracked, deleted. A sentence that gives a file one of those states, or says the tree
is clean or has uncommitted changes, is checked against them; a file the status does not
list is neither modified nor untracked. No git status call: no claim.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import ledger_view, output_of
from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.text.segment import Sentence

_GIT_STATUS = re.compile(r"\bgit\s+(?:-C\s+\S+\s+)?status\b")

#: A short-format line: two status letters and a path ("?? src/retry.ts", " M a.py").
_SHORT = re.compile(r"^([ MADRCU?!])([ MADRCU?!]) (?:.+ -> )?(\S.*?)\s*$", re.MULTILINE)
#: A long-format entry: "\tmodified:   src/a.py", "\tnew file:   b.py".
_LONG = re.compile(
    r"^\s+(modified|new file|deleted|renamed|typechange):\s+(?:.+ -> )?(\S.*?)\s*$", re.MULTILINE
)
_SECTION = re.compile(
    r"^(Changes to be committed|Changes not staged for commit|Untracked files):", re.MULTILINE
)
_CLEAN_OUTPUT = re.compile(r"nothing to commit, working (?:tree|directory) clean")

#: A state a sentence gives a file: "client.ts is modified", "retry.ts is a new untracked
#: file", "b.py has been staged".
_FILE_STATE = re.compile(
    r"`?(?P<file>[\w./-]+\.[A-Za-z]\w{0,5})`?\s+(?:is|was|are|has\s+been|have\s+been)\s+"
    r"(?:now\s+|still\s+|currently\s+)?(?:an?\s+|a\s+new\s+)?"
    r"(?P<state>modified|changed|staged|unstaged|untracked|deleted|new)\b"
)
#: The tree as a whole: "the working tree is clean", "nothing to commit".
_TREE_CLEAN = re.compile(
    r"\b(?:working\s+(?:tree|directory|copy)|repo(?:sitory)?|workspace)\s+is\s+(?:now\s+)?"
    r"clean\b|\bnothing\s+to\s+commit\b|\bno\s+(?:uncommitted|unstaged|pending)\s+changes\b",
    re.IGNORECASE,
)
_TREE_DIRTY = re.compile(
    r"(?<!\bno\s)\b(?:uncommitted|unstaged)\s+changes\b|\b(?:working\s+(?:tree|directory)|"
    r"repo(?:sitory)?)\s+is\s+(?:still\s+)?dirty\b",
    re.IGNORECASE,
)

#: The statuses a claimed state word allows.
_ALLOWS = {
    "modified": {"modified", "staged"},
    "changed": {"modified", "staged", "deleted", "untracked"},
    "staged": {"staged"},
    "unstaged": {"modified"},
    "untracked": {"untracked"},
    "new": {"untracked", "added"},
    "deleted": {"deleted"},
}


def _status_call(index: ReceiptIndex) -> ReceiptEntry | None:
    for e in reversed(ledger_view(index).tools):
        if _GIT_STATUS.search(e.text.split("\n", 1)[0]):
            return e
    return None


def file_states(text: str) -> dict[str, set[str]]:
    """Each path a status output lists, with its states."""
    states: dict[str, set[str]] = {}
    for m in _SHORT.finditer(text):
        x, y, path = m.groups()
        found = states.setdefault(path, set())
        if x == "?" and y == "?":
            found.add("untracked")
            continue
        if x in "MADRC" and x != " ":
            found.add("staged")
            if x == "A":
                found.add("added")
        if "D" in (x, y):
            found.add("deleted")
        if y == "M" or x == "M":
            found.add("modified")
    sections = [(m.start(), m.group(1)) for m in _SECTION.finditer(text)]
    for m in _LONG.finditer(text):
        kind, path = m.groups()
        section = next((name for at, name in reversed(sections) if at < m.start()), "")
        found = states.setdefault(path, set())
        if section.startswith("Changes to be committed"):
            found.add("staged")
            if kind == "new file":
                found.add("added")
        if kind in ("modified", "typechange", "renamed"):
            found.add("modified")
        elif kind == "deleted":
            found.add("deleted")
    if sections and sections[-1][1] == "Untracked files":
        tail = text[_SECTION.search(text, sections[-1][0]).end() :]  # type: ignore[union-attr]
        for line in tail.splitlines():
            path = line.strip()
            if path and not path.startswith("(") and line[:1] in ("\t", " "):
                states.setdefault(path, set()).add("untracked")
    return states


def _held(states: dict[str, set[str]], name: str) -> set[str] | None:
    """The states of the path a sentence names (its whole path or its last parts)."""
    name = name.strip("`").lower()
    for path, found in states.items():
        low = path.lower()
        if low == name or low.endswith("/" + name):
            return found
    return None


def git_claims(s: Sentence, index: ReceiptIndex) -> list[RecordClaim]:
    """The file states and the tree's state a statement gives, against the newest ``git
    status`` (see the module doc)."""
    calls = len(ledger_view(index).tools)
    cached = index.cache.get("git_status")
    if isinstance(cached, tuple) and cached[0] == calls:
        call = cached[1]  # (a streaming index grows: the count of calls says when)
    else:
        call = _status_call(index)
        index.cache["git_status"] = (calls, call)
    if not isinstance(call, ReceiptEntry):
        return []
    text = output_of(call).text
    states = file_states(text)
    rid = call.receipt.id
    out: list[RecordClaim] = []
    for m in _FILE_STATE.finditer(s.text):
        word = m.group("state").lower()
        held = _held(states, m.group("file"))
        a, b = s.start + m.start(), s.start + m.end()
        fact = record_fact("state", a, b, m.group())
        if held is not None and held & _ALLOWS[word]:
            line = f"{rid}: git status lists {m.group('file')} as {', '.join(sorted(held))}"
            finding = Finding("supported", rid, "tool", line, value=fact)
        elif held is not None:
            line = f"contradicts {rid}: git status lists {m.group('file')} as " + ", ".join(
                sorted(held)
            )
            finding = Finding("contradicted", rid, "tool", line, value=fact)
        else:
            line = f"contradicts {rid}: git status does not list {m.group('file')}"
            finding = Finding("contradicted", rid, "tool", line, value=fact)
        out.append(RecordClaim("state", a, b, m.group(), finding))
    clean = bool(_CLEAN_OUTPUT.search(text)) or not states
    for pattern, says_clean in ((_TREE_CLEAN, True), (_TREE_DIRTY, False)):
        for m in pattern.finditer(s.text):
            a, b = s.start + m.start(), s.start + m.end()
            fact = record_fact("state", a, b, m.group())
            shown = "no changes" if clean else f"{len(states)} changed path(s)"
            if says_clean == clean:
                line = f"{rid}: git status shows {shown}"
                finding = Finding("supported", rid, "tool", line, value=fact)
            else:
                line = f"contradicts {rid}: git status shows {shown}"
                finding = Finding("contradicted", rid, "tool", line, value=fact)
            out.append(RecordClaim("state", a, b, m.group(), finding))
    return out
