"""States of systems a sentence reports: "nginx is running", "the tests are failing",
"redis is installed" — checked against the outputs of the calls about that subject
(:func:`check_state`), each read as showing the state, its opposite, or neither.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from receiptgate.checks.about import command_names
from receiptgate.checks.calls import (
    AT_FIRST,
    READ_TOOL,
    failed,
    ledger_view,
    output_of,
    own_script_runs,
    sends,
    suite_outcome,
    suite_runs,
    tool_calls,
)
from receiptgate.checks.finding import Finding
from receiptgate.checks.flags import described_rows
from receiptgate.checks.ledger import check_action
from receiptgate.checks.objects import root, tool_root
from receiptgate.checks.rows import named_ids
from receiptgate.checks.words import content_words, stem
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.formats import is_data_format
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

_POSITIVE = frozenset(
    "running active up online healthy started ready listening success succeeded passing "
    "green operational available accepting".split()
)
_NEGATIVE = frozenset(
    "inactive dead stopped down offline failed failing failure exited crashed unhealthy "
    "unreachable error errored red degraded broken timeout crashloopbackoff imagepullbackoff "
    "errimagepull oomkilled notready pending refused rejecting evicted terminating".split()
)
_NEGATIVE_PHRASES = ("no response", "not running", "not ready", "connection refused")
_USE_PERCENT = re.compile(r"\b(\d{1,3})%")
_NOT_FOUND = re.compile(r"command not found|no such file|not installed|could not find|not found")
_VERSION_OUT = re.compile(r"\bv?\d+\.\d+(?:\.\d+)?\b")
_GENERIC_SUBJECTS = frozenset(
    """
        service server system machine host app application process daemon instance cluster container
        database db it
        """.split()
)
_CI_CONTEXT = re.compile(r"\b(?:ci|runs?|pipelines?|workflows?|builds?|actions|jenkins|gitlab)\b")
_CLAIM_STATE: dict[str, tuple[str, bool]] = {
    "installed": ("installed", True),
    "present": ("installed", True),
    "available": ("installed", True),
    "not_found": ("installed", False),
    "not_exists": ("installed", False),
    "exists": ("installed", True),
    "running": ("running", True),
    "active": ("running", True),
    "online": ("running", True),
    "healthy": ("running", True),
    "started": ("running", True),
    "ready": ("running", True),
    "operational": ("running", True),
    "accepting_connections": ("running", True),
    "full": ("full", True),
    "listening": ("running", True),
    "stopped": ("running", False),
    "inactive": ("running", False),
    "down": ("running", False),
    "offline": ("running", False),
    "broken": ("running", False),
    "failing": ("running", False),
    "failed": ("running", False),
    "crashed": ("running", False),
    "dead": ("running", False),
    "unreachable": ("running", False),
    "unresponsive": ("running", False),
    "degraded": ("running", False),
    "unhealthy": ("running", False),
    "errored": ("running", False),
    "timed_out": ("running", False),
}
_WORD = re.compile(r"[a-z]+")
_TEST_SUBJECTS: frozenset[str] = frozenset(
    ["test", "tests", "suite", "build", "builds", "ci", "checks", "specs", "pipeline"]
)


def claim_state(claim: DetectedClaim) -> tuple[str, bool] | None:
    """(base, polarity) asserted by a state/status/existence claim, if it has one."""
    word = claim.assertion.removeprefix("not_")
    base = _CLAIM_STATE.get(claim.assertion) or _CLAIM_STATE.get(word)
    if base is None:
        return None
    negated = claim.assertion.startswith("not_") and claim.assertion not in _CLAIM_STATE
    return base[0], base[1] != negated


#: A process named by its noun, and the verbs of the calls that perform it: "the
#: downgrade failed" is of the call that updated the cabin, "the cancellation went
#: through" of the cancel call, "the installation failed" of the install.
_PROCESS_CALLS: dict[str, tuple[str, ...]] = {
    stem(noun): tuple(stem(v) for v in verbs.split())
    for noun, verbs in [
        ("downgrade", "update modify"),
        ("upgrade", "update modify"),
        ("change", "update modify"),
        ("modification", "modify update"),
        ("cancellation", "cancel"),
        ("booking", "book"),
        ("installation", "install"),
        ("deployment", "deploy"),
    ]
}


def _subject_words(subject: str) -> list[str]:
    """The words of a subject, with the call verbs of the process it names."""
    words = [w for w in content_words(subject) if len(w) >= 3]
    return words + [v for w in words for v in _PROCESS_CALLS.get(w, ())]


def _entries_about(index: ReceiptIndex, subject: str) -> list[ReceiptEntry]:
    """Receipts sharing a word with ``subject``, newest first (all of them for generic subjects)."""
    words = _subject_words(subject)
    specific = [w for w in words if w not in _GENERIC_STEMS and w not in _TEST_STEMS]
    if not specific or _HOSTLIKE.search(subject.lower()):
        return list(reversed(index.entries))  # generic, or named by host: check them all
    found = sorted({i for w in specific for i in index.entries_by_word.get(w, ())}, reverse=True)
    return [index.entries[i] for i in found]


#: An identifier in a subject: letters and digits in one token ("hat052", "w1234567").
_IDENT = re.compile(r"\b(?=[a-z_-]*\d)(?=[0-9_-]*[a-z])[a-z0-9_-]{3,}\b")


def _other_ids(output: str, sentence: str) -> bool:
    """Whether a sentence names ids of the shape of those an error names (``hat003``
    against ``hat290``), none of them the error's: the failure it reports is another."""
    shown = {_SERIAL.sub(r"\1#", t) for t in _IDENT.findall(output)}
    said = [t for t in set(_IDENT.findall(sentence)) if _SERIAL.sub(r"\1#", t) in shown]
    return bool(said) and not any(t in output for t in said)


def _about_subject(entry: ReceiptEntry, subject: str) -> bool:
    words = _subject_words(subject)
    specific = [w for w in words if w not in _GENERIC_STEMS and w not in _TEST_STEMS]
    hosts = _HOSTLIKE.findall(subject.lower())
    if hosts and any(h in entry.text for h in hosts):
        return True  # "Postgres on db-01" and pg_isready -h db-01
    if specific:
        return any(w in entry.words or w in entry.text for w in specific)
    if set(words) & _TEST_STEMS:
        return bool(_CI_CONTEXT.search(entry.text.split("\n", 1)[0]))
    return False


#: A port a sentence names: "on port 8000", "at localhost:3000".
_PORT = re.compile(r"\bport\s+(\d{2,5})\b|:(\d{2,5})\b", re.IGNORECASE)
_SERVES = re.compile(
    r"\b(?:serving|listening|listen|running|started|ready|accepting)\b", re.IGNORECASE
)
_SERVE_FAILED = re.compile(
    r"\b\w*(?:Error|Exception)\b|Traceback|address already in use|EADDRINUSE|refused"
)


def _serving(index: ReceiptIndex, port: str, polarity: bool) -> Finding | None:
    """The newest call whose command or output names ``port``: a server it started (its
    output says it serves, listens or runs) backs "running on port N"; one that failed
    contradicts it."""
    on_port = re.compile(rf"(?<![\d.]){port}(?!\d)")
    for e in reversed(index.entries):
        if e.receipt.kind != "tool" or on_port.search(e.text) is None:
            continue
        rid = e.receipt.id
        if failed(e) or _SERVE_FAILED.search(e.receipt.content[:2000]):
            detail = f"contradicts {rid}: the call on port {port} failed"
            return Finding("contradicted", rid, "tool", detail) if polarity else None
        if _SERVES.search(e.receipt.content[:2000]):
            if polarity:
                return Finding("supported", rid, "tool", f"{rid}: serving on port {port}")
            return Finding(
                "contradicted", rid, "tool", f"contradicts {rid}: serving on port {port}"
            )
        return None
    return None


def _observe(entry: ReceiptEntry, base: str, subject: str = "") -> bool | None:
    """The state a receipt's output shows: True, False or None (says nothing).

    In a table (``docker ps``, ``kubectl get pods``) only the rows naming the
    subject count: an exited memcached says nothing about redis.
    """
    text = _rows_about(output_of(entry).text, subject).lower()
    if base == "full":
        # "the disk is full" against df: a volume at 95% or more is full.
        used = [int(p) for p in _USE_PERCENT.findall(text)]
        return max(used) >= 95 if used else None
    if base == "installed":
        if _NOT_FOUND.search(text) or entry.receipt.ok is False:
            return False
        if _reads_file(entry, subject):
            return True  # "hello.py already exists": a call read it (cat, view)
        if entry.receipt.ok is True or _VERSION_OUT.search(text):
            return True
        return None
    words = set(_WORD.findall(text))
    if words & _NEGATIVE or any(p in text for p in _NEGATIVE_PHRASES):
        return False  # "Active: inactive (dead)": the negative word decides
    if words & _POSITIVE:
        return True
    return None


#: A file a subject names: "the `hello.py` file", "config/settings.yaml".
_FILE_NAME = re.compile(r"[\w-]+\.[a-z][a-z0-9]{0,4}\b")


def _reads_file(entry: ReceiptEntry, subject: str) -> bool:
    """Whether a call that did not fail was made on the file the subject names (its path
    argument ends with that name): the file was there to be read."""
    names = _FILE_NAME.findall(subject)
    if not names or entry.receipt.kind != "tool" or not entry.receipt.args:
        return False
    paths = [v for v in entry.receipt.args.values() if isinstance(v, str) and len(v) < 300]
    return any(p == n or p.endswith("/" + n) for p in paths for n in names)


def _rows_about(text: str, subject: str) -> str:
    """The lines of a multi-line output that name the subject (all of it when none do)."""
    if "\n" not in text or not subject:
        return text
    low = text.lower()
    header = text.split("\n", 1)[0]
    if sum(1 for t in header.upper().split() if t.isalpha() and len(t) > 1) < 3 or (
        header != header.upper()
    ):
        return text  # not a table: a status block speaks about one thing throughout
    words = [w for w in re.findall(r"[a-z0-9][a-z0-9.-]+", subject.lower()) if len(w) > 2]
    words = [w for w in words if w not in _GENERIC_SUBJECTS]
    if not words:
        return text
    rows = [line for line in low.split("\n") if any(w in line for w in words)]
    return "\n".join(rows) if rows else text


def _flag_field(
    index: ReceiptIndex, claim: DetectedClaim, subject: str, sentence: str
) -> Finding | None:
    """ "Roaming is now enabled on 555-0142" against the newest true/false field named for
    the subject and the state (``roaming_enabled``, ``is_active``) of the record the
    sentence names by an id (any record with one of its ids: the line 555-0142 is line
    L-7781, which a later result shows); ``None`` when no record has one."""
    word = claim.assertion.lower().removeprefix("not_")
    if word not in _FLAG_STATES:
        return None
    said = content_words(subject) - _GENERIC_SUBJECTS
    if not said:
        return None
    named = {
        i
        for key in named_ids(sentence, index)
        for rec in index.records_by_id.get(key, ())
        for i in rec.ids
    }
    best = None
    for key, leaves in index.by_field.items():
        words = set(_WORD.findall(key.replace("_", " ")))
        if words == {word}:
            # "The Audit Log add-on isn't active" of ``"active": false``: the field is the
            # state alone, so the row is the one the subject names by a value of it
            leaves = described_rows([x for x in leaves if x.value.kind == "bool"], subject.lower())
        elif word not in words or not said & content_words(key.replace("_", " ")):
            continue
        for leaf in leaves:
            if named and not any(i in named for r in leaf.record.lineage() for i in r.ids):
                continue  # another record's flag
            if leaf.value.kind == "bool" and (
                best is None or index.position(leaf) >= index.position(best)
            ):
                best = leaf
    if best is None:
        return None
    held = best.value.shown == "true"
    r = index.receipt_of(best)
    line = f"{r.id} {best.path} = {best.value.shown}"
    if held != claim.negative:
        return Finding("supported", r.id, r.kind, line, best.path)
    return Finding("contradicted", r.id, r.kind, f"contradicts {line}", best.path)


#: States a true/false field is named for ("roaming_enabled", "is_active").
_FLAG_STATES = frozenset({"enabled", "disabled", "active", "activated", "locked", "verified"})


#: Subjects that stand for what the clause is about ("I ran the tests: everything is green").
_GENERAL = frozenset({"everything", "all", "it", "they", "them"})
_HOSTLIKE = re.compile(r"\b[a-z][a-z]*-?\d+[a-z0-9-]*\b")


def check_state(
    index: ReceiptIndex, claim: DetectedClaim, clause: str = "", sentence: str = ""
) -> Finding:
    """Checks "X is running / not installed / broken" against tool output about X."""
    state = claim_state(claim)
    subject = claim.subject.lower()
    if subject and (flag := _flag_field(index, claim, subject, sentence or clause)) is not None:
        return flag
    if state is None or not subject or subject == "self":
        return Finding("unsupported", None, None, "")
    base, polarity = state
    head = subject.split()[-1]
    if base == "running" and polarity and (script := _SCRIPT_FILE.search(subject)) is not None:
        # "The script `hello.sh` is working correctly": a run of that file shows it
        ran = dataclasses.replace(claim, category="action", assertion="ran", object=script[0])
        found = check_action(index, ran)
        if found.status != "unsupported":
            return found
    # "I ran the tests: everything is green": a general subject stands for what the
    # sentence is about
    about_tests = head in _GENERAL and bool(
        set(_WORD.findall((sentence or clause).lower())) & _TEST_SUBJECTS
    )
    if base == "running" and (head in _TEST_SUBJECTS or about_tests):
        # "The suite is green" / "the build is broken": a test run decides.
        runs = suite_runs(index)
        if not runs and not polarity:
            # "The empty table test failed" after a script the agent wrote to test with
            # failed (``python3 edge_cases.py``, exit code 1)
            runs = own_script_runs(ledger_view(index))
        if runs:
            # "Two tests were failing before the change": the first run
            run = runs[0] if AT_FIRST.search(sentence or clause) else runs[-1]
            outcome = suite_outcome(run)
            rid = run.receipt.id
            if outcome != "unknown":
                if (outcome == "passing") == polarity:
                    return Finding("supported", rid, "tool", f"{rid}: the test run is {outcome}")
                return Finding(
                    "contradicted", rid, "tool", f"contradicts {rid}: the test run is {outcome}"
                )
    if base == "running" and (port := _PORT.search(clause or sentence)) is not None:
        # "The application is now running on port 8000": the call that serves on it
        serving = _serving(index, port.group(1) or port.group(2), polarity)
        if serving is not None:
            return serving
    if base == "running" and (claim.assertion.endswith("started") or head in _ACT_HEADS):
        # "The return process has been started": the act, begun by the call that does it
        # (return_delivered_order_items), not a process an output shows running
        act = _act_named(index, subject)
        if act is not None:
            rid = act.receipt.id
            done = not failed(act)
            shown = f"the {act.receipt.tool} call {'succeeded' if done else 'failed'}"
            if done == polarity:
                return Finding("supported", rid, "tool", f"{rid}: {shown}")
            return Finding("contradicted", rid, "tool", f"contradicts {rid}: {shown}")
    idents = _IDENT.findall(subject)
    entries = _entries_about(index, subject)
    said = set(re.findall(r"[a-z][a-z0-9_-]+", (sentence or clause or subject).lower()))
    commanded = [e for e in entries if e.receipt.kind == "tool" and command_names(e) & said]
    for e in commanded or entries:
        # "My curl to /healthz timed out": the curl, not a later status of the service
        if e.receipt.kind not in ("tool", "web", "db", "memory") or not _about_subject(e, subject):
            continue
        if e.receipt.kind == "tool" and sends(e.receipt.tool):
            continue  # a message the agent posted echoes its own words, no observation
        if idents and failed(e) and not any(t in e.receipt.content.lower() for t in idents):
            continue  # "Error: flight HAT030 not available" says nothing of HAT052
        if failed(e) and _other_ids(e.receipt.content.lower(), (sentence or clause).lower()):
            continue  # "the downgrade failed because HAT003 ..." of an error about HAT290
        if is_data_format(e.format) and base in ("installed", "exists"):
            continue  # a data document's field is no installed package: records decide
        if is_data_format(e.format) and any(index.records_by_id.get(i.lower()) for i in idents):
            continue  # a record the subject names by its id: its own state field decides
            # (the text around its id holds its neighbours' states too)
        if names_other_host(_HOSTLIKE.findall(clause.lower()), e.text.split("\n", 1)[0]):
            continue  # the clause names build-03; this is build-02's output
        observed = _observe(e, base, subject)
        if observed is None:
            continue
        rid = e.receipt.id
        shown = f"{'' if observed else 'not '}{base}"
        if observed == polarity:
            return Finding("supported", rid, e.receipt.kind, f"{rid}: output shows {shown}")
        return Finding(
            "contradicted",
            rid,
            e.receipt.kind,
            f"contradicts {rid}: the output shows {subject} {shown}, claimed "
            f"{'' if polarity else 'not '}{base}",
        )
    return Finding("unsupported", None, None, "")


#: What a business act is called as a process: "the return process", "the exchange request".
_ACT_HEADS = frozenset({"process", "request"})


def _act_named(index: ReceiptIndex, subject: str) -> ReceiptEntry | None:
    """The newest call of a changing tool whose verb the subject names ("the return
    process" and ``return_delivered_order_items``); ``None`` when none is."""
    said = {root(w) for w in content_words(subject) if w not in _GENERIC_SUBJECTS}
    if not said:
        return None
    for e in reversed(tool_calls(index)):
        tool = e.receipt.tool or ""
        if not READ_TOOL.match(tool) and tool_root(tool) in said:
            return e
    return None


#: The new text of a change: 'changed "typoo" to "typo"'.
_SCRIPT_FILE = re.compile(r"[\w./-]+\.(?:sh|bash|py|js|ts|rb|pl|php|go|rs|java|ps1)\b")


_TEST_STEMS = frozenset(stem(w) for w in _TEST_SUBJECTS)
_GENERIC_STEMS = frozenset(stem(w) for w in _GENERIC_SUBJECTS)


_SERIAL = re.compile(r"([a-z][a-z-]*?[-_.]?)\d+")


def names_other_host(names: Iterable[str], text: str) -> bool:
    """The sentence names hosts (``web-02``); the text names none of them but a sibling.

    "web-02" in the sentence and only "web-01" in the receipt: another host, another
    value. ``text`` is lowercased.
    """
    serial = [(n, m.group(1)) for n in names if (m := _SERIAL.fullmatch(n))]
    if not serial or any(n in text for n, _ in serial):
        return False
    return any(re.search(rf"\b{re.escape(prefix)}\d", text) for _, prefix in serial)
