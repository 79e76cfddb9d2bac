"""CLI messages for problems found while documenting: warnings, lint paths, YAML positions."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def _run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_when_an_optional_registry_is_missing_then_a_warning_names_it(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text(
        "factRegistries:\n  - id: extra\n    filePath: missing.yaml\n    optional: true\n"
    )
    proc = _run("check", "--config", str(config), "-", stdin="Hello there, all good.")
    assert proc.returncode == 0
    assert "warning" in proc.stderr and "missing.yaml" in proc.stderr


def test_when_lint_is_given_a_missing_file_then_it_exits_2(tmp_path: Path) -> None:
    proc = _run("facts", "lint", str(tmp_path / "nope.yaml"))
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "nope.yaml: file not found" in proc.stderr


def test_when_a_config_has_bad_yaml_then_the_error_gives_line_and_column(tmp_path: Path) -> None:
    config = tmp_path / "config.yaml"
    config.write_text("enabled: true\nexempt: [a, b\n")
    proc = _run("check", "--config", str(config), "-", stdin="Hello there, all good.")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert f"{config}: invalid YAML at line" in proc.stderr
