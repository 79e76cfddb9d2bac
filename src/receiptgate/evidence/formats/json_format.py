"""JSON documents and JSON Lines."""

from __future__ import annotations

import json
from typing import Any

from receiptgate.evidence.formats import Format


class JsonFormat(Format):
    """One JSON document: an object or an array."""

    name = "json"

    def parse(self, text: str) -> Any | None:
        if text[:1] == '"' and text[-1:] == '"':
            # JSON encoded twice: a string holding a document
            try:
                inner = json.loads(text)
            except json.JSONDecodeError:
                return None
            return self.parse(inner.strip()) if isinstance(inner, str) else None
        if text[:1] not in "{[":
            return None
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            return None


class JsonLinesFormat(Format):
    """One JSON value per line (``{...}\\n{...}``): a list of them."""

    name = "jsonl"

    def parse(self, text: str) -> Any | None:
        if text[:1] != "{" or "\n" not in text:
            return None
        out = []
        for line in text.split("\n"):
            line = line.strip()
            if not line:
                continue
            if line[:1] not in "{[":
                return None
            try:
                out.append(json.loads(line))
            except json.JSONDecodeError:
                return None
        return out if len(out) > 1 else None
