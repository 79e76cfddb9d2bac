"""The ASGI application: ``create_app()`` builds it from the environment.

Callable with no arguments (settings from ``RECEIPTGATE_*`` variables and
defaults), so it can be served by any ASGI server
(``uvicorn --factory receiptgate.server:create_app``), mounted in another app or
tested in-process.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import version

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from receiptgate.server import dashboard
from receiptgate.server.errors import BodyLimitMiddleware, install_error_handlers
from receiptgate.server.routes import (
    audit,
    facts,
    health,
    hooks,
    sessions,
    stream,
    turns,
    validate,
)
from receiptgate.server.schemas import COMMON_ERRORS
from receiptgate.server.service import Service
from receiptgate.server.settings import ServerSettings


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    """Builds the service: loads config, facts and policy, opens and migrates the store.

    Raises:
        ConfigError: a setting or file is invalid (the message names it).
        StoreError: the database cannot be opened.
    """
    settings = settings or ServerSettings.from_env()
    service = Service(settings)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service.start()
        try:
            yield
        finally:
            service.close()

    app = FastAPI(
        title="receiptgate",
        version=version("receiptgate"),
        summary="Claim gate for LLM agents: every factual sentence must show its receipt.",
        lifespan=lifespan,
        responses=COMMON_ERRORS,
    )
    app.state.service = service
    install_error_handlers(app)
    for module in (health, validate, stream, hooks, sessions, facts, audit, dashboard, turns):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=dashboard.STATIC_DIR), name="static")
    app.add_middleware(BodyLimitMiddleware, max_bytes=settings.max_body_bytes)
    return app


def tune_process() -> None:
    """Process settings for a process that only serves receiptgate (``receiptgate serve``).

    A validation in a worker thread gives the event loop (small requests, health
    checks) the GIL back after at most 0.5 ms instead of 5 ms
    (``RECEIPTGATE_SWITCH_INTERVAL`` seconds); and the objects that live as long as
    the process (modules, the gate, compiled patterns) leave the garbage
    collector's view, so a full collection no longer pauses every request for tens
    of milliseconds. Not done by ``create_app``: both are process-wide, and an app
    that mounts receiptgate decides them for itself.
    """
    sys.setswitchinterval(float(os.environ.get("RECEIPTGATE_SWITCH_INTERVAL", "0.0005")))
    gc.collect()
    gc.freeze()


def serving_app() -> FastAPI:
    """``create_app`` for each worker of ``receiptgate serve --workers N``, tuned."""
    app = create_app()
    tune_process()
    return app
