"""How audit records get committed: group commit, the writer thread, the SQLite writer lock.

:class:`_GroupCommit` shares one transaction among concurrent
``record_validation`` callers; :class:`_AuditWriter` is the thread behind
``submit_validation``; :class:`_WriterLock` queues the writers of one SQLite
file across threads and processes. The rows themselves are built and inserted
by the audit trail (``receiptgate.store.audit``).
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Iterator
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

try:  # POSIX only; elsewhere SQLite's busy handler alone queues writers
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

from receiptgate._exceptions import StoreError
from receiptgate.store.records import AuditRecord

_MAX_BATCH = 500


@dataclass(slots=True)
class _Job:
    """One caller's audit record waiting for a group commit."""

    record: dict[str, Any]
    categories: list[dict[str, str]]
    done: bool = False
    error: StoreError | None = None


class _RecordInserter(Protocol):
    """What a group commit writes through (the store): one transaction per call."""

    def _insert_records(self, batch: list[_Job]) -> None: ...


@dataclass(slots=True)
class _GroupCommit:
    """Commits the audit records of concurrent callers in shared transactions.

    A caller queues its record and takes the commit lock; if the previous
    holder already committed the record, it returns at once; otherwise it
    commits everything queued so far in one transaction. Under load one commit
    serves many callers, and nobody returns before its own record is durable.
    """

    store: _RecordInserter
    pending: list[_Job] = field(default_factory=list)
    pending_lock: threading.Lock = field(default_factory=threading.Lock)
    commit_lock: threading.Lock = field(default_factory=threading.Lock)

    def run(self, job: _Job) -> None:
        with self.pending_lock:
            self.pending.append(job)
        with self.commit_lock:
            while not job.done:
                with self.pending_lock:
                    batch = self.pending[:_MAX_BATCH]
                    del self.pending[:_MAX_BATCH]
                self._commit(batch)
        if job.error is not None:
            raise job.error

    def _commit(self, batch: list[_Job]) -> None:
        try:
            self.store._insert_records(batch)
        except Exception as e:
            if len(batch) == 1:
                batch[0].error = (
                    e
                    if isinstance(e, StoreError)
                    else StoreError(f"recording an audit record failed: {e!r}")
                )
            else:
                # One bad record must not fail its neighbours: retry one by one.
                for job in batch:
                    self._commit([job])
                return
        for job in batch:
            job.done = True


class _AuditWriter:
    """One thread that commits the records handed to :meth:`Store.submit_validation`.

    It takes everything queued since its last commit and writes it in one
    transaction, then resolves each caller's future (with the record, or the
    StoreError of a record that could not be written). An async server awaits
    the future instead of parking a pool thread per request in the commit.
    """

    def __init__(self, group: _GroupCommit) -> None:
        self._group = group
        self._queue: queue.SimpleQueue[tuple[_Job, Future[AuditRecord], AuditRecord] | None] = (
            queue.SimpleQueue()
        )
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    def submit(self, job: _Job, record: AuditRecord) -> Future[AuditRecord]:
        future: Future[AuditRecord] = Future()
        if self._thread is None:
            with self._start_lock:
                if self._thread is None:
                    self._thread = threading.Thread(
                        target=self._run, name="receiptgate-audit-writer", daemon=True
                    )
                    self._thread.start()
        self._queue.put((job, future, record))
        return future

    def _run(self) -> None:
        stop = False
        while not stop:
            item = self._queue.get()
            items = []
            while item is not None:
                items.append(item)
                if len(items) >= _MAX_BATCH:
                    break
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
            else:
                stop = True
            if not items:
                continue
            try:
                with self._group.commit_lock:
                    self._group._commit([job for job, _, _ in items])
            except BaseException as e:  # never leave a caller waiting
                error = StoreError(f"recording an audit record failed: {e!r}")
                for job, _, _ in items:
                    job.error = job.error or error
            for job, future, record in items:
                if job.error is not None:
                    future.set_exception(job.error)
                elif job.done:
                    future.set_result(record)
                else:
                    future.set_exception(StoreError("audit record was not committed"))

    def close(self) -> None:
        """Commits what is queued, then stops the thread."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread.join(timeout=30)


class _WriterLock:
    """Queues the writers of one SQLite file, across threads and processes.

    SQLite's own busy handler makes a blocked writer sleep and retry (1, 2, 5,
    10 ... 100 ms), so two server processes on one file see latency spikes of
    tens of milliseconds under load. A blocking ``flock`` on a lock file beside
    the database wakes the next writer as soon as the lock is released. Without
    a path (PostgreSQL) or without ``fcntl`` it does nothing.
    """

    def __init__(self, path: Path | None) -> None:
        self._thread_lock = threading.Lock()
        self._fd: int | None = None
        if path is not None and fcntl is not None:
            try:
                self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            except OSError as e:
                raise StoreError(
                    f"cannot create the database's lock file {path}: {e.strerror or e}"
                ) from e

    @contextmanager
    def held(self, write: bool) -> Iterator[None]:
        if not write or self._fd is None or fcntl is None:
            yield
            return
        with self._thread_lock:
            fcntl.flock(self._fd, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self._fd, fcntl.LOCK_UN)

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
