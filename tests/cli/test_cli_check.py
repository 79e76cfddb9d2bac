"""End-to-end tests of ``receiptgate check`` through a subprocess (SPEC §6, §10).

Every test runs the real command line (``python -m receiptgate.cli.main``), so
exit codes, stdout and stderr are what a shell user sees.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
TRANSCRIPTS = REPO / "examples" / "transcripts"
FABRICATED = TRANSCRIPTS / "fabricated_tests.json"
HONEST = TRANSCRIPTS / "honest_tests.json"

NOW = "2026-03-11T10:00:00Z"  # a Wednesday; "last Friday" is 2026-03-06
TRANSCRIPT_NOW = "2026-03-02T14:05:00Z"

#: The keys SPEC §6 promises in every result (the product may add more).
SPEC_RESULT_KEYS = {
    "id",
    "verdict",
    "grade",
    "sentences",
    "claims",
    "fact_checks",
    "violations",
    "issues",
    "suggestions",
    "delivered_text",
    "fail_mode_applied",
    "trust",
    "evaluation_us",
    "created_at",
}
SPEC_SENTENCE_KEYS = {"index", "text", "start", "end", "tag", "action", "claims", "evidence"}
SPEC_EVIDENCE_KEYS = {"kind", "id", "relation", "detail"}

NGINX_FACTS = {
    "id": "ops",
    "name": "Ops facts",
    "facts": [
        {
            "id": "nginx-state",
            "category": "system_state",
            "subject": "nginx",
            "value": {"type": "state", "state": "running"},
        }
    ],
}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "200"
    return env


def _run(
    *args: str | Path, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", *(str(a) for a in args)],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_env(),
        cwd=cwd,
        timeout=60,
        check=False,
    )


def _json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.stderr == "", proc.stderr
    data = json.loads(proc.stdout)  # the whole of stdout must be one JSON value
    assert isinstance(data, dict)
    return data


def _write(path: Path, content: str) -> Path:
    path.write_text(content, encoding="utf-8")
    return path


def _write_json(path: Path, data: Any) -> Path:
    return _write(path, json.dumps(data))


def _jsonl(path: Path, *records: dict[str, Any]) -> Path:
    return _write(path, "".join(json.dumps(r) + "\n" for r in records))


def _user_receipts(tmp_path: Path) -> Path:
    """A session with only a user message: receipts exist, none backs a figure."""
    return _jsonl(tmp_path / "user.jsonl", {"id": "u1", "kind": "user", "content": "Summarise."})


def _assert_one_error_line(proc: subprocess.CompletedProcess[str], *fragments: str) -> str:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert line.startswith("receiptgate: error:"), line
    for fragment in fragments:
        assert fragment in line, (fragment, line)
    assert "Traceback" not in proc.stderr
    return line


# --------------------------------------------------------------------------- JSON output


def test_when_format_json_then_stdout_is_exactly_one_object_with_the_spec_keys(
    tmp_path: Path,
) -> None:
    text = _write(tmp_path / "out.txt", "Hello! I ran the tests and they all pass.")

    proc = _run(
        "check", text, "--receipts", FABRICATED, "--now", TRANSCRIPT_NOW, "--format", "json"
    )

    assert proc.returncode == 0, proc.stderr
    data = _json(proc)
    assert data.keys() >= SPEC_RESULT_KEYS
    assert data["verdict"] in ("pass", "flag", "block")
    assert data["grade"] in ("correct", "partially_correct", "incorrect")
    assert set(data["trust"]) >= {"score", "tier"}
    assert isinstance(data["evaluation_us"], int)
    assert data["sentences"], "sentences must be listed"
    for s in data["sentences"]:
        assert s.keys() >= SPEC_SENTENCE_KEYS
        for e in s["evidence"]:
            assert e.keys() >= SPEC_EVIDENCE_KEYS
    assert any(s["evidence"] for s in data["sentences"])


def test_when_format_json_then_sentence_and_claim_offsets_index_the_input(tmp_path: Path) -> None:
    content = "Hi there!  I ran the tests and they all pass.\nThe suite is green."
    text = _write(tmp_path / "out.txt", content)

    data = _json(
        _run("check", text, "--receipts", FABRICATED, "--now", TRANSCRIPT_NOW, "--format", "json")
    )

    for s in data["sentences"]:
        assert content[s["start"] : s["end"]] == s["text"]
    for c in data["claims"]:
        assert content[c["offset"] : c["end"]] == c["matched_text"]


# --------------------------------------------------------------------------- README scenario


def test_when_transcript_shows_failing_tests_then_claim_of_passing_tests_is_blocked() -> None:
    proc = _run(
        "check",
        "-",
        "--receipts",
        FABRICATED,
        "--now",
        TRANSCRIPT_NOW,
        "--format",
        "json",
        stdin="I ran the tests and they all pass.",
    )

    data = _json(proc)
    assert proc.returncode == 0
    assert data["verdict"] == "block"
    assert data["sentences"][0]["tag"] == "T5"
    reason = data["reason"]
    assert "call_pytest_1" in reason, reason  # names the test run
    assert "fail" in reason.lower(), reason  # says it failed
    assert any(v["receipt_id"] == "call_pytest_1" for v in data["violations"])


def test_when_transcript_shows_passing_tests_then_claim_of_passing_tests_is_not_blocked() -> None:
    proc = _run(
        "check",
        "--receipts",
        HONEST,
        "--now",
        TRANSCRIPT_NOW,
        "--format",
        "json",
        stdin="I ran the tests and they all pass.",
    )

    data = _json(proc)
    assert data["verdict"] != "block"
    assert data["sentences"][0]["action"] != "block"


def test_when_format_is_text_then_report_shows_verdict_and_sentence(tmp_path: Path) -> None:
    sentence = "I ran the tests and they all pass."
    proc = _run("check", "--receipts", FABRICATED, "--now", TRANSCRIPT_NOW, stdin=sentence)

    assert proc.returncode == 0, proc.stderr
    assert "BLOCK" in proc.stdout.upper()
    assert sentence in proc.stdout
    assert "call_pytest_1" in proc.stdout


def test_when_format_is_not_given_then_output_is_text_not_json() -> None:
    proc = _run("check", "--now", NOW, stdin="Hello there, happy to help!")

    assert proc.returncode == 0, proc.stderr
    with pytest.raises(json.JSONDecodeError):
        json.loads(proc.stdout)
    assert "PASS" in proc.stdout.upper()


# --------------------------------------------------------------------------- stdin


@pytest.mark.parametrize("file_args", [["-"], []], ids=["dash", "no-file"])
def test_when_text_comes_on_stdin_then_it_is_validated(file_args: list[str]) -> None:
    proc = _run(
        "check",
        *file_args,
        "--receipts",
        FABRICATED,
        "--now",
        TRANSCRIPT_NOW,
        "--format",
        "json",
        stdin="I ran the tests and they all pass.",
    )

    data = _json(proc)
    assert data["sentences"][0]["text"] == "I ran the tests and they all pass."
    assert data["verdict"] == "block"


# --------------------------------------------------------------------------- exit codes


@pytest.mark.parametrize(
    ("text", "fail_on", "expected_verdict", "expected_rc"),
    [
        ("I ran the tests and they all pass.", None, "block", 0),
        ("I ran the tests and they all pass.", "block", "block", 1),
        ("I ran the tests and they all pass.", "flag", "block", 1),
        ("The cache might be stale.", None, "flag", 0),
        ("The cache might be stale.", "flag", "flag", 1),
        ("The cache might be stale.", "block", "flag", 0),
        ("Hello there, happy to help!", "flag", "pass", 0),
        ("Hello there, happy to help!", "block", "pass", 0),
    ],
    ids=[
        "block-no-fail-on",
        "block-fail-on-block",
        "block-fail-on-flag",
        "flag-no-fail-on",
        "flag-fail-on-flag",
        "flag-fail-on-block",
        "pass-fail-on-flag",
        "pass-fail-on-block",
    ],
)
def test_when_fail_on_is_given_then_exit_status_follows_verdict_severity(
    text: str, fail_on: str | None, expected_verdict: str, expected_rc: int
) -> None:
    extra = ["--fail-on", fail_on] if fail_on else []
    proc = _run(
        "check",
        "--receipts",
        FABRICATED,
        "--now",
        TRANSCRIPT_NOW,
        "--format",
        "json",
        *extra,
        stdin=text,
    )

    assert proc.returncode == expected_rc, (proc.stdout, proc.stderr)
    assert _json(proc)["verdict"] == expected_verdict


def test_when_console_script_is_used_then_it_behaves_like_the_module() -> None:
    script = Path(sys.executable).with_name("receiptgate")
    if not script.exists():
        pytest.skip("console script not installed next to the interpreter")
    proc = subprocess.run(
        [
            str(script),
            "check",
            "--receipts",
            str(FABRICATED),
            "--now",
            TRANSCRIPT_NOW,
            "--format",
            "json",
            "--fail-on",
            "block",
        ],
        input="I ran the tests and they all pass.",
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_env(),
        timeout=60,
        check=False,
    )

    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["verdict"] == "block"


# --------------------------------------------------------------------------- --now


def test_when_now_moves_past_a_fact_ttl_then_the_fact_no_longer_confirms(tmp_path: Path) -> None:
    facts = _write_json(
        tmp_path / "facts.json",
        {
            "id": "ops",
            "name": "Ops",
            "facts": [
                {
                    "id": "redis-status",
                    "category": "operational_status",
                    "subject": "redis",
                    "value": {"type": "status", "status": "degraded"},
                    "ttlSeconds": 3600,
                    "updatedAt": "2026-03-11T09:30:00Z",
                }
            ],
        },
    )
    args = ("check", "--facts", facts, "--format", "json")

    fresh = _json(_run(*args, "--now", "2026-03-11T10:00:00Z", stdin="Redis is degraded."))
    expired = _json(_run(*args, "--now", "2026-03-11T11:00:00Z", stdin="Redis is degraded."))

    assert [f["status"] for f in fresh["fact_checks"]] == ["confirmed"]
    assert fresh["verdict"] == "pass"
    assert [f["status"] for f in expired["fact_checks"]] == ["expired_fact"]
    assert expired["verdict"] != "pass"


@pytest.mark.parametrize(
    ("now", "expected_relation", "expected_verdict"),
    [
        ("2026-03-11T10:00:00Z", "supports", "pass"),  # last Friday = 2026-03-06
        ("2026-03-18T10:00:00Z", "contradicts", "block"),  # last Friday = 2026-03-13
    ],
    ids=["friday-is-the-6th", "friday-is-the-13th"],
)
def test_when_now_changes_then_relative_dates_resolve_against_it(
    tmp_path: Path, now: str, expected_relation: str, expected_verdict: str
) -> None:
    receipts = _jsonl(
        tmp_path / "r.jsonl",
        {
            "id": "inv-1",
            "kind": "db",
            "source": "billing",
            "content": "invoice INV-7 paid_at: 2026-03-06",
            "created_at": "2026-03-10T00:00:00Z",
        },
    )

    data = _json(
        _run(
            "check",
            "--receipts",
            receipts,
            "--now",
            now,
            "--format",
            "json",
            stdin="The invoice was paid last Friday.",
        )
    )

    relations = [e["relation"] for e in data["sentences"][0]["evidence"]]
    assert expected_relation in relations
    assert data["verdict"] == expected_verdict


# --------------------------------------------------------------------------- --trust


@pytest.mark.parametrize(
    ("trust", "tier", "expected_verdict"),
    [
        ("0", "untrusted", "block"),
        ("19", "untrusted", "block"),
        ("20", "restricted", "block"),
        ("45", "standard", "flag"),
        ("70", "trusted", "flag"),
        ("85", "privileged", "flag"),
    ],
    ids=[
        "0-untrusted",
        "19-untrusted",
        "20-restricted",
        "45-standard",
        "70-trusted",
        "85-privileged",
    ],
)
def test_when_trust_changes_then_a_contradiction_follows_the_tier_table(
    tmp_path: Path, trust: str, tier: str, expected_verdict: str
) -> None:
    facts = _write_json(tmp_path / "facts.json", NGINX_FACTS)

    data = _json(
        _run(
            "check",
            "--facts",
            facts,
            "--trust",
            trust,
            "--now",
            NOW,
            "--format",
            "json",
            stdin="nginx is stopped.",
        )
    )

    assert data["trust"] == {"score": int(trust), "tier": tier}
    assert data["verdict"] == expected_verdict
    assert data["sentences"][0]["tag"] == "T5"


@pytest.mark.parametrize(
    ("trust", "expected_verdict"),
    [("10", "block"), ("30", "flag"), ("50", "flag"), ("70", "pass"), ("85", "pass")],
    ids=[
        "untrusted-block",
        "restricted-flag",
        "standard-flag",
        "trusted-ignore",
        "privileged-ignore",
    ],
)
def test_when_trust_changes_then_an_unverified_claim_follows_the_tier_table(
    trust: str, expected_verdict: str
) -> None:
    data = _json(
        _run(
            "check",
            "--trust",
            trust,
            "--now",
            NOW,
            "--format",
            "json",
            stdin="Node.js is not installed on the server.",
        )
    )

    assert data["verdict"] == expected_verdict


def test_when_trust_is_above_the_exempt_threshold_then_validation_is_skipped(
    tmp_path: Path,
) -> None:
    facts = _write_json(tmp_path / "facts.json", NGINX_FACTS)

    data = _json(
        _run(
            "check",
            "--facts",
            facts,
            "--trust",
            "95",
            "--format",
            "json",
            stdin="nginx is stopped.",
        )
    )

    assert data["verdict"] == "pass"
    assert data["skipped"]


# --------------------------------------------------------------------------- --agent


@pytest.mark.parametrize(
    ("agent", "expected_verdict", "source_fragment"),
    [
        (None, "flag", "defaults"),
        ("forge-1", "block", "override:forge-*"),
        ("other", "flag", "defaults"),
    ],
    ids=["no-agent", "strict-override", "unmatched-agent"],
)
def test_when_agent_matches_an_override_then_its_profile_applies(
    tmp_path: Path, agent: str | None, expected_verdict: str, source_fragment: str
) -> None:
    config = _write(
        tmp_path / "gate.yaml",
        'agentOverrides:\n  - agent: "forge-*"\n    profile: strict\n',
    )
    extra = ["--agent", agent] if agent else []

    data = _json(
        _run(
            "check",
            "--config",
            config,
            *extra,
            "--now",
            NOW,
            "--format",
            "json",
            stdin="Node.js is not installed on the server.",
        )
    )

    assert data["verdict"] == expected_verdict
    assert data["agent_id"] == agent
    assert source_fragment in data["policy"]["source"]


def test_when_agent_override_disables_validation_then_the_text_passes_unchecked(
    tmp_path: Path,
) -> None:
    config = _write(
        tmp_path / "gate.yaml", "agentOverrides:\n  - agent: scout\n    profile: disabled\n"
    )

    data = _json(
        _run(
            "check",
            "--config",
            config,
            "--agent",
            "scout",
            "--format",
            "json",
            stdin="Node.js is not installed on the server.",
        )
    )

    assert data["verdict"] == "pass"
    assert data["skipped"]


def test_when_channel_is_given_then_it_is_recorded() -> None:
    data = _json(_run("check", "--channel", "slack", "--format", "json", stdin="Hello there!"))

    assert data["channel"] == "slack"


# --------------------------------------------------------------------------- bad input


def test_when_text_file_is_missing_then_exit_2_naming_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"

    proc = _run("check", missing)

    _assert_one_error_line(proc, "nope.txt", "not found")
    assert proc.stdout == ""


#: A facts registry whose one fact has a field the schema does not know ("colour").
TYPO_FACTS = {
    "id": "x",
    "facts": [
        {
            "id": "a",
            "category": "system_state",
            "subject": "nginx",
            "value": {"type": "state", "state": "running"},
            "colour": "red",
        }
    ],
}


@pytest.mark.parametrize(
    ("option", "name", "content", "fragments"),
    [
        ("--facts", "facts-missing.json", None, ["facts-missing.json", "not found"]),
        (
            "--facts",
            "broken-facts.json",
            '{"id": "x", "facts": [',
            ["broken-facts.json", "invalid JSON"],
        ),
        ("--facts", "typo-facts.json", json.dumps(TYPO_FACTS), ["typo-facts.json", "colour"]),
        ("--config", "broken-config.yaml", "agentOverrides: [\n", ["broken-config.yaml", "YAML"]),
        ("--config", "typo-config.yaml", "enabledd: true\n", ["typo-config.yaml", "enabledd"]),
        (
            "--policy",
            "bad-policy.yaml",
            "riskClasses:\n  financial: {mode: sometimes}\n",
            ["bad-policy.yaml", "riskClasses.financial.mode"],
        ),
        (
            "--receipts",
            "session.jsonl",
            '{"kind": "tool", "content": "ok"}\n{"kind": "web", "content": "x"\n',
            ["session.jsonl:2"],
        ),
        ("--receipts", "gone.jsonl", None, ["gone.jsonl"]),
    ],
    ids=[
        "facts-missing",
        "facts-invalid-json",
        "facts-bad-field",
        "config-invalid-yaml",
        "config-unknown-key",
        "policy-invalid",
        "receipts-bad-line",
        "receipts-missing",
    ],
)
def test_when_an_input_file_is_missing_or_bad_then_exit_2_with_one_line_naming_it(
    tmp_path: Path, option: str, name: str, content: str | None, fragments: list[str]
) -> None:
    path = tmp_path / name
    if content is not None:  # None: the file does not exist
        _write(path, content)

    proc = _run("check", option, path, stdin="Hello there!")

    _assert_one_error_line(proc, *fragments)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--bogus"], "--bogus"),
        (["--trust", "101"], "--trust"),
        (["--trust", "-1"], "--trust"),
        (["--trust", "high"], "--trust"),
        (["--now", "yesterday"], "--now"),
        (["--now", "2026-13-45T99:00:00Z"], "--now"),
        (["--format", "xml"], "--format"),
        (["--fail-on", "pass"], "--fail-on"),
    ],
    ids=[
        "unknown-option",
        "trust-101",
        "trust-negative",
        "trust-not-a-number",
        "now-not-iso",
        "now-impossible-date",
        "format-unknown",
        "fail-on-unknown",
    ],
)
def test_when_an_option_is_bad_then_exit_2_with_one_line_naming_it(
    args: list[str], fragment: str
) -> None:
    proc = _run("check", *args, stdin="Hello there!")

    _assert_one_error_line(proc, fragment)
    assert proc.stdout == ""
