"""Helpers shared by the benchmark scripts: timing, CPU pinning, environment, tables.

Importing this module also makes ``receiptgate`` importable from the source tree
(``src/``) when the package is not installed, so a script imports it before
anything from ``receiptgate``.
"""

from __future__ import annotations

import argparse
import gc
import importlib.util
import math
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
if importlib.util.find_spec("receiptgate") is None:  # not installed: use the source tree
    sys.path.insert(0, str(ROOT / "src"))

T = TypeVar("T")

# ----------------------------------------------------------------------- measuring


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of already sorted values."""
    rank = max(1, math.ceil(q / 100 * len(sorted_values)))
    return sorted_values[rank - 1]


def time_calls(
    call: Callable[[], T], runs: int, warmup: int, hit: Callable[[T], bool] | None = None
) -> tuple[list[float], int]:
    """Run ``call`` ``warmup`` times untimed, then ``runs`` times timed.

    Returns:
        µs per call (sorted) and how many timed calls' results ``hit`` is true for
        (0 without ``hit``; it runs outside the timed part).
    """
    for _ in range(warmup):
        call()
    gc.collect()
    samples: list[float] = []
    hits = 0
    clock = time.perf_counter_ns
    for _ in range(runs):
        t0 = clock()
        result = call()
        samples.append((clock() - t0) / 1000)
        if hit is not None:
            hits += hit(result)
    samples.sort()
    return samples, hits


# ---------------------------------------------------------------------- environment


def add_timing_options(parser: argparse.ArgumentParser) -> None:
    """The options every latency script takes: ``--quick``, ``--json``, ``--cpu``, ``--no-pin``."""
    parser.add_argument("--quick", action="store_true", help="few runs, for CI smoke tests")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    parser.add_argument("--cpu", type=int, help="CPU to pin to (default: the last allowed one)")
    parser.add_argument(
        "--no-pin", action="store_true", help="do not pin (the default with --quick)"
    )


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo (or what ``platform`` knows)."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def pin_to_one_cpu(cpu: int | None, enabled: bool) -> str:
    """Pin this process to one CPU (default: the last allowed one) so timings stay on one core."""
    if not enabled:
        return "not pinned"
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity)"
    if cpu is None:
        cpu = max(os.sched_getaffinity(0))
    try:
        os.sched_setaffinity(0, {cpu})
    except OSError as exc:
        return f"not pinned (CPU {cpu}: {exc.strerror})"
    return f"pinned to CPU {cpu}"


def environment(pinned: str) -> dict[str, Any]:
    """What the numbers were measured on."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        rg_version = version("receiptgate")
    except PackageNotFoundError:
        rg_version = "source tree"
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "cpu": cpu_model(),
        "cpus_online": os.cpu_count(),
        "pinning": pinned,
        "threads": 1,
        "platform": platform.platform(),
        "receiptgate": rg_version,
    }


def pinned_environment(args: argparse.Namespace) -> dict[str, Any]:
    """Pin as the timing options ask (not with ``--quick`` unless ``--cpu``); the environment."""
    pin = not args.no_pin and (args.cpu is not None or not args.quick)
    return environment(pin_to_one_cpu(args.cpu, pin))


def environment_line(env: dict[str, Any]) -> str:
    """The report's line naming Python, the CPU and the pinning."""
    return (
        f"Python {env['python']} ({env['implementation']}) · CPU: {env['cpu']} · "
        f"{env['cpus_online']} CPUs online, single thread, {env['pinning']}"
    )


# ------------------------------------------------------------------------ reporting


def table(headers: Sequence[str], rows: Sequence[Sequence[str]], right: Sequence[bool]) -> str:
    """An aligned, markdown-compatible table."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]

    def line(cells: Sequence[str]) -> str:
        padded = (
            c.rjust(w) if r else c.ljust(w) for c, w, r in zip(cells, widths, right, strict=True)
        )
        return "| " + " | ".join(padded) + " |"

    rule = "|".join(
        ("-" * (w + 1) + ":") if r else "-" * (w + 2) for w, r in zip(widths, right, strict=True)
    )
    return "\n".join([line(headers), f"|{rule}|", *(line(r) for r in rows)])
