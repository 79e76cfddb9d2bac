"""Provenance graphs of agent turns (SPEC §7), as saved in the store (admin keys)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from receiptgate.server.deps import AdminKey, ServiceDep
from receiptgate.server.errors import ApiError

router = APIRouter(tags=["turns"])

TurnId = Path(min_length=1, max_length=255, description="The turn's id.")


@router.get("/turns", summary="List saved turns (newest first), with their summaries")
def list_turns(
    service: ServiceDep,
    principal: AdminKey,
    session_id: Annotated[
        str | None, Query(max_length=255, description="Only this session's turns.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> dict[str, Any]:
    turns = service.store.list_turns(session_id=session_id, limit=limit)
    return {"limit": limit, "turns": turns}


@router.get(
    "/turns/{turn_id:path}", summary="One turn's provenance graph (camelCase TurnGraph JSON)"
)
def get_turn(service: ServiceDep, principal: AdminKey, turn_id: str = TurnId) -> dict[str, Any]:
    graph = service.store.get_turn(turn_id)
    if graph is None:
        raise ApiError(404, "not_found", f"no turn {turn_id!r}")
    return graph
