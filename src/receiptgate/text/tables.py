"""The column a table cell of a reply sits in: its header says what the cell's figure is.

A markdown table's rows are sentences of their own (``text/segment``), and a row like
``| 1 | HAT286 + HAT047 | Business | $601 | $1,803 | +$1,008 |`` names no operation; its
header ``| Option | Flights | Cabin | Per person | Total for 3 | Difference |`` does. A
cell read with its column's header ("Total for 3: $1,803") is a labelled value like
any other line of the reply.
"""

from __future__ import annotations

from receiptgate.text.segment import Sentence, is_table_separator

#: Lines looked up from a row for its table's separator.
_MAX_ROWS = 60


def cell_label(text: str, row: Sentence, pos: int) -> tuple[str, str] | None:
    """The header of the column that offset ``pos`` of table row ``row`` sits in, and the
    cell's own text; ``None`` when the row is no table row, its table has no header row
    (the row right above a ``|---|`` separator) or the two count their cells differently."""
    if not row.start <= pos < row.end:
        return None
    header = _header(text, row)
    if header is None:
        return None
    heads = cells(header)
    row_cells = cells(row.text)
    if len(heads) != len(row_cells):
        return None
    offset = pos - row.start
    at = len(row.text) - len(row.text.lstrip()) + (1 if row.text.lstrip().startswith("|") else 0)
    for head, cell in zip(heads, row_cells, strict=True):
        if at <= offset <= at + len(cell):
            label = _plain(head)
            return (label, cell.strip()) if label else None
        at += len(cell) + 1
    return None


def row_label(row: Sentence) -> str:
    """A table row's first cell, plain ("| **Difference** | | $222 |": "Difference")."""
    found = cells(row.text) if row.kind == "table_row" else []
    return _plain(found[0]) if found else ""


def row_subject(text: str, row: Sentence) -> str | None:
    """What a table's rows are, by the header of its first column ("| Attempt | Cabin |
    Result |": each row is an attempt), or ``None`` (no header)."""
    header = _header(text, row)
    if header is None:
        return None
    heads = cells(header)
    return _plain(heads[0]) or None if heads else None


def _plain(cell: str) -> str:
    return cell.strip().strip("*_ ").strip()


def _header(text: str, row: Sentence) -> str | None:
    """The header line of the table a row sits in (the line right above its ``|---|``
    separator), or ``None``."""
    if row.kind != "table_row":
        return None
    line_start = text.rfind("\n", 0, row.start) + 1
    cursor = line_start
    header: str | None = None
    for _ in range(_MAX_ROWS):
        if cursor == 0:
            return None
        prev_start = text.rfind("\n", 0, cursor - 1) + 1
        if is_table_separator(text, prev_start):
            if prev_start == 0:
                return None
            head_start = text.rfind("\n", 0, prev_start - 1) + 1
            header = text[head_start : prev_start - 1]
            break
        if not text[prev_start:cursor].lstrip().startswith("|"):
            return None  # the table ended above the row: no header
        cursor = prev_start
    if header is None or header.lstrip()[:1] != "|":
        return None
    return header


def cells(line: str) -> list[str]:
    """The cells of a table line, without its outer pipes (``| a | b |`` -> `` a ``, `` b ``)."""
    inner = line.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|"):
        inner = inner[:-1]
    return inner.split("|")
