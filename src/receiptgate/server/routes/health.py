"""``GET /healthz`` (liveness) and ``GET /readyz`` (readiness): no key needed.

``/healthz`` answers 503 when the store cannot be read or its SQLite file has gone;
``/readyz`` also makes one real write, so a full disk or a read-only database
takes the instance out of a load balancer before it refuses validations.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from receiptgate.server.deps import ServiceDep
from receiptgate.server.schemas import HealthBody

router = APIRouter(tags=["health"])


_HEALTH: dict[int | str, dict[str, Any]] = {
    200: {"model": HealthBody},
    503: {"model": HealthBody, "description": "Not healthy"},
}


@router.get("/healthz", summary="Liveness: the store answers", responses=_HEALTH)
def healthz(service: ServiceDep) -> JSONResponse:
    checks: dict[str, Any] = {"store": service.store.dialect}
    ok = True
    try:
        service.store.check_file("health check")
        service.store.facts_version()
    except Exception as e:
        ok = False
        checks["store_error"] = str(e)
    if service.reload_error is not None:
        # Still serving with the previous files; say why the new ones were refused.
        checks["reload_error"] = service.reload_error
    if service.limiter.shared:
        checks["rate_limit_store"] = "redis" if service.limiter.healthy() else "unreachable"
        ok = ok and checks["rate_limit_store"] == "redis"
    body = {"status": "ok" if ok else "degraded", "version": version("receiptgate"), **checks}
    return JSONResponse(body, 200 if ok else 503)


@router.get(
    "/readyz",
    summary="Readiness: the store can write (one real write and commit)",
    responses=_HEALTH,
)
def readyz(service: ServiceDep) -> JSONResponse:
    try:
        service.store.probe_write()
    except Exception as e:
        body = {"status": "not_ready", "store": service.store.dialect, "store_error": str(e)}
        return JSONResponse(body, 503)
    return JSONResponse({"status": "ready", "store": service.store.dialect}, 200)
