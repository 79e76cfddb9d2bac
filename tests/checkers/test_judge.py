"""The LLM judge against a scripted OpenAI-compatible server (SPEC §5, RFC-006 Stage 3).

Every test runs the real gate, the real ``openai`` SDK and real HTTP on
loopback; the server's scripted answers are the only thing that is fake.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from scripted_llm import GateFactory, Reply, ScriptedLLM, data_of, ok, system_of

from receiptgate.evidence.receipts import Receipt
from receiptgate.rewrite import BLOCK_NOTICE

TWEET = "We now serve 10 million users. Our API never goes down. Thanks for reading!"
API_FACT = {
    "id": "api-status",
    "category": "operational_status",
    "subject": "API",
    "value": {"type": "status", "status": "degraded"},
}


def _judge_calls(result: Any) -> list[dict[str, Any]]:
    return [c for c in result.checks if c["stage"] != "result"]


def _summary(result: Any) -> dict[str, Any]:
    rows = [c for c in result.checks if c["stage"] == "result"]
    assert len(rows) == 1
    return rows[0]


# ---------------------------------------------------------------- valid verdicts


def test_valid_verdicts_become_evidence_claims_violations_and_tags(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(facts=[API_FACT])
    text = "Our API has 99.99% uptime. Our API never goes down. Thanks for reading!"
    receipts = [Receipt(id="uptime", kind="tool", content="uptime 30d: 99.99%", tool="exec")]
    llm.push(
        ok(
            (0, "supported", "none", 0.9),
            {
                "index": 1,
                "verdict": "contradicted",
                "check": "exaggerated_capability",
                "quote": "never goes down",
                "reason": "the API is degraded",
                "confidence": 0.92,
                "evidence": ["api-status", "made-up-id"],
            },
            (2, "no_claim", "none", 0.99),
        )
    )
    result = gate.validate(text, channel="twitter", receipts=receipts)

    assert result.verdict == "block"
    assert result.fail_mode_applied is None
    s0, s1, s2 = result.sentences
    assert (s0.tag, s0.action) == ("T1", "pass")
    assert any(e.kind == "judge" and e.relation == "supports" for e in s0.evidence)
    assert (s1.tag, s1.action) == ("T5", "block")
    judge_ev = [e for e in s1.evidence if e.kind == "judge"]
    assert len(judge_ev) == 1
    assert judge_ev[0].relation == "contradicts"
    assert judge_ev[0].id == "judge:accurate"
    assert "the API is degraded" in judge_ev[0].detail
    claim = result.claims[judge_ev[0].claim_index]  # type: ignore[index]
    assert claim.detector_id == "judge.exaggerated_capability"
    assert claim.category == "capability"
    assert text[claim.offset : claim.end] == "never goes down"
    (violation,) = [v for v in result.violations if v.sentence_index == 1]
    assert violation.action == "block"
    assert violation.severity == "high"
    assert violation.fact_id == "api-status"  # a cited id the prompt carried; made-up ids drop
    assert (s2.tag, s2.action) == (None, "pass")
    assert result.delivered_text == "Our API has 99.99% uptime. Thanks for reading!"
    assert "exaggerated_capability" in result.reason

    (call,) = _judge_calls(result)
    assert call["model"] == "accurate"
    assert call["status"] == "ok"
    assert (call["prompt_tokens"], call["completion_tokens"], call["total_tokens"]) == (
        120,
        30,
        150,
    )
    assert call["latency_ms"] > 0
    assert call["cached"] is False
    assert call["attempts"] == 1
    assert _summary(result)["external"] is True
    record = result.to_dict()
    json.dumps(record)
    assert record["checks"] == result.checks


def test_the_request_carries_the_schema_the_facts_and_the_receipts(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(facts=[API_FACT], maxTokens=321)
    receipts = [Receipt(id="r1", kind="db", content="users: 1,204,331 active")]
    llm.push(ok((0, "supported"), (1, "supported"), (2, "no_claim")))
    gate.validate(TWEET, channel="twitter", receipts=receipts)

    (req,) = llm.requests
    assert req["model"] == "accurate"
    assert req["max_tokens"] == 321
    assert req["temperature"] == 0
    assert req["response_format"]["type"] == "json_schema"
    assert req["response_format"]["json_schema"]["strict"] is True
    assert "Corporate Communications Fact-Checker" in system_of(req)
    for check in ("false_number", "unsubstantiated", "misleading", "contradiction"):
        assert check in system_of(req)
    assert "exaggerated_capability" in system_of(req)
    data = data_of(req)
    assert data["channel"] == "twitter"
    assert [f["id"] for f in data["facts"]] == ["api-status"]
    assert [r["id"] for r in data["receipts"]] == ["r1"]
    assert [s["text"] for s in data["sentences"]] == [
        "We now serve 10 million users.",
        "Our API never goes down.",
        "Thanks for reading!",
    ]


def test_the_whole_external_text_is_judged_and_a_deterministic_block_stays(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate()
    llm.push(ok((0, "supported", "none", 1.0), (1, "supported"), (2, "no_claim")))
    result = gate.validate(TWEET, channel="twitter")

    data = data_of(llm.requests[0])
    assert [s["check"] for s in data["sentences"]] == [True, True, True]
    assert result.sentences[0].action == "block"  # "10 million users": no receipt
    assert any(e.kind == "judge" for e in result.sentences[0].evidence)
    assert result.verdict == "block"


def test_a_supported_verdict_never_lifts_a_warning(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate()
    text = "Our support team answers quickly."
    before = make_gate(enabled=False).validate(text, channel="twitter")
    llm.push(ok((0, "supported", "none", 0.99)))
    after = gate.validate(text, channel="twitter")
    assert before.sentences[0].action == after.sentences[0].action
    assert before.verdict == after.verdict
    assert after.sentences[0].tag == before.sentences[0].tag


def test_internal_messages_do_not_call_the_judge_by_default(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate()
    result = gate.validate(TWEET, channel="slack")
    assert llm.requests == []
    assert result.checks == []


def test_scope_all_sends_only_unsettled_sentences_of_internal_messages(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(scope="all")
    text = "The API is degraded. Our API never goes down. Thanks!"
    llm.push(ok((1, "contradicted", "contradiction", 0.9)))
    result = gate.validate(text, channel="slack", receipts=[])
    data = data_of(llm.requests[0])
    checked = [s["index"] for s in data["sentences"] if s["check"]]
    unsettled = [s.index for s in result.sentences if s.tag in ("T2", "T3", "T6")]
    assert 1 in checked
    assert set(checked) <= {*unsettled, 0, 1}
    assert result.sentences[1].action == "block"


def test_a_judge_finding_follows_the_trust_tier_policies(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate()
    text = "Our API never goes down. Our app is the fastest on the market."
    answer = ok((0, "contradicted", "contradiction", 0.95), (1, "unsupported", "misleading", 0.9))
    llm.push(answer, answer)
    default = gate.validate(text, channel="twitter")
    trusted = gate.validate(text, channel="twitter", trust=70)

    assert [s.action for s in default.sentences] == ["block", "warn"]
    # trusted tier (RFC-003 §9.2): contradiction flags, unverified claims are ignored
    assert trusted.sentences[0].action == "warn"
    assert trusted.sentences[1].action in ("pass", "warn")
    assert not [v for v in trusted.violations if v.sentence_index == 1]


def test_a_low_confidence_contradiction_flags_but_does_not_block(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate()
    llm.push(ok((0, "contradicted", "contradiction", 0.5)))
    result = gate.validate("Our API never goes down.", channel="email")
    assert result.sentences[0].action == "warn"
    assert "minBlockConfidence" in result.sentences[0].reasons[-1]


# ---------------------------------------------------------------- malformed answers


@pytest.mark.parametrize(
    "content",
    [
        pytest.param(
            'Sure! Here is my verdict:\n```json\n{"sentences": [{"index": 0, "verdict": '
            '"contradicted", "check": "contradiction", "confidence": 0.9}]}\n```',
            id="code-fence-and-prose",
        ),
        pytest.param(
            '<think>the API is degraded</think>{"sentences": [{"index": "0", '
            '"verdict": "FALSE", "confidence": "90%"}]}',
            id="think-block-string-index-synonym-percent",
        ),
        pytest.param(
            '[{"sentence": 0, "status": "block", "reason": "degraded", "confidence": "high"}]',
            id="bare-list-word-confidence",
        ),
    ],
)
def test_tolerant_parsing_reads_imperfect_json(
    llm: ScriptedLLM, make_gate: GateFactory, content: str
) -> None:
    gate = make_gate(responseFormat="none")
    llm.push(Reply(content))
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 1
    assert result.fail_mode_applied is None
    assert result.sentences[0].action == "block"
    assert "response_format" not in llm.requests[0]


def test_unreadable_answers_are_retried_then_fail_open_flags(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(maxRetries=2)
    llm.push(Reply("I think it is fine."), Reply("{not json"), Reply('{"verdict": "pass"}'))
    result = gate.validate("Our API never goes down.", channel="twitter")

    assert len(llm.requests) == 3
    assert result.verdict == "flag"  # never a silent pass
    assert result.fail_mode_applied == "fail_open"
    assert result.audit_verdict == "error_fallback"
    assert result.error is not None and "judge" in result.error
    assert any("judge failed" in i["message"] for i in result.issues)
    assert result.reason.startswith("judge failed")
    (call,) = _judge_calls(result)
    assert (call["status"], call["attempts"]) == ("malformed", 3)
    assert result.delivered_text is not None


def test_fail_closed_blocks_when_the_judge_cannot_answer(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(maxRetries=0, failMode="fail_closed")
    llm.push(Reply("no json here"))
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert result.verdict == "block"
    assert result.fail_mode_applied == "fail_closed"
    assert result.delivered_text == BLOCK_NOTICE


def test_the_gate_fail_mode_is_the_judge_default(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate(maxRetries=0, top={"failMode": "fail_closed"})
    llm.push(Reply(status=503))
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert (result.verdict, result.fail_mode_applied) == ("block", "fail_closed")


def test_a_sentence_the_model_skips_is_not_passed(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate()
    text = "Our API never goes down. Our app is the fastest on the market."
    llm.push(ok((0, "supported", "none", 0.95), (7, "supported")))  # 1 missing, 7 unknown
    result = gate.validate(text, channel="twitter")
    assert result.sentences[1].action == "warn"
    assert "not checked by the judge" in result.sentences[1].reasons[-1]
    assert result.fail_mode_applied == "fail_open"
    assert _summary(result)["unchecked"] == [1]


# ---------------------------------------------------------------- HTTP errors, timeouts


def test_server_errors_are_retried_with_backoff(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate(maxRetries=2)
    llm.push(Reply(status=500), Reply(status=502), ok((0, "contradicted", "contradiction")))
    started = time.perf_counter()
    result = gate.validate("Our API never goes down.", channel="twitter")
    elapsed = time.perf_counter() - started

    assert len(llm.requests) == 3
    assert elapsed >= 0.2 * 0.75 + 0.4 * 0.75  # two backoff pauses, 0.2 s then 0.4 s
    assert result.fail_mode_applied is None
    assert result.sentences[0].action == "block"
    (call,) = _judge_calls(result)
    assert (call["status"], call["attempts"]) == ("ok", 3)


def test_persistent_500s_apply_the_fail_mode(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate(maxRetries=1)
    llm.push(Reply(status=500), Reply(status=500))
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 2
    assert result.verdict == "flag"
    assert result.fail_mode_applied == "fail_open"
    (call,) = _judge_calls(result)
    assert call["status"] == "http_500"
    assert "HTTP 500" in call["error"]


def test_an_authentication_error_is_not_retried(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate(maxRetries=3)
    llm.push(Reply(status=401, error="bad key"))
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 1
    assert result.fail_mode_applied == "fail_open"
    assert "bad key" in (result.error or "")


def test_a_timeout_applies_the_fail_mode_within_timeout_ms(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(timeoutMs=300, maxRetries=2)
    llm.push(ok((0, "supported"), delay=1.5))
    started = time.perf_counter()
    result = gate.validate("Our API never goes down.", channel="twitter")
    elapsed = time.perf_counter() - started

    assert elapsed < 1.2
    assert result.verdict == "flag"  # never a silent pass
    assert result.fail_mode_applied == "fail_open"
    (call,) = _judge_calls(result)
    assert call["status"] == "timeout"
    assert len(llm.requests) == 1  # a timeout uses up timeoutMs: no retry


def test_an_endpoint_without_structured_output_gets_json_mode_then_plain(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate()
    llm.push(
        Reply(status=400, error="response_format json_schema is not supported"),
        Reply(status=400, error="unknown field response_format"),
        ok((0, "contradicted", "contradiction")),
        ok((0, "contradicted", "contradiction")),
    )
    result = gate.validate("Our API never goes down.", channel="twitter")
    formats = [r.get("response_format", {}).get("type") for r in llm.requests]
    assert formats == ["json_schema", "json_object", None]
    assert result.sentences[0].action == "block"
    gate.validate("Our API never goes down!", channel="twitter")
    assert "response_format" not in llm.requests[-1]  # learnt once per judge


def test_max_completion_tokens_is_used_when_the_endpoint_asks_for_it(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(responseFormat="json_schema")
    llm.push(
        Reply(
            status=400, error="Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens'."
        ),
        ok((0, "supported")),
    )
    gate.validate("Our API never goes down.", channel="twitter")
    assert "max_tokens" in llm.requests[0]
    assert llm.requests[1]["max_completion_tokens"] == 500
    assert "max_tokens" not in llm.requests[1]


def test_a_broken_endpoint_url_fails_visibly(make_gate: GateFactory) -> None:
    gate = make_gate(baseUrl="http://127.0.0.1:9/v1", maxRetries=0, timeoutMs=2000)
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert result.fail_mode_applied == "fail_open"
    assert result.verdict == "flag"
    assert _judge_calls(result)[0]["status"] == "connection_error"


# ---------------------------------------------------------------- cache


def test_a_cached_answer_makes_no_request(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate()
    llm.push(ok((0, "contradicted", "contradiction")))
    first = gate.validate("Our API never goes down.", channel="twitter")
    second = gate.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 1
    assert [s.action for s in second.sentences] == [s.action for s in first.sentences]
    (call,) = _judge_calls(second)
    assert call["cached"] is True
    assert call["total_tokens"] == 0


def test_other_evidence_is_another_cache_key(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate()
    llm.push(ok((0, "unsupported", "unsubstantiated")), ok((0, "supported")))
    gate.validate("Our API never goes down.", channel="twitter")
    receipts = [Receipt(id="sla", kind="rag", content="The API has had no outage since 2019.")]
    gate.validate("Our API never goes down.", channel="twitter", receipts=receipts)
    assert len(llm.requests) == 2


def test_the_sqlite_cache_is_shared_across_gates_and_expires(
    llm: ScriptedLLM, make_gate: GateFactory, tmp_path: Any
) -> None:
    path = tmp_path / "judge.sqlite3"
    llm.push(ok((0, "contradicted", "contradiction")), ok((0, "contradicted", "contradiction")))
    first = make_gate(cacheUrl=str(path), cacheTtlSeconds=1)
    first.validate("Our API never goes down.", channel="twitter")
    second = make_gate(cacheUrl=f"sqlite:///{path}", cacheTtlSeconds=1)
    again = second.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 1
    assert _judge_calls(again)[0]["cached"] is True
    time.sleep(1.1)
    expired = second.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 2
    assert _judge_calls(expired)[0]["cached"] is False


def test_the_redis_cache_is_shared_across_gates(
    llm: ScriptedLLM, make_gate: GateFactory, redis_url: str
) -> None:
    import redis

    url = redis_url.rsplit("/", 1)[0] + "/7"
    redis.Redis.from_url(url).flushdb()
    llm.push(ok((0, "contradicted", "contradiction")))
    text = "Our API never goes down."
    make_gate(cacheUrl=url).validate(text, channel="twitter")
    again = make_gate(cacheUrl=url).validate(text, channel="twitter")
    assert len(llm.requests) == 1
    assert _judge_calls(again)[0]["cached"] is True


def test_failures_are_not_cached(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate(maxRetries=0)
    llm.push(Reply(status=500), ok((0, "supported")))
    gate.validate("Our API never goes down.", channel="twitter")
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 2
    assert result.fail_mode_applied is None


def test_cache_ttl_zero_disables_the_cache(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate(cacheTtlSeconds=0)
    llm.push(ok((0, "supported")), ok((0, "supported")))
    gate.validate("Our API never goes down.", channel="twitter")
    gate.validate("Our API never goes down.", channel="twitter")
    assert len(llm.requests) == 2


# ---------------------------------------------------------------- cascade


def test_a_confident_fast_pass_does_not_call_the_accurate_model(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(cascade={"fastModel": "fast"})
    llm.push(ok((0, "supported", "none", 0.95)), model="fast")
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert llm.models() == ["fast"]
    assert [c["stage"] for c in _judge_calls(result)] == ["fast"]
    assert _summary(result)["escalated"] is False
    assert any(e.id == "judge:fast" for e in result.sentences[0].evidence)


@pytest.mark.parametrize(
    "fast",
    [
        pytest.param(ok((0, "supported", "none", 0.55)), id="unsure"),
        pytest.param(ok((0, "unsupported", "unsubstantiated", 0.95)), id="flags"),
        pytest.param(ok((0, "contradicted", "contradiction", 0.99)), id="blocks"),
        pytest.param(Reply("gibberish"), id="unreadable"),
    ],
)
def test_the_accurate_model_decides_when_the_fast_one_is_unsure_or_flags(
    llm: ScriptedLLM, make_gate: GateFactory, fast: Reply
) -> None:
    gate = make_gate(cascade={"fastModel": "fast", "escalateBelow": 0.8}, maxRetries=0)
    llm.push(fast, model="fast")
    llm.push(ok((0, "supported", "none", 0.97)), model="accurate")
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert llm.models() == ["fast", "accurate"]
    assert [c["stage"] for c in _judge_calls(result)] == ["fast", "accurate"]
    assert _summary(result)["escalated"] is True
    assert result.fail_mode_applied is None
    assert result.sentences[0].action != "block"  # the accurate model's verdict stands


def test_an_ensemble_decides_by_majority(llm: ScriptedLLM, make_gate: GateFactory) -> None:
    gate = make_gate(cascade={"fastModel": "fast", "ensemble": ["a", "b", "c"]})
    text = "Our API never goes down. Our team is in Berlin."
    llm.push(ok((0, "unsupported", "unsubstantiated", 0.9), (1, "supported")), model="fast")
    llm.push(ok((0, "contradicted", "contradiction", 0.9), (1, "supported")), model="a")
    llm.push(ok((0, "contradicted", "contradiction", 0.8), (1, "supported")), model="b")
    llm.push(ok((0, "supported", "none", 0.9), (1, "contradicted", "contradiction")), model="c")
    result = gate.validate(text, channel="twitter")

    assert sorted(llm.models()) == ["a", "b", "c", "fast"]
    assert result.sentences[0].action == "block"  # 2 of 3 say contradicted
    assert result.sentences[1].action != "block"  # 2 of 3 say supported
    assert [c["stage"] for c in _judge_calls(result)].count("ensemble") == 3
    assert _summary(result)["votes"] == 3
    ev = [e for e in result.sentences[0].evidence if e.kind == "judge"]
    assert ev[0].id == "judge:vote(a,b,c)"


def test_an_ensemble_tie_goes_to_the_more_severe_verdict(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(cascade={"ensemble": ["a", "b"]})
    llm.push(ok((0, "supported")), model="a")
    llm.push(ok((0, "contradicted", "contradiction")), model="b")
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert result.sentences[0].action == "block"


def test_an_ensemble_without_a_majority_of_answers_fails_visibly(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(cascade={"ensemble": ["a", "b", "c"]}, maxRetries=0)
    llm.push(ok((0, "supported")), model="a")
    llm.push(Reply(status=500), model="b")
    llm.push(Reply("???"), model="c")
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert result.fail_mode_applied == "fail_open"
    assert result.verdict == "flag"
    assert "1 of 3 ensemble models answered" in (result.error or "")


def test_a_failing_fast_model_does_not_fail_the_judgement(
    llm: ScriptedLLM, make_gate: GateFactory
) -> None:
    gate = make_gate(cascade={"fastModel": "fast"}, maxRetries=0)
    llm.push(Reply(status=500), model="fast")
    llm.push(ok((0, "contradicted", "contradiction")), model="accurate")
    result = gate.validate("Our API never goes down.", channel="twitter")
    assert result.fail_mode_applied is None
    assert result.sentences[0].action == "block"
    fast, accurate = _judge_calls(result)
    assert (fast["status"], accurate["status"]) == ("http_500", "ok")
