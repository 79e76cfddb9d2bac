"""A banking domain none of the benchmarks has (a customer's accounts, a transaction list
with debits as negative amounts, a transfer and a dispute), with JSON tool results
compact and pretty-printed: an honest sentence passes and the same sentence with one
thing changed is blocked. The records, the tool names and the sentences were written for
this test (no benchmark was read for them).

Found with it and fixed: a transaction named by its "description" ("the Netflix charge")
was no record the sentence names, so "is still pending" was read against the newest
result (the dispute) and contradicted; "the Shell charge" of "Shell Oil" named nothing (a
name's first words now name its row); "the Netflix charge of $15.49" found no amount in
``"amount": -15.49`` (a negative amount was never a charge); "Your credit card ending in
7714 is currently frozen" and "Because the card is frozen" were read against the dispute's
status (a state's subject, by its last digits or its noun, picks the row); "Checking
(…4821)" was no card's last digits.
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests

NOW = datetime(2025, 3, 14, 10, tzinfo=UTC)

CUSTOMER = {
    "customer_id": "CU-88213",
    "name": "Tomas Lindqvist",
    "segment": "premier",
    "accounts": [
        {
            "account_id": "ACC-1001",
            "type": "checking",
            "last4": "4821",
            "balance": 2340.18,
            "currency": "USD",
            "overdraft_limit": 500.0,
            "status": "open",
        },
        {
            "account_id": "ACC-1002",
            "type": "savings",
            "last4": "9930",
            "balance": 15200.0,
            "currency": "USD",
            "interest_rate_pct": 3.25,
            "status": "open",
        },
        {
            "account_id": "ACC-1003",
            "type": "credit_card",
            "last4": "7714",
            "balance": -612.45,
            "credit_limit": 8000.0,
            "currency": "USD",
            "status": "frozen",
            "payment_due_date": "2025-03-28",
            "minimum_payment": 35.0,
        },
    ],
}
TXNS = {
    "account_id": "ACC-1001",
    "transactions": [
        {
            "txn_id": "T-55001",
            "date": "2025-03-12",
            "description": "Whole Foods Market",
            "amount": -54.2,
            "status": "posted",
        },
        {
            "txn_id": "T-55002",
            "date": "2025-03-11",
            "description": "Payroll ACME Corp",
            "amount": 3150.0,
            "status": "posted",
        },
        {
            "txn_id": "T-55003",
            "date": "2025-03-10",
            "description": "Netflix",
            "amount": -15.49,
            "status": "pending",
        },
        {
            "txn_id": "T-55004",
            "date": "2025-03-09",
            "description": "Shell Oil",
            "amount": -48.75,
            "status": "posted",
        },
    ],
}
TRANSFER = {
    "transfer_id": "TR-90412",
    "from_account": "ACC-1002",
    "to_account": "ACC-1001",
    "amount": 500.0,
    "status": "completed",
    "executed_at": "2025-03-14T09:58:11Z",
    "new_balance_from": 14700.0,
    "new_balance_to": 2840.18,
}
DISPUTE = {
    "dispute_id": "DP-3371",
    "txn_id": "T-55004",
    "status": "under_review",
    "provisional_credit": 48.75,
    "expected_resolution_days": 10,
}
SYSTEM = (
    "You are the virtual assistant of Northwind Bank. Disputes are reviewed within 10 "
    "business days. A frozen card cannot be used for purchases."
)
USER = (
    "Hi, this is Tomas (CU-88213). Move $500 from savings to checking, show me my recent "
    "transactions, and dispute the Shell charge - I was charged twice."
)
CALLS = [
    ("get_customer", {"customer_id": "CU-88213"}, CUSTOMER),
    ("list_transactions", {"account_id": "ACC-1001", "limit": 4}, TXNS),
    (
        "transfer_funds",
        {"from_account": "ACC-1002", "to_account": "ACC-1001", "amount": 500.0},
        TRANSFER,
    ),
    ("open_dispute", {"txn_id": "T-55004", "reason": "duplicate charge"}, DISPUTE),
]


RECEIPTS = {
    indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent, prefix="k") for indent in (None, 2)
}

#: (honest sentence, the same with one thing changed)
PAIRS = [
    (
        "Your checking account ending in 4821 has a balance of $2,340.18.",
        "Your checking account ending in 4821 has a balance of $2,430.18.",
    ),
    ("Your savings account has $15,200 in it.", "Your savings account has $15,020 in it."),
    ("Your savings earn 3.25% interest.", "Your savings earn 3.5% interest."),
    (
        "Your checking account has a $500 overdraft limit.",
        "Your checking account has a $1,000 overdraft limit.",
    ),
    (
        "I've transferred $500 from your savings to your checking account.",
        "I've transferred $600 from your savings to your checking account.",
    ),
    (
        "The transfer (TR-90412) went through at 9:58 AM UTC today.",
        "The transfer (TR-90412) went through at 10:58 AM UTC today.",
    ),
    (
        "Your checking balance is now $2,840.18 and your savings balance is $14,700.",
        "Your checking balance is now $2,840.18 and your savings balance is $14,800.",
    ),
    (
        "Your most recent transaction was $54.20 at Whole Foods Market on March 12.",
        "Your most recent transaction was $45.20 at Whole Foods Market on March 12.",
    ),
    (
        "Your paycheck of $3,150 from ACME Corp landed on March 11.",
        "Your paycheck of $3,510 from ACME Corp landed on March 11.",
    ),
    ("The Netflix charge of $15.49 is still pending.", "The Netflix charge of $15.49 has posted."),
    (
        "The Shell charge of $48.75 on March 9 has posted.",
        "The Shell charge of $48.75 on March 8 has posted.",
    ),
    (
        "I've opened dispute DP-3371 for the $48.75 Shell Oil charge.",
        "I've opened dispute DP-3371 for the $15.49 Netflix charge.",
    ),
    (
        "You've received a provisional credit of $48.75 while we review it.",
        "You've received a provisional credit of $84.75 while we review it.",
    ),
    (
        "The dispute is under review and should be resolved within 10 business days.",
        "The dispute is under review and should be resolved within 30 business days.",
    ),
    (
        "Your credit card ending in 7714 is currently frozen.",
        "Your credit card ending in 7714 is currently active.",
    ),
    (
        "Your card balance is $612.45 against a credit limit of $8,000.",
        "Your card balance is $621.45 against a credit limit of $8,000.",
    ),
    (
        "The minimum payment of $35 is due on March 28.",
        "The minimum payment of $35 is due on March 25.",
    ),
    (
        "Over the last four transactions, you spent $118.44 in total.",
        "Over the last four transactions, you spent $128.44 in total.",
    ),
    ("- Checking (…4821): $2,840.18", "- Checking (…4821): $2,480.18"),
    ("- Savings (…9930): $14,700.00", "- Savings (…9930): $17,400.00"),
    (
        "| Date | Merchant | Amount |\n|---|---|---|\n"
        "| Mar 12 | Whole Foods Market | -$54.20 |\n| Mar 10 | Netflix | -$15.49 |",
        "| Date | Merchant | Amount |\n|---|---|---|\n"
        "| Mar 12 | Whole Foods Market | -$54.20 |\n| Mar 10 | Netflix | -$19.49 |",
    ),
    ("You're a Premier customer, Tomas.", "You're a Gold customer, Tomas."),
    ("Done — $500 moved from savings to checking.", "Done — $500 moved from checking to savings."),
    ("Your available credit is $7,387.55.", "Your available credit is $7,837.55."),
]

NO_CLAIM = [
    "Because the card is frozen, it can't be used for purchases.",
    "Is there anything else I can help with?",
]

#: Still wrong (strict: a fix shows up as a failure to update these lists).
HONEST_BLOCKED = [
    # the sum of three of four transactions (the debits): no operation picks them
    "Over the last four transactions, you spent $118.44 in total.",
    # the account's balance after the transfer is the transfer's new_balance_to; a label
    # line's last digits do not say which account the figure is of
    "- Checking (…4821): $2,840.18",
    # the limit less the card's (negative) balance: "credit" meets provisional_credit
    "Your available credit is $7,387.55.",
]
CHANGED_MISSED = [
    # the dispute's call names T-55004; "the Netflix charge" is another transaction
    "I've opened dispute DP-3371 for the $15.49 Netflix charge.",
    # a segment no record holds is an unverified word (a flag), not a contradiction
    "You're a Gold customer, Tomas.",
    # which way the money moved is not read from the transfer's arguments
    "Done — $500 moved from checking to savings.",
]

globals().update(
    probe_tests(
        PAIRS,
        RECEIPTS,
        NOW,
        no_claim=NO_CLAIM,
        honest_failing=HONEST_BLOCKED,
        changed_passing=CHANGED_MISSED,
    )
)
