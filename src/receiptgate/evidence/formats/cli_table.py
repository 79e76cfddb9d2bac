"""Column tables that command-line tools print (``kubectl get``, ``docker ps``, ``ps``)."""

from __future__ import annotations

import re
from typing import Any

from receiptgate.evidence.formats import Format

_HEADER_WORD = re.compile(r"%?[A-Z][A-Z0-9_%()/.-]*(?: [A-Z][A-Z0-9_%()/.-]*)?")
_WIDE_GAP = re.compile(r" {2,}|\t")
# Second words of two-word column headers ("CONTAINER ID", "NODE NAME", "CLUSTER IP").
_SECOND_WORDS = frozenset({"ID", "NAME", "IP", "TYPE", "STATUS", "TIME", "IMAGE", "PORTS"})


class CliTableFormat(Format):
    """An upper-case header line and at least one row: a list of objects.

    Rows split where the header does: on runs of two or more spaces
    (``kubectl``, ``docker``: "CONTAINER ID" is one column), else on single
    spaces with the last column taking the rest of the line (``ps``: the
    command keeps its arguments), else at the header cells' positions.
    """

    name = "cli_table"
    data = False

    def parse(self, text: str) -> Any | None:
        lines = [ln.rstrip() for ln in text.split("\n") if ln.strip()]
        if len(lines) < 2:
            return None
        header = lines[0].strip()
        words = header.split()
        if len(words) < 2 or not all(_HEADER_WORD.fullmatch(w) for w in words):
            return None
        rows = [ln.strip() for ln in lines[1:]]
        wide = _WIDE_GAP.split(header)
        two_word_ok = all(" " not in c or c.split()[-1] in _SECOND_WORDS for c in wide)
        if (
            len(wide) >= 2
            and two_word_ok
            and all(len(_WIDE_GAP.split(r)) == len(wide) for r in rows)
        ):
            return [dict(zip(wide, _WIDE_GAP.split(r), strict=True)) for r in rows]
        if len(wide) >= 2 and two_word_ok and any(" " in c for c in wide):
            # "CONTAINER ID" is one column and a row has an empty cell (a stopped
            # container has no PORTS): the header's positions split the rows
            return self._fixed(lines[0], lines[1:])
        if all(len(r.split(None, len(words) - 1)) == len(words) for r in rows):
            return [dict(zip(words, r.split(None, len(words) - 1), strict=True)) for r in rows]
        return self._fixed(lines[0], lines[1:])

    @staticmethod
    def _fixed(header: str, rows: list[str]) -> list[dict[str, str]] | None:
        starts = [m.start() for m in re.finditer(r"\S+(?: \S+)*", header)]
        names = [header[a:b].strip() for a, b in zip(starts, [*starts[1:], None], strict=True)]
        if len(names) < 2 or not all(names):
            return None
        out = []
        for row in rows:
            cells = [
                row[a:b].strip() if b is not None else row[a:].strip()
                for a, b in zip(starts, [*starts[1:], None], strict=True)
            ]
            out.append({n: c for n, c in zip(names, cells, strict=True) if c})
        return out
