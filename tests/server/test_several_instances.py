"""Two ``receiptgate serve`` processes on one PostgreSQL and one Redis act as one service.

Both servers are real processes; PostgreSQL and Redis are real servers started by
the test run (tests/services.py).
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import LiveServer, start_server


@pytest.fixture
def pair(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> Iterator[tuple[LiveServer, LiveServer]]:
    env = {
        "RECEIPTGATE_RATE_LIMIT": "5/minute",
        "RECEIPTGATE_FACTS_POLL_SECONDS": "0.2",
    }
    args = ("--db", postgres_url, "--redis", redis_url)
    a = start_server(tmp_path / "a", args=args, env=env)
    b = start_server(tmp_path / "b", args=args, env=env)
    yield a, b
    a.stop()
    b.stop()


def test_rate_limit_audit_and_facts_are_shared(pair: tuple[LiveServer, LiveServer]) -> None:
    a, b = pair
    body = {"text": "The pipeline is broken.", "user_id": f"user-{time.time_ns()}"}
    codes = [a.request("POST", "/validate", body, key="validate")[0] for _ in range(3)]
    codes += [b.request("POST", "/validate", body, key="validate")[0] for _ in range(2)]
    assert codes == [200] * 5
    # The budget of 5 per minute is spent across both instances.
    assert a.request("POST", "/validate", body, key="validate")[0] == 429
    assert b.request("POST", "/validate", body, key="validate")[0] == 429

    # The audit of both instances is one query away on either.
    agent = f"agent-{time.time_ns()}"
    ids = set()
    for server in (a, b):
        status, _, report = server.request(
            "POST", "/validate", {"text": "The pipeline is broken.", "agent_id": agent,
                                  "user_id": agent}, key="validate",
        )  # fmt: skip
        assert status == 200
        ids.add(report["id"])
    for server in (a, b):
        page = server.request("GET", f"/audit?agent_id={agent}")[2]
        assert {r["id"] for r in page["records"]} == ids

    # A fact written on one instance is used by the other.
    fact = {
        "category": "operational_status",
        "subject": "ledger service",
        "value": {"type": "status", "status": "operational"},
    }
    assert a.request("PUT", "/facts/api/ledger-up", fact)[0] == 200
    deadline = time.monotonic() + 5
    verdict = None
    while time.monotonic() < deadline:
        report = b.request(
            "POST", "/validate", {"text": "The ledger service is down.", "user_id": "f"},
            key="validate",
        )[2]  # fmt: skip
        verdict = report["verdict"]
        if verdict == "block":
            break
        time.sleep(0.2)
    assert verdict == "block"

    # Keys created in the shared store work on both.
    status, _, _ = b.request("GET", "/audit?limit=1")
    assert status == 200


def test_answered_validations_survive_kill_9(tmp_path: Path) -> None:
    """Every validation that got an answer is in the audit after the process is killed."""
    server = start_server(tmp_path / "data")
    answered = []
    for i in range(20):
        status, _, report = server.request(
            "POST", "/validate", {"text": f"The pipeline {i} is broken."}, key="validate"
        )
        assert status == 200
        answered.append(report["id"])
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait()
    again = start_server(tmp_path / "data")
    try:
        for record_id in answered:
            assert again.request("GET", f"/audit/{record_id}")[0] == 200
    finally:
        again.stop()
