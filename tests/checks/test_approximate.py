"""checks/approximate.py: a figure given as an approximation, against the values of the
results the sentence is about (end to end)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
GATE = Gate()
ORDER = {
    "order_id": "#W5362037",
    "status": "processed",
    "items": [
        {"name": "Bookshelf", "item_id": "4894369688", "price": 537.01},
        {"name": "Pet Bed", "item_id": "2405281423", "price": 204.09},
    ],
}
RECEIPTS = tool_transcript([("get_order_details", {"order_id": "#W5362037"}, ORDER)])


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("For order #W5362037, I can look for shelves around $537.", "pass"),
        ("For order #W5362037, I can look for pet beds at roughly $200.", "pass"),
        # no rounding of a value reaches it
        ("For order #W5362037, I can look for shelves around $545.", "block"),
        # without the word, a figure is what it says
        ("For order #W5362037, I can look for shelves at $537.", "block"),
    ],
)
def test_an_approximate_figure_is_a_value_rounded_to_its_own_precision(
    text: str, verdict: str
) -> None:
    result = GATE.validate(text, receipts=RECEIPTS, now=NOW)
    assert result.verdict == verdict, [s.reasons for s in result.sentences]
