"""An airline agent's replies against its tools' JSON (a domain the retail rules were not
written for), end to end.

The agent looked up a customer (payment methods keyed by their ids), a reservation,
and a one-stop flight search whose fares sit in a ``prices`` object per cabin and
whose arrival times use the schedule's ``+1`` for the next day. Its replies restate
those records in "Label: value" lines, option lists and totals.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, ValidationResult, parse_receipts
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
GATE = Gate()

USER = {
    "name": {"first_name": "Lena", "last_name": "Okafor"},
    "payment_methods": {
        "certificate_5512093": {
            "source": "certificate",
            "amount": 150,
            "id": "certificate_5512093",
        },
        "gift_card_8830417": {"source": "gift_card", "amount": 64, "id": "gift_card_8830417"},
    },
    "membership": "silver",
    "reservations": ["QWPZKM"],
}
RESERVATION = {
    "reservation_id": "QWPZKM",
    "user_id": "lena_okafor_4410",
    "origin": "BOS",
    "destination": "DEN",
    "cabin": "economy",
    "flight_type": "round_trip",
    "flights": [{"flight_number": "HAT301", "date": "2024-05-21", "price": 188}],
    "total_baggages": 2,
    "nonfree_baggages": 0,
    "insurance": "no",
}
SEARCH = [
    [
        {
            "flight_number": "HAT410",
            "origin": "BOS",
            "destination": "ORD",
            "scheduled_departure_time_est": "19:00:00",
            "scheduled_arrival_time_est": "21:30:00",
            "status": "available",
            "prices": {"basic_economy": 58, "economy": 117, "business": 402},
        },
        {
            "flight_number": "HAT522",
            "origin": "ORD",
            "destination": "DEN",
            "scheduled_departure_time_est": "23:00:00",
            "scheduled_arrival_time_est": "01:00:00+1",
            "status": "available",
            "prices": {"basic_economy": 64, "economy": 131, "business": 380},
        },
    ]
]


def _transcript(*results: tuple[str, dict[str, Any], Any]) -> list[Any]:
    return tool_transcript(
        results, before=[{"role": "user", "content": "Hi, I'm lena_okafor_4410."}]
    )


RECEIPTS = _transcript(
    ("get_user_details", {"user_id": "lena_okafor_4410"}, USER),
    ("get_reservation_details", {"reservation_id": "QWPZKM"}, RESERVATION),
    (
        "search_onestop_flight",
        {"origin": "BOS", "destination": "DEN", "date": "2024-05-24"},
        SEARCH,
    ),
)


def _check(text: str) -> ValidationResult:
    return GATE.validate(text, receipts=RECEIPTS, now=NOW)


def _sentence(result: ValidationResult, part: str) -> tuple[str | None, str]:
    s = next(s for s in result.sentences if part in s.text)
    return s.tag, s.action


@pytest.mark.parametrize(
    "line",
    [
        "**Reservation ID:** QWPZKM",  # an id with no digit
        "**Total Baggages:** 2",
        "**Non-Free Baggages:** 0",
        "**Travel Insurance:** Not included",
        "**Travel Insurance:** Not selected",
        "**Travel insurance:** Declined",
        "**Insurance:** No",
        "**Insurance:** No travel insurance",
        "**Baggage:** 2 checked bags",
        "**Cabin:** Economy",
        "**Cabin:** Economy for both legs",  # what it holds for, after the value
        "Cabin: economy on all flights",
    ],
)
def test_when_a_label_line_restates_a_field_of_the_record_then_it_is_backed(line: str) -> None:
    result = _check(f"Here are the details of your reservation:\n\n- {line}\n")
    assert _sentence(result, line.split(":")[0]) == ("T1", "pass"), result.sentences


@pytest.mark.parametrize(
    "line",
    [
        "**Reservation ID:** ZXQWVB",
        "**Total Baggages:** 3",
        "**Travel Insurance:** Included",
        "**Baggage:** 3 checked bags",
    ],
)
def test_when_a_label_line_gives_a_value_no_field_it_names_holds_then_it_is_not_backed(
    line: str,
) -> None:
    result = _check(f"Here are the details of your reservation:\n\n- {line}\n")
    tag, _ = _sentence(result, line.split(":")[0])
    assert tag != "T1"


def test_when_a_payment_method_is_named_by_its_number_then_the_number_is_backed() -> None:
    result = _check("You can use:\n\n- Certificate 5512093: $150\n- Gift card 8830417: $64\n")
    assert result.verdict == "pass", result.reason


def test_when_a_payment_method_number_is_changed_then_it_is_blocked() -> None:
    result = _check("You can use:\n\n- Certificate 5512094: $150\n")
    assert result.verdict == "block"


def test_when_a_total_adds_the_fares_of_the_two_segments_then_it_is_backed() -> None:
    # 117 + 131 from the economy fares (a "prices" object: amounts of money)
    result = _check("The one-stop option in economy costs $248 in total.")
    assert result.verdict == "pass", result.reason
    assert any("248 = " in e.detail for s in result.sentences for e in s.evidence)


def test_when_a_total_of_the_fares_is_wrong_then_it_is_not_passed() -> None:
    result = _check("The one-stop option in economy costs $249 in total.")
    assert result.verdict != "pass"


def test_when_an_arrival_the_next_day_is_restated_then_it_is_backed() -> None:
    result = _check(
        "Flight HAT522 departs ORD at 11:00 PM EST and arrives at 1:00 AM EST the next day."
    )
    assert result.verdict == "pass", result.reason


@pytest.mark.parametrize(
    "line",
    [
        "**Payment Method:** Please confirm which payment method you'd like to use.",
        "Change of plan",
        "Upgrade to business class.",
        "Looking forward to assisting you soon.",
        "Whenever you're ready with the details, feel free to reach out, and I'll be here to help.",
    ],
)
def test_when_a_line_asserts_nothing_then_it_gets_no_tag(line: str) -> None:
    result = _check(line)
    assert [s.tag for s in result.sentences] == [None]
    assert result.verdict == "pass"


def _with(*extra: tuple[str, dict[str, Any], Any]) -> list[Any]:
    return _transcript(
        ("get_user_details", {"user_id": "lena_okafor_4410"}, USER),
        (
            "get_reservation_details",
            {"reservation_id": "QWPZKM"},
            {**RESERVATION, "created_at": "2024-05-02T09:14:00"},
        ),
        *extra,
    )


UPGRADED = {**RESERVATION, "flights": [{"flight_number": "HAT301", "price": 402}]}
BAGS = {**RESERVATION, "total_baggages": 4, "nonfree_baggages": 1}


def test_when_a_reservation_was_created_on_its_created_date_then_no_action_is_claimed() -> None:
    result = GATE.validate(
        "Your reservation QWPZKM was created on 2024-05-02.",
        receipts=_with(),
        now=NOW,
    )
    assert result.verdict == "pass", result.reason


def test_when_the_creation_date_is_wrong_then_it_is_not_passed() -> None:
    result = GATE.validate(
        "Your reservation QWPZKM was created on 2024-05-09.", receipts=_with(), now=NOW
    )
    assert result.verdict != "pass"


@pytest.mark.parametrize(
    ("text", "call"),
    [
        (
            "Your reservation has been successfully upgraded to business class.",
            (
                "update_reservation_flights",
                {"reservation_id": "QWPZKM", "cabin": "business"},
                UPGRADED,
            ),
        ),
        (
            "Two checked bags have been added to your reservation.",
            (
                "update_reservation_baggages",
                {"reservation_id": "QWPZKM", "total_baggages": 4},
                BAGS,
            ),
        ),
        (
            "**Checked Baggage**: Added two checked bags, both free for gold members.",
            (
                "update_reservation_baggages",
                {"reservation_id": "QWPZKM", "total_baggages": 4},
                BAGS,
            ),
        ),
    ],
)
def test_when_an_update_call_made_the_change_then_the_change_is_backed(
    text: str, call: tuple[str, dict[str, Any], Any]
) -> None:
    assert GATE.validate(text, receipts=_with(call), now=NOW).verdict == "pass"
    # without the call the same claim is an action nobody performed
    assert GATE.validate(text, receipts=_with(), now=NOW).verdict == "block"


@pytest.mark.parametrize(
    "text",
    [
        # no operation named: a fare is a fare, not a sum of two rows' fares (117 + 131)
        "Flight HAT410 economy price: $248",
        # two fares of one prices object are alternatives, never parts of a sum (58 + 402)
        "The total for flight HAT410 is $460.",
        # a fare of the search plus the reservation's price is a coincidence (117 + 188)
        "The total for the new flight is $305.",
    ],
)
def test_when_a_figure_is_only_a_coincidental_sum_then_it_is_not_passed(text: str) -> None:
    assert _check(text).verdict != "pass"


def test_when_a_name_joins_a_passengers_first_name_to_an_unknown_word_then_it_is_blocked() -> None:
    assert _check("Passenger: Lena Okafor").verdict == "pass"
    result = _check("Passenger: Lena Rebecca")
    assert result.verdict == "block"
    assert "no record names Lena Rebecca" in result.reason


def test_when_an_enum_value_is_written_with_spaces_then_it_is_backed() -> None:
    # "round_trip" in the reservation, "Round Trip" in the reply
    result = _check("Reservation QWPZKM:\n\n- **Trip type:** Round Trip\n")
    assert _sentence(result, "Trip type") == ("T1", "pass"), result.sentences


def test_when_an_option_is_named_by_its_number_then_the_number_is_no_figure() -> None:
    result = _check("Option 2 offers the lowest price.")
    assert result.claims == [] or all(c.hard_facts == [] for c in result.claims)


def test_when_a_flight_is_given_the_date_it_was_searched_for_then_the_date_is_backed() -> None:
    # the reservation holds HAT410 on May 20; the search results carry no date, the
    # search asked for 2024-05-24: the new flight's date is the search's
    held = {**RESERVATION, "flights": [{"flight_number": "HAT410", "date": "2024-05-20"}]}
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, held),
        (
            "search_direct_flight",
            {"origin": "BOS", "destination": "ORD", "date": "2024-05-24"},
            [SEARCH[0][0]],
        ),
    )
    text = "Change your flight to HAT410 departing at 7:00 PM EST on May 24, 2024."
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.verdict == "pass", result.reason
    assert any("args.date" in e.detail for s in result.sentences for e in s.evidence)
    other = GATE.validate(text.replace("May 24", "May 26"), receipts=receipts, now=NOW)
    assert other.verdict != "pass"


def test_when_a_booking_is_completed_the_flights_status_is_not_contradicted() -> None:
    booked = {**RESERVATION, "reservation_id": "ZKQ4TW", "flights": [{"flight_number": "HAT410"}]}
    receipts = _with(("book_reservation", {"flights": [{"flight_number": "HAT410"}]}, booked))
    result = GATE.validate(
        "Your booking for flight HAT410 has been successfully completed.",
        receipts=[*RECEIPTS, *receipts],
        now=NOW,
    )
    assert "Contradicted status" not in result.reason


@pytest.mark.parametrize(
    "text",
    [
        "Unfortunately, there are no nonstop flights from BOS to DEN on May 24.",
        "For your trip, no nonstop flights are available from BOS to DEN on May 24.",
    ],
)
def test_when_a_search_found_nothing_then_there_are_no_such_flights(text: str) -> None:
    receipts = _transcript(
        ("search_direct_flight", {"origin": "BOS", "destination": "DEN", "date": "2024-05-24"}, [])
    )
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == "pass"
    # the same sentence after a search that found one is no report of an empty search
    found = _transcript(
        (
            "search_direct_flight",
            {"origin": "BOS", "destination": "DEN", "date": "2024-05-24"},
            [SEARCH[0][0]],
        )
    )
    assert GATE.validate(text, receipts=found, now=NOW).verdict != "pass"


def test_when_a_balance_is_left_after_paying_the_fares_then_it_is_backed() -> None:
    # the two segments' fares (117 + 131 = 248) paid from a gift card of 300
    wallet = {**USER, "payment_methods": {"gift_card_1234567": {"amount": 300}}}
    option = {
        "flights": [
            {"flight_number": "HAT410", "price": 117},
            {"flight_number": "HAT522", "price": 131},
        ]
    }
    receipts = _transcript(
        ("get_user_details", {"user_id": "lena_okafor_4410"}, wallet),
        ("quote", {"option": 1}, option),
    )
    ok = "After paying for both flights, $52 will remain on your gift card."
    assert GATE.validate(ok, receipts=receipts, now=NOW).verdict == "pass"
    wrong = "After paying for both flights, $62 will remain on your gift card."
    assert GATE.validate(wrong, receipts=receipts, now=NOW).verdict != "pass"


def test_when_a_sentence_opens_with_once_confirmed_then_no_speaker_is_named() -> None:
    result = _check("Once confirmed, I'll also need a payment method for the fare difference.")
    assert result.verdict == "pass", result.reason


def test_when_an_amount_only_the_user_wrote_is_restated_then_it_is_theirs() -> None:
    receipts = _transcript(("get_user_details", {"user_id": "lena_okafor_4410"}, USER))
    asked = {"role": "user", "content": "Can you bring the change under $1000?"}
    receipts = parse_receipts(json.dumps({"messages": [asked]})) + receipts
    result = GATE.validate(
        "I found a combination that brings the additional cost under $1,000.",
        receipts=receipts,
        now=NOW,
    )
    assert "no receipt holds $1,000" not in result.reason
    other = GATE.validate(
        "I found a combination that brings the additional cost under $1,100.",
        receipts=receipts,
        now=NOW,
    )
    assert "no receipt holds $1,100" in other.reason


def test_when_the_users_own_phrase_is_restated_then_a_payment_field_does_not_claim_it() -> None:
    # the reservation's payment (188) and a policy's "$100 per passenger" both name
    # money; "up to $100" is what the user offered, in their words
    paid = {**RESERVATION, "payment_history": [{"payment_id": "gift_card_1", "amount": 188}]}
    policy = "A certificate may be offered, with the amount being $100 times the passengers."
    messages = [
        {"role": "system", "content": policy},
        {"role": "user", "content": "Could I pay a fee to change it, up to $100?"},
    ]
    receipts = parse_receipts(json.dumps({"messages": messages})) + _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, paid)
    )
    said = "I can't move you to another flight, even with a payment of up to $100."
    assert GATE.validate(said, receipts=receipts, now=NOW).verdict == "pass"
    other = "I can't move you to another flight, even with a payment of up to $150."
    assert GATE.validate(other, receipts=receipts, now=NOW).verdict != "pass"


def test_when_advice_follows_in_this_case_then_it_asserts_nothing() -> None:
    result = _check("In this case, you would need to cancel the reservation and book a new one.")
    assert [s.tag for s in result.sentences] == [None]


def test_when_a_round_trip_price_is_given_then_it_is_the_sum_of_both_legs() -> None:
    # HAT410's basic economy fare (58) and HAT522's (64): 122 both ways
    assert _check("**Basic economy round trip:** $122").verdict == "pass"
    assert _check("**Basic economy round trip:** $125").verdict != "pass"


def test_when_two_equal_amounts_are_added_then_the_total_is_backed() -> None:
    wallet = {
        **USER,
        "payment_methods": {
            "certificate_1111111": {"source": "certificate", "amount": 500},
            "certificate_2222222": {"source": "certificate", "amount": 500},
        },
    }
    receipts = _transcript(("get_user_details", {"user_id": "lena_okafor_4410"}, wallet))
    result = GATE.validate("Total from certificates: $1,000", receipts=receipts, now=NOW)
    assert result.verdict == "pass", result.reason


def test_when_a_label_value_gives_the_records_code_in_parentheses_then_it_is_backed() -> None:
    result = _check("Your reservation:\n\n- **Origin:** Boston Logan International Airport (BOS)\n")
    assert _sentence(result, "Origin") == ("T1", "pass")
    other = _check("Your reservation:\n\n- **Origin:** Newark Liberty International (EWR)\n")
    assert _sentence(other, "Origin")[0] != "T1"


def test_when_a_plan_names_dates_then_they_are_no_unknown_ids() -> None:
    result = _check(
        "I'll search for nonstop flights from BOS to DEN on 2024-05-19 and back on 2024-05-23."
    )
    assert "no record has the id" not in result.reason


def _as_yaml(*results: tuple[str, dict[str, Any], Any]) -> list[Any]:
    import yaml

    return tool_transcript([(name, args, yaml.safe_dump(out)) for name, args, out in results])


@pytest.mark.parametrize(
    "text",
    [
        "The one-stop option in economy costs $248 in total.",
        "Flight HAT522 departs ORD at 11:00 PM EST and arrives at 1:00 AM EST the next day.",
        "The one-stop option in economy costs $249 in total.",
    ],
)
def test_when_the_search_result_is_yaml_then_the_verdict_is_the_same(text: str) -> None:
    search = ("search_onestop_flight", {"origin": "BOS", "destination": "DEN"}, SEARCH)
    as_json = GATE.validate(text, receipts=_transcript(search), now=NOW).verdict
    as_yaml = GATE.validate(text, receipts=_as_yaml(search), now=NOW).verdict
    assert as_yaml == as_json


def test_when_a_search_printed_nothing_then_it_found_nothing() -> None:
    receipts = _transcript(("search_direct_flight", {"origin": "BOS", "destination": "DEN"}, ""))
    text = "There are no nonstop flights from BOS to DEN on that day."
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == "pass"


@pytest.mark.parametrize(
    "line",
    [
        "It seems there is a misunderstanding.",
        "It seems there was an oversight in the calculation.",
    ],
)
def test_when_the_agent_apologises_for_a_misunderstanding_then_nothing_is_claimed(
    line: str,
) -> None:
    assert [s.tag for s in _check(line).sentences] == [None]


def test_when_a_label_says_none_of_a_count_then_the_zero_backs_it() -> None:
    receipts = _transcript(
        (
            "get_reservation_details",
            {"reservation_id": "QWPZKM"},
            {**RESERVATION, "total_baggages": 0},
        )
    )
    result = GATE.validate("- **Baggage:** No additional baggage", receipts=receipts, now=NOW)
    assert result.sentences[0].tag == "T1"


@pytest.mark.parametrize(
    "line",
    ["Have a fantastic day!", "Safe travels, and I hope your mom feels better soon!"],
)
def test_when_the_agent_says_goodbye_then_nothing_is_claimed(line: str) -> None:
    assert [s.tag for s in _check(line).sentences] == [None]


def test_when_an_arrival_is_marked_plus_one_day_then_that_is_no_duration() -> None:
    result = _check("Flight HAT522 departs ORD at 23:00 EST, arriving at 01:00 EST (+1 day).")
    assert result.verdict == "pass", result.reason


def test_when_a_total_sums_a_list_of_an_older_result_then_it_is_backed() -> None:
    held = {
        **RESERVATION,
        "flights": [
            {"flight_number": f"HAT{n}", "price": p}
            for n, p in ((101, 163), (102, 184), (103, 174), (104, 135))
        ],
    }
    many = [
        {
            "flight_number": f"HAT{500 + i}",
            "prices": {"basic_economy": 50 + i, "economy": 120 + i, "business": 300 + i},
        }
        for i in range(30)
    ]
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, held),
        ("search_direct_flight", {"origin": "BOS", "destination": "DEN"}, many),
    )
    ok = GATE.validate("- **Original total price:** $656", receipts=receipts, now=NOW)
    assert ok.verdict == "pass", ok.reason
    wrong = GATE.validate("- **Original total price:** $666", receipts=receipts, now=NOW)
    assert wrong.verdict != "pass"


def test_when_a_list_names_several_payment_methods_then_each_line_is_its_own() -> None:
    wallet = {
        **USER,
        "payment_methods": {
            "credit_card_7434610": {
                "source": "credit_card",
                "brand": "mastercard",
                "last_four": "9448",
                "id": "credit_card_7434610",
            },
            "gift_card_7194529": {"source": "gift_card", "amount": 62, "id": "gift_card_7194529"},
            "certificate_9254323": {
                "source": "certificate",
                "amount": 500,
                "id": "certificate_9254323",
            },
        },
    }
    receipts = _transcript(("get_user_details", {"user_id": "lena_okafor_4410"}, wallet))
    text = (
        "Your available payment methods are:\n\n- Mastercard ending in 9448\n"
        "- Gift card with $62 balance\n- Certificate with $500 balance\n"
    )
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.verdict == "pass", result.reason
    wrong = GATE.validate(text.replace("$500", "$600"), receipts=receipts, now=NOW)
    assert wrong.verdict == "block"


def test_when_a_label_gives_a_route_then_a_record_with_both_ends_backs_it() -> None:
    from receiptgate.checks.anchoring import Anchor
    from receiptgate.checks.records import record_claims
    from receiptgate.evidence.index import ReceiptIndex
    from receiptgate.text.segment import segment

    index = ReceiptIndex(RECEIPTS, now=NOW)
    (line,) = segment("**Flight 1:** BOS to ORD")
    # about nothing in particular (no anchored record): the route alone finds its record
    claims = record_claims(line, Anchor(), index, ())
    assert [(c.kind, c.match.status) for c in claims] == [("value", "supported")]
    (other,) = segment("**Flight 1:** SEA to MIA")
    assert record_claims(other, Anchor(), index, ()) == []


CANCELLED = {**RESERVATION, "status": "cancelled"}


@pytest.mark.parametrize(
    "text",
    [
        "The cancellation of your reservation QWPZKM has been completed.",
        "The cancellation has been processed.",
    ],
)
def test_when_a_process_noun_reports_an_action_then_the_call_that_did_it_backs_it(
    text: str,
) -> None:
    done = _with(("cancel_reservation", {"reservation_id": "QWPZKM"}, CANCELLED))
    assert GATE.validate(text, receipts=done, now=NOW).verdict == "pass"
    result = GATE.validate(text, receipts=_with(), now=NOW)
    assert result.verdict == "block"
    assert "no cancelled call" in result.reason


def test_when_a_date_is_in_may_then_the_month_is_no_hedge() -> None:
    # "may" is a hedge word of the default policy; "May 24" is a month
    # an unsupported timeframe is excused by a hedge, never by a month
    result = _check("Your upgrade takes 3 days from May 24.")
    assert [s.tag for s in result.sentences] == ["T5"], result.sentences
    hedged = _check("The refund may take a few days.")
    assert [s.tag for s in hedged.sentences] == ["T6"]


def test_when_another_record_holds_the_value_then_a_labelled_field_does_not_contradict_it() -> None:
    paid = {**RESERVATION, "payment_history": [{"payment_id": "gift_card_8830417", "amount": 2787}]}
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, paid),
        ("search_direct_flight", {"origin": "BOS", "destination": "ORD"}, [SEARCH[0][0]]),
    )
    result = GATE.validate(
        "Your original payment was $2787 for a business class ticket.", receipts=receipts, now=NOW
    )
    assert "contradicts" not in result.reason


def test_when_a_sentence_names_the_reservation_then_its_segments_dates_are_its_own() -> None:
    trip = {
        **RESERVATION,
        "origin": "ATL",
        "destination": "PHL",
        "flights": [
            {
                "origin": "ATL",
                "destination": "ORD",
                "flight_number": "HAT227",
                "date": "2024-05-23",
            },
            {
                "origin": "ORD",
                "destination": "PHL",
                "flight_number": "HAT139",
                "date": "2024-05-23",
            },
        ],
    }
    receipts = _transcript(("get_reservation_details", {"reservation_id": "QWPZKM"}, trip))
    text = "I found your reservation QWPZKM for a trip from ATL to PHL on May 23, 2024."
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == "pass"
    other = GATE.validate(text.replace("May 23", "May 24"), receipts=receipts, now=NOW)
    assert other.verdict != "pass"


def test_when_two_searches_asked_for_two_days_then_they_do_not_disagree() -> None:
    # the same route searched for two days: the same flight, two dates asked for
    row = [{**SEARCH[0][0], "flight_number": "HAT023"}]
    receipts = _transcript(
        (
            "search_direct_flight",
            {"origin": "BOS", "destination": "ORD", "date": "2024-05-20"},
            row,
        ),
        (
            "search_direct_flight",
            {"origin": "BOS", "destination": "ORD", "date": "2024-05-25"},
            row,
        ),
    )
    for text in (
        "**Departure:** May 20, Flight HAT023 from BOS to ORD",
        "**Return:** May 25, Flight HAT023 from BOS to ORD",
    ):
        result = GATE.validate(text, receipts=receipts, now=NOW)
        assert result.verdict == "pass", result.reason


def test_when_only_the_user_gave_another_date_then_it_is_no_contradiction() -> None:
    said = {
        "role": "user",
        "content": "I want to return the same day as my departure, which is May 27th.",
    }
    receipts = parse_receipts(json.dumps({"messages": [said]})) + RECEIPTS
    text = "You are scheduled to depart on May 27th and return on May 28th."
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert "contradicts u" not in result.reason, result.reason


def test_when_only_a_flights_update_ran_then_no_bag_was_added() -> None:
    # the flights update's result lists total_baggages; it added no bag
    flights = (
        "update_reservation_flights",
        {"reservation_id": "QWPZKM", "cabin": "business"},
        UPGRADED,
    )
    text = "One checked bag has been added to your reservation."
    assert GATE.validate(text, receipts=_with(flights), now=NOW).verdict == "block"
    bags = ("update_reservation_baggages", {"reservation_id": "QWPZKM", "total_baggages": 3}, BAGS)
    assert GATE.validate(text, receipts=_with(flights, bags), now=NOW).verdict == "pass"


def test_when_an_arrival_is_the_next_day_then_its_date_is_backed() -> None:
    # the search asked for May 24; HAT522 arrives at 01:00:00+1
    result = _check("Flight HAT522 arrives in DEN on May 25 at 1:00 AM EST.")
    assert result.verdict == "pass", result.reason
    wrong = _check("Flight HAT522 arrives in DEN on May 27 at 1:00 AM EST.")
    assert wrong.verdict != "pass"


def test_when_a_passenger_is_upgraded_then_the_cabin_in_the_call_backs_it() -> None:
    seated = {
        **UPGRADED,
        "passengers": [{"first_name": "Noah", "last_name": "Okafor", "dob": "1990-01-01"}],
    }
    call = ("update_reservation_flights", {"reservation_id": "QWPZKM", "cabin": "business"}, seated)
    text = "Noah has been successfully upgraded to business class for both flights."
    assert GATE.validate(text, receipts=_with(call), now=NOW).verdict == "pass"
    assert GATE.validate(text, receipts=_with(), now=NOW).verdict == "block"


def test_when_a_travel_time_spans_an_options_segments_then_it_is_backed() -> None:
    # HAT410 departs 19:00, HAT522 arrives 01:00 the next day: 6 hours door to door
    text = "Option 1:\n\n- Flight HAT410 then HAT522, a total travel time of 6 hours.\n"
    assert _check(text).verdict == "pass", _check(text).reason
    assert _check(text.replace("6 hours", "7 hours")).verdict != "pass"


def test_when_a_sentence_ending_in_a_colon_introduces_flights_then_it_is_about_them() -> None:
    # the sentence names no flight: the list under it does
    text = (
        "The fastest option has a total travel time of 6 hours:\n\n"
        "- **Flight HAT410:** BOS to ORD\n"
        "- **Flight HAT522:** ORD to DEN\n"
    )
    assert _check(text).verdict == "pass", _check(text).reason
    assert _check(text.replace("6 hours", "7 hours")).verdict != "pass"


def _leg(number: str, origin: str, destination: str, leaves: str, lands: str) -> dict[str, Any]:
    return {
        "flight_number": number,
        "origin": origin,
        "destination": destination,
        "scheduled_departure_time_est": leaves,
        "scheduled_arrival_time_est": lands,
        "status": "available",
        "prices": {"economy": 100},
    }


#: Three one-stop options from DEN to IAH, two of them through the same second leg.
OPTIONS = [
    [
        _leg("HAT601", "DEN", "LAS", "04:00:00", "06:00:00"),
        _leg("HAT705", "LAS", "IAH", "17:00:00", "20:00:00"),
    ],
    [
        _leg("HAT612", "DEN", "LAS", "11:00:00", "13:00:00"),
        _leg("HAT716", "LAS", "IAH", "13:00:00", "16:00:00"),
    ],
    [
        _leg("HAT623", "DEN", "LAS", "14:00:00", "16:00:00"),
        _leg("HAT705", "LAS", "IAH", "17:00:00", "20:00:00"),
    ],
]


def test_when_the_lines_above_name_an_option_then_its_travel_time_is_that_options() -> None:
    receipts = _transcript(
        ("search_onestop_flight", {"origin": "DEN", "destination": "IAH"}, OPTIONS)
    )
    listed = (
        "1. **HAT623** – DEN 2:00 PM → LAS 4:00 PM\n"
        "2. **HAT705** – LAS 5:00 PM → IAH 8:00 PM\n\n"
        "This option has a total travel time of {} hours, including the layover."
    )
    right = GATE.validate(listed.format(6), receipts=receipts, now=NOW)
    assert right.verdict == "pass", right.reason
    # 5 hours is the span of HAT612 + HAT716, an option the reply never named
    wrong = GATE.validate(listed.format(5), receipts=receipts, now=NOW)
    assert _sentence(wrong, "travel time") == ("T5", "block")


@pytest.mark.parametrize(
    ("span", "verdict"),
    [
        ("5.5 hours", "pass"),
        ("5 hours 30 minutes", "pass"),
        ("5 hours and 30 minutes", "pass"),
        ("4.5 hours", "block"),
        ("5 hours 45 minutes", "block"),
    ],
)
def test_when_a_span_has_half_hours_then_it_is_the_same_span(span: str, verdict: str) -> None:
    # HAT623 departs 14:00, HAT705 arrives 20:00 after a layover from 16:30: 5.5 hours
    options = [[{**OPTIONS[2][0], "scheduled_departure_time_est": "14:30:00"}, OPTIONS[2][1]]]
    receipts = _transcript(
        ("search_onestop_flight", {"origin": "DEN", "destination": "IAH"}, options)
    )
    text = (
        "1. **HAT623** – DEN 2:30 PM → LAS 4:00 PM\n"
        "2. **HAT705** – LAS 5:00 PM → IAH 8:00 PM\n\n"
        f"This option has a total travel time of {span}, including the layover."
    )
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.verdict == verdict, result.reason


def test_when_a_group_names_both_flights_then_the_first_legs_origin_does_not_hide_the_arrival() -> (
    None
):
    # "BOS" is HAT410's origin, a row beside HAT522's: the arrival is still HAT522's
    result = _check("HAT410 + HAT522: leaves BOS 19:00, arrives DEN 01:00 the next day.")
    assert result.verdict == "pass", result.reason
    assert _check("HAT410 + HAT522: leaves BOS 19:00, arrives DEN 02:00.").verdict != "pass"


def test_when_a_heading_says_what_the_lines_figures_are_then_it_backs_them() -> None:
    # "Current:" and "New:" name no field; "Prices" above them does
    text = "### Prices\n\n- **Current:** $188 per passenger\n- **New:** $117 per passenger\n"
    result = _check(text)
    assert result.verdict == "pass", result.reason
    assert _check(text.replace("$117", "$118")).verdict != "pass"


def test_when_a_bold_line_names_a_flight_then_the_lines_under_it_are_that_flights() -> None:
    # the connecting flight's lines sit under a bold line inside option 1; option 2 of
    # the outer list names HAT410 again, which must not take them over
    text = (
        "1. **Flight HAT410 (BOS to ORD)**\n"
        "   - Departure: 07:00 PM EST\n\n"
        "   **Connecting Flight HAT522 (ORD to DEN)**\n"
        "   - Departure: 11:00 PM EST\n"
        "   - Economy Price: $131\n\n"
        "2. **Flight HAT410 (BOS to ORD)**\n"
        "   - Economy Price: $117\n"
    )
    result = _check(text)
    assert result.verdict == "pass", result.reason


def test_when_a_cabin_line_names_a_fare_the_flight_offers_then_it_is_backed() -> None:
    text = "1. **Flight HAT410 (BOS to ORD)**\n   - Cabin: Basic Economy\n   - Price: $58\n"
    result = _check(text)
    assert _sentence(result, "Cabin") == ("T1", "pass"), result.sentences
    other = _check(text.replace("Basic Economy", "Premium Plus"))
    assert _sentence(other, "Cabin")[0] != "T1"


def test_when_a_label_shares_one_of_two_words_with_a_field_then_it_does_not_contradict() -> None:
    # "Credit card" is not what the gift card's amount (64) is
    result = _check("Payment split:\n\n- Gift card: $64\n- Credit card: $124\n")
    assert "gift_card_8830417.amount" not in " ".join(
        r for s in result.sentences if "Credit" in s.text for r in s.reasons
    )


@pytest.mark.parametrize(
    ("cabin", "verdict"), [("Economy", "pass"), ("Business", "block"), ("Premium", "block")]
)
def test_when_a_bulleted_label_names_the_records_field_then_another_word_contradicts_it(
    cabin: str, verdict: str
) -> None:
    # "•" bullets are list items: each line is read on its own, about QWPZKM (whose cabin
    # is economy; no record holds "business" or "premium")
    text = f"Your booking details:\n\n• Reservation: QWPZKM\n• Cabin: {cabin}\n• Bags: 2 (0 paid)\n"
    assert _check(text).verdict == verdict


def test_when_a_line_above_a_table_names_nothing_then_it_is_about_the_rows() -> None:
    # the search asked for May 24: the line above the table is about its rows
    text = (
        "Here are the one-stop options from Boston to Denver on May 24:\n\n"
        "| Flight | Route | Departs | Economy |\n|---|---|---|---|\n"
        "| HAT410 | BOS → ORD | 7:00 PM | $117 |\n| HAT522 | ORD → DEN | 11:00 PM | $131 |\n"
    )
    assert _check(text).verdict == "pass", _check(text).reason


@pytest.mark.parametrize(
    "text",
    [
        "✅ No problem at all! Feel free to ask if you need anything else.",
        "👉 Let me know which option you would like to book.",
    ],
)
def test_when_a_courtesy_or_an_offer_starts_with_an_emoji_then_it_still_carries_no_claim(
    text: str,
) -> None:
    result = _check(text)
    assert (result.verdict, result.sentences[0].tag) == ("pass", None), result.sentences


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("- **Cabin** — Economy", "pass"),
        ("- Total Baggages — 2", "pass"),
        ("- Cabin — Premium", "block"),
    ],
)
def test_when_a_label_is_set_off_by_a_dash_then_it_reads_as_a_label(
    line: str, verdict: str
) -> None:
    assert _check(f"Reservation QWPZKM:\n\n{line}\n").verdict == verdict


def test_when_a_sentence_restates_an_id_with_no_digit_then_the_record_backs_it() -> None:
    # QWPZKM has no digit: not read as an id token, but it names the reservation
    result = _check("Your reservation ID is QWPZKM.")
    assert (result.verdict, result.sentences[0].tag) == ("pass", "T1"), result.sentences


@pytest.mark.parametrize(
    ("row", "verdict"),
    [
        ("| Cabin | Economy |", "pass"),
        ("| Total Baggages | 2 |", "pass"),
        ("| Cabin | Premium |", "block"),
    ],
)
def test_when_a_table_row_holds_a_label_and_a_value_then_it_reads_as_a_label_line(
    row: str, verdict: str
) -> None:
    assert (
        _check(f"Reservation QWPZKM:\n\n| Field | Value |\n|---|---|\n{row}\n").verdict == verdict
    )


def test_when_a_paragraph_is_wrapped_inside_a_date_then_the_date_is_still_read() -> None:
    # wrapped at 80 characters, "May 21, 2024" runs across the line break
    text = (
        "Your reservation QWPZKM is a round trip from Boston to Denver, and the outbound\n"
        "flight HAT301 departs on May\n21, 2024."
    )
    result = _check(text)
    assert result.verdict == "pass", result.sentences
    assert "May\n21, 2024" in [c.matched_text for c in result.claims]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("However, the exact departure time is not provided in the reservation details.", "pass"),
        ("Unfortunately, the price is not listed in the reservation details.", "block"),
    ],
)
def test_a_field_said_to_be_missing_from_a_record_is_looked_for_in_it(
    text: str, verdict: str
) -> None:
    result = GATE.validate(text, receipts=_with(), now=NOW)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


TWO_LEGS = {
    **RESERVATION,
    "flights": [
        {
            "origin": "IAH",
            "destination": "JFK",
            "flight_number": "HAT085",
            "date": "2024-05-18",
            "price": 177,
        },
        {
            "origin": "JFK",
            "destination": "SFO",
            "flight_number": "HAT023",
            "date": "2024-05-18",
            "price": 146,
        },
    ],
}


@pytest.mark.parametrize(("day", "verdict"), [("May 18", "pass"), ("May 19", "block")])
def test_a_figure_of_one_of_the_rows_a_sentence_names_is_that_rows(day: str, verdict: str) -> None:
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, TWO_LEGS),
        (
            "search_direct_flight",
            {"origin": "IAH", "destination": "SFO", "date": "2024-05-19"},
            [{"flight_number": "HAT072", "prices": {"economy": 120, "business": 282}}],
        ),
    )
    text = f"Outbound: HAT072, IAH → SFO, business $282 (replaces HAT085 and HAT023 on {day})"
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.sentences[0].action == ("pass" if verdict == "pass" else "block"), [
        s.reasons for s in result.sentences
    ]


DIRECT = [
    {
        "flight_number": "HAT052",
        "origin": "ATL",
        "destination": "LAS",
        "status": "available",
        "available_seats": {"economy": 18},
        "prices": {"economy": 125},
    }
]
#: A direct-flight search, then a change that failed over another flight.
SEARCHED_THEN_FAILED = _transcript(
    ("search_direct_flight", {"origin": "ATL", "destination": "LAS", "date": "2024-05-21"}, DIRECT),
    (
        "update_reservation_flights",
        {"reservation_id": "QWPZKM", "flights": [{"flight_number": "HAT052"}]},
        "Error: flight HAT030 not available on date 2024-05-13",
    ),
)


@pytest.mark.parametrize(
    "text",
    [
        "I've checked the nonstop options from ATL to LAS, and flight HAT052 is available.",
        "HAT052 costs $125 in economy, with 18 economy seats open.",
    ],
)
def test_a_flights_state_is_its_records_in_other_words(text: str) -> None:
    result = GATE.validate(text, receipts=SEARCHED_THEN_FAILED, now=NOW)
    assert result.verdict == "pass", [s.reasons for s in result.sentences]


def test_an_arrival_on_the_next_day_is_read_from_the_same_flight_in_another_result() -> None:
    reservation = {
        **RESERVATION,
        "flights": [{"flight_number": "HAT276", "date": "2024-05-25", "price": 55}],
    }
    search = [
        {
            "flight_number": "HAT276",
            "scheduled_departure_time_est": "18:00:00",
            "scheduled_arrival_time_est": "00:00:00+1",
            "prices": {"economy": 55},
        }
    ]
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, reservation),
        (
            "search_direct_flight",
            {"origin": "SEA", "destination": "JFK", "date": "2024-05-25"},
            search,
        ),
    )
    text = "Return: HAT276 on May 25, departing 06:00 PM EST and arriving 12:00 AM EST on {}."
    ok = GATE.validate(text.format("May 26"), receipts=receipts, now=NOW)
    assert ok.verdict == "pass", [s.reasons for s in ok.sentences]
    assert GATE.validate(text.format("May 27"), receipts=receipts, now=NOW).verdict == "block"
    # the day the range of times ends on, in brackets after it
    row = "- HAT276: SEA → JFK, May 25, 2024, 6:00 PM - 12:00 AM EST ({})"
    ok = GATE.validate(row.format("May 26"), receipts=receipts, now=NOW)
    assert ok.verdict == "pass", [s.reasons for s in ok.sentences]
    assert GATE.validate(row.format("May 27"), receipts=receipts, now=NOW).verdict == "block"


@pytest.mark.parametrize(("hours", "verdict"), [("6 hours", "pass"), ("5 hours", "block")])
def test_a_duration_beside_the_flights_it_spans_is_their_travel_time(
    hours: str, verdict: str
) -> None:
    row = f"| A | HAT410 + HAT522 | 7:00 PM | 1:00 AM | {hours} |"
    assert GATE.validate(row, receipts=RECEIPTS, now=NOW).verdict == verdict
    text = f"HAT410 leaves at 7:00 PM and HAT522 lands at 1:00 AM. That's {hours} in total."
    assert GATE.validate(text, receipts=RECEIPTS, now=NOW).verdict == verdict


@pytest.mark.parametrize(("what", "verdict"), [("credit cards", "pass"), ("gift cards", "block")])
def test_a_value_said_to_be_absent_from_the_profile_is_looked_for_in_it(
    what: str, verdict: str
) -> None:
    receipts = _transcript(("get_user_details", {"user_id": "lena_okafor_4410"}, USER))
    text = f"There are no {what} on your profile."
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("There is no credit card listed.", "pass"),
        ("You do not have a credit card on file.", "pass"),
        ("There's no gift card on file.", "block"),
        ("Currently, you don't have a gift card on file, only a certificate.", "block"),
    ],
)
def test_what_is_said_not_on_file_or_listed_is_looked_for_in_the_profile(
    text: str, verdict: str
) -> None:
    receipts = _transcript(("get_user_details", {"user_id": "lena_okafor_4410"}, USER))
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict


@pytest.mark.parametrize(("insurance", "verdict"), [("no", "pass"), ("yes", "block")])
@pytest.mark.parametrize(
    "text",
    [
        "The reservation has no travel insurance, so it cannot be cancelled.",
        "This reservation doesn't have travel insurance, so it doesn't qualify.",
    ],
)
def test_a_record_said_to_have_no_x_is_read_from_its_field(
    insurance: str, verdict: str, text: str
) -> None:
    reservation = {**RESERVATION, "insurance": insurance}
    receipts = _transcript(("get_reservation_details", {"reservation_id": "QWPZKM"}, reservation))
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict


@pytest.mark.parametrize(("difference", "tag"), [(0.0, "T1"), (12.5, "T5")])
def test_no_price_difference_is_read_from_a_field_named_with_its_groups_prefix(
    difference: float, tag: str
) -> None:
    # "exchange_price_difference" beside "exchange_items": the price difference, zero
    exchange = {
        "order_id": "#W2890441",
        "status": "exchange requested",
        "exchange_items": ["8069050545"],
        "exchange_new_items": ["8069050545"],
        "exchange_price_difference": difference,
    }
    receipts = _transcript(("exchange_delivered_order_items", {"order_id": "#W2890441"}, exchange))
    result = GATE.validate("There's no price difference.", receipts=receipts, now=NOW)
    assert result.sentences[0].tag == tag


def test_an_empty_search_is_named_by_the_word_that_tells_it_from_the_other_searches() -> None:
    where = {"origin": "DEN", "destination": "IAH", "date": "2024-05-27"}
    onestop = [[{"flight_number": "HAT084", "origin": "DEN", "destination": "LAS",
                 "status": "available", "date": "2024-05-27"}]]  # fmt: skip
    receipts = _transcript(
        ("search_direct_flight", where, []), ("search_onestop_flight", where, onestop)
    )
    direct = GATE.validate("No direct flights are available.", receipts=receipts, now=NOW)
    assert direct.verdict == "pass", direct.reason
    assert any(
        "search_direct_flight found nothing" in e.detail for e in direct.sentences[0].evidence
    )
    # the one-stop search found one: "flights" is a word of both names, no report of it
    one = GATE.validate("No one-stop flights are available.", receipts=receipts, now=NOW)
    assert not any("found nothing" in e.detail for e in one.sentences[0].evidence)


def test_a_label_that_says_none_is_backed_by_the_search_it_names_finding_nothing() -> None:
    receipts = _transcript(
        ("search_direct_flight", {"origin": "ATL", "destination": "LAS", "date": "2024-05-21"}, [])
    )
    result = GATE.validate("**Direct flights:** None", receipts=receipts, now=NOW)
    (s,) = result.sentences
    assert (s.tag, s.action) == ("T1", "pass")
    assert any("search_direct_flight found nothing" in e.detail for e in s.evidence)


@pytest.mark.parametrize(("day", "verdict"), [("May 21", "pass"), ("May 18", "block")])
def test_a_search_claimed_for_a_day_is_one_that_asked_for_that_day(day: str, verdict: str) -> None:
    # May 18 is a day of the reservation, but no search asked for it
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, TWO_LEGS),
        ("search_direct_flight", {"origin": "ATL", "destination": "LAS", "date": "2024-05-21"}, []),
    )
    text = f"I checked direct flights for {day}, 2024 and found nothing."
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict


def test_when_a_refund_is_the_count_times_a_difference_per_head_then_it_is_derived() -> None:
    two = {
        **RESERVATION,
        "flights": [
            {"flight_number": "HAT284", "date": "2024-05-19", "price": 161},
            {"flight_number": "HAT152", "date": "2024-05-19", "price": 192},
        ],
        "passengers": [
            {"first_name": "Lena", "last_name": "Okafor", "dob": "1990-01-01"},
            {"first_name": "Ivan", "last_name": "Okafor", "dob": "1988-05-05"},
        ],
    }
    direct = [{"flight_number": "HAT266", "status": "available", "prices": {"economy": 146}}]
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, two),
        ("search_direct_flight", {"origin": "BOS", "destination": "DEN"}, direct),
    )
    lines = (
        "- Replaces: HAT284 + HAT152 ($161 + $192 = $353 per passenger)\n"
        "- New outbound: HAT266, $146 per passenger\n"
        "- {}: ${} for 2 passengers\n"
    )
    ok = GATE.validate(lines.format("Refund due", 414), receipts=receipts, now=NOW)
    assert ok.verdict == "pass", ok.reason
    assert GATE.validate(lines.format("Refund due", 416), receipts=receipts, now=NOW).verdict != (
        "pass"
    )
    # paid on top, the same figure runs the other way: the new fare is the cheaper one
    more = GATE.validate(lines.format("Additional cost", 414), receipts=receipts, now=NOW)
    assert more.verdict != "pass"


def test_when_the_reply_restates_the_users_time_limit_then_it_is_the_users() -> None:
    asked = {"role": "user", "content": "I don't want to fly before 5 PM EST. Anything later?"}
    other = {"role": "user", "content": "Anything later in the day?"}
    text = "HAT410 leaves after 5 PM: it departs BOS at 7:00 PM EST."
    for message, verdict in ((asked, "pass"), (other, "block")):
        receipts = parse_receipts(json.dumps({"messages": [message]})) + RECEIPTS
        result = GATE.validate(text, receipts=receipts, now=NOW)
        assert result.verdict == verdict, result.reason


@pytest.mark.parametrize(
    "text",
    [
        "I have reviewed two of the three reservations on your profile.",
        "I checked all of your reservations.",
    ],
)
def test_an_act_on_some_of_the_records_is_an_act_on_those_records(text: str) -> None:
    # "two of the three reservations": the reservations, not "two"
    result = _check(text)
    assert result.verdict == "pass", result.reason
    # with no call at all, nothing backs it
    assert GATE.validate(text, receipts=_transcript(), now=NOW).verdict == "block"


def test_a_reservation_moved_down_to_economy_is_a_cabin_change_by_an_update_call() -> None:
    text = "Done: reservation QWPZKM has been moved down to economy."
    downgraded = {**RESERVATION, "cabin": "economy"}
    update = (
        "update_reservation_flights",
        {"reservation_id": "QWPZKM", "cabin": "economy", "flights": RESERVATION["flights"]},
        downgraded,
    )
    looked_up = ("get_reservation_details", {"reservation_id": "QWPZKM"}, RESERVATION)
    assert GATE.validate(text, receipts=_transcript(looked_up, update), now=NOW).verdict == "pass"
    # a look-up is no change
    assert GATE.validate(text, receipts=_transcript(looked_up), now=NOW).verdict == "block"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The HAT522 that connects with HAT410 departs at 11:00 PM EST.", "pass"),
        ("The connecting HAT522 for HAT410 is the one leaving at 11:00 PM EST.", "pass"),
        # the figure is still the subject's: HAT410's departure given to HAT522
        ("The HAT522 that connects with HAT410 departs at 7:00 PM EST.", "block"),
    ],
)
def test_when_a_name_only_says_which_flight_the_subject_is_then_the_figure_is_the_subjects(
    text: str, verdict: str
) -> None:
    result = _check(text)
    assert result.verdict == verdict, result.reason


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Reservation QWPZKM:\n- Travel insurance: yes", "block"),  # the field says "no"
        ("Reservation QWPZKM:\n- Insurance: purchased; bags: 2", "block"),
        ("Reservation QWPZKM:\n- Insurance: no; total baggages: 2", "pass"),
        # "no longer needed" is no answer to a yes/no field
        ("Reservation QWPZKM:\n- Insurance options: no longer needed", "pass"),
    ],
)
def test_when_a_label_gives_the_other_answer_of_a_yes_no_field_then_it_is_blocked(
    text: str, verdict: str
) -> None:
    result = _check(text)
    assert result.verdict == verdict, [(s.text, s.tag, s.reasons) for s in result.sentences]


def test_when_the_user_asked_about_the_field_then_a_new_bookings_answer_is_theirs() -> None:
    receipts = tool_transcript(
        (("get_reservation_details", {"reservation_id": "QWPZKM"}, RESERVATION),),
        before=[{"role": "user", "content": "Book it again, but this time with insurance."}],
    )
    text = "Here is the new booking:\n- Reservation QWPZKM's flights\n- Travel insurance: yes"
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.sentences[-1].action == "pass", result.reason


FAILED_DOWNGRADE = _transcript(
    ("get_reservation_details", {"reservation_id": "QWPZKM"}, RESERVATION),
    ("search_onestop_flight", {"origin": "BOS", "destination": "DEN"}, SEARCH),
    (
        "update_reservation_flights",
        {"reservation_id": "QWPZKM", "cabin": "basic_economy"},
        "Error: not enough seats on flight HAT301",
    ),
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # the downgrade is the update call that changed the cabin, and it failed
        ("The downgrade failed: not enough seats on HAT301.", "pass"),
        ("The downgrade failed.", "pass"),
        # the error was about HAT301, not HAT410
        ("The downgrade failed because HAT410 had no seats.", "not pass"),
    ],
)
def test_when_a_process_is_said_to_have_failed_then_the_call_that_performs_it_decides(
    text: str, action: str
) -> None:
    result = GATE.validate(text, receipts=FAILED_DOWNGRADE, now=NOW)
    got = result.sentences[0].action
    assert got == action if action == "pass" else got != "pass", result.reason


def test_a_list_under_an_id_the_user_typed_is_about_the_record_the_call_returned() -> None:
    # the user typed the id, the call was made with it, its result holds no id field: the
    # lines under "User ID" are about the result, not about the user's message
    receipts = tool_transcript(
        (
            (
                "get_user_details",
                {"user_id": "lena_okafor_4410"},
                {"name": {"first_name": "Lena", "last_name": "Okafor"}, "membership": "gold"},
            ),
        ),
        before=[{"role": "user", "content": "My user id is lena_okafor_4410."}],
    )
    text = "**Profile**\n- **User ID:** lena_okafor_4410\n- **Membership:** {}"
    wrong = GATE.validate(text.format("Silver"), receipts=receipts, now=NOW)
    assert wrong.sentences[-1].action == "block", wrong.reason
    right = GATE.validate(text.format("Gold"), receipts=receipts, now=NOW)
    assert right.verdict == "pass", right.reason


@pytest.mark.parametrize(("bags", "tag"), [(0, "T1"), (2, "T3")])
def test_no_checked_bags_is_a_total_of_baggages_of_zero(bags: int, tag: str) -> None:
    held = {**RESERVATION, "total_baggages": bags, "nonfree_baggages": 0}
    receipts = _transcript(("get_reservation_details", {"reservation_id": "QWPZKM"}, held))
    text = "There are no checked bags on the reservation."
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.sentences[0].tag == tag, result.reason


@pytest.mark.parametrize(
    "line",
    [
        # the label says which fare; "per passenger" is only how it is counted
        "Business class: $402 per passenger",
        "- **Economy:** $117 per person",
    ],
)
def test_a_labelled_fare_per_head_is_the_fare_its_label_names(line: str) -> None:
    text = f"Flight HAT410 from BOS to ORD:\n\n{line}"
    assert _sentence(_check(text), line.strip("- *")[:8]) == ("T1", "pass")


@pytest.mark.parametrize(
    ("day", "verdict"),
    [("May 22", "pass"), ("May 23", "block"), ("May 20", "block")],
)
def test_a_date_said_to_be_the_day_after_the_booking_is_a_day_after_its_flight(
    day: str, verdict: str
) -> None:
    receipts = _transcript(
        ("get_reservation_details", {"reservation_id": "QWPZKM"}, RESERVATION),
    )
    text = (
        "Reservation QWPZKM: HAT301 on May 21.\n\n"
        f"You'd like the cheapest economy flight on {day} (the day after your reservation)."
    )
    result = GATE.validate(text, receipts=receipts, now=NOW)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("You have a gift card on file.", "pass"),
        ("You currently have a certificate saved.", "pass"),
        ("You have a PayPal account on file.", "block"),
    ],
)
def test_a_thing_said_held_on_file_is_looked_for_in_the_profile(text: str, verdict: str) -> None:
    receipts = _transcript(("get_user_details", {"user_id": "lena_okafor_4410"}, USER))
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict
