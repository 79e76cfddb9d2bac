"""Shapes of records met on unseen traffic (telecom, food delivery, cloud and calendar
probes of the twelfth session), end to end: a span between two recorded moments, a
state object's name, a field named for its unit, a person named by a possessive first
name, the more specific of two yes/no fields, an early clock hour written without am/pm,
an ordering over a list whose rows hold the value in an object field."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt
from tool_transcripts import tool_transcript

NOW = datetime(2025, 11, 14, 21, tzinfo=UTC)

ORDER = (
    "get_order",
    {"order_id": "ORD-7"},
    {
        "order": {"id": "ORD-7", "status": "delivered", "placed_at": "2025-11-14T18:42:10Z"},
        "events": [
            {"status": "courier_assigned", "at": "2025-11-14T18:58:37Z"},
            {"status": "delivered", "at": "2025-11-14T19:44:20Z"},
        ],
    },
)
INSTANCES = (
    "describe_instances",
    {},
    {
        "Instances": [
            {"InstanceId": "i-0b83e6f1a2", "State": {"Code": 80, "Name": "stopped"}},
            {"InstanceId": "i-0c11aa22bb", "State": {"Code": 16, "Name": "running"}},
        ]
    },
)
ACCOUNT = (
    "get_account",
    {"account_id": "4417"},
    {
        "lines": [
            {
                "user_name": "Arjun Raman",
                "plan": {"name": "Unlimited Basic", "monthly_price": 40.0},
                "premium_remaining_gb": 26.16,
                "throttled": False,
                "hotspot_throttled": True,
            },
            {
                "user_name": "Maya Raman",
                "plan": {"name": "Flex 10GB", "monthly_price": 30.0},
                "premium_remaining_gb": None,
                "throttled": False,
                "hotspot_throttled": False,
            },
        ],
        "currency": "USD",
    },
)
DAY = (
    "get_free_busy",
    {"date": "2025-11-19"},
    {"busy": [{"start": "2025-11-19T13:30:00-05:00", "end": "2025-11-19T14:15:00-05:00"}]},
)


def _verdict(text: str, receipts: list[Receipt]) -> str:
    return Gate().validate(text, receipts=receipts, now=NOW).verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("From placing the order to delivery took 62 minutes.", "pass"),
        ("From placing the order to delivery took 64 minutes.", "block"),
        ("The courier was assigned 16 minutes after you ordered.", "pass"),
        ("The courier was assigned 26 minutes after you ordered.", "block"),
    ],
)
def test_a_span_between_two_recorded_moments_is_worked_out(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([ORDER])) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("i-0b83e6f1a2 is stopped.", "pass"),
        ("i-0b83e6f1a2 is terminated.", "block"),
        ("i-0c11aa22bb is running.", "pass"),
    ],
)
def test_a_state_objects_name_is_its_records_state(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([INSTANCES])) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a field named for its unit is a measure, though "premium" is a money word
        ("Arjun has 26.16 GB of premium data left.", "pass"),
        # the possessive first name picks the person's row
        ("Arjun's hotspot was throttled.", "pass"),
        ("Maya's hotspot was throttled.", "block"),
        # the ordering is over each line's plan, not over one line's fields
        ("Maya's plan is the cheapest on the account at $30.", "pass"),
        ("Arjun's plan is the cheapest on the account at $40.", "block"),
    ],
)
def test_rows_of_a_family_account(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([ACCOUNT])) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [("You're busy 1:30–2:15 pm.", "pass"), ("You're busy from 1:30 to 2:15.", "pass")],
)
def test_an_early_hour_without_am_or_pm_is_either_half_of_the_day(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([DAY])) == verdict


def test_an_eight_gigabyte_figure_is_not_the_8_of_a_model_name() -> None:
    phone = ("get_device", {}, {"device": {"model": "Pixel 8", "hotspot_gb": 5}})
    assert _verdict("Your hotspot limit is 8 GB.", tool_transcript([phone])) == "block"


CALENDAR = (
    "get_events",
    {"date": "2025-04-16"},
    {
        "attendees": [
            {
                "displayName": "Tom Becker",
                "timeZone": "America/New_York",
                "responseStatus": "accepted",
            },
            {
                "displayName": "Lena Vogel",
                "timeZone": "Europe/Berlin",
                "responseStatus": "tentative",
            },
            {"displayName": "Kim Ng", "responseStatus": "declined"},
        ],
        "start": {"dateTime": "2025-04-16T10:15:00-04:00"},
        "email": {"status": "sent", "sent_at": "2025-04-14T15:14:02Z"},
    },
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the same moment in the zone the records give Lena
        ("For Lena in Berlin it starts at 4:15 pm.", "pass"),
        ("For Lena in Berlin it starts at 5:15 pm.", "block"),
        # a UTC stamp said in New York's time
        ("The email went out at 11:14 am.", "pass"),
        # a camelCase name field names its row; a short first name picks it
        ("Tom has accepted.", "pass"),
        ("Tom has declined.", "block"),
    ],
)
def test_times_in_the_zones_the_records_name(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([CALENDAR])) == verdict


LEAVE = (
    "get_leave_balances",
    {"employee_id": "EMP-04417"},
    {
        "balances": [
            {
                "type": "annual_leave",
                "unit": "days",
                "entitlement": 30,
                "taken": 9,
                "remaining": 24,
            },
            {"type": "sick_leave", "unit": "days", "taken_ytd": 2},
        ],
        "request": {"id": "LR-88213", "status": "approved", "working_days": 4},
    },
)
POLICY = {"role": "system", "content": "Employees get 30 days of annual leave a year."}


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a "unit": "days" beside the values; the rule's allowance is no balance
        ("You have 24 days of annual leave remaining.", "pass"),
        ("You have 27 days of annual leave remaining.", "block"),
        # days less days, of the balance and the request (not less another kind of leave)
        ("After this request you will have 20 days of annual leave left.", "pass"),
        ("Your request LR-88213 is marked as approved.", "pass"),
    ],
)
def test_a_leave_balance_in_days(text: str, verdict: str) -> None:
    assert _verdict(text, tool_transcript([LEAVE], before=[POLICY])) == verdict


PULL = (
    "github_get_pull_request",
    {"pull_number": 482},
    {
        "number": 482,
        "merged": False,
        "commits": 6,
        "additions": 412,
        "deletions": 87,
        "head": {"sha": "9c1e4b70d2a5f6e8c3b1a9d7e5f4c2b0a8d6e4f2"},
    },
)
CHECK_RUNS = (
    "github_list_check_runs",
    {"ref": "9c1e4b7"},
    {
        "check_runs": [
            {
                "name": "unit-tests (3.12)",
                "status": "completed",
                "conclusion": "failure",
                "started_at": "2025-03-11T13:02:12Z",
                "completed_at": "2025-03-11T13:09:51Z",
            },
            {"name": "unit-tests (3.11)", "status": "completed", "conclusion": "success"},
        ]
    },
)
REVIEWS = (
    "github_list_reviews",
    {"pull_number": 482},
    [
        {"user": {"login": "jchen"}, "state": "APPROVED"},
        {"user": {"login": "asantos"}, "state": "APPROVED"},
        {"user": {"login": "tkowalski"}, "state": "COMMENTED"},
    ],
)
MERGE = ("github_merge_pull_request", {"pull_number": 482}, {"merged": True, "sha": "e41a7c0"})
CHECKS = (
    "run_shell",
    {"command": "gh pr checks 482"},
    {"exit_code": 0, "stdout": "All checks were successful\n0 cancelled, 0 failing, 2 successful"},
)
USAGE = (
    "get_actions_usage",
    {},
    {"usageItems": [{"sku": "Actions Linux 8-core", "quantity": 1840, "unitType": "Minutes"}]},
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a runner's span, to the second, between the check run's two moments
        ("The failing job, unit-tests (3.12), ran for 7m 39s.", "pass"),
        ("The failing job, unit-tests (3.12), ran for 7m 49s.", "block"),
        # a diff's "-87" is its deletions
        ("It's 6 commits: +412 / -87.", "pass"),
        ("It's 6 commits: +412 / -78.", "block"),
        # a decimal inside a name is as specific as a version
        ("It passed on Python 3.11.", "pass"),
        ("It passed on Python 3.10.", "block"),
        # rows in a state, counted
        ("It has 2 approvals.", "pass"),
        ("It has 3 approvals.", "block"),
        # "merges" is no claim that it was merged; the merge call's result is its state now
        ("It merges the branch into main.", "flag"),
        ("I merged PR #482.", "pass"),
        ("Then I merged the PR.", "pass"),
        # the GitHub CLI's summary of the checks is a run of them
        ("All checks are green now.", "pass"),
        # a short commit hash of the long one a result prints
        ("The head commit is 9c1e4b7.", "pass"),
        ("The head commit is 9c1e4f7.", "block"),
        # "unitType": "Minutes" beside a quantity
        ("That's 1,840 minutes on the 8-core runners.", "pass"),
        ("That's 1,480 minutes on the 8-core runners.", "block"),
    ],
)
def test_a_pull_request_its_checks_and_its_merge(text: str, verdict: str) -> None:
    receipts = tool_transcript([PULL, CHECK_RUNS, REVIEWS, MERGE, CHECKS, USAGE])
    assert _verdict(text, receipts) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the outcome field beside the status says it in another form of the word
        ("Check run cr_7781 failed.", "pass"),
        ("Check run cr_7781 succeeded.", "block"),
        ("Check run cr_7781 is completed.", "pass"),
    ],
)
def test_a_check_runs_conclusion_beside_its_status(text: str, verdict: str) -> None:
    run = (
        "get_check_run",
        {"check_run_id": "cr_7781"},
        {"id": "cr_7781", "name": "lint", "status": "completed", "conclusion": "failure"},
    )
    assert _verdict(text, tool_transcript([run, REVIEWS])) == verdict
