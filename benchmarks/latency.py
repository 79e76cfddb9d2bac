"""Deterministic pipeline latency and fact-registry memory of receiptgate.

Times ``Gate.validate`` (no receipts) on agent prose of 200, 2,000 and 10,000
characters against fact registries of 0, 100 and 1,000 facts, and measures with
``tracemalloc`` the memory a loaded engine holds for 100 and 10,000 facts.
Everything runs in one thread of one process, pinned to one CPU where the OS
allows it.

Run: ``.venv/bin/python benchmarks/latency.py [--quick] [--json] [--cpu N | --no-pin]``
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
import tracemalloc
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# _common sits beside this script, also when the smoke tests load it by path; it is
# imported before receiptgate, which it finds in src/ when the package is not installed.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import (
    add_timing_options,
    environment_line,
    percentile,
    pinned_environment,
    table,
    time_calls,
)
from receiptgate.config import GateConfig
from receiptgate.engine import Gate
from receiptgate.evidence.facts import FactRegistry, load_registry
from receiptgate.results import ValidationResult

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)
TEXT_SIZES = (200, 2_000, 10_000)
FACT_COUNTS = (0, 100, 1_000)
MEMORY_FACT_COUNTS = (100, 10_000)

# SPEC §9 goals, printed next to the numbers they concern.
GOAL_MEDIAN_US = 250.0  # 2,000 chars, 1,000 facts
GOAL_MEMORY_BYTES = 200 * 1024  # 100 facts, steady state

# Agent prose: claims that registries answer (some confirm, some contradict),
# claims no registry knows, numbers, hedges and plain sentences. ``{k}`` and
# ``{n}`` vary per repetition so that long texts are not one sentence copied.
_SENTENCES: tuple[str, ...] = (
    "nginx is running on web-{k}.",
    "Node.js is not installed on the build host.",
    "The user's name is Iulia.",
    "I checked the logs and found {n} errors in the last hour.",
    "Docker is installed and the daemon is active.",
    "svc-{k} is stopped.",
    "The gateway is operational.",
    "Revenue grew 37% to $2.4M in Q4.",
    "The nats-events count is 255,908.",
    "Let me know if you want me to restart the worker.",
    "Redis is degraded since 09:40 UTC.",
    "I think the migration should probably wait until next week.",
    "PostgreSQL is not running.",
    "The deployment finished in {n} minutes.",
    "Web browsing is not supported by this agent.",
    "service-{k} is down.",
    "Here is a short summary of what changed.",
    "CPU usage is at 85%.",
    "host-{k} does not exist.",
    "The queue-{k} count is {n}.",
    "The governance plugin exists and is deployed.",
)
_BULLETS_EVERY = 4  # every fourth paragraph is a bullet list


def build_text(size: int) -> str:
    """Agent prose of exactly ``size`` characters, the same on every run."""
    parts: list[str] = []
    length = 0
    k = 0
    paragraph = 0
    while length < size:
        sentences = []
        for j in range(4):
            template = _SENTENCES[(k * 5) % len(_SENTENCES)]  # 5 is coprime to 21
            sentences.append(template.format(k=(k * 37 + j) % 1000, n=(k * 13 + j) % 97 + 2))
            k += 1
        if paragraph % _BULLETS_EVERY == _BULLETS_EVERY - 1:
            block = "\n".join(f"- {s}" for s in sentences)
        else:
            block = " ".join(sentences)
        parts.append(block)
        length += len(block) + 2
        paragraph += 1
    return "\n\n".join(parts)[:size]


# Facts the sentences above ask about: they are in every non-empty registry.
_CORE_FACTS: tuple[dict[str, Any], ...] = (
    {"subject": "nginx", "predicate": "state", "value": "running"},
    {
        "id": "node-installed",
        "category": "system_state",
        "subject": "(node|node.js|nodejs)",
        "subjectIsRegex": True,
        "value": {"type": "state", "state": "installed"},
    },
    {
        "id": "owner-name",
        "category": "entity_name",
        "subject": "(user|owner|boss|creator|albert)",
        "subjectIsRegex": True,
        "value": {"type": "name", "correctName": "Albert", "aliases": ["Albert Hild"]},
    },
    {
        "id": "partner-name",
        "category": "entity_name",
        "subject": "(irina|iulia|partner)",
        "subjectIsRegex": True,
        "value": {"type": "name", "correctName": "Irina"},
    },
    {"subject": "docker", "predicate": "state", "value": "installed"},
    {
        "id": "governance-plugin",
        "category": "existence",
        "subject": "governance plugin",
        "value": {"type": "exists", "exists": True},
    },
    {"subject": "gateway", "predicate": "status", "value": "operational"},
    {"subject": "redis", "predicate": "status", "value": "degraded"},
    {"subject": "postgresql", "predicate": "state", "value": "running"},
    {"subject": "nats-events", "predicate": "count", "value": "255908"},
    {"subject": "cpu", "predicate": "percentage", "value": "85%"},
    {"subject": "web browsing", "predicate": "supported", "value": "false"},
)


def _filler_fact(i: int) -> dict[str, Any]:
    """The ``i``-th generated fact: typed and triple facts in turn, 5% regex subjects."""
    regex = i % 20 == 19
    kind = i % 4
    if kind == 0:
        subject = f"(svc|service)-{i}" if regex else f"svc-{i}"
        return {
            "subject": subject,
            "subjectIsRegex": regex,
            "predicate": "state",
            "value": "running" if i % 3 else "stopped",
        }
    if kind == 1:
        subject = f"service-{i}(-[a-z]+)?" if regex else f"service-{i}"
        return {
            "id": f"status-{i}",
            "category": "operational_status",
            "subject": subject,
            "subjectIsRegex": regex,
            "value": {"type": "status", "status": ("operational", "degraded", "down")[i % 3]},
        }
    if kind == 2:
        subject = f"queue-{i}|q-{i}" if regex else f"queue-{i}"
        return {
            "subject": subject,
            "subjectIsRegex": regex,
            "predicate": "count",
            "value": str(i * 13),
        }
    subject = f"(host|node)-{i}" if regex else f"host-{i}"
    return {
        "id": f"host-{i}",
        "category": "existence",
        "subject": subject,
        "subjectIsRegex": regex,
        "value": {"type": "exists", "exists": i % 5 != 0},
    }


def raw_facts(count: int) -> list[dict[str, Any]]:
    """``count`` raw facts: the core facts first, then generated ones."""
    core = list(_CORE_FACTS[:count])
    return core + [_filler_fact(i) for i in range(count - len(core))]


def registries(count: int) -> list[FactRegistry]:
    """Zero or one loaded registry holding ``count`` facts."""
    if count == 0:
        return []
    return [load_registry({"id": f"bench-{count}", "facts": raw_facts(count)})]


# ----------------------------------------------------------------------- measuring


def runs_for(size: int, quick: bool) -> int:
    """Timed runs per cell: 1,000 (300 for 10,000 characters); 100/30 with ``--quick``."""
    if quick:
        return 30 if size >= 10_000 else 100
    return 300 if size >= 10_000 else 1_000


def _hit_deadline(result: ValidationResult) -> bool:
    """Whether a call stopped at the ``maxEvalUs`` deadline."""
    return any(n.startswith("maxEvalUs") for n in result.notes)


def measure_latency(quick: bool) -> list[dict[str, Any]]:
    """One row per (text size, fact count) cell."""
    rows: list[dict[str, Any]] = []
    texts = {size: build_text(size) for size in TEXT_SIZES}
    for facts in FACT_COUNTS:
        loaded = registries(facts)
        for size in TEXT_SIZES:
            text = texts[size]
            # A fresh gate per cell, so the first call pays for the lazy fact index.
            gate = Gate(GateConfig(), registries=loaded)
            t0 = time.perf_counter_ns()
            cold = gate.validate(text, now=NOW)
            cold_us = (time.perf_counter_ns() - t0) / 1000
            runs = runs_for(size, quick)

            def call(g: Gate = gate, t: str = text) -> ValidationResult:
                return g.validate(t, now=NOW)

            samples, deadline_hits = time_calls(
                call, runs, warmup=max(10, runs // 10), hit=_hit_deadline
            )
            warm = gate.validate(text, now=NOW)
            rows.append(
                {
                    "chars": size,
                    "facts": facts,
                    "sentences": len(warm.sentences),
                    "claims": len(warm.claims),
                    "fact_checks": len(warm.fact_checks),
                    "verdict": warm.verdict,
                    "notes": list(warm.notes),
                    "runs": runs,
                    "deadline_hits": deadline_hits,
                    "median_us": statistics.median(samples),
                    "p99_us": percentile(samples, 99),
                    "mean_us": statistics.fmean(samples),
                    "first_call_us": cold_us,
                    "first_call_claims": len(cold.claims),
                    "first_call_verdict": cold.verdict,
                    "first_call_notes": list(cold.notes),
                }
            )
    return rows


_WARM_FACTS: list[dict[str, Any]] = [
    {"subject": "warm-1", "predicate": "state", "value": "running"},
    {"subject": "(warm|tepid)-2", "subjectIsRegex": True, "predicate": "count", "value": "3"},
    {
        "id": "warm-3",
        "category": "existence",
        "subject": "warm-3",
        "value": {"type": "exists", "exists": True},
    },
]


def measure_memory() -> list[dict[str, Any]]:
    """Bytes a loaded engine with N facts holds beyond one with 0 facts, and its gross peak."""
    # Import-time and first-use allocations (RE2 set, caches created) are not the
    # engine's: warm them with facts whose subjects the measured registries never use.
    Gate(GateConfig()).validate("nginx is running.", now=NOW)
    Gate(GateConfig(), registries=[load_registry({"id": "warm", "facts": _WARM_FACTS})]).validate(
        "warm-1 is running.", now=NOW
    )

    def traced(count: int) -> tuple[int, int, int]:
        raw = raw_facts(count)  # the input dicts are not the engine's
        gc.collect()
        tracemalloc.start()
        try:
            loaded = [load_registry({"id": f"bench-{count}", "facts": raw})] if count else []
            gc.collect()
            registry = tracemalloc.get_traced_memory()[0]
            gate = Gate(GateConfig(), registries=loaded)
            del loaded
            gate.validate("nginx is running.", now=NOW)
            gc.collect()
            current, peak = tracemalloc.get_traced_memory()
            del gate
        finally:
            tracemalloc.stop()
        return current, registry, peak

    base_retained, base_registry, _ = traced(0)
    rows = []
    for count in MEMORY_FACT_COUNTS:
        retained, registry, peak = traced(count)
        rows.append(
            {
                "facts": count,
                "retained_bytes": retained - base_retained,
                "registry_bytes": registry - base_registry,
                "index_and_gate_bytes": (retained - base_retained) - (registry - base_registry),
                "peak_bytes": peak,
                "baseline_retained_bytes": base_retained,
                "peak_is_gross": True,
            }
        )
    return rows


# ------------------------------------------------------------------------ reporting


def _kb(n: int) -> str:
    return f"{n / 1024:,.1f}"


def render(
    env: dict[str, Any], latency: list[dict[str, Any]], memory: list[dict[str, Any]], quick: bool
) -> str:
    """The plain-text report."""
    out = [
        "receiptgate deterministic pipeline latency" + (" (--quick)" if quick else ""),
        environment_line(env),
        f"receiptgate {env['receiptgate']} · default GateConfig, no receipts · "
        f"now={NOW.isoformat()} · times are wall-clock µs per validate() call",
        "",
    ]
    rows = [
        [
            f"{r['chars']:,}",
            f"{r['facts']:,}",
            str(r["sentences"]),
            str(r["claims"]),
            r["verdict"],
            f"{r['runs']:,}",
            f"{r['median_us']:,.1f}",
            f"{r['p99_us']:,.1f}",
            f"{r['deadline_hits']}/{r['runs']}",
            f"{r['first_call_us']:,.0f} ({r['first_call_claims']} claims)"
            + ("*" if any(n.startswith("maxEvalUs") for n in r["first_call_notes"]) else ""),
        ]
        for r in latency
    ]
    out.append(
        table(
            [
                "chars",
                "facts",
                "sentences",
                "claims",
                "verdict",
                "runs",
                "median µs",
                "p99 µs",
                "hit maxEvalUs",
                "first call µs",
            ],
            rows,
            [True, True, True, True, False, True, True, True, True, True],
        )
    )
    out.append(
        "claims = claims checked after warm-up (maxClaimsPerOutput caps them); hit maxEvalUs = "
        f"timed runs that stopped at the {GateConfig().performance.max_eval_us:,} µs budget; "
        "first call = a fresh Gate's first "
        "validate(), which also builds the fact index (* = it hit maxEvalUs and checked fewer "
        "claims)"
    )
    notes = sorted({n for r in latency for n in r["notes"] + r["first_call_notes"]})
    for note in notes:
        out.append(f"gate note seen: {note}")
    goal = next((r for r in latency if r["chars"] == 2_000 and r["facts"] == 1_000), None)
    if goal is not None:
        met = "met" if goal["median_us"] < GOAL_MEDIAN_US else "NOT met"
        out.append(
            f"SPEC §9 goal: 2,000 chars × 1,000 facts median < {GOAL_MEDIAN_US:.0f} µs "
            f"-> {goal['median_us']:,.1f} µs ({met})"
        )
    out += [
        "",
        "Memory of a loaded engine (tracemalloc; registry parsed + Gate built + fact index "
        "built; global lookup caches included), minus the same engine with 0 facts",
        "",
    ]
    mem_rows = [
        [
            f"{r['facts']:,}",
            _kb(r["retained_bytes"]),
            f"{r['retained_bytes'] / r['facts']:,.0f}",
            _kb(r["registry_bytes"]),
            _kb(r["index_and_gate_bytes"]),
            _kb(r["peak_bytes"]),
        ]
        for r in memory
    ]
    out.append(
        table(
            [
                "facts",
                "retained KiB",
                "bytes/fact",
                "parsed facts KiB",
                "index + gate KiB",
                "gross peak KiB",
            ],
            mem_rows,
            [True] * 6,
        )
    )
    if memory:
        out.append(
            f"baseline engine with 0 facts retains {_kb(memory[0]['baseline_retained_bytes'])} KiB"
        )
    hundred = next((r for r in memory if r["facts"] == 100), None)
    if hundred is not None:
        met = "met" if hundred["retained_bytes"] < GOAL_MEMORY_BYTES else "NOT met"
        out.append(
            f"SPEC §9 goal: steady-state memory with 100 facts < 200 KB "
            f"-> {_kb(hundred['retained_bytes'])} KiB ({met})"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser)
    args = parser.parse_args(argv)

    started = time.perf_counter()
    env = pinned_environment(args)
    latency = measure_latency(args.quick)
    memory = measure_memory()
    elapsed = time.perf_counter() - started
    if args.json:
        print(
            json.dumps(
                {
                    "benchmark": "latency",
                    "quick": args.quick,
                    "environment": env,
                    "now": NOW.isoformat(),
                    "latency": latency,
                    "memory": memory,
                    "goals": {
                        "median_us_2000c_1000f": GOAL_MEDIAN_US,
                        "memory_bytes_100f": GOAL_MEMORY_BYTES,
                    },
                    "elapsed_s": round(elapsed, 1),
                },
                indent=2,
            )
        )
    else:
        print(render(env, latency, memory, args.quick))
        print(f"\nran in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
