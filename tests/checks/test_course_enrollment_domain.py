"""A university registrar domain none of the benchmarks has: a course search with several
sections (days and times, seats open, a waitlist), a student's schedule and credit limit,
the term's deadlines and per-credit tuition, a drop with a refund, an enrollment, a full
section and a waitlist spot, and the student's account statement. The assistant finds an
Algorithms section that fits, drops the dance class that clashes with it, enrolls the
student, puts them on the waitlist of a full course and reports the balance.

Written without reading the gate's code or any benchmark, and not run before it was handed
over.

First run (at `8a6e738`): 24 of 62 honest entries failing (53 pairs and 9 no-claim
lines), 7 of 52 changed entries not blocked. After this session's fixes, now 19 and 9
(the lists below, each with the gate's reason; tuned on this probe: course codes as
heads of section ids, a room "3-210", course credits as counts; two changed entries
blocked before for a wrong reason now pass).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2026, 1, 14, 16, 10, tzinfo=UTC)

SEARCH = {
    "term": {"code": "2026SP", "name": "Spring 2026"},
    "query": {"subject": "CSCI", "catalog_number": "3410"},
    "course": {
        "id": "CSCI-3410",
        "title": "Algorithms",
        "credits": 4,
        "prerequisites": ["CSCI 2011", "CSCI 2041"],
    },
    "sections": [
        {
            "section_id": "CSCI-3410-001",
            "component": "LEC",
            "days": ["Mon", "Wed", "Fri"],
            "start": "09:05",
            "end": "09:55",
            "instructor": "Elena Marsh",
            "mode": "in_person",
            "location": {"building": "Keller Hall", "room": "3-210"},
            "capacity": 120,
            "enrolled": 120,
            "seats_open": 0,
            "waitlist": {"length": 7, "open": True},
            "status": "closed",
        },
        {
            "section_id": "CSCI-3410-002",
            "component": "LEC",
            "days": ["Tue", "Thu"],
            "start": "10:30",
            "end": "11:45",
            "instructor": "Tomas Okafor",
            "mode": "in_person",
            "location": {"building": "Amundson Hall", "room": "B75"},
            "capacity": 80,
            "enrolled": 71,
            "seats_open": 9,
            "waitlist": {"length": 0, "open": True},
            "status": "open",
        },
        {
            "section_id": "CSCI-3410-010",
            "component": "LEC",
            "days": ["Tue", "Thu"],
            "start": "18:15",
            "end": "19:55",
            "instructor": "Yuki Tanabe",
            "mode": "online_sync",
            "location": None,
            "capacity": 40,
            "enrolled": 38,
            "seats_open": 2,
            "waitlist": {"length": 0, "open": True},
            "status": "open",
        },
    ],
    "total_sections": 3,
}
SCHEDULE = {
    "student": {
        "id": "S20418837",
        "name": "Priya Raman",
        "program": "BS Computer Science",
        "class_standing": "junior",
        "minor": None,
        "advisor": {"name": "Renee Halvorsen", "email": "rhalvorsen@northfield.edu"},
    },
    "term": "2026SP",
    "credit_limit": 18,
    "enrolled_credits": 13,
    "holds": [],
    "sections": [
        {
            "section_id": "MATH-2243-020",
            "title": "Linear Algebra and Differential Equations",
            "credits": 4,
            "days": ["Mon", "Wed", "Fri"],
            "start": "11:15",
            "end": "12:05",
            "status": "enrolled",
            "grading_basis": "A-F",
        },
        {
            "section_id": "PHYS-1302-001",
            "title": "Introductory Physics II",
            "credits": 4,
            "days": ["Tue", "Thu"],
            "start": "13:00",
            "end": "14:15",
            "status": "enrolled",
            "grading_basis": "A-F",
        },
        {
            "section_id": "WRIT-1301-045",
            "title": "University Writing",
            "credits": 3,
            "days": ["Mon", "Wed"],
            "start": "14:30",
            "end": "15:45",
            "status": "enrolled",
            "grading_basis": "A-F",
        },
        {
            "section_id": "DANC-1301-002",
            "title": "Modern Dance Technique I",
            "credits": 2,
            "days": ["Tue", "Thu"],
            "start": "10:10",
            "end": "11:00",
            "status": "enrolled",
            "grading_basis": "S-N",
        },
    ],
    "waitlisted": [],
}
CALENDAR = {
    "term": "2026SP",
    "classes_begin": "2026-01-20",
    "classes_end": "2026-05-04",
    "deadlines": {
        "add_without_permission": "2026-01-26",
        "drop_full_refund": "2026-01-26",
        "drop_half_refund": "2026-02-02",
        "withdraw_with_w": "2026-03-30",
    },
    "tuition": {"per_credit": 512.0, "currency": "USD", "banded": False},
    "finals": {"start": "2026-05-07", "end": "2026-05-13"},
}
DROP = {
    "ok": True,
    "action": "drop",
    "confirmation": "DRP-88213",
    "section_id": "DANC-1301-002",
    "status": "dropped",
    "credits_removed": 2,
    "enrolled_credits": 11,
    "refund": {
        "percent": 100,
        "amount": 1024.0,
        "currency": "USD",
        "applied_to": "student_account",
    },
    "transcript_notation": None,
    "processed_at": "2026-01-14T16:02:37Z",
}
ENROLL = {
    "ok": True,
    "action": "enroll",
    "confirmation": "ENR-55107",
    "section_id": "CSCI-3410-002",
    "status": "enrolled",
    "credits": 4,
    "enrolled_credits": 15,
    "grading_basis": "A-F",
    "seats_open": 8,
    "waitlisted": False,
    "processed_at": "2026-01-14T16:03:05Z",
}
ENROLL_FULL = {
    "ok": False,
    "error": {
        "code": "SECTION_FULL",
        "message": "CSCI-3081W-001 has no open seats (capacity 60, enrolled 60).",
    },
    "section_id": "CSCI-3081W-001",
    "waitlist_available": True,
}
WAITLIST = {
    "ok": True,
    "action": "waitlist",
    "confirmation": "WL-30419",
    "section_id": "CSCI-3081W-001",
    "title": "Program Design and Development",
    "credits": 3,
    "days": ["Mon", "Wed"],
    "start": "16:00",
    "end": "17:15",
    "seats_open": 0,
    "status": "waitlisted",
    "position": 6,
    "waitlist_length": 6,
    "auto_enroll": False,
    "offer_window_hours": 24,
    "credits_if_enrolled": 18,
    "added_at": "2026-01-14T16:03:41Z",
}
STATEMENT = {
    "student_id": "S20418837",
    "term": "2026SP",
    "currency": "USD",
    "charges": [
        {
            "code": "TUIT",
            "description": "Tuition (13 credits)",
            "amount": 6656.0,
            "posted": "2025-11-20",
        },
        {
            "code": "TUIT",
            "description": "Tuition - add CSCI 3410",
            "amount": 2048.0,
            "posted": "2026-01-14",
        },
        {
            "code": "SSF",
            "description": "Student Services Fee",
            "amount": 481.5,
            "posted": "2025-11-20",
        },
        {
            "code": "LAB",
            "description": "PHYS 1302 lab fee",
            "amount": 85.0,
            "posted": "2025-11-20",
        },
    ],
    "credits": [
        {"description": "Payment - ACH", "amount": 7000.0, "date": "2025-12-19"},
        {"description": "Refund - drop DANC 1301", "amount": 1024.0, "date": "2026-01-14"},
    ],
    "balance_due": 1246.5,
    "due_date": "2026-02-15",
    "autopay": False,
    "past_due": False,
}
STUDENT = {"student_id": "S20418837", "term": "2026SP"}
CALLS = [
    ("search_courses", {"term": "2026SP", "subject": "CSCI", "catalog_number": "3410"}, SEARCH),
    ("get_student_schedule", STUDENT, SCHEDULE),
    ("get_term_calendar", {"term": "2026SP"}, CALENDAR),
    ("drop_section", {**STUDENT, "section_id": "DANC-1301-002"}, DROP),
    ("enroll_section", {**STUDENT, "section_id": "CSCI-3410-002"}, ENROLL),
    ("enroll_section", {**STUDENT, "section_id": "CSCI-3081W-001"}, ENROLL_FULL),
    ("join_waitlist", {**STUDENT, "section_id": "CSCI-3081W-001"}, WAITLIST),
    ("get_account_statement", STUDENT, STATEMENT),
]
SYSTEM = (
    "You are the Northfield University registrar assistant. Students may carry at most 18 "
    "credits in a term, counting waitlisted sections. A drop before the first-week deadline "
    "refunds tuition in full at $512 per credit; through the second week the refund is 50%. "
    "Always give the student the confirmation number of every change you make."
)
USER = (
    "Hi! I'm Priya (S20418837). I need Algorithms (CSCI 3410) this spring but it clashes with "
    "my dance class. Can you find a section that works, drop DANC 1301, and get me into "
    "3081W too, or on its waitlist if it's full? And what do I owe now?"
)

RECEIPTS = {
    None: chat_receipts(SYSTEM, USER, CALLS, indent=None),
    2: chat_receipts(SYSTEM, USER, CALLS, indent=2),
}

#: (honest sentence, the same with one thing changed or "")
PAIRS = [
    # the course search
    (
        "Section 002 meets Tue/Thu 10:30-11:45 with Prof. Okafor.",
        "Section 002 meets Tue/Thu 10:30-11:55 with Prof. Okafor.",
    ),
    (
        "Section 001 (Mon/Wed/Fri, 9:05-9:55 am, Dr. Marsh) is full, with 7 students already "
        "on its waitlist.",
        "Section 001 (Mon/Wed/Fri, 9:05-9:55 am, Dr. Marsh) is full, with 27 students already "
        "on its waitlist.",
    ),
    (
        "The evening section (010) is taught online by Dr. Tanabe, Tue/Thu 6:15-7:55 pm.",
        "The evening section (010) is taught online by Dr. Tanabe, Tue/Thu 6:45-7:55 pm.",
    ),
    (
        "Of the three sections, 001 is the only one that's closed.",
        "Of the three sections, 002 is the only one that's closed.",
    ),
    (
        "CSCI 3410 is 4 credits and requires CSCI 2011 and CSCI 2041.",
        "CSCI 3410 is 4 credits and requires CSCI 2011 and CSCI 2021.",
    ),
    (
        "Of the three Algorithms sections, 002 had the most open seats.",
        "Of the three Algorithms sections, 010 had the most open seats.",
    ),
    (
        "The earliest Algorithms section is 001, at 9:05 am.",
        "The earliest Algorithms section is 001, at 9:15 am.",
    ),
    (
        "Section 001 is in Keller Hall 3-210.",
        "Section 001 is in Keller Hall 3-201.",
    ),
    (
        "### Algorithms (CSCI 3410) sections\n"
        "- **001** Mon/Wed/Fri 9:05-9:55, Keller Hall 3-210 — full, 7 on the waitlist\n"
        "- **002** Tue/Thu 10:30-11:45, Amundson Hall B75 — 9 seats open\n"
        "- **010** Tue/Thu 6:15-7:55 pm, online — 2 seats open",
        "### Algorithms (CSCI 3410) sections\n"
        "- **001** Mon/Wed/Fri 9:05-9:55, Keller Hall 3-210 — full, 7 on the waitlist\n"
        "- **002** Tue/Thu 10:30-11:45, Amundson Hall B57 — 9 seats open\n"
        "- **010** Tue/Thu 6:15-7:55 pm, online — 2 seats open",
    ),
    (
        "I checked all three sections. Section 001 is closed with a waitlist of 7, so I went "
        "with 002 (Prof. Okafor), which had 9 open seats and fits around your other classes.",
        "I checked all three sections. Section 001 is closed with a waitlist of 7, so I went "
        "with 002 (Prof. Okafor), which had 29 open seats and fits around your other classes.",
    ),
    (
        "Section 002 was at 71 of 80 seats before you joined, about 89% full.",
        "Section 002 was at 71 of 80 seats before you joined, about 93% full.",
    ),
    (
        "Two of the three sections meet in person; 010 is online.",
        "Two of the three sections meet in person; 002 is online.",
    ),
    # the schedule
    (
        "Your DANC 1301 class (Tue/Thu 10:10-11:00) overlaps with section 002.",
        "Your DANC 1301 class (Tue/Thu 10:20-11:00) overlaps with section 002.",
    ),
    (
        "You're still enrolled in MATH 2243, PHYS 1302 and WRIT 1301.",
        "You're still enrolled in MATH 2243, PHYS 1302 and WRIT 1302.",
    ),
    (
        "Your Tuesdays and Thursdays now look like this: Algorithms 10:30-11:45, then "
        "Physics II 1:00-2:15 pm.",
        "Your Tuesdays and Thursdays now look like this: Algorithms 10:30-11:45, then "
        "Physics II 12:30-2:15 pm.",
    ),
    (
        "Your spring schedule:\n"
        "1. MATH 2243 — Mon/Wed/Fri 11:15-12:05\n"
        "2. PHYS 1302 — Tue/Thu 1:00-2:15 pm\n"
        "3. WRIT 1301 — Mon/Wed 2:30-3:45 pm\n"
        "4. CSCI 3410 — Tue/Thu 10:30-11:45\n\n"
        "Plus CSCI 3081W on the waitlist.",
        "Your spring schedule:\n"
        "1. MATH 2243 — Mon/Wed/Fri 11:15-12:05\n"
        "2. PHYS 1302 — Tue/Thu 1:00-2:15 pm\n"
        "3. WRIT 1301 — Mon/Wed 2:30-3:35 pm\n"
        "4. CSCI 3410 — Tue/Thu 10:30-11:45\n\n"
        "Plus CSCI 3081W on the waitlist.",
    ),
    ("**Holds:** none\n**Credit limit:** 18", "**Holds:** 1 active\n**Credit limit:** 18"),
    (
        "Your advisor is Renee Halvorsen — you can reach her at rhalvorsen@northfield.edu. "
        "Let me know if you'd like me to draft a note to her.",
        "Your advisor is Renee Halverson — you can reach her at rhalvorsen@northfield.edu. "
        "Let me know if you'd like me to draft a note to her.",
    ),
    (
        "You're a junior in the BS Computer Science program.",
        "You're a senior in the BS Computer Science program.",
    ),
    ("Algorithms section 002 is graded A-F.", "Algorithms section 002 is graded pass/fail."),
    # the drop
    (
        "I dropped DANC 1301 (Modern Dance Technique I); confirmation DRP-88213.",
        "I dropped DANC 1301 (Modern Dance Technique I); confirmation DRP-88231.",
    ),
    (
        "Dropping it removed 2 credits and refunded $1,024 to your student account.",
        "Dropping it removed 2 credits and refunded $1,240 to your student account.",
    ),
    (
        "You got a 100% refund for the dance class.",
        "You got a 90% refund for the dance class.",
    ),
    (
        "Good news, the drop went through! 🎉 You'll get a full refund of $1,024 (2 credits "
        "at $512 each), credited to your student account. Confirmation: DRP-88213.",
        "Good news, the drop went through! 🎉 You'll get a full refund of $1,024 (2 credits "
        "at $512 each), credited to your bank account. Confirmation: DRP-88213.",
    ),
    (
        "The drop was processed at 16:02 UTC today.",
        "The drop was processed at 16:20 UTC today.",
    ),
    # the enrollment
    (
        "**Enrolled:** CSCI 3410-002, confirmation ENR-55107",
        "**Enrolled:** CSCI 3410-002, confirmation ENR-55170",
    ),
    (
        "**Done!** Here's what changed:\n"
        "- Dropped **DANC 1301** (confirmation DRP-88213)\n"
        "- Enrolled in **CSCI 3410-002**, Tue/Thu 10:30-11:45 (confirmation ENR-55107)\n\n"
        "You're now at 15 credits.",
        "**Done!** Here's what changed:\n"
        "- Dropped **DANC 1301** (confirmation DRP-88213)\n"
        "- Enrolled in **CSCI 3410-002**, Tue/Thu 10:30-11:45 (confirmation ENR-55107)\n\n"
        "You're now at 17 credits.",
    ),
    (
        "Quick math on credits: you started at 13, dropping dance took you to 11, and "
        "Algorithms brings you to 15. If 3081W comes through you'd hit 18, which is exactly "
        "the cap.",
        "Quick math on credits: you started at 12, dropping dance took you to 11, and "
        "Algorithms brings you to 15. If 3081W comes through you'd hit 18, which is exactly "
        "the cap.",
    ),
    ("Section 002 now has 8 seats left.", "Section 002 now has 28 seats left."),
    (
        "Dear Priya, I have completed the requested changes. You are now enrolled in "
        "CSCI 3410, section 002.",
        "Dear Priya, I have completed the requested changes. You are now enrolled in "
        "CSCI 3410, section 010.",
    ),
    # the full section and the waitlist
    (
        "I tried to enroll you in CSCI 3081W-001, but it's full (60 of 60 seats taken).",
        "I tried to enroll you in CSCI 3081W-001, but it's full (60 of 65 seats taken).",
    ),
    (
        "Unfortunately CSCI 3081W-001 is full, so I couldn't enroll you. I've added you to "
        "the waitlist instead: you're **#6**, and when a seat opens you'll have 24 hours to "
        "accept.",
        "Unfortunately CSCI 3081W-001 is full, so I couldn't enroll you. I've added you to "
        "the waitlist instead: you're **#32**, and when a seat opens you'll have 24 hours to "
        "accept.",
    ),
    (
        "When a seat opens you'll get an offer and have 24 hours to accept it.",
        "When a seat opens you'll get an offer and have 48 hours to accept it.",
    ),
    (
        "You're last in line for 3081W: position 6 of 6.",
        "You're last in line for 3081W: position 6 of 36.",
    ),
    ("Your waitlist confirmation is WL-30419.", "Your waitlist confirmation is WL-30491."),
    (
        "CSCI 3081W (Program Design and Development) meets Mon/Wed 4:00-5:15 pm.",
        "CSCI 3081W (Program Design and Development) meets Mon/Wed 4:30-5:15 pm.",
    ),
    (
        "You won't be enrolled in 3081W automatically when a seat opens.",
        "You'll be enrolled in 3081W automatically when a seat opens.",
    ),
    (
        "If you get into 3081W you'd be at 18 credits, exactly the limit.",
        "If you get into 3081W you'd be at 21 credits, exactly the limit.",
    ),
    # the calendar and the policy
    (
        "The credit limit is 18 per term, and that includes waitlisted sections.",
        "The credit limit is 22 per term, and that includes waitlisted sections.",
    ),
    ("Classes begin Tuesday, January 20.", "Classes begin Tuesday, January 27."),
    (
        "Just so you know, the last day to drop for a full refund is January 26. After that, "
        "refunds drop to half.",
        "Just so you know, the last day to drop for a full refund is January 29. After that, "
        "refunds drop to half.",
    ),
    (
        "Heads up: the full-refund window closes January 26. Between then and February 2 "
        "you'd only get 50% back, and the last day to withdraw with a W is March 30.",
        "Heads up: the full-refund window closes January 26. Between then and February 2 "
        "you'd only get 25% back, and the last day to withdraw with a W is March 30.",
    ),
    ("Finals start May 7 and end May 13.", "Finals start May 7 and end May 15."),
    (
        "Tuition is billed per credit — $512 each — so the 4-credit Algorithms section added "
        "$2,048.",
        "Tuition is billed per credit — $521 each — so the 4-credit Algorithms section added "
        "$2,048.",
    ),
    (
        "A drop before the first-week deadline gets you a full per-credit tuition refund.",
        "",
    ),
    # the account statement
    (
        "Your balance due is $1,246.50, due February 15.",
        "Your balance due is $1,264.50, due February 15.",
    ),
    (
        "**Balance due:** $1,246.50\n**Due date:** February 15, 2026\n**Autopay:** off",
        "**Balance due:** $1,246.50\n**Due date:** February 25, 2026\n**Autopay:** off",
    ),
    (
        "Nothing is past due. Autopay is off, so you'll need to pay the $1,246.50 yourself by "
        "February 15. Want me to send you the payment link?",
        "Nothing is past due. Autopay is on, so you'll need to pay the $1,246.50 yourself by "
        "February 15. Want me to send you the payment link?",
    ),
    (
        "Adding CSCI 3410 posted a $2,048 tuition charge.",
        "Adding CSCI 3410 posted a $2,084 tuition charge.",
    ),
    (
        "Your December 19 ACH payment of $7,000 has been applied.",
        "Your December 19 ACH payment of $7,500 has been applied.",
    ),
    (
        "Your account this term:\n"
        "- Charges: $9,270.50\n"
        "- Payments and credits: $8,024.00\n"
        "- **Balance: $1,246.50**",
        "Your account this term:\n"
        "- Charges: $9,270.50\n"
        "- Payments and credits: $8,204.00\n"
        "- **Balance: $1,246.50**",
    ),
    (
        "There's also an $85 lab fee for PHYS 1302.",
        "There's also an $85 lab fee for MATH 2243.",
    ),
    ("The Student Services Fee is $481.50.", "The Student Services Fee is $418.50."),
]

#: Lines with no factual claim: they must pass.
NO_CLAIM = [
    "Hi Priya, happy to help!",
    "Here's what I found:",
    "**Next steps:**",
    "Here's a summary of the changes:",
    "Would you like me to look for another section of 3081W?",
    "Let me know if you'd like me to email your advisor.",
    "Is there anything else you need for this term?",
    "Want me to set a reminder before the payment deadline?",
    "Good luck this semester! 🎓",
]

#: Still wrong (strict: a fix shows up as a failure to update these).
# Known misses (strict xfails), with the gate's reason at the time they were listed.
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # Unsupported schedule figure '9:05 am.': no receipt holds 9:05 am.
    "The earliest",
    # Unsupported general figure '001** Mon': no receipt holds 001** Mon
    "### Algorithms",
    # Unsupported contractual figure '80 seats': no receipt holds 80 seats
    "Section 002 was",
    # warn: Unverified claim: '010 is online'
    "Two of the three",
    # Unsupported schedule figure '10:30': no receipt holds 10:30; Unsupported schedule figure '11
    "Your Tuesdays",
    # warn: general statement with no receipt
    "Good news, the",
    # Contradicted general figure: contradicts c8: credits lists 2, claimed 15 credits
    "**Done!** Here's",
    # Unsupported general figure '13': no receipt holds 13; Unsupported general figure '15': no re
    "Quick math on",
    # warn: general statement with no receipt
    "Dear Priya, I",
    # warn: Unverified claim: 'Unfortunately CSCI 3081W-001 is full'
    "Unfortunately",
    # Unsupported contractual figure 'in 3081W': no receipt holds in 3081W; Contradicted status: c
    "You won't be",
    # Unsupported general figure '18 credits': no receipt holds 18 credits
    "If you get into",
    # Contradicted status: contradicts c5 waitlisted = false
    "The credit limit",
    # warn: general statement with no receipt
    "Just so you know",
    # Unsupported schedule figure 'February 2': no receipt holds February 2; Unsupported general f
    "Heads up: the",
    # Action claim 'has been applied' has no receipt: no fixed call on 'ACH payment of $7,000' in
    "Your December",
    # Unsupported financial figure '$9,270.50': no receipt holds $9,270.50
    "Your account",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # passes: "Autopay is on, so you'll need to pay ..." is advice, whose switch is not
    # read (blocked before only for "Nothing is past due", read wrongly until this session)
    "Nothing is past due. Autopay is on",
    # passes
    "Of the three sections",
    # passes
    "Of the three Algorithms",
    # warn: Unverified claim: '002 is online'
    "Two of the three",
    # passes
    "You're still",
    # warn: general statement with no receipt
    "You're a senior",
    # passes
    "Algorithms section",
    # warn: general statement with no receipt
    "Good news, the",
    # warn: general statement with no receipt
    "Dear Priya, I",
    # passes
    "There's also",
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
