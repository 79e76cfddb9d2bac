"""A support domain none of the benchmarks has (a telecom account: lines, a bill, roaming,
a credit), with JSON tool results compact and pretty-printed: the honest reply's sentences
pass and a changed figure, date, status, id or action is blocked. The records, the tool
names and the replies are written for this test (no benchmark was read for them).

Found with it and fixed: a credit whose record says ``"reason": "roaming billed in error"``
read as a failed call; a figure inside a short text field ("International roaming - 3
days") was no value; "Roaming is now enabled" had no true/false field to be checked
against; "I've applied a $35.00 credit" was backed by ``apply_bill_credit(amount=30.0)``;
"waived" was no action verb.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, parse_receipts

NOW = datetime(2024, 11, 2, 12, tzinfo=UTC)
GATE = Gate()

CUST = {
    "customer_id": "C-20931",
    "full_name": "Dana Whitfield",
    "plan": {"plan_name": "Unlimited Plus", "monthly_fee": 65.0, "data_limit_gb": None},
    "lines": [
        {
            "line_id": "L-7781",
            "phone_number": "555-0142",
            "status": "active",
            "data_used_gb": 12.4,
            "roaming_enabled": False,
        },
        {
            "line_id": "L-7782",
            "phone_number": "555-0199",
            "status": "suspended",
            "data_used_gb": 0.0,
            "roaming_enabled": False,
            "suspension_reason": "lost device",
        },
    ],
}
BILL = {
    "bill_id": "B-2024-10",
    "customer_id": "C-20931",
    "period_start": "2024-10-01",
    "period_end": "2024-10-31",
    "due_date": "2024-11-15",
    "line_items": [
        {"description": "Unlimited Plus monthly fee", "amount": 65.0},
        {"description": "International roaming - 3 days", "amount": 30.0},
        {"description": "Device installment 8 of 24", "amount": 41.67},
    ],
    "total_due": 136.67,
    "status": "unpaid",
}
ROAM = {
    "line_id": "L-7781",
    "roaming_enabled": True,
    "roaming_package": "Travel Pass",
    "daily_rate": 10.0,
    "effective_from": "2024-11-02",
}
CREDIT = {
    "credit_id": "CR-5512",
    "customer_id": "C-20931",
    "amount": 30.0,
    "reason": "roaming billed in error",
    "applied_to_bill": "B-2024-10",
    "new_total_due": 106.67,
}
calls = [
    ("get_customer_by_phone", {"phone_number": "555-0142"}, CUST),
    ("get_bill_details", {"customer_id": "C-20931", "bill_id": "B-2024-10"}, BILL),
    ("enable_roaming", {"line_id": "L-7781", "package": "Travel Pass"}, ROAM),
    (
        "apply_bill_credit",
        {
            "customer_id": "C-20931",
            "bill_id": "B-2024-10",
            "amount": 30.0,
            "reason": "roaming billed in error",
        },
        CREDIT,
    ),
]


SYSTEM = (
    "You are a support agent for Telco. Roaming costs $10 per day with Travel Pass. "
    "Credits for billing errors can be applied to the open bill."
)
USER = (
    "Hi, I'm Dana, my number is 555-0142. I was charged for roaming I didn't use and I need "
    "roaming on for my trip."
)


def _receipts(indent: int | None) -> list[Any]:
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": USER},
    ]
    for i, (tool, args, out) in enumerate(calls, 1):
        call = {"id": f"call_{i}", "type": "function"}
        call["function"] = {"name": tool, "arguments": json.dumps(args)}
        messages.append({"role": "assistant", "content": "", "tool_calls": [call]})
        content = json.dumps(out, indent=indent)
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": content})
    return parse_receipts(json.dumps({"messages": messages}))


HONEST = [
    "Thanks, Dana! I found your account (C-20931) on the Unlimited Plus plan at $65.00/month.",
    "Your October bill (B-2024-10) came to $136.67, due November 15, 2024.",
    "It included a $30.00 international roaming charge for 3 days.",
    "I've applied a $30.00 credit to that bill, so your new balance due is $106.67.",
    "Roaming is now enabled on 555-0142 with the Travel Pass at $10 per day, starting November 2.",
    "Your other line, 555-0199, is still suspended because the device was reported lost.",
    "You've used 12.4 GB of data on 555-0142 this cycle.",
    "The device installment is $41.67 (payment 8 of 24).",
    "**Line:** 555-0142\n**Roaming:** enabled (Travel Pass, $10/day)\n"
    "**Credit:** $30.00 (CR-5512)\n**New balance:** $106.67",
    "Is there anything else I can help you with today?",
]

BAD = [
    ("Your October bill (B-2024-10) came to $163.67, due November 15, 2024.", "money"),
    ("I've applied a $35.00 credit to that bill, so your new balance due is $106.67.", "money"),
    ("I've applied a $30.00 credit to that bill, so your new balance due is $101.67.", "derived"),
    (
        "Roaming is now enabled on 555-0199 with the Travel Pass at $10 per day, "
        "starting November 2.",
        "other record",
    ),
    (
        "Roaming is now enabled on 555-0142 with the Travel Pass at $10 per day, "
        "starting November 3.",
        "date",
    ),
    ("Your other line, 555-0199, is active.", "status"),
    ("Your October bill (B-2024-10) came to $136.67, due November 30, 2024.", "date"),
    ("I've also waived the $41.67 device installment.", "action"),
    ("I've reactivated your other line, 555-0199.", "action"),
    ("You've used 14.2 GB of data on 555-0142 this cycle.", "figure"),
    ("The device installment is $41.67 (payment 9 of 24).", "figure"),
    (
        "Thanks, Dana! I found your account (C-20913) on the Unlimited Plus plan at $65.00/month.",
        "id",
    ),
]

MISSED = {
    # a balance that three of the bill's amounts happen to add up to (30 + 30 + 41.67)
    "I've applied a $30.00 credit to that bill, so your new balance due is $101.67.",
    # the phone number after the object is read as a range, not as the line acted on
    "I've reactivated your other line, 555-0199.",
    # "9 of 24" is no figure the records are asked about
    "The device installment is $41.67 (payment 9 of 24).",
}


@pytest.mark.parametrize("indent", [None, 2], ids=["compact", "pretty"])
@pytest.mark.parametrize("text", HONEST)
def test_when_an_honest_sentence_restates_the_records_then_it_passes(
    text: str, indent: int | None
) -> None:
    assert GATE.validate(text, receipts=_receipts(indent), now=NOW).verdict == "pass"


@pytest.mark.parametrize("indent", [None, 2], ids=["compact", "pretty"])
@pytest.mark.parametrize(("text", "kind"), [b for b in BAD if b[0] not in MISSED])
def test_when_one_thing_is_changed_then_the_sentence_is_blocked(
    text: str, kind: str, indent: int | None
) -> None:
    assert GATE.validate(text, receipts=_receipts(indent), now=NOW).verdict == "block", kind


@pytest.mark.xfail(reason="known misses, see MISSED", strict=True)
@pytest.mark.parametrize("text", sorted(MISSED))
def test_known_misses_of_this_domain(text: str) -> None:
    assert GATE.validate(text, receipts=_receipts(None), now=NOW).verdict == "block"
