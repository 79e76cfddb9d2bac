"""What a coding agent's edits did and what its files hold: whether an edit changed
anything, which edit a line of its change list describes, whether a file is empty.

"The typo has been corrected" after an edit that wrote the very text the file already
held is no fix; nor is a fix of a file that printed nothing when it was read
(:func:`read_empty`): there was nothing in it to fix.

An edit is known to have changed nothing when its own arguments replace a text with the
same text (``str_replace`` with ``old_str`` equal to ``new_str``), or when the file it
prints afterwards (SWE-agent's ``[File: bad.txt (1 lines total)]`` window, a ``cat -n``
listing) reads line for line as the same file printed by an earlier call. Anything
else, including an edit that prints nothing, counts as a change: this never turns a
claim down for want of a listing.

A line of a change list ("The changes:" then "- Adds the email field to the hash") is
backed by the edit whose own arguments (its new text) hold what the line describes
(:func:`receiptgate.checks.objects.describes`), or, when it quotes code ("Adding 'OD',
'OL', 'OV' to the list of VRs"), by a diff a call printed whose added lines hold that code;
a line no edit's text fits stays a statement with no receipt.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.calls import calls_for, failed, ledger_view
from receiptgate.checks.finding import Finding
from receiptgate.checks.objects import change_words, describes
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: The head of a file window: "[File: /workspace/bad.txt (4 lines total)]", or
#: "Here's the result of running `cat -n` on src/app.py:".
_WINDOW = re.compile(
    r"^(?:>\s*)*\[File:\s*(?P<a>\S+)\s+\((?P<n>\d+)\s+lines?\s+total\)\]\s*$"
    r"|^Here's the result of running `cat -n` on (?P<b>\S+?):?\s*$",
    re.MULTILINE,
)
#: A numbered line of a window: "1:This is a typo." or "     1\tThis is a typo."
_NUMBERED = re.compile(r"^\s*(\d+)(?::|\t)(.*)$")


def listing(content: str) -> tuple[str, tuple[str, ...]] | None:
    """The file a call's output prints and its numbered lines, with the total when the
    window gives one; ``None`` when it prints no file window."""
    m = _WINDOW.search(content)
    if m is None:
        return None
    path = (m.group("a") or m.group("b") or "").rsplit("/", 1)[-1]
    lines: list[str] = [f"total {m.group('n')}"] if m.group("n") else []
    for line in content[m.end() :].lstrip("\n").split("\n"):
        numbered = _NUMBERED.match(line)
        if numbered is None:
            break
        lines.append(f"{numbered.group(1)}:{numbered.group(2).rstrip()}")
    return (path, tuple(lines)) if len(lines) > (1 if m.group("n") else 0) else None


def _listing_of(e: ReceiptEntry) -> tuple[str, tuple[str, ...]] | None:
    """:func:`listing` of a call's output, read once per content (every check that asks
    of a file walks the calls before it)."""
    if "listing" not in e.memo:
        e.memo["listing"] = listing(e.receipt.content)
    return e.memo["listing"]  # type: ignore[return-value]


def unchanged(e: ReceiptEntry, before: Sequence[ReceiptEntry]) -> bool:
    """Whether edit ``e`` is shown to have changed nothing (see the module doc);
    ``before``: the calls made before it, oldest first."""
    args = e.receipt.args or {}
    old, new = args.get("old_str"), args.get("new_str")
    if isinstance(old, str) and isinstance(new, str):
        return old == new
    pair = _listed_before(e, before)
    return pair is not None and pair[0] == pair[1]


def _listed_before(
    e: ReceiptEntry, before: Sequence[ReceiptEntry]
) -> tuple[tuple[str, tuple[str, ...]], tuple[str, tuple[str, ...]]] | None:
    """The file window edit ``e`` printed and the newest window of the same file an
    earlier call printed, if both are there."""
    after = _listing_of(e)
    if after is None:
        return None
    for earlier in reversed(before):
        shown = _listing_of(earlier)
        if shown is not None and shown[0] == after[0]:
            return shown, after
    return None


def lines_kept(e: ReceiptEntry, before: Sequence[ReceiptEntry]) -> tuple[int, int] | None:
    """For an edit said to remove a line: the file's lines before and after it, when the
    file it prints afterwards has no fewer lines than the same file printed by an earlier
    call ("edit 5:5" with an empty line blanks line 5 and keeps it); ``None`` when it has
    fewer or no listing tells."""
    pair = _listed_before(e, before)
    if pair is None:
        return None
    was, now = _line_count(pair[0][1]), _line_count(pair[1][1])
    return (was, now) if now >= was else None


def _line_count(lines: tuple[str, ...]) -> int:
    """A listing's number of lines: the total its window gives, else the lines shown."""
    if lines and lines[0].startswith("total "):
        return int(lines[0][6:])
    return len(lines)


#: Calls that look things up: their arguments (a query) describe no change.
_LOOKS_UP = re.compile(r"search|find|view|read|get|list|show|grep|open|cat\b", re.IGNORECASE)

#: What a line says of how the code behaves, which only a run shows: "works correctly",
#: "the test confirms".
_BEHAVIOUR = re.compile(
    r"\b(?:works?|working|worked|correctly|properly|confirm\w*|verif\w*|pass(?:es|ed|ing)?|"
    r"succeed\w*)\b",
    re.IGNORECASE,
)

#: A line that introduces a list of changes: "The changes:", "The changes we made:",
#: "The implementation:", "I've made the following changes:", "The fix works by:".
CHANGES_INTRO = re.compile(
    r"\b(?:changes?|changed|fix|fixes|fixed|implementation|implemented|solution|"
    r"modifications?|modified|updates?|updated|edits?|edited|patch|"
    # what the agent made and what it holds: "Here's what the application includes:",
    # "I've created a detailed issue report that:", "The patch ... includes:"
    r"created|wrote|written|includes|contains|features)\b[^:\n]{0,60}:[*_\s]*$",
    re.IGNORECASE,
)


#: A change told as what the code now does: "The function now checks for the base
#: language", "The __add__ method now handles Mul objects".
NOW_DOES = re.compile(r"\bnow\s+(?:also\s+)?[a-z]+s\b")


def described_edit(index: ReceiptIndex, line: str) -> Finding | None:
    """The newest edit whose arguments hold what a line of a change list describes; the
    line must say what the change is about in two words or more."""
    if _BEHAVIOUR.search(line):
        return None  # "... now works correctly": what a run shows, not an edit
    view = ledger_view(index)
    quoted = _quoted_code(line)
    if quoted and (found := _diff_adds(view.tools, quoted)) is not None:
        return found
    words = change_words(line)
    if len(words) < 2:
        return None
    seen: set[int] = set()
    for kind in ("fixed", "created", "saved"):
        for e in calls_for(view, kind):
            seen.add(id(e))
    for e in reversed(view.tools):
        if id(e) not in seen or failed(e) or _LOOKS_UP.search(e.receipt.tool or ""):
            continue
        if describes(words, e.context_words):
            rid = e.receipt.id
            held = ", ".join(sorted(words & e.context_words))
            return Finding("supported", rid, "tool", f"{rid}: the edit's text holds {held}")
    return None


#: Code a line quotes: "Adding 'OD', 'OL', 'OV' to the list", "a `retry` argument".
_QUOTED_CODE = re.compile(r"`([^`\n]{2,60})`|'([^'\s]{2,40})'")
#: A diff a call printed: its added lines.
_DIFF_HEAD = re.compile(r"^(?:diff --git |\+\+\+ |@@ )", re.MULTILINE)
#: How many of the newest calls a printed diff is looked for in.
_DIFF_CALLS = 6


def _quoted_code(line: str) -> list[str]:
    return [a or b for a, b in _QUOTED_CODE.findall(line)]


def _diff_adds(tools: Sequence[ReceiptEntry], quoted: list[str]) -> Finding | None:
    """The newest diff a call printed (``git diff``, ``cat fix.patch``) whose added lines
    hold every piece of code a change-list line quotes ("Adding 'OD', 'OL', 'OV' to the
    list of VRs")."""
    for e in reversed(tools[-_DIFF_CALLS:]):
        content = e.receipt.content
        if failed(e) or _DIFF_HEAD.search(content) is None:
            continue
        lines = content.splitlines()
        added = "\n".join(x for x in lines if x.startswith("+") and not x.startswith("+++"))
        gone = "\n".join(x for x in lines if x.startswith("-") and not x.startswith("---"))
        # more often on the lines it adds than on those it takes away: a token of a
        # changed line that was there before ('UT' of both versions) was not added
        if all(added.count(q) > gone.count(q) for q in quoted):
            rid = e.receipt.id
            held = ", ".join(quoted[:4])
            return Finding("supported", rid, "tool", f"{rid}: the diff it printed adds {held}")
    return None


#: "the file `bad.txt` is empty", "bad.txt appears to be empty".
_EMPTY = re.compile(
    r"`?(?P<file>[\w./-]*\w\.\w{1,5})`?\s+(?:file\s+)?(?:is|was|appears\s+to\s+be|"
    r"seems\s+to\s+be)\s+(?:now\s+|still\s+|completely\s+)?empty\b",
    re.IGNORECASE,
)


def empty_file(index: ReceiptIndex, text: str) -> Finding | None:
    """ "The file bad.txt is empty" against the newest window of that file a call printed
    (SWE-agent's ``[File: ...]``, ``cat -n``): backed when every line is blank,
    contradicted when one holds text; no finding when no call printed it."""
    m = _EMPTY.search(text)
    if m is None:
        return None
    name = m.group("file").rsplit("/", 1)[-1].lower()
    for e in reversed(ledger_view(index).tools):
        shown = _listing_of(e)
        if shown is None or shown[0].lower() != name:
            continue
        rid = e.receipt.id
        lines = [x.split(":", 1)[1] for x in shown[1] if not x.startswith("total ")]
        if all(not x.strip() for x in lines):
            return Finding("supported", rid, "tool", f"{rid}: {name} shows no text")
        held = next(x for x in lines if x.strip())
        return Finding("contradicted", rid, "tool", f"{rid}: {name} holds {held.strip()[:60]!r}")
    return None


#: A shell call that prints one file: "cat bad.txt", "head -n 50 notes.md".
_PRINTS_FILE = re.compile(
    r"^\s*(?:cat|head|tail|less|more|type)(?:\s+-\S+(?:\s+\d+)?)*\s+(?P<f>\S+)\s*$"
)
#: A file name in a command: "sed -i 's/bad/good/g' bad.txt".
_FILE_NAME = re.compile(r"(?<![\w/.-])(?:[\w.-]+/)*(?P<name>[\w-]+\.[A-Za-z]\w{0,4})\b")
#: The status line some runners append: "[Command -1 finished with exit code 0]".
_STATUS_LINE = re.compile(r"^\[?Command\s.*finished with exit code \d+\]*\s*$", re.MULTILINE)


def read_empty(e: ReceiptEntry, before: Sequence[ReceiptEntry]) -> ReceiptEntry | None:
    """The call before edit ``e`` that printed the file ``e`` edits and showed it empty
    ("cat bad.txt" that printed nothing), when no call in between wrote to it; ``None``
    otherwise."""
    command = _command(e)
    names = {m.group("name").lower() for m in _FILE_NAME.finditer(command)} if command else set()
    if not names:
        return None
    for b in reversed(before):
        earlier = _command(b)
        m = _PRINTS_FILE.match(earlier)
        if m is None:
            if any(n in earlier.lower() for n in names):
                return None  # another call on the file: it may have written to it
            continue
        if m.group("f").rsplit("/", 1)[-1].lower() not in names:
            continue
        if failed(b):
            return None
        shown = _STATUS_LINE.sub("", b.receipt.content).strip()
        return b if not shown else None
    return None


def _command(e: ReceiptEntry) -> str:
    args = e.receipt.args or {}
    command = args.get("command") or args.get("cmd")
    return command if isinstance(command, str) else ""


#: A claim that lines were taken out of a file: "the duplicate line has been removed".
_LINE_REMOVED = re.compile(
    r"\b(?:removed?|deleted?)\b.*\blines?\b|\blines?\b.*\b(?:removed|deleted)\b", re.I
)


def fix_undone(
    tools: Sequence[ReceiptEntry], worked: Sequence[ReceiptEntry], claimed: str
) -> str | None:
    """Why the edits that worked (``worked``, among the calls ``tools``, oldest first) did
    not do the fix ``claimed``: every one changed nothing; a line said removed is still
    counted; or the file printed nothing when read; ``None`` when nothing says so."""
    rid = worked[-1].receipt.id
    if all(unchanged(e, _before(tools, e)) for e in worked):
        return f"{rid}: the edit changed nothing (the file reads the same before and after)"
    if _LINE_REMOVED.search(claimed) and all(
        kept := [lines_kept(e, _before(tools, e)) for e in worked]
    ):
        was, now = kept[-1] or (0, 0)
        return (
            f"{rid}: the file has {now} lines after the edit and had {was} before; no line "
            "was removed"
        )
    if all(empty := [read_empty(e, _before(tools, e)) for e in worked]):
        blank = empty[-1]
        assert blank is not None
        return (
            f"{blank.receipt.id}: the file printed nothing when read before the edit; there "
            "was nothing in it to fix"
        )
    return None


def _before(tools: Sequence[ReceiptEntry], e: ReceiptEntry) -> Sequence[ReceiptEntry]:
    """The calls made before ``e``, oldest first."""
    return tools[: next((i for i, x in enumerate(tools) if x is e), len(tools))]
