"""The judge inside ``receiptgate serve``: a slow model never holds up other requests."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from scripted_llm import ScriptedLLM, ok

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from live_server import start_server


def test_a_slow_judge_call_does_not_block_health_or_other_validations(
    llm: ScriptedLLM, tmp_path: Path
) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "llmValidator:\n  enabled: true\n  model: accurate\n"
        f"  baseUrl: {llm.url}\n  timeoutMs: 10000\n  cacheUrl: 'memory:'\n"
    )
    llm.push(ok((0, "unsupported", "unsubstantiated", 0.9, "never goes down"), delay=3.0))
    s = start_server(tmp_path / "data", args=("--config", str(config)))
    try:
        answers: dict[str, object] = {}

        def external() -> None:
            answers["external"] = s.request(
                "POST",
                "/validate",
                {"text": "Our API never goes down.", "channel": "twitter"},
                key="validate",
            )

        worker = threading.Thread(target=external)
        worker.start()
        time.sleep(0.5)  # the judge call is now waiting on the scripted model
        started = time.monotonic()
        assert s.request("GET", "/healthz", key=None)[0] == 200
        internal = s.request("POST", "/validate", {"text": "Hello there."}, key="validate")
        assert internal[0] == 200
        assert time.monotonic() - started < 2.0  # not queued behind the 3 s judge call (2.5 s left)
        worker.join(timeout=30)
        status, _, report = answers["external"]  # type: ignore[misc]
        assert status == 200
        assert any(c.get("model") == "accurate" for c in report["checks"])
        assert report["verdict"] in ("flag", "block")
    finally:
        s.stop()
