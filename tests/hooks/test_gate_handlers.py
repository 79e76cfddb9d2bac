"""The built-in gate handlers end to end: a real Gate with the quickstart facts."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import pytest

from receiptgate.api import load_registry_file
from receiptgate.checkers.base import CheckOutcome, CheckRequest
from receiptgate.config import GateConfig
from receiptgate.engine import Gate
from receiptgate.hooks import GateHooks, HookDispatcher, HookEvent, gate_dispatcher
from receiptgate.rewrite import BLOCK_NOTICE

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"
#: After the pipeline-status fact expired (30 days from 2026-03-06).
LATER = datetime(2026, 5, 1, tzinfo=UTC)
CONTRADICTED = "Node.js is not installed on the build host."
#: One contradicted sentence (blocked) and one unverified one (labelled).
MIXED = "Node.js is not installed on the build host. The pipeline is down."
CLEAN = "Thanks, I will look into it tomorrow morning."
ALL = [
    "message_sending",
    "before_message_write",
    "llm_output",
    "before_tool_call",
    "before_external_communication",
]


class RecordingChecker:
    """A slower-stage checker (stands in for the LLM judge) that records its requests."""

    id = "recorder"
    fail_mode: Literal["fail_open", "fail_closed"] = "fail_open"

    def __init__(self, scope: Literal["external", "all"] = "all") -> None:
        self.scope = scope
        self.requests: list[CheckRequest] = []

    def check(self, request: CheckRequest) -> CheckOutcome:
        self.requests.append(request)
        return CheckOutcome()


def _gate(checker: RecordingChecker | None = None, **config: Any) -> Gate:
    return Gate(
        GateConfig.model_validate(config),
        registries=[load_registry_file(FACTS)],
        checkers=[checker] if checker else [],
    )


def _later(event: HookEvent) -> dict[str, Any]:
    return {"now": LATER}


@pytest.fixture(scope="module")
def dispatcher() -> HookDispatcher:
    return gate_dispatcher(_gate(), events=ALL, context=_later)


def _write(role: str, content: Any) -> dict[str, Any]:
    return {"message": {"role": role, "content": content}, "agentId": "ops-bot"}


# -- before_message_write ------------------------------------------------------------


def test_contradicted_assistant_message_is_blocked_on_write(dispatcher: HookDispatcher) -> None:
    outcome = dispatcher.dispatch("before_message_write", _write("assistant", CONTRADICTED))
    assert outcome.result.block is True
    assert "node-installed" in (outcome.result.block_reason or "")
    [validation] = outcome.validations
    assert validation.verdict == "block" and validation.hook == "before_message_write"
    assert validation.agent_id == "ops-bot"
    assert outcome.handlers == ["receiptgate.before_message_write"]


def test_write_reads_text_parts_and_passes_clean_text(dispatcher: HookDispatcher) -> None:
    parts = [{"type": "text", "text": CONTRADICTED}, {"type": "image", "url": "x"}]
    assert dispatcher.dispatch("before_message_write", _write("assistant", parts)).result.block
    clean = dispatcher.dispatch("before_message_write", _write("assistant", CLEAN))
    assert clean.result.to_json() == {} and clean.validations[0].verdict == "pass"


@pytest.mark.parametrize("role", ["user", "tool", "system"])
def test_write_checks_assistant_messages_only(dispatcher: HookDispatcher, role: str) -> None:
    outcome = dispatcher.dispatch("before_message_write", _write(role, CONTRADICTED))
    assert outcome.result.to_json() == {} and outcome.validations == []


def test_write_runs_deterministic_checks_only() -> None:
    checker = RecordingChecker(scope="all")
    gate = _gate(checker)
    d = gate_dispatcher(gate, events=ALL, context=_later)
    d.dispatch("before_message_write", _write("assistant", MIXED))
    assert checker.requests == []  # no judge inside the synchronous hook
    assert gate.checkers == [checker]  # the gate itself is untouched
    d.dispatch("message_sending", {"content": MIXED})
    assert len(checker.requests) == 1  # the other hooks do run the slower stage


# -- llm_output ----------------------------------------------------------------------


def test_llm_output_never_blocks_but_reports(dispatcher: HookDispatcher) -> None:
    outcome = dispatcher.dispatch("llm_output", {"assistantTexts": [CONTRADICTED, CLEAN, ""]})
    assert outcome.result.to_json() == {}
    assert [v.verdict for v in outcome.validations] == ["block", "pass"]
    assert all(v.hook == "llm_output" for v in outcome.validations)


# -- message_sending -----------------------------------------------------------------


def test_message_sending_cancels_a_fully_blocked_message(dispatcher: HookDispatcher) -> None:
    outcome = dispatcher.dispatch(
        "message_sending", {"content": CONTRADICTED, "channelId": "telegram"}
    )
    assert outcome.result.cancel is True and outcome.result.block is None
    assert outcome.result.content == BLOCK_NOTICE == outcome.validations[0].delivered_text
    assert outcome.validations[0].channel == "telegram"


def test_message_sending_rewrites_to_the_delivered_text(dispatcher: HookDispatcher) -> None:
    outcome = dispatcher.dispatch("message_sending", {"content": MIXED})
    [validation] = outcome.validations
    assert validation.delivered_text == "The pipeline is down. (unverified)"
    assert outcome.result.to_json() == {"content": validation.delivered_text}


def test_message_sending_leaves_a_clean_message_alone(dispatcher: HookDispatcher) -> None:
    outcome = dispatcher.dispatch("message_sending", {"content": CLEAN})
    assert outcome.result.to_json() == {} and outcome.validations[0].verdict == "pass"


def test_message_sending_cancels_when_rewrite_mode_none() -> None:
    from receiptgate.policy.policy_file import DEFAULT_POLICY

    policy = DEFAULT_POLICY.model_copy(
        update={"rewrite": DEFAULT_POLICY.rewrite.model_copy(update={"mode": "none"})}
    )
    gate = Gate(GateConfig(), registries=[load_registry_file(FACTS)], policy=policy)
    outcome = gate_dispatcher(gate).dispatch("message_sending", {"content": CONTRADICTED})
    assert outcome.result.cancel is True and outcome.result.content is None


# -- before_tool_call / before_external_communication --------------------------------


def test_tool_call_message_to_external_channel_is_recognised() -> None:
    checker = RecordingChecker(scope="external")
    d = gate_dispatcher(_gate(checker), context=_later)
    outcome = d.dispatch(
        "before_tool_call",
        {"toolName": "message", "params": {"channel": "twitter", "message": CLEAN}},
    )
    [validation] = outcome.validations
    assert validation.hook == "before_tool_call" and validation.channel == "twitter"
    [request] = checker.requests  # external: the judge's scope, the whole text
    assert request.external is True and request.channel == "twitter"
    assert outcome.result.to_json() == {}


def test_tool_call_on_internal_channel_is_not_external() -> None:
    checker = RecordingChecker(scope="external")
    d = gate_dispatcher(_gate(checker), context=_later)
    outcome = d.dispatch(
        "before_tool_call",
        {"toolName": "message", "params": {"channel": "slack", "message": CLEAN}},
    )
    assert len(outcome.validations) == 1 and checker.requests == []


def test_contradicted_tweet_is_blocked(dispatcher: HookDispatcher) -> None:
    outcome = dispatcher.dispatch(
        "before_tool_call",
        {"toolName": "exec", "params": {"command": f"bird tweet '{CONTRADICTED}'"}},
    )
    assert outcome.result.block is True
    assert outcome.validations[0].verdict == "block"


def test_tool_calls_without_text_are_not_validated(dispatcher: HookDispatcher) -> None:
    outcome = dispatcher.dispatch("before_tool_call", {"toolName": "read", "params": {"path": "x"}})
    assert outcome.validations == [] and outcome.result.to_json() == {}


def test_external_communication_is_always_external() -> None:
    checker = RecordingChecker(scope="external")
    d = gate_dispatcher(_gate(checker), context=_later)
    clean = d.dispatch("before_external_communication", {"channel": "press", "text": CLEAN})
    assert clean.result.to_json() == {}
    assert checker.requests[0].external is True
    assert checker.requests[0].hook == "before_external_communication"
    blocked = d.dispatch("before_external_communication", {"channel": "press", "text": MIXED})
    assert blocked.result.block is True


# -- wiring and errors ---------------------------------------------------------------


def test_config_hooks_decide_the_default_events() -> None:
    d = gate_dispatcher(_gate())
    assert d.handlers("llm_output") == []  # hooks.llmOutput is off by default
    assert d.handlers("message_sending") == ["receiptgate.message_sending"]
    gate = _gate(hooks={"messageSending": False, "llmOutput": True})
    assert GateHooks(gate).enabled_events() == [
        "before_message_write",
        "llm_output",
        "before_tool_call",
        "before_external_communication",
    ]
    with pytest.raises(Exception, match="no built-in gate handler for 'agent_end'"):
        GateHooks(gate).install(HookDispatcher(), events=["agent_end"])


def test_gate_handlers_compose_with_other_handlers(dispatcher: HookDispatcher) -> None:
    d = gate_dispatcher(_gate(), events=ALL, context=_later)
    seen: list[str | None] = []
    d.register("message_sending", lambda e: seen.append(e.text()), priority=1, name="after")
    d.dispatch("message_sending", {"content": MIXED})
    assert seen == ["The pipeline is down. (unverified)"]  # sees the gate's rewrite


def _broken(event: HookEvent) -> dict[str, Any]:
    raise RuntimeError("receipt store unavailable")


def test_handler_exceptions_are_visible_and_follow_the_fail_mode() -> None:
    open_ = gate_dispatcher(_gate(), events=ALL, context=_broken)
    outcome = open_.dispatch("before_message_write", _write("assistant", CONTRADICTED))
    assert outcome.result.block is None
    [error] = outcome.errors
    assert error.handler == "receiptgate.before_message_write"
    assert "receipt store unavailable" in error.error and error.fail_mode == "fail_open"

    closed = gate_dispatcher(_gate(failMode="fail_closed"), events=ALL, context=_broken)
    write = closed.dispatch("before_message_write", _write("assistant", CLEAN))
    assert write.result.block is True and write.errors[0].blocked
    sending = closed.dispatch("message_sending", {"content": CLEAN})
    assert sending.result.cancel is True
    audit = closed.dispatch("llm_output", {"assistantTexts": [CLEAN]})
    assert audit.result.to_json() == {} and audit.errors[0].blocked is False


def test_outcome_serialises_for_the_audit(dispatcher: HookDispatcher) -> None:
    data = dispatcher.dispatch("before_message_write", _write("assistant", CONTRADICTED)).to_dict()
    assert data["event"] == "before_message_write"
    assert data["result"]["block"] is True and "blockReason" in data["result"]
    assert data["validations"][0]["verdict"] == "block"
    assert data["errors"] == [] and data["handlers"] == ["receiptgate.before_message_write"]
