"""How long ago a recorded moment was, against the current time the documents state or the
validation's reference time (end to end)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from tool_transcripts import tool_transcript

#: 20:00 UTC is 15:00 EST, the time the operator's prompt states.
NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
POLICY = {"role": "system", "content": "# Policy\n\nThe current time is 2024-05-15 15:00:00 EST."}
BOOKING = (
    "get_reservation_details",
    {"reservation_id": "K1NW8N"},
    {
        "reservation_id": "K1NW8N",
        "created_at": "2024-05-14T16:03:16",
    },
)


def _verdict(text: str, receipts: list[Receipt]) -> str:
    return Gate().validate(text, receipts=receipts, now=NOW).verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # 16:03 on May 14 is 22.9 hours before 15:00 on May 15, in the prompt's clock
        ("K1NW8N was created on 2024-05-14, which is more than 24 hours ago.", "block"),
        ("K1NW8N was created on 2024-05-14, which is within the last 24 hours.", "pass"),
        ("K1NW8N was created on 2024-05-14, less than 24 hours ago.", "pass"),
        ("K1NW8N was created on 2024-05-14, more than 2 hours ago.", "pass"),
        ("K1NW8N was created on 2024-05-14, less than 2 hours ago.", "block"),
    ],
)
def test_how_long_ago_a_record_was_made_is_read_in_the_clock_the_documents_state(
    text: str, verdict: str
) -> None:
    assert _verdict(text, tool_transcript([BOOKING], before=[POLICY])) == verdict


def test_without_a_stated_time_a_naive_record_time_is_read_as_utc() -> None:
    # 16:03 UTC on May 14 is 27.9 hours before 20:00 UTC on May 15
    receipts = tool_transcript([BOOKING])
    text = "K1NW8N was created on 2024-05-14, which is more than 24 hours ago."
    assert _verdict(text, receipts) == "pass"


def test_near_the_bound_nothing_is_said() -> None:
    booking = (
        BOOKING[0],
        BOOKING[1],
        {"reservation_id": "K1NW8N", "created_at": "2024-05-14T15:30:00"},
    )
    text = "K1NW8N was created on 2024-05-14, which is more than 24 hours ago."
    result = Gate().validate(text, receipts=tool_transcript([booking], before=[POLICY]), now=NOW)
    assert not any("hours before" in r for r in result.sentences[0].reasons)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # 16:03 on May 14 is 22.9 hours before 15:00 on May 15: "about 23 hours" holds
        ("K1NW8N was booked on May 14, 2024 at 4:03 PM (approximately 23 hours ago).", "pass"),
        ("K1NW8N was booked on May 14, 2024 (approximately 29 hours ago).", "block"),
        ("K1NW8N was created on May 14, 2024, which means we're 1 day past the booking.", "pass"),
        ("K1NW8N was created on May 14, 2024, which means we're 3 days past the booking.", "block"),
    ],
)
def test_a_measured_span_since_a_record_was_made_is_checked_to_its_unit(
    text: str, verdict: str
) -> None:
    assert _verdict(text, tool_transcript([BOOKING], before=[POLICY])) == verdict
