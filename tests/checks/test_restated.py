"""Restated material carries its receipt: a value the user typed, a field restated as
"Label: value", the user's own request, a rule restated as a hedge (end to end)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt, ValidationResult, parse_receipts

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()

PROFILE = {
    "user_id": "ethan_garcia_1261",
    "address": {"address1": "12 Elm Street", "city": "Denver", "zip": "80280"},
    "payment_methods": {"paypal_3024827": {"source": "paypal", "id": "paypal_3024827"}},
}
POLICY = (
    "## Returns\n\n- The refund must go to the original payment method or an existing gift card."
)


def _receipts(*messages: dict[str, Any]) -> list[Receipt]:
    return parse_receipts(json.dumps({"messages": list(messages)}), source_name="t.json")


def _call(output: Any) -> list[dict[str, Any]]:
    call = {"id": "c1", "type": "function", "function": {"name": "get_user", "arguments": "{}"}}
    return [
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(output)},
    ]


SESSION = _receipts(
    {"role": "system", "content": POLICY},
    {"role": "user", "content": "Please change my address to 101 Highway, New York, 10001."},
    *_call(PROFILE),
)


def _tags(text: str) -> list[tuple[str | None, str]]:
    result: ValidationResult = GATE.validate(text, receipts=SESSION, now=NOW)
    return [(s.tag, s.action) for s in result.sentences]


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("City: New York", "T7"),  # the user's words
        ("Zip Code: 10001", "T7"),
        ("**Refund method:** PayPal", "T1"),  # a value of the profile
        ("City and state: Boston, Massachusetts", "T3"),  # nobody said Boston
    ],
)
def test_a_label_and_a_value_carry_the_receipt_of_the_value(line: str, tag: str) -> None:
    assert _tags(line)[0][0] == tag


def test_a_code_the_user_did_not_type_is_not_backed_by_a_user_message() -> None:
    assert _tags("Zip Code: 10002") == [("T5", "block")]


def test_the_users_request_restated_in_other_word_forms_is_t7() -> None:
    # "changing" and "change" are one word for the check (both sides are stemmed)
    assert _tags("You mentioned changing your address to 101 Highway.") == [("T7", "pass")]


@pytest.mark.parametrize(
    "text",
    [
        "It seems the refund must go to the original payment method or an existing gift card.",
        "Therefore the refund must go to the original payment method or an existing gift card.",
    ],
)
def test_a_hedge_or_an_inference_that_restates_a_rule_is_t4(text: str) -> None:
    assert _tags(text) == [("T4", "pass")]


MODIFY_POLICY = _receipts(
    {
        "role": "system",
        "content": (
            "## Modify items\n\n- After the items are modified, the agent will not be able "
            "to modify or cancel the order anymore."
        ),
    },
    {"role": "user", "content": "Please swap the lamp."},
    *_call(PROFILE),
)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        # "won't" leaves no word "won" to miss, "no longer" is "not ... anymore"
        ("After the items are modified, we won’t be able to modify or cancel the order.", "T4"),
        ("After this change, the order can no longer be modified or canceled.", "T4"),
        # the rule turned round is no restatement
        ("After the items are modified, the order is still able to be cancelled.", "T3"),
    ],
)
def test_a_rule_restated_with_contractions_and_no_longer_is_t4(text: str, tag: str) -> None:
    result = GATE.validate(text, receipts=MODIFY_POLICY, now=NOW)
    assert result.sentences[0].tag == tag, result.sentences[0].reasons


@pytest.mark.parametrize("text", ["Yes, that's correct.", "That's right!", "You're correct."])
def test_agreeing_with_the_user_restates_the_users_words(text: str) -> None:
    assert _tags(text) == [("T7", "pass")]
    # with no message of the user's, there is nothing to agree with
    alone = GATE.validate(text, receipts=_receipts(*_call(PROFILE)), now=NOW)
    assert alone.sentences[0].tag != "T7"


def test_an_address_is_a_name_not_a_count() -> None:
    # "12 Elm Street" is no count of "Elm"; the line is backed by the profile's address1
    assert _tags("**Address Line 1:** 12 Elm Street") == [("T1", "pass")]
    assert _tags("**Address Line 1:** 14 Elm Street")[0][0] != "T1"


def test_an_account_named_by_the_end_of_its_id_is_that_account() -> None:
    assert _tags("Your refund goes to your PayPal account ending in 3024827.") == [("T1", "pass")]
    assert _tags("Your refund goes to your PayPal account ending in 3024828.")[0] == (
        "T5",
        "block",
    )


def test_courtesy_about_the_help_given_is_no_claim() -> None:
    assert _tags("I'm glad I could assist you with your order and address update.") == [
        (None, "pass")
    ]


@pytest.mark.parametrize(
    "text",
    [
        "I understand that’s frustrating, and I’m sorry for the inconvenience.",
        "I truly understand how important this is to you, and I wish I could help more.",
        "That’s a good thought!",
        "Great question!",
        "You’re welcome.",
        "I’m ready to help with either option once you confirm.",
        "If there’s anything else I can help with, just let me know.",
    ],
)
def test_empathy_praise_and_offers_with_curly_apostrophes_are_no_claim(text: str) -> None:
    assert _tags(text) == [(None, "pass")]


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("**Reservation Summary (please review and confirm “yes” to proceed)**", None),
        ("**1. Preferred partner – SecureTravel Guard**", None),
        ("**Option 1: Distribute certificates and gift cards optimally**", None),
    ],
)
def test_a_line_set_in_bold_with_no_verb_is_a_title(line: str, tag: str | None) -> None:
    result = GATE.validate(f"Here is where things stand:\n\n- {line}\n- Done.", now=NOW)
    assert result.sentences[1].tag == tag, result.sentences[1].reasons


def test_praise_of_a_figure_is_still_a_claim() -> None:
    assert _tags("That’s a good price of $49.")[0] != (None, "pass")


def test_a_rule_restated_with_the_customers_own_method_named_is_still_the_rule() -> None:
    # "PayPal" is a value of the profile, checked there; the rest restates the policy
    text = "It can either be the original payment method (PayPal) or an existing gift card."
    order = {"order_id": "#W1234567", "status": "delivered", "items": [{"name": "Lamp"}]}
    call = {"id": "c2", "type": "function", "function": {"name": "get_order", "arguments": "{}"}}
    session = _receipts(
        {"role": "system", "content": POLICY},
        {"role": "user", "content": "Where does my refund go?"},
        *_call(PROFILE),
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c2", "content": json.dumps(order)},
    )
    (s,) = GATE.validate(text, receipts=session, now=NOW).sentences
    assert (s.tag, s.action) == ("T4", "pass")


@pytest.mark.parametrize(
    "text",
    [
        "I'm unable to place new orders directly.",
        "We’re unable to do that.",
        "I don’t have a way to fetch the carrier from within the system.",
        "Price alerts: I don't have an automated alert capability.",
    ],
)
def test_a_limit_of_the_agent_is_no_claim(text: str) -> None:
    assert _tags(text) == [(None, "pass")]


def test_what_the_agent_says_the_records_lack_is_still_a_claim() -> None:
    # a record, not a means of the agent's: the evidence can say whether there is one
    assert _tags("I don't have any record of that order.")[0][0] == "T5"


INSURANCE = _receipts(
    {"role": "user", "content": "Book it for me, but I don't want travel insurance."},
    *_call(PROFILE),
)


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("**Travel Insurance:** No", "T7"),  # the user's answer
        ("**Travel Insurance:** Yes", "T3"),  # not what the user said
        ("**Seat Upgrade:** No", "T3"),  # nobody spoke of it
    ],
)
def test_a_yes_or_no_the_user_gave_on_a_labels_subject_is_their_answer(line: str, tag: str) -> None:
    result = GATE.validate(line, receipts=INSURANCE, now=NOW)
    assert result.sentences[0].tag == tag


BAGS = _receipts(
    {"role": "user", "content": "Book it for both of us. We don't need any checked bags."},
    *_call(PROFILE),
)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        # a one-line list under a label reads as "Baggage: 0 checked bags"
        ("**Baggage:**\n- 0 checked bags", "T7"),
        ("**Baggage:**\n- No checked bags", "T7"),
        ("Baggage: 0 checked bags", "T7"),
        # a count the user never gave, and a yes to what they declined
        ("**Baggage:**\n- 2 checked bags", "T3"),
        ("Baggage: 2 checked bags", "T3"),
    ],
)
def test_a_line_under_a_label_restates_the_users_answer_with_its_figures(
    text: str, tag: str
) -> None:
    result = GATE.validate(text, receipts=BAGS, now=NOW)
    assert result.sentences[-1].tag == tag, result.sentences[-1].reasons


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("You originally wanted to change your address to 101 Highway.", "T7"),
        # the user asked for no such thing: a figure of the address no one gave
        ("You originally wanted to change your address to 202 Broadway.", "T5"),
    ],
)
def test_what_the_user_originally_wanted_is_their_own_request(text: str, tag: str) -> None:
    assert _tags(text)[0][0] == tag


AIRLINE = _receipts(
    {
        "role": "system",
        "content": "## Change flights\n\n- Basic economy flights cannot be modified.\n"
        "- Cabin changes require the user to pay the fare difference.\n"
        "- Each extra baggage is 50 dollars.",
    },
    *_call({"reservation_id": "QWPZKM", "cabin": "basic_economy", "insurance": "no"}),
)


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        # "its" is the reservation the sentence before named, in basic economy
        ("Reservation QWPZKM is in basic economy. Its flights cannot be changed.", "T4"),
        ("Its flights cannot be changed.", "T3"),  # nothing says what "its" is
        # a new paragraph: "it" is not what the paragraph before named
        ("Reservation QWPZKM is in basic economy.\n\nIts flights cannot be changed.", "T3"),
        # words of its own that the rule does not have: no restatement
        ("Reservation QWPZKM is in basic economy. Its flights cannot be changed online.", "T3"),
    ],
)
def test_a_rule_restated_of_what_the_sentence_before_named_is_t4(text: str, tag: str) -> None:
    result = GATE.validate(text, receipts=AIRLINE, now=NOW)
    assert result.sentences[-1].tag == tag


def test_a_line_labelled_request_restates_the_users_words() -> None:
    assert _tags("Request: change the address on my account") == [("T7", "pass")]
    # nobody asked for this: not the user's words
    assert _tags("Request: close the account and cancel every order")[0][0] != "T7"


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        # the user's own account of the problem, told back
        ("The screen flickers when an external monitor is connected over HDMI.", "T7"),
        # what the agent did about it is no restatement, however many words it shares
        ("The patch stops the screen flicker when a monitor is connected over HDMI.", "T3"),
        ("The flicker over HDMI should now be resolved.", "T3"),
    ],
)
def test_a_statement_of_the_users_own_words_restates_them(text: str, tag: str) -> None:
    said = {
        "role": "user",
        "content": "My screen flickers when I connect an external monitor "
        "over HDMI. It started after the last update.",
    }
    receipts = parse_receipts(json.dumps({"messages": [said]}))
    (s,) = GATE.validate(text, receipts=receipts, now=NOW).sentences
    assert s.tag == tag, s.reasons
