"""``receiptgate.client.ServiceClient`` against a real ``receiptgate serve`` on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from live_server import VALIDATE_KEY, LiveServer, free_port, start_server

from receiptgate import ConfigError
from receiptgate.client import ServiceClient, ServiceError

FACTS = Path(__file__).resolve().parents[2] / "examples" / "quickstart" / "facts.yaml"
LIE = "Node.js is not installed on the build host."


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    s = start_server(tmp_path_factory.mktemp("client") / "data", args=("--facts", str(FACTS)))
    yield s
    s.stop()


def test_hook_and_validate_return_the_services_answers(server: LiveServer) -> None:
    rg = ServiceClient(server.url, VALIDATE_KEY)
    answer = rg.hook("before_message_write", {"message": {"role": "assistant", "content": LIE}})
    assert answer["block"] is True and answer["validations"][0]["verdict"] == "block"
    report = rg.validate(LIE, session_id="s-client", agent_id="ops")
    assert report["verdict"] == "block" and report["session_id"] == "s-client"
    again = asyncio.run(rg.ahook("message_sending", {"content": LIE}))
    assert again["cancel"] is True and again["validations"][0]["verdict"] == "block"


def test_settings_come_from_the_environment(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RECEIPTGATE_URL", server.url + "/")
    monkeypatch.setenv("RECEIPTGATE_API_KEY", VALIDATE_KEY)
    rg = ServiceClient()
    assert rg.url == server.url and VALIDATE_KEY not in repr(rg)
    assert rg.validate("Hello.")["verdict"] == "pass"


def test_every_failure_is_a_service_error_never_a_pass(server: LiveServer) -> None:
    with pytest.raises(ServiceError) as wrong_key:
        ServiceClient(server.url, "rg_not_a_key_0000000000").validate(LIE)
    assert wrong_key.value.status == 401 and "HTTP 401" in str(wrong_key.value)
    with pytest.raises(ServiceError) as bad_event:
        ServiceClient(server.url, VALIDATE_KEY).hook("no_such_event", {})
    assert bad_event.value.status == 404 and "no_such_event" in str(bad_event.value)
    with pytest.raises(ServiceError) as bad_body:
        ServiceClient(server.url, VALIDATE_KEY).hook("message_sending", {"content": 5})
    assert bad_body.value.status == 422 and "content" in str(bad_body.value)
    with pytest.raises(ServiceError) as down:
        ServiceClient(f"http://127.0.0.1:{free_port()}", VALIDATE_KEY, timeout=2).validate(LIE)
    assert down.value.status is None and "no answer" in str(down.value)


def test_a_bad_url_is_a_config_error_naming_the_setting() -> None:
    with pytest.raises(ConfigError, match="RECEIPTGATE_URL"):
        ServiceClient("localhost:8000")
