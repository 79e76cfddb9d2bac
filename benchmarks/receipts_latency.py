"""Receipt-matching latency of receiptgate.

Times ``Gate.validate(text, receipts=ledger)`` for business and action claims
of 1, 5, 20 and 100 sentences against 10, 100 and 1,000 receipts (database rows,
tool calls, retrieval spans, memory notes, user messages; a few of them support
the sentences, the rest are realistic noise). The ledger is a ``ReceiptIndex``
built once per session, as a runtime does while receipts arrive; its build is
timed on its own (per receipt), and ``--per-call-index`` times the slow path
where a plain list is passed and indexed inside every call. One thread, pinned
to one CPU where the OS allows it.

Run: ``.venv/bin/python benchmarks/receipts_latency.py [--quick] [--json] [--cpu N | --no-pin]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
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
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import RECEIPT_KINDS, Receipt
from receiptgate.results import ValidationResult

NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)
SENTENCE_COUNTS = (1, 5, 20, 100)
RECEIPT_COUNTS = (10, 100, 1_000)
GOAL_MEDIAN_US = 2_000.0  # SPEC §9: 20 sentences × 1,000 receipts
# Evidence kinds that stand for a receipt (the action ledger is made of tool receipts).
_RECEIPT_EVIDENCE = frozenset({*RECEIPT_KINDS, "ledger"})

# Business and action claims; the supporting receipts below back about half of them.
_SENTENCES: tuple[str, ...] = (
    "Revenue grew 37% to $2.4M in Q4.",
    "I ran the tests and they pass.",
    "The contract renews on March 3, 2026.",
    "Churn fell to 2.1% in February.",
    "I sent the renewal email to dana@acme.example.",
    "ARR is $12.4M as of March 1.",
    "The API returned 200 for /v1/orders.",
    "Acme's contract value is $2,400,000 per year.",
    "I deployed v2.3.1 to staging.",
    "We have 1,480 active accounts.",
    "The notice period is 30 days.",
    "NPS rose to 41 this quarter.",
    "According to the database, 38 deals closed in Q4.",
    "I saved the report to reports/q4.md.",
    "Headcount is 212 employees.",
    "The Globex invoice total is EUR 12,405.",
    "p95 latency dropped to 180 ms after the fix.",
    "The DPA deadline is April 30, 2026.",
    "Let me know if you want the per-region breakdown.",
    "Gross margin was 71.5% in 2025.",
)


def build_text(count: int) -> str:
    """``count`` sentences from the pool, in paragraphs of five."""
    picked = [_SENTENCES[i % len(_SENTENCES)] for i in range(count)]
    return "\n\n".join(" ".join(picked[i : i + 5]) for i in range(0, count, 5))


def _receipt(data: dict[str, Any]) -> Receipt:
    return Receipt.model_validate(data)


def _at(minutes_ago: int) -> datetime:
    return NOW - timedelta(minutes=minutes_ago)


# Receipts that support (or, for the tests, describe) sentences of the pool.
_SUPPORTING: tuple[dict[str, Any], ...] = (
    {
        "id": "crm-q4",
        "kind": "db",
        "source": "finance.revenue_by_quarter",
        "content": "period=2025-Q4 revenue_usd=2400000 growth_qoq=37% deals_closed=38",
    },
    {
        "id": "pytest-1",
        "kind": "tool",
        "tool": "exec",
        "args": {"cmd": "pytest -q", "host": "ci-01"},
        "ok": True,
        "content": "........................................ [100%]\n212 passed in 41.20s",
    },
    {
        "id": "contract-acme",
        "kind": "rag",
        "source": "kb/contracts/acme_msa_2025.pdf#p4",
        "content": "This Agreement renews automatically on March 3, 2026 for a further term of "
        "twelve (12) months unless either party gives thirty (30) days written notice. "
        "The annual contract value is USD 2,400,000.",
    },
    {
        "id": "mail-1",
        "kind": "tool",
        "tool": "send_email",
        "args": {"to": "dana@acme.example", "subject": "Your renewal"},
        "ok": True,
        "content": '{"status": "sent", "message_id": "<r-8812@mail.internal>"}',
    },
    {
        "id": "http-orders",
        "kind": "tool",
        "tool": "http_get",
        "args": {"url": "https://api.internal/v1/orders?limit=1"},
        "ok": True,
        "content": 'HTTP/1.1 200 OK\n{"orders": [{"id": 99121, "total": 129.5}]}',
    },
    {
        "id": "deploy-1",
        "kind": "tool",
        "tool": "deploy",
        "args": {"service": "api", "version": "2.3.1", "env": "staging"},
        "ok": True,
        "content": "deployed api 2.3.1 to staging (3/3 pods ready)",
    },
    {
        "id": "acct-1",
        "kind": "db",
        "source": "analytics.accounts",
        "content": "as_of=2026-03-01 active_accounts=1480 churn_pct_feb=2.1",
    },
    {
        "id": "write-1",
        "kind": "tool",
        "tool": "write_file",
        "args": {"path": "reports/q4.md"},
        "ok": True,
        "content": "wrote 4812 bytes to reports/q4.md",
    },
    {
        "id": "inv-globex",
        "kind": "db",
        "source": "billing.invoices",
        "content": "customer=Globex invoice=INV-2026-031 total_eur=12405.00 status=open",
    },
    {
        "id": "hr-1",
        "kind": "memory",
        "source": "memory/company_facts",
        "content": "Headcount on 2026-03-01: 212 employees across 4 offices.",
    },
)

_ACCOUNTS = ("Acme", "Globex", "Initech", "Northwind", "Umbrella", "Hooli", "Stark", "Wayne")
_HOSTS = ("web-01", "web-02", "db-01", "worker-03", "ci-01")


def _filler(i: int) -> dict[str, Any]:
    """The ``i``-th noise receipt: same shapes and vocabulary, other values."""
    account = _ACCOUNTS[i % len(_ACCOUNTS)]
    base: dict[str, Any]
    match i % 6:
        case 0:
            base = {
                "kind": "db",
                "source": "crm.contracts",
                "content": f"account={account}-{i} contract_value_usd={150_000 + i * 1_037} "
                f"term=12 months signed=2025-{i % 12 + 1:02d}-{i % 27 + 1:02d}",
            }
        case 1:
            base = {
                "kind": "tool",
                "tool": "exec",
                "args": {"cmd": "kubectl get pods -n prod", "host": _HOSTS[i % len(_HOSTS)]},
                "ok": True,
                "content": "NAME                      READY   STATUS    RESTARTS   AGE\n"
                f"api-{i:04d}-7f9c   1/1     Running   {i % 4}          {i % 30 + 1}d\n"
                f"worker-{i:04d}-2k1   1/1     Running   0          {i % 9 + 1}h",
            }
        case 2:
            base = {
                "kind": "rag",
                "source": f"kb/handbook/section_{i}.md",
                "content": f"Section {i}: expense reports above EUR {200 + i % 50 * 10} need a "
                f"manager's approval within {i % 10 + 3} business days. Travel is booked "
                "through the internal portal.",
            }
        case 3:
            base = {
                "kind": "tool",
                "tool": "http_get",
                "args": {"url": f"https://api.internal/v1/metrics/cpu?host={_HOSTS[i % 5]}"},
                "ok": True,
                "content": json.dumps(
                    {"host": _HOSTS[i % 5], "cpu_pct": i % 90 + 5, "mem_mb": 2048 + i}
                ),
            }
        case 4:
            base = {
                "kind": "memory",
                "source": "memory/notes",
                "content": f"{account} asked for a call about seat count ({i % 400 + 20} seats) "
                f"on 2026-02-{i % 27 + 1:02d}.",
            }
        case _:
            base = {
                "kind": "user",
                "source": "chat",
                "content": f"Can you check ticket OPS-{1000 + i} and tell me if the "
                f"{account} import finished?",
            }
    return {"id": f"r{i}", "created_at": _at(5 + i % 600), **base}


def build_receipts(count: int) -> list[Receipt]:
    """``count`` receipts: the supporting ones spread through the noise."""
    supporting = list(_SUPPORTING[: max(1, min(len(_SUPPORTING), count // 2))])
    out = [_filler(i) for i in range(count - len(supporting))]
    step = max(1, len(out) // len(supporting))
    for j, s in enumerate(supporting):
        out.insert(min(len(out), j * (step + 1)), {"created_at": _at(30 + j), **s})
    return [_receipt(r) for r in out]


# ----------------------------------------------------------------------- measuring


def runs_for(sentences: int, receipts: int, quick: bool) -> int:
    """Timed runs per cell: at least 200, more where a call is cheap."""
    if quick:
        return 3 if receipts >= 1_000 else 10
    if receipts >= 1_000:
        return 200
    if receipts >= 100 or sentences >= 100:
        return 500
    return 1_000


def _summary(samples: list[float]) -> dict[str, float]:
    return {
        "median_us": statistics.median(samples),
        "p95_us": percentile(samples, 95),
        "mean_us": statistics.fmean(samples),
    }


def measure_validate(quick: bool, per_call_index: bool = False) -> list[dict[str, Any]]:
    """One row per (sentences, receipts) cell."""
    gate = Gate(GateConfig())
    rows = []
    for receipts_count in RECEIPT_COUNTS:
        receipts = build_receipts(receipts_count)
        ledger: list[Receipt] | ReceiptIndex = (
            receipts if per_call_index else ReceiptIndex(receipts, now=NOW)
        )
        for sentences in SENTENCE_COUNTS:
            text = build_text(sentences)
            runs = runs_for(sentences, receipts_count, quick)

            def call(t: str = text, r: list[Receipt] | ReceiptIndex = ledger) -> ValidationResult:
                return gate.validate(t, now=NOW, receipts=r)

            samples, _ = time_calls(call, runs, warmup=max(2 if quick else 5, runs // 10))
            result = call()
            supported = sum(
                1
                for s in result.sentences
                if any(e.relation == "supports" and e.kind in _RECEIPT_EVIDENCE for e in s.evidence)
            )
            rows.append(
                {
                    "sentences": sentences,
                    "receipts": receipts_count,
                    "chars": len(text),
                    "sentences_segmented": len(result.sentences),
                    "claims": len(result.claims),
                    "sentences_supported_by_receipts": supported,
                    "verdict": result.verdict,
                    "tags": [s.tag for s in result.sentences],
                    "notes": list(result.notes),
                    "runs": runs,
                    **_summary(samples),
                }
            )
    return rows


def measure_index(quick: bool) -> list[dict[str, Any]]:
    """Time ``ReceiptIndex(receipts, now=...)`` alone, one row per receipt count."""
    rows = []
    for receipts_count in RECEIPT_COUNTS:
        receipts = build_receipts(receipts_count)
        if quick:
            runs = 3 if receipts_count >= 1_000 else 10
        else:
            runs = {10: 1_000, 100: 500}.get(receipts_count, 200)

        def build(r: list[Receipt] = receipts) -> ReceiptIndex:
            return ReceiptIndex(r, now=NOW)

        samples, _ = time_calls(build, runs, warmup=max(2 if quick else 5, runs // 10))
        index = ReceiptIndex(receipts, now=NOW)
        rows.append(
            {
                "receipts": receipts_count,
                "indexed_values": sum(len(r.leaves) for e in index.entries for r in e.records),
                "runs": runs,
                **_summary(samples),
            }
        )
    return rows


# ------------------------------------------------------------------------ reporting


def render(
    env: dict[str, Any], rows: list[dict[str, Any]], index: list[dict[str, Any]], quick: bool
) -> str:
    """The plain-text report."""
    out = [
        "receiptgate receipt-matching latency" + (" (--quick)" if quick else ""),
        environment_line(env),
        f"receiptgate {env['receiptgate']} · default GateConfig, no fact registry · "
        f"now={NOW.isoformat()} · wall-clock µs per validate() call · "
        + (
            "receipts passed as a list: indexed inside every call"
            if env.get("per_call_index")
            else "receipts passed as a session ReceiptIndex built once (build timed below)"
        ),
        "",
    ]
    cells = [
        [
            str(r["sentences"]),
            f"{r['receipts']:,}",
            f"{r['chars']:,}",
            str(r["claims"]),
            f"{r['sentences_supported_by_receipts']}/{r['sentences_segmented']}",
            r["verdict"],
            f"{r['runs']:,}",
            f"{r['median_us']:,.1f}",
            f"{r['p95_us']:,.1f}",
        ]
        for r in rows
    ]
    out.append(
        table(
            [
                "sentences",
                "receipts",
                "chars",
                "claims",
                "supported",
                "verdict",
                "runs",
                "median µs",
                "p95 µs",
            ],
            cells,
            [True, True, True, True, True, False, True, True, True],
        )
    )
    out.append(
        "supported = sentences with a receipt (or the action ledger) among their supporting "
        "evidence / sentences found; claims = claims checked (maxClaimsPerOutput caps them)"
    )
    for note in sorted({n for r in rows for n in r["notes"]}):
        out.append(f"gate note seen: {note}")
    goal = next((r for r in rows if r["sentences"] == 20 and r["receipts"] == 1_000), None)
    if goal is not None:
        met = "met" if goal["median_us"] < GOAL_MEDIAN_US else "NOT met"
        out.append(
            f"SPEC §9 goal: 20 sentences × 1,000 receipts median < {GOAL_MEDIAN_US:,.0f} µs "
            f"-> {goal['median_us']:,.1f} µs ({met})"
        )
    out += ["", "ReceiptIndex build alone (once per session, or per call with a plain list)", ""]
    out.append(
        table(
            ["receipts", "indexed values", "runs", "median µs", "p95 µs"],
            [
                [
                    f"{r['receipts']:,}",
                    f"{r['indexed_values']:,}",
                    f"{r['runs']:,}",
                    f"{r['median_us']:,.1f}",
                    f"{r['p95_us']:,.1f}",
                ]
                for r in index
            ],
            [True] * 5,
        )
    )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print the tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_timing_options(parser)
    parser.add_argument(
        "--per-call-index",
        action="store_true",
        help="pass receipts as a plain list, indexed inside every validate() call",
    )
    args = parser.parse_args(argv)

    started = time.perf_counter()
    env = pinned_environment(args)
    env["per_call_index"] = args.per_call_index
    rows = measure_validate(args.quick, args.per_call_index)
    index = measure_index(args.quick)
    elapsed = time.perf_counter() - started
    if args.json:
        payload = {
            "benchmark": "receipts_latency",
            "quick": args.quick,
            "environment": env,
            "now": NOW.isoformat(),
            "validate": rows,
            "receipt_index": index,
            "goals": {"median_us_20s_1000r": GOAL_MEDIAN_US},
            "elapsed_s": round(elapsed, 1),
        }
        print(json.dumps(payload, indent=2))
    else:
        print(render(env, rows, index, args.quick))
        print(f"\nran in {elapsed:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
