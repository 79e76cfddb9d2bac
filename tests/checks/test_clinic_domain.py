"""A medical clinic's patient-support domain none of the benchmarks has (a patient and
her insurance plan, her appointments past and upcoming, open slots for a physical, a
reschedule, a late cancellation with a fee, prescriptions and billing statements),
written for this test without reading the gate's code or any benchmark: the data and
the sentences were written and checked by hand (weekdays by ``datetime``), and nothing
was tuned to a run of the gate.

The session: on Monday, March 3, 2025 at 10:00 AM Pacific (PST, UTC-8) Maria Delgado
asks to move her annual physical to later in the week, to cancel tomorrow's cardiology
consultation (less than 24 hours away, so the clinic's $40 fee applies) and to hear
where she stands on her prescriptions and her bill. Appointments give their start as
an ISO time with its offset beside an IANA zone; the open slots give a local time and
a zone. Some values recur across rows on purpose (two 9:30 slots on Thursday, three
slots at $185, two prescriptions with 3 refills, Dr. Rao on several rows) so that a
sentence about one row whose value is also another row's must still pass.


First run at 9e48b1a: 12 of the 50 honest entries failed and 8 of the 39 changed ones
were not blocked; now 2 and 4 (the lists below). Fixed from it: "Dr. Leah Whitfield"
names her appointment (the row her provider object belongs to; names are matched
without their dots, and "Dr. Whitfield" by title and surname); "Cardiology consult: Tue
3/4, 8:45am Pacific" (a day after a weekday's name; the weekday and the zone are the
date's own words; a row's other object fields say what its start is of); a deductible,
a copay are amounts ("$880 remains" of $1,500 - $620); a rule's "$40" fee no longer
contradicts "$50 paid toward the sick-visit statement" for one word in common; "$45
less than Dr. Rao's $185"; "no refills remaining" against the prescription's 0; "I've
moved your physical" is a reschedule; "I've cancelled your consultation with Dr. Leah
Whitfield" is the call on her appointment's id, and the same words about Dr. Rao are
contradicted by it; a name one word off a name the records hold ("Dr. Leah Whitman",
"Walgreens #04471", "Blue Shield Gold PPO") is contradicted by it.
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 3, 3, 18, tzinfo=UTC)  # Monday, March 3, 2025, 10:00 AM PST

PATIENT = {
    "patient": {
        "patient_id": "PT-204817",
        "name": {"first": "Maria", "last": "Delgado"},
        "date_of_birth": "1986-07-22",
        "phone": "+1-503-555-0142",
        "primary_care_provider": "Dr. Anita Rao",
        "insurance": {
            "carrier": "Blue Shield of California",
            "plan_name": "Blue Shield Silver PPO",
            "member_id": "BSC884213907",
            "copay": {"primary_care": 25.0, "specialist": 50.0, "telehealth": 15.0},
            "deductible": 1500.0,
            "deductible_met": 620.0,
            "plan_year_end": "2025-12-31",
        },
    }
}
APPOINTMENTS = {
    "patient_id": "PT-204817",
    "appointments": [
        {
            "appointment_id": "APT-57655",
            "provider": {"name": "Dr. Samuel Okafor", "specialty": "Dermatology"},
            "location": {"clinic": "Riverside Medical Center", "room": "2B"},
            "start": {"dateTime": "2025-01-22T13:00:00-08:00", "timeZone": "America/Los_Angeles"},
            "duration_minutes": 20,
            "status": "cancelled",
            "visit_type": "New patient",
            "telehealth": False,
        },
        {
            "appointment_id": "APT-57902",
            "provider": {"name": "Dr. Anita Rao", "specialty": "Family Medicine"},
            "location": {"clinic": "Northgate Clinic", "room": "104"},
            "start": {"dateTime": "2025-02-11T10:00:00-08:00", "timeZone": "America/Los_Angeles"},
            "duration_minutes": 30,
            "status": "completed",
            "visit_type": "Sick visit",
            "telehealth": False,
        },
        {
            "appointment_id": "APT-58450",
            "provider": {"name": "Dr. Leah Whitfield", "specialty": "Cardiology"},
            "location": {"clinic": "Riverside Medical Center", "room": "3A"},
            "start": {"dateTime": "2025-03-04T08:45:00-08:00", "timeZone": "America/Los_Angeles"},
            "duration_minutes": 45,
            "status": "booked",
            "visit_type": "Consultation",
            "telehealth": False,
        },
        {
            "appointment_id": "APT-58213",
            "provider": {"name": "Dr. Anita Rao", "specialty": "Family Medicine"},
            "location": {"clinic": "Northgate Clinic", "room": "104"},
            "start": {"dateTime": "2025-03-05T09:30:00-08:00", "timeZone": "America/Los_Angeles"},
            "duration_minutes": 30,
            "status": "booked",
            "visit_type": "Annual physical",
            "telehealth": False,
        },
        {
            "appointment_id": "APT-58377",
            "provider": {"name": "Dr. Samuel Okafor", "specialty": "Dermatology"},
            "location": {"clinic": None, "joinUrl": "https://visit.cascadehealth.example/j/58377"},
            "start": {"dateTime": "2025-03-06T14:15:00-08:00", "timeZone": "America/Los_Angeles"},
            "duration_minutes": 20,
            "status": "booked",
            "visit_type": "Follow-up",
            "telehealth": True,
        },
    ],
}
PRESCRIPTIONS = {
    "patient_id": "PT-204817",
    "prescriptions": [
        {
            "rx_number": "RX-3381042",
            "medication": "Lisinopril",
            "dose_mg": 10,
            "frequency": "once daily",
            "refills_remaining": 3,
            "last_filled": "2025-02-14",
            "days_supply": 30,
            "prescriber": "Dr. Anita Rao",
            "pharmacy": {"name": "Walgreens #04417", "phone": "503-555-0188"},
            "status": "active",
        },
        {
            "rx_number": "RX-3381057",
            "medication": "Atorvastatin",
            "dose_mg": 20,
            "frequency": "once daily at bedtime",
            "refills_remaining": 0,
            "last_filled": "2025-01-28",
            "days_supply": 90,
            "prescriber": "Dr. Anita Rao",
            "pharmacy": {"name": "Costco Pharmacy", "phone": "503-555-0161"},
            "status": "active",
        },
        {
            "rx_number": "RX-3379915",
            "medication": "Metformin",
            "dose_mg": 500,
            "frequency": "twice daily",
            "refills_remaining": 3,
            "last_filled": "2025-02-20",
            "days_supply": 30,
            "prescriber": "Dr. Anita Rao",
            "pharmacy": {"name": "Walgreens #04417", "phone": "503-555-0188"},
            "status": "active",
        },
    ],
}
BALANCE = {
    "guarantor": {"name": "Maria Delgado", "accountNumber": "GA-77120"},
    "currency": "USD",
    "autopayEnrolled": False,
    "statements": [
        {
            "statementId": "ST-24121",
            "serviceDate": "2024-12-16",
            "description": "Office visit - Dr. Anita Rao",
            "billedAmount": 210.0,
            "insurancePaid": 150.0,
            "patientResponsibility": 60.0,
            "amountPaid": 60.0,
            "balanceDue": 0.0,
            "dueDate": "2025-01-31",
            "status": "paid",
        },
        {
            "statementId": "ST-25021",
            "serviceDate": "2025-02-11",
            "description": "Sick visit - Dr. Anita Rao",
            "billedAmount": 265.0,
            "insurancePaid": 137.5,
            "patientResponsibility": 127.5,
            "amountPaid": 50.0,
            "balanceDue": 77.5,
            "dueDate": "2025-03-20",
            "status": "partially_paid",
        },
        {
            "statementId": "ST-25027",
            "serviceDate": "2025-02-19",
            "description": "Lab - lipid panel",
            "billedAmount": 148.0,
            "insurancePaid": 0.0,
            "patientResponsibility": 148.0,
            "amountPaid": 0.0,
            "balanceDue": 148.0,
            "dueDate": "2025-03-28",
            "status": "open",
        },
    ],
}
AVAILABILITY = {
    "query": {
        "specialty": "Family Medicine",
        "visitType": "Annual physical",
        "from": "2025-03-06",
        "to": "2025-03-07",
    },
    "slots": [
        {
            "slotId": "SL-9011",
            "provider": "Dr. Anita Rao",
            "clinic": "Northgate Clinic",
            "startTime": "2025-03-06T09:30:00",
            "timeZone": "America/Los_Angeles",
            "durationMinutes": 30,
            "telehealth": False,
            "selfPayEstimate": 185.0,
        },
        {
            "slotId": "SL-9012",
            "provider": "Dr. Anita Rao",
            "clinic": "Northgate Clinic",
            "startTime": "2025-03-06T11:00:00",
            "timeZone": "America/Los_Angeles",
            "durationMinutes": 30,
            "telehealth": False,
            "selfPayEstimate": 185.0,
        },
        {
            "slotId": "SL-9020",
            "provider": "Dr. Marcus Lee",
            "clinic": "Riverside Medical Center",
            "startTime": "2025-03-06T09:30:00",
            "timeZone": "America/Los_Angeles",
            "durationMinutes": 30,
            "telehealth": True,
            "selfPayEstimate": 140.0,
        },
        {
            "slotId": "SL-9027",
            "provider": "Dr. Marcus Lee",
            "clinic": "Riverside Medical Center",
            "startTime": "2025-03-07T15:45:00",
            "timeZone": "America/Los_Angeles",
            "durationMinutes": 30,
            "telehealth": False,
            "selfPayEstimate": 185.0,
        },
        {
            "slotId": "SL-9033",
            "provider": "Dr. Priya Natarajan",
            "clinic": "Northgate Clinic",
            "startTime": "2025-03-07T08:00:00",
            "timeZone": "America/Los_Angeles",
            "durationMinutes": 30,
            "telehealth": False,
            "selfPayEstimate": 210.0,
        },
    ],
}
RESCHEDULED = {
    "status": "confirmed",
    "confirmation_number": "CF-610284",
    "previous_start": "2025-03-05T09:30:00-08:00",
    "appointment": {
        "appointment_id": "APT-58213",
        "provider": {"name": "Dr. Anita Rao", "specialty": "Family Medicine"},
        "location": {"clinic": "Northgate Clinic", "room": "104"},
        "start": {"dateTime": "2025-03-06T11:00:00-08:00", "timeZone": "America/Los_Angeles"},
        "duration_minutes": 30,
        "status": "booked",
        "visit_type": "Annual physical",
        "telehealth": False,
    },
}
CANCELLED = {
    "appointment_id": "APT-58450",
    "status": "cancelled",
    "cancelled_at": "2025-03-03T18:04:37Z",
    "late_cancellation": True,
    "fees": [
        {
            "type": "late_cancellation",
            "amount": 40.0,
            "currency": "USD",
            "billed_to": "next_statement",
        }
    ],
}
CALLS = [
    ("get_patient", {"patient_id": "PT-204817"}, PATIENT),
    ("list_appointments", {"patient_id": "PT-204817", "include_past": True}, APPOINTMENTS),
    ("get_prescriptions", {"patient_id": "PT-204817"}, PRESCRIPTIONS),
    ("get_balance", {"patient_id": "PT-204817"}, BALANCE),
    (
        "search_availability",
        {
            "specialty": "Family Medicine",
            "visit_type": "Annual physical",
            "from": "2025-03-06",
            "to": "2025-03-07",
        },
        AVAILABILITY,
    ),
    ("reschedule_appointment", {"appointment_id": "APT-58213", "slot_id": "SL-9012"}, RESCHEDULED),
    ("cancel_appointment", {"appointment_id": "APT-58450", "reason": "patient_request"}, CANCELLED),
]
SYSTEM = (
    "You are the patient-support assistant for Cascade Family Health. Cancellations made "
    "less than 24 hours before the visit incur a $40 late-cancellation fee. Telehealth "
    "visits require check-in 10 minutes before the start time. Do not give medical advice; "
    "refer clinical questions to the care team."
)
USER = (
    "Hi, this is Maria Delgado. Can you move my physical to later this week, cancel my "
    "cardiology appointment tomorrow, and tell me where I stand on my prescriptions and "
    "my bill?"
)


RECEIPTS = {
    indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent, prefix="m") for indent in (None, 2)
}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    # times and dates (GPT-4o terse, Claude wordy)
    (
        "Your annual physical with Dr. Anita Rao had been set for Wednesday, March 5 at 9:30 AM.",
        "Your annual physical with Dr. Anita Rao had been set for Wednesday, March 5 at 10:30 AM.",
    ),
    (
        "Cardiology consult: Tue 3/4, 8:45am Pacific.",
        "Cardiology consult: Tue 3/4, 8:15am Pacific.",
    ),
    (
        "Original physical slot: 3/5, 9:30am Pacific.",
        "Original physical slot: 3/5, 9:40am Pacific.",
    ),
    (
        "Your telehealth follow-up with Dr. Samuel Okafor is still on for Thursday, March 6 at "
        "2:15 PM Pacific time.",
        "Your telehealth follow-up with Dr. Samuel Okafor is still on for Thursday, March 13 at "
        "2:15 PM Pacific time.",
    ),
    (
        "Your last visit with Dr. Rao was on Tuesday, February 11, and it's marked completed.",
        "Your last visit with Dr. Rao was on Tuesday, February 11, and it's marked as a no-show.",
    ),
    # Llama / Gemini bullet lines
    (
        "- **Provider:** Dr. Leah Whitfield (Cardiology)",
        "- **Provider:** Dr. Leah Whitman (Cardiology)",
    ),
    (
        "- **Location:** Riverside Medical Center, Room 3A",
        "- **Location:** Riverside Medical Center, Room 3C",
    ),
    (
        "- **Duration:** 45 minutes (Dr. Whitfield's consultation)",
        "- **Duration:** 55 minutes (Dr. Whitfield's consultation)",
    ),
    # actions performed
    (
        "I've moved your physical to Thursday, March 6 at 11:00 AM with Dr. Anita Rao at "
        "Northgate Clinic.",
        "I've moved your physical to Thursday, March 6 at 11:30 AM with Dr. Anita Rao at "
        "Northgate Clinic.",
    ),
    (
        "Done - APT-58213 is now Thu 3/6 at 11:00 AM, confirmation CF-610284.",
        "Done - APT-58213 is now Thu 3/6 at 11:00 AM, confirmation CF-610248.",
    ),
    (
        "I rescheduled APT-58213 to Thursday at 11:00 AM.",
        "I rescheduled APT-58377 to Thursday at 11:00 AM.",
    ),
    (
        "Your appointment APT-58450 has been cancelled.",
        "Your appointment APT-58377 has been cancelled.",
    ),
    (
        "I've cancelled your consultation with Dr. Leah Whitfield that was set for "
        "Tuesday, March 4.",
        "I've cancelled your consultation with Dr. Leah Whitfield that was set for "
        "Tuesday, March 11.",
    ),
    # money
    ("Specialist copay: $50.", "Specialist copay: $55."),
    (
        "Your Blue Shield Silver PPO plan has a $15 copay for telehealth visits.",
        "Your Blue Shield Silver PPO plan has a $17 copay for telehealth visits.",
    ),
    (
        "Because the consultation was less than 24 hours away, a $40 late-cancellation fee "
        "will be added to your next statement.",
        "Because the consultation was less than 24 hours away, a $95 late-cancellation fee "
        "will be added to your next statement.",
    ),
    (
        "Statement ST-25021 for your February 11 sick visit still has $77.50 due by March 20.",
        "Statement ST-25021 for your February 11 sick visit still has $77.50 due by March 25.",
    ),
    (
        "You've already paid $50 toward the sick-visit statement.",
        "You've already paid $70 toward the sick-visit statement.",
    ),
    # derived figures
    (
        "You've met $620 of your $1,500 deductible, so $880 remains for this plan year.",
        "You've met $620 of your $1,500 deductible, so $980 remains for this plan year.",
    ),
    ("Your current balance due is $225.50.", "Your current balance due is $235.50."),
    (
        "With the $40 cancellation fee, your balance will come to $265.50.",
        "With the $40 cancellation fee, your balance will come to $295.50.",
    ),
    (
        "Dr. Marcus Lee's telehealth slot has a self-pay estimate of $140, which is $45 less "
        "than Dr. Rao's $185.",
        "Dr. Marcus Lee's telehealth slot has a self-pay estimate of $140, which is $55 less "
        "than Dr. Rao's $185.",
    ),
    (
        "For your telehealth follow-up, please check in by 2:05 PM, 10 minutes before it starts.",
        "For your telehealth follow-up, please check in by 1:55 PM, 10 minutes before it starts.",
    ),
    # counts
    (
        "I found 5 open slots between Thursday and Friday.",
        "I found 8 open slots between Thursday and Friday.",
    ),
    (
        "I found 2 openings with Dr. Rao on Thursday, March 6.",
        "I found 7 openings with Dr. Rao on Thursday, March 6.",
    ),
    (
        "Your atorvastatin 20 mg has no refills remaining.",
        "Your atorvastatin 20 mg has 4 refills remaining.",
    ),
    # names and ids
    (
        "Atorvastatin is filled at Costco Pharmacy and was last filled on January 28.",
        "Atorvastatin is filled at Costco Pharmacy and was last filled on January 18.",
    ),
    ("Your lisinopril goes to Walgreens #04417.", "Your lisinopril goes to Walgreens #04471."),
    ("Your patient ID is PT-204817.", "Your patient ID is PT-204871."),
    (
        "I've verified your date of birth as July 22, 1986.",
        "I've verified your date of birth as July 12, 1986.",
    ),
    (
        "Your member ID BSC884213907 is on the Blue Shield Silver PPO plan.",
        "Your member ID BSC884213907 is on the Blue Shield Gold PPO plan.",
    ),
    # states
    (
        "Your physical with Dr. Rao is an in-person visit, not telehealth.",
        "Your physical with Dr. Rao is a telehealth visit, not in person.",
    ),
    (
        "Your January 22 dermatology appointment was cancelled.",
        "Your January 22 dermatology appointment was rescheduled.",
    ),
    # a value of the row that is also another row's
    (
        "Your lisinopril 10 mg has 3 refills left.",
        "Your lisinopril 10 mg has 5 refills left.",
    ),
    (
        "Dr. Marcus Lee also has a 9:30 AM opening on Thursday, and it's a telehealth visit.",
        "Dr. Marcus Lee also has a 10:15 AM opening on Thursday, and it's a telehealth visit.",
    ),
    (
        "Dr. Lee's Friday slot at 3:45 PM has a self-pay estimate of $185.",
        "Dr. Lee's Friday slot at 3:45 PM has a self-pay estimate of $195.",
    ),
    (
        "Metformin 500 mg is filled at Walgreens #04417 as well.",
        "Metformin 850 mg is filled at Walgreens #04417 as well.",
    ),
    # policies restated from the system prompt
    (
        "Cancellations less than 24 hours before the visit incur a $40 fee.",
        "Cancellations less than 48 hours before the visit incur a $40 fee.",
    ),
    (
        "Telehealth visits require check-in 10 minutes before the start time.",
        "Telehealth visits require check-in 5 minutes before the start time.",
    ),
    # whole replies
    (
        "### Rescheduled appointment\n"
        "- **Provider:** Dr. Anita Rao\n"
        "- **When:** Thursday, March 6 at 11:00 AM (PST)\n"
        "- **Where:** Northgate Clinic, Room 104\n"
        "- **Confirmation:** CF-610284",
        "",
    ),
    (
        "I've cancelled your cardiology consultation with Dr. Leah Whitfield (APT-58450), which "
        "was set for Tuesday, March 4 at 8:45 AM. Because that was less than 24 hours away, a "
        "$40 late-cancellation fee applies. Your telehealth follow-up with Dr. Samuel Okafor on "
        "Thursday, March 6 at 2:15 PM is still booked, so please check in 10 minutes early.",
        "",
    ),
    (
        "Balance: $225.50 due.\n- ST-25021: $77.50, due 3/20\n- ST-25027: $148.00, due 3/28",
        "",
    ),
    (
        "**Prescriptions**\n"
        "- **Lisinopril 10 mg:** 3 refills left, Walgreens #04417\n"
        "- **Atorvastatin 20 mg:** 0 refills left, Costco Pharmacy\n"
        "- **Metformin 500 mg:** 3 refills left, Walgreens #04417",
        "",
    ),
]

#: Sentences that carry no claim.
NO_CLAIM = [
    "Hi Maria, thanks for reaching out!",
    "### Your upcoming visits",
    "Here are the details:",
    "**Prescriptions**",
    "Would you like me to book one of the other openings instead?",
    "Let me know if you'd like me to request a refill for your atorvastatin.",
    "Is there anything else I can help you with today?",
]

#: Known misses, filled after the first run (strict: a fix shows up as a failure).
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS],
    # $225.50 + $40 takes an operand from the system prompt's rule
    "With the $40 cancellation fee, your balance will come to",
    # how many rows match a provider and a day is not counted
    "I found 2 openings with Dr. Rao on Thursday, March 6.",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # a status word no record uses ('no-show') is not compared
    "Your last visit with Dr. Rao was on Tuesday, February 11,",
    # a room ('3C') no record holds passes
    "- **Location:** Riverside Medical Center, Room 3C",
    # a time 10 minutes before a start time is not worked out
    "For your telehealth follow-up, please check in by 1:55 PM,",
    # 'was rescheduled' (no agent) is not read against the row's status 'cancelled'
    "Your January 22 dermatology appointment was",
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
