"""Receipts of an OpenAI-style transcript, built from the tool calls an agent made."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from receiptgate import parse_receipts
from receiptgate.evidence.receipts import Receipt


def tool_transcript(
    results: Sequence[tuple[str, dict[str, Any], Any]],
    *,
    before: Sequence[dict[str, Any]] = (),
) -> list[Receipt]:
    """The receipts of ``before`` (system and user messages), then one assistant tool call
    and its result per (tool, arguments, output); an output that is no string is sent as
    JSON, as a tool would."""
    messages: list[dict[str, Any]] = list(before)
    for i, (name, args, output) in enumerate(results):
        call = {
            "id": f"c{i}",
            "type": "function",
            "function": {"name": name, "arguments": json.dumps(args)},
        }
        messages.append({"role": "assistant", "content": None, "tool_calls": [call]})
        content = output if isinstance(output, str) else json.dumps(output)
        messages.append({"role": "tool", "tool_call_id": f"c{i}", "content": content})
    return parse_receipts(json.dumps({"messages": messages}))
