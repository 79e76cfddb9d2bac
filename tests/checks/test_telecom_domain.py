"""A mobile carrier's customer support (a family account with three lines on different
plans, last cycle's data use per line, a bill with line items, credits, taxes and fees, a
Canada roaming pass added to one line, an outage ticket and the service credit it earns).
In the session the agent reads the account, the usage and the bill, lists the roaming
passes for Canada and adds one to the daughter's line, reads the outage ticket and applies
a capped outage credit.

Written without reading the gate's code or any benchmark, and not run before it was handed
over.

First run (at cf48329 with one fix of this session (a state object's name)): 18 of its
78 honest entries and no-claim lines failed and 18 of its 67 changed ones were not
blocked; now 5 and 14 (the lists below, each with the gate's own reason at the time
they were written).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 10, 9, 17, 40, tzinfo=UTC)

ACCOUNT = {
    "account": {
        "id": "4417-2093",
        "status": "active",
        "holder": {
            "name": "Priya Raman",
            "email": "priya.raman@fastmail.com",
            "customer_since": "2019-06-12",
        },
        "autopay": {"enabled": True, "method": {"type": "card", "brand": "Visa", "last4": "4821"}},
        "billing_cycle_day": 18,
        "currency": "USD",
        "lines": [
            {
                "line_id": "L-1",
                "msisdn": "+1 503-555-0142",
                "user_name": "Priya Raman",
                "status": "active",
                "device": {"model": "iPhone 15", "financed": False},
                "plan": {
                    "code": "UNL_PLUS",
                    "name": "Unlimited Plus",
                    "monthly_price": 55.0,
                    "data_cap_gb": None,
                    "premium_data_gb": 50,
                    "hotspot_gb": 30,
                },
            },
            {
                "line_id": "L-2",
                "msisdn": "+1 503-555-0178",
                "user_name": "Arjun Raman",
                "status": "active",
                "device": {"model": "Pixel 8", "financed": True},
                "plan": {
                    "code": "UNL_BASIC",
                    "name": "Unlimited Basic",
                    "monthly_price": 40.0,
                    "data_cap_gb": None,
                    "premium_data_gb": None,
                    "hotspot_gb": 5,
                },
            },
            {
                "line_id": "L-3",
                "msisdn": "+1 503-555-0193",
                "user_name": "Maya Raman",
                "status": "active",
                "device": {"model": "Galaxy A54", "financed": False},
                "plan": {
                    "code": "FLEX_10",
                    "name": "Flex 10GB",
                    "monthly_price": 30.0,
                    "data_cap_gb": 10,
                    "premium_data_gb": None,
                    "hotspot_gb": 0,
                },
            },
        ],
    }
}
USAGE = {
    "account_id": "4417-2093",
    "cycle": {"start": "2025-08-18", "end": "2025-09-17", "closed": True},
    "lines": [
        {
            "line_id": "L-1",
            "user_name": "Priya Raman",
            "data_used_gb": 23.84,
            "hotspot_used_gb": 4.2,
            "premium_remaining_gb": 26.16,
            "overage_mb": 0,
            "throttled": False,
            "hotspot_throttled": False,
            "hotspot_throttled_since": None,
        },
        {
            "line_id": "L-2",
            "user_name": "Arjun Raman",
            "data_used_gb": 41.07,
            "hotspot_used_gb": 5.0,
            "premium_remaining_gb": None,
            "overage_mb": 0,
            "throttled": False,
            "hotspot_throttled": True,
            "hotspot_throttled_since": "2025-09-09T21:14:00Z",
        },
        {
            "line_id": "L-3",
            "user_name": "Maya Raman",
            "data_used_gb": 11.5,
            "hotspot_used_gb": 0.0,
            "premium_remaining_gb": None,
            "overage_mb": 1536,
            "throttled": False,
            "hotspot_throttled": False,
            "hotspot_throttled_since": None,
        },
    ],
    "account_total_gb": 76.41,
}
BILL = {
    "bill": {
        "id": "BL-2509-4417",
        "account_id": "4417-2093",
        "period": {"start": "2025-08-18", "end": "2025-09-17"},
        "issued": "2025-09-18",
        "due": "2025-10-08",
        "currency": "USD",
        "status": "paid",
        "payment": {
            "paid_at": "2025-10-08T14:02:11Z",
            "amount": 165.61,
            "method": "autopay",
            "card": "Visa ending 4821",
        },
        "line_items": [
            {"line_id": "L-1", "type": "plan", "description": "Unlimited Plus", "amount": 55.0},
            {"line_id": "L-2", "type": "plan", "description": "Unlimited Basic", "amount": 40.0},
            {"line_id": "L-3", "type": "plan", "description": "Flex 10GB", "amount": 30.0},
            {
                "line_id": "L-3",
                "type": "overage",
                "description": "Data overage 1.5 GB @ $10.00/GB",
                "amount": 15.0,
            },
            {
                "line_id": "L-2",
                "type": "device_installment",
                "description": "Pixel 8 installment 14 of 24",
                "amount": 20.83,
            },
            {
                "line_id": None,
                "type": "usage",
                "description": "International calling - 38 min to India",
                "amount": 7.6,
            },
        ],
        "credits": [
            {"description": "AutoPay discount", "amount": -15.0},
            {"description": "Loyalty credit", "amount": -5.0},
        ],
        "taxes_and_fees": [
            {"description": "State 911 fee", "amount": 3.75},
            {"description": "Federal Universal Service Fund", "amount": 4.12},
            {"description": "Sales tax", "amount": 9.31},
        ],
        "charges_subtotal": 168.43,
        "credits_total": -20.0,
        "taxes_total": 17.18,
        "total": 165.61,
        "previous_bill_total": 128.4,
    }
}
PASSES = {
    "destination": {"country": "Canada", "code": "CA"},
    "currency": "USD",
    "passes": [
        {
            "code": "RP-CA-DAY",
            "name": "Canada Day Pass",
            "price": 5.0,
            "duration_days": 1,
            "data_gb": 0.5,
            "talk_text": "unlimited",
        },
        {
            "code": "RP-NA-7",
            "name": "North America 7-Day",
            "price": 25.0,
            "duration_days": 7,
            "data_gb": 5,
            "talk_text": "unlimited",
        },
        {
            "code": "RP-NA-30",
            "name": "North America 30-Day",
            "price": 60.0,
            "duration_days": 30,
            "data_gb": 15,
            "talk_text": "unlimited",
        },
    ],
}
PASS_ORDER = {
    "ok": True,
    "order_id": "RO-559120",
    "line_id": "L-3",
    "msisdn": "+1 503-555-0193",
    "pass": {"code": "RP-NA-7", "name": "North America 7-Day", "price": 25.0, "currency": "USD"},
    "status": "scheduled",
    "start_date": "2025-10-14",
    "end_date": "2025-10-20",
    "bill_on": "next_bill",
    "next_bill_issue_date": "2025-10-18",
    "confirmation_sms_sent": True,
    "created_at": "2025-10-09T17:35:48Z",
}
TICKET = {
    "ticket": {
        "id": "TK-770341",
        "type": "network_outage",
        "status": "in_progress",
        "priority": "high",
        "opened_at": "2025-10-06T08:42:00-07:00",
        "affected_line_ids": ["L-1", "L-2", "L-3"],
        "location": {"zip": "97214", "city": "Portland", "state": "OR"},
        "cell_site": "PDX-SE-114",
        "cause": "fiber cut on backhaul link",
        "assigned_team": "Field Ops - Portland",
        "estimated_restore_at": "2025-10-09T16:00:00-07:00",
        "restored_at": None,
        "full_days_without_service": 3,
        "credit_eligible": True,
        "updates": [
            {"at": "2025-10-06T09:15:00-07:00", "note": "Outage confirmed at site PDX-SE-114"},
            {"at": "2025-10-07T16:30:00-07:00", "note": "Fiber crew dispatched"},
            {"at": "2025-10-08T19:05:00-07:00", "note": "Splicing 60% complete"},
        ],
    }
}
CREDIT = {
    "credit_id": "CR-20931",
    "account_id": "4417-2093",
    "ticket_id": "TK-770341",
    "status": "approved",
    "line_ids": ["L-1", "L-2", "L-3"],
    "days": 3,
    "requested_amount": 45.0,
    "amount": 30.0,
    "currency": "USD",
    "capped": True,
    "applies_to_bill_issued": "2025-10-18",
    "created_at": "2025-10-09T17:36:12Z",
}
CALLS = [
    ("get_account", {"account_id": "4417-2093"}, ACCOUNT),
    ("get_data_usage", {"account_id": "4417-2093", "cycle_start": "2025-08-18"}, USAGE),
    ("get_bill", {"account_id": "4417-2093", "bill_id": "latest"}, BILL),
    ("list_roaming_passes", {"destination": "CA", "line_id": "L-3"}, PASSES),
    (
        "add_roaming_pass",
        {"line_id": "L-3", "pass_code": "RP-NA-7", "start_date": "2025-10-14"},
        PASS_ORDER,
    ),
    ("get_ticket", {"ticket_id": "TK-770341"}, TICKET),
    (
        "apply_outage_credit",
        {"account_id": "4417-2093", "ticket_id": "TK-770341", "line_ids": ["L-1", "L-2", "L-3"]},
        CREDIT,
    ),
]
SYSTEM = (
    "You are the support assistant for Brightwave Mobile. Outage credits are $5 per affected "
    "line for each full day without service, capped at $30 per bill. Roaming passes and "
    "credits post to the next bill, never the current one. Confirm any plan change with the "
    "account holder before making it."
)
USER = (
    "Hi, this is Priya (account 4417-2093). Our last bill was way higher than usual, what "
    "happened? How much data is each of our lines using? Please add the 7-day Canada pass to "
    "Maya's line, we leave Tuesday the 14th. And any news on outage ticket TK-770341? We've "
    "had no signal at home since Monday."
)

RECEIPTS = {indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent) for indent in (None, 2)}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    # the bill
    ("Your latest bill came to $165.61.", "Your latest bill came to $156.61."),
    (
        "That's $37.21 more than your previous bill of $128.40.",
        "That's $47.21 more than your previous bill of $128.40.",
    ),
    (
        "Maya's line was charged a $15.00 data overage.",
        "Arjun's line was charged a $15.00 data overage.",
    ),
    (
        "Maya used 11.5 GB on her 10 GB plan, so she went 1.5 GB over.",
        "Maya used 11.5 GB on her 10 GB plan, so she went 2.5 GB over.",
    ),
    ("Overage is billed at $10 per GB.", "Overage is billed at $12 per GB."),
    (
        "There's also $7.60 for 38 minutes of calls to India.",
        "There's also $7.60 for 48 minutes of calls to India.",
    ),
    (
        "The calls to India worked out to $0.20 a minute.",
        "The calls to India worked out to $0.25 a minute.",
    ),
    (
        "Credits on that bill totaled $20: the $15 AutoPay discount and a $5 loyalty credit.",
        "Credits on that bill totaled $18: the $15 AutoPay discount and a $5 loyalty credit.",
    ),
    ("Taxes and fees came to $17.18.", "Taxes and fees came to $17.81."),
    ("The sales tax was $9.31.", "The sales tax was $9.13."),
    (
        "Your three plans add up to $125 a month.",
        "Your three plans add up to $135 a month.",
    ),
    (
        "**Bill BL-2509-4417** (Aug 18 – Sep 17)\n"
        "- Plans: $125.00\n"
        "- Data overage (Maya): $15.00\n"
        "- Pixel 8 installment: $20.83\n"
        "- International calls: $7.60\n"
        "- Credits: −$20.00\n"
        "- Taxes & fees: $17.18\n\n"
        "**Total: $165.61**",
        "**Bill BL-2509-4417** (Aug 18 – Sep 17)\n"
        "- Plans: $125.00\n"
        "- Data overage (Maya): $15.00\n"
        "- Pixel 8 installment: $20.38\n"
        "- International calls: $7.60\n"
        "- Credits: −$20.00\n"
        "- Taxes & fees: $17.18\n\n"
        "**Total: $165.61**",
    ),
    (
        "It was paid in full by AutoPay on October 8.",
        "It was paid in full by AutoPay on October 3.",
    ),
    ("The bill was due October 8, 2025.", "The bill was due October 28, 2025."),
    (
        "Bill total $165.61, paid 10/8 via AutoPay. Up $37.21 from last cycle.",
        "Bill total $165.61, paid 10/2 via AutoPay. Up $37.21 from last cycle.",
    ),
    (
        "Arjun's Pixel 8 installment is payment 14 of 24, so 10 payments remain.",
        "Arjun's Pixel 8 installment is payment 14 of 24, so 12 payments remain.",
    ),
    (
        "At $20.83 a month, that's $208.30 left on the Pixel 8.",
        "At $20.83 a month, that's $218.30 left on the Pixel 8.",
    ),
    (
        "Okay, so the short version 😊 — your bill jumped mostly because of two things: "
        "Maya's $15 data overage and $7.60 in calls to India. Together that's $22.60 of the "
        "$37.21 increase.",
        "Okay, so the short version 😊 — your bill jumped mostly because of two things: "
        "Maya's $15 data overage and $7.60 in calls to India. Together that's $26.20 of the "
        "$37.21 increase.",
    ),
    (
        "**Why your bill went up**\n"
        "1. Data overage on Maya's line — $15.00\n"
        "2. International calls (38 min to India) — $7.60\n\n"
        "Everything else is your regular plans, the Pixel 8 installment, credits and taxes.",
        "**Why your bill went up**\n"
        "1. Data overage on Maya's line — $18.00\n"
        "2. International calls (38 min to India) — $7.60\n\n"
        "Everything else is your regular plans, the Pixel 8 installment, credits and taxes.",
    ),
    # data usage
    (
        "Arjun used the most data last cycle — 41.07 GB.",
        "Priya used the most data last cycle — 41.07 GB.",
    ),
    (
        "Priya's line used 23.84 GB, with 26.16 GB of premium data left.",
        "Priya's line used 23.84 GB, with 28.16 GB of premium data left.",
    ),
    ("Together the three lines used 76.41 GB.", "Together the three lines used 74.61 GB."),
    ("Arjun hit his 5 GB hotspot limit.", "Arjun hit his 8 GB hotspot limit."),
    (
        "Priya used 4.2 GB of her 30 GB hotspot allowance.",
        "Priya used 4.8 GB of her 30 GB hotspot allowance.",
    ),
    ("Maya used 0 GB of hotspot data.", "Maya used 0.8 GB of hotspot data."),
    ("Maya's overage came to 1,536 MB.", "Maya's overage came to 1,356 MB."),
    ("Maya used 115% of her 10 GB allowance.", "Maya used 125% of her 10 GB allowance."),
    ("Only Arjun's hotspot was throttled.", "Only Maya's hotspot was throttled."),
    (
        "Heads up: Arjun's hotspot has been slowed since Sept 9 at 9:14 pm UTC.",
        "Heads up: Arjun's hotspot has been slowed since Sept 9 at 9:41 pm UTC.",
    ),
    (
        "Here's last cycle's data by line:\n\n"
        "- **Priya:** 23.84 GB\n"
        "- **Arjun:** 41.07 GB\n"
        "- **Maya:** 11.5 GB (1.5 GB over her 10 GB cap)\n\n"
        "Let me know if you'd like tips to keep Maya under her limit!",
        "Here's last cycle's data by line:\n\n"
        "- **Priya:** 23.84 GB\n"
        "- **Arjun:** 41.70 GB\n"
        "- **Maya:** 11.5 GB (1.5 GB over her 10 GB cap)\n\n"
        "Let me know if you'd like tips to keep Maya under her limit!",
    ),
    # the roaming pass
    (
        "I've added the North America 7-Day pass to Maya's line.",
        "I've added the North America 30-Day pass to Maya's line.",
    ),
    ("I've added the pass to Maya's line.", "I've added the pass to all three lines."),
    ("It runs from October 14 through October 20.", "It runs from October 14 through October 22."),
    (
        "The pass costs $25 and includes 5 GB of data plus unlimited talk and text.",
        "The pass costs $25 and includes 6 GB of data plus unlimited talk and text.",
    ),
    (
        "The $25 will show up on your next bill, issued October 18.",
        "The $25 will show up on your next bill, issued October 25.",
    ),
    ("Your order number is RO-559120.", "Your order number is RO-559210."),
    (
        "A confirmation text went out to +1 503-555-0193.",
        "A confirmation text went out to +1 503-555-0139.",
    ),
    ("The Canada pass shows as scheduled for now.", "The Canada pass shows as expired for now."),
    (
        "The Day Pass is the cheapest option at $5 a day, but it only has 0.5 GB.",
        "The Day Pass is the cheapest option at $5 a day, but it only has 0.75 GB.",
    ),
    (
        "For a 7-day trip, seven Day Passes would cost $35 versus $25 for the weekly pass.",
        "For a 7-day trip, seven Day Passes would cost $42 versus $25 for the weekly pass.",
    ),
    ("The 30-Day pass is $60 for 15 GB.", "The 30-Day pass is $65 for 15 GB."),
    (
        "**Roaming pass added** ✅\n\n"
        "- **Line:** Maya (+1 503-555-0193)\n"
        "- **Pass:** North America 7-Day\n"
        "- **Dates:** Oct 14 – Oct 20\n"
        "- **Price:** $25.00, on your next bill\n\n"
        "Have a great trip!",
        "**Roaming pass added** ✅\n\n"
        "- **Line:** Maya (+1 503-555-0193)\n"
        "- **Pass:** North America 7-Day\n"
        "- **Dates:** Oct 14 – Oct 21\n"
        "- **Price:** $25.00, on your next bill\n\n"
        "Have a great trip!",
    ),
    (
        "Your options for Canada:\n"
        "- Day Pass — $5/day, 0.5 GB\n"
        "- 7-Day — $25, 5 GB\n"
        "- 30-Day — $60, 15 GB\n\n"
        "I went with the 7-Day pass, as you asked.",
        "Your options for Canada:\n"
        "- Day Pass — $5/day, 0.5 GB\n"
        "- 7-Day — $25, 5 GB\n"
        "- 30-Day — $60, 12 GB\n\n"
        "I went with the 7-Day pass, as you asked.",
    ),
    # the outage
    ("Ticket TK-770341 is still in progress.", "Ticket TK-770341 has been resolved."),
    (
        "The outage is due to a fiber cut on the backhaul link to cell site PDX-SE-114.",
        "The outage is due to a fiber cut on the backhaul link to cell site PDX-SE-141.",
    ),
    (
        "The crew expects service back by 4 pm on Thursday, October 9.",
        "The crew expects service back by 6 pm on Thursday, October 9.",
    ),
    (
        "You reported it on Monday, October 6 at 8:42 am.",
        "You reported it on Monday, October 6 at 9:42 am.",
    ),
    (
        "Splicing was 60% complete as of the last update on October 8.",
        "Splicing was 80% complete as of the last update on October 8.",
    ),
    (
        "The ticket has high priority and is assigned to Field Ops - Portland.",
        "The ticket has critical priority and is assigned to Field Ops - Portland.",
    ),
    (
        "All three of your lines are affected by the outage in ZIP 97214.",
        "All three of your lines are affected by the outage in ZIP 97241.",
    ),
    ("A fiber crew was dispatched on October 7.", "A fiber crew was dispatched on October 5."),
    (
        "There have been 3 updates on the ticket so far.",
        "There have been 4 updates on the ticket so far.",
    ),
    (
        "### Outage update\n"
        "Your ticket **TK-770341** is still **in progress**. The cause is a fiber cut, and the "
        "estimated restore time is **4:00 PM PT today**. Service hasn't been restored yet.",
        "### Outage update\n"
        "Your ticket **TK-770341** is still **in progress**. The cause is a fiber cut, and the "
        "estimated restore time is **5:00 PM PT today**. Service hasn't been restored yet.",
    ),
    # the outage credit and the policy
    (
        "I've applied a $30 outage credit to your account.",
        "I've applied a $35 outage credit to your account.",
    ),
    (
        "Three lines for three full days at $5 each would be $45, but credits are capped at $30 "
        "per bill.",
        "Three lines for three full days at $5 each would be $45, but credits are capped at $50 "
        "per bill.",
    ),
    (
        "Outage credits are $5 per affected line per full day without service.",
        "Outage credits are $8 per affected line per full day without service.",
    ),
    (
        "The credit CR-20931 will appear on your October 18 bill.",
        "The credit CR-20931 will appear on your November 18 bill.",
    ),
    (
        "Good news on the credit: I applied **$30.00** (ref. CR-20931). The full amount would "
        "have been $45, but outage credits are capped at $30 per bill. It'll show on the bill "
        "issued October 18.",
        "Good news on the credit: I applied **$30.00** (ref. CR-20913). The full amount would "
        "have been $45, but outage credits are capped at $30 per bill. It'll show on the bill "
        "issued October 18.",
    ),
    (
        "I applied the outage credit; the $15 overage still stands.",
        "I applied the outage credit; the $15 overage has been waived.",
    ),
    ("Roaming passes and credits go on the next bill, not the current one.", ""),
    (
        "Quick recap:\n"
        "- Pass added for Maya ✔️\n"
        "- $30 outage credit applied ✔️\n"
        "- Plans unchanged\n\n"
        "Anything else I can help with?",
        "Quick recap:\n"
        "- Pass added for Maya ✔️\n"
        "- $50 outage credit applied ✔️\n"
        "- Plans unchanged\n\n"
        "Anything else I can help with?",
    ),
    # the account and plans
    ("You've been with us since June 2019.", "You've been with us since June 2017."),
    ("There are three lines on account 4417-2093.", "There are four lines on account 4417-2093."),
    ("Arjun is on Unlimited Basic at $40 a month.", "Arjun is on Unlimited Plus at $40 a month."),
    (
        "Maya's Flex 10GB plan is the cheapest on the account at $30.",
        "Maya's Flex 10GB plan is the priciest on the account at $30.",
    ),
    (
        "Moving Maya to Unlimited Basic would cost $10 more a month than Flex 10GB.",
        "Moving Maya to Unlimited Basic would cost $12 more a month than Flex 10GB.",
    ),
    ("Maya's line is on the Flex 10GB plan.", "Maya's line is on the Unlimited Basic plan."),
    (
        "Dear Ms. Raman, thank you for your patience. Your account 4417-2093 has three active "
        "lines, and AutoPay is enabled with your Visa ending in 4821. Please let us know if "
        "there is anything further we can assist with.",
        "Dear Ms. Raman, thank you for your patience. Your account 4417-2093 has three active "
        "lines, and AutoPay is enabled with your Mastercard ending in 4821. Please let us know "
        "if there is anything further we can assist with.",
    ),
]

NO_CLAIM = [
    "Hi Priya, thanks for reaching out!",
    "Here's what I found:",
    "**Bill summary**",
    "### Data usage",
    "Would you like me to look at moving Maya to an unlimited plan?",
    "Let me know if you have any other questions.",
    "Is there anything else I can help you with today?",
    "Happy to walk you through any line of the bill.",
    "Safe travels! ✈️",
    "Just say the word and I'll set it up.",
]

#: Still wrong (strict: a fix shows up as a failure to update these).
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # Unsupported financial figure '$208.30': no receipt holds $208.30
    "At $20.83 a month",
    # warn: general statement with no receipt
    "The Canada pass",
    # Unsupported financial figure '$35': no receipt holds $35
    "For a 7-day trip",
    # warn: general statement with no receipt
    "### Outage update",
    # Action claim 'I applied **$30.00** (ref' has no receipt: no fixed call on '$30.00** (ref' in
    "Good news on",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # a date written "10/2" (month/day, no year) is not read: the sentence's other figures pass
    "Bill total $165.61, paid 10/2",
    # passes
    "Your three plans",
    # passes
    "Arjun's Pixel",
    # passes
    "I've added the North",
    # passes
    "I've added the pass",
    # warn: general statement with no receipt
    "The Canada pass",
    # passes
    "I've applied",
    # passes
    "Three lines for",
    # passes
    "Quick recap:",
    # passes
    "There are four",
    # passes
    "Arjun is on Unlimited",
    # passes
    "Maya's Flex 10GB",
    # passes
    "Maya's line is",
    # passes
    "Dear Ms. Raman",
)

globals().update(
    probe_tests(
        PAIRS,
        RECEIPTS,
        NOW,
        no_claim=NO_CLAIM,
        honest_failing=HONEST_BLOCKED,
        changed_passing=CHANGED_PASSED,
    )
)
