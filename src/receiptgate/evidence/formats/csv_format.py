"""CSV and TSV with a header row; dotted headers (``items.0.price``) are field paths.
Tab-separated rows without a header are named by their first column."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

from receiptgate.evidence.formats import Format


def unflatten(row: dict[str, Any]) -> dict[str, Any]:
    """``{"a.b": 1, "a.c.0": 2}`` -> ``{"a": {"b": 1, "c": [2]}}`` (empty cells dropped)."""
    out: dict[str, Any] = {}
    for key, value in row.items():
        if value is None or value == "":
            continue
        parts = key.split(".") if "." in key else [key]
        node: Any = out
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            nxt: Any = value if last else ([] if _index(parts[i + 1]) else {})
            if isinstance(node, list) and not _index(part):
                break  # a list cannot take a named field: keep what was built
            if isinstance(node, list):
                index = int(part) if part.isdigit() else len(node)
                while len(node) <= index:
                    node.append(None)
                if node[index] is None or last:
                    node[index] = nxt
                node = node[index]
            else:
                if part not in node or last:
                    node[part] = nxt
                node = node[part]
    kept: dict[str, Any] = _drop_holes(out)
    return kept


def _field_name(cell: str) -> bool:
    """A header cell: a short name ("price", "items.0.price", "Order ID"), not a clause
    and not a value ("0.0.0.0:8080->8080/tcp", "42")."""
    return (
        0 < len(cell) <= 120
        and len(cell.split()) <= 3
        and cell[-1:] not in ".!?"
        and not _value_like(cell)
    )


def _value_like(cell: str) -> bool:
    """A cell that holds data: mostly digits, or digits joined by ":", "/", ">", "@"
    (an address, a port mapping, a date); "items.0.price" is a path, not a value."""
    digits = sum(c.isdigit() for c in cell)
    letters = sum(c.isalpha() for c in cell)
    return digits > letters or _JOINED_DIGITS.search(cell) is not None


_JOINED_DIGITS = re.compile(r"\d[:/>@]|[:/>@]\d")


def _headerless(rows: list[list[str]]) -> list[dict[str, Any]] | None:
    """Tab-separated rows with no header (``docker ps --format '{{.Names}}\t{{.Ports}}'``,
    ``cut``, ``sqlite3 -separator``): the first column names each row, as the NAME
    column of a CLI table does; the others are ``column2``, ``column3``, ..."""
    body = [[c.strip() for c in r] for r in rows if any(c.strip() for c in r)]
    width = len(body[0])
    names = [r[0] for r in body]
    if (
        len(body) < 2
        or any(len(r) != width for r in body)
        or len(set(names)) != len(names)
        or not all(n and len(n) <= 60 and not _value_like(n) for n in names)
    ):
        return None
    return [
        {"name": r[0], **{f"column{i + 1}": c for i, c in enumerate(r) if i and c}} for r in body
    ]


def _index(part: str) -> bool:
    """A path segment that is a list position ("0".."999"); longer digit runs are keys
    ("variants.6259501109.price": an id, not position six billion)."""
    return part.isdigit() and len(part) <= 3


def _drop_holes(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _drop_holes(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_drop_holes(v) for v in value if v is not None]
    return value


class CsvFormat(Format):
    """Comma- or tab-separated rows under a header: a list of objects."""

    name = "csv"

    def parse(self, text: str) -> Any | None:
        first, _, rest = text.partition("\n")
        if not rest.strip():
            return None
        delimiter = "\t" if first.count("\t") >= 1 else ","
        if first.count(delimiter) < 1 or first.lstrip()[:1] in "{[|#":
            return None
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
        header = [h.strip() for h in rows[0]]
        if delimiter == "\t" and any(_value_like(h) for h in header):
            return _headerless(rows)
        if len(set(header)) != len(header) or not all(_field_name(h) for h in header):
            return None  # "Deployed api to prod, 12 replicas ready" is prose, not a header
        body = [r for r in rows[1:] if any(c.strip() for c in r)]
        if not body or any(len(r) != len(header) for r in body):
            return None
        return [unflatten({h: c.strip() for h, c in zip(header, r, strict=True)}) for r in body]
