"""Figures a reply works out across rows (payroll, telecom, billing and calendar probes
of the thirteenth session), end to end: a difference and a sum of one field over two
records, a share whose part and whole sit in two rows, a share of a list's sum, the sum
over the objects a sentence names by their field ("your three plans"), and an amount
over a count ("$25 a head", "$0.20 a minute"). Each worked-out figure has a changed
twin that must stay blocked."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2025, 5, 6, 12, tzinfo=UTC)

PAYSLIPS = (
    "list_payslips",
    {"employee_id": "E-1"},
    {
        "payslips": [
            {
                "id": "PS-04",
                "period": {"start": "2025-04-01", "end": "2025-04-30"},
                "currency": "EUR",
                "gross": 5250.0,
                "deductions": [
                    {"code": "LST", "label": "Income tax", "amount": 912.41},
                    {"code": "KV", "label": "Health insurance", "amount": 443.63},
                ],
                "net": 3242.96,
            },
            {
                "id": "PS-03",
                "period": {"start": "2025-03-01", "end": "2025-03-31"},
                "currency": "EUR",
                "gross": 4900.0,
                "deductions": [
                    {"code": "LST", "label": "Income tax", "amount": 809.16},
                    {"code": "KV", "label": "Health insurance", "amount": 414.05},
                ],
                "net": 3069.19,
            },
        ]
    },
)
ACCOUNT = (
    "get_account",
    {"account_id": "4417"},
    {
        "lines": [
            {"user_name": "Priya Raman", "plan": {"name": "Unlimited Plus", "monthly_price": 55.0}},
            {"user_name": "Arjun Raman", "plan": {"name": "Basic", "monthly_price": 40.0}},
            {
                "user_name": "Maya Raman",
                "plan": {"name": "Flex 10GB", "monthly_price": 30.0, "data_cap_gb": 10},
            },
        ],
        "currency": "USD",
    },
)
USAGE = (
    "get_usage",
    {"account_id": "4417"},
    {"lines": [{"user_name": "Maya Raman", "data_used_gb": 11.5, "hotspot_used_gb": 0.0}]},
)
BILL = (
    "get_bill",
    {"account_id": "4417"},
    {
        "currency": "USD",
        "line_items": [
            {"description": "Data overage 1.5 GB", "amount": 15.0},
            {"description": "International calling - 38 min to India", "amount": 7.6},
        ],
    },
)
USAGE_ITEMS = (
    "get_billing_usage",
    {"org": "acme"},
    {
        "currency": "USD",
        "usageItems": [
            {"sku": "Actions Linux", "quantity": 3120, "netAmount": 0.0},
            {"sku": "Actions Linux 8-core", "quantity": 1840, "netAmount": 58.88},
            {"sku": "Actions Windows", "quantity": 210, "netAmount": 3.36},
        ],
    },
)
BOOKING = (
    "get_booking",
    {"booking_id": "OT-55817"},
    {"booking_id": "OT-55817", "party_size": 6, "deposit": 150.0, "currency": "USD"},
)
STAY = (
    "get_reservation",
    {"reservation_id": "R-1"},
    {
        "reservation": {"id": "R-1", "nights": 4, "balance_due": 567.0, "currency": "EUR"},
        "rooms": [
            {"room_type": "Standard Double", "rate_per_night": 142.0},
            {"room_type": "Junior Suite", "rate_per_night": 265.0},
        ],
    },
)


def _verdict(text: str, receipts: list[Receipt]) -> str:
    return Gate().validate(text, receipts=receipts, now=NOW).verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # "gross" and "net" beside a "currency" are amounts of money
        ("Your net pay went up by €173.77 from March to April.", "pass"),
        ("Your net pay went up by €183.77 from March to April.", "block"),
        ("Across the two payslips you took home €6,312.15 in total.", "pass"),
        ("Across the two payslips you took home €6,412.15 in total.", "block"),
        # a line of the payslip over its gross: 912.41 / 5,250
        ("Income tax was about 17% of your April gross.", "pass"),
        ("Income tax was about 23% of your April gross.", "block"),
    ],
)
def test_figures_of_two_payslips(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([PAYSLIPS])) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the plan object of each line, summed
        ("Your three plans add up to $125 a month.", "pass"),
        ("Your three plans add up to $130 a month.", "block"),
        # her usage row over her plan's cap: two rows of one person
        ("Maya used 115% of her 10 GB allowance.", "pass"),
        ("Maya used 125% of her 10 GB allowance.", "block"),
        # a line item's amount over the minutes its description holds
        ("The calls to India worked out to $0.20 a minute.", "pass"),
        ("The calls to India worked out to $0.25 a minute.", "block"),
    ],
)
def test_figures_of_a_family_account(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([ACCOUNT, USAGE, BILL])) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # one row's field over the field summed over the list: 58.88 / 62.24
        ("The 8-core runners make up about 95% of the net cost.", "pass"),
        ("The 8-core runners make up about 85% of the net cost.", "block"),
    ],
)
def test_a_share_of_a_lists_sum(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([USAGE_ITEMS])) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("With 6 people at the table, the deposit works out to $25 a head.", "pass"),
        ("With 6 people at the table, the deposit works out to $30 a head.", "block"),
    ],
)
def test_an_amount_over_the_heads_a_sentence_counts(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([BOOKING])) == verdict


def test_a_balance_over_nights_is_no_rooms_nightly_rate() -> None:
    # 567 / 4 = 141.75: neither the Junior Suite's rate nor a figure the sentence is about
    text = "The cheapest option is the Junior Suite at €142 per night."
    assert _verdict(text, tool_transcript([STAY])) == "block"


TARIFF = (
    "get_tariff",
    {"account_id": "A-1"},
    {
        "tariff": {
            "rates": [{"fuel": "electricity", "unit_rate_p_per_kwh": 26.35}],
            "previous_rates": [{"fuel": "electricity", "unit_rate_p_per_kwh": 25.73}],
        }
    },
)
READINGS = (
    "get_meter_readings",
    {"account_id": "A-1"},
    {
        "meters": [
            {
                "fuel": "electricity",
                "unit": "kWh",
                "readings": [
                    {"date": "2025-10-03", "value": 24611},
                    {"date": "2025-09-03", "value": 24342},
                ],
            }
        ]
    },
)
ORDER = (
    "get_order",
    {"order_id": "O-1"},
    {
        "items": [
            {
                "name": "Samosas",
                "price": 4.95,
                "modifiers": [{"name": "Mint chutney", "price": 0.6}],
            }
        ]
    },
)
BILLS = (
    "list_bills",
    {"account_id": "4417"},
    {
        "bills": [
            {"id": "B-10", "currency": "USD", "total": 165.61, "previous_bill_total": 128.4},
        ],
    },
)


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # pence: of a field in pence ("_p_per_kwh") and of a price in pounds
        ("Your electricity unit rate is 26.35p per kWh.", [TARIFF], "pass"),
        ("Your electricity unit rate is 26.53p per kWh.", [TARIFF], "block"),
        ("The chutney was 60p.", [ORDER], "pass"),
        ("The chutney was 80p.", [ORDER], "block"),
        # a change named by "rise" or "up": the difference of two values
        ("That's a rise of 0.62p per kWh.", [TARIFF], "pass"),
        ("That's a rise of 0.26p per kWh.", [TARIFF], "block"),
        ("Up $37.21 from last cycle.", [BILLS], "pass"),
        ("Up $38.21 from last cycle.", [BILLS], "block"),
        # readings of four digits and more are no coincidence, whatever the sentence calls
        # them; the gap written beside them is checked as written
        ("You used 269 kWh (24,342 to 24,611).", [READINGS], "pass"),
        ("You used 279 kWh (24,342 to 24,611).", [READINGS], "block"),
        ("You used 269 kWh (24,343 to 24,611).", [READINGS], "block"),
    ],
)
def test_pence_changes_and_readings(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert _verdict(text, tool_transcript(calls)) == verdict
