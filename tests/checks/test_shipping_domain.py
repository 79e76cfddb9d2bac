"""A delivery-and-returns domain none of the benchmarks has (an online furniture,
homeware and grocery store: an order split into two parcels, one delivered and one in
transit with its carrier's scan events, the return options of the delivered items, a
return created for one of them, and the drop-off points near the customer), written for
this test without reading the gate's code or any benchmark, and not tuned to a run:
each honest sentence was checked by hand against the records below (weekdays with
Python's datetime), and each changed value is held by no record.


First run at 9e48b1a: 10 of the 49 honest entries failed and 10 of the 37 changed ones
were not blocked; now 3 and 8 (the lists below). Fixed from it: a tracking number
"00340434161094015902" read as a float made sums of nothing ("25% = x - x"); "incl."
ended a sentence; "€149.00 you paid, less the €22.35 fee" is a term of an operation in
words whose result the sentence gives; "I've started a return" is a return requested,
not a service restarted; "11/06" after "on" is a day (day/month where only that reading
is within two months of now), and "13–14 June" or "between Friday 13 and Saturday 14
June" is a range of days; a link to a label of another return is contradicted by the
receipt's link.
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

# Thursday 12 June 2025, 11:15 in Munich
NOW = datetime(2025, 6, 12, 9, 15, tzinfo=UTC)

ORDER = {
    "order": {
        "orderNumber": "HT-558213",
        "placed_at": "2025-06-09T19:24:11+02:00",
        "status": "partially_delivered",
        "customer": {
            "name": "Jonas Weber",
            "email": "j.weber@posteo.de",
            "delivery_address": {
                "street": "Thalkirchner Straße 54",
                "postcode": "80337",
                "city": "München",
            },
        },
        "items": [
            {
                "sku": "FUR-OAK-ST-01",
                "name": "Oak side table",
                "category": "furniture",
                "qty": 1,
                "unit_price": 149.0,
                "line_total": 149.0,
            },
            {
                "sku": "TEX-LIN-CC-45",
                "name": "Linen cushion cover, sage",
                "category": "home_textiles",
                "qty": 2,
                "unit_price": 24.9,
                "line_total": 49.8,
            },
            {
                "sku": "HOM-VAS-CER-S",
                "name": "Ceramic vase, small",
                "category": "homeware",
                "qty": 1,
                "unit_price": 24.9,
                "line_total": 24.9,
            },
            {
                "sku": "GRO-CHS-GOU-250",
                "name": "Aged Gouda 250 g",
                "category": "grocery",
                "perishable": True,
                "qty": 2,
                "unit_price": 6.49,
                "line_total": 12.98,
            },
        ],
        "subtotal": 236.68,
        "discount": {
            "code": "HOME20",
            "description": "20 EUR off orders over 200 EUR",
            "amount": 20.0,
        },
        "shipping_fee": 9.95,
        "tax": {"vat_included": True, "amount": 35.07},
        "grandTotal": 226.63,
        "currency": "EUR",
        "payment": {"method": "card", "brand": "Visa", "last4": "4417"},
        "shipments": [
            {
                "carrier": "Hermes",
                "tracking_number": "H1001270034562781",
                "skus": ["FUR-OAK-ST-01", "HOM-VAS-CER-S", "GRO-CHS-GOU-250"],
                "status": "delivered",
                "delivered_at": "2025-06-11T14:36:00+02:00",
            },
            {
                "carrier": "DHL",
                "tracking_number": "00340434161094015902",
                "skus": ["TEX-LIN-CC-45"],
                "status": "in_transit",
                "delivered_at": None,
            },
        ],
    }
}
TRACKING = {
    "carrier": "DHL Paket",
    "trackingNumber": "00340434161094015902",
    "status": "in_transit",
    "estimated_delivery": {"earliest": "2025-06-13", "latest": "2025-06-14"},
    "destination": {"postcode": "80337", "city": "München"},
    "weight_kg": 0.8,
    "events": [
        {
            "timestamp": "2025-06-10T18:12:00+02:00",
            "location": "Hamburg",
            "description": "Shipment handed over to DHL by the sender",
        },
        {
            "timestamp": "2025-06-10T23:47:00+02:00",
            "location": "Hamburg",
            "description": "Processed at parcel centre",
        },
        {
            "timestamp": "2025-06-11T19:58:00+02:00",
            "location": "Leipzig",
            "description": "Arrived at hub",
        },
        {
            "timestamp": "2025-06-12T06:42:00+02:00",
            "location": "Leipzig",
            "description": "Departed hub",
        },
    ],
}
RETURN_OPTIONS = {
    "order_number": "HT-558213",
    "window_starts": "delivery_date",
    "items": [
        {
            "sku": "FUR-OAK-ST-01",
            "name": "Oak side table",
            "eligible": True,
            "return_window_days": 30,
            "return_by": "2025-07-11",
            "restocking_fee_pct": 15,
            "conditions": "Unassembled, in original packaging",
        },
        {
            "sku": "HOM-VAS-CER-S",
            "name": "Ceramic vase, small",
            "eligible": True,
            "return_window_days": 30,
            "return_by": "2025-07-11",
            "restocking_fee_pct": 0,
        },
        {
            "sku": "GRO-CHS-GOU-250",
            "name": "Aged Gouda 250 g",
            "eligible": False,
            "reason": "Perishable goods are excluded from returns",
            "return_window_days": None,
            "restocking_fee_pct": None,
        },
    ],
    "methods": ["pickup_point_dropoff", "home_collection"],
}
RETURN = {
    "rma": {
        "id": "RMA-2025-061284",
        "status": "created",
        "created_at": "2025-06-12T11:09:37+02:00",
    },
    "order_number": "HT-558213",
    "items": [{"sku": "FUR-OAK-ST-01", "name": "Oak side table", "qty": 1}],
    "refund": {
        "item_total": 149.0,
        "restocking_fee": 22.35,
        "refund_amount": 126.65,
        "currency": "EUR",
        "refund_method": "original_payment_method",
        "payment_method": "Visa ending 4417",
    },
    "label": {
        "carrier": "DHL",
        "prepaid": True,
        "format": "PDF",
        "labelUrl": "https://returns.hausundtisch.de/labels/RMA-2025-061284.pdf",
    },
    "dropoff_deadline": "2025-06-26",
}
MON_SAT = {"mon_fri": "08:00-20:00", "sat": "08:00-20:00", "sun": None}
PICKUP_POINTS = {
    "near": "80337",
    "pickup_points": [
        {
            "id": "pp_01",
            "name": "DHL Packstation 127",
            "type": "locker",
            "address": {"street": "Lindwurmstraße 88", "postcode": "80337", "city": "München"},
            "distance_km": 0.4,
            "openingHours": {"mon_fri": "00:00-24:00", "sat": "00:00-24:00", "sun": "00:00-24:00"},
            "accepts_bulky": False,
        },
        {
            "id": "pp_02",
            "name": "Kiosk am Goetheplatz",
            "type": "partner_shop",
            "address": {"street": "Goetheplatz 9", "postcode": "80337", "city": "München"},
            "distance_km": 0.9,
            "openingHours": dict(MON_SAT),
            "accepts_bulky": False,
        },
        {
            "id": "pp_03",
            "name": "Schreibwaren Huber",
            "type": "partner_shop",
            "address": {"street": "Tumblingerstraße 21", "postcode": "80337", "city": "München"},
            "distance_km": 1.3,
            "openingHours": dict(MON_SAT),
            "accepts_bulky": False,
        },
        {
            "id": "pp_04",
            "name": "DHL Paketshop Sendlinger Tor",
            "type": "parcel_shop",
            "address": {"street": "Sonnenstraße 15", "postcode": "80331", "city": "München"},
            "distance_km": 1.8,
            "openingHours": {"mon_fri": "09:00-19:00", "sat": "09:00-14:00", "sun": None},
            "accepts_bulky": True,
        },
        {
            "id": "pp_05",
            "name": "Tabak & Lotto Sendling",
            "type": "partner_shop",
            "address": {"street": "Plinganserstraße 6", "postcode": "81369", "city": "München"},
            "distance_km": 2.1,
            "openingHours": dict(MON_SAT),
            "accepts_bulky": False,
        },
    ],
}
CALLS = [
    ("get_order", {"order_number": "HT-558213"}, ORDER),
    ("track_shipment", {"tracking_number": "00340434161094015902"}, TRACKING),
    ("get_return_options", {"order_number": "HT-558213"}, RETURN_OPTIONS),
    (
        "create_return",
        {
            "order_number": "HT-558213",
            "items": [{"sku": "FUR-OAK-ST-01", "qty": 1}],
            "reason": "changed_mind",
        },
        RETURN,
    ),
    ("list_pickup_points", {"postcode": "80337", "carrier": "DHL"}, PICKUP_POINTS),
]
SYSTEM = (
    "You are the delivery and returns assistant of Haus & Tisch, an online store for "
    "furniture, homeware and groceries. Perishable items cannot be returned. Refunds are "
    "issued to the original payment method within 5-7 business days of the return being "
    "received. Furniture must be returned unassembled and in its original packaging."
)
USER = (
    "Hi! Where are my cushion covers from order HT-558213? I'd also like to send back the "
    "oak side table, can you start a return? Can the vase and the cheese go back too? And "
    "where can I drop it off near 80337?"
)


RECEIPTS = {
    indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent, prefix="d") for indent in (None, 2)
}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    # GPT-4o, terse
    (
        "Order HT-558213 was placed on 9 June at 19:24.",
        "Order HT-558213 was placed on 9 June at 17:24.",
    ),
    ("Cushion covers: in transit with DHL.", "Cushion covers: in transit with DPD."),
    ("Tracking: 00340434161094015902.", "Tracking: 00340434161094015920."),
    (
        "It left the Leipzig hub at 6:42 this morning.",
        "It left the Leipzig hub at 7:42 this morning.",
    ),
    ("Total: €226.63, incl. €9.95 shipping.", "Total: €226.63, incl. €6.95 shipping."),
    ("Refund: €126.65 to the original card.", "Refund: £126.65 to the original card."),
    # Claude, warm and wordy
    (
        "I've started a return for your oak side table, and your return reference is "
        "RMA-2025-061284.",
        "I've started a return for your ceramic vase, and your return reference is "
        "RMA-2025-061284.",
    ),
    (
        "Once the table reaches us, you'll receive €126.65 — that's the €149.00 you paid, less "
        "the 15% restocking fee of €22.35.",
        "Once the table reaches us, you'll receive €128.65 — that's the €149.00 you paid, less "
        "the 15% restocking fee of €22.35.",
    ),
    (
        "The small ceramic vase can be returned as well, and there's no restocking fee on it.",
        "The small ceramic vase can be returned as well, though there's a 10% restocking fee "
        "on it.",
    ),
    (
        "Unfortunately the Aged Gouda can't be returned, because it's perishable.",
        "Fortunately the Aged Gouda can be returned, even though it's perishable.",
    ),
    (
        "So, of the 3 items that have already arrived, 2 can be returned.",
        "So, of the 3 items that have already arrived, all 3 can be returned.",
    ),
    (
        "Refunds always go back to your original payment method, and they usually arrive "
        "within 5-7 business days of us receiving the item.",
        "Refunds always go back to your original payment method, and they usually arrive "
        "within 8-10 business days of us receiving the item.",
    ),
    ("Please do make sure the table goes back unassembled and in its original packaging.", ""),
    (
        "You have until Thursday 26 June to drop the parcel off, which is two weeks from today.",
        "You have until Thursday 26 June to drop the parcel off, which is three weeks from today.",
    ),
    (
        "Your window to return the table runs until 11 July, 30 days after it was delivered.",
        "Your window to return the table runs until 18 July, 30 days after it was delivered.",
    ),
    (
        "Your cushion covers are on their way, and DHL expects to deliver them between Friday 13 "
        "and Saturday 14 June.",
        "Your cushion covers are on their way, and DHL expects to deliver them between Friday 13 "
        "and Monday 16 June.",
    ),
    (
        "They arrived at the Leipzig hub at 19:58 yesterday evening and left again at 06:42 this "
        "morning.",
        "They arrived at the Leipzig hub at 17:58 yesterday evening and left again at 06:42 this "
        "morning.",
    ),
    (
        "The rest of your order — the table, the vase and the Gouda — was delivered by Hermes on "
        "Wednesday 11 June.",
        "The rest of your order — the table, the vase and the Gouda — was delivered by UPS on "
        "Wednesday 11 June.",
    ),
    # Llama / Gemini, markdown with bold labels
    ("**Carrier:** DHL Paket", "**Carrier:** GLS"),
    ("**Status:** In transit", "**Status:** Out for delivery"),
    ("**Estimated delivery:** June 13th–14th", "**Estimated delivery:** June 13th–16th"),
    ("**RMA number:** RMA-2025-061284", "**RMA number:** RMA-2025-061248"),
    ("**Restocking fee:** 15% (EUR 22.35)", "**Restocking fee:** 25% (EUR 22.35)"),
    (
        "**Refund method:** Original payment method (Visa ending 4417)",
        "**Refund method:** Original payment method (Visa ending 4471)",
    ),
    ("**Drop-off deadline:** 26/06/2025", "**Drop-off deadline:** 28/06/2025"),
    (
        "**Nearest drop-off:** DHL Packstation 127, Lindwurmstraße 88 (0.4 km)",
        "**Nearest drop-off:** DHL Packstation 127, Lindwurmstraße 88 (0.6 km)",
    ),
    (
        "- **Kiosk am Goetheplatz** (0.9 km): Mon–Sat 08:00–20:00",
        "- **Kiosk am Goetheplatz** (0.7 km): Mon–Sat 08:00–20:00",
    ),
    # the same hours as the kiosk and Tabak & Lotto Sendling
    (
        "- **Schreibwaren Huber** (1.3 km): Mon–Sat 08:00–20:00",
        "- **Schreibwaren Huber** (1.3 km): Mon–Sat 08:00–22:00",
    ),
    (
        "- **DHL Paketshop Sendlinger Tor** (1.8 km): Mon–Fri 09:00–19:00, Sat 09:00–14:00, "
        "accepts bulky parcels",
        "- **DHL Paketshop Sendlinger Tor** (1.8 km): Mon–Fri 09:00–19:00, Sat 09:00–16:00, "
        "accepts bulky parcels",
    ),
    # the vase's price is also the cushion cover's unit price
    (
        "**Ceramic vase, small:** €24.90, eligible for return",
        "**Ceramic vase, small:** €26.90, eligible for return",
    ),
    (
        "**Aged Gouda 250 g:** 2 × €6.49 = €12.98",
        "**Aged Gouda 250 g:** 3 × €6.49 = €12.98",
    ),
    # other voices
    (
        "Each linen cushion cover was €24.90, so the pair came to €49.80.",
        "Each linen cushion cover was €24.90, so the pair came to €48.90.",
    ),
    (
        "The oak side table and the ceramic vase together came to €173.90.",
        "The oak side table and the ceramic vase together came to €178.90.",
    ),
    (
        "You used promo code HOME20, which took €20.00 off your €236.68 subtotal.",
        "You used promo code HOME25, which took €20.00 off your €236.68 subtotal.",
    ),
    ("The €226.63 total includes €35.07 VAT.", "The €226.63 total includes €37.05 VAT."),
    (
        "Your parcel was handed over to DHL in Hamburg on Tuesday 10 June.",
        "Your parcel was handed over to DHL in Bremen on Tuesday 10 June.",
    ),
    (
        "Your first parcel was delivered by Hermes on 11/06 at 14:36.",
        "Your first parcel was delivered by Hermes on 16/06 at 14:36.",
    ),
    (
        "Your prepaid DHL return label is here: "
        "https://returns.hausundtisch.de/labels/RMA-2025-061284.pdf",
        "Your prepaid DHL return label is here: "
        "https://returns.hausundtisch.de/labels/RMA-2025-061285.pdf",
    ),
    # whole replies
    (
        "### Your cushion covers\n\n"
        "**Carrier:** DHL Paket  \n"
        "**Status:** In transit  \n"
        "**Last scan:** Departed the Leipzig hub on Thursday 12 June at 06:42  \n"
        "**Estimated delivery:** Friday 13 – Saturday 14 June",
        "",
    ),
    (
        "I've started the return for your oak side table, and your RMA number is "
        "RMA-2025-061284.\n\n"
        "Once it reaches us, you'll be refunded €126.65 — the €149.00 price less the 15% "
        "restocking fee — to your Visa ending 4417, usually within 5-7 business days.\n\n"
        "Please drop it off by Thursday 26 June, unassembled and in its original packaging.",
        "",
    ),
    (
        "Here are the closest drop-off points to 80337:\n\n"
        "1. **DHL Packstation 127**, Lindwurmstraße 88 (0.4 km), open 24/7\n"
        "2. **Kiosk am Goetheplatz**, Goetheplatz 9 (0.9 km), Mon–Sat 08:00–20:00\n"
        "3. **Schreibwaren Huber**, Tumblingerstraße 21 (1.3 km), Mon–Sat 08:00–20:00\n"
        "4. **DHL Paketshop Sendlinger Tor**, Sonnenstraße 15 (1.8 km), the only one that "
        "accepts bulky parcels",
        "",
    ),
    (
        "Order HT-558213:\n"
        "- Table, vase and Gouda: delivered by Hermes on 11 June.\n"
        "- Cushion covers (×2): in transit with DHL, ETA 13–14 June.\n"
        "- Return RMA-2025-061284 created for the table; refund €126.65.",
        "",
    ),
]

#: Sentences that claim nothing.
NO_CLAIM = [
    "Hi there, thanks for reaching out!",
    "Here's what I found:",
    "### Your return",
    "Would you like me to book a home collection instead?",
    "Let me know if you'd like directions to any of these.",
    "Is there anything else I can help you with today?",
    "Happy to help!",
]

#: Known misses, filled in after the first run (strict: a fix shows up as a failure to
#: update these).
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS],
    # 'two weeks from today' (June 12 to 26) is no span any record gives
    "You have until Thursday 26 June to drop the parcel off,",
    # '06:42 this morning' after 'yesterday evening': the second time is not read with its day
    "They arrived at the Leipzig hub at 19:58 yesterday evening",
    # flagged: 'Return RMA-2025-061284 created for the table' is read as an unsettled state
    "Order HT-558213:",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # a carrier no record names is only flagged (a name no record holds)
    "Cushion covers: in transit with DPD.",
    # the return was for the table; an action on another row it names by an item name is not read
    "I've started a return for your ceramic vase, and your",
    # 'can be returned' is not read against the row's 'eligible': false
    "Fortunately the Aged Gouda can be returned, even though",
    # how many rows are eligible is not counted
    "So, of the 3 items that have already arrived, all 3 can be",
    # a carrier no record names passes
    "The rest of your order — the table, the vase and the Gouda",
    # a status word no record uses, under a 'Status' label, is not compared
    "**Status:** Out for delivery",
    # the range's end ('16th') is only flagged: it is read as a bare number
    "**Estimated delivery:** June 13th–16th",
    # a place no record names passes
    "Your parcel was handed over to DHL in Bremen on Tuesday 10",
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
