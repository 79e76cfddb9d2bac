"""Receipt content formats: each turns text into a data tree, or says it is not its format.

A *tree* is what ``json.loads`` returns: dicts, lists and scalars. Every format
is one small module with a ``Format`` subclass (``name``, ``parse``); the
registry tries them in order and the first that returns a tree wins; text no
format reads stays text (its figures are read from the prose). The detector
registry (``claims/detectors/base.py``) is the model: built-ins and plugins
register the same way.

A tool result that arrives as a JSON string holding JSON is parsed once more,
so ``"{\\"price\\": 153}"`` gives the same records as ``{"price": 153}``; a value
that is itself ``key=value`` fields (``"old index: mean=120ms"``) is a record too.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar

from receiptgate.evidence.formats.tabular import header_rows, named_rows, tags_of

#: Content longer than this is not parsed into records (its figures are still read
#: as text): a bound on the cost one receipt can have.
MAX_PARSE_CHARS = 2_000_000


class Format:
    """One content format. Subclasses set ``name`` and implement ``parse``."""

    name: ClassVar[str] = ""
    #: Records of data (an API's JSON, a CSV export), not the status output of a program
    #: (``kubectl get pods``, ``key: value`` lines): a field named "installed" in data is
    #: no installed package.
    data: ClassVar[bool] = True

    def parse(self, text: str) -> Any | None:
        """The data tree of ``text``, or ``None`` when it is not in this format.

        Must be cheap to refuse: check the shape of the first line before parsing.
        """
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a receipt's content turned out to be."""

    format: str  # a Format's name, or "text"
    tree: Any  # the data tree; the text itself for "text"


class FormatRegistry:
    """Formats in the order they are tried."""

    def __init__(self, formats: Iterable[Format] = ()) -> None:
        self._formats: list[Format] = []
        for f in formats:
            self.register(f)

    def register(self, fmt: Format) -> None:
        if not fmt.name or any(f.name == fmt.name for f in self._formats):
            raise ValueError(f"format {fmt.name!r}: a format needs a unique name")
        self._formats.append(fmt)

    def __iter__(self) -> Any:
        return iter(self._formats)

    def parse(self, text: str) -> Parsed:
        """The first format that reads ``text``; plain text when none does."""
        stripped = text.lstrip("\ufeff").strip()  # a byte-order mark is no content
        if not stripped or len(stripped) > MAX_PARSE_CHARS:
            return Parsed("text", text)
        for fmt in self._formats:
            try:
                tree = fmt.parse(stripped)
            except (ValueError, TypeError, RecursionError):
                tree = None
            if tree is not None and _has_structure(tree):
                if _deeper_than(tree, MAX_DEPTH):
                    # a tree nested past any real record (a result built to exhaust the
                    # stack): read as plain text, never a crash
                    return Parsed("text", text)
                return Parsed(fmt.name, _reparse_strings(tree, self))
        return Parsed("text", text)


#: How deep a data tree is read as records; deeper content is plain text.
MAX_DEPTH = 64


def _deeper_than(tree: Any, limit: int) -> bool:
    """Whether a tree nests more than ``limit`` levels (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(node, dict):
            stack.extend((v, depth + 1) for v in node.values() if isinstance(v, dict | list))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node if isinstance(v, dict | list))
    return False


_LOGFMT_PAIR = re.compile(r"([A-Za-z_][\w.\-]*)=([^\s=\"']+)")
_LOGFMT_VALUE = re.compile(
    r"\s*[A-Za-z_][\w.\-]*=[^\s=\"']+(?:\s+[A-Za-z_][\w.\-]*=[^\s=\"']+)*\s*"
)


def mostly_prose(tree: Any) -> bool:
    """Whether most values of a tree are sentences (eight words or more): a markdown list
    of rules ("- Travel insurance: the agent should ask if ...") that YAML or ``key:
    value`` lines would read as fields is a document, read as text."""
    values: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)
        elif isinstance(node, str):
            values.append(node)

    walk(tree)
    long = sum(len(v.split()) >= 8 for v in values)
    return bool(values) and long * 2 >= len(values)


def _has_structure(tree: Any) -> bool:
    """A tree worth reading as records: a mapping, or a list holding one."""
    if isinstance(tree, dict):
        return bool(tree)
    if isinstance(tree, list):
        return any(isinstance(v, dict | list) for v in tree)
    return False


def _reparse_strings(tree: Any, registry: FormatRegistry, depth: int = 0) -> Any:
    """JSON inside a string value (a tool that returns JSON as text) becomes a tree."""
    if depth > 3:
        return tree
    if isinstance(tree, dict):
        tree = named_rows(tree)
        out = {}
        for k, v in tree.items():
            tags = tags_of(v) if isinstance(v, list) else None
            out[k] = tags if tags is not None else _reparse_strings(v, registry, depth)
        return out
    if isinstance(tree, list):
        tree = header_rows(tree)
        return [_reparse_strings(v, registry, depth) for v in tree]
    if isinstance(tree, str) and _LOGFMT_VALUE.fullmatch(tree) is not None:
        # "old index: mean=120ms": the value is itself fields (logfmt), read as a record
        return {k: v for k, v in _LOGFMT_PAIR.findall(tree)}
    if isinstance(tree, str) and len(tree) > 1 and tree.lstrip()[:1] in "{[":
        from receiptgate.evidence.formats.json_format import JsonFormat

        inner = JsonFormat().parse(tree.strip())
        if inner is not None and _has_structure(inner):
            return _reparse_strings(inner, registry, depth + 1)
    return tree


def builtin_formats() -> list[Format]:
    """The built-in formats, in the order they are tried."""
    from receiptgate.evidence.formats.cli_table import CliTableFormat
    from receiptgate.evidence.formats.csv_format import CsvFormat
    from receiptgate.evidence.formats.json_format import JsonFormat, JsonLinesFormat
    from receiptgate.evidence.formats.key_value import KeyValueFormat
    from receiptgate.evidence.formats.markdown_table import MarkdownTableFormat
    from receiptgate.evidence.formats.yaml_format import YamlFormat

    return [
        JsonFormat(),
        JsonLinesFormat(),
        MarkdownTableFormat(),
        CsvFormat(),
        CliTableFormat(),
        YamlFormat(),
        KeyValueFormat(),
    ]


_DEFAULT: FormatRegistry | None = None


def default_registry() -> FormatRegistry:
    """The registry with the built-in formats (built once)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = FormatRegistry(builtin_formats())
    return _DEFAULT


def is_data_format(name: str) -> bool:
    """Whether the built-in or registered format ``name`` holds data (``Format.data``);
    plain text does not."""
    return any(f.name == name and f.data for f in default_registry())


def parse_content(text: str, registry: FormatRegistry | None = None) -> Parsed:
    """``text`` as a data tree in the first format that reads it (see the module doc)."""
    return (registry or default_registry()).parse(text)


Parser = Callable[[str], Any]
