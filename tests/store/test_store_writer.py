"""``Store.submit_validation``: the writer thread that the async service awaits."""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import wait
from pathlib import Path

import pytest
from store_helpers import BLOCK_TEXT, FLAG_TEXT, NOW, at, validate

from receiptgate import Gate
from receiptgate._exceptions import StoreError
from receiptgate.store import AuditFilter, Store, open_store


def test_a_submitted_record_is_committed_when_its_future_resolves(store: Store, gate: Gate) -> None:
    results = [at(validate(gate, BLOCK_TEXT), NOW) for _ in range(200)]
    futures = [store.submit_validation(r, BLOCK_TEXT, session_id="w") for r in results]
    _, pending = wait(futures, timeout=30)
    assert not pending
    for future, result in zip(futures, results, strict=True):
        record = future.result()
        assert record.id == result.id and record.audit_verdict == "output_block"
    # Every one is there, read back through the database.
    assert all(store.get_record(r.id) is not None for r in results)


def test_a_record_that_cannot_be_written_fails_only_its_own_future(
    store: Store, gate: Gate
) -> None:
    first = validate(gate, FLAG_TEXT)
    store.record_validation(first, FLAG_TEXT)
    duplicate = store.submit_validation(first, FLAG_TEXT)
    fine = store.submit_validation(validate(gate, FLAG_TEXT), FLAG_TEXT)
    with pytest.raises(StoreError, match=first.id):
        duplicate.result(timeout=30)
    assert fine.result(timeout=30).verdict == "flag"


def test_close_commits_what_was_queued_and_refuses_new_records(db_url: str, gate: Gate) -> None:
    s = open_store(db_url)
    results = [validate(gate, BLOCK_TEXT) for _ in range(50)]
    futures = [s.submit_validation(r, BLOCK_TEXT) for r in results]
    s.close()
    assert all(f.done() and f.exception() is None for f in futures)
    with pytest.raises(StoreError, match="closed"):
        s.submit_validation(validate(gate, BLOCK_TEXT), BLOCK_TEXT)
    with open_store(db_url) as again:
        assert all(again.get_record(r.id) is not None for r in results)


def _write_many(url: str, count: int, start: multiprocessing.synchronize.Event) -> None:
    from receiptgate import build_gate

    gate = build_gate()
    with open_store(url) as s:
        start.wait()
        for _ in range(count):
            s.record_validation(validate(gate, BLOCK_TEXT), BLOCK_TEXT)


def test_two_processes_writing_one_sqlite_file_queue_on_the_lock_file_and_lose_nothing(
    tmp_path: Path,
) -> None:
    """Writers take the lock file beside the database before SQLite's write lock."""
    url = f"sqlite:///{tmp_path / 'receiptgate.db'}"
    open_store(url).close()
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_write_many, args=(url, 150, start)) for _ in range(2)]
    for p in procs:
        p.start()
    time.sleep(1.0)
    start.set()
    for p in procs:
        p.join(timeout=120)
        assert p.exitcode == 0
    assert (tmp_path / "receiptgate.db.writelock").exists()
    with open_store(url) as s:
        assert s.count(AuditFilter()) == 300
