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

from receiptgate.checks.calls import (
    ERRORISH,
    failed,
    is_test_run,
    ledger_view,
    output_of,
    reads_only,
)
from receiptgate.checks.finding import Finding
from receiptgate.checks.ledger import snippet
from receiptgate.claims.sentence_type import AGENT_MARKER
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: What an agent calls its own work: "the fix", "this approach", "our implementation", "it".
_WORK = (
    r"(?:(?:the|this|that|our|my|your|the\s+new)\s+)?"
    r"(?:(?:reproduction|repro|reproducer|test|verification|new|updated)\s+)?(?:fix|patch|change|"
    r"changes|approach|solution|implementation|code|script|workaround|edit|edits|update)|it|this|"
    r"that|everything"
)

#: "The fix works", "That works (no errors)", "This approach works correctly", "the fix is
#: working as expected", "The test shows our fix works".
_WORKS = re.compile(
    rf"^(?:(?:great|perfect|excellent|good|nice|now|ok|okay|so|and|yes)[,!.]?\s+)*"
    rf"(?:the\s+(?:test|output|run|result)\s+shows?\s+(?:that\s+)?)?"
    rf"(?P<work>{_WORK})(?:\s+(?:now|still|also|indeed|actually))?\s+"
    rf"(?:works|worked|is\s+working|is\s+now\s+working|passe[sd]|succeed(?:s|ed)|"
    rf"r(?:u|a)n[s]?\s+(?:successfully|cleanly|without\s+errors?))(?!\s+(?:these|the|all|\d))\b",
    re.IGNORECASE,
)

#: "The patch looks good", "The changes look correct".
_LOOKS = re.compile(
    rf"^(?:(?:great|perfect|excellent|good|nice|now|ok|okay|so)[,!.]?\s+)*"
    rf"(?P<work>{_WORK})\s+(?:now\s+)?looks?\s+(?:good|correct|right|fine|clean)\b",
    re.IGNORECASE,
)

#: "The patch shows my changes to fix the issue", "It shows the changes I made": what a
#: diff (or an edit's output) shows, backed as "looks good" is.
_SHOWS = re.compile(
    rf"^(?:(?:great|perfect|excellent|good|nice|now|ok|okay|so)[,!.]?\s+)*"
    rf"(?:(?P<work>{_WORK}|diff|git\s+diff|output)|it|this)\s+(?:now\s+|clearly\s+)?shows?\s+"
    r"(?:all\s+)?(?:my|the|our)\s+(?:key\s+)?(?:changes|edits|modifications|fix|fixes)\b",
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
    r"\b(?:str[_ ]replace|edit|editor|write|create|patch|apply|sed\s+-i|git\s+diff|git\s+apply|"
    r"diff)\b|\bcat\s*>|>\s*\S+\.\w+"
)

_MARKUP = re.compile(r"[*_`]+")


def run_result(index: ReceiptIndex, text: str) -> Finding | None:
    """The newest run or edit that a "works" or "looks good" sentence reports, as its
    finding; ``None`` for another sentence, or when no such call was made."""
    plain = AGENT_MARKER.sub("", _MARKUP.sub("", text)).strip()
    if _WORKS.match(plain):
        return _outcome(_newest(index, _EXECUTES), "run")
    if ("look" in plain.lower() and _LOOKS.match(plain)) or (
        "show" in plain.lower() and _SHOWS.match(plain)
    ):
        # the changes made: the newest edit that went through (a later edit that failed
        # changed nothing to look at), else the newest
        edit = _newest(index, _EDITS, changes=True, worked=True)
        found = _outcome(edit or _newest(index, _EDITS, changes=True), "edit")
        if found is not None and found.status == "supported" and not _shows_code(index, found):
            return None  # "No file open." is no listing the change could look good in
        return found
    return None


#: What only a run shows of changed code: that it behaves ("correctly", "as expected",
#: "This ensures ..."), or that the issue or the task is done. ("The method now handles
#: Mul objects" says what the change is: checks/edits.)
_BEHAVES = re.compile(
    r"\b(?:correctly|properly|appropriately|as\s+(?:expected|intended)|ensur(?:e|es|ed|ing))\b"
    r"|\b(?:issue|bug|problem|error|task)\s+(?:has\s+been|have\s+been|is|was)\s+(?:now\s+)?"
    r"(?:properly\s+|successfully\s+|fully\s+)?(?:fixed|resolved|addressed|solved|complete|"
    r"completed|done)\b"
    # "I have reproduced it and verified the fix"
    r"|\bverif(?:y|ied|ying)\s+(?:the|my|our|this)\s+(?:fix|change|changes|patch|solution)\b",
    re.IGNORECASE,
)


#: What says a sentence is not about what the change made the code do: code that
#: "already" behaves, a step still to take ("it's important to re-run ... to ensure").
_NOT_THE_CHANGE = re.compile(
    r"\b(?:already|important\s+to|need\s+to|needs\s+to|should|let\s+me|let['’]s|will|"
    r"going\s+to|before\s+submitting)\b",
    re.IGNORECASE,
)


def result_unrun(index: ReceiptIndex, text: str) -> Finding | None:
    """A sentence that says changed code behaves ("The method has been updated to
    correctly create an identity matrix", "The task is now complete") against the runs
    after the newest edit of a file: backed by the newest of them that ended cleanly,
    unsupported when it failed or when no code ran after the edit (a claim of passing tests
    is what a failed test run contradicts: checks/ledger).
    ``None`` for another sentence, or in a session that edited no file."""
    if _BEHAVES.search(text) is None or _NOT_THE_CHANGE.search(text):
        return None
    view = ledger_view(index)
    last = None
    for i, e in enumerate(view.tools):
        if _edits_code(e):
            last = i
    if last is None:
        return None
    edit = view.tools[last]
    runs = [e for e in view.tools[last + 1 :] if _EXECUTES.search(_lines(view.heads[id(e)]))]
    if not runs and (_EXECUTES.search(_command(edit)) or is_test_run(edit)):
        runs = [edit]  # "cat > t.py ... && python t.py", an edit whose output runs the tests
    if not runs:
        rid = edit.receipt.id
        return Finding("unsupported", None, None, f"no code ran after the last edit ({rid})")
    found = _outcome(runs[-1], "run")
    if found is not None and found.status == "contradicted":
        # a run that failed does not show the change behaves, but need not disprove it (an
        # experiment, a reproduction test written to fail and show a traceback): unshown
        rid = runs[-1].receipt.id
        return Finding("unsupported", rid, "tool", f"the newest run after the edit ({rid}) failed")
    return found


#: A file of code (a run shows what it does), not of text or data.
_CODE = (
    r"[\w./-]*[\w-]\.(?:py|js|jsx|ts|tsx|mjs|rb|go|rs|java|kt|scala|swift|c|h|cc|cpp|hpp|cs|php|"
    r"sh|vue)\b"
)
_CODE_FILE = re.compile(_CODE)
#: A command that writes a file of code: "cat > fix.py", "tee -a app.js", "sed -i ... x.py".
_WRITES_CODE = re.compile(
    rf"(?:>>?|\btee\s+(?:-a\s+)?)\s*['\"]?{_CODE}|\bsed\s+(?:-\w+\s+)*-i\b[^\n|;&]*?{_CODE}"
)
#: Tools that edit by name: str_replace_editor, EditCode, edit_file, write_file.
_EDIT_TOOL = re.compile(r"edit|write|replace|create|insert|patch", re.IGNORECASE)


def _edits_code(e: ReceiptEntry) -> bool:
    """Whether a call that went through changed a file of code: an editing tool, or a
    command that writes one ("sed -i", "cat > x.py"); "cat patch.txt" and "git diff" only
    show changes."""
    if failed(e) or not _CODE_FILE.search(e.text):
        return False
    args = e.receipt.args or {}
    if args.get("command") in ("view", "undo_edit"):
        return False
    # the call's own line as written ("sed -i": the head reads dashes as spaces)
    line = _lines(e.text.split("\n", 1)[0])
    return bool(_EDIT_TOOL.search(e.receipt.tool or "")) or bool(_WRITES_CODE.search(line))


#: Arguments that hold a command to run (a shell's, an interpreter's).
_COMMAND_KEYS = ("command", "cmd", "code", "script")


def _command(e: ReceiptEntry) -> str:
    """What a call ran as a command: the shell line of a ``bash`` call, never the text an
    editing tool writes (code that says "Python attempts ..." or "make a copy" runs
    nothing); a call with no such argument, its own line."""
    args = e.receipt.args
    said = (
        [v for k in _COMMAND_KEYS if isinstance(v := args.get(k), str)]
        if isinstance(args, dict)
        else []
    )
    if said:
        return _lines("\n".join(said))
    if isinstance(args, dict) and _EDIT_TOOL.search(e.receipt.tool or ""):
        return ""
    return _lines(e.text.split("\n", 1)[0])


def _shows_code(index: ReceiptIndex, found: Finding) -> bool:
    """Whether the call behind a finding printed lines to look at (a diff, a listing)."""
    e = next((x for x in ledger_view(index).tools if x.receipt.id == found.receipt_id), None)
    return e is not None and e.receipt.content.count("\n") >= 2


def _newest(
    index: ReceiptIndex, kind: re.Pattern[str], *, changes: bool = False, worked: bool = False
) -> ReceiptEntry | None:
    """The newest call of a kind (``changes``: of those that do more than read, so
    str_replace_editor(command="view") is none; ``worked``: of those that did not fail)."""
    view = ledger_view(index)
    for e in reversed(view.tools):
        if changes and reads_only(e):
            continue
        if worked and _broke(e):
            continue
        if kind.search(_lines(view.heads[id(e)])):
            return e
    return None


def _lines(head: str) -> str:
    """A call's line with the line breaks its JSON arguments escape ("EOF\\npython t.py")
    as breaks again, so that each command of a script starts a word."""
    return head.replace("\\n", "\n")


def _outcome(e: ReceiptEntry | None, what: str) -> Finding | None:
    if e is None:
        return None
    rid = e.receipt.id
    out = output_of(e)
    status = out.status
    if (status is not None and status != 0) or (status is None and _broke(e)):
        why = f"exit status {status}" if status else snippet(out.text, ERRORISH)
        return Finding("contradicted", rid, "tool", f"contradicts {rid}: the {what} failed ({why})")
    shown = f"exit status {status}" if status is not None else "no error"
    return Finding("supported", rid, "tool", f"{rid}: the newest {what} ended cleanly ({shown})")


_TRACEBACK = re.compile(r"\bTraceback \(most recent call last\)|^\w*Error:", re.MULTILINE)


def _broke(e: ReceiptEntry) -> bool:
    return failed(e) or _TRACEBACK.search(output_of(e).text[-2000:]) is not None
