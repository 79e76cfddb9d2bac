"""The action ledger: the session's tool calls, what kind of action each performs (by tool
name, command and arguments), test runs and their outcome, and whether a call failed
(checks/ledger)."""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass

from receiptgate.checks.words import content_words
from receiptgate.evidence.index import THINKING_TOOLS, ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import OUTPUT_FIELDS, Leaf, Record

#: A test runner: what runs a suite of tests.
_RUNNER = (
    r"\b(?:pytest|py\.test|unittest|tox|nox|npm\s+(?:run\s+)?test|yarn\s+test|pnpm\s+test|"
    r"go\s+test|cargo\s+(?:test|nextest)|jest|vitest|mocha|mvn\b.*\btest|gradle\b.*\btest|"
    r"rspec|phpunit|make\s+test|ctest|bazel\s+test|run_tests|test_runner|run-tests)\b"
)
#: What runs a script: "python3", "node", "bash".
_INTERPRETER = r"\b(?:python[\d.]*|node|ruby|bash|sh)\s+"
#: A test file run as a script: "python test_fix.py", "node tests/app.test.js".
_SCRIPT = (
    _INTERPRETER + r"(?:-\w+\s+)*(?:[\w./-]*/)?"
    r"(?:test_[\w-]*|[\w-]*_tests?|tests?|runtests|[\w-]*\.test)\.(?:py|js|rb|sh)\b"
)
_SUITE_RUNNER = re.compile(_RUNNER)
_TEST_SCRIPT = re.compile(_SCRIPT)
_TEST_RUN = re.compile(f"{_RUNNER}|{_SCRIPT}")

FAILING = re.compile(
    r"\b[1-9]\d*\s+(?:failed|failing|failures?|errors?)\b|\bFAILED\b|\bFAIL\b|\bnot ok\b|"
    r"\bAssertionError\b|\bexit (?:code|status):? [1-9]|\bTests?:\s.*\b[1-9]\d* failed|"
    r"\bBUILD FAILURE\b|\bfailures=[1-9]|\berrors=[1-9]|\bSome checks were not successful\b"
)

PASSING = re.compile(
    r"\b\d+\s+(?:passed|passing|tests? passed)\b|\bOK\b|\bPASS(?:ED)?\b|all tests passed|"
    r"\b0\s+failed\b|\bok\s+\S+\s+[\d.]+s\b|tests? pass(?:ed)?\b|\bsucceeded\b|"
    r"\bAll checks were successful\b"
)

ERRORISH = re.compile(
    r"\b(?:error|errors|exception|traceback|failed|failure|fatal|denied|refused|bounced|"
    r"rejected|not found|timed out|timeout|no such file or directory|can't (?:read|open|stat)|"
    r"cannot (?:open|read|access|stat|create)|is a directory|read-only file system)\b",
    re.IGNORECASE,
)

#: A run before the agent's change: "before the fix", "initially", "the first run".
AT_FIRST = re.compile(
    r"\bbefore\s+(?:the|my|our|this|any)\s+(?:change|changes|fix|edit|edits|patch)\b|"
    r"\b(?:initially|originally|at\s+first|to\s+begin\s+with)\b|\bfirst\s+(?:test\s+)?run\b",
    re.I,
)


#: The fields of a sending call that hold the agent's own words.
_ECHO_KEYS = frozenset({"text", "message", "body", "content", "subject", "blocks", "msg"})


def echoed(index: ReceiptIndex, leaf: Leaf) -> bool:
    """Whether a value is the agent's own words, sent in a message (a Slack post's text,
    an email's body, or the result that echoes them): no observation of anything."""
    r = index.receipt_of(leaf)
    return r.kind == "tool" and leaf.key.lower() in _ECHO_KEYS and sends(r.tool)


def sends(tool: str | None) -> bool:
    """Whether a tool sends the agent's words somewhere (its arguments and its result echo
    them): a tool the ledger counts for "sent" (``post_slack_message``, ``send_email``)."""
    name = (tool or "").lower().replace("_", " ").replace("-", " ")
    return ACTION_TOOLS["sent"].search(name) is not None


#: Tool-name / command words that make a call count as a given action.
ACTION_TOOLS: dict[str, re.Pattern[str]] = {
    "checked": re.compile(
        r"\b(?:read|cat|view|open|get|fetch|head|tail|grep|ls|stat|inspect|describe|query|"
        r"select|status|check|show|list|diff|less|more|find|search|curl|http|logs?|journalctl|"
        r"lookup|file|rg\b|ack\b)"
    ),
    "ran": re.compile(r"\b(?:exec|bash|shell|sh|terminal|run|command|cmd|process|script)"),
    "ran_tests": _TEST_RUN,
    "deployed": re.compile(
        r"\b(?:deploy|release|kubectl|helm|terraform|rollout|publish|push|merge|ship|apply|"
        r"promote|upgrade)"
    ),
    "sent": re.compile(
        r"\b(?:send|sent|email|mail|message|slack|post|notify|reply|sms|tweet|bird|chat)"
    ),
    "saved": re.compile(
        r"\b(?:write|save|put|upload|export|commit|touch|tee|insert|store|backup|dump|cp|mv)"
    ),
    "created": re.compile(
        r"\b(?:create|new|add|insert|make|mkdir|touch|open|schedule|book|generate|write|post|"
        r"issue|ticket)"
    ),
    "fixed": re.compile(
        r"\b(?:edit|write|patch|apply|replace|update|sed|commit|fix|modify|change|delete|remove|"
        r"cancel|migrate|str_replace|rm\b|rmdir|unlink|enable|disable|activate|deactivate|"
        r"reactivate|suspend|unsuspend|reinstate|restore|waive|renew|unlock|unblock|reopen|credit|"
        r"reschedul|rebook|postpone|move)"
    ),
    "restarted": re.compile(
        r"\b(?:restart|reboot|reload|start|stop|kill|bounce|rollout\s+restart)"
    ),
    "installed": re.compile(
        r"\b(?:install|apt|apt-get|pip|npm|yarn|brew|cargo|gem|upgrade|dnf|yum|apk)"
    ),
    "searched": re.compile(r"\b(?:search|google|bing|web|query|find|grep|lookup|rg\b|ack\b|ag\b)"),
    "fetched": re.compile(r"\b(?:fetch|http|get|curl|wget|request|api|download|browse|call)"),
    "queried": re.compile(r"\b(?:query|sql|select|db|database|psql|mysql|sqlite|crm|lookup)"),
    "cancelled": re.compile(r"\bcancel"),
    "refunded": re.compile(r"\b(?:refund|return)"),
    "charged": re.compile(r"\b(?:pay|charge|payment|bill)"),
    "transferred": re.compile(r"\b(?:transfer|send|pay|move)"),
    "requested": re.compile(
        r"\b(?:request|submit|exchange|return|modify|update|cancel|place|order|book|create)"
    ),
}


def call_head(e: ReceiptEntry) -> str:
    """The call line (tool, source, args) with ``_`` and ``-`` as spaces: jira_create_issue."""
    return e.text.split("\n", 1)[0].replace("_", " ").replace("-", " ")


@dataclass(slots=True)
class _LedgerView:
    """What the ledger checks need, derived once per index state (not per claim)."""

    tools: list[ReceiptEntry]
    heads: dict[int, str]
    test_runs: list[ReceiptEntry]
    by_action: dict[str, list[ReceiptEntry]]
    #: HTTP statuses the outputs print, read on the first status claim (a scan of every
    #: output that most requests never need)
    statuses: list[tuple[ReceiptEntry, str]] | None = None


def ledger_view(index: ReceiptIndex) -> _LedgerView:
    view = index.cache.get("ledger")
    if isinstance(view, _LedgerView):
        return view
    tools = [
        e
        for e in index.entries
        if e.receipt.kind == "tool" and (e.receipt.tool or "").lower() not in THINKING_TOOLS
    ]
    view = _LedgerView(
        tools,
        {id(e): call_head(e) for e in tools},
        [e for e in tools if is_test_run(e)],
        {},
    )
    index.cache["ledger"] = view
    return view


def tool_calls(index: ReceiptIndex) -> list[ReceiptEntry]:
    """The tool calls of a session, in order (no ``think`` call: it does nothing)."""
    return ledger_view(index).tools


def changes_made(index: ReceiptIndex) -> list[ReceiptEntry]:
    """The calls of a session that changed something and succeeded, in order: no look-up
    (``READ_TOOL``) and no failed call."""
    return [
        e for e in tool_calls(index) if not READ_TOOL.match(e.receipt.tool or "") and not failed(e)
    ]


def tool_name_words(e: ReceiptEntry) -> frozenset[str]:
    """The content words of a call's tool name ("return_delivered_order_items": return,
    deliver, order, item)."""
    return content_words((e.receipt.tool or "").replace("_", " "))


def suite_runs(index: ReceiptIndex) -> list[ReceiptEntry]:
    """The calls that ran a test suite, in order."""
    return ledger_view(index).test_runs


#: Kinds of action that change something (a look-up tool does none of them).
_CHANGING_KINDS = frozenset(
    {"requested", "fixed", "created", "cancelled", "refunded", "charged", "transferred", "sent"}
)
#: A tool named for reading or thinking: "get_order_details", "search_direct_flight",
#: "list_files", "think" (the one list of them: the action ledger's and checks/counts').
READ_TOOL = re.compile(
    r"^(?:get|list|search|find|fetch|read|lookup|look_up|calculate|view|show|describe|query|"
    r"think)(?:[_\-.\s]|$)",
    re.IGNORECASE,
)


#: The sub-command of a tool that does several things ("command", "action") when it
#: only reads: an editor's "view", a file tool's "read".
_READ_COMMAND = frozenset(
    "view read show cat list ls get search find open preview inspect print display".split()
)
_COMMAND_ARGS = ("command", "action", "operation", "op", "mode", "subcommand")


def reads_only(e: ReceiptEntry) -> bool:
    """Whether a call only read: a tool named for reading (``READ_TOOL``), or a tool of
    several commands called with a reading one (OpenHands' ``str_replace_editor`` and
    Goose's ``text_editor`` with ``command="view"``)."""
    if READ_TOOL.match(e.receipt.tool or ""):
        return True
    args = e.receipt.args or {}
    return any(
        isinstance(v := args.get(k), str) and v.strip().lower() in _READ_COMMAND
        for k in _COMMAND_ARGS
    )


def calls_for(view: _LedgerView, kind: str) -> list[ReceiptEntry]:
    calls = view.by_action.get(kind)
    if calls is None:
        pattern = ACTION_TOOLS.get(kind, ACTION_TOOLS["ran"])
        calls = [e for e in view.tools if pattern.search(view.heads[id(e)])]
        if kind in _CHANGING_KINDS or kind in _WRITING_KINDS:
            # "get_order_details" names an order, but reads it: no request was submitted;
            # str_replace_editor(command="view") is an editor that only showed a file
            calls = [e for e in calls if not reads_only(e)]
        if kind in _WRITING_KINDS:
            # A shell or code call that writes a file ("echo x > hello.sh", "sed -i",
            # open(path, "w")) creates, saves and fixes as much as a write tool does.
            named = {id(e) for e in calls}
            calls += [
                e for e in view.tools if id(e) not in named and writes(e.text, e.receipt.content)
            ]
        if kind == "refunded":
            # a call whose result records a negative payment made a refund, whatever its
            # name ("update_reservation_flights": payment_history ... "amount": -5382)
            named = {id(e) for e in calls}
            calls += [
                e
                for i, e in enumerate(view.tools)
                if id(e) not in named and (_records_refund(e) or _new_refund_row(e, view.tools[:i]))
            ]
        view.by_action[kind] = calls
    return calls


def own_script_runs(view: _LedgerView) -> list[ReceiptEntry]:
    """Runs of a script an earlier call wrote (``python3 edge_cases.py`` after the file was
    created): the agent's own checks, in order."""
    written: set[str] = set()
    out: list[ReceiptEntry] = []
    for e in view.tools:
        line = e.text.split("\n", 1)[0]
        if any(name in written for name in _SCRIPT_RUN.findall(line)):
            out.append(e)
        if writes(e.text, e.receipt.content) or _CREATES.search(view.heads[id(e)]):
            written.update(_SCRIPT_NAME.findall(line))
    return out


#: A script run ("python3 edge_cases.py", "node check.js") and a script's name.
_SCRIPT_RUN = re.compile(_INTERPRETER + r"(?:-\S+\s+)*(?:[\w./-]*/)?([\w-]+\.(?:py|js|rb|sh))\b")
_SCRIPT_NAME = re.compile(r"(?:^|[/\s\"'])([\w-]+\.(?:py|js|rb|sh))\b")
_CREATES = re.compile(r"\b(?:create|write)", re.IGNORECASE)


@functools.lru_cache(maxsize=4096)
def writes(text: str, content: str) -> bool:
    """Whether a call wrote a file, by its command (the call line: a file it read may
    hold ``open(p, "w")`` or a ``-> str`` annotation) or its output saying so."""
    return bool(_WRITES.search(text.split("\n", 1)[0]) or _WRITE_DONE.search(content[:2000]))


def _records_refund(e: ReceiptEntry) -> bool:
    if failed(e):
        return False
    return any(
        leaf.value.kind == "money"
        and (leaf.value.number or 0) < 0
        and not leaf.path.startswith("args.")
        for rec in e.records
        for leaf in rec.subtree_leaves()
    )


def _new_refund_row(e: ReceiptEntry, earlier: list[ReceiptEntry]) -> bool:
    """Whether a call's result holds more refund rows ("transaction_type": "refund") for a
    record than the newest earlier result of that record did: the call made a refund."""
    if failed(e):
        return False
    for rec in e.records:
        if rec.parent is not None or not rec.ids:
            continue
        now = _refund_rows(rec)
        if not now:
            continue
        ids = set(rec.ids)
        before = next(
            (
                _refund_rows(r)
                for x in reversed(earlier)
                for r in x.records
                # one thing: one's ids hold all the other's (an order and its later view)
                if r.parent is None and r.ids and (set(r.ids) <= ids or ids <= set(r.ids))
            ),
            None,
        )
        if (before is not None and now > before) or (before is None and _changes(e)):
            return True
    return False


#: Tool names of look-ups, which show a refund an earlier act made.
_LOOKUP_TOOL = re.compile(r"^(?:get|find|search|list|lookup|read|view|fetch|show|check)", re.I)


def _changes(e: ReceiptEntry) -> bool:
    """Whether a call is named as one that changes things (not a look-up, not unnamed)."""
    name = (e.receipt.tool or "").strip()
    return (
        bool(name)
        and name.lower() not in ("tool", "function", "call")
        and not (_LOOKUP_TOOL.match(name))
    )


def _refund_rows(rec: Record) -> int:
    return sum(
        1
        for leaf in rec.subtree_leaves()
        if leaf.key.lower() in ("transaction_type", "type")
        and leaf.value.shown.strip().lower() == "refund"
    )


_WRITING_KINDS = frozenset({"saved", "created", "fixed"})

_WRITES = re.compile(
    r"(?:[^<>=-]>>?\s*[\w./~-]|\btee\b|\bsed\s+(?:-\w+\s+)*-i|\bcp\s|\bmv\s|\btouch\s|"
    r"open\([^)]*['\"][wax]\+?['\"]|\.write(?:_text)?\(|\bstr_replace\b|\binsert\b|"
    r"\"command\":\s*\"create\"|\bapply_patch\b|\bpatch\s|"
    # editor helpers of coding agents (OpenHands' edit_file_by_replace, create_file, ...)
    r"\b(?:edit_file\w*|create_file|append_file|insert_content_at_line|write_file)\()"
)


def is_test_run(e: ReceiptEntry) -> bool:
    if e.receipt.kind != "tool":
        return False
    found = e.memo.get("test_run")
    if found is None:
        found = e.memo["test_run"] = _reads_as_test_run(e)
    return bool(found)


def runs_suite(e: ReceiptEntry) -> bool:
    """Whether a test run ran a suite (a test runner, a test tool, a runner's report), not
    one test file run as a script ("python test_fix.py")."""
    return (
        bool(_SUITE_RUNNER.search(e.text.split("\n", 1)[0]))
        or "test" in (e.receipt.tool or "").lower()
        # a call of any name whose output is a test runner's report ("eval" in debug-gym)
        # at its start or its end: a harness may append the run to an edit's output
        or _TEST_REPORT.search((text := output_of(e).text)[:3000]) is not None
        or _TEST_REPORT.search(text[-1500:]) is not None
    )


def _reads_as_test_run(e: ReceiptEntry) -> bool:
    return runs_suite(e) or bool(_TEST_SCRIPT.search(e.text.split("\n", 1)[0]))


#: A test runner's own report: pytest's header and its closing tally ("==== 3 passed in
#: 0.12s ===="), unittest's "Ran 3 tests in", jest's "Tests: 3 passed, 3 total", cargo's
#: "test result: ok. 3 passed;", mocha's "3 passing (12ms)", a harness's "Running 11
#: tests in the following files" / "11 passed. 0 failed. 0 errors." (moatless-tools).
_TEST_REPORT = re.compile(
    r"={5,} test session starts ={5,}|^Ran \d+ tests? in \d"
    r"|^=+ (?:\d+ (?:passed|failed|errors?|skipped|xfailed|xpassed|warnings?),? ?)+"
    r"(?:in [\d.]+s)? ?=+$"
    r"|^Tests?:\s+(?:\d+ \w+, )*\d+ total$|^test result: (?:ok|FAILED)\. \d+ passed"
    r"|^\s*\d+ passing \(\d+m?s\)$|^Running \d+ tests? in the following files"
    r"|^\d+ passed\. \d+ failed\. \d+ errors?\.$"
    # a CI's checks as the GitHub CLI sums them up ("gh pr checks")
    r"|^(?:All checks were successful|Some checks were not successful)$"
    r"|^\d+ cancelled, \d+ failing, \d+ successful, \d+ skipped, and \d+ pending checks$",
    re.MULTILINE,
)


def suite_outcome(e: ReceiptEntry) -> str:
    out = output_of(e)
    text, status = out.text, out.status
    if e.receipt.ok is False or FAILING.search(text) or (status is not None and status != 0):
        return "failing"
    if PASSING.search(text) or e.receipt.ok is True or status == 0:
        return "passing"
    return "unknown"


@dataclass(frozen=True, slots=True)
class Output:
    """What a command printed and the exit status its harness reports (``None``: not
    reported)."""

    text: str
    status: int | None
    #: whether the text was read out of a wrapper (a JSON or ``key: value`` report)
    wrapped: bool = False


def output_of(e: ReceiptEntry) -> Output:
    """A call's output as the command printed it: a harness that wraps it in JSON
    (``{"output": "F.\\n1 failed, 1 passed", "metadata": {"exit_code": 1}}``, Codex CLI's
    shell results) has its output fields decoded, their line breaks breaks again, and
    the exit status read from its field; any other result is its content."""
    found = e.memo.get("output")
    if isinstance(found, Output):
        return found
    content = e.receipt.content
    out = Output(content, exit_status(content))
    if e.format == "json":
        try:
            tree = json.loads(content)
        except ValueError:
            tree = _UNPARSED
        # whether the record says the call failed, worked out with the one parse
        e.memo["json_failed"] = _json_failed(tree, content)
        e.memo["json_ok"] = isinstance(tree, dict) and any(
            str(k).lower() in ("ok", "success", "succeeded") and v is True for k, v in tree.items()
        )
        texts: list[str] = []
        codes: list[int] = []
        _output_fields(tree, texts, codes, 0)
        if texts or codes:
            text = "\n".join(texts) if texts else content
            out = Output(text, codes[0] if codes else exit_status(text), wrapped=True)
    elif e.format == "key_value" and e.records:
        # "Command: ... / Stdout: ... / Error: (none) / Exit Code: 0" (Gemini CLI): the
        # output under its label, the status from its field
        root = e.records[0]
        texts = [x.value.shown for x in root.leaves if x.key.lower() in OUTPUT_FIELDS]
        texts = [t for t in texts if not _EMPTY_FIELD.fullmatch(t)]
        codes = [
            int(x.value.number)
            for x in root.leaves
            if "_".join(x.key.lower().split()) in _EXIT_FIELD and x.value.number is not None
        ]
        if codes:
            out = Output("\n".join(texts), codes[0], wrapped=True)
    e.memo["output"] = out
    return out


#: A field a harness leaves empty: "(none)", "(empty)".
_EMPTY_FIELD = re.compile(r"\s*\(?(?:none|empty|null|nil)?\)?\s*", re.IGNORECASE)


#: Fields that hold a command's exit status (``OUTPUT_FIELDS``: what it printed).
_EXIT_FIELD = frozenset(
    "exit_code exitcode returncode return_code exit_status exitstatus status_code_exit".split()
)


def _output_fields(node: object, texts: list[str], codes: list[int], depth: int) -> None:
    if depth > 6:
        return
    if isinstance(node, dict):
        for k, v in node.items():
            key = str(k).lower()
            if key in OUTPUT_FIELDS and isinstance(v, str):
                if v.strip():
                    texts.append(v)
            elif key in _EXIT_FIELD and isinstance(v, int) and not isinstance(v, bool):
                codes.append(v)
            else:
                _output_fields(v, texts, codes, depth + 1)
    elif isinstance(node, list):
        for v in node[:200]:
            _output_fields(v, texts, codes, depth + 1)


def printed_texts(e: ReceiptEntry) -> list[str]:
    """What a command printed, with its line breaks: a text result, or the multi-line
    texts of a JSON one ({"output": "..."}); never a record's fields ("screen_size": "10
    inch") nor the JSON on one line (:func:`output_of` falls back to the whole content)."""
    if e.format == "text":
        return [e.receipt.content]
    return [x.value.shown for rec in e.records for x in rec.leaves if "\n" in x.value.shown]


def exit_status(content: str) -> int | None:
    """The exit status an agent harness reports with a command's output, if it does:
    ``<returncode>0</returncode>`` (mini-swe-agent), ``[Command finished with exit code
    1]`` (OpenHands), ``Exit code: 0`` on a line of its own (Cursor above the output,
    Gemini CLI below it)."""
    m = (
        _EXIT_STATUS.search(content[:40])
        or _EXIT_STATUS_END.search(content[-120:])
        or _EXIT_LINE.search(content[:200])
        or _EXIT_LINE.search(content[-400:])
    )
    return None if m is None else int(next(g for g in m.groups() if g is not None))


_EXIT_STATUS = re.compile(r"^\s*<returncode>\s*(-?\d+)\s*</returncode>")
_EXIT_STATUS_END = re.compile(
    r"\[(?:Command(?:\s+-?\d+)?\s+finished|The\s+command\s+completed)\s+with\s+exit\s+code"
    r"\s+(-?\d+)\.?\]\s*$"
    r"|<returncode>\s*(-?\d+)\s*</returncode>\s*$"
)
_EXIT_LINE = re.compile(
    r"^[ \t]*(?:exit[ \t_]?code|exit[ \t]status|process[ \t]exited[ \t]with[ \t]code)"
    r"[ \t]*:?[ \t]*(-?\d+)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


# A write's own report that it happened: "[File updated (edited at line 1)]", "File
# created successfully", "Successfully wrote 120 bytes". An error beside it (a warning
# about permissions the editor printed) does not undo the write it reports.
_WRITE_DONE = re.compile(
    r"\bfile\s+(?:updated|created|written|saved)\b|\bedited\s+at\s+line\b|"
    r"\bsuccessfully\s+(?:wrote|written|saved|created|updated|edited|modified)\b",
    re.IGNORECASE,
)


def failed(entry: ReceiptEntry) -> bool:
    """Whether a call failed: its receipt says so, or (when it says nothing) its output
    starts with an error and reports no passing run and no write."""
    r = entry.receipt
    if r.ok is not None:
        return not r.ok
    out = output_of(entry)
    if entry.format == "json" and (not out.wrapped or entry.memo.get("json_ok")):
        # a record a tool returned: its fields say whether it failed ("error": ...,
        # "success": false), not a word in a value ("reason": "billed in error"); a
        # result that says "ok": true worked, whatever the text it holds says
        return bool(entry.memo["json_failed"])  # set by output_of
    return _reads_as_failure(out.text[:2000])


def act_failed(entry: ReceiptEntry) -> bool:
    """Whether a call failed to do what it was run for: :func:`failed`, unless the
    command exited 0 (a script that wrote a file and printed "Error messages: [...]"
    did it; its output may still show a failure of the code it ran, which
    :func:`failed` reports). A non-zero status may be the last of several commands
    ("chmod: Operation not permitted" after the file was written): the output decides."""
    return failed(entry) and output_of(entry).status != 0


#: A JSON result that does not parse.
_UNPARSED = object()


def _json_failed(tree: object, content: str) -> bool:
    if tree is _UNPARSED:
        return _reads_as_failure(content[:2000])
    if isinstance(tree, str):
        return _reads_as_failure(tree[:2000])
    if not isinstance(tree, dict):
        return False
    for key, value in tree.items():
        k = str(key).lower()
        if k in _ERROR_KEYS and value not in (None, "", [], {}, False, 0):
            return True
        if k in ("success", "ok", "succeeded") and value is False:
            return True
        if (
            k in ("status", "state", "result")
            and isinstance(value, str)
            and value.strip().lower() in ("error", "failed", "failure", "fail")
        ):
            return True
    return False


#: The fields in which a tool's JSON result reports that the call failed.
_ERROR_KEYS = frozenset({"error", "errors", "error_message", "errormessage", "exception", "fault"})


#: A harness's empty error field: "Error: (none)", "Stderr: (empty)" (Gemini CLI's shell
#: report), no error ("ERROR:" alone on its line heads the error below it).
_NO_ERROR = re.compile(
    r"^[ \t]*(?:errors?|stderr)[ \t]*:[ \t]*(?:\((?:none|empty)\)|none|null|nil|0)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)


@functools.lru_cache(maxsize=4096)
def _reads_as_failure(content: str) -> bool:
    head = _NO_ERROR.sub("", content[:400])
    return (
        bool(ERRORISH.search(head)) and not PASSING.search(head) and not _WRITE_DONE.search(content)
    )
