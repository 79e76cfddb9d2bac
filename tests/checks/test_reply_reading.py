"""How the words around a claim are read, end to end, on an airline agent's replies: which
flights a date before a group of them is about, how many of a thing the agent found (no
name of what it found), what a state word is said of (the agent's actions, not a
reservation), and the kind of rows an amount is a total of ("$327 in gift cards")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 15, tzinfo=UTC)
USER = {
    "user_id": "liam_khan_2521",
    "payment_methods": {
        "gift_card_1": {"source": "gift_card", "id": "gift_card_1", "amount": 198},
        "gift_card_2": {"source": "gift_card", "id": "gift_card_2", "amount": 129},
        "certificate_1": {"source": "certificate", "id": "certificate_1", "amount": 500},
        "credit_card_1": {"source": "credit_card", "id": "credit_card_1", "last_four": "7447"},
    },
}
RESERVATION = {
    "reservation_id": "4NQLHD",
    "status": "cancelled",
    "flights": [
        {"flight_number": "HAT021", "origin": "SEA", "destination": "JFK", "date": "2024-05-26"},
        {"flight_number": "HAT279", "origin": "JFK", "destination": "IAH", "date": "2024-05-27"},
    ],
    "passengers": [{"first_name": n, "last_name": "Khan"} for n in ("Liam", "Ava", "Mia", "Raj")],
}
SEARCH = [[{"flight_number": "HAT110", "origin": "ATL", "destination": "LGA", "price": 207}]]
RECEIPTS = tool_transcript(
    [
        ("get_user_details", {"user_id": "liam_khan_2521"}, USER),
        ("cancel_reservation", {"reservation_id": "4NQLHD"}, RESERVATION),
        ("search_onestop_flight", {"origin": "ATL", "destination": "PHL"}, SEARCH),
    ]
)


def _verdict(text: str) -> str:
    return Gate().validate(text, receipts=RECEIPTS, now=NOW).verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the dates are the group's: HAT021's and HAT279's
        ("Return: SEA → JFK → IAH on May 26-27 (same flights: HAT021 + HAT279)", "pass"),
        ("Return on May 26 and May 27 (flights HAT021 + HAT279)", "pass"),
        ("Return on May 26 and May 28 (flights HAT021 + HAT279)", "block"),
    ],
)
def test_a_figure_before_names_joined_by_a_plus_is_the_groups(text: str, verdict: str) -> None:
    assert _verdict(text) == verdict


@pytest.mark.parametrize(
    "text", ["I found several options for you.", "I found a few flights that work."]
)
def test_how_many_things_a_search_found_is_no_name_of_them(text: str) -> None:
    assert _verdict(text) == "pass"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Both actions completed successfully for reservation 4NQLHD.", "pass"),
        ("Here is a summary of everything completed so far:", "pass"),
        # said of the reservation, the state is its status
        ("Reservation 4NQLHD is completed.", "block"),
    ],
)
def test_a_state_said_of_the_agents_actions_is_no_records_state(text: str, verdict: str) -> None:
    assert _verdict(text) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("You have $327 in gift cards and $500 in certificates.", "pass"),
        ("You have $372 in gift cards.", "block"),
    ],
)
def test_an_amount_in_a_kind_of_rows_is_their_total(text: str, verdict: str) -> None:
    assert _verdict(text) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the count's noun is no part of the arithmetic
        ("I could offer a certificate of $200 ($50 × 4 passengers) for the delay.", "pass"),
        ("The certificate would be $50 × 4 passengers = $200.", "pass"),
        # wrong as written, though a gift card holds 198
        ("The certificate would be $50 × 4 passengers = $198.", "block"),
        ("Together that is $100 + $50 = $198.", "block"),
    ],
)
def test_written_arithmetic_is_checked_as_written_whatever_a_record_holds(
    text: str, verdict: str
) -> None:
    rules = Receipt(id="policy", kind="rag", content="Compensation is $50 per passenger.")
    assert Gate().validate(text, receipts=[rules, *RECEIPTS], now=NOW).verdict == verdict


@pytest.mark.parametrize(
    ("text", "contradicted"),
    [
        # a count that would be, once split: no count of the user's reservations
        ("If we split the trip into 2 reservations, each gets its own certificate.", False),
        ("You have 2 reservations.", True),
    ],
)
def test_a_count_that_would_be_is_not_contradicted_by_the_list(
    text: str, contradicted: bool
) -> None:
    receipts = [
        *RECEIPTS,
        *tool_transcript([("get_user_details", {"user_id": "x"}, {"reservations": ["4NQLHD"]})]),
    ]
    result = Gate().validate(text, receipts=receipts, now=NOW)
    reasons = " ".join(result.sentences[0].reasons)
    assert ("Contradicted" in reasons) is contradicted
