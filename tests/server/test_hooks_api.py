"""``POST /hooks/{event}``: the runtime hooks over HTTP, against a real ``receiptgate serve``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import LiveServer, start_server

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"
LIE = "Node.js is not installed on the build host."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    s = start_server(tmp_path_factory.mktemp("hooks") / "data", args=("--facts", str(FACTS)))
    yield s
    s.stop()


def test_before_message_write_blocks_a_contradicted_assistant_message_and_audits_it(
    server: LiveServer,
) -> None:
    status, _, answer = server.request(
        "POST",
        "/hooks/before_message_write",
        {"message": {"role": "assistant", "content": LIE}},
        key="validate",
    )
    assert status == 200, answer
    assert answer["block"] is True and "receiptgate" in answer["blockReason"]
    assert answer["event"] == "before_message_write"
    [report] = answer["validations"]
    assert report["verdict"] == "block"
    status, _, record = server.request("GET", f"/audit/{report['id']}")
    assert status == 200
    assert record["trigger_hook"] == "before_message_write"
    assert record["text_length"] == len(LIE)


def test_llm_output_never_blocks_but_is_audited(server: LiveServer) -> None:
    status, _, answer = server.request(
        "POST", "/hooks/llm_output", {"assistantTexts": [LIE]}, key="validate"
    )
    assert status == 200, answer
    assert not answer.get("block") and not answer.get("cancel")
    for report in answer["validations"]:
        assert server.request("GET", f"/audit/{report['id']}")[0] == 200


def test_an_external_tool_call_is_blocked_when_the_gate_blocks(server: LiveServer) -> None:
    status, _, answer = server.request(
        "POST",
        "/hooks/before_tool_call",
        {"toolName": "exec", "params": {"command": f"bird tweet '{LIE}'"}},
        key="validate",
    )
    assert status == 200, answer
    assert answer["block"] is True


def test_bad_hook_requests_are_json_errors(server: LiveServer) -> None:
    status, _, answer = server.request("POST", "/hooks/no_such_event", {}, key="validate")
    assert status == 404 and "before_message_write" in answer["message"]
    status, _, answer = server.request("POST", "/hooks/before_tool_call", {}, key="validate")
    assert status == 422 and "toolName" in answer["message"]
    status, _, answer = server.request(
        "POST", "/hooks/before_message_write", {"message": {}}, key=None
    )
    assert status == 401


def test_hook_validations_use_the_receipts_stored_for_the_session(server: LiveServer) -> None:
    claim = "I ran the test suite and all 214 tests pass."
    body = {"sessionKey": "s-receipts", "content": claim}
    status, _, before = server.request("POST", "/hooks/message_sending", body, key="validate")
    assert status == 200
    assert before["validations"][0]["verdict"] == "block"  # no receipt: an invented result
    receipt = {
        "id": "r-pytest",
        "kind": "tool",
        "tool": "exec",
        "args": {"command": "pytest -q"},
        "content": "214 passed in 3.2s",
        "ok": True,
    }
    status, _, _ = server.request(
        "POST", "/sessions/s-receipts/receipts", {"receipts": [receipt]}, key="validate"
    )
    assert status == 200
    status, _, after = server.request("POST", "/hooks/message_sending", body, key="validate")
    assert status == 200
    [report] = after["validations"]
    assert report["verdict"] == "pass", report
    assert "cancel" not in after
    assert report["id"] != before["validations"][0]["id"]
    # another session's receipts do not count
    other = {"sessionKey": "s-elsewhere", "content": claim}
    _, _, elsewhere = server.request("POST", "/hooks/message_sending", other, key="validate")
    assert elsewhere["validations"][0]["verdict"] == "block"


def test_hook_events_have_their_own_budget_apart_from_validations(tmp_path: Path) -> None:
    s = start_server(
        tmp_path / "data",
        env={"RECEIPTGATE_RATE_LIMIT": "1/minute", "RECEIPTGATE_HOOK_RATE_LIMIT": "5/minute"},
    )
    try:
        turn = {"sessionKey": "s-budget", "iteration": 0}
        for _ in range(5):  # more events than the validation budget allows validations
            status, _, _ = s.request("POST", "/hooks/loop_iteration_start", turn, key="validate")
            assert status == 200
        status, headers, answer = s.request(
            "POST", "/hooks/loop_iteration_start", turn, key="validate"
        )
        assert status == 429 and int({k.lower(): v for k, v in headers.items()}["retry-after"]) >= 1
        assert "5/minute hook events" in answer["message"]
        # the validation budget was not touched by the hooks
        status, _, _ = s.request("POST", "/validate", {"text": "Hello."}, key="validate")
        assert status == 200
        status, _, answer = s.request("POST", "/validate", {"text": "Hello."}, key="validate")
        assert status == 429 and "validations" in answer["message"]
    finally:
        s.stop()


def test_a_bad_hook_rate_limit_stops_serve_with_exit_2(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", "serve", "--data-dir", str(tmp_path),
         "--hook-rate-limit", "lots"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2 and "RECEIPTGATE_HOOK_RATE_LIMIT: 'lots'" in done.stderr
