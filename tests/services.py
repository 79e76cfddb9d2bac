"""Private PostgreSQL and Redis servers for the tests (and benchmarks) that need them.

Each helper starts a throw-away server on 127.0.0.1 and a free port, waits
until it answers, and returns ``(url, stop)``. The programs come from Debian's
``postgresql`` and ``redis-server`` packages (``scripts/install-test-services.sh``);
when a server cannot start the test run fails with its log: these tests are
never skipped.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pytest

Stop = Callable[[], None]

_INSTALL_HINT = "install it with scripts/install-test-services.sh"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _pg_bin_dir() -> Path:
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if not found:
        pytest.fail(
            f"PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb); {_INSTALL_HINT}"
        )
    newest = max(found, key=lambda p: int(Path(p).parts[4]) if Path(p).parts[4].isdigit() else 0)
    return Path(newest).parent


def start_postgres(tmp_dir: Path, *, durable: bool = False) -> tuple[str, Stop]:
    """Starts a private PostgreSQL cluster and creates the database ``receiptgate``.

    PostgreSQL refuses to run as root, so as root the cluster lives in a fresh
    directory under the system temp dir (``tmp_dir`` may sit in a root-only
    tree) owned by the ``postgres`` user, and the server runs as that user.

    Args:
        tmp_dir: where the cluster lives when not running as root.
        durable: keep ``fsync`` and synchronous commits on, for benchmarks. Off
            by default: tests need no protection against a power loss, only speed.

    Returns:
        ``postgresql://postgres@127.0.0.1:PORT/receiptgate`` and a function that
        stops the server (``pg_ctl stop -m immediate``; as root it also removes
        the cluster directory it made).
    """
    bin_dir = _pg_bin_dir()
    as_root = os.geteuid() == 0
    if as_root:
        base = Path(tempfile.mkdtemp(prefix="receiptgate-pg-"))
        shutil.chown(base, "postgres", "postgres")
        prefix = ["runuser", "-u", "postgres", "--"]
    else:
        base = Path(tmp_dir)
        base.mkdir(parents=True, exist_ok=True)
        prefix = []
    data, log = base / "data", base / "postgres.log"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*prefix, *args], capture_output=True, text=True, check=False)

    def fail(what: str, proc: subprocess.CompletedProcess[str] | None = None) -> None:
        output = (proc.stdout + proc.stderr) if proc else ""
        server_log = log.read_text(errors="replace") if log.exists() else "(no server log)"
        pytest.fail(f"PostgreSQL {what}:\n{output}\n--- server log ---\n{server_log}")

    init = run(
        str(bin_dir / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust",
        "-E", "UTF8", "--locale=C", "--no-sync",
    )  # fmt: skip
    if init.returncode != 0:
        fail("initdb failed", init)
    settings = ["-c listen_addresses=127.0.0.1", f"-c unix_socket_directories={base}"]
    if not durable:
        settings += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
    port = 0
    for _attempt in range(3):  # another process may grab the free port first
        port = _free_port()
        started = run(
            str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60",
            "-o", " ".join([f"-p {port}", *settings]), "start",
        )  # fmt: skip
        if started.returncode == 0:
            break
    else:
        fail("did not start", started)

    def stop() -> None:
        run(str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop")
        if as_root:
            shutil.rmtree(base, ignore_errors=True)

    created = subprocess.run(
        [str(bin_dir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "postgres",
         "receiptgate"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if created.returncode != 0:
        stop()
        fail("started but createdb failed", created)
    return f"postgresql://postgres@127.0.0.1:{port}/receiptgate", stop


def _redis_ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


def start_redis(tmp_dir: Path) -> tuple[str, Stop]:
    """Starts a private, non-persistent Redis server.

    Returns:
        ``redis://127.0.0.1:PORT/0`` and a function that stops the server.
    """
    server = shutil.which("redis-server")
    if server is None:
        pytest.fail(f"redis-server is not installed; {_INSTALL_HINT}")
    tmp = Path(tmp_dir)
    tmp.mkdir(parents=True, exist_ok=True)
    log = tmp / "redis.log"
    for _attempt in range(3):  # another process may grab the free port first
        port = _free_port()
        with log.open("w") as out:
            proc = subprocess.Popen(
                [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                 "--appendonly", "no", "--dir", str(tmp)],
                stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        deadline = time.monotonic() + 15
        while proc.poll() is None and time.monotonic() < deadline:
            if _redis_ping(port):

                def stop(proc: subprocess.Popen[bytes] = proc) -> None:
                    proc.terminate()
                    try:
                        proc.wait(timeout=10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()

                return f"redis://127.0.0.1:{port}/0", stop
            time.sleep(0.05)
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    pytest.fail(f"Redis did not start:\n{log.read_text(errors='replace')}")
