"""What one request costs against its size, and whether a large one stalls a small one.

Starts ``receiptgate serve`` (SQLite, one worker) and measures over HTTP on loopback:

1. **Cost against size**: the wall time of ``POST /validate`` for texts of 1 KB to
   1 MB and for 10 to 2,000 inline receipts, and of ``POST /validate/stream`` for
   a chunked text of 1 KB to 480 KB ("I like tea. " repeated: the input that once
   cost 25 s of CPU). The last column is µs per KB of body: flat means linear.
2. **A small request beside a large one**: the latency of a one-line
   ``POST /validate`` alone, then while other clients send the large requests
   in a loop (2,000 receipts; a 480 KB stream).

Run: ``.venv/bin/python benchmarks/input_cost.py [--quick] [--json]``
"""

from __future__ import annotations

import argparse
import http.client
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import environment, environment_line, percentile, table
from service_load import KEY, running_server

SMALL = json.dumps({"text": "The pipeline is operational and nginx is running."}).encode()


def _receipt(i: int) -> dict[str, Any]:
    payload = {
        "order_id": f"#W{4000000 + i}",
        "status": "pending" if i % 3 else "delivered",
        "items": [{"name": "Bluetooth Speaker", "item_id": f"77519{i:05d}", "price": 321.18}],
        "payment_history": [{"transaction_type": "payment", "amount": 321.18}],
    }
    return {"kind": "tool", "tool": "get_order_details", "content": json.dumps(payload)}


def validate_body(text_kb: int = 0, receipts: int = 0) -> bytes:
    sentence = "Your order #W4000001 is pending and costs $321.18. "
    text = (sentence * (text_kb * 1024 // len(sentence) + 1))[: max(text_kb, 1) * 1024]
    body: dict[str, Any] = {"text": text}
    if receipts:
        body["receipts"] = [_receipt(i) for i in range(receipts)]
    return json.dumps(body).encode()


def connect(port: int) -> http.client.HTTPConnection:
    """A connection with Nagle off: chunks leave as sent, as an LLM client's do."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.connect()
    assert conn.sock is not None
    conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return conn


def post(port: int, path: str, body: bytes, *, chunked: bool = False) -> tuple[int, bytes]:
    conn = connect(port)
    headers = {"Authorization": f"Bearer {KEY}"}
    if chunked:
        headers["Content-Type"] = "text/plain"
        conn.putrequest("POST", path)
        for k, v in {**headers, "Transfer-Encoding": "chunked"}.items():
            conn.putheader(k, v)
        conn.endheaders()
        step = 4096
        for i in range(0, len(body), step):
            piece = body[i : i + step]
            conn.send(b"%x\r\n%s\r\n" % (len(piece), piece))
        conn.send(b"0\r\n\r\n")
    else:
        headers["Content-Type"] = "application/json"
        conn.request("POST", path, body=body, headers=headers)
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, data


def timed(port: int, path: str, body: bytes, runs: int, *, chunked: bool = False) -> float:
    """Median wall time in ms of ``runs`` requests (after one untimed warm-up)."""
    post(port, path, body, chunked=chunked)
    samples = []
    for _ in range(runs):
        started = time.perf_counter()
        status, data = post(port, path, body, chunked=chunked)
        samples.append((time.perf_counter() - started) * 1000)
        if status != 200 or (chunked and b"event: report" not in data):
            raise SystemExit(f"{path}: HTTP {status}: {data[-300:]!r}")
    return statistics.median(samples)


def cost_rows(port: int, quick: bool) -> list[dict[str, Any]]:
    runs = 2 if quick else 5
    cases: list[tuple[str, str, bytes, bool]] = []
    for kb in (1, 10, 100) if quick else (1, 10, 100, 1000):
        cases.append(("/validate", f"text {kb} KB", validate_body(text_kb=kb), False))
    for n in (10, 100) if quick else (10, 100, 1000, 2000):
        cases.append(("/validate", f"{n} receipts", validate_body(receipts=n), False))
    for kb in (1, 10, 100) if quick else (1, 10, 100, 480):
        cases.append(
            ("/validate/stream", f"text {kb} KB", b"I like tea. " * (kb * 1024 // 12), True)
        )
    rows = []
    for path, what, body, chunked in cases:
        ms = timed(port, path, body, runs, chunked=chunked)
        rows.append(
            {
                "endpoint": path,
                "input": what,
                "body_kb": round(len(body) / 1024, 1),
                "median_ms": round(ms, 1),
                "us_per_kb": round(ms * 1000 / (len(body) / 1024), 1),
            }
        )
    return rows


def small_latency(port: int, samples: int, stop: threading.Event | None = None) -> list[float]:
    out = []
    conn = connect(port)
    headers = {"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"}
    for _ in range(samples):
        started = time.perf_counter()
        conn.request("POST", "/validate", body=SMALL, headers=headers)
        response = conn.getresponse()
        response.read()
        out.append((time.perf_counter() - started) * 1000)
        if response.status != 200:
            raise SystemExit(f"small request: HTTP {response.status}")
        time.sleep(0.01)
    conn.close()
    return out


def _loop(port: int, load: tuple[str, bytes, bool], stop: threading.Event, done: list[int]) -> None:
    path, body, chunked = load
    while not stop.is_set():
        post(port, path, body, chunked=chunked)
        done[0] += 1


def beside_rows(port: int, quick: bool) -> list[dict[str, Any]]:
    samples = 60 if quick else 300
    loads: dict[str, tuple[str, bytes, bool] | None] = {
        "idle": None,
        "beside 2,000-receipt /validate": (
            "/validate",
            validate_body(receipts=1000 if quick else 2000),
            False,
        ),
        "beside 480 KB /validate/stream": (
            "/validate/stream",
            b"I like tea. " * (480 * 1024 // 12),
            True,
        ),
    }
    rows = []
    for name, load in loads.items():
        stop = threading.Event()
        workers: list[threading.Thread] = []
        big = [0]
        if load is not None:
            workers = [
                threading.Thread(target=_loop, args=(port, load, stop, big), daemon=True)
                for _ in range(2)
            ]
            for w in workers:
                w.start()
            time.sleep(0.5)
        lat = sorted(small_latency(port, samples))
        stop.set()
        for w in workers:
            w.join(timeout=120)
        rows.append(
            {
                "small request": name,
                "p50_ms": round(percentile(lat, 50), 2),
                "p95_ms": round(percentile(lat, 95), 2),
                "p99_ms": round(percentile(lat, 99), 2),
                "large done": big[0],
            }
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="few runs: checks the script works")
    parser.add_argument("--json", action="store_true", help="print JSON instead of tables")
    args = parser.parse_args(argv)
    env = environment("not pinned (server in its own process)")
    with tempfile.TemporaryDirectory() as tmp, running_server(None, Path(tmp), 1) as port:
        costs = cost_rows(port, args.quick)
        beside = beside_rows(port, args.quick)
    if args.json:
        print(json.dumps({"environment": env, "cost": costs, "beside": beside}, indent=2))
        return 0
    print(environment_line(env))
    print()
    print(
        table(
            ["endpoint", "input", "body KB", "median ms", "µs per KB"],
            [
                [
                    r["endpoint"],
                    r["input"],
                    f"{r['body_kb']:,}",
                    f"{r['median_ms']:,}",
                    f"{r['us_per_kb']:,}",
                ]
                for r in costs
            ],
            [False, False, True, True, True],
        )
    )
    print()
    print(
        table(
            ["small request", "p50 ms", "p95 ms", "p99 ms", "large requests done"],
            [
                [
                    r["small request"],
                    str(r["p50_ms"]),
                    str(r["p95_ms"]),
                    str(r["p99_ms"]),
                    str(r["large done"]),
                ]
                for r in beside
            ],
            [False, True, True, True, True],
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
