"""Sums over the rows a reply names (checks/named_sums), end to end.

An airline agent looked up a reservation of two passengers and searched new flights for
its outbound leg, then wrote an itinerary's fare and what it costs more than the flights
it replaces. No field holds those figures; the fields of the flights the reply names do.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 15, tzinfo=UTC)


def _flight(number: str, origin: str, dest: str, economy: int, business: int) -> dict[str, Any]:
    return {
        "flight_number": number,
        "origin": origin,
        "destination": dest,
        "date": "2024-05-24",
        "prices": {"basic_economy": economy - 40, "economy": economy, "business": business},
    }


RESERVATION = {
    "reservation_id": "4NQLHD",
    "origin": "IAH",
    "destination": "SEA",
    "cabin": "economy",
    "flights": [
        {"flight_number": "HAT190", "origin": "IAH", "destination": "LAS", "price": 126},
        {"flight_number": "HAT047", "origin": "LAS", "destination": "SEA", "price": 139},
        {"flight_number": "HAT021", "origin": "SEA", "destination": "JFK", "price": 148},
    ],
    "passengers": [
        {"first_name": "Liam", "last_name": "Khan"},
        {"first_name": "Ava", "last_name": "Khan"},
    ],
    "payment_history": [{"payment_id": "credit_card_1", "amount": 826}],
}
SEARCH = [
    [_flight("HAT286", "IAH", "LAS", 114, 399), _flight("HAT047", "LAS", "SEA", 165, 202)],
    [_flight("HAT112", "IAH", "LAS", 135, 404), _flight("HAT059", "LAS", "SEA", 170, 236)],
]
RECEIPTS = tool_transcript(
    [
        ("get_reservation_details", {"reservation_id": "4NQLHD"}, RESERVATION),
        ("search_onestop_flight", {"origin": "IAH", "destination": "SEA"}, SEARCH),
    ]
)
GATE = Gate()


def _action(text: str, at: str) -> str:
    result = GATE.validate(text, receipts=RECEIPTS, now=NOW)
    return next(s.action for s in result.sentences if at in s.text)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        # 114 + 165, in the cabin the sentence names
        ("HAT286 + HAT047 in economy comes to $279 per person.", "pass"),
        ("HAT286 + HAT047 in business comes to $601 per person.", "pass"),
        # for the reservation's two passengers
        ("HAT286 + HAT047 in business: $1,202 for both of you.", "pass"),
        # no cabin gives it
        ("HAT286 + HAT047 in economy comes to $297 per person.", "block"),
    ],
)
def test_a_figure_of_rows_named_together_is_their_fields_sum(line: str, action: str) -> None:
    assert _action(f"For reservation 4NQLHD: {line}", "HAT286") == action


@pytest.mark.parametrize(
    ("line", "action"),
    [
        # (114 + 165) - (126 + 139) = 14 per passenger, 28 for both
        ("Staying in economy, HAT286 + HAT047 costs $14 more per passenger.", "pass"),
        ("Staying in economy, HAT286 + HAT047 costs $28 more in all.", "pass"),
        ("Staying in economy, HAT286 + HAT047 costs $41 more per passenger.", "block"),
    ],
)
def test_a_difference_from_the_rows_an_itinerary_replaces_is_worked_out(
    line: str, action: str
) -> None:
    assert _action(f"Your reservation 4NQLHD is in economy. {line}", "HAT286") == action


def test_a_total_under_lines_naming_flights_is_their_sum_times_the_passengers() -> None:
    reply = (
        "The cheapest business option for reservation 4NQLHD:\n\n"
        "- Outbound: HAT112 on 2024-05-24, IAH → LAS\n"
        "- Then: HAT059 on 2024-05-24, LAS → SEA\n\n"
        "Price summary for 2 passengers:\n"
        "- New business itinerary total: {total}\n"
    )
    # 2 × (404 + 236)
    assert _action(reply.format(total="$1,280"), "itinerary total") == "pass"
    assert _action(reply.format(total="$1,286"), "itinerary total") == "block"


@pytest.mark.parametrize(
    ("price", "action"),
    [
        ("$279", "pass"),  # 114 + 165 in economy, the cabin the lines above name
        ("$199", "block"),  # 74 + 125: the same flights in basic economy
        ("$601", "block"),  # in business
    ],
)
def test_a_figure_with_no_cabin_of_its_own_is_summed_in_the_cabin_named_above(
    price: str, action: str
) -> None:
    reply = (
        "Here is the cheapest economy option for reservation 4NQLHD:\n\n"
        "- Flight 1: HAT286, IAH → LAS\n- Flight 2: HAT047, LAS → SEA\n"
        f"- Price: {price}\n"
    )
    assert _action(reply, "Price") == action


def test_a_charge_the_payment_history_records_is_not_a_sum_of_fares() -> None:
    # the card was charged what the payment history says, not the fares of the flights
    text = "Reservation 4NQLHD updated: HAT286 + HAT047 in business. Charged: $1,202 to your card."
    assert _action(text, "Charged") == "block"


@pytest.mark.parametrize(("cost", "action"), [("$1,280", "pass"), ("$1,208", "block")])
def test_a_cost_for_the_passengers_is_the_listed_flights_fare_times_them(
    cost: str, action: str
) -> None:
    # "for 2 passengers" names the operation, so a single fare of the records that the
    # figure is not (HAT059's 236) does not decide it: 2 × (404 + 236)
    reply = (
        "I found the business prices for your flights:\n"
        "- HAT112 (IAH → LAS): $404 per passenger\n"
        "- HAT059 (LAS → SEA): $236 per passenger\n\n"
        f"**Cost breakdown:**\n- New business cost: {cost} (for 2 passengers)\n"
    )
    assert _action(reply, "New business cost") == action


@pytest.mark.parametrize(
    ("fares", "action"),
    [
        # HAT112 + HAT059 (HAT112 named by both options): 95 + 130 basic economy, 135 + 170
        # economy, 404 + 236 business
        ("Basic Economy: $225 | Economy: $305 | Business: $640", "pass"),
        ("Basic Economy: $225 | Economy: $315 | Business: $640", "block"),
    ],
)
def test_each_fare_of_an_option_line_is_its_cabin_summed_over_the_option_named_last(
    fares: str, action: str
) -> None:
    text = (
        "**Option 1:** HAT112 → HAT047\n- Basic Economy: $220 | Economy: $300 | Business: $606\n\n"
        f"**Option 2:** HAT112 → HAT059\n- {fares}\n"
    )
    result = GATE.validate(text, receipts=RECEIPTS, now=NOW)
    assert [s.action for s in result.sentences if "$" in s.text] == ["pass", action]


UPGRADE = tool_transcript(
    [
        (
            "get_reservation_details",
            {"reservation_id": "XEHM4B"},
            {
                "reservation_id": "XEHM4B",
                "cabin": "basic_economy",
                "flights": [
                    {"flight_number": "HAT005", "origin": "LAS", "destination": "ATL", "price": 65},
                    {"flight_number": "HAT178", "origin": "ATL", "destination": "LAS", "price": 83},
                ],
                "passengers": [{"first_name": "Daiki"}, {"first_name": "Omar"}],
                "payment_history": [{"payment_id": "credit_card_2408938", "amount": 296}],
            },
        ),
        ("search_direct_flight", {"origin": "LAS"}, [_flight("HAT005", "LAS", "ATL", 166, 346)]),
        ("search_direct_flight", {"origin": "ATL"}, [_flight("HAT178", "ATL", "LAS", 126, 338)]),
    ]
)


@pytest.mark.parametrize(("charge", "action"), [("$288", "pass"), ("$298", "block")])
def test_an_upgrade_of_a_record_named_only_by_its_id_adds_its_own_rows(
    charge: str, action: str
) -> None:
    # the reply names the reservation, not its flights: the new cabin's fares of its two
    # flights less what they cost, for both passengers: 2 × ((166 + 126) − (65 + 83))
    text = (
        "I'll do the following on reservation **XEHM4B**:\n\n"
        f"1. **Upgrade from Basic Economy to Economy**: additional charge of **{charge}**"
    )
    result = GATE.validate(text, receipts=UPGRADE, now=NOW)
    assert next(s.action for s in result.sentences if charge in s.text) == action
