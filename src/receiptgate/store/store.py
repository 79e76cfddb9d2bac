"""The store: audit trail, API keys, session receipts and operator facts.

One :class:`Store` serves one process and is safe to call from many threads;
several processes (service instances) may share one database. Every write is
committed when the method returns. Database failures raise
:class:`~receiptgate._exceptions.StoreError` naming the database.
"""

from __future__ import annotations

import hashlib
import json
import os
import queue
import secrets
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

try:  # POSIX only; elsewhere SQLite's busy handler alone queues writers
    import fcntl
except ImportError:  # pragma: no cover
    fcntl = None  # type: ignore[assignment]

import orjson
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine, Row
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from receiptgate._exceptions import InputError, StoreError
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import ValidationResult
from receiptgate.store.records import (
    AUDIT_VERDICTS,
    FEEDBACK_KINDS,
    KEY_SCOPES,
    PLAIN_VERDICTS,
    ApiKey,
    AuditFilter,
    AuditRecord,
    Feedback,
    StoredFact,
    build_audit_record,
    parse_created_at,
)
from receiptgate.store.redact import redact_text
from receiptgate.store.schema import (
    api_keys,
    audit_categories,
    audit_feedback,
    audit_records,
    facts,
    meta,
    session_receipts,
)

#: Execution option that makes SQLite begin with ``BEGIN IMMEDIATE`` (see connect.py).
WRITE_OPTION = "receiptgate_write"
_EXPORT_PAGE = 500
_MAX_BATCH = 500
_KEY_CACHE_MAX = 4096
# Namespace of the per-session advisory locks that keep receipt seqs in commit order.
_PG_RECEIPTS_LOCK_CLASS = 0x7263


def error_detail(error: SQLAlchemyError, *, secret: str | None = None) -> str:
    """The driver's first message line, without SQL or parameters (and without ``secret``)."""
    orig = getattr(error, "orig", None)
    lines = str(orig if orig is not None else error).strip().splitlines()
    text = lines[0] if lines else type(error).__name__
    return text.replace(secret, "***") if secret else text


def _now() -> datetime:
    return datetime.now(UTC)


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds")


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj).decode("utf-8")


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


@dataclass(slots=True)
class _Job:
    """One caller's audit record waiting for a group commit."""

    record: dict[str, Any]
    categories: list[dict[str, str]]
    done: bool = False
    error: StoreError | None = None


@dataclass(slots=True)
class _GroupCommit:
    """Commits the audit records of concurrent callers in shared transactions.

    A caller queues its record and takes the commit lock; if the previous
    holder already committed the record, it returns at once; otherwise it
    commits everything queued so far in one transaction. Under load one commit
    serves many callers, and nobody returns before its own record is durable.
    """

    store: Store
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
            self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)

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


class Store:
    """Persistence for the service, on SQLite or PostgreSQL (open with ``open_store``).

    Attributes:
        url: the database URL, password masked.
        dialect: ``"sqlite"`` or ``"postgresql"``.
    """

    def __init__(
        self,
        engine: Engine,
        *,
        url: str,
        key_cache_ttl: float = 5.0,
        write_lock: Path | None = None,
    ) -> None:
        self.url = url
        self.dialect = engine.dialect.name
        self._engine = engine
        self._closed = False
        self._writer = _WriterLock(write_lock)
        self._group = _GroupCommit(self)
        self._audit_writer = _AuditWriter(self._group)
        self._accepting = True
        self._key_cache_ttl = key_cache_ttl
        self._key_cache: dict[str, tuple[ApiKey, float]] = {}
        self._key_cache_lock = threading.Lock()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Closes every pooled connection; the store cannot be used afterwards."""
        self._accepting = False  # refuse new submissions, then drain the queued ones
        self._audit_writer.close()
        self._closed = True
        self._engine.dispose()
        self._writer.close()

    @contextmanager
    def _tx(self, what: str, *, write: bool = False) -> Iterator[Connection]:
        """One transaction; database errors become StoreError naming ``what``."""
        if self._closed:
            raise StoreError(f"{what}: the store for {self.url} is closed")
        try:
            with self._writer.held(write), self._engine.connect() as conn:
                if write:
                    conn.execution_options(**{WRITE_OPTION: True})
                with conn.begin():
                    yield conn
        except SQLAlchemyError as e:
            raise StoreError(f"{what} failed on {self.url}: {error_detail(e)}") from e

    # ------------------------------------------------------------------ audit trail

    def record_validation(
        self,
        result: ValidationResult,
        text: str,
        *,
        session_id: str | None = None,
        turn_id: str | None = None,
        key_name: str | None = None,
        store_text: bool = False,
    ) -> AuditRecord:
        """Records one validation in the audit trail, redacted (RFC-003 §11, §14.3).

        Returns once the record is committed. Concurrent calls share commits
        (group commit), which is several times faster than one transaction each.

        Args:
            result: the validation.
            text: the validated text; only its hash, length and matched claim
                spans are kept unless ``store_text``.
            session_id: the session the output belongs to.
            turn_id: the turn within the session.
            key_name: the name of the API key that asked for the validation.
            store_text: keep the full text too, as given (not redacted).

        Raises:
            StoreError: the record was not committed (for example a duplicate id).
        """
        record, job = self._audit_job(result, text, session_id, turn_id, key_name, store_text)
        self._group.run(job)
        return record

    def submit_validation(
        self,
        result: ValidationResult,
        text: str,
        *,
        session_id: str | None = None,
        turn_id: str | None = None,
        key_name: str | None = None,
        store_text: bool = False,
    ) -> Future[AuditRecord]:
        """Like :meth:`record_validation`, but returns a future at once.

        The record is committed by the store's writer thread, batched with the
        others queued meanwhile; the future resolves once it is committed (or
        fails with StoreError). Await it with ``asyncio.wrap_future`` before
        answering: an answer must never precede its audit record.
        """
        if not self._accepting:
            raise StoreError(f"recording an audit record: the store for {self.url} is closed")
        record, job = self._audit_job(result, text, session_id, turn_id, key_name, store_text)
        return self._audit_writer.submit(job, record)

    def _audit_job(
        self,
        result: ValidationResult,
        text: str,
        session_id: str | None,
        turn_id: str | None,
        key_name: str | None,
        store_text: bool,
    ) -> tuple[AuditRecord, _Job]:
        record = build_audit_record(
            result,
            text,
            session_id=session_id,
            turn_id=turn_id,
            key_name=key_name,
            store_text=store_text,
        )
        row = {
            "id": record.id,
            "created_at": parse_created_at(record.created_at),
            "agent_id": record.agent_id,
            "session_id": record.session_id,
            "audit_verdict": record.audit_verdict,
            "verdict": record.verdict,
            "payload": _dumps(record.payload()),
            "text": record.text,
        }
        categories = [{"record_id": record.id, "category": c} for c in record.categories]
        return record, _Job(row, categories)

    def _insert_records(self, batch: list[_Job]) -> None:
        ids = ", ".join(job.record["id"] for job in batch[:3])
        more = f" (+{len(batch) - 3} more)" if len(batch) > 3 else ""
        with self._tx(f"recording audit record {ids}{more}", write=True) as conn:
            conn.execute(audit_records.insert(), [job.record for job in batch])
            categories = [c for job in batch for c in job.categories]
            if categories:
                conn.execute(audit_categories.insert(), categories)

    def get_record(self, record_id: str) -> AuditRecord | None:
        """The record with this id, with its feedback, or ``None``."""
        with self._tx(f"reading audit record {record_id}") as conn:
            rows = conn.execute(
                sa.select(audit_records).where(audit_records.c.id == record_id)
            ).all()
            records = self._records(conn, rows)
        return records[0] if records else None

    def query(self, f: AuditFilter) -> list[AuditRecord]:
        """Matching records, newest first, ``f.limit`` from ``f.offset``, with feedback.

        Raises:
            InputError: for a bad filter value (the message names the field).
        """
        f.check()
        stmt = (
            sa.select(audit_records)
            .where(*self._where(f))
            .order_by(audit_records.c.created_at.desc(), audit_records.c.seq.desc())
            .limit(f.limit)
            .offset(f.offset)
        )
        with self._tx("querying the audit trail") as conn:
            return self._records(conn, conn.execute(stmt).all())

    def count(self, f: AuditFilter) -> int:
        """How many records match (``limit`` and ``offset`` ignored)."""
        f.check()
        stmt = sa.select(sa.func.count()).select_from(audit_records).where(*self._where(f))
        with self._tx("counting audit records") as conn:
            return int(conn.execute(stmt).scalar_one())

    def export_jsonl(self, f: AuditFilter, out: IO[str]) -> int:
        """Writes every matching record, oldest first, one JSON object a line.

        ``limit`` and ``offset`` are ignored; records are read in pages, so an
        export of any size holds one page in memory. Feedback is included.

        Returns:
            The number of records written.
        """
        f.check()
        t = audit_records.c
        written = 0
        last: tuple[datetime, int] | None = None
        while True:
            conds = self._where(f)
            if last is not None:
                after, seq = last
                conds.append(
                    sa.or_(t.created_at > after, sa.and_(t.created_at == after, t.seq > seq))
                )
            stmt = (
                sa.select(audit_records)
                .where(*conds)
                .order_by(t.created_at, t.seq)
                .limit(_EXPORT_PAGE)
            )
            with self._tx("exporting the audit trail") as conn:
                rows = conn.execute(stmt).all()
                records = self._records(conn, rows)
            for record in records:
                out.write(_dumps(record.to_dict()) + "\n")
            written += len(records)
            if len(rows) < _EXPORT_PAGE:
                return written
            last = (rows[-1].created_at, rows[-1].seq)

    def add_feedback(
        self,
        record_id: str,
        *,
        kind: str,
        verdict: str | None = None,
        note: str | None = None,
        by: str | None = None,
    ) -> Feedback:
        """Attaches an operator's feedback to a record (part of the audit).

        Args:
            record_id: the audit record.
            kind: ``agree``, ``disagree`` or ``override``.
            verdict: the verdict the operator holds right (``pass``, ``flag``,
                ``block``); required for ``override``.
            note: free text (secrets masked, like all audit text).
            by: who gave the feedback.

        Raises:
            InputError: for a bad kind or verdict (the message names the field).
            KeyError: when there is no such record.
        """
        if kind not in FEEDBACK_KINDS:
            raise InputError(f"kind: must be one of {', '.join(FEEDBACK_KINDS)} (got {kind!r})")
        if verdict is not None and verdict not in PLAIN_VERDICTS:
            raise InputError(
                f"verdict: must be one of {', '.join(PLAIN_VERDICTS)} (got {verdict!r})"
            )
        if kind == "override" and verdict is None:
            raise InputError("verdict: an override needs the verdict (pass, flag or block)")
        now = _now()
        feedback = Feedback(
            id=uuid.uuid4().hex,
            record_id=record_id,
            kind=kind,
            verdict=verdict,
            note=redact_text(note) if note is not None else None,
            by=by,
            created_at=_iso(now),
        )
        with self._tx(f"adding feedback to audit record {record_id}", write=True) as conn:
            exists = conn.execute(
                sa.select(audit_records.c.seq).where(audit_records.c.id == record_id)
            ).first()
            if exists is None:
                raise KeyError(record_id)
            conn.execute(
                audit_feedback.insert().values(
                    id=feedback.id,
                    record_id=record_id,
                    kind=kind,
                    verdict=verdict,
                    note=feedback.note,
                    author=by,
                    created_at=now,  # microseconds: feedback is listed in this order
                )
            )
        return feedback

    def _where(self, f: AuditFilter) -> list[sa.ColumnElement[bool]]:
        t = audit_records.c
        conds: list[sa.ColumnElement[bool]] = []
        if f.agent_id is not None:
            conds.append(t.agent_id == f.agent_id)
        if f.session_id is not None:
            conds.append(t.session_id == f.session_id)
        if f.verdict in AUDIT_VERDICTS:
            conds.append(t.audit_verdict == f.verdict)
        elif f.verdict is not None:
            conds.append(t.verdict == f.verdict)
        if f.category is not None:
            conds.append(
                sa.exists().where(
                    audit_categories.c.record_id == t.id,
                    audit_categories.c.category == f.category,
                )
            )
        if f.since is not None:
            conds.append(t.created_at >= _aware(f.since))
        if f.until is not None:
            conds.append(t.created_at < _aware(f.until))
        return conds

    def _records(self, conn: Connection, rows: Sequence[Row[Any]]) -> list[AuditRecord]:
        """Rebuilds records from rows, with their feedback (one query for all)."""
        if not rows:
            return []
        feedback: dict[str, list[Feedback]] = {row.id: [] for row in rows}
        fb = audit_feedback.c
        for r in conn.execute(
            sa.select(audit_feedback)
            .where(fb.record_id.in_(list(feedback)))
            .order_by(fb.created_at, fb.id)
        ):
            feedback[r.record_id].append(
                Feedback(
                    id=r.id,
                    record_id=r.record_id,
                    kind=r.kind,
                    verdict=r.verdict,
                    note=r.note,
                    by=r.author,
                    created_at=_iso(r.created_at),
                )
            )
        return [
            AuditRecord.from_payload(json.loads(row.payload), row.text, feedback[row.id])
            for row in rows
        ]

    # ------------------------------------------------------------------ API keys

    def create_key(self, scope: str, name: str | None = None) -> tuple[str, ApiKey]:
        """Creates an API key and returns its plaintext (shown once) and its record.

        Only the key's SHA-256 is stored: the key is 256 random bits, so a fast
        hash cannot be brute-forced and a slow one would only slow every request.

        Raises:
            InputError: when ``scope`` is not ``validate`` or ``admin``.
        """
        if scope not in KEY_SCOPES:
            raise InputError(f"scope: must be one of {', '.join(KEY_SCOPES)} (got {scope!r})")
        plaintext = "rg_" + secrets.token_urlsafe(32)
        key_hash = hashlib.sha256(plaintext.encode()).hexdigest()
        for _ in range(3):  # an 8-hex-digit id may collide, once in billions
            key = ApiKey(id=uuid.uuid4().hex[:8], name=name, scope=scope, created_at=_now())
            try:
                with self._tx("creating an API key", write=True) as conn:
                    conn.execute(
                        api_keys.insert().values(
                            id=key.id,
                            key_hash=key_hash,
                            name=name,
                            scope=scope,
                            created_at=key.created_at,
                        )
                    )
            except StoreError as e:
                if not isinstance(e.__cause__, IntegrityError):
                    raise
                continue
            return plaintext, key
        raise StoreError(f"creating an API key failed on {self.url}: no free id")

    def verify_key(self, plaintext: str) -> ApiKey | None:
        """The key's record, or ``None`` when it is unknown or revoked.

        The lookup is by the key's hash, so its timing says nothing about the
        plaintext. Valid keys are cached for ``key_cache_ttl`` seconds: a
        revocation made by another process takes effect within that time (one
        made through this store, at once).
        """
        key_hash = hashlib.sha256(plaintext.encode()).hexdigest()
        now = time.monotonic()
        with self._key_cache_lock:
            cached = self._key_cache.get(key_hash)
        if cached is not None and cached[1] > now:
            return cached[0]
        with self._tx("verifying an API key") as conn:
            row = conn.execute(
                sa.select(api_keys).where(
                    api_keys.c.key_hash == key_hash, api_keys.c.revoked_at.is_(None)
                )
            ).first()
        with self._key_cache_lock:
            if row is None:
                self._key_cache.pop(key_hash, None)
                return None
            if len(self._key_cache) >= _KEY_CACHE_MAX:
                self._key_cache.clear()
            key = self._key(row)
            self._key_cache[key_hash] = (key, now + self._key_cache_ttl)
        return key

    def list_keys(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        with self._tx("listing API keys") as conn:
            rows = conn.execute(
                sa.select(api_keys).order_by(api_keys.c.created_at, api_keys.c.id)
            ).all()
        return [self._key(r) for r in rows]

    def revoke_key(self, key_id: str) -> bool:
        """Revokes a key; ``True`` when the key exists (revoked now or before)."""
        with self._tx(f"revoking API key {key_id}", write=True) as conn:
            conn.execute(
                api_keys.update()
                .where(api_keys.c.id == key_id, api_keys.c.revoked_at.is_(None))
                .values(revoked_at=_now())
            )
            exists = conn.execute(sa.select(api_keys.c.id).where(api_keys.c.id == key_id)).first()
        with self._key_cache_lock:
            for key_hash, (key, _) in list(self._key_cache.items()):
                if key.id == key_id:
                    del self._key_cache[key_hash]
        return exists is not None

    @staticmethod
    def _key(row: Row[Any]) -> ApiKey:
        return ApiKey(
            id=row.id,
            name=row.name,
            scope=row.scope,
            created_at=row.created_at,
            revoked_at=row.revoked_at,
        )

    # ------------------------------------------------------------------ session receipts

    def add_receipts(self, session_id: str, receipts: Sequence[Receipt]) -> int:
        """Appends receipts to a session, stored as given; returns the session's count.

        Within one session, sequence numbers follow commit order (writers to a
        session are serialised), so :meth:`receipts_since` with the last seq
        seen never skips a receipt.

        Raises:
            InputError: for an empty ``session_id``.
        """
        if not session_id:
            raise InputError("session_id: must not be empty")
        now = _now()
        rows = [
            {"session_id": session_id, "data": _dumps(r.model_dump(mode="json")), "created_at": now}
            for r in receipts
        ]
        with self._tx(f"adding receipts to session {session_id}", write=True) as conn:
            if self.dialect == "postgresql":
                conn.execute(
                    sa.text("SELECT pg_advisory_xact_lock(:c, hashtext(:s))"),
                    {"c": _PG_RECEIPTS_LOCK_CLASS, "s": session_id},
                )
            if rows:
                conn.execute(session_receipts.insert(), rows)
            count = conn.execute(
                sa.select(sa.func.count())
                .select_from(session_receipts)
                .where(session_receipts.c.session_id == session_id)
            ).scalar_one()
        return int(count)

    def receipts_since(self, session_id: str, after_seq: int = 0) -> list[tuple[int, Receipt]]:
        """The session's receipts after ``after_seq``, as ``(seq, receipt)`` ascending."""
        t = session_receipts.c
        with self._tx(f"reading receipts of session {session_id}") as conn:
            rows = conn.execute(
                sa.select(t.seq, t.data)
                .where(t.session_id == session_id, t.seq > after_seq)
                .order_by(t.seq)
            ).all()
        return [(int(r.seq), Receipt.model_validate(json.loads(r.data))) for r in rows]

    # ------------------------------------------------------------------ operator facts

    def put_fact(self, registry_id: str, fact: dict[str, Any]) -> StoredFact:
        """Inserts or replaces the fact ``fact["id"]`` of a registry; bumps :meth:`facts_version`.

        The fact is stored as given; validating it is the gate's job.

        Raises:
            InputError: when the fact has no string ``id`` or is not JSON.
        """
        fact_id = fact.get("id")
        if not isinstance(fact_id, str) or not fact_id:
            raise InputError("fact.id: required, a non-empty string")
        try:
            # Strict: a fact must be plain JSON (orjson would accept a datetime).
            data = json.dumps(fact, ensure_ascii=False, separators=(",", ":"))
        except (TypeError, ValueError) as e:
            raise InputError(f"fact {fact_id!r}: not JSON-serialisable: {e}") from e
        now = _now()
        insert = (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(facts)
        stmt = insert.values(
            registry_id=registry_id, fact_id=fact_id, data=data, updated_at=now
        ).on_conflict_do_update(
            index_elements=[facts.c.registry_id, facts.c.fact_id],
            set_={"data": insert.excluded.data, "updated_at": insert.excluded.updated_at},
        )
        with self._tx(f"writing fact {registry_id}/{fact_id}", write=True) as conn:
            conn.execute(stmt)
            self._bump_facts_version(conn)
        return StoredFact(registry_id, fact_id, json.loads(data), now)

    def delete_fact(self, registry_id: str, fact_id: str) -> bool:
        """Deletes a fact; ``True`` when it existed (and the version was bumped)."""
        with self._tx(f"deleting fact {registry_id}/{fact_id}", write=True) as conn:
            deleted = conn.execute(
                facts.delete().where(facts.c.registry_id == registry_id, facts.c.fact_id == fact_id)
            ).rowcount
            if deleted:
                self._bump_facts_version(conn)
        return bool(deleted)

    def list_facts(self, registry_id: str | None = None) -> list[StoredFact]:
        """Stored facts (of one registry, or all), by registry then fact id."""
        stmt = sa.select(facts).order_by(facts.c.registry_id, facts.c.fact_id)
        if registry_id is not None:
            stmt = stmt.where(facts.c.registry_id == registry_id)
        with self._tx("listing facts") as conn:
            rows = conn.execute(stmt).all()
        return [
            StoredFact(r.registry_id, r.fact_id, json.loads(r.data), r.updated_at) for r in rows
        ]

    def facts_version(self) -> int:
        """A counter bumped by every fact write from any process; poll it to reload."""
        with self._tx("reading the facts version") as conn:
            value = conn.execute(
                sa.select(meta.c.value).where(meta.c.key == "facts_version")
            ).scalar_one()
        return int(value)

    @staticmethod
    def _bump_facts_version(conn: Connection) -> None:
        conn.execute(
            meta.update().where(meta.c.key == "facts_version").values(value=meta.c.value + 1)
        )
