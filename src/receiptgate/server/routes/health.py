"""``GET /healthz``: answers without a key; 503 when the store cannot be reached."""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from receiptgate.server.deps import ServiceDep

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Liveness and readiness")
def healthz(service: ServiceDep) -> JSONResponse:
    checks: dict[str, Any] = {"store": service.store.dialect}
    ok = True
    try:
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
