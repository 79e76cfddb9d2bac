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
        # the agent's view, said in other words: what it has no visibility into, what its
        # records do not include, what is not shown in its system
        ("Restocking fees: I don’t have visibility into fee details in this system.", "T1"),
        ("I don't have visibility in this system into restocking or shipping fees.", "T1"),
        ("I do not have visibility into whether refunds are released at carrier scan.", "T1"),
        ("I don't have access to customer reviews beyond the options shown.", "T1"),
        ("I don't have separate return authorization numbers in my system.", "T1"),
        ("I don’t have finer shade details beyond the color name.", "T1"),
        ("The records I can access don't include item-specific return deadlines.", "T1"),
        ("Our system also doesn't show any subscriptions tied to your profile here.", "T1"),
        ("The system did not return a specific ETA.", "T1"),
        ("Specific window duration and fees aren't shown in my system.", "T1"),
        ("No specific shrinkage notes appeared in our product data for this item.", "T1"),
        ("No restocking or shipping fees are indicated here.", "T1"),
        ("I'm not seeing an ETA field in the order record.", "T1"),
        # read as a claim that something does not exist: the same absence backs it
        ("Fit info: our product data does not include notes about shrinkage.", "T1"),
        # what is not available to the agent: nothing in the results names it
        ("No estimated delivery date is available yet.", "T1"),
        ("The order is pending, so there's no tracking number available at this time.", "T1"),
        ("Direct download links aren't available from my side.", "T1"),
        ("I can paste them here, but SMS isn't available through this system.", "T1"),
        # said of a field the result has: not this check's to back
        ("I don't have visibility into the price of this item.", "T3"),
        ("The resolution isn't shown in my system.", "T3"),
        # the result has a price and a resolution: not for this check to call absent
        ("The system doesn't list a price for this item.", "T3"),
        ("The system does not show the resolution.", "T3"),
    ],
)
def test_what_the_results_have_no_field_of_is_backed_by_them(text: str, tag: str) -> None:
    (s,) = GATE.validate(text, receipts=RECEIPTS, now=NOW).sentences
    assert s.tag == tag, s.reasons


@pytest.mark.parametrize(
    "text",
    [
        # what the system shows, not what it leaves out: no absence to back
        "Fees are shown in my system.",
        "The warranty is available in the system.",
        "The camera is not available.",  # a state of the record, no view of the agent's
    ],
)
def test_a_thing_the_system_is_said_to_show_is_not_backed_as_absent(text: str) -> None:
    (s,) = GATE.validate(text, receipts=RECEIPTS, now=NOW).sentences
    assert s.tag != "T1", s.evidence


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
