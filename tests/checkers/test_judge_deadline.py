"""The judge's ``timeoutMs`` is one deadline for the whole call, whatever the endpoint does.

An endpoint that sends its answer one byte every 100 ms never trips a per-read
timeout; before, it held each validation for a minute while the report said
"timed out after 2000 ms".
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator

import pytest

from receiptgate.config import parse_config
from receiptgate.engine import Gate


@pytest.fixture
def drip_url() -> Iterator[str]:
    """An HTTP endpoint that reads the request, then drips a response, a byte per 100 ms."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    stop = threading.Event()

    def serve(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            answer = b'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"choices": []}'
            for byte in answer:
                if stop.is_set():
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return  # the client closed: the deadline worked
                time.sleep(0.1)

    def accept() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}/v1"
    stop.set()
    server.close()


@pytest.mark.parametrize(
    ("fail_mode", "verdict"), [("fail_open", "flag"), ("fail_closed", "block")]
)
def test_a_dripping_endpoint_is_cut_off_at_the_deadline(
    drip_url: str, fail_mode: str, verdict: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    judge = {
        "enabled": True,
        "model": "m",
        "baseUrl": drip_url,
        "timeoutMs": 500,
        "maxRetries": 2,
        "cacheTtlSeconds": 0,
        "failMode": fail_mode,
    }
    gate = Gate(parse_config({"llmValidator": judge}, source="test"))
    try:
        started = time.monotonic()
        result = gate.validate("Hello there, we now serve ten million users.", channel="twitter")
        took = time.monotonic() - started
    finally:
        for checker in gate.checkers:
            getattr(checker, "close", lambda: None)()
    assert took < 2.0, f"the validation took {took:.1f} s with timeoutMs 500"
    assert result.verdict == verdict
    assert result.fail_mode_applied == fail_mode
    call = next(c for c in result.checks if c.get("status") == "timeout")
    assert "within timeoutMs 500" in call["error"]
