"""A UK car-insurance claims domain none of the benchmarks has (a motor policy with its
excess and named drivers, a collision claim with an assessor's notes, approved
repairers, a repair booking, monthly premium payments with one failed), amounts in GBP
and dates written the British way; written for this test without reading the gate's
code or any benchmark, and no rule written from it before its first run.


First run (at the session's code after the other probes' fixes): 11 of the 44 honest
entries and no-claim lines failed and 8 of the 31 changed ones were not blocked; now 5 and
8 (the lists below). Fixed from it: a booking that names the claim it is for
(``claim_reference``) is no newer state of the claim; "the approved garage" is no state of
the booking that names the garage; "excess" is an amount, and "the remaining £1,440.50" is
the claim's estimate less the excess the sentence gives. ("10/03/2025" stays October 3: a
date with its year is read month-first, a property the gate's date tests hold; reading it
day-first when that day is the near one broke it and was taken back.)
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 3, 6, 11, tzinfo=UTC)

POLICY = {
    "policy": {
        "number": "MTR-4471902",
        "holder": {"name": "Priya Ramsden", "email": "priya.ramsden@example.co.uk"},
        "vehicle": {
            "make": "Vauxhall",
            "model": "Corsa",
            "year": 2019,
            "registration": "LK19 XRT",
        },
        "cover": "comprehensive",
        "excess": {"compulsory": 250.0, "voluntary": 150.0, "currency": "GBP"},
        "no_claims_bonus_years": 6,
        "ncb_protected": True,
        "start_date": "2024-06-14",
        "renewal_date": "2025-06-14",
        "named_drivers": [
            {"name": "Tom Ramsden", "relationship": "spouse", "licence_years": 12},
            {"name": "Ellie Ramsden", "relationship": "daughter", "licence_years": 1},
        ],
    }
}
CLAIM = {
    "claim": {
        "reference": "CLM-2025-03117",
        "policy_number": "MTR-4471902",
        "incident": {
            "date": "2025-02-27",
            "time": "17:45",
            "type": "collision",
            "location": "Mill Lane, Reading",
        },
        "reported_date": "2025-02-28",
        "status": "approved",
        "assessor": "Gareth Okafor",
        "estimated_repair_cost": 1840.5,
        "excess_applied": 400.0,
        "currency": "GBP",
        "courtesy_car": True,
        "notes": [
            {
                "at": "2025-02-28T09:12:00Z",
                "author": "Gareth Okafor",
                "text": "Photos received; damage to rear bumper and tailgate.",
            },
            {
                "at": "2025-03-03T14:30:00Z",
                "author": "Gareth Okafor",
                "text": "Estimate approved.",
            },
        ],
    }
}
REPAIRERS = {
    "near": "RG1",
    "repairers": [
        {
            "id": "GAR-118",
            "name": "Kennet Bodyworks",
            "town": "Reading",
            "approved": True,
            "distance_miles": 2.4,
            "rating": 4.7,
            "next_available": "2025-03-10",
        },
        {
            "id": "GAR-031",
            "name": "Loddon Motor Repairs",
            "town": "Woodley",
            "approved": True,
            "distance_miles": 4.3,
            "rating": 4.5,
            "next_available": "2025-03-10",
        },
        {
            "id": "GAR-204",
            "name": "Thames Valley Accident Repair",
            "town": "Theale",
            "approved": True,
            "distance_miles": 5.1,
            "rating": 4.7,
            "next_available": "2025-03-12",
        },
    ],
}
BOOKING = {
    "ok": True,
    "booking_ref": "BK-88213",
    "claim_reference": "CLM-2025-03117",
    "garage": {"id": "GAR-118", "name": "Kennet Bodyworks", "town": "Reading"},
    "drop_off": {"date": "2025-03-10", "time": "08:30"},
    "courtesy_car": True,
    "estimated_completion": "2025-03-14",
    "status": "confirmed",
}
PAYMENTS = {
    "policy_number": "MTR-4471902",
    "annual_premium": 642.0,
    "frequency": "monthly",
    "currency": "GBP",
    "balance_outstanding": 0.0,
    "payments": [
        {"date": "2024-12-01", "amount": 53.5, "status": "paid"},
        {"date": "2025-01-01", "amount": 53.5, "status": "paid"},
        {
            "date": "2025-02-01",
            "amount": 53.5,
            "status": "failed",
            "reason": "insufficient funds",
        },
        {"date": "2025-02-08", "amount": 53.5, "status": "paid", "retry_of": "2025-02-01"},
        {"date": "2025-03-01", "amount": 53.5, "status": "paid"},
    ],
}
CALLS = [
    ("get_policy", {"policy_number": "MTR-4471902"}, POLICY),
    ("get_claim", {"claim_reference": "CLM-2025-03117"}, CLAIM),
    ("list_repairers", {"postcode": "RG1 4QS", "approved_only": True}, REPAIRERS),
    (
        "book_repair",
        {
            "claim_reference": "CLM-2025-03117",
            "garage_id": "GAR-118",
            "date": "2025-03-10",
            "time": "08:30",
            "courtesy_car": True,
        },
        BOOKING,
    ),
    ("get_payments", {"policy_number": "MTR-4471902"}, PAYMENTS),
]
SYSTEM = (
    "You are the claims assistant for Harbour Mutual Motor. The total excess is the "
    "compulsory excess plus the voluntary excess. A courtesy car is provided only when the "
    "repair is done by an approved repairer. Claims must be reported within 30 days of the "
    "incident."
)
USER = (
    "Hi, I had a bump on the way home last week (policy MTR-4471902). Where's my claim up "
    "to? Can you book the car in somewhere near Reading with a courtesy car? Also I think "
    "one of my payments bounced?"
)


RECEIPTS = {
    indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent, prefix="v") for indent in (None, 2)
}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    # terse
    ("Claim CLM-2025-03117 is approved.", "Claim CLM-2025-03117 is settled."),
    ("Reg LK19 XRT, Vauxhall Corsa.", "Reg LK19 XRF, Vauxhall Corsa."),
    ("Assessor: Gareth Okafor.", "Assessor: Gareth Okoro."),
    ("6 years' no-claims bonus, protected.", "7 years' no-claims bonus, protected."),
    (
        "Booked: Kennet Bodyworks, 10/03/2025, 08:30.",
        "Booked: Kennet Bodyworks, 10/03/2025, 09:30.",
    ),
    ("Courtesy car: yes.", "Courtesy car: no."),
    ("Renewal 14/06/2025.", "Renewal 24/06/2025."),
    # warm and wordy
    (
        "I'm so sorry to hear about the collision on Thursday 27 February at 5:45pm, and I "
        "hope everyone's okay.",
        "I'm so sorry to hear about the collision on Thursday 27 February at 6:45pm, and I "
        "hope everyone's okay.",
    ),
    (
        "Good news: Gareth Okafor, your assessor, has approved an estimated repair cost of "
        "£1,840.50.",
        "Good news: Gareth Okafor, your assessor, has approved an estimated repair cost of "
        "£1,804.50.",
    ),
    (
        "Your total excess comes to £400, which is your £250 compulsory excess plus your £150 "
        "voluntary excess.",
        "Your total excess comes to £450, which is your £250 compulsory excess plus your £150 "
        "voluntary excess.",
    ),
    (
        "So you'll pay the £400 excess, and we'll cover the remaining £1,440.50 of the repair.",
        "So you'll pay the £400 excess, and we'll cover the remaining £1,540.50 of the repair.",
    ),
    (
        "I've booked your car into Kennet Bodyworks for Monday 10 March at 8:30am.",
        "I've booked your car into Loddon Motor Repairs for Monday 10 March at 8:30am.",
    ),
    (
        "I've booked your car into Kennet Bodyworks in Reading for 10 March at 8:30, with a "
        "courtesy car included.",
        "I've booked your car into Kennet Bodyworks in Reading for 13 March at 8:30, with a "
        "courtesy car included.",
    ),
    (
        "The nearest approved garage is Kennet Bodyworks, just 2.4 miles away in Reading.",
        "The nearest approved garage is Kennet Bodyworks, just 1.4 miles away in Reading.",
    ),
    (
        "Loddon Motor Repairs in Woodley is 4.3 miles from you and could also take the car "
        "from 10 March.",
        "Loddon Motor Repairs in Woodley is 4.3 miles from you and could also take the car "
        "from 11 March.",
    ),
    (
        "Thames Valley Accident Repair in Theale is also rated 4.7, but its first free slot "
        "isn't until 12 March.",
        "Thames Valley Accident Repair in Theale is also rated 4.9, but its first free slot "
        "isn't until 12 March.",
    ),
    (
        "The garage expects the repairs to be finished by Friday 14 March.",
        "The garage expects the repairs to be finished by Friday 21 March.",
    ),
    (
        "Just so you know, your monthly payment of £53.50 on 1 February failed because of "
        "insufficient funds.",
        "Just so you know, your monthly payment of £35.50 on 1 February failed because of "
        "insufficient funds.",
    ),
    (
        "It was collected when we retried it on 8 February, so nothing is outstanding.",
        "It was collected when we retried it on 18 February, so nothing is outstanding.",
    ),
    (
        "Tom Ramsden and Ellie Ramsden are both named drivers on your policy.",
        "Tom Ramsden and Ella Ramsden are both named drivers on your policy.",
    ),
    (
        "Claims have to be reported within 30 days of the incident, and you reported yours the "
        "next day, on 28 February.",
        "Claims have to be reported within 60 days of the incident, and you reported yours the "
        "next day, on 28 February.",
    ),
    (
        "A courtesy car is only provided when an approved repairer does the work, and Kennet "
        "Bodyworks is one of ours.",
        "",
    ),
    ("The total excess is always the compulsory excess plus the voluntary excess.", ""),
    # markdown with bold labels
    ("**Claim reference:** CLM-2025-03117", "**Claim reference:** CLM-2025-03171"),
    ("**Policy number:** MTR-4471902", "**Policy number:** MTR-4471920"),
    ("**Incident date:** 27/02/2025", "**Incident date:** 25/02/2025"),
    ("**Compulsory excess:** GBP 250", "**Compulsory excess:** GBP 350"),
    ("**Booking ref:** BK-88213", "**Booking ref:** BK-88123"),
    ("**Cover:** Comprehensive", "**Cover:** Third party only"),
    (
        "**Latest note:** 03/03/2025 at 14:30, estimate approved",
        "**Latest note:** 03/03/2025 at 15:30, estimate approved",
    ),
    (
        "**First note:** 28/02/2025 at 09:12, photos of the rear bumper and tailgate received",
        "**First note:** 28/02/2025 at 09:21, photos of the rear bumper and tailgate received",
    ),
    ("**Policyholder:** Priya Ramsden", "**Policyholder:** Priya Ramsay"),
    (
        "**Annual premium:** £642, paid monthly at £53.50",
        "**Annual premium:** £624, paid monthly at £53.50",
    ),
    # whole replies
    (
        "**Claim reference:** CLM-2025-03117\n"
        "**Status:** Approved\n"
        "**Assessor:** Gareth Okafor\n"
        "**Estimated repair cost:** £1,840.50\n"
        "**Courtesy car:** Yes",
        "",
    ),
    (
        "All booked! Here are the details:\n"
        "\n"
        "- **Garage:** Kennet Bodyworks, Reading (2.4 miles)\n"
        "- **Drop-off:** Monday 10 March, 08:30\n"
        "- **Booking ref:** BK-88213\n"
        "- **Courtesy car:** included",
        "",
    ),
    (
        "### What you'll pay\n"
        "\n"
        "- Compulsory excess: £250\n"
        "- Voluntary excess: £150\n"
        "- **Your total excess: £400**\n"
        "We'll pay the other £1,440.50 of the £1,840.50 estimate.",
        "",
    ),
    (
        "About your payments: the £53.50 due on 01/02/2025 failed (insufficient funds).\n"
        "It was retried on 08/02/2025 and went through, and your 1 March payment of £53.50 "
        "has been paid too.\n"
        "Nothing is outstanding now.",
        "",
    ),
]

#: Sentences that state nothing to check.
NO_CLAIM = [
    "Sorry to hear about the accident.",
    "I hope you're feeling okay after the bump.",
    "Thanks for bearing with me while I looked into that.",
    "Would you like me to send these details to you by email?",
    "Let me know if there's anything else I can help with.",
    "Any questions, just ask.",
    "Drive safely!",
]

#: Still wrong (strict: a fix shows up as a failure to update these); filled after the
#: first run.
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS],
    # '10/03/2025' is read month-first (October 3), the way a date with its year is read
    "Booked: Kennet Bodyworks, 10/03/2025, 08:30.",
    # flagged: a registration and a car named with no verb carry no claim the checks settle
    "Reg LK19 XRT, Vauxhall Corsa.",
    # flagged: 'failed' of a payment row's status is not read
    "Just so you know, your monthly payment of £53.50 on 1",
    # flagged: 'named drivers' is read as an unsettled claim
    "Tom Ramsden and Ellie Ramsden are both named drivers on",
    # as above: a payment row's 'failed'
    "About your payments: the £53.50 due on 01/02/2025 failed",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # flagged only: a named driver no record holds
    "Tom Ramsden and Ella Ramsden are both named drivers",
    # a status word no record uses is not compared
    "Claim CLM-2025-03117 is settled.",
    # flagged only: a registration one character off
    "Reg LK19 XRF, Vauxhall Corsa.",
    # flagged only: a person's name no record holds
    "Assessor: Gareth Okoro.",
    # 'GBP 350' is backed by 350 elsewhere (another figure)
    "**Compulsory excess:** GBP 350",
    # flagged only: a cover level no record uses
    "**Cover:** Third party only",
    # flagged only: a note's time is read as unsupported, not contradicted
    "**Latest note:** 03/03/2025 at 15:30, estimate",
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
