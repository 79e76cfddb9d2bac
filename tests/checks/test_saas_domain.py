"""A SaaS billing domain none of the benchmarks has (a workspace's plan, seats and
add-ons, invoices, usage, a seat change), written for this test after the session's
other probes had been fixed (no benchmark read, and no rule written from it before its
first run): at dc69979 7 of its 22 honest sentences failed and 4 of its 20 changed ones
passed; at its first run, 3 and 2. One was then fixed: "The Audit Log add-on isn't
active" was contradicted by scanning the workspace's JSON as text (SSO's "active": true
beside it); a true/false field named for the state alone is now read of the row the
subject names; and "That's about 64% of your API quota" had no operation that gives a
share of a limit: a percentage is now one field of a row over another of the same row,
rounded as written ("about" allows a point more).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests

NOW = datetime(2025, 9, 8, 15, tzinfo=UTC)

ACCOUNT = {
    "workspace": {
        "id": "ws_7Hk2",
        "name": "Lumen Analytics",
        "owner_email": "dara@lumen.io",
        "plan": {
            "code": "team_annual",
            "display_name": "Team (annual)",
            "price_per_seat": 12.0,
            "billing_interval": "year",
            "currency": "USD",
        },
        "seats": {"purchased": 25, "used": 23},
        "trial": False,
        "renews_on": "2026-01-15",
        "add_ons": [
            {"code": "sso", "name": "SSO", "monthly_price": 4.0, "active": True},
            {"code": "audit_log", "name": "Audit Log", "monthly_price": 2.0, "active": False},
        ],
    }
}
INVOICES = {
    "invoices": [
        {
            "number": "INV-2025-0812",
            "issued": "2025-08-01",
            "total": 3600.0,
            "status": "paid",
            "paid_at": "2025-08-03",
        },
        {
            "number": "INV-2025-0907",
            "issued": "2025-09-01",
            "total": 48.0,
            "status": "open",
            "due": "2025-09-15",
        },
    ]
}
CHANGE = {
    "ok": True,
    "workspace_id": "ws_7Hk2",
    "seats": {"purchased": 30, "used": 23},
    "prorated_charge": 197.26,
    "effective": "2025-09-08",
}
USAGE = {
    "period": "2025-08",
    "api_calls": 1284302,
    "api_call_limit": 2000000,
    "storage_gb": 48.6,
    "storage_limit_gb": 100,
}
CALLS = [
    ("get_workspace", {"workspace_id": "ws_7Hk2"}, ACCOUNT),
    ("list_invoices", {"workspace_id": "ws_7Hk2"}, INVOICES),
    ("get_usage", {"workspace_id": "ws_7Hk2", "period": "2025-08"}, USAGE),
    ("update_seats", {"workspace_id": "ws_7Hk2", "seats": 30}, CHANGE),
]
SYSTEM = (
    "You are Lumen's billing assistant. Seat changes are prorated. Invoices are due 14 days "
    "after issue."
)
USER = "Hey, can you check our plan, our invoices and usage, and bump us to 30 seats?"


RECEIPTS = {
    indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent, prefix="s") for indent in (None, 2)
}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    ("You're using 92% of your seats.", "You're using 94% of your seats."),
    ("That's 64.2% of your monthly API limit.", "That's 62.4% of your monthly API limit."),
    (
        "You're on the Team (annual) plan at $12 per seat.",
        "You're on the Team (annual) plan at $15 per seat.",
    ),
    ("Lumen Analytics is on the annual Team plan.", "Lumen Analytics is on the monthly Team plan."),
    ("You're using 23 of your 25 seats.", "You're using 24 of your 25 seats."),
    ("Your plan renews on January 15, 2026.", "Your plan renews on January 25, 2026."),
    (
        "SSO is active on your workspace for $4/month.",
        "SSO is active on your workspace for $5/month.",
    ),
    ("The Audit Log add-on isn't active.", "The Audit Log add-on is active."),
    (
        "Invoice INV-2025-0812 for $3,600 was paid on August 3.",
        "Invoice INV-2025-0812 for $3,600 was paid on August 13.",
    ),
    (
        "Invoice INV-2025-0907 ($48) is still open and due September 15.",
        "Invoice INV-2025-0907 ($48) is still open and due September 30.",
    ),
    (
        "Your latest invoice is INV-2025-0907 for $48.",
        "Your latest invoice is INV-2025-0812 for $48.",
    ),
    ("INV-2025-0812 has been paid.", "INV-2025-0907 has been paid."),
    (
        "In August you made 1,284,302 API calls out of a 2,000,000 limit.",
        "In August you made 1,482,302 API calls out of a 2,000,000 limit.",
    ),
    ("That's about 64% of your API quota.", "That's about 74% of your API quota."),
    (
        "You're using 48.6 GB of your 100 GB storage.",
        "You're using 84.6 GB of your 100 GB storage.",
    ),
    ("I've increased your seats from 25 to 30.", "I've increased your seats from 25 to 35."),
    (
        "The prorated charge for the 5 new seats is $197.26, effective today.",
        "The prorated charge for the 5 new seats is $179.26, effective today.",
    ),
    ("You now have 30 seats, with 7 unused.", "You now have 30 seats, with 5 unused."),
    ("Seat changes are prorated, so you only pay for the remainder of the term.", ""),
    (
        "Invoices are due 14 days after they're issued.",
        "Invoices are due 30 days after they're issued.",
    ),
    ("The billing contact is dara@lumen.io.", "The billing contact is dana@lumen.io."),
    ("Your workspace ID is ws_7Hk2.", "Your workspace ID is ws_7Hk3."),
    ("You're not on a trial.", "You're still on a trial."),
    ("Want me to turn on the Audit Log add-on too?", ""),
]

#: Still wrong (strict: a fix shows up as a failure to update these).
HONEST_BLOCKED = {
    # "5 new seats" is 30 less 25; "new" names no operation
    "The prorated charge for the 5 new seats is $197.26, effective today.",
}
CHANGED_PASSED = {
    # "monthly" against billing_interval "year" is not read
    "Lumen Analytics is on the monthly Team plan.",
    # "5 unused" is backed by 30 - 25, not checked as 30 - 23 seats used
    "You now have 30 seats, with 5 unused.",
}

globals().update(
    probe_tests(PAIRS, RECEIPTS, NOW, honest_failing=HONEST_BLOCKED, changed_passing=CHANGED_PASSED)
)
