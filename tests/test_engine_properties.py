"""Properties of the whole pipeline on arbitrary text: no internal errors, honest offsets."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from receiptgate import Gate, Receipt

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()
RECEIPTS = [
    Receipt(id="r1", kind="db", content="account=Acme revenue_usd=2400000 month=2026-02"),
    Receipt(id="t1", kind="tool", tool="exec", args={"command": "pytest -q"}, content="3 passed"),
    Receipt(id="u1", kind="user", content="Our budget is $50k for March."),
]

# Words that trigger detectors, figures and labels, mixed with punctuation and noise.
WORDS = st.sampled_from(
    [
        "nginx",
        "is",
        "not",
        "running",
        "installed",
        "The",
        "user's",
        "name",
        "Iulia",
        "I",
        "ran",
        "the",
        "tests",
        "they",
        "pass",
        "$2.4M",
        "37%",
        "March",
        "3,",
        "2026",
        "yesterday",
        "v2.3.1",
        "[T1 verified]",
        "if",
        "maybe",
        "pipeline",
        "broken",
        "and",
        "web-01",
        "doesn't",
        "exist",
        "support",
        "API",
        "returned",
        "500",
        "logs",
        "show",
        "no",
        "errors",
        "Revenue",
        "grew",
        "to",
        "in",
        "Q4",
        ".",
        "?",
        "!",
        ",",
        "\n",
        "- ",
        "# ",
        "```",
        "|",
        "€1.2k",
        "thirty",
        "(30)",
        "days",
        "according",
        "database",
        "é",
    ]
)
TEXTS = st.lists(WORDS, max_size=60).map(" ".join) | st.text(max_size=300)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXTS, st.booleans())
# a figure read across a no-break space keeps the agent's own characters
@example("000000\xa0AO;", False)
def test_when_any_text_is_validated_then_no_internal_error_and_offsets_hold(
    text: str, with_receipts: bool
) -> None:
    result = GATE.validate(text, now=NOW, receipts=RECEIPTS if with_receipts else ())
    assert result.fail_mode_applied is None, result.error
    assert result.verdict in ("pass", "flag", "block")
    for s in result.sentences:
        assert text[s.start : s.end] == s.text
        assert s.tag in (None, "T1", "T2", "T3", "T4", "T5", "T6", "T7")
    for c in result.claims:
        assert text[c.offset : c.end] == c.matched_text
        for h in c.hard_facts:
            assert text[h.start : h.end] == h.text
    if result.verdict == "pass" and result.skipped is None:
        assert all(s.action == "pass" for s in result.sentences)
    result.to_dict()  # serialisable
