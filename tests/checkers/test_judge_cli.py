"""``receiptgate check`` with the LLM judge, end to end (subprocess + scripted endpoint)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from scripted_llm import ScriptedLLM, data_of, ok

TEXT = "Our API never goes down. Thanks for reading!"


def _config(tmp_path: Path, llm: ScriptedLLM, **extra: Any) -> Path:
    section = {
        "enabled": True,
        "model": "accurate",
        "baseUrl": llm.url,
        "timeoutMs": 3000,
        "cacheUrl": "judge-cache.sqlite3",  # relative: next to the config file
        **extra,
    }
    path = tmp_path / "cfg.yaml"
    path.write_text(yaml.safe_dump({"llmValidator": section}), encoding="utf-8")
    return path


#: A fixed reference time: the judge's prompt (so its cache key) holds the day, and two
#: runs on either side of midnight would otherwise be two questions.
NOW = "2026-03-11T10:00:00Z"


def _run(*args: str, stdin: str = TEXT) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    return subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", "check", "--now", NOW, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )


def test_check_channel_twitter_runs_the_judge(tmp_path: Path, llm: ScriptedLLM) -> None:
    cfg = _config(tmp_path, llm)
    llm.push(ok((0, "contradicted", "exaggerated_capability", 0.9, "never goes down")))
    proc = _run("--channel", "twitter", "--config", str(cfg), "--format", "json")

    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["verdict"] == "block"
    assert result["channel"] == "twitter"
    evidence = result["sentences"][0]["evidence"]
    assert {"kind": "judge", "id": "judge:accurate", "relation": "contradicts"}.items() <= (
        evidence[-1].items()
    )
    call = result["checks"][0]
    assert (call["model"], call["status"], call["total_tokens"]) == ("accurate", "ok", 150)
    assert "never goes down" not in result["delivered_text"]
    assert len(llm.requests) == 1
    assert (tmp_path / "judge-cache.sqlite3").is_file()

    again = _run("--channel", "twitter", "--config", str(cfg), "--format", "json")
    assert json.loads(again.stdout)["checks"][0]["cached"] is True
    assert len(llm.requests) == 1


def test_the_text_report_shows_the_judges_evidence(tmp_path: Path, llm: ScriptedLLM) -> None:
    cfg = _config(tmp_path, llm, cacheTtlSeconds=0)
    llm.push(ok((0, "contradicted", "exaggerated_capability", 0.9)))
    proc = _run("--channel", "twitter", "--config", str(cfg), "--fail-on", "block")
    assert proc.returncode == 1
    assert "judge:accurate" in proc.stdout
    assert "exaggerated_capability" in proc.stdout


def test_an_internal_channel_does_not_call_the_judge(tmp_path: Path, llm: ScriptedLLM) -> None:
    cfg = _config(tmp_path, llm)
    proc = _run("--channel", "slack", "--config", str(cfg), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["checks"] == []
    assert llm.requests == []


def test_the_external_hook_runs_the_judge(tmp_path: Path, llm: ScriptedLLM) -> None:
    cfg = _config(tmp_path, llm)
    llm.push(ok((0, "supported")))
    proc = _run("--hook", "before_external_communication", "--config", str(cfg), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["hook"] == "before_external_communication"
    assert len(llm.requests) == 1


def test_a_before_tool_call_event_runs_the_judge(tmp_path: Path, llm: ScriptedLLM) -> None:
    cfg = _config(tmp_path, llm)
    event = tmp_path / "event.json"
    event.write_text(
        json.dumps(
            {
                "hook": "before_tool_call",
                "toolName": "exec",
                "params": {"command": "bird tweet 'Our API never goes down.'"},
            }
        ),
        encoding="utf-8",
    )
    llm.push(ok((0, "contradicted", "contradiction", 0.9)))
    proc = _run("--event", str(event), "--config", str(cfg), "--format", "json", stdin="")

    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["hook"] == "before_tool_call"
    assert result["verdict"] == "block"
    assert [s["text"] for s in data_of(llm.requests[0])["sentences"]] == [
        "Our API never goes down."
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["-", "--event", "e.json"], "either FILE or --event", id="both"),
        pytest.param(["--event", "missing.json"], "missing.json: file not found", id="missing"),
    ],
)
def test_event_usage_errors_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    proc = _run(*args)
    assert proc.returncode == 2
    assert message in proc.stderr


def test_an_enabled_judge_without_a_model_is_bad_input(tmp_path: Path) -> None:
    cfg = tmp_path / "cfg.yaml"
    cfg.write_text("llmValidator:\n  enabled: true\n", encoding="utf-8")
    proc = _run("--config", str(cfg))
    assert proc.returncode == 2
    assert "llmValidator.model: required" in proc.stderr
    assert proc.stderr.count("\n") == 1
