"""The trace-to-facts bridge (RFC-006 §4.1.2, §8.2, §8.3).

Trace analyzers write ``TraceFinding`` JSON files into a folder; a finding with a
``factCorrection`` ("the agent said X, it is Y") becomes a fact in a generated
registry file that the gate loads like any other (``filePath`` in
``factRegistries``, or ``--facts``). The bridge merges and deduplicates facts,
writes atomically and never drops facts already written. See docs/bridge.md.

* :class:`Bridge` — ``run_once()`` and ``watch(stop_event)`` (``receiptgate bridge``);
* :class:`FactsFileWatcher` — tells the service a fact file changed, to reload it.
"""

from __future__ import annotations

from receiptgate.bridge.core import DEFAULT_INTERVAL, Bridge, BridgeError, BridgeReport
from receiptgate.bridge.findings import (
    Classification,
    FactCorrection,
    FindingsFile,
    Signal,
    TraceFinding,
    read_findings_file,
)
from receiptgate.bridge.registry import DEFAULT_REGISTRY_ID, DEFAULT_SOURCE, fact_key
from receiptgate.bridge.watch import FactsFileWatcher

__all__ = [
    "DEFAULT_INTERVAL",
    "DEFAULT_REGISTRY_ID",
    "DEFAULT_SOURCE",
    "Bridge",
    "BridgeError",
    "BridgeReport",
    "Classification",
    "FactCorrection",
    "FactsFileWatcher",
    "FindingsFile",
    "Signal",
    "TraceFinding",
    "fact_key",
    "read_findings_file",
]
