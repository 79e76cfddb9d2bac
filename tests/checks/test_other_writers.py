"""Other models' wording over the same evidence: a ticket's status line, participles in
labels and headings, offers at a sentence's end, figures listed in the order of the names
before them, "for" before a name, yes/no fields behind emphasis (end to end)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt, ValidationResult, parse_receipts
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 15, tzinfo=UTC)
GATE = Gate()

RESERVATION = {
    "reservation_id": "HXDUBJ",
    "user_id": "ivan_muller_7015",
    "origin": "IAH",
    "destination": "SFO",
    "cabin": "economy",
    "insurance": "no",
    "status": "cancelled",
    "flights": [
        {"flight_number": "HAT085", "origin": "IAH", "destination": "JFK", "price": 177},
        {"flight_number": "HAT023", "origin": "JFK", "destination": "SFO", "price": 146},
    ],
}
ORDER = {
    "order_id": "#W5565470",
    "status": "delivered",
    "address": {"address1": "812 Cedar Avenue", "city": "Houston", "state": "TX"},
    "items": [{"name": "Electric Kettle", "item_id": "9472539378", "price": 153.25}],
}


def _receipts(name: str, output: Any, user: str = "Hi, can you help me?") -> list[Receipt]:
    call = {"id": "c1", "type": "function", "function": {"name": name, "arguments": "{}"}}
    messages = [
        {"role": "user", "content": user},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "c1", "content": json.dumps(output)},
    ]
    return parse_receipts(json.dumps({"messages": messages}), source_name="t.json")


TRIP = _receipts("get_reservation_details", RESERVATION, "I don't need insurance this time.")
PARCEL = _receipts("get_order_details", ORDER)


def _result(text: str, receipts: list[Receipt]) -> ValidationResult:
    return GATE.validate(text, receipts=receipts, now=NOW)


def test_a_replys_status_line_says_where_the_request_stands_not_a_records_status() -> None:
    text = "Status: Completed.\n\nDetails:\n- Reservation: HXDUBJ\n- Cabin: economy"
    result = _result(text, TRIP)
    assert result.verdict == "pass"
    assert result.sentences[0].tag is None
    assert "status line" in result.sentences[0].reasons[0]
    # the same words further down are about the record the lines name, and checked
    lower = _result("Reservation HXDUBJ:\n- Cabin: economy\n- Status: completed", TRIP)
    assert lower.verdict == "block"


@pytest.mark.parametrize(
    "line",
    ["- Requested segment: HAT085, IAH to JFK, $177.", "- **Shipped to:** 812 Cedar Avenue"],
)
def test_a_participle_in_a_label_is_an_adjective_not_an_act_or_a_state(line: str) -> None:
    receipts = TRIP if "HAT" in line else PARCEL
    result = _result("Details:\n" + line, receipts)
    assert result.verdict == "pass", [s.reasons for s in result.sentences]


def test_a_state_word_that_qualifies_the_records_under_a_label_is_still_checked() -> None:
    # "your pending orders:" says the orders under it are pending; this one is delivered
    result = _result("Here are your pending orders:\n- Order #W5565470", PARCEL)
    assert result.verdict == "block"


def test_a_heading_carries_no_action_claim() -> None:
    result = _result("### Updated Total\n- **HAT085** (IAH → JFK): $177", TRIP)
    assert result.verdict == "pass"
    assert result.sentences[0].tag is None


@pytest.mark.parametrize(
    "text",
    [
        "The cabin can still be changed without changing the flights, if that's something "
        "you'd like.",
        "It would also help to know which model you'd like instead.",
        "I have not yet checked which of your orders holds the kettle.",
        "Let me know and I'll check what options are available!",
        "Order #W5565470 is delivered, so the kettle can be exchanged as long as that variant "
        "is available.",
        "Option 2: transfer to a human agent for further assistance",
        "**State:** NY *(please confirm)*",
    ],
)
def test_offers_requests_and_work_not_done_carry_no_claim(text: str) -> None:
    result = _result(text, PARCEL)
    assert result.verdict == "pass", [(s.tag, s.reasons) for s in result.sentences]


def test_figures_listed_after_as_many_names_belong_to_them_in_order() -> None:
    text = "Flights replaced: HAT085 and HAT023 (originally $177 and $146, $323 in total)."
    assert _result(text, TRIP).verdict == "pass"
    swapped = "Flights replaced: HAT085 and HAT023 (originally $146 and $177, $323 in total)."
    assert _result(swapped, TRIP).verdict == "block"


def test_a_figure_for_the_name_after_it_is_that_names() -> None:
    assert _result("The fares are $177 for HAT085 and $146 for HAT023.", TRIP).verdict == "pass"
    assert _result("The fares are $146 for HAT085 and $177 for HAT023.", TRIP).verdict == "block"


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("**Travel insurance:** This reservation has **no** travel insurance.", "T1"),
        ("It was a change of plan and there is no travel insurance.", "T1"),
        ("Travel insurance: No", "T1"),
        ("There are no cheaper options available for the same size.", "T5"),
    ],
)
def test_a_yes_no_field_is_read_through_emphasis_and_there_is_no(text: str, tag: str) -> None:
    result = _result(text, TRIP)
    assert result.sentences[-1].tag == tag, result.sentences[-1].reasons


def test_a_yes_or_no_label_is_the_users_answer_by_the_labels_head_noun() -> None:
    receipts = _receipts("get_user_details", {"user_id": "ivan_muller_7015"}, "No insurance.")
    assert _result("Travel insurance: no", receipts).sentences[0].tag == "T7"


def _session(*calls: tuple[str, dict[str, Any], str]) -> list[Receipt]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": "Please change my flights."}]
    for n, (name, args, output) in enumerate(calls, 1):
        fn = {"name": name, "arguments": json.dumps(args)}
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [{"id": f"c{n}", "function": fn}]},
            {"role": "tool", "tool_call_id": f"c{n}", "content": output},
        ]
    return parse_receipts(json.dumps({"messages": messages}), source_name="t.json")


REJECTED = _session(
    ("get_reservation_details", {"reservation_id": "HXDUBJ"}, json.dumps(RESERVATION)),
    (
        "update_reservation_flights",
        {"reservation_id": "HXDUBJ", "cabin": "economy"},
        "Error: flight HAT085 not available on date 2024-05-13",
    ),
)


def test_an_attempt_the_reply_says_failed_is_backed_by_the_failed_call() -> None:
    told = "I submitted the change request for reservation HXDUBJ. The system rejected it."
    result = _result(told, REJECTED)
    assert result.sentences[0].tag == "T1", result.sentences[0].reasons
    # the same attempt reported as if it went through is contradicted by the failure
    untold = "I submitted the change request for reservation HXDUBJ. You're all set."
    assert _result(untold, REJECTED).sentences[0].action == "block"


def test_working_out_figures_is_no_tool_call() -> None:
    result = _result("I ran the numbers based on the current fares.", TRIP)
    assert result.verdict != "block", result.sentences[0].reasons


EARBUDS = _receipts(
    "get_order_details",
    {
        "order_id": "#W3470184",
        "items": [
            {"name": "Wireless Earbuds", "item_id": "6452271382", "price": 258.84},
            {"name": "Water Bottle", "item_id": "7533802601", "price": 54.04},
            {"name": "Wireless Earbuds", "item_id": "1646531091", "price": 232.49},
            {"name": "Wireless Earbuds", "item_id": "2757705742", "price": 258.97},
        ],
    },
)


def test_the_cheapest_of_rows_of_one_name_is_among_them_not_the_orders_other_items() -> None:
    text = "The cheapest of these earbuds is item 1646531091 at $232.49."
    assert _result(text.replace(" earbuds", ""), EARBUDS).verdict == "pass"
    assert _result(text, EARBUDS).verdict == "pass"
    wrong = "The cheapest of these is item 6452271382 at $258.84."
    assert _result(wrong, EARBUDS).verdict == "block"


SEARCH = _session(
    (
        "search_direct_flight",
        {"origin": "DTW", "destination": "JFK", "date": "2024-05-17"},
        json.dumps(
            [
                {"flight_number": f"HAT{n}", "scheduled_departure_time_est": t, "price": p}
                for n, t, p in (("169", "04:00:00", 171), ("240", "16:00:00", 173))
            ]
            + [
                {
                    "flight_number": "HAT263",
                    "scheduled_departure_time_est": "15:00:00",
                    "price": 109,
                }
            ]
        ),
    )
)


@pytest.mark.parametrize(
    ("second", "verdict"),
    [
        ("It is the only morning nonstop (the others leave at 3:00 PM and 4:00 PM).", "pass"),
        ("It is the only morning nonstop (the others leave at 3:00 PM and 5:00 PM).", "block"),
    ],
)
def test_a_figure_of_the_others_is_about_the_rows_beside_the_one_named(
    second: str, verdict: str
) -> None:
    result = _result("HAT169 departs at 4:00 AM EST. " + second, SEARCH)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


def test_an_act_reported_as_youve_been_done_is_checked_against_the_calls() -> None:
    found = _receipts("find_user_id_by_name_zip", "ivan_muller_7015")
    assert _result("You've been successfully verified.", found).sentences[0].tag == "T1"
    assert _result("You've been successfully verified.", []).verdict == "block"


PROFILE = _receipts(
    "get_user_details",
    {"user_id": "aarav_garcia_1177", "reservations": ["M05KNL", "UHDAHF"]},
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Reservations on your profile:\n1. **M05KNL**\n2. **UHDAHF**", "pass"),
        ("Reservations on your profile:\n1. **M05KNL**\n2. **UHDAHE**", "block"),
        ("Your reservation ID is UHDAHE.", "block"),
        ("**IMPORTANT**\n\nReservation M05KNL is yours.", "pass"),
    ],
)
def test_an_id_of_capitals_only_is_checked_where_an_id_stands(text: str, verdict: str) -> None:
    assert _result(text, PROFILE).verdict == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # o3's way of writing flight numbers: the digits are the id's, not a count
        ("HAT 023 JFK → SFO, $146 in economy.", "pass"),
        ("Your flights are HAT 085 and HAT 023.", "pass"),
        # a price of another flight is still no price of this one
        ("HAT 023 JFK → SFO, $177 in economy.", "block"),
    ],
)
def test_an_id_written_with_a_space_inside_is_the_id_the_records_hold(
    text: str, verdict: str
) -> None:
    result = _result(text, TRIP)
    assert result.verdict == verdict
    assert not any("023" in r for s in result.sentences for r in s.reasons)


PAID = _receipts(
    "get_order_details",
    {
        "order_id": "#W5490111",
        "items": [
            {"name": "Water Bottle", "item_id": "7533802601", "price": 805.12},
            {"name": "Backpack", "item_id": "5917587651", "price": 218.04},
        ],
        "payment_history": [
            {
                "transaction_type": "payment",
                "amount": 1023.16,
                "payment_method_id": "credit_card_3124723",
            }
        ],
    },
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        (
            "Order #W5490111 (Water Bottle, Backpack; $1,023.16) was paid with your credit card.",
            "pass",
        ),
        (
            "Order #W5490111 (Water Bottle, Backpack; $1,023.16) was paid with your PayPal.",
            "block",
        ),
        (
            "Order #W5490111 (Water Bottle, Backpack; $1,032.16) was paid with your credit card.",
            "block",
        ),
    ],
)
def test_the_method_an_order_was_paid_with_is_its_payment_historys(text: str, verdict: str) -> None:
    result = _result(text, PAID)
    assert result.verdict == verdict, result.sentences[0].reasons


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("- Paid with your credit card", "pass"),
        ("- Paid with PayPal", "block"),
        # a method the line only mentions is no claim of how the order was paid
        ("- Paid with your credit card, and I don't see a gift card on file", "pass"),
    ],
)
def test_a_payment_line_under_an_order_is_that_orders(line: str, action: str) -> None:
    text = f"Order #W5490111:\n- Water Bottle\n{line}\n"
    result = _result(text, PAID)
    assert result.sentences[-1].action == action, result.sentences[-1].reasons


HOSES = _receipts(
    "get_product_details",
    {
        "name": "Garden Hose",
        "variants": {
            "4024196380": {"item_id": "4024196380", "options": {"length": "50ft"}, "price": 102.9},
            "5206946487": {"item_id": "5206946487", "options": {"length": "50ft"}, "price": 95.08},
        },
    },
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The 50ft options are $102.90 (item 4024196380) and $95.08 (item 5206946487).", "pass"),
        ("The 50ft options are $95.08 (item 4024196380) and $102.90 (item 5206946487).", "block"),
    ],
)
def test_a_bracket_right_after_a_figure_names_its_owner(text: str, verdict: str) -> None:
    assert _result(text, HOSES).verdict == verdict


TWO_TRIPS = _session(
    (
        "get_reservation_details",
        {"reservation_id": "IFOYYZ"},
        json.dumps({"reservation_id": "IFOYYZ", "created_at": "2024-05-12T00:14:30"}),
    ),
    (
        "get_reservation_details",
        {"reservation_id": "NQNU5R"},
        json.dumps({"reservation_id": "NQNU5R", "created_at": "2024-05-13T05:37:57"}),
    ),
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("IFOYYZ was booked on May 12.", "pass"),
        ("IFOYYZ was booked on May 13.", "block"),  # NQNU5R's date
        ("Our records show IFOYYZ was booked on May 12.", "pass"),
    ],
)
def test_when_a_record_was_booked_is_its_creation_date_no_act_of_the_agent(
    text: str, verdict: str
) -> None:
    result = _result(text, TWO_TRIPS)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


def test_a_card_ending_in_digits_may_leave_out_in() -> None:
    cards = _receipts(
        "get_user_details",
        {"payment_methods": {"credit_card_1": {"brand": "visa", "last_four": "7447"}}},
    )
    assert _result("Paid with your Visa ending 7447.", cards).verdict == "pass"
    assert _result("Paid with your Visa ending 7448.", cards).verdict == "block"


CONNECTIONS = _session(
    (
        "search_onestop_flight",
        {"origin": "IAH", "destination": "SEA", "date": "2024-05-24"},
        json.dumps(
            [
                [
                    {"flight_number": "HAT286", "origin": "IAH", "destination": "LAS",
                     "scheduled_departure_time_est": "22:00:00", "date": "2024-05-24"},
                    {"flight_number": "HAT047", "origin": "LAS", "destination": "SEA",
                     "scheduled_departure_time_est": "13:00:00", "date": "2024-05-25"},
                ]
            ]
        ),
    )
)  # fmt: skip


@pytest.mark.parametrize(("time", "verdict"), [("22:00", "pass"), ("23:00", "block")])
def test_a_figure_of_names_joined_by_a_plus_is_the_groups(time: str, verdict: str) -> None:
    text = f"Option 1: **HAT286 + HAT047**: leaves IAH {time} EST on May 24."
    assert _result(text, CONNECTIONS).verdict == verdict


SWAP = _session(
    (
        "get_order_details",
        {"order_id": "#W1"},
        json.dumps(
            {
                "order_id": "#W1",
                "items": [{"name": "Garden Hose", "item_id": "5753502325", "price": 96.35}],
            }
        ),
    ),
    (
        "get_product_details",
        {"product_id": "6679515468"},
        json.dumps(
            {
                "variants": {
                    "4024196380": {"item_id": "4024196380", "price": 102.9, "available": True}
                }
            }
        ),
    ),
)


@pytest.mark.parametrize(("more", "verdict"), [("$6.55", "pass"), ("$7.55", "block")])
def test_a_figure_said_to_be_more_or_back_is_a_difference(more: str, verdict: str) -> None:
    text = f"The other hose (item 4024196380) is $102.90, so you'd pay {more} more."
    assert _result(text, SWAP).verdict == verdict


def _calls(*calls: tuple[str, dict[str, Any], Any]) -> list[Receipt]:
    messages: list[dict[str, Any]] = [{"role": "system", "content": REFUND_RULES}]
    for i, (name, args, output) in enumerate(calls):
        call = {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)},
        }
        content = output if isinstance(output, str) else json.dumps(output)
        messages += [
            {"role": "assistant", "content": None, "tool_calls": [call]},
            {"role": "tool", "tool_call_id": f"c{i}", "content": content},
        ]
    return parse_receipts(json.dumps({"messages": messages}), source_name="t.json")


REFUND_RULES = "## Refunds\n\n- Refunds go to the original payment method in 5 to 7 business days."
ONESTOP_LEGS = [
    [
        {"flight_number": "HAT110", "origin": "ATL", "destination": "LGA", "date": "2024-05-24",
         "scheduled_departure_time_est": "09:00:00", "scheduled_arrival_time_est": "13:00:00",
         "status": "available", "prices": {"economy": 105}},
        {"flight_number": "HAT172", "origin": "LGA", "destination": "PHL", "date": "2024-05-24",
         "scheduled_departure_time_est": "13:00:00", "scheduled_arrival_time_est": "14:00:00",
         "status": "available", "prices": {"economy": 102}},
    ]
]  # fmt: skip
ONESTOP = (
    "search_onestop_flight",
    {"origin": "ATL", "destination": "PHL", "date": "2024-05-24"},
    ONESTOP_LEGS,
)
UPDATE_FAILED = (
    "update_reservation_flights",
    {"reservation_id": "XEWRD9", "cabin": "economy"},
    "Error: not enough seats",
)


@pytest.mark.parametrize(
    "text",
    [
        # the day the search asked for, after a calculation (the latest result)
        "Cheapest economy option on May 24 is $207.",
        # "one-stop" names the search for connecting flights
        "I've checked the one-stop options for May 24.",
        # an arrival at the next departure's time: a connection of 0 minutes
        "The connection at LGA is 0 minutes (HAT110 lands at 13:00, HAT172 leaves at 13:00).",
        # the attempt failed, not the flight
        "**Economy attempt:** failed, not enough seats.",
        # "nothing on the reservation" was done: no claim of a change
        "The update returned an error, so nothing on reservation XEWRD9 has been changed.",
        # the label says what the figure of a rule is about
        "Refund: to the original card, 5 to 7 business days",
    ],
)
def test_other_writers_wordings_of_what_the_receipts_hold(text: str) -> None:
    total = ("calculate", {"expression": "105 + 102"}, "207.0")
    result = _result(text, _calls(ONESTOP, UPDATE_FAILED, total))
    assert result.verdict == "pass", result.reason


def test_a_measure_written_as_an_option_is_that_option() -> None:
    tablet = {
        "order_id": "#W7895761",
        "items": [
            {"name": "Tablet", "item_id": "4803681337", "options": {"storage": "64GB"}},
            {"name": "Camera", "item_id": "8725040869", "options": {"resolution": "4K"}},
        ],
    }
    receipts = _receipts("get_order_details", tablet)
    assert _result("Yep, it's the 64GB one.", receipts).verdict == "pass"
    assert _result("Yep, it's the 128GB one.", receipts).verdict != "pass"


@pytest.mark.parametrize(("said", "verdict"), [("34-inch", "pass"), ("36-inch", "block")])
def test_a_measure_written_with_a_hyphen_is_the_option_written_with_a_space(
    said: str, verdict: str
) -> None:
    board = {
        "name": "Skateboard",
        "product_id": "1968349452",
        "variants": {
            "6956751343": {"item_id": "6956751343", "options": {"length": "34 inch"}},
            "4293355847": {"item_id": "4293355847", "options": {"length": "31 inch"}},
        },
    }
    receipts = _receipts("get_product_details", board)
    assert _result(f"The {said} board is longer than the other one.", receipts).verdict == verdict


def test_a_label_line_under_two_fares_may_be_their_sum() -> None:
    text = (
        "1. **HAT110** ATL to LGA ($105)\n"
        "2. **HAT172** LGA to PHL ($102)\n"
        "- **Economy fare:** ${}\n"
    )
    receipts = _calls(ONESTOP)
    assert _result(text.format(207), receipts).verdict == "pass"
    assert _result(text.format(217), receipts).verdict != "pass"


def test_a_day_of_the_month_is_read_among_the_days_of_dates() -> None:
    # the reservation's flights are on May 5 and May 8 (RESERVATION has no dates: add them)
    dated = {
        **RESERVATION,
        "flights": [
            {**RESERVATION["flights"][0], "date": "2024-05-05"},
            {**RESERVATION["flights"][1], "date": "2024-05-08"},
        ],
    }
    receipts = _receipts("get_reservation_details", dated)
    assert _result("Reservation HXDUBJ returns on the 8th.", receipts).verdict == "pass"
    assert _result("Reservation HXDUBJ returns on the 9th.", receipts).verdict != "pass"


def test_each_label_of_a_line_of_labels_is_read_with_its_value() -> None:
    (s,) = _result("**Insurance:** no | **Cabin:** business", TRIP).sentences
    assert (s.tag, s.action) == ("T5", "block")
    details = [e.detail for e in s.evidence]
    assert any("insurance = no" in d for d in details)
    assert any(d.startswith("contradicts") and "cabin = economy" in d for d in details)


PAID_AND_CARDS = PAID + _receipts(
    "get_user_details",
    {
        "user_id": "mei_li_1",
        "payment_methods": {
            "credit_card_3124723": {
                "source": "credit_card",
                "brand": "visa",
                "last_four": "7285",
                "id": "credit_card_3124723",
            },
            "credit_card_9990001": {
                "source": "credit_card",
                "brand": "visa",
                "last_four": "4444",
                "id": "credit_card_9990001",
            },
        },
    },
)


@pytest.mark.parametrize(("digits", "verdict"), [("7285", "pass"), ("4444", "block")])
def test_a_card_named_by_its_last_digits_is_the_method_the_order_was_paid_with(
    digits: str, verdict: str
) -> None:
    text = f"Order #W5490111 was paid with your Visa card ending in {digits}."
    result = _result(text, PAID_AND_CARDS)
    assert result.verdict == verdict, result.sentences[0].reasons


ADDRESS = _receipts(
    "modify_user_address",
    {
        "user_id": "ethan_garcia_1261",
        "address": {"address1": "101 Highway", "address2": "", "city": "New York", "zip": "10001"},
    },
)


@pytest.mark.parametrize("line", ["Address line 2: (none)", "**Address line 2:** *none*"])
def test_a_label_of_none_is_backed_by_the_field_the_result_holds_empty(line: str) -> None:
    (s,) = _result(line, ADDRESS).sentences
    assert (s.tag, s.action) == ("T1", "pass")
    assert "address.address2 is empty" in s.evidence[0].detail
    # a field that holds a value is not backed by this
    (s,) = _result("Address line 1: none", ADDRESS).sentences
    assert s.tag != "T1"


def test_a_no_line_under_a_record_is_read_against_that_records_field() -> None:
    def booking(rid: str, insurance: str) -> dict[str, Any]:
        return {"reservation_id": rid, "cabin": "economy", "insurance": insurance}

    receipts = tool_transcript(
        [
            ("get_reservation_details", {"reservation_id": "AAA111"}, booking("AAA111", "no")),
            ("get_reservation_details", {"reservation_id": "BBB222"}, booking("BBB222", "yes")),
        ]
    )
    text = "**Reservation AAA111:**\n- Economy\n- No travel insurance\n\n**Reservation BBB222:**\n"
    result = _result(text + "- Economy\n- Travel insurance included", receipts)
    no_line = next(s for s in result.sentences if s.text == "No travel insurance")
    assert no_line.tag == "T1", no_line.reasons
    wrong = _result("**Reservation BBB222:**\n- Economy\n- No travel insurance", receipts)
    assert wrong.sentences[-1].tag == "T5"


@pytest.mark.parametrize(
    "line",
    [
        "| **Travel insurance** | Not selected |",
        "- **Insurance:** none (not purchased)",
        "- No baggage or insurance",
    ],
)
def test_a_label_or_a_list_that_says_none_is_read_against_the_records_fields(line: str) -> None:
    def booking(rid: str, insurance: str, bags: int) -> dict[str, Any]:
        return {"reservation_id": rid, "insurance": insurance, "total_baggages": bags}

    receipts = tool_transcript(
        [
            ("get_reservation_details", {"reservation_id": "AAA111"}, booking("AAA111", "no", 0)),
            ("get_reservation_details", {"reservation_id": "BBB222"}, booking("BBB222", "yes", 2)),
        ]
    )
    (*_, ok) = _result(f"**Reservation AAA111:**\n{line}", receipts).sentences
    assert ok.tag == "T1", ok.reasons
    (*_, wrong) = _result(f"**Reservation BBB222:**\n{line}", receipts).sentences
    assert wrong.tag == "T5", wrong.reasons


def _bookings(*cabins: str, policy: str | None = None) -> list[Receipt]:
    calls = [
        (
            "get_reservation_details",
            {"reservation_id": rid},
            {"reservation_id": rid, "cabin": cabin},
        )
        for rid, cabin in zip(("AAA111", "BBB222"), cabins, strict=False)
    ]
    receipts = tool_transcript(calls)
    if policy is not None:
        receipts.insert(0, Receipt(id="sys", kind="rag", content=policy))
    return receipts


@pytest.mark.parametrize(
    ("receipts", "tag"),
    [
        # the evidence sets business beside economy: cabins of other reservations ...
        (_bookings("economy", "business"), "T1"),
        # ... or the operator's documents listing the classes
        (
            _bookings(
                "economy", policy="There are three cabin classes: basic economy, economy, business."
            ),
            "T1",
        ),
        # the reservation's cabin is the one denied
        (_bookings("business", "economy"), "T5"),
        # nothing shows business as a cabin: the line says nothing checkable
        (_bookings("economy"), "T3"),
    ],
)
def test_a_line_that_denies_a_value_is_read_against_the_records_field(
    receipts: list[Receipt], tag: str
) -> None:
    text = "**Reservation AAA111:**\n- Not booked in the last 24 hours\n- Not business class"
    assert _result(text, receipts).sentences[-1].tag == tag


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("It is **not a business class** reservation.", "T1"),
        ("This reservation isn't business class.", "T1"),
        ("It is not an economy reservation.", "T5"),
    ],
)
def test_a_sentence_that_denies_a_value_of_the_record_is_read_as_the_line_is(
    line: str, tag: str
) -> None:
    text = f"I checked reservation AAA111. {line}"
    assert _result(text, _bookings("economy", "business")).sentences[-1].tag == tag


_REGULAR = tool_transcript(
    [("get_user_details", {"user_id": "u1"}, {"user_id": "u1", "membership": "regular"})],
    before=[
        {"role": "system", "content": "There are three membership levels: regular, silver, gold."}
    ],
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # the user said Gold; the profile says regular
        ("I understand, especially given your Gold-member status.", "block"),
        ("Your silver membership gives you two free bags.", "block"),
        ("Given your regular membership, no compensation applies.", "pass"),
        ("As a valued Gold member, you are eligible for a certificate.", "block"),
        ("You're a regular member, so no compensation applies.", "pass"),
        ("Our system shows regular, while you've indicated you're a gold member.", "pass"),
        # no level named
        ("Thank you for your loyalty and your current membership.", "pass"),
    ],
)
def test_a_membership_level_given_to_the_customer_is_the_profiles(text: str, action: str) -> None:
    assert _result(text, _REGULAR).sentences[0].action == action


def _updated(amount: float) -> list[Receipt]:
    """A reservation changed to cheaper flights: the difference went back to the card
    (a negative payment), or was charged to it (a positive one)."""
    return _session(
        (
            "get_user_details",
            {"user_id": "ivan_rossi_8555"},
            json.dumps(
                {
                    "payment_methods": {
                        "credit_card_9659780": {
                            "source": "credit_card",
                            "brand": "visa",
                            "last_four": "1777",
                            "id": "credit_card_9659780",
                        }
                    }
                }
            ),
        ),
        (
            "update_reservation_flights",
            {"reservation_id": "OWZ4XL", "payment_id": "credit_card_9659780"},
            json.dumps(
                {
                    "reservation_id": "OWZ4XL",
                    "payment_history": [
                        {"payment_id": "credit_card_9659780", "amount": 522},
                        {"payment_id": "credit_card_9659780", "amount": amount},
                    ],
                }
            ),
        ),
    )


@pytest.mark.parametrize(("amount", "verdict"), [(-114, "block"), (114, "pass")])
def test_a_charge_to_a_card_named_by_its_brand_is_no_refund(amount: float, verdict: str) -> None:
    text = "The difference of $114 has been charged to your Visa card ending in 1777."
    result = _result(text, _updated(amount))
    assert result.verdict == verdict, result.sentences[0].reasons


def test_a_method_in_another_clause_than_the_payment_is_not_said_to_have_paid() -> None:
    text = (
        "Where should the $114 go — your Mastercard (the one the order was paid with) or "
        "your Visa ending in 1777?"
    )
    result = _result(text, _updated(-114))
    assert not any("payment method" in r for s in result.sentences for r in s.reasons)


@pytest.mark.parametrize(
    ("rid", "tag"), [("AAA111", "T1"), ("BBB222", "T5")], ids=["uninsured", "insured"]
)
def test_there_is_no_field_is_read_against_the_record_the_lines_are_under(
    rid: str, tag: str
) -> None:
    # the newest result is BBB222's (insured): it says nothing of AAA111
    def booking(rid: str, insurance: str) -> dict[str, Any]:
        return {"reservation_id": rid, "cabin": "economy", "insurance": insurance}

    receipts = tool_transcript(
        [
            ("get_reservation_details", {"reservation_id": "AAA111"}, booking("AAA111", "no")),
            ("get_reservation_details", {"reservation_id": "BBB222"}, booking("BBB222", "yes")),
        ]
    )
    text = f"For reservation {rid}:\n- There is no travel insurance associated with it."
    (*_, line) = _result(text, receipts).sentences
    assert line.tag == tag, line.reasons


@pytest.mark.parametrize(
    ("line", "tag"), [("Fulfillment: none started yet", "T1"), ("Items: none yet", "T3")]
)
def test_a_label_saying_none_yet_is_an_empty_list_of_that_name(line: str, tag: str) -> None:
    order = {"order_id": "#W1", "fulfillments": [], "items": [{"name": "Lamp", "price": 10}]}
    receipts = tool_transcript([("get_order_details", {"order_id": "#W1"}, order)])
    (s,) = _result(line, receipts).sentences
    assert s.tag == tag, s.reasons
