"""A scripted OpenAI-compatible endpoint on 127.0.0.1, for the LLM judge's tests.

A real ``http.server`` in a thread answers ``POST /v1/chat/completions`` from
queues of scripted replies (one queue per model, then a shared one) and records
every request it received, so tests see exactly what the judge sent over the
wire. Nothing inside receiptgate or the ``openai`` SDK is patched.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from receiptgate.engine import Gate

#: ``make_gate(**llmValidator keys, facts=[...], top={...})`` (the fixture in conftest.py).
GateFactory = Callable[..., "Gate"]


@dataclass
class Reply:
    """One scripted answer.

    ``content`` is the assistant message; ``status`` other than 200 sends
    ``error`` as an OpenAI error body; ``delay`` sleeps before answering.
    """

    content: str | None = None
    status: int = 200
    error: str = "scripted error"
    delay: float = 0.0
    usage: tuple[int, int] = (120, 30)


def verdicts(*entries: dict[str, Any] | tuple[Any, ...]) -> str:
    """An answer in the judge's schema; tuples are (index, verdict[, check, confidence, quote])."""
    out = []
    for e in entries:
        if isinstance(e, tuple):
            index, verdict, *rest = e
            check = rest[0] if rest else ("none" if verdict in ("supported", "no_claim") else "x")
            confidence = rest[1] if len(rest) > 1 else 0.95
            quote = rest[2] if len(rest) > 2 else ""
            e = {
                "index": index,
                "verdict": verdict,
                "check": check,
                "quote": quote,
                "reason": f"scripted {verdict}",
                "confidence": confidence,
                "evidence": [],
            }
        out.append(e)
    return json.dumps({"sentences": out})


def ok(*entries: dict[str, Any] | tuple[Any, ...], delay: float = 0.0) -> Reply:
    return Reply(verdicts(*entries), delay=delay)


class ScriptedLLM:
    """The server. ``push`` replies, run the code under test, read ``requests``."""

    def __init__(self) -> None:
        self._queues: dict[str | None, deque[Reply]] = {}
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(
            target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def push(self, *replies: Reply, model: str | None = None) -> None:
        """Queues replies for ``model`` (``None``: for any model without its own queue)."""
        with self._lock:
            self._queues.setdefault(model, deque()).extend(replies)

    def models(self) -> list[str]:
        return [r["model"] for r in self.requests]

    def pending(self) -> int:
        with self._lock:
            return sum(len(q) for q in self._queues.values())

    def reset(self) -> None:
        with self._lock:
            self._queues.clear()
            self.requests.clear()
            self.headers.clear()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _next(self, model: str) -> Reply:
        with self._lock:
            for key in (model, None):
                q = self._queues.get(key)
                if q:
                    return q.popleft()
        return Reply(status=500, error=f"no scripted reply left for model {model!r}")

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except OSError:
                    pass  # the client gave up (a timeout test)

            def do_GET(self) -> None:
                self._send(200, {"object": "list", "data": []})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with llm._lock:
                    llm.requests.append(body)
                    llm.headers.append(dict(self.headers.items()))
                if self.path != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                reply = llm._next(str(body.get("model")))
                if reply.delay:
                    time.sleep(reply.delay)
                if reply.status != 200:
                    self._send(
                        reply.status,
                        {"error": {"message": reply.error, "type": "scripted", "code": None}},
                    )
                    return
                prompt, completion = reply.usage
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-{len(llm.requests)}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.content},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {
                            "prompt_tokens": prompt,
                            "completion_tokens": completion,
                            "total_tokens": prompt + completion,
                        },
                    },
                )

        return Handler


def data_of(request: dict[str, Any]) -> dict[str, Any]:
    """The JSON document of a judge request's user message."""
    user = next(m for m in request["messages"] if m["role"] == "user")
    header, _, doc = user["content"].partition("\n")
    assert header.startswith("DATA TO CHECK")
    parsed: dict[str, Any] = json.loads(doc)
    return parsed


def system_of(request: dict[str, Any]) -> str:
    return str(next(m for m in request["messages"] if m["role"] == "system")["content"])
