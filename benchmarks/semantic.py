"""The semantic (embedding) stage: threshold calibration, latency on 2 cores, HaluEval effect.

(a) Calibration: cosine of short sentence/receipt pairs written for this benchmark
(operational receipts, labelled "supports" or not by hand) and the accuracy of
each threshold; the default ``threshold`` of ``SemanticConfig`` comes from it.

(b) Latency per sentence on 2 cores (the process is pinned to 2 CPUs and
onnxruntime uses 2 threads): embedding one uncached sentence, a batch of 32
(per sentence), and the whole ``SemanticChecker.check`` of one sentence against
a HaluEval knowledge receipt (receipt passages cached, as in a session).

(c) HaluEval (``../shared/data/halueval``, as ``benchmarks/accuracy.py`` runs it: the
knowledge is one ``rag`` receipt, dialogue history a ``user`` receipt): pair
accuracy of the gate alone and with the ``SemanticChecker`` added through the
``Checker`` seam (``gate.checkers``), with ``supports`` only (the default) and
with ``missingBelow``; plus the AUC of the best cosine as a right-vs-hallucinated
score, and a what-if in which a semantic ``supports`` would settle a blocked,
uncontradicted sentence (the seam does not allow that today).

Run: ``.venv/bin/python benchmarks/semantic.py [--limit N] [--json]``
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import percentile, table
from accuracy import HALUEVAL_DIR, HALUEVAL_NOW, HALUEVAL_TASKS, _rows, halueval_receipts
from receiptgate.api import build_gate
from receiptgate.checkers.base import CheckRequest
from receiptgate.checkers.semantic import (
    DEFAULT_THRESHOLD,
    EmbeddingMatcher,
    SemanticChecker,
    SemanticConfig,
)
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import ValidationResult

# (sentence, receipt content, supports?) — short operational receipts, labelled by hand.
CALIBRATION: list[tuple[str, str, bool]] = [
    ("The service is healthy.", "health check ok: 200 in 12ms", True),
    ("The service is up and running.", "GET /health -> 200 OK", True),
    ("All tests pass.", "pytest: 42 passed in 3.1s", True),
    ("The build is green.", "ci: build #812 succeeded", True),
    ("The deploy finished.", "deployment of web v2.3 completed successfully", True),
    ("The database is reachable.", "psql: connected to db-main, SELECT 1 returned 1", True),
    ("The disk is almost full.", "df: /var 97% used", True),
    ("The customer paid the invoice.", "Invoice 4411: status paid, 3 March", True),
    ("We have three open tickets.", "jira: 3 issues open in project OPS", True),
    ("The file was deleted.", "rm: removed 'report.csv'", True),
    ("Revenue grew 5% last quarter.", "Sales increased by five percent in Q3.", True),
    ("The backup completed overnight.", "backup job nightly-01 finished OK at 03:12", True),
    ("The service is healthy.", "Invoice 4411 for Globex was paid on 3 March.", False),
    ("All tests pass.", "df: /var 97% used", False),
    ("The build is green.", "jira: 3 issues open in project OPS", False),
    ("The customer paid the invoice.", "health check ok: 200 in 12ms", False),
    ("The disk is almost full.", "pytest: 42 passed in 3.1s", False),
    ("The deploy finished.", "Invoice 4411: status paid, 3 March", False),
    ("We have three open tickets.", "backup job nightly-01 finished OK at 03:12", False),
    ("The database is reachable.", "rm: removed 'report.csv'", False),
    ("The file was deleted.", "Sales increased by five percent in Q3.", False),
    ("Revenue grew 5% last quarter.", "GET /health -> 200 OK", False),
    ("The backup completed overnight.", "ci: build #812 succeeded", False),
    ("The service is up and running.", "psql: connected to db-main, SELECT 1 returned 1", False),
]
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)


def pin_two_cpus() -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned"
    cpus = sorted(os.sched_getaffinity(0))[-2:]
    os.sched_setaffinity(0, set(cpus))
    return f"pinned to CPUs {','.join(map(str, cpus))}"


def calibrate(matcher: EmbeddingMatcher) -> dict[str, Any]:
    scores = [(float(matcher.similarity([s], [r])[0][0]), label) for s, r, label in CALIBRATION]
    rows = []
    for t in THRESHOLDS:
        tp = sum(sc >= t and lab for sc, lab in scores)
        fp = sum(sc >= t and not lab for sc, lab in scores)
        pos = sum(lab for _, lab in scores)
        rows.append(
            {
                "threshold": t,
                "recall": tp / pos,
                "false_support": fp / (len(scores) - pos),
                "accuracy": (tp + (len(scores) - pos - fp)) / len(scores),
            }
        )
    pos_scores = sorted(sc for sc, lab in scores if lab)
    neg_scores = sorted(sc for sc, lab in scores if not lab)
    return {
        "pairs": len(scores),
        "supports_min_median": (pos_scores[0], statistics.median(pos_scores)),
        "unrelated_median_max": (statistics.median(neg_scores), neg_scores[-1]),
        "thresholds": rows,
    }


def _ms(samples: list[float]) -> dict[str, float]:
    samples.sort()
    return {
        "p50": percentile(samples, 50),
        "p95": percentile(samples, 95),
        "mean": sum(samples) / len(samples),
    }


def latency(sentences: list[str], knowledge: str, threads: int) -> dict[str, Any]:
    cold = EmbeddingMatcher(threads=threads, cache_size=0)
    cold.embed(["warm up"])
    one: list[float] = []
    for s in sentences:
        t0 = time.perf_counter()
        cold.embed([s])
        one.append((time.perf_counter() - t0) * 1000)
    batch: list[float] = []
    for i in range(0, len(sentences) - 31, 32):
        chunk = sentences[i : i + 32]
        t0 = time.perf_counter()
        cold.embed(chunk)
        batch.append((time.perf_counter() - t0) * 1000 / len(chunk))
    warm = EmbeddingMatcher(threads=threads)
    checker = SemanticChecker(SemanticConfig(), matcher=warm)
    receipt = Receipt(id="k", kind="rag", content=knowledge)
    gate = Gate()
    check: list[float] = []
    for s in sentences:
        result = gate.validate(s, receipts=[receipt], now=HALUEVAL_NOW)
        request = CheckRequest(
            s,
            result.sentences,
            tuple(x.index for x in result.sentences),
            receipts=[receipt],
        )
        t0 = time.perf_counter()
        checker.check(request)
        check.append((time.perf_counter() - t0) * 1000 / max(1, len(result.sentences)))
    return {
        "threads": threads,
        "sentences": len(sentences),
        "mean_tokens": statistics.mean(len(cold._tokenizer.encode(s).ids) for s in sentences),
        "embed_one_ms": _ms(one),
        "embed_batch32_per_sentence_ms": _ms(batch) if batch else None,
        "check_per_sentence_ms": _ms(check),
    }


def _best_cosine(matcher: EmbeddingMatcher, text: str, receipts: list[Receipt]) -> float:
    from receiptgate.checkers.semantic import passages

    found = passages(receipts, [], 256)
    sentences = [text] if len(text) < 400 else [text[:400]]
    return float(matcher.similarity(sentences, [p.text for p in found]).max())


def _what_if(result: ValidationResult) -> str:
    """The verdict if a semantic ``supports`` settled a blocked, uncontradicted sentence."""
    if result.verdict != "block":
        return result.verdict
    for s in result.sentences:
        if s.action != "block":
            continue
        contradicted = any(e.relation == "contradicts" for e in s.evidence)
        supported = any(e.kind == "semantic" and e.relation == "supports" for e in s.evidence)
        if contradicted or not supported:
            return "block"
    return "flag"


def _auc(pos: list[float], neg: list[float]) -> float:
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return wins / (len(pos) * len(neg))


def halueval(
    limit: int, matcher: EmbeddingMatcher, threshold: float, missing: float
) -> dict[str, Any]:
    base = build_gate()
    gates: dict[str, Gate] = {"gate alone": base}
    with_sem = build_gate()
    with_sem.checkers.append(SemanticChecker(SemanticConfig(threshold=threshold), matcher=matcher))
    gates[f"+ semantic (threshold {threshold})"] = with_sem
    with_missing = build_gate()
    with_missing.checkers.append(
        SemanticChecker(SemanticConfig(threshold=threshold, missing_below=missing), matcher=matcher)
    )
    gates[f"+ semantic, missingBelow {missing}"] = with_missing
    out: dict[str, Any] = {}
    for task, (name, context_key, right_key, wrong_key) in HALUEVAL_TASKS.items():
        path = HALUEVAL_DIR / name
        if not path.is_file():
            out[task] = {"missing": str(path)}
            continue
        tallies: dict[str, list[int]] = {g: [0, 0, 0] for g in [*gates, "what-if: support settles"]}
        right_cos: list[float] = []
        wrong_cos: list[float] = []
        n = 0
        for i, row in enumerate(_rows(path, limit)):
            n += 1
            receipts = halueval_receipts(task, i, row, context_key)
            for label, gate in gates.items():
                r = gate.validate(row[right_key], now=HALUEVAL_NOW, receipts=receipts)
                w = gate.validate(row[wrong_key], now=HALUEVAL_NOW, receipts=receipts)
                verdicts = [(label, r.verdict, w.verdict)]
                if label.startswith("+ semantic (threshold"):
                    verdicts.append(("what-if: support settles", _what_if(r), _what_if(w)))
                for key, rv, wv in verdicts:
                    t = tallies[key]
                    t[0] += rv != "block"
                    t[1] += wv == "block"
                    t[2] += rv != "block" and wv == "block"
            right_cos.append(_best_cosine(matcher, row[right_key], receipts))
            wrong_cos.append(_best_cosine(matcher, row[wrong_key], receipts))
        out[task] = {
            "pairs": n,
            "modes": {
                k: {
                    "right_passed": 100 * v[0] / n,
                    "hallucinated_caught": 100 * v[1] / n,
                    "pair_accuracy": 100 * v[2] / n,
                }
                for k, v in tallies.items()
            },
            "auc_best_cosine": _auc(right_cos, wrong_cos),
            "median_best_cosine": (statistics.median(right_cos), statistics.median(wrong_cos)),
        }
    return out


def render(report: dict[str, Any]) -> str:
    out = [f"semantic stage · {report['pinned']} · onnxruntime threads {report['threads']}", ""]
    cal = report["calibration"]
    out.append(
        f"(a) calibration: {cal['pairs']} hand-labelled sentence/receipt pairs; supports: "
        f"min {cal['supports_min_median'][0]:.2f}, median {cal['supports_min_median'][1]:.2f}; "
        f"unrelated: median {cal['unrelated_median_max'][0]:.2f}, "
        f"max {cal['unrelated_median_max'][1]:.2f}"
    )
    out.append(
        table(
            ["threshold", "recall", "false support", "accuracy"],
            [
                [
                    f"{r['threshold']:.2f}",
                    f"{100 * r['recall']:.0f}%",
                    f"{100 * r['false_support']:.0f}%",
                    f"{100 * r['accuracy']:.0f}%",
                ]
                for r in cal["thresholds"]
            ],
            [True] * 4,
        )
    )
    lat = report["latency"]
    out += [
        "",
        f"(b) latency per sentence, ms ({lat['sentences']} HaluEval answer sentences, "
        f"mean {lat['mean_tokens']:.0f} tokens)",
    ]
    rows = []
    for key, name in (
        ("embed_one_ms", "embed 1 sentence (uncached)"),
        ("embed_batch32_per_sentence_ms", "embed a batch of 32, per sentence"),
        ("check_per_sentence_ms", "SemanticChecker.check, per sentence (receipt cached)"),
    ):
        v = lat[key]
        if v:
            rows.append([name, f"{v['p50']:.2f}", f"{v['p95']:.2f}", f"{v['mean']:.2f}"])
    out.append(table(["what", "p50", "p95", "mean"], rows, [False, True, True, True]))
    out += [
        "",
        f"(c) HaluEval, first {report['limit']} pairs per task (file order); "
        "pair correct = right not blocked and hallucinated blocked",
    ]
    rows = []
    for task, t in report["halueval"].items():
        if "missing" in t:
            rows.append([task, "missing", "", "", ""])
            continue
        for mode, m in t["modes"].items():
            rows.append(
                [
                    task,
                    mode,
                    f"{m['pair_accuracy']:.1f}%",
                    f"{m['right_passed']:.1f}%",
                    f"{m['hallucinated_caught']:.1f}%",
                ]
            )
    out.append(
        table(
            ["task", "mode", "pair accuracy", "right passed", "hallucinated caught"],
            rows,
            [False, False, True, True, True],
        )
    )
    out.append("")
    out.append(
        "best cosine (answer vs knowledge passages) as a right-vs-hallucinated score: "
        + "; ".join(
            f"{task} AUC {t['auc_best_cosine']:.3f} (median right {t['median_best_cosine'][0]:.2f}"
            f" / hallucinated {t['median_best_cosine'][1]:.2f})"
            for task, t in report["halueval"].items()
            if "missing" not in t
        )
    )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=200, help="HaluEval pairs per task")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument("--missing-below", type=float, default=0.3)
    parser.add_argument("--latency-sentences", type=int, default=256)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    pinned = pin_two_cpus()
    matcher = EmbeddingMatcher(threads=args.threads)
    report: dict[str, Any] = {"pinned": pinned, "threads": args.threads, "limit": args.limit}
    report["calibration"] = calibrate(matcher)
    qa = list(_rows(HALUEVAL_DIR / "qa_dev.jsonl", args.latency_sentences // 2))
    sentences = [r[k] for r in qa for k in ("right_answer", "hallucinated_answer")]
    report["latency"] = latency(sentences, qa[0]["knowledge"], args.threads)
    report["halueval"] = halueval(args.limit, matcher, args.threshold, args.missing_below)
    print(json.dumps(report, indent=2) if args.json else render(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
