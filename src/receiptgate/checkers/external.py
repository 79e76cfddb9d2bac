"""External communications (RFC-006 §4.2.1, §4.2.3): what invokes the LLM judge by default.

A text is external when

* it goes to a channel listed in ``llmValidator.externalChannels`` (``twitter``,
  ``linkedin``, ``email``), or
* the hook is ``before_external_communication``, or
* a ``before_tool_call`` event calls the ``message`` tool with such a channel,
  or the ``exec`` tool with a command containing one of
  ``llmValidator.externalCommands`` (``bird tweet``, ``bird reply``).

Events are JSON-shaped (SPEC §7); both OpenClaw's camelCase and snake_case keys
are read::

    {"hook": "before_tool_call", "toolName": "message",
     "params": {"channel": "twitter", "message": "We now serve 10M users."}}
    {"hook": "before_tool_call", "toolName": "exec",
     "params": {"command": "bird tweet 'We now serve 10M users.'"}}
    {"hook": "before_external_communication", "channel": "email", "text": "..."}
"""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from receiptgate._exceptions import InputError
from receiptgate.config import LlmValidator

if TYPE_CHECKING:
    from receiptgate.engine import Gate
    from receiptgate.results import ValidationResult

EXTERNAL_HOOK = "before_external_communication"
TOOL_CALL_HOOK = "before_tool_call"
MESSAGE_TOOL = "message"
EXEC_TOOL = "exec"

_HOOK_KEYS = ("hook", "event", "type", "name")
_TOOL_KEYS = ("toolName", "tool_name", "tool")
_PARAM_KEYS = ("params", "parameters", "args", "arguments", "input")
_TEXT_KEYS = ("text", "message", "content", "body", "caption", "status")


@dataclass(frozen=True, slots=True)
class Outgoing:
    """What an event sends, and whether it leaves the organisation.

    Attributes:
        text: the text to validate (``None`` when the event carries none).
        channel: the channel, when the event names one.
        hook: the event's hook.
        tool: the tool called (``before_tool_call``).
        external: whether the LLM judge applies by default.
        why: what made it external ("channel twitter", "command 'bird tweet'").
    """

    text: str | None
    channel: str | None
    hook: str | None
    tool: str | None
    external: bool
    why: str | None = None


def is_external_channel(channel: str | None, config: LlmValidator) -> bool:
    """Whether ``channel`` is one of ``externalChannels`` (case-insensitive)."""
    if not channel:
        return False
    wanted = channel.strip().lower()
    return any(wanted == c.strip().lower() for c in config.external_channels)


def _command_pattern(command: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in command.split()]
    return re.compile(r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])", re.IGNORECASE)


def external_command(command: str | None, config: LlmValidator) -> str | None:
    """The entry of ``externalCommands`` that ``command`` runs, if any.

    Matched as whole words anywhere in the command line (``cd x && bird tweet
    "hi"``, ``sh -c 'bird reply 1 ok'``): a false alarm costs one judge call, a
    miss lets an external message out unchecked.
    """
    if not command:
        return None
    for entry in config.external_commands:
        if entry.strip() and _command_pattern(entry).search(command):
            return entry
    return None


def is_external(
    event: Mapping[str, Any] | None = None,
    *,
    channel: str | None = None,
    hook: str | None = None,
    command: str | None = None,
    config: LlmValidator,
) -> bool:
    """Whether an event, a channel, a hook or an ``exec`` command is an external communication."""
    if event is not None and read_event(event, config).external:
        return True
    return (
        hook == EXTERNAL_HOOK
        or is_external_channel(channel, config)
        or external_command(command, config) is not None
    )


def _first(data: Mapping[str, Any], keys: tuple[str, ...]) -> Any:
    for key in keys:
        if key in data and data[key] is not None:
            return data[key]
    return None


def _params(event: Mapping[str, Any]) -> Mapping[str, Any]:
    raw = _first(event, _PARAM_KEYS)
    if isinstance(raw, str):  # OpenAI tool_calls carry arguments as a JSON string
        try:
            raw = json.loads(raw)
        except json.JSONDecodeError:
            return {}
    return raw if isinstance(raw, Mapping) else {}


def _text_of(data: Mapping[str, Any]) -> str | None:
    value = _first(data, _TEXT_KEYS)
    return value if isinstance(value, str) else None


def _command_text(command: str, entry: str) -> str | None:
    """The words after the external command: the message ``bird tweet 'hi'`` sends."""
    match = _command_pattern(entry).search(command)
    if match is None:
        return None
    rest = command[match.end() :]
    for sep in ("&&", "||", ";", "|"):
        rest = rest.split(sep, 1)[0]
    try:
        words = shlex.split(rest)
    except ValueError:
        words = rest.split()
    words = [w for w in words if not w.startswith("-")]
    text = " ".join(words).strip().strip("'\"")
    return text or None


def read_event(event: Mapping[str, Any], config: LlmValidator) -> Outgoing:
    """Reads a ``before_tool_call`` or ``before_external_communication`` event.

    Raises:
        InputError: when ``event`` is not a JSON object.
    """
    if not isinstance(event, Mapping):
        raise InputError(f"event: expected a JSON object, got {type(event).__name__}")
    hook_value = _first(event, _HOOK_KEYS)
    hook = hook_value if isinstance(hook_value, str) else None
    tool_value = _first(event, _TOOL_KEYS)
    tool = tool_value if isinstance(tool_value, str) else None
    params = _params(event)
    if hook is None and tool is not None:
        hook = TOOL_CALL_HOOK
    channel_value = _first(params, ("channel", "to_channel", "platform")) or event.get("channel")
    channel = channel_value if isinstance(channel_value, str) else None
    text = _text_of(params) or _text_of(event)
    if hook == EXTERNAL_HOOK:
        return Outgoing(text, channel, hook, tool, True, f"hook {EXTERNAL_HOOK}")
    if tool == EXEC_TOOL:
        command = params.get("command") or params.get("cmd")
        if isinstance(command, list):
            command = shlex.join(str(c) for c in command)
        if isinstance(command, str):
            entry = external_command(command, config)
            if entry is not None:
                sent = text or _command_text(command, entry)
                return Outgoing(sent, channel, hook, tool, True, f"command {entry!r}")
        return Outgoing(text, channel, hook, tool, False)
    if is_external_channel(channel, config) and (tool in (None, MESSAGE_TOOL)):
        return Outgoing(text, channel, hook, tool, True, f"channel {channel}")
    return Outgoing(text, channel, hook, tool, False)


def validate_event(gate: Gate, event: Mapping[str, Any], **kwargs: Any) -> ValidationResult | None:
    """Validates the text an event sends; ``None`` when it sends no text.

    External events run the LLM judge (when ``llmValidator`` is enabled); other
    messages get the deterministic gate only. ``kwargs`` go to ``gate.validate``
    (``agent_id``, ``trust``, ``receipts``, ``now``, ...).
    """
    out = read_event(event, gate.config.llm_validator)
    if out.text is None:
        return None
    kwargs.setdefault("channel", out.channel)
    kwargs.setdefault("hook", out.hook)
    kwargs.setdefault("external", out.external)
    return gate.validate(out.text, **kwargs)
