"""Outcomes told as a state ("Your trip is booked.", "Both returns are in.") are checked
as the actions they report: backed by a successful call that did it, and otherwise left
a general statement, flagged (checks/outcomes)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2026, 4, 2, 12, tzinfo=UTC)
GATE = Gate()

LOOKUP = ("get_restaurant", {"name": "Osteria Nove"}, {"name": "Osteria Nove", "tables": 12})
BOOKED = (
    "book_table",
    {"restaurant": "Osteria Nove", "party": 4},
    {"booking_id": "BK-2291", "time": "19:30"},
)
FAILED = ("book_table", {"restaurant": "Osteria Nove", "party": 4}, "Error: no table free")
RETURNED = (
    "return_items",
    {"order_id": "#A100", "item_ids": ["1", "2"]},
    {"order_id": "#A100", "status": "return requested"},
)


def _one(text: str, *calls: tuple[str, dict[str, object], object]) -> tuple[str | None, str]:
    result = GATE.validate(text, receipts=tool_transcript(calls), now=NOW)
    (s,) = result.sentences
    return s.tag, s.action


@pytest.mark.parametrize(
    "text",
    ["Your table is booked.", "The booking is all set!", "Your table has now been booked."],
)
def test_when_a_call_did_what_the_outcome_says_then_it_is_backed(text: str) -> None:
    assert _one(text, LOOKUP, BOOKED) == ("T1", "pass")


def test_when_no_call_did_it_then_the_outcome_stays_flagged() -> None:
    assert _one("Your table is booked.", LOOKUP) == ("T3", "warn")


@pytest.mark.parametrize(
    "text",
    [
        "Your table is booked.",
        "Your booking for Osteria Nove is already confirmed.",  # restates a record's name too
    ],
)
def test_when_the_call_that_would_do_it_failed_then_the_outcome_is_contradicted(
    text: str,
) -> None:
    result = GATE.validate(text, receipts=tool_transcript((LOOKUP, FAILED)), now=NOW)
    (s,) = result.sentences
    assert (s.tag, s.action) == ("T5", "block")
    assert any("book_table call failed" in e.detail for e in s.evidence)
    # a later call that succeeded did it after all
    assert _one(text, LOOKUP, FAILED, BOOKED) == ("T1", "pass")


def test_when_a_cancel_call_failed_then_the_records_status_decides_not_the_call() -> None:
    cancelled = ("get_order", {"order_id": "#A100"}, {"order_id": "#A100", "status": "cancelled"})
    refused = ("cancel_order", {"order_id": "#A100"}, "Error: order is already cancelled")
    assert _one("Your order is cancelled.", cancelled, refused)[1] != "block"


def test_when_the_returns_are_in_then_the_return_call_backs_them() -> None:
    assert _one("Both returns are in.", RETURNED) == ("T1", "pass")
    assert _one("Both returns are in.", LOOKUP) == ("T3", "warn")


def test_when_a_date_follows_then_it_is_the_records_history_not_an_outcome() -> None:
    assert _one("The table was booked on March 3.", LOOKUP, BOOKED)[0] != "T1"


def test_when_today_dates_an_act_this_conversation_performed_then_the_call_backs_it() -> None:
    text = "The return of both items was requested today."
    assert _one(text, RETURNED)[1] == "pass"
    # no call made it: "today" is a date no receipt holds
    assert _one(text, LOOKUP)[1] != "pass"


@pytest.mark.parametrize("text", ["Done, you're booked.", "🎉 Your table booking is all done!"])
def test_outcomes_said_to_you_or_after_a_mark_are_outcomes_too(text: str) -> None:
    assert _one(text, LOOKUP, BOOKED) == ("T1", "pass")
    assert _one(text, LOOKUP)[0] == "T3"


def test_when_a_lookup_found_the_user_then_youre_verified_is_backed() -> None:
    found = ("find_user_id_by_email", {"email": "mei@example.com"}, "mei_kovacs_8020")
    assert _one("You're verified, Mei.", found) == ("T1", "pass")
    failed = ("find_user_id_by_email", {"email": "mei@example.com"}, "Error: user not found")
    assert _one("You're verified, Mei.", failed)[0] != "T1"


@pytest.mark.parametrize(
    "text",
    [
        "Both of your returns have gone through.",
        "The system shows that both return requests were created successfully.",
        "Your return is set up.",
        "Your return went through.",
    ],
)
def test_outcomes_in_other_words_are_backed_by_the_call_that_did_them(text: str) -> None:
    assert _one(text, RETURNED) == ("T1", "pass")
    assert _one(text, LOOKUP)[1] != "pass"  # no return call: nothing backs it


def test_a_change_that_went_through_is_the_modify_call() -> None:
    modified = ("modify_order_items", {"order_id": "#A100"}, {"order_id": "#A100"})
    assert _one("The change has gone through.", modified) == ("T1", "pass")
    assert _one("The change has gone through.", LOOKUP)[1] != "pass"


def test_an_outcome_after_in_summary_is_an_outcome_too() -> None:
    found = ("find_user_id_by_email", {"email": "mei@example.com"}, "mei_kovacs_8020")
    text = "In summary, you're verified, and the next step is to pick the order."
    assert _one(text, found) == ("T1", "pass")


MODIFIED = (
    "modify_order_items",
    {"order_id": "#A100"},
    {
        "order_id": "#A100",
        "payment_history": [
            {"transaction_type": "payment", "amount": 120.0, "payment_method_id": "paypal_77"},
            {"transaction_type": "refund", "amount": 7.98, "payment_method_id": "paypal_77"},
        ],
    },
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # the amount is what was refunded, whatever it is called
        ("The difference of $7.98 has been refunded to your PayPal account.", "pass"),
        ("The difference has been refunded to your PayPal account.", "pass"),
        # the call's refund row went to PayPal
        ("The difference has been refunded to your gift card.", "block"),
    ],
)
def test_a_refund_is_the_calls_refund_row_and_goes_where_it_went(text: str, action: str) -> None:
    assert _one(text, MODIFIED)[1] == action


def test_a_refund_row_a_look_up_shows_was_made_before_and_backs_no_refund_now() -> None:
    looked_up = ("get_order_details", MODIFIED[1], MODIFIED[2])
    assert _one("The difference has been refunded to your PayPal account.", looked_up)[1] != (
        "pass"
    )


RETURNED_ONE = (
    "return_delivered_order_items",
    {"order_id": "#A100", "item_ids": ["1"]},
    {
        "order_id": "#A100",
        "status": "return requested",
        "items": [
            {"name": "Air Purifier", "item_id": "1", "price": 473.43},
            {"name": "Desk Lamp", "item_id": "2", "price": 150.25},
        ],
    },
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("Refund: $473.43 back to your PayPal", "pass"),  # the returned item's price
        # the total of both items is no one row's amount
        ("Your total refund for both items: $473.43 back to your PayPal", "block"),
        ("Refund: $480.00 back to your PayPal", "block"),
    ],
)
def test_a_refund_of_one_rows_amount_is_backed_by_that_row(text: str, action: str) -> None:
    assert _one(text, RETURNED_ONE)[1] == action


@pytest.mark.parametrize(
    ("text", "backed"),
    [
        # reports the failure the call's output shows
        ("There was an error booking the table.", True),
        ("I was unable to fix the issue.", True),
        # the issue is the task the change was for: no report of the failed call
        ("All required changes have been made to address the issue.", False),
        ("This should resolve the issue described by the user.", False),
    ],
)
def test_a_failed_call_backs_a_report_of_failure_not_a_change_made_to_address_an_issue(
    text: str, backed: bool
) -> None:
    result = GATE.validate(text, receipts=tool_transcript((LOOKUP, FAILED)), now=NOW)
    (s,) = result.sentences
    assert any("book_table call failed" in e.detail for e in s.evidence) is backed


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("I have the restaurant details.", "T1"),
        ("Now I have all the information.", "T1"),
        # nothing looked up holds a menu: no receipt, and no contradiction either
        ("I have your menu details.", "T3"),
    ],
)
def test_details_the_agent_says_it_has_are_backed_by_the_look_up_that_gave_them(
    text: str, tag: str
) -> None:
    (s,) = GATE.validate(text, receipts=tool_transcript([LOOKUP]), now=NOW).sentences
    assert s.tag == tag, s.reasons


def test_details_said_had_with_no_look_up_or_after_a_failed_one_are_not_backed() -> None:
    failed = ("get_restaurant", {"name": "Osteria Nove"}, "Error: no such restaurant")
    for receipts in ([], tool_transcript([failed])):
        (s,) = GATE.validate("I have all the details.", receipts=receipts, now=NOW).sentences
        assert s.tag != "T1", s.evidence


@pytest.mark.parametrize("text", ["Everything is set.", "Everything is done!"])
def test_everything_done_is_backed_by_the_newest_change_that_succeeded(text: str) -> None:
    (s,) = GATE.validate(text, receipts=tool_transcript([LOOKUP, BOOKED]), now=NOW).sentences
    assert s.tag == "T1", s.reasons
    for calls in ([LOOKUP], [LOOKUP, FAILED]):  # nothing changed, or the change failed
        (s,) = GATE.validate(text, receipts=tool_transcript(calls), now=NOW).sentences
        assert s.tag != "T1", s.evidence


@pytest.mark.parametrize("text", ["Table booked successfully.", "Table booked for 4 people"])
def test_a_terse_line_of_what_was_done_is_backed_by_the_call_that_did_it(text: str) -> None:
    (s,) = GATE.validate(text, receipts=tool_transcript([LOOKUP, BOOKED]), now=NOW).sentences
    assert s.tag == "T1", s.reasons
    # no such call: nothing backs it
    (s,) = GATE.validate(text, receipts=tool_transcript([LOOKUP]), now=NOW).sentences
    assert s.tag != "T1"


@pytest.mark.parametrize(
    "text", ["No table has been booked.", "The table was not booked.", "Nothing booked."]
)
def test_a_terse_line_that_says_an_act_was_not_done_is_no_outcome(text: str) -> None:
    # the booking failed: a line saying none was made is true, no act it reports
    (s,) = GATE.validate(text, receipts=tool_transcript([LOOKUP, FAILED]), now=NOW).sentences
    assert s.action != "block", s.reasons


def test_of_two_calls_that_did_an_act_the_one_the_object_names_is_the_evidence() -> None:
    later = ("update_table", {"restaurant": "Osteria Nove"}, {"booking_id": "BK-2291"})
    result = GATE.validate(
        "Return request submitted.", receipts=tool_transcript([RETURNED, later]), now=NOW
    )
    (s,) = result.sentences
    assert s.tag == "T1"
    assert "return_items" in s.evidence[0].detail
