"""Large validations in a worker process, so that they never hold up small ones.

The gate is pure Python: a validation in a thread of the serving process holds
the GIL, and a request with thousands of receipts (tens to hundreds of
milliseconds of CPU) slowed every small request beside it by tens of
milliseconds. A body over ``INLINE_BODY_BYTES`` without a session is therefore
parsed and validated in a worker process, which builds the same gate from the
same settings and applies the same API facts (it reads them from the store when
their version changes, and rebuilds its gate when the service reloads files).
The serving process only moves bytes and commits the audit record.

If the worker process cannot be used (it died, it could not start), the
validation runs in a thread of the serving process instead: slower for the
neighbours, never lost.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from receiptgate._exceptions import ReceiptgateError, UserError
from receiptgate.server.errors import ApiError, validation_details

if TYPE_CHECKING:
    from receiptgate.engine import Gate
    from receiptgate.results import ValidationResult
    from receiptgate.rubrics import Rubric
    from receiptgate.server.models import ValidateRequest
    from receiptgate.server.settings import ServerSettings
    from receiptgate.store import Store

logger = logging.getLogger("receiptgate.server")


@dataclass(frozen=True, slots=True)
class _Refusal:
    """An error from the worker, in a form that crosses the process boundary."""

    status: int
    code: str
    message: str
    details: tuple[tuple[str, str], ...] = ()

    def raise_it(self) -> None:
        details = [{"field": f, "reason": r} for f, r in self.details]
        raise ApiError(self.status, self.code, self.message, details=details)


class _Worker:
    """The worker process's copy of the service's gate, facts and rubrics."""

    def __init__(self, settings: ServerSettings) -> None:
        from receiptgate.rubrics import load_rubric_dir
        from receiptgate.store import open_store

        self.settings = settings
        self.store: Store = open_store(settings.db_url, data_dir=settings.data_dir, migrate=False)
        self.rubrics: dict[str, Rubric] = (
            load_rubric_dir(settings.rubrics_dir) if settings.rubrics_dir is not None else {}
        )
        self.generation = -1
        self.gate: Gate | None = None
        self.facts_version = -1
        self.applied: set[str] = set()

    def _ready_gate(self, generation: int) -> Gate:
        from receiptgate.server.service import Service, apply_api_facts

        if self.gate is None or generation != self.generation:
            self.gate = Service.build_gate(self.settings)
            self.generation, self.facts_version, self.applied = generation, -1, set()
        version = self.store.facts_version()
        if version != self.facts_version:
            self.applied = apply_api_facts(self.store, self.gate, self.applied)
            self.facts_version = version
        return self.gate

    def validate(
        self, raw: bytes, generation: int
    ) -> tuple[ValidateRequest, ValidationResult] | None:
        from receiptgate.server.deps import json_body
        from receiptgate.server.models import ValidateRequest
        from receiptgate.server.routes.validate import run_gate
        from receiptgate.server.service import pick_rubric

        body = json_body(raw, ValidateRequest)
        if body.session_id is not None:
            return None  # the session's receipts are in the serving process
        gate = self._ready_gate(generation)
        result = run_gate(gate, body, pick_rubric(self.rubrics, body.rubric))
        # The receipts stay here: the serving process needs the rest of the body.
        return body.model_copy(update={"receipts": None, "messages": None}), result


_WORKER: _Worker | None = None


def _start(settings: ServerSettings, parent: int) -> None:
    global _WORKER
    _WORKER = _Worker(settings)
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()


def _exit_with(parent: int) -> None:
    """Ends the worker when the service that spawned it (``parent``, passed in: the
    service may die before the worker gets here) is gone; killed with SIGKILL, it could
    not shut its pool down, and no orphan worker may outlive its server."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _validate(raw: bytes, generation: int) -> Any:
    assert _WORKER is not None, "the worker was not started"
    try:
        return _WORKER.validate(raw, generation)
    except ApiError as e:
        details = tuple((d.get("field", ""), d.get("reason", "")) for d in e.details)
        return _Refusal(e.status, e.code, e.message, details)
    except ValidationError as e:
        details = tuple((d["field"], d["reason"]) for d in validation_details(e.errors()))
        message = "; ".join(f"{f}: {r}" for f, r in details[:5])
        return _Refusal(422, "invalid_request", message, details)
    except UserError as e:
        return _Refusal(422, "invalid_input", str(e))


class Offload:
    """A pool of worker processes (one by default) for large validations."""

    def __init__(self, settings: ServerSettings, workers: int = 1) -> None:
        self.settings = settings
        self.workers = workers
        #: Bumped when the service rebuilds its gate; the workers follow.
        self.generation = 0
        self._pool: ProcessPoolExecutor | None = None

    def start(self) -> None:
        """Starts the workers in the background (spawned: no state is shared)."""
        if self._pool is not None or self.workers < 1:
            return
        self._pool = ProcessPoolExecutor(
            max_workers=self.workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start,
            initargs=(self.settings, os.getpid()),
        )
        for _ in range(self.workers):
            self._pool.submit(int)  # spawn now, not on the first large request

    async def validate(self, raw: bytes) -> tuple[ValidateRequest, ValidationResult] | None:
        """The parsed body and its result, or ``None`` when no worker can take it
        (the caller validates in a thread instead).

        Raises:
            ApiError: the body is invalid (the same answers as in-process parsing).
        """
        pool = self._pool
        if pool is None:
            return None
        loop = asyncio.get_running_loop()
        try:
            answer = await loop.run_in_executor(pool, _validate, raw, self.generation)
        except (BrokenProcessPool, ReceiptgateError, OSError, RuntimeError) as e:
            logger.error("validation worker unavailable (%s); validating in a thread", e)
            self._restart()
            return None
        if isinstance(answer, _Refusal):
            answer.raise_it()
        if answer is None:
            return None
        body, result = answer
        return body, result

    def _restart(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
        try:
            self.start()
        except Exception:
            logger.exception("could not restart the validation worker")

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
