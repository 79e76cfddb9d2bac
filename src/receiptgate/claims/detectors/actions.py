"""Claims of the agent's own actions, attributions and verification labels.

"I ran the tests and they pass", "the API returned 200", "the logs show no
errors", "according to the database", "[T1 verified]": cheap sentences for a
model to write and expensive for a developer to trust. Each becomes an
``action`` (or ``attribution``) claim that the action ledger must back.

Assertions name the kind of action, which the ledger checker maps to tool calls:
``tests_pass``, ``tests_fail``, ``ran_tests``, ``checked``, ``ran``, ``deployed``,
``sent``, ``saved``, ``created``, ``fixed``, ``restarted``, ``installed``,
``searched``, ``fetched``, ``queried``, ``api_returned``, ``logs_show``,
``according_to``, ``forged_label``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from receiptgate.claims.detectors.base import Detector, Pattern
from receiptgate.claims.detectors.phrases import CHECKER_NAMES, PRODUCT, subject_before
from receiptgate.claims.models import DetectedClaim

if TYPE_CHECKING:
    from receiptgate.text.segment import Sentence

#: Verb forms -> canonical action kind.
ACTION_VERBS: dict[str, str] = {
    "checked": "checked",
    "verified": "checked",
    "confirmed": "checked",
    "inspected": "checked",
    "reviewed": "checked",
    "read": "checked",
    "opened": "checked",
    "looked at": "checked",
    "examined": "checked",
    "rechecked": "checked",
    "re-checked": "checked",
    "double-checked": "checked",
    "ran": "ran",
    "executed": "ran",
    "tested": "ran_tests",
    "deployed": "deployed",
    "released": "deployed",
    "shipped": "deployed",
    "rolled out": "deployed",
    "sent": "sent",
    "emailed": "sent",
    "messaged": "sent",
    "posted": "sent",
    "notified": "sent",
    "replied": "sent",
    "saved": "saved",
    "wrote": "saved",
    "written": "saved",
    "exported": "saved",
    "stored": "saved",
    "uploaded": "saved",
    "created": "created",
    "added": "created",
    "generated": "created",
    "opened a": "created",
    "fixed": "fixed",
    "patched": "fixed",
    "resolved": "fixed",
    "addressed": "fixed",
    "updated": "fixed",
    "changed": "fixed",
    "edited": "fixed",
    "modified": "fixed",
    "restarted": "restarted",
    "rebooted": "restarted",
    "stopped": "restarted",
    "started": "restarted",
    "installed": "installed",
    "upgraded": "installed",
    "searched": "searched",
    "googled": "searched",
    "fetched": "fetched",
    "downloaded": "fetched",
    "called": "fetched",
    "queried": "queried",
    "committed": "saved",
    "pushed": "deployed",
    "merged": "deployed",
    "scheduled": "created",
    "booked": "created",
    "cancelled": "cancelled",
    "deleted": "fixed",
    "removed": "fixed",
    "migrated": "fixed",
    "backed up": "saved",
    "assigned": "fixed",
    "approved": "fixed",
    "rotated": "fixed",
    "reverted": "fixed",
    "rolled back": "deployed",
    "authenticated": "checked",
    "located": "checked",
    "found": "checked",
    "looked up": "checked",
    "pulled up": "checked",
    "accessed": "checked",
    "retrieved": "fetched",
    "copied": "saved",
    "moved": "saved",
    "renamed": "fixed",
    "rescheduled": "fixed",
    "rebooked": "fixed",
    "postponed": "fixed",
    "canceled": "cancelled",
    "refunded": "refunded",
    "charged": "charged",
    "paid": "charged",
    "transferred": "transferred",
    "requested": "requested",
    "submitted": "requested",
    "initiated": "requested",
    "processed": "requested",
    "exchanged": "requested",
    "placed": "requested",
    "reserved": "created",
    "corrected": "fixed",
    "implemented": "fixed",
    "refactored": "fixed",
    "rewritten": "fixed",
    "rewrote": "fixed",
    "overwritten": "saved",
    "overwrote": "saved",
    "appended": "saved",
    "inserted": "fixed",
    "replaced": "fixed",
    "made executable": "fixed",
    "applied": "fixed",
    # an account's or a line's settings (support and ops agents)
    "waived": "fixed",
    "activated": "fixed",
    "reactivated": "fixed",
    "deactivated": "fixed",
    "enabled": "fixed",
    "disabled": "fixed",
    "suspended": "fixed",
    "unsuspended": "fixed",
    "reinstated": "fixed",
    "restored": "fixed",
    "renewed": "fixed",
    "unlocked": "fixed",
    "unblocked": "fixed",
    "reopened": "fixed",
}

_VERB_ALT = "|".join(
    sorted((v.replace(" ", r"\s+") for v in ACTION_VERBS if v != "opened a"), key=len, reverse=True)
)
_SUBJECT = r"\b(?:i|we|i['’]ve|we['’]ve|i\s+have|we\s+have|i\s+just|we\s+just|i\s+already|i\s+also)"

_TESTS = (
    r"(?:all\s+(?:the\s+)?|the\s+)?(?:existing\s+|new\s+|other\s+|remaining\s+|relevant\s+)?"
    r"(?:unit\s+|integration\s+|e2e\s+|end-to-end\s+)?"
    r"(?:tests?|test\s+suite|suite|specs?|checks|ci|build|"
    # "the Jest run is green", "the test run passed"
    r"(?:jest|pytest|vitest|mocha|rspec|test)\s+run)"
)


#: A run with failures: "1 failed", "2 failing", "3 errors".
_SOME_FAILED = re.compile(
    r"\b[1-9]\d*\s+(?:tests?\s+)?(?:failed|failing|failures?|errors?)\b", re.I
)
_FIRST_PERSON = re.compile(r"\b(?:I|we|We)\b(?:['’]ve)?\s+(?:\w+\s+){0,2}?(?:" + _VERB_ALT + r")\b")
_TO_AFTER = re.compile(r"\s+to\b")
_MENTIONS_TESTS = re.compile(r"\b(?:tests?|suite|specs?|pytest|jest|ci)\b", re.IGNORECASE)
#: A label that names a state: "Status:", "Order status:", "Current state:".
_STATE_LABEL = re.compile(r"\b(?:status|state)\W*$", re.IGNORECASE)

# What may precede a bare participle that opens a report: a short label ("Line 3: ").
_BARE_COUNT = re.compile(r"\**\s*(?:\d+|no|none|yes|zero|one|two|three)\b", re.IGNORECASE)
_LABEL_HEAD = re.compile(r"\s*[\w\s*`'\"-]{1,30}:\s*")
#: Words between a participle and the colon of its label ("Requested segment:", "Shipped
#: to:"): the participle is an adjective of the label, not a report of an act.
_WORD_BEFORE_COLON = re.compile(r"[^\S\n]+[\w-]+(?:[^\S\n]+[\w-]+){0,2}[*_`]*:")
#: What a process noun says was done ("the cancellation has been completed"): the verb
#: for the ledger's object matching and the action kind.
PROCESS_ACTIONS: dict[str, tuple[str, str]] = {
    "cancellation": ("cancelled", "cancelled"),
    "booking": ("booked", "created"),
    "refund": ("refunded", "refunded"),
    "payment": ("paid", "charged"),
    "upgrade": ("upgraded", "installed"),
    "downgrade": ("downgraded", "fixed"),
    "modification": ("modified", "fixed"),
    "exchange": ("exchanged", "requested"),
    "return": ("returned", "requested"),
    "installation": ("installed", "installed"),
    "deployment": ("deployed", "deployed"),
    "migration": ("migrated", "fixed"),
    "transfer": ("transferred", "transferred"),
    "backup": ("backed up", "saved"),
    "update": ("updated", "fixed"),
}
#: Passive forms that report a thing's state rather than the agent's action.
#: A restrictive relative clause right before a passive: "the one that was sent to
#: Texas", "orders that were shipped to Denver": it picks a record out by its past.
_PICKS_OUT = re.compile(r"\b(?:one|ones|the\s+\w+|\w+s)\s+that\s+$")

_NOT_AGENT_PASSIVE = frozenset(
    {"shipped", "released", "started", "stopped", "found", "read", "opened", "called", "paid"}
)
#: A subject that says no act was done: "nothing", "no changes", "none of the items", "no
#: baggage or insurance".
_NONE_DONE = re.compile(
    # "note that no baggage or insurance has been added"
    r"(?:^|[;:,]\s*|\b(?:and|but|so|that)\s+)(?:nothing|no\s+\w+(?:\s+\w+)?"
    r"(?:\s+(?:or|and|nor)\s+\w+(?:\s+\w+)?)?|none(?:\s+of\s+[\w\s]+)?)"
    # "so nothing on reservation XEWRD9 has been changed"
    r"(?:\s+(?:on|in|of|about|to|for)\s+[\w#\s-]{1,40}?)?\s*$"
)
#: A date or a time right after "... was booked on": when, in the record's history.
_WHEN_AFTER = re.compile(
    r"\s*(?:the\s+)?(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d)",
    re.IGNORECASE,
)
#: "on" or "at" and a date or a time after a list line's participle: "Created on May 12",
#: "Booked on 2024-05-02" is a record's history, no act of the agent's.
_ON_A_DAY = re.compile(r"(?:on|at)\b" + _WHEN_AFTER.pattern, re.IGNORECASE)
#: What an agent works out itself: "ran the numbers", "did the math".
_FIGURING = re.compile(r"(?:the\s+)?(?:numbers|math|maths|calculations?)\b", re.IGNORECASE)
_INTENT_BEFORE = re.compile(r"\b(?:will|should|can|could|would|might|going\s+to|need\s+to)\s*$")


#: What a number names right before a tally's verb: "run 4822", "build 17", "#4822".
_NAMED_RUN = re.compile(
    r"(?:\b(?:run|build|job|pipeline|pr|issue|version|release)\s*#?|#)\s*$", re.I
)

#: One count of a test runner's tally: "3 passed", "1 test failed", "2 errors".
#: What a tally counts, when it says: "3 tests passed", "2 test cases failed".
_TALLY_NOUN = r"(?:(?:unit\s+|new\s+)?tests?\s+|test\s+cases?\s+)?"
_TALLY_ITEM = (
    rf"\d{{1,6}}\s+{_TALLY_NOUN}"
    r"(?:passed|failed|failures?|errors?|errored|skipped|xfailed|xpassed|deselected)"
)


#: A linter or a type checker, as a reply names its run.
_CHECKER = (
    rf"(?:the\s+)?(?:lint(?:er|ing)?|{CHECKER_NAMES}|"
    r"typescript(?:\s+compilation)?|type[\s-]?check(?:s|er|ing)?|typecheck(?:s|er|ing)?|"
    r"go\s+vet)"
)

#: A count right before "tests": "41 tests passed" (not "all 42 tests pass").
_COUNT_BEFORE = re.compile(r"(?<!all\s)(?<!all)\b\d[\d,]*\s+$", re.IGNORECASE)
#: A share of the tests: "17 of the 18 tests pass" (some pass, not the run).
_SHARE_BEFORE = re.compile(r"\b\d[\d,]*\s+(?:out\s+)?of\s+(?:the\s+)?\d[\d,]*\s+$", re.IGNORECASE)
#: A runner's tally from where a match starts: "tests passed and 1 failed".
_TALLY = re.compile(rf"{_TALLY_NOUN}(?:passed|failed|errors?|errored|skipped)\b")


#: A quantifier of none before the tests: "No tests fail", "None of the tests failed".
_NONE_OF = re.compile(
    r"\b(?:no|none\s+of(?:\s+(?:the|my|our|your))?|zero|not\s+(?:a\s+single|one)(?:\s+of)?)\s+$",
    re.IGNORECASE,
)


class ActionDetector(Detector):
    """First-person action claims and observed results ("the API returned 200")."""

    id = "action"
    category = "action"
    config_key = "action"
    PATTERNS = (
        Pattern(
            "did",
            rf"{_SUBJECT}\s+(?:successfully\s+|carefully\s+|manually\s+|personally\s+|also\s+|"
            rf"just\s+|already\s+)?({_VERB_ALT})\b",
            subject="self",
            assertion=1,
            obj="after",
            confidence=0.9,
        ),
        Pattern(
            # "I have the details for both reservations", "Now I have all the information":
            # what a look-up brought, as "I checked them" is
            "has_details",
            r"\b(?:I|we)\s+(?:now\s+)?have\s+(?:all\s+)?(?:the\s+)?(?:details|information|info)"
            r"(?:\s+(?:for|about|on|of)\b|\s+(?:I|we)\s+need\b)",
            subject="self",
            assertion="checked",
            obj="after",
            confidence=0.8,
        ),
        Pattern(
            "and_did",
            rf"\b(?:and|then|,)\s+(?:then\s+|also\s+|successfully\s+)?({_VERB_ALT})\b",
            subject="self",
            assertion=1,
            obj="after",
            confidence=0.85,
        ),
        Pattern(
            "passive",
            r"\b(?:was|were|has\s+been|have\s+been)\s+(?:successfully\s+)?(emailed|sent|deployed|"
            r"saved|uploaded|exported|restarted|installed|merged|published|released|posted|"
            r"notified|backed\s+up|committed|pushed)\s+(?:to|for|on|in|into|at)\b"
            # "X has been created in the /workspace directory": X was made, "in" says where
            # (the thing before the verb is the object, read by passive_done)
            r"|\b(?:was|were|has\s+been|have\s+been)\s+(?:successfully\s+)?"
            r"(created|scheduled|booked)\s+(?:to|for|on|into)\b",
            subject="self",
            assertion="ran",
            obj="after",
            confidence=0.85,
        ),
        Pattern(
            "passive_done",
            rf"(?:\b(?:has|have|had)\s+|['’]ve\s+)been\s+"
            rf"(?:(?:successfully|now|also|just|already|properly|correctly|fully|finally)\s+)*"
            rf"({_VERB_ALT})\b|\b(?:was|were)\s+successfully\s+({_VERB_ALT})\b"
            rf"|\b(?:is|are)\s+now\s+(?:successfully\s+)?({_VERB_ALT})\b"
            # "You are being transferred to a human agent": done as the agent speaks
            rf"|\b(?:is|are)\s+(?:now\s+)?being\s+({_VERB_ALT})\b",
            subject="self",
            assertion="ran",
            obj="before",
            confidence=0.85,
        ),
        Pattern(
            # "`src/app/errors.py` was updated as well": a file the agent says it changed
            # (a record "was updated on May 5" is its history; a file's is the agent's act)
            "path_passive",
            rf"`?\b(?P<path>(?:[\w-]+/)*[\w-]+\.[A-Za-z]{{1,5}})`?\s+(?:(?:was|were|got)\s+|"
            rf"(?:is|are)\s+now\s+)(?:(?:also|now|then|just|successfully)\s+)*({_VERB_ALT})\b",
            subject="self",
            assertion="ran",
            obj="before",
            confidence=0.85,
        ),
        Pattern(
            "process_done",
            # "The cancellation of your reservation has been completed": the noun says what
            # was done (done_process maps it), the verb only that it is over
            r"\b(cancellation|booking|refund|payment|upgrade|downgrade|modification|exchange|"
            r"return|installation|deployment|migration|transfer|backup)s?\b"
            r"(?:\s+(?:of|for|to)\s+([^.;:]{1,60}?))?\s+(?:has|have)\s+(?:now\s+|also\s+)?been\s+"
            r"(?:successfully\s+)?(?:completed|done|finali[sz]ed|carried\s+out|made|processed)\b",
            subject="self",
            assertion="ran",
            obj=2,
            confidence=0.85,
        ),
        Pattern(
            "did_process",
            # "I've completed the address update", "We have processed your refund": the
            # noun says what was done, as for process_done, in the agent's own voice
            rf"{_SUBJECT}\s+(?:successfully\s+|now\s+|also\s+)?(?:completed|finished|"
            r"processed|finali[sz]ed|carried\s+out)\s+(?:the\s+|your\s+)?"
            r"((?:[\w-]+\s+){0,2}?)(cancellation|booking|refund|payment|upgrade|downgrade|"
            r"modification|exchange|return|update|installation|deployment|migration|transfer|"
            r"backup)s?\b",
            subject="self",
            assertion="ran",
            obj=1,
            confidence=0.85,
        ),
        Pattern(
            "done_list",
            rf"\b({_VERB_ALT})[ \t]+",
            subject="self",
            assertion="ran",
            obj="after",
            confidence=0.8,
        ),
        Pattern(
            # "The file now contains the corrected text", "`hello.sh` now has the shebang":
            # the state a write left behind, as much a report of the write as "I wrote it"
            "file_now",
            r"\b(the\s+(?:file|script)|this\s+file|`[^`\n]{1,80}`|'[^'\n]{1,80}'|"
            r"[\w./-]+\.\w{1,5})\s+now\s+(?:correctly\s+)?(contains|has|includes|reads|holds|"
            r"consists\s+of)\b",
            subject="self",
            assertion="saved",
            obj=1,
            value=2,
            confidence=0.8,
        ),
        Pattern(
            # "The script `missing_colon.py` ran successfully", "build.sh executed without
            # errors": a run of that file, which a call must show
            "file_ran",
            r"(`[^`\n]{1,80}`|'[^'\n]{1,80}'|\b[\w./-]+\.\w{1,5}\b)\s+(?:script\s+|file\s+|"
            r"program\s+)?(?:now\s+)?(?:ran|runs|executed|executes|compiled|compiles)\s+"
            r"(?:successfully|without\s+(?:any\s+)?errors?|fine|correctly|cleanly)\b",
            subject="self",
            assertion="ran",
            obj=1,
            confidence=0.8,
        ),
        Pattern(
            "printed",
            r"\b(?:it|this|that|the\s+(?:script|program|command|code|function|test|output|file|"
            r"result|call))\s+(?:now\s+|correctly\s+|successfully\s+|also\s+)?(prints|printed|"
            r"outputs|output|returns|returned|shows|showed|displays|displayed|contains|said|says)"
            r"\s+(?:the\s+(?:text|string|message|line|value)\s+)?[\"'“‘`]([^\"'”’`]{1,80})[\"'”’`]",
            subject="self",
            assertion="printed",
            value=2,
            confidence=0.85,
        ),
        Pattern(
            # "Running `mean([2, 4])` printed 3.0", "`python calc.py` outputs 42": what a
            # run printed, a figure or a code span, which a call's output must hold
            "run_printed",
            r"(?:\b(?:running|calling|executing|evaluating)\s+(?:`[^`\n]{1,80}`|[^\s,;]{1,80})|"
            r"`[^`\n]{1,80}`|\b[A-Za-z_][\w.]*\([^()\n]{0,60}\))\s+(?:now\s+|also\s+|still\s+)?"
            r"(?:prints|printed|outputs|output|displays|displayed)\s+"
            r"(?:`([^`\n]{1,60})`|(-?\d+(?:\.\d+)?))(?:[\s.,;:!)]|$)",
            subject="self",
            assertion="printed",
            value=1,
            confidence=0.8,
        ),
        Pattern(
            "tests_pass",
            rf"\b{_TESTS}\s+(?:all\s+|now\s+|still\s+)?(pass|passes|passed|succeeded|succeed|"
            # "are now passing", "have all passed", "continue to pass"
            r"(?:are|is|have|has)\s+(?:(?:all|now|still|also)\s+)*(?:passing|passed|green)|"
            r"ran\s+clean|continue\s+to\s+pass)\b",
            subject="self",
            assertion="tests_pass",
            confidence=0.9,
        ),
        Pattern(
            # "1 failed, 3 passed", "the run shows 2 errors": a runner's tally, each count
            # checked against what the test runs reported
            "test_tally",
            rf"\b({_TALLY_ITEM}(?:\s*(?:,|;|and|,\s*and)\s*{_TALLY_ITEM})*)\b",
            subject="self",
            assertion="test_tally",
            value=1,
            confidence=0.85,
        ),
        Pattern(
            # "17 of the 18 tests pass", "2 of the 14 tests failed": how many passed (or
            # failed), checked as a tally
            "test_share",
            r"\b(\d{1,6})\s+(?:out\s+)?of\s+(?:the\s+)?\d{1,6}\s+(?:unit\s+)?tests?\s+"
            r"(?:now\s+|still\s+)?(?:pass|passes|passed|are\s+passing|failed|are\s+failing)\b",
            subject="self",
            assertion="test_tally",
            value=1,
            confidence=0.85,
        ),
        Pattern(
            "tests_which_pass",
            # "by running existing tests (which passed)", "the tests, which all pass"
            rf"\b{_TESTS}\s*(?:\(|,)\s*(?:which|that)\s+(?:all\s+|now\s+)?(pass|passes|passed)\b",
            subject="self",
            assertion="tests_pass",
            confidence=0.85,
        ),
        Pattern(
            "change_passes",
            # "My change passes these tests", "the fix passed all the existing tests"
            r"\b(?:my|our|the|this)\s+(?:change|changes|fix|patch|code)\s+(?:now\s+|still\s+)?"
            r"(pass(?:es|ed)?)\s+(?:these|those|the|all(?:\s+the)?|existing|all\s+existing)\s+"
            r"(?:existing\s+)?tests\b",
            subject="self",
            assertion="tests_pass",
            confidence=0.85,
        ),
        Pattern(
            "they_pass",
            r"\b(?:they|all\s+of\s+them|everything|all\s+\d+(?:\s+of\s+them)?|each\s+one|"
            r"every\s+(?:single\s+)?(?:one|test))\s+(?:all\s+|now\s+)?(pass|passes|passed|"
            r"are\s+passing|succeeded|are\s+green)\b",
            subject="self",
            assertion="tests_pass",
            confidence=0.85,
        ),
        Pattern(
            "tests_label_pass",
            # "Tests: 4/4 passing", "Unit tests: ✅ all passed", "CI: green"
            rf"\b{_TESTS}\s*:\s*(?:[✔✅✓☑]\s*)?(?:all\s+|\d+\s*/\s*\d+\s+|\d+\s+(?:tests?\s+)?)?"
            r"(passed|passing|pass|green|ok)\b",
            subject="self",
            assertion="tests_pass",
            confidence=0.85,
        ),
        Pattern(
            "tests_label_fail",
            # "Tests: 3 passed, 1 failed", "CI: ❌ 2 failing"
            rf"\b{_TESTS}\s*:\s*[^.\n]{{0,30}}?\b[1-9]\d*\s+(?:tests?\s+)?(failed|failing)\b",
            subject="self",
            assertion="tests_fail",
            confidence=0.85,
        ),
        Pattern(
            # "Ruff is clean", "ESLint reports no warnings or errors", "mypy passes",
            # "TypeScript compiles cleanly": a linter's or a type checker's run
            "checks_pass",
            rf"\b{_CHECKER}\s+(?:now\s+|still\s+|also\s+)?(pass(?:es|ed)?|succeeded|"
            r"(?:is|are)\s+(?:now\s+|still\s+|all\s+)?(?:clean|green|passing)|"
            r"reports?\s+no\s+(?:errors?|warnings?|issues?|problems?)|compiles?\s+cleanly)\b",
            subject="self",
            assertion="tests_pass",
            confidence=0.85,
        ),
        Pattern(
            "checks_fail",
            rf"\b{_CHECKER}\s+(?:now\s+|still\s+|also\s+)?(fail(?:s|ed)?|"
            r"(?:is|are)\s+(?:still\s+)?failing|reports?\s+[1-9]\d*\s+(?:errors?|problems?))\b",
            subject="self",
            assertion="tests_fail",
            confidence=0.85,
        ),
        Pattern(
            "tests_fail",
            rf"\b{_TESTS}\s+(?:all\s+|now\s+|still\s+)?(fail|fails|failed|"
            r"(?:are|is|have|has)\s+(?:(?:all|now|still|also)\s+)*(?:failing|failed|red))\b",
            subject="self",
            assertion="tests_fail",
            confidence=0.9,
        ),
        Pattern(
            "api_returned",
            r"\b(?:the\s+)?(api|endpoint|server|service|request|call|response|health\s*check|"
            r"curl|webhook)\s+(?:returned|responded\s+with|came\s+back\s+with|gave|answered\s+with)"
            r"\s+(?:an?\s+|http\s+|status\s+|a\s+status\s+of\s+|status\s+code\s+)*"
            r"(\d{3}\b|ok\b|success|an?\s+error|errors?)",
            subject=1,
            assertion="api_returned",
            value=2,
            confidence=0.9,
        ),
        Pattern(
            "logs_show",
            r"\b(?:the\s+)?(logs?|log\s+file|output|stack\s*trace|dashboard|metrics|monitoring|"
            r"results?|query|database|db|crm|report|records?)\s+(?:show|shows|showed|indicate|"
            r"indicates|indicated|confirm|confirms|confirmed|reveal|reveals|say|says|report|reports)\b",
            subject=1,
            assertion="logs_show",
            obj="after",
            confidence=0.85,
        ),
        Pattern(
            "according_to",
            r"\b(?:according\s+to|per|as\s+per|based\s+on|from)\s+(?:the\s+|our\s+)?"
            r"(database|db|crm|logs?|api|dashboard|tool\s+output|ticket|spreadsheet|records?|"
            r"system|erp|billing\s+system|analytics|monitoring|query\s+results?)\b",
            subject=1,
            assertion="according_to",
            confidence=0.85,
        ),
    )

    def detect(self, text: str, sentence: Sentence, pattern_index: int) -> Iterator[DetectedClaim]:
        spec = self.PATTERNS[pattern_index]
        if spec.name != "done_list":
            yield from super().detect(text, sentence, pattern_index)
            return
        # A done-list item starts its sentence or follows a label ("Line 1: Changed ..."):
        # the verb is tried there only, not at every word (a costly scan for no claim).
        start = (
            sentence.start
            + len(text[sentence.start : sentence.end])
            - len(text[sentence.start : sentence.end].lstrip())
        )
        label = _LABEL_HEAD.match(text, sentence.start, sentence.end)
        # a label whose value is a bare count ("Checked bags: 0") names a quantity: its
        # participle is an adjective, no report that something was checked
        after = label.end() if label is not None else start
        counted = label is not None and _BARE_COUNT.match(text, after, sentence.end) is not None
        for at in dict.fromkeys((after,) if counted else (start, after)):
            m = self._compiled[pattern_index].match(text, at, sentence.end)
            if m is None:
                continue
            if label is not None and at == start and _WORD_BEFORE_COLON.match(text, m.end(1)):
                continue  # "Requested segment: HAT052": the participle qualifies the label
            if label is not None and at == after and _STATE_LABEL.search(label.group(0)):
                continue  # "Status: processed": the record's state, no act of the agent's
            claim = self._build(text, sentence, spec, m)
            if claim is not None and label is not None and at == after:
                claim = _label_object(claim, text, label, m.end())
            if claim is not None and (checked := self.validate_result(claim, text, sentence, m)):
                yield checked

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        name = claim.detector_id.rsplit(".", 1)[1]
        if name == "they_pass" and not _MENTIONS_TESTS.search(sentence.text):
            return None  # "they all passed the interview" is not about a test run
        if name in ("tests_fail", "tests_pass") and _NONE_OF.search(
            text, max(sentence.start, match.start() - 20), match.start()
        ):
            # "No tests fail", "None of the tests failed": the run passes ("no tests
            # pass": it fails)
            claim.assertion = "tests_pass" if name == "tests_fail" else "tests_fail"
        if name == "tests_label_pass" and _SOME_FAILED.search(sentence.text):
            return None  # "Tests: 3 passed, 1 failed" reports a failing run
        if name in ("tests_fail", "tests_pass", "test_tally", "checks_fail") and _TO_AFTER.match(
            text, match.end()
        ):
            return None  # "the build failed to find the module" is no test result
        if (
            name in ("tests_pass", "tests_fail")
            and _COUNT_BEFORE.search(text, max(sentence.start, match.start() - 12), match.start())
            and _TALLY.match(text, match.start(), sentence.end)
        ):
            # "41 tests passed and 1 failed": a tally (checked count by count), not a claim
            # that the run passes
            return None
        if name == "tests_pass" and _SHARE_BEFORE.search(
            text, max(sentence.start, match.start() - 30), match.start()
        ):
            return None  # "17 of the 18 tests pass": the others may fail
        if name == "test_tally" and (
            (match.start() > 0 and text[match.start() - 1] in ".,/-#")
            or _NAMED_RUN.search(text, max(0, match.start() - 12), match.start())
        ):
            # "v1.2 passed review", "CI run #4822 passed": a version or a run's number,
            # no count of tests
            return None
        if name == "test_share":
            failing = re.search(r"fail", match.group(0), re.IGNORECASE) is not None
            claim.value = f"{match.group(1)} {'failed' if failing else 'passed'}"
        if name == "run_printed":
            claim.value = match.group(1) or match.group(2)  # the code span or the figure
        if name == "passive":
            verb = " ".join((match.group(1) or match.group(2)).lower().split())
            if _WHEN_AFTER.match(text, match.end()):
                return None  # "it was booked on May 11": when the record's event was
            if _PICKS_OUT.search(text, max(sentence.start, match.start() - 30), match.start()):
                return None  # "to find the one that was sent to Texas": which one, no act
            claim.assertion = ACTION_VERBS.get(verb, "ran")
            claim.value = verb
            for_whom = match.group(0).split()[-1].lower() == "for" and (
                _FOR_WHOM.match(text, match.end()) is not None
            )
            if verb in _MADE_PASSIVE and not for_whom:
                # "Your 3 new reservations have been booked on the same itinerary": what
                # was booked stands before the verb; "on ..." says where, as "in" does for
                # "created in /workspace" ("booked for Mia" keeps Mia: for whom)
                before = subject_before(text, sentence.start, match.start())[0]
                if before:
                    claim.object = before
        if name == "done_list":
            # "Changed 'typoo' to 'typo'", "Updated utils.py to handle None": a report in
            # a list or summary, the agent's own act (at the start: see ``accepts``).
            verb = " ".join(match.group(1).lower().split())
            if verb in _NOT_AGENT_PASSIVE:  # "Found 3 errors": what was there, no act
                return None
            if _ON_A_DAY.match(text, match.end()):
                return None  # "Created on May 12": when the record's event was
            claim.assertion = _tests_or(ACTION_VERBS.get(verb, "ran"), claim.object)
            claim.value = verb
        if name in ("process_done", "did_process"):
            noun = match.group(1 if name == "process_done" else 2).lower()
            claim.value, claim.assertion = PROCESS_ACTIONS[noun]
            claim.object = (claim.object or "").strip() or None  # "the address update"
            before = text[sentence.start : match.start()].lower()
            if _INTENT_BEFORE.search(before[-20:]):
                return None
        if name == "path_passive" and PRODUCT.fullmatch(match.group("path")):
            return None  # "Node.js was installed": a product, no file the agent changed
        if name in ("passive_done", "path_passive"):
            verb = " ".join(
                next(g for g in match.groups()[1 if name == "path_passive" else 0 :] if g)
                .lower()
                .split()
            )
            if verb in _NOT_AGENT_PASSIVE:
                return None  # "has been shipped/delivered": the order's state, not our act
            if verb == "applied" and _MONEY_MOVED.search(claim.object or ""):
                # "A refund of $6,594 has been applied to your card": money given back, said
                # as "issued" or "credited" are (its amount is checked as a figure), no patch
                return None
            claim.assertion = ACTION_VERBS.get(verb, "ran")
            claim.value = verb
            before = text[sentence.start : match.start()].lower()
            if _INTENT_BEFORE.search(before[-20:]) or re.search(r"\b(?:not|n't|never)\s*$", before):
                return None
            if _NONE_DONE.search(before):
                return None  # "Nothing has been booked yet": no act, the work still pending
        if name == "and_did" and not _FIRST_PERSON.search(text, sentence.start, match.start()):
            return None  # "... and deployed" continues an "I ..." or "we ..." sentence only
        if name in ("did", "and_did"):
            verb = " ".join(match.group(1).lower().split())
            if _FIGURING.match(claim.object or ""):
                return None  # "I ran the numbers": the agent's own arithmetic, no tool call
            kind = _tests_or(ACTION_VERBS.get(verb, "ran"), claim.object)
            obj = (claim.object or "").lower()
            if verb == "opened" and re.search(
                r"\b(?:ticket|issue|pr|pull request|incident)\b", obj
            ):
                kind = "created"  # "I opened a ticket" creates it
            claim.assertion = kind
            claim.value = verb
            # "I will check", "I'll deploy" are intentions: the regex needs a past form.
            before = text[max(sentence.start, match.start() - 12) : match.start()].lower()
            if _INTENT_BEFORE.search(before):
                return None
        if name == "api_returned" and claim.value is not None:
            claim.value = " ".join(claim.value.lower().split())
        claim.subject = claim.subject.lower() if claim.subject != "self" else claim.subject
        return claim


#: Passives of making whose thing made stands before the verb (see ``validate_result``).
_MADE_PASSIVE = frozenset({"created", "scheduled", "booked"})
#: "booked for you", "booked for Mia": for whom, the one thing after the verb it keeps.
_FOR_WHOM = re.compile(r"\s+(?:you|him|her|them|us|me|[A-Z][a-z]+)\b")

#: What follows a verb that names no object of its own: a dash, a bracket, a comma, the
#: line's end ("**59XX6W**: Cancelled — refund of $624", "Order #W1: Refunded (card)").
_NO_OBJECT_AFTER = re.compile(r"[ \t]*(?:[—–(,;.!]|-[ \t]|\*\*[ \t]*(?:[—–(,;.]|$)|$)")


def _label_object(claim: DetectedClaim, text: str, label: re.Match[str], end: int) -> DetectedClaim:
    """A done item under its label whose verb names no object ("**59XX6W**: Cancelled —
    refund of $624"): the label is what was done to, not the words after the dash."""
    if _NO_OBJECT_AFTER.match(text, end) is None:
        return claim
    name = label.group(0).strip().rstrip(":").strip(" *_`'\"-")
    if not name:
        return claim
    claim.object = name
    return claim


_TESTS_OBJECT = re.compile(r"\btests?\b|\bpytest\b|\bspecs?\b|\btest suite\b", re.IGNORECASE)


#: What a refund is called: "A refund of $X has been applied", "the credit was applied".
_MONEY_MOVED = re.compile(r"\b(?:refund|credit|reimbursement|discount)s?\b", re.IGNORECASE)


def _tests_or(kind: str, obj: str | None) -> str:
    """'ran'/'checked' the tests is a test run, which only a test run backs."""
    if kind in ("ran", "checked") and obj and _TESTS_OBJECT.search(obj):
        return "ran_tests"
    return kind


class ForgedLabelDetector(Detector):
    """Verification labels written into the text ("[T1 verified]", "✅ verified")."""

    id = "verification_label"
    category = "action"
    config_key = "action"
    PATTERNS = (
        Pattern(
            "label",
            r"(\[\s*t[1-7]\b[^\]]{0,30}\]|\[\s*(?:verified|confirmed|fact-checked|source:)[^\]]{0,40}\]|"
            r"\(\s*t[1-7]\s*\)|\bverified\s*[✓✔]|[✓✔]\s*verified|"
            r"✅\s*(?:verified|confirmed|checked)|\(\s*verified(?:\s+by\s+[\w\s-]{1,20})?\s*\)|"
            r"\bverified\s+by\s+(?:tool|tools|receipt|the\s+system)\b)",
            subject="self",
            assertion="forged_label",
            value=1,
            confidence=0.95,
        ),
    )


class AttributionDetector(Detector):
    """Statements attributed to a source: "X said", "the report states"."""

    id = "attribution"
    category = "attribution"
    config_key = "attribution"
    PATTERNS = (
        Pattern(
            "states",
            r"\b(?:the\s+)?(report|document|contract|agreement|paper|study|article|spec|"
            r"specification|readme|docs?|documentation|policy|email|ticket|invoice|memo|"
            r"section\s+\d+[\w.]*|clause\s+\d+[\w.]*)\s+(?:states|says|said|shows|notes|mentions|"
            r"specifies|requires|confirms|indicates)\b",
            subject=1,
            assertion="states",
            obj="after",
            confidence=0.8,
        ),
    )
