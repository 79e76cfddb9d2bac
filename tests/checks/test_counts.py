"""Counts of rows of one kind (checks/counts), end to end: a user's payment methods
are rows keyed by id, each with a ``source`` saying what it is."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 15, tzinfo=UTC)
USER = {
    "user_id": "mohamed_silva_9265",
    "payment_methods": {
        "credit_card_5843230": {"source": "credit_card", "id": "credit_card_5843230"},
        "gift_card_8020792": {"source": "gift_card", "id": "gift_card_8020792", "amount": 198},
        "gift_card_6136092": {"source": "gift_card", "id": "gift_card_6136092", "amount": 129},
        "certificate_3765853": {"source": "certificate", "id": "certificate_3765853"},
        "certificate_9984806": {"source": "certificate", "id": "certificate_9984806"},
        "certificate_2765295": {"source": "certificate", "id": "certificate_2765295"},
    },
}
RULES = Receipt(
    id="policy",
    kind="rag",
    content="Each reservation can use at most one certificate and at most three gift cards.",
)
RECEIPTS = [
    RULES,
    *tool_transcript([("get_user_details", {"user_id": "mohamed_silva_9265"}, USER)]),
]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("2 gift cards: $198, $129", "pass"),
        ("You have 3 certificates on file.", "pass"),
        ("You have 3 gift cards.", "block"),
        ("You have 2 certificates.", "block"),
        # a bound the rules set, not the rows the user has
        ("You can use at most 3 gift cards per reservation.", "pass"),
        ("You can use at most 2 gift cards per reservation.", "block"),
        # what would be used, not what is held: no receipt backs it, none contradicts it
        ("Split in two, we could use 2 certificates instead of 1.", "flag"),
    ],
)
def test_a_count_of_a_kind_is_the_number_of_rows_of_that_kind(text: str, verdict: str) -> None:
    assert Gate().validate(text, receipts=RECEIPTS, now=NOW).verdict == verdict


def test_the_evidence_names_the_rows_field_and_kind() -> None:
    result = Gate().validate("You have 3 gift cards.", receipts=RECEIPTS, now=NOW)
    reason = " ".join(result.sentences[0].reasons)
    assert "2 rows with payment_methods.*.source = gift_card" in reason


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("You have several reservations.", "pass"),
        ("I see multiple reservations on your profile.", "pass"),
        ("I see you have several recent reservations.", "pass"),
        ("You have a couple of recent reservations.", "block"),
        # said of what the user has, a word that allows no list of four contradicts it
        ("You have a couple of reservations.", "block"),
        # elsewhere a manner of speech: not contradicted (a general statement)
        ("Changing a couple of reservations takes a while.", "flag"),
    ],
)
def test_a_count_without_a_number_is_the_range_its_word_allows(text: str, verdict: str) -> None:
    user = {"user_id": "mia_li_3668", "reservations": ["NO6JO3", "AIXC49", "HKEG34", "4WQ150"]}
    receipts = tool_transcript([("get_user_details", {"user_id": "mia_li_3668"}, user)])
    assert Gate().validate(text, receipts=receipts, now=NOW).verdict == verdict


ORDER = {
    "order_id": "#W1",
    "items": [
        {"name": "Vacuum Cleaner", "item_id": "1345513440", "price": 655.59},
        {"name": "Vacuum Cleaner", "item_id": "4602305039", "price": 561.05},
        {"name": "Desk Lamp", "item_id": "1111111111", "price": 150.25},
    ],
}


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("You have 2 vacuum cleaners in your order.", "pass"),
        ("You have two vacuum cleaners in your order.", "pass"),
        ("You have 3 vacuum cleaners in your order.", "block"),
        ("You have three vacuum cleaners in your order.", "block"),
    ],
)
def test_a_count_of_items_by_name_is_the_number_of_rows_with_that_name(
    text: str, verdict: str
) -> None:
    receipts = tool_transcript([("get_order_details", {"order_id": "#W1"}, ORDER)])
    result = Gate().validate(text, receipts=receipts, now=NOW)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]


TRIP = {
    "reservation_id": "JMO1MG",
    "passengers": [
        {"first_name": "Ana", "last_name": "Silva"},
        {"first_name": "Raj", "last_name": "Silva"},
        {"first_name": "Mia", "last_name": "Silva"},
    ],
    "total_baggages": 1,
    "nonfree_baggages": 0,
}


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        # a number field named for what is counted, or the list named for it
        ("Currently, your reservation includes 1 checked bag.", "T1"),
        ("Number of passengers: 3", "T1"),
        # another number: unsettled (another field may count it), never contradicted
        ("Currently, your reservation includes 2 checked bags.", "T3"),
        ("Number of passengers: 2", "T3"),
    ],
)
def test_a_small_count_is_read_against_the_fields_of_the_record_it_is_about(
    line: str, tag: str
) -> None:
    receipts = tool_transcript([("get_reservation_details", {"reservation_id": "JMO1MG"}, TRIP)])
    result = Gate().validate(f"Your reservation JMO1MG.\n\n{line}", receipts=receipts, now=NOW)
    assert result.sentences[-1].tag == tag, result.sentences[-1].reasons


@pytest.mark.parametrize(
    ("line", "baggages", "backed"),
    [
        # "No X" alone is a count of 0
        ("**Baggage:** No checked bags", 0, True),
        ("**Baggage:** No checked bags", 2, False),
        # ... not when the line says more than the count
        ("No checked bags, travel insurance included.", 0, False),
        # a count a sentence claims the record has
        ("Your reservation has 1 checked bag.", 1, True),
        ("Your reservation has 0 checked bags.", 0, True),
        ("Your reservation has 2 checked bags.", 1, False),
    ],
)
def test_a_count_of_a_named_field_backs_a_line_or_a_claim_of_how_many(
    line: str, baggages: int, backed: bool
) -> None:
    trip = {**TRIP, "total_baggages": baggages}
    receipts = tool_transcript([("get_reservation_details", {"reservation_id": "JMO1MG"}, trip)])
    result = Gate().validate(f"Your reservation JMO1MG.\n\n{line}", receipts=receipts, now=NOW)
    last = result.sentences[-1]
    assert (last.tag == "T1" and last.action == "pass") == backed, (last.tag, last.reasons)


@pytest.mark.parametrize(
    ("line", "backed"), [("has 0 checked bags.", True), ("has 2 checked bags.", False)]
)
def test_your_reservation_is_the_one_the_evidence_holds_after_other_lines(
    line: str, backed: bool
) -> None:
    # the line before is about a flight search; "your reservation" is the one reservation
    # looked up
    trip = {**TRIP, "total_baggages": 0}
    search = [{"flight_number": "HAT235", "prices": {"economy": 122}}]
    receipts = tool_transcript(
        [
            ("get_reservation_details", {"reservation_id": "JMO1MG"}, trip),
            ("search_direct_flight", {"origin": "BOS"}, search),
        ]
    )
    text = f"HAT235 costs $122 in economy.\n\nCurrently your reservation {line}"
    last = Gate().validate(text, receipts=receipts, now=NOW).sentences[-1]
    assert (last.tag == "T1" and last.action == "pass") == backed, (last.tag, last.reasons)
