"""The replies of ``../shared/data/taubench-retail`` as benchmark cases.

Each case is one assistant reply that follows at least one tool result, with
everything before it in the same conversation as its transcript: user turns,
assistant turns, and each ``tool:`` block as the result of the tool call made by
the ``assistant: None`` turn before it (the file kept no tool names or arguments).

A case id is ``r{conversation:02d}m{message:03d}``: the conversation's line in
``retail_fewshot.jsonl`` (from 0) and the message's position in that
conversation (from 0). Ids are stable as long as the file is.

Run ``python benchmarks/retail_cases.py [ID ...]`` to print cases as text, or
``--list`` for one line each.
"""

from __future__ import annotations

import functools
import json
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RETAIL_FILE = ROOT.parent / "shared" / "data" / "taubench-retail" / "retail_fewshot.jsonl"
#: The retail agent's system prompt in tau-bench (``tau_bench/envs/retail/wiki.md``, MIT,
#: sierra-research/tau-bench@59a200c): the policy the agent was given. The shared file
#: kept no system message; the benchmark puts this one back in front of every transcript.
POLICY_FILE = ROOT / "benchmarks" / "data" / "taubench_retail_policy.md"
_BLOCK = re.compile(r"\n(?=(?:user|assistant|tool): )")


@dataclass(frozen=True)
class Message:
    role: str  # user | assistant | tool
    content: str  # "None" for an assistant turn that called a tool


@dataclass(frozen=True)
class RetailCase:
    id: str
    conversation: int
    message: int
    reply: str
    history: tuple[Message, ...]

    def transcript(self, *, policy: bool = True) -> dict[str, Any]:
        """The history as an OpenAI-format transcript (SPEC §10), after the system message
        that held the agent's policy (``policy=False``: without it)."""
        messages: list[dict[str, Any]] = []
        if policy:
            messages.append({"role": "system", "content": policy_text()})
        for i, m in enumerate(self.history):
            if m.role == "assistant" and m.content == "None":
                call_id = f"call_{i}"
                messages.append(
                    {
                        "role": "assistant",
                        "content": None,
                        "tool_calls": [
                            {
                                "id": call_id,
                                "type": "function",
                                # The file kept no tool names; "tool" says only that.
                                "function": {"name": "tool", "arguments": "{}"},
                            }
                        ],
                    }
                )
            elif m.role == "tool":
                prev = messages[-1] if messages else None
                call_id = (
                    prev["tool_calls"][0]["id"] if prev and prev.get("tool_calls") else f"call_{i}"
                )
                messages.append({"role": "tool", "tool_call_id": call_id, "content": m.content})
            else:
                messages.append({"role": m.role, "content": m.content})
        return {"messages": messages}


@functools.cache
def policy_text() -> str:
    return POLICY_FILE.read_text(encoding="utf-8")


def conversations(path: Path = RETAIL_FILE) -> list[list[Message]]:
    out: list[list[Message]] = []
    with path.open(encoding="utf-8") as f:
        for line in f:
            text = json.loads(line)["messages_display"]
            msgs = []
            for block in _BLOCK.split(text):
                role, _, content = block.partition(": ")
                msgs.append(Message(role, content.strip()))
            out.append(msgs)
    return out


def cases(path: Path = RETAIL_FILE) -> Iterator[RetailCase]:
    for ci, msgs in enumerate(conversations(path)):
        seen_tool = False
        for mi, m in enumerate(msgs):
            if m.role == "tool":
                seen_tool = True
            elif m.role == "assistant" and m.content != "None" and seen_tool:
                yield RetailCase(f"r{ci:02d}m{mi:03d}", ci, mi, m.content, tuple(msgs[:mi]))


def _show(case: RetailCase) -> str:
    lines = [f"=== {case.id}"]
    for m in case.history:
        lines.append(f"  [{m.role}] {m.content}")
    lines.append(f">>> REPLY {case.id}:\n{case.reply}")
    return "\n".join(lines)


def print_cases(
    all_cases: list[Any], show: Callable[[Any], str], line: Callable[[Any], str], args: list[str]
) -> None:
    """``--list``: one ``line`` a case; else the cases named in ``args`` (all if none) as
    ``show`` prints them."""
    if args == ["--list"]:
        for c in all_cases:
            print(line(c))
        return
    wanted = set(args)
    for c in all_cases:
        if not wanted or c.id in wanted:
            print(show(c))


if __name__ == "__main__":
    print_cases(
        list(cases()),
        _show,
        lambda c: f"{c.id} {c.reply[:100].replace(chr(10), ' ')}",
        sys.argv[1:],
    )
