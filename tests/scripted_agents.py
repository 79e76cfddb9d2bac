"""A scripted model for the OpenAI Agents SDK tests: the SDK's ``Model`` interface answering
from a script (one response per call), and the response items it answers with.

Imported by name (``tests/`` is on ``sys.path`` through its conftest); the tests that use it
skip without ``openai-agents``.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

from agents import Model, ModelResponse, Usage
from openai.types.responses import (
    ResponseFunctionToolCall,
    ResponseOutputMessage,
    ResponseOutputText,
)


def tool_call(name: str, args: dict[str, Any], call_id: str) -> ResponseFunctionToolCall:
    """The model asks for tool ``name`` with ``args``."""
    return ResponseFunctionToolCall(
        id=f"fc_{call_id}",
        call_id=call_id,
        type="function_call",
        name=name,
        arguments=json.dumps(args),
    )


def message(text: str) -> ResponseOutputMessage:
    """The model answers ``text``."""
    return ResponseOutputMessage(
        id="msg_1",
        type="message",
        role="assistant",
        status="completed",
        content=[ResponseOutputText(type="output_text", text=text, annotations=[])],
    )


class ScriptedModel(Model):
    """The SDK's ``Model`` interface, answering from a script: one response per call."""

    def __init__(self, responses: list[list[Any]]) -> None:
        self.responses = list(responses)
        self.inputs: list[Any] = []

    async def get_response(
        self,
        system_instructions: str | None,
        input: Any,
        model_settings: Any,
        tools: Any,
        output_schema: Any,
        handoffs: Any,
        tracing: Any,
        **kwargs: Any,
    ) -> ModelResponse:
        self.inputs.append(input)
        return ModelResponse(output=self.responses.pop(0), usage=Usage(), response_id=None)

    def stream_response(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise NotImplementedError("the scripted model does not stream")
