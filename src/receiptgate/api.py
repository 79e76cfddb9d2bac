"""Convenience constructors shared by the CLI, the service and Python users."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from receiptgate.config import GateConfig, load_config
from receiptgate.engine import Gate
from receiptgate.evidence.facts import load_registry_file
from receiptgate.evidence.receipts import Receipt, load_receipts
from receiptgate.policy.policy_file import ClaimPolicy, load_policy
from receiptgate.rubrics import Rubric, load_rubric


def build_gate(
    *,
    config: str | Path | GateConfig | None = None,
    facts: Iterable[str | Path] = (),
    policy: str | Path | ClaimPolicy | None = None,
    rubric: str | Path | Rubric | None = None,
) -> Gate:
    """Builds a gate from files (or objects), as ``receiptgate check`` does.

    Args:
        config: a config file path or a ``GateConfig``.
        facts: fact registry files, applied after the config's registries.
        policy: a policy file path or a ``ClaimPolicy``.
        rubric: a rubric file path or a ``Rubric``; the gate grades every result
            with it (default: the packaged rubric, which grades by verdict).

    Raises:
        ConfigError: when any file is missing or invalid (the message names it).
    """
    base_dir: Path | None = None
    if isinstance(config, str | Path):
        cfg, base_dir = load_config(config)
    else:
        cfg = config or GateConfig()
    registries = [load_registry_file(p) for p in facts]
    claim_policy = load_policy(policy) if isinstance(policy, str | Path) else policy
    grader = load_rubric(rubric) if isinstance(rubric, str | Path) else rubric
    return Gate(cfg, base_dir=base_dir, registries=registries, policy=claim_policy, rubric=grader)


def load_receipt_files(paths: Iterable[str | Path]) -> list[Receipt]:
    """Loads and concatenates receipts from several files (ids made unique per file)."""
    out: list[Receipt] = []
    seen: set[str] = set()
    for path in paths:
        for r in load_receipts(path):
            if r.id in seen:
                r = r.model_copy(update={"id": f"{Path(path).stem}:{r.id}"})
            seen.add(r.id)
            out.append(r)
    return out
