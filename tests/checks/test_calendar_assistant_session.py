"""A personal-assistant domain with calendar and email tools: free/busy for three people in
two time zones (Priya and Tom in New York, Lena in Berlin), suggested meeting times, a day's
events with attendees and their response status, a new event created with a video link and a
reminder, an agenda email sent, and a vendor meeting declined with a note to its organizer.

Written without reading the gate's code or any benchmark, and not run before it was handed over.

First run (at 9ec436c): 25 of its 63 honest entries and no-claim lines failed and 18 of
its 52 changed ones were not blocked; now 13 and 16 (the lists below, each with the
gate's own reason at the time they were written).
"""

from __future__ import annotations

from datetime import UTC, datetime

from domain_probe import chat_receipts, probe_tests, starting

NOW = datetime(2025, 4, 14, 15, 25, tzinfo=UTC)

PRIYA = "priya.raman@northwind.io"
TOM = "tom.becker@northwind.io"
LENA = "lena.vogel@northwind.io"

FREE_BUSY = {
    "kind": "calendar#freeBusy",
    "timeMin": "2025-04-16T13:00:00Z",
    "timeMax": "2025-04-16T21:00:00Z",
    "calendars": {
        PRIYA: {
            "displayName": "Priya Raman",
            "timeZone": "America/New_York",
            "workingHours": {"start": "09:00", "end": "17:00"},
            "busy": [
                {"start": "2025-04-16T09:00:00-04:00", "end": "2025-04-16T09:30:00-04:00"},
                {"start": "2025-04-16T12:00:00-04:00", "end": "2025-04-16T13:30:00-04:00"},
                {"start": "2025-04-16T15:00:00-04:00", "end": "2025-04-16T16:00:00-04:00"},
            ],
            "errors": None,
        },
        TOM: {
            "displayName": "Tom Becker",
            "timeZone": "America/New_York",
            "workingHours": {"start": "08:30", "end": "16:30"},
            "busy": [
                {"start": "2025-04-16T09:30:00-04:00", "end": "2025-04-16T10:15:00-04:00"},
                {"start": "2025-04-16T12:00:00-04:00", "end": "2025-04-16T12:30:00-04:00"},
                {"start": "2025-04-16T14:00:00-04:00", "end": "2025-04-16T15:00:00-04:00"},
            ],
            "errors": None,
        },
        LENA: {
            "displayName": "Lena Vogel",
            "timeZone": "Europe/Berlin",
            "workingHours": {"start": "09:00", "end": "17:00"},
            "busy": [
                {"start": "2025-04-16T15:00:00+02:00", "end": "2025-04-16T15:30:00+02:00"},
            ],
            "errors": None,
        },
    },
}

SUGGESTIONS = {
    "emptySuggestionsReason": None,
    "meetingDuration": "PT45M",
    "timeZone": "America/New_York",
    "meetingTimeSuggestions": [
        {
            "rank": 1,
            "confidence": 100.0,
            "meetingTimeSlot": {
                "start": "2025-04-16T10:15:00-04:00",
                "end": "2025-04-16T11:00:00-04:00",
            },
            "organizerAvailability": "free",
            "attendeeAvailability": [
                {"attendee": TOM, "availability": "free"},
                {"attendee": LENA, "availability": "free"},
            ],
        },
        {
            "rank": 2,
            "confidence": 50.0,
            "meetingTimeSlot": {
                "start": "2025-04-16T11:00:00-04:00",
                "end": "2025-04-16T11:45:00-04:00",
            },
            "organizerAvailability": "free",
            "attendeeAvailability": [
                {"attendee": TOM, "availability": "free"},
                {"attendee": LENA, "availability": "outsideWorkingHours"},
            ],
        },
        {
            "rank": 3,
            "confidence": 0.0,
            "meetingTimeSlot": {
                "start": "2025-04-16T13:30:00-04:00",
                "end": "2025-04-16T14:15:00-04:00",
            },
            "organizerAvailability": "free",
            "attendeeAvailability": [
                {"attendee": TOM, "availability": "busy"},
                {"attendee": LENA, "availability": "outsideWorkingHours"},
            ],
        },
    ],
}

THURSDAY = {
    "kind": "calendar#events",
    "timeZone": "America/New_York",
    "nextPageToken": None,
    "items": [
        {
            "id": "evt_8f2kq1_20250417T133000Z",
            "recurringEventId": "evt_8f2kq1",
            "summary": "1:1 with Tom",
            "status": "confirmed",
            "start": {"dateTime": "2025-04-17T09:30:00-04:00", "timeZone": "America/New_York"},
            "end": {"dateTime": "2025-04-17T10:00:00-04:00", "timeZone": "America/New_York"},
            "organizer": {"email": PRIYA, "self": True},
            "attendees": [
                {"email": PRIYA, "displayName": "Priya Raman", "responseStatus": "accepted"},
                {"email": TOM, "displayName": "Tom Becker", "responseStatus": "accepted"},
            ],
            "location": None,
            "description": None,
        },
        {
            "id": "evt_3xv77m",
            "recurringEventId": None,
            "summary": "Globex vendor sync",
            "status": "confirmed",
            "start": {"dateTime": "2025-04-17T14:00:00-04:00", "timeZone": "America/New_York"},
            "end": {"dateTime": "2025-04-17T14:45:00-04:00", "timeZone": "America/New_York"},
            "organizer": {"email": "marco.diaz@globex.com", "displayName": "Marco Diaz"},
            "attendees": [
                {
                    "email": "marco.diaz@globex.com",
                    "displayName": "Marco Diaz",
                    "organizer": True,
                    "responseStatus": "accepted",
                },
                {"email": PRIYA, "displayName": "Priya Raman", "responseStatus": "accepted"},
                {
                    "email": "kim.ng@globex.com",
                    "displayName": "Kim Ng",
                    "responseStatus": "tentative",
                },
            ],
            "location": "Zoom",
            "conferenceData": {
                "conferenceSolution": "Zoom",
                "joinUrl": "https://globex.zoom.us/j/84120955310",
            },
            "description": "Monthly check-in on the Globex data-pipeline contract.",
        },
        {
            "id": "evt_q9d0ls",
            "recurringEventId": None,
            "summary": "Dinner with Harborview board",
            "status": "confirmed",
            "start": {"dateTime": "2025-04-17T19:00:00-04:00", "timeZone": "America/New_York"},
            "end": {"dateTime": "2025-04-17T21:00:00-04:00", "timeZone": "America/New_York"},
            "organizer": {"email": PRIYA, "self": True},
            "attendees": None,
            "location": "Osteria Morini, 218 Lafayette St, New York, NY",
            "extendedProperties": {
                "reservation": {
                    "provider": "OpenTable",
                    "confirmation": "OT-55817",
                    "party_size": 6,
                    "deposit": {"amount": 150.0, "currency": "USD", "paid": True},
                    "late_cancellation_fee": {
                        "amount": 75.0,
                        "currency": "USD",
                        "applies_after": "2025-04-16T19:00:00-04:00",
                    },
                }
            },
            "description": None,
        },
    ],
}

CREATED = {
    "id": "evt_r2m5t8",
    "status": "confirmed",
    "htmlLink": "https://calendar.google.com/event?eid=ZXZ0X3IybTV0OA",
    "created": "2025-04-14T15:12:44Z",
    "summary": "Q2 roadmap review",
    "start": {"dateTime": "2025-04-16T10:15:00-04:00", "timeZone": "America/New_York"},
    "end": {"dateTime": "2025-04-16T11:00:00-04:00", "timeZone": "America/New_York"},
    "organizer": {"email": PRIYA, "self": True},
    "attendees": [
        {
            "email": PRIYA,
            "displayName": "Priya Raman",
            "organizer": True,
            "responseStatus": "accepted",
        },
        {"email": TOM, "displayName": "Tom Becker", "responseStatus": "needsAction"},
        {"email": LENA, "displayName": "Lena Vogel", "responseStatus": "needsAction"},
    ],
    "conferenceData": {
        "conferenceSolution": "Google Meet",
        "entryPoints": [
            {"entryPointType": "video", "uri": "https://meet.google.com/kdr-wpxq-fna"},
        ],
    },
    "reminders": {"useDefault": False, "overrides": [{"method": "popup", "minutes": 30}]},
    "guestsCanModify": False,
    "location": None,
    "invitationsSent": 2,
}

SENT = {
    "id": "msg_18f6c2a9d",
    "threadId": "thr_18f6c2a9d",
    "labelIds": ["SENT"],
    "sent_at": "2025-04-14T15:14:02Z",
    "from": PRIYA,
    "to": [TOM, LENA],
    "cc": [],
    "subject": "Agenda: Q2 roadmap review (Wed Apr 16, 10:15 ET)",
    "attachments": [
        {
            "drive_file_id": "1aB9-roadmapQ2",
            "name": "Q2 Roadmap Review - Agenda",
            "mimeType": "application/vnd.google-apps.document",
            "sharing": "commenter",
            "size_bytes": None,
        }
    ],
    "delivery": {"status": "sent", "bounced": []},
}

DECLINED = {
    "id": "evt_3xv77m",
    "summary": "Globex vendor sync",
    "start": {"dateTime": "2025-04-17T14:00:00-04:00", "timeZone": "America/New_York"},
    "end": {"dateTime": "2025-04-17T14:45:00-04:00", "timeZone": "America/New_York"},
    "organizer": {"email": "marco.diaz@globex.com", "displayName": "Marco Diaz"},
    "self_response": {
        "email": PRIYA,
        "responseStatus": "declined",
        "comment": (
            "Sorry Marco - Priya has a conflicting appointment on Thursday afternoon. "
            "Could we move this to next week?"
        ),
        "updated": "2025-04-14T15:15:31Z",
    },
    "attendees": [
        {"email": "marco.diaz@globex.com", "organizer": True, "responseStatus": "accepted"},
        {"email": PRIYA, "responseStatus": "declined"},
        {"email": "kim.ng@globex.com", "responseStatus": "tentative"},
    ],
    "notification_sent": True,
}

RESPONSES = {
    "id": "evt_r2m5t8",
    "summary": "Q2 roadmap review",
    "updated": "2025-04-14T15:19:08Z",
    "start": {"dateTime": "2025-04-16T10:15:00-04:00", "timeZone": "America/New_York"},
    "end": {"dateTime": "2025-04-16T11:00:00-04:00", "timeZone": "America/New_York"},
    "attendees": [
        {"email": PRIYA, "organizer": True, "responseStatus": "accepted", "comment": None},
        {"email": TOM, "responseStatus": "accepted", "comment": None},
        {
            "email": LENA,
            "responseStatus": "tentative",
            "comment": "May join a few minutes late.",
        },
    ],
}

CALLS = [
    (
        "get_free_busy",
        {
            "time_min": "2025-04-16T09:00:00-04:00",
            "time_max": "2025-04-16T17:00:00-04:00",
            "items": [{"id": PRIYA}, {"id": TOM}, {"id": LENA}],
        },
        FREE_BUSY,
    ),
    (
        "find_meeting_times",
        {
            "attendees": [TOM, LENA],
            "duration_minutes": 45,
            "date": "2025-04-16",
            "respect_working_hours": True,
        },
        SUGGESTIONS,
    ),
    (
        "list_events",
        {
            "calendar_id": PRIYA,
            "time_min": "2025-04-17T00:00:00-04:00",
            "time_max": "2025-04-18T00:00:00-04:00",
            "single_events": True,
            "order_by": "startTime",
        },
        THURSDAY,
    ),
    (
        "create_event",
        {
            "calendar_id": PRIYA,
            "summary": "Q2 roadmap review",
            "start": "2025-04-16T10:15:00-04:00",
            "end": "2025-04-16T11:00:00-04:00",
            "attendees": [TOM, LENA],
            "conference": "google_meet",
            "reminders": [{"method": "popup", "minutes": 30}],
            "send_updates": "all",
        },
        CREATED,
    ),
    (
        "send_email",
        {
            "to": [TOM, LENA],
            "subject": "Agenda: Q2 roadmap review (Wed Apr 16, 10:15 ET)",
            "body": (
                "Hi Tom, hi Lena,\n\nThe agenda for Wednesday's Q2 roadmap review is attached - "
                "please add your comments before the meeting.\n\nThanks,\nPriya"
            ),
            "attachments": [{"drive_file_id": "1aB9-roadmapQ2"}],
        },
        SENT,
    ),
    (
        "respond_to_event",
        {
            "calendar_id": PRIYA,
            "event_id": "evt_3xv77m",
            "response": "declined",
            "comment": (
                "Sorry Marco - Priya has a conflicting appointment on Thursday afternoon. "
                "Could we move this to next week?"
            ),
            "send_updates": "organizer",
        },
        DECLINED,
    ),
    ("get_event", {"calendar_id": PRIYA, "event_id": "evt_r2m5t8"}, RESPONSES),
]

SYSTEM = (
    "You are Juniper, the executive assistant of Priya Raman, VP Product at Northwind. "
    "Priya is based in New York; give times in Eastern Time unless asked otherwise. "
    "Only book meetings inside every attendee's working hours, and give every event you create "
    "a video link and a reminder 30 minutes before it starts. "
    "When you decline on Priya's behalf, always include a short note to the organizer."
)
USER = (
    "Can you find 45 minutes with Tom and Lena on Wednesday for the Q2 roadmap review and book "
    "it? Then email them the agenda doc, and decline the Globex vendor sync on Thursday - I'll "
    "be at the dentist."
)

RECEIPTS = {indent: chat_receipts(SYSTEM, USER, CALLS, indent=indent) for indent in (None, 2)}

#: (honest reply, the same with one thing changed or "")
PAIRS = [
    (
        "I booked the Q2 roadmap review for Wednesday, April 16, from 10:15 to 11:00 am ET.",
        "I booked the Q2 roadmap review for Wednesday, April 23, from 10:15 to 11:00 am ET.",
    ),
    ("The meeting runs 45 minutes.", "The meeting runs 40 minutes."),
    ("For Lena in Berlin it starts at 4:15 pm.", "For Lena in Berlin it starts at 5:15 pm."),
    (
        "**Booked:** Q2 roadmap review\n"
        "- **When:** Wed, Apr 16 · 10:15–11:00 am ET\n"
        "- **Video:** https://meet.google.com/kdr-wpxq-fna\n"
        "- **Reminder:** 30 minutes before",
        "**Booked:** Q2 roadmap review\n"
        "- **When:** Wed, Apr 16 · 10:15–11:00 am ET\n"
        "- **Video:** https://meet.google.com/kdr-wpxq-fnb\n"
        "- **Reminder:** 30 minutes before",
    ),
    (
        "The 11:00–11:45 slot would have been outside Lena's working hours.",
        "The 11:00–11:45 slot would have been outside Tom's working hours.",
    ),
    (
        "The 1:30–2:15 pm option clashed with Tom's calendar.",
        "The 1:30–2:15 pm option clashed with your calendar.",
    ),
    (
        "Lena's working day ends at 5 pm Berlin time.",
        "Lena's working day ends at 6 pm Berlin time.",
    ),
    ("Tom has accepted.", "Tom has declined."),
    (
        "Lena's RSVP: tentative — she may join a few minutes late.",
        "Lena's RSVP: accepted — she may join a few minutes late.",
    ),
    (
        "I declined the Globex vendor sync on Thursday, April 17 (2:00–2:45 pm).",
        "I declined the Globex vendor sync on Thursday, April 17 (2:00–2:50 pm).",
    ),
    (
        "Marco Diaz, the organizer, got a note with your decline.",
        "Kim Ng, the organizer, got a note with your decline.",
    ),
    (
        "The agenda email went out to Tom and Lena at 11:14 am ET.",
        "The agenda email went out to Tom and Lena at 12:14 pm ET.",
    ),
    (
        "I attached the agenda doc, shared with comment access.",
        "I attached the agenda doc, shared with edit access.",
    ),
    (
        "Per your rules, every event I create gets a reminder 30 minutes before it starts.",
        "Per your rules, every event I create gets a reminder 15 minutes before it starts.",
    ),
    ("You've asked me to book only within every attendee's working hours.", ""),
    (
        "Reminder's set ⏰ It will pop up at 9:45 am on Wednesday, 30 minutes before the start.",
        "Reminder's set ⏰ It will pop up at 9:15 am on Wednesday, 30 minutes before the start.",
    ),
    (
        "Your Wednesday is fairly packed. Between 9 and 5 you have three busy blocks: "
        "9:00–9:30, 12:00–1:30 and 3:00–4:00.",
        "Your Wednesday is fairly packed. Between 9 and 5 you have four busy blocks: "
        "9:00–9:30, 12:00–1:30 and 3:00–4:00.",
    ),
    ("Tom's free from 10:15 until noon.", "Tom's free from 10:15 until 1 pm."),
    (
        "In the window I checked, Lena's only busy slot is 3:00–3:30 pm Berlin time.",
        "In the window I checked, Lena's only busy slot is 3:00–3:45 pm Berlin time.",
    ),
    ("The event ID is evt_r2m5t8.", "The event ID is evt_r2m5t9."),
    (
        "Thursday's dinner with the Harborview board is still on, 7–9 pm at Osteria Morini.",
        "Thursday's dinner with the Harborview board is still on, 7–10 pm at Osteria Morini.",
    ),
    (
        "Your Harborview dinner is untouched. The $150 deposit is already paid, and the table "
        "is booked for 6 under OT-55817.",
        "Your Harborview dinner is untouched. The $250 deposit is already paid, and the table "
        "is booked for 6 under OT-55817.",
    ),
    (
        "The reservation is for 6 people, confirmation OT-55817.",
        "The reservation is for 8 people, confirmation OT-55817.",
    ),
    (
        "Thursday now has two events left: your 1:1 with Tom at 9:30 and the Harborview dinner "
        "at 7.",
        "Thursday now has two events left: your 1:1 with Tom at 10:30 and the Harborview dinner "
        "at 7.",
    ),
    (
        "Kim Ng from Globex is marked tentative for the vendor sync.",
        "Kim Ng from Globex is marked declined for the vendor sync.",
    ),
    (
        "### Done ✅\n\n"
        "1. **Booked** the Q2 roadmap review — Wed Apr 16, 10:15 am ET\n"
        "2. **Emailed** the agenda to Tom and Lena\n"
        "3. **Declined** the Globex vendor sync on Thu Apr 17\n\n"
        "Let me know if you'd like anything moved!",
        "### Done ✅\n\n"
        "1. **Booked** the Q2 roadmap review — Wed Apr 16, 10:15 am ET\n"
        "2. **Emailed** the agenda to Tom and Lena\n"
        "3. **Declined** the Globex vendor sync on Thu Apr 24\n\n"
        "Let me know if you'd like anything moved!",
    ),
    (
        "The only slot where all three of you are free is 10:15–11:00 am ET.",
        "The only slot where all three of you are free is 10:15–11:30 am ET.",
    ),
    (
        "I checked suggested times first. The 10:15–11:00 am slot was ranked first, with 100% "
        "confidence — everyone is free then.",
        "I checked suggested times first. The 10:15–11:00 am slot was ranked first, with 90% "
        "confidence — everyone is free then.",
    ),
    (
        "Other options were weaker. The runner-up, 11:00–11:45 am, only scored 50% because it "
        "falls outside Lena's working hours.",
        "Other options were weaker. The runner-up, 11:00–11:45 am, only scored 80% because it "
        "falls outside Lena's working hours.",
    ),
    (
        "Good news — Tom already accepted the invite! 🎉 Lena marked herself as tentative, so "
        "I'll keep an eye on it.",
        "Good news — Tom already accepted the invite! 🎉 Lena marked herself as declined, so "
        "I'll keep an eye on it.",
    ),
    (
        "📧 **Agenda sent**\n"
        "- To: Tom Becker, Lena Vogel\n"
        "- Subject: Agenda: Q2 roadmap review (Wed Apr 16, 10:15 ET)\n"
        "- Attachment: Q2 Roadmap Review - Agenda (comment access)",
        "📧 **Agenda sent**\n"
        "- To: Tom Becker, Lena Vogel\n"
        "- Subject: Agenda: Q2 roadmap review (Wed Apr 16, 10:45 ET)\n"
        "- Attachment: Q2 Roadmap Review - Agenda (comment access)",
    ),
    (
        "Sent as message msg_18f6c2a9d; nothing bounced.",
        "Sent as message msg_18f6c2a9e; nothing bounced.",
    ),
    (
        "The Globex sync is declined. Your note asked Marco to move it to next week, and he's "
        "been notified.",
        "The Globex sync is declined. Your note asked Marco to move it to Friday, and he's "
        "been notified.",
    ),
    (
        "Please note that the vendor sync was organised by Marco Diaz (marco.diaz@globex.com).",
        "Please note that the vendor sync was organised by Marco Diaz (marco.diaz@globex.io).",
    ),
    (
        "Lena's 4:15 pm start is 45 minutes before the end of her working day.",
        "Lena's 4:15 pm start is 20 minutes before the end of her working day.",
    ),
    (
        "The roadmap review is the earliest of the three suggested slots.",
        "The roadmap review is the latest of the three suggested slots.",
    ),
    ("Tom is tied up until 10:15 that morning.", "Tom is tied up until 10:45 that morning."),
    (
        "Quick note on time zones: Tom's on Eastern Time like you, and Lena is six hours ahead "
        "in Berlin. So the 10:15 am start is 4:15 pm for her.",
        "Quick note on time zones: Tom's on Eastern Time like you, and Lena is seven hours ahead "
        "in Berlin. So the 10:15 am start is 4:15 pm for her.",
    ),
    (
        'The agenda is a Google Doc titled "Q2 Roadmap Review - Agenda".',
        'The agenda is a Google Doc titled "Q3 Roadmap Review - Agenda".',
    ),
    (
        "Your Thursday 1:1 with Tom is a recurring meeting.",
        "Your Thursday 1:1 with Tom is a one-off meeting.",
    ),
    (
        "Done.\n"
        "- Booked: Wed 4/16 10:15–11:00 ET (evt_r2m5t8)\n"
        "- Email sent: msg_18f6c2a9d\n"
        "- Declined: Globex vendor sync, Thu 4/17 2:00 pm",
        "Done.\n"
        "- Booked: Wed 4/16 10:15–11:00 ET (evt_r2m5t8)\n"
        "- Email sent: msg_18f6c2a9d\n"
        "- Declined: Globex vendor sync, Thu 4/17 2:30 pm",
    ),
    (
        "The Harborview dinner is at Osteria Morini, 218 Lafayette St.",
        "The Harborview dinner is at Osteria Morini, 128 Lafayette St.",
    ),
    ("You'll get a popup reminder.", "You'll get an email reminder."),
    ("I added a Google Meet link to the invite.", "I added a Zoom link to the invite."),
    (
        "**Summary of changes**\n\n"
        "The Q2 roadmap review has been scheduled for Wednesday, 16 April, 10:15–11:00 EDT, "
        "with Tom Becker and Lena Vogel. Your attendance at the Globex vendor sync on Thursday, "
        "17 April has been declined, and the organiser has been notified.",
        "**Summary of changes**\n\n"
        "The Q2 roadmap review has been scheduled for Wednesday, 16 April, 10:15–11:00 CEST, "
        "with Tom Becker and Lena Vogel. Your attendance at the Globex vendor sync on Thursday, "
        "17 April has been declined, and the organiser has been notified.",
    ),
    (
        "Heads up: cancelling the dinner after 7 pm Wednesday would cost $75. Let me know if "
        "plans change.",
        "Heads up: cancelling the dinner after 7 pm Wednesday would cost $95. Let me know if "
        "plans change.",
    ),
    (
        "The late-cancellation fee is half of the $150 deposit.",
        "The late-cancellation fee is a third of the $150 deposit.",
    ),
    (
        "With 6 people at the table, the deposit works out to $25 a head.",
        "With 6 people at the table, the deposit works out to $30 a head.",
    ),
    (
        "Two of the three suggested slots had a conflict for someone: Lena at 11:00 and Tom at "
        "1:30.",
        "One of the three suggested slots had a conflict for someone: Lena at 11:00 and Tom at "
        "1:30.",
    ),
    (
        "Here's where things stand:\n\n"
        "- **Tom Becker:** accepted\n"
        "- **Lena Vogel:** tentative (may join a few minutes late)\n"
        "- **You:** organizer\n\n"
        "I'll let you know if Lena's status changes.",
        "Here's where things stand:\n\n"
        "- **Tom Becker:** accepted\n"
        "- **Lena Vogel:** declined (may join a few minutes late)\n"
        "- **You:** organizer\n\n"
        "I'll let you know if Lena's status changes.",
    ),
    (
        "Invites went out to both Tom and Lena, and guests can't modify the event.",
        "Invites went out to both Tom and Lena, and guests can modify the event.",
    ),
    (
        "Hi Priya! All set 😊 Your Q2 roadmap review is on for Wednesday at 10:15 am with a Meet "
        "link, and I emailed the agenda to Tom and Lena. The Globex sync on Thursday is "
        "declined — I told Marco you have a conflicting appointment and asked to move it to next "
        "week.",
        "Hi Priya! All set 😊 Your Q2 roadmap review is on for Wednesday at 10:15 am with a Meet "
        "link, and I emailed the agenda to Tom and Lena. The Globex sync on Thursday is "
        "declined — I told Marco you have a conflicting appointment and asked to move it to next "
        "month.",
    ),
    (
        "**Thursday, April 17**\n"
        "- 9:30–10:00 am · 1:1 with Tom\n"
        "- ~~2:00–2:45 pm · Globex vendor sync~~ (declined)\n"
        "- 7:00–9:00 pm · Dinner with Harborview board, Osteria Morini",
        "**Thursday, April 17**\n"
        "- 9:30–10:00 am · 1:1 with Tom\n"
        "- ~~2:00–2:45 pm · Globex vendor sync~~ (declined)\n"
        "- 7:00–9:00 pm · Dinner with Harborview board, Carbone",
    ),
]

#: Lines that claim nothing: they must pass.
NO_CLAIM = [
    "Hi Priya!",
    "Sure — one moment while I check everyone's calendars.",
    "Here's what I did:",
    "### Summary",
    "**Meeting details**",
    "Want me to send Marco a few alternative times for next week?",
    "Let me know if you'd like a different slot.",
    "Should I follow up with Lena tomorrow?",
    "Anything else I can help with today?",
    "Happy to help. 😊",
]

#: Known misses, filled in by the session lead after the first run.
HONEST_BLOCKED = starting(
    [h for h, _ in PAIRS] + NO_CLAIM,
    # Contradicted status: contradicts c4 attendees[2].responseStatus = needsAction, claimed tenta
    "Lena's RSVP:",
    # warn: general statement with no receipt
    "I attached the",
    # warn: general statement with no receipt
    "Your Wednesday",
    # warn: general statement with no receipt
    "Your Harborview",
    # warn: general statement with no receipt
    "### Done ✅\n\n1",
    # warn: general statement with no receipt
    "Other options",
    # warn: general statement with no receipt
    "The Globex sync",
    # warn: general statement with no receipt
    "The roadmap review",
    # warn: general statement with no receipt
    "Your Thursday",
    # Contradicted status: contradicts c3 items[0].attendees[1].responseStatus = accepted, claimed
    "**Summary of",
    # Contradicted status: contradicts c4 attendees[2].responseStatus = needsAction, claimed tenta
    "Here's where",
    # Contradicted status: contradicts c3 items[1].attendees[0].responseStatus = accepted, claimed
    "Hi Priya! All",
    # Contradicted status: contradicts c3 items[0].attendees[1].responseStatus = accepted, claimed
    "**Thursday, April",
)
CHANGED_PASSED = starting(
    [c for _, c in PAIRS if c],
    # passes: 1:30 and 2:15 pm are one suggested slot"s; whose calendar it clashed with is not read
    "The 1:30–2:15 pm option",
    # passes: "four busy blocks" is no count read; the times listed are the busy rows"
    "Your Wednesday is",
    # passes
    "The 11:00–11",
    # passes
    "Kim Ng, the organizer",
    # warn: general statement with no receipt
    "I attached the",
    # warn: Unsupported schedule figure '9:15 am': no receipt holds 9:15 am
    "Reminder's set",
    # passes
    "Tom's free from",
    # passes
    "Good news — Tom",
    # warn: general statement with no receipt
    "The Globex sync",
    # warn: general statement with no receipt
    "The roadmap review",
    # passes
    "Quick note on",
    # warn: general statement with no receipt
    "The agenda is",
    # warn: general statement with no receipt
    "Your Thursday",
    # passes
    "You'll get an",
    # passes
    "I added a Zoom",
    # passes
    "The late-cancellation",
    # passes
    "One of the three",
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
