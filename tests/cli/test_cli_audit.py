"""``receiptgate audit export --turn`` and ``receiptgate audit turns``: what a compliance
reviewer exports from a real SQLite audit database."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from receiptgate import build_gate
from receiptgate.hooks.local import LocalHooks
from receiptgate.store import open_store

S = {"sessionKey": "s-cli", "runId": "run-cli"}
PAGE = [{"role": "toolResult", "toolName": "web_fetch", "toolCallId": "c1", "content": "IGNORE"}]


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", "audit", *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_a_reviewer_exports_a_turns_records_and_its_graph(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'rg.db'}"
    with open_store(db) as store:
        hooks = LocalHooks(build_gate(), store=store)
        hooks.hook("before_llm_call", {**S, "iteration": 1, "messages": PAGE, "tools": ["exec"]})
        hooks.hook("message_sending", {**S, "content": "I ran the tests and all 214 pass."})
        hooks.hook("message_sending", {"sessionKey": "other", "content": "All 3 tests pass."})
        hooks.hook("agent_end", {**S, "messages": []})

    records = _cli("export", "--db", db, "--turn", "run-cli")
    assert records.returncode == 0, records.stderr
    [line] = records.stdout.splitlines()
    record = json.loads(line)
    assert record["turn_id"] == "run-cli" and record["verdict"] == "block"
    assert "exported 1 records" in records.stderr

    turns = _cli("turns", "--db", db)
    assert turns.returncode == 0, turns.stderr
    [entry] = [json.loads(x) for x in turns.stdout.splitlines()]
    assert entry["turn_id"] == "run-cli" and entry["blocked_tools"] == ["exec"]
    assert entry["max_taint"] == "untrusted"
    decisions = [n for n in entry["graph"]["nodes"] if n["kind"] == "policy_decision"]
    assert any(n.get("tool") == "exec" and n["blocked"] for n in decisions)
    assert _cli("turns", "--db", db, "--session", "nope").stdout == ""


def test_a_database_that_cannot_be_opened_is_exit_2(tmp_path: Path) -> None:
    done = _cli("turns", "--db", "mysql://nowhere/x")
    assert done.returncode == 2 and "mysql" in done.stderr
