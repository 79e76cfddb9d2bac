"""Real replies of other model families: tau2-bench airline leaderboard trajectories.

``benchmarks/data/tau2_airline_writers.jsonl`` holds conversations of eight agent models
(Claude Opus 4.6, Claude Sonnet 4.5 and 4.6, GPT-5.4, o3, gpt-oss-120b, DeepSeek-chat,
Grok-3) on tau2-bench's airline domain, taken from the trajectory files of leaderboard
submissions in sierra-research/tau2-bench (MIT, © 2025 Sierra Research; the blobs and
their commits are listed in ``tau2_airline_writers.md``). Every reply was written by the
model itself, right after real JSON tool results: this is the set that says how the gate
fares on the writing of model families it was not built on.

A conversation line keeps OpenAI-format messages (the tau2 ones converted: tool calls
as ``{"function": {"name", "arguments"}}``, tool results with ``tool_call_id`` and
``name``), cut after the last sampled reply; the agent's system prompt (tau2's airline
policy; two versions) is kept once in ``tau2_airline_policies.json``.

A case is one sampled assistant reply with text after at least one tool result; its
id is ``{writer}-t{task:02d}m{message:03d}`` (the message's position counts the system
message as 0). Tasks 0–24 are the dev split, 25–49 the test split, as in
``airline_cases.py``.

``python benchmarks/tau2_cases.py convert OUT RAW.json:writer ...`` rebuilds the data file
from the raw trajectory files; ``python benchmarks/tau2_cases.py [ID ...]`` prints cases,
``--list`` one line each.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from airline_cases import DEV_TASKS, AirlineCase, _show
from retail_cases import print_cases

ROOT = Path(__file__).resolve().parent.parent
TAU2_FILE = ROOT / "benchmarks" / "data" / "tau2_airline_writers.jsonl"
POLICIES_FILE = ROOT / "benchmarks" / "data" / "tau2_airline_policies.json"
#: Replies sampled per writer and split (fewer where the writer has fewer).
PER_SPLIT = 16
SALT = "tau2-writers-2026-11-27"


@dataclass(frozen=True)
class Tau2Case(AirlineCase):
    writer: str = ""
    policy_key: str = ""

    def transcript(self, *, policy: bool = True) -> dict[str, Any]:
        messages: list[dict[str, Any]] = []
        if policy:
            messages.append({"role": "system", "content": policies()[self.policy_key]})
        messages.extend(dict(m) for m in self.messages)
        return {"messages": messages}


@functools.cache
def policies() -> dict[str, str]:
    data: dict[str, str] = json.loads(POLICIES_FILE.read_text(encoding="utf-8"))
    return data


def cases(path: Path = TAU2_FILE) -> Iterator[Tau2Case]:
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            msgs = row["messages"]
            task = int(row["task_id"])
            for i in row["sampled"]:
                yield Tau2Case(
                    f"{row['writer']}-t{task:02d}m{i + 1:03d}",
                    task,
                    i + 1,
                    msgs[i]["content"],
                    tuple(msgs[:i]),
                    writer=row["writer"],
                    policy_key=row["policy"],
                )


def unsampled(path: Path = TAU2_FILE) -> Iterator[Tau2Case]:
    """The writers' other replies in the same conversations (text after at least one tool
    result, not sampled, so not labelled): more of their writing, to read for rules on
    the dev split and to count verdicts on, with no label to score."""
    with path.open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            msgs = row["messages"]
            task = int(row["task_id"])
            sampled = set(row["sampled"])
            for i, m in enumerate(msgs):
                if i in sampled or m.get("role") != "assistant" or m.get("tool_calls"):
                    continue
                if not m.get("content") or not any(x.get("role") == "tool" for x in msgs[:i]):
                    continue
                yield Tau2Case(
                    f"{row['writer']}-t{task:02d}m{i + 1:03d}",
                    task,
                    i + 1,
                    m["content"],
                    tuple(msgs[:i]),
                    writer=row["writer"],
                    policy_key=row["policy"],
                )


# ------------------------------------------------------------------ conversion


def _openai(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """tau2 messages as OpenAI-format ones."""
    out: list[dict[str, Any]] = []
    names: dict[str, str] = {}
    for m in messages:
        role = m["role"]
        if role == "tool":
            out.append(
                {
                    "role": "tool",
                    "tool_call_id": m["id"],
                    "name": names.get(m["id"], ""),
                    "content": m.get("content") or "",
                }
            )
            continue
        msg: dict[str, Any] = {"role": role, "content": m.get("content")}
        calls = m.get("tool_calls") or []
        if calls:
            msg["tool_calls"] = []
            for c in calls:
                names[c["id"]] = c["name"]
                msg["tool_calls"].append(
                    {
                        "id": c["id"],
                        "type": "function",
                        "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
                    }
                )
        out.append(msg)
    return out


def _key(*parts: object) -> str:
    return hashlib.sha1("|".join(map(str, (SALT, *parts))).encode()).hexdigest()


def convert(out: Path, sources: list[str]) -> None:
    rows: list[dict[str, Any]] = []
    pols: dict[str, str] = {}
    for source in sources:
        raw, writer = source.rsplit(":", 1)
        data = json.loads(Path(raw).read_text(encoding="utf-8"))
        policy = data["info"]["environment_info"]["policy"]
        pkey = hashlib.sha1(policy.encode()).hexdigest()[:8]
        pols[pkey] = policy
        found: dict[str, list[tuple[str, int, int]]] = {"dev": [], "test": []}
        convs = {}
        for sim in data["simulations"]:
            task = int(sim["task_id"])
            msgs = _openai(sim["messages"])
            convs[task] = msgs
            seen_tool = False
            for i, m in enumerate(msgs):
                if m["role"] == "tool":
                    seen_tool = True
                elif m["role"] == "assistant" and m.get("content") and seen_tool:
                    split = "dev" if task < DEV_TASKS else "test"
                    found[split].append((_key(writer, task, i), task, i))
        picked: dict[int, list[int]] = {}
        for split_cases in found.values():
            for _, task, i in sorted(split_cases)[:PER_SPLIT]:
                picked.setdefault(task, []).append(i)
        for task in sorted(picked):
            idx = sorted(picked[task])
            rows.append(
                {
                    "writer": writer,
                    "model": data["info"]["agent_info"]["llm"],
                    "task_id": task,
                    "policy": pkey,
                    "sampled": idx,
                    "messages": convs[task][: idx[-1] + 1],
                }
            )
    with out.open("w", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    text = json.dumps(pols, indent=1, ensure_ascii=False) + "\n"
    POLICIES_FILE.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:2] == ["convert"]:
        convert(Path(sys.argv[2]), sys.argv[3:])
    else:
        print_cases(
            list(cases()),
            _show,
            lambda c: f"{c.id} {c.split} {c.reply[:100].replace(chr(10), ' ')}",
            sys.argv[1:],
        )
