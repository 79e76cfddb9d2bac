"""End-to-end tests of ``receiptgate facts lint`` through a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

NOW = "2026-03-11T10:00:00Z"

GOOD_TYPED_JSON = {
    "id": "ops",
    "name": "Ops facts",
    "facts": [
        {
            "id": "nginx-state",
            "category": "system_state",
            "subject": "nginx",
            "value": {"type": "state", "state": "running"},
        },
        {
            "id": "owner-name",
            "category": "entity_name",
            "subject": "(owner|boss)",
            "subjectIsRegex": True,
            "value": {"type": "name", "correctName": "Albert", "aliases": ["albert"]},
        },
    ],
}
GOOD_TYPED_YAML = """\
id: platform
name: Platform facts
facts:
  - id: docker-present
    category: existence
    subject: docker
    value: {type: exists, exists: true}
  - id: gateway-status
    category: operational_status
    subject: gateway
    value: {type: status, status: operational}
"""
GOOD_TRIPLES_JSON = {
    "id": "trace-learned",
    "generatedAt": "2026-02-20T08:00:00Z",
    "facts": [
        {"subject": "nats-events", "predicate": "count", "value": "255908", "source": "trace"},
        {"subject": "redis", "predicate": "state", "value": "running", "source": "trace"},
    ],
}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    env["NO_COLOR"] = "1"
    env["COLUMNS"] = "200"
    return env


def _lint(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", "facts", "lint", *(str(a) for a in args)],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=_env(),
        timeout=60,
        check=False,
    )


def _lint_json(*args: str | Path) -> tuple[int, dict[str, Any]]:
    proc = _lint("--format", "json", *args)
    assert proc.stderr == "", proc.stderr
    data = json.loads(proc.stdout)
    assert isinstance(data, dict)
    return proc.returncode, data


def _write(path: Path, content: str | dict[str, Any]) -> Path:
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
    return path


def _fact(**overrides: Any) -> dict[str, Any]:
    fact: dict[str, Any] = {
        "id": "nginx-state",
        "category": "system_state",
        "subject": "nginx",
        "value": {"type": "state", "state": "running"},
    }
    fact.update(overrides)
    return fact


# --------------------------------------------------------------------------- good files


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("typed.json", GOOD_TYPED_JSON),
        ("typed.yaml", GOOD_TYPED_YAML),
        ("triples.json", GOOD_TRIPLES_JSON),
    ],
    ids=["rfc003-json", "rfc003-yaml", "rfc006-triples"],
)
def test_when_file_is_valid_then_exit_0_and_it_is_reported_ok(
    tmp_path: Path, name: str, content: str | dict[str, Any]
) -> None:
    path = _write(tmp_path / name, content)

    proc = _lint("--now", NOW, path)

    assert proc.returncode == 0, (proc.stdout, proc.stderr)
    assert name in proc.stdout
    assert "ok" in proc.stdout
    assert "error" not in proc.stdout


def test_when_several_valid_files_are_given_then_each_is_reported(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.json", GOOD_TYPED_JSON)
    b = _write(tmp_path / "b.yaml", GOOD_TYPED_YAML)

    code, data = _lint_json("--now", NOW, a, b)

    assert code == 0
    assert data["ok"] is True
    assert [Path(f["file"]).name for f in data["files"]] == ["a.json", "b.yaml"]
    assert [f["facts"] for f in data["files"]] == [2, 2]
    assert all(f["errors"] == [] for f in data["files"])


# --------------------------------------------------------------------------- broken files


@pytest.mark.parametrize(
    ("name", "content", "fragment"),
    [
        ("invalid.json", '{"id": "x", "facts": [', "invalid JSON"),
        ("invalid.yaml", "id: x\nfacts:\n  - id: a\n   subject: b\n", "invalid YAML"),
        ("unknown-field.json", {"id": "x", "facts": [_fact(colour="red")]}, "colour"),
        (
            "bad-type.json",
            {"id": "x", "facts": [_fact(value={"type": "color", "color": "red"})]},
            "facts[0].value.type",
        ),
        (
            "bad-status.json",
            {
                "id": "x",
                "facts": [
                    _fact(
                        id="cpu",
                        category="operational_status",
                        subject="cpu",
                        value={"type": "status", "status": "ok"},
                    )
                ],
            },
            "facts[0].value.status",
        ),
        (
            "bad-ttl.json",
            {"id": "x", "facts": [_fact(ttlSeconds="soon")]},
            "facts[0].ttlSeconds",
        ),
        (
            "lookahead.json",
            {"id": "x", "facts": [_fact(subject="(?=nginx)nginx", subjectIsRegex=True)]},
            "facts[0].subject",
        ),
        (
            "unbalanced.json",
            {"id": "x", "facts": [_fact(subject="(nginx|apache", subjectIsRegex=True)]},
            "facts[0].subject",
        ),
        (
            "duplicate-ids.json",
            {"id": "x", "facts": [_fact(), _fact(subject="apache")]},
            "duplicate",
        ),
        ("no-facts.json", {"id": "x", "name": "no facts key"}, "facts"),
        ("list.json", [_fact()], "facts"),
        ("empty.yaml", "", "empty"),
    ],
    ids=[
        "invalid-json",
        "invalid-yaml",
        "unknown-field",
        "unknown-value-type",
        "bad-status-value",
        "ttl-not-a-number",
        "regex-lookahead",
        "regex-unbalanced",
        "duplicate-ids",
        "no-facts-key",
        "top-level-list",
        "empty-file",
    ],
)
def test_when_file_is_broken_then_exit_1_with_the_error_text(
    tmp_path: Path, name: str, content: str | dict[str, Any] | list[Any], fragment: str
) -> None:
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")

    proc = _lint("--now", NOW, path)

    assert proc.returncode == 1, (proc.stdout, proc.stderr)
    assert "error" in proc.stdout
    assert name in proc.stdout
    assert fragment in proc.stdout, proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr


def test_when_one_file_of_several_is_broken_then_exit_1_and_the_good_one_is_still_ok(
    tmp_path: Path,
) -> None:
    good = _write(tmp_path / "good.json", GOOD_TYPED_JSON)
    bad = _write(tmp_path / "bad.json", '{"facts": ')

    code, data = _lint_json("--now", NOW, good, bad)

    assert code == 1
    assert data["ok"] is False
    by_name = {Path(f["file"]).name: f for f in data["files"]}
    assert by_name["good.json"]["errors"] == []
    assert by_name["good.json"]["facts"] == 2
    assert len(by_name["bad.json"]["errors"]) == 1
    assert "invalid JSON" in by_name["bad.json"]["errors"][0]


def test_when_file_is_missing_then_lint_fails_naming_it(tmp_path: Path) -> None:
    proc = _lint(tmp_path / "absent.json")

    assert proc.returncode != 0
    assert "absent.json" in proc.stdout + proc.stderr
    assert "not found" in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr


def test_when_no_file_is_given_then_exit_2_usage_error() -> None:
    proc = _lint()

    assert proc.returncode == 2
    assert proc.stderr.startswith("receiptgate: error:")


# --------------------------------------------------------------------------- warnings


def test_when_a_fact_expired_before_now_then_a_warning_is_given_and_exit_is_0(
    tmp_path: Path,
) -> None:
    path = _write(
        tmp_path / "ttl.json",
        {
            "id": "x",
            "facts": [
                _fact(
                    id="redis",
                    category="operational_status",
                    subject="redis",
                    value={"type": "status", "status": "degraded"},
                    ttlSeconds=3600,
                    updatedAt="2026-03-11T08:00:00Z",
                )
            ],
        },
    )

    expired = _lint("--now", NOW, path)
    still_fresh = _lint("--now", "2026-03-11T08:30:00Z", path)

    assert expired.returncode == 0
    assert "warning" in expired.stdout
    assert "expired at" in expired.stdout
    assert "(redis)" in expired.stdout
    assert still_fresh.returncode == 0
    assert "warning" not in still_fresh.stdout


def test_when_ttl_has_no_updated_at_then_a_warning_is_given(tmp_path: Path) -> None:
    path = _write(tmp_path / "ttl.json", {"id": "x", "facts": [_fact(ttlSeconds=60)]})

    code, data = _lint_json("--now", NOW, path)

    assert code == 0
    (warning,) = data["files"][0]["warnings"]
    assert "ttlSeconds" in warning
    assert "updatedAt" in warning


def test_when_files_disagree_on_a_subject_then_a_warning_names_both(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.json", {"id": "a", "facts": [_fact(id="nginx-a")]})
    b = _write(
        tmp_path / "b.yaml",
        "id: b\nfacts:\n  - id: nginx-b\n    category: system_state\n    subject: nginx\n"
        "    value: {type: state, state: stopped}\n",
    )

    code, data = _lint_json("--now", NOW, a, b)

    assert code == 0
    warnings = [w for f in data["files"] for w in f["warnings"]]
    assert len(warnings) == 1, warnings
    assert "nginx-b" in warnings[0]
    assert "nginx-a" in warnings[0]
    assert "disagrees" in warnings[0]


def test_when_files_agree_on_a_subject_then_no_warning(tmp_path: Path) -> None:
    a = _write(tmp_path / "a.json", {"id": "a", "facts": [_fact(id="nginx-a")]})
    b = _write(tmp_path / "b.json", {"id": "b", "facts": [_fact(id="nginx-b")]})

    code, data = _lint_json("--now", NOW, a, b)

    assert code == 0
    assert all(f["warnings"] == [] for f in data["files"])


def test_when_text_format_then_warnings_are_printed_under_the_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "ttl.json", {"id": "x", "facts": [_fact(ttlSeconds=60)]})

    proc = _lint("--now", NOW, path)

    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert "ttl.json" in lines[0]
    assert any("warning" in line and "updatedAt" in line for line in lines[1:])


# --------------------------------------------------------------------------- JSON format


def test_when_format_json_then_one_object_with_ok_and_file_reports(tmp_path: Path) -> None:
    good = _write(tmp_path / "good.json", GOOD_TYPED_JSON)

    code, data = _lint_json("--now", NOW, good)

    assert code == 0
    assert data["ok"] is True
    (report,) = data["files"]
    assert {"file", "facts", "errors", "warnings"} <= report.keys()
    assert report["facts"] == 2
