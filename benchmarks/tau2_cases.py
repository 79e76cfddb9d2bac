"""Real replies of other model families: tau2-bench airline and retail trajectories.

``benchmarks/data/tau2_airline_writers.jsonl`` holds conversations of eight agent models
(Claude Opus 4.6, Claude Sonnet 4.5 and 4.6, GPT-5.4, o3, gpt-oss-120b, DeepSeek-chat,
Grok-3) on tau2-bench's airline domain, taken from the trajectory files of leaderboard
submissions in sierra-research/tau2-bench (MIT, © 2025 Sierra Research; the blobs and
their commits are listed in ``tau2_airline_writers.md``). Every reply was written by the
model itself, right after real JSON tool results: this is the set that says how the gate
fares on the writing of model families it was not built on.
``benchmarks/data/tau2_retail_writers.jsonl`` is the same for tau2-bench's retail domain
(the writers and their sources are in ``tau2_retail_writers.md``).

A conversation line keeps OpenAI-format messages (the tau2 ones converted: tool calls
as ``{"function": {"name", "arguments"}}``, tool results with ``tool_call_id`` and
``name``), cut after the last sampled reply; the agent's system prompt (tau2's policy of
the domain) is kept once per version in ``tau2_{domain}_policies.json``.

A case is one sampled assistant reply with text after at least one tool result (the
message's position counts the system message as 0). Airline: id
``{writer}-t{task:02d}m{message:03d}``, 16 replies drawn per writer and split, tasks 0–24
the dev split and 25–49 the test split, as in ``airline_cases.py``. Retail: id
``{writer}-r{task:03d}m{message:03d}``, 12 replies drawn per writer and split, tasks 0–56
(the lower half of the retail task ids) the dev split and 57–113 the test split.

The rest of the conversations, ``tau2_{domain}_rest.jsonl.gz`` (no labels): the same
writers' replies of the case kind beyond where the data file cuts its conversations, i.e.
those after a conversation's last sampled reply and all of those of the conversations with
no sampled reply, in rows of the same format whose ``sampled`` lists them all (``rest``;
ids as above, none of them an id of ``cases`` or ``unsampled``).

``python benchmarks/tau2_cases.py convert [--domain retail] OUT RAW.json:writer ...``
rebuilds a data file from the raw trajectory files; ``python benchmarks/tau2_cases.py
convert-rest [--domain retail] OUT.jsonl.gz RAW.json:writer ...`` rebuilds a rest file from
them and the domain's data file (byte for byte: gzip level 9, no name, mtime 0);
``python benchmarks/tau2_cases.py [--domain retail] [--rest] [ID ...]`` prints cases (of
the rest file with ``--rest``), ``--list`` one line each.
"""

from __future__ import annotations

import functools
import gzip
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
DATA = ROOT / "benchmarks" / "data"


@dataclass(frozen=True)
class Domain:
    """Where a domain's cases are kept and how they were drawn."""

    name: str
    data: Path
    policies: Path
    #: Replies sampled per writer and split (fewer where the writer has fewer).
    per_split: int
    salt: str
    #: Tasks below this are the dev split.
    dev_tasks: int
    #: A case id from ``writer``, ``task`` and ``message``.
    id_format: str
    #: The rest of the writers' conversations (gzipped rows, every reply listed, no labels).
    rest: Path

    def case_id(self, writer: str, task: int, message: int) -> str:
        return self.id_format.format(writer=writer, task=task, message=message)

    def split(self, task: int) -> str:
        return "dev" if task < self.dev_tasks else "test"


AIRLINE = Domain(
    "airline",
    DATA / "tau2_airline_writers.jsonl",
    DATA / "tau2_airline_policies.json",
    16,
    "tau2-writers-2026-11-27",
    DEV_TASKS,
    "{writer}-t{task:02d}m{message:03d}",
    DATA / "tau2_airline_rest.jsonl.gz",
)
#: The retail split: the distinct task ids of the retail files, sorted, halved (0–113).
RETAIL_DEV_TASKS = 57
RETAIL = Domain(
    "retail",
    DATA / "tau2_retail_writers.jsonl",
    DATA / "tau2_retail_policies.json",
    12,
    "tau2-retail-writers-2026-11-27",
    RETAIL_DEV_TASKS,
    "{writer}-r{task:03d}m{message:03d}",
    DATA / "tau2_retail_rest.jsonl.gz",
)
DOMAINS = {d.name: d for d in (AIRLINE, RETAIL)}

# the airline names, as before
TAU2_FILE = AIRLINE.data
POLICIES_FILE = AIRLINE.policies
PER_SPLIT = AIRLINE.per_split
SALT = AIRLINE.salt


@dataclass(frozen=True)
class Tau2Case(AirlineCase):
    writer: str = ""
    policy_key: str = ""
    domain: str = "airline"

    @property
    def split(self) -> str:
        return DOMAINS[self.domain].split(self.task)

    def transcript(self, *, policy: bool = True) -> dict[str, Any]:
        messages: list[dict[str, Any]] = []
        if policy:
            messages.append({"role": "system", "content": policies(self.domain)[self.policy_key]})
        messages.extend(dict(m) for m in self.messages)
        return {"messages": messages}


@functools.cache
def policies(domain: str = "airline") -> dict[str, str]:
    data: dict[str, str] = json.loads(DOMAINS[domain].policies.read_text(encoding="utf-8"))
    return data


def _case(domain: Domain, row: dict[str, Any], i: int) -> Tau2Case:
    msgs = row["messages"]
    task = int(row["task_id"])
    return Tau2Case(
        domain.case_id(row["writer"], task, i + 1),
        task,
        i + 1,
        msgs[i]["content"],
        tuple(msgs[:i]),
        writer=row["writer"],
        policy_key=row["policy"],
        domain=domain.name,
    )


def cases(path: Path | None = None, domain: str = "airline") -> Iterator[Tau2Case]:
    d = DOMAINS[domain]
    with (path or d.data).open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            for i in row["sampled"]:
                yield _case(d, row, i)


def unsampled(path: Path | None = None, domain: str = "airline") -> Iterator[Tau2Case]:
    """The writers' other replies in the same conversations (text after at least one tool
    result, not sampled, so not labelled): more of their writing, to read for rules on
    the dev split and to count verdicts on, with no label to score."""
    d = DOMAINS[domain]
    with (path or d.data).open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            msgs = row["messages"]
            sampled = set(row["sampled"])
            for i, m in enumerate(msgs):
                if i in sampled or m.get("role") != "assistant" or m.get("tool_calls"):
                    continue
                if not m.get("content") or not any(x.get("role") == "tool" for x in msgs[:i]):
                    continue
                yield _case(d, row, i)


def rest(domain: str = "airline", path: Path | None = None) -> Iterator[Tau2Case]:
    """The rest of the writers' conversations (``Domain.rest``): every reply listed in a
    row's ``sampled``, none of them in the data file. No labels: verdicts are counted."""
    d = DOMAINS[domain]
    with gzip.open(path or d.rest, "rt", encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            for i in row["sampled"]:
                yield _case(d, row, i)


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


def _key(*parts: object, salt: str = SALT) -> str:
    return hashlib.sha1("|".join(map(str, (salt, *parts))).encode()).hexdigest()


def _halves(raws: list[dict[str, Any]]) -> int:
    """The first task id of the upper half of the distinct task ids in ``raws``."""
    ids = sorted({int(sim["task_id"]) for data in raws for sim in data["simulations"]})
    return ids[len(ids) // 2]


def convert(out: Path, sources: list[str], domain: str = "airline") -> None:
    d = DOMAINS[domain]
    loaded: list[tuple[str, dict[str, Any]]] = []
    for source in sources:
        raw, writer = source.rsplit(":", 1)
        loaded.append((writer, json.loads(Path(raw).read_text(encoding="utf-8"))))
    if d is RETAIL and _halves([data for _, data in loaded]) != d.dev_tasks:
        first = _halves([data for _, data in loaded])
        raise SystemExit(f"the retail files split at task {first}, not {d.dev_tasks}")
    rows: list[dict[str, Any]] = []
    pols: dict[str, str] = {}
    for writer, data in loaded:
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
                    found[d.split(task)].append((_key(writer, task, i, salt=d.salt), task, i))
        picked: dict[int, list[int]] = {}
        for split_cases in found.values():
            for _, task, i in sorted(split_cases)[: d.per_split]:
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
    d.policies.write_text(text, encoding="utf-8")


def convert_rest(
    out: Path, sources: list[str], domain: str = "airline", data: Path | None = None
) -> None:
    """Write the rest file: per source (in the order given) and simulation (in the file's
    order), the replies of the case kind (an assistant message with text after at least one
    tool result) that the data file does not reach: all of a conversation it lacks, those
    at or after the length of a conversation it holds (cut after its last sampled reply).
    A row lists them all in ``sampled`` and keeps the messages up to the last of them."""
    d = DOMAINS[domain]
    pols = policies(domain)
    have: dict[tuple[str, int], int] = {}
    with (data or d.data).open(encoding="utf-8") as f:
        for line in f:
            kept = json.loads(line)
            have[(kept["writer"], int(kept["task_id"]))] = len(kept["messages"])
    lines: list[str] = []
    for source in sources:
        raw, writer = source.rsplit(":", 1)
        loaded = json.loads(Path(raw).read_text(encoding="utf-8"))
        policy = loaded["info"]["environment_info"]["policy"]
        pkey = hashlib.sha1(policy.encode()).hexdigest()[:8]
        if pkey not in pols:
            raise SystemExit(f"{raw}: policy {pkey} is not in {d.policies.name}")
        for sim in loaded["simulations"]:
            task = int(sim["task_id"])
            msgs = _openai(sim["messages"])
            n = have.get((writer, task))
            seen_tool = False
            idx: list[int] = []
            for i, m in enumerate(msgs):
                if m["role"] == "tool":
                    seen_tool = True
                elif m["role"] == "assistant" and m.get("content") and seen_tool:
                    # the data file reaches up to message n - 1 (None: not at all)
                    idx += [i] if n is None or i >= n else []
            if idx:
                row = {
                    "writer": writer,
                    "model": loaded["info"]["agent_info"]["llm"],
                    "task_id": task,
                    "policy": pkey,
                    "sampled": idx,
                    "messages": msgs[: idx[-1] + 1],
                }
                lines.append(json.dumps(row, ensure_ascii=False) + "\n")
    with (
        out.open("wb") as packed,
        gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=packed, mtime=0) as gz,
    ):
        gz.write("".join(lines).encode("utf-8"))


def _domain_arg(args: list[str]) -> tuple[str, list[str]]:
    """``--domain NAME`` (airline if absent) and the other arguments."""
    if args[:1] == ["--domain"]:
        return args[1], args[2:]
    return "airline", args


if __name__ == "__main__":
    if sys.argv[1:2] == ["convert"]:
        name, args = _domain_arg(sys.argv[2:])
        convert(Path(args[0]), args[1:], name)
    elif sys.argv[1:2] == ["convert-rest"]:
        name, args = _domain_arg(sys.argv[2:])
        convert_rest(Path(args[0]), args[1:], name)
    else:
        name, args = _domain_arg(sys.argv[1:])
        from_rest = args[:1] == ["--rest"]
        print_cases(
            list(rest(name) if from_rest else cases(domain=name)),
            _show,
            lambda c: f"{c.id} {c.split} {c.reply[:100].replace(chr(10), ' ')}",
            args[1:] if from_rest else args,
        )
