"""Hard facts against receipts (SPEC §3): support, contradiction, absence, staleness.

A claim is supported when its hard fact appears in a receipt with an equal
normalised value *and* the receipt is about the same subject; contradicted when
a receipt about the same subject carries a different value; otherwise
unsupported. Stale receipts (outside the freshness window) support nothing.
These tests go through the engine, so the tag and action are checked too.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt
from receiptgate.policy.policy_file import parse_policy
from receiptgate.results import ValidationResult

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)  # a Wednesday; last Friday = 2026-03-06

#: A receipt that exists but backs no figure: the session is not empty.
USER_ASK = Receipt(id="u1", kind="user", content="Please summarise the quarter for me.")


def _receipt(kind: str, content: str, rid: str = "crm-1", **fields: Any) -> Receipt:
    return Receipt.model_validate({"id": rid, "kind": kind, "content": content, **fields})


def _validate(
    text: str,
    *receipts: Receipt,
    policy: dict[str, Any] | None = None,
    now: datetime = NOW,
) -> ValidationResult:
    gate = Gate(policy=parse_policy(policy) if policy is not None else None)
    return gate.validate(text, receipts=list(receipts), now=now)


def _relations(result: ValidationResult, sentence: int = 0) -> list[tuple[str, str | None]]:
    return [(e.relation, e.id) for e in result.sentences[sentence].evidence]


def _details(result: ValidationResult, sentence: int = 0) -> list[str]:
    return [e.detail for e in result.sentences[sentence].evidence]


# --------------------------------------------------------------------------- money


@pytest.mark.parametrize(
    "figure",
    ["$2.4M", "2.4 million USD", "$2,400,000", "2.4M dollars", "USD 2,400,000", "$2.4 million"],
    ids=["dollar-M", "million-USD", "thousands-separators", "M-dollars", "USD-prefix", "million"],
)
def test_when_money_is_written_differently_from_the_db_value_then_it_is_supported(
    figure: str,
) -> None:
    crm = _receipt("db", "revenue_usd=2400000", source="crm")

    result = _validate(f"Revenue was {figure}.", crm, USER_ASK)

    s = result.sentences[0]
    assert ("supports", "crm-1") in _relations(result)
    assert s.tag == "T4"
    assert s.action == "pass"
    assert result.verdict == "pass"


@pytest.mark.parametrize(
    ("text", "kind", "content"),
    [
        ("Revenue was $2.4M.", "db", "revenue_usd=2300000"),
        ("Revenue was $2.4M.", "db", "revenue: $2,350,000"),
        ("Revenue grew 37%.", "db", "revenue growth: 36%"),
        ("The notice period is thirty (30) days.", "rag", "Notice period: 60 days."),
        ("The contract renews on March 7, 2026.", "rag", "The contract renews on 2026-03-06."),
        ("The invoice was paid last Friday.", "db", "invoice INV-7 paid_at: 2026-03-05"),
    ],
    ids=["money-db", "money-formatted", "percent", "duration", "date", "relative-date"],
)
def test_when_a_receipt_about_the_subject_carries_a_near_miss_value_then_it_contradicts(
    text: str, kind: str, content: str
) -> None:
    receipt = _receipt(kind, content)

    result = _validate(text, receipt, USER_ASK)

    s = result.sentences[0]
    assert ("contradicts", "crm-1") in _relations(result)
    assert s.tag == "T5"
    assert s.action == "block"
    reasons = [v.reason for v in result.violations]
    assert any(re.search(r"contradicts crm-1: .+ ≠ claimed .+", r) for r in reasons), reasons
    assert any(v.receipt_id == "crm-1" for v in result.violations)


@pytest.mark.parametrize(
    ("content", "receipt_forms"),
    [
        ("revenue_usd=2300000", ("2,300,000", "2300000", "2.3M", "2.3 million")),
        ("revenue_usd=2400001", ("2,400,001", "2400001")),
    ],
    ids=["millions", "off-by-one"],
)
def test_when_money_is_contradicted_then_the_reason_shows_readable_distinct_values(
    content: str, receipt_forms: tuple[str, ...]
) -> None:
    result = _validate("Revenue was $2.4M.", _receipt("db", content), USER_ASK)

    (detail,) = [e.detail for e in result.sentences[0].evidence if e.relation == "contradicts"]
    assert "e+" not in detail, detail  # no scientific notation in a user-facing reason
    before, _, after = detail.partition("≠")
    assert any(form in before for form in receipt_forms), detail
    assert before.split(":", 1)[1].strip().split()[-1] != after.strip().split()[-1], detail


@pytest.mark.parametrize(
    ("text", "receipt"),
    [
        ("Revenue grew 37%.", _receipt("tool", "CPU usage: 37%", tool="exec")),
        ("The contract is worth $49.", _receipt("web", "The Pro plan costs $49 per month.")),
        ("Revenue was €2.4M.", _receipt("db", "revenue: $2,400,000")),
        ("Revenue was €2.4M.", _receipt("db", "revenue_usd=2400000")),
        ("The office has 120 desks.", _receipt("db", '{"customer": "Acme", "seats": 120}')),
    ],
    ids=[
        "cpu-37-vs-revenue-37",
        "price-vs-contract",
        "usd-vs-eur",
        "usd-labelled-number-vs-eur",
        "seats-vs-desks",
    ],
)
def test_when_a_receipt_has_the_same_number_about_something_else_then_it_does_not_support(
    text: str, receipt: Receipt
) -> None:
    result = _validate(text, receipt, USER_ASK)

    s = result.sentences[0]
    assert all(rel != "supports" for rel, _ in _relations(result)), _relations(result)
    assert s.tag == "T5"
    assert s.action == "block"


# --------------------------------------------------------------------------- percentages


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("Revenue grew 37%.", "revenue growth: 37%"),
        ("Revenue grew 37%.", "revenue growth: 37 percent"),
        ("Revenue grew 37 percent.", "revenue growth: 37%"),
        ("Churn was 4.5%.", "churn rate: 4.50%"),
        ("Model accuracy was 86.1%.", "model accuracy: 0.861"),
    ],
    ids=[
        "same-form",
        "percent-word-in-receipt",
        "percent-word-in-claim",
        "trailing-zero",
        "fraction",
    ],
)
def test_when_a_percentage_matches_in_another_form_then_it_is_supported(
    text: str, content: str
) -> None:
    result = _validate(text, _receipt("tool", content, tool="exec"), USER_ASK)

    assert ("supports", "crm-1") in _relations(result)
    assert result.sentences[0].tag == "T1"
    assert result.verdict == "pass"


# --------------------------------------------------------------------------- dates


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("The contract renews on March 6, 2026.", "The contract renews on 2026-03-06."),
        ("The contract renews on 2026-03-06.", "The contract renews on March 6, 2026."),
        ("The contract renews on 6 March 2026.", "The contract renews on 2026-03-06."),
        ("The invoice was paid last Friday.", "invoice INV-7 paid_at: 2026-03-06"),
        ("The invoice was paid on Friday, March 6.", "invoice INV-7 paid_at: 2026-03-06"),
    ],
    ids=["long-vs-iso", "iso-vs-long", "day-month-year", "last-friday", "weekday-no-year"],
)
def test_when_a_date_matches_in_another_form_then_it_is_supported(text: str, content: str) -> None:
    result = _validate(text, _receipt("rag", content), USER_ASK)

    assert ("supports", "crm-1") in _relations(result)
    assert result.sentences[0].tag == "T4"
    assert result.verdict == "pass"


def test_when_now_moves_a_week_then_last_friday_no_longer_matches() -> None:
    paid = _receipt("db", "invoice INV-7 paid_at: 2026-03-06")

    result = _validate(
        "The invoice was paid last Friday.", paid, USER_ASK, now=datetime(2026, 3, 18, tzinfo=UTC)
    )

    assert ("contradicts", "crm-1") in _relations(result)
    assert result.verdict == "block"


# --------------------------------------------------------------------------- durations


@pytest.mark.parametrize(
    ("text", "content"),
    [
        ("The notice period is thirty (30) days.", "Notice period: 30 days."),
        ("The notice period is 30 days.", "The notice period is thirty days."),
        ("The notice period is thirty days.", "Notice period: thirty (30) days."),
        ("The trial lasts two weeks.", "The trial lasts 14 days."),
    ],
    ids=["words-and-digits", "digits-vs-words", "words-vs-both", "weeks-vs-days"],
)
def test_when_a_duration_matches_in_another_form_then_it_is_supported(
    text: str, content: str
) -> None:
    result = _validate(text, _receipt("rag", content), USER_ASK)

    assert ("supports", "crm-1") in _relations(result)
    assert all(rel != "contradicts" for rel, _ in _relations(result))
    assert result.verdict == "pass"


# --------------------------------------------------------------------------- freshness


@pytest.mark.parametrize(
    ("policy", "created_at"),
    [
        ({"riskClasses": {"financial": {"freshness": "30d"}}}, "2026-01-01T00:00:00Z"),
        ({"freshness": {"db": "7d"}}, "2026-03-01T00:00:00Z"),
        (None, "2025-01-01T00:00:00Z"),  # default db window is a year
    ],
    ids=["risk-class-window", "receipt-kind-window", "default-window"],
)
def test_when_a_receipt_is_older_than_its_freshness_window_then_it_does_not_support(
    policy: dict[str, Any] | None, created_at: str
) -> None:
    crm = _receipt("db", "revenue_usd=2400000", created_at=created_at)

    result = _validate("Revenue was $2.4M.", crm, USER_ASK, policy=policy)

    s = result.sentences[0]
    assert ("stale", "crm-1") in _relations(result)
    assert ("supports", "crm-1") not in _relations(result)
    assert s.tag == "T5"
    assert s.action == "block"
    assert any("days old" in d for d in _details(result))


def test_when_a_receipt_is_inside_the_freshness_window_then_it_supports() -> None:
    crm = _receipt("db", "revenue_usd=2400000", created_at="2026-03-01T00:00:00Z")

    result = _validate(
        "Revenue was $2.4M.",
        crm,
        USER_ASK,
        policy={"riskClasses": {"financial": {"freshness": "30d"}}},
    )

    assert ("supports", "crm-1") in _relations(result)
    assert result.verdict == "pass"


def test_when_a_stale_receipt_disagrees_then_it_does_not_contradict() -> None:
    old = _receipt("db", "revenue_usd=2300000", created_at="2026-01-01T00:00:00Z")

    result = _validate(
        "Revenue was $2.4M.",
        old,
        USER_ASK,
        policy={"riskClasses": {"financial": {"freshness": "30d"}}},
    )

    assert all(rel != "contradicts" for rel, _ in _relations(result))


# --------------------------------------------------------------------------- kinds -> tags


@pytest.mark.parametrize(
    ("kind", "expected_tag"),
    [
        ("tool", "T1"),
        ("web", "T1"),
        ("rag", "T4"),
        ("db", "T4"),
        ("memory", "T4"),
        ("user", "T7"),
    ],
    ids=["tool", "web", "rag", "db", "memory", "user"],
)
def test_when_a_receipt_of_a_kind_supports_the_figure_then_the_tag_follows_the_kind(
    kind: str, expected_tag: str
) -> None:
    receipt = _receipt(kind, "The Pro plan costs $49 per month.", rid="src-1")

    result = _validate("The Pro plan costs $49 per month.", receipt)

    s = result.sentences[0]
    assert ("supports", "src-1") in _relations(result)
    assert s.tag == expected_tag
    assert s.action == "pass"
    assert {e.kind for e in s.evidence if e.relation == "supports"} == {kind}


# --------------------------------------------------------------------------- no receipts


@pytest.mark.parametrize(
    "receipts",
    [[], [USER_ASK]],
    ids=["no-receipts-at-all", "unrelated-receipt"],
)
def test_when_no_receipt_carries_a_money_figure_then_it_is_t5_and_blocked(
    receipts: list[Receipt],
) -> None:
    result = _validate("Revenue was $2.4M.", *receipts)

    s = result.sentences[0]
    assert s.tag == "T5"
    assert s.action == "block"
    assert result.verdict == "block"


# --------------------------------------------------------------------------- multi-line receipts


def test_when_a_receipt_has_several_lines_then_each_figure_matches_its_own_line() -> None:
    crm = _receipt("db", "revenue_usd=2400000\nchurn rate: 4.5%\nseats: 120")

    revenue = _validate("Revenue was $2.4M.", crm, USER_ASK)
    churn = _validate("Churn was 4.5%.", crm, USER_ASK)

    assert ("supports", "crm-1") in _relations(revenue)
    assert ("supports", "crm-1") in _relations(churn)
    for detail in _details(revenue) + _details(churn):
        assert "\n" not in detail, detail  # a reason is one line
    (revenue_detail,) = _details(revenue)
    assert "churn" not in revenue_detail, revenue_detail
