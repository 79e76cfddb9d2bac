"""The validation worker process never outlives its server."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from live_server import start_server


def _children(pid: int) -> list[int]:
    """Processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(entry.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_when_the_server_is_killed_then_its_validation_worker_exits(tmp_path: Path) -> None:
    server = start_server(tmp_path / "data")
    deadline = time.monotonic() + 20
    workers: list[int] = []
    while time.monotonic() < deadline and not workers:
        workers = _children(server.proc.pid)
        time.sleep(0.1)
    assert workers, "the server started no validation worker"

    os.kill(server.proc.pid, signal.SIGKILL)  # no shutdown: the pool is never closed
    server.proc.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(w) for w in workers):
        time.sleep(0.2)

    assert not [w for w in workers if _alive(w)], "a worker outlived its killed server"
