"""Every SPEC §7 event parses from the seeds' JSON shape; bad payloads name the field."""

from __future__ import annotations

from typing import Any

import pytest

from receiptgate._exceptions import InputError
from receiptgate.hooks import EVENTS, HookDispatcher, HookResult, parse_event
from receiptgate.hooks.events import (
    AfterLlmCall,
    BeforeLlmCall,
    BeforeMessageWrite,
    BeforeToolCall,
    LlmOutput,
)

MESSAGES = [
    {"role": "system", "content": "You are ops-bot."},
    {"role": "user", "content": "Is the pipeline up?"},
]

#: One payload per event, in the seeds' camelCase shape (RFC-003 §8, the loop-hooks RFC).
SEED_PAYLOADS: dict[str, dict[str, Any]] = {
    "message_sending": {
        "content": "The pipeline is operational.",
        "to": "user:42",
        "channelId": "telegram",
        "metadata": {"threadId": "t-1"},
    },
    "before_message_write": {
        "message": {"role": "assistant", "content": "The pipeline is operational."},
        "sessionKey": "agent:ops:main",
        "agentId": "ops-bot",
    },
    "llm_output": {"assistantTexts": ["First answer.", "Second answer."], "model": "gpt-4o"},
    "before_tool_call": {
        "toolName": "message",
        "params": {"channel": "twitter", "message": "We now serve 10M users."},
    },
    "before_external_communication": {"channel": "email", "text": "We now serve 10M users."},
    "context_assembled": {
        "systemPrompt": "You are ops-bot.",
        "messages": MESSAGES,
        "sources": [
            {"kind": "system_prompt", "trust": "system", "messageIndex": 0},
            {"kind": "tool_result", "tool": "web_fetch", "trust": "untrusted", "messageIndex": 1},
        ],
        "sessionKey": "agent:ops:main",
        "agentId": "ops-bot",
    },
    "before_llm_call": {
        "messages": MESSAGES,
        "systemPrompt": "You are ops-bot.",
        "model": "gpt-4o",
        "iteration": 0,
        "tools": [{"name": "exec", "description": "run"}, {"name": "message"}],
        "tokenEstimate": 1200,
        "sessionKey": "agent:ops:main",
    },
    "after_llm_call": {
        "messages": MESSAGES,
        "response": {"role": "assistant", "content": [{"type": "text", "text": "Checking."}]},
        "toolCalls": [
            {"id": "c1", "name": "exec", "arguments": {"command": "ls"}},
            {"id": "c2", "name": "message", "arguments": {"channel": "email"}},
        ],
        "iteration": 1,
        "model": "gpt-4o",
        "latencyMs": 812,
        "tokenUsage": {"input": 1200, "output": 40},
    },
    "loop_iteration_start": {
        "iteration": 2,
        "pendingToolResults": 1,
        "messageCount": 7,
        "sessionKey": "agent:ops:main",
    },
    "loop_iteration_end": {
        "iteration": 2,
        "toolCallsMade": 1,
        "newMessagesAdded": 2,
        "willContinue": False,
        "sessionKey": "agent:ops:main",
    },
    "before_response_emit": {
        "content": "Done.",
        "taintedBy": ["web_fetch"],
        "channel": "telegram",
        "sessionKey": "agent:ops:main",
    },
    "agent_end": {"messages": MESSAGES, "success": True, "durationMs": 4200},
}


def test_every_spec_event_has_a_seed_payload() -> None:
    assert set(SEED_PAYLOADS) == set(EVENTS)
    assert len(EVENTS) == 12


@pytest.mark.parametrize("name", sorted(SEED_PAYLOADS))
def test_events_parse_from_the_seed_shape_and_round_trip(name: str) -> None:
    payload = SEED_PAYLOADS[name]
    event = parse_event(name, payload)
    assert event.name == name
    assert event.to_json() == payload  # camelCase in, camelCase out, nothing lost
    # A dispatcher with no handlers passes the event unchanged.
    outcome = HookDispatcher().dispatch(name, payload)
    assert outcome.result == HookResult() and outcome.result.to_json() == {}


def test_fields_read_in_python_names() -> None:
    tool = parse_event("before_tool_call", SEED_PAYLOADS["before_tool_call"])
    assert isinstance(tool, BeforeToolCall) and tool.tool_name == "message"
    llm = parse_event("before_llm_call", SEED_PAYLOADS["before_llm_call"])
    assert isinstance(llm, BeforeLlmCall) and [t.name for t in llm.tools] == ["exec", "message"]
    after = parse_event("after_llm_call", SEED_PAYLOADS["after_llm_call"])
    assert isinstance(after, AfterLlmCall) and after.response is not None
    assert after.response.text == "Checking." and after.token_usage is not None
    out = parse_event("llm_output", {"assistant_texts": ["snake case works"]})
    assert isinstance(out, LlmOutput) and out.assistant_texts == ["snake case works"]


def test_unknown_keys_are_kept_and_bare_tool_names_accepted() -> None:
    event = parse_event("before_llm_call", {"iteration": 0, "tools": ["exec"], "runId": "r1"})
    assert event.to_json() == {"iteration": 0, "tools": [{"name": "exec"}], "runId": "r1"}
    write = parse_event("before_message_write", {"message": {"role": "tool", "toolCallId": "x"}})
    assert isinstance(write, BeforeMessageWrite) and write.message.text is None


@pytest.mark.parametrize(
    ("name", "payload", "field"),
    [
        ("before_tool_call", {"params": {}}, "toolName"),
        ("before_message_write", {"message": "hello"}, "message"),
        ("llm_output", {"assistantTexts": "one string"}, "assistantTexts"),
        ("before_llm_call", {"iteration": -1}, "iteration"),
        ("after_llm_call", {"iteration": 0, "toolCalls": [{"id": "c1"}]}, "toolCalls[0].name"),
        ("message_sending", {"to": "x"}, "content"),
    ],
)
def test_bad_payloads_name_the_event_and_field(
    name: str, payload: dict[str, Any], field: str
) -> None:
    with pytest.raises(InputError) as err:
        HookDispatcher().dispatch(name, payload)
    assert str(err.value).startswith(f"{name}: ")
    assert field in str(err.value)


def test_unknown_event_and_non_object_payload_are_input_errors() -> None:
    with pytest.raises(InputError, match=r"unknown hook event 'message_sent'.*agent_end"):
        HookDispatcher().dispatch("message_sent", {})
    with pytest.raises(InputError, match="unknown hook event"):
        HookDispatcher().register("nope", lambda e: None)
    with pytest.raises(InputError, match=r"agent_end: expected a JSON object, got list"):
        HookDispatcher().dispatch("agent_end", [])  # type: ignore[arg-type]


def test_hook_result_speaks_the_seeds_fields() -> None:
    result = HookResult.model_validate(
        {"block": True, "blockReason": "tainted", "tools": ["read"], "toolCalls": [{"name": "x"}]}
    )
    assert result.block_reason == "tainted" and result.stops
    assert result.to_json() == {
        "block": True,
        "blockReason": "tainted",
        "tools": [{"name": "read"}],
        "toolCalls": [{"name": "x"}],
    }
    with pytest.raises(ValueError):
        HookResult.model_validate({"blok": True})


def test_external_communication_reads_the_text_keys_of_checkers_external() -> None:
    event = parse_event("before_external_communication", {"channel": "email", "body": "Hi."})
    assert event.text() == "Hi."
    assert event.with_text("Bye.").to_json() == {"channel": "email", "body": "Hi.", "text": "Bye."}
