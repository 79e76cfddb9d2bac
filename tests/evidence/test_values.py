"""Typed equality: a figure claimed in a sentence finds the field value it equals.

A claim is read from a sentence exactly as the engine reads it (``extract_hard_facts``);
it *matches* a field when the leaf's typed value is of a compatible kind and both are
filed under a common lookup key (``claim_keys`` / ``Value.keys``).
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from receiptgate import Gate, Receipt
from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import HardFact
from receiptgate.evidence.values import claim_keys, compatible, leaf_value

NOW = datetime(2024, 5, 1, tzinfo=UTC)


def bug(reason: str) -> pytest.MarkDecorator:
    """A known bug: the test states the expected behaviour and fails until it is fixed."""
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)


def fact(sentence: str) -> HardFact:
    """The one figure a sentence claims (identifiers aside)."""
    facts = [h for h in extract_hard_facts(sentence, now=NOW) if h.kind != "identifier"]
    assert len(facts) == 1, facts
    return facts[0]


def matches(sentence: str, key: str, raw: Any, siblings: dict[str, Any] | None = None) -> bool:
    h = fact(sentence)
    value = leaf_value(key, raw, siblings)
    return value is not None and compatible(h, value) and bool(set(claim_keys(h)) & set(value.keys))


EQUAL = [
    # dates: a year-less day finds the day of any year; a full date needs the same year
    ("It ships on May 17.", "date", "2024-05-17", None),
    ("It ships on 17 May 2024.", "ship_date", "2024-05-17", None),
    ("It ships on 05/17/2024.", "ship_date", "2024-05-17", None),
    ("It shipped on May 17.", "shipped_at", "2024-05-17T14:30:00Z", None),
    ("It shipped in May 2024.", "date", "2024-05-17", None),
    ("Sales in Q2 2024 were high.", "date", "2024-05-17", None),
    ("It was founded in 2014.", "founded_year", 2014, None),
    # times: the zone comes from the field name, a sibling, the value or an offset
    ("It departs at 6:00 AM EST.", "scheduled_departure_time_est", "06:00:00", None),
    ("It departs at 6:00 AM EST.", "departure_time", "06:00:00", {"timezone": "EST"}),
    ("It departs at 6:00 AM EST.", "departure_time", "6:00 AM EST", None),
    ("It departs at 11:00 UTC.", "departure_time_est", "06:00:00", None),
    ("It departs at 6:00 AM EDT.", "departs_at", "2024-05-17T06:00:00-04:00", None),
    ("It departs at 12:30 PM PST.", "departure_pst", "12:30", None),
    # money: symbols, separators, currency words, fields holding text
    ("It costs $1,234.", "price", 1234.0, None),
    ("It costs $1,234.", "price", "1,234.00", None),
    ("It costs $1,234.", "price", "USD 1,234.00", None),
    ("It costs 1,234 dollars.", "amount", 1234, None),
    ("It costs €89.50.", "price", 89.5, {"currency": "EUR"}),
    ("It costs £20.", "price_gbp", "20.00", None),
    ("The balance is 1.234,56 €.", "balance", 1234.56, {"currency": "EUR"}),
    ("Revenue was $2.4M.", "revenue_usd", "2400000", None),
    # durations: the unit comes from the field name or the value
    ("The timeout is 30 seconds.", "timeout_ms", 30000, None),
    ("The timeout is 30,000 ms.", "timeout_ms", 30000, None),
    ("The timeout is 2 minutes.", "timeout_s", "120", None),
    ("It lasted 1.5 hours.", "duration_min", 90, None),
    ("Retention is 2 weeks.", "retention_days", 14, None),
    ("The term is 2 years.", "term_months", 24, None),
    ("The TTL is 2 hours.", "ttl", "2h", None),
    # percents: as written, as a fraction of one, as a string with a sign
    ("Utilization is 45%.", "cpu_pct", 45, None),
    ("Utilization is 45%.", "utilization", 0.45, None),
    ("Utilization is 45 percent.", "cpu", "45%", None),
    ("Revenue grew 12.5%.", "growth_rate", 0.125, None),
    # versions and counts
    ("The release is v2.3.1.", "version", "2.3.1", None),
    ("There are 3 items.", "count", 3, None),
    ("We have 1,234,567 users.", "users", 1234567, None),
    # a bare "total" may be an amount or a count; a rate per night, or beside a
    # currency, is an amount; points are counted, never money
    ("Your stay totals €756.", "total", 756.0, None),
    ("The order has 4 items in total.", "total", 4, None),
    ("The room is €189 per night.", "rate_per_night", 189.0, None),
    ("The nightly rate is €189.", "nightly_rate", 189.0, {"currency": "EUR"}),
    ("You have 18,450 loyalty points.", "points_balance", 18450, None),
]


@pytest.mark.parametrize(("sentence", "key", "raw", "siblings"), EQUAL)
def test_a_claimed_figure_matches_the_equal_field_value(
    sentence: str, key: str, raw: Any, siblings: dict[str, Any] | None
) -> None:
    assert matches(sentence, key, raw, siblings)


DIFFERENT = [
    ("It ships on May 18.", "date", "2024-05-17", None),
    ("It ships on May 17, 2023.", "date", "2024-05-17", None),
    ("It departs at 7:00 AM EST.", "departure_time_est", "06:00:00", None),
    ("It departs at 6:00 AM PST.", "departure_time_est", "06:00:00", None),  # same clock
    ("It departs at 6:00 AM EST.", "departs_at", "2024-05-17T06:00:00-04:00", None),
    ("It costs $1,243.", "price", 1234.0, None),
    ("It costs $1,234.01.", "price", 1234.0, None),
    ("It costs $89.50.", "price", 89.5, {"currency": "EUR"}),  # another currency
    ("It costs $89.50.", "price_eur", 89.5, None),
    ("It costs $3.", "quantity", 3, None),  # money is not a count
    ("It costs $18,450.", "points_balance", 18450, None),  # nor points money
    ("There are 3 items.", "price", 3.0, None),  # nor a count money
    ("The timeout is 40 seconds.", "timeout_ms", 30000, None),
    ("The timeout is 30 minutes.", "timeout_ms", 30000, None),  # same number, other unit
    ("Utilization is 54%.", "cpu_pct", 45, None),
    ("Utilization is 4.5%.", "utilization", 0.45, None),
    ("The release is v2.3.2.", "version", "2.3.1", None),
]


@pytest.mark.parametrize(("sentence", "key", "raw", "siblings"), DIFFERENT)
def test_a_different_figure_does_not_match(
    sentence: str, key: str, raw: Any, siblings: dict[str, Any] | None
) -> None:
    assert not matches(sentence, key, raw, siblings)


@pytest.mark.parametrize(
    ("key", "raw", "kind", "unit"),
    [
        ("price", 153, "money", None),
        ("amount_eur", "12.50", "money", "EUR"),
        ("total", "$153.40", "money", "USD"),
        ("fee", 5, "money", "GBP"),  # from the sibling currency field
        ("cpu_pct", "41.5", "percent", "%"),
        ("timeout_ms", 30000, "duration", None),
        ("quantity", 2, "count", None),
        ("delivery_date", "2024-05-17", "date", None),
        ("departure_time_est", "06:00:00", "time", "est"),
        ("version", "2.3.1", "version", None),
        ("status", "pending", "word", None),
        ("order_id", "#W4923227", "id", None),
        ("enabled", True, "bool", None),
    ],
)
def test_field_name_and_value_give_the_type(key: str, raw: Any, kind: str, unit: str) -> None:
    value = leaf_value(key, raw, {"currency": "gbp"} if key == "fee" else None)
    assert value is not None
    assert (value.kind, value.unit) == (kind, unit)


@pytest.mark.parametrize("raw", [None, "", "   "])
def test_empty_values_are_no_value(raw: Any) -> None:
    assert leaf_value("price", raw) is None


# ------------------------------------------------------------------ known misses

MISSES = [
    pytest.param(
        "The balance is €1.234,56.",
        "balance",
        1234.56,
        {"currency": "EUR"},
        id="euro-prefix-decimal-comma",
        marks=bug("read as €1.234 plus a stray 56"),
    ),
    pytest.param(
        "The balance is EUR 1.234,56.",
        "balance",
        1234.56,
        {"currency": "EUR"},
        id="eur-code-prefix-decimal-comma",
        marks=bug("read as EUR 1.234 plus a stray 56"),
    ),
    pytest.param(
        "The TTL is 2 hours.",
        "ttl",
        "PT2H",
        None,
        id="iso-8601-duration-field",
    ),
    pytest.param(
        "The contract expires on May 17, 2024.",
        "expires",
        "17.05.2024",
        None,
        id="dd.mm.yyyy-date-field",
    ),
]


@pytest.mark.parametrize(("sentence", "key", "raw", "siblings"), MISSES)
def test_known_misses(sentence: str, key: str, raw: Any, siblings: dict[str, Any] | None) -> None:
    assert matches(sentence, key, raw, siblings)


# ------------------------------------------------------------------ end to end


@pytest.mark.parametrize(
    ("right", "wrong"),
    [
        ("Flight HAT170 departs on May 17.", "Flight HAT170 departs on May 18."),
        ("Flight HAT170 departs at 6:00 AM EST.", "Flight HAT170 departs at 7:00 AM EST."),
        ("Flight HAT170 costs $1,234.", "Flight HAT170 costs $1,243."),
        ("The timeout of HAT170 is 30 seconds.", "The timeout of HAT170 is 40 seconds."),
        ("The load factor of HAT170 is 45%.", "The load factor of HAT170 is 54%."),
    ],
)
def test_the_gate_passes_the_equal_figure_and_blocks_the_other(right: str, wrong: str) -> None:
    flight = {
        "flight_number": "HAT170",
        "date": "2024-05-17",
        "scheduled_departure_time_est": "06:00:00",
        "price": 1234.0,
        "timeout_ms": 30000,
        "load_factor_pct": 45,
    }
    receipt = Receipt(id="c1", kind="tool", tool="get_flight", content=json.dumps(flight))
    gate = Gate()
    verdicts = [gate.validate(t, now=NOW, receipts=[receipt]).verdict for t in (right, wrong)]
    assert verdicts == ["pass", "block"]


# ------------------------------------------------------------------ properties

_CLAIMED_MONEY = ["${:,.2f}", "${:.2f}", "{:,.2f} USD", "USD {:,.2f}", "{:,.2f} dollars"]


@settings(max_examples=80, deadline=None)
@given(
    cents=st.integers(0, 10**9),
    claimed=st.sampled_from(_CLAIMED_MONEY),
    stored=st.sampled_from(["float", "plain", "symbol"]),
)
def test_any_amount_in_any_written_form_matches_the_price_field(
    cents: int, claimed: str, stored: str
) -> None:
    x = cents / 100
    raw: Any = {"float": x, "plain": f"{x:.2f}", "symbol": f"${x:,.2f}"}[stored]
    assert matches(f"It costs {claimed.format(x)}.", "price", raw)
    assert not matches(f"It costs {claimed.format(x + 0.01)}.", "price", raw)


def _ordinal(n: int) -> str:
    return f"{n}th" if 11 <= n <= 13 else f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def _forms(d: date) -> list[str]:
    return [
        f"{d:%B} {d.day}, {d.year}",
        f"{d.day} {d:%B} {d.year}",
        f"{d:%b} {d.day}, {d.year}",
        f"{d:%B} {_ordinal(d.day)}, {d.year}",
        f"{d:%A}, {d:%B} {d.day}, {d.year}",
        d.isoformat(),
        f"{d:%m/%d/%Y}",
        f"{d:%B} {d.day}",  # no year: the day in any year
    ]


@settings(max_examples=80, deadline=None)
@given(
    day=st.dates(date(1995, 1, 1), date(2035, 12, 30)),
    stored=st.sampled_from(["date", "datetime"]),
)
def test_any_date_in_any_written_form_matches_the_same_day(day: date, stored: str) -> None:
    raw = day.isoformat() if stored == "date" else f"{day.isoformat()}T09:30:00Z"
    forms = _forms(day)
    keys = {claim_keys(fact(f"It was placed on {f}.")) for f in forms[:-1]}
    assert keys == {(f"d:{day.isoformat()}",)}  # every dated form: one day key
    for form in forms:
        assert matches(f"It was placed on {form}.", "placed_at", raw), form
    for form in _forms(day + timedelta(days=1)):
        assert not matches(f"It was placed on {form}.", "placed_at", raw), form


_ZONES = ["est", "edt", "cst", "pst", "utc", "cet", "jst", "ist"]


@settings(max_examples=80, deadline=None)
@given(
    hour=st.integers(0, 23), minute=st.sampled_from([0, 5, 30, 59]), zone=st.sampled_from(_ZONES)
)
def test_any_clock_time_with_a_zone_matches_the_field_of_that_zone(
    hour: int, minute: int, zone: str
) -> None:
    h12, half = hour % 12 or 12, "AM" if hour < 12 else "PM"
    field = f"departure_time_{zone}"
    raw = f"{hour:02d}:{minute:02d}:00"
    assert matches(f"It departs at {h12}:{minute:02d} {half} {zone.upper()}.", field, raw)
    assert matches(f"It departs at {hour:02d}:{minute:02d} {zone.upper()}.", field, raw)
    later = f"{(hour + 1) % 24:02d}:{minute:02d}:00"
    assert not matches(f"It departs at {h12}:{minute:02d} {half} {zone.upper()}.", field, later)


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 500),
    unit=st.sampled_from(
        [("seconds", "timeout_ms", 1000), ("minutes", "timeout_s", 60), ("hours", "ttl_min", 60)]
    ),
)
def test_any_duration_matches_a_field_in_another_unit(n: int, unit: tuple[str, str, int]) -> None:
    word, field, factor = unit
    assert matches(f"The limit is {n} {word}.", field, n * factor)
    assert not matches(f"The limit is {n + 1} {word}.", field, n * factor)
