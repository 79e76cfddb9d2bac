"""Sentences that restate what one record holds, with no figure to check (payroll, food
delivery, telecom and CI probes of the thirteenth session), end to end: a state told in
the passive ("Your request has been approved", by someone else, after the agent's
call), a yes/no field named for the object and the act ("restaurant_notified"), and a
statement made of one row's values ("The ticket has high priority and is assigned to
Field Ops - Portland"), with the level it gives on a scale ("high priority") read
against the field of that name. A changed twin is never backed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from receiptgate.claims.hardfacts import extract_hard_facts
from tool_transcripts import tool_transcript

NOW = datetime(2025, 5, 6, 12, tzinfo=UTC)

SUBMITTED = (
    "create_leave_request",
    {"employee_id": "E-1", "start_date": "2025-05-26"},
    {"request": {"id": "LR-88213", "status": "submitted", "decided_at": None}},
)
DECIDED = (
    "get_leave_request",
    {"request_id": "LR-88213"},
    {
        "request": {
            "id": "LR-88213",
            "status": "approved",
            "decided_by": {"id": "EMP-01190", "name": "Jonas Weber"},
        }
    },
)
REPORT = (
    "report_missing_items",
    {"order_id": "ORD-58QK21"},
    {"report": {"id": "MIR-20931", "status": "approved", "restaurant_notified": True}},
)
TICKET = (
    "get_outage_ticket",
    {"ticket_id": "TK-770341"},
    {
        "ticket": {
            "id": "TK-770341",
            "status": "in_progress",
            "priority": "high",
            "assigned_team": "Field Ops - Portland",
        }
    },
)
EMPLOYEE = (
    "get_employee",
    {"employee_id": "E-1"},
    {"employee": {"id": "E-1", "location": {"site": "Hamburg HQ", "country": "DE"}}},
)
PULL = (
    "github_get_pull",
    {"pull_number": 482},
    {
        "number": 482,
        "state": "open",
        "merged": False,
        "mergeable": True,
        "head": {"ref": "feat/payout-idempotency"},
        "base": {"ref": "main"},
    },
)


def _verdict(text: str, receipts: list[Receipt]) -> str:
    return Gate().validate(text, receipts=receipts, now=NOW).verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the request the agent submitted, approved by the manager since
        ("Your request has been approved.", "pass"),
        ("Your request LR-88213 has been approved by Jonas Weber.", "pass"),
        # a state the request does not hold still asks for a call that made it so
        ("Your request has been cancelled.", "block"),
    ],
)
def test_a_state_told_in_the_passive_is_the_records_state(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([SUBMITTED, DECIDED])) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The restaurant has been notified about the missing items.", "pass"),
        ("The restaurant has not been notified about the missing items.", "block"),
    ],
)
def test_a_yes_no_field_named_for_the_object_and_the_act(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([REPORT])) == verdict


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        ("The ticket has high priority and is assigned to Field Ops - Portland.", [TICKET], "pass"),
        # a level of the scale the ticket's priority is on, another than it holds
        ("The ticket has low priority and is assigned to Field Ops - Portland.", [TICKET], "block"),
        ("Priority: critical.", [TICKET], "block"),
        # one word no field of the row holds: a statement with no receipt, as before
        ("The ticket is assigned to Field Ops - Seattle.", [TICKET], "flag"),
        ("You're based at Hamburg HQ.", [EMPLOYEE], "pass"),
        ("You're based at Berlin HQ.", [EMPLOYEE], "flag"),
        # the pull request's head and base are object fields of one row
        ("It merges feat/payout-idempotency into main.", [PULL], "pass"),
        ("It merges feat/payout-idempotency into develop.", [PULL], "flag"),
    ],
)
def test_a_statement_made_of_one_rows_values(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert _verdict(text, tool_transcript(calls)) == verdict


ISSUE = (
    "github_get_issue",
    {"repo": "tidewater/pagekit", "number": 482},
    {
        "number": 482,
        "state": "open",
        "user": {"login": "mkowalski", "id": 3391207},
        "assignee": None,
        "created_at": "2025-10-02T08:17:45Z",
    },
)
ACCOUNT = (
    "get_account",
    {"account_id": "A-1"},
    {
        "account": {
            "id": "A-1",
            "status": "active",
            "open_since": "2021-06-18",
            "first_name": "Priya",
            "last_name": "Raman",
        }
    },
)


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # who a role's field names: a login, a person object, or null (no one)
        ("Issue #482 was opened by mkowalski.", [ISSUE], "pass"),
        ("Issue #482 was opened by jkowalski.", [ISSUE], "block"),
        ("Issue #482 is assigned to dchen.", [ISSUE], "block"),
        # a weekday beside a date must be the date's own
        ("The issue was opened on Thursday, October 2.", [ISSUE], "pass"),
        ("The issue was opened on Friday, October 2.", [ISSUE], "block"),
        # an active account is open; a greeting is no one's full name
        ("Your account has been open since 2021.", [ACCOUNT], "pass"),
        ("Hi Priya, thanks for getting in touch!", [ACCOUNT], "pass"),
    ],
)
def test_roles_weekdays_and_greetings(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert _verdict(text, tool_transcript(calls)) == verdict


BILLS = (
    "list_bills",
    {"account_id": "A-1"},
    {
        "bills": [
            {"id": "BL-3", "status": "unpaid", "total": 186.62},
            {"id": "BL-2", "status": "overdue", "total": 132.61},
            {"id": "BL-1", "status": "paid", "total": 108.47},
        ]
    },
)


def test_rows_counted_by_a_state_that_covers_others() -> None:
    # an overdue bill is unpaid too: rows counted by the states the word covers
    assert _verdict("You have 2 unpaid bills.", tool_transcript([BILLS])) == "pass"


BRANCH = (
    "get_branch",
    {"branch_id": "SFD"},
    {
        "branch": {
            "id": "SFD",
            "name": "San Francisco Downtown",
            "holiday_hours": [{"date": "2025-10-13", "open": "09:00", "close": "15:00"}],
        }
    },
)
RESERVATION = (
    "get_reservation",
    {"confirmation": "RZ-48213"},
    {"reservation": {"confirmation": "RZ-48213", "pickup": "2025-10-14T10:00:00-07:00"}},
)
HOLD = (
    "authorize_deposit_hold",
    {"confirmation": "RZ-48213", "amount": 400.0},
    {"hold": {"id": "H-1", "amount": 400.0, "status": "authorized"}},
)


def test_a_holidays_date_is_no_date_of_the_branch() -> None:
    # the date of a row of one of the branch's lists (a holiday) is no rival of the date
    # a sentence gives beside the branch's name
    text = "Pickup is Tuesday, October 14 at San Francisco Downtown."
    result = Gate().validate(text, receipts=tool_transcript([BRANCH]), now=NOW)
    assert not [e for s in result.sentences for e in s.evidence if e.relation == "contradicts"]


def test_a_range_of_days_before_a_colon_ends_on_a_day() -> None:
    facts = extract_hard_facts("Here's what's available for Oct 14–17:", now=NOW)
    assert [(h.text, h.kind) for h in facts] == [("Oct 14", "date"), ("17", "date")]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a call named for the thing acted on ("deposit hold"), with its amount
        ("I've placed a $400 deposit hold.", "pass"),
        ("I've placed a $250 deposit hold.", "block"),
        ("Just a moment while I check that for you.", "pass"),
    ],
)
def test_a_rental_reservation(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([BRANCH, RESERVATION, HOLD])) == verdict


def test_a_confirmation_number_names_its_reservation() -> None:
    # "confirmation": "RZ-48213" is the reservation's id, not only a word of the user's
    booked = (
        "get_reservation",
        {"confirmation": "RZ-48213"},
        {"reservation": {"confirmation": "RZ-48213", "status": "confirmed"}},
    )
    calls = [booked, HOLD]
    assert _verdict("Your reservation RZ-48213 is cancelled.", tool_transcript(calls)) == "block"


EVENT = (
    "create_event",
    {"summary": "Q2 roadmap review"},
    {
        "event": {
            "id": "ev1",
            "start": {"dateTime": "2025-04-16T10:15:00-04:00"},
            "reminders": {"overrides": [{"method": "popup", "minutes": 30}]},
        }
    },
)


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # a time a span before or after a recorded one
        ("The reminder pops up at 9:45 am, 30 minutes before the start.", [EVENT], "pass"),
        ("The reminder pops up at 9:15 am, 30 minutes before the start.", [EVENT], "block"),
        # "has no X" of a field X that is null, or holds a value
        ("Issue #482 has no assignee yet.", [ISSUE], "pass"),
        ("Issue #482 has no user.", [ISSUE], "block"),
    ],
)
def test_shifted_times_and_empty_fields(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert _verdict(text, tool_transcript(calls)) == verdict
