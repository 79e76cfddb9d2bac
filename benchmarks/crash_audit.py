"""Crash safety of the audit: kill -9 the server under load, restart, count lost records.

For each round: start ``receiptgate serve``, drive it with concurrent clients
that remember the id of every validation they got an answer for, ``kill -9``
the server at a random moment under load, start it again on the same database,
and look every answered id up in the audit. The service commits a record before
it answers, so the number of missing records must be 0; requests in flight at
the kill get no answer and are not counted as answered.

Run: ``.venv/bin/python benchmarks/crash_audit.py [--backend sqlite|postgresql]
[--rounds 5] [--clients 8] [--quick] [--json]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import environment, environment_line, table
from service_load import free_port, make_texts, request_bytes, start_postgres, start_server


def start(db_url: str | None, data_dir: Path, port: int) -> subprocess.Popen[bytes]:
    return start_server(db_url, data_dir, port, rate_limit="off")


async def load_until_killed(
    port: int, payloads: list[bytes], clients: int, proc: subprocess.Popen[bytes], kill_after: float
) -> tuple[list[str], int]:
    """Sends requests until the server dies; returns answered ids and requests cut off."""
    answered: list[str] = []
    cut = 0

    async def client(seed: int) -> None:
        nonlocal cut
        rng = random.Random(seed)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return
        while True:
            writer.write(payloads[rng.randrange(len(payloads))])
            try:
                await writer.drain()
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                body = await reader.readexactly(length)
            except (OSError, asyncio.IncompleteReadError, StopIteration):
                cut += 1
                return
            if head.startswith(b"HTTP/1.1 200"):
                answered.append(json.loads(body)["id"])

    async def killer() -> None:
        await asyncio.sleep(kill_after)
        os.kill(proc.pid, signal.SIGKILL)

    await asyncio.gather(killer(), *(client(i) for i in range(clients)))
    return answered, cut


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--backend", choices=["sqlite", "postgresql"], default="sqlite")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--clients", type=int, default=8)
    p.add_argument("--quick", action="store_true", help="2 rounds (CI smoke)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.quick:
        args.rounds = 2
    from receiptgate.store import open_store

    rng = random.Random(11)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="rg-crash-") as tmp:
        stop = None
        db_url = None
        if args.backend == "postgresql":
            db_url, stop = start_postgres(Path(tmp) / "pg")
        data_dir = Path(tmp) / "data"
        try:
            for n in range(1, args.rounds + 1):
                port = free_port()
                payloads = [request_bytes(t, port) for t in make_texts(50, seed=n)]
                proc = start(db_url, data_dir, port)
                kill_after = rng.uniform(0.5, 2.0)
                answered, cut = asyncio.run(
                    load_until_killed(port, payloads, args.clients, proc, kill_after)
                )
                proc.wait()
                # Restart on the same database (as an operator would), then look the ids up.
                port = free_port()
                again = start(db_url, data_dir, port)
                again.terminate()
                again.wait()
                store = open_store(db_url, data_dir=data_dir)
                try:
                    missing = [i for i in answered if store.get_record(i) is None]
                finally:
                    store.close()
                rows.append(
                    {
                        "round": n,
                        "killed_after_s": round(kill_after, 2),
                        "answered": len(answered),
                        "cut_off": cut,
                        "missing": len(missing),
                    }
                )
        finally:
            if stop is not None:
                stop()
    total_missing = sum(r["missing"] for r in rows)
    if args.json:
        print(json.dumps({"backend": args.backend, "rounds": rows, "missing": total_missing}))
    else:
        print(environment_line(environment("not pinned")))
        print(f"kill -9 under load ({args.clients} clients), backend {args.backend}\n")
        print(
            table(
                ["round", "killed after s", "answered", "cut off by the kill", "missing in audit"],
                [
                    [
                        str(r["round"]),
                        f"{r['killed_after_s']:.2f}",
                        str(r["answered"]),
                        str(r["cut_off"]),
                        str(r["missing"]),
                    ]
                    for r in rows
                ],
                [True, True, True, True, True],
            )
        )
        print(f"\nmissing records in total: {total_missing} (must be 0)")
    return 1 if total_missing else 0


if __name__ == "__main__":
    sys.exit(main())
