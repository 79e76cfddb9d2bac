"""Helpers shared by the readers of receipts: error messages that name where the
problem is, JSON with bounded nesting, timestamps and unique ids."""

from __future__ import annotations

import json
from collections.abc import Container
from datetime import UTC, datetime
from typing import Any

from receiptgate._exceptions import InputError
from receiptgate.bounds import time_problem

# Epoch numbers above this are milliseconds (pi-agent writes Date.now()); below, seconds.
_EPOCH_MS_THRESHOLD = 100_000_000_000


def parse_iso(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"must be an ISO 8601 date-time (got {show(text)})") from None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def parse_time(value: Any, where: str) -> datetime:
    """Parse a transcript timestamp: ISO 8601 text, or epoch seconds/milliseconds."""
    if isinstance(value, str):
        try:
            moment = parse_iso(value)
        except ValueError as exc:
            raise error(where, str(exc)) from None
    elif isinstance(value, int | float) and not isinstance(value, bool):
        seconds = value / 1000 if abs(value) >= _EPOCH_MS_THRESHOLD else value
        try:
            moment = datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise error(where, f"epoch timestamp out of range (got {show(value)})") from None
    else:
        raise error(where, f"must be an ISO 8601 date-time (got {show(value)})")
    if (problem := time_problem(moment)) is not None:
        raise error(where, problem)
    return moment


def unique(base: str, used: Container[str]) -> str:
    if base not in used:
        return base
    suffix = 2
    while f"{base}-{suffix}" in used:
        suffix += 1
    return f"{base}-{suffix}"


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def show(value: Any, limit: int = 60) -> str:
    """Render a value as JSON for an error message, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:  # e.g. a circular structure from a Python caller
        text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def loads(text: str, where: str) -> Any:
    """``json.loads``, turning absurd nesting into an input error instead of a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise error(where, "invalid JSON: nested too deeply") from None


def error(where: str, problem: str) -> InputError:
    return InputError(f"{where}: {problem}")
