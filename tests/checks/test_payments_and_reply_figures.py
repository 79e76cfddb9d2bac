"""Payments, refunds and figures a reply works out from its own lines, end to end.

An airline agent changed a reservation and paid (or was refunded) through a method the
call names, ran a calculator, and wrote replies that restate the method, the refund,
and totals built from lines above them. The operator's policy is a system message.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, ValidationResult
from receiptgate.evidence.receipts import Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
GATE = Gate()

POLICY = (
    "# Airline policy\n\n"
    "- Travel insurance: the agent should ask if the user wants to buy the travel insurance, "
    "which is 30 dollars per passenger and enables full refund if the user needs to cancel "
    "the flight given health or weather reasons.\n\n"
    "- If the user complains about delayed flights, the agent can offer a certificate, with "
    "the amount being $50 times the number of passengers.\n"
)

USER = {
    "name": {"first_name": "Omar", "last_name": "Haddad"},
    "payment_methods": {
        "credit_card_2929732": {
            "source": "credit_card",
            "brand": "visa",
            "last_four": "7803",
            "id": "credit_card_2929732",
        },
        "gift_card_3481935": {"source": "gift_card", "amount": 129, "id": "gift_card_3481935"},
        "gift_card_6136092": {"source": "gift_card", "amount": 198, "id": "gift_card_6136092"},
        "certificate_3765853": {
            "source": "certificate",
            "amount": 500,
            "id": "certificate_3765853",
        },
        "certificate_9984806": {
            "source": "certificate",
            "amount": 250,
            "id": "certificate_9984806",
        },
        "certificate_2765295": {
            "source": "certificate",
            "amount": 250,
            "id": "certificate_2765295",
        },
    },
    "membership": "silver",
}


def _reservation(payments: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "reservation_id": "JG7FMM",
        "user_id": "omar_haddad_3817",
        "origin": "MCO",
        "destination": "CLT",
        "flight_type": "one_way",
        "cabin": "economy",
        "flights": [
            {"flight_number": "HAT028", "date": "2024-05-21", "price": 140},
            {"flight_number": "HAT277", "date": "2024-05-22", "price": 101},
        ],
        "passengers": [
            {"first_name": "Omar", "last_name": "Haddad", "dob": "1980-01-02"},
            {"first_name": "Mia", "last_name": "Haddad", "dob": "1982-03-04"},
            {"first_name": "Liam", "last_name": "Haddad", "dob": "2010-05-06"},
        ],
        "payment_history": payments,
    }


def _receipts(*results: tuple[str, dict[str, Any], Any]) -> list[Receipt]:
    before = [
        {"role": "system", "content": POLICY},
        {"role": "user", "content": "Hi, I'm omar_haddad_3817 and I fly on May 21st."},
    ]
    return tool_transcript(results, before=before)


LOOKUPS = (
    ("get_user_details", {"user_id": "omar_haddad_3817"}, USER),
    (
        "get_reservation_details",
        {"reservation_id": "JG7FMM"},
        _reservation([{"payment_id": "credit_card_2929732", "amount": 2787}]),
    ),
)
PAID_BY_GIFT_CARD = _receipts(
    *LOOKUPS,
    (
        "update_reservation_flights",
        {"reservation_id": "JG7FMM", "cabin": "business", "payment_id": "gift_card_3481935"},
        _reservation(
            [
                {"payment_id": "credit_card_2929732", "amount": 2787},
                {"payment_id": "gift_card_3481935", "amount": 96},
            ]
        ),
    ),
)
REFUNDED_TO_CREDIT_CARD = _receipts(
    *LOOKUPS,
    (
        "update_reservation_flights",
        {"reservation_id": "JG7FMM", "cabin": "economy", "payment_id": "credit_card_2929732"},
        _reservation(
            [
                {"payment_id": "credit_card_2929732", "amount": 2787},
                {"payment_id": "credit_card_2929732", "amount": -2544},
            ]
        ),
    ),
)
CALCULATED = _receipts(*LOOKUPS, ("calculate", {"expression": "207 - 2787"}, "-2580.0"))


def _flight(number: str, economy: int) -> list[dict[str, Any]]:
    return [
        {
            "flight_number": number,
            "origin": "ATL",
            "destination": "ORD",
            "status": "available",
            "prices": {"basic_economy": economy - 40, "economy": economy, "business": economy * 3},
        }
    ]


#: Two searches, one fare of each in the reply, and more searches after them (the user's
#: payment methods are no longer among the newest results).
SEARCHED = _receipts(
    *LOOKUPS,
    ("search_direct_flight", {"origin": "ATL", "destination": "ORD"}, _flight("HAT227", 112)),
    ("search_direct_flight", {"origin": "ORD", "destination": "PHL"}, _flight("HAT139", 104)),
    *[
        (
            "search_direct_flight",
            {"origin": "PHL", "destination": f"X{i}"},
            _flight(f"HAT9{i}", 300 + i),
        )
        for i in range(6)
    ],
)


def _sentence(result: ValidationResult, part: str) -> tuple[str | None, str]:
    s = next(s for s in result.sentences if part in s.text)
    return s.tag, s.action


def _check(text: str, receipts: list[Receipt]) -> ValidationResult:
    return GATE.validate(text, receipts=receipts, now=NOW)


@pytest.mark.parametrize(
    "sentence",
    [
        "The payment was processed using your gift card.",
        "The additional cost has been covered using your gift card.",
    ],
)
def test_when_the_paying_call_used_that_method_then_the_payment_is_backed(sentence: str) -> None:
    result = _check(f"Your reservation has been updated. {sentence}", PAID_BY_GIFT_CARD)
    assert _sentence(result, sentence[:20]) == ("T1", "pass"), result.sentences


def test_when_the_paying_call_used_another_method_then_the_payment_is_blocked() -> None:
    result = _check("The payment was processed using your credit card.", PAID_BY_GIFT_CARD)
    assert result.verdict == "block"
    assert "gift_card_3481935" in " ".join(result.sentences[0].reasons)


def test_when_no_call_took_a_payment_then_an_offer_of_a_method_is_no_payment_claim() -> None:
    receipts = _receipts(*LOOKUPS)
    result = _check("You can pay the difference with your gift card or credit card.", receipts)
    assert result.verdict != "block"


def test_when_a_result_records_a_refund_then_its_method_backs_the_sentence() -> None:
    text = "The refund of $2,544 has been processed back to your credit card."
    assert _check(text, REFUNDED_TO_CREDIT_CARD).verdict == "pass"
    wrong = "The refund of $2,544 has been processed back to your gift card."
    assert _check(wrong, REFUNDED_TO_CREDIT_CARD).verdict == "block"


def test_when_a_result_records_a_refund_then_the_refunded_action_is_backed() -> None:
    text = "The refund has been processed to the original payment method."
    assert _check(text, REFUNDED_TO_CREDIT_CARD).verdict == "pass"
    assert _check(text, PAID_BY_GIFT_CARD).verdict == "block"  # no refund recorded


def test_when_plural_process_nouns_report_refunds_then_the_ledger_checks_them() -> None:
    text = "The refunds have been processed."
    assert _check(text, REFUNDED_TO_CREDIT_CARD).verdict == "pass"
    assert _check(text, _receipts(*LOOKUPS)).verdict == "block"


def test_when_a_calculator_returned_a_negative_difference_then_it_is_a_refund_not_a_charge() -> (
    None
):
    refund = "Since your original payment was $2787, you will receive a refund of $2580."
    assert _check(refund, CALCULATED).verdict == "pass"
    charge = "The change will cost an additional $2580."
    assert _check(charge, CALCULATED).verdict == "block"


def test_when_a_refund_has_a_figure_then_an_unrelated_rule_figure_does_not_contradict_it() -> None:
    # the policy's "30 dollars per passenger" (insurance) shares the word "refund" with it
    result = _check("Your refund will be $2580.", _receipts(*LOOKUPS))
    assert "30 dollars" not in " ".join(r for s in result.sentences for r in s.reasons)


def test_when_a_line_computes_from_a_line_above_then_both_are_backed() -> None:
    text = (
        "Your original payment was $2,787. Here are the new flights:\n\n"
        "- **HAT227:** $112 in economy\n"
        "- **HAT139:** $104 in economy\n"
        "- **Total Cost:** $216\n"
        "- **Refund:** The difference of $2,571 will be refunded to the original payment method.\n"
    )
    result = _check(text, SEARCHED)
    assert result.verdict == "pass", result.sentences
    assert "a line above" in " ".join(
        e.detail for s in result.sentences if "Refund" in s.text for e in s.evidence
    )
    wrong = text.replace("$2,571", "$2,500")
    assert _sentence(_check(wrong, SEARCHED), "Refund")[1] == "block"


@pytest.mark.parametrize(("total", "action"), [("$216", "pass"), ("$226", "block")])
def test_when_a_total_shows_its_terms_then_they_are_added_as_written(
    total: str, action: str
) -> None:
    text = f"The cheapest economy prices are {total} ($112 + $104)."
    assert _sentence(_check(text, SEARCHED), "cheapest")[1] == action


def test_when_a_total_names_a_kind_of_row_then_the_rows_of_that_kind_are_summed() -> None:
    text = (
        "Your payment methods:\n\n"
        "1. **Certificates**:\n"
        "   - Certificate 1: $500\n"
        "   - Certificate 2: $250\n"
        "   - Total from Certificates: $1,000\n"
        "2. **Gift Cards**:\n"
        "   - Gift Card 1: $129\n"
        "   - Total from Gift Cards: $327\n"
    )
    result = _check(text, SEARCHED)
    assert result.verdict == "pass", result.sentences


def test_when_a_rule_gives_a_per_head_amount_then_a_total_over_the_passengers_is_backed() -> None:
    text = (
        "I found your reservation JG7FMM. The compensation amount is $50 per passenger.\n\n"
        "- Total compensation: $150"
    )
    result = _check(text, _receipts(*LOOKUPS))
    assert _sentence(result, "Total compensation")[1] == "pass", result.sentences
    assert "3 × 50" in " ".join(
        e.detail for s in result.sentences if "Total" in s.text for e in s.evidence
    )


def test_when_a_user_wrote_an_ordinal_date_then_it_names_no_record() -> None:
    # "May 21st" in the user's message is a date: the sentence that repeats it is about
    # the reservation the sentence before named, not about the user's message
    text = "I found your reservation JG7FMM. You depart on May 21st and return on May 22nd."
    result = _check(text, _receipts(*LOOKUPS))
    assert result.verdict == "pass", result.sentences


def test_when_a_policy_is_restated_in_other_common_words_then_it_is_backed() -> None:
    text = (
        "The travel insurance you purchased allows for a full refund if you need to cancel "
        "the flight due to health or weather reasons."
    )
    result = _check(text, _receipts(*LOOKUPS))
    assert result.sentences[0].tag == "T4" and result.verdict == "pass", result.sentences


def test_when_a_label_names_a_kind_of_row_in_the_plural_then_its_rows_are_summed() -> None:
    # gift cards of 129 and 198, read long before the reply
    assert _check("Reservation 1:\n\n- Gift Cards: $327\n", SEARCHED).verdict == "pass"
    assert _check("Reservation 1:\n\n- Gift Cards: $337\n", SEARCHED).verdict == "block"


def test_when_the_agent_wrote_a_figure_into_a_think_call_then_it_is_no_evidence() -> None:
    thought = "The user has a gift card with a $57 balance, so I will use it first."
    receipts = _receipts(*LOOKUPS, ("think", {"thought": thought}, ""))
    assert _check("Your gift card has a balance of $57.", receipts).verdict == "block"


def test_when_a_sentence_names_a_row_by_its_kind_then_another_kind_does_not_take_the_value() -> (
    None
):
    # "gift card" names the row whose source is gift_card, beside the certificates
    text = "The payment used your $198 gift card and your $500 certificate."
    result = _check(text, _receipts(*LOOKUPS))
    assert result.verdict == "pass", result.sentences


def test_when_a_label_line_starts_with_a_participle_then_it_is_no_action_or_state() -> None:
    # "Checked bags" is the label (nothing was checked); "as booked" says how, not a status
    result = _check("Flight HAT227:\n\n- Checked bags: 0 (as booked)\n", SEARCHED)
    assert result.verdict != "block", result.sentences


def test_when_a_heading_gives_a_figure_then_it_is_checked() -> None:
    # "### Total: $X" is a line of figures set as a heading, not a title
    assert _check("### Gift Cards: $327\n", SEARCHED).verdict == "pass"
    assert _check("### Gift Cards: $337\n", SEARCHED).verdict == "block"


def test_when_a_sentence_calls_a_price_a_fare_then_the_price_backs_it() -> None:
    result = _check(
        "Here is the option:\n\n- **New fare (economy):** $112 per passenger\n", SEARCHED
    )
    assert result.verdict == "pass", result.sentences


def test_when_a_rule_says_without_then_a_negated_restatement_matches_it() -> None:
    receipts = [
        Receipt(
            id="sys1",
            kind="rag",
            content=(
                "# Policy\n\nOther reservations can be modified without changing the origin, "
                "destination, and trip type.\n\nThe rules are strict regardless of the "
                "membership status.\n"
            ),
        )
    ]
    result = _check("Note that the origin, destination, and trip type cannot be changed.", receipts)
    assert result.sentences[0].tag == "T4", result.sentences


def test_when_the_call_refunded_the_method_then_a_payment_with_it_is_contradicted() -> None:
    # the change lowered the price: the result records -2544 to the card, no payment
    text = "The payment for the change has been processed using your credit card."
    result = _check(text, REFUNDED_TO_CREDIT_CARD)
    assert result.verdict == "block"
    assert "a refund of 2544" in " ".join(result.sentences[0].reasons)
    # saying only that the method was used is no claim that the customer paid
    neutral = (
        "The change has been made, and your original payment method has been used for the "
        "transaction."
    )
    assert _check(neutral, REFUNDED_TO_CREDIT_CARD).verdict == "pass"


def test_when_a_payment_names_another_amount_than_the_call_charged_then_it_is_blocked() -> None:
    # the update charged the gift card 96
    assert _check(
        "A payment of $96 has been charged to your gift card.", PAID_BY_GIFT_CARD
    ).verdict == ("pass")
    wrong = _check("A payment of $48 has been charged to your gift card.", PAID_BY_GIFT_CARD)
    assert wrong.verdict == "block"
    assert "charged 96, not 48" in " ".join(wrong.sentences[0].reasons)


def test_when_an_action_names_its_object_after_a_label_then_the_label_is_not_the_object() -> None:
    text = "- **Refund:** $2,544 has been refunded to your credit card."
    assert _check(text, REFUNDED_TO_CREDIT_CARD).verdict == "pass"


def test_when_only_a_think_call_mentions_an_action_then_it_was_not_performed() -> None:
    receipts = _receipts(
        *LOOKUPS, ("think", {"thought": "I should add two checked bags to JG7FMM."}, "")
    )
    result = _check("Two checked bags have been added to your reservation.", receipts)
    assert result.verdict == "block"


def test_when_the_agent_says_it_found_an_option_then_a_search_backs_it() -> None:
    text = "I found a combination that keeps the cost low."
    assert _check(text, SEARCHED).sentences[0].action == "pass"


@pytest.mark.parametrize(("budget", "backed"), [("$100", True), ("$400", False)])
def test_when_every_fare_of_a_search_is_above_a_budget_then_none_is_within_it(
    budget: str, backed: bool
) -> None:
    # the last searches list fares from 265 upwards (the budget itself is the user's)
    text = f"Unfortunately, there are no nonstop flights within your budget of {budget}."
    details = " ".join(e.detail for e in _check(text, SEARCHED).sentences[0].evidence)
    assert ("every price it lists is above" in details) == backed


def test_a_total_a_failed_booking_reported_backs_a_hedged_restatement() -> None:
    receipts = _receipts(
        *LOOKUPS,
        (
            "book_reservation",
            {"user_id": "omar_haddad_3817", "payment_methods": []},
            "Error: payment amount does not add up, total price is 375, but paid 299",
        ),
    )
    text = "It seems there was an additional cost, bringing the total to $375."

    result = GATE.validate(text, receipts=receipts, now=NOW)

    assert (result.sentences[0].tag, result.verdict) == ("T1", "pass")


SEARCH = (
    "search_direct_flight",
    {"origin": "MCO", "destination": "CLT", "date": "2024-05-21"},
    [{"flight_number": "HAT028", "prices": {"economy": 150, "business": 360}}],
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Your original payment was $2787 for a business class ticket.", "pass"),
        ("Your original payment was $2788 for a business class ticket.", "block"),
    ],
)
def test_the_noun_a_figure_is_of_picks_the_field_that_backs_it(text: str, verdict: str) -> None:
    result = GATE.validate(text, receipts=_receipts(*LOOKUPS, SEARCH), now=NOW)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


# ------------------------------------------------------------- deductions written with a sign


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("- Certificate_3765853: -$500\n- Gift_card_6136092: -$198", "pass"),
        ("- Certificate_3765853: −$500", "pass"),  # a minus sign
        ("- Certificate_3765853: -$550", "block"),  # no record holds 550
    ],
)
def test_when_a_payment_breakdown_writes_deductions_with_a_sign_then_each_is_its_method_amount(
    line: str, verdict: str
) -> None:
    result = GATE.validate(
        f"Here is how the fare would be paid:\n\n{line}", receipts=_receipts(*LOOKUPS), now=NOW
    )

    assert result.verdict == verdict, result.reason


CANCELLED = tool_transcript(
    (
        *LOOKUPS,
        (
            "cancel_reservation",
            {"reservation_id": "JG7FMM"},
            {
                **_reservation(
                    [
                        {"payment_id": "credit_card_2929732", "amount": 2787},
                        {"payment_id": "credit_card_2929732", "amount": -2787},
                    ]
                ),
                "status": "cancelled",
            },
        ),
    ),
    before=[
        {
            "role": "system",
            "content": POLICY + "- Refunds to a credit card take 5-7 business days.\n",
        },
        {"role": "user", "content": "Please cancel JG7FMM."},
    ],
)


@pytest.mark.parametrize(
    "text",
    [
        "✅ **Reservation JG7FMM has been cancelled** — full refund of **$2,787** to the Visa "
        "ending in 7803 (within 5-7 business days).",
        "🎉 Reservation JG7FMM has been cancelled.",
    ],
)
def test_when_a_done_action_opens_with_a_mark_and_names_a_day_range_then_the_call_backs_it(
    text: str,
) -> None:
    result = GATE.validate(text, receipts=CANCELLED, now=NOW)

    assert result.verdict == "pass", result.reason
    # ... and without the call it is still no act
    assert GATE.validate(text, receipts=_receipts(*LOOKUPS), now=NOW).verdict == "block"


def test_an_act_said_as_it_happens_needs_the_call_that_does_it() -> None:
    refund = "The full $2,787 is being refunded to your Visa ending in 7803."
    assert GATE.validate(refund, receipts=CANCELLED, now=NOW).verdict == "pass"
    assert GATE.validate(refund, receipts=_receipts(*LOOKUPS), now=NOW).verdict == "block"
    transfer = "YOU ARE BEING TRANSFERRED TO A HUMAN AGENT. PLEASE HOLD ON."
    moved = _receipts(
        *LOOKUPS, ("transfer_to_human_agents", {"summary": "..."}, "Transfer successful")
    )
    assert GATE.validate(transfer, receipts=moved, now=NOW).verdict == "pass"
    assert GATE.validate(transfer, receipts=_receipts(*LOOKUPS), now=NOW).verdict == "block"


def test_when_a_total_comes_under_lines_of_derived_amounts_then_it_is_their_sum() -> None:
    def booking(rid: str, first: int, second: int) -> dict[str, Any]:
        flights = [
            {"flight_number": f"HAT{first}", "date": "2024-05-25", "price": first},
            {"flight_number": f"HAT{second}", "date": "2024-05-29", "price": second},
        ]
        paid: list[dict[str, Any]] = []  # no payment: the line is the fares added
        return {**_reservation(paid), "reservation_id": rid, "flights": flights}

    trips = [("AAA111", 189, 117), ("BBB222", 201, 95), ("CCC333", 310, 92), ("DDD444", 188, 108)]
    receipts = _receipts(
        *LOOKUPS,
        *[
            ("get_reservation_details", {"reservation_id": r}, booking(r, a, b))
            for r, a, b in trips
        ],
    )
    # each line's amount is its reservation's fares added; the total adds the four lines
    lines = "".join(f"- **{r}**: 2024-05-25/05-29 — ${a + b}\n" for r, a, b in trips)
    text = f"Your upcoming reservations:\n\n{lines}\n**Total cost of upcoming flights: $1,300**"
    assert _check(text, receipts).verdict == "pass", _check(text, receipts).reason
    assert _check(text.replace("1,300", "1,310"), receipts).verdict == "block"


@pytest.mark.parametrize(
    "text",
    [
        "I found your Orlando to Charlotte reservation:",
        "I checked the same reservation and dates.",
    ],
)
def test_when_a_look_up_names_its_object_past_a_place_then_the_look_up_call_backs_it(
    text: str,
) -> None:
    assert _check(text, _receipts(*LOOKUPS)).verdict == "pass"
    # ... and a look-up of something no call fetched is still no act
    assert _check("I checked your frequent flyer miles.", _receipts(*LOOKUPS)).verdict == "block"


def test_when_a_refund_is_said_to_be_applied_then_its_amount_is_checked_not_a_patch() -> None:
    refunded = "A refund of $2,544 has been applied to your credit card."
    assert _check(refunded, REFUNDED_TO_CREDIT_CARD).verdict == "pass"
    assert _check(refunded.replace("2,544", "2,644"), REFUNDED_TO_CREDIT_CARD).verdict == "block"
    # an applied patch is still an act that needs its call
    assert _check("The patch has been applied to the server.", PAID_BY_GIFT_CARD).verdict == "block"


_CERTIFICATE_AND_FARE = tool_transcript(
    [
        (
            "get_user_details",
            {"user_id": "u1"},
            {
                "user_id": "u1",
                "payment_methods": {
                    "certificate_3765853": {"source": "certificate", "amount": 500},
                    "credit_card_2198526": {"source": "credit_card", "brand": "mastercard"},
                },
            },
        ),
        (
            "search_direct_flight",
            {"origin": "JFK", "destination": "SFO", "date": "2024-05-26"},
            [{"flight_number": "HAT023", "prices": {"economy": 162, "business": 871}}],
        ),
    ]
)


@pytest.mark.parametrize(("charge", "action"), [("$371", "pass"), ("$372", "block")])
def test_a_result_the_reply_worked_out_is_restated_not_a_value_of_the_labelled_record(
    charge: str, action: str
) -> None:
    text = (
        "HAT023 in business is $871.\n\n**Payment:**\n- Certificate certificate_3765853: $500\n"
        f"- Remaining: $871 - $500 = $371\n\nMastercard charge: {charge}"
    )
    result = Gate().validate(
        text, receipts=_CERTIFICATE_AND_FARE, now=datetime(2024, 5, 15, tzinfo=UTC)
    )
    assert result.sentences[-1].action == action, result.sentences[-1].reasons


_PAID_WITH_ONE_CARD = tool_transcript(
    [
        (
            "get_user_details",
            {"user_id": "u1"},
            {
                "user_id": "u1",
                "payment_methods": {
                    "gift_card_7480005": {
                        "source": "gift_card",
                        "amount": 6,
                        "id": "gift_card_7480005",
                    },
                    "gift_card_7091239": {
                        "source": "gift_card",
                        "amount": 120,
                        "id": "gift_card_7091239",
                    },
                },
            },
        ),
        (
            "get_reservation_details",
            {"reservation_id": "OBUT9V"},
            {
                "reservation_id": "OBUT9V",
                "payment_history": [{"payment_id": "gift_card_7091239", "amount": 566}],
            },
        ),
    ]
)


@pytest.mark.parametrize(
    ("method", "action"),
    [
        ("the original payment method (gift card gift_card_7091239)", "pass"),
        ("the original payment method (gift card gift_card_7480005)", "block"),
        # another method offered beside the original is no claim that it is the original
        ("your original payment method or your gift card (gift_card_7480005)", "pass"),
    ],
)
def test_the_method_named_as_the_original_is_the_first_payment_of_the_history(
    method: str, action: str
) -> None:
    text = f"The fare difference will be refunded to {method}."
    result = GATE.validate(text, receipts=_PAID_WITH_ONE_CARD, now=NOW)
    assert result.sentences[0].action == action, result.sentences[0].reasons


ORDER = {
    "order_id": "#W5061109",
    "status": "pending (item modified)",
    "items": [{"name": "Wireless Earbuds", "item_id": "6077640618", "price": 242.92}],
    "payment_history": [
        {"transaction_type": "payment", "amount": 256.67, "payment_method_id": "paypal_2433177"}
    ],
}


@pytest.mark.parametrize(
    ("method", "action"),
    [("PayPal", "pass"), ("credit card", "block"), ("gift card", "block")],
)
def test_a_kind_named_as_the_original_payment_method_is_the_order_s_first_payment(
    method: str, action: str
) -> None:
    receipts = tool_transcript([("get_order_details", {"order_id": "#W5061109"}, ORDER)])
    text = (
        "Your order #W5061109 was updated:\n"
        "1. Modified item: Wireless Earbuds (Item ID: 6077640618)\n"
        f"2. Refund method: {method} (original payment method)"
    )
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert next(s.action for s in result.sentences if "Refund method" in s.text) == action


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("Original booking (Business): $2,787", "pass"),
        ("Original booking (Business): $2,797", "block"),
        # not said to be what was paid: the business fare the line names is another figure
        ("Business: $2,787", "block"),
    ],
)
def test_what_was_paid_for_the_original_booking_is_its_payment(line: str, action: str) -> None:
    reservation = {
        "reservation_id": "NM1VX1",
        "cabin": "business",
        "flights": [{"flight_number": "HAT100", "price": 1393}],
        "payment_history": [{"payment_id": "credit_card_1", "amount": 2787}],
    }
    search = [{"flight_number": "HAT100", "prices": {"economy": 150, "business": 1405}}]
    receipts = tool_transcript(
        [
            ("get_reservation_details", {"reservation_id": "NM1VX1"}, reservation),
            ("search_direct_flight", {"origin": "JFK"}, search),
        ]
    )
    text = f"Here is the comparison for HAT100:\n- {line}"
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.sentences[-1].action == action, result.reason
