"""checks/unshown.py: what the agent says its tools do not show, against the newest
structured results (end to end)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
GATE = Gate()
PRODUCT = {
    "name": "Action Camera",
    "product_id": "3377618313",
    "variants": {
        "6700049080": {
            "item_id": "6700049080",
            "options": {"resolution": "4K", "waterproof": "yes"},
            "price": 466.75,
            "available": True,
        }
    },
}
RECEIPTS = tool_transcript([("get_product_details", {"product_id": "3377618313"}, PRODUCT)])


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("The system doesn't list any fees or shipping costs for this item.", "T1"),
        ("My catalog view doesn't expose a brand or model name for this item.", "T1"),
        ("I don't see sale or bundle flags in my view.", "T1"),
        # the result has a price and a resolution: not for this check to call absent
        ("The system doesn't list a price for this item.", "T3"),
        ("The system does not show the resolution.", "T3"),
    ],
)
def test_what_the_results_have_no_field_of_is_backed_by_them(text: str, tag: str) -> None:
    (s,) = GATE.validate(text, receipts=RECEIPTS, now=NOW).sentences
    assert s.tag == tag, s.reasons


def test_with_no_structured_result_nothing_backs_it() -> None:
    (s,) = GATE.validate("The system doesn't list any fees.", receipts=[], now=NOW).sentences
    assert s.tag != "T1"


@pytest.mark.parametrize(("budget", "tag"), [("$400", "T1"), ("$500", "T5")])
def test_none_at_or_under_a_budget_is_read_against_a_products_variants(
    budget: str, tag: str
) -> None:
    # the one variant costs $466.75: none at or under $400; one under $500
    asked = {"role": "user", "content": f"Please share options at or under {budget}."}
    receipts = tool_transcript(
        [("get_product_details", {"product_id": "3377618313"}, PRODUCT)], before=[asked]
    )
    text = f"No qualifying options are currently available at or under {budget}."
    (s,) = GATE.validate(text, receipts=receipts, now=NOW).sentences
    assert s.tag == tag, s.reasons
