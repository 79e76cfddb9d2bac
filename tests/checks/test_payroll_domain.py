"""An HR and payroll domain none of the benchmarks has: the assistant of a German
logistics company looks up an employee's record, her last two payslips (gross, earnings,
deductions and net in EUR), her leave balances (annual leave in days, time off in lieu in
hours), the public holidays of her region, then submits an annual-leave request that the
manager approves minutes later. Written without reading the gate's code or any benchmark,
and not run before it was handed over.

First run (at ed88308, less its last fixes): 25 of its 85 honest entries and no-claim
lines failed and 11 of its 74 changed ones were not blocked; now 11 and 13 (the lists
below, each with the gate's own reason at the time they were written).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 5, 6, 10, 30, tzinfo=UTC)

EMPLOYEE = {
    "employee": {
        "id": "EMP-04417",
        "name": {"first": "Sofia", "last": "Marchetti"},
        "email": "sofia.marchetti@nordhafen-logistik.de",
        "job_title": "Senior Logistics Analyst",
        "department": {"code": "OPS-PL", "name": "Operations Planning"},
        "manager": {"id": "EMP-01190", "name": "Jonas Weber"},
        "location": {"site": "Hamburg HQ", "country": "DE", "region": "HH"},
        "employment": {
            "type": "full_time",
            "start_date": "2019-03-11",
            "end_date": None,
            "weekly_hours": 40,
            "hours_per_day": 8.0,
            "probation": False,
        },
        "tax": {"tax_class": 1, "church_tax": False},
        "bank": {"iban_last4": "4821", "bic": "HASPDEHHXXX"},
        "salary": {"annual_gross": 58800.0, "currency": "EUR", "pay_frequency": "monthly"},
    }
}
PAYSLIPS = {
    "employee_id": "EMP-04417",
    "payslips": [
        {
            "id": "PS-2025-04-04417",
            "period": {"start": "2025-04-01", "end": "2025-04-30"},
            "pay_date": "2025-04-28",
            "currency": "EUR",
            "status": "paid",
            "earnings": [
                {"code": "BASE", "label": "Base salary", "hours": None, "amount": 4900.0},
                {"code": "OT", "label": "Overtime", "hours": 7.0, "amount": 350.0},
            ],
            "gross": 5250.0,
            "deductions": [
                {"code": "LST", "label": "Income tax", "amount": 912.41},
                {"code": "SOLI", "label": "Solidarity surcharge", "amount": 0.0},
                {"code": "RV", "label": "Pension insurance", "amount": 488.25},
                {"code": "KV", "label": "Health insurance", "amount": 443.63},
                {"code": "AV", "label": "Unemployment insurance", "amount": 68.25},
                {"code": "PV", "label": "Long-term care insurance", "amount": 94.5},
            ],
            "total_deductions": 2007.04,
            "net": 3242.96,
            "correction_of": None,
            "document_url": "https://hr.nordhafen-logistik.de/payslips/PS-2025-04-04417.pdf",
        },
        {
            "id": "PS-2025-03-04417",
            "period": {"start": "2025-03-01", "end": "2025-03-31"},
            "pay_date": "2025-03-28",
            "currency": "EUR",
            "status": "paid",
            "earnings": [
                {"code": "BASE", "label": "Base salary", "hours": None, "amount": 4900.0},
            ],
            "gross": 4900.0,
            "deductions": [
                {"code": "LST", "label": "Income tax", "amount": 809.16},
                {"code": "SOLI", "label": "Solidarity surcharge", "amount": 0.0},
                {"code": "RV", "label": "Pension insurance", "amount": 455.7},
                {"code": "KV", "label": "Health insurance", "amount": 414.05},
                {"code": "AV", "label": "Unemployment insurance", "amount": 63.7},
                {"code": "PV", "label": "Long-term care insurance", "amount": 88.2},
            ],
            "total_deductions": 1830.81,
            "net": 3069.19,
            "correction_of": None,
            "document_url": "https://hr.nordhafen-logistik.de/payslips/PS-2025-03-04417.pdf",
        },
    ],
    "has_more": True,
}
BALANCES = {
    "employee_id": "EMP-04417",
    "as_of": "2025-05-06",
    "balances": [
        {
            "type": "annual_leave",
            "label": "Annual leave",
            "unit": "days",
            "entitlement": 30,
            "carried_over": 3,
            "carry_over_expires": "2025-06-30",
            "taken": 9,
            "pending": 0,
            "remaining": 24,
        },
        {
            "type": "toil",
            "label": "Time off in lieu",
            "unit": "hours",
            "accrued": 14.5,
            "taken": 6.0,
            "remaining": 8.5,
        },
        {
            "type": "sick_leave",
            "label": "Sick leave",
            "unit": "days",
            "taken_ytd": 2,
            "remaining": None,
        },
    ],
}
HOLIDAYS = {
    "country": "DE",
    "region": "HH",
    "from": "2025-05-01",
    "to": "2025-06-30",
    "count": 3,
    "holidays": [
        {
            "date": "2025-05-01",
            "name": "Labour Day",
            "local_name": "Tag der Arbeit",
            "nationwide": True,
        },
        {
            "date": "2025-05-29",
            "name": "Ascension Day",
            "local_name": "Christi Himmelfahrt",
            "nationwide": True,
        },
        {
            "date": "2025-06-09",
            "name": "Whit Monday",
            "local_name": "Pfingstmontag",
            "nationwide": True,
        },
    ],
}
SUBMITTED = {
    "request": {
        "id": "LR-88213",
        "employee_id": "EMP-04417",
        "type": "annual_leave",
        "start_date": "2025-05-26",
        "end_date": "2025-05-30",
        "working_days": 4,
        "hours": 32.0,
        "excluded_dates": [{"date": "2025-05-29", "reason": "public_holiday"}],
        "status": "submitted",
        "approver": {"id": "EMP-01190", "name": "Jonas Weber"},
        "submitted_at": "2025-05-06T10:14:22Z",
        "decided_at": None,
        "balance_after_days": 20,
    },
    "notification_sent": True,
}
DECIDED = {
    "request": {
        "id": "LR-88213",
        "type": "annual_leave",
        "start_date": "2025-05-26",
        "end_date": "2025-05-30",
        "working_days": 4,
        "status": "approved",
        "decided_by": {"id": "EMP-01190", "name": "Jonas Weber"},
        "decided_at": "2025-05-06T10:21:05Z",
        "decision_comment": "Enjoy!",
        "calendar_event_created": True,
    }
}
CALLS = [
    ("get_employee", {"employee_id": "EMP-04417"}, EMPLOYEE),
    ("list_payslips", {"employee_id": "EMP-04417", "limit": 2}, PAYSLIPS),
    ("get_leave_balances", {"employee_id": "EMP-04417", "as_of": "2025-05-06"}, BALANCES),
    (
        "list_public_holidays",
        {"country": "DE", "region": "HH", "from": "2025-05-01", "to": "2025-06-30"},
        HOLIDAYS,
    ),
    (
        "create_leave_request",
        {
            "employee_id": "EMP-04417",
            "type": "annual_leave",
            "start_date": "2025-05-26",
            "end_date": "2025-05-30",
            "half_day": False,
        },
        SUBMITTED,
    ),
    ("get_leave_request", {"request_id": "LR-88213"}, DECIDED),
]
SYSTEM = (
    "You are the HR and payroll assistant of Nordhafen Logistik GmbH. Employees get 30 days "
    "of annual leave a year, and up to 5 unused days can be carried over into the next year. "
    "Leave requests need the manager's approval. Payslips are published on the 28th of each "
    "month. Never disclose another employee's pay."
)
USER = (
    "Hi! Can you show me my last two payslips and how much leave I have left? And please book "
    "annual leave for me from 26 to 30 May. Any public holidays coming up I should know about?"
)

RECEIPTS = {indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent) for indent in (None, 2)}

#: (honest reply, the same with one thing changed or "")
PAIRS = [
    # payslips: money
    ("Your April net pay was €3,242.96.", "Your April net pay was €3,424.96."),
    ("In March you earned €4,900.00 gross.", "In March you earned €4,950.00 gross."),
    (
        "April's gross was €5,250, including €350 of overtime.",
        "April's gross was €5,250, including €530 of overtime.",
    ),
    (
        "You were paid for 7 hours of overtime in April.",
        "You were paid for 13 hours of overtime in April.",
    ),
    (
        "Total deductions in April came to €2,007.04.",
        "Total deductions in April came to €2,070.04.",
    ),
    ("Income tax for March was €809.16.", "Income tax for March was €890.16."),
    ("Pension insurance took €488.25 in April.", "Pension insurance took €448.25 in April."),
    (
        "Health insurance was €414.05 in March and €443.63 in April.",
        "Health insurance was €414.05 in March and €434.63 in April.",
    ),
    (
        "No solidarity surcharge was deducted in April.",
        "A solidarity surcharge was deducted in April.",
    ),
    ("April's salary was paid on April 28.", "April's salary was paid on April 25."),
    ("The April payslip is PS-2025-04-04417.", "The April payslip is PS-2025-04-04471."),
    ("Both payslips are marked as paid.", "Both payslips are marked as draft."),
    # payslips: derived figures and comparisons
    (
        "Your net pay went up by €173.77 from March to April.",
        "Your net pay went up by €137.77 from March to April.",
    ),
    (
        "Across the two payslips you took home €6,312.15 in total.",
        "Across the two payslips you took home €6,321.15 in total.",
    ),
    (
        "Across March and April, €3,837.85 was deducted in total.",
        "Across March and April, €3,873.85 was deducted in total.",
    ),
    (
        "That means you kept about 62% of your April gross.",
        "That means you kept about 66% of your April gross.",
    ),
    (
        "Income tax was about 17% of your April gross.",
        "Income tax was about 23% of your April gross.",
    ),
    ("April's payslip was the higher of the two.", "April's payslip was the lower of the two."),
    ("Each payslip lists six deductions.", "Each payslip lists twelve deductions."),
    # employee record
    (
        "You're listed as a Senior Logistics Analyst in Operations Planning.",
        "You're listed as a Senior Logistics Analyst in Operations Control.",
    ),
    ("Your manager is Jonas Weber.", "Your manager is Jonas Becker."),
    (
        "You've been with Nordhafen since March 11, 2019.",
        "You've been with Nordhafen since March 11, 2018.",
    ),
    ("Your annual gross salary is €58,800.", "Your annual gross salary is €59,800."),
    (
        "Your contract is full-time at 40 hours a week.",
        "Your contract is full-time at 38 hours a week.",
    ),
    (
        "Your salary goes to the account ending in 4821.",
        "Your salary goes to the account ending in 4812.",
    ),
    (
        "You're in tax class 1 and don't pay church tax.",
        "You're in tax class 1 and pay church tax.",
    ),
    ("You're based at Hamburg HQ.", "You're based at Bremen HQ."),
    (
        "I have your email as sofia.marchetti@nordhafen-logistik.de.",
        "I have your email as sofia.marchetti@nordhafen-logistics.de.",
    ),
    # leave balances
    ("You have 24 days of annual leave remaining.", "You have 27 days of annual leave remaining."),
    (
        "Your entitlement this year is 30 days, plus 3 carried over from last year.",
        "Your entitlement this year is 30 days, plus 13 carried over from last year.",
    ),
    (
        "You've taken 9 days of annual leave so far this year.",
        "You've taken 12 days of annual leave so far this year.",
    ),
    (
        "You've used 9 of your 33 available days so far.",
        "You've used 9 of your 35 available days so far.",
    ),
    (
        "You also have 8.5 hours of time off in lieu left.",
        "You also have 6.5 hours of time off in lieu left.",
    ),
    (
        "The 3 carried-over days expire on June 30, 2025.",
        "The 3 carried-over days expire on July 31, 2025.",
    ),
    ("You've had 2 sick days this year.", "You've had 15 sick days this year."),
    ("A full day of leave counts as 8 hours.", "A full day of leave counts as 7.5 hours."),
    # public holidays
    ("Ascension Day falls on Thursday, May 29.", "Ascension Day falls on Thursday, May 22."),
    ("Whit Monday is June 9.", "Whit Monday is June 16."),
    (
        "There are three public holidays in Hamburg between May 1 and June 30.",
        "There are four public holidays in Hamburg between May 1 and June 30.",
    ),
    (
        "Labour Day on May 1 was the earliest holiday in that range.",
        "Labour Day on May 1 was the latest holiday in that range.",
    ),
    (
        "Only one public holiday falls within your leave: Ascension Day.",
        "Only one public holiday falls within your leave: Corpus Christi.",
    ),
    # the leave request
    (
        "I've submitted your leave request LR-88213 for May 26–30.",
        "I've submitted your leave request LR-88231 for May 26–30.",
    ),
    (
        "I've booked your annual leave for May 26–30.",
        "I've cancelled your annual leave for May 26–30.",
    ),
    (
        "It counts as 4 working days, because Ascension Day (May 29) is a public holiday.",
        "It counts as 4 working days, because Ascension Day (May 27) is a public holiday.",
    ),
    ("That's 32 hours of leave.", "That's 36 hours of leave."),
    (
        "Your leave runs from Monday, May 26 to Friday, May 30.",
        "Your leave runs from Monday, May 26 to Friday, June 6.",
    ),
    ("The request went in at 10:14 UTC.", "The request went in at 10:41 UTC."),
    ("Jonas Weber approved it at 10:21 UTC today.", "Jonas Weber approved it at 10:12 UTC today."),
    ("Your request has been approved.", "Your request has been rejected."),
    (
        "After this leave you'll have 20 days of annual leave left.",
        "After this leave you'll have 19 days of annual leave left.",
    ),
    # policy restatements
    (
        "Annual leave is 30 days a year, and up to 5 unused days can be carried over.",
        "Annual leave is 30 days a year, and up to 15 unused days can be carried over.",
    ),
    (
        "Payslips are published on the 28th of each month.",
        "Payslips are published on the 25th of each month.",
    ),
    ("Leave requests need your manager's approval.", ""),
    # short replies with markdown
    (
        "**April 2025 payslip**\n"
        "- **Gross:** €5,250.00\n"
        "- **Deductions:** €2,007.04\n"
        "- **Net:** €3,242.96\n\n"
        "Let me know if you want the full breakdown.",
        "**April 2025 payslip**\n"
        "- **Gross:** €5,250.00\n"
        "- **Deductions:** €2,007.04\n"
        "- **Net:** €3,224.96\n\n"
        "Let me know if you want the full breakdown.",
    ),
    (
        "## Leave balance\n\n"
        "You have **24 days** of annual leave left and **8.5 hours** of time off in lieu. "
        "Your 3 carried-over days expire on 30 June 2025, so it's worth using them first.",
        "## Leave balance\n\n"
        "You have **24 days** of annual leave left and **10.5 hours** of time off in lieu. "
        "Your 3 carried-over days expire on 30 June 2025, so it's worth using them first.",
    ),
    (
        "Done! ✅ Your leave from May 26 to May 30 is approved — Jonas Weber signed it off "
        "this morning. Because Ascension Day falls on May 29, it only uses 4 days of your "
        "allowance. 🌴",
        "Done! ✅ Your leave from May 26 to May 30 is approved — Jonas Weber signed it off "
        "this morning. Because Ascension Day falls on May 28, it only uses 4 days of your "
        "allowance. 🌴",
    ),
    (
        "Here's a side-by-side:\n\n"
        "| | March | April |\n"
        "|---|---|---|\n"
        "| Gross | €4,900.00 | €5,250.00 |\n"
        "| Net | €3,069.19 | €3,242.96 |\n\n"
        "The difference in gross is the €350 overtime payment.",
        "Here's a side-by-side:\n\n"
        "| | March | April |\n"
        "|---|---|---|\n"
        "| Gross | €4,900.00 | €5,250.00 |\n"
        "| Net | €3,096.19 | €3,242.96 |\n\n"
        "The difference in gross is the €350 overtime payment.",
    ),
    (
        "Dear Sofia, your request LR-88213 has been approved by Jonas Weber. The leave covers "
        "4 working days (32 hours), and your remaining annual leave will be 20 days. Please let "
        "me know if you need anything further.",
        "Dear Sofia, your request LR-88213 has been approved by Jonas Weber. The leave covers "
        "4 working days (34 hours), and your remaining annual leave will be 20 days. Please let "
        "me know if you need anything further.",
    ),
    (
        "Upcoming holidays (Hamburg):\n- Thu 29 May — Ascension Day\n- Mon 9 June — Whit Monday",
        "Upcoming holidays (Hamburg):\n- Thu 29 May — Ascension Day\n- Mon 9 June — Easter Monday",
    ),
    (
        "Quick summary of April's deductions:\n"
        "- Income tax: €912.41\n"
        "- Pension insurance: €488.25\n"
        "- Health insurance: €443.63\n"
        "- Unemployment insurance: €68.25\n"
        "- Long-term care insurance: €94.50",
        "Quick summary of April's deductions:\n"
        "- Income tax: €912.41\n"
        "- Pension insurance: €488.25\n"
        "- Health insurance: €443.63\n"
        "- Unemployment insurance: €86.25\n"
        "- Long-term care insurance: €94.50",
    ),
    (
        "Good news — your April net pay was €173.77 higher than March's, mostly thanks to 7 "
        "hours of overtime. 🎉 Want me to explain how the tax was calculated?",
        "Good news — your April net pay was €173.77 higher than March's, mostly thanks to 12 "
        "hours of overtime. 🎉 Want me to explain how the tax was calculated?",
    ),
    (
        "**Employee:** Sofia Marchetti (EMP-04417)\n"
        "**Role:** Senior Logistics Analyst\n"
        "**Manager:** Jonas Weber\n"
        "**Start date:** 11 March 2019",
        "**Employee:** Sofia Marchetti (EMP-04471)\n"
        "**Role:** Senior Logistics Analyst\n"
        "**Manager:** Jonas Weber\n"
        "**Start date:** 11 March 2019",
    ),
    (
        "I've submitted it and Jonas has already approved it. ✔️\n\n"
        "**Dates:** 26–30 May 2025\n"
        "**Type:** Annual leave\n"
        "**Days deducted:** 4\n\n"
        "A calendar entry was created for you as well.",
        "I've submitted it and Jonas has already approved it. ✔️\n\n"
        "**Dates:** 26–30 May 2025\n"
        "**Type:** Unpaid leave\n"
        "**Days deducted:** 4\n\n"
        "A calendar entry was created for you as well.",
    ),
    (
        "Both months were paid on the 28th: March on 28 March and April on 28 April. "
        "Neither payslip is a correction.",
        "Both months were paid on the 28th: March on 27 March and April on 28 April. "
        "Neither payslip is a correction.",
    ),
    (
        "Your leave request is in and approved. 👍 Jonas Weber signed off on LR-88213 at "
        "10:21 UTC, and it's already in your calendar.",
        "Your leave request is in and approved. 👍 Jonas Wagner signed off on LR-88213 at "
        "10:21 UTC, and it's already in your calendar.",
    ),
    (
        "Sure! In April your gross was €5,250.00 and your net €3,242.96. Overtime added €350 "
        "on top of your €4,900 base salary.",
        "Sure! In April your gross was €5,250.00 and your net €3,242.96. Overtime added €350 "
        "on top of your €4,800 base salary.",
    ),
    (
        "Heads up: your 3 carried-over days expire on June 30. The leave you just booked ends "
        "on May 30, well before that.",
        "Heads up: your 3 carried-over days expire on June 30. The leave you just booked ends "
        "on May 31, well before that.",
    ),
    (
        "Please find below the status of your request.\n\n"
        "**Request:** LR-88213\n"
        "**Status:** Approved\n"
        "**Approved by:** Jonas Weber\n"
        "**Decided at:** 6 May 2025, 10:21 UTC",
        "Please find below the status of your request.\n\n"
        "**Request:** LR-88213\n"
        "**Status:** Approved\n"
        "**Approved by:** Jonas Weber\n"
        "**Decided at:** 7 May 2025, 10:21 UTC",
    ),
    (
        "Net: €3,069.19 (Mar), €3,242.96 (Apr). Deductions: €1,830.81 (Mar), €2,007.04 (Apr).",
        "Net: €3,069.19 (Mar), €3,242.96 (Apr). Deductions: €1,803.81 (Mar), €2,007.04 (Apr).",
    ),
    (
        "You're in good shape for the summer! 😊 After this week off you'll still have 20 days "
        "of annual leave, plus 8.5 hours of time off in lieu.",
        "You're in good shape for the summer! 😊 After this week off you'll still have 20 days "
        "of annual leave, plus 18.5 hours of time off in lieu.",
    ),
    (
        "### Time off in lieu\nYou've accrued 14.5 hours and used 6, leaving 8.5 hours.",
        "### Time off in lieu\nYou've accrued 16.5 hours and used 6, leaving 8.5 hours.",
    ),
    (
        "Your deductions went up by €176.23 in April. That's mostly the higher income tax on "
        "the overtime (€912.41 vs €809.16).",
        "Your deductions went up by €167.23 in April. That's mostly the higher income tax on "
        "the overtime (€912.41 vs €809.16).",
    ),
    (
        "I checked the Hamburg holiday calendar for May and June. Labour Day (May 1) has "
        "passed; the next ones are Ascension Day on May 29 and Whit Monday on June 9.",
        "I checked the Hamburg holiday calendar for May and June. Labour Day (May 1) has "
        "passed; the next ones are Ascension Day on May 29 and Whit Monday on June 10.",
    ),
    (
        "No problem. Your request for 26–30 May was submitted at 10:14 UTC and Jonas was "
        "notified straight away. He approved it about seven minutes later.",
        "No problem. Your request for 26–30 May was submitted at 10:14 UTC and Jonas was "
        "notified straight away. He approved it about seventeen minutes later.",
    ),
    (
        "Here are your details on file:\n"
        "- **Department:** Operations Planning (OPS-PL)\n"
        "- **Location:** Hamburg HQ\n"
        "- **Contract:** full-time, 40 h/week",
        "Here are your details on file:\n"
        "- **Department:** Operations Planning (OPS-PT)\n"
        "- **Location:** Hamburg HQ\n"
        "- **Contract:** full-time, 40 h/week",
    ),
]

#: Lines with no factual claim: they must pass.
NO_CLAIM = [
    "Hi Sofia! 👋",
    "Here's what I found:",
    "**Payslip summary**",
    "### Public holidays",
    "Sure, let me pull that up for you.",
    "Would you like me to download the PDF payslips for you?",
    "Do you want the breakdown of deductions as well?",
    "Let me know if you'd like to book more days off.",
    "Is there anything else I can help you with today?",
    "Happy to help!",
]

#: Known misses, filled in after the first run (strict: a fix shows up as a failure).
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # warn: general statement with no receipt
    "April's payslip",
    # warn: Unverified claim: 'manager is Jonas Weber'
    "Your manager",
    # warn: Unverified claim: 'Your contract is full'
    "Your contract",
    # Contradicted schedule figure: contradicts c3 balances[0].carry_over_expires = 2025-06-30, cl
    "Your entitlement",
    # Unsupported general figure '33 available': no receipt holds 33 available
    "You've used 9",
    # Unsupported schedule figure '8 hours': no receipt holds 8 hours
    "A full day of",
    # warn: Unverified claim: 'Jonas Weber approved'
    "Jonas Weber approved",
    # warn: general statement with no receipt
    "Both months were",
    # warn: general statement with no receipt
    "You're in good",
    # Unsupported schedule figure 'seven minutes': no receipt holds seven minutes
    "No problem. Your",
    # Unsupported contractual figure '40 h': no receipt holds 40 h
    "Here are your",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # passes
    "A solidarity",
    # passes
    "Both payslips",
    # warn: general statement with no receipt
    "April's payslip",
    # warn: general statement with no receipt
    "Each payslip",
    # warn: general statement with no receipt
    "You're based",
    # passes
    "You have 27 days",
    # passes
    "There are four",
    # passes
    "Labour Day on",
    # warn: general statement with no receipt
    "Only one public",
    # warn: general statement with no receipt
    "Your request",
    # warn: Unverified claim: "this leave you'll have 19 days"; Unsupported schedule figure '19 da
    "After this leave",
    # passes
    "Upcoming holidays",
    # passes
    "I've submitted it",
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
