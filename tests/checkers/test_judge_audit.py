"""The judge's calls reach the audit trail: latency and tokens, no prompt or answer text."""

from __future__ import annotations

from pathlib import Path

from scripted_llm import GateFactory, ScriptedLLM, ok

from receiptgate.store import open_store


def test_judge_calls_are_in_the_audit_record(
    llm: ScriptedLLM, make_gate: GateFactory, tmp_path: Path
) -> None:
    gate = make_gate()
    text = "Our API never goes down."
    llm.push(ok((0, "unsupported", "unsubstantiated", 0.9, "never goes down")))
    result = gate.validate(text, channel="twitter")
    with open_store(None, data_dir=tmp_path) as store:
        store.record_validation(result, text)
        record = store.get_record(result.id)
    assert record is not None
    calls = [c for c in record.checks if c.get("model") == "accurate"]
    assert len(calls) == 1
    call = calls[0]
    assert call["checker"] == "judge" and call["latency_ms"] > 0
    assert {"prompt_tokens", "completion_tokens", "total_tokens"} <= set(call)
    assert "messages" not in call and "answer" not in call
    assert record.to_dict()["checks"] == record.checks
