"""Acknowledged audit records survive ``kill -9`` of the writing process (SPEC §8)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from receiptgate.store import open_store

_WRITER = """
import dataclasses, sys, threading, uuid
from datetime import UTC, datetime
from receiptgate import build_gate
from receiptgate.store import open_store

store = open_store(sys.argv[1])
result = build_gate().validate("The pipeline is broken.", now=datetime(2026, 3, 11, tzinfo=UTC))
lock = threading.Lock()

def work():
    while True:
        r = dataclasses.replace(result, id=uuid.uuid4().hex)
        store.record_validation(r, "The pipeline is broken.")
        with lock:  # acknowledged: printed only after record_validation returned
            print(r.id, flush=True)

for _ in range(4):
    threading.Thread(target=work, daemon=True).start()
threading.Event().wait()
"""


def test_when_the_writer_is_killed_then_every_acknowledged_record_is_stored(
    db_url: str,
) -> None:
    open_store(db_url).close()  # migrate first, so the writer starts writing at once
    proc = subprocess.Popen(
        [sys.executable, "-c", _WRITER, db_url], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    acknowledged = [proc.stdout.readline().strip() for _ in range(200)]
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    acknowledged += [line.strip() for line in proc.stdout.read().splitlines() if line.strip()]
    proc.stdout.close()
    assert all(acknowledged)
    with open_store(db_url) as store:
        missing = [i for i in acknowledged if store.get_record(i) is None]
    assert missing == []
