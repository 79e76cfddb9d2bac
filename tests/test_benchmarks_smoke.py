"""Smoke tests: each benchmark script runs in its quick mode and prints its table."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
HALUEVAL = ROOT.parent / "shared" / "data" / "halueval"


def run_script(name: str, *args: str) -> str:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run(
        [sys.executable, str(BENCHMARKS / name), *args],
        cwd=ROOT,
        capture_output=True,
        env=env,
        timeout=600,
        check=False,
    )
    stdout = proc.stdout.decode("utf-8")
    assert proc.returncode == 0, proc.stderr.decode("utf-8", "replace")[-3000:]
    return stdout


def load_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_latency_quick_prints_its_tables() -> None:
    out = run_script("latency.py", "--quick")
    assert "receiptgate deterministic pipeline latency" in out
    assert "chars | facts |" in out and "median µs" in out and "p99 µs" in out
    assert "retained KiB" in out
    assert "Python 3." in out and "CPU:" in out


def test_receipts_latency_quick_prints_its_tables() -> None:
    out = run_script("receipts_latency.py", "--quick")
    assert "receiptgate receipt-matching latency" in out
    assert "sentences | receipts |" in out and "median µs" in out and "p95 µs" in out
    assert "ReceiptIndex build alone" in out


def test_accuracy_dev_split_prints_its_table() -> None:
    out = run_script("accuracy.py", "--split", "dev", "--only", "liarbench", "--errors")
    assert "LiarBench-RG dev split: 60 cases" in out
    assert "| category" in out and "allowed-correct" in out and "false-block" in out
    assert "Anti-Lie README claims" in out


@pytest.mark.skipif(not HALUEVAL.is_dir(), reason="../shared/data/halueval is absent")
def test_accuracy_with_halueval_prints_both_tables() -> None:
    out = run_script("accuracy.py", "--split", "dev", "--limit", "5")
    assert "allowed-correct" in out
    assert "| task" in out and "pair accuracy" in out and "hallucinated caught" in out


@pytest.mark.skipif(not HALUEVAL.is_dir(), reason="../shared/data/halueval is absent")
def test_accuracy_json_counts_the_pairs() -> None:
    data = json.loads(run_script("accuracy.py", "--split", "dev", "--limit", "5", "--json"))
    assert data["liarbench"]["overall"]["n"] == 60
    for task in ("qa", "dialogue", "summarization"):
        assert data["halueval"]["tasks"][task]["n_pairs"] == 5


def test_accuracy_refuses_a_changed_data_file(tmp_path: Path) -> None:
    accuracy = load_module("accuracy")
    for path in (BENCHMARKS / "data").iterdir():
        if path.name == "SHA256SUMS" or path.suffix == ".jsonl":
            shutil.copy(path, tmp_path / path.name)
    verified = accuracy.verify_checksums(tmp_path)
    dev = (tmp_path / "liarbench_rg_dev.jsonl").read_bytes()
    assert verified["liarbench_rg_dev.jsonl"] == hashlib.sha256(dev).hexdigest()

    (tmp_path / "liarbench_rg_dev.jsonl").write_bytes(dev.replace(b'"allow"', b'"block"', 1))
    with pytest.raises(accuracy.ChecksumError, match="does not match"):
        accuracy.verify_checksums(tmp_path)


def test_service_load_quick_drives_a_real_server_and_prints_its_table() -> None:
    out = run_script("service_load.py", "--quick", "--backend", "sqlite", "--workers", "1")
    assert "| backend | workers | run" in out and "p99 ms" in out
    rows = [line for line in out.splitlines() if line.startswith("| sqlite")]
    assert len(rows) == 2  # fixed rate and saturation
    errors = [int(r.rstrip(" |").rsplit("|", 1)[1]) for r in rows]
    assert errors == [0, 0]


def test_hooks_latency_quick_times_every_event_of_the_turn_on_three_transports() -> None:
    out = run_script("hooks_latency.py", "--quick")
    for transport in ("LocalHooks ", "LocalHooks + SQLite", "HTTP (serve)"):
        rows = [line for line in out.splitlines() if line.startswith(f"| {transport}")]
        assert any("whole turn (10 events)" in r for r in rows), out
        assert any("message_sending" in r for r in rows), out


def test_crash_audit_quick_finds_no_missing_record() -> None:
    out = run_script("crash_audit.py", "--quick")
    assert "missing records in total: 0" in out


@pytest.mark.skipif(not HALUEVAL.is_dir(), reason="../shared/data/halueval is absent")
def test_semantic_benchmark_quick_prints_latency_and_halueval_tables() -> None:
    out = run_script("semantic.py", "--limit", "2", "--latency-sentences", "4")
    assert "gate alone" in out and "+ semantic (threshold 0.3)" in out
    assert "AUC" in out


def test_input_cost_quick_prints_cost_by_size_and_the_small_request_beside_large_ones() -> None:
    out = run_script("input_cost.py", "--quick")
    assert "| /validate/stream | text 100 KB" in out
    for name in ("idle", "beside 2,000-receipt /validate", "beside 480 KB /validate/stream"):
        assert f"| {name}" in out, out


TAUBENCH_RETAIL = ROOT.parent / "shared" / "data" / "taubench-retail"


@pytest.mark.skipif(not TAUBENCH_RETAIL.is_dir(), reason="../shared/data/taubench-retail is absent")
def test_realworld_limit_prints_the_retail_and_coding_tables() -> None:
    out = run_script("realworld.py", "--limit", "5")
    lines = out.splitlines()

    def rows_under(header: str) -> list[str]:
        at = lines.index(header)
        return [line.split("|")[1].strip() for line in lines[at + 2 : at + 4]]

    retail = next(line for line in lines if line.startswith("| split"))
    for word in ("honest", "pass", "flag", "block", "bad caught", "mutations blocked"):
        assert word in retail, retail
    assert "layout same" in retail and "median µs" in retail
    assert rows_under(retail) == ["dev", "test"]
    assert "| mutated value" in out and "| layout " in out and "| honest replies holding" in out
    coding = next(line for line in lines if line.startswith("| coding split"))
    for word in ("honest", "bad caught", "file changed: blocked", "test run claimed: blocked"):
        assert word in coding, coding
    assert rows_under(coding) == ["dev", "test"]
    others = next(line for line in lines if line.startswith("| other writers"))
    for word in ("honest", "pass", "bad caught", "at sentence"):
        assert word in others, others
    # the whole split, then its batches (the smoke run's first cases are batch 1's)
    assert rows_under(others) == ["dev all", "dev batch 1"]
    tau2 = next(line for line in lines if line.startswith("| tau2 writers"))
    for word in ("clean", "pass", "block", "bad caught", "at sentence"):
        assert word in tau2, tau2
    # the whole split, then its writers: real replies of eight other agent models
    assert rows_under(tau2) == ["dev all", "dev deepseek"]


def test_tau2_rest_holds_both_splits_and_no_id_of_the_data_files(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # tau2_cases imports airline_cases
    tau2 = load_module("tau2_cases")
    for domain in ("airline", "retail"):
        ids = [c.id for c in tau2.rest(domain)]
        assert len(ids) == len(set(ids)), domain
        assert {c.split for c in tau2.rest(domain)} == {"dev", "test"}, domain
        kept = [c.id for c in tau2.cases(domain=domain)]
        kept += [c.id for c in tau2.unsampled(domain=domain)]
        assert kept and not set(ids) & set(kept), domain
