"""Tests for hard-fact extraction (receiptgate.claims.hardfacts)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from receiptgate.claims.hardfacts import extract_hard_facts, normalise_number
from receiptgate.claims.models import HardFact

# A Wednesday; every relative date below is resolved against it.
NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)


def facts(text: str, start: int = 0, end: int | None = None) -> list[HardFact]:
    """Facts at the fixed NOW, checking every offset against the original text."""
    found = extract_hard_facts(text, start, end, now=NOW)
    for h in found:
        assert text[h.start : h.end] == h.text
    return found


def only(text: str) -> HardFact:
    found = facts(text)
    assert len(found) == 1, found
    return found[0]


# ---------------------------------------------------------------------------
# money
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["2.4 million USD", "$2,400,000", "USD 2.4M", "2.4M dollars", "US$2.4 million", "$2.4m"],
)
def test_when_money_forms_then_same_key(text: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.number, h.unit) == ("money", "USD 2400000", 2400000.0, "USD")
    assert (h.start, h.end, h.text) == (0, len(text), text)


@pytest.mark.parametrize("text", ["€1.2k", "1,200 EUR", "EUR 1200", "1200 euros", "€ 1,200"])
def test_when_euro_forms_then_same_key(text: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.number, h.unit) == ("money", "EUR 1200", 1200.0, "EUR")
    assert h.text == text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("£5", "GBP 5"),
        ("10 pounds sterling", "GBP 10"),
        ("¥300", "JPY 300"),
        ("₹40", "INR 40"),
        ("CHF 10", "CHF 10"),
        ("3 swiss francs", "CHF 3"),
        ("A$5", "AUD 5"),
        ("C$10", "CAD 10"),
        ("5€", "EUR 5"),
        ("2.4 billion USD", "USD 2400000000"),
        ("$3bn", "USD 3000000000"),
        ("$1.5b", "USD 1500000000"),
        ("5 thousand dollars", "USD 5000"),
        ("$20k", "USD 20000"),
        ("2 million US dollars", "USD 2000000"),
        ("$1,234.5", "USD 1234.5"),
        ("$1,000,000.00", "USD 1000000"),
        ("USD 1,234.56", "USD 1234.56"),
        ("$0.99", "USD 0.99"),
        ("-$5", "USD -5"),
    ],
)
def test_when_money_then_currency_and_scaled_amount(text: str, value: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text) == ("money", value, text)
    assert h.unit == value.split()[0]


def test_when_two_amounts_then_two_facts_in_order() -> None:
    found = facts("It was 5 USD, then 10 EUR.")
    assert [(h.value, h.text) for h in found] == [("USD 5", "5 USD"), ("EUR 10", "10 EUR")]


# ---------------------------------------------------------------------------
# percent
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["37%", "37 percent", "37 per cent", "37.0%", "37 %"])
def test_when_percent_forms_then_same_key(text: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.number, h.unit, h.text) == ("percent", "37%", 37.0, "%", text)


@pytest.mark.parametrize("text", ["5 pp", "5 percentage points", "5pp", "5 percentage point"])
def test_when_percentage_points_then_pp_key(text: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.unit, h.text) == ("percent", "5pp", "pp", text)


@pytest.mark.parametrize(("text", "value"), [("-5%", "-5%"), ("+3%", "3%"), ("five percent", "5%")])
def test_when_signed_or_spelled_percent_then_value(text: str, value: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text) == ("percent", value, text)


def test_when_range_then_dash_is_not_a_sign() -> None:
    assert [h.value for h in facts("up 10-20%")] == ["10", "20%"]


# ---------------------------------------------------------------------------
# counts and numbers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "number", "unit"),
    [
        ("255,908 events", "255908 event", 255908.0, "event"),
        ("150 items", "150 item", 150.0, "item"),
        ("3 servers", "3 server", 3.0, "server"),
        ("404 tests", "404 test", 404.0, "test"),
        ("12 queries", "12 query", 12.0, "query"),
        ("4 processes", "4 process", 4.0, "process"),
        ("2.4 million users", "2400000 user", 2400000.0, "user"),
        ("3 failing tests", "3 failing test", 3.0, "failing test"),
        ("16GB", "16 gb", 16.0, "gb"),
        ("three (3) servers", "3 server", 3.0, "server"),
    ],
)
def test_when_number_with_unit_noun_then_count(
    text: str, value: str, number: float, unit: str
) -> None:
    h = only(text)
    assert (h.kind, h.value, h.number, h.unit, h.text) == ("count", value, number, unit, text)


@pytest.mark.parametrize(
    ("text", "value", "fact_text"),
    [
        ("255908", "255908", "255908"),
        ("2,400,000", "2400000", "2,400,000"),
        ("2.4", "2.4", "2.4"),
        ("2.4M", "2400000", "2.4M"),
        ("1.2k", "1200", "1.2k"),
        ("2.4 billion", "2400000000", "2.4 billion"),
        ("the API returned 200", "200", "200"),
        ("37 of them", "37", "37"),
        ("3 were skipped", "3", "3"),
        ("3 may fail", "3", "3"),
        ("the 3rd attempt", "3", "3rd"),
        ("(30)", "30", "30"),
    ],
)
def test_when_bare_number_then_number_kind(text: str, value: str, fact_text: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text) == ("number", value, fact_text)


def test_when_numeral_exceeds_float_precision_then_keys_stay_exact() -> None:
    a = only("11111111111111111111")
    b = only("11111111111111111112")
    assert (a.value, b.value) == ("11111111111111111111", "11111111111111111112")


def test_when_count_then_stopwords_and_date_words_are_not_units() -> None:
    found = facts("37 last week")
    assert [(h.kind, h.text) for h in found] == [("number", "37"), ("date", "last week")]


def test_when_spelled_number_with_numeral_then_one_duration() -> None:
    text = "Payment is due within thirty (30) days of the invoice."
    h = only(text)
    assert (h.kind, h.value, h.number, h.text) == ("duration", "P30D", 30.0, "thirty (30) days")
    assert h.start == text.index("thirty")


def test_when_bare_spelled_number_then_no_fact() -> None:
    assert facts("No one knows; one of them said two things.") == []


# ---------------------------------------------------------------------------
# versions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "fact_text"),
    [
        ("v0.1.0", "0.1.0", "v0.1.0"),
        ("0.1.0", "0.1.0", "0.1.0"),
        ("version 2.3", "2.3", "version 2.3"),
        ("v2", "2", "v2"),
        ("1.2.3-rc.1", "1.2.3-rc.1", "1.2.3-rc.1"),
        ("v1.2.3-rc.1+build.5", "1.2.3-rc.1+build.5", "v1.2.3-rc.1+build.5"),
        ("shipped 0.1.0.", "0.1.0", "0.1.0"),
    ],
)
def test_when_version_forms_then_value_without_v(text: str, value: str, fact_text: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text) == ("version", value, fact_text)


def test_when_two_part_dotted_number_then_number_not_version() -> None:
    found = facts("Node.js 20 and Python 3.11")
    assert [(h.kind, h.value) for h in found] == [
        ("identifier", "node.js"),
        ("number", "20"),
        ("number", "3.11"),
    ]


# ---------------------------------------------------------------------------
# dates
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["2026-03-03", "March 3, 2026", "3 March 2026", "Mar 3 2026", "03/03/2026", "2026/03/03",
     "March 3rd, 2026", "the 3rd of March 2026"],
)  # fmt: skip
def test_when_absolute_date_forms_then_iso_day(text: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.unit) == ("date", "2026-03-03", "day")
    assert h.end == len(text)


@pytest.mark.parametrize(
    ("text", "value", "fact_text", "unit"),
    [
        ("March 2026", "2026-03", "March 2026", "month"),
        ("2026-03", "2026-03", "2026-03", "month"),
        ("in 2025", "2025", "2025", "year"),
        ("since 1999", "1999", "1999", "year"),
        ("the 2024 report", "2024", "2024", "year"),
        ("Q2 2026", "2026-Q2", "Q2 2026", "quarter"),
        ("2026-Q2", "2026-Q2", "2026-Q2", "quarter"),
        ("2026-W10", "2026-W10", "2026-W10", "week"),
        ("on March 3", "2026-03-03", "March 3", "day"),
        ("3 March", "2026-03-03", "3 March", "day"),
        ("paid on Friday, March 6", "2026-03-06", "March 6", "day"),
        ("13/03/2026", "2026-03-13", "13/03/2026", "day"),
    ],
)
def test_when_partial_dates_then_granular_key(
    text: str, value: str, fact_text: str, unit: str
) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text, h.unit) == ("date", value, fact_text, unit)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("today", "2026-03-11"),
        ("yesterday", "2026-03-10"),
        ("tomorrow", "2026-03-12"),
        ("last Friday", "2026-03-06"),
        ("next Monday", "2026-03-16"),
        ("last Wednesday", "2026-03-04"),
        ("next Wednesday", "2026-03-18"),
        ("this Friday", "2026-03-13"),
        ("this week", "2026-W11"),
        ("last week", "2026-W10"),
        ("next month", "2026-04"),
        ("last month", "2026-02"),
        ("next quarter", "2026-Q2"),
        ("last quarter", "2025-Q4"),
        ("this quarter", "2026-Q1"),
        ("last year", "2025"),
        ("next year", "2027"),
        ("3 days ago", "2026-03-08"),
        ("three days ago", "2026-03-08"),
        ("in 2 weeks", "2026-W13"),
        ("in two weeks", "2026-W13"),
        ("2 weeks from now", "2026-W13"),
        ("in 3 months", "2026-06"),
        ("1 year ago", "2025"),
    ],
)
def test_when_relative_date_then_resolved_against_now(text: str, value: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text) == ("date", value, text)


def test_when_relative_date_in_sentence_then_offsets_exact() -> None:
    text = "The deploy finished yesterday, and the audit is due next Monday."
    found = facts(text)
    assert [(h.text, h.value) for h in found] == [
        ("yesterday", "2026-03-10"),
        ("next Monday", "2026-03-16"),
    ]
    assert found[1].start == text.index("next Monday")


@pytest.mark.parametrize(
    ("now", "value"),
    [
        (datetime(2026, 12, 30, tzinfo=UTC), "2027-01-02"),
        (datetime(2026, 1, 5, tzinfo=UTC), "2026-01-02"),
        (datetime(2026, 7, 1, tzinfo=UTC), "2026-01-02"),
    ],
)
def test_when_day_has_no_year_then_nearest_occurrence(now: datetime, value: str) -> None:
    [h] = extract_hard_facts("due January 2", now=now)
    assert (h.value, h.text) == (value, "January 2")


def test_when_now_is_none_then_current_utc_date() -> None:
    before = datetime.now(UTC).date()
    [h] = extract_hard_facts("today")
    after = datetime.now(UTC).date()
    assert h.value in (before.isoformat(), after.isoformat())


def test_when_now_has_an_offset_then_its_own_date_is_used() -> None:
    late = datetime(2026, 3, 11, 23, 30, tzinfo=timezone(timedelta(hours=-5)))
    [h] = extract_hard_facts("today", now=late)
    assert h.value == "2026-03-11"


@pytest.mark.parametrize(
    "text", ["2026-02-30", "25:00", "3 may fail", "every day", "holiday", "on Wednesday"]
)
def test_when_not_a_valid_date_then_no_date(text: str) -> None:
    assert all(h.kind != "date" for h in facts(text))


# ---------------------------------------------------------------------------
# times and datetimes
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("14:05 UTC", "14:05Z"),
        ("14:05Z", "14:05Z"),
        ("2:05 pm", "14:05"),
        ("2:05pm", "14:05"),
        ("14:05", "14:05"),
        ("14:05:00", "14:05"),
        ("14:05:30", "14:05:30"),
        ("5 am", "05:00"),
        ("12 am", "00:00"),
        ("12 pm", "12:00"),
        ("17:00 CET", "16:00Z"),
        ("16:05 +02:00", "14:05Z"),
        ("09:05 UTC-5", "14:05Z"),
    ],
)
def test_when_time_forms_then_hh_mm_key(text: str, value: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text) == ("time", value, text)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("2026-03-03T14:05:00Z", "2026-03-03T14:05:00Z"),
        ("2026-03-03T16:05:00+02:00", "2026-03-03T14:05:00Z"),
        ("2026-03-03T14:05Z", "2026-03-03T14:05:00Z"),
        ("2026-03-03 14:05 UTC", "2026-03-03T14:05:00Z"),
        ("2026-03-03T14:05:00", "2026-03-03T14:05:00"),
        ("2026-03-03T14:05:00.500+01:00", "2026-03-03T13:05:00.5Z"),
    ],
)
def test_when_iso_datetime_then_utc_key(text: str, value: str) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text) == ("datetime", value, text)


def test_when_time_range_then_two_times() -> None:
    assert [h.value for h in facts("open 9:00-17:00")] == ["09:00", "17:00"]


# ---------------------------------------------------------------------------
# durations
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "number", "unit"),
    [
        ("30 days", "P30D", 30.0, "day"),
        ("2 hours", "PT2H", 2.0, "hour"),
        ("90 minutes", "PT90M", 90.0, "minute"),
        ("6 months", "P6M", 6.0, "month"),
        ("1.5 years", "P1.5Y", 1.5, "year"),
        ("2 weeks", "P14D", 2.0, "week"),
        ("1.5 weeks", "P10.5D", 1.5, "week"),
        ("45 seconds", "PT45S", 45.0, "second"),
        ("200ms", "PT0.2S", 200.0, "millisecond"),
        ("2h", "PT2H", 2.0, "hour"),
        ("30-day", "P30D", 30.0, "day"),
        ("twenty-five days", "P25D", 25.0, "day"),
        ("in 3 hours", "PT3H", 3.0, "hour"),
    ],
)
def test_when_duration_forms_then_iso_value(
    text: str, value: str, number: float, unit: str
) -> None:
    h = only(text)
    assert (h.kind, h.value, h.number, h.unit) == ("duration", value, number, unit)


@pytest.mark.parametrize(
    ("text", "fact_text"),
    [
        ("5 hours 30 minutes", "5 hours 30 minutes"),
        ("1 hour and 30 minutes", "1 hour and 30 minutes"),
        ("5 hrs, 30 min", "5 hrs, 30 min"),
    ],
)
def test_when_hours_then_minutes_then_one_duration(text: str, fact_text: str) -> None:
    h = only(text)
    assert (h.text, h.kind, h.number, h.unit) == (
        fact_text,
        "duration",
        int(h.number) + 0.5,
        "hour",
    )
    assert h.value.endswith("H30M")


def test_when_minutes_stand_apart_from_hours_then_two_durations() -> None:
    facts = extract_hard_facts("3 hours by car and 2 flights of 30 minutes")
    assert [h.value for h in facts if h.kind == "duration"] == ["PT3H", "PT30M"]


@pytest.mark.parametrize(
    ("text", "durations"),
    [
        ("So a scalar would create a 1D array with one element.", []),
        ("Render the 3D model and the 2D grid.", []),
        ("uptime 3d 4h", ["P3D", "PT4H"]),
        ("The job ran for 2d.", ["P2D"]),
    ],
)
def test_when_capital_d_glued_to_a_small_number_then_a_dimension_not_days(
    text: str, durations: list[str]
) -> None:
    assert [h.value for h in extract_hard_facts(text) if h.kind == "duration"] == durations


def test_when_weeks_or_days_then_same_duration_key() -> None:
    assert only("two weeks").value == only("14 days").value == "P14D"


# ---------------------------------------------------------------------------
# identifiers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "fact_text", "unit"),
    [
        ("see https://api.example.com/v1/users/.", "https://api.example.com/v1/users",
         "https://api.example.com/v1/users/", "url"),
        ("(see https://x.io/a?b=1&c=2)", "https://x.io/a?b=1&c=2", "https://x.io/a?b=1&c=2", "url"),
        ("http://localhost:3000", "http://localhost:3000", "http://localhost:3000", "url"),
        ("api.example.com", "api.example.com", "api.example.com", "host"),
        ("localhost:8080", "localhost:8080", "localhost:8080", "host"),
        ("prod-01", "prod-01", "prod-01", "name"),
        ("config.yaml", "config.yaml", "config.yaml", "file"),
        ("README.md", "readme.md", "README.md", "file"),
        (".env", ".env", ".env", "file"),
        ("./src/main.py", "./src/main.py", "./src/main.py", "path"),
        ("/var/log/app.log", "/var/log/app.log", "/var/log/app.log", "path"),
        ("src/app/main.py:42", "src/app/main.py", "src/app/main.py", "path"),
        ("JIRA-123", "jira-123", "JIRA-123", "ticket"),
        ("#4521", "#4521", "#4521", "ref"),
        ("PR #12", "#12", "PR #12", "pr"),
        ("a1b2c3d", "a1b2c3d", "a1b2c3d", "sha"),
        ("2a3f9c1e", "2a3f9c1e", "2a3f9c1e", "sha"),
        ("bob@example.com.", "bob@example.com", "bob@example.com", "email"),
        ("10.0.0.1", "10.0.0.1", "10.0.0.1", "ip"),
        ("10.0.0.0/8", "10.0.0.0/8", "10.0.0.0/8", "ip"),
        ("gpt-3.5-turbo", "gpt-3.5-turbo", "gpt-3.5-turbo", "name"),
    ],
)  # fmt: skip
def test_when_identifier_then_lowercase_value(
    text: str, value: str, fact_text: str, unit: str
) -> None:
    h = only(text)
    assert (h.kind, h.value, h.text, h.unit) == ("identifier", value, fact_text, unit)


@pytest.mark.parametrize(
    "text",
    ["e.g. this", "i.e. that", "U.S.A.", "Mr.Smith", "deadbeef", "x86 and ec2", "/etc/hosts"],
)
def test_when_not_an_identifier_then_no_fact(text: str) -> None:
    assert facts(text) == []


def test_when_digits_inside_identifiers_then_no_numbers() -> None:
    text = "Deploy a1b2c3d to prod-01 at api2.example.com, see JIRA-123 and /tmp/run42.log."
    found = facts(text)
    assert [h.kind for h in found] == ["identifier"] * 5
    assert [h.text for h in found] == ["a1b2c3d", "prod-01", "api2.example.com", "JIRA-123",
                                       "/tmp/run42.log"]  # fmt: skip


# ---------------------------------------------------------------------------
# overlaps, offsets, spans
# ---------------------------------------------------------------------------


def test_when_sentence_has_many_facts_then_sorted_without_overlap() -> None:
    text = (
        "On 2026-03-03 at 14:05 UTC we shipped v0.1.0 to api.example.com; revenue hit "
        "$2.4 million (up 37%) and 255,908 events were processed within thirty (30) days."
    )
    found = facts(text)
    assert [(h.kind, h.value) for h in found] == [
        ("date", "2026-03-03"),
        ("time", "14:05Z"),
        ("version", "0.1.0"),
        ("identifier", "api.example.com"),
        ("money", "USD 2400000"),
        ("percent", "37%"),
        ("count", "255908 event"),
        ("duration", "P30D"),
    ]
    starts = [h.start for h in found]
    assert starts == sorted(starts)
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))


def test_when_span_given_then_offsets_index_original_text() -> None:
    text = "Intro 5 apples. CPU usage is 37% today. Tail 9 pears."
    start = text.index("CPU")
    end = text.index(" Tail")
    found = facts(text, start=start, end=end)
    assert [(h.text, h.start) for h in found] == [
        ("37%", text.index("37%")),
        ("today", text.index("today")),
    ]


@pytest.mark.parametrize(("start", "end"), [(0, 0), (5, 3), (10, None), (-5, 2)])
def test_when_span_is_empty_or_out_of_range_then_safe(start: int, end: int | None) -> None:
    text = "5 apples"
    found = extract_hard_facts(text, start, end, now=NOW)
    assert all(0 <= h.start <= h.end <= len(text) for h in found)


def test_when_lowercase_changes_length_then_offsets_still_exact() -> None:
    text = "İİİ shipped 3 servers on 2026-03-03"
    found = facts(text)
    assert [h.text for h in found] == ["3 servers", "2026-03-03"]


def test_when_no_digits_or_date_words_then_empty() -> None:
    assert facts("The deployment finished and everything looks fine.") == []


@given(st.text(alphabet=" 0123456789,.-:/$%#abcdemnoprstuvwxyQ()@", max_size=80))
@settings(max_examples=300, deadline=None)
def test_when_random_text_then_offsets_sorted_and_disjoint(text: str) -> None:
    found = extract_hard_facts(text, now=NOW)
    for h in found:
        assert text[h.start : h.end] == h.text
        assert h.start < h.end
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))


@given(st.text(max_size=60), st.integers(0, 60), st.integers(0, 60))
@settings(max_examples=200, deadline=None)
def test_when_random_span_then_facts_inside_it(text: str, start: int, end: int) -> None:
    for h in extract_hard_facts(text, start, end, now=NOW):
        assert start <= h.start < h.end <= end
        assert text[h.start : h.end] == h.text


@pytest.mark.parametrize(
    "text",
    [
        "1" * 100_000,
        "," * 100_000,
        "1," * 50_000,
        "1." * 50_000,
        "a1" * 50_000,
        "." * 100_000,
        "$" * 100_000,
        "-1" * 50_000,
        "1" + " " * 100_000 + "x",
        "5 " + "a" * 100_000,
        "a" * 100_000 + "1",
        "(1" * 50_000,
        " day" * 25_000,
        "a1.b2-c3@d4:5/" * 7_000,
    ],
    ids=lambda t: repr(t[:6]),
)
def test_when_adversarial_input_then_returns(text: str) -> None:
    found = extract_hard_facts(text, now=NOW)
    assert all(text[h.start : h.end] == h.text for h in found[:100])
    assert all(h.number is None or abs(h.number) < float("inf") for h in found)


# ---------------------------------------------------------------------------
# normalise_number
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2,400,000", 2400000.0),
        ("2.4M", 2400000.0),
        ("2.4 million", 2400000.0),
        ("thirty", 30.0),
        ("twenty-five", 25.0),
        ("three hundred", 300.0),
        ("1.2k", 1200.0),
        ("1.5bn", 1500000000.0),
        ("-5", -5.0),
        (" 42 ", 42.0),
        ("0.1", 0.1),
        ("abc", None),
        ("", None),
        ("1 2", None),
    ],
)
def test_when_normalise_number_then_value(raw: str, expected: float | None) -> None:
    assert normalise_number(raw) == expected


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Gesamtbetrag: 12.405,00 €", "EUR 12405"),
        ("The average order value was 84,50 €.", "EUR 84.5"),
        ("It costs 1.250 EUR a month.", "EUR 1.25"),
        ("It costs 1,200 EUR a month.", "EUR 1200"),
    ],
    ids=["thousands-and-decimals", "decimal-comma", "no-comma-is-english", "english-thousands"],
)
def test_when_euro_amounts_use_european_separators_then_the_value_is_normalised(
    text: str, value: str
) -> None:
    (fact,) = [h for h in extract_hard_facts(text, now=NOW) if h.kind == "money"]
    assert fact.value == value
    assert text[fact.start : fact.end] == fact.text


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("notAfter=May 26 07:59:59 2026 GMT", "2026-05-26T07:59:59Z"),
        ("[Wed Mar 11 08:58:41 2026] Out of memory", "2026-03-11T08:58:41"),
    ],
    ids=["openssl", "dmesg"],
)
def test_when_tool_output_has_ctime_stamps_then_one_datetime_is_read(text: str, value: str) -> None:
    facts = extract_hard_facts(text, now=NOW)
    assert [(h.kind, h.value) for h in facts] == [("datetime", value)]


@pytest.mark.parametrize(
    "text",
    [
        "on **May 23, 2024**",
        "on *May 23, 2024*",
        "on __May 23, 2024__",
        "Outbound (May 23, 2024):",
        "HAT139 (ORD–PHL, May 23, 2024)",
    ],
)
def test_a_date_in_emphasis_or_brackets_is_one_date(text: str) -> None:
    facts = extract_hard_facts(text, now=datetime(2024, 5, 15, tzinfo=UTC))
    assert [(h.kind, h.value) for h in facts] == [("date", "2024-05-23")]


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("the return is on the 28th.", "date", "---28"),
        ("on the 5th, not the 6th", "date", "---05"),
        ("the 3rd attempt", "number", "3"),
        ("the 45th", "number", "45"),
    ],
)
def test_an_ordinal_after_the_is_a_day_of_the_month(text: str, kind: str, value: str) -> None:
    h = extract_hard_facts(text)[0]
    assert (h.kind, h.value) == (kind, value)


@pytest.mark.parametrize("text", ["Renamed it to `2048.py`.", "The page 404.html is missing."])
def test_a_number_that_names_a_file_is_no_figure(text: str) -> None:
    assert not [h for h in extract_hard_facts(text) if h.kind == "number"]


@pytest.mark.parametrize(
    ("text", "dates"),
    [
        ("Return: May 29-30, 2024 (two flights)", ["2024-05-29", "2024-05-30"]),
        ("flights on May 13–14, 2024, for 2 passengers", ["2024-05-13", "2024-05-14"]),
        ("trips on March 6-13 respectively", ["2026-03-06", "2026-03-13"]),
        # at the end of a sentence, and said with "to"
        ("direct round trips for May 20-25.", ["2026-05-20", "2026-05-25"]),
        ("any day from May 20 to 25, 2024", ["2024-05-20", "2024-05-25"]),
    ],
)
def test_when_a_range_of_days_then_two_dates_and_no_stray_numbers(
    text: str, dates: list[str]
) -> None:
    facts = extract_hard_facts(text, now=NOW)
    assert [h.value for h in facts if h.kind == "date"] == dates
    assert not [
        h
        for h in facts
        if h.kind in ("number", "count") and h.text[:2] in ("30", "14", "13", "20", "25")
    ]


def test_a_count_after_to_is_no_later_day() -> None:
    facts = extract_hard_facts("Seats on May 20 to 25 people", now=NOW)
    assert [(h.kind, h.text) for h in facts] == [("date", "May 20"), ("count", "25 people")]


def test_when_a_dash_follows_a_date_with_no_later_day_then_no_range() -> None:
    facts = extract_hard_facts("May 30-2 here", now=NOW)
    assert [h.kind for h in facts] == ["date", "number"]


def test_when_later_days_follow_a_full_date_after_a_slash_then_each_is_a_date() -> None:
    facts = extract_hard_facts("ORD↔SEA on 2026-05-25/05-29/05-30 for $306", now=NOW)
    assert [(h.kind, h.value) for h in facts] == [
        ("date", "2026-05-25"),
        ("date", "2026-05-29"),
        ("date", "2026-05-30"),
        ("money", "USD 306"),
    ]


@pytest.mark.parametrize(
    "text", ["arrives 03:00 + 1 day (local)", "arrives 03:00 (+1 day)", "lands 3:00 PM +1 day"]
)
def test_a_day_added_to_a_time_is_the_next_day_mark_not_a_span(text: str) -> None:
    facts = extract_hard_facts(text, now=NOW)
    assert [h.kind for h in facts] == ["time"]
    # a span said on its own is still one
    assert [h.kind for h in extract_hard_facts("The trip takes +1 day.", now=NOW)] == ["duration"]
