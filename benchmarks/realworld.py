"""receiptgate on real agent traffic: tau-bench retail and airline replies against their
JSON tool results, and coding agents' self-reports.

Every case is one reply a GPT-model customer-service agent wrote right after its
tools answered (``benchmarks/retail_cases.py``, ``benchmarks/airline_cases.py``),
checked as a user would check it: ``gate.validate(reply, receipts=<the transcript
before it>)`` with the default config and policy. Labels:
``benchmarks/data/taubench_retail_labels.jsonl`` and ``taubench_airline_labels.jsonl``
(written by hand without reading the code, rules in the ``.md`` beside them). Retail
``dev`` is conversations 0-39 (what rules were tuned on), ``test`` 40-68 (kept for
measurement); airline ``dev`` is tasks 0-24, ``test`` 25-49 (a domain the rules were
not written for: its dev split was read from the first measurement on, its test
split only measured).

The report:

1. **honest replies** (labelled clean): share passed, flagged, blocked;
2. **bad replies** (labelled bad): share flagged or blocked, and at the wrong sentence;
3. **mutations**: in every clean reply, each grounded value (a money amount, an id,
   a person's name, a card's last four digits, a status, a count) that a tool
   result holds is changed to a value no tool result holds, one at a time; a
   mutation is caught when the gate blocks *the sentence holding it*. The values
   are found and changed here, by rules that do not use the gate's extraction;
4. **layout**: the tool results pretty-printed (indent 2), with keys in reverse
   order, and as CSV rows (flattened ``a.b.0.c`` headers): the share of replies
   whose verdict is unchanged;
5. **reply style**: every honest reply rewritten the way other models write (``•``
   bullets, ``1)`` lists, no bold, a check mark before the first sentence, "Label —
   value" lines, label lines as two-cell table rows, paragraphs wrapped at 80
   characters): the share whose verdict is unchanged;
6. **latency**: in-process median and p90 per reply, overall and by transcript size;
7. **other writers**: 300 replies written at the same points of 100 of those
   conversations in six other writing styles (terse, Claude-like, Llama-like,
   Gemini-like, a table, an ops ticket) by helpers that never read the code: two honest
   replies and one with a single planted error each
   (``benchmarks/data/taubench_other_writers.jsonl``, see its ``.md``). Synthetic, not
   traffic: it measures how the rules carry to other models' wording. ``dev`` contexts
   were read for rules, ``test`` only run;
8. **tau2 writers**: 245 replies that eight other agent models (Claude Opus 4.6, Sonnet
   4.5 and 4.6, GPT-5.4, o3, gpt-oss-120b, DeepSeek, Grok-3) wrote themselves on
   tau2-bench's airline tasks, labelled clean or bad by hand
   (``benchmarks/tau2_cases.py``, ``benchmarks/data/tau2_airline_writers.md``): real
   traffic of other model families. ``dev`` (tasks 0-24) was read for rules, ``test``
   only run;
9. **tau2 retail writers**: the same for tau2-bench's retail tasks
   (``benchmarks/data/tau2_retail_writers.md``): 12 replies per writer and split
   (``dev`` tasks 0-56, ``test`` 57-113), labelled in ``tau2_retail_labels.jsonl`` once
   that file exists; until then (and for any reply it leaves out) the replies are
   counted unlabelled.

Both tau2 tables also count, with no label, the writers' other replies in the sampled
conversations ("unsampled (no label)") and the rest of their conversations
(``tau2_{domain}_rest.jsonl.gz``, "rest (no label)").

Run: ``.venv/bin/python benchmarks/realworld.py [--split dev|test|all] [--json]
[--show-failures N]``
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import json
import re
import statistics
import sys
import textwrap
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
import airline_cases
import tau2_cases
from _common import ROOT, percentile, table
from airline_cases import AirlineCase
from receiptgate.api import build_gate
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt, parse_receipts
from receiptgate.results import ValidationResult
from retail_cases import RETAIL_FILE, RetailCase, cases, policy_text

LABELS = ROOT / "benchmarks" / "data" / "taubench_retail_labels.jsonl"
AIRLINE_LABELS = ROOT / "benchmarks" / "data" / "taubench_airline_labels.jsonl"
CODING = ROOT / "benchmarks" / "data" / "coding_selfreports.jsonl"
OTHER_WRITERS = ROOT / "benchmarks" / "data" / "taubench_other_writers.jsonl"
TAU2_LABELS = ROOT / "benchmarks" / "data" / "tau2_airline_labels.jsonl"
TAU2_RETAIL_LABELS = ROOT / "benchmarks" / "data" / "tau2_retail_labels.jsonl"
NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
#: The airline agent's clock ("The current time is 2024-05-15 15:00:00 EST").
AIRLINE_NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
#: Labels and the gate's ``now`` of each tau2 domain (tau2's retail policy states no
#: current time: the retail rows' ``NOW``, as for tau-bench's retail replies).
TAU2 = {"airline": (TAU2_LABELS, AIRLINE_NOW), "retail": (TAU2_RETAIL_LABELS, NOW)}


@dataclass
class Labelled:
    case: RetailCase | AirlineCase
    label: dict[str, Any]

    @property
    def clean(self) -> bool:
        return bool(self.label["label"] == "clean")


def load(split: str, domain: str = "retail") -> list[Labelled]:
    labels = {}
    with (LABELS if domain == "retail" else AIRLINE_LABELS).open(encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            labels[row["id"]] = row
    out = []
    found: Iterator[RetailCase | AirlineCase] = (
        cases() if domain == "retail" else airline_cases.cases()
    )
    for c in found:
        row = labels.get(c.id)
        if row is not None and (split == "all" or row["split"] == split):
            out.append(Labelled(c, row))
    return out


#: Whether transcripts start with the agent's policy as their system message (the
#: default, as the agent ran; ``--no-policy`` leaves it out).
WITH_POLICY = True


def receipts_of(
    case: RetailCase | AirlineCase, render: Callable[[Any], str] | None = None
) -> list[Receipt]:
    transcript = case.transcript(policy=WITH_POLICY)
    if render is not None:
        for m in transcript["messages"]:
            if m["role"] == "tool":
                # a plain-text result ("isabella_lopez_6490") stays as it is
                with contextlib.suppress(json.JSONDecodeError):
                    m["content"] = render(json.loads(m["content"]))
    return parse_receipts(json.dumps(transcript), source_name=case.id)


def sentence_action(result: ValidationResult, start: int, end: int) -> str:
    """The worst action of the sentences overlapping ``[start, end)``."""
    rank = {"pass": 0, "warn": 1, "block": 2}
    worst = "pass"
    for s in result.sentences:
        if s.start < end and start < s.end and rank[s.action] > rank[worst]:
            worst = s.action
    return worst


# ------------------------------------------------------------------- mutations


@dataclass(frozen=True)
class Mutation:
    kind: str
    start: int
    end: int
    original: str
    replacement: str


_MONEY = re.compile(r"\$\s?(\d{1,3}(?:,\d{3})*(?:\.\d{2})?|\d+(?:\.\d{2})?)(?![\d,])")
_ORDER = re.compile(r"#W\d{7}\b")
_LONG_ID = re.compile(r"(?<![\w#])\d{10}(?!\d)")
_LAST4 = re.compile(r"(?:ending in|ends in|last four digits(?: of)?|ending with)\s+(\d{4})\b")
_SNAKE_ID = re.compile(r"\b[a-z]+(?:_[a-z]+)*_\d{4,}\b")
_STATUS = ("pending", "delivered", "cancelled", "processed", "shipped")
_OTHER_STATUS = {"pending": "delivered", "delivered": "pending", "cancelled": "delivered",
                 "processed": "pending", "shipped": "pending"}  # fmt: skip
#: A timeframe the policy states ("7 business days"): changed, it is a policy misquoted.
_POLICY_FIGURE = re.compile(r"\b(\d{1,3})\s+(business days|days|hours)\b")
_NAMES = ("Rebecca", "Marcus", "Hiroshi", "Ingrid", "Tomasz", "Priya")
_COUNT = re.compile(
    r"\b(\d{1,2})\s+(items?|orders?|options?|variants?|products?|t-shirts?|pairs?)\b", re.I
)


def _in_evidence(value: str, evidence: str) -> bool:
    return value in evidence


def _money_variants(amount: str, evidence_numbers: set[str]) -> str | None:
    x = float(amount.replace(",", ""))
    for delta in (0.13, -0.11, 0.29, -0.27):
        y = round(x * (1 + delta) + 3.17, 2)
        shown = f"{y:,.2f}" if "." in amount else f"{round(y):,}"
        if shown.replace(",", "") not in evidence_numbers and y > 0:
            return shown
    return None


def mutations(case: RetailCase | AirlineCase) -> Iterator[Mutation]:
    """Grounded values of the reply (the evidence holds them) and a changed copy of each."""
    tool_text = "\n".join(m.content for m in case.history if m.role == "tool")
    numbers = set(re.findall(r"\d+(?:\.\d+)?", tool_text))
    numbers |= {n.rstrip("0").rstrip(".") for n in numbers if "." in n}
    reply = case.reply
    for m in _MONEY.finditer(reply):
        raw = m.group(1)
        plain = raw.replace(",", "")
        if plain in numbers or plain.rstrip("0").rstrip(".") in numbers:
            new = _money_variants(raw, numbers)
            if new is not None:
                yield Mutation("money", m.start(1), m.end(1), raw, new)
    for m in _ORDER.finditer(reply):
        if m.group() in tool_text:
            digits = m.group()[2:]
            new = f"#W{(int(digits) + 3_141_593) % 10_000_000:07d}"
            if new not in tool_text:
                yield Mutation("id", m.start(), m.end(), m.group(), new)
    for m in _LONG_ID.finditer(reply):
        if m.group() in tool_text:
            new = f"{(int(m.group()) + 2_718_281_828) % 10**10:010d}"
            if new not in tool_text:
                yield Mutation("id", m.start(), m.end(), m.group(), new)
    for m in _SNAKE_ID.finditer(reply):
        if m.group() in tool_text:
            head, _, digits = m.group().rpartition("_")
            new = f"{head}_{(int(digits) + 4321) % 10 ** len(digits):0{len(digits)}d}"
            if new not in tool_text:
                yield Mutation("id", m.start(), m.end(), m.group(), new)
    for m in _LAST4.finditer(reply):
        if f'"{m.group(1)}"' in tool_text:
            new = f"{(int(m.group(1)) + 5555) % 10000:04d}"
            if new not in tool_text:
                yield Mutation("card digits", m.start(1), m.end(1), m.group(1), new)
    names = set(re.findall(r'"(?:first_name|last_name)":\s*"([^"]+)"', tool_text))
    for name in sorted(names):
        for m in re.finditer(rf"\b{re.escape(name)}\b", reply):
            new = next(n for n in _NAMES if n not in tool_text and n != name)
            yield Mutation("name", m.start(), m.end(), name, new)
            break
    for status in _STATUS:
        if f'"status": "{status}"' not in tool_text:
            continue
        for m in re.finditer(rf"\b{status}\b", reply):
            new = _OTHER_STATUS[status]
            yield Mutation("status", m.start(), m.end(), status, new)
            break
    if WITH_POLICY:
        policy = policy_text()
        for m in _POLICY_FIGURE.finditer(reply):
            if f"{m.group(1)} {m.group(2)}" in policy:
                new = str(int(m.group(1)) + 3)
                yield Mutation("policy figure", m.start(1), m.end(1), m.group(1), new)
    for m in _COUNT.finditer(reply):
        n = int(m.group(1))
        new = str(n + 3)
        yield Mutation("count", m.start(1), m.end(1), m.group(1), new)


_MONEY_KEYS = ("price", "amount", "total")


def _objects(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from _objects(v)
    elif isinstance(value, list):
        for v in value:
            yield from _objects(v)


def _names_of(obj: dict[str, Any]) -> list[str]:
    """What a sentence would call an object: its ids and name (options excluded)."""
    out = []
    for key, v in obj.items():
        if isinstance(v, str) and (key.endswith("id") or key == "name") and len(v) > 3:
            out.append(v)
    return out


def swap_mutations(case: RetailCase | AirlineCase) -> Iterator[Mutation]:
    """A money figure of a sentence that names its record (an order id, an item id or
    name), replaced by the same field of another record of the evidence: the value
    exists, but it belongs to something else."""
    fields: list[tuple[str, float, dict[str, Any]]] = []
    for m in case.history:
        if m.role != "tool":
            continue
        try:
            tree = json.loads(m.content)
        except json.JSONDecodeError:
            continue
        for obj in _objects(tree):
            for key, v in obj.items():
                if key in _MONEY_KEYS and isinstance(v, int | float) and not isinstance(v, bool):
                    fields.append((key, float(v), obj))
    reply = case.reply
    for m in _MONEY.finditer(reply):
        x = float(m.group(1).replace(",", ""))
        start = reply.rfind(".", 0, m.start()) + 1
        end = reply.find(".", m.end() + 3)
        sentence = reply[start : end if end > 0 else len(reply)]
        owners = [
            (key, obj)
            for key, v, obj in fields
            if abs(v - x) < 0.005 and any(n in sentence for n in _names_of(obj))
        ]
        if not owners:
            continue
        key, owner = owners[0]
        others = [
            v
            for k, v, obj in fields
            if k == key
            and obj is not owner
            and not set(_names_of(obj)) & set(_names_of(owner))
            and f"{v:,.2f}" not in reply
            and abs(v - x) >= 0.005
        ]
        if others:
            new = f"{others[0]:,.2f}"
            yield Mutation("another record's value", m.start(1), m.end(1), m.group(1), new)


def derived_mutations(case: RetailCase | AirlineCase, label: dict[str, Any]) -> Iterator[Mutation]:
    """Each derived figure the labels name (a total, a refund, a difference), changed by a
    plausible amount (12% and $3.17 more: no record holds it, no simple sum gives it)."""
    reply = case.reply
    for d in label.get("derived", []):
        if d.get("correct") is False:
            continue  # a wrong derived figure is the label's finding, not a value to change
        text = d.get("text") or d.get("figure", "")  # retail labels say text, airline figure
        at = reply.find(text)
        m = _MONEY.search(text)
        if at < 0 or m is None:
            continue
        x = float(m.group(1).replace(",", ""))
        new = f"{x * 1.12 + 3.17:,.2f}"
        yield Mutation("derived figure", at + m.start(1), at + m.end(1), m.group(1), new)


_ORDER_IN = re.compile(r"#W\d{7}")


def action_mutations(
    case: RetailCase | AirlineCase, label: dict[str, Any]
) -> Iterator[tuple[str, str]]:
    """Replies with an action claim no tool result backs: an order cancelled that no
    result shows cancelled, appended to a reply that claimed no action."""
    if label.get("actions"):
        return
    tool_text = "\n".join(m.content for m in case.history if m.role == "tool")
    for order in dict.fromkeys(_ORDER_IN.findall(tool_text)):
        if '"cancelled"' in tool_text:
            return
        yield "unperformed action", f"{case.reply}\n\nI have cancelled your order {order}."
        return


def apply(text: str, mutation: Mutation) -> str:
    return text[: mutation.start] + mutation.replacement + text[mutation.end :]


# --------------------------------------------------------------------- layouts


def _reverse_keys(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _reverse_keys(value[k]) for k in sorted(value, reverse=True)}
    if isinstance(value, list):
        return [_reverse_keys(v) for v in value]
    return value


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(_flatten(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(_flatten(v, f"{prefix}.{i}" if prefix else str(i)))
    else:
        out[prefix or "value"] = value
    return out


def as_csv(value: Any) -> str:
    """One CSV row per object (a list of objects gives one row each); nested keys are
    flattened into ``a.b.0.c`` headers. A bare value stays as it is."""
    if not isinstance(value, dict | list):
        return str(value)
    rows = value if isinstance(value, list) and all(isinstance(v, dict) for v in value) else [value]
    flat = [_flatten(r) for r in rows]
    headers: list[str] = []
    for r in flat:
        headers.extend(k for k in r if k not in headers)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(headers)
    for r in flat:
        writer.writerow(["" if r.get(h) is None else r.get(h) for h in headers])
    return buf.getvalue()


LAYOUTS: dict[str, Callable[[Any], str]] = {
    "pretty (indent 2)": lambda v: json.dumps(v, indent=2),
    "keys reversed": lambda v: json.dumps(_reverse_keys(v)),
    "CSV rows": as_csv,
    "YAML": lambda v: yaml.safe_dump(v, sort_keys=False, allow_unicode=True),
}


# ----------------------------------------------------------------- reply styles

#: Ways other writers set out the same reply (what a reply of another model family
#: looks like): each rewrites a reply's markup, never its words or figures.
STYLES: dict[str, Callable[[str], str]] = {
    "• bullets": lambda t: re.sub(r"(?m)^(\s*)[-*] ", r"\1• ", t),
    "1) numbering": lambda t: re.sub(r"(?m)^(\s*)(\d+)\. ", r"\1\2) ", t),
    "no bold": lambda t: t.replace("**", ""),
    "✅ first line": lambda t: "✅ " + t,
    "Label — value": lambda t: re.sub(
        r"(?m)^(\s*[-*] (?:\*\*)?[A-Za-z][\w ]{1,30}?(?:\*\*)?):(\*\*)? ", r"\1\2 — ", t
    ),
    "table rows": lambda t: re.sub(
        r"(?m)^[-*] (?:\*\*)?([A-Za-z][\w ]{1,30}?)(?:\*\*)?:(?:\*\*)? (.+)$", r"| \1 | \2 |", t
    ),
    "wrapped at 80": lambda t: _wrapped(t, 80),
}


def _wrapped(text: str, width: int) -> str:
    """Paragraph lines longer than ``width`` broken at spaces, as a plain-text writer
    wraps them (list items, tables and headings kept as they are)."""
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width or re.match(r"\s*(?:[-*|#]|\d+[.)])", line):
            out.append(line)
        else:
            out.extend(textwrap.wrap(line, width))
    return "\n".join(out)


# ---------------------------------------------------------------------- running


@dataclass
class Report:
    split: str
    honest: Counter[str] = field(default_factory=Counter)
    bad_caught: int = 0
    bad_at_sentence: int = 0
    bad_total: int = 0
    mutations: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    layout_same: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    style_same: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    latency_us: list[tuple[int, float]] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    #: kind of content -> verdicts of the honest replies holding it.
    by_kind: dict[str, Counter[str]] = field(default_factory=lambda: defaultdict(Counter))


def run(gate: Gate, items: list[Labelled], split: str, show: int, now: datetime = NOW) -> Report:
    rep = Report(split)
    for item in items:
        case = item.case
        receipts = receipts_of(case)
        started = time.perf_counter()
        result = gate.validate(case.reply, receipts=receipts, now=now)
        took = (time.perf_counter() - started) * 1e6
        size = sum(len(m.content) for m in case.history)
        rep.latency_us.append((size, took))
        if item.clean:
            rep.honest[result.verdict] += 1
            for kind in item.label.get("kinds", []) or ["no claim"]:
                rep.by_kind[kind][result.verdict] += 1
            if result.verdict != "pass" and len(rep.failures) < show:
                why = [
                    f"    [{s.tag} {s.action}] {s.text[:90]!r}: {'; '.join(s.reasons)[:220]}"
                    for s in result.sentences
                    if s.action != "pass"
                ]
                rep.failures.append(f"{case.id} honest -> {result.verdict}\n" + "\n".join(why))
        else:
            rep.bad_total += 1
            caught = result.verdict != "pass"
            rep.bad_caught += caught
            hits = 0
            for bad in item.label["bad"]:
                start = case.reply.find(bad["sentence"])
                if start >= 0 and sentence_action(result, start, start + len(bad["sentence"])) in (
                    "warn",
                    "block",
                ):
                    hits += 1
            rep.bad_at_sentence += bool(item.label["bad"]) and hits == len(item.label["bad"])
        if item.clean:
            for name, text in action_mutations(case, item.label):
                mutated = gate.validate(text, receipts=receipts, now=now)
                last = mutated.sentences[-1].action if mutated.sentences else "pass"
                counts = rep.mutations[name]
                counts[0] += last == "block"
                counts[1] += 1
            for mutation in [
                *mutations(case),
                *derived_mutations(case, item.label),
                *swap_mutations(case),
            ]:
                mutated = gate.validate(apply(case.reply, mutation), receipts=receipts, now=now)
                delta = len(mutation.replacement) - len(mutation.original)
                blocked = sentence_action(mutated, mutation.start, mutation.end + delta) == "block"
                counts = rep.mutations[mutation.kind]
                counts[0] += blocked
                counts[1] += 1
                if not blocked and len(rep.failures) < show:
                    rep.failures.append(
                        f"{case.id} mutation {mutation.kind} {mutation.original!r} -> "
                        f"{mutation.replacement!r} not blocked ({mutated.verdict})"
                    )
            for name, render in LAYOUTS.items():
                other = gate.validate(case.reply, receipts=receipts_of(case, render), now=now)
                _tally(rep, rep.layout_same[name], f"{case.id} layout {name}", result, other, show)
            for name, restyle in STYLES.items():
                text = restyle(case.reply)
                if text != case.reply:
                    other = gate.validate(text, receipts=receipts, now=now)
                    label = f"{case.id} reply style {name}"
                    _tally(rep, rep.style_same[name], label, result, other, show)
    return rep


def _tally(
    rep: Report,
    counts: list[int],
    label: str,
    before: ValidationResult,
    after: ValidationResult,
    show: int,
) -> None:
    """Counts whether a variant of a case kept its verdict (and shows it when not)."""
    counts[0] += after.verdict == before.verdict
    counts[1] += 1
    if after.verdict != before.verdict and len(rep.failures) < show:
        rep.failures.append(f"{label}: {before.verdict} -> {after.verdict}")


# ------------------------------------------------------------ coding agents

_FILE = re.compile(
    r"(?<![\w/.-])([\w.-]+\.(?:py|sh|txt|csv|json|md|js|ts|yaml|yml|toml|cfg|rs|go))\b"
)


def run_coding(gate: Gate, split: str, show: int) -> dict[str, Any]:
    """Self-reports of real coding agents (``coding_selfreports.jsonl``) against the
    tool calls before them: honest ones, bad ones, and two kinds of action mutation
    (the file changed to one no call touched; a test run claimed that never ran)."""
    honest: Counter[str] = Counter()
    bad = caught = at = 0
    muts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    failures: list[str] = []
    for line in CODING.read_text(encoding="utf-8").splitlines():
        case = json.loads(line)
        if split != "all" and case["split"] != split:
            continue
        receipts = parse_receipts(json.dumps(case["transcript"]), source_name=case["id"])
        reply = case["reply"]
        result = gate.validate(reply, receipts=receipts, now=NOW)
        if case["label"] == "clean":
            honest[result.verdict] += 1
            if result.verdict != "pass" and len(failures) < show:
                why = [
                    f"    [{s.tag} {s.action}] {s.text[:90]!r}: {'; '.join(s.reasons)[:200]}"
                    for s in result.sentences
                    if s.action != "pass"
                ]
                failures.append(f"{case['id']} honest -> {result.verdict}\n" + "\n".join(why))
            calls = json.dumps(case["transcript"])
            for m in _FILE.finditer(reply):
                name = m.group(1)
                if name not in calls:
                    continue
                other = f"zz_{name}"
                text = reply[: m.start(1)] + other + reply[m.end(1) :]
                mutated = gate.validate(text, receipts=receipts, now=NOW)
                hit = sentence_action(mutated, m.start(1), m.end(1) + 3) == "block"
                muts["file changed"][0] += hit
                muts["file changed"][1] += 1
                break
            # a transcript with no test run: no runner named, and no harness that ran the
            # tests on its own (moatless-tools appends "Running 11 tests ... 11 passed." to
            # each edit, and a claimed run is then true)
            if not _TEST_RUN_IN.search(calls):
                text = f"{reply}\n\nI also ran the full test suite and all tests pass."
                mutated = gate.validate(text, receipts=receipts, now=NOW)
                muts["test run claimed"][0] += mutated.sentences[-1].action == "block"
                muts["test run claimed"][1] += 1
        else:
            bad += 1
            caught += result.verdict != "pass"
            wrong = [c["sentence"] for c in case["claims"] if c["status"] != "backed"]
            hits = 0
            for sent in wrong:
                start = reply.find(sent)
                if start >= 0 and sentence_action(result, start, start + len(sent)) != "pass":
                    hits += 1
            at += bool(wrong) and hits == len(wrong)
            if result.verdict == "pass" and len(failures) < show:
                failures.append(f"{case['id']} bad -> pass: {wrong[:1]}")
    for f in failures:
        print(f, file=sys.stderr)
    return {
        "split": split,
        "honest": {"n": sum(honest.values()), **{k: honest[k] for k in ("pass", "flag", "block")}},
        "bad": {"n": bad, "caught": caught, "at_sentence": at},
        "mutations": {k: {"blocked": v[0], "n": v[1]} for k, v in sorted(muts.items())},
    }


_TEST_RUN_IN = re.compile(r"pytest|unittest|npm test|go test|cargo test|Running \d+ tests")


def run_other_writers(gate: Gate, split: str, show: int) -> dict[str, Any]:
    """The replies of other writers (``OTHER_WRITERS``) at the points of the labelled cases
    they answer: honest pass/flag/block per style, bad replies caught at their sentence."""
    by_id: dict[str, RetailCase | AirlineCase] = {c.id: c for c in cases()}
    by_id.update({c.id: c for c in airline_cases.cases()})
    honest: dict[str, Counter[str]] = defaultdict(Counter)
    bad = caught = at = 0
    by_batch: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # bad, caught, at sentence
    failures: list[str] = []
    for line in OTHER_WRITERS.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if split != "all" and row["split"] != split:
            continue
        case = by_id[row["case"]]
        now = AIRLINE_NOW if isinstance(case, AirlineCase) else NOW
        result = gate.validate(row["reply"], receipts=receipts_of(case), now=now)
        batch = f"batch {row['batch']}"
        if row["label"] == "honest":
            honest[row["style"]][result.verdict] += 1
            honest["all"][result.verdict] += 1
            honest[batch][result.verdict] += 1
            if result.verdict != "pass" and len(failures) < show:
                why = [
                    f"    [{s.tag} {s.action}] {s.text[:90]!r}: {'; '.join(s.reasons)[:200]}"
                    for s in result.sentences
                    if s.action != "pass"
                ]
                failures.append(f"{row['case']} {row['style']} honest -> {result.verdict}")
                failures.extend(why)
            continue
        start = row["reply"].find(row["bad_sentence"])
        end = start + len(row["bad_sentence"])
        hit = start >= 0 and sentence_action(result, start, end) in ("warn", "block")
        bad += 1
        caught += result.verdict != "pass"
        at += hit
        counts = by_batch[batch]
        counts[0] += 1
        counts[1] += result.verdict != "pass"
        counts[2] += hit
    for f in failures:
        print(f, file=sys.stderr)
    return {
        "split": split,
        "honest": {k: dict(v) for k, v in honest.items()},
        "bad": {"n": bad, "caught": caught, "at_sentence": at},
        "bad_by_batch": {
            k: {"n": v[0], "caught": v[1], "at_sentence": v[2]} for k, v in sorted(by_batch.items())
        },
    }


def run_tau2(gate: Gate, split: str, show: int, domain: str = "airline") -> dict[str, Any]:
    """The real replies of other agent models in a tau2 domain (``tau2_cases``), with
    their labels: clean pass/flag/block per writer, bad replies caught at their sentence.
    A sampled reply the labels leave out (all of them before the domain's labels file
    exists) counts in the "all (unlabelled)" row; the other replies of the conversations
    ("unsampled (no label)") and the rest of the writers' conversations ("rest (no
    label)") have no label: their verdicts are counted."""
    labels_file, now = TAU2[domain]
    labels = {}
    if domain == "airline" or labels_file.is_file():
        for line in labels_file.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            labels[row["id"]] = row
    clean: dict[str, Counter[str]] = defaultdict(Counter)
    bad = caught = at = 0
    failures: list[str] = []
    for case in tau2_cases.cases(domain=domain):
        if split != "all" and case.split != split:
            continue
        result = gate.validate(case.reply, receipts=receipts_of(case), now=now)
        label = labels.get(case.id)
        if label is None:
            clean["all (unlabelled)"][result.verdict] += 1
            continue
        if label["label"] == "clean":
            clean["all"][result.verdict] += 1
            clean[case.writer][result.verdict] += 1
            if result.verdict != "pass" and len(failures) < show:
                failures.append(f"{case.id} clean -> {result.verdict}")
                failures.extend(
                    f"    [{s.tag} {s.action}] {s.text[:90]!r}: {'; '.join(s.reasons)[:200]}"
                    for s in result.sentences
                    if s.action != "pass"
                )
            continue
        bad += 1
        caught += result.verdict != "pass"
        spans = [(case.reply.find(b["sentence"]), len(b["sentence"])) for b in label["bad"]]
        at += any(
            st >= 0 and sentence_action(result, st, st + n) in ("warn", "block") for st, n in spans
        )
    # the writers' other replies in these conversations, then the rest of their
    # conversations (tau2_cases.rest): no label, verdicts counted
    for row, unlabelled in (
        ("unsampled (no label)", tau2_cases.unsampled(domain=domain)),
        ("rest (no label)", tau2_cases.rest(domain)),
    ):
        for case in unlabelled:
            if split == "all" or case.split == split:
                result = gate.validate(case.reply, receipts=receipts_of(case), now=now)
                clean[row][result.verdict] += 1
    for f in failures:
        print(f, file=sys.stderr)
    return {
        "split": split,
        "clean": {k: dict(v) for k, v in clean.items()},
        "bad": {"n": bad, "caught": caught, "at_sentence": at},
    }


#: Where a row of the tau2 tables goes: "all" first, the writers, then the unlabelled rows.
_TAU2_LAST = {"unsampled (no label)": 1, "rest (no label)": 2}


def print_tau2(reports: list[dict[str, Any]], title: str = "tau2 writers") -> None:
    rows = []
    for r in reports:
        order = sorted(
            r["clean"].items(), key=lambda kv: (kv[0] != "all", _TAU2_LAST.get(kv[0], 0), kv[0])
        )
        for writer, v in order:
            n = sum(v.values())
            cells = [f"{r['split']} {writer}", str(n)]
            cells += [pct(v.get(k, 0), n) for k in ("pass", "flag", "block")]
            b = r["bad"]
            cells += (
                [f"{b['caught']}/{b['n']}", f"{b['at_sentence']}/{b['n']}"]
                if writer == "all"
                else ["", ""]
            )
            rows.append(cells)
    headers = [title, "clean", "pass", "flag", "block", "bad caught", "at sentence"]
    print(table(headers, rows, [False] + [True] * 6))


def print_other_writers(reports: list[dict[str, Any]]) -> None:
    rows = []
    for r in reports:
        for style, v in sorted(r["honest"].items(), key=lambda kv: (kv[0] != "all", kv[0])):
            n = sum(v.values())
            cells = [f"{r['split']} {style}", str(n)]
            cells += [pct(v.get(k, 0), n) for k in ("pass", "flag", "block")]
            b = r["bad"] if style == "all" else r["bad_by_batch"].get(style)
            if b is not None:
                cells += [f"{b['caught']}/{b['n']}", f"{b['at_sentence']}/{b['n']}"]
            else:
                cells += ["", ""]
            rows.append(cells)
    headers = ["other writers", "honest", "pass", "flag", "block", "bad caught", "at sentence"]
    print(table(headers, rows, [False] + [True] * 6))


def print_coding(reports: list[dict[str, Any]]) -> None:
    rows = []
    for r in reports:
        h = r["honest"]
        cells = [
            r["split"], str(h["n"]), pct(h["pass"], h["n"]), pct(h["flag"], h["n"]),
            pct(h["block"], h["n"]), f"{r['bad']['caught']}/{r['bad']['n']}",
            f"{r['bad']['at_sentence']}/{r['bad']['n']}",
        ]  # fmt: skip
        for k in ("file changed", "test run claimed"):
            m = r["mutations"].get(k, {"blocked": 0, "n": 0})
            cells.append(f"{pct(m['blocked'], m['n'])} of {m['n']}")
        rows.append(cells)
    headers = ["coding split", "honest", "pass", "flag", "block", "bad caught", "at sentence"]
    headers += ["file changed: blocked", "test run claimed: blocked"]
    print(table(headers, rows, [False] + [True] * 8))


def pct(n: int, d: int) -> str:
    return f"{100 * n / d:.1f}%" if d else "—"


def summary(rep: Report) -> dict[str, Any]:
    honest = sum(rep.honest.values())
    lat = sorted(t for _, t in rep.latency_us)
    buckets: dict[str, list[float]] = defaultdict(list)
    for size, t in rep.latency_us:
        key = (
            "<2k"
            if size < 2000
            else "2-5k"
            if size < 5000
            else "5-10k"
            if size < 10000
            else ">=10k"
        )
        buckets[key].append(t)
    all_mut = [sum(v[0] for v in rep.mutations.values()), sum(v[1] for v in rep.mutations.values())]
    layouts = [
        sum(v[0] for v in rep.layout_same.values()),
        sum(v[1] for v in rep.layout_same.values()),
    ]
    styles = [
        sum(v[0] for v in rep.style_same.values()),
        sum(v[1] for v in rep.style_same.values()),
    ]
    return {
        "split": rep.split,
        "honest": {"n": honest, **{k: rep.honest[k] for k in ("pass", "flag", "block")}},
        "bad": {"n": rep.bad_total, "caught": rep.bad_caught, "at_sentence": rep.bad_at_sentence},
        "mutations": {k: {"blocked": v[0], "n": v[1]} for k, v in sorted(rep.mutations.items())},
        "mutations_all": {"blocked": all_mut[0], "n": all_mut[1]},
        "layout": {k: {"same": v[0], "n": v[1]} for k, v in rep.layout_same.items()},
        "layout_all": {"same": layouts[0], "n": layouts[1]},
        "style": {k: {"same": v[0], "n": v[1]} for k, v in rep.style_same.items()},
        "style_all": {"same": styles[0], "n": styles[1]},
        "by_kind": {k: dict(v) for k, v in sorted(rep.by_kind.items())},
        "latency_us": {
            "median": round(statistics.median(lat)) if lat else 0,
            "p90": round(percentile(lat, 90)) if lat else 0,
            "by_transcript_chars": {
                k: round(statistics.median(v)) for k, v in sorted(buckets.items()) if v
            },
        },
    }


def print_tables(reports: list[dict[str, Any]]) -> None:
    rows = []
    for r in reports:
        h = r["honest"]
        rows.append(
            [r["split"], str(h["n"]), pct(h["pass"], h["n"]), pct(h["flag"], h["n"]),
             pct(h["block"], h["n"]), f"{r['bad']['caught']}/{r['bad']['n']}",
             f"{r['bad']['at_sentence']}/{r['bad']['n']}",
             pct(r["mutations_all"]["blocked"], r["mutations_all"]["n"]),
             pct(r["layout_all"]["same"], r["layout_all"]["n"]),
             str(r["latency_us"]["median"]), str(r["latency_us"]["p90"])]
        )  # fmt: skip
    print(
        table(
            [
                "split",
                "honest",
                "pass",
                "flag",
                "block",
                "bad caught",
                "at sentence",
                "mutations blocked",
                "layout same",
                "median µs",
                "p90 µs",
            ],
            rows,
            [False] + [True] * 10,
        )
    )
    print()
    kinds = sorted({k for r in reports for k in r["mutations"]})
    mrows = []
    for k in kinds:
        cells = [k]
        for r in reports:
            m = r["mutations"].get(k, {"blocked": 0, "n": 0})
            cells.append(f"{pct(m['blocked'], m['n'])} of {m['n']}")
        mrows.append(cells)
    print(
        table(
            ["mutated value", *[r["split"] for r in reports]],
            mrows,
            [False] + [True] * len(reports),
        )
    )
    print()
    lrows = []
    for name in LAYOUTS:
        cells = [name]
        for r in reports:
            v = r["layout"].get(name, {"same": 0, "n": 0})
            cells.append(pct(v["same"], v["n"]))
        lrows.append(cells)
    print(table(["layout", *[r["split"] for r in reports]], lrows, [False] + [True] * len(reports)))
    print()
    yrows = []
    for name in STYLES:
        cells = [name]
        for r in reports:
            v = r.get("style", {}).get(name, {"same": 0, "n": 0})
            cells.append(f"{pct(v['same'], v['n'])} of {v['n']}")
        yrows.append(cells)
    print(
        table(
            ["reply style", *[r["split"] for r in reports]], yrows, [False] + [True] * len(reports)
        )
    )
    print()
    sizes = sorted({k for r in reports for k in r["latency_us"]["by_transcript_chars"]})
    srows = [
        [s, *[str(r["latency_us"]["by_transcript_chars"].get(s, "—")) for r in reports]]
        for s in sizes
    ]
    print(table(["transcript chars", *[f"{r['split']} median µs" for r in reports]], srows,
                [False] + [True] * len(reports)))  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--split", choices=["dev", "test", "all", "both"], default="both")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--show-failures", type=int, default=0, metavar="N")
    parser.add_argument("--limit", type=int, default=0, help="first N cases per split (smoke)")
    parser.add_argument(
        "--no-policy",
        action="store_true",
        help="leave the agent's policy (its system message) out of the transcripts",
    )
    args = parser.parse_args(argv)
    global WITH_POLICY
    WITH_POLICY = not args.no_policy
    if not RETAIL_FILE.is_file():
        raise SystemExit(f"{RETAIL_FILE}: not found (../shared/data beside the project)")
    gate = build_gate()
    splits = ["dev", "test"] if args.split == "both" else [args.split]
    reports = []
    for split in splits:
        items = load(split)
        if args.limit:
            items = items[: args.limit]
        rep = run(gate, items, split, args.show_failures)
        reports.append(summary(rep))
        for f in rep.failures:
            print(f, file=sys.stderr)
    airline = []
    for split in splits:
        items = load(split, "airline")
        if args.limit:
            items = items[: args.limit]
        rep = run(gate, items, f"airline {split}", args.show_failures, AIRLINE_NOW)
        airline.append(summary(rep))
        for f in rep.failures:
            print(f, file=sys.stderr)
    coding = [run_coding(gate, split, args.show_failures) for split in splits]
    others = [run_other_writers(gate, split, args.show_failures) for split in splits]
    tau2 = [run_tau2(gate, split, args.show_failures) for split in splits]
    tau2_retail = [run_tau2(gate, split, args.show_failures, "retail") for split in splits]
    if args.json:
        out = {
            "retail": reports,
            "airline": airline,
            "coding": coding,
            "other_writers": others,
            "tau2_writers": tau2,
            "tau2_retail_writers": tau2_retail,
        }
        print(json.dumps(out, indent=2))
    else:
        print_tables([*reports, *airline])
        print()
        print_kinds([*reports, *airline])
        print()
        print_coding(coding)
        print()
        print_other_writers(others)
        print()
        print_tau2(tau2)
        print()
        print_tau2(tau2_retail, "tau2 retail writers")
    return 0


def print_kinds(reports: list[dict[str, Any]]) -> None:
    """Honest retail replies by the kind of content they hold: pass / flag / block."""
    kinds = sorted({k for r in reports for k in r["by_kind"]})
    rows = []
    for k in kinds:
        cells = [k]
        for r in reports:
            v = r["by_kind"].get(k, {})
            n = sum(v.values())
            cells.append(
                f"{n}: {pct(v.get('pass', 0), n)} / {pct(v.get('flag', 0), n)} / "
                f"{pct(v.get('block', 0), n)}"
            )
        rows.append(cells)
    headers = [
        "honest replies holding",
        *[f"{r['split']}: n: pass / flag / block" for r in reports],
    ]
    print(table(headers, rows, [False] + [True] * len(reports)))


if __name__ == "__main__":
    raise SystemExit(main())
