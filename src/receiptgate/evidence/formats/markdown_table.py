"""Markdown (pipe) tables: a list of objects keyed by the header cells."""

from __future__ import annotations

import re
from typing import Any

from receiptgate.evidence.formats import Format
from receiptgate.text.tables import cells

_SEPARATOR = re.compile(r"^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?$")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in cells(line)]


class MarkdownTableFormat(Format):
    """A pipe table (header, separator, rows); text around it is ignored."""

    name = "markdown_table"

    def parse(self, text: str) -> Any | None:
        if "|" not in text or "-" not in text:
            return None
        lines = [ln for ln in text.split("\n") if ln.strip()]
        for i in range(len(lines) - 1):
            if "|" in lines[i] and _SEPARATOR.match(lines[i + 1].strip()):
                header = _cells(lines[i])
                rows = []
                for ln in lines[i + 2 :]:
                    if "|" not in ln:
                        break
                    cells = _cells(ln)
                    if len(cells) != len(header):
                        break
                    rows.append(
                        {
                            h or f"column{j}": c
                            for j, (h, c) in enumerate(zip(header, cells, strict=True))
                            if c
                        }
                    )
                return rows or None
        return None
