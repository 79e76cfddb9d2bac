"""A failing judge under streaming: the fail mode applies exactly as in ``validate``.

Before, ``/validate/stream`` reported ``pass`` ("all claims supported",
``checks: []``) for 17 of 18 judge faults under fail_open.
"""

from __future__ import annotations

import pytest
from scripted_llm import GateFactory, Reply, ScriptedLLM

from receiptgate.stream import StreamGate

TEXT = "Our API never goes down. We are the market leader in Europe."

FAULTS = {
    "http-500": lambda: Reply(status=500),
    "http-429": lambda: Reply(status=429),
    "http-401": lambda: Reply(status=401),
    "not-json": lambda: Reply("sure, looks fine to me"),
    "empty": lambda: Reply(""),
    "wrong-schema": lambda: Reply('{"verdicts": "ok"}'),
    "timeout": lambda: Reply('{"sentences": []}', delay=1.0),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
@pytest.mark.parametrize(
    ("fail_mode", "verdict"), [("fail_open", "flag"), ("fail_closed", "block")]
)
def test_a_judge_fault_never_streams_a_pass(
    llm: ScriptedLLM, make_gate: GateFactory, fault: str, fail_mode: str, verdict: str
) -> None:
    gate = make_gate(failMode=fail_mode, timeoutMs=400, maxRetries=0, cacheUrl=None)
    llm.push(*[FAULTS[fault]() for _ in range(50)])
    whole = gate.validate(TEXT, channel="twitter")
    stream = StreamGate(gate, channel="twitter")
    for word in TEXT.split(" "):
        stream.feed(word + " ")
    report = stream.close()
    assert whole.verdict == report.verdict == verdict
    assert report.fail_mode_applied == fail_mode
    assert report.checks, "the failed judge call is kept in the report"
    assert all(e.action != "pass" for e in stream.events)
