"""schemathesis over the published OpenAPI schema, with a valid admin key.

Every generated request (valid and invalid bodies, parameters at and past their
bounds, every operation) must get an answer that is not a 5xx, whose status is
declared for its operation and whose body matches the declared schema. CI runs
a bounded number of examples per operation; ``RECEIPTGATE_FUZZ_EXAMPLES=500``
runs the longer documented pass (docs/service.md#fuzzing).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from live_server import LiveServer

EXAMPLES = os.environ.get("RECEIPTGATE_FUZZ_EXAMPLES", "40")
CHECKS = (
    "not_a_server_error,status_code_conformance,content_type_conformance,"
    "response_schema_conformance"
)


def test_no_generated_request_gets_a_5xx_or_an_undeclared_answer(
    live_server: LiveServer, tmp_path: Path
) -> None:
    exe = shutil.which("schemathesis", path=str(Path(sys.executable).parent))
    assert exe is not None, "schemathesis is a test dependency (pip install -e '.[test]')"
    run = subprocess.run(
        [
            exe, "run", f"{live_server.url}/openapi.json",
            "-H", f"Authorization: Bearer {live_server.admin_key}",
            "--checks", CHECKS,
            "--max-examples", EXAMPLES,
            "--seed", "20261125",
            "--no-color",
        ],
        capture_output=True, text=True, timeout=1200, cwd=tmp_path,
    )  # fmt: skip
    summary = run.stdout[-4000:]
    assert run.returncode == 0, f"{summary}\n{run.stderr[-2000:]}\n{live_server.log.read_text()}"
    assert "passed" in summary
