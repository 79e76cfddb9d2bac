"""Orderings over a list (checks/orderings), end to end: "the cheapest available option",
"the most expensive item in your order" are checked against the rows of that list."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt, parse_receipts

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()

PRODUCT = {
    "name": "T-Shirt",
    "product_id": "9523456873",
    "variants": {
        "9612497925": {"item_id": "9612497925", "available": True, "price": 50.88},
        "8124970213": {"item_id": "8124970213", "available": True, "price": 49.67},
        "1111111111": {"item_id": "1111111111", "available": False, "price": 44.10},
        "9354168549": {"item_id": "9354168549", "available": True, "price": 46.85},
    },
}
ORDER = {
    "order_id": "#W1234567",
    "status": "pending",
    "items": [
        {"name": "Desk Lamp", "item_id": "2222222222", "price": 150.25},
        {"name": "Action Camera", "item_id": "3333333333", "price": 481.50},
        {"name": "Water Bottle", "item_id": "4444444444", "price": 54.85},
    ],
}


def _receipts(*outputs: Any) -> list[Receipt]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "What are my options?"}]
    for i, out in enumerate(outputs):
        call = {"id": f"c{i}", "type": "function", "function": {"name": "get", "arguments": "{}"}}
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": json.dumps(out)})
    return parse_receipts(json.dumps({"messages": messages}), source_name="t.json")


EVIDENCE = _receipts(PRODUCT, ORDER)


def _one(text: str) -> tuple[str | None, str, list[str]]:
    (s,) = GATE.validate(text, receipts=EVIDENCE, now=NOW).sentences
    return s.tag, s.action, s.reasons


@pytest.mark.parametrize(
    "text",
    [
        "The cheapest T-shirt available right now is priced at $46.85.",
        "The cheapest T-shirt is $44.10, but it is not available.",
        "The most expensive item in your order is the Action Camera at $481.50.",
        "The lowest-priced item in your order is the Water Bottle at $54.85.",
    ],
)
def test_a_true_ordering_passes(text: str) -> None:
    tag, action, reasons = _one(text)
    assert (tag, action) == ("T1", "pass"), reasons


@pytest.mark.parametrize(
    ("text", "beaten_by"),
    [
        # $49.67 exists, but $46.85 is cheaper
        ("The cheapest available T-shirt is priced at $49.67.", "46.85"),
        # $44.10 is the cheapest, but it is not available
        ("The cheapest available T-shirt costs $44.10.", "not available"),
        ("The most expensive item in your order is the Desk Lamp at $150.25.", "481.5"),
    ],
)
def test_a_false_ordering_is_contradicted_naming_the_row_that_beats_it(
    text: str, beaten_by: str
) -> None:
    tag, action, reasons = _one(text)
    assert (tag, action) == ("T5", "block")
    assert any(beaten_by in r for r in reasons), reasons


def test_a_superlative_ranks_only_the_rows_of_the_kind_it_names() -> None:
    order = {
        "order_id": "#W7654321",
        "items": [
            {"name": "Wireless Earbuds", "item_id": "5555555555", "price": 232.49},
            {"name": "Wireless Earbuds", "item_id": "6666666666", "price": 258.97},
            {"name": "Water Bottle", "item_id": "7777777777", "price": 54.04},
        ],
    }
    evidence = _receipts(order)
    honest = GATE.validate(
        "The cheapest earbud in this order is priced at $232.49.", receipts=evidence, now=NOW
    )
    assert honest.verdict == "pass", honest.sentences[0].reasons
    wrong = GATE.validate(
        "The cheapest earbud in this order is priced at $258.97.", receipts=evidence, now=NOW
    )
    assert wrong.verdict == "block"
    assert any("232.49 is lower than" in r for r in wrong.sentences[0].reasons)


FLIGHTS = {
    "flights": [
        {"flight_number": "HAT001", "scheduled_departure_time_est": "06:00:00", "price": 153},
        {"flight_number": "HAT002", "scheduled_departure_time_est": "09:30:00", "price": 120},
        {"flight_number": "HAT003", "scheduled_departure_time_est": "14:15:00", "price": 99},
    ]
}
SEARCH = _receipts(FLIGHTS)


@pytest.mark.parametrize(
    ("text", "verdict", "evidence"),
    [
        ("The earliest flight departs at 6:00 AM EST.", "pass", "is the earliest"),
        ("The latest flight departs at 2:15 PM EST.", "pass", "is the latest"),
        ("The earliest flight departs at 9:30 AM EST.", "block", "06:00:00 is earlier than"),
        ("The latest flight departs at 9:30 AM EST.", "block", "14:15:00 is later than"),
        # a list of flights: "the cheapest flight" ranks its rows ("flights[2]")
        ("The cheapest flight is $120.", "block", "price = 99 is lower than 120"),
    ],
)
def test_the_earliest_and_latest_are_checked_against_the_list(
    text: str, verdict: str, evidence: str
) -> None:
    result = GATE.validate(text, receipts=SEARCH, now=NOW)
    assert result.verdict == verdict, result.reason
    assert any(evidence in e.detail for s in result.sentences for e in s.evidence)


#: Two ways of exchanging the lamp, each with its price difference, as a reply lists them.
OPTIONS_REPLY = """Here are your options:

1. **Option 1:**
   - Exchange for item 9612497925
   - **Price:** $50.88
2. **Option 2:**
   - Exchange for item 9354168549
   - **Price:** $46.85

{claim} Would you like to proceed?"""


@pytest.mark.parametrize(
    ("claim", "tag", "action"),
    [
        ("Option 2 is the cheapest choice.", "T1", "pass"),
        ("Option 1 offers the lowest price.", "T5", "block"),
        ("Option 1 is the most expensive one.", "T1", "pass"),
        ("Option 3 offers the lowest price.", "T3", "warn"),  # no such option listed
    ],
)
def test_an_ordering_over_the_options_a_reply_lists_is_checked_against_their_figures(
    claim: str, tag: str, action: str
) -> None:
    text = OPTIONS_REPLY.format(claim=claim)

    result = GATE.validate(text, receipts=_receipts(PRODUCT), now=NOW)

    (s,) = [s for s in result.sentences if s.text == claim]
    assert (s.tag, s.action) == (tag, action), s.reasons
    if action == "block":
        assert "option 2 holds the lowest ($46.85), not option 1 ($50.88)" in s.reasons[0]


FLIGHTS = [
    {"flight_number": "HAT033", "available_seats": {"economy": 16}, "prices": {"economy": 140}},
    {"flight_number": "HAT088", "available_seats": {"economy": 0}, "prices": {"economy": 179}},
]


def test_the_cheapest_fare_is_compared_with_fares_not_with_seat_counts() -> None:
    # HAT088's 0 economy seats are no fare lower than $140
    text = "HAT033 costs $140 in economy (cheapest)."
    result = GATE.validate(text, receipts=_receipts(FLIGHTS), now=NOW)
    assert result.verdict == "pass", [s.reasons for s in result.sentences]


@pytest.mark.parametrize(
    "text",
    [
        # a bound the figure is compared with, not the ranked value
        "Even the cheapest T-shirt would leave a charge well above $49.67.",
        "The cheapest T-shirt costs less than $50.88.",
        # an operand of the sentence's own sum: the sum is what is ranked
        "$49.67 + $50.88 = $100.55 for the two cheapest T-shirts",
    ],
)
def test_a_figure_the_superlative_does_not_rank_is_not_checked_for_its_order(text: str) -> None:
    _tag, action, reasons = _one(text)
    assert action == "pass", reasons


def test_the_ranked_figure_is_still_checked_beside_a_bound() -> None:
    _tag, action, reasons = _one("The cheapest T-shirt is $50.88, well below $60.")
    assert action == "block"
    assert "lower than" in reasons[0]
