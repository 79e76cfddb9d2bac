"""receiptgate: an outbound claim gate for LLM agents.

Every factual sentence an agent sends must show its receipt. The public API is
re-exported here and imported lazily, so ``import receiptgate`` stays cheap::

    from receiptgate import build_gate
    gate = build_gate(facts=["facts.yaml"])
    result = gate.validate("Node.js is not installed.", trust=30)
    result.verdict  # "block"
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_EXPORTS: dict[str, str] = {
    "CheckerError": "receiptgate._exceptions",
    "ClaimPolicy": "receiptgate.policy.policy_file",
    "ConfigError": "receiptgate._exceptions",
    "DetectedClaim": "receiptgate.claims.models",
    "Detector": "receiptgate.claims.detectors.base",
    "DetectorError": "receiptgate._exceptions",
    "DetectorRegistry": "receiptgate.claims.detectors.base",
    "Gate": "receiptgate.engine",
    "GateConfig": "receiptgate.config",
    "HardFact": "receiptgate.claims.models",
    "InputError": "receiptgate._exceptions",
    "Pattern": "receiptgate.claims.detectors.base",
    "Receipt": "receiptgate.evidence.receipts",
    "ReceiptIndex": "receiptgate.evidence.index",
    "ReceiptgateError": "receiptgate._exceptions",
    "Rubric": "receiptgate.rubrics",
    "RubricScore": "receiptgate.rubrics",
    "RuntimeFailure": "receiptgate._exceptions",
    "SentenceEvent": "receiptgate.stream",
    "StoreError": "receiptgate._exceptions",
    "StreamGate": "receiptgate.stream",
    "UserError": "receiptgate._exceptions",
    "ValidationResult": "receiptgate.results",
    "astream": "receiptgate.stream",
    "build_gate": "receiptgate.api",
    "load_config": "receiptgate.config",
    "load_policy": "receiptgate.policy.policy_file",
    "load_receipt_files": "receiptgate.api",
    "load_receipts": "receiptgate.evidence.receipts",
    "load_registry_file": "receiptgate.evidence.facts",
    "load_rubric": "receiptgate.rubrics",
    "load_rubric_dir": "receiptgate.rubrics",
    "parse_config": "receiptgate.config",
    "parse_policy": "receiptgate.policy.policy_file",
    "parse_receipts": "receiptgate.evidence.receipts",
    "parse_rubric": "receiptgate.rubrics",
    "receipts_from_messages": "receiptgate.evidence.receipts",
}

__all__ = [
    "CheckerError",
    "ClaimPolicy",
    "ConfigError",
    "DetectedClaim",
    "Detector",
    "DetectorError",
    "DetectorRegistry",
    "Gate",
    "GateConfig",
    "HardFact",
    "InputError",
    "Pattern",
    "Receipt",
    "ReceiptIndex",
    "ReceiptgateError",
    "Rubric",
    "RubricScore",
    "RuntimeFailure",
    "SentenceEvent",
    "StoreError",
    "StreamGate",
    "UserError",
    "ValidationResult",
    "astream",
    "build_gate",
    "load_config",
    "load_policy",
    "load_receipt_files",
    "load_receipts",
    "load_registry_file",
    "load_rubric",
    "load_rubric_dir",
    "parse_config",
    "parse_policy",
    "parse_receipts",
    "parse_rubric",
    "receipts_from_messages",
]

if TYPE_CHECKING:
    from receiptgate._exceptions import (
        CheckerError,
        ConfigError,
        DetectorError,
        InputError,
        ReceiptgateError,
        RuntimeFailure,
        StoreError,
        UserError,
    )
    from receiptgate.api import build_gate, load_receipt_files
    from receiptgate.claims.detectors.base import Detector, DetectorRegistry, Pattern
    from receiptgate.claims.models import DetectedClaim, HardFact
    from receiptgate.config import GateConfig, load_config, parse_config
    from receiptgate.engine import Gate
    from receiptgate.evidence.facts import load_registry_file
    from receiptgate.evidence.index import ReceiptIndex
    from receiptgate.evidence.receipts import (
        Receipt,
        load_receipts,
        parse_receipts,
        receipts_from_messages,
    )
    from receiptgate.policy.policy_file import ClaimPolicy, load_policy, parse_policy
    from receiptgate.results import ValidationResult
    from receiptgate.rubrics import (
        Rubric,
        RubricScore,
        load_rubric,
        load_rubric_dir,
        parse_rubric,
    )
    from receiptgate.stream import SentenceEvent, StreamGate, astream


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'receiptgate' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
