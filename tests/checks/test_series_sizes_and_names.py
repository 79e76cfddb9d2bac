"""Values real tools print in their own shapes (rail and Kubernetes probes of the
fourteenth session, and the shapes of Stripe, Prometheus and ``ls -l``), end to end: a
Unix timestamp of a time field, a time series' ``[unix time, value]`` samples read as
rows (two figures of one row back each other, a computed float written rounded),
amounts in cents beside Stripe's lowercase currency, sizes in bytes written in MB or
GiB, a factor between two timings, numbers that are names ("Coach 14", "TGV 9576", a
pod name's tail), journey times written "5 h 38 min" against ISO durations and
departure and arrival moments, "4 seats available" of the rows that are, and a
count of rows before a flag ("6 of the 8 pods were ready"). A changed twin is never
backed."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from domain_probe import chat_receipts

from receiptgate import Gate, Receipt
from receiptgate.claims.hardfacts import extract_hard_facts
from tool_transcripts import tool_transcript

NOW = datetime(2025, 11, 18, 11, tzinfo=UTC)

CHARGE = (
    "stripe_get_charge",
    {"charge": "ch_3QxT"},
    {
        "id": "ch_3QxT",
        "object": "charge",
        "amount": 2500,
        "amount_refunded": 0,
        "currency": "usd",
        "created": 1763460600,
        "status": "succeeded",
    },
)
REFUND = (
    "stripe_create_refund",
    {"charge": "ch_3QxT", "amount": 1250},
    {"id": "re_81", "object": "refund", "amount": 1250, "currency": "usd", "status": "succeeded"},
)
SERIES = (
    "prometheus_query_range",
    {"query": "sum(rate(http_requests_total{code=~'5..'}[5m])) * 100", "step": "10m"},
    {
        "status": "success",
        "data": {
            "resultType": "matrix",
            "result": [
                {
                    "metric": {"job": "checkout-api"},
                    "values": [
                        [1763458800, "0.41276595744680855"],
                        [1763459400, "6.122448979591836"],
                        [1763460000, "14.83"],
                        [1763460600, "16.9"],
                    ],
                }
            ],
        },
    },
)
IMAGES = (
    "kubectl_rollout_undo",
    {"deployment": "checkout-api"},
    {
        "from": {"revision": 14, "image": "registry.internal/payments/checkout-api:v2.8.0"},
        "to": {"revision": 13, "image": "registry.internal/payments/checkout-api:v2.7.3"},
    },
)
STAT = (
    "stat_file",
    {"path": "backups/orders.sql"},
    {"path": "backups/orders.sql", "size_bytes": 187342211},
)
LISTING = (
    "run_command",
    {"command": "ls -l dist/"},
    {"output": "total 2400\n-rw-r--r-- 1 dev dev 2457600 Nov 18 09:12 app.bundle.js\n"},
)
BENCH = (
    "run_command",
    {"command": "python bench.py"},
    {"output": "Django escape: 0.218 seconds\nPython escape: 0.064 seconds\n", "exit_code": 0},
)
TRAIN = (
    "search_connections",
    {"origin": "München Hbf", "destination": "Paris Est"},
    {
        "connections": [
            {
                "id": "CX-4472",
                "duration": "PT6H12M",
                "legs": [
                    {
                        "train": "ICE 594",
                        "departure": "2025-10-17T06:12:00+02:00",
                        "arrival": "2025-10-17T08:26:00+02:00",
                    },
                    {
                        "train": "TGV 9580",
                        "departure": "2025-10-17T08:55:00+02:00",
                        "arrival": "2025-10-17T12:24:00+02:00",
                    },
                ],
            },
            {
                "id": "CX-4471",
                "duration": "PT5H38M",
                "legs": [
                    {
                        "train": "TGV 9576",
                        "departure": "2025-10-17T07:04:00+02:00",
                        "arrival": "2025-10-17T12:42:00+02:00",
                    }
                ],
            },
        ]
    },
)
ARRIVALS = (
    "search_arrivals",
    {"destination": "Paris Est"},
    {
        "connections": [
            {
                "id": "CX-4472",
                "departure": "06:12",
                "arrival": "2025-10-17T12:24:00+02:00",
                "departs_at": "2025-10-17T06:12:00+02:00",
            },
            {
                "id": "CX-4471",
                "departure": "07:04",
                "arrival": "2025-10-17T12:42:00+02:00",
                "departs_at": "2025-10-17T07:04:00+02:00",
            },
        ]
    },
)
BOOKING = (
    "create_booking",
    {"connection_id": "CX-4471"},
    {
        "booking": {
            "id": "BK-7Q2M9X",
            "status": "confirmed",
            "total": 179.8,
            "currency": "EUR",
            "payment": {"status": "captured", "method": "visa"},
        }
    },
)
SEATS = (
    "get_seat_map",
    {"train": "TGV 9576", "coach": 14},
    {
        "coach": 14,
        "seats": [
            {"number": "45", "available": False},
            {"number": "46", "available": True},
            {"number": "47", "available": True},
            {"number": "61", "available": False},
            {"number": "62", "available": True},
        ],
        "stops": ["München Hbf", "Augsburg Hbf", "Ulm Hbf", "Stuttgart Hbf", "Paris Est"],
    },
)
PODS = (
    "kubectl_get",
    {"command": "kubectl get pods -l app=checkout-api"},
    {
        "stdout": (
            "NAME                           READY   STATUS             RESTARTS   AGE\n"
            "checkout-api-7d9f8b6c5-2xkqp   0/1     CrashLoopBackOff   7          41m\n"
            "checkout-api-7d9f8b6c5-9lwzt   0/1     CrashLoopBackOff   6          41m\n"
            "checkout-api-5b6c4d8f9-b7tnc   1/1     Running            0          3h12m\n"
        )
    },
)
PODS_LATER = (
    "kubectl_get",
    {"command": "kubectl get pods -l app=checkout-api"},
    {
        "stdout": (
            "NAME                           READY   STATUS    RESTARTS   AGE\n"
            "checkout-api-5b6c4d8f9-b7tnc   1/1     Running   0          3h17m\n"
        )
    },
)


def _verdict(text: str, calls: list[tuple[str, dict, dict]]) -> str:  # type: ignore[type-arg]
    receipts: list[Receipt] = tool_transcript(calls)
    return Gate().validate(text, receipts=receipts, now=NOW).verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The charge ch_3QxT was created on November 18 at 10:10 UTC.", "pass"),
        ("The charge ch_3QxT was created at 10:40 UTC.", "block"),
        ("The charge ch_3QxT was created on November 17.", "block"),
        # Stripe's amounts are in cents beside its lowercase currency
        ("The $25.00 charge succeeded.", "pass"),
        ("The $2,500 charge succeeded.", "block"),
        ("I refunded $12.50 of the $25 charge.", "pass"),
        ("I refunded $15.00 of the $25 charge.", "block"),
    ],
)
def test_stripe_timestamps_and_amounts_in_cents(text: str, verdict: str) -> None:
    assert _verdict(text, [CHARGE, REFUND]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("It peaked at 16.9% at 10:10 UTC.", "pass"),
        ("It peaked at 18.9% at 10:10 UTC.", "block"),
        # a computed float, written to the places the sentence shows
        ("At 09:50 UTC it was 6.1%.", "pass"),
        ("At 09:50 UTC it was 6.7%.", "block"),
        ("| Time (UTC) | 5xx % |\n|---|---|\n| 09:40 | 0.4 |\n| 10:00 | 14.8 |", "pass"),
        ("| Time (UTC) | 5xx % |\n|---|---|\n| 09:40 | 0.4 |\n| 10:00 | 14.2 |", "block"),
    ],
)
def test_a_time_series_sample_is_a_row_of_a_moment_and_a_value(text: str, verdict: str) -> None:
    assert _verdict(text, [SERIES]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the highest and the lowest of the series' values
        ("The 5xx rate peaked at 16.9%.", "pass"),
        ("The 5xx rate peaked at 18.9%.", "block"),
        ("The lowest reading was 0.4%.", "pass"),
        ("The lowest reading was 6.1%.", "block"),
    ],
)
def test_the_peak_and_the_lowest_of_a_series(text: str, verdict: str) -> None:
    assert _verdict(text, [SERIES]) == verdict


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # a version inside an image's name
        ("The rollback to v2.7.3 is done.", [IMAGES], "pass"),
        ("The rollback to v2.7.4 is done.", [IMAGES], "block"),
    ],
)
def test_image_tags_and_thresholds(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert _verdict(text, calls) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The backup is about 187 MB.", "pass"),
        ("The backup is 187.3 MB.", "pass"),
        ("The backup is about 179 MiB.", "pass"),
        ("The backup is about 190 MB.", "pass"),
        ("The backup is about 197 MB.", "block"),
        ("app.bundle.js is about 2.5 MB.", "pass"),
        ("app.bundle.js is 3.5 MB.", "block"),
    ],
)
def test_sizes_in_bytes_written_in_larger_units(text: str, verdict: str) -> None:
    assert _verdict(text, [STAT, LISTING]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Python's escape is about 3.4x faster than Django's.", "pass"),
        ("Python's escape is 3.4 times faster than Django's.", "pass"),
        ("Python's escape is about 5x faster than Django's.", "block"),
    ],
)
def test_a_factor_between_two_timings_of_one_run(text: str, verdict: str) -> None:
    assert _verdict(text, [BENCH]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The direct TGV 9576 leaves at 07:04.", "pass"),
        ("The direct TGV 9577 leaves at 07:04.", "block"),
        ("The direct TGV takes 5 h 38 min.", "pass"),
        ("The direct TGV takes 5 h 48 min.", "block"),
        # a leg's time from its departure to its arrival
        ("The first leg, ICE 594 to Stuttgart, takes 2 h 14 min.", "pass"),
        ("The first leg, ICE 594 to Stuttgart, takes 2 h 24 min.", "block"),
    ],
)
def test_trains_by_number_and_journey_times(text: str, verdict: str) -> None:
    assert _verdict(text, [TRAIN]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # two journeys' durations
        ("The direct TGV is 34 minutes faster than the connection via Stuttgart.", "pass"),
        ("The direct TGV is 44 minutes faster than the connection via Stuttgart.", "block"),
        # two arrivals, one of them of the row the sentence names by its departure
        ("The 07:04 train arrives 18 minutes after the 06:12 one.", "pass"),
        ("The 07:04 train arrives 38 minutes after the 06:12 one.", "block"),
    ],
)
def test_a_gap_between_two_rows_of_a_list(text: str, verdict: str) -> None:
    assert _verdict(text, [TRAIN, ARRIVALS]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The payment has been captured.", "pass"),
        # a state no record holds: a statement with no receipt, as before
        ("The payment was declined.", "flag"),
    ],
)
def test_a_state_told_in_the_passive_of_an_object_field(text: str, verdict: str) -> None:
    assert _verdict(text, [BOOKING]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the coach's number, no count of the stops listed
        ("Coach 14 stops in Stuttgart.", "pass"),
        ("Coach 14 still had 3 seats available.", "pass"),
        ("Coach 14 still had 4 seats available.", "block"),
    ],
)
def test_a_number_named_by_its_field_and_a_count_of_available_rows(text: str, verdict: str) -> None:
    assert _verdict(text, [SEATS]) == verdict


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # the tails of two pod names, no counts of "xkqp"
        ("The crashing pods are 2xkqp and 9lwzt.", [PODS], "pass"),
        # the same pod listed twice, minutes apart: its age then and now
        ("The old pod had been up for 3h12m.", [PODS, PODS_LATER], "pass"),
        ("The old pod had been up for 3h22m.", [PODS, PODS_LATER], "block"),
    ],
)
def test_pods_by_name_and_age(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert _verdict(text, calls) == verdict


@pytest.mark.parametrize(
    ("text", "kind", "unit"),
    [
        ("It takes 5 h 38 min.", "duration", "hour"),
        ("The image is 2.4MB.", "count", "mb"),
        ("It is 1.5x faster.", "count", "x"),
        ("It takes 2 h.", "count", "h"),
        # an HTTP status class is no figure
        ("The 5xx rate rose.", None, None),
    ],
)
def test_spaced_hours_and_glued_decimal_sizes_are_figures(
    text: str, kind: str | None, unit: str | None
) -> None:
    found = extract_hard_facts(text)
    assert [(h.kind, h.unit) for h in found] == ([(kind, unit)] if kind else [])


def test_a_policys_threshold_is_no_value_a_measurement_must_equal() -> None:
    system = "Only roll back a deployment if its 5xx error rate has been above 5% for 10 minutes."
    receipts = chat_receipts(system, "Is checkout-api healthy?", [SERIES], indent=None)
    result = Gate().validate("The error rate climbed to 21%.", receipts=receipts, now=NOW)
    # a figure no record holds, not one the policy's "above 5%" contradicts
    assert result.verdict == "block"
    assert [e.relation for e in result.sentences[0].evidence] == ["missing"]


SECTIONS = (
    "search_sections",
    {"subject": "CSCI", "catalog_number": "3410"},
    {
        "course": {"id": "CSCI-3410", "title": "Algorithms", "credits": 4},
        "sections": [
            {
                "section_id": "CSCI-3410-001",
                "start": "09:05",
                "location": {"building": "Keller Hall", "room": "3-210"},
            },
            {"section_id": "MATH-2243-020", "start": "11:15"},
        ],
        "statement": {"credits": [{"amount": 120.0}, {"amount": 80.0}], "currency": "USD"},
    },
)
STOCK = (
    "get_stock",
    {"sku": "WID-2201"},
    {
        "locations": [
            {"warehouse": "CMH2", "name": "Columbus", "available": 215, "reorder_point": 500},
            {"warehouse": "ATL1", "name": "Atlanta", "available": 760, "reorder_point": 450},
        ]
    },
)


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # a part of the id of the field named for the word before the number
        ("Section 001 starts at 9:05 am.", [SECTIONS], "pass"),
        ("Section 001 is in Keller Hall 3-210.", [SECTIONS], "pass"),
        ("Section 001 is in Keller Hall 3-211.", [SECTIONS], "block"),
        # a course code is the head of its section's id
        ("You're enrolled in MATH 2243.", [SECTIONS], "pass"),
        ("You're enrolled in MATH 2245.", [SECTIONS], "block"),
        # course credits are a count, not money, and no length of the list of credits
        ("CSCI 3410 is 4 credits.", [SECTIONS], "pass"),
        # a quantity field named "available" is no yes/no to count rows by
        ("Atlanta has 760 units available.", [STOCK], "pass"),
        ("Atlanta has 780 units available.", [STOCK], "block"),
    ],
)
def test_codes_rooms_credits_and_quantities(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert _verdict(text, calls) == verdict


ORDERS = (
    "list_purchase_orders",
    {"sku": "WID-2201"},
    {
        "purchase_orders": [
            {"po_number": "PO-88417", "qty_ordered": 1200, "unit_price": 3.62, "currency": "USD"},
            {"po_number": "PO-88502", "qty_ordered": 800, "unit_price": 3.55, "currency": "USD"},
        ]
    },
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("PO-88417 is worth $4,344 at $3.62 a unit.", "pass"),
        ("PO-88417 is worth $4,444 at $3.62 a unit.", "block"),
    ],
)
def test_a_price_times_its_rows_quantity(text: str, verdict: str) -> None:
    assert _verdict(text, [ORDERS]) == verdict


ACCOUNT = (
    "get_account_statement",
    {"student_id": "S20418837"},
    {"balance_due": 1246.5, "currency": "USD", "autopay": False, "past_due": False},
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a switch's "off", and "nothing" as a no
        ("Autopay is off.", "pass"),
        ("Autopay is on.", "block"),
        ("**Balance due:** $1,246.50\n**Autopay:** off", "pass"),
        ("**Balance due:** $1,246.50\n**Autopay:** on", "block"),
        ("Nothing is past due.", "pass"),
        ("Your account is past due.", "block"),
    ],
)
def test_switches_and_nothing(text: str, verdict: str) -> None:
    assert _verdict(text, [ACCOUNT]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # "units" counts things of any field: a difference of one row's two counts
        ("Columbus is at 215 against a reorder point of 500, so it's 285 units short.", "pass"),
        ("Columbus is at 215 against a reorder point of 500, so it's 295 units short.", "block"),
    ],
)
def test_units_count_things_of_any_field(text: str, verdict: str) -> None:
    transfer = (
        "create_transfer",
        {"sku": "WID-2201", "quantity": 180},
        {"transfer": {"id": "TR-1", "quantity": 180, "unit": "each", "unit_cost": 3.85}},
    )
    assert _verdict(text, [STOCK, transfer]) == verdict


BRANCH = (
    "get_branch",
    {"branch_id": "SFO-DT"},
    {"branch": {"name": "San Francisco Downtown", "address": {"line1": "750 Bush Street"}}},
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The branch is at 750 Bush St.", "pass"),
        ("The branch is at 570 Bush St.", "block"),
        # a street no value names decides nothing
        ("Parking is free at 12 Pine St.", "flag"),
    ],
)
def test_a_street_address(text: str, verdict: str) -> None:
    assert _verdict(text, [BRANCH]) == verdict


SENT = (
    "send_confirmation",
    {"reservation_id": "RZ-48213", "channel": "email"},
    {"sent": True, "channel": "email", "to": "j.doe@example.com"},
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("I've sent the updated confirmation by email.", "pass"),
        ("I've sent the updated confirmation by text message.", "block"),
        ("I've sent the updated confirmation.", "pass"),
    ],
)
def test_the_channel_a_message_went_by(text: str, verdict: str) -> None:
    assert _verdict(text, [SENT]) == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the rows of the table the newest call that asked for pods printed
        ("All 3 pods were listed.", "pass"),
        ("All 4 pods were listed.", "block"),
    ],
)
def test_a_count_of_the_rows_a_listing_printed(text: str, verdict: str) -> None:
    assert _verdict(text, [PODS]) == verdict
