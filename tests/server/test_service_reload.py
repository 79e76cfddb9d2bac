"""The service picks up changed fact files and trace findings without a restart."""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable
from pathlib import Path

from live_server import LiveServer, start_server

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"
FAST = {"RECEIPTGATE_RELOAD_SECONDS": "0.2"}


def eventually(check: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.2)
    return False


def verdict(server: LiveServer, text: str) -> str:
    status, _, report = server.request("POST", "/validate", {"text": text}, key="validate")
    assert status == 200, report
    return str(report["verdict"])


def test_a_changed_facts_file_applies_and_a_broken_one_keeps_the_old_facts(
    tmp_path: Path,
) -> None:
    facts = tmp_path / "facts.yaml"
    shutil.copy(FACTS, facts)
    s = start_server(tmp_path / "data", args=("--facts", str(facts)), env=FAST)
    try:
        claim = "Node.js is not installed on the build host."
        assert verdict(s, claim) == "block"  # the fact says installed
        facts.write_text(FACTS.read_text().replace("state: installed", "state: not_installed"))
        assert eventually(lambda: verdict(s, claim) != "block")

        facts.write_text("id: broken\nfacts: [\n")  # a typo must not empty the facts
        assert eventually(lambda: "reload_error" in s.request("GET", "/healthz", key=None)[2])
        health = s.request("GET", "/healthz", key=None)[2]
        assert str(facts) in health["reload_error"]
        assert verdict(s, claim) != "block"  # still the last good facts

        shutil.copy(FACTS, facts)
        assert eventually(lambda: verdict(s, claim) == "block")
        assert "reload_error" not in s.request("GET", "/healthz", key=None)[2]
    finally:
        s.stop()


def test_the_bridge_turns_new_findings_into_facts_the_service_uses(tmp_path: Path) -> None:
    findings = tmp_path / "findings"
    findings.mkdir()
    generated = tmp_path / "generated-facts.json"
    s = start_server(
        tmp_path / "data",
        args=("--findings-dir", str(findings), "--bridge-facts", str(generated)),
        env=FAST,
    )
    try:
        claim = "OpenClaw doesn't support webhooks."
        before = verdict(s, claim)
        assert before != "block"
        finding = {
            "id": "review-7",
            "agent": "support-bot",
            "signal": {"signal": "SIG-HALLUCINATION", "severity": "critical", "summary": "x"},
            "detectedAt": "2026-03-10T09:30:00Z",
            "factCorrection": {
                "subject": "webhooks",
                "predicate": "supported",
                "claimed": "no",
                "actual": "yes",
            },
        }
        (findings / "review.json").write_text(json.dumps([finding]))
        assert eventually(lambda: verdict(s, claim) == "block", seconds=20)
        facts = s.request("GET", "/facts?registry=trace-learned")[2]["facts"]
        assert [f["id"] for f in facts] == ["trace-learned:webhooks:supported"]
    finally:
        s.stop()
