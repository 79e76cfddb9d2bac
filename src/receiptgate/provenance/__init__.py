"""Content provenance and taint (seed 002, SPEC §7): trust levels with lowest-wins
propagation, tool trust classification, the per-turn provenance graph and its
OpenTelemetry export (:mod:`receiptgate.provenance.otel`, the ``otel`` extra)."""

from __future__ import annotations

from receiptgate.provenance.graph import (
    GraphEdge,
    GraphNode,
    TurnGraph,
    TurnSummary,
    content_hash,
    make_preview,
    mask_secrets,
)
from receiptgate.provenance.trust import (
    DEFAULT_TOOL_TRUST_RULES,
    TRUST_LEVELS,
    ToolTrust,
    ToolTrustMatch,
    ToolTrustRule,
    TrustLevel,
    at_least,
    is_tainted,
    lowest,
    parse_tool_trust,
    parse_trust,
    receipt_trust,
    trust_rank,
)

__all__ = [
    "DEFAULT_TOOL_TRUST_RULES",
    "TRUST_LEVELS",
    "GraphEdge",
    "GraphNode",
    "ToolTrust",
    "ToolTrustMatch",
    "ToolTrustRule",
    "TrustLevel",
    "TurnGraph",
    "TurnSummary",
    "at_least",
    "content_hash",
    "is_tainted",
    "lowest",
    "make_preview",
    "mask_secrets",
    "parse_tool_trust",
    "parse_trust",
    "receipt_trust",
    "trust_rank",
]
