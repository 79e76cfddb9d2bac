"""Budgets (maxClaimsPerOutput, maxEvalUs, maxTextLength) never turn into a silent pass."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate.config import parse_config
from receiptgate.engine import Gate

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)


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
    assert any("not fully checked" in r for r in result.sentences[1].reasons)
    assert result.verdict == verdict


def test_when_the_time_budget_is_spent_then_later_sentences_are_not_passed() -> None:
    gate = Gate(parse_config({"failMode": "fail_closed", "performance": {"maxEvalUs": 1}}))
    text = "Hello there, all good. " * 50 + "I ran the tests and they all pass."
    result = gate.validate(text, now=NOW)
    assert result.verdict == "block"
    assert any("maxEvalUs" in n for n in result.notes)


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
