"""A real ``receiptgate serve`` process on loopback, for tests that drive the service.

A module with a unique name (not conftest.py): tests import it by name, and
several folders have a conftest.py.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

ADMIN_KEY = "rg_test_admin_key_0123456789abcdef"
VALIDATE_KEY = "rg_test_validate_key_0123456789ab"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@dataclass
class LiveServer:
    """A running service: its URL, keys, data dir and log."""

    url: str
    proc: subprocess.Popen[bytes]
    data_dir: Path
    log: Path
    admin_key: str = ADMIN_KEY
    validate_key: str = VALIDATE_KEY

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        key: str | None = "admin",
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """One HTTP request; returns (status, headers, decoded JSON or text)."""
        hdrs = dict(headers or {})
        if key == "admin":
            hdrs["Authorization"] = f"Bearer {self.admin_key}"
        elif key == "validate":
            hdrs["Authorization"] = f"Bearer {self.validate_key}"
        elif key is not None:
            hdrs["Authorization"] = f"Bearer {key}"
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            hdrs.setdefault("Content-Type", "application/json")
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=hdrs)
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                status, rh, payload = resp.status, dict(resp.headers), resp.read()
        except urllib.error.HTTPError as e:
            status, rh, payload = e.code, dict(e.headers), e.read()
        text = payload.decode()
        ctype = rh.get("content-type", rh.get("Content-Type", ""))
        return status, rh, json.loads(text) if "application/json" in ctype and text else text

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_server(
    data_dir: Path,
    *,
    args: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    port: int | None = None,
    health_ok: bool = True,
) -> LiveServer:
    """Starts ``receiptgate serve`` and waits until /healthz answers (fails with its log).

    With ``health_ok=False`` any answer counts (a server started against a
    dependency that is down reports 503 there on purpose).
    """
    port = port or free_port()
    data_dir.mkdir(parents=True, exist_ok=True)
    log = data_dir / f"server-{port}.log"
    full_env = {
        **os.environ,
        "RECEIPTGATE_API_KEYS": f"admin:{ADMIN_KEY},validate:{VALIDATE_KEY}",
        "RECEIPTGATE_RATE_LIMIT": "1000/second",
        "RECEIPTGATE_KEY_RATE_LIMIT": "1000/second",
        **(env or {}),
    }
    cmd = [
        sys.executable, "-m", "receiptgate.cli.main", "serve",
        "--port", str(port), "--data-dir", str(data_dir), "--log-level", "warning", *args,
    ]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=full_env)
    server = LiveServer(f"http://127.0.0.1:{port}", proc, data_dir, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"receiptgate serve exited {proc.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(server.url + "/healthz", timeout=1) as resp:
                if resp.status == 200:
                    return server
        except urllib.error.HTTPError:
            if not health_ok:
                return server
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.1)
    server.stop()
    pytest.fail(f"receiptgate serve did not answer /healthz in 30 s:\n{log.read_text()}")
