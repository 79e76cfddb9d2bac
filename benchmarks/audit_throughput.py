"""Audit write throughput: group commit against one transaction per record.

N threads each call ``Store.record_validation`` for their share of the
records (every call returns only once its record is committed), on SQLite
(WAL, ``synchronous=NORMAL`` and ``FULL``) and on a private PostgreSQL server
with ``fsync`` on. ``group`` is the store as shipped; ``direct`` replaces its
group commit with one transaction per call, for comparison. The results come
from the real gate (a blocked three-claim answer), built once and given fresh ids.
Each cell is the median of ``--repeat`` runs, each on a fresh database.

Run: ``.venv/bin/python benchmarks/audit_throughput.py [--records 2000]
[--threads 8] [--repeat 3] [--backend sqlite|postgresql|both] [--json]``
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # for services.py

from receiptgate import build_gate
from receiptgate.store import open_store
from receiptgate.store.store import Store
from receiptgate.store.writes import _Job

TEXT = (
    "Node.js is not installed on the build host, so the pipeline is broken. "
    "I ran the tests and they all pass."
)


class _Direct:
    """Stands in for the store's group commit: one transaction per record."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def run(self, job: _Job) -> None:
        self.store._insert_records([job])


def _measure(url: str, *, mode: str, records: int, threads: int, synchronous: str) -> float:
    gate = build_gate()
    result = gate.validate(TEXT, now=datetime(2026, 3, 11, tzinfo=UTC))
    store = open_store(url, sqlite_synchronous=synchronous)
    if mode == "direct":
        store._group = _Direct(store)  # type: ignore[assignment]
    per_thread = records // threads
    errors: list[BaseException] = []

    def work() -> None:
        try:
            for _ in range(per_thread):
                r = dataclasses.replace(result, id=uuid.uuid4().hex)
                store.record_validation(r, TEXT, session_id="bench", key_name="bench")
        except BaseException as e:  # reported below
            errors.append(e)

    workers = [threading.Thread(target=work) for _ in range(threads)]
    started = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    elapsed = time.perf_counter() - started
    store.close()
    if errors:
        raise errors[0]
    return per_thread * threads / elapsed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=2000)
    p.add_argument("--threads", type=int, default=8)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        targets: list[tuple[str, str, str]] = []
        stop = None
        if args.backend in ("sqlite", "both"):
            for sync in ("NORMAL", "FULL"):
                targets.append((f"sqlite synchronous={sync}", f"sqlite:///{tmp}/{sync}", sync))
        if args.backend in ("postgresql", "both"):
            from services import start_postgres

            pg_url, stop = start_postgres(Path(tmp) / "pg", durable=True)
            targets.append(("postgresql fsync=on", pg_url, "NORMAL"))
        try:
            for name, url, sync in targets:
                for mode in ("direct", "group"):
                    rates = []
                    for run in range(args.repeat):
                        # A fresh SQLite file per run; PostgreSQL keeps growing one table.
                        run_url = f"{url}-{mode}-{run}.db" if url.startswith("sqlite") else url
                        rates.append(
                            _measure(
                                run_url,
                                mode=mode,
                                records=args.records,
                                threads=args.threads,
                                synchronous=sync,
                            )
                        )
                    rate = statistics.median(rates)
                    rows.append({"backend": name, "mode": mode, "records_per_s": round(rate)})
        finally:
            if stop is not None:
                stop()
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print(f"{args.records} records, {args.threads} threads, median of {args.repeat} runs")
        print(f"{'backend':<28} {'mode':<7} {'records/s':>10}")
        for r in rows:
            print(f"{r['backend']:<28} {r['mode']:<7} {r['records_per_s']:>10,}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
