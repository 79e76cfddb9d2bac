"""Figures, look-ups and states as agents write them after many tool calls.

Each case is a shape that honest replies of tau2-bench's airline and retail agents take
(a rate times the heads the line states, a card written as its words and number, a
price beside the price it replaces, a difference to the item the reply names later, a
reference back to the actions just taken, a state word inside a name or a condition),
with the wrong version of the same figure or claim, which stays blocked.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, ValidationResult
from receiptgate.evidence.receipts import Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 15, tzinfo=UTC)
GATE = Gate()

POLICY = {
    "role": "system",
    "content": (
        "# Airline policy\n\nIf the user is a silver or gold member or travels in business, "
        "and complains about a delayed flight, you can offer a certificate, with the amount "
        "being $50 times the number of passengers."
    ),
}

RESERVATION = {
    "reservation_id": "3JA7XV",
    "user_id": "mei_brown_7075",
    "cabin": "business",
    "flights": [
        {"flight_number": "HAT045", "date": "2024-05-15", "price": 1973},
        {"flight_number": "HAT194", "date": "2024-05-16", "price": 1309},
    ],
    "passengers": [
        {"first_name": "Mei", "last_name": "Brown"},
        {"first_name": "Evelyn", "last_name": "Anderson"},
        {"first_name": "Yusuf", "last_name": "Silva"},
        {"first_name": "Ava", "last_name": "Lee"},
    ],
    "payment_history": [{"payment_id": "credit_card_4920843", "amount": 3282}],
}

USER = {
    "user_id": "mei_brown_7075",
    "payment_methods": {
        "certificate_6761175": {
            "source": "certificate",
            "id": "certificate_6761175",
            "amount": 250,
        },
        "gift_card_6136092": {"source": "gift_card", "id": "gift_card_6136092", "amount": 129},
        "gift_card_8020792": {"source": "gift_card", "id": "gift_card_8020792", "amount": 198},
    },
    "reservations": ["3JA7XV"],
}


def _airline() -> list[Receipt]:
    return tool_transcript(
        [
            ("get_user_details", {"user_id": "mei_brown_7075"}, USER),
            ("get_reservation_details", {"reservation_id": "3JA7XV"}, RESERVATION),
        ],
        before=[POLICY],
    )


ORDER = {
    "order_id": "#W9502127",
    "user_id": "daiki_li_1234",
    "status": "pending",
    "items": [
        {
            "name": "Vacuum Cleaner",
            "product_id": "1762337868",
            "item_id": "6259501109",
            "price": 652.61,
            "options": {"type": "robotic"},
        },
        {
            "name": "Running Shoes",
            "product_id": "6938111410",
            "item_id": "9791469541",
            "price": 147.05,
            "options": {"size": "9"},
        },
    ],
    "payment_history": [
        {"transaction_type": "payment", "amount": 799.66, "payment_method_id": "paypal_2433177"}
    ],
}

PRODUCT = {
    "name": "Vacuum Cleaner",
    "product_id": "1762337868",
    "variants": {
        "1345513440": {
            "item_id": "1345513440",
            "options": {"type": "canister"},
            "available": True,
            "price": 655.59,
        },
        "7958300294": {
            "item_id": "7958300294",
            "options": {"type": "canister"},
            "available": True,
            "price": 642.72,
        },
    },
}


def _retail(*more: tuple[str, dict[str, Any], Any]) -> list[Receipt]:
    return tool_transcript(
        [
            ("get_order_details", {"order_id": "#W9502127"}, ORDER),
            ("get_product_details", {"product_id": "1762337868"}, PRODUCT),
            *more,
        ]
    )


def _action(result: ValidationResult, needle: str) -> str:
    return next(s.action for s in result.sentences if needle in s.text)


def _reasons(result: ValidationResult, needle: str) -> str:
    return " ".join(r for s in result.sentences if needle in s.text for r in s.reasons)


# ----------------------------------------------------------------------- rates and heads


@pytest.mark.parametrize(("amount", "action"), [("$200", "pass"), ("$240", "block")])
def test_a_rate_above_times_the_heads_the_line_states_is_derived(amount: str, action: str) -> None:
    text = (
        "For a delayed flight, I can offer a travel certificate of **$50 per passenger**. "
        f"With 4 passengers, that would be a **{amount} certificate**."
    )
    result = GATE.validate(text, receipts=_airline(), now=NOW)
    assert _action(result, "With 4 passengers") == action
    if action == "pass":
        assert "4 × 50" in str(result.sentences[-1].evidence)


def test_a_rate_beside_a_total_is_not_read_as_the_total() -> None:
    text = (
        "Your reservation 3JA7XV is in business. We can issue a certificate as a gesture "
        "($50 per passenger, $200 total for the four passengers)."
    )
    result = GATE.validate(text, receipts=_airline(), now=NOW)
    assert "miscalculated" not in _reasons(result, "gesture")


# ---------------------------------------------------------------- cards as words and digits


@pytest.mark.parametrize(("amount", "action"), [("$198", "pass"), ("$129", "block")])
def test_a_card_written_as_its_words_and_number_is_that_cards_record(
    amount: str, action: str
) -> None:
    text = f"Your gift cards:\n\n- Gift Card 6136092: $129\n- Gift Card 8020792: {amount}\n"
    result = GATE.validate(text, receipts=_airline(), now=NOW)
    assert _action(result, "Gift Card 8020792") == action


# ------------------------------------------------------------ prices beside other prices


@pytest.mark.parametrize(("old", "action"), [("$652.61", "pass"), ("$650.00", "block")])
def test_a_price_beside_the_price_it_replaces(old: str, action: str) -> None:
    text = f"The canister vacuum 1345513440 is available. Price: $655.59 (current item is {old})"
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert _action(result, "Price:") == action


@pytest.mark.parametrize(("old", "action"), [("$652.61", "pass"), ("$650.61", "block")])
def test_the_other_term_of_a_stated_difference_is_not_contradicted(old: str, action: str) -> None:
    text = (
        "Item 1345513440 is a canister vacuum for $655.59. "
        f"The price difference from your current vacuum ({old}) is $2.98."
    )
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert _action(result, "difference from") == action


@pytest.mark.parametrize(("gap", "action"), [("+2.98", "pass"), ("+3.98", "block")])
def test_a_difference_to_an_item_the_reply_names_later(gap: str, action: str) -> None:
    text = (
        "Here are the available canister variants:\n"
        f"- Item 1345513440: canister — price 655.59 (difference vs your robotic {gap})\n\n"
        "Which item do you want to exchange the robotic vacuum (6259501109) for?"
    )
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert _action(result, "Item 1345513440") == action


# --------------------------------------------------------------- look-ups and completions


def test_i_found_the_cheapest_option_needs_a_look_up() -> None:
    text = "I found the cheapest option for you."
    looked = _retail()
    assert _action(GATE.validate(text, receipts=looked, now=NOW), "cheapest") == "pass"
    assert _action(GATE.validate(text, receipts=[], now=NOW), "cheapest") == "block"


def test_a_reference_back_to_the_actions_taken_needs_those_calls() -> None:
    text = "I've submitted both actions."
    done = _retail(
        ("modify_pending_order_items", {"order_id": "#W9502127"}, {**ORDER, "status": "pending"}),
        ("modify_pending_order_address", {"order_id": "#W9502127"}, ORDER),
    )
    assert _action(GATE.validate(text, receipts=done, now=NOW), "both actions") == "pass"
    assert _action(GATE.validate(text, receipts=_retail(), now=NOW), "both actions") == "block"


# ------------------------------------------------------------------------------- states


def test_a_state_word_inside_a_product_name_is_no_state() -> None:
    text = "Order #W9502127 (status: pending) includes: Vacuum Cleaner, Running Shoes."
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert result.verdict == "pass", [s.reasons for s in result.sentences]


@pytest.mark.parametrize(
    "text",
    [
        "Once the items are received and processed, the refund will go to your PayPal.",
        "Would you like to cancel order #W9502127 instead, or one that has been delivered?",
        "If you believe it was delivered, please tell me the delivered order's id.",
    ],
)
def test_a_state_word_in_a_condition_or_a_question_contradicts_nothing(text: str) -> None:
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert "Contradicted status" not in " ".join(r for s in result.sentences for r in s.reasons)


def test_a_state_the_sentence_reports_is_still_checked() -> None:
    text = "Order #W9502127 is currently in a delivered status."
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert result.verdict == "block"
    assert "Contradicted status" in _reasons(result, "delivered status")


def test_an_action_named_by_its_noun_is_the_tool_that_does_it() -> None:
    text = "I've submitted the one-time item modification for your pending order."
    done = _retail(("modify_pending_order_items", {"order_id": "#W9502127"}, ORDER))
    assert _action(GATE.validate(text, receipts=done, now=NOW), "modification") == "pass"
    assert _action(GATE.validate(text, receipts=_retail(), now=NOW), "modification") == "block"


def test_a_refund_added_back_is_the_call_that_refunded() -> None:
    cancelled = {
        **ORDER,
        "status": "cancelled",
        "payment_history": [
            *ORDER["payment_history"],
            {"transaction_type": "refund", "amount": 799.66, "payment_method_id": "paypal_2433177"},
        ],
    }
    text = "The refund of $799.66 has been added back to your PayPal account."
    done = _retail(("cancel_pending_order", {"order_id": "#W9502127"}, cancelled))
    assert _action(GATE.validate(text, receipts=done, now=NOW), "refund") == "pass"
    assert _action(GATE.validate(text, receipts=_retail(), now=NOW), "refund") == "block"


def test_a_booking_confirmed_is_the_booking_made_and_an_identity_confirmed_a_look_up() -> None:
    booked = tool_transcript(
        [("book_reservation", {"user_id": "mei_brown_7075"}, {**RESERVATION, "status": None})]
    )
    text = "Your booking has been confirmed."
    assert _action(GATE.validate(text, receipts=booked, now=NOW), "booking") == "pass"
    assert _action(GATE.validate(text, receipts=_airline(), now=NOW), "booking") == "block"
    identity = "Your identity has been confirmed."
    assert _action(GATE.validate(identity, receipts=_airline(), now=NOW), "identity") == "pass"


@pytest.mark.parametrize("title", ["Requested changes", "Updated ETA"])
def test_the_plain_title_of_a_list_asserts_nothing(title: str) -> None:
    text = f"{title}\n- Shipping address: 159 Hickory Lane\n- Status: pending"
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert _action(result, title) == "pass"
    assert not any("Action claim" in r for s in result.sentences for r in s.reasons)


@pytest.mark.parametrize(
    "title",
    ["Summary of actions", "What happens next", "Regarding your questions", "What I changed"],
)
def test_a_plain_title_over_a_list_is_a_label(title: str) -> None:
    for under in ("\n- Status: pending", "\n\n1. The order is pending."):
        result = GATE.validate(f"{title}{under}", receipts=_retail(), now=NOW)
        first = result.sentences[0]
        assert (first.tag, first.reasons) == (None, ["no claim: a label for the lines under it"])


@pytest.mark.parametrize(
    "text",
    [
        # a verb or a participle makes a short line a statement, and a line with no list
        # under it is a paragraph of its own
        "Everything is set\n- Status: pending",
        "Return request submitted\n- Status: pending",
        "Shipping address updated\n\nThanks.",
        "Summary of actions",
        "Summary of actions\n\nThe order is pending.",
    ],
)
def test_a_short_line_that_states_or_stands_alone_is_no_title(text: str) -> None:
    first = GATE.validate(text, receipts=_retail(), now=NOW).sentences[0]
    assert first.reasons != ["no claim: a label for the lines under it"]


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # a pending order is active (open), never closed
        ("Order #W9502127 remains active and is still pending.", "pass"),
        ("Order #W9502127 is still open.", "pass"),
        ("Order #W9502127 is closed.", "block"),
        ("Order #W9502127 is delivered.", "block"),
    ],
)
def test_a_state_that_covers_the_records_is_no_rival_of_it(text: str, action: str) -> None:
    result = GATE.validate(text, receipts=_retail(), now=NOW)
    assert result.verdict == action, [s.reasons for s in result.sentences]


def test_a_participle_after_a_status_label_is_the_state() -> None:
    result = GATE.validate("Order #W9502127\nStatus: pending", receipts=_retail(), now=NOW)
    assert result.verdict == "pass", [s.reasons for s in result.sentences]
    processed = GATE.validate("Order #W9502127\nStatus: processed", receipts=_retail(), now=NOW)
    assert not any("Action claim" in r for s in processed.sentences for r in s.reasons)


# ------------------------------------------------------------------ values, ids and counts


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # an id written with a space for its first "_"
        ("The refund goes to your gift card_6136092.", "pass"),
        ("The refund goes to your gift card_6136093.", "block"),
        # an example of what an id looks like is no record's id
        ('Please find the code (a short string, e.g. "AB12CD") in your email.', "pass"),
        ("Please find the code (for example W1234567) in your email.", "pass"),
        ("Your reservation code is AB12CD.", "block"),
    ],
)
def test_an_id_split_by_a_space_is_that_id_and_an_example_is_none(text: str, action: str) -> None:
    result = GATE.validate(text, receipts=_airline(), now=NOW)
    assert result.verdict == action, [s.reasons for s in result.sentences]


@pytest.mark.parametrize(("value", "action"), [("One-way", "pass"), ("Round trip", "block")])
def test_a_labelled_value_is_read_with_its_hyphen_or_space(value: str, action: str) -> None:
    one_way = {**RESERVATION, "flight_type": "one_way"}
    receipts = tool_transcript([("get_reservation_details", {"reservation_id": "3JA7XV"}, one_way)])
    text = f"Reservation 3JA7XV details:\n- Cabin: business\n- Flight Type: {value}"
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert _action(result, "Flight Type") == action


@pytest.mark.parametrize(("card", "action"), [("6136092", "pass"), ("6136093", "block")])
def test_a_card_number_in_brackets_is_that_cards_id(card: str, action: str) -> None:
    text = f"The refund of $129 will go back to your Gift Card ({card})."
    result = GATE.validate(text, receipts=_airline(), now=NOW)
    assert _action(result, "Gift Card") == action


def _reservations(*cabins: str, downgraded: int = 0) -> list[Receipt]:
    ids = [f"RES00{i}" for i in range(len(cabins))]
    calls: list[tuple[str, dict[str, Any], Any]] = [
        ("get_user_details", {"user_id": "mei_brown_7075"}, {**USER, "reservations": ids})
    ]
    for rid, cabin in zip(ids, cabins, strict=True):
        calls.append(
            (
                "get_reservation_details",
                {"reservation_id": rid},
                {"reservation_id": rid, "cabin": cabin},
            )
        )
    for rid in ids[:downgraded]:
        calls.append(
            (
                "update_reservation_flights",
                {"reservation_id": rid, "cabin": "economy"},
                {"reservation_id": rid, "cabin": "economy"},
            )
        )
    return tool_transcript(calls)


@pytest.mark.parametrize(("n", "action"), [(2, "pass"), (3, "block")])
def test_a_count_qualified_by_a_value_counts_the_records_holding_it(n: int, action: str) -> None:
    receipts = _reservations("business", "economy", "business")
    text = f"I can see you have {n} business class reservations."
    assert _action(GATE.validate(text, receipts=receipts, now=NOW), "reservations") == action


@pytest.mark.parametrize(("downgraded", "action"), [(2, "pass"), (1, "block")])
def test_a_count_of_records_changed_counts_the_calls_that_changed_them(
    downgraded: int, action: str
) -> None:
    receipts = _reservations("business", "business", "business", downgraded=downgraded)
    text = "All 2 reservations have been successfully downgraded to economy class."
    assert _action(GATE.validate(text, receipts=receipts, now=NOW), "reservations") == action


def test_a_state_an_earlier_result_of_the_record_showed_is_stale_not_contradicted() -> None:
    delivered = {**ORDER, "status": "delivered"}
    returned = {**ORDER, "status": "return requested"}
    receipts = _retail(
        ("get_order_details", {"order_id": "#W9502127"}, delivered),
        ("return_delivered_order_items", {"order_id": "#W9502127"}, returned),
    )
    stale = GATE.validate("Order #W9502127 is delivered.", receipts=receipts, now=NOW)
    # not backed (a state now must be the newest result's), but no contradiction either:
    # the audit says which result showed it and which one shows the state now
    assert "Contradicted" not in _reasons(stale, "delivered")
    assert "showed before" in _reasons(stale, "delivered")
    never = GATE.validate("Order #W9502127 is cancelled.", receipts=receipts, now=NOW)
    assert "Contradicted status" in _reasons(never, "cancelled")


@pytest.mark.parametrize(("balance", "action"), [("$696.00", "pass"), ("$686.00", "block")])
def test_a_cards_balance_after_the_refund_its_id_names_is_derived(
    balance: str, action: str
) -> None:
    cancelled = {
        "reservation_id": "K1NW8N",
        "status": "cancelled",
        "payment_history": [{"payment_id": "gift_card_6136092", "amount": 567}],
    }
    receipts = tool_transcript(
        [
            ("get_user_details", {"user_id": "mei_brown_7075"}, USER),
            ("cancel_reservation", {"reservation_id": "K1NW8N"}, cancelled),
        ]
    )
    text = f"After the refund:\n- Gift Card 2: {balance} (gift_card_6136092)"
    assert _action(GATE.validate(text, receipts=receipts, now=NOW), "Gift Card 2") == action


@pytest.mark.parametrize(("suite", "action"), [("Suite 872", "pass"), ("Suite 873", "block")])
def test_a_new_value_a_change_gives_a_record_comes_from_another_record(
    suite: str, action: str
) -> None:
    # the order's own address is Suite 270; Suite 872 is the other order's
    here = {**ORDER, "address": {"address1": "584 Sunset Drive", "address2": "Suite 270"}}
    there = {
        **ORDER,
        "order_id": "#W3964602",
        "address": {"address1": "555 Highland Drive", "address2": "Suite 872"},
    }
    receipts = tool_transcript(
        [
            ("get_order_details", {"order_id": "#W9502127"}, here),
            ("get_order_details", {"order_id": "#W3964602"}, there),
        ]
    )
    text = f"Order #W9502127: update the shipping address to 555 Highland Drive, {suite}."
    assert _action(GATE.validate(text, receipts=receipts, now=NOW), "update") == action


@pytest.mark.parametrize(("amount", "action"), [("$200", "pass"), ("$240", "block")])
def test_a_figure_of_a_thing_the_sentence_names_is_not_the_named_records_price(
    amount: str, action: str
) -> None:
    text = (
        "For the delay I can offer **$50 per passenger**; your reservation 3JA7XV has 4 "
        f"passengers.\\n\\n**Issue a {amount} travel certificate** for the delay on flight HAT045."
    )
    result = GATE.validate(text, receipts=_airline(), now=NOW)
    assert _action(result, "Issue a") == action
    assert "Contradicted" not in _reasons(result, "Issue a")


@pytest.mark.parametrize(("balance", "action"), [("$86.00", "pass"), ("$68.00", "block")])
def test_a_row_named_by_its_kind_is_not_the_row_another_clause_names_by_id(
    balance: str, action: str
) -> None:
    # the gift card is named by its source ("gift card"), the PayPal account by its id
    profile = {
        "user_id": "ethan_garcia_1261",
        "payment_methods": {
            "paypal_3798357": {"source": "paypal", "id": "paypal_3798357"},
            "gift_card_4332117": {
                "source": "gift_card",
                "id": "gift_card_4332117",
                "balance": 86.0,
            },
        },
    }
    receipts = tool_transcript([("get_user_details", {"user_id": "ethan_garcia_1261"}, profile)])
    text = (
        f"Your current gift card balance is {balance}; if the difference exceeds this, we can "
        "use your PayPal (paypal_3798357) as a fallback."
    )
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert _action(result, "gift card balance") == action
