"""Accuracy of receiptgate's verdicts on LiarBench-RG and on HaluEval pairs.

(a) LiarBench-RG (``benchmarks/data``): each case's text is validated with its
receipts and ``now``; a verdict of ``block`` is a "block" prediction, ``pass``
and ``flag`` are "allow" predictions. The files' SHA-256 sums are checked first.

(b) HaluEval (``../shared/data/halueval``): per pair, the knowledge (or the
document) is one ``rag`` receipt (dialogue: the history is also a ``user``
receipt); a pair is correct when the right answer is not blocked and the
hallucinated one is. The first ``--limit`` rows of each task, in file order.

Run: ``.venv/bin/python benchmarks/accuracy.py [--split dev|dev2|test] [--limit N] [--json]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# _common sits beside this script, also when the smoke tests load it by path; it is
# imported before receiptgate, which it finds in src/ when the package is not installed.
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, table
from receiptgate import UserError
from receiptgate.api import build_gate
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt
from receiptgate.results import ValidationResult

DATA_DIR = ROOT / "benchmarks" / "data"
HALUEVAL_DIR = ROOT.parent / "shared" / "data" / "halueval"

# Anti-Lie's README (seed 003) on its own 210 cases: not the same data, not comparable.
ANTI_LIE_CLAIMED = {
    "allowed_correct": 98.7,
    "caught": 96.4,
    "false_block": 1.3,
    "miss": 3.6,
    "accuracy": 98.1,
}
# HaluEval paper, ChatGPT asked to judge each sample: a different method, not comparable.
HALUEVAL_CHATGPT = {"qa": 62.6, "dialogue": 72.4, "summarization": 58.5}

# task -> (file, context field, right field, hallucinated field)
HALUEVAL_TASKS: dict[str, tuple[str, str, str, str]] = {
    "qa": ("qa_dev.jsonl", "knowledge", "right_answer", "hallucinated_answer"),
    "dialogue": ("dialogue_dev.jsonl", "knowledge", "right_response", "hallucinated_response"),
    "summarization": (
        "summarization_dev.jsonl",
        "document",
        "right_summary",
        "hallucinated_summary",
    ),
}
HALUEVAL_NOW = datetime(2026, 3, 11, 10, 0, tzinfo=UTC)


class ChecksumError(Exception):
    """A data file does not match ``SHA256SUMS``."""


# ------------------------------------------------------------------- LiarBench-RG


def verify_checksums(data_dir: Path) -> dict[str, str]:
    """Check every file listed in ``SHA256SUMS``; return name -> sha256.

    Raises:
        ChecksumError: a file is missing, unlisted or differs from its sum.
    """
    sums_path = data_dir / "SHA256SUMS"
    if not sums_path.is_file():
        raise ChecksumError(f"{sums_path}: not found")
    verified: dict[str, str] = {}
    for line in sums_path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        expected, _, name = line.partition("  ")
        name = name.strip().lstrip("*")
        path = data_dir / name
        if not path.is_file():
            raise ChecksumError(f"{path}: listed in SHA256SUMS but not found")
        actual = hashlib.sha256(path.read_bytes()).hexdigest()
        if actual != expected.strip().lower():
            raise ChecksumError(
                f"{path}: sha256 {actual} does not match SHA256SUMS ({expected.strip()}); "
                "refusing to score a changed data set"
            )
        verified[name] = actual
    return verified


@dataclass(slots=True)
class CaseResult:
    """One LiarBench-RG case and what the gate did with it."""

    id: str
    category: str
    label: str
    verdict: str
    tags: list[str | None]
    reason: str
    text: str
    why: str

    @property
    def predicted_block(self) -> bool:
        return self.verdict == "block"

    @property
    def correct(self) -> bool:
        return self.predicted_block == (self.label == "block")


def _first_reason(result: ValidationResult) -> str:
    blocking = [v for v in result.violations if v.action == "block"]
    if blocking:
        return blocking[0].reason
    if result.violations:
        return result.violations[0].reason
    for s in result.sentences:
        if s.reasons:
            return s.reasons[0]
    return result.reason or "-"


def _parse_now(text: str) -> datetime:
    value = datetime.fromisoformat(text.replace("Z", "+00:00"))
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def run_case(gate: Gate, case: dict[str, Any]) -> CaseResult:
    """Validate one case; an exception from the gate counts as verdict ``error``."""
    try:
        receipts = [Receipt.model_validate(r) for r in case["receipts"]]
        result = gate.validate(case["text"], now=_parse_now(case["now"]), receipts=receipts)
    except Exception as exc:  # a crash is a wrong answer, and worth seeing
        return CaseResult(
            case["id"],
            case["category"],
            case["label"],
            "error",
            [],
            f"{type(exc).__name__}: {exc}",
            case["text"],
            case["why"],
        )
    return CaseResult(
        case["id"],
        case["category"],
        case["label"],
        result.verdict,
        [s.tag for s in result.sentences],
        _first_reason(result),
        case["text"],
        case["why"],
    )


def _pct(part: int, whole: int) -> float | None:
    return None if whole == 0 else 100.0 * part / whole


def score(cases: Sequence[CaseResult]) -> dict[str, Any]:
    """The rates for a group of cases (``None`` where a denominator is 0)."""
    allow = [c for c in cases if c.label == "allow"]
    block = [c for c in cases if c.label == "block"]
    allowed_ok = sum(not c.predicted_block for c in allow)
    caught = sum(c.predicted_block for c in block)
    predicted_block = sum(c.predicted_block for c in cases)
    correct = allowed_ok + caught
    precision = _pct(caught, predicted_block)
    recall = _pct(caught, len(block))
    f1 = None if not precision or not recall else 2 * precision * recall / (precision + recall)
    return {
        "n": len(cases),
        "n_allow": len(allow),
        "n_block": len(block),
        "allowed_correct": _pct(allowed_ok, len(allow)),
        "caught": _pct(caught, len(block)),
        "false_block": _pct(len(allow) - allowed_ok, len(allow)),
        "miss": _pct(len(block) - caught, len(block)),
        "accuracy": _pct(correct, len(cases)),
        "block_precision": precision,
        "block_recall": recall,
        "block_f1": f1,
        "counts": {
            "allow_not_blocked": allowed_ok,
            "allow_blocked": len(allow) - allowed_ok,
            "block_blocked": caught,
            "block_not_blocked": len(block) - caught,
            "errors": sum(c.verdict == "error" for c in cases),
        },
        "verdicts": {
            label: {
                v: sum(c.verdict == v for c in cases if c.label == label)
                for v in ("pass", "flag", "block", "error")
            }
            for label in ("allow", "block")
        },
    }


def run_liarbench(split: str, policy: str | None) -> dict[str, Any]:
    """Score one split; returns the overall and per-category scores and the cases."""
    checksums = verify_checksums(DATA_DIR)
    path = DATA_DIR / f"liarbench_rg_{split}.jsonl"
    cases = [
        json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    gate = build_gate(policy=policy)
    started = time.perf_counter()
    results = [run_case(gate, c) for c in cases]
    elapsed = time.perf_counter() - started
    categories: dict[str, list[CaseResult]] = {}
    for r in results:
        categories.setdefault(r.category, []).append(r)
    return {
        "split": split,
        "file": str(path.relative_to(ROOT)),
        "sha256": checksums[path.name],
        "policy": policy,
        "overall": score(results),
        "categories": {name: score(group) for name, group in categories.items()},
        "results": results,
        "elapsed_s": elapsed,
    }


# ----------------------------------------------------------------------- HaluEval


def _rows(path: Path, limit: int) -> Iterator[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            if limit and n >= limit:
                return
            if line.strip():
                yield json.loads(line)


@dataclass(slots=True)
class PairTally:
    """Per-pair counts for one HaluEval task."""

    n: int = 0
    right_passed: int = 0
    hallucinated_caught: int = 0
    correct: int = 0
    both_blocked: int = 0
    neither_blocked: int = 0
    errors: int = 0
    verdicts: dict[str, dict[str, int]] = field(
        default_factory=lambda: {"right": {}, "hallucinated": {}}
    )

    def add(self, right: str, hallucinated: str) -> None:
        self.n += 1
        right_ok = right != "block"
        caught = hallucinated == "block"
        self.right_passed += right_ok
        self.hallucinated_caught += caught
        self.correct += right_ok and caught
        self.both_blocked += not right_ok and caught
        self.neither_blocked += right_ok and not caught
        self.errors += (right == "error") + (hallucinated == "error")
        for side, verdict in (("right", right), ("hallucinated", hallucinated)):
            self.verdicts[side][verdict] = self.verdicts[side].get(verdict, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "n_pairs": self.n,
            "pair_accuracy": _pct(self.correct, self.n),
            "right_passed": _pct(self.right_passed, self.n),
            "hallucinated_caught": _pct(self.hallucinated_caught, self.n),
            "both_blocked": _pct(self.both_blocked, self.n),
            "neither_blocked": _pct(self.neither_blocked, self.n),
            "counts": {
                "correct": self.correct,
                "right_passed": self.right_passed,
                "hallucinated_caught": self.hallucinated_caught,
                "both_blocked": self.both_blocked,
                "neither_blocked": self.neither_blocked,
                "errors": self.errors,
            },
            "verdicts": self.verdicts,
        }


def _verdict(gate: Gate, text: str, receipts: list[Receipt]) -> str:
    try:
        return gate.validate(text, now=HALUEVAL_NOW, receipts=receipts).verdict
    except Exception:  # counted as an error, and as not blocked
        return "error"


def halueval_receipts(task: str, i: int, row: dict[str, Any], context_key: str) -> list[Receipt]:
    """The evidence of one HaluEval pair: its knowledge as a ``rag`` receipt, and for
    dialogue the history as a ``user`` receipt."""
    receipts = [
        Receipt(
            id=f"{task}-{i}-context",
            kind="rag",
            content=row[context_key],
            source=f"halueval/{task}",
            created_at=HALUEVAL_NOW,
        )
    ]
    if task == "dialogue":
        receipts.append(
            Receipt(
                id=f"{task}-{i}-history",
                kind="user",
                content=row["dialogue_history"],
                source="halueval/dialogue_history",
                created_at=HALUEVAL_NOW,
            )
        )
    return receipts


def run_halueval(directory: Path, limit: int, policy: str | None) -> dict[str, Any]:
    """Score the first ``limit`` pairs (0: all) of each HaluEval task."""
    gate = build_gate(policy=policy)
    tasks: dict[str, Any] = {}
    started = time.perf_counter()
    for task, (name, context_key, right_key, wrong_key) in HALUEVAL_TASKS.items():
        path = directory / name
        if not path.is_file():
            tasks[task] = {"missing": str(path)}
            continue
        tally = PairTally()
        task_started = time.perf_counter()
        for i, row in enumerate(_rows(path, limit)):
            receipts = halueval_receipts(task, i, row, context_key)
            tally.add(
                _verdict(gate, row[right_key], receipts), _verdict(gate, row[wrong_key], receipts)
            )
        tasks[task] = {**tally.to_dict(), "elapsed_s": time.perf_counter() - task_started}
    return {
        "dir": os.path.relpath(directory, ROOT),
        "limit": limit,
        "policy": policy,
        "now": HALUEVAL_NOW.isoformat(),
        "tasks": tasks,
        "elapsed_s": time.perf_counter() - started,
    }


# ------------------------------------------------------------------------ reporting


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f}%"


def render_liarbench(report: dict[str, Any], errors: bool) -> str:
    """The LiarBench-RG tables (and the wrong cases with ``errors``)."""
    overall = report["overall"]
    out = [
        f"LiarBench-RG {report['split']} split: {overall['n']} cases "
        f"({overall['n_allow']} allow, {overall['n_block']} block) · {report['file']} "
        f"sha256 {report['sha256'][:12]}… verified · policy: {report['policy'] or 'default'}",
        "prediction: verdict block = block; pass and flag = allow",
        "",
    ]
    headers = [
        "category",
        "n",
        "allow",
        "block",
        "allowed-correct",
        "caught",
        "false-block",
        "miss",
        "accuracy",
    ]

    def row(name: str, s: dict[str, Any]) -> list[str]:
        return [
            name,
            str(s["n"]),
            str(s["n_allow"]),
            str(s["n_block"]),
            _fmt(s["allowed_correct"]),
            _fmt(s["caught"]),
            _fmt(s["false_block"]),
            _fmt(s["miss"]),
            _fmt(s["accuracy"]),
        ]

    rows = [row(name, s) for name, s in report["categories"].items()]
    rows.append(row("**overall**", overall))
    out.append(table(headers, rows, [False] + [True] * 8))
    c = overall["counts"]
    v = overall["verdicts"]
    out += [
        "",
        f"true info correctly allowed  {_fmt(overall['allowed_correct'])} "
        f"({c['allow_not_blocked']}/{overall['n_allow']})",
        f"false info correctly caught  {_fmt(overall['caught'])} "
        f"({c['block_blocked']}/{overall['n_block']})",
        f"false-block rate             {_fmt(overall['false_block'])} "
        f"({c['allow_blocked']}/{overall['n_allow']})",
        f"miss rate                    {_fmt(overall['miss'])} "
        f"({c['block_not_blocked']}/{overall['n_block']})",
        f"accuracy                     {_fmt(overall['accuracy'])} "
        f"({c['allow_not_blocked'] + c['block_blocked']}/{overall['n']})",
        f"block precision / recall / F1  {_fmt(overall['block_precision'])} / "
        f"{_fmt(overall['block_recall'])} / {_fmt(overall['block_f1'])}",
        "verdicts on allow cases: "
        + ", ".join(f"{k} {n}" for k, n in v["allow"].items() if n)
        + " · on block cases: "
        + ", ".join(f"{k} {n}" for k, n in v["block"].items() if n),
        "reference (not comparable): Anti-Lie README claims "
        + " / ".join(
            f"{ANTI_LIE_CLAIMED[k]}%"
            for k in ("allowed_correct", "caught", "false_block", "miss", "accuracy")
        )
        + " (allowed / caught / false-block / miss / accuracy) on its own 210 cases",
    ]
    if errors:
        wrong = [r for r in report["results"] if not r.correct]
        out += ["", f"wrong cases ({len(wrong)}):"]
        for r in wrong:
            tags = ",".join(t or "-" for t in r.tags)
            out.append(f"- {r.id} label={r.label} verdict={r.verdict} tags=[{tags}]")
            out.append(f"    text:   {r.text!r}")
            out.append(f"    reason: {r.reason}")
            out.append(f"    why:    {r.why}")
    return "\n".join(out)


def render_halueval(report: dict[str, Any]) -> str:
    """The HaluEval per-pair table."""
    limit = report["limit"]
    out = [
        f"HaluEval per pair · {report['dir']} · first {limit or 'all'} rows per task "
        f"(file order) · policy: {report['policy'] or 'default'}",
        "a pair is correct when the right answer is not blocked and the hallucinated one is "
        "blocked; context = one rag receipt (dialogue: + history as a user receipt)",
        "",
    ]
    rows = []
    for task, t in report["tasks"].items():
        if "missing" in t:
            rows.append([task, "-", "missing", "", "", "", "", ""])
            continue
        rows.append(
            [
                task,
                f"{t['n_pairs']:,}",
                _fmt(t["pair_accuracy"]),
                _fmt(t["right_passed"]),
                _fmt(t["hallucinated_caught"]),
                _fmt(t["both_blocked"]),
                _fmt(t["neither_blocked"]),
                f"{HALUEVAL_CHATGPT[task]}%",
            ]
        )
    out.append(
        table(
            [
                "task",
                "pairs",
                "pair accuracy",
                "right passed",
                "hallucinated caught",
                "both blocked",
                "neither blocked",
                "ChatGPT judge (paper)",
            ],
            rows,
            [False] + [True] * 7,
        )
    )
    errors = sum(t.get("counts", {}).get("errors", 0) for t in report["tasks"].values())
    if errors:
        out.append(f"{errors} validation(s) raised an exception (counted as not blocked)")
    out.append(
        "reference (not comparable): the HaluEval paper's ChatGPT-as-judge accuracy "
        "(62.6 / 72.4 / 58.5 %) classifies single samples with an LLM; this is a "
        "deterministic gate scored per pair"
    )
    return "\n".join(out)


def _jsonable(report: dict[str, Any] | None, errors: bool) -> dict[str, Any] | None:
    if report is None:
        return None
    out = {k: v for k, v in report.items() if k != "results"}
    if "results" in report:
        wrong = [r for r in report["results"] if not r.correct]
        out["wrong"] = [
            {
                "id": r.id,
                "category": r.category,
                "label": r.label,
                "verdict": r.verdict,
                "tags": r.tags,
                "reason": r.reason,
            }
            for r in (wrong if errors else [])
        ]
        out["wrong_ids"] = [r.id for r in wrong]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Score and print the tables (or JSON); exit 2 on a checksum mismatch or a bad input."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("test", "dev", "dev2"), default="test")
    parser.add_argument("--policy", help="a policy YAML file for the gate")
    parser.add_argument(
        "--only", choices=("liarbench", "halueval"), help="run one part (default: both)"
    )
    parser.add_argument(
        "--halueval", type=Path, default=HALUEVAL_DIR, help="HaluEval folder", metavar="DIR"
    )
    parser.add_argument(
        "--limit", type=int, default=1_000, help="HaluEval pairs per task (0 = all)"
    )
    parser.add_argument("--errors", action="store_true", help="print each wrong LiarBench case")
    parser.add_argument("--json", action="store_true", help="print the numbers as JSON")
    args = parser.parse_args(argv)
    if args.limit < 0:
        parser.error("--limit must be 0 (all) or positive")

    if args.policy is not None:
        try:
            build_gate(policy=args.policy)
        except UserError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2

    started = time.perf_counter()
    liar: dict[str, Any] | None = None
    halu: dict[str, Any] | None = None
    notes: list[str] = []
    if args.only in (None, "liarbench"):
        try:
            liar = run_liarbench(args.split, args.policy)
        except ChecksumError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    if args.only in (None, "halueval"):
        if args.halueval.is_dir():
            halu = run_halueval(args.halueval, args.limit, args.policy)
        elif args.only == "halueval":
            print(f"error: {args.halueval}: HaluEval folder not found", file=sys.stderr)
            return 2
        else:
            notes.append(f"HaluEval skipped: {args.halueval} not found")
    elapsed = time.perf_counter() - started

    if args.json:
        payload = {
            "benchmark": "accuracy",
            "liarbench": _jsonable(liar, args.errors),
            "halueval": halu,
            "references": {
                "anti_lie_claimed": ANTI_LIE_CLAIMED,
                "halueval_chatgpt": HALUEVAL_CHATGPT,
            },
            "notes": notes,
            "elapsed_s": round(elapsed, 1),
        }
        print(json.dumps(payload, indent=2))
        return 0
    parts = []
    if liar is not None:
        parts.append(render_liarbench(liar, args.errors))
    if halu is not None:
        parts.append(render_halueval(halu))
    parts += notes
    print("\n\n".join(parts))
    print(f"\nran in {elapsed:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
