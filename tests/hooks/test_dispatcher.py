"""Composition of several handlers: priorities, block/cancel, tools, tool calls, content, errors."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from receiptgate._exceptions import InputError
from receiptgate.hooks import HandlerAnswer, HookDispatcher, HookEvent, HookResult
from receiptgate.hooks.events import AfterLlmCall, BeforeLlmCall

LLM_CALL: dict[str, Any] = {
    "iteration": 0,
    "tools": [{"name": "exec"}, {"name": "message"}, {"name": "read"}, {"name": "web_fetch"}],
}
AFTER_CALL: dict[str, Any] = {
    "iteration": 1,
    "toolCalls": [
        {"id": "c1", "name": "exec", "arguments": {"command": "ls"}},
        {"id": "c2", "name": "message", "arguments": {}},
        {"id": "c3", "name": "read", "arguments": {"path": "a"}},
    ],
}


def _const(result: HookResult | None) -> Any:
    return lambda event: result


def test_handlers_run_by_priority_then_registration_order() -> None:
    seen: list[str] = []
    d = HookDispatcher()
    for name, prio in (("low", 1), ("high", 100), ("mid-a", 50), ("mid-b", 50)):
        d.register("agent_end", lambda e, n=name: seen.append(n), priority=prio, name=name)
    outcome = d.dispatch("agent_end", {"success": True})
    assert seen == ["high", "mid-a", "mid-b", "low"]
    assert outcome.handlers == seen == d.handlers("agent_end")


def test_a_block_stays_a_block_and_every_handler_still_runs() -> None:
    seen: list[str] = []

    def later(event: HookEvent) -> HookResult:
        seen.append("later")
        return HookResult(block=False)

    d = HookDispatcher()
    d.register("before_tool_call", _const(HookResult(block=True, blockReason="no")), priority=10)
    d.register("before_tool_call", later, priority=1)
    outcome = d.dispatch("before_tool_call", {"toolName": "exec", "params": {"command": "ls"}})
    assert outcome.result.block is True and outcome.result.block_reason == "no"
    assert seen == ["later"]
    assert outcome.result.to_json() == {"block": True, "blockReason": "no"}


def test_cancel_stays_cancel_and_block_means_cancel_on_message_sending() -> None:
    d = HookDispatcher()
    d.register("message_sending", _const(HookResult(cancel=True)), priority=5, name="a")
    d.register("message_sending", _const(HookResult(cancel=False)), priority=1, name="b")
    assert d.dispatch("message_sending", {"content": "hi"}).result.cancel is True
    d2 = HookDispatcher()
    d2.register("message_sending", _const(HookResult(block=True, blockReason="r")))
    result = d2.dispatch("message_sending", {"content": "hi"}).result
    assert result.cancel is True and result.block is None and result.block_reason == "r"


def test_block_reasons_of_several_handlers_are_kept() -> None:
    d = HookDispatcher()
    d.register("before_llm_call", _const(HookResult(block=True, blockReason="taint")), priority=2)
    d.register("before_llm_call", _const(HookResult(block=True, blockReason="loop")), priority=1)
    assert d.dispatch("before_llm_call", LLM_CALL).result.block_reason == "taint; loop"


def test_tools_only_shrink_and_each_handler_sees_the_shrunk_list() -> None:
    seen: list[list[str]] = []

    def drop_exec(event: HookEvent) -> HookResult:
        assert isinstance(event, BeforeLlmCall)
        seen.append([t.name for t in event.tools])
        return HookResult(tools=[t for t in event.tools if t.name != "exec"])

    def allow_list(event: HookEvent) -> HookResult:
        assert isinstance(event, BeforeLlmCall)
        seen.append([t.name for t in event.tools])
        # Tries to add exec back and to add a new tool: only removals count.
        return HookResult(tools=["exec", "read", "web_fetch", "shell"])

    def observer(event: HookEvent) -> None:
        assert isinstance(event, BeforeLlmCall)
        seen.append([t.name for t in event.tools])

    d = HookDispatcher()
    d.register("before_llm_call", allow_list, priority=10)
    d.register("before_llm_call", drop_exec, priority=20)
    d.register("before_llm_call", observer, priority=0)
    outcome = d.dispatch("before_llm_call", LLM_CALL)
    assert seen == [
        ["exec", "message", "read", "web_fetch"],
        ["message", "read", "web_fetch"],
        ["read", "web_fetch"],
    ]
    assert outcome.result.tools is not None
    assert [t.name for t in outcome.result.tools] == ["read", "web_fetch"]
    assert outcome.result.block is None
    assert any("not added" in n and "shell" in n for n in outcome.notes)


def test_tool_calls_only_shrink() -> None:
    def keep(*ids: str) -> Any:
        def handler(event: HookEvent) -> HookResult:
            assert isinstance(event, AfterLlmCall)
            return HookResult(toolCalls=[c for c in event.tool_calls if c.id in ids])

        return handler

    d = HookDispatcher()
    d.register("after_llm_call", keep("c1", "c3"), priority=2)
    d.register("after_llm_call", keep("c2", "c3"), priority=1)  # c2 already gone
    outcome = d.dispatch("after_llm_call", AFTER_CALL)
    assert outcome.result.tool_calls is not None
    assert [c.id for c in outcome.result.tool_calls] == ["c3"]
    assert outcome.result.to_json()["toolCalls"] == [
        {"id": "c3", "name": "read", "arguments": {"path": "a"}}
    ]


def test_content_modifications_apply_in_priority_order() -> None:
    def append(suffix: str) -> Any:
        def handler(event: HookEvent) -> HookResult:
            text = event.text()
            assert text is not None
            return HookResult(content=text + suffix)

        return handler

    for event, payload in (
        ("message_sending", {"content": "Hello"}),
        ("before_response_emit", {"content": "Hello"}),
        ("before_message_write", {"message": {"role": "assistant", "content": "Hello"}}),
        ("before_external_communication", {"text": "Hello", "channel": "email"}),
    ):
        d = HookDispatcher()
        d.register(event, append(" [low]"), priority=1)
        d.register(event, append(" [high]"), priority=9)
        d.register(event, _const(None), priority=5)
        assert d.dispatch(event, payload).result.content == "Hello [high] [low]", event


def test_no_change_leaves_the_result_empty() -> None:
    d = HookDispatcher()
    d.register("message_sending", lambda e: HookResult(content=e.text()))
    assert d.dispatch("message_sending", {"content": "same"}).result.to_json() == {}


def test_void_events_ignore_block_and_say_so() -> None:
    d = HookDispatcher()
    d.register("llm_output", _const(HookResult(block=True, content="x")), name="greedy")
    d.register("agent_end", _const(HookResult(cancel=True)), name="greedy")
    d.register("before_tool_call", _const(HookResult(tools=["read"])), name="greedy")
    out = d.dispatch("llm_output", {"assistantTexts": ["hi"]})
    assert out.result.to_json() == {}
    assert out.notes == [
        "greedy: block ignored (llm_output cannot change it)",
        "greedy: content ignored (llm_output cannot change it)",
    ]
    assert d.dispatch("agent_end", {}).result.to_json() == {}
    tool = d.dispatch("before_tool_call", {"toolName": "read"})
    assert tool.result.to_json() == {} and "tools ignored" in tool.notes[0]


def boom(event: HookEvent) -> HookResult:
    raise RuntimeError("handler exploded")


def test_handler_errors_fail_open_pass_but_are_recorded_and_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    d = HookDispatcher()
    d.register("before_tool_call", boom, priority=5)
    d.register("before_tool_call", _const(HookResult(block=False)), priority=1, name="ok")
    with caplog.at_level(logging.ERROR, logger="receiptgate.hooks"):
        outcome = d.dispatch("before_tool_call", {"toolName": "exec"})
    assert outcome.result.block is None
    assert outcome.handlers == ["boom", "ok"]  # the others still ran
    [error] = outcome.errors
    assert error.handler == "boom" and error.error == "RuntimeError: handler exploded"
    assert error.fail_mode == "fail_open" and error.blocked is False
    assert "handler exploded" in caplog.text
    assert outcome.to_dict()["errors"] == [
        {
            "handler": "boom",
            "error": "RuntimeError: handler exploded",
            "fail_mode": "fail_open",
            "blocked": False,
        }
    ]


def test_handler_errors_fail_closed_block_gate_events_only() -> None:
    d = HookDispatcher(fail_mode="fail_closed")
    for event in ("before_message_write", "message_sending", "llm_output", "agent_end"):
        d.register(event, boom)
    write = d.dispatch("before_message_write", {"message": {"role": "assistant", "content": "x"}})
    assert write.result.block is True and "boom failed; fail_closed" in (
        write.result.block_reason or ""
    )
    assert d.dispatch("message_sending", {"content": "x"}).result.cancel is True
    for void in ("llm_output", "agent_end"):
        payload = {"assistantTexts": ["x"]} if void == "llm_output" else {}
        out = d.dispatch(void, payload)
        assert out.result.to_json() == {}
        assert out.errors[0].blocked is False and out.errors[0].fail_mode == "fail_closed"


def test_per_handler_fail_mode_and_wrong_return_type() -> None:
    d = HookDispatcher(fail_mode="fail_open")
    d.register("before_tool_call", boom, fail_mode="fail_closed")
    assert d.dispatch("before_tool_call", {"toolName": "exec"}).result.block is True
    d2 = HookDispatcher()
    d2.register("before_tool_call", lambda e: {"block": True}, name="dict-returner")  # type: ignore[arg-type,return-value]
    out = d2.dispatch("before_tool_call", {"toolName": "exec"})
    assert out.result.block is None
    assert "expected HookResult" in out.errors[0].error


def test_handler_answers_carry_validations_and_unregister_works() -> None:
    d = HookDispatcher()
    d.register("agent_end", lambda e: HandlerAnswer(None, []), name="audit")
    assert d.dispatch("agent_end", {}).handlers == ["audit"]
    assert d.unregister("agent_end", "audit") == 1
    assert d.handlers("agent_end") == []
    with pytest.raises(InputError, match="fail_mode"):
        HookDispatcher(fail_mode="sometimes")  # type: ignore[arg-type]
    with pytest.raises(InputError, match="callable"):
        d.register("agent_end", "not a function")  # type: ignore[arg-type]
