"""text/json_lines.py: a reply written as a JSON object of its own fields is read as the
Markdown list a person would write from it, and judged field by field (end to end)."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from receiptgate.text.json_lines import json_lines

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
ORDER = Receipt(
    id="t1",
    kind="tool",
    tool="get_order_details",
    content=json.dumps(
        {
            "order_id": "#W3916020",
            "status": "delivered",
            "items": [{"name": "Bicycle", "item_id": "7758198585", "price": 1917.21}],
        }
    ),
)
VARIANT = Receipt(
    id="t2",
    kind="tool",
    tool="get_product_details",
    content=json.dumps({"variants": {"5606522780": {"item_id": "5606522780", "price": 1902.67}}}),
)


def _reply(price: float, difference: float, status: str = "delivered") -> str:
    return json.dumps(
        {
            "order": {"order_id": "#W3916020", "status": status},
            "exchange": {
                "from_item": {"name": "Bicycle", "price": 1917.21},
                "to_item": {"item_id": "5606522780", "price": price},
                "price_difference": difference,
                "refund_expected": True,
            },
            "note": "The difference will be refunded to your card.",
        },
        indent=2,
    )


def test_the_reading_is_a_list_of_fields_with_every_character_at_its_place() -> None:
    text = _reply(1902.67, -14.54)
    reading, where = json_lines(text) or ("", [])
    assert reading.splitlines() == [
        "- order:",
        "  - order id: #W3916020",  # an object that opens with its id heads its fields
        "    - status: delivered",
        "- exchange:",
        "  - from item:",
        "    - name: Bicycle",
        "    - price: $1917.21",  # a number under a money key is an amount
        "  - to item:",
        "    - item id: 5606522780",
        "      - price: $1902.67",  # under the item its id names
        "  - price difference: -$14.54",
        # "refund_expected": true, a flag of the agent's own schema, is no line
        "- note: The difference will be refunded to your card.",
    ]
    assert len(where) == len(reading) + 1
    # the reply's own characters stand where they are in the JSON
    at = reading.index("Bicycle")
    assert text[where[at] : where[at + 6] + 1] == "Bicycle"


@pytest.mark.parametrize(
    "text",
    [
        "Plain text.",
        '{"message": "Done."}',  # one field: text/clean.json_reply's, or too little
        '["a", "b"]',
        '{"status": "ok", "broken": }',
    ],
)
def test_only_an_object_of_fields_has_a_reading(text: str) -> None:
    assert json_lines(text) is None


def test_a_state_of_the_agents_own_schema_is_no_state_of_a_record() -> None:
    text = json.dumps(
        {
            "authentication": {"status": "verified", "user_id": "sofia_li_9219"},
            "exchange": {"status": "exchange_submitted", "order_id": "#W1"},
        }
    )
    reading, _ = json_lines(text) or ("", [])
    assert "verified" not in reading and "exchange_submitted" not in reading


@pytest.mark.parametrize(
    ("price", "difference", "status", "verdict"),
    [
        (1902.67, -14.54, "delivered", "pass"),
        # another price than the variant's: blocked at that field
        (1892.67, -24.54, "delivered", "block"),
        # the difference of the two prices above it, wrong
        (1902.67, -15.54, "delivered", "block"),
        # the order's state under its id
        (1902.67, -14.54, "pending", "block"),
    ],
)
def test_a_reply_written_as_its_own_json_is_judged_field_by_field(
    price: float, difference: float, status: str, verdict: str
) -> None:
    text = _reply(price, difference, status)
    result = Gate().validate(text, receipts=[ORDER, VARIANT], now=NOW)
    assert result.verdict == verdict, [(s.text, s.reasons) for s in result.sentences]
    assert all(text[s.start : s.end] == s.text for s in result.sentences)
    if verdict == "block":
        changed = str(price) if price != 1902.67 else str(difference)
        blocked = " ".join(s.text for s in result.sentences if s.action == "block")
        assert changed in blocked or status in blocked  # at the field that was changed
