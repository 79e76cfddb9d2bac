"""Records: a receipt's data tree as typed leaves grouped under the objects they describe.

Each leaf keeps its field path (``reservations[2].flights[0].price``), its field
name and its typed :class:`~receiptgate.evidence.values.Value`. A *record* is
the nearest object with an id-like or name-like field (``order_id``, ``id``,
``flight_number``, ``name``, ``first_name``), or the whole document; an object
without one (``address``, ``options``) belongs to the record around it. A
record knows the ids and names that point at it, so a sentence that names
``#W4923227`` finds that order, its items and its payments.

Plain text (a user message, a log) becomes one record whose leaves are the
figures, dates and ids read from the prose.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, time
from typing import Any

from receiptgate.checks.words import content_words
from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import HardFact
from receiptgate.evidence.formats import parse_content
from receiptgate.evidence.values import (
    ID_KEYS,
    NAME_KEYS,
    VERSION_IN_TOKEN,
    Value,
    fact_value,
    is_epoch,
    key_words,
    leaf_value,
    seconds_keys,
)

#: Leaves one receipt contributes at most (a bound on the cost of one receipt).
MAX_LEAVES = 20_000


@dataclass(slots=True, eq=False)
class Record:
    """One object a receipt describes (an order, a flight, a user), or a whole text."""

    path: str  # "" for the document root
    parent: Record | None = None
    ids: list[str] = field(default_factory=list)  # lowercase ids that name it
    names: list[str] = field(default_factory=list)  # lowercase names that name it
    people: list[str] = field(default_factory=list)  # person names ("mia li") among them
    leaves: list[Leaf] = field(default_factory=list)
    children: list[Record] = field(default_factory=list)
    _numeric: tuple[Leaf, ...] | None = field(default=None, repr=False)
    #: Per sentence (lowercase), the leaves of its rows that the sentence names (see
    #: checks/rows.other_row); a few sentences kept, as a figure asks again and again.
    named_by: dict[str, tuple[tuple[Record, Leaf], ...]] = field(default_factory=dict, repr=False)

    def numeric_leaves(self) -> tuple[Leaf, ...]:
        """Its leaves with a number that are no identifier (what arithmetic may take;
        worked out once: a record does not change after it is built)."""
        if self._numeric is None:
            self._numeric = tuple(
                leaf
                for leaf in self.leaves
                if leaf.value.number is not None
                and not any(k.startswith("i:") for k in leaf.value.keys)
            )
        return self._numeric

    @property
    def root(self) -> Record:
        """The document record this one belongs to (one per receipt and part)."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def subtree(self) -> Iterator[Record]:
        yield self
        for child in self.children:
            yield from child.subtree()

    def subtree_leaves(self) -> Iterator[Leaf]:
        for rec in self.subtree():
            yield from rec.leaves

    def lineage(self) -> Iterator[Record]:
        node: Record | None = self
        while node is not None:
            yield node
            node = node.parent

    def label(self) -> str:
        return self.ids[0] if self.ids else (self.names[0] if self.names else self.path or "")

    def row(self) -> Record:
        """The row an object field belongs to: ``appointments[2]`` of
        ``appointments[2].provider`` (up through fields that are objects, to a list's
        item or a record with an id of its own)."""
        row = self
        while row.parent is not None and not row.ids and not row.path.endswith("]"):
            row = row.parent
        return row

    def fields(self) -> Iterator[Record]:
        """The record and its object fields, not the items of its lists (another row
        each): ``appointments[2]``, its ``provider`` and its ``start``."""
        yield self
        for child in self.children:
            if not child.path.endswith("]"):
                yield from child.fields()


@dataclass(slots=True, eq=False)
class Leaf:
    """One typed value at one field path."""

    record: Record
    path: str
    key: str  # the field name ("price"); a list's field for its items ("orders")
    words: tuple[str, ...]  # words of the field and of its parent field
    value: Value
    quote: str = ""  # in a text: the words around the value, as evidence shows them


def _is_id_key(words: tuple[str, ...], key: str) -> bool:
    return bool(words) and (
        words[-1] in ID_KEYS or key.endswith(("_id", "Id", "_number", "Number", "_code"))
    )


def _is_name_key(key: str) -> bool:
    low = key.lower()
    return (
        low in NAME_KEYS
        or low in _LABEL_KEYS
        or low.endswith("_name")
        # "displayName", "customerName": a camelCase name field
        or (key.endswith("Name") and key[:1].islower())
    )


#: Fields that name their row in words though they are not called a name: a transaction's
#: "description" ("Netflix"), a "merchant", a "payee" (short values only: _short_name).
_LABEL_KEYS = frozenset(
    {
        "description",
        "merchant",
        "payee",
        "vendor",
        "label",
        "company",
        "medication",
        "drug",
        "carrier",
        # a timetable's leg is called by its train or ship ("ICE 594", "TGV 9576")
        "train",
        "vessel",
    }
)


def _short_name(key: str, value: str) -> bool:
    """Whether a name field's value names the row: any value of a field called a name,
    a short one of a label field ("Whole Foods Market", not a paragraph)."""
    return key.lower() not in _LABEL_KEYS or (len(value) <= 60 and len(value.split()) <= 6)


def _path(parent: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{parent}[{key}]"
    if _plain_key(key):
        return f"{parent}.{key}" if parent else key
    escaped = key.replace('"', '\\"')
    return f'{parent}["{escaped}"]'


@functools.lru_cache(maxsize=8192)
def _plain_key(key: str) -> bool:
    """Whether a field name is written after a dot (``a.price``), not in brackets (field
    names repeat row after row: worked out once each)."""
    return _PLAIN_KEY.fullmatch(key) is not None


_PLAIN_KEY = re.compile(r"[A-Za-z_][\w-]*")


#: The hashes a controller appends to what it names: a Kubernetes pod's replica set and
#: pod suffixes ("worker-5c7b9d4f8-lx2vn"), or a replica set's alone ("worker-5c7b9d4f8").
_GENERATED = re.compile(
    r"^([a-z][a-z0-9-]*?)-(?=(?:[a-z]*\d){2})(?=(?:\d*[a-z]){2})[a-z0-9]{8,10}(?:-[a-z0-9]{5})?$"
)


def _generated_stem(name: str) -> str | None:
    """The name a generated name was made from ("worker" of "worker-5c7b9d4f8-lx2vn"):
    what a reply calls it ("the worker pod")."""
    m = _GENERATED.match(name)
    return m.group(1) if m is not None else None


#: Fields that hold what a command printed ("output", "stdout"): printed text, whatever
#: its length (checks/calls reads a run's output from them too).
OUTPUT_FIELDS = frozenset(
    "output stdout stderr out err result text content logs log message error body".split()
)

#: ... and any field's value with a line break in it, or a long line.
#: An object that is a state of its record ({"State": {"Code": 80, "Name": "stopped"}}):
#: its code and name are the record's state, not the id and name of a record of its own.
_STATE_OBJECT = re.compile(r"state|status|health|phase|lifecycle", re.IGNORECASE)
_PRINTED = re.compile(r"\n|^.{120}")

#: ... or a phrase of three words or more with a figure in it ("International roaming - 3
#: days", "Device installment 8 of 24"): its figures are values too.
_PHRASE_FIGURE = re.compile(r"^(?=[^\n]*\d)(?:\S+\s+){2,}\S")


class _Builder:
    def __init__(self, day: datetime | None = None) -> None:
        self.records: list[Record] = []
        self.leaves = 0
        self.day = day  # what a relative date in a value ("5 days ago") counts from

    def record(self, path: str, parent: Record | None) -> Record:
        rec = Record(path, parent)
        if parent is not None:
            parent.children.append(rec)
        self.records.append(rec)
        return rec

    def walk(self, node: Any, path: str, rec: Record, key: str, parent_key: str) -> None:
        if self.leaves >= MAX_LEAVES:
            return
        if isinstance(node, dict):
            self._object(node, path, rec, key)
        elif isinstance(node, list):
            for i, item in enumerate(node):
                if _sample(item):
                    # [1763460600, "16.9"]: a time series' sample (Prometheus, a chart's
                    # points) is a row of a moment and a value
                    item = {"timestamp": item[0], "value": item[1]}
                if isinstance(item, dict):
                    # A row of a list is a record of its own (a table row, an array item).
                    row = self.record(_path(path, i), rec)
                    self._object(item, _path(path, i), row, key, row=True)
                else:
                    self.walk(item, _path(path, i), rec, key, parent_key)
        else:
            words = key_words(key) + key_words(parent_key)
            value = leaf_value(key, node, None, day=self.day)
            if value is not None:
                rec.leaves.append(Leaf(rec, path, key, words, value))
                self.leaves += 1

    def _object(
        self, obj: dict[str, Any], path: str, rec: Record, via: str, *, row: bool = False
    ) -> None:
        scalars = {k: v for k, v in obj.items() if not isinstance(v, dict | list)}
        id_fields = [k for k, v in scalars.items() if _is_id_key(key_words(k), k) and v]
        name_fields = [
            k
            for k, v in scalars.items()
            if _is_name_key(k) and isinstance(v, str) and _short_name(k, v)
        ]
        if via and _STATE_OBJECT.fullmatch(via):
            id_fields = name_fields = []  # {"State": {"Code": 80, "Name": "stopped"}}
        own = rec
        if (id_fields or name_fields) and path and not row:
            own = self.record(path, rec)
        if via and re.search(r"\d", via) and " " not in via and own is not rec:
            own.ids.append(via.lower())  # {"credit_card_889": {...}}: the key names it
        for k in id_fields:
            v = str(scalars[k]).strip().lower()
            own.ids.append(v)
            if v.startswith("#"):
                own.ids.append(v[1:])
        for k in name_fields:
            own.names.append(" ".join(str(scalars[k]).lower().split()))
            if (stem := _generated_stem(own.names[-1])) is not None:
                own.names.append(stem)  # the "worker" pod of worker-5c7b9d4f8-lx2vn
        first = scalars.get("first_name", scalars.get("firstName"))
        last = scalars.get("last_name", scalars.get("lastName"))
        if isinstance(first, str) and isinstance(last, str):
            own.names.append(f"{first} {last}".lower())
            own.people.append(f"{first} {last}".lower())
        context = key_words(via)
        for k, v in obj.items():
            child = _path(path, k)
            if isinstance(v, dict | list):
                self.walk(v, child, own, k, via)
            elif self.leaves < MAX_LEAVES:
                value = leaf_value(k, v, scalars, context, day=self.day)
                if value is not None:
                    own.leaves.append(Leaf(own, child, k, key_words(k) + context, value))
                    self.leaves += 1
                if isinstance(v, str) and (
                    k.lower() in OUTPUT_FIELDS
                    or _PRINTED.search(v)
                    # a call's own arguments are what was asked, not what it printed
                    or (_PHRASE_FIGURE.match(v) and not child.startswith("args"))
                ):
                    self._printed(v, child, own)

    def _printed(self, text: str, path: str, rec: Record) -> None:
        """The figures and versions of a field that holds printed text, each a leaf of the
        record under that field's path, read as a text is (``text_records``): the
        ``output`` of ``{"output": "src/report.py:14: avg = mean(values)", "exit_code":
        0}`` holds line 14, the ``Stdout`` of a shell tool's report "numpy-1.26.4"."""
        parsed = parse_content(text)
        if parsed.format != "text" and isinstance(parsed.tree, dict | list):
            # a table or fields printed by the command ("kubectl get pods" inside Gemini
            # CLI's "Stdout:" or Codex CLI's JSON "output"): its rows are records, as
            # when the command's output is the whole result
            if isinstance(parsed.tree, dict):
                # fields of the result itself (a helm release's NAME and STATUS), beside
                # the arguments of the call that printed them
                self._object(parsed.tree, path, rec, "", row=True)
            else:
                self.walk(parsed.tree, path, rec, "", "")
            return
        for leaf in text_records(text, self.day)[0].leaves:
            if self.leaves >= MAX_LEAVES:
                return
            if leaf.value.kind == "id":
                continue  # a token of the text ("24hrs") is no id of the record
            rec.leaves.append(Leaf(rec, path, leaf.key, leaf.words, leaf.value, leaf.quote))
            self.leaves += 1


def _sample(item: Any) -> bool:
    """Whether a list item is a time series' ``[unix time, value]`` pair."""
    return (
        isinstance(item, list)
        and len(item) == 2
        and is_epoch(item[0])
        and isinstance(item[1], str | int | float)
        and not isinstance(item[1], bool)
    )


def records_of(tree: Any, when: datetime | None = None) -> list[Record]:
    """The records of one data tree (the first is the document's root); ``when``: the time
    the tree was read at, what a relative date in it ("5 days ago") counts from."""
    day = datetime.combine(when.date(), time(), UTC) if when is not None else None
    b = _Builder(day)
    root = b.record("", None)
    b.walk(tree, "", root, "", "")
    return b.records


# ------------------------------------------------------------------- plain text

_ID_TOKEN = re.compile(r"(?<![\w#])#?[A-Za-z0-9][A-Za-z0-9_\-]*\d[A-Za-z0-9_\-]*(?![\w])")
#: A number, or a number with a unit or an ordinal's ending ("27th", "5pm"): no id.
_NUMBERISH = re.compile(
    r"^-?[\d,]+(?:\.\d+)?$|^\d{1,4}(?:st|nd|rd|th|am|pm|h|m|s|k|x|kg|km|mb|gb)$", re.I
)


#: The hours and minutes of ``uptime``'s "up 2 days, 11:30," (or "up 11:30,").
_UPTIME_CLOCK = re.compile(r"\bup\s+(?:\d+\s+days?,\s+)?(\d{1,2}):(\d{2}),")

_WINDOW = 80


def _window(text: str, start: int, end: int, width: int = _WINDOW) -> tuple[int, int]:
    """The span of up to ``width`` characters each side of a value, on its line."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    return max(line_start, start - width), min(line_end, end + width)


def _window_words(text: str, h: HardFact) -> tuple[str, ...]:
    """The words around a figure on its line: what the figure is about. A figure in a
    markdown heading ("## 1.8.5 (2026-02-27)") is about the section under it."""
    left, right = _window(text, h.start, h.end)
    if _HEADING.match(text, text.rfind("\n", 0, h.start) + 1):
        nxt = _NEXT_HEADING.search(text, right)
        right = min(nxt.start() if nxt else len(text), right + _SECTION)
    return tuple(content_words(text[left : h.start] + " " + text[h.end : right]))


_HEADING = re.compile(r"[ \t]*#{1,6}[ \t]")
_NEXT_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]", re.MULTILINE)
#: How far into its section a heading's figure looks for what it is about.
_SECTION = 300


def _quote(text: str, start: int, end: int) -> str:
    left, right = _window(text, start, end, 40)
    snippet = " ".join(text[left:right].split())
    return ("…" if left > 0 else "") + snippet + ("…" if right < len(text) else "")


def text_records(text: str, now: datetime | None) -> list[Record]:
    """One record for a text: its figures and id-like tokens as leaves."""
    rec = Record("")
    for h in extract_hard_facts(text, now=now):
        if h.kind == "identifier":
            continue
        value = fact_value(h)
        if value is not None:
            words = _window_words(text, h)
            rec.leaves.append(Leaf(rec, "text", "text", words, value, _quote(text, h.start, h.end)))
    for m in _UPTIME_CLOCK.finditer(text):
        # uptime's "up 2 days, 11:30,": 11 hours 30 minutes up, no time of day
        span = int(m.group(1)) * 3600 + int(m.group(2)) * 60
        value = Value("duration", seconds_keys(span), m.group(0).strip(" ,"))
        rec.leaves.append(
            Leaf(rec, "text", "text", ("up", "uptime"), value, _quote(text, m.start(1), m.end(2)))
        )
    for m in VERSION_IN_TOKEN.finditer(text):
        # "nginx/1.24.0", "node-v22.4.0": a version inside a longer token.
        version = m.group(1)
        value = Value("version", (f"v:{version}",), m.group())
        rec.leaves.append(Leaf(rec, "text", "text", (), value, _quote(text, m.start(), m.end())))
    for m in _ID_TOKEN.finditer(text):
        tok = m.group()
        if _NUMBERISH.match(tok) and len(tok) < 6:
            continue
        low = tok.lower()
        keys = (f"i:{low}", f"i:{low.lstrip('#')}")
        quote = _quote(text, m.start(), m.end())
        rec.leaves.append(Leaf(rec, "text", "text", (), Value("id", keys, tok), quote))
        rec.ids.append(low.lstrip("#"))
    return [rec]
