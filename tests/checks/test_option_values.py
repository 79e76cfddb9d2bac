"""checks/option_values.py: a line that lists the option values of one record."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate.checks.option_values import option_values
from receiptgate.evidence.index import ReceiptIndex
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)

VACUUM = {
    "name": "Vacuum Cleaner",
    "product_id": "1762337868",
    "variants": {
        "1345513440": {
            "item_id": "1345513440",
            "options": {"type": "canister", "bagged/bagless": "bagged", "features": "cordless"},
            "price": 655.59,
        },
        "7958300294": {
            "item_id": "7958300294",
            "options": {"type": "canister", "bagged/bagless": "bagless", "features": "HEPA"},
            "price": 642.72,
        },
    },
}


@pytest.mark.parametrize(
    ("line", "backed"),
    [
        ("Canister, bagged, cordless", True),
        ("Canister, bagless, HEPA (already in your order)", True),
        # each value is some variant's, but no one variant holds them all
        ("Canister, bagged, HEPA", False),
        ("Canister, bagged, cordless, quiet", False),
        ("The canister one is bagged", False),  # no list of values
    ],
)
def test_a_line_of_option_values_is_backed_by_the_variant_that_holds_them_all(
    line: str, backed: bool
) -> None:
    receipts = tool_transcript([("get_product_details", {"product_id": "1762337868"}, VACUUM)])
    found = option_values(ReceiptIndex(receipts, now=NOW), line)
    assert (found is not None and found.status == "supported") == backed
    if backed:
        assert found is not None and 'variants["' in (found.path or "")


CAMERA = {
    "name": "Action Camera",
    "product_id": "3377618313",
    "variants": {
        "6700049080": {"item_id": "6700049080", "options": {"resolution": "4K"}, "price": 466.75},
        "4859937227": {"item_id": "4859937227", "options": {"resolution": "5K"}, "price": 570.0},
    },
}


@pytest.mark.parametrize(("said", "action"), [("5K", "pass"), ("8K", "block")])
def test_an_option_written_like_a_number_is_the_option_as_written(said: str, action: str) -> None:
    # "5K" is the resolution a variant holds, not five thousand waterproof things
    from receiptgate import Gate

    receipts = tool_transcript([("get_product_details", {"product_id": "3377618313"}, CAMERA)])
    text = f"Note: {said} waterproof variants are currently unavailable."
    result = Gate().validate(text, receipts=receipts, now=NOW)
    assert result.sentences[0].action == action, result.reason
