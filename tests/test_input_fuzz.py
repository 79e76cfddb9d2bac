"""Input is never a fault: no text, receipt, fact or time makes the gate apply its fail mode.

Hypothesis generates texts (lone surrogates, control and bidi characters, huge
numbers, every script), receipts (JSON payloads of any shape, tool calls with
arguments) and facts; every call must end in a verdict with no fail mode
applied, or in a clear refusal (``InputError`` / ``ConfigError``). CI runs a
bounded number of examples; ``RECEIPTGATE_FUZZ_EXAMPLES=20000`` runs the longer
documented pass (docs/python-api.md#fuzzing).
"""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from receiptgate._exceptions import UserError
from receiptgate.config import parse_config
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt, inline_receipts
from receiptgate.stream import StreamGate
from receiptgate.text.clean import clean_text

EXAMPLES = int(os.environ.get("RECEIPTGATE_FUZZ_EXAMPLES", "120"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    derandomize=EXAMPLES <= 200,  # CI: the same examples every run
)
NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()

# Pieces that have broken parsers before: figures, dates, bidi and control
# characters, surrogates, markdown, quotes, huge numbers.
PIECES = [
    "$1,234.56", "€2.4M", "37%", "1e308", "9" * 400, "-0", "NaN", "0x1F", "v1.2.3",
    "May 17", "2024-05-17", "6:00 AM EST", "yesterday", "last Friday", "Q3 2025", "FY2025",
    "I ran the tests and they all pass.", "I have cancelled your order #W123.",
    "nginx is running", "Node.js is not installed", "The user's name is Iulia",
    "\u202e", "\u200b", "\u0000", "\x1b[31m", "\r\n", "\t", "\ud800", "\udfff", "\ufffd",
    "**bold:**", "# Heading", "- item", "| a | b |", "```", "> quote", "1. ", "...", "…",
    "日本語の文。", "Ελληνικά.", "العربية.", "עברית.", "हिन्दी।", "😀", "e\u0301",
]  # fmt: skip

texts = st.one_of(
    st.text(max_size=400),
    st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=20)), max_size=30).map(" ".join),
)
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    texts,
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.one_of(st.sampled_from(["id", "price", "name", "status"]), texts),
                        inner, max_size=5),
    ),
    max_leaves=25,
)  # fmt: skip
receipts = st.lists(
    st.fixed_dictionaries(
        {
            "kind": st.sampled_from(["tool", "web", "rag", "db", "memory", "user"]),
            "content": st.one_of(texts, json_values.map(lambda v: json.dumps(v))),
        },
        optional={
            "tool": st.sampled_from(["exec", "pytest", "read_file", "get_order", "x"]),
            "args": st.dictionaries(st.text(max_size=10), json_values, max_size=3),
            "ok": st.booleans(),
            "created_at": st.sampled_from(["2026-03-01T00:00:00Z", "1970-01-01", "garbage"]),
            "trust": st.sampled_from(["owner", "untrusted", "nope"]),
        },
    ),
    max_size=6,
)
facts = st.lists(
    st.fixed_dictionaries(
        {
            "category": st.sampled_from(
                ["system_state", "operational_status", "entity_name", "existence"]
            ),
            "subject": texts,
            "value": st.one_of(
                st.fixed_dictionaries({"type": st.just("state"), "state": texts}),
                st.fixed_dictionaries(
                    {"type": st.just("status"), "status": st.sampled_from(["operational", "down"])}
                ),
                st.fixed_dictionaries({"type": st.just("name"), "name": texts}),
            ),
        },
        optional={
            "ttlSeconds": st.one_of(st.integers(), st.floats(allow_nan=False)),
            "updatedAt": st.sampled_from(["2026-03-01T00:00:00Z", "9999-12-31T00:00:00Z", "x"]),
            "subjectIsRegex": st.booleans(),
        },
    ),
    max_size=4,
)


def _no_fail_mode(result: Any) -> None:
    assert result.fail_mode_applied is None, result.error
    assert result.verdict in ("pass", "flag", "block")
    json.dumps(result.to_dict()).encode("utf-8")  # every string is valid UTF-8


@FUZZ
@given(text=texts, agent=st.one_of(st.none(), texts))
def test_any_text_gets_a_verdict(text: str, agent: str | None) -> None:
    _no_fail_mode(GATE.validate(text, now=NOW, agent_id=agent))


json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), texts),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["message", "x"]), inner)
    ),
    max_leaves=6,
)


@FUZZ
@given(
    message=texts,
    extra=st.dictionaries(st.sampled_from(["message", "content", "a", "b"]), json_values),
    ascii_only=st.booleans(),
)
def test_any_reply_written_as_json_gets_a_verdict_with_offsets_into_it(
    message: str, extra: dict[str, Any], ascii_only: bool
) -> None:
    text = json.dumps({**extra, "message": message}, ensure_ascii=ascii_only)
    result = GATE.validate(text, now=NOW)
    _no_fail_mode(result)
    sent, _ = clean_text(text)  # a lone surrogate is U+FFFD in what the gate reads
    assert all(sent[x.start : x.end] == x.text for x in result.sentences)


@FUZZ
@given(text=texts, items=receipts)
def test_any_receipts_get_a_verdict_or_a_clear_refusal(
    text: str, items: list[dict[str, Any]]
) -> None:
    try:
        loaded = inline_receipts(items, None)
    except UserError:
        return  # a refusal that names the receipt and field
    _no_fail_mode(GATE.validate(text, now=NOW, receipts=loaded))


@FUZZ
@given(text=texts, items=facts)
def test_any_facts_get_a_verdict_or_a_clear_refusal(text: str, items: list[dict[str, Any]]) -> None:
    for i, f in enumerate(items):
        f["id"] = f"f{i}"
    try:
        gate = Gate(parse_config({"factRegistries": [{"id": "fz", "facts": items}]}))
    except UserError:
        return
    _no_fail_mode(gate.validate(text, now=NOW))


@FUZZ
@given(
    now=st.datetimes(timezones=st.sampled_from([UTC, None])),
    text=st.sampled_from(PIECES),
)
def test_any_reference_time_gets_a_verdict_or_a_clear_refusal(now: datetime, text: str) -> None:
    try:
        result = GATE.validate(f"{text} It shipped last Friday, 3 days ago.", now=now)
    except UserError:
        return
    _no_fail_mode(result)


@FUZZ
@given(tokens=st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=8)), max_size=40))
def test_any_token_stream_gets_a_verdict(tokens: list[str]) -> None:
    sg = StreamGate(GATE, now=NOW)
    for token in tokens:
        sg.feed(token)
    _no_fail_mode(sg.close())


@pytest.mark.parametrize("depth", [70, 900, 5000])
def test_a_tool_result_nested_past_any_record_gets_a_verdict(depth: int) -> None:
    # a result built to exhaust the stack is read as plain text: a verdict, no fail mode
    nested = '{"a":' * depth + '{"total": 40}' + "}" * depth
    for content in (nested, "[" * depth + "]" * depth):
        receipts = [Receipt(id="c1", kind="tool", content=content, tool="get_order")]
        result = Gate().validate("The total is $40.", receipts=receipts)
        assert result.fail_mode_applied is None
        assert result.verdict in ("pass", "flag", "block")
