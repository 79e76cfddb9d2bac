"""``receiptgate check`` and input that once switched the gate off: a verdict or exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FABRICATED = REPO / "examples" / "transcripts" / "fabricated_tests.json"
NOW = "2026-03-11T10:00:00Z"
LIE = "I ran the tests and they all pass."


def _check(stdin: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    cmd = [sys.executable, "-m", "receiptgate.cli.main", "check", *args]
    return subprocess.run(cmd, input=stdin, capture_output=True, timeout=60, cwd=REPO)


def test_a_byte_that_is_not_utf8_on_stdin_is_refused_not_passed() -> None:
    proc = _check(
        f"{LIE} Caf\xe9.\n".encode("latin-1"),
        "--receipts", str(FABRICATED), "--now", NOW, "--fail-on", "block",
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.decode().strip() == (
        "receiptgate: error: <stdin>: not UTF-8 text (byte 0xe9 at offset 38)"
    )
    assert proc.stdout == b""


def test_a_file_that_is_not_utf8_is_refused_naming_it(tmp_path: Path) -> None:
    answer = tmp_path / "answer.txt"
    answer.write_bytes(b"The API is up. \xff\xfe")
    proc = _check(b"", str(answer))
    assert proc.returncode == 2
    assert f"{answer}: not UTF-8 text (byte 0xff at offset 15)" in proc.stderr.decode()


def test_without_the_bad_byte_the_same_text_is_blocked() -> None:
    proc = _check(LIE.encode(), "--receipts", str(FABRICATED), "--now", NOW, "--fail-on", "block")
    assert proc.returncode == 1
    assert b"verdict: BLOCK" in proc.stdout


@pytest.mark.parametrize(("fail_on", "code"), [("block", 1), ("flag", 1)])
def test_a_verdict_the_fail_mode_produced_fails_fail_on(
    tmp_path: Path, fail_on: str, code: int
) -> None:
    # A custom detector whose pattern RE2 accepts but whose run raises is hard to
    # build from YAML; an unreadable checker endpoint is not: the judge fails.
    config = tmp_path / "config.yaml"
    config.write_text(
        "llmValidator:\n"
        "  enabled: true\n"
        "  model: m\n"
        "  baseUrl: http://127.0.0.1:9/v1\n"
        "  timeoutMs: 300\n"
        "  maxRetries: 0\n"
        "  cacheTtlSeconds: 0\n"
    )
    proc = _check(
        b"Hello there, the weather is nice today.",
        "--config", str(config), "--channel", "twitter", "--fail-on", fail_on,
    )  # fmt: skip
    assert b"fail mode applied: fail_open" in proc.stdout, proc.stdout + proc.stderr
    assert proc.returncode == code
