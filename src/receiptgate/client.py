"""A small client for a running ``receiptgate serve``: hook events and validations over HTTP.

Standard library only (``urllib``), so the core install can talk to a service::

    from receiptgate.client import ServiceClient

    rg = ServiceClient("http://127.0.0.1:8000", api_key="rg_...")  # or RECEIPTGATE_URL / _API_KEY
    answer = rg.hook("before_tool_call", {"sessionKey": "s-1", "toolName": "exec",
                                          "params": {"command": "ls"}})
    if answer.get("block"):
        print(answer["blockReason"])

Adapters use it to send their framework's events to the service, where the provenance
policies run, every check is audited and the dashboard shows the turn. Every failure —
the service unreachable, a timeout, a non-2xx answer (a wrong key is a 401, not a pass),
an answer that is not JSON — raises :class:`ServiceError`; the caller's fail mode decides
what happens next, never a silent pass.
"""

from __future__ import annotations

import asyncio
import json
import os
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from typing import Any, Protocol
from urllib.parse import quote, urlsplit

from receiptgate._exceptions import ConfigError, RuntimeFailure

__all__ = ["HookTransport", "ServiceClient", "ServiceError"]


class HookTransport(Protocol):
    """Where an adapter sends hook events and receipts: a :class:`ServiceClient` (a running
    service) or a :class:`receiptgate.hooks.local.LocalHooks` (the same, in process). Both
    answer the same JSON."""

    def hook(self, event: str, payload: Mapping[str, Any]) -> dict[str, Any]: ...

    async def ahook(self, event: str, payload: Mapping[str, Any]) -> dict[str, Any]: ...

    def add_receipts(self, session_id: str, receipts: Sequence[Mapping[str, Any]]) -> int: ...

    async def aadd_receipts(
        self, session_id: str, receipts: Sequence[Mapping[str, Any]]
    ) -> int: ...


class ServiceError(RuntimeFailure):
    """The service could not answer: unreachable, timed out, a 4xx/5xx, or not JSON.

    Attributes:
        status: the HTTP status, or ``None`` when no answer came.
        error: the service's error code (``unauthorized``, ``rate_limited``, …) if any.
    """

    def __init__(self, message: str, *, status: int | None = None, error: str | None = None):
        super().__init__(message)
        self.status = status
        self.error = error


class ServiceClient:
    """Talks to one receiptgate service.

    Args:
        url: the service's base URL; default ``RECEIPTGATE_URL``.
        api_key: a key with the ``validate`` scope; default ``RECEIPTGATE_API_KEY``.
        timeout: seconds per request.

    Raises:
        ConfigError: no URL, or not an http(s) URL.
    """

    def __init__(
        self, url: str | None = None, api_key: str | None = None, *, timeout: float = 10.0
    ) -> None:
        url = (url if url is not None else os.environ.get("RECEIPTGATE_URL", "")).strip()
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(
                "receiptgate service URL: expected http(s)://host:port "
                f"(argument url or RECEIPTGATE_URL), got {url!r}"
            )
        self.url = url.rstrip("/")
        self.api_key = api_key if api_key is not None else os.environ.get("RECEIPTGATE_API_KEY")
        self.timeout = timeout

    def __repr__(self) -> str:  # never shows the key
        return f"ServiceClient({self.url!r})"

    # -- requests -------------------------------------------------------------------

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """One JSON request; returns the decoded answer.

        Raises:
            ServiceError: no answer, a non-2xx status (with the service's message), or
                an answer that is not JSON.
        """
        headers = {"Accept": "application/json", "User-Agent": "receiptgate-client"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        data = None
        if body is not None:
            data = json.dumps(body, default=str).encode()
            headers["Content-Type"] = "application/json"
        req = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        where = f"{method} {self.url}{path}"
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                err = json.loads(raw)
            except ValueError:
                err = {}
            if not isinstance(err, dict):
                err = {}
            message = err.get("message") or raw[:200].decode("utf-8", "replace") or e.reason
            raise ServiceError(
                f"{where}: HTTP {e.code}: {message}", status=e.code, error=err.get("error")
            ) from None
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            raise ServiceError(f"{where}: no answer ({reason})") from None
        try:
            return json.loads(raw)
        except ValueError:
            raise ServiceError(f"{where}: the answer is not JSON: {raw[:120]!r}") from None

    def hook(self, event: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """``POST /hooks/{event}``: the composed result (``cancel``, ``block``,
        ``blockReason``, ``content``, ``tools``, ``toolCalls``) plus ``validations``,
        ``errors`` and ``notes``."""
        answer = self.request("POST", f"/hooks/{quote(event, safe='')}", dict(payload))
        if not isinstance(answer, dict):
            raise ServiceError(f"POST {self.url}/hooks/{event}: expected a JSON object")
        return answer

    async def ahook(self, event: str, payload: Mapping[str, Any]) -> dict[str, Any]:
        """:meth:`hook` in a worker thread, for async frameworks."""
        return await asyncio.to_thread(self.hook, event, payload)

    def add_receipts(self, session_id: str, receipts: Sequence[Mapping[str, Any]]) -> int:
        """``POST /sessions/{id}/receipts`` with receipt objects (as in a receipts JSONL
        line); returns how many the session holds."""
        path = f"/sessions/{quote(session_id, safe='')}/receipts"
        answer = self.request("POST", path, {"receipts": [dict(r) for r in receipts]})
        total = answer.get("total") if isinstance(answer, dict) else None
        if not isinstance(total, int):
            raise ServiceError(f"POST {self.url}{path}: expected {{total}} in the answer")
        return total

    async def aadd_receipts(self, session_id: str, receipts: Sequence[Mapping[str, Any]]) -> int:
        """:meth:`add_receipts` in a worker thread."""
        return await asyncio.to_thread(self.add_receipts, session_id, receipts)

    def validate(self, text: str, **fields: Any) -> dict[str, Any]:
        """``POST /validate``: the report (SPEC §6) plus ``turn_id`` and ``session_id``.
        ``fields`` are the request's other fields (``session_id``, ``turn_id``,
        ``agent_id``, ``receipts``, ``messages``, ``channel``, …)."""
        body = {"text": text, **{k: v for k, v in fields.items() if v is not None}}
        answer = self.request("POST", "/validate", body)
        if not isinstance(answer, dict):
            raise ServiceError(f"POST {self.url}/validate: expected a JSON object")
        return answer
