"""A hotel-booking domain none of the benchmarks has (a guest, a booking, a room
search), with JSON tool results compact and pretty-printed: an honest sentence in many
writers' phrasings passes, and the same sentence with one figure, date, time, state or
yes/no changed is blocked. The records, the tool names and the sentences were written
for this test (no benchmark was read for them).

Found with it and fixed: "Your booking HB-30917 is cancelled" passed against
``"status": "confirmed"`` ("booking" was read as a process, never a record, even where
the evidence calls its records bookings); "Check-in is from 2:00 PM" was an instruction
("Check" read as a verb) and went unchecked; "You can cancel free of charge until April
12" was an offer whose date is a plan; "Your stay totals €756" found no amount in
``"total": 756.0`` (typed as a count) and "€189 per night" none in ``rate_per_night``;
"18,450 loyalty points" met ``points_balance`` as money; "3 guests" was backed by two
search rows' ``available`` counts added up (3 + 0); "Breakfast is included" and "The
Standard Double is non-refundable" had no yes/no field to be checked against; "sold
out" and "fully booked" were no availability claims, and an ``"available": 3`` count
was no availability field; a rule's "within 7 business days" after "If you cancel ..."
went unchecked.
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests

NOW = datetime(2025, 3, 10, 9, tzinfo=UTC)

GUEST = {
    "guest_id": "G-55120",
    "name": "Priya Raman",
    "loyalty_tier": "gold",
    "points_balance": 18450,
    "payment_methods": [
        {"id": "pm_visa_4417", "type": "credit_card", "brand": "visa", "last4": "4417"},
        {"id": "pm_voucher_88", "type": "voucher", "balance": 120.0},
    ],
    "bookings": ["HB-30917", "HB-31002"],
}
BOOKING = {
    "booking_id": "HB-30917",
    "guest_id": "G-55120",
    "hotel": "Harbor View Lisbon",
    "status": "confirmed",
    "room": {"type": "Deluxe King", "rate_per_night": 189.0, "currency": "EUR"},
    "check_in": "2025-04-14",
    "check_out": "2025-04-18",
    "nights": 4,
    "guests": 2,
    "breakfast_included": True,
    "total": 756.0,
    "deposit_paid": 189.0,
    "balance_due": 567.0,
    "cancellation_deadline": "2025-04-11T18:00:00",
    "check_in_time": "15:00",
    "check_out_time": "11:00",
}
ROOMS = {
    "hotel": "Harbor View Lisbon",
    "check_in": "2025-04-14",
    "check_out": "2025-04-18",
    "currency": "EUR",
    "rooms": [
        {"room_type": "Standard Double", "rate_per_night": 142.0, "available": 3,
         "refundable": True},
        {"room_type": "Deluxe King", "rate_per_night": 189.0, "available": 1,
         "refundable": True},
        {"room_type": "Junior Suite", "rate_per_night": 265.0, "available": 0,
         "refundable": False},
    ],
}  # fmt: skip
SYSTEM = (
    "You are the reservations assistant of Harbor View hotels. Bookings can be cancelled "
    "free of charge until the cancellation deadline. The deposit is refunded to the "
    "original payment method within 5 business days."
)
USER = (
    "Hi, I'm Priya Raman, guest G-55120. What's on my booking HB-30917, and what other "
    "rooms are there?"
)
CALLS = [
    ("get_guest", {"guest_id": "G-55120"}, GUEST),
    ("get_booking", {"booking_id": "HB-30917"}, BOOKING),
    (
        "search_rooms",
        {"hotel": "Harbor View Lisbon", "check_in": "2025-04-14", "check_out": "2025-04-18"},
        ROOMS,
    ),
]


RECEIPTS = {
    indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent, prefix="c", together=True)
    for indent in (None, 2)
}

#: (honest sentence, the same with one thing changed)
PAIRS = [
    ("Your booking HB-30917 is confirmed.", "Your booking HB-30917 is cancelled."),
    ("Your booking HB-30917 is confirmed.", "Your booking HB-30917 is pending."),
    ("Your Deluxe King room is €189 per night.", "Your Deluxe King room is €198 per night."),
    ("The room rate is 189 EUR per night.", "The room rate is 179 EUR per night."),
    ("The total for your stay comes to €756.", "The total for your stay comes to €765."),
    ("Your stay totals €756 for 4 nights.", "Your stay totals €765 for 4 nights."),
    (
        "You've already paid a deposit of €189, leaving €567 due at the hotel.",
        "You've already paid a deposit of €189, leaving €576 due at the hotel.",
    ),
    (
        "The remaining balance of €567 is payable on arrival.",
        "The remaining balance of €657 is payable on arrival.",
    ),
    (
        "You check in on April 14 and check out on April 18.",
        "You check in on April 14 and check out on April 19.",
    ),
    (
        "Check-in is from 3:00 PM and check-out is by 11:00 AM.",
        "Check-in is from 2:00 PM and check-out is by 11:00 AM.",
    ),
    ("The booking is for 2 guests and 4 nights.", "The booking is for 3 guests and 4 nights."),
    ("Breakfast is included in your rate.", "Breakfast is not included in your rate."),
    (
        "You can cancel free of charge until April 11 at 6:00 PM.",
        "You can cancel free of charge until April 12 at 6:00 PM.",
    ),
    (
        "The free cancellation deadline is 11 April 2025, 18:00.",
        "The free cancellation deadline is 13 April 2025, 18:00.",
    ),
    (
        "You have 18,450 loyalty points as a Gold member.",
        "You have 18,540 loyalty points as a Gold member.",
    ),
    ("Your voucher has a balance of €120.", "Your voucher has a balance of €150."),
    ("You also have a €120 voucher on file.", "You also have a €210 voucher on file."),
    ("The Visa ending in 4417 is on file.", "The Visa ending in 4471 is on file."),
    (
        "A Standard Double is available at €142 per night.",
        "A Standard Double is available at €124 per night.",
    ),
    ("The Standard Double is available.", "The Junior Suite is available."),
    (
        "The Junior Suite is fully booked for your dates.",
        "The Standard Double is fully booked for your dates.",
    ),
    ("The Junior Suite is sold out.", "The Deluxe King is sold out."),
    ("There are 3 Standard Double rooms left.", "There are 5 Standard Double rooms left."),
    (
        "The cheapest option is the Standard Double at €142 per night.",
        "The cheapest option is the Junior Suite at €142 per night.",
    ),
    (
        "Switching to the Standard Double would save you €47 per night.",
        "Switching to the Standard Double would save you €57 per night.",
    ),
    (
        "Over 4 nights, the Standard Double would come to €568.",
        "Over 4 nights, the Standard Double would come to €586.",
    ),
    ("The Junior Suite is non-refundable.", "The Standard Double is non-refundable."),
    ("- **Hotel:** Harbor View Lisbon", "- **Hotel:** Harbor View Porto"),
    ("- **Room:** Deluxe King (€189/night)", "- **Room:** Deluxe King (€198/night)"),
    (
        "- **Dates:** Apr 14 – Apr 18, 2025 (4 nights)",
        "- **Dates:** Apr 14 – Apr 18, 2025 (3 nights)",
    ),
    (
        "| Room | Rate per night | Available |\n|---|---|---|\n"
        "| Standard Double | €142 | 3 |\n| Junior Suite | €265 | 0 |",
        "| Room | Rate per night | Available |\n|---|---|---|\n"
        "| Standard Double | €142 | 3 |\n| Junior Suite | €256 | 0 |",
    ),
    (
        "If you cancel before the deadline, your €189 deposit will be refunded to your "
        "original payment method within 5 business days.",
        "If you cancel before the deadline, your €189 deposit will be refunded to your "
        "original payment method within 7 business days.",
    ),
    (
        "You have two upcoming bookings on your profile: HB-30917 and HB-31002.",
        "You have two upcoming bookings on your profile: HB-30917 and HB-31020.",
    ),
    (
        "The balance due is €567 (€756 total minus the €189 deposit).",
        "The balance due is €577 (€756 total minus the €189 deposit).",
    ),
]

NO_CLAIM = [
    "- **Booking:** HB-30917",
    "Priya, your reservation at Harbor View Lisbon is all set.",
    "Would you like me to switch you to the Standard Double?",
    "Let me know if you'd like to make any changes.",
]

#: Still missed (strict: a fix shows up as a failure to update this list).
MISSED = [
    # "remains available" after a count is no availability count the rows are asked for
    "Only 2 Deluxe King remains available.",
    # a hotel name no record holds is an unverified name (a flag), not a contradiction
    "Priya, your reservation at Harbor View Porto is all set.",
]

globals().update(probe_tests(PAIRS, RECEIPTS, NOW, no_claim=NO_CLAIM, changed_passing=MISSED))
