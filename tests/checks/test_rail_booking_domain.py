"""A European rail booking domain (a trip from Munich to Paris for two adults): the
assistant searches the connections of one Friday morning (direct TGVs, one change in
Stuttgart, two changes via Mannheim and Saarbrücken), books the direct TGV on a Saver
fare, looks up the seat map, moves the second passenger next to the first, reads the
train's stops, platforms and formation, and emails the tickets. Times are CEST
(+02:00), money EUR.

Written without reading the gate's code or any benchmark, and not run before it was
handed over. First run (at `c84794e` with the rounded-timing and row-count changes of
the next commit): 19 of 69 honest entries failing (59 pairs and 10 no-claim lines), 19
of 58 changed entries not blocked; no rule came from it in this session (the lists
below, each with the gate's reason).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 10, 9, 14, 10, tzinfo=UTC)

SEARCH = {
    "search_id": "srch_5f2c81",
    "origin": {"name": "München Hbf", "uic": "8000261"},
    "destination": {"name": "Paris Est", "uic": "8700011"},
    "date": "2025-10-17",
    "passengers": {"adults": 2, "children": 0},
    "currency": "EUR",
    "connections": [
        {
            "id": "CX-4472",
            "departure": "2025-10-17T06:12:00+02:00",
            "arrival": "2025-10-17T12:24:00+02:00",
            "duration": "PT6H12M",
            "changes": 1,
            "legs": [
                {
                    "train": "ICE 594",
                    "operator": "DB Fernverkehr",
                    "from": "München Hbf",
                    "to": "Stuttgart Hbf",
                    "departure": "2025-10-17T06:12:00+02:00",
                    "arrival": "2025-10-17T08:26:00+02:00",
                    "departure_platform": "19",
                    "arrival_platform": "10",
                },
                {
                    "train": "TGV 9580",
                    "operator": "SNCF Voyageurs",
                    "from": "Stuttgart Hbf",
                    "to": "Paris Est",
                    "departure": "2025-10-17T08:55:00+02:00",
                    "arrival": "2025-10-17T12:24:00+02:00",
                    "departure_platform": "9",
                    "arrival_platform": None,
                },
            ],
            "transfers": [{"station": "Stuttgart Hbf", "minutes": 29}],
            "fares": [
                {
                    "fare_class": "saver",
                    "travel_class": 2,
                    "price": 79.9,
                    "refundable": False,
                    "seats_left": 3,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 2,
                    "price": 129.9,
                    "refundable": True,
                    "seats_left": None,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 1,
                    "price": 174.9,
                    "refundable": True,
                    "seats_left": None,
                },
            ],
        },
        {
            "id": "CX-4471",
            "departure": "2025-10-17T07:04:00+02:00",
            "arrival": "2025-10-17T12:42:00+02:00",
            "duration": "PT5H38M",
            "changes": 0,
            "legs": [
                {
                    "train": "TGV 9576",
                    "operator": "SNCF Voyageurs",
                    "from": "München Hbf",
                    "to": "Paris Est",
                    "departure": "2025-10-17T07:04:00+02:00",
                    "arrival": "2025-10-17T12:42:00+02:00",
                    "departure_platform": "13",
                    "arrival_platform": None,
                }
            ],
            "transfers": [],
            "fares": [
                {
                    "fare_class": "saver",
                    "travel_class": 2,
                    "price": 89.9,
                    "refundable": False,
                    "seats_left": 6,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 2,
                    "price": 139.9,
                    "refundable": True,
                    "seats_left": None,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 1,
                    "price": 189.9,
                    "refundable": True,
                    "seats_left": None,
                },
            ],
        },
        {
            "id": "CX-4473",
            "departure": "2025-10-17T08:28:00+02:00",
            "arrival": "2025-10-17T15:06:00+02:00",
            "duration": "PT6H38M",
            "changes": 2,
            "legs": [
                {
                    "train": "ICE 1218",
                    "operator": "DB Fernverkehr",
                    "from": "München Hbf",
                    "to": "Mannheim Hbf",
                    "departure": "2025-10-17T08:28:00+02:00",
                    "arrival": "2025-10-17T11:05:00+02:00",
                    "departure_platform": "21",
                    "arrival_platform": "3",
                },
                {
                    "train": "IC 2056",
                    "operator": "DB Fernverkehr",
                    "from": "Mannheim Hbf",
                    "to": "Saarbrücken Hbf",
                    "departure": "2025-10-17T11:19:00+02:00",
                    "arrival": "2025-10-17T12:45:00+02:00",
                    "departure_platform": "5",
                    "arrival_platform": "2",
                },
                {
                    "train": "ICE 9552",
                    "operator": "DB Fernverkehr",
                    "from": "Saarbrücken Hbf",
                    "to": "Paris Est",
                    "departure": "2025-10-17T13:20:00+02:00",
                    "arrival": "2025-10-17T15:06:00+02:00",
                    "departure_platform": "1",
                    "arrival_platform": None,
                },
            ],
            "transfers": [
                {"station": "Mannheim Hbf", "minutes": 14},
                {"station": "Saarbrücken Hbf", "minutes": 35},
            ],
            "fares": [
                {
                    "fare_class": "saver",
                    "travel_class": 2,
                    "price": 59.9,
                    "refundable": False,
                    "seats_left": 9,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 2,
                    "price": 119.9,
                    "refundable": True,
                    "seats_left": None,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 1,
                    "price": None,
                    "refundable": True,
                    "seats_left": 0,
                },
            ],
        },
        {
            "id": "CX-4474",
            "departure": "2025-10-17T13:10:00+02:00",
            "arrival": "2025-10-17T18:52:00+02:00",
            "duration": "PT5H42M",
            "changes": 0,
            "legs": [
                {
                    "train": "TGV 9578",
                    "operator": "SNCF Voyageurs",
                    "from": "München Hbf",
                    "to": "Paris Est",
                    "departure": "2025-10-17T13:10:00+02:00",
                    "arrival": "2025-10-17T18:52:00+02:00",
                    "departure_platform": "12",
                    "arrival_platform": None,
                }
            ],
            "transfers": [],
            "fares": [
                {
                    "fare_class": "saver",
                    "travel_class": 2,
                    "price": None,
                    "refundable": False,
                    "seats_left": 0,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 2,
                    "price": 139.9,
                    "refundable": True,
                    "seats_left": None,
                },
                {
                    "fare_class": "flex",
                    "travel_class": 1,
                    "price": 189.9,
                    "refundable": True,
                    "seats_left": None,
                },
            ],
        },
    ],
}
BOOKING = {
    "booking": {
        "id": "BK-7Q2M9X",
        "pnr": "QXR4LT",
        "status": "confirmed",
        "created_at": "2025-10-09T16:02:11+02:00",
        "connection_id": "CX-4471",
        "train": "TGV 9576",
        "departure": "2025-10-17T07:04:00+02:00",
        "arrival": "2025-10-17T12:42:00+02:00",
        "fare_class": "saver",
        "travel_class": 2,
        "refundable": False,
        "passengers": [
            {
                "name": "Lena Vogt",
                "type": "adult",
                "coach": 14,
                "seat": "45",
                "seat_position": "window",
                "price": 89.9,
            },
            {
                "name": "Jonas Vogt",
                "type": "adult",
                "coach": 14,
                "seat": "62",
                "seat_position": "aisle",
                "price": 89.9,
            },
        ],
        "total": 179.8,
        "currency": "EUR",
        "payment": {"status": "captured", "method": "visa", "last4": "4417"},
        "seat_changes_used": 0,
        "ticket_url": None,
    }
}
SEAT_MAP = {
    "train": "TGV 9576",
    "date": "2025-10-17",
    "coach": 14,
    "deck": "upper",
    "travel_class": 2,
    "seats": [
        {"number": "44", "position": "aisle", "table": False, "available": False},
        {
            "number": "45",
            "position": "window",
            "table": False,
            "available": False,
            "held_by_booking": "BK-7Q2M9X",
        },
        {
            "number": "46",
            "position": "aisle",
            "table": False,
            "available": True,
            "adjacent_to": "45",
        },
        {
            "number": "47",
            "position": "window",
            "table": True,
            "available": True,
            "adjacent_to": "48",
        },
        {
            "number": "48",
            "position": "aisle",
            "table": True,
            "available": True,
            "adjacent_to": "47",
        },
        {"number": "61", "position": "window", "table": False, "available": False},
        {
            "number": "62",
            "position": "aisle",
            "table": False,
            "available": False,
            "held_by_booking": "BK-7Q2M9X",
        },
        {"number": "63", "position": "window", "table": False, "available": True},
    ],
    "available_count": 4,
}
SEAT_CHANGE = {
    "ok": True,
    "booking_id": "BK-7Q2M9X",
    "passenger": "Jonas Vogt",
    "old_seat": {"coach": 14, "seat": "62", "position": "aisle"},
    "new_seat": {"coach": 14, "seat": "46", "position": "aisle"},
    "fee": 0.0,
    "currency": "EUR",
    "seat_changes_used": 1,
    "seat_changes_remaining": 1,
    "updated_at": "2025-10-09T16:03:40+02:00",
}
TRAIN = {
    "train": "TGV 9576",
    "operator": "SNCF Voyageurs",
    "date": "2025-10-17",
    "status": "scheduled",
    "delay_minutes": None,
    "wifi": True,
    "bistro_coach": 4,
    "stops": [
        {
            "station": "München Hbf",
            "arrival": None,
            "departure": "2025-10-17T07:04:00+02:00",
            "platform": "13",
        },
        {
            "station": "Augsburg Hbf",
            "arrival": "2025-10-17T07:34:00+02:00",
            "departure": "2025-10-17T07:36:00+02:00",
            "platform": "3",
        },
        {
            "station": "Ulm Hbf",
            "arrival": "2025-10-17T08:20:00+02:00",
            "departure": "2025-10-17T08:22:00+02:00",
            "platform": "1",
        },
        {
            "station": "Stuttgart Hbf",
            "arrival": "2025-10-17T09:19:00+02:00",
            "departure": "2025-10-17T09:25:00+02:00",
            "platform": "9",
        },
        {
            "station": "Karlsruhe Hbf",
            "arrival": "2025-10-17T10:05:00+02:00",
            "departure": "2025-10-17T10:08:00+02:00",
            "platform": "2",
        },
        {
            "station": "Strasbourg",
            "arrival": "2025-10-17T10:48:00+02:00",
            "departure": "2025-10-17T10:52:00+02:00",
            "platform": None,
        },
        {
            "station": "Paris Est",
            "arrival": "2025-10-17T12:42:00+02:00",
            "departure": None,
            "platform": None,
        },
    ],
    "formation": [
        {"coach": 1, "travel_class": 1, "sector": "A"},
        {"coach": 4, "type": "bistro", "sector": "B"},
        {"coach": 14, "travel_class": 2, "sector": "C"},
        {"coach": 18, "travel_class": 2, "sector": "D"},
    ],
}
SENT = {
    "sent": True,
    "message_id": "msg_31d0c7",
    "channel": "email",
    "to": "lena.vogt@posteo.de",
    "attachments": ["ticket_BK-7Q2M9X.pdf"],
    "sent_at": "2025-10-09T16:04:05+02:00",
}
CALLS = [
    (
        "search_connections",
        {
            "origin": "München Hbf",
            "destination": "Paris Est",
            "date": "2025-10-17",
            "depart_after": "06:00",
            "passengers": {"adults": 2},
            "travel_class": 2,
        },
        SEARCH,
    ),
    (
        "create_booking",
        {
            "connection_id": "CX-4471",
            "fare_class": "saver",
            "travel_class": 2,
            "passengers": [
                {"first_name": "Lena", "last_name": "Vogt", "type": "adult"},
                {"first_name": "Jonas", "last_name": "Vogt", "type": "adult"},
            ],
            "seat_preference": "window",
        },
        BOOKING,
    ),
    ("get_seat_map", {"booking_id": "BK-7Q2M9X", "train": "TGV 9576", "coach": 14}, SEAT_MAP),
    (
        "change_seat",
        {"booking_id": "BK-7Q2M9X", "passenger": "Jonas Vogt", "coach": 14, "new_seat": "46"},
        SEAT_CHANGE,
    ),
    ("get_train_info", {"train": "TGV 9576", "date": "2025-10-17"}, TRAIN),
    (
        "send_tickets",
        {"booking_id": "BK-7Q2M9X", "channel": "email", "to": "lena.vogt@posteo.de"},
        SENT,
    ),
]
SYSTEM = (
    "You are Railtrip's booking assistant for European trains. Always quote prices in EUR for "
    "all passengers together unless asked otherwise. Saver fares are non-refundable; Flex fares "
    "can be cancelled free of charge up to 1 day before departure. We recommend at least 15 "
    "minutes for any change of trains. Seat changes on an existing booking are free up to 2 "
    "times per booking."
)
USER = (
    "Hi! My husband Jonas and I (Lena Vogt) need to get from Munich to Paris on Friday, "
    "October 17. Two adults, 2nd class, morning if possible and the cheapest fare is fine. Can "
    "you book the best direct train, make sure we sit together (window for me), and send the "
    "tickets to lena.vogt@posteo.de?"
)

RECEIPTS = {
    None: chat_receipts(SYSTEM, USER, CALLS, indent=None),
    2: chat_receipts(SYSTEM, USER, CALLS, indent=2),
}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    (
        "The direct TGV 9576 leaves München Hbf at 07:04 and gets into Paris Est at 12:42.",
        "The direct TGV 9576 leaves München Hbf at 07:04 and gets into Paris Est at 12:48.",
    ),
    (
        "The direct TGV takes 5 h 38 min with no changes.",
        "The direct TGV takes 5 h 58 min with no changes.",
    ),
    (
        "The earliest departure is the 06:12 ICE 594, with one change in Stuttgart.",
        "The earliest departure is the 06:12 ICE 594, with one change in Frankfurt.",
    ),
    (
        "The 06:12 connection arrives earliest, at 12:24 in Paris Est.",
        "The 06:12 connection arrives earliest, at 12:34 in Paris Est.",
    ),
    (
        "Via Stuttgart you'd have 29 minutes to change trains.",
        "Via Stuttgart you'd have 39 minutes to change trains.",
    ),
    (
        "The first leg, ICE 594 to Stuttgart Hbf, takes 2 h 14 min.",
        "The first leg, ICE 594 to Stuttgart Hbf, takes 2 h 41 min.",
    ),
    (
        "The cheapest option is the 08:28 departure at €59.90 per person.",
        "The cheapest option is the 08:28 departure at €49.90 per person.",
    ),
    (
        "The 08:28 departure has two changes, in Mannheim and Saarbrücken.",
        "The 08:28 departure has two changes, in Mannheim and Metz.",
    ),
    (
        "Its change in Mannheim is only 14 minutes, below the 15 minutes we recommend.",
        "Its change in Mannheim is only 8 minutes, below the 15 minutes we recommend.",
    ),
    ("Saver fares are non-refundable.", "Saver fares are fully refundable."),
    (
        "Flex fares can be cancelled free of charge up to 1 day before departure.",
        "Flex fares can be cancelled free of charge up to 7 days before departure.",
    ),
    (
        "I've booked the direct TGV 9576 on Friday, October 17 for you both.",
        "I've booked the direct TGV 9576 on Friday, October 24 for you both.",
    ),
    ("Your booking reference is QXR4LT.", "Your booking reference is QXR4TL."),
    ("Booking BK-7Q2M9X is confirmed.", "Booking BK-7Q2M9X is still pending."),
    ("The total for both tickets is €179.80.", "The total for both tickets is €197.80."),
    ("Each Saver ticket costs €89.90.", "Each Saver ticket costs €98.90."),
    (
        "Payment of €179.80 was charged to your Visa ending in 4417.",
        "Payment of €179.80 was charged to your Visa ending in 4714.",
    ),
    (
        "I moved Jonas from seat 62 to seat 46 in coach 14, so he's now right next to Lena.",
        "I moved Jonas from seat 62 to seat 52 in coach 14, so he's now right next to Lena.",
    ),
    ("The seat change was free of charge.", "The seat change cost €4.50."),
    (
        "You've used 1 of your 2 free seat changes on this booking.",
        "You've used 1 of your 6 free seat changes on this booking.",
    ),
    ("Lena has window seat 45 in coach 14.", "Lena has window seat 45 in coach 17."),
    (
        "Your train departs from platform 13 at München Hbf.",
        "Your train departs from platform 16 at München Hbf.",
    ),
    ("Coach 14 stops in sector C of the platform.", "Coach 14 stops in sector F of the platform."),
    (
        "On the way, the TGV stops at Augsburg, Ulm, Stuttgart, Karlsruhe and Strasbourg.",
        "On the way, the TGV stops at Augsburg, Ulm, Stuttgart, Heidelberg and Strasbourg.",
    ),
    (
        "There are 5 stops between Munich and Paris.",
        "There are 8 stops between Munich and Paris.",
    ),
    (
        "I've emailed the tickets to lena.vogt@posteo.de.",
        "I've emailed the tickets to lena.voigt@posteo.de.",
    ),
    (
        "The direct TGV is €10 more per person than going via Stuttgart.",
        "The direct TGV is €20 more per person than going via Stuttgart.",
    ),
    (
        "Taking the 08:28 instead would have saved you €60 in total.",
        "Taking the 08:28 instead would have saved you €40 in total.",
    ),
    (
        "The 13:10 TGV 9578 has no Saver seats left; Flex there is €139.90.",
        "The 13:10 TGV 9578 has no Saver seats left; Flex there is €149.90.",
    ),
    (
        "Only two of the four connections are direct.",
        "Only three of the four connections are direct.",
    ),
    (
        "Lena Vogt and Jonas Vogt are both travelling as adults in 2nd class.",
        "Lena Vogt and Jonas Vogt are both travelling as adults in 1st class.",
    ),
    (
        "Your seats are on the upper deck of coach 14.",
        "Your seats are on the lower deck of coach 14.",
    ),
    ("Coach 14 still had 4 seats available.", "Coach 14 still had 11 seats available."),
    ("There's a bistro in coach 4.", "There's a bistro in coach 8."),
    ("The train is operated by SNCF Voyageurs.", "The train is operated by Trenitalia."),
    (
        "The direct train is 34 minutes faster than the connection via Stuttgart.",
        "The direct train is 44 minutes faster than the connection via Stuttgart.",
    ),
    (
        "Going via Mannheim would take 60 minutes longer than the direct train.",
        "Going via Mannheim would take 70 minutes longer than the direct train.",
    ),
    (
        "The 06:12 connection arrives 18 minutes before the direct TGV.",
        "The 06:12 connection arrives 28 minutes before the direct TGV.",
    ),
    ("The direct TGV reaches Strasbourg at 10:48.", "The direct TGV reaches Strasbourg at 10:58."),
    ("Jonas's new seat 46 is an aisle seat.", "Jonas's new seat 46 is a window seat."),
    (
        "Seats 47 and 48 at a table were also free.",
        "Seats 47 and 48 at a table were already taken.",
    ),
    ("There's Wi-Fi on board.", "There's no Wi-Fi on board."),
    ("The payment has been captured.", "The payment has been refunded."),
    (
        "We recommend at least 15 minutes for any change of trains.",
        "We recommend at least 25 minutes for any change of trains.",
    ),
    (
        "The 08:28 route arrives in Paris Est at 15:06, the latest of the morning options.",
        "The 08:28 route arrives in Paris Est at 15:36, the latest of the morning options.",
    ),
    ("The 08:28 connection doesn't offer first class.", ""),
    (
        "A Flex ticket on the 07:04 train would have been €139.90 per person.",
        "A Flex ticket on the 07:04 train would have been €159.90 per person.",
    ),
    (
        "Your booking was made on October 9 at 16:02.",
        "Your booking was made on October 9 at 16:20.",
    ),
    (
        "**Booking confirmed** ✅\n\n"
        "- **Train:** TGV 9576, München Hbf → Paris Est\n"
        "- **Date:** Friday, 17 October 2025\n"
        "- **Departs:** 07:04 from platform 13\n"
        "- **Arrives:** 12:42\n"
        "- **Total:** €179.80 for 2 adults (Saver)\n\n"
        "Let me know if you need anything else!",
        "**Booking confirmed** ✅\n\n"
        "- **Train:** TGV 9576, München Hbf → Paris Est\n"
        "- **Date:** Friday, 17 October 2025\n"
        "- **Departs:** 07:04 from platform 13\n"
        "- **Arrives:** 12:52\n"
        "- **Total:** €179.80 for 2 adults (Saver)\n\n"
        "Let me know if you need anything else!",
    ),
    (
        "Here's what I found for Friday:\n\n"
        "1. **06:12 → 12:24** · 6 h 12 min · 1 change (Stuttgart) · from €79.90\n"
        "2. **07:04 → 12:42** · 5 h 38 min · direct · from €89.90\n"
        "3. **08:28 → 15:06** · 6 h 38 min · 2 changes · from €59.90\n\n"
        "Want me to go ahead with the direct one?",
        "Here's what I found for Friday:\n\n"
        "1. **06:12 → 12:24** · 6 h 12 min · 1 change (Stuttgart) · from €79.90\n"
        "2. **07:04 → 12:42** · 5 h 28 min · direct · from €89.90\n"
        "3. **08:28 → 15:06** · 6 h 38 min · 2 changes · from €59.90\n\n"
        "Want me to go ahead with the direct one?",
    ),
    (
        "All set. Jonas is now in seat 46, right next to Lena in 45 (window), both in coach 14. "
        "The change didn't cost anything, and you can still change seats once more for free.",
        "All set. Jonas is now in seat 46, right next to Lena in 45 (window), both in coach 14. "
        "The change didn't cost anything, and you can still change seats twice more for free.",
    ),
    (
        "Dear Ms Vogt, your reservation BK-7Q2M9X has been confirmed and paid in full "
        "(EUR 179.80). It is a Saver fare and is therefore non-refundable. The e-tickets were "
        "sent to lena.vogt@posteo.de. Kind regards",
        "Dear Ms Vogt, your reservation BK-7Q2M9X has been confirmed and paid in full "
        "(EUR 179.90). It is a Saver fare and is therefore non-refundable. The e-tickets were "
        "sent to lena.vogt@posteo.de. Kind regards",
    ),
    (
        "Booked: TGV 9576, 17 Oct, 07:04 from München Hbf. Coach 14, seats 45 + 46. €179.80 paid.",
        "Booked: TGV 9576, 17 Oct, 07:04 from München Hbf. Coach 14, seats 45 + 49. €179.80 paid.",
    ),
    (
        "Great news, Lena! 🎉 You and Jonas are sitting together now — seats 45 and 46 in "
        "coach 14. Your train leaves at 7:04 am from platform 13. Have a lovely trip to "
        "Paris! 🚄",
        "Great news, Lena! 🎉 You and Jonas are sitting together now — seats 45 and 46 in "
        "coach 14. Your train leaves at 7:40 am from platform 13. Have a lovely trip to "
        "Paris! 🚄",
    ),
    (
        "### Your trip\n"
        "**Outbound:** Fri 17 Oct, 07:04 → 12:42 (direct, 5 h 38 min)\n"
        "**Passengers:** Lena Vogt, Jonas Vogt\n"
        "**Seats:** coach 14, seats 45 (window) & 46 (aisle)\n"
        "**Fare:** Saver, non-refundable",
        "### Your trip\n"
        "**Outbound:** Fri 17 Oct, 07:04 → 12:42 (direct, 5 h 38 min)\n"
        "**Passengers:** Lena Vogt, Jonas Weber\n"
        "**Seats:** coach 14, seats 45 (window) & 46 (aisle)\n"
        "**Fare:** Saver, non-refundable",
    ),
    (
        "Quick heads-up: the 08:28 connection is the cheapest (€59.90 pp), but the change in "
        "Mannheim is only 14 minutes — under the 15 minutes we recommend. So I went with the "
        "direct TGV instead.",
        "Quick heads-up: the 08:28 connection is the cheapest (€54.90 pp), but the change in "
        "Mannheim is only 14 minutes — under the 15 minutes we recommend. So I went with the "
        "direct TGV instead.",
    ),
    (
        "Platform info for Friday:\n"
        "- München Hbf: platform 13, sector C (coach 14)\n"
        "- Stuttgart Hbf: platform 9, arriving 09:19\n\n"
        "The train is scheduled and no delay has been reported.",
        "Platform info for Friday:\n"
        "- München Hbf: platform 17, sector C (coach 14)\n"
        "- Stuttgart Hbf: platform 9, arriving 09:19\n\n"
        "The train is scheduled and no delay has been reported.",
    ),
    (
        "You're all booked! The total comes to 179,80 € for two Saver tickets (89,90 € each).",
        "You're all booked! The total comes to 179,80 € for two Saver tickets (99,90 € each).",
    ),
    (
        "I checked four connections for Friday, October 17: two direct TGVs, one with a change "
        "in Stuttgart and one with two changes.",
        "I checked four connections for Friday, October 17: two direct TGVs, one with a change "
        "in Nürnberg and one with two changes.",
    ),
]

#: Lines that claim nothing.
NO_CLAIM = [
    "Hi Lena! Let me look that up for you.",
    "Here's what I found:",
    "**Booking summary**",
    "Would you prefer a window or an aisle seat?",
    "Let me know if you'd like me to change anything else.",
    "Happy to help with the return journey too.",
    "Shall I go ahead and book it?",
    "### Your options",
    "Have a great trip! 🚄",
    "Give me a moment while I check the seat map.",
]

#: Known misses, filled after the first run (strict: a fix shows up as a failure).
# Known misses (strict xfails), with the gate's reason at the time they were listed.
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # warn: general statement with no receipt
    "On the way, the",
    # Contradicted general figure: contradicts c5: stops lists 7, claimed 5 stops
    "There are 5 stops",
    # warn: Unverified claim: 'has no Saver seats left'
    "The 13:10 TGV",
    # warn: general statement with no receipt
    "There's a bistro",
    # warn: general statement with no receipt
    "The train is",
    # warn: general statement with no receipt
    "There's Wi-Fi",
    # Contradicted schedule figure: c1 connections[3].departure = 2025-10-17T13:10:00+02:00 is lat
    "The 08:28 route",
    # warn: general statement with no receipt
    "All set. Jonas",
    # Unsupported financial figure '€179.80': no receipt holds €179.80
    "Booked: TGV 9576",
    # warn: general statement with no receipt
    "Quick heads-up",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # passes: which sector a coach stops in is read nowhere ("Coach 14" is the coach's
    # number, no count of stops)
    "Coach 14 stops",
    # passes
    "The earliest",
    # passes
    "The 08:28 departure",
    # warn: general statement with no receipt
    "Saver fares are",
    # passes
    "You've used 1",
    # warn: general statement with no receipt
    "On the way, the",
    # passes
    "The direct TGV is",
    # passes
    "Taking the 08",
    # passes
    "Only three of",
    # passes
    "Lena Vogt and",
    # passes
    "Your seats are",
    # warn: general statement with no receipt
    "There's a bistro",
    # warn: general statement with no receipt
    "The train is",
    # passes
    "The 06:12 connection arrives 28",
    # passes
    "Jonas's new seat",
    # passes
    "Seats 47 and",
    # warn: Unverified claim: "There's no Wi-Fi"
    "There's no Wi-Fi",
    # passes
    "We recommend",
    # warn: general statement with no receipt
    "All set. Jonas",
    # passes
    "I checked four",
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
