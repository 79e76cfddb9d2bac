"""Check claims of the agent's own actions against the action ledger.

The ledger is the tool receipts of the session. An action claim is supported
only when a matching tool call exists and its result does not contradict the
claim: "all tests pass" needs a test run whose output shows passing tests (a
failing run contradicts it), "the API returned 200" needs an HTTP result with
that status (a 500 contradicts it), "I sent the email to Dana" needs a send
call naming Dana that did not fail.

System-state claims ("nginx is running") are checked in ``checks/states``, and what
outputs say by their shape (a search that found nothing) in ``checks/outputs``.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass

from receiptgate.checks.finding import Finding
from receiptgate.checks.words import content_words
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.index import THINKING_TOOLS, ReceiptEntry, ReceiptIndex

_TEST_RUN = re.compile(
    r"\b(?:pytest|py\.test|unittest|tox|nox|npm\s+(?:run\s+)?test|yarn\s+test|pnpm\s+test|"
    r"go\s+test|cargo\s+(?:test|nextest)|jest|vitest|mocha|mvn\b.*\btest|gradle\b.*\btest|"
    r"rspec|phpunit|make\s+test|ctest|bazel\s+test|run_tests|test_runner|run-tests)\b"
)
_FAILING = re.compile(
    r"\b[1-9]\d*\s+(?:failed|failing|failures?|errors?)\b|\bFAILED\b|\bFAIL\b|\bnot ok\b|"
    r"\bAssertionError\b|\bexit (?:code|status) [1-9]|\bTests?:\s.*\b[1-9]\d* failed|"
    r"\bBUILD FAILURE\b|\bfailures=[1-9]|\berrors=[1-9]"
)
_PASSING = re.compile(
    r"\b\d+\s+(?:passed|passing|tests? passed)\b|\bOK\b|\bPASS(?:ED)?\b|all tests passed|"
    r"\b0\s+failed\b|\bok\s+\S+\s+[\d.]+s\b|tests? pass(?:ed)?\b|\bsucceeded\b"
)
_HTTP_STATUS = re.compile(
    r"(?:HTTP/\d(?:\.\d)?\s+|status(?:_code|Code)?[\"']?\s*[:=]\s*[\"']?|\bstatus\s+|"
    r"\bresponse\s+code\s*:?\s*|\bcode\s*[:=]\s*)([1-5]\d\d)\b"
)
ERRORISH = re.compile(
    r"\b(?:error|errors|exception|traceback|failed|failure|fatal|denied|refused|bounced|"
    r"rejected|not found|timed out|timeout|no such file or directory|can't (?:read|open|stat)|"
    r"cannot (?:open|read|access|stat|create)|is a directory|read-only file system)\b",
    re.IGNORECASE,
)
_NO_ERRORS = re.compile(r"\bno\s+(?:errors?|exceptions?|failures?)")
_LOG_ERROR = re.compile(r"\b(?:ERROR|FATAL|CRITICAL|Exception|Traceback|panic)\b")

#: Tool-name / command words that make a call count as a given action.
ACTION_TOOLS: dict[str, re.Pattern[str]] = {
    "checked": re.compile(
        r"\b(?:read|cat|view|open|get|fetch|head|tail|grep|ls|stat|inspect|describe|query|"
        r"select|status|check|show|list|diff|less|more|find|search|curl|http|logs?|journalctl|"
        r"lookup|file)"
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
        r"cancel|migrate|str_replace)"
    ),
    "restarted": re.compile(
        r"\b(?:restart|reboot|reload|start|stop|kill|bounce|rollout\s+restart)"
    ),
    "installed": re.compile(
        r"\b(?:install|apt|apt-get|pip|npm|yarn|brew|cargo|gem|upgrade|dnf|yum|apk)"
    ),
    "searched": re.compile(r"\b(?:search|google|bing|web|query|find|grep|lookup)"),
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

#: Verbs of a change to an existing record that an update call performs.
_CHANGE_VERB = re.compile(r"\b(?:upgraded|downgraded|added|upgrade|downgrade|add)\b", re.I)

_UP_DOWN = re.compile(r"\b(?:up|down)grade", re.I)

#: What a call whose tool is not named (a transcript that kept only results) must show
#: to count as each state-changing action: the new state in its result.
_RESULT_SHOWS: dict[str, re.Pattern[str]] = {
    "cancelled": re.compile(r"cancel", re.IGNORECASE),
    "refunded": re.compile(r"refund", re.IGNORECASE),
    "charged": re.compile(r"payment|charge|paid", re.IGNORECASE),
    "requested": re.compile(r"request|exchange|return|pending|modif", re.IGNORECASE),
}
#: Tool names that say nothing about what the call did.
_UNNAMED = frozenset({"", "tool", "function", "call", "action", "unknown"})

_SOURCES: dict[str, re.Pattern[str]] = {
    "logs": re.compile(r"\b(?:logs?|journalctl|syslog|stderr|stdout|tail|grep)|\.log\b"),
    "database": re.compile(r"\b(?:db|database|sql|select|query|psql|mysql|sqlite|table|rows?)"),
    "crm": re.compile(r"\bcrm|salesforce|hubspot"),
    "api": re.compile(r"\b(?:api|http|curl|fetch|request|endpoint)"),
    "dashboard": re.compile(r"\b(?:dashboard|grafana|metrics|monitoring|datadog|prometheus)"),
}
_SOURCE_ALIASES = {
    "log": "logs",
    "logs": "logs",
    "log file": "logs",
    "output": "any",
    "stack trace": "logs",
    "stacktrace": "logs",
    "db": "database",
    "database": "database",
    "query": "database",
    "query results": "database",
    "query result": "database",
    "records": "database",
    "record": "database",
    "crm": "crm",
    "api": "api",
    "dashboard": "dashboard",
    "metrics": "dashboard",
    "monitoring": "dashboard",
    "analytics": "dashboard",
}


def _head(e: ReceiptEntry) -> str:
    """The call line (tool, source, args) with ``_`` and ``-`` as spaces: jira_create_issue."""
    return e.text.split("\n", 1)[0].replace("_", " ").replace("-", " ")


#: Words for a tool that name the tools themselves ("I ran the linter" and ``ruff check``).
_OBJECT_SYNONYMS: dict[str, re.Pattern[str]] = {
    # "the shell script has been created": the .sh file a command wrote
    "shell script": re.compile(r"\.(?:sh|bash|zsh)\b|#!/(?:usr/)?bin/(?:env\s+)?(?:ba|z)?sh\b"),
    "script": re.compile(r"\.(?:sh|bash|py|js|ts|rb|pl|ps1)\b"),
    "linter": re.compile(
        r"\b(?:ruff|eslint|flake8|pylint|golangci|clippy|rubocop|lint|shellcheck|stylelint)"
    ),
    "lint": re.compile(r"\b(?:ruff|eslint|flake8|pylint|golangci|clippy|rubocop|lint|shellcheck)"),
    "type checker": re.compile(r"\b(?:mypy|pyright|tsc|flow|pyre)"),
    "formatter": re.compile(r"\b(?:black|prettier|ruff\s+format|gofmt|rustfmt)"),
    "migration": re.compile(r"\b(?:migrat|alembic|flyway|liquibase)"),
    "backup": re.compile(r"\b(?:backup|restic|borg|pg_dump|snapshot)"),
    "ticket": re.compile(r"\b(?:ticket|issue|jira|incident|case)"),
    "pull request": re.compile(r"\b(?:pull|pr\b|merge request)"),
    # "two checked bags have been added": a call on the booking's baggage
    "bag": re.compile(r"(?<![a-z])(?:bag|luggage)"),
    "luggage": re.compile(r"(?<![a-z])(?:bag|luggage)"),
}
_IDENTIFIER = re.compile(
    r"[\w.-]*[/@][\w./@-]+|[\w-]+\.[a-z]{2,5}\b|[A-Z]+-\d+|\b[\w]+-\d+\b|#\w*\d\w*"
)
_ENVS = re.compile(r"\b(prod|production|staging|stage|dev|development|test|qa|preview|sandbox)\b")
_ENV_CANON = {"prod": "production", "stage": "staging", "development": "dev"}


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


def _view(index: ReceiptIndex) -> _LedgerView:
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
        {id(e): _head(e) for e in tools},
        [e for e in tools if _is_test_run(e)],
        {},
    )
    index.cache["ledger"] = view
    return view


def tool_calls(index: ReceiptIndex) -> list[ReceiptEntry]:
    """The tool calls of a session, in order (no ``think`` call: it does nothing)."""
    return _view(index).tools


def suite_runs(index: ReceiptIndex) -> list[ReceiptEntry]:
    """The calls that ran a test suite, in order."""
    return _view(index).test_runs


def _calls_for(view: _LedgerView, kind: str) -> list[ReceiptEntry]:
    calls = view.by_action.get(kind)
    if calls is None:
        pattern = ACTION_TOOLS.get(kind, ACTION_TOOLS["ran"])
        calls = [e for e in view.tools if pattern.search(view.heads[id(e)])]
        if kind in _WRITING_KINDS:
            # A shell or code call that writes a file ("echo x > hello.sh", "sed -i",
            # open(path, "w")) creates, saves and fixes as much as a write tool does.
            named = {id(e) for e in calls}
            calls += [
                e for e in view.tools if id(e) not in named and _writes(e.text, e.receipt.content)
            ]
        if kind == "refunded":
            # a call whose result records a negative payment made a refund, whatever its
            # name ("update_reservation_flights": payment_history ... "amount": -5382)
            named = {id(e) for e in calls}
            calls += [e for e in view.tools if id(e) not in named and _records_refund(e)]
        view.by_action[kind] = calls
    return calls


@functools.lru_cache(maxsize=4096)
def _writes(text: str, content: str) -> bool:
    """Whether a call wrote a file, by its command or its output (cached: a transcript's
    calls come again with every reply)."""
    return bool(_WRITES.search(text) or _WRITE_DONE.search(content[:2000]))


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


_WRITING_KINDS = frozenset({"saved", "created", "fixed"})
_WRITES = re.compile(
    r"(?:[^<>]>>?\s*[\w./~-]|\btee\b|\bsed\s+(?:-\w+\s+)*-i|\bcp\s|\bmv\s|\btouch\s|"
    r"open\([^)]*['\"][wax]\+?['\"]|\.write(?:_text)?\(|\bstr_replace\b|\binsert\b|"
    r"\"command\":\s*\"create\"|\bapply_patch\b|\bpatch\s|"
    # editor helpers of coding agents (OpenHands' edit_file_by_replace, create_file, ...)
    r"\b(?:edit_file\w*|create_file|append_file|insert_content_at_line|write_file)\()"
)


def _is_test_run(e: ReceiptEntry) -> bool:
    return (e.receipt.kind == "tool" and bool(_TEST_RUN.search(e.text.split("\n", 1)[0]))) or (
        e.receipt.kind == "tool" and "test" in (e.receipt.tool or "").lower()
    )


def suite_outcome(e: ReceiptEntry) -> str:
    content = e.receipt.content
    if e.receipt.ok is False or _FAILING.search(content):
        return "failing"
    if _PASSING.search(content) or e.receipt.ok is True:
        return "passing"
    return "unknown"


#: A label before an object ("**Refund:** $2571").
_LEAD_LABEL = re.compile(r"^[\s*_]*[A-Za-z][\w ]{0,30}[*_]*:[*_]*\s*")


_GENERIC_OBJECTS = frozenset(
    "result results output it them everything file files report changes change data the "
    "fix update work code your my our identity account details detail information info "
    "profile record records user successfully id ids number "
    # words that point at what the reply lists ("the following items", "the selected
    # items"): the listed lines name the objects, and are checked on their own
    "following selected above below listed mentioned these those item items "
    # what the agent made of its results ("I found a combination that ..."): any look-up
    "combination combinations option options solution alternative alternatives way".split()
)


#: What a fix is of, when no file is named: the problem, not an artifact a call names.
_PROBLEMS = frozenset(
    "error errors bug bugs issue issues typo typos problem problems mistake mistakes crash "
    "failure failures syntax spelling".split()
)


@dataclass(frozen=True, slots=True)
class _ObjectMatcher:
    """Whether a call is about a claim's object (a file, a recipient, a version...).

    Identifiers (paths, emails, ticket keys) must appear as written:
    ``config/prod.yaml`` is not ``config/staging.yaml`` however many words they share.
    Built once per claim, then asked of each candidate call.
    """

    obj: str
    idents: tuple[str, ...]
    synonyms: tuple[re.Pattern[str], ...]
    words: frozenset[str]
    anything: bool

    @classmethod
    def of(cls, claim: DetectedClaim, tail: str) -> _ObjectMatcher:
        # "**Refund:** $2571 has been refunded": the label is no part of the object
        raw = _LEAD_LABEL.sub("", claim.object or "")
        obj = raw.strip(" *_`").lower()
        idents = tuple(i.lower().rstrip(".") for i in _IDENTIFIER.findall(f"{raw} {tail}"))
        words = content_words(raw)
        generic = _GENERIC_OBJECTS
        if claim.assertion == "fixed":
            generic = generic | _PROBLEMS  # "the syntax error has been corrected": any edit
        anything = not idents and (not obj or set(obj.split()) <= generic or not words)
        synonyms = tuple(p for w, p in _OBJECT_SYNONYMS.items() if w in obj)
        return cls(obj, idents, synonyms, words, anything)

    def _in(self, text: str) -> bool | None:
        """What a call's text says about the object by ids, the object itself and its
        synonyms; ``None`` when only its words can tell."""
        if self.idents:
            # "saved the results to report.csv": the file named anywhere after the verb.
            return all(i in text for i in self.idents)
        if self.anything or self.obj in text:
            return True
        if any(p.search(text) for p in self.synonyms):
            return True
        return None

    def names_in_call(self, head: str) -> bool:
        """Whether a call's own line (tool name and arguments) names the object."""
        found = self._in(head)
        return found if found is not None else bool(self.words & content_words(head))

    def __call__(self, entry: ReceiptEntry) -> bool:
        found = self._in(entry.text)
        if found is not None:
            return found
        shared = len(self.words & entry.words)
        return shared > 0 and shared * 2 >= min(len(self.words), 2)


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
    return _reads_as_failure(r.content[:2000])


@functools.lru_cache(maxsize=4096)
def _reads_as_failure(content: str) -> bool:
    head = content[:400]
    return (
        bool(ERRORISH.search(head))
        and not _PASSING.search(head)
        and not _WRITE_DONE.search(content)
    )


def check_action(index: ReceiptIndex, claim: DetectedClaim, tail: str = "") -> Finding:
    """Checks one ``action`` claim against the tool receipts.

    ``tail`` is the rest of the sentence after the claim ("... to report.csv",
    "... to production", "... no errors").
    """
    kind = claim.assertion
    view = _view(index)
    tools = view.tools
    if kind in ("tests_pass", "tests_fail", "ran_tests"):
        runs = view.test_runs
        if not runs:
            return Finding("unsupported", None, None, "no test run in the action ledger")
        last = runs[-1]
        outcome = suite_outcome(last)
        rid = last.receipt.id
        if kind == "ran_tests":
            return Finding("supported", rid, "tool", f"{rid}: test run found")
        wanted = "passing" if kind == "tests_pass" else "failing"
        if outcome == wanted:
            return Finding("supported", rid, "tool", f"{rid}: the test run shows {outcome}")
        if outcome == "unknown":
            return Finding(
                "unsupported", rid, "tool", f"{rid}: the test run's result is not readable"
            )
        shown = snippet(last.receipt.content, _FAILING if outcome == "failing" else _PASSING)
        return Finding(
            "contradicted",
            rid,
            "tool",
            f"contradicts {rid}: the test run is {outcome} ({shown}), "
            f"claimed {'passing' if kind == 'tests_pass' else 'failing'}",
        )
    if kind == "api_returned":
        return _check_status(index, claim)
    if kind == "printed":
        return _check_output(index, claim)
    if kind in ("logs_show", "according_to"):
        return _check_source(index, claim, tail)
    if kind == "forged_label":
        return Finding("unsupported", None, None, "verification label")
    matching = _calls_for(view, kind)
    if not matching and kind in ("checked", "ran"):
        matching = tools
    # A call whose tool is not named counts when its result shows the action done.
    unnamed = view.by_action.get(f"unnamed:{kind}")
    if unnamed is None:
        shows = _RESULT_SHOWS.get(kind)
        unnamed = view.by_action[f"unnamed:{kind}"] = [
            e
            for e in tools
            if (e.receipt.tool or "").strip().lower() in _UNNAMED
            and e.receipt.content.strip()
            and (shows is None or shows.search(e.receipt.content))
        ]
    if unnamed:
        seen = {id(e) for e in matching}
        matching = matching + [e for e in unnamed if id(e) not in seen]
    about = _ObjectMatcher.of(claim, tail)
    mentioned = [e for e in matching if about(e)]
    if not mentioned and (to := _CHANGED_TO.search(tail)) is not None:
        # 'Changed "typoo" to "typo"': the edit holds the new text, not the old
        about = _ObjectMatcher.of(dataclasses.replace(claim, object=to.group(1)), tail)
        mentioned = [e for e in matching if about(e)]
    if not mentioned and _CHANGE_VERB.search(claim.value or claim.matched_text):
        # "the cabin has been upgraded", "two bags have been added to your reservation": a
        # change to a record, done by an update call whose name or arguments name the
        # object (a flights update whose result lists total_baggages added no bag)
        # "Noah has been upgraded to business class": the passenger is in the result, the
        # new cabin in the call's arguments
        grade = _UP_DOWN.search(claim.value or claim.matched_text) is not None
        target = content_words(tail) - _GENERIC_OBJECTS
        mentioned = [
            e
            for e in _calls_for(view, "fixed")
            if about.names_in_call(view.heads[id(e)])
            or (grade and about(e) and bool(target & content_words(view.heads[id(e)])))
        ]
    answered = [e for e in mentioned if not e.receipt.meta.get("missing_result")]
    if mentioned and not answered:
        rid = mentioned[-1].receipt.id
        return Finding(
            "unsupported", rid, "tool", f"{rid}: the call has no result in the transcript"
        )
    mentioned = answered
    if not mentioned:
        what = f" on {claim.object!r}" if claim.object else ""
        return Finding("unsupported", None, None, f"no {kind} call{what} in the action ledger")
    # The latest call that did it: a failed attempt followed by one that worked is
    # done; only when every attempt failed is the claim contradicted.
    worked = [e for e in mentioned if not failed(e)]
    best = worked[-1] if worked else mentioned[-1]
    rid = best.receipt.id
    env = _env_conflict(best, tail)
    if env is not None:
        return Finding(
            "contradicted",
            rid,
            "tool",
            f"contradicts {rid}: the call targeted {env[1]}, the sentence says {env[0]}",
        )
    if failed(best) and kind not in ("checked", "searched", "queried"):
        return Finding(
            "contradicted",
            rid,
            "tool",
            f"contradicts {rid}: the {best.receipt.tool or 'tool'} call failed "
            f"({snippet(best.receipt.content, ERRORISH)})",
        )
    return Finding("supported", rid, "tool", f"{rid}: {best.receipt.tool or 'tool'} call")


def _check_output(index: ReceiptIndex, claim: DetectedClaim) -> Finding:
    """ "It prints 'hello'": a call's output (or a file it wrote) holds those words."""
    wanted = " ".join((claim.value or "").lower().split())
    if not wanted:
        return Finding("unsupported", None, None, "")
    view = _view(index)
    writes = {id(e) for e in _calls_for(view, "saved")}
    # the words on their own, not inside a path ("-bash: ./hello.sh: Permission denied")
    pattern = re.compile(rf"(?<![\w./-]){re.escape(wanted)}(?![\w/-]|\.\w)")
    for e in reversed(view.tools):
        # what a call printed, or what a write put in a file ("echo hello" in hello.sh);
        # never the command line that ran it ("./hello.sh" holds no "hello" printed)
        text = e.text if id(e) in writes else e.receipt.content
        if pattern.search(" ".join(text.lower().split())):
            rid = e.receipt.id
            return Finding("supported", rid, "tool", f"{rid}: the output holds {wanted!r}")
    return Finding("unsupported", None, None, f"no call's output holds {wanted!r}")


def _check_status(index: ReceiptIndex, claim: DetectedClaim) -> Finding:
    claimed = (claim.value or "").lower()
    view = _view(index)
    if view.statuses is None:
        view.statuses = [
            (e, m.group(1))
            for e in index.entries
            if e.receipt.kind in ("tool", "web")
            for m in _HTTP_STATUS.finditer(e.receipt.content)
        ]
    seen = view.statuses
    if not seen:
        return Finding("unsupported", None, None, "no HTTP result in the action ledger")
    for e, code in reversed(seen):
        if claimed.isdigit() and code == claimed:
            return Finding("supported", e.receipt.id, e.receipt.kind, f"status {code}")
        if claimed in ("ok", "success") and code.startswith("2"):
            return Finding("supported", e.receipt.id, e.receipt.kind, f"status {code}")
        if "error" in claimed and code[0] in "45":
            return Finding("supported", e.receipt.id, e.receipt.kind, f"status {code}")
    e, code = seen[-1]
    return Finding(
        "contradicted",
        e.receipt.id,
        e.receipt.kind,
        f"contradicts {e.receipt.id}: status {code} ≠ claimed {claimed}",
    )


def _check_source(index: ReceiptIndex, claim: DetectedClaim, tail: str) -> Finding:
    name = " ".join(claim.subject.lower().split())
    alias = _SOURCE_ALIASES.get(name, "any")
    for e in reversed(index.entries):
        r = e.receipt
        head = e.text.split("\n", 1)[0]
        if alias == "any":
            ok = r.kind in ("tool", "db", "rag", "web")
        elif alias == "database":
            ok = r.kind == "db" or bool(_SOURCES["database"].search(head))
        else:
            ok = bool(_SOURCES[alias].search(head)) or (
                alias == "logs" and r.kind == "tool" and bool(_SOURCES["logs"].search(e.text[:200]))
            )
        if not ok:
            continue
        obj = f"{claim.object or ''} {tail}".lower()
        if (
            claim.assertion == "logs_show"
            and _NO_ERRORS.search(obj)
            and _LOG_ERROR.search(r.content)
        ):
            return Finding(
                "contradicted",
                r.id,
                r.kind,
                f"contradicts {r.id}: the output has errors ({snippet(r.content, _LOG_ERROR)})",
            )
        return Finding("supported", r.id, r.kind, f"{r.id}: {r.source or r.tool or r.kind}")
    return Finding("unsupported", None, None, f"no {name} receipt in the session")


def check_attribution(index: ReceiptIndex, claim: DetectedClaim) -> Finding:
    """ "The contract states …": a document receipt (rag/db/web/user) naming the source."""
    words = content_words(claim.subject)
    for e in reversed(index.entries):
        r = e.receipt
        if r.kind not in ("rag", "db", "web", "user", "memory"):
            continue
        if not words or words & e.words:
            return Finding("supported", r.id, r.kind, f"{r.id}: {r.source or r.kind}")
    return Finding("unsupported", None, None, f"no {claim.subject} in the session's documents")


# -- system state against tool output --------------------------------------------------

_CHANGED_TO = re.compile(r"\bto\s+[\"'`“‘]([^\"'`”’\n]{1,80})[\"'`”’]")


#: A program's file in a subject ("the script `hello.sh`", "build.py").
def snippet(content: str, pattern: re.Pattern[str]) -> str:
    m = pattern.search(content)
    if m is None:
        return content[:60].strip()
    start = content.rfind("\n", 0, m.start()) + 1
    end = content.find("\n", m.end())
    line = content[start : end if end >= 0 else len(content)].strip()
    return line[:80]


def _env_conflict(entry: ReceiptEntry, sentence: str) -> tuple[str, str] | None:
    """(claimed, actual) environments when a sentence and a call name different ones."""
    claimed = {_ENV_CANON.get(m, m) for m in _ENVS.findall(sentence.lower())}
    if not claimed:
        return None
    actual = {_ENV_CANON.get(m, m) for m in _ENVS.findall(_head(entry).lower())}
    if actual and not claimed & actual:
        return sorted(claimed)[0], sorted(actual)[0]
    return None
