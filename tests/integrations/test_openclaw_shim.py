"""The OpenClaw plugin shim (integrations/openclaw): Node's test runner against a live service.

The Node tests start ``receiptgate serve`` themselves with this interpreter
(``RECEIPTGATE_PYTHON``). A missing ``node`` is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHIM_TESTS = REPO / "integrations" / "openclaw" / "test" / "shim.test.js"


def test_openclaw_shim_node_tests_pass() -> None:
    node = shutil.which("node")
    assert node is not None, (
        "node (>= 18) is required to test integrations/openclaw and was not found on PATH"
    )
    env = {**os.environ, "RECEIPTGATE_PYTHON": sys.executable}
    proc = subprocess.run(
        # TAP explicitly: Node >= 23 defaults to the "spec" reporter (no "# fail 0" line).
        [node, "--test", "--test-reporter=tap", str(SHIM_TESTS)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
    assert proc.returncode == 0, f"node --test failed (exit {proc.returncode})\n{output}"
    assert "# fail 0" in proc.stdout, output
