"""Provenance graphs: saving one per turn, reading it back, listing a session's turns.

A turn's graph is stored as its JSON (:meth:`TurnGraph.to_dict`, camelCase) next
to the summary columns queries filter on (``max_taint``, ``iteration_count``,
``blocked_tools``). Previews are stored as given: the graph masked secrets when
it made them, and a caller that wants none calls :meth:`TurnGraph.redact` first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import IO, Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Row

from receiptgate._exceptions import InputError
from receiptgate.provenance.graph import TurnGraph
from receiptgate.store.base import StoreBase, _dumps, _now
from receiptgate.store.schema import turn_graphs

#: Longest turn, session or agent id the table holds.
MAX_ID_CHARS = 255
#: Most turns one :meth:`TurnsMixin.list_turns` call returns.
MAX_LIST = 1000
#: Turns read per query by :meth:`TurnsMixin.export_turns_jsonl`.
_EXPORT_PAGE = 200


def _iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="milliseconds")


def _check_id(name: str, value: str | None) -> str | None:
    if value is not None and len(value) > MAX_ID_CHARS:
        raise InputError(f"{name}: at most {MAX_ID_CHARS} characters (got {len(value)})")
    return value


def _turn_row(row: Row[*tuple[Any, ...]]) -> dict[str, Any]:
    return {
        "turn_id": row.turn_id,
        "session_id": row.session_id,
        "agent_id": row.agent_id,
        "created_at": _iso(row.created_at),
        "updated_at": _iso(row.updated_at),
        "max_taint": row.max_taint,
        "iteration_count": int(row.iteration_count),
        "node_count": int(row.node_count),
        "blocked_tools": json.loads(row.blocked_tools),
    }


class TurnsMixin(StoreBase):
    """The provenance-graph methods of :class:`~receiptgate.store.store.Store`."""

    def save_turn(
        self,
        graph: TurnGraph | Mapping[str, Any],
        *,
        agent_id: str | None = None,
        session_id: str | None = None,
    ) -> None:
        """Saves a turn's provenance graph, replacing an earlier one with the same turn id.

        A mapping is read as :meth:`TurnGraph.to_dict` output (trust and the
        summary are recomputed from it, so a stored graph cannot claim more
        trust than its sources give it). Committed when this returns.

        Args:
            graph: the graph, or its JSON.
            agent_id: the agent; default the graph's ``agentId``.
            session_id: the session; default the graph's ``sessionKey`` (none when empty).

        Raises:
            InputError: for a malformed graph JSON (the message names the field)
                or an id longer than 255 characters.
            StoreError: the graph was not committed.
        """
        g = graph if isinstance(graph, TurnGraph) else TurnGraph.from_dict(graph)
        data = g.to_dict()
        summary = g.summary()
        turn_id = _check_id("turnId", g.turn_id)
        values = {
            "turn_id": turn_id,
            "session_id": _check_id("session_id", session_id or g.session_key or None),
            "agent_id": _check_id("agent_id", agent_id or g.agent_id),
            "updated_at": _now(),
            "max_taint": summary.max_taint,
            "iteration_count": summary.iteration_count,
            "node_count": summary.node_count,
            "blocked_tools": _dumps(summary.blocked_tools),
            "graph": _dumps(data),
        }
        insert = (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(
            turn_graphs
        ).values(created_at=values["updated_at"], **values)
        # created_at (and seq, the listing order) stay those of the first save.
        stmt = insert.on_conflict_do_update(
            index_elements=[turn_graphs.c.turn_id],
            set_={k: insert.excluded[k] for k in values if k != "turn_id"},
        )
        with self._tx(f"saving turn {turn_id}", write=True) as conn:
            conn.execute(stmt)

    def get_turn(self, turn_id: str) -> dict[str, Any] | None:
        """The turn's graph JSON as saved (camelCase, summary included), or ``None``."""
        with self._tx(f"reading turn {turn_id}") as conn:
            text = conn.execute(
                sa.select(turn_graphs.c.graph).where(turn_graphs.c.turn_id == turn_id)
            ).scalar_one_or_none()
        if text is None:
            return None
        graph: dict[str, Any] = json.loads(text)
        return graph

    def list_turns(self, session_id: str | None = None, limit: int = 100) -> list[dict[str, Any]]:
        """Saved turns, newest first (by first save): their ids and summary columns.

        Each entry has ``turn_id``, ``session_id``, ``agent_id``, ``created_at``,
        ``updated_at`` (ISO 8601 UTC), ``max_taint``, ``iteration_count``,
        ``node_count`` and ``blocked_tools``; not the graph (see :meth:`get_turn`).

        Raises:
            InputError: for a ``limit`` outside 1..1000.
        """
        if not 1 <= limit <= MAX_LIST:
            raise InputError(f"limit: must be between 1 and {MAX_LIST} (got {limit})")
        t = turn_graphs.c
        query = sa.select(
            t.turn_id,
            t.session_id,
            t.agent_id,
            t.created_at,
            t.updated_at,
            t.max_taint,
            t.iteration_count,
            t.node_count,
            t.blocked_tools,
        )
        if session_id is not None:
            query = query.where(t.session_id == session_id)
        query = query.order_by(t.seq.desc()).limit(limit)
        with self._tx("listing turns") as conn:
            rows = conn.execute(query).all()
        return [_turn_row(r) for r in rows]

    def export_turns_jsonl(self, out: IO[str], session_id: str | None = None) -> int:
        """Writes every saved turn (or one session's), oldest first, one JSON object a
        line: the columns of :meth:`list_turns` plus ``graph`` (the saved graph JSON).
        Read in pages, so an export of any size holds one page in memory.

        Returns:
            The number of turns written.
        """
        t = turn_graphs.c
        written, last = 0, 0
        while True:
            query = sa.select(turn_graphs).where(t.seq > last)
            if session_id is not None:
                query = query.where(t.session_id == session_id)
            query = query.order_by(t.seq).limit(_EXPORT_PAGE)
            with self._tx("exporting turns") as conn:
                rows = conn.execute(query).all()
            for row in rows:
                entry = _turn_row(row)
                entry["graph"] = json.loads(row.graph)
                out.write(_dumps(entry) + "\n")
            written += len(rows)
            if len(rows) < _EXPORT_PAGE:
                return written
            last = rows[-1].seq
