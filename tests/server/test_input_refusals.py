"""Over HTTP, no body or parameter switches the gate off: a verdict or a 4xx naming the problem.

Each test is a probe that once answered 500, passed a lie, or lost records: a
lone surrogate in a body, a huge offset, a fact with a TTL of 1e30 seconds,
bytes that are not UTF-8, a streamed body over the limit, the database file
deleted under the running service.
"""

from __future__ import annotations

import http.client
import json
import shutil
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from live_server import LiveServer, start_server

LIE = "I ran the tests and they all pass."
SURROGATE = b"\\ud800"  # a lone surrogate, as JSON writes it


def _raw(live: LiveServer, path: str, body: bytes, key: str = "validate") -> tuple[int, Any]:
    status, _, answer = live.request(
        "POST", path, raw=body, key=key, headers={"Content-Type": "application/json"}
    )
    return status, answer


def test_a_lone_surrogate_in_any_field_gets_a_verdict_and_a_note(live_server: LiveServer) -> None:
    body = (
        b'{"text": "' + LIE.encode() + b" " + SURROGATE + b'", "agent_id": "a' + SURROGATE + b'"}'
    )
    status, report = _raw(live_server, "/validate", body)
    assert status == 200
    assert report["verdict"] == "block" and report["fail_mode_applied"] is None
    assert "request body: 2 lone surrogates replaced by U+FFFD" in report["notes"]
    assert report["agent_id"] == "a\ufffd"
    records = live_server.request("GET", "/audit")[2]["records"]
    assert [r["id"] for r in records] == [report["id"]]  # recorded, not a 500


def test_a_lone_surrogate_in_a_hook_event_gets_a_verdict(live_server: LiveServer) -> None:
    body = b'{"content": "' + LIE.encode() + SURROGATE + b'", "sessionKey": "s' + SURROGATE + b'"}'
    status, answer = _raw(live_server, "/hooks/message_sending", body)
    assert status == 200
    assert answer["cancel"] is True
    assert "event: 2 lone surrogates replaced by U+FFFD" in answer["notes"]


def test_bytes_that_are_not_utf8_are_refused_naming_the_byte(live_server: LiveServer) -> None:
    status, answer = _raw(live_server, "/validate", b'{"text": "Caf\xe9 is open."}')
    assert status == 400
    assert answer["message"] == "body: not UTF-8 text (byte 0xe9 at offset 13)"


def test_numbers_past_their_bounds_are_refused(live_server: LiveServer) -> None:
    status, _, answer = live_server.request("GET", "/audit?offset=99999999999999999999999")
    assert status == 422 and "offset" in answer["message"]
    fact = {
        "category": "operational_status",
        "subject": "pipeline",
        "value": {"type": "status", "status": "operational"},
    }
    for extra, field in (
        ({"ttlSeconds": 1e30}, "ttlSeconds"),
        ({"ttlSeconds": 60, "updatedAt": "9999-12-31T00:00:00Z"}, "updatedAt"),
    ):
        status, _, answer = live_server.request("PUT", "/facts/api/f1", {**fact, **extra})
        assert status == 422 and field in answer["message"], answer
    status, _, answer = live_server.request(
        "POST", "/validate", {"text": LIE, "now": "9999-12-31T23:59:59Z"}, key="validate"
    )
    assert status == 422 and "now" in answer["message"]
    status, _, answer = live_server.request(
        "POST", "/validate", {"text": LIE, "receipts": [{"kind": "user", "content": "x"}] * 2001},
        key="validate",
    )  # fmt: skip
    assert status == 422 and "receipts" in answer["message"]
    # The gate still works for everyone afterwards.
    status, _, report = live_server.request("POST", "/validate", {"text": LIE}, key="validate")
    assert status == 200 and report["fail_mode_applied"] is None


def _stream_chunks(live: LiveServer, chunks: list[bytes]) -> tuple[int, str]:
    """POSTs text/plain chunks to /validate/stream; returns the status and the SSE text."""
    url = urlsplit(live.url)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=30)
    conn.putrequest("POST", "/validate/stream")
    conn.putheader("Authorization", f"Bearer {live.validate_key}")
    conn.putheader("Content-Type", "text/plain")
    conn.putheader("Transfer-Encoding", "chunked")
    conn.endheaders()
    try:
        for chunk in chunks:
            conn.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        conn.send(b"0\r\n\r\n")
    except (BrokenPipeError, ConnectionResetError):
        pass  # the server stopped reading: its answer says why
    response = conn.getresponse()
    text = response.read().decode()
    conn.close()
    return response.status, text


def _events(sse: str) -> list[tuple[str, dict[str, Any]]]:
    out = []
    for block in sse.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        out.append((lines["event"], json.loads(lines["data"])))
    return out


def test_a_streamed_body_over_the_limit_ends_with_an_error_event_and_an_audit_record(
    tmp_path: Path,
) -> None:
    live = start_server(tmp_path / "data", env={"RECEIPTGATE_MAX_BODY_BYTES": "4096"})
    try:
        chunks = [b"I like tea. " * 40 for _ in range(20)]  # 9,600 bytes in all
        status, sse = _stream_chunks(live, chunks)
        events = _events(sse)
        assert status == 200
        kind, error = events[-1]
        assert kind == "error" and error["error"] == "body_too_large"
        assert "report" not in [k for k, _ in events]
        record = live.request("GET", f"/audit/{error['audit_id']}")[2]
        assert record["audit_verdict"] == "error_fallback"
    finally:
        live.stop()


def test_bytes_that_are_not_utf8_end_a_stream_with_an_error_event(live_server: LiveServer) -> None:
    status, sse = _stream_chunks(live_server, [b"I like tea. ", b"Caf\xe9 time. ", b"More."])
    kind, error = _events(sse)[-1]
    assert status == 200 and kind == "error"
    assert "not UTF-8" in error["message"] and error.get("audit_id")


def test_a_long_stream_is_judged_up_to_max_text_length_and_flagged_after(
    live_server: LiveServer,
) -> None:
    chunks = [b"I like tea. " * 100 for _ in range(15)]  # 18,000 characters
    status, sse = _stream_chunks(live_server, chunks)
    events = _events(sse)
    kind, report = events[-1]
    assert status == 200 and kind == "report"
    assert report["verdict"] == "flag"
    assert any("not validated" in n for n in report["notes"])
    delivered = "".join(data["delivered"] for k, data in events if k == "sentence")
    assert delivered == (b"I like tea. " * 1500).decode().strip()


def test_when_the_database_file_goes_the_service_refuses_and_is_not_ready(
    tmp_path: Path,
) -> None:
    live = start_server(tmp_path / "data")
    try:
        assert live.request("GET", "/readyz", key=None)[0] == 200
        assert live.request("POST", "/validate", {"text": LIE}, key="validate")[0] == 200
        shutil.rmtree(live.data_dir / "receiptgate.db", ignore_errors=True)
        for f in live.data_dir.glob("receiptgate.db*"):
            f.unlink()
        status, _, answer = live.request("POST", "/validate", {"text": LIE}, key="validate")
        assert status == 503 and "has gone" in answer["message"]
        assert live.request("GET", "/healthz", key=None)[0] == 503
        status, _, body = live.request("GET", "/readyz", key=None)
        assert status == 503 and body["status"] == "not_ready"
    finally:
        live.stop()


@pytest.mark.parametrize("padding", [0, 40_000], ids=["in-process", "worker"])
def test_an_unknown_rubric_is_refused_the_same_way_for_small_and_large_bodies(
    live_server: LiveServer, padding: int
) -> None:
    # Bodies over 16 KB are validated in the worker process: the same answer either way.
    text = LIE + " " + "Fine." * (padding // 5)
    status, answer = live_server.request(
        "POST", "/validate", {"text": text, "rubric": "nope"}, key="validate"
    )[0:3:2]
    assert status == 422
    assert answer["error"] == "invalid_input"
    assert answer["message"].startswith("rubric: no rubric with id 'nope' (known: ")
