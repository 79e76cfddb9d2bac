"""Policy ``groundedNames``: names a grounded session's evidence never mentions."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.policy_file import parse_policy

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
CONTRACT = Receipt(
    id="doc-1",
    kind="rag",
    content='SUPPLY AGREEMENT between Vandelay Industries ("Buyer") and Kramerica LLC.',
)


def _validate(mode: str, text: str, *receipts: Receipt) -> tuple[str, list[str | None]]:
    gate = Gate(policy=parse_policy({"groundedNames": mode}))
    result = gate.validate(text, now=NOW, receipts=list(receipts))
    return result.verdict, [s.tag for s in result.sentences]


@pytest.mark.parametrize(
    ("mode", "verdict"), [("block", "block"), ("warn", "flag")], ids=["block", "warn"]
)
def test_when_a_name_is_in_no_receipt_then_the_sentence_is_t5(mode: str, verdict: str) -> None:
    got, tags = _validate(
        mode, "The agreement was signed by Vandelay Industries and Pendant Publishing.", CONTRACT
    )
    assert (got, tags) == (verdict, ["T5"])


def test_when_every_name_is_in_a_receipt_then_the_names_pass() -> None:
    got, _ = _validate(
        "block", "The agreement was signed by Vandelay Industries and Kramerica LLC.", CONTRACT
    )
    assert got != "block"


def test_when_the_policy_is_off_then_unknown_names_are_not_claims() -> None:
    got, _ = _validate("off", "The agreement was signed by Pendant Publishing.", CONTRACT)
    assert got != "block"


def test_when_the_session_has_only_tool_receipts_then_names_are_not_checked() -> None:
    tool = Receipt(id="t1", kind="tool", tool="exec", content="ok")
    got, _ = _validate("block", "The agreement was signed by Pendant Publishing.", tool)
    assert got != "block"
