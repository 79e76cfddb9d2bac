"""Budgets (maxClaimsPerOutput, maxTextLength) never turn into a silent pass, never
downgrade a claim, and count work, not time (the same text gets the same verdict)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from receiptgate.api import load_receipt_files
from receiptgate.config import parse_config
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def fabricated_tests_receipts() -> list[Receipt]:
    """A transcript whose pytest call failed."""
    return load_receipt_files([EXAMPLES / "transcripts" / "fabricated_tests.json"])


@pytest.mark.parametrize(
    ("fail_mode", "verdict", "action"),
    [("fail_open", "flag", "warn"), ("fail_closed", "block", "block")],
)
def test_when_claims_pass_the_cap_then_their_sentence_follows_the_fail_mode(
    fail_mode: str, verdict: str, action: str
) -> None:
    gate = Gate(
        parse_config(
            {
                "failMode": fail_mode,
                "performance": {"maxClaimsPerOutput": 1},
                "defaults": {"unverifiedClaimPolicy": "ignore"},
            }
        )
    )
    result = gate.validate("nginx is running. redis is running.", now=NOW)
    assert result.sentences[1].action == action
    assert any("not checked: past maxClaimsPerOutput" in r for r in result.sentences[1].reasons)
    assert result.sentences[1].tag is None  # not checked is never "general statement" (T3)
    assert result.verdict == verdict


def _facts(n: int) -> dict[str, object]:
    facts = [
        {
            "id": f"n{i}",
            "category": "system_state",
            "subject": f"node-{i}",
            "value": {"type": "state", "state": "running"},
        }
        for i in range(n)
    ]
    return {"factRegistries": [{"id": "nodes", "facts": facts}]}


def test_when_true_claims_fill_the_budget_then_a_later_false_action_is_still_blocked(
    fabricated_tests_receipts: list[Receipt],
) -> None:
    gate = Gate(parse_config(_facts(60)))
    text = " ".join(f"node-{i} is running." for i in range(60))
    lie = " I ran the tests and they all pass."
    result = gate.validate(text + lie, now=NOW, receipts=fabricated_tests_receipts)
    last = result.sentences[-1]
    assert (last.tag, last.action, result.verdict) == ("T5", "block", "block")
    alone = gate.validate(lie.strip(), now=NOW, receipts=fabricated_tests_receipts)
    assert alone.sentences[0].tag == last.tag


def test_when_claims_pass_the_cap_then_figures_are_still_checked() -> None:
    gate = Gate(parse_config({"performance": {"maxClaimsPerOutput": 1}}))
    text = "nginx is running. redis is running. Revenue was $5M in March."
    result = gate.validate(text, now=NOW)
    figure = result.sentences[2]
    assert figure.tag == "T5"
    assert not any("not checked" in r for r in figure.reasons)


def test_the_verdict_does_not_depend_on_the_clock() -> None:
    # maxEvalUs is accepted (RFC-003 config) but stops nothing: a loaded machine
    # must not leave later sentences unchecked.
    text = "Hello there, all good. " * 200 + "I ran the tests and they all pass."
    slow = Gate(parse_config({"performance": {"maxEvalUs": 1}})).validate(text, now=NOW)
    normal = Gate().validate(text, now=NOW)
    assert slow.verdict == normal.verdict == "block"
    assert [(s.tag, s.action) for s in slow.sentences] == [
        (s.tag, s.action) for s in normal.sentences
    ]


@pytest.mark.parametrize(
    ("fail_mode", "tail_delivered"), [("fail_open", True), ("fail_closed", False)]
)
def test_when_text_passes_max_text_length_then_the_tail_is_flagged_or_withheld(
    fail_mode: str, tail_delivered: bool
) -> None:
    gate = Gate(parse_config({"failMode": fail_mode, "performance": {"maxTextLength": 40}}))
    text = "Thanks for waiting, here is an update. Revenue was $5M in March."
    result = gate.validate(text, now=NOW)
    assert result.verdict != "pass"
    assert result.delivered_text is not None
    assert ("$5M" in result.delivered_text) is tail_delivered
    assert any("not validated" in n for n in result.notes)
