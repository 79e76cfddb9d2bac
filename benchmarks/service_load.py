"""Load on the running service: throughput and latency of ``POST /validate`` over loopback.

Starts ``receiptgate serve`` (one process; SQLite in a temporary folder, or a
private PostgreSQL server started from Debian's binaries with ``--backend
postgresql``), then drives it with concurrent keep-alive HTTP/1.1 clients written
on raw asyncio streams (a Python HTTP library would be the bottleneck on 2 cores).

Two runs per backend:

* **fixed rate** (default 500 requests/s for 10 s): requests are scheduled at
  the target rate and latency counts from the scheduled time, so a server that
  falls behind shows it in p99 (no coordinated omission);
* **saturation**: the clients send back to back; the highest throughput.

Each request is a 500-character agent answer with claims (figures, states,
actions) validated on the deterministic path against the quickstart facts; the
audit record is committed before each answer, as always. Rate limiting stays on
(a budget high enough never to refuse) so its cost is included.

Run: ``.venv/bin/python benchmarks/service_load.py [--backend sqlite|postgresql|both]
[--rate 500] [--duration 10] [--clients 16] [--workers 1,2] [--quick] [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, environment, environment_line, percentile, table

KEY = "rg_benchmark_key_0123456789abcdef"
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"

_SENTENCES = [
    "I ran the tests and they all pass.",
    "The pipeline is broken since the last deploy.",
    "Node.js is not installed on the build host.",
    "The Acme contract is worth ${m}.{d} million a year.",
    "Revenue grew {p}% in Q{q} compared with last year.",
    "The billing service has been down for {h} hours.",
    "I checked the config file and the port is {port}.",
    "The user's name is Iulia and she joined in 20{y}.",
    "Our API handles {n},000 requests per second at peak.",
    "The migration finished and {n} rows were copied.",
    "If we pin the runner image, the build should go green again.",
    "Latency at p99 is {h}0 ms on the edge nodes.",
]


def make_texts(count: int, seed: int = 7) -> list[str]:
    """Agent answers of about 500 characters with varied figures."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts: list[str] = []
        while sum(len(p) + 1 for p in parts) < 480:
            s = rng.choice(_SENTENCES)
            parts.append(
                s.format(
                    m=rng.randint(1, 9),
                    d=rng.randint(0, 9),
                    p=rng.randint(2, 60),
                    q=rng.randint(1, 4),
                    h=rng.randint(1, 12),
                    port=rng.randint(1024, 9999),
                    y=rng.randint(10, 25),
                    n=rng.randint(2, 90),
                )
            )
        out.append(" ".join(parts)[:500])
    return out


def request_bytes(text: str, port: int) -> bytes:
    body = json.dumps(
        {"text": text, "agent_id": "bench", "trust": 50, "now": "2026-03-11T10:00:00Z"}
    ).encode()
    head = (
        f"POST /validate HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        f"Authorization: Bearer {KEY}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    ).encode()
    return head + body


# ------------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    db_url: str | None, data_dir: Path, port: int, *, workers: int = 1, rate_limit: str
) -> subprocess.Popen[bytes]:
    """Starts ``receiptgate serve`` with the quickstart facts; returns once /healthz answers."""
    env = {
        **os.environ,
        "RECEIPTGATE_API_KEYS": f"validate:{KEY}",
        "RECEIPTGATE_RATE_LIMIT": rate_limit,
        "RECEIPTGATE_KEY_RATE_LIMIT": rate_limit,
        "RECEIPTGATE_HOOK_RATE_LIMIT": rate_limit,
    }
    cmd = [
        sys.executable, "-m", "receiptgate.cli.main", "serve", "--port", str(port),
        "--data-dir", str(data_dir), "--facts", str(FACTS), "--log-level", "warning",
        "--workers", str(workers),
    ]  # fmt: skip
    if db_url:
        cmd += ["--db", db_url]
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / f"server-{port}.log"
    with log.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"server exited {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return proc
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise SystemExit(f"server did not start:\n{log.read_text()}") from None
            time.sleep(0.1)


@contextmanager
def running_server(db_url: str | None, data_dir: Path, workers: int) -> Iterator[int]:
    port = free_port()
    # Rate limiting stays on, with a budget that never refuses, so its cost is measured.
    proc = start_server(db_url, data_dir, port, workers=workers, rate_limit="1000000/second")
    try:
        yield port
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


# ------------------------------------------------------------------------ the client


@dataclass
class RunResult:
    latencies_ms: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    elapsed: float = 0.0

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1


async def _exchange(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, payload: bytes
) -> int:
    writer.write(payload)
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    if length:
        await reader.readexactly(length)
    return status


async def _drive(
    port: int, payloads: list[bytes], clients: int, rate: float | None, duration: float
) -> RunResult:
    result = RunResult()
    start = time.perf_counter() + 0.2
    total = int(rate * duration) if rate else None
    counter = iter(range(10**9))

    async def client(cid: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while True:
                i = next(counter)
                if total is not None:
                    if i >= total:
                        return
                    due = start + i / rate  # type: ignore[operator]
                    delay = due - time.perf_counter()
                    if delay > 0:
                        await asyncio.sleep(delay)
                else:
                    due = time.perf_counter()
                    if due - start > duration:
                        return
                try:
                    status = await _exchange(reader, writer, payloads[i % len(payloads)])
                except (OSError, asyncio.IncompleteReadError) as e:
                    result.error(type(e).__name__)
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                done = time.perf_counter()
                if status != 200:
                    result.error(f"HTTP {status}")
                result.latencies_ms.append((done - max(due, start)) * 1000)
        finally:
            writer.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(client(c) for c in range(clients)))
    result.elapsed = time.perf_counter() - max(t0, start - 0.2) - 0.2
    return result


def run(
    port: int, texts: list[str], clients: int, rate: float | None, duration: float
) -> RunResult:
    payloads = [request_bytes(t, port) for t in texts]
    # Warm up: caches, connection pools, the first SQLite pages.
    asyncio.run(_drive(port, payloads, 4, None, 1.0))
    return asyncio.run(_drive(port, payloads, clients, rate, duration))


def row(backend: str, workers: int, mode: str, r: RunResult) -> dict[str, Any]:
    lat = sorted(r.latencies_ms)
    n = len(lat)
    return {
        "backend": backend,
        "workers": workers,
        "mode": mode,
        "requests": n,
        "throughput": n / r.elapsed if r.elapsed > 0 else 0.0,
        "p50_ms": percentile(lat, 50) if n else 0.0,
        "p95_ms": percentile(lat, 95) if n else 0.0,
        "p99_ms": percentile(lat, 99) if n else 0.0,
        "max_ms": lat[-1] if n else 0.0,
        "errors": sum(r.errors.values()),
        "error_kinds": r.errors,
    }


def start_postgres(tmp: Path) -> tuple[str, Any]:
    sys.path.insert(0, str(ROOT / "tests"))
    from services import start_postgres as start  # type: ignore[import-not-found]

    url, stop = start(tmp, durable=True)  # fsync on, as in production
    return str(url), stop


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    p.add_argument("--rate", type=float, default=500.0, help="fixed-rate run, requests/s")
    p.add_argument("--duration", type=float, default=10.0, help="seconds per run")
    p.add_argument("--clients", type=int, default=16, help="concurrent connections")
    p.add_argument(
        "--workers", default="1,2", help="server worker processes; a comma-separated list runs each"
    )
    p.add_argument("--quick", action="store_true", help="2 s runs at 100 requests/s (CI smoke)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.quick:
        args.rate, args.duration = 100.0, 2.0
    backends = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    worker_counts = [int(w) for w in str(args.workers).split(",") if w.strip()]
    texts = make_texts(200)
    rows = []
    with tempfile.TemporaryDirectory(prefix="rg-load-") as tmp:
        for backend in backends:
            stop = None
            db_url = None
            if backend == "postgresql":
                db_url, stop = start_postgres(Path(tmp) / "pg")
            try:
                for workers in worker_counts:
                    data_dir = Path(tmp) / f"{backend}-{workers}"
                    with running_server(db_url, data_dir, workers) as port:
                        fixed = run(port, texts, args.clients, args.rate, args.duration)
                        rows.append(row(backend, workers, f"fixed {args.rate:.0f}/s", fixed))
                        sat = run(port, texts, args.clients, None, args.duration)
                        rows.append(row(backend, workers, "saturation", sat))
            finally:
                if stop is not None:
                    stop()
    env = environment("not pinned (server and clients share the machine)")
    if args.json:
        print(json.dumps({"environment": env, "runs": rows}, indent=2))
        return 0
    print(environment_line(env))
    print(
        f"POST /validate, 500-character texts, {args.clients} keep-alive clients, "
        f"{args.duration:.0f} s per run\n"
    )
    headers = [
        "backend",
        "workers",
        "run",
        "requests",
        "req/s",
        "p50 ms",
        "p95 ms",
        "p99 ms",
        "max ms",
        "errors",
    ]
    print(
        table(
            headers,
            [
                [
                    r["backend"],
                    str(r["workers"]),
                    r["mode"],
                    str(r["requests"]),
                    f"{r['throughput']:.0f}",
                    f"{r['p50_ms']:.1f}",
                    f"{r['p95_ms']:.1f}",
                    f"{r['p99_ms']:.1f}",
                    f"{r['max_ms']:.1f}",
                    str(r["errors"]),
                ]
                for r in rows
            ],
            [False, True, False, True, True, True, True, True, True, True],
        )
    )
    print("\ngoal (SPEC §9): >= 500 req/s with p99 <= 20 ms and 0 errors")
    return 0


if __name__ == "__main__":
    sys.exit(main())
