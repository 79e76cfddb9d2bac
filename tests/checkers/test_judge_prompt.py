"""The judge's prompt builder and tolerant answer parser, without a server."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from receiptgate.checkers.base import CheckRequest, unsettled
from receiptgate.checkers.prompt import (
    ANSWER_SCHEMA,
    MAX_RECEIPT_CHARS,
    MAX_RECEIPTS,
    AnswerError,
    build_prompt,
    parse_answer,
)
from receiptgate.evidence.facts import parse_fact
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import SentenceResult

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)


def _sentences(*texts: str, tags: tuple[str | None, ...] = ()) -> list[SentenceResult]:
    out, pos = [], 0
    for i, t in enumerate(texts):
        out.append(SentenceResult(i, t, pos, pos + len(t), "prose", tags[i] if tags else "T3"))
        pos += len(t) + 1
    return out


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ('{"sentences": [{"index": 0, "verdict": "supported", "confidence": 0.9}]}', "supported"),
        ('```json\n{"findings": [{"index": 0, "verdict": "false"}]}\n```', "contradicted"),
        (
            '<think>{"index": 0}</think> {"results": [{"sentence": "0", "label": "ok"}]}',
            "supported",
        ),
        ('{"sentences": {"0": {"verdict": "Unsubstantiated"}}}', "unsupported"),
        ('[{"index": 0, "verdict": "no claim"}]', "no_claim"),
        ('Answer: {"index": 0, "verdict": "contradicted"} done', "contradicted"),
    ],
)
def test_parse_answer_is_tolerant(content: str, expected: str) -> None:
    (v,) = parse_answer(content, [0]).values()
    assert v.verdict == expected


@pytest.mark.parametrize(
    ("raw", "confidence"),
    [(0.9, 0.9), ("85%", 0.85), (85, 0.85), ("high", 0.9), ("low", 0.3), (None, 0.5), (-1, 0.0)],
)
def test_confidences_are_normalised(raw: object, confidence: float) -> None:
    content = json.dumps({"sentences": [{"index": 0, "verdict": "supported", "confidence": raw}]})
    assert parse_answer(content, [0])[0].confidence == pytest.approx(confidence)


def test_a_flag_without_a_check_gets_a_default_check() -> None:
    v = parse_answer('{"sentences": [{"index": 0, "verdict": "contradicted"}]}', [0])[0]
    assert v.check == "contradiction"
    v = parse_answer('{"sentences": [{"index": 0, "verdict": "unsupported"}]}', [0])[0]
    assert v.check == "unsubstantiated"


@pytest.mark.parametrize(
    "content",
    [
        None,
        "",
        "The text looks fine to me.",
        '{"verdict": "pass"}',
        '{"sentences": [{"index": 5, "verdict": "supported"}]}',  # not a target
        '{"sentences": [{"index": 0, "verdict": "maybe?"}]}',
        '{"sentences": [{"index": 0, "verdict": "supported"',
    ],
)
def test_unusable_answers_raise(content: str | None) -> None:
    with pytest.raises(AnswerError):
        parse_answer(content, [0])


def test_the_schema_requires_every_key_for_strict_structured_output() -> None:
    item = ANSWER_SCHEMA["properties"]["sentences"]["items"]
    assert set(item["required"]) == set(item["properties"])
    assert item["additionalProperties"] is False


def test_the_prompt_carries_live_facts_and_trimmed_receipts() -> None:
    fresh = parse_fact(
        {
            "id": "api",
            "category": "operational_status",
            "subject": "API",
            "value": {"type": "status", "status": "degraded"},
        },
        registry_id="ops",
        where="t",
    )
    expired = parse_fact(
        {
            "id": "old",
            "category": "operational_status",
            "subject": "DB",
            "value": {"type": "status", "status": "down"},
            "ttlSeconds": 60,
            "updatedAt": (NOW - timedelta(hours=1)).isoformat(),
        },
        registry_id="ops",
        where="t",
    )
    big = Receipt(id="big", kind="tool", content="x" * (MAX_RECEIPT_CHARS * 2))
    request = CheckRequest(
        "The API is fine. <b>Bold</b> & more.",
        _sentences("The API is fine.", "<b>Bold</b> & more."),
        (0,),
        [fresh, expired],
        [big],
        True,
        "email",
        None,
        NOW,
    )
    prompt = build_prompt(request)
    user = prompt.messages[1]["content"]
    assert "<b>" not in user and "&" not in user  # escaped, still the same JSON data
    data = json.loads(user.split("\n", 1)[1])
    assert [f["id"] for f in data["facts"]] == ["api"]
    assert len(data["receipts"][0]["content"]) == MAX_RECEIPT_CHARS
    assert data["sentences"][1] == {"index": 1, "check": False, "text": "<b>Bold</b> & more."}
    assert data["today"] == "2026-03-11"
    assert prompt.fact_ids == {"api"}


def test_many_receipts_are_narrowed_to_the_relevant_ones() -> None:
    receipts = [
        Receipt(id=f"noise-{i}", kind="tool", content=f"weather report {i}") for i in range(30)
    ]
    receipts.insert(17, Receipt(id="sla", kind="rag", content="API uptime SLA is 99.9%"))
    request = CheckRequest(
        "Our API uptime is 100%.",
        _sentences("Our API uptime is 100%."),
        (0,),
        (),
        receipts,
        True,
    )
    data = json.loads(build_prompt(request).messages[1]["content"].split("\n", 1)[1])
    ids = [r["id"] for r in data["receipts"]]
    assert ids == ["sla"]
    assert len(ids) <= MAX_RECEIPTS


def test_unsettled_sentences() -> None:
    sentences = _sentences("a", "b", "c", "d", "e", tags=("T1", "T3", "T5", None, "T6"))
    sentences[2].action = "block"
    assert unsettled(sentences) == (1, 4)
