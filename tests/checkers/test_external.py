"""External communications (RFC-006 §4.2.1, §4.2.3): what invokes the judge by default."""

from __future__ import annotations

from typing import Any

import pytest
from scripted_llm import GateFactory, ScriptedLLM, ok

from receiptgate._exceptions import InputError
from receiptgate.checkers.external import (
    external_command,
    is_external,
    read_event,
    validate_event,
)
from receiptgate.config import LlmValidator

DEFAULTS = LlmValidator()
TEXT = "Our API never goes down."


def _tool(tool: str, **params: Any) -> dict[str, Any]:
    return {"hook": "before_tool_call", "toolName": tool, "params": params}


@pytest.mark.parametrize(
    ("event", "external", "text"),
    [
        pytest.param(_tool("message", channel="twitter", message=TEXT), True, TEXT, id="tweet"),
        pytest.param(_tool("message", channel="LinkedIn", text=TEXT), True, TEXT, id="case"),
        pytest.param(_tool("message", channel="email", body=TEXT), True, TEXT, id="email-body"),
        pytest.param(_tool("message", channel="slack", message=TEXT), False, TEXT, id="slack"),
        pytest.param(_tool("message", message=TEXT), False, TEXT, id="no-channel"),
        pytest.param(_tool("exec", command=f"bird tweet '{TEXT}'"), True, TEXT, id="bird-tweet"),
        pytest.param(
            _tool("exec", command=f'cd /srv && bird reply --to 42 "{TEXT}"'),
            True,
            f"42 {TEXT}",
            id="bird-reply-after-cd",
        ),
        pytest.param(
            _tool("exec", command=["bird", "tweet", TEXT]), True, TEXT, id="argv-list-command"
        ),
        pytest.param(_tool("exec", command="ls -la /tmp"), False, None, id="other-command"),
        pytest.param(_tool("exec", command="echo lovebird tweeted"), False, None, id="not-words"),
        pytest.param(_tool("read", channel="twitter", path="/x"), False, None, id="other-tool"),
        pytest.param(
            {"hook": "before_external_communication", "channel": "press", "text": TEXT},
            True,
            TEXT,
            id="external-hook",
        ),
        pytest.param(
            {
                "event": "before_tool_call",
                "tool_name": "exec",
                "arguments": '{"command": "bird tweet hello world"}',
            },
            True,
            "hello world",
            id="snake-case-json-arguments",
        ),
    ],
)
def test_events_are_recognised(event: dict[str, Any], external: bool, text: str | None) -> None:
    out = read_event(event, DEFAULTS)
    assert out.external is external
    assert out.text == text
    assert is_external(event, config=DEFAULTS) is external
    if external:
        assert out.why


@pytest.mark.parametrize(
    ("command", "entry"),
    [
        pytest.param('b"ir"d tweet "We serve 10M users."', "bird tweet", id="quotes-inside-word"),
        pytest.param('sh -c "bird tw"eet hi', "bird tweet", id="sh-c-joined-quotes"),
        pytest.param("bash -lc 'cd /srv && bird reply 42 ok'", "bird reply", id="bash-lc"),
        pytest.param("/usr/local/bin/bird tweet hi", "bird tweet", id="path"),
        pytest.param("echo hi | sudo -u me bird tweet", "bird tweet", id="pipeline-sudo"),
        pytest.param("FOO=1 env BAR=2 bird --account acme tweet x", "bird tweet", id="env-opts"),
        pytest.param("echo $(bird tweet hi)", "bird tweet", id="substitution"),
        pytest.param("echo `bird tweet hi`", "bird tweet", id="backticks"),
        pytest.param('eval "bird tweet hi"', "bird tweet", id="eval"),
        pytest.param("timeout 5 nohup bird tweet hi &", "bird tweet", id="wrappers"),
        pytest.param("ls; bird  tweet  x", "bird tweet", id="semicolon"),
        pytest.param("sh -c \"bash -c 'bird tweet hi'\"", "bird tweet", id="nested-shells"),
        pytest.param('bird tweet "unclosed', "bird tweet", id="unparseable-still-caught"),
        pytest.param("echo lovebird tweeted", None, id="other-program"),
        pytest.param("echo 'bird tweet'", None, id="quoted-argument-of-echo"),
        pytest.param("grep bird tweets.txt", None, id="words-as-arguments"),
        pytest.param("bird timeline", None, id="other-subcommand"),
    ],
)
def test_exec_commands_are_parsed_as_a_shell_would(command: str, entry: str | None) -> None:
    assert external_command(command, DEFAULTS) == entry
    assert read_event(_tool("exec", command=command), DEFAULTS).external is (entry is not None)


@pytest.mark.parametrize(
    ("channel", "external"),
    [
        ("x", True), ("X.com", True), ("tweet", True), ("mail", True), ("E-Mail", True),
        ("sms", True), ("email:board@example.com", True), ("twitter/@acme", True),
        ("slack", False), ("", False), ("internal-x", False),
    ],
)  # fmt: skip
def test_channel_aliases_count_as_the_channel(channel: str, external: bool) -> None:
    assert is_external(channel=channel, config=DEFAULTS) is external


def test_channels_and_commands_are_configurable() -> None:
    cfg = LlmValidator(externalChannels=["discord-public"], externalCommands=["mail -s"])
    assert is_external(channel="discord-public", config=cfg)
    assert not is_external(channel="twitter", config=cfg)
    assert external_command("mail -s 'Q3 numbers' board@example.com", cfg) == "mail -s"
    assert external_command("bird tweet hi", cfg) is None
    assert read_event(_tool("exec", command="mail -s hi bob"), cfg).external


def test_hook_and_channel_arguments() -> None:
    assert is_external(hook="before_external_communication", config=DEFAULTS)
    assert is_external(channel="Twitter", config=DEFAULTS)
    assert is_external(command="bird reply 1 ok", config=DEFAULTS)
    assert not is_external(hook="message_sending", channel="slack", config=DEFAULTS)
    assert not is_external(config=DEFAULTS)


def test_an_event_must_be_an_object() -> None:
    with pytest.raises(InputError, match="event"):
        read_event(["not", "an", "object"], DEFAULTS)  # type: ignore[arg-type]


# ------------------------------------------------------- only external texts reach the judge


@pytest.mark.parametrize(
    ("kwargs", "called"),
    [
        pytest.param({"channel": "twitter"}, True, id="external-channel"),
        pytest.param({"hook": "before_external_communication"}, True, id="external-hook"),
        pytest.param({"channel": "slack"}, False, id="internal-channel"),
        pytest.param({"hook": "message_sending"}, False, id="internal-hook"),
        pytest.param({}, False, id="nothing"),
        pytest.param({"channel": "slack", "external": True}, True, id="forced-external"),
        pytest.param({"channel": "twitter", "external": False}, False, id="forced-internal"),
    ],
)
def test_only_external_communications_invoke_the_judge(
    llm: ScriptedLLM, make_gate: GateFactory, kwargs: dict[str, Any], called: bool
) -> None:
    gate = make_gate()
    llm.push(ok((0, "contradicted", "contradiction")))
    result = gate.validate(TEXT, **kwargs)
    assert bool(llm.requests) is called
    assert bool(result.checks) is called


@pytest.mark.parametrize(
    ("event", "called"),
    [
        pytest.param(_tool("message", channel="twitter", message=TEXT), True, id="tweet"),
        pytest.param(_tool("exec", command=f"bird tweet '{TEXT}'"), True, id="bird-tweet"),
        pytest.param(_tool("message", channel="slack", message=TEXT), False, id="slack"),
    ],
)
def test_validate_event_runs_the_judge_for_external_tool_calls(
    llm: ScriptedLLM, make_gate: GateFactory, event: dict[str, Any], called: bool
) -> None:
    gate = make_gate()
    llm.push(ok((0, "contradicted", "contradiction")))
    result = validate_event(gate, event, agent_id="comms-bot")
    assert result is not None
    assert result.hook == "before_tool_call"
    assert result.agent_id == "comms-bot"
    assert bool(llm.requests) is called
    assert (result.verdict == "block") is called


def test_validate_event_without_text_is_none(make_gate: GateFactory) -> None:
    gate = make_gate()
    assert validate_event(gate, _tool("exec", command="ls")) is None
