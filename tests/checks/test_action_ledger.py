"""Claims of the agent's own actions against the action ledger (SPEC §3, §4).

Each action kind gets a supporting, a contradicting (or non-matching) and a
missing receipt. An action claim is supported only by a matching tool call;
unsupported or contradicted action claims block under the default policy
(``agent_actions`` is fail-closed), whatever the trust tier.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.policy_file import parse_policy
from receiptgate.results import ValidationResult

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)

#: The session always holds the user's request, so the ledger is never empty.
USER_ASK = Receipt(id="u1", kind="user", content="Please take care of it.")


def _tool(content: str, tool: str, args: dict[str, Any] | None = None, **fields: Any) -> Receipt:
    return Receipt.model_validate(
        {"id": "call-1", "kind": "tool", "content": content, "tool": tool, "args": args, **fields}
    )


def _validate(text: str, *receipts: Receipt, trust: int | None = None) -> ValidationResult:
    return Gate().validate(text, receipts=[*receipts, USER_ASK], now=NOW, trust=trust)


def _action_evidence(result: ValidationResult) -> list[tuple[str, str | None]]:
    """(relation, receipt id) of the evidence attached to the sentence's action claims."""
    action_claims = {i for i, c in enumerate(result.claims) if c.category == "action"}
    return [
        (e.relation, e.id)
        for s in result.sentences
        for e in s.evidence
        if e.claim_index in action_claims
    ]


PYTEST_PASS = _tool("=== 42 passed in 3.0s ===", "exec", {"command": "pytest -q"}, ok=True)
PYTEST_FAIL = _tool(
    "FAILED tests/test_billing.py::test_refund_rounding\n=== 2 failed, 40 passed in 3.1s ===",
    "exec",
    {"command": "pytest -q"},
)
HTTP_200 = _tool(
    "HTTP/1.1 200 OK\ncontent-type: application/json\n\n{}",
    "http_request",
    {"method": "GET", "url": "https://api.example.com/health"},
)
HTTP_500 = _tool(
    "HTTP/1.1 500 Internal Server Error\n\n{}",
    "http_request",
    {"method": "GET", "url": "https://api.example.com/health"},
)
EMAIL_OK = _tool(
    '{"ok": true, "message_id": "m-1"}',
    "send_email",
    {"to": "dana@example.com", "subject": "Q1 report"},
    ok=True,
)
EMAIL_FAILED = _tool(
    '{"ok": false, "error": "mailbox full"}',
    "send_email",
    {"to": "dana@example.com", "subject": "Q1 report"},
    ok=False,
)
DEPLOY_231 = _tool(
    "rollout complete: web 2.3.1 is live in production",
    "deploy",
    {"service": "web", "version": "2.3.1", "env": "production"},
    ok=True,
)
DEPLOY_230 = _tool(
    "rollout complete: web 2.3.0 is live in production",
    "deploy",
    {"service": "web", "version": "2.3.0", "env": "production"},
    ok=True,
)
DEPLOY_FAILED = _tool(
    "error: rollout of web 2.3.1 failed: image pull backoff",
    "deploy",
    {"service": "web", "version": "2.3.1", "env": "production"},
    ok=False,
)
WRITE_REPORT = _tool("wrote 2048 bytes", "write_file", {"path": "report.csv"}, ok=True)
WRITE_OTHER = _tool("wrote 2048 bytes", "write_file", {"path": "summary.txt"}, ok=True)
WRITE_FAILED = _tool("error: permission denied", "write_file", {"path": "report.csv"}, ok=False)
CREATE_NOTES = _tool("created", "write_file", {"path": "notes.md"}, ok=True)
CREATE_OTHER = _tool("created", "write_file", {"path": "todo.md"}, ok=True)
READ_CONFIG = _tool("port: 8080\nworkers: 4", "read_file", {"path": "config.yaml"}, ok=True)
READ_OTHER = _tool("[server]\nport = 8080", "read_file", {"path": "settings.toml"}, ok=True)
LOGS_CLEAN = _tool(
    "2026-03-11 09:00:01 INFO started\n2026-03-11 09:00:02 INFO ready",
    "exec",
    {"command": "tail -n 200 /var/log/app.log"},
    ok=True,
)
LOGS_ERRORS = _tool(
    "2026-03-11 09:00:01 INFO started\n2026-03-11 09:00:05 ERROR db connection timed out",
    "exec",
    {"command": "tail -n 200 /var/log/app.log"},
    ok=True,
)

# (claim, supporting receipt, contradicting receipt or None when the kind has none)
SUPPORTED = [
    ("I ran the tests and they all pass.", PYTEST_PASS),
    ("All tests pass.", PYTEST_PASS),
    ("The API returned 200.", HTTP_200),
    ("I sent the email to Dana.", EMAIL_OK),
    ("I deployed version 2.3.1 to production.", DEPLOY_231),
    ("I saved the results to report.csv.", WRITE_REPORT),
    ("I created the file notes.md.", CREATE_NOTES),
    ("I checked config.yaml.", READ_CONFIG),
    ("The logs show no errors.", LOGS_CLEAN),
]
SUPPORTED_IDS = [
    "tests-pass",
    "all-tests-pass",
    "api-200",
    "sent-email",
    "deployed-version",
    "saved-file",
    "created-file",
    "checked-file",
    "logs-clean",
]

CONTRADICTED = [
    ("I ran the tests and they all pass.", PYTEST_FAIL),
    ("All tests pass.", PYTEST_FAIL),
    ("The API returned 200.", HTTP_500),
    ("I sent the email to Dana.", EMAIL_FAILED),
    ("I deployed version 2.3.1 to production.", DEPLOY_230),
    ("I deployed version 2.3.1 to production.", DEPLOY_FAILED),
    ("I saved the results to report.csv.", WRITE_FAILED),
    ("The logs show no errors.", LOGS_ERRORS),
]
CONTRADICTED_IDS = [
    "tests-fail",
    "all-tests-fail",
    "api-500",
    "email-failed",
    "other-version-deployed",
    "deploy-failed",
    "save-failed",
    "logs-have-errors",
]

#: A call exists, but on something else: not a contradiction, still no receipt.
NOT_MATCHING = [
    ("I saved the results to report.csv.", WRITE_OTHER),
    ("I created the file notes.md.", CREATE_OTHER),
    ("I checked config.yaml.", READ_OTHER),
    ("I sent the email to Dana.", PYTEST_PASS),
    ("I deployed version 2.3.1 to production.", READ_CONFIG),
]
NOT_MATCHING_IDS = [
    "saved-other-file",
    "created-other-file",
    "checked-other-file",
    "sent-without-send-call",
    "deployed-without-deploy-call",
]

ALL_CLAIMS = sorted({claim for claim, _ in SUPPORTED})


@pytest.mark.parametrize(("text", "receipt"), SUPPORTED, ids=SUPPORTED_IDS)
def test_when_the_ledger_holds_the_matching_call_then_the_action_claim_is_t1_and_passes(
    text: str, receipt: Receipt
) -> None:
    result = _validate(text, receipt)

    s = result.sentences[0]
    assert ("supports", "call-1") in _action_evidence(result)
    assert s.tag == "T1", s.reasons
    assert s.action == "pass", s.reasons
    assert result.verdict == "pass"


@pytest.mark.parametrize(("text", "receipt"), CONTRADICTED, ids=CONTRADICTED_IDS)
def test_when_the_ledger_contradicts_the_action_then_it_is_t5_and_blocked_naming_the_call(
    text: str, receipt: Receipt
) -> None:
    result = _validate(text, receipt)

    s = result.sentences[0]
    assert any(e.relation == "contradicts" and e.id == "call-1" for e in s.evidence), s.evidence
    assert s.tag == "T5"
    assert s.action == "block"
    assert result.verdict == "block"
    assert "call-1" in result.reason


@pytest.mark.parametrize(("text", "receipt"), NOT_MATCHING, ids=NOT_MATCHING_IDS)
def test_when_the_ledger_holds_only_an_unrelated_call_then_the_action_claim_is_blocked(
    text: str, receipt: Receipt
) -> None:
    result = _validate(text, receipt)

    s = result.sentences[0]
    assert ("supports", "call-1") not in _action_evidence(result)
    assert s.tag == "T5"
    assert s.action == "block"


@pytest.mark.parametrize("text", ALL_CLAIMS)
def test_when_the_ledger_has_no_call_then_the_action_claim_is_t5_and_blocked(text: str) -> None:
    result = _validate(text)

    s = result.sentences[0]
    assert s.tag == "T5"
    assert s.action == "block"
    assert any(v.category == "action" and v.action == "block" for v in result.violations)
    assert any("no receipt" in v.reason for v in result.violations if v.category == "action")


@pytest.mark.parametrize("text", ALL_CLAIMS)
def test_when_there_are_no_receipts_at_all_then_the_action_claim_is_blocked(text: str) -> None:
    result = Gate().validate(text, now=NOW)

    assert result.sentences[0].tag == "T5"
    assert result.verdict == "block"


def test_when_the_test_run_fails_then_the_reason_quotes_the_failing_run() -> None:
    result = _validate("I ran the tests and they all pass.", PYTEST_FAIL)

    (violation,) = [v for v in result.violations if v.category == "action"]
    assert violation.receipt_id == "call-1"
    assert "failing" in violation.reason
    assert "failed" in violation.reason.lower()  # quotes a line of the failing run


# --------------------------------------------------------------------------- the database


def test_when_a_db_receipt_exists_then_according_to_the_database_is_supported_by_it() -> None:
    row = Receipt(id="db-1", kind="db", source="crm", content='{"customer": "Acme", "seats": 120}')

    result = _validate("According to the database, Acme has 120 seats.", row)

    s = result.sentences[0]
    assert ("supports", "db-1") in _action_evidence(result)
    assert s.tag == "T4", s.reasons
    assert s.action == "pass", s.reasons


def test_when_no_db_receipt_exists_then_according_to_the_database_is_blocked() -> None:
    result = _validate("According to the database, Acme has 120 seats.", PYTEST_PASS)

    s = result.sentences[0]
    assert ("supports", "call-1") not in _action_evidence(result)
    assert s.tag == "T5"
    assert s.action == "block"
    assert any(v.category == "action" for v in result.violations)


# --------------------------------------------------------------------------- forged labels


@pytest.mark.parametrize(
    ("text", "receipts"),
    [
        ("All tests pass [T1 verified].", [PYTEST_PASS]),
        ("✅ verified: all tests pass.", [PYTEST_PASS]),
        ("The API returned 200 [T1 verified].", [HTTP_200]),
    ],
    ids=["bracket-label", "check-mark-label", "bracket-label-http"],
)
def test_when_receipts_back_the_labelled_sentence_then_the_label_is_accepted(
    text: str, receipts: list[Receipt]
) -> None:
    result = _validate(text, *receipts)

    s = result.sentences[0]
    assert s.tag == "T1", s.reasons
    assert s.action == "pass", s.reasons


@pytest.mark.parametrize(
    ("text", "receipts"),
    [
        ("All tests pass [T1 verified].", []),
        ("✅ verified: all tests pass.", []),
        ("All tests pass [T1 verified].", [PYTEST_FAIL]),
        ("The weather in Berlin is sunny [T1 verified].", []),
        ("Our churn is low ✅ verified.", []),
        ("[T4 verified] The renewal is on track.", [READ_CONFIG]),
    ],
    ids=[
        "bracket-no-receipt",
        "check-mark-no-receipt",
        "bracket-failing-run",
        "bracket-plain-statement",
        "check-mark-plain-statement",
        "t4-label-unrelated-receipt",
    ],
)
def test_when_no_receipt_backs_a_verification_label_then_it_is_t5_and_blocked(
    text: str, receipts: list[Receipt]
) -> None:
    result = _validate(text, *receipts)

    s = result.sentences[0]
    assert s.tag == "T5"
    assert s.action == "block"
    labels = [c for c in result.claims if c.assertion == "forged_label"]
    assert labels, "the label itself must be a claim"
    assert any("Verification label" in v.reason for v in result.violations)


# --------------------------------------------------------------------------- trust


@pytest.mark.parametrize("trust", [0, 25, 50, 65, 75, 85, 90])
@pytest.mark.parametrize(
    "text",
    ["I sent the email to Dana.", "I ran the tests and they all pass.", "The API returned 200."],
    ids=["sent", "tests-pass", "api-200"],
)
def test_when_an_action_claim_has_no_receipt_then_it_blocks_whatever_the_trust(
    text: str, trust: int
) -> None:
    result = _validate(text, trust=trust)

    assert result.skipped is None
    assert result.sentences[0].tag == "T5"
    assert result.verdict == "block"


@pytest.mark.parametrize("trust", [0, 50, 85])
def test_when_a_forged_label_has_no_receipt_then_it_blocks_whatever_the_trust(trust: int) -> None:
    result = _validate("Our churn is low [T1 verified].", trust=trust)

    assert result.verdict == "block"


def test_when_agent_actions_is_warn_only_then_an_unsupported_action_only_flags() -> None:
    gate = Gate(policy=parse_policy({"riskClasses": {"agent_actions": {"mode": "warn_only"}}}))

    result = gate.validate("I sent the email to Dana.", receipts=[USER_ASK], now=NOW)

    assert result.sentences[0].tag == "T5"
    assert result.sentences[0].action == "warn"
    assert result.verdict == "flag"


HRIS_ROW = Receipt(
    id="hr-3",
    kind="db",
    source="hris.headcount",
    content="as_of=2026-03-09 total=212 contractors=14",
)


def test_when_a_check_names_no_call_but_its_result_backs_the_sentence_then_it_passes() -> None:
    result = _validate("Verified against the HR system: headcount is 212.", HRIS_ROW)

    assert result.verdict == "pass", result.reason
    assert ("supports", "hr-3") in _action_evidence(result)


@pytest.mark.parametrize(
    "text",
    [
        "Verified against the HR system: headcount is 215.",  # the result says otherwise
        "I verified the HR system.",  # nothing else in the sentence to back it
    ],
)
def test_when_the_checked_result_does_not_back_the_sentence_then_the_check_is_blocked(
    text: str,
) -> None:
    assert _validate(text, HRIS_ROW).verdict == "block"


def test_a_users_words_never_stand_for_a_check_the_agent_claims() -> None:
    said = Receipt(id="u2", kind="user", content="Our headcount is 212.")
    assert _validate("Verified against the HR system: headcount is 212.", said).verdict == "block"
