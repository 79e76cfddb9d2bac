"""What a coding agent says of its latest run or edit: "The fix works.", "That works (no
errors).", "The patch looks good."

Such a sentence names no command and no file, so no action claim is detected in it; it
reports the result of the agent's newest call of that kind. "Works" is said of the newest
call that executed code (a script, a test file, an interpreter): it backs the sentence
when it exited cleanly and contradicts it when it failed. "Looks good" is said of the
newest edit or diff: backed when it went through and printed the lines to look at,
contradicted when it failed.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import ERRORISH, exit_status, failed, ledger_view
from receiptgate.checks.finding import Finding
from receiptgate.checks.ledger import snippet
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: What an agent calls its own work: "the fix", "this approach", "our implementation", "it".
_WORK = (
    r"(?:(?:the|this|that|our|my|your|the\s+new)\s+)?(?:fix|patch|change|changes|approach|"
    r"solution|implementation|code|script|workaround|edit|edits|update)|it|this|that|everything"
)

#: "The fix works", "That works (no errors)", "This approach works correctly", "the fix is
#: working as expected", "The test shows our fix works".
_WORKS = re.compile(
    rf"^(?:(?:great|perfect|excellent|good|nice|now|ok|okay|so|and|yes)[,!.]?\s+)*"
    rf"(?:the\s+(?:test|output|run|result)\s+shows?\s+(?:that\s+)?)?"
    rf"(?P<work>{_WORK})(?:\s+(?:now|still|also|indeed|actually))?\s+"
    rf"(?:works|worked|is\s+working|is\s+now\s+working)\b",
    re.IGNORECASE,
)

#: "The patch looks good", "The changes look correct".
_LOOKS = re.compile(
    rf"^(?:(?:great|perfect|excellent|good|nice|now|ok|okay|so)[,!.]?\s+)*"
    rf"(?P<work>{_WORK})\s+(?:now\s+)?looks?\s+(?:good|correct|right|fine|clean)\b",
    re.IGNORECASE,
)

#: A command that executes code: an interpreter, a test runner, a script.
_EXECUTES = re.compile(
    r"\b(?:python[\d.]*|pytest|node|ruby|perl|php|java|go\s+(?:run|test)|cargo\s+(?:run|test)|"
    r"npm\s+(?:run|test|start)|yarn\s+(?:run|test)|make|bash\s+\S+\.sh|sh\s+\S+\.sh|"
    r"execute_ipython|ipython)\b|(?:^|[\s;&|\"'])\./[\w.-]+"
)

#: A command or tool that changes or shows a change to files.
_EDITS = re.compile(
    r"\b(?:str_replace|edit|write|create|patch|apply|sed\s+-i|git\s+diff|git\s+apply|"
    r"diff)\b|\bcat\s*>|>\s*\S+\.\w+"
)

_MARKUP = re.compile(r"[*_`]+")


def run_result(index: ReceiptIndex, text: str) -> Finding | None:
    """The newest run or edit that a "works" or "looks good" sentence reports, as its
    finding; ``None`` for another sentence, or when no such call was made."""
    plain = _MARKUP.sub("", text).strip()
    if "work" in plain.lower() and _WORKS.match(plain):
        return _outcome(_newest(index, _EXECUTES), "run")
    if "look" in plain.lower() and _LOOKS.match(plain):
        found = _outcome(_newest(index, _EDITS), "edit")
        if found is not None and found.status == "supported" and not _shows_code(index, found):
            return None  # "No file open." is no listing the change could look good in
        return found
    return None


def _shows_code(index: ReceiptIndex, found: Finding) -> bool:
    """Whether the call behind a finding printed lines to look at (a diff, a listing)."""
    e = next((x for x in ledger_view(index).tools if x.receipt.id == found.receipt_id), None)
    return e is not None and e.receipt.content.count("\n") >= 2


def _newest(index: ReceiptIndex, kind: re.Pattern[str]) -> ReceiptEntry | None:
    view = ledger_view(index)
    for e in reversed(view.tools):
        if kind.search(view.heads[id(e)]):
            return e
    return None


def _outcome(e: ReceiptEntry | None, what: str) -> Finding | None:
    if e is None:
        return None
    rid = e.receipt.id
    status = exit_status(e.receipt.content)
    if (status is not None and status != 0) or (status is None and _broke(e)):
        why = f"exit status {status}" if status else snippet(e.receipt.content, ERRORISH)
        return Finding("contradicted", rid, "tool", f"contradicts {rid}: the {what} failed ({why})")
    shown = f"exit status {status}" if status is not None else "no error"
    return Finding("supported", rid, "tool", f"{rid}: the newest {what} ended cleanly ({shown})")


_TRACEBACK = re.compile(r"\bTraceback \(most recent call last\)|^\w*Error:", re.MULTILINE)


def _broke(e: ReceiptEntry) -> bool:
    return failed(e) or _TRACEBACK.search(e.receipt.content[-2000:]) is not None
