"""One rule for text from outside, applied where it enters (SPEC "Input is not a fault").

* **Bytes** must be UTF-8 (a byte-order mark is allowed): anything else is refused
  with :class:`~receiptgate._exceptions.InputError` naming the source — the CLI
  exits 2, the service answers 400. Guessing an encoding would validate a text
  the agent did not write.
* **Strings** (Python callers, JSON bodies: ``"\\ud800"`` is valid JSON) may hold
  lone UTF-16 surrogates, which no UTF-8 consumer (RE2, SQLite, orjson) accepts.
  They are replaced by U+FFFD, a high/low pair is joined into the character it
  encodes, and the caller records a note saying how many were replaced. The same
  rule holds for identifiers (agent, user, session and fact ids): a refusal there
  would only move the failure to whoever sends the text.

Clean input costs one ``str.isascii()`` or one UTF-8 encode.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from receiptgate._exceptions import InputError
from receiptgate.text.json_lines import json_lines, read_string

REPLACEMENT = "\ufffd"

#: Characters that print like an ASCII one and mean the same in a claim: the hyphens
#: and minus signs models put in dates and ids ("2024\u201105\u201126"), and the
#: no-break and thin spaces they put between a figure and its unit ("$274\u202f(HAT028)").
#: Each maps to one character, so every offset into the text stays the same.
_READ_AS = str.maketrans(
    {
        **dict.fromkeys("\u2010\u2011\u2012\u2212\ufe63\uff0d", "-"),
        **dict.fromkeys("\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008", " "),
        **dict.fromkeys("\u2009\u200a\u202f\u205f", " "),
        "\u2019": "'",  # the apostrophe of "I’m", "you’re", "customer’s"
    }
)


def clean_text(text: str) -> tuple[str, int]:
    """Returns ``text`` with lone surrogates replaced by U+FFFD, and how many were.

    A surrogate pair written as two code points (``"\\ud83d\\ude00"``) becomes the
    one character it encodes and is not counted.
    """
    if text.isascii():
        return text, 0
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return text, 0
    joined = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
    return joined, joined.count(REPLACEMENT) - text.count(REPLACEMENT)


def clean_data(value: Any) -> tuple[Any, int]:
    """:func:`clean_text` over every string of a JSON-shaped value (keys included).

    Returns the value (the same object when nothing changed) and the count.
    """
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, Mapping):
        total = 0
        out: dict[Any, Any] = {}
        for k, v in value.items():
            ck, n1 = clean_text(k) if isinstance(k, str) else (k, 0)
            cv, n2 = clean_data(v)
            total += n1 + n2
            out[ck] = cv
        return (out if total else value), total
    if isinstance(value, list | tuple):
        total = 0
        items = []
        for v in value:
            cv, n = clean_data(v)
            total += n
            items.append(cv)
        if not total:
            return value, 0
        return (items if isinstance(value, list) else tuple(items)), total
    return value, 0


def read_as(text: str) -> str:
    """``text`` with the look-alike hyphens and spaces of :data:`_READ_AS` as their
    ASCII character; the same length, so offsets into one are offsets into the other."""
    return text if text.isascii() else text.translate(_READ_AS)


#: The field of a reply written as a JSON object that holds what the agent says.
_REPLY_FIELDS = ("message", "content", "text", "response", "answer", "reply", "output")


def json_reply(text: str) -> tuple[str, list[int]] | None:
    """The reading of a reply written as a JSON object (``{"message": "Done.\\nYour
    ..."}``: agents asked to answer in JSON): the text of its message field, each escape
    read as its character, with where each character of the reading stands in ``text``
    (one more entry: the end). ``None`` for any other text."""
    if text.lstrip()[:1] != "{" or text.rstrip()[-1:] != "}":
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    key = next((k for k in _REPLY_FIELDS if isinstance(data.get(k), str)), None)
    opened = re.search(rf'"{key}"\s*:\s*"', text) if key is not None else None
    if opened is None:
        return None
    chars, where, end = read_string(text, opened.end())
    where.append(end)
    return "".join(chars), where


def plain_reading(text: str) -> tuple[str, list[int] | None]:
    """How the gate reads a reply: the message of a reply written as JSON
    (:func:`json_reply`), or the fields of one that is its own data as a list
    (``text/json_lines``), then look-alike characters as ASCII (:func:`read_as`); with
    where each character of the reading stands in ``text`` when the reading has another
    length (``None``: offsets into one are offsets into the other)."""
    found = json_reply(text) or json_lines(text)
    if found is None:
        return read_as(text), None
    message, where = found
    return read_as(message), where


def decode_utf8(data: bytes, source: str) -> str:
    """Decodes UTF-8 bytes (a leading byte-order mark is dropped).

    Raises:
        InputError: the bytes are not UTF-8; the message names ``source`` and the
            offset of the first bad byte.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(
            f"{source}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})"
        ) from None


def replaced_note(field: str, count: int) -> str:
    """The note a result carries when :func:`clean_text` replaced something."""
    s = "" if count == 1 else "s"
    return f"{field}: {count} lone surrogate{s} replaced by U+FFFD"
