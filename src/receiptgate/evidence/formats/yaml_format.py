"""YAML mappings and lists, every scalar kept as text (typed later, from its field)."""

from __future__ import annotations

import re
from typing import Any

import yaml

from receiptgate.evidence.formats import Format, mostly_prose

# A first line that starts a YAML mapping or list: "key:" or "- ".
_START = re.compile(r"^(?:[A-Za-z_][\w .\-/]*:(?:\s|$)|-\s)")
_TOP_KEY = re.compile(r"^([A-Za-z_][\w .\-/]*):(?:\s|$)")
_HASH_VALUE = re.compile(r":\s+#\S")
_FIGURE_COMMENT = re.compile(r"^[ \t]*#[^\n]*\d", re.MULTILINE)


class YamlFormat(Format):
    """A YAML document of at least two lines, read with the base loader.

    The base loader keeps every scalar a string: YAML 1.1 would read ``06:00:00`` as
    21600 and ``no`` as false, which are not what a tool printed.
    """

    name = "yaml"

    def parse(self, text: str) -> Any | None:
        lines = [ln for ln in text.split("\n") if ln.strip() and not ln.lstrip().startswith("#")]
        if len(lines) < 2 or not _START.match(lines[0]):
            return None
        if _FIGURE_COMMENT.search(text):
            # "## 1.8.5 (2026-02-27)" over "- Fix: ...": a markdown heading, not a comment;
            # read as YAML its figures would be lost (plain text keeps them)
            return None
        nested = any(ln[:1] in " \t-" for ln in lines[1:])
        top = [m.group(1) for ln in lines if (m := _TOP_KEY.match(ln))]
        if len(set(top)) < len(top) or any(_HASH_VALUE.search(ln) for ln in lines):
            # Repeated keys are several records ("name: api ... name: worker"), and
            # "order_id: #W1" is a value, not a comment: key: value lines read those.
            return None
        try:
            tree = yaml.load(text, Loader=yaml.BaseLoader)
        except yaml.YAMLError:
            return None
        if mostly_prose(tree):
            return None  # rules or notes in a list: a document
        if isinstance(tree, dict) and (nested or len(tree) >= 2):
            return tree
        if isinstance(tree, list) and any(
            isinstance(v, dict) or (isinstance(v, list) and any(isinstance(w, dict) for w in v))
            for v in tree
        ):
            return tree  # rows, or groups of rows ("- - flight_number: HAT110")
        return None
