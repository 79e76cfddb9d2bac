"""receiptgate: an outbound claim gate for LLM agents."""

from __future__ import annotations

__version__ = "0.1.0"
