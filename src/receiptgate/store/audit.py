"""The audit trail: recording validations, reading them back, export and feedback.

Records are built and inserted here; batching them into shared commits is
``receiptgate.store.writes``'s job.
"""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from datetime import UTC, datetime
from typing import IO, Any

import psycopg
import sqlalchemy as sa
from sqlalchemy.engine import Connection, Dialect, Row
from sqlalchemy.exc import SQLAlchemyError

from receiptgate._exceptions import InputError, StoreError
from receiptgate.results import ValidationResult
from receiptgate.store.base import StoreBase, _dumps, _now, error_detail
from receiptgate.store.records import (
    AUDIT_VERDICTS,
    FEEDBACK_KINDS,
    PLAIN_VERDICTS,
    AuditFilter,
    AuditRecord,
    Feedback,
    build_audit_record_and_payload,
    parse_created_at,
)
from receiptgate.store.redact import redact_text
from receiptgate.store.schema import audit_categories, audit_feedback, audit_records
from receiptgate.store.writes import _AuditWriter, _GroupCommit, _Job

_EXPORT_PAGE = 500

#: The columns of an audit row, in the order ``_audit_job`` builds them.
_RECORD_COLUMNS = (
    "id", "created_at", "agent_id", "session_id", "turn_id", "audit_verdict", "verdict",
    "payload", "text",
)  # fmt: skip


_CATEGORY_COLUMNS = ("record_id", "category")


class _RawInserts:
    """The audit inserts as plain driver calls (``sqlite3``, psycopg 3), compiled once by
    SQLAlchemy for the engine's dialect.

    SQLAlchemy's per-transaction work (connection wrapper, events, statement cache
    lookup, result setup) costs about as much CPU as SQLite's whole commit of a
    record, and the service commits before every answer. The SQL (with the casts
    SQLAlchemy renders for psycopg, without the ``RETURNING`` of the key, as
    ``conn.execute(insert, rows)`` sends it) and each column's bind processor come
    from SQLAlchemy's own compiler and types, so the stored values are the ones
    ``conn.execute(insert, rows)`` writes. Parameters are positional for ``sqlite3``
    (qmark) and named for psycopg (pyformat).
    """

    def __init__(self, dialect: Dialect) -> None:
        records = audit_records.insert().compile(
            dialect=dialect, column_keys=_RECORD_COLUMNS, for_executemany=True
        )
        categories = audit_categories.insert().compile(
            dialect=dialect, column_keys=_CATEGORY_COLUMNS, for_executemany=True
        )
        self.records_sql = records.string
        self.categories_sql = categories.string
        if records.positiontup is not None and categories.positiontup is not None:
            self.record_order: tuple[str, ...] | None = tuple(records.positiontup)
            self.category_order: tuple[str, ...] | None = tuple(categories.positiontup)
        elif set(records.bind_names.values()) == set(_RECORD_COLUMNS) and set(
            categories.bind_names.values()
        ) == set(_CATEGORY_COLUMNS):
            self.record_order = self.category_order = None
        else:
            raise TypeError("unexpected bind parameters in the audit inserts")
        self.processors: list[tuple[str, Callable[[Any], Any]]] = []
        for name in _RECORD_COLUMNS:
            processor = audit_records.c[name].type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.processors.append((name, processor))
        for name in _CATEGORY_COLUMNS:
            if audit_categories.c[name].type.dialect_impl(dialect).bind_processor(dialect):
                raise TypeError(f"audit_categories.{name} needs a bind processor")

    def record_params(self, batch: list[_Job]) -> list[Any]:
        order, processors = self.record_order, self.processors
        out: list[Any] = []
        for job in batch:
            row = dict(job.record)
            for name, processor in processors:
                row[name] = processor(row[name])
            out.append(row if order is None else [row[name] for name in order])
        return out

    def category_params(self, batch: list[_Job]) -> list[Any]:
        order = self.category_order
        rows = [c for job in batch for c in job.categories]
        return rows if order is None else [tuple(c[name] for name in order) for c in rows]


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds")


def _aware(value: datetime) -> datetime:
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


class AuditMixin(StoreBase):
    """The audit-trail methods of :class:`~receiptgate.store.store.Store`."""

    _group: _GroupCommit
    _audit_writer: _AuditWriter
    _accepting: bool
    _raw_inserts: _RawInserts | None = None

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
        record, payload = build_audit_record_and_payload(
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
            "turn_id": record.turn_id,
            "audit_verdict": record.audit_verdict,
            "verdict": record.verdict,
            "payload": payload,
            "text": record.text,
        }
        categories = [{"record_id": record.id, "category": c} for c in record.categories]
        return record, _Job(row, categories)

    def _insert_records(self, batch: list[_Job]) -> None:
        ids = ", ".join(job.record["id"] for job in batch[:3])
        more = f" (+{len(batch) - 3} more)" if len(batch) > 3 else ""
        what = f"recording audit record {ids}{more}"
        self.check_file(what)
        if self.dialect == "sqlite":
            self._insert_records_raw(batch, what, sqlite3.Error, begin="BEGIN IMMEDIATE")
            return
        if self._engine.dialect.driver == "psycopg":
            # psycopg begins the transaction with the first insert.
            self._insert_records_raw(batch, what, psycopg.Error, begin=None)
            return
        with self._tx(what, write=True) as conn:
            conn.execute(audit_records.insert(), [job.record for job in batch])
            categories = [c for job in batch for c in job.categories]
            if categories:
                conn.execute(audit_categories.insert(), categories)

    def _insert_records_raw(
        self,
        batch: list[_Job],
        what: str,
        driver_error: type[Exception],
        *,
        begin: str | None,
    ) -> None:
        """``_insert_records`` on ``sqlite3`` or psycopg: the same transaction as
        ``_tx(write=True)`` (the writer lock, ``begin``, commit or roll back) on the
        pooled driver connection, without SQLAlchemy's per-statement machinery."""
        if self._closed:
            raise StoreError(f"{what}: the store for {self.url} is closed")
        inserts = self._raw_inserts
        if inserts is None:
            inserts = self._raw_inserts = _RawInserts(self._engine.dialect)
        records = inserts.record_params(batch)
        categories = inserts.category_params(batch)
        with self._writer.held(True):
            try:
                raw = self._engine.raw_connection()
            except SQLAlchemyError as e:
                raise StoreError(f"{what} failed on {self.url}: {error_detail(e)}") from e
            try:
                cursor = raw.cursor()
                try:
                    if begin is not None:
                        cursor.execute(begin)
                    # One row: a plain execute (executemany's pipeline costs more than it saves)
                    for sql, rows in (
                        (inserts.records_sql, records),
                        (inserts.categories_sql, categories),
                    ):
                        if len(rows) == 1:
                            cursor.execute(sql, rows[0])
                        elif rows:
                            cursor.executemany(sql, rows)
                finally:
                    cursor.close()
                raw.commit()
            except driver_error as e:
                self._raw_rollback(raw, e, driver_error)
                lines = str(e).strip().splitlines()
                detail = lines[0] if lines else type(e).__name__
                raise StoreError(f"{what} failed on {self.url}: {detail}") from e
            except BaseException as e:
                self._raw_rollback(raw, e, driver_error)
                raise
            finally:
                raw.close()

    def _raw_rollback(self, raw: Any, error: BaseException, driver_error: type[Exception]) -> None:
        """Rolls back, or drops the connection when it is broken (as SQLAlchemy does)."""
        dbapi = raw.dbapi_connection
        broken = dbapi is None or getattr(dbapi, "closed", False) is True
        if not broken and isinstance(error, driver_error):
            dialect: Any = self._engine.dialect
            broken = bool(dialect.is_disconnect(error, dbapi, None))
        if broken:
            raw.invalidate(error)
            return
        try:
            raw.rollback()
        except driver_error as e:
            raw.invalidate(e)

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
        page = _EXPORT_PAGE
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
            stmt = sa.select(audit_records).where(*conds).order_by(t.created_at, t.seq).limit(page)
            with self._tx("exporting the audit trail") as conn:
                rows = conn.execute(stmt).all()
                records = self._records(conn, rows)
            for record in records:
                out.write(_dumps(record.to_dict()) + "\n")
            written += len(records)
            if len(rows) < page:
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
        if f.turn_id is not None:
            conds.append(t.turn_id == f.turn_id)
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
