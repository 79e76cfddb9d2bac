"""The reading of a reply written as a JSON object with fields of its own.

Some agents answer in JSON that is no envelope around a message (``{"message": ...}``:
``text/clean.json_reply``) but the answer itself, laid out as data::

    {"status": "completed",
     "order_status": {"order_id": "#W1845024", "note": "Your order remains pending."},
     "items": [{"name": "Headphones", "item_id": "7493556126", "price": 181.79}]}

The gate reads such a reply as the Markdown list a person would write from it, one field
a line, a nested object or a list under its key, an object of a list under its first
field::

    - status: completed
    - order status:
      - order id: #W1845024
      - note: Your order remains pending.
    - items:
      - name: Headphones
        - item id: 7493556126
        - price: 181.79

so each value is checked with its key as its label and under the record it sits in, as the
same facts written in prose are. Every character of the reading has its place in the
reply (a key's words and the marks around them stand where the key does), so claims and
sentences are reported at their offsets in the JSON the agent wrote.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

#: What a JSON string escape stands for (``\\r``, ``\\b``, ``\\f``: a space).
_ESCAPED = {"n": "\n", "t": "\t", "r": " ", "b": " ", "f": " ", '"': '"', "\\": "\\", "/": "/"}
#: A number, ``true``, ``false`` or ``null``.
_LITERAL = re.compile(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null")
#: How deep a reply's objects are read (deeper ones are left out of the reading).
_MOST_DEPTH = 16


@dataclass(slots=True)
class _Reading:
    chars: list[str] = field(default_factory=list)
    where: list[int] = field(default_factory=list)

    def put(self, text: str, at: int) -> None:
        """Characters the reading adds (a list mark, a key's words) at offset ``at``."""
        self.chars.extend(text)
        self.where.extend([at] * len(text))

    def take(self, chars: list[str], where: list[int]) -> None:
        """Characters of the reply itself, each at its own offset."""
        self.chars.extend(chars)
        self.where.extend(where)


def read_string(text: str, i: int) -> tuple[list[str], list[int], int]:
    """The characters of the JSON string whose first character is at ``i`` (past its
    opening quote), each escape read as its character, with where each stands in ``text``,
    and where the closing quote is."""
    chars: list[str] = []
    where: list[int] = []
    n = len(text)
    while i < n and text[i] != '"':
        c = text[i]
        where.append(i)
        if c != "\\":
            chars.append(c)
            i += 1
        elif text[i + 1] == "u":
            code = int(text[i + 2 : i + 6], 16)
            if 0xD800 <= code < 0xDC00 and text[i + 6 : i + 8] == "\\u":
                low = int(text[i + 8 : i + 12], 16)  # a surrogate pair: one character
                chars.append(chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)))
                i += 12
            else:
                chars.append(" " if 0xD800 <= code < 0xE000 else chr(code))
                i += 6
        else:
            chars.append(_ESCAPED.get(text[i + 1], text[i + 1]))
            i += 2
    return chars, where, i


class _Scanner:
    """Reads the JSON text of a reply (known to parse) token by token."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def _skip(self) -> None:
        text, i, n = self.text, self.i, len(self.text)
        while i < n and text[i] in " \t\r\n":
            i += 1
        self.i = i

    def peek(self) -> str:
        self._skip()
        return self.text[self.i] if self.i < len(self.text) else ""

    def punct(self) -> str:
        c = self.peek()
        self.i += 1
        return c

    def string(self) -> tuple[list[str], list[int]]:
        """A string token (the scanner at its opening quote): its characters and where
        each stands."""
        chars, where, end = read_string(self.text, self.i + 1)
        self.i = end + 1
        return chars, where

    def literal(self) -> tuple[list[str], list[int]]:
        m = _LITERAL.match(self.text, self.i)
        end = m.end() if m is not None else self.i + 1
        start, self.i = self.i, end
        return list(self.text[start:end]), list(range(start, end))


def json_lines(text: str) -> tuple[str, list[int]] | None:
    """The reading of a reply written as a JSON object of fields (see the module doc),
    with where each character of it stands in ``text`` (one more entry: the end);
    ``None`` for any other text (and for an object of one field or none, which says too
    little to read as a list)."""
    if text.lstrip()[:1] != "{" or text.rstrip()[-1:] != "}":
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or len(data) < 2:
        return None
    out = _Reading()
    scan = _Scanner(text)
    scan.peek()
    _fields(scan, out, 0)
    if not out.chars:
        return None
    while out.chars and out.chars[-1] == "\n":
        out.chars.pop()
        out.where.pop()
    out.where.append(len(text.rstrip()))
    return "".join(out.chars), out.where


def _line(out: _Reading, depth: int, key: tuple[list[str], list[int]] | None, at: int) -> None:
    """The start of a line: its indent, its list mark and its key's words ("order id: ")."""
    out.put("  " * depth + "- ", at)
    if key is not None:
        chars, where = key
        out.take([" " if c == "_" else c for c in chars], where)
        out.put(": ", where[-1] if where else at)


def _members(scan: _Scanner) -> list[tuple[tuple[list[str], list[int]], int, int]]:
    """An object's members (the scanner at its ``{``, left past its ``}``): each key,
    where the key starts and where its value starts."""
    out = []
    scan.punct()  # {
    while scan.peek() == '"':
        at = scan.i
        key = scan.string()
        scan.punct()  # :
        scan.peek()
        out.append((key, at, scan.i))
        _skip_value(scan)
        if scan.peek() == ",":
            scan.punct()
    scan.punct()  # }
    return out


def _names_a_record(members: list[tuple[tuple[list[str], list[int]], int, int]]) -> bool:
    """Whether an object opens with a field that names what it is about (``order_id``,
    ``id``): its lines are read under that record, as lines under a heading are."""
    if not members:
        return False
    key = "".join(members[0][0][0]).lower()
    return key == "id" or key.endswith(("_id", "id"))


def _fields(scan: _Scanner, out: _Reading, depth: int, *, first_up: bool = False) -> None:
    """An object's fields (the scanner at its ``{``), a line each; with ``first_up`` (an
    object in a list) the first on the item's line and the others under it."""
    members = _members(scan)
    end = scan.i
    record = _names_a_record(members)
    # an object that opens with its id reads as a list item of that record: the id's
    # line heads the others ("- order id: #W8855135" over "  - refund details: ...")
    first_up = first_up or record
    for n, (key, at, value_at) in enumerate(members):
        scan.i = value_at
        level = depth if not first_up or n == 0 else depth + 1
        _value(scan, out, level, key, at, record=record)
    scan.i = end


def _skip_value(scan: _Scanner) -> None:
    c = scan.peek()
    if c in "{[":
        _skip_container(scan)
    elif c == '"':
        scan.string()
    else:
        scan.literal()


#: Keys whose number is an amount of money.
_MONEY_KEY = re.compile(
    r"(?:^|_)(?:price|prices|amount|total|subtotal|refund|cost|balance|fee|fees|charge|"
    r"charged|paid|difference)(?:_|$)",
    re.IGNORECASE,
)
#: Keys whose one-word value is a state ("status": "verified").
_STATE_KEYS = frozenset({"status", "state"})


def _value(
    scan: _Scanner,
    out: _Reading,
    depth: int,
    key: tuple[list[str], list[int]] | None,
    at: int,
    *,
    record: bool = True,
) -> None:
    """One value under its key (``None``: an item of a list). ``record``: whether the
    object it is in opens with the id of a record (``order_id``): only there is a one-word
    state ("status": "delivered") read as the record's."""
    c = scan.peek()
    if c not in '{["':
        m = _LITERAL.match(scan.text, scan.i)
        if m is not None and m.group() in ("true", "false", "null"):
            scan.literal()  # "kept_as_is": true: a flag of the agent's own schema
            return
    elif c == '"' and key is not None and "".join(key[0]).lower() in _STATE_KEYS:
        saved = scan.i
        chars, _ = scan.string()
        if not (record and "".join(chars).isalpha()):
            # the state of a record the object opens with ("order_id": ..., "status":
            # "delivered") is read; a state of the agent's own schema is not (
            # "exchange_submitted", an "authentication" object's "verified")
            return
        scan.i = saved
    if c in "{[":
        if depth >= _MOST_DEPTH:
            _skip_container(scan)
            return
        if key is not None:
            _line(out, depth, key, at)
            out.chars[-1] = "\n"  # "- order status:" then its fields under it
            out.chars[-2] = ":"
        if c == "{":
            _fields(scan, out, depth + (key is not None), first_up=key is None)
        else:
            _items(scan, out, depth + (key is not None))
        return
    _line(out, depth, key, at)
    chars, where = scan.string() if c == '"' else scan.literal()
    if c != '"' and key is not None and _MONEY_KEY.search("".join(key[0])):
        # "price": 1917.21 is an amount of money, as a result's own "price" field is:
        # read as "$1917.21" ("-$14.54" for "price_difference": -14.54)
        sign = 1 if chars[:1] == ["-"] else 0
        out.take(chars[:sign], where[:sign])
        out.put("$", where[sign])
        chars, where = chars[sign:], where[sign:]
    # a line break in a value would start a new line of the reading: a space instead
    out.take([" " if ch in "\r\n" else ch for ch in chars], where)
    out.put("\n", where[-1] + 1 if where else at)


def _items(scan: _Scanner, out: _Reading, depth: int) -> None:
    """A list's items (the scanner at its ``[``), a line each."""
    scan.punct()  # [
    while scan.peek() not in ("]", ""):
        at = scan.i
        _value(scan, out, depth, None, at)
        if scan.peek() == ",":
            scan.punct()
    scan.punct()  # ]


def _skip_container(scan: _Scanner) -> None:
    """Past a value too deep to read (the scanner at its ``{`` or ``[``)."""
    level = 0
    while True:
        c = scan.peek()
        if c == '"':
            scan.string()
            continue
        if c in "{[":
            level += 1
        elif c in "}]":
            level -= 1
        if c == "":
            return
        if c in "{}[],:":
            scan.punct()
        else:
            scan.literal()
        if level == 0:
            return
