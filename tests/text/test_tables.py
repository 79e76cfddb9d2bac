"""A table cell's column header (text/tables): what a row's figure is."""

from __future__ import annotations

from receiptgate.text.segment import segment
from receiptgate.text.tables import cell_label

TABLE = (
    "Your options:\n\n"
    "| Option | Flights | Per person | Total for 3 |\n"
    "|---|:---|--:|---|\n"
    "| 1 | HAT286 + HAT047 | $601 | $1,803 |\n"
    "| 2 | HAT190 + HAT047 | $278 | $834 |\n"
)


def _label(text: str, token: str) -> tuple[str, str] | None:
    at = text.index(token)
    row = next(s for s in segment(text) if s.start <= at < s.end)
    return cell_label(text, row, at)


def test_a_cell_is_read_with_its_columns_header() -> None:
    assert _label(TABLE, "$1,803") == ("Total for 3", "$1,803")
    assert _label(TABLE, "$278") == ("Per person", "$278")
    assert _label(TABLE, "HAT190") == ("Flights", "HAT190 + HAT047")


def test_the_header_row_itself_and_prose_have_no_column() -> None:
    assert _label(TABLE, "Per person") is None
    assert _label(TABLE, "options") is None


def test_a_table_without_a_separator_row_or_with_other_cells_has_no_header() -> None:
    assert _label("| a | b |\n| 1 | $2 |\n", "$2") is None
    assert _label("| a | b |\n|---|---|\n| 1 | $2 | extra |\n", "$2") is None
