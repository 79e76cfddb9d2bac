"""checks/document_rates.py: a rate the operator's policy states, times a count (end to end)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
GATE = Gate()
POLICY = (
    "# Airline policy\n\n"
    "- Travel insurance: the agent should ask if the user wants to buy the travel insurance, "
    "which is 30 dollars per passenger and enables full refund if the user needs to cancel "
    "the flight given health or weather reasons.\n"
)
RESERVATION = {
    "reservation_id": "JG7FMM",
    "cabin": "economy",
    "passengers": [
        {"first_name": "Omar", "last_name": "Haddad"},
        {"first_name": "Mia", "last_name": "Haddad"},
        {"first_name": "Liam", "last_name": "Haddad"},
    ],
    "insurance": "yes",
}
RECEIPTS = tool_transcript(
    [("get_reservation_details", {"reservation_id": "JG7FMM"}, RESERVATION)],
    before=[{"role": "system", "content": POLICY}],
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Travel insurance for 3 passengers: $90.", "pass"),
        ("Reservation JG7FMM: travel insurance for everyone on it, $90 in all.", "pass"),
        # no count of the conversation makes it
        ("Travel insurance for 3 passengers: $100.", "block"),
        ("Reservation JG7FMM: travel insurance for everyone on it, $120 in all.", "block"),
    ],
)
def test_a_policy_rate_times_a_count_backs_the_amount(text: str, verdict: str) -> None:
    result = GATE.validate(text, receipts=RECEIPTS, now=NOW)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]
