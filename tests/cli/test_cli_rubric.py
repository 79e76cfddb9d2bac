"""``receiptgate check --rubric PATH``: the grade from a domain rubric, through a subprocess.

Without ``--rubric`` the packaged default grades by verdict (the JSON gains a
``rubric`` object with id ``default``, the text report is unchanged); with it,
the rubric's id, score and reason appear; a bad rubric file exits 2 with one
line naming the file and the field.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
FINANCE = REPO / "examples" / "rubrics" / "finance.yaml"
SUPPORT = REPO / "examples" / "rubrics" / "support.yaml"
NOW = "2026-03-11T10:00:00Z"
QUICKSTART = [
    REPO / "examples" / "quickstart" / "answer.txt",
    "--facts",
    REPO / "examples" / "quickstart" / "facts.yaml",
    "--receipts",
    REPO / "examples" / "transcripts" / "fabricated_tests.json",
    "--receipts",
    REPO / "examples" / "quickstart" / "crm.jsonl",
    "--now",
    NOW,
]


def _run(*args: str | Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    env.update(NO_COLOR="1", COLUMNS="200")
    return subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", *(str(a) for a in args)],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        timeout=60,
        check=False,
    )


def _json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    data = json.loads(proc.stdout)
    assert isinstance(data, dict)
    return data


def _one_error_line(proc: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("receiptgate: error:"), lines[0]
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])
    assert proc.stdout == ""


def test_when_no_rubric_is_given_then_json_carries_the_default_and_grades_by_verdict() -> None:
    data = _json(_run("check", *QUICKSTART, "--format", "json"))
    assert data["verdict"] == "block" and data["grade"] == "incorrect"
    assert data["rubric"]["id"] == "default"
    assert data["rubric"]["grade"] == data["grade"]


def test_when_a_rubric_is_given_then_json_shows_its_score_and_findings() -> None:
    data = _json(_run("check", *QUICKSTART, "--rubric", FINANCE, "--format", "json"))
    rubric = data["rubric"]
    assert rubric["id"] == "finance"
    assert rubric["score"] == 4.1  # three T5 (the figure counts double) + one T2 inference
    assert rubric["reason"] == "score 4.1 >= incorrect 1"
    assert data["grade"] == rubric["grade"] == "incorrect"
    assert [f["sentence_index"] for f in rubric["findings"]] == [0, 1, 2, 3]


def test_when_a_lenient_rubric_grades_a_warning_then_the_grade_can_be_better_than_flag() -> None:
    proc = _run(
        "check", "-", "--rubric", SUPPORT, "--format", "json",
        stdin="Therefore the cache should reduce latency.",
    )  # fmt: skip
    data = _json(proc)
    assert data["verdict"] == "flag"
    assert data["grade"] == "correct"  # support chat: an inference alone is fine


def test_when_the_text_report_uses_a_rubric_then_one_line_names_it() -> None:
    proc = _run("check", *QUICKSTART, "--rubric", FINANCE)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("verdict: BLOCK  grade: incorrect")
    assert lines[1] == "rubric finance: score 4.1 >= incorrect 1"
    default = _run("check", *QUICKSTART).stdout.splitlines()
    assert not any(line.startswith("rubric ") for line in default)  # unchanged without one


def test_when_the_rubric_file_has_a_bad_field_then_exit_2_naming_file_and_field(
    tmp_path: Path,
) -> None:
    bad = tmp_path / "finance.yaml"
    bad.write_text("id: finance\nthresholds: {partiallyCorrect: 2, incorrect: 1}\n", "utf-8")
    _one_error_line(
        _run("check", "-", "--rubric", bad, stdin="Revenue grew 37%."),
        f"{bad}: thresholds.incorrect: must be >= thresholds.partiallyCorrect (2)",
    )


def test_when_the_rubric_file_is_missing_or_not_yaml_then_exit_2(tmp_path: Path) -> None:
    _one_error_line(
        _run("check", "-", "--rubric", tmp_path / "nope.yaml", stdin="Hello there."),
        "nope.yaml: file not found",
    )
    broken = tmp_path / "broken.yaml"
    broken.write_text("id: [oops\n", "utf-8")
    _one_error_line(
        _run("check", "-", "--rubric", broken, stdin="Hello there."), "broken.yaml: invalid YAML"
    )
    _one_error_line(
        _run("check", "-", "--rubric", tmp_path, stdin="Hello there."), "is a directory"
    )
