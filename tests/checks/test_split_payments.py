"""A payment split over several bookings and over the lines of one, end to end.

A customer pays for three reservations with certificates, gift cards and one credit
card; the agent books them (three calls, each recording what the card was charged) or
lays the plan out first, one section per reservation, and states the totals the
sections add up to.
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

USER = {
    "user_id": "mohamed_silva_9265",
    "payment_methods": {
        "credit_card_2198526": {
            "source": "credit_card",
            "brand": "mastercard",
            "last_four": "4536",
            "id": "credit_card_2198526",
        },
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
        "gift_card_8020792": {"source": "gift_card", "amount": 198, "id": "gift_card_8020792"},
        "gift_card_6136092": {"source": "gift_card", "amount": 696, "id": "gift_card_6136092"},
    },
}
FLIGHT = {
    "flight_number": "HAT023",
    "origin": "JFK",
    "destination": "SFO",
    "date": "2024-05-26",
    "prices": {"economy": 130, "business": 364},
}

RETURN = {**FLIGHT, "flight_number": "HAT100", "origin": "SFO", "destination": "JFK"}
RETURN["prices"] = {"economy": 180, "business": 507}


def _booking(rid: str, payments: list[tuple[str, int]]) -> dict[str, Any]:
    return {
        "reservation_id": rid,
        "user_id": "mohamed_silva_9265",
        "cabin": "business",
        "flights": [{"flight_number": "HAT023", "date": "2024-05-26", "price": 364}],
        "payment_history": [{"payment_id": p, "amount": a} for p, a in payments],
    }


def _receipts(*results: tuple[str, dict[str, Any], Any]) -> list[Receipt]:
    before = [{"role": "user", "content": "Hi, I'm mohamed_silva_9265."}]
    lookups: tuple[tuple[str, dict[str, Any], Any], ...] = (
        ("get_user_details", {"user_id": "mohamed_silva_9265"}, USER),
        ("search_direct_flight", {"origin": "JFK", "destination": "SFO"}, [FLIGHT]),
        ("search_direct_flight", {"origin": "SFO", "destination": "JFK"}, [RETURN]),
    )
    return tool_transcript((*lookups, *results), before=before)


def _book(rid: str, *payments: tuple[str, int]) -> tuple[str, dict[str, Any], Any]:
    args = {"flights": ["HAT023"], "payment_methods": [{"payment_id": p} for p, _ in payments]}
    return "book_reservation", args, _booking(rid, list(payments))


BOOKED = _receipts(
    _book("HATHAT", ("certificate_3765853", 500), ("credit_card_2198526", 44)),
    _book("HATHAU", ("certificate_9984806", 250), ("credit_card_2198526", 621)),
    _book("HATHAV", ("gift_card_8020792", 198), ("credit_card_2198526", 621)),
)


def _check(text: str, receipts: list[Receipt]) -> ValidationResult:
    return GATE.validate(text, receipts=receipts, now=NOW)


@pytest.mark.parametrize(("amount", "verdict"), [("$1,286", "pass"), ("$1,386", "block")])
def test_a_card_charged_in_total_is_its_charges_over_the_bookings_that_paid_with_it(
    amount: str, verdict: str
) -> None:
    # 44 + 621 + 621: no one call charged the card $1,286
    text = f"Yes, your Mastercard was charged {amount} in total."
    result = _check(text, BOOKED)
    assert result.verdict == verdict, result.sentences


def test_a_card_charged_one_amount_without_a_total_word_is_the_newest_charge() -> None:
    result = _check("Yes, your Mastercard was charged $1,286.", BOOKED)
    assert result.verdict == "block"
    assert "621" in " ".join(result.sentences[0].reasons)


def test_a_reservation_booked_on_an_itinerary_is_matched_to_its_booking_calls() -> None:
    # "on the same itinerary" says where; what was booked is the reservations
    text = "Your new business-class reservations have been booked on the same itinerary."
    result = _check(text, BOOKED)
    assert result.verdict == "pass", result.sentences
    assert _check(text, _receipts()).verdict == "block"  # nothing was booked


PLAN = """If we create three separate reservations, each flying the same flights:

**Reservation 1:**
- Flight cost: $364
- Certificate (certificate_9984806): -$250
- **Mastercard charge: $114**

**Reservation 2:**
- Flight cost: $364
- Gift card (gift_card_8020792): -$198
- **Mastercard charge: $166**

**Total Mastercard charge across both reservations: {total}**
"""


@pytest.mark.parametrize(("total", "verdict"), [("$280", "pass"), ("$290", "block")])
def test_a_total_of_what_a_label_names_adds_the_lines_labelled_so(total: str, verdict: str) -> None:
    # $114 and $166 are each worked out from their section; the total adds those two lines,
    # not the lines right above it
    result = _check(PLAN.format(total=total), _receipts())
    assert result.verdict == verdict, [(s.text, s.reasons) for s in result.sentences]


SPLIT = """Two one-way reservations:
- Reservation 1 (JFK→SFO, $364×3 = $1,092):
  - certificate_3765853: $500
  - gift_card_8020792: $198
  - gift_card_6136092: {gift} (of $696)
  - Mastercard: {card}
- Reservation 2 (SFO→JFK, $507×3 = $1,521):
  - certificate_9984806: $250
"""


@pytest.mark.parametrize(
    ("gift", "card", "verdict"),
    [
        ("$394", "$0", "pass"),  # 1,092 − 500 − 198 − 394 leaves nothing for the card
        ("$394", "$100", "block"),  # the parts come to more than the line above them
        ("$294", "$0", "block"),
    ],
)
def test_the_items_under_a_line_with_a_total_split_it(gift: str, card: str, verdict: str) -> None:
    result = _check(SPLIT.format(gift=gift, card=card), _receipts())
    assert result.verdict == verdict, [(s.text, s.reasons) for s in result.sentences]
