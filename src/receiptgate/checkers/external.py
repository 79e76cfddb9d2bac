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


#: Channel names that mean the same place (``x`` is Twitter). A channel in
#: ``externalChannels`` also covers its aliases; add a name there to cover more.
CHANNEL_ALIASES: dict[str, frozenset[str]] = {
    "twitter": frozenset({"twitter", "x", "x.com", "tweet", "tweets", "bird"}),
    "email": frozenset({"email", "e-mail", "mail", "smtp", "gmail", "outlook", "newsletter"}),
    "linkedin": frozenset({"linkedin", "linked-in"}),
    "sms": frozenset({"sms", "mms", "text-message", "imessage", "rcs"}),
    "press": frozenset({"press", "press-release", "pr"}),
    "blog": frozenset({"blog", "blog-post"}),
}
_ALIAS_OF = {alias: name for name, aliases in CHANNEL_ALIASES.items() for alias in aliases}


def _channel_key(channel: str) -> str:
    key = channel.strip().lower().replace("_", "-").replace(" ", "-")
    return _ALIAS_OF.get(key, key)


def is_external_channel(channel: str | None, config: LlmValidator) -> bool:
    """Whether ``channel`` is one of ``externalChannels``, by name or alias.

    Case, spaces and underscores do not matter; ``x`` and ``tweet`` are Twitter,
    ``mail`` is email (:data:`CHANNEL_ALIASES`). A qualified channel such as
    ``email:board@example.com`` or ``twitter/@acme`` counts by its first part.
    """
    if not channel or not channel.strip():
        return False
    wanted = {_channel_key(c) for c in config.external_channels}
    key = _channel_key(channel)
    if key in wanted:
        return True
    head = re.split(r"[:/]", key, maxsplit=1)[0]
    return bool(head) and _ALIAS_OF.get(head, head) in wanted


# -- shell commands ------------------------------------------------------------------

#: Programs that run their arguments as another command (``sudo bird tweet``).
_WRAPPERS = frozenset(
    {
        "sudo", "doas", "env", "nohup", "time", "exec", "command", "builtin", "nice",
        "ionice", "stdbuf", "setsid", "unbuffer", "xargs", "timeout", "chronic", "watch",
        "then", "do", "else", "!", "{", "if", "while", "until",
    }
)  # fmt: skip
#: Shells whose ``-c`` argument is a script to parse in turn.
_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "fish", "ash", "busybox"})
_OPERATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", ";;", "|&", "\n"})
_ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=")
_MAX_DEPTH = 4  # sh -c "bash -c '…'" nests; deeper is refused as a parse


def _words(command: str) -> list[str] | None:
    """Shell words of ``command`` with operators as words of their own; ``None``
    when it does not parse (an unclosed quote)."""
    # Backticks and $( ) start a command of their own.
    text = command.replace("`", " ( ").replace("$(", " ( ").replace("\n", "\n ;\n")
    lexer = shlex.shlex(text, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        return list(lexer)
    except ValueError:
        return None


def _simple_commands(words: list[str]) -> list[list[str]]:
    out: list[list[str]] = [[]]
    for w in words:
        if w in _OPERATORS or set(w) <= set(";&|()"):
            if out[-1]:
                out.append([])
        else:
            out[-1].append(w)
    return [c for c in out if c]


def _program_and_args(words: list[str]) -> tuple[str, list[str]] | None:
    """The program a simple command runs (wrappers and ``VAR=x`` skipped) and its
    arguments; the program is the base name of a path (``/usr/bin/bird``)."""
    i = 0
    while i < len(words):
        w = words[i]
        base = w.rsplit("/", 1)[-1].lower()
        if _ASSIGNMENT.match(w):
            i += 1
        elif base in _WRAPPERS:
            i += 1
            # A wrapper's own options and values (timeout 5, nice -n 10, sudo -u x).
            while i < len(words) and (
                words[i].startswith("-") or _ASSIGNMENT.match(words[i]) or words[i].isdigit()
            ):
                i += 1
                if i < len(words) and words[i - 1] in ("-u", "-g", "-n", "-s", "-k"):
                    i += 1
        else:
            return base, words[i + 1 :]
    return None


def _scripts(program: str, args: list[str]) -> list[str]:
    """Scripts a shell or ``eval`` runs: ``sh -c 'x'``, ``bash -lc 'x'``, ``eval x``."""
    if program == "eval":
        return [" ".join(args)]
    if program not in _SHELLS:
        return []
    if program == "busybox" and args and args[0] in _SHELLS:
        args = args[1:]
    for i, a in enumerate(args):
        if a.startswith("-") and not a.startswith("--") and "c" in a[1:] and i + 1 < len(args):
            return [args[i + 1]]
    return []


def _runs(words: list[str], entry: list[str]) -> list[str] | None:
    """The words after ``entry`` when the simple command runs it, else ``None``.

    ``entry`` is a program and the subcommand words that must follow it in order
    (options and their values may sit between: ``bird --account acme tweet``).
    """
    found = _program_and_args(words)
    if found is None or found[0] != entry[0].rsplit("/", 1)[-1].lower():
        return None
    args = found[1]
    pos = 0
    for want in entry[1:]:
        while pos < len(args) and args[pos].lower() != want.lower():
            pos += 1
        if pos == len(args):
            return None
        pos += 1
    return args[pos:]


def _find_command(
    command: str, entries: list[list[str]], depth: int = 0
) -> tuple[str, list[str]] | None:
    words = _words(command)
    if words is None or depth > _MAX_DEPTH:
        # A command the parser refuses (an unclosed quote) is matched on its words
        # with quotes and escapes removed: a false alarm costs one judge call, a
        # miss lets an external message out unchecked.
        plain = re.sub(r"[\"'`\\]", "", command)
        for entry in entries:
            if _command_pattern(" ".join(entry)).search(plain):
                return " ".join(entry), []
        return None
    for simple in _simple_commands(words):
        for entry in entries:
            rest = _runs(simple, entry)
            if rest is not None:
                return " ".join(entry), rest
        found = _program_and_args(simple)
        if found is not None:
            for script in _scripts(*found):
                inner = _find_command(script, entries, depth + 1)
                if inner is not None:
                    return inner
    return None


def _command_pattern(command: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in command.split()]
    return re.compile(r"(?<![\w-])" + r"\s+".join(words) + r"(?![\w-])", re.IGNORECASE)


def _match(command: str, config: LlmValidator) -> tuple[str, list[str]] | None:
    entries = [e.split() for e in config.external_commands if e.strip()]
    return _find_command(command, entries) if entries else None


def external_command(command: str | None, config: LlmValidator) -> str | None:
    """The entry of ``externalCommands`` that ``command`` runs, if any.

    The command line is parsed as a shell would (quotes joined, ``&&``, ``;`` and
    pipes split, ``sh -c``/``bash -lc``/``eval`` scripts and ``$( )`` parsed in
    turn, ``sudo``/``env``/``VAR=x`` and paths skipped), so ``b"ir"d tweet`` and
    ``sh -c "bird tw"eet`` are ``bird tweet``.
    """
    if not command:
        return None
    found = _match(command, config)
    return found[0] if found is not None else None


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
            found = _match(command, config)
            if found is not None:
                entry, rest = found
                words = [w for w in rest if not w.startswith("-")]
                sent = text or " ".join(words).strip() or None
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
