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
import re
from datetime import datetime

from receiptgate.checks.action_rows import CHANGING, named_row_ids, other_row_acted
from receiptgate.checks.builds import (
    BUILD_SUBJECT,
    CHECK_SUBJECT,
    build_outcome,
    build_runs,
    check_runs,
)
from receiptgate.checks.calls import (
    AT_FIRST,
    ERRORISH,
    FAILING,
    PASSING,
    READ_TOOL,
    _LedgerView,
    act_failed,
    call_head,
    calls_for,
    failed,
    ledger_view,
    output_of,
    own_script_runs,
    runs_suite,
    suite_outcome,
    tool_name_words,
    writes,
)
from receiptgate.checks.card_digits import digits_owners
from receiptgate.checks.channels import other_channel
from receiptgate.checks.consequences import documented_sending
from receiptgate.checks.edits import fix_undone
from receiptgate.checks.finding import Finding
from receiptgate.checks.objects import GENERIC_OBJECTS, ObjectMatcher
from receiptgate.checks.passive_states import state_held
from receiptgate.checks.payments import amounts, minor_units
from receiptgate.checks.words import content_words
from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

_HTTP_STATUS = re.compile(
    r"(?:HTTP/\d(?:\.\d)?\s+|status(?:_code|Code)?[\"']?\s*[:=]\s*[\"']?|\bstatus\s+|"
    r"\bresponse\s+code\s*:?\s*|\bcode\s*[:=]\s*)([1-5]\d\d)\b"
)

_NO_ERRORS = re.compile(r"\bno\s+(?:errors?|exceptions?|failures?)")

_LOG_ERROR = re.compile(r"\b(?:ERROR|FATAL|CRITICAL|Exception|Traceback|panic)\b")

#: Verbs of a change to an existing record that an update call performs.
_CHANGE_VERB = re.compile(r"\b(?:upgraded|downgraded|added|upgrade|downgrade|add)\b", re.I)

_UP_DOWN = re.compile(r"\b(?:up|down)grade|\bmoved\s+(?:up|down)\b", re.I)

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
    # "our records show it as delivered": whatever the tools returned about it
    "records": "any",
    "record": "any",
    "crm": "crm",
    "api": "api",
    "dashboard": "dashboard",
    "metrics": "dashboard",
    "monitoring": "dashboard",
    "analytics": "dashboard",
}

_ENVS = re.compile(r"\b(prod|production|staging|stage|dev|development|test|qa|preview|sandbox)\b")

_ENV_CANON = {"prod": "production", "stage": "staging", "development": "dev"}


#: Verbs of an attempt: true of a call that failed, when the reply says it failed.
ATTEMPTS = frozenset({"submitted", "tried", "attempted"})


#: Verbs whose subject may be a refund ("has been added back", "has been processed").
_MOVES_A_REFUND = frozenset({"created", "requested", "fixed", "sent", "transferred"})
_REFUND_SUBJECT = re.compile(r"\brefunds?\b", re.IGNORECASE)

#: A passive of confirming: what was confirmed was done ("has been confirmed").
_BEEN_CONFIRMED = re.compile(r"\b(?:been|is|are|was|were)\s+(?:now\s+)?confirmed\b", re.I)


#: What a fix is of when it names no file or thing: "the issue with ...", "the bug".
_PROBLEM = re.compile(
    r"^\W*(?:the\s+|this\s+|that\s+)?(?:issues?|bugs?|problems?|crash(?:es)?|regressions?|"
    r"segfaults?)\b",
    re.I,
)

#: "I've moved your physical to Thursday": a visit rescheduled as much as a file moved.
_MOVED = re.compile(r"\bmoved\b", re.I)
#: "I've started a return", "the claim has been started": a process opened (a
#: create_return call), not a service started again.
_STARTED = re.compile(r"\bstart(?:ed|s)?\b", re.I)

#: The verbs of a look-up, no word of what was looked up.
_LOOKUP_VERBS = content_words("found find checked check looked look reviewed review pulled up")


#: An object that names nothing read but the choices: "all available options".
_OPTIONS = content_words(
    "all available options option everything possibilities alternatives choices every"
)

#: What the operator's documents are called: "our policy", "the rules", "the terms".
_RULES = content_words("policy policies rule rules guideline guidelines terms conditions")


#: A claim about the whole suite: "the full test suite", "the entire suite".
_WHOLE_SUITE = re.compile(
    r"\b(?:full|entire|whole|complete)\s+(?:test\s+)?suite\b|\bwhole\s+test", re.IGNORECASE
)


def _rules_read(index: ReceiptIndex, claim: DetectedClaim, tail: str = "") -> Finding | None:
    """ "I've double-checked our policy regarding cancellations", "I've reviewed all
    available options under our policies": a read of the operator's documents (a system or
    developer message, a retrieved passage), which the receipts hold, not a tool call;
    ``None`` when the object (or, after an object of the choices alone, the words right
    after it) names no such document or none is held."""
    said = content_words(claim.object or "")
    if said <= _OPTIONS:
        # "all available options under our policies": what was reviewed is said after
        said = content_words(f"{claim.object or ''} {tail[:60]}")
    if not said & _RULES:
        return None
    doc = next((e.receipt for e in index.entries if e.receipt.kind == "rag"), None)
    if doc is None:
        return None
    return Finding("supported", doc.id, doc.kind, f"{doc.id}: the operator's documents")


def check_action(
    index: ReceiptIndex, claim: DetectedClaim, tail: str = "", *, failure_told: bool = False
) -> Finding:
    """Checks one ``action`` claim against the tool receipts.

    ``tail`` is the rest of the sentence after the claim ("... to report.csv",
    "... to production", "... no errors"); ``failure_told``: the reply says the attempt
    went wrong, so an attempt verb (``ATTEMPTS``) is true of a call that failed.
    """
    kind = claim.assertion
    if kind in _MOVES_A_REFUND and _REFUND_SUBJECT.search(claim.object or ""):
        # "the refund of $109.27 has been added back to your gift card", "the refund has
        # been processed": the call that refunded (a cancellation's negative payment row)
        kind = "refunded"
        claim = dataclasses.replace(claim, assertion=kind)
    if kind == "checked" and _BEEN_CONFIRMED.search(claim.matched_text):
        # "Your booking has been confirmed": the booking was made; "your identity has been
        # confirmed": it was looked up
        made = check_action(index, dataclasses.replace(claim, assertion="requested"), tail)
        if made.status == "supported":
            return made
    if kind == "saved" and _MOVED.search(claim.matched_text):
        # "I've moved your physical to Thursday": a visit rescheduled, as much as a file moved
        made = check_action(index, dataclasses.replace(claim, assertion="fixed"), tail)
        if made.status == "supported":
            return made
    if kind == "restarted" and _STARTED.search(claim.matched_text):
        made = check_action(index, dataclasses.replace(claim, assertion="requested"), tail)
        if made.status == "supported":
            return made
    view = ledger_view(index)
    tools = view.tools
    if kind in ("tests_pass", "tests_fail", "ran_tests"):
        runs = view.test_runs
        said = claim.matched_text
        outcome_of = suite_outcome
        if kind != "ran_tests" and CHECK_SUBJECT.search(said) and (checked := check_runs(index)):
            # "the type check passes", "Ruff is clean": the checker's run
            runs, outcome_of = checked, build_outcome
        elif kind != "ran_tests" and BUILD_SUBJECT.search(said) and (built := build_runs(index)):
            # "The production build succeeded", "the Docker build failed": the build's run
            runs, outcome_of = built, build_outcome
        commanded = ObjectMatcher.of(claim, tail)
        if commanded.commands:
            # "I ran `ruff format src tests`": a run of that command, not of another checker
            runs = [e for e in view.tools if commanded(e)]
            if not runs:
                return Finding("unsupported", None, None, f"no call ran {claim.object!r}")
        if _WHOLE_SUITE.search(f"{claim.matched_text} {tail}"):
            # "I ran the full test suite": a runner's run, not a test file run as a script
            runs = [e for e in runs if runs_suite(e)]
        if not runs and kind == "tests_fail":
            # "The empty table test failed" after ``python3 edge_cases.py`` exited 1: a
            # script the agent wrote to test with, whose run failed
            runs = own_script_runs(view)
        if not runs:
            return Finding("unsupported", None, None, "no test run in the action ledger")
        if len(runs) > 1 and AT_FIRST.search(f"{claim.matched_text} {tail}"):
            runs = runs[:1]  # "Two tests were failing before the change": the first run
        last = runs[-1]
        outcome = outcome_of(last)
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
        shown = snippet(output_of(last).text, FAILING if outcome == "failing" else PASSING)
        return Finding(
            "contradicted",
            rid,
            "tool",
            f"contradicts {rid}: the test run is {outcome} ({shown}), "
            f"claimed {'passing' if kind == 'tests_pass' else 'failing'}",
        )
    if kind == "test_tally":
        # "The type check reports 2 errors" with no test run: the checker's or the build's
        runs = view.test_runs or check_runs(index) or build_runs(index)
        # "`tsc --noEmit` reported 2 errors" after a jest run: the run of the tool the
        # sentence names
        named = _RUNNER.findall(tail.lower())
        if named:
            ran = {id(e) for e in (*view.test_runs, *check_runs(index), *build_runs(index))}
            runs = [
                e
                for e in index.entries  # (in the order they ran)
                if id(e) in ran
                and any(re.search(rf"\b{n}\b", e.text.split("\n", 1)[0].lower()) for n in named)
            ] or runs
        return _check_tally(runs, claim.value or "")
    if kind == "api_returned":
        return _check_status(index, claim)
    if kind == "printed":
        return _check_output(index, claim)
    if kind in ("logs_show", "according_to"):
        return _check_source(index, claim, tail)
    if kind == "checked" and (doc := _rules_read(index, claim, tail)) is not None:
        return doc
    if kind == "forged_label":
        return Finding("unsupported", None, None, "verification label")
    matching = calls_for(view, kind)
    if not matching and kind in ("checked", "ran"):
        matching = tools
    about = ObjectMatcher.of(claim, tail)
    if about.commands:
        # "I created the branch with `git switch -c x`": the command named decides
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
    mentioned = [e for e in matching if about(e) and not _on_another(view, about, e)]
    if kind == "fixed" and (_PROBLEM.match(claim.object or "") or _PROBLEM.match(tail)):
        # "The issue with the `ponyc` compiler segfaulting has been addressed": a problem
        # is fixed by the edits that worked, not by a command that names the tool
        edits = [e for e in matching if writes(e.text, e.receipt.content) and not failed(e)]
        mentioned = edits or mentioned
    if not mentioned and kind == "checked" and claim.object and not about.commands:
        # "I found your Atlanta to Philadelphia reservation", "I checked the same itinerary
        # and dates": the object phrase goes on past the words read as its name; a look-up
        # whose call or result shares its words (the reservation, the dates) did it
        phrase = content_words(tail) - GENERIC_OBJECTS - _LOOKUP_VERBS
        mentioned = [
            e for e in matching if phrase and len(phrase & e.words) * 2 >= min(len(phrase), 2)
        ]
    if not mentioned and claim.object and (owners := digits_owners(index, claim.object)):
        # "your Mastercard ending in 4336 has been refunded": a call on that card's record
        # (its id, credit_card_8554680, in the call's arguments or result)
        mentioned = [e for e in matching if _acts_on(e, owners, kind)]
    rows = named_row_ids(index, claim, tail) if kind in CHANGING and not about.commands else {}
    on_rows = [e for e in matching if any(i in view.heads[id(e)] for i in rows)]
    if not mentioned and on_rows:
        # "I've cancelled your consultation with Dr. Leah Whitfield": a call on the id of
        # the row the sentence names by a name (her appointment, APT-58450)
        mentioned = on_rows
    elif mentioned and rows and not on_rows:
        # "I've cancelled your appointment with Dr. Anita Rao" after the cancellation of
        # Dr. Whitfield's: the call acted on another row of the same kind
        other = other_row_acted(index, view.heads[id(mentioned[-1])], rows)
        if other is not None:
            rid = mentioned[-1].receipt.id
            detail = f"contradicts {rid}: the call acted on {other}, not the row named"
            return Finding("contradicted", rid, "tool", detail)
    if not mentioned and (to := _CHANGED_TO.search(tail)) is not None:
        # 'Changed "typoo" to "typo"': the edit holds the new text, not the old
        about = ObjectMatcher.of(dataclasses.replace(claim, object=to.group(1)), tail)
        mentioned = [e for e in matching if about(e)]
    # "both reservations have been moved down to economy": a downgrade
    moved = claim.value == "moved" and _UP_DOWN.search(tail) is not None
    if (
        not mentioned
        and not about.commands
        and (_CHANGE_VERB.search(claim.value or claim.matched_text) or moved)
    ):
        # "the cabin has been upgraded", "two bags have been added to your reservation": a
        # change to a record, done by an update call whose name or arguments name the
        # object (a flights update whose result lists total_baggages added no bag)
        # "Noah has been upgraded to business class": the passenger is in the result, the
        # new cabin in the call's arguments
        grade = _UP_DOWN.search(claim.value or claim.matched_text) is not None or moved
        target = content_words(tail) - GENERIC_OBJECTS
        mentioned = [
            e
            for e in calls_for(view, "fixed")
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
    if not mentioned and claim.object and claim.value:
        # "A $50 certificate (ID: certificate_3221322) has been added": send_certificate's
        # result says "Certificate certificate_3221322 added to user ...", the act in the
        # tool's own words on the object the sentence names
        mentioned = _reported_by_result(view.tools, claim.object, claim.value)
    if not mentioned and kind == "sent":
        # "An email with return steps has been sent": what the documents say follows a
        # return the agent made
        said = f"{claim.subject} {claim.matched_text} {claim.object or ''} {tail}"
        if (sent := documented_sending(index, said)) is not None:
            return sent
    if not mentioned and kind in CHANGING and claim.object and not about.idents:
        # "I've placed a $400 deposit hold" after authorize_deposit_hold: a call that
        # changes something, named for two words of what the sentence says was acted on
        # (an object named by its id is the id's: "order #W1's address")
        named_for = content_words(claim.object) - GENERIC_OBJECTS
        mentioned = [
            e
            for e in tools
            if len(named_for & tool_name_words(e)) >= 2
            and not READ_TOOL.match(e.receipt.tool or "")
        ]
    if not mentioned and (held := state_held(index, claim)) is not None:
        # "Your request has been approved" (by the manager): the state the request holds
        return held
    if not mentioned:
        what = f" on {claim.object!r}" if claim.object else ""
        return Finding("unsupported", None, None, f"no {kind} call{what} in the action ledger")
    days = _days(tail, index.now) if kind in ("checked", "searched", "queried") else frozenset()
    dated = [e for e in mentioned if _arg_days(e)]
    if days and dated and dated[-1] is mentioned[-1]:
        # "I also checked flights for May 14": the searches asked for other days
        on_day = [e for e in dated if _arg_days(e) & days]
        if not on_day:
            last = dated[-1]
            asked, said = ", ".join(sorted(_arg_days(last))), ", ".join(sorted(days))
            detail = f"contradicts {last.receipt.id}: the call asked for {asked}, not {said}"
            return Finding("contradicted", last.receipt.id, "tool", detail)
    # The latest call that did it: a failed attempt followed by one that worked is
    # done; only when every attempt failed is the claim contradicted.
    worked = [e for e in mentioned if not act_failed(e)]
    best = worked[-1] if worked else mentioned[-1]
    if len(worked) > 1 and (object_words := content_words(claim.object or "") - GENERIC_OBJECTS):
        # "Return request submitted" after a return and a later modify: the call whose tool
        # the object names is the one that did it, whichever came last
        named = [e for e in worked if object_words & tool_name_words(e)]
        best = named[-1] if named else best
    rid = best.receipt.id
    env = _env_conflict(best, tail)
    if env is not None:
        return Finding(
            "contradicted",
            rid,
            "tool",
            f"contradicts {rid}: the call targeted {env[1]}, the sentence says {env[0]}",
        )
    if act_failed(best) and kind not in ("checked", "searched", "queried"):
        why = f"{rid}: the {best.receipt.tool or 'tool'} call failed " + (
            f"({snippet(best.receipt.content, ERRORISH)})"
        )
        if failure_told and claim.value in ATTEMPTS:
            # "I submitted the change request ... The system rejected it": the attempt
            # was made and failed, as the reply itself says
            return Finding("supported", rid, "tool", f"{why}, as the reply says")
        return Finding("contradicted", rid, "tool", f"contradicts {why}")
    if kind == "fixed" and worked:
        # "The typo has been corrected" after an edit that changed nothing, "the duplicate
        # line has been removed" with as many lines as before, a fix of an empty file
        undone = fix_undone(view.tools, worked, f"{claim.matched_text} {claim.object or ''}")
        if undone is not None:
            return Finding("contradicted", rid, "tool", f"contradicts {undone}")
    if kind == "refunded" and (went := _refunded_elsewhere(best, tail)) is not None:
        # "the $30.78 difference has been refunded to your gift card" when the call's
        # refund row went to PayPal
        return Finding("contradicted", rid, "tool", f"contradicts {rid}: {went}")
    if (other := _other_amount(best, claim)) is not None:
        # "I've applied a $35.00 credit" when apply_bill_credit(amount=30.0) ran
        return Finding("contradicted", rid, "tool", f"contradicts {rid}: {other}")
    if kind == "sent" and (other := other_channel(best, f"{claim.matched_text} {tail}")):
        # "I've sent it by text message" when the call sent an e-mail
        return Finding("contradicted", rid, "tool", f"contradicts {rid}: {other}")
    return Finding("supported", rid, "tool", f"{rid}: {best.receipt.tool or 'tool'} call")


def _other_amount(e: ReceiptEntry, claim: DetectedClaim) -> str | None:
    """The amount a call was made with, when the claim says the act was of another amount
    ("applied a $35.00 credit" of a call whose ``amount`` argument is 30.0); ``None`` when
    the claim names no amount, the call has no ``amount`` argument, or one is the same."""
    said = amounts(f"{claim.matched_text} {claim.object or ''}")
    args = e.receipt.args or {}
    given = [
        (k, float(v))
        for k, v in args.items()
        if "amount" in str(k).lower() and isinstance(v, int | float) and not isinstance(v, bool)
    ]
    if not said or not given or any(abs(x - v) < 0.005 for x in said for _, v in given):
        return None
    if minor_units(e) and any(abs(x - v / 100) < 0.005 for x in said for _, v in given):
        return None  # Stripe's refund(amount=1250) beside "currency": "usd" is $12.50
    key, value = given[0]
    return f"the call's {key} is {value:g}, claimed {', '.join(f'{x:g}' for x in said)}"


def _reported_by_result(tools: list[ReceiptEntry], obj: str, verb: str) -> list[ReceiptEntry]:
    """The changing calls (no look-up) whose result reports the act on the object in its
    own words: the object's id and the verb ("added") both in the result."""
    ids = [t for t in re.findall(r"[\w#-]*\d[\w#-]*", obj) if len(t) >= 4]
    word = verb.lower().split()[-1] if verb.strip() else ""
    if not ids or len(word) < 4:
        return []
    verb_re = re.compile(rf"\b{re.escape(word)}\b", re.IGNORECASE)
    return [
        e
        for e in tools
        if not READ_TOOL.match(e.receipt.tool or "")
        and all(i.lower() in e.receipt.content.lower() for i in ids)
        and verb_re.search(e.receipt.content)
    ]


#: The method a refund is said to go to: "to your gift card", "to the PayPal account".
_REFUND_TO = re.compile(
    r"\b(?:to|onto|into|on)\s+(?:your|the|a|an)?\s*(?:original\s+|existing\s+)?"
    r"(gift\s+card|paypal|credit\s+card|debit\s+card|visa|mastercard|card)\b",
    re.IGNORECASE,
)
_METHOD_KIND = {
    "gift card": "gift_card",
    "paypal": "paypal",
    "credit card": "credit_card",
    "debit card": "credit_card",
    "visa": "credit_card",
    "mastercard": "credit_card",
    "card": "card",
}


def _refunded_elsewhere(e: ReceiptEntry, tail: str) -> str | None:
    """Where a call's newest refund row went, when the sentence names another kind of
    method for it; ``None`` when it names none, or the call records no refund row."""
    m = _REFUND_TO.search(tail)
    if m is None:
        return None
    claimed = _METHOD_KIND[" ".join(m.group(1).lower().split())]
    went: str | None = None
    for rec in e.records:
        for row in rec.subtree():
            kinds = {x.key.lower(): x.value.shown.strip().lower() for x in row.leaves}
            if kinds.get("transaction_type") == "refund" and kinds.get("payment_method_id"):
                went = kinds["payment_method_id"]
    if went is None or went.startswith(claimed) or (claimed == "card" and "card" in went):
        return None
    return f"the refund went to {went}, claimed {m.group(1)}"


#: Test runners, type checkers and linters a sentence may name its tally's run by.
_RUNNER = re.compile(
    r"\b(tsc|eslint|jest|vitest|mocha|pytest|mypy|ruff|flake8|pylint|pyright|rubocop|"
    r"clippy|biome|phpstan|golangci-lint)\b"
)

#: One count of a tally, in a reply or a runner's report: "3 passed", "1 test failed",
#: "failures=2" (unittest).
_TALLY_COUNT = re.compile(
    r"(?<![\w.,/-])(\d{1,6})\s+(?:(?:unit\s+|new\s+)?tests?\s+|test\s+cases?\s+)?"
    r"(passed|passing|failed|failing|failures?|errors?|errored|skipped|xfailed|xpassed|"
    r"deselected)\b|\b(failures|errors|skipped)=(\d{1,6})\b",
    re.IGNORECASE,
)

#: A report's line of test counts: "Tests:       1 failed, 17 passed, 18 total".
_TESTS_LINE = re.compile(r"^\s*Tests:\s+(.*\btotal)\s*$", re.MULTILINE)

_TALLY_WORD = {
    "passing": "passed",
    "failing": "failed",
    "failure": "failed",
    "failures": "failed",
    "error": "errors",
    "errored": "errors",
}


def tally(text: str) -> dict[str, int]:
    """The counts of a tally by outcome ("1 failed, 3 passed" -> failed 1, passed 3); of
    a runner's report, the last count of each outcome (its closing summary)."""
    out: dict[str, int] = {}
    tests_line = _TESTS_LINE.search(text)
    if tests_line is not None:
        # Jest's report counts suites, tests and snapshots on lines of their own: the
        # tests are what a reply's tally counts
        text = tests_line.group(1)
    for m in _TALLY_COUNT.finditer(text):
        if m.group(1) is not None:
            word, n = m.group(2).lower(), int(m.group(1))
        else:
            word, n = m.group(3).lower(), int(m.group(4))
        out[_TALLY_WORD.get(word, word)] = n
    return out


#: One test binary's tally line: cargo's "test result: ok. 7 passed; 0 failed; ...".
_RESULT_LINE = re.compile(r"(?m)^\s*test result:.*$")


def _binary_tallies(text: str) -> list[dict[str, int]]:
    """The tallies of a run of several test binaries, each binary's and then their sum
    (last, as the run's own); empty for a run with one tally line or none."""
    lines = _RESULT_LINE.findall(text)
    if len(lines) < 2:
        return []
    each = [tally(line) for line in lines]
    total: dict[str, int] = {}
    for t in each:
        for word, n in t.items():
            total[word] = total.get(word, 0) + n
    return [*each, total]


def _check_tally(runs: list[ReceiptEntry], said: str) -> Finding:
    """ "1 failed, 3 passed" against the tallies the test runs reported: backed by a run
    that reported every count (an earlier run counts: "before the fix, 2 failed");
    contradicted when the newest readable tally disagrees; a count of zero of an outcome
    the run does not list ("0 failed" beside "4 passed") agrees with it."""
    claimed = tally(said)
    if not claimed:
        return Finding("unsupported", None, None, "")
    if not runs:
        return Finding("unsupported", None, None, "no test run in the action ledger")
    told = [(e, t) for e in runs if (t := tally(output_of(e).text))]
    if not told:
        rid = runs[-1].receipt.id
        return Finding("unsupported", rid, "tool", f"{rid}: the test run's tally is not readable")
    # a run of several test binaries (cargo's "test result:" per crate) tallies each
    # binary, and all of them together (the newest of these is the run's)
    told = [(e, t) for e, _ in told for t in _binary_tallies(output_of(e).text)] or told
    for e, t in reversed(told):
        if all(t.get(word, 0) == n for word, n in claimed.items()):
            rid = e.receipt.id
            return Finding(
                "supported", rid, "tool", f"{rid}: the test run reported {_tally_line(t)}"
            )
    e, t = told[-1]
    rid = e.receipt.id
    detail = f"contradicts {rid}: the test run reported {_tally_line(t)}, not {said}"
    return Finding("contradicted", rid, "tool", detail)


def _tally_line(t: dict[str, int]) -> str:
    return ", ".join(f"{n} {w}" for w, n in t.items())


def _on_another(view: _LedgerView, about: ObjectMatcher, e: ReceiptEntry) -> bool:
    """Whether a call that shares some of an object's words was made on another thing:
    a word of the object that the call does not hold names what another call was made
    on ("I restarted the api deployment" and ``kubectl rollout restart
    deployment/worker``, when ``helm upgrade api`` is another call)."""
    if about.idents or about.anything or len(about.words) < 2:
        return False
    shared = about.words & e.words
    if not shared or not shared <= _KIND_NOUNS:
        return False  # the call holds a name of the object, not only what kind it is
    missing = about.words - e.words - GENERIC_OBJECTS - _KIND_NOUNS
    return any(missing & other.context_words for other in view.tools if other is not e)


#: What kind of thing an object is ("the api deployment"): shared by every call on a
#: thing of that kind, so no name of which one.
_KIND_NOUNS = content_words(
    "deployment deployments service services pod pods container containers node nodes job "
    "jobs cronjob release releases namespace database table branch repository repo bucket "
    "queue topic server host instance cluster volume secret configmap ingress image "
    "images function module package directory folder script job task process daemon"
)


def _check_output(index: ReceiptIndex, claim: DetectedClaim) -> Finding:
    """ "It prints 'hello'": a call's output (or a file it wrote) holds those words."""
    wanted = " ".join((claim.value or "").lower().split())
    if not wanted:
        return Finding("unsupported", None, None, "")
    view = ledger_view(index)
    writes = {id(e) for e in calls_for(view, "saved")}
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
    view = ledger_view(index)
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


def _acts_on(e: ReceiptEntry, owners: frozenset[str], kind: str) -> bool:
    """Whether a call acted on one of the records ``owners`` names: a refund needs a row of
    its result that is a refund to one of them (a payment row of the same card is none);
    another act, the record's id anywhere in the call."""
    if kind != "refunded":
        return any(o in e.text for o in owners)
    for rec in e.records:
        shown = [leaf.value.shown.lower() for leaf in rec.leaves]
        if any(v in owners for v in shown) and any("refund" in v for v in shown):
            return True
    return False


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
    actual = {_ENV_CANON.get(m, m) for m in _ENVS.findall(call_head(entry).lower())}
    if actual and not claimed & actual:
        return sorted(claimed)[0], sorted(actual)[0]
    return None


def _days(text: str, now: datetime) -> frozenset[str]:
    """The days a clause names, as ISO dates."""
    return frozenset(
        h.value[:10]
        for h in extract_hard_facts(text, now=now)
        if h.kind == "date" and h.value and len(h.value) >= 10
    )


def _arg_days(e: ReceiptEntry) -> frozenset[str]:
    """The days a call's arguments name ("date": "2024-05-13")."""
    return frozenset(
        str(v)[:10]
        for v in (e.receipt.args or {}).values()
        if isinstance(v, str) and _ISO_DAY.match(v)
    )


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
