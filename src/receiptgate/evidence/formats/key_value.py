"""``key: value`` and ``key=value`` lines; a repeated key starts a new record."""

from __future__ import annotations

import re
from typing import Any

from receiptgate.evidence.formats import Format, mostly_prose

_PAIR = re.compile(r"^\s*([A-Za-z_][\w .\-/()]{0,60}?)\s*(?::|=)\s*(.*?)\s*$")
# logfmt: several key=value pairs on a line ("quarter=2025-Q4 revenue_usd=2400000").
# One field alone on its line ("revenue_usd=2300000"): a record of one field.
_FIELD_ONLY = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+=\S+")
_LOGFMT = re.compile(r"""([A-Za-z_][\w.\-]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)""")


#: The label of a command's output in a tool's report ("Stdout:", "Output:"): the lines
#: under it are its value.
_OUTPUT_KEY = re.compile(
    r"(?i)(?:std\s*out|std\s*err|output|result|error|errors|logs?|response|body|content)"
)

#: The labels of a tool's report of a command (what ends the output under "Stdout:").
_REPORT_KEY = re.compile(
    r"(?i)(?:std\s*out|std\s*err|output|error|errors|exit[\s_]?code|exit\s+status|"
    r"return\s*code|signal|background\s+pids|process\s+group\s+pgid|directory|cwd|command|"
    r"duration|elapsed)"
)

#: A value that is one figure ("55", "12.5 ms", "98%").
_ONE_FIGURE = re.compile(r"-?\d[\d,]*(?:\.\d+)?\s*(?:%|[A-Za-z]{1,5})?")


class KeyValueFormat(Format):
    """Lines of ``key: value`` (at least two, and most lines; or one line that gives one
    figure, "total: 55"): an object, or a list of
    objects when keys repeat (``name: a / status: up / name: b / status: down``); or
    logfmt, several ``key=value`` pairs a line, one object a line."""

    name = "key_value"
    data = False

    def parse(self, text: str) -> Any | None:
        if ":" not in text and "=" not in text:
            return None  # no line can hold a pair
        lines = [ln for ln in text.split("\n") if ln.strip()]
        rows = [_LOGFMT.findall(ln) if "=" in ln else [] for ln in lines]
        single = len(lines) == 1 and len(rows[0]) == 1 and _FIELD_ONLY.fullmatch(lines[0].strip())
        if single or (rows and sum(len(r) >= 2 for r in rows) >= max(1, 0.6 * len(lines))):
            # One record a line: every line a row of key=value pairs.
            lines_ = []
            for ln, pairs in zip(lines, rows, strict=True):
                if not pairs:
                    continue
                row = {k: v.strip("\"'") for k, v in pairs}
                rest = _LOGFMT.sub(" ", ln).strip()
                if rest:  # "2026-03-06T17:45:10Z deploy service=api ...": the line's head
                    row.setdefault("message", rest)
                lines_.append(row)
            return lines_[0] if len(lines_) == 1 else lines_
        pairs, lines = _continued(lines)
        if len(lines) == 1 and pairs and _ONE_FIGURE.fullmatch(pairs[0][1]):
            # "total: 55" alone: a program printing one labelled figure
            return {pairs[0][0]: pairs[0][1]}
        if len(pairs) < 2 or len(pairs) < 0.6 * len(lines):
            return None
        if mostly_prose([value for _, value in pairs]):
            return None  # "Note: the refund goes to ...": sentences under labels, a document
        records: list[dict[str, str]] = [{}]
        for key, value in pairs:
            if key in records[-1]:
                records.append({})
            records[-1][key] = value
        return records[0] if len(records) == 1 else records


def _continued(lines: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """The ``key: value`` pairs of some lines, a line that is no pair continuing the value
    above it ("Stdout: ...." then "4 passed in 0.12s": a shell tool's report of a command,
    the output under its label), and the lines counted for the share of pairs (a
    continued value counts as one line). Only an output's label is continued, up to the
    report's next label (``_REPORT_KEY``): under another key, a line that is no pair is
    no part of the record."""
    pairs: list[tuple[str, str]] = []
    counted: list[str] = []
    for ln in lines:
        m = _PAIR.match(ln)
        in_output = bool(pairs) and _OUTPUT_KEY.fullmatch(pairs[-1][0]) is not None
        if m is not None and in_output and not _REPORT_KEY.fullmatch(m.group(1).strip()):
            # "Active: active (running)" printed by the command: a line of its output,
            # until the report's own next label ("Stderr:", "Exit Code:")
            m = None
        if m is not None and (m.group(2) or _OUTPUT_KEY.fullmatch(m.group(1).strip())):
            # "Stdout:" alone on its line: the output follows
            pairs.append((m.group(1).strip(), m.group(2)))
            counted.append(ln)
        elif in_output:
            key, value = pairs[-1]
            pairs[-1] = (key, f"{value}\n{ln.strip()}" if value else ln.strip())
        else:
            counted.append(ln)
    return pairs, counted
