"""States said of a counted group of records ("both pending orders are cancelled", "the two
cancelled orders") when the reply also names a record in another state (checks/record_states)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 15, tzinfo=UTC)
GATE = Gate()


def _order(order_id: str, status: str, item: str = "Espresso Machine") -> dict[str, Any]:
    return {
        "order_id": order_id,
        "user_id": "fatima_johnson_7581",
        "status": status,
        "items": [{"name": item, "item_id": f"9{order_id[2:]}00", "price": 100.0}],
    }


def _session() -> list[Receipt]:
    """Three orders looked up; the two pending ones cancelled, the third delivered."""
    return tool_transcript(
        [
            ("get_order_details", {"order_id": "#W5199551"}, _order("#W5199551", "pending")),
            ("get_order_details", {"order_id": "#W8665881"}, _order("#W8665881", "pending")),
            ("get_order_details", {"order_id": "#W9389413"}, _order("#W9389413", "delivered")),
            ("cancel_pending_order", {"order_id": "#W5199551"}, _order("#W5199551", "cancelled")),
            ("cancel_pending_order", {"order_id": "#W8665881"}, _order("#W8665881", "cancelled")),
        ],
        before=[{"role": "user", "content": "Please cancel my pending orders."}],
    )


REPLY = (
    "Done — both pending orders are {state}:\n\n"
    "- #W5199551 — refund to your PayPal\n"
    "- #W8665881 — refund to your PayPal\n\n"
    "Your third order, #W9389413, was already delivered, so it couldn't be cancelled."
)


@pytest.mark.parametrize(("state", "action"), [("cancelled", "pass"), ("delivered", "block")])
def test_both_records_in_a_state_are_the_two_that_hold_it(state: str, action: str) -> None:
    result = GATE.validate(REPLY.format(state=state), receipts=_session(), now=NOW)
    assert result.sentences[0].action == action, result.sentences[0].reasons


def test_a_counted_group_named_by_its_state_is_not_the_record_the_sentence_names() -> None:
    # the sentence names the delivered order's item; "the two cancelled orders" are the
    # two records the evidence holds cancelled, no contradiction of the delivered one
    receipts = tool_transcript(
        [
            ("get_order_details", {"order_id": "#W5199551"}, _order("#W5199551", "cancelled")),
            ("get_order_details", {"order_id": "#W8665881"}, _order("#W8665881", "cancelled")),
            (
                "get_order_details",
                {"order_id": "#W9389413"},
                _order("#W9389413", "delivered", "Smart Watch"),
            ),
        ]
    )
    text = "You'll get refunds for the two cancelled orders and for the Smart Watch."
    (s,) = GATE.validate(text, receipts=receipts, now=NOW).sentences
    assert s.action == "pass", s.reasons
    # three are not what the evidence holds
    text3 = "You'll get refunds for the three cancelled orders and for the Smart Watch."
    (s3,) = GATE.validate(text3, receipts=receipts, now=NOW).sentences
    assert s3.action != "pass"


def _user(*orders: str) -> dict[str, Any]:
    return {"user_id": "fatima_johnson_7581", "orders": list(orders)}


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # after the cancellations: two cancelled, one delivered
        ("There are no pending orders left on your account.", "pass"),
        ("**Pending orders:** none.", "pass"),
        ("There are no delivered orders on your account.", "block"),
        ("There are no pending or delivered orders on your account.", "block"),
    ],
)
def test_no_record_of_a_group_in_a_state(text: str, verdict: str) -> None:
    user = (
        "get_user_details",
        {"user_id": "fatima_johnson_7581"},
        _user("#W5199551", "#W8665881", "#W9389413"),
    )
    receipts = [*tool_transcript([user]), *_session()]
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict


def test_no_record_in_a_state_says_nothing_when_an_order_was_never_looked_up() -> None:
    # the user has a fourth order no call looked up: "no delivered orders" is not shown
    user = (
        "get_user_details",
        {"user_id": "fatima_johnson_7581"},
        _user("#W5199551", "#W8665881", "#W1111111"),
    )
    receipts = [*tool_transcript([user]), *_session()[:2]]
    result = GATE.validate(
        "There are no delivered orders on your account.", receipts=receipts, now=NOW
    )
    assert result.verdict != "pass" and "contradict" not in result.reason
