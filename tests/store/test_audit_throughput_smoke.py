"""The audit throughput benchmark runs (tiny sizes, SQLite only) and reports both modes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "audit_throughput.py"


def test_when_the_benchmark_runs_small_then_it_reports_direct_and_group_rates() -> None:
    ran = subprocess.run(
        [sys.executable, str(BENCH), "--records", "40", "--threads", "4", "--repeat", "1",
         "--backend", "sqlite", "--json"],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    rows = json.loads(ran.stdout)
    assert {(r["backend"], r["mode"]) for r in rows} == {
        (f"sqlite synchronous={s}", m) for s in ("NORMAL", "FULL") for m in ("direct", "group")
    }
    assert all(r["records_per_s"] > 0 for r in rows)
