"""The replies of tau-bench's GPT-4o airline agent as benchmark cases.

``benchmarks/data/taubench_airline_gpt4o.jsonl`` holds 50 conversations (trial 0 of
each of the 50 airline tasks) from tau-bench's ``historical_trajectories/gpt-4o-airline.json``
(MIT, sierra-research/tau-bench@59a200c): OpenAI-format messages with the tools'
names, arguments and JSON results. The agent's system prompt, the same in every
conversation, is kept once in ``taubench_airline_policy.md`` and put back in front
of every transcript.

Each case is one assistant reply with text that follows at least one tool result;
its transcript is everything before it. A case id is ``a{task:02d}m{message:03d}``:
the task and the message's position in the conversation (the system message is 0).
Tasks 0–24 are the dev split, 25–49 the test split.

Run ``python benchmarks/airline_cases.py [ID ...]`` to print cases as text, or
``--list`` for one line each.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from retail_cases import Message, print_cases

ROOT = Path(__file__).resolve().parent.parent
AIRLINE_FILE = ROOT / "benchmarks" / "data" / "taubench_airline_gpt4o.jsonl"
POLICY_FILE = ROOT / "benchmarks" / "data" / "taubench_airline_policy.md"
#: Tasks below this are the dev split.
DEV_TASKS = 25


@dataclass(frozen=True)
class AirlineCase:
    id: str
    task: int
    message: int
    reply: str
    messages: tuple[dict[str, Any], ...]  # the messages before the reply, without the system one

    @property
    def history(self) -> tuple[Message, ...]:
        """The messages before the reply as role and text ("None" for a turn that only
        called tools), as the retail cases give them."""
        return tuple(Message(m["role"], m.get("content") or "None") for m in self.messages)

    @property
    def split(self) -> str:
        return "dev" if self.task < DEV_TASKS else "test"

    def transcript(self, *, policy: bool = True) -> dict[str, Any]:
        """The history as an OpenAI-format transcript, after the system message that
        held the agent's policy (``policy=False``: without it)."""
        messages: list[dict[str, Any]] = []
        if policy:
            messages.append({"role": "system", "content": policy_text()})
        messages.extend(dict(m) for m in self.messages)
        return {"messages": messages}


@functools.cache
def policy_text() -> str:
    return POLICY_FILE.read_text(encoding="utf-8")


def cases(path: Path = AIRLINE_FILE) -> Iterator[AirlineCase]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            msgs = row["messages"]
            seen_tool = False
            for i, m in enumerate(msgs):
                if m["role"] == "tool":
                    seen_tool = True
                elif m["role"] == "assistant" and m.get("content") and seen_tool:
                    task = int(row["task_id"])
                    yield AirlineCase(
                        f"a{task:02d}m{i + 1:03d}", task, i + 1, m["content"], tuple(msgs[:i])
                    )


def _show(case: AirlineCase) -> str:
    lines = [f"=== {case.id} ({case.split})"]
    for m in case.messages:
        if m["role"] == "tool":
            lines.append(f"  [tool {m.get('name', '')}] {m['content']}")
            continue
        if m.get("content"):
            lines.append(f"  [{m['role']}] {m['content']}")
        for call in m.get("tool_calls") or ():
            fn = call["function"]
            lines.append(f"  [{m['role']} calls {fn['name']}] {fn['arguments']}")
    lines.append(f">>> REPLY {case.id}:\n{case.reply}")
    return "\n".join(lines)


if __name__ == "__main__":
    print_cases(
        list(cases()),
        _show,
        lambda c: f"{c.id} {c.split} {c.reply[:100].replace(chr(10), ' ')}",
        sys.argv[1:],
    )
