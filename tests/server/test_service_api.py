"""The HTTP API of ``receiptgate serve``, driven over loopback against a real process."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer, start_server

ROOT = Path(__file__).resolve().parents[2]
QUICKSTART = ROOT / "examples" / "quickstart"
TEXT = (QUICKSTART / "answer.txt").read_text()
NOW = "2026-03-11T10:00:00Z"
CRM = [json.loads(line) for line in (QUICKSTART / "crm.jsonl").read_text().splitlines() if line]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> LiveServer:
    s = start_server(
        tmp_path_factory.mktemp("svc") / "data",
        args=("--facts", str(QUICKSTART / "facts.yaml")),
        env={"RECEIPTGATE_MAX_BODY_BYTES": "65536"},
    )
    yield s  # type: ignore[misc]
    s.stop()


def test_healthz_needs_no_key_and_openapi_is_published(server: LiveServer) -> None:
    status, _, body = server.request("GET", "/healthz", key=None)
    assert status == 200 and body["status"] == "ok" and body["store"] == "sqlite"
    status, _, spec = server.request("GET", "/openapi.json", key=None)
    assert status == 200
    for path in ("/validate", "/sessions/{session_id}/receipts", "/audit", "/facts"):
        assert path in spec["paths"]


def test_validate_answers_the_report_and_records_it_before_answering(server: LiveServer) -> None:
    status, _, report = server.request(
        "POST",
        "/validate",
        {"text": TEXT, "agent_id": "ops-bot", "trust": 40, "receipts": CRM, "now": NOW},
        key="validate",
    )
    assert status == 200, report
    assert report["verdict"] == "block" and report["grade"] == "incorrect"
    for field in ("id", "turn_id", "issues", "suggestions", "revised_plan", "created_at"):
        assert field in report
    tags = {s["index"]: s["tag"] for s in report["sentences"]}
    assert tags[1] == "T5"  # Node.js contradicted by the facts file given to serve
    assert report["trust"] == {"score": 40, "tier": report["trust"]["tier"]}
    # The record is in the audit as soon as the answer arrived.
    status, _, record = server.request("GET", f"/audit/{report['id']}")
    assert status == 200
    assert record["audit_verdict"] == "output_block"
    assert record["controls"] == ["A.8.10", "A.5.24", "A.5.28"]
    assert record["agent_id"] == "ops-bot" and record["turn_id"] == report["turn_id"]
    assert record["text"] is None  # no full text by default (RFC-003 §14.3)
    assert TEXT not in json.dumps(record)
    assert "runner image" not in json.dumps(record)  # a sentence without a claim


@pytest.mark.parametrize(
    ("headers", "status", "needle"),
    [
        ({}, 401, "API key is required"),
        ({"Authorization": "Bearer rg_not_a_real_key_at_all"}, 401, "unknown or revoked"),
        ({"Authorization": "Basic abc"}, 401, "Bearer"),
    ],
)
def test_requests_without_a_valid_key_get_401_json(
    server: LiveServer, headers: dict[str, str], status: int, needle: str
) -> None:
    got, hdrs, body = server.request(
        "POST", "/validate", {"text": "The pipeline is broken."}, key=None, headers=headers
    )
    assert got == status and needle in body["message"] and body["error"] == "unauthorized"
    assert hdrs.get("www-authenticate", hdrs.get("WWW-Authenticate")) == "Bearer"


def test_a_validate_key_cannot_administer(server: LiveServer) -> None:
    fact = {"category": "existence", "subject": "x", "value": {"type": "exists", "exists": True}}
    for method, path, body in (
        ("GET", "/audit", None),
        ("PUT", "/facts/api/x", fact),
        ("GET", "/facts", None),
    ):
        status, _, answer = server.request(method, path, body, key="validate")
        assert status == 403, (path, answer)
        assert "admin" in answer["message"]


@pytest.mark.parametrize(
    ("body", "field", "reason"),
    [
        ({"text": "x", "trust": 120}, "trust", "less than or equal to 100"),
        ({"agent_id": "a"}, "text", "field required"),
        ({"text": "x", "colour": "red"}, "colour", "unknown field"),
        ({"text": "x", "now": "yesterday"}, "now", "datetime"),
        ({"text": 5}, "text", "string"),
    ],
)
def test_bad_validate_bodies_get_422_naming_the_field(
    server: LiveServer, body: dict[str, object], field: str, reason: str
) -> None:
    status, _, answer = server.request("POST", "/validate", body, key="validate")
    assert status == 422
    assert answer["error"] == "invalid_request"
    assert any(d["field"] == field and reason in d["reason"] for d in answer["details"]), answer


def test_invalid_json_and_bad_receipts_are_422_with_the_reason(server: LiveServer) -> None:
    status, _, answer = server.request(
        "POST", "/validate", raw=b'{"text": "x",', key="validate",
        headers={"Content-Type": "application/json"},
    )  # fmt: skip
    assert status == 422 and "invalid JSON" in answer["message"]
    status, _, answer = server.request(
        "POST",
        "/validate",
        {"text": "I ran the tests.", "receipts": [{"content": "ok"}]},
        key="validate",
    )
    assert status == 422 and "receipts" in answer["message"] and "kind" in answer["message"]


def test_oversized_bodies_are_refused_with_413(server: LiveServer) -> None:
    big = {"text": "word " * 20_000}
    status, _, answer = server.request("POST", "/validate", big, key="validate")
    assert status == 413 and answer["error"] == "body_too_large"
    assert "65536" in answer["message"]


def test_session_receipts_are_evidence_for_later_validations(server: LiveServer) -> None:
    jsonl = "\n".join(json.dumps(r) for r in CRM).encode()
    status, _, answer = server.request(
        "POST", "/sessions/s-42/receipts", raw=jsonl, key="validate",
        headers={"Content-Type": "application/x-ndjson"},
    )  # fmt: skip
    assert status == 200 and answer == {"session_id": "s-42", "added": 1, "total": 1}
    text = "The Acme contract is worth $2.6 million a year."
    status, _, with_session = server.request(
        "POST", "/validate", {"text": text, "session_id": "s-42", "now": NOW}, key="validate"
    )
    status2, _, without = server.request(
        "POST", "/validate", {"text": text, "now": NOW}, key="validate"
    )
    assert status == status2 == 200

    # The CRM receipt says 2,400,000: the session's receipt contradicts the claim.
    def contradicted_by(report: dict[str, Any]) -> set[str]:
        return {
            e["id"] for e in report["sentences"][0]["evidence"] if e["relation"] == "contradicts"
        }

    assert contradicted_by(with_session) == {"crm-1"}
    assert contradicted_by(without) == set()
    status, _, answer = server.request(
        "POST", "/sessions/s-42/receipts", {"receipts": []}, key="validate"
    )
    assert status == 422 and "no receipts" in answer["message"]


def test_facts_written_by_an_admin_take_effect_and_survive_in_the_store(
    server: LiveServer,
) -> None:
    fact = {
        "category": "operational_status",
        "subject": "billing service",
        "value": {"type": "status", "status": "operational"},
    }
    status, _, saved = server.request("PUT", "/facts/api/billing-up", fact)
    assert status == 200 and saved["id"] == "billing-up" and saved["origin"] == "api"
    status, _, report = server.request(
        "POST", "/validate", {"text": "The billing service is down."}, key="validate"
    )
    assert report["verdict"] == "block"
    assert any(v["fact_id"] == "billing-up" for v in report["violations"])
    status, _, listing = server.request("GET", "/facts")
    assert {f["id"] for f in listing["facts"]} >= {"billing-up", "node-installed"}
    status, _, one = server.request("GET", "/facts/system-state/node-installed")
    assert status == 200 and one["origin"].endswith("facts.yaml")
    # Facts from files are read-only through the API.
    status, _, answer = server.request("PUT", "/facts/system-state/node-installed", fact)
    assert status == 409 and "read-only" in answer["message"]
    bad = {"category": "system_state", "subject": "x", "value": {"type": "nope"}}
    status, _, answer = server.request("PUT", "/facts/api/bad", bad)
    assert status == 422 and "value" in answer["message"]
    status, _, _ = server.request("DELETE", "/facts/api/billing-up")
    assert status == 204
    status, _, report = server.request(
        "POST", "/validate", {"text": "The billing service is down."}, key="validate"
    )
    assert report["verdict"] != "block"
    status, _, answer = server.request("DELETE", "/facts/api/billing-up")
    assert status == 404


def test_audit_queries_filter_and_export_and_feedback_is_recorded(server: LiveServer) -> None:
    for agent, text in (("qa-1", "The pipeline is broken."), ("qa-2", "Hello there, friend.")):
        status, _, _ = server.request(
            "POST", "/validate", {"text": text, "agent_id": agent, "now": NOW}, key="validate"
        )
        assert status == 200
    status, _, page = server.request("GET", "/audit?agent_id=qa-1")
    assert status == 200 and page["total"] == 1
    record = page["records"][0]
    assert record["verdict"] == "block" and "operational_status" in record["categories"]
    status, _, page = server.request(
        "GET", "/audit?verdict=output_block&category=operational_status"
    )
    assert any(r["agent_id"] == "qa-1" for r in page["records"])
    status, _, page = server.request("GET", "/audit?verdict=maybe")
    assert status == 422 and page["details"][0]["field"] == "verdict"
    status, _, page = server.request("GET", "/audit?since=2030-01-01T00:00:00Z")
    assert status == 200 and page["total"] == 0
    override = {"kind": "override", "verdict": "flag", "note": "known outage"}
    status, _, fb = server.request("POST", f"/audit/{record['id']}/feedback", override)
    assert status == 201 and fb["verdict"] == "flag"
    status, _, answer = server.request(
        "POST", f"/audit/{record['id']}/feedback", {"kind": "override"}
    )
    assert status == 422 and answer["details"][0]["field"] == "verdict"
    status, _, answer = server.request("POST", "/audit/nope/feedback", {"kind": "agree"})
    assert status == 404
    status, _, text = server.request("GET", "/audit/export?agent_id=qa-1")
    assert status == 200
    lines = [json.loads(line) for line in text.splitlines()]
    assert len(lines) == 1 and lines[0]["feedback"][0]["note"] == "known outage"


def test_secrets_and_full_text_never_reach_the_audit(server: LiveServer) -> None:
    secret = "sk-live-" + "A1b2C3d4" * 4
    text = f"The deploy token is {secret} and the pipeline is broken."
    status, _, report = server.request("POST", "/validate", {"text": text}, key="validate")
    assert status == 200
    status, _, record = server.request("GET", f"/audit/{report['id']}")
    dumped = json.dumps(record)
    assert secret not in dumped and "deploy token" not in dumped
    assert record["text_length"] == len(text)


def test_rate_limit_per_key_and_user_answers_429_with_retry_after(tmp_path: Path) -> None:
    s = start_server(tmp_path / "data", env={"RECEIPTGATE_RATE_LIMIT": "3/minute"})
    try:
        body = {"text": "The pipeline is broken.", "user_id": "u1"}
        codes = [s.request("POST", "/validate", body, key="validate")[0] for _ in range(3)]
        assert codes == [200, 200, 200]
        status, hdrs, answer = s.request("POST", "/validate", body, key="validate")
        assert status == 429 and answer["error"] == "rate_limited"
        assert 1 <= int(hdrs.get("retry-after", hdrs.get("Retry-After", "0"))) <= 60
        # Another user of the same key has a budget of its own.
        other = {"text": "The pipeline is broken.", "user_id": "u2"}
        assert s.request("POST", "/validate", other, key="validate")[0] == 200
        # A refused validation is not in the audit.
        assert s.request("GET", "/audit")[2]["total"] == 4
    finally:
        s.stop()


def test_the_budget_belongs_to_the_key_and_user_ids_only_divide_it(tmp_path: Path) -> None:
    env = {"RECEIPTGATE_RATE_LIMIT": "3/minute", "RECEIPTGATE_KEY_RATE_LIMIT": "5/minute"}
    s = start_server(tmp_path / "data", env=env)
    try:
        codes = [
            s.request("POST", "/validate", {"text": "Hi.", "user_id": f"u{i}"}, key="validate")[0]
            for i in range(30)
        ]
        assert codes == [200] * 5 + [429] * 25  # a new user_id each time gains nothing
        status, _, answer = s.request("POST", "/validate", {"text": "Hi."}, key="validate")
        assert status == 429 and "key" in answer["message"]
        # Another key has a budget of its own.
        assert s.request("POST", "/validate", {"text": "Hi."}, key="admin")[0] == 200
    finally:
        s.stop()


def test_a_request_names_a_rubric_from_the_rubrics_folder(tmp_path: Path) -> None:
    s = start_server(tmp_path / "data", args=("--rubrics", str(ROOT / "examples" / "rubrics")))
    try:
        status, _, listing = s.request("GET", "/rubrics", key="validate")
        assert status == 200 and {"finance", "support"} <= {r["id"] for r in listing["rubrics"]}
        text = "I think revenue grew 12% in Q3."
        status, _, graded = s.request(
            "POST", "/validate", {"text": text, "rubric": "finance"}, key="validate"
        )
        assert status == 200 and graded["rubric"]["id"] == "finance"
        assert graded["grade"] == graded["rubric"]["grade"]
        status, _, plain = s.request("POST", "/validate", {"text": text}, key="validate")
        assert plain["rubric"]["id"] == "default"
        status, _, answer = s.request(
            "POST", "/validate", {"text": text, "rubric": "legal"}, key="validate"
        )
        assert status == 422 and "finance" in answer["message"] and "legal" in answer["message"]
    finally:
        s.stop()


def test_serve_refuses_bad_settings_with_exit_2(tmp_path: Path) -> None:
    import subprocess
    import sys

    bad = tmp_path / "bad-rubrics"
    bad.mkdir()
    (bad / "x.yaml").write_text("id: x\nthresholds: {incorrect: -1}\n")
    for args, needle in (
        (["--rubrics", str(bad)], "x.yaml"),
        (["--db", "mysql://nope"], "mysql"),
        (["--rate-limit", "3 per fortnight"], "RECEIPTGATE_RATE_LIMIT"),
        (["--facts", str(tmp_path / "missing.yaml")], "missing.yaml"),
    ):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "receiptgate.cli.main",
                "serve",
                "--data-dir",
                str(tmp_path),
                *args,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, (args, proc.stderr)
        assert needle in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


def test_keys_create_prints_one_key_that_the_service_accepts(tmp_path: Path) -> None:
    import subprocess
    import sys

    data = tmp_path / "data"
    proc = subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", "keys", "create", "--scope", "validate",
         "--name", "ci-bot", "--data-dir", str(data)],
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    lines = proc.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rg_")
    s = start_server(data)
    try:
        status, _, _ = s.request("POST", "/validate", {"text": "Hello."}, key=lines[0])
        assert status == 200
        status, _, _ = s.request("GET", "/audit", key=lines[0])
        assert status == 403
    finally:
        s.stop()


def test_create_app_needs_no_arguments(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The factory reads the environment, so it can be mounted or served by any ASGI server."""
    import asyncio

    import httpx

    from receiptgate.server import create_app

    monkeypatch.setenv("RECEIPTGATE_DATA_DIR", str(tmp_path))
    monkeypatch.setenv("RECEIPTGATE_API_KEYS", "validate:rg_in_process_key_0123456789")
    app = create_app()

    async def exercise() -> tuple[int, httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://rg") as client:
            health = await client.get("/healthz")
            answer = await client.post(
                "/validate",
                json={"text": "The pipeline is broken."},
                headers={"Authorization": "Bearer rg_in_process_key_0123456789"},
            )
            return health.status_code, answer

    try:
        health, answer = asyncio.run(exercise())
    finally:
        app.state.service.close()
    assert health == 200
    assert answer.status_code == 200 and answer.json()["verdict"] in ("flag", "block")
    assert (tmp_path / "receiptgate.db").is_file()


def test_a_chunked_body_over_the_limit_is_cut_off_with_413(server: LiveServer) -> None:
    import socket

    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(
            (
                f"POST /validate HTTP/1.1\r\nHost: {host}\r\n"
                f"Authorization: Bearer {server.validate_key}\r\n"
                "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            ).encode()
        )
        chunk = b'{"text": "' + b"x" * 30_000
        try:
            for _ in range(4):  # 120 KB, over the 64 KiB limit; no Content-Length to refuse early
                sock.sendall(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server may close as soon as it has answered
        answer = b""
        while b"\r\n\r\n" not in answer:
            data = sock.recv(65536)
            if not data:
                break
            answer += data
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]


def test_keys_from_a_hashed_keys_file_and_revoked_keys(tmp_path: Path) -> None:
    import hashlib
    import subprocess
    import sys

    plaintext = "rg_from_the_keys_file_0123456789abcdef"
    keys = tmp_path / "keys.yaml"
    digest = hashlib.sha256(plaintext.encode()).hexdigest()
    keys.write_text(f"- name: reviewer\n  scope: admin\n  sha256: {digest}\n")
    assert plaintext not in keys.read_text()
    data = tmp_path / "data"
    made = subprocess.run(
        [sys.executable, "-m", "receiptgate.cli.main", "keys", "create", "--scope", "validate",
         "--data-dir", str(data)],
        capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    db_key = made.stdout.strip()
    s = start_server(data, env={"RECEIPTGATE_API_KEYS_FILE": str(keys)})
    try:
        assert s.request("GET", "/audit", key=plaintext)[0] == 200
        assert s.request("POST", "/validate", {"text": "Hi there."}, key=db_key)[0] == 200
        key_id = made.stderr.split("key ")[-1].strip()
        subprocess.run(
            [sys.executable, "-m", "receiptgate.cli.main", "keys", "revoke", key_id,
             "--data-dir", str(data)],
            capture_output=True, text=True, check=True, timeout=60,
        )  # fmt: skip
        deadline = time.monotonic() + 10  # the key cache lives 5 s
        while time.monotonic() < deadline:
            status = s.request("POST", "/validate", {"text": "Hi there."}, key=db_key)[0]
            if status == 401:
                break
            time.sleep(0.5)
        assert status == 401
    finally:
        s.stop()


def test_without_redis_validations_are_refused_not_let_through(tmp_path: Path) -> None:
    from live_server import free_port

    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    s = start_server(tmp_path / "data", args=("--redis", dead), health_ok=False)
    try:
        status, _, answer = s.request("POST", "/validate", {"text": "Hi."}, key="validate")
        assert status == 503 and "rate limiter" in answer["message"]
        status, _, health = s.request("GET", "/healthz", key=None)
        assert status == 503 and health["rate_limit_store"] == "unreachable"
        assert s.request("GET", "/audit")[2]["total"] == 0
    finally:
        s.stop()
