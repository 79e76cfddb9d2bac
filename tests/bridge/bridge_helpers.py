"""Builders shared by the bridge tests: findings, files, the CLI in a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]

# Runs the real ``receiptgate`` entry point (its error formatting and exit codes);
# registers ``bridge`` first in case cli/main.py does not (yet).
_CLI = (
    "import sys\n"
    "from receiptgate.cli.main import cli, main\n"
    "from receiptgate.cli.bridge import bridge\n"
    "cli.commands.setdefault('bridge', bridge)\n"
    "main(sys.argv[1:])\n"
)


def finding(
    fid: str,
    subject: str | None = None,
    actual: Any = None,
    *,
    predicate: str | None = "count",
    claimed: Any = "0",
    at: Any = None,
    **extra: Any,
) -> dict[str, Any]:
    """A valid TraceFinding; with ``subject`` it carries a factCorrection."""
    data: dict[str, Any] = {
        "id": fid,
        "agent": "ops-bot",
        "signal": {"signal": "SIG-HALLUCINATION", "severity": "high", "summary": "wrong figure"},
    }
    if subject is not None:
        correction: dict[str, Any] = {"subject": subject, "claimed": claimed, "actual": actual}
        if predicate is not None:
            correction["predicate"] = predicate
        data["factCorrection"] = correction
    if at is not None:
        data["detectedAt"] = at
    data.update(extra)
    return data


def write_json(path: Path, document: Any) -> Path:
    """Write ``document`` as JSON, atomically, as a well-behaved analyzer does."""
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(document), encoding="utf-8")
    os.replace(tmp, path)
    return path


def facts_of(path: Path) -> dict[tuple[str, str], str]:
    """(subject, predicate) -> value of a generated facts file."""
    document = json.loads(path.read_text(encoding="utf-8"))
    return {(f["subject"], f["predicate"]): f["value"] for f in document["facts"]}


def wait_for(condition: Callable[[], bool], timeout: float = 10.0) -> bool:
    """Poll ``condition`` every 20 ms until it holds or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except (OSError, ValueError, KeyError):
            pass  # the file is not there yet
        time.sleep(0.02)
    return False


def cli_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "CLICOLOR_FORCE")}
    env["NO_COLOR"] = "1"
    return env


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``receiptgate ARGS`` in a subprocess."""
    return subprocess.run(
        [sys.executable, "-c", _CLI, *args],
        capture_output=True,
        text=True,
        timeout=60,
        env=cli_env(),
        cwd=cwd or REPO,
        check=False,
    )


def start_cli(*args: str) -> subprocess.Popen[str]:
    """``receiptgate ARGS`` in the background (for ``--watch``)."""
    return subprocess.Popen(
        [sys.executable, "-c", _CLI, *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(),
        cwd=REPO,
    )
