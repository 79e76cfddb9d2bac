"""Facts: list and read every registry; write only the ``api`` registry (admin keys).

Facts from files and the config are read-only here (edit the file): the API
writes the runtime registry ``api``, persisted in the store so that a restart
and every other instance see the same facts. Agents (``validate`` keys) cannot
write facts at all (RFC-003 §14.2).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Response

from receiptgate.evidence.facts import Fact, FactRegistry, parse_fact
from receiptgate.server.deps import AdminKey, ServiceDep
from receiptgate.server.errors import ApiError
from receiptgate.server.service import API_REGISTRY

router = APIRouter(tags=["facts"])

_EXAMPLE = {
    "category": "operational_status",
    "subject": "pipeline",
    "value": {"type": "status", "status": "operational"},
    "ttlSeconds": 3600,
}
RegistryId = Path(min_length=1, max_length=200)
FactId = Path(min_length=1, max_length=200)


def fact_json(registry: FactRegistry, fact: Fact) -> dict[str, Any]:
    out = fact.model_dump(mode="json", by_alias=True, exclude_none=True)
    out["registry"] = registry.id
    out["origin"] = (
        str(registry.path)
        if registry.path
        else ("api" if registry.id == API_REGISTRY else "config")
    )
    return out


@router.get("/facts", summary="List facts of every registry")
def list_facts(
    service: ServiceDep, principal: AdminKey, registry: str | None = None
) -> dict[str, Any]:
    regs = [r for r in service.fact_sources() if registry is None or r.id == registry]
    if registry is not None and not regs:
        raise ApiError(404, "not_found", f"no fact registry with id {registry!r}")
    return {
        "registries": [
            {"id": r.id, "name": r.name, "enabled": r.enabled, "count": len(r.facts)} for r in regs
        ],
        "facts": [fact_json(r, f) for r in regs for f in r.facts],
    }


def _find(service: Any, registry_id: str, fact_id: str) -> tuple[FactRegistry, Fact]:
    reg = service.registry(registry_id)
    if reg is None:
        raise ApiError(404, "not_found", f"no fact registry with id {registry_id!r}")
    fact = next((f for f in reg.facts if f.id == fact_id), None)
    if fact is None:
        raise ApiError(404, "not_found", f"no fact {fact_id!r} in registry {registry_id!r}")
    return reg, fact


@router.get("/facts/{registry_id}/{fact_id}", summary="Read one fact")
def get_fact(
    service: ServiceDep,
    principal: AdminKey,
    registry_id: str = RegistryId,
    fact_id: str = FactId,
) -> dict[str, Any]:
    service.sync_facts()
    reg, fact = _find(service, registry_id, fact_id)
    return fact_json(reg, fact)


def _writable(service: Any, registry_id: str) -> None:
    if registry_id == API_REGISTRY:
        return
    reg = service.registry(registry_id)
    where = f"it is loaded from {reg.path}" if reg and reg.path else "it comes from the config"
    if reg is None:
        raise ApiError(
            404, "not_found", f"no fact registry {registry_id!r}; write facts to {API_REGISTRY!r}"
        )
    raise ApiError(
        409,
        "read_only_registry",
        f"registry {registry_id!r} is read-only here ({where}); "
        f"write runtime facts to /facts/{API_REGISTRY}/{{id}}",
    )


@router.put("/facts/{registry_id}/{fact_id}", summary="Create or replace a fact (admin)")
def put_fact(
    service: ServiceDep,
    principal: AdminKey,
    fact: Annotated[dict[str, Any], Body(examples=[_EXAMPLE])],
    registry_id: str = RegistryId,
    fact_id: str = FactId,
) -> dict[str, Any]:
    _writable(service, registry_id)
    given = fact.get("id")
    if given is not None and given != fact_id:
        raise ApiError(
            422,
            "invalid_input",
            f"id: {given!r} in the body differs from {fact_id!r} in the path",
            details=[{"field": "id", "reason": "differs from the path"}],
        )
    data = {**fact, "id": fact_id}
    if "updatedAt" not in data and "updated_at" not in data:
        # Written now, so confirmed now: a TTL counts from this moment.
        data["updatedAt"] = datetime.now(UTC).isoformat()
    parsed = parse_fact(data, registry_id=API_REGISTRY, where="body")
    stored = parsed.model_dump(mode="json", by_alias=True, exclude_none=True)
    service.store.put_fact(API_REGISTRY, stored)
    service.sync_facts()
    reg, saved = _find(service, API_REGISTRY, fact_id)
    return fact_json(reg, saved)


@router.delete("/facts/{registry_id}/{fact_id}", status_code=204, summary="Delete a fact (admin)")
def delete_fact(
    service: ServiceDep,
    principal: AdminKey,
    registry_id: str = RegistryId,
    fact_id: str = FactId,
) -> Response:
    _writable(service, registry_id)
    if not service.store.delete_fact(API_REGISTRY, fact_id):
        raise ApiError(404, "not_found", f"no fact {fact_id!r} in registry {API_REGISTRY!r}")
    service.sync_facts()
    return Response(status_code=204)
