"""A food delivery domain none of the benchmarks has: a support agent for a UK delivery
app looks up a late Saffron Table order (four lines with modifiers and quantities, a
delivery fee, a service fee, a promo discount and a tip, paid in GBP by card), its
courier tracking and the customer's account, files a missing-item report for the
samosas and one of three naans, issues a partial refund to the card, adds a late-delivery
credit under the operator's policy and emails a confirmation.

Written without reading the gate's code or any benchmark, and not run before it was
handed over.

First run (at 9ec436c and a few fixes after it): 15 of its 71 honest entries and no-
claim lines failed and 19 of its 60 changed ones were not blocked; now 8 and 16 (the
lists below, each with the gate's own reason at the time they were written).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 11, 14, 20, 25, tzinfo=UTC)

ORDER = {
    "order": {
        "id": "ORD-58QK21",
        "status": "delivered",
        "placed_at": "2025-11-14T18:42:10Z",
        "scheduled": False,
        "restaurant": {"id": "rst_2207", "name": "Saffron Table", "area": "Stoke Newington"},
        "customer_id": "cus_91LX",
        "delivery_address": {
            "line1": "Flat 3, 27 Mildmay Grove North",
            "city": "London",
            "postcode": "N1 4RH",
            "instructions": None,
        },
        "items": [
            {
                "line_id": "li_1",
                "name": "Chicken Tikka Masala",
                "quantity": 2,
                "unit_price": 11.50,
                "modifiers": [
                    {"name": "Extra spicy", "price": 0.0},
                    {"name": "Add paneer", "price": 1.50},
                ],
                "line_total": 26.00,
                "special_instructions": None,
            },
            {
                "line_id": "li_2",
                "name": "Garlic Naan",
                "quantity": 3,
                "unit_price": 2.95,
                "modifiers": [],
                "line_total": 8.85,
                "special_instructions": None,
            },
            {
                "line_id": "li_3",
                "name": "Vegetable Samosas",
                "quantity": 1,
                "unit_price": 4.95,
                "modifiers": [{"name": "Mint chutney", "price": 0.60}],
                "line_total": 5.55,
                "special_instructions": None,
            },
            {
                "line_id": "li_4",
                "name": "Mango Lassi",
                "quantity": 2,
                "unit_price": 3.75,
                "modifiers": [{"name": "No ice", "price": 0.0}],
                "line_total": 7.50,
                "special_instructions": "Please seal the lids",
            },
        ],
        "pricing": {
            "currency": "GBP",
            "subtotal": 47.90,
            "delivery_fee": 2.49,
            "service_fee": 2.40,
            "small_order_fee": 0.0,
            "promo": {"code": "WELCOME8", "discount": 8.00},
            "tip": 3.50,
            "total": 48.29,
        },
        "payment": {
            "method": "card",
            "brand": "visa",
            "last4": "4242",
            "charged": 48.29,
            "currency": "GBP",
            "credits_applied": 0.0,
        },
        "utensils_requested": True,
    }
}
TRACKING = {
    "order_id": "ORD-58QK21",
    "courier": {
        "id": "cour_4471",
        "first_name": "Tomasz",
        "vehicle": "bicycle",
        "rating": 4.8,
        "phone_masked": "+44 7*** ***219",
    },
    "quoted_eta": "2025-11-14T19:25:00Z",
    "events": [
        {"status": "order_placed", "at": "2025-11-14T18:42:10Z"},
        {"status": "restaurant_accepted", "at": "2025-11-14T18:44:02Z"},
        {"status": "courier_assigned", "at": "2025-11-14T18:58:37Z"},
        {"status": "picked_up", "at": "2025-11-14T19:21:15Z"},
        {"status": "delivered", "at": "2025-11-14T19:44:20Z"},
    ],
    "delivered_late_by_minutes": 19,
    "proof_of_delivery": {"type": "photo", "left_at": "front_door"},
}
CUSTOMER = {
    "customer": {
        "id": "cus_91LX",
        "name": "Priya Raman",
        "email": "priya.raman@fastmail.co.uk",
        "member_since": "2023-03-09",
        "plus_member": False,
        "credit_balance": {"amount": 0.0, "currency": "GBP"},
        "refunds_last_90_days": 1,
        "recent_orders": [
            {
                "id": "ORD-58QK21",
                "restaurant": "Saffron Table",
                "placed_at": "2025-11-14T18:42:10Z",
                "total": 48.29,
                "status": "delivered",
            },
            {
                "id": "ORD-57ZD04",
                "restaurant": "Pho Mile End",
                "placed_at": "2025-11-02T12:15:44Z",
                "total": 23.10,
                "status": "delivered",
            },
            {
                "id": "ORD-55MA77",
                "restaurant": "Bun & Bao",
                "placed_at": "2025-10-19T19:03:00Z",
                "total": 31.45,
                "status": "refunded",
            },
        ],
    }
}
REPORT = {
    "report": {
        "id": "MIR-20931",
        "order_id": "ORD-58QK21",
        "status": "approved",
        "auto_approved": True,
        "items": [
            {
                "line_id": "li_3",
                "name": "Vegetable Samosas",
                "quantity_missing": 1,
                "refund_amount": 5.55,
            },
            {
                "line_id": "li_2",
                "name": "Garlic Naan",
                "quantity_missing": 1,
                "refund_amount": 2.95,
            },
        ],
        "refund_total": 8.50,
        "currency": "GBP",
        "restaurant_notified": True,
        "created_at": "2025-11-14T20:12:31Z",
    }
}
REFUND = {
    "refund": {
        "id": "re_3PbK9xQ",
        "order_id": "ORD-58QK21",
        "amount": 8.50,
        "currency": "GBP",
        "type": "partial",
        "status": "pending",
        "destination": {"type": "card", "brand": "visa", "last4": "4242"},
        "reason": "missing_items",
        "created_at": "2025-11-14T20:13:05Z",
        "estimated_arrival": "2025-11-21",
        "processed_at": None,
    },
    "order_refunded_total": 8.50,
    "order_remaining_total": 39.79,
}
CREDIT = {
    "credit": {
        "id": "acr_77Hq",
        "customer_id": "cus_91LX",
        "amount": 5.00,
        "currency": "GBP",
        "reason": "late_delivery",
        "order_id": "ORD-58QK21",
        "created_at": "2025-11-14T20:13:40Z",
        "expires_at": "2026-02-14T23:59:59Z",
    },
    "balance": {"amount": 5.00, "currency": "GBP"},
}
EMAIL = {
    "message_id": "msg_0c81f2",
    "channel": "email",
    "to": "priya.raman@fastmail.co.uk",
    "template": "issue_resolved",
    "status": "queued",
    "queued_at": "2025-11-14T20:14:02Z",
}
CALLS = [
    ("get_order", {"order_id": "ORD-58QK21"}, ORDER),
    ("get_delivery_tracking", {"order_id": "ORD-58QK21"}, TRACKING),
    ("get_customer", {"customer_id": "cus_91LX", "include": ["recent_orders"]}, CUSTOMER),
    (
        "create_missing_item_report",
        {
            "order_id": "ORD-58QK21",
            "items": [{"line_id": "li_3", "quantity": 1}, {"line_id": "li_2", "quantity": 1}],
        },
        REPORT,
    ),
    (
        "issue_refund",
        {
            "order_id": "ORD-58QK21",
            "amount": 8.50,
            "currency": "GBP",
            "destination": "original_payment_method",
            "report_id": "MIR-20931",
        },
        REFUND,
    ),
    (
        "add_account_credit",
        {"customer_id": "cus_91LX", "amount": 5.00, "currency": "GBP", "reason": "late_delivery"},
        CREDIT,
    ),
    (
        "send_customer_email",
        {"customer_id": "cus_91LX", "template": "issue_resolved", "order_id": "ORD-58QK21"},
        EMAIL,
    ),
]
SYSTEM = (
    "You are the customer support assistant for Forkful, a UK food delivery app. Refund "
    "missing or wrong items at the price paid, to the original payment method; refunds take "
    "3-5 working days to appear. Never refund delivery or service fees for a partial issue. "
    "If an order arrived more than 15 minutes after its quoted ETA, you may add a £5 account "
    "credit."
)
USER = (
    "Hi, my Saffron Table order (ORD-58QK21) turned up really late and the samosas weren't in "
    "the bag at all, plus we only got 2 of the 3 garlic naans. Can you sort out a refund?"
)

RECEIPTS = {indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent) for indent in (None, 2)}

#: (honest text, the same with one thing changed or "")
PAIRS = [
    (
        "Your order from Saffron Table was delivered at 7:44 pm on Friday, November 14.",
        "Your order from Saffron Table was delivered at 7:44 pm on Thursday, November 14.",
    ),
    (
        "It was due by 7:25 pm, so it arrived 19 minutes late.",
        "It was due by 7:25 pm, so it arrived 29 minutes late.",
    ),
    ("You placed the order at 6:42 pm.", "You placed the order at 6:24 pm."),
    (
        "Your courier, Tomasz, picked it up at 7:21 pm.",
        "Your courier, Tomasz, picked it up at 7:31 pm.",
    ),
    (
        "From placing the order to delivery took 62 minutes.",
        "From placing the order to delivery took 52 minutes.",
    ),
    (
        "Tomasz was assigned at 6:58 pm, 16 minutes after you ordered.",
        "Tomasz was assigned at 6:58 pm, 36 minutes after you ordered.",
    ),
    (
        "Tomasz was on a bicycle and has a 4.8 rating.",
        "Tomasz was on a bicycle and has a 4.6 rating.",
    ),
    (
        "The order was left at your front door, with a photo as proof of delivery.",
        "The order was left at your back door, with a photo as proof of delivery.",
    ),
    ("Your order is marked as delivered.", "Your order is marked as cancelled."),
    (
        "Your order had four different items, eight in total counting quantities.",
        "Your order had four different items, nine in total counting quantities.",
    ),
    ("The subtotal came to £47.90.", "The subtotal came to £49.70."),
    (
        "You paid £2.49 for delivery and a £2.40 service fee.",
        "You paid £2.49 for delivery and a £2.90 service fee.",
    ),
    ("The WELCOME8 promo took £8.00 off.", "The WELCOME8 promo took £10.00 off."),
    (
        "The WELCOME8 code was applied to this order.",
        "The WELCOME10 code was applied to this order.",
    ),
    (
        "The promo saved you about 17% on your food subtotal.",
        "The promo saved you about 21% on your food subtotal.",
    ),
    ("You added a £3.50 tip for Tomasz.", "You added a £4.50 tip for Tomasz."),
    ("Your card was charged £48.29 in total.", "Your card was charged £48.92 in total."),
    ("It was paid with your Visa ending 4242.", "It was paid with your Mastercard ending 4242."),
    (
        "The 2 Chicken Tikka Masalas were £11.50 each, plus £1.50 each for added paneer.",
        "The 2 Chicken Tikka Masalas were £11.50 each, plus £2.50 each for added paneer.",
    ),
    (
        "Your Chicken Tikka Masala line came to £26.00.",
        "Your Chicken Tikka Masala line came to £23.00.",
    ),
    (
        "The garlic naan was £2.95 each, £8.85 for three.",
        "The garlic naan was £2.95 each, £8.55 for three.",
    ),
    (
        "The Vegetable Samosas were £4.95, plus 60p for mint chutney.",
        "The Vegetable Samosas were £4.95, plus 80p for mint chutney.",
    ),
    ("The Mango Lassis were £3.75 each.", "The Mango Lassis were £3.95 each."),
    ("You asked for the lassis with no ice.", "You asked for the lassis with no sugar."),
    (
        "The Garlic Naan was the cheapest item on the order.",
        "The Mango Lassi was the cheapest item on the order.",
    ),
    (
        "I've filed a missing-item report, MIR-20931, and it was approved automatically.",
        "I've filed a missing-item report, MIR-20391, and it was approved automatically.",
    ),
    (
        "The restaurant has been notified about the missing items.",
        "The restaurant has not been notified about the missing items.",
    ),
    ("Two of the eight items were missing.", "Three of the eight items were missing."),
    ("I've issued a partial refund of £8.50.", "I've issued a full refund of £8.50."),
    (
        "That's £5.55 for the samosas and £2.95 for the missing naan.",
        "That's £5.55 for the samosas and £3.95 for the missing naan.",
    ),
    (
        "The refund is pending and should reach your card by November 21.",
        "The refund is pending and should reach your card by November 24.",
    ),
    ("The refund is still pending.", "The refund has already been processed."),
    ("The refund reference is re_3PbK9xQ.", "The refund reference is re_3PbK9xO."),
    (
        "Refunds usually take 3-5 working days to show up.",
        "Refunds usually take 3-7 working days to show up.",
    ),
    (
        "Delivery and service fees aren't refunded for a partial issue like this one.",
        "",
    ),
    (
        "After the refund, you've paid £39.79 for the order.",
        "After the refund, you've paid £38.79 for the order.",
    ),
    (
        "Because it arrived more than 15 minutes late, I've added a £5 credit to your account.",
        "Because it arrived more than 15 minutes late, I've added a £10 credit to your account.",
    ),
    (
        "Your credit balance is now £5.00, up from £0.",
        "Your credit balance is now £15.00, up from £0.",
    ),
    (
        "The £5 credit expires on February 14, 2026.",
        "The £5 credit expires on February 28, 2026.",
    ),
    (
        "I've emailed a confirmation to priya.raman@fastmail.co.uk.",
        "I've emailed a confirmation to priya.raman@gmail.com.",
    ),
    ("I've emailed you a confirmation.", "I've texted you a confirmation."),
    (
        "Your previous order, from Pho Mile End on November 2, was £23.10.",
        "Your previous order, from Pho Mile End on November 3, was £23.10.",
    ),
    (
        "Your Bun & Bao order on October 19 was refunded.",
        "Your Bun & Bao order on October 19 was cancelled.",
    ),
    (
        "This is your second refund in the last 90 days.",
        "This is your third refund in the last 90 days.",
    ),
    ("You've been a customer since March 2023.", "You've been a customer since March 2022."),
    ("You're not a Plus member.", "You're a Plus member."),
    (
        "The order was delivered to Flat 3, 27 Mildmay Grove North, N1 4RH.",
        "The order was delivered to Flat 5, 27 Mildmay Grove North, N1 4RH.",
    ),
    ("Saffron Table is in Stoke Newington.", "Saffron Table is in Dalston."),
    (
        "**Refund issued** ✅\n\n"
        "- **Amount:** £8.50\n"
        "- **To:** Visa ending 4242\n"
        "- **Expected by:** Friday, November 21\n\n"
        "Let me know if anything else was wrong with the order!",
        "**Refund issued** ✅\n\n"
        "- **Amount:** £8.50\n"
        "- **To:** Visa ending 4242\n"
        "- **Expected by:** Friday, November 28\n\n"
        "Let me know if anything else was wrong with the order!",
    ),
    (
        "Here's the breakdown of your order:\n\n"
        "- Subtotal: £47.90\n"
        "- Delivery fee: £2.49\n"
        "- Service fee: £2.40\n"
        "- Promo (WELCOME8): -£8.00\n"
        "- Tip: £3.50\n\n"
        "**Total charged: £48.29**",
        "Here's the breakdown of your order:\n\n"
        "- Subtotal: £47.90\n"
        "- Delivery fee: £2.49\n"
        "- Service fee: £2.40\n"
        "- Promo (WELCOME8): -£8.00\n"
        "- Tip: £3.00\n\n"
        "**Total charged: £48.29**",
    ),
    (
        "Sorry about that, Priya! I checked the tracking: Tomasz picked up your food at 7:21 pm "
        "and dropped it at your front door at 7:44 pm, 19 minutes after the 7:25 pm ETA.",
        "Sorry about that, Priya! I checked the tracking: Tomasz picked up your food at 7:21 pm "
        "and dropped it at your front door at 7:49 pm, 19 minutes after the 7:25 pm ETA.",
    ),
    (
        "### What I've done\n"
        "1. Logged missing-item report MIR-20931 (approved).\n"
        "2. Refunded £8.50 to your card.\n"
        "3. Added a £5.00 credit for the late delivery.\n\n"
        "You'll also get a confirmation email shortly.",
        "### What I've done\n"
        "1. Logged missing-item report MIR-20931 (approved).\n"
        "2. Refunded £8.50 to your card.\n"
        "3. Added a £6.00 credit for the late delivery.\n\n"
        "You'll also get a confirmation email shortly.",
    ),
    (
        "Done. Refund £8.50 → Visa 4242, pending. Credit £5 added, expires 14 Feb 2026.",
        "Done. Refund £8.50 → Visa 4242, pending. Credit £5 added, expires 14 Feb 2027.",
    ),
    (
        "Dear Ms Raman, we have confirmed that the Vegetable Samosas and one Garlic Naan were "
        "missing from order ORD-58QK21. A refund of £8.50 has been issued to the original "
        "payment method. We apologise for the inconvenience.",
        "Dear Ms Raman, we have confirmed that the Vegetable Samosas and one Garlic Naan were "
        "missing from order ORD-58QK12. A refund of £8.50 has been issued to the original "
        "payment method. We apologise for the inconvenience.",
    ),
    (
        "Good news 🎉 I've added a £5 credit to your account — your balance is now £5.00 and "
        "it's good until February 14, 2026.",
        "Good news 🎉 I've added a £5 credit to your account — your balance is now £5.50 and "
        "it's good until February 14, 2026.",
    ),
    (
        "**Courier:** Tomasz (bicycle, ⭐ 4.8)\n"
        "**Picked up:** 7:21 pm\n"
        "**Delivered:** 7:44 pm\n"
        "**Quoted ETA:** 7:25 pm",
        "**Courier:** Tomasz (bicycle, ⭐ 4.8)\n"
        "**Picked up:** 7:02 pm\n"
        "**Delivered:** 7:44 pm\n"
        "**Quoted ETA:** 7:25 pm",
    ),
    (
        "Your recent orders:\n"
        "- ORD-58QK21, Saffron Table, £48.29 (delivered)\n"
        "- ORD-57ZD04, Pho Mile End, £23.10 (delivered)\n"
        "- ORD-55MA77, Bun & Bao, £31.45 (refunded)",
        "Your recent orders:\n"
        "- ORD-58QK21, Saffron Table, £48.29 (delivered)\n"
        "- ORD-57ZD04, Pho Mile End, £23.10 (delivered)\n"
        "- ORD-55MA77, Bun & Bao, £34.15 (refunded)",
    ),
    (
        "I've sent the confirmation email (message msg_0c81f2); it's queued for delivery to "
        "your inbox. Anything else I can help with?",
        "I've sent the confirmation email (message msg_0c81f3); it's queued for delivery to "
        "your inbox. Anything else I can help with?",
    ),
    (
        "Just so you know: delivery and service fees aren't refunded for a partial issue like "
        "this one, so the £2.49 delivery fee and £2.40 service fee stay as charged.",
        "Just so you know: delivery and service fees aren't refunded for a partial issue like "
        "this one, so the £2.49 delivery fee and £2.60 service fee stay as charged.",
    ),
    (
        "Quick summary: 2 of your 8 items were missing, the order was 19 minutes late, and "
        "you've been refunded £8.50 plus a £5 credit, so £13.50 back in total.",
        "Quick summary: 2 of your 8 items were missing, the order was 19 minutes late, and "
        "you've been refunded £8.50 plus a £5 credit, so £14.50 back in total.",
    ),
    (
        "The late delivery qualified for a goodwill credit, since our threshold is 15 minutes "
        "past the quoted ETA.",
        "The late delivery qualified for a goodwill credit, since our threshold is 10 minutes "
        "past the quoted ETA.",
    ),
]

#: Lines with no factual claim: they must pass.
NO_CLAIM = [
    "Hi Priya, thanks for reaching out!",
    "**Order summary**",
    "Here's what I found:",
    "Could you tell me which items were missing?",
    "Let me know if there's anything else I can help with.",
    "Sorry about the trouble with your order!",
    "Would you like me to check anything else on this order?",
    "### Refund details",
    "Thanks for your patience while I looked into this.",
    "Is there anything else I can do for you today?",
]

#: Known misses, filled by the session lead after the first run.
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # warn: general statement with no receipt
    "The order was left",
    # warn: general statement with no receipt
    "Your order had",
    # Unsupported general figure '17%': no receipt holds 17%
    "The promo saved",
    # Unsupported financial figure '£26.00': no receipt holds £26.00
    "Your Chicken",
    # Unsupported schedule figure '90 days': no receipt holds 90 days
    "This is your",
    # Contradicted status: contradicts c4 report.status = approved, claimed Refunded
    "### What I've",
    # warn: Unverified claim: 'one Garlic Naan were missing'
    "Dear Ms Raman",
    # warn: Unverified claim: 'your 8 items were missing'
    "Quick summary",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # warn: general statement with no receipt
    "The order was left",
    # warn: general statement with no receipt
    "Your order had",
    # passes
    "The WELCOME8",
    # warn: general statement with no receipt
    "The WELCOME10",
    # passes
    "It was paid with",
    # passes
    "Your Chicken",
    # warn: general statement with no receipt
    "You asked for",
    # passes
    "The Mango Lassi was",
    # passes
    "Three of the",
    # passes
    "I've issued a",
    # passes
    "The refund has",
    # passes
    "Your credit balance",
    # warn: general statement with no receipt
    "I've texted you",
    # passes
    "The order was delivered",
    # passes
    "Saffron Table",
    # passes
    "Here's the breakdown",
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
