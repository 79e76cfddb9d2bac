"""``evidence.minTrust``: receipts below the floor are not evidence (provenance, SPEC §7)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.policy.policy_file import ClaimPolicy

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
TEXT = "The Acme contract is worth $2.4 million a year."


def receipt(trust: str | None) -> Receipt:
    return Receipt.model_validate(
        {
            "id": "crm-1",
            "kind": "web",
            "content": "account=Acme contract_value_usd=2400000",
            "trust": trust,
            "created_at": "2026-03-10T09:00:00Z",
        }
    )


def gate(min_trust: str | None) -> Gate:
    data = {} if min_trust is None else {"evidence": {"minTrust": min_trust}}
    return Gate(policy=ClaimPolicy.model_validate(data))


@pytest.mark.parametrize("as_index", [False, True])
def test_untrusted_support_is_ignored_under_a_trust_floor(as_index: bool) -> None:
    receipts: list[Receipt] | ReceiptIndex = [receipt("untrusted")]
    if as_index:
        receipts = ReceiptIndex(receipts, now=NOW)  # type: ignore[arg-type]
    plain = gate(None).validate(TEXT, receipts=receipts, now=NOW)
    assert plain.sentences[0].tag == "T1"  # a web receipt backs it
    strict = gate("shared").validate(TEXT, receipts=receipts, now=NOW)
    assert strict.sentences[0].tag != "T1"
    assert strict.verdict != "pass"
    assert any("evidence.minTrust" in n for n in strict.notes)


def test_receipts_at_or_above_the_floor_still_count() -> None:
    strict = gate("shared").validate(TEXT, receipts=[receipt("local")], now=NOW)
    assert strict.sentences[0].tag == "T1" and strict.notes == []


def test_a_bad_trust_level_is_a_policy_error_naming_the_field() -> None:
    from receiptgate import ConfigError
    from receiptgate.policy.policy_file import parse_policy

    with pytest.raises(ConfigError, match=r"evidence\.minTrust"):
        parse_policy({"evidence": {"minTrust": "somewhat"}}, source="p.yaml")
