"""An energy utility's customer assistant, a domain none of the benchmarks has: a
dual-fuel household account with an offline smart electricity meter and a gas meter read
in m³, a variable tariff (unit rates in pence per kWh, daily standing charges, VAT on
top), three monthly bills (one paid, one overdue, one just issued) and a payment plan.

In the session the customer says her latest bill looks high and last month's is unpaid;
the agent reads the account, the meter readings and the tariff, takes a new electricity
reading, opens the latest bill's breakdown and the list of bills, checks the payment
plan options and sets up a 6-month plan by direct debit for the £319.23 owed.

Written without reading the gate's code or any benchmark, and not run before it was
handed over. First run (at `db201ac`): 18 of 71 honest entries failing (61 pairs and 10
no-claim lines), 11 of 60 changed entries not blocked. After this session's fixes, now
11 and 8 (the lists below, each with the gate's reason at the time they were written;
tuned on this probe).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 11, 14, 10, 45, tzinfo=UTC)

ACCOUNT_ID = "A-40418827"

ACCOUNT = {
    "account": {
        "id": ACCOUNT_ID,
        "status": "active",
        "open_since": "2021-06-18",
        "holder": {
            "title": "Ms",
            "first_name": "Priya",
            "last_name": "Raman",
            "email": "p.raman@fastmail.co.uk",
            "phone": None,
        },
        "supply_address": {
            "line1": "14 Larch Close",
            "line2": None,
            "city": "Leeds",
            "postcode": "LS6 2QT",
        },
        "fuel": "dual",
        "tariff_code": "FLEX-V-2510",
        "payment_method": "pay_on_receipt",
        "bank_details": {"holder": "P Raman", "account_ending": "4417"},
        "balance": {
            "amount_due": 319.23,
            "currency": "GBP",
            "in_arrears": True,
            "days_in_arrears": 25,
        },
        "meters": [
            {
                "fuel": "electricity",
                "serial": "E18K204471",
                "mpan": "1200053924817",
                "type": "smart_smets2",
                "comms_status": "offline",
            },
            {
                "fuel": "gas",
                "serial": "G4A00981532",
                "mprn": "7384920011",
                "type": "credit",
                "comms_status": None,
            },
        ],
        "priority_services_register": False,
        "warm_home_discount": False,
    }
}

READINGS = {
    "account_id": ACCOUNT_ID,
    "meters": [
        {
            "serial": "E18K204471",
            "fuel": "electricity",
            "unit": "kWh",
            "readings": [
                {"date": "2025-11-03", "value": 24918, "source": "customer", "status": "accepted"},
                {"date": "2025-10-03", "value": 24611, "source": "smart", "status": "accepted"},
                {"date": "2025-09-03", "value": 24342, "source": "smart", "status": "accepted"},
                {"date": "2025-08-04", "value": 24109, "source": "smart", "status": "accepted"},
            ],
        },
        {
            "serial": "G4A00981532",
            "fuel": "gas",
            "unit": "m3",
            "readings": [
                {
                    "date": "2025-11-03",
                    "value": 8412.6,
                    "consumption_kwh": 1114,
                    "source": "customer",
                    "status": "accepted",
                },
                {
                    "date": "2025-10-03",
                    "value": 8312.8,
                    "consumption_kwh": 541,
                    "source": "customer",
                    "status": "accepted",
                },
                {
                    "date": "2025-09-03",
                    "value": 8264.3,
                    "consumption_kwh": 310,
                    "source": "customer",
                    "status": "accepted",
                },
                {
                    "date": "2025-08-04",
                    "value": 8236.5,
                    "consumption_kwh": None,
                    "source": "customer",
                    "status": "accepted",
                },
            ],
        },
    ],
}

NEW_READING = {
    "reading": {
        "id": "RD-99120457",
        "meter_serial": "E18K204471",
        "fuel": "electricity",
        "value": 25004,
        "unit": "kWh",
        "read_date": "2025-11-14",
        "source": "customer",
        "status": "accepted",
        "validation": {
            "within_expected_range": True,
            "consumption_since_last_kwh": 86,
            "days_since_last": 11,
        },
        "will_appear_on": "next_bill",
    }
}

TARIFF = {
    "tariff": {
        "code": "FLEX-V-2510",
        "name": "Brightwatt Flex Variable",
        "type": "variable",
        "region": "Yorkshire",
        "valid_from": "2025-10-01",
        "next_review": "2026-01-01",
        "prices_include_vat": False,
        "vat_rate": 0.05,
        "exit_fee_gbp": 0,
        "rates": [
            {
                "fuel": "electricity",
                "unit_rate_p_per_kwh": 26.35,
                "standing_charge_p_per_day": 53.68,
            },
            {"fuel": "gas", "unit_rate_p_per_kwh": 6.29, "standing_charge_p_per_day": 32.67},
        ],
        "previous_rates": [
            {
                "valid_from": "2025-07-01",
                "valid_to": "2025-09-30",
                "fuel": "electricity",
                "unit_rate_p_per_kwh": 25.73,
                "standing_charge_p_per_day": 51.37,
            },
            {
                "valid_from": "2025-07-01",
                "valid_to": "2025-09-30",
                "fuel": "gas",
                "unit_rate_p_per_kwh": 5.94,
                "standing_charge_p_per_day": 29.82,
            },
        ],
    }
}

BILL = {
    "bill": {
        "id": "BL-7730215",
        "account_id": ACCOUNT_ID,
        "issued": "2025-11-05",
        "due": "2025-11-19",
        "status": "unpaid",
        "estimated": False,
        "period": {"start": "2025-10-03", "end": "2025-11-02", "days": 31},
        "currency": "GBP",
        "lines": [
            {
                "fuel": "electricity",
                "kind": "energy",
                "quantity": 307,
                "unit": "kWh",
                "rate": 26.35,
                "rate_unit": "p/kWh",
                "amount": 80.89,
                "reading_basis": {"opening": 24611, "closing": 24918, "closing_source": "customer"},
            },
            {
                "fuel": "electricity",
                "kind": "standing_charge",
                "quantity": 31,
                "unit": "day",
                "rate": 53.68,
                "rate_unit": "p/day",
                "amount": 16.64,
                "reading_basis": None,
            },
            {
                "fuel": "gas",
                "kind": "energy",
                "quantity": 1114,
                "unit": "kWh",
                "rate": 6.29,
                "rate_unit": "p/kWh",
                "amount": 70.07,
                "reading_basis": {
                    "opening": 8312.8,
                    "closing": 8412.6,
                    "closing_source": "customer",
                    "volume_m3": 99.8,
                    "volume_correction": 1.02264,
                    "calorific_value": 39.3,
                },
            },
            {
                "fuel": "gas",
                "kind": "standing_charge",
                "quantity": 31,
                "unit": "day",
                "rate": 32.67,
                "rate_unit": "p/day",
                "amount": 10.13,
                "reading_basis": None,
            },
        ],
        "subtotal": 177.73,
        "vat": {"rate": 0.05, "amount": 8.89},
        "total": 186.62,
        "previous_balance": 132.61,
        "payments_received": 0.0,
        "balance_to_pay": 319.23,
    }
}

BILLS = {
    "account_id": ACCOUNT_ID,
    "bills": [
        {
            "id": "BL-7730215",
            "issued": "2025-11-05",
            "period_start": "2025-10-03",
            "period_end": "2025-11-02",
            "total": 186.62,
            "currency": "GBP",
            "status": "unpaid",
            "due": "2025-11-19",
            "paid_on": None,
        },
        {
            "id": "BL-7698840",
            "issued": "2025-10-06",
            "period_start": "2025-09-03",
            "period_end": "2025-10-02",
            "total": 132.61,
            "currency": "GBP",
            "status": "overdue",
            "due": "2025-10-20",
            "paid_on": None,
        },
        {
            "id": "BL-7667102",
            "issued": "2025-09-04",
            "period_start": "2025-08-04",
            "period_end": "2025-09-02",
            "total": 108.47,
            "currency": "GBP",
            "status": "paid",
            "due": "2025-09-18",
            "paid_on": "2025-09-15",
        },
    ],
    "count": 3,
}

OPTIONS = {
    "account_id": ACCOUNT_ID,
    "eligible": True,
    "ineligibility_reason": None,
    "debt_amount": 319.23,
    "currency": "GBP",
    "max_months": 12,
    "earliest_first_payment": "2025-11-21",
    "options": [
        {"months": 3, "instalment": 106.41, "final_instalment": 106.41},
        {"months": 6, "instalment": 53.21, "final_instalment": 53.18},
        {"months": 12, "instalment": 26.60, "final_instalment": 26.63},
    ],
}

PLAN = {
    "plan": {
        "id": "PP-5521904",
        "status": "active",
        "account_id": ACCOUNT_ID,
        "amount": 319.23,
        "currency": "GBP",
        "covers_bills": ["BL-7698840", "BL-7730215"],
        "months": 6,
        "collection_day": 1,
        "payment_method": {
            "type": "direct_debit",
            "bank_account_ending": "4417",
            "mandate_reference": "BWE-DD-883104",
        },
        "schedule": [
            {"n": 1, "date": "2025-12-01", "amount": 53.21, "status": "scheduled"},
            {"n": 2, "date": "2026-01-01", "amount": 53.21, "status": "scheduled"},
            {"n": 3, "date": "2026-02-01", "amount": 53.21, "status": "scheduled"},
            {"n": 4, "date": "2026-03-01", "amount": 53.21, "status": "scheduled"},
            {"n": 5, "date": "2026-04-01", "amount": 53.21, "status": "scheduled"},
            {"n": 6, "date": "2026-05-01", "amount": 53.18, "status": "scheduled"},
        ],
        "late_fees_suspended": True,
        "created_at": "2025-11-14T10:42:18Z",
    },
    "confirmation_email": {
        "sent": True,
        "to": "p.raman@fastmail.co.uk",
        "message_id": "msg_8f3a21c7",
    },
}

CALLS = [
    ("get_account", {"account_id": ACCOUNT_ID}, ACCOUNT),
    ("get_meter_readings", {"account_id": ACCOUNT_ID, "limit": 4}, READINGS),
    (
        "submit_meter_reading",
        {
            "account_id": ACCOUNT_ID,
            "meter_serial": "E18K204471",
            "value": 25004,
            "read_date": "2025-11-14",
        },
        NEW_READING,
    ),
    ("get_tariff", {"tariff_code": "FLEX-V-2510"}, TARIFF),
    ("get_bill", {"bill_id": "BL-7730215"}, BILL),
    ("list_bills", {"account_id": ACCOUNT_ID, "limit": 3}, BILLS),
    ("get_payment_plan_options", {"account_id": ACCOUNT_ID}, OPTIONS),
    (
        "create_payment_plan",
        {
            "account_id": ACCOUNT_ID,
            "months": 6,
            "first_payment_date": "2025-12-01",
            "payment_method": "direct_debit",
            "bank_account_ending": "4417",
            "send_confirmation": True,
        },
        PLAN,
    ),
]

SYSTEM = (
    "You are Brightwatt Energy's customer assistant. You can explain bills, take meter "
    "readings and set up payment plans. A payment plan can spread arrears over at most 12 "
    "months, and its first instalment must be at least 7 days after the plan is set up. "
    "No late-payment fees are charged while a plan is active."
)
USER = (
    "Hi, my latest bill looks really high and I still haven't paid last month's. Can you "
    "check my readings and explain the bill, and put what I owe on a 6-month payment plan "
    "by direct debit? Also my electricity meter says 25004 this morning."
)

RECEIPTS = {
    None: chat_receipts(SYSTEM, USER, CALLS, indent=None),
    2: chat_receipts(SYSTEM, USER, CALLS, indent=2),
}

#: (honest text, the same with one thing changed or "")
PAIRS = [
    # the new reading
    (
        "Your electricity meter reading of 25,004 kWh has been accepted.",
        "Your electricity meter reading of 25,004 kWh has been rejected.",
    ),
    (
        "That's 86 kWh since your last reading on November 3.",
        "That's 96 kWh since your last reading on November 3.",
    ),
    (
        "I've logged your reading. 📟 Your electricity meter now shows 25,004 kWh, which is "
        "86 kWh in the 11 days since November 3. It'll show up on your next bill.",
        "I've logged your reading. 📟 Your electricity meter now shows 25,004 kWh, which is "
        "86 kWh in the 13 days since November 3. It'll show up on your next bill.",
    ),
    # readings and usage
    (
        "Between the October 3 and November 3 readings you used 307 kWh of electricity.",
        "Between the October 3 and November 3 readings you used 317 kWh of electricity.",
    ),
    (
        "In the month before that you used 269 kWh (24,342 to 24,611).",
        "In the month before that you used 279 kWh (24,342 to 24,611).",
    ),
    (
        "Your electricity use went up by 38 kWh compared with the previous month.",
        "Your electricity use went up by 48 kWh compared with the previous month.",
    ),
    (
        "I have reviewed your meter readings. Your electricity consumption for the period "
        "3 October to 3 November was 307 kWh, compared with 269 kWh in the preceding month. "
        "Gas consumption rose from 541 kWh to 1,114 kWh over the same periods.",
        "I have reviewed your meter readings. Your electricity consumption for the period "
        "3 October to 3 November was 307 kWh, compared with 269 kWh in the preceding month. "
        "Gas consumption rose from 541 kWh to 1,411 kWh over the same periods.",
    ),
    (
        "Your gas meter went from 8,312.8 to 8,412.6 m³, which is 99.8 m³.",
        "Your gas meter went from 8,312.8 to 8,412.6 m³, which is 89.8 m³.",
    ),
    (
        "This bill isn't estimated — it uses the readings you gave us on November 3.",
        "This bill is estimated — it uses the readings you gave us on November 3.",
    ),
    # the bill
    (
        "**Your November bill (BL-7730215)**\n\n"
        "- **Electricity:** 307 kWh at 26.35p = £80.89\n"
        "- **Electricity standing charge:** 31 days at 53.68p = £16.64\n"
        "- **Gas:** 1,114 kWh at 6.29p = £70.07\n"
        "- **Gas standing charge:** 31 days at 32.67p = £10.13\n"
        "- **VAT (5%):** £8.89\n\n"
        "**Total: £186.62**",
        "**Your November bill (BL-7730215)**\n\n"
        "- **Electricity:** 307 kWh at 26.35p = £80.89\n"
        "- **Electricity standing charge:** 31 days at 53.68p = £16.64\n"
        "- **Gas:** 1,114 kWh at 6.29p = £70.07\n"
        "- **Gas standing charge:** 31 days at 32.67p = £10.31\n"
        "- **VAT (5%):** £8.89\n\n"
        "**Total: £186.62**",
    ),
    (
        "Electricity: 307 kWh × 26.35p = £80.89.",
        "Electricity: 307 kWh × 26.35p = £80.98.",
    ),
    (
        "Gas came to £70.07 for 1,114 kWh at 6.29p/kWh.",
        "Gas came to £70.07 for 1,114 kWh at 6.92p/kWh.",
    ),
    (
        "The electricity standing charge came to £16.64 for the 31 days.",
        "The electricity standing charge came to £16.46 for the 31 days.",
    ),
    ("VAT at 5% added £8.89.", "VAT at 5% added £9.89."),
    (
        "Electricity accounted for £97.53 of the bill before VAT.",
        "Electricity accounted for £79.53 of the bill before VAT.",
    ),
    ("Gas came to £80.20 before VAT.", "Gas came to £82.20 before VAT."),
    (
        "Together the standing charges added up to £26.77.",
        "Together the standing charges added up to £27.67.",
    ),
    ("Your bill BL-7730215 comes to £186.62.", "Your bill BL-7730215 comes to £168.62."),
    (
        "The bill covers October 3 to November 2.",
        "The bill covers October 3 to November 12.",
    ),
    ("It's due on Wednesday, November 19.", "It's due on Wednesday, November 26."),
    (
        "That's about 41% higher than last month's bill.",
        "That's about 51% higher than last month's bill.",
    ),
    (
        "Why is it higher? Mostly gas — you used 1,114 kWh this time versus 541 kWh last "
        "month, more than double. Your electricity rate also went up on October 1, from "
        "25.73p to 26.35p per kWh.",
        "Why is it higher? Mostly gas — you used 1,114 kWh this time versus 541 kWh last "
        "month, more than double. Your electricity rate also went up on October 1, from "
        "25.37p to 26.35p per kWh.",
    ),
    # bills and balance
    (
        "Last month's bill, BL-7698840 for £132.61, is overdue.",
        "Last month's bill, BL-7698840 for £132.61, has been written off.",
    ),
    (
        "It was due on October 20, so it's 25 days overdue.",
        "It was due on October 20, so it's 35 days overdue.",
    ),
    ("In total you owe £319.23.", "In total you owe £391.23."),
    (
        "Here's where your account stands:\n\n"
        "* BL-7698840 — £132.61, overdue since October 20\n"
        "* BL-7730215 — £186.62, due November 19\n\n"
        "That's **£319.23** in total.",
        "Here's where your account stands:\n\n"
        "* BL-7698840 — £132.61, overdue since October 12\n"
        "* BL-7730215 — £186.62, due November 19\n\n"
        "That's **£319.23** in total.",
    ),
    (
        "Your September bill of £108.47 was paid on September 15.",
        "Your September bill of £108.47 was paid on September 25.",
    ),
    (
        "Your last paid bill was BL-7667102 (£108.47), settled on 15 September, three days "
        "before it was due.",
        "Your last paid bill was BL-7667102 (£108.47), settled on 15 September, five days "
        "before it was due.",
    ),
    ("You have 2 unpaid bills.", "You have 4 unpaid bills."),
    (
        "November's bill is the highest of your last three.",
        "September's bill is the highest of your last three.",
    ),
    # tariff
    (
        "Your electricity unit rate is 26.35p per kWh.",
        "Your electricity unit rate is 26.53p per kWh.",
    ),
    ("The gas standing charge is 32.67p a day.", "The gas standing charge is 36.27p a day."),
    (
        "Your tariff is Brightwatt Flex Variable (FLEX-V-2510).",
        "Your tariff is Brightwatt Flex Fixed (FLEX-V-2510).",
    ),
    (
        "Your electricity unit rate went up from 25.73p to 26.35p on October 1.",
        "Your electricity unit rate went up from 25.73p to 26.35p on November 1.",
    ),
    ("That's a rise of 0.62p per kWh.", "That's a rise of 0.26p per kWh."),
    (
        "Quick note on your tariff: you're on **Brightwatt Flex Variable**, so rates can "
        "change — the next review is January 1, 2026. Prices are shown excluding VAT, "
        "which is 5%.",
        "Quick note on your tariff: you're on **Brightwatt Flex Variable**, so rates can "
        "change — the next review is February 1, 2026. Prices are shown excluding VAT, "
        "which is 5%.",
    ),
    # account and meters
    (
        "The supply address is 14 Larch Close, Leeds LS6 2QT.",
        "The supply address is 41 Larch Close, Leeds LS6 2QT.",
    ),
    (
        "Your electricity meter (serial E18K204471) is a smart meter, but it's currently offline.",
        "Your electricity meter (serial E18K204471) is a smart meter, but it's currently online.",
    ),
    ("The gas meter's MPRN is 7384920011.", "The gas meter's MPRN is 7384920012."),
    (
        "Your account has been open since June 2021.",
        "Your account has been open since June 2019.",
    ),
    (
        "You're not on the Priority Services Register.",
        "You're on the Priority Services Register.",
    ),
    # payment plan options and policy
    (
        "Good news — you're eligible for a payment plan. You can spread the £319.23 over up "
        "to 12 months, and the first payment can be any date from November 21.",
        "Good news — you're eligible for a payment plan. You can spread the £319.23 over up "
        "to 12 months, and the first payment can be any date from November 18.",
    ),
    (
        "Plans can spread arrears over at most 12 months.",
        "Plans can spread arrears over at most 18 months.",
    ),
    (
        "The first instalment has to be at least 7 days after the plan is set up.",
        "The first instalment has to be at least 10 days after the plan is set up.",
    ),
    (
        "Your options were:\n\n"
        "- 3 months at £106.41\n"
        "- 6 months at £53.21 (final £53.18)\n"
        "- 12 months at £26.60 (final £26.63)\n\n"
        "You chose 6 months, which is what I've set up.",
        "Your options were:\n\n"
        "- 3 months at £106.41\n"
        "- 6 months at £53.21 (final £53.18)\n"
        "- 12 months at £26.60 (final £26.36)\n\n"
        "You chose 6 months, which is what I've set up.",
    ),
    (
        "A 12-month plan would have been £26.60 a month.",
        "A 12-month plan would have been £29.60 a month.",
    ),
    (
        "The 12-month option has the lowest monthly payment.",
        "The 3-month option has the lowest monthly payment.",
    ),
    # the plan set up
    (
        "Done! ✅ Your payment plan **PP-5521904** is set up:\n\n"
        "- £319.23 spread over 6 months\n"
        "- £53.21 a month, with a final payment of £53.18\n"
        "- First payment: Monday, December 1\n\n"
        "Let me know if you'd like a copy of the schedule.",
        "Done! ✅ Your payment plan **PP-5521904** is set up:\n\n"
        "- £319.23 spread over 6 months\n"
        "- £53.21 a month, with a final payment of £53.18\n"
        "- First payment: Monday, December 15\n\n"
        "Let me know if you'd like a copy of the schedule.",
    ),
    (
        "The £319.23 is split over 6 monthly payments.",
        "The £319.23 is split over 9 monthly payments.",
    ),
    (
        "Five payments of £53.21 and a final one of £53.18.",
        "Five payments of £53.21 and a final one of £53.81.",
    ),
    (
        "The last payment is on May 1, 2026.",
        "The last payment is on June 1, 2026.",
    ),
    (
        "Every payment in your plan is due on the 1st of the month.",
        "Every payment in your plan is due on the 15th of the month.",
    ),
    (
        "Payments will be collected by direct debit from your account ending 4417.",
        "Payments will be collected by direct debit from your account ending 4477.",
    ),
    (
        "Plan PP-5521904: active. 6 monthly DDs from acct ending 4417, starting 1 Dec.",
        "Plan PP-5521904: active. 6 monthly DDs from acct ending 4417, starting 8 Dec.",
    ),
    (
        "Your payment plan reference is PP-5521904.",
        "Your payment plan reference is PP-5521940.",
    ),
    (
        "The direct debit mandate reference is BWE-DD-883104.",
        "The direct debit mandate reference is BWE-DD-883140.",
    ),
    (
        "The plan covers both BL-7698840 and BL-7730215.",
        "The plan covers both BL-7698840 and BL-7667102.",
    ),
    ("The plan is now active.", "The plan is now cancelled."),
    (
        "The plan was set up at 10:42 this morning.",
        "The plan was set up at 11:42 this morning.",
    ),
    (
        "**Confirmation sent** 📧\n"
        "A summary of your plan went to p.raman@fastmail.co.uk. While the plan is active you "
        "won't be charged late-payment fees.",
        "**Confirmation sent** 📧\n"
        "A summary of your plan went to p.raman@gmail.com. While the plan is active you "
        "won't be charged late-payment fees.",
    ),
    ("While the plan is active, no late-payment fees will be charged.", ""),
]

#: Lines with no factual claim: they must pass.
NO_CLAIM = [
    "Hi Priya, thanks for getting in touch!",
    "Let me take a look at your account.",
    "**Bill breakdown**",
    "Here's what I found:",
    "### Your payment plan",
    "Would you like me to switch your regular bills to direct debit as well?",
    "Could you confirm which email address you'd like the summary sent to?",
    "Let me know if you have any questions about the schedule.",
    "Is there anything else I can help with today?",
    "Happy to help! 😊",
]

#: Known misses, filled in after the first run (strict: a fix shows up as a failure).
# Known misses (strict xfails), with the gate's reason at the time they were listed.
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # warn: general statement with no receipt
    "I've logged your",
    # Unsupported general figure '38 kWh': no receipt holds 38 kWh
    "Your electricity use",
    # Unsupported general figure '307 kWh': no receipt holds 307 kWh; Unsupported general figure '
    "I have reviewed",
    # warn: Unsupported schedule figure 'November 3': no receipt holds November 3
    "This bill isn't",
    # Unsupported financial figure '£97.53': no receipt holds £97.53
    "Electricity accounted",
    # Contradicted contractual figure: contradicts c5 bill.due = 2025-11-19, claimed October 20; U
    "It was due on",
    # Contradicted financial figure: contradicts c5 bill.balance_to_pay = 319.23, claimed £108.47;
    "Your September",
    # Unsupported contractual figure 'three days': no receipt holds three days
    "Your last paid",
    # warn: general statement with no receipt
    "November's bill",
    # Unsupported schedule figure '6 months': no receipt holds 6 months
    "Your options",
    # Unverified claim: 'The plan was set up'; Unsupported schedule figure '10:42': no receipt hol
    "The plan was",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # passes
    "Your electricity meter reading",
    # warn: Unsupported schedule figure 'November 3': no receipt holds November 3
    "This bill is",
    # warn: general statement with no receipt
    "September's bill",
    # passes
    "Your electricity meter (serial",
    # passes
    "The first instalment",
    # passes
    "The 3-month option",
    # passes
    "Every payment",
    # passes
    "The plan covers",
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
