"""``POST /validate/stream``: server-sent events per sentence, over a real socket."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer, start_server

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    s = start_server(tmp_path_factory.mktemp("stream") / "data", args=("--facts", str(FACTS)))
    yield s
    s.stop()


def parse_events(raw: str) -> list[tuple[str, dict[str, Any]]]:
    events = []
    for block in raw.split("\n\n"):
        if not block.strip():
            continue
        fields = dict(line.split(": ", 1) for line in block.splitlines())
        events.append((fields["event"], json.loads(fields["data"])))
    return events


class SSEClient:
    """A raw HTTP/1.1 client that sends a chunked body and reads events as they come."""

    def __init__(self, server: LiveServer, query: str = "") -> None:
        host, port = server.url.removeprefix("http://").split(":")
        self.sock = socket.create_connection((host, int(port)), timeout=10)
        self.sock.sendall(
            (
                f"POST /validate/stream{query} HTTP/1.1\r\nHost: {host}\r\n"
                f"Authorization: Bearer {server.validate_key}\r\n"
                "Content-Type: text/plain; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n"
            ).encode()
        )
        self.buffer = b""
        self.headers = b""

    def send(self, text: str) -> None:
        data = text.encode()
        self.sock.sendall(f"{len(data):x}\r\n".encode() + data + b"\r\n")

    def end(self) -> None:
        self.sock.sendall(b"0\r\n\r\n")

    def next_event(self) -> tuple[str, dict[str, Any]]:
        """Reads until one whole event arrived (de-chunking the response on the way)."""
        while True:
            if not self.headers and b"\r\n\r\n" in self.buffer:
                self.headers, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
            if self.headers:
                body = self._dechunked()
                if b"\n\n" in body:
                    event, _, _ = body.partition(b"\n\n")
                    self._consume(len(event) + 2)
                    return parse_events(event.decode())[0]
            chunk = self.sock.recv(65536)
            if not chunk:
                raise AssertionError(f"connection closed; got {self.buffer!r}")
            self.buffer += chunk

    def _dechunked(self) -> bytes:
        out, rest = b"", self.buffer
        self._chunks: list[tuple[int, int]] = []
        while b"\r\n" in rest:
            size_line, _, after = rest.partition(b"\r\n")
            size = int(size_line, 16)
            if len(after) < size + 2:
                break
            out += after[:size]
            rest = after[size + 2 :]
        self._body = out
        return out

    def _consume(self, n: int) -> None:
        body = self._body[n:]
        # Re-frame what is left as one chunk so that later reads continue from it.
        rest = self.buffer
        while b"\r\n" in rest:
            size_line, _, after = rest.partition(b"\r\n")
            size = int(size_line, 16)
            if len(after) < size + 2:
                break
            rest = after[size + 2 :]
        self.buffer = (f"{len(body):x}\r\n".encode() + body + b"\r\n" if body else b"") + rest

    def close(self) -> None:
        self.sock.close()


def test_sentences_are_released_while_the_text_is_still_arriving(server: LiveServer) -> None:
    client = SSEClient(server, "?agent_id=streamer&now=2026-03-11T10:00:00Z")
    try:
        client.send("Node.js is not installed on the build host. ")
        client.send("I like gre")
        # The first sentence is decided (and blocked) before the text is complete.
        event, data = client.next_event()
        assert event == "sentence"
        assert data["index"] == 0 and data["tag"] == "T5" and data["action"] == "block"
        assert "Node.js" not in data["delivered"]
        client.send("en tea very much.")
        client.end()
        event, data = client.next_event()
        assert event == "sentence" and data["index"] == 1 and data["action"] == "pass"
        assert data["delivered"].startswith("I like green tea very much.")
        event, report = client.next_event()
        assert event == "report"
        assert report["verdict"] == "block" and report["agent_id"] == "streamer"
        assert report["sentences"][0]["tag"] == "T5"
    finally:
        client.close()
    # The streamed validation is in the audit.
    status, _, record = server.request("GET", f"/audit/{report['id']}")
    assert status == 200 and record["audit_verdict"] == "output_block"


def test_a_json_body_streams_every_sentence_then_the_report(server: LiveServer) -> None:
    status, hdrs, raw = server.request(
        "POST",
        "/validate/stream",
        {"text": "The pipeline is broken. I like tea. Nothing else to add here."},
        key="validate",
    )
    assert status == 200
    assert hdrs.get("content-type", hdrs.get("Content-Type", "")).startswith("text/event-stream")
    events = parse_events(raw)
    kinds = [e for e, _ in events]
    assert kinds == ["sentence", "sentence", "sentence", "report"]
    report = events[-1][1]
    assert [s["tag"] for s in report["sentences"]] == [d["tag"] for _, d in events[:-1]]


def test_stream_errors_before_the_stream_are_json(server: LiveServer) -> None:
    status, _, answer = server.request(
        "POST", "/validate/stream", {"text": "x", "trust": 500}, key="validate"
    )
    assert status == 422 and answer["details"][0]["field"] == "trust"
    status, _, answer = server.request("POST", "/validate/stream", {"text": "x"}, key=None)
    assert status == 401


def test_a_stream_uses_the_receipts_of_its_session(server: LiveServer) -> None:
    crm = (ROOT / "examples" / "quickstart" / "crm.jsonl").read_bytes()
    status, _, _ = server.request(
        "POST",
        "/sessions/stream-s1/receipts",
        raw=crm,
        key="validate",
        headers={"Content-Type": "application/x-ndjson"},
    )
    assert status == 200
    status, _, raw = server.request(
        "POST",
        "/validate/stream",
        {"text": "The Acme contract is worth $2.6 million a year.", "session_id": "stream-s1",
         "now": "2026-03-11T10:00:00Z"},
        key="validate",
    )  # fmt: skip
    assert status == 200
    event, sentence = parse_events(raw)[0]
    assert event == "sentence" and sentence["action"] == "block"
    assert any(e["id"] == "crm-1" and e["relation"] == "contradicts" for e in sentence["evidence"])
