"""Operator facts: writing, deleting and listing them, and the version that signals a change."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from receiptgate._exceptions import InputError
from receiptgate.store.base import StoreBase, _now
from receiptgate.store.records import StoredFact
from receiptgate.store.schema import facts, meta


class FactsMixin(StoreBase):
    """The operator-fact methods of :class:`~receiptgate.store.store.Store`."""

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
