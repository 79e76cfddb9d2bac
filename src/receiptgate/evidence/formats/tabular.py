"""Tables inside data: a query result of column names and rows of values, rows under a
row of names, and a list of key/value tags, each read as records of named fields (the
formats registry applies them to every parsed tree)."""

from __future__ import annotations

from typing import Any

#: Where a query result gives its column names, and its rows as lists of values.
_COLUMN_KEYS = ("columns", "column_names", "headers", "header", "fields", "schema", "cols")
_ROW_KEYS = ("rows", "data", "values", "records", "results")


def _column_name(c: Any) -> str | None:
    if isinstance(c, str):
        return c
    if isinstance(c, dict) and isinstance(c.get("name"), str):
        return str(c["name"])  # {"name": "revenue", "type": "numeric"}
    return None


def named_rows(tree: dict[str, Any]) -> dict[str, Any]:
    """A query result of column names and rows of values (``{"columns": ["plan",
    "revenue"], "rows": [["Pro", 48210]]}``) with each row as a record of named fields,
    so that 48210 is the Pro row's revenue, not a loose number."""
    cols_key = next((k for k in _COLUMN_KEYS if isinstance(tree.get(k), list)), None)
    rows_key = next((k for k in _ROW_KEYS if isinstance(tree.get(k), list)), None)
    if cols_key is None or rows_key is None:
        return tree
    names = [_column_name(c) for c in tree[cols_key]]
    rows = tree[rows_key]
    if not names or None in names or not rows:
        return tree
    if not all(isinstance(r, list) and len(r) == len(names) for r in rows):
        return tree
    named = [dict(zip(names, r, strict=True)) for r in rows]
    return {**{k: v for k, v in tree.items() if k != rows_key}, rows_key: named}


#: The two fields of a tag: {"Key": "Name", "Value": "checkout-web-1"}.
_TAG_FIELDS = ({"key", "value"}, {"name", "value"})


def tags_of(tree: list[Any]) -> dict[str, Any] | None:
    """A list of key/value pairs (AWS's ``Tags``) as the fields it names: ``{"Name":
    "checkout-web-1"}``, so that the instance is named; ``None`` for another list."""
    if not tree or not all(isinstance(t, dict) and len(t) == 2 for t in tree):
        return None
    out: dict[str, Any] = {}
    for t in tree:
        low = {str(k).lower(): v for k, v in t.items()}
        if set(low) not in _TAG_FIELDS:
            return None
        name = low.get("key", low.get("name"))
        if not isinstance(name, str) or not name or isinstance(low["value"], dict | list):
            return None
        out[name] = low["value"]
    return out


def header_rows(tree: list[Any]) -> list[Any]:
    """Rows of values under a first row of names (``[["plan", "revenue"], ["Pro",
    48210]]``): each row a record of named fields."""
    if len(tree) < 2 or not all(isinstance(r, list) for r in tree):
        return tree
    head = tree[0]
    if not head or not all(isinstance(c, str) for c in head):
        return tree
    rows = tree[1:]
    if not all(len(r) == len(head) for r in rows):
        return tree
    if all(all(isinstance(c, str) for c in r) for r in rows):
        return tree  # strings throughout: no row of names above values
    return [dict(zip(head, r, strict=True)) for r in rows]
