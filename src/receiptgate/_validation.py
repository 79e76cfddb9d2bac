"""Pydantic validation errors as one readable line: ``file: facts[3].value.type: message``.

Every loader of operator input (the config, fact registries, rubrics, policy files,
hook events, provenance graphs, bridge findings) reports a bad document the same way:
what was being read, the dotted path of the field with ``[i]`` indexes, and a short
message saying what was expected and what was given, instead of pydantic's multi-line
report with documentation links.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from pydantic import ValidationError

_FRIENDLY: Final = {
    "missing": "field required",
    "extra_forbidden": "unknown field",
}


def describe_value(value: Any) -> str:
    if value is None or isinstance(value, str | int | float | bool):
        return json.dumps(value)
    return type(value).__name__


def loc_path(loc: Iterable[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif "=" in part:
            continue  # a union tag ("type=state"), not an input field
        else:
            out += f".{part}" if out else part
    return out


def _error_message(err: Mapping[str, Any]) -> tuple[str, str]:
    """(extra path suffix, message) for one pydantic error."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    value = err.get("input")
    if kind == "union_tag_invalid":
        tags = [t.strip().strip("'") for t in str(ctx.get("expected_tags", "")).split(",")]
        field_name, _, got = str(ctx.get("tag", "")).partition("=")
        names = ", ".join(t.partition("=")[2] or t for t in tags)
        field_name = field_name or "type"
        if not got:
            return f".{field_name}", f"field required (one of {names})"
        got = got if got.startswith('"') else json.dumps(got)
        return f".{field_name}", f"must be one of {names} (got {got})"
    if kind == "union_tag_not_found":
        return "", f"must be an object with a type field (got {describe_value(value)})"
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        return "", f"must be one of {expected} (got {describe_value(value)})"
    if kind in _FRIENDLY:
        return "", _FRIENDLY[kind]
    msg = str(err["msg"])
    msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    msg = msg[:1].lower() + msg[1:]
    if kind != "value_error":
        msg += f" (got {describe_value(value)})"
    return "", msg


def format_validation_error(
    prefix: str,
    err: ValidationError,
    *,
    loc_prefix: Sequence[int | str] = (),
    max_errors: int = 5,
) -> str:
    """Render a pydantic error as ``prefix: facts[3].value.type: message``.

    Locations become dotted paths with ``[i]`` indexes; union tags written
    ``field=value`` (see :data:`~receiptgate.evidence.facts.FactValue`) are dropped so
    the path names input fields.

    Args:
        prefix: what was being read, usually the file name.
        err: the validation error.
        loc_prefix: location of the validated object inside the file.
        max_errors: at most this many errors are listed.

    Returns:
        One line; several errors are joined with ``"; "``.
    """
    parts: list[str] = []
    errors = err.errors(include_url=False)
    for item in errors[:max_errors]:
        suffix, message = _error_message(item)
        path = loc_path([*loc_prefix, *item["loc"]]) + suffix
        path = path.removeprefix(".")
        parts.append(f"{path}: {message}" if path else message)
    if len(errors) > max_errors:
        parts.append(f"and {len(errors) - max_errors} more")
    return f"{prefix}: " + "; ".join(parts)
