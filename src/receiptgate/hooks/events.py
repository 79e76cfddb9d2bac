"""The runtime hook events of SPEC §7 as JSON-shaped pydantic models.

Field names follow the seeds (RFC-003 §8, the agent-loop hooks RFC): camelCase
on the wire (``toolName``, ``assistantTexts``, ``sessionKey``); snake_case keys
are accepted too. Unknown keys are kept (``extra="allow"``): a runtime may send
more than the seeds describe, and handlers may read it.

Every event model names what a handler's :class:`HookResult` may change for it
(``capabilities``) and whether it is a *gate* event (its handlers may stop
something: a write, a delivery, a tool call), which decides what a failing
handler does under ``fail_closed``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator
from pydantic.alias_generators import to_camel

from receiptgate._exceptions import InputError
from receiptgate._validation import format_validation_error
from receiptgate.text.clean import clean_data

#: What a handler's result may change: ``block`` / ``cancel`` stop the action,
#: ``content`` rewrites the event's text, ``tools`` / ``toolCalls`` filter lists.
Capability = Literal["block", "cancel", "content", "tools", "toolCalls"]


class _Wire(BaseModel):
    model_config = ConfigDict(
        extra="allow", populate_by_name=True, alias_generator=to_camel, frozen=True
    )

    @model_validator(mode="before")
    @classmethod
    def _clean(cls, data: Any) -> Any:
        # text/clean.py: lone surrogates become U+FFFD before any handler sees them.
        return clean_data(data)[0] if isinstance(data, dict) else data

    def to_json(self) -> dict[str, Any]:
        """The JSON shape: camelCase keys; fields the sender left out stay out."""
        return self.model_dump(by_alias=True, exclude_unset=True, exclude_none=True, mode="json")


def _text_parts(content: Any) -> str | None:
    """The text of an ``AgentMessage.content``: a string or a list of parts."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts: list[str] = []
        for part in content:
            if isinstance(part, str):
                texts.append(part)
            elif (
                isinstance(part, dict)
                and isinstance(part.get("text"), str)
                and part.get("type", "text") in ("text", "output_text")
            ):
                texts.append(part["text"])
        return "\n".join(texts) if texts else None
    return None


class AgentMessage(_Wire):
    """A message of the agent's transcript (``role``, ``content``, ...)."""

    role: str | None = None
    content: str | list[Any] | None = None

    @property
    def text(self) -> str | None:
        """The message's text: ``content`` or its text parts joined by newlines."""
        return _text_parts(self.content)


class ToolDefinition(_Wire):
    """A tool the LLM may call; a bare string is read as ``{"name": ...}``."""

    name: str = Field(min_length=1)

    @classmethod
    def coerce(cls, value: Any) -> Any:
        return {"name": value} if isinstance(value, str) else value


class ToolCall(_Wire):
    """A tool call the LLM wants to make."""

    id: str | None = None
    name: str = Field(min_length=1)
    arguments: dict[str, Any] | str = Field(default_factory=dict)

    @property
    def key(self) -> str:
        """Identity used when filtering: the id, else the name."""
        return self.id if self.id is not None else f"name:{self.name}"


class TokenUsage(_Wire):
    input: int = Field(ge=0)
    output: int = Field(ge=0)


class ContextSource(_Wire):
    """One contributor to the assembled context (``context_assembled``)."""

    kind: str
    tool: str | None = None
    trust: str | None = None
    message_index: int | None = None


def _tools(value: Any) -> Any:
    if isinstance(value, list):
        return [ToolDefinition.coerce(v) for v in value]
    return value


class HookEvent(_Wire):
    """Base of every event: the optional session context the seeds share."""

    #: The event's name (``message_sending``, ...).
    name: ClassVar[str] = ""
    #: What handlers may change for this event.
    capabilities: ClassVar[frozenset[Capability]] = frozenset()

    session_key: str | None = None
    agent_id: str | None = None

    @classmethod
    def is_gate(cls) -> bool:
        """Whether handlers may stop something (then ``fail_closed`` blocks on errors)."""
        return bool(cls.capabilities & {"block", "cancel"})

    def text(self) -> str | None:
        """The text a ``content`` modification replaces; ``None`` when there is none."""
        return None

    def with_text(self, text: str) -> HookEvent:
        """This event with its text replaced (what the next handler sees)."""
        raise NotImplementedError(f"{self.name} has no text to modify")


class MessageSending(HookEvent):
    """Before an outbound message is delivered to a user or channel (may cancel, rewrite)."""

    name: ClassVar[str] = "message_sending"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"cancel", "content"})

    content: str
    to: str | None = None
    channel_id: str | None = None
    account_id: str | None = None
    conversation_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)

    def text(self) -> str | None:
        return self.content

    def with_text(self, text: str) -> MessageSending:
        return self.model_copy(update={"content": text})


class BeforeMessageWrite(HookEvent):
    """Before a message is persisted to the session (synchronous; may block)."""

    name: ClassVar[str] = "before_message_write"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"block", "content"})

    message: AgentMessage

    def text(self) -> str | None:
        return self.message.text

    def with_text(self, text: str) -> BeforeMessageWrite:
        message = self.message.model_copy(update={"content": text})
        return self.model_copy(update={"message": message})


class LlmOutput(HookEvent):
    """After an LLM response (void: audit only, never blocks)."""

    name: ClassVar[str] = "llm_output"

    assistant_texts: list[str]
    model: str | None = None
    provider: str | None = None
    run_id: str | None = None


class BeforeToolCall(HookEvent):
    """Before a tool runs (external-communication detection; may block)."""

    name: ClassVar[str] = "before_tool_call"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"block"})

    tool_name: str = Field(min_length=1)
    params: dict[str, Any] = Field(default_factory=dict)


class BeforeExternalCommunication(HookEvent):
    """Before a message leaves the organisation (the LLM judge applies; may block)."""

    name: ClassVar[str] = "before_external_communication"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"block", "content"})

    text_: str | None = Field(default=None, alias="text")
    channel: str | None = None
    to: str | None = None
    tool_name: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)

    def text(self) -> str | None:
        if self.text_ is not None:
            return self.text_
        extra = self.model_extra or {}
        for key in ("message", "content", "body"):  # the keys checkers.external reads
            if isinstance(extra.get(key), str):
                return str(extra[key])
        return None

    def with_text(self, text: str) -> BeforeExternalCommunication:
        return self.model_copy(update={"text_": text})


class ContextAssembled(HookEvent):
    """The full context before the first LLM call (void: observation only)."""

    name: ClassVar[str] = "context_assembled"

    system_prompt: str
    messages: list[AgentMessage] = Field(default_factory=list)
    sources: list[ContextSource] = Field(default_factory=list)


class BeforeLlmCall(HookEvent):
    """Before every LLM call of the loop (may filter tools, block the turn)."""

    name: ClassVar[str] = "before_llm_call"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"block", "tools"})

    messages: list[AgentMessage] = Field(default_factory=list)
    system_prompt: str | None = None
    model: str | None = None
    iteration: int = Field(ge=0)
    tools: list[ToolDefinition] = Field(default_factory=list)
    token_estimate: int | None = Field(default=None, ge=0)

    _coerce_tools = field_validator("tools", mode="before")(_tools)


class AfterLlmCall(HookEvent):
    """After an LLM response, before its tool calls run (may filter tool calls, block)."""

    name: ClassVar[str] = "after_llm_call"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"block", "toolCalls"})

    messages: list[AgentMessage] = Field(default_factory=list)
    response: AgentMessage | None = None
    tool_calls: list[ToolCall] = Field(default_factory=list)
    iteration: int = Field(ge=0)
    model: str | None = None
    latency_ms: float | None = Field(default=None, ge=0)
    token_usage: TokenUsage | None = None


class LoopIterationStart(HookEvent):
    """An agent-loop iteration begins (may block: a runaway loop)."""

    name: ClassVar[str] = "loop_iteration_start"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"block"})

    iteration: int = Field(ge=0)
    pending_tool_results: int = Field(default=0, ge=0)
    message_count: int = Field(default=0, ge=0)


class LoopIterationEnd(HookEvent):
    """An agent-loop iteration ended (void)."""

    name: ClassVar[str] = "loop_iteration_end"

    iteration: int = Field(ge=0)
    tool_calls_made: int = Field(default=0, ge=0)
    new_messages_added: int = Field(default=0, ge=0)
    will_continue: bool = False


class BeforeResponseEmit(HookEvent):
    """The final response, before delivery (may rewrite or block)."""

    name: ClassVar[str] = "before_response_emit"
    capabilities: ClassVar[frozenset[Capability]] = frozenset({"block", "content"})

    content: str
    tainted_by: list[str] = Field(default_factory=list)
    channel: str | None = None

    def text(self) -> str | None:
        return self.content

    def with_text(self, text: str) -> BeforeResponseEmit:
        return self.model_copy(update={"content": text})


class AgentEnd(HookEvent):
    """The turn is over (void)."""

    name: ClassVar[str] = "agent_end"

    messages: list[AgentMessage] = Field(default_factory=list)
    success: bool = True
    error: str | None = None
    duration_ms: float | None = Field(default=None, ge=0)


#: Every event of SPEC §7, by name.
EVENTS: dict[str, type[HookEvent]] = {
    cls.name: cls
    for cls in (
        MessageSending,
        BeforeMessageWrite,
        LlmOutput,
        BeforeToolCall,
        BeforeExternalCommunication,
        ContextAssembled,
        BeforeLlmCall,
        AfterLlmCall,
        LoopIterationStart,
        LoopIterationEnd,
        BeforeResponseEmit,
        AgentEnd,
    )
}


def event_type(name: str) -> type[HookEvent]:
    """The model of event ``name``.

    Raises:
        InputError: for an unknown event (the message lists the known ones).
    """
    cls = EVENTS.get(name) if isinstance(name, str) else None
    if cls is None:
        known = ", ".join(EVENTS)
        raise InputError(f"unknown hook event {name!r} (known: {known})")
    return cls


def parse_event(name: str, payload: Any) -> HookEvent:
    """Validates ``payload`` (a JSON object, or an event model) as event ``name``.

    Raises:
        InputError: unknown event, or a bad payload (the message names the field,
            e.g. ``before_tool_call: toolName: Field required``).
    """
    cls = event_type(name)
    if isinstance(payload, cls):
        return payload
    if isinstance(payload, HookEvent):
        raise InputError(f"{name}: got a {payload.name} event")
    if not isinstance(payload, dict):
        raise InputError(f"{name}: expected a JSON object, got {type(payload).__name__}")
    try:
        return cls.model_validate(payload)
    except ValidationError as e:
        raise InputError(format_validation_error(name, e)) from e


class HookResult(_Wire):
    """What the handlers answer (the seeds' result fields); unset means "no change".

    ``cancel`` stops a delivery (``message_sending``), ``block`` stops a write, a
    tool call or the turn, ``content`` replaces the event's text, ``tools`` is
    the tool list left for the LLM call, ``toolCalls`` the tool calls left to run.
    """

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, alias_generator=to_camel, frozen=True
    )

    cancel: bool | None = None
    block: bool | None = None
    block_reason: str | None = None
    content: str | None = None
    tools: list[ToolDefinition] | None = None
    tool_calls: list[ToolCall] | None = None

    _coerce_tools = field_validator("tools", mode="before")(_tools)

    @property
    def stops(self) -> bool:
        """Whether this result cancels or blocks."""
        return bool(self.cancel or self.block)
