"""Receipts: the evidence a session produced, and the loaders that read them.

A receipt is one piece of evidence (SPEC §3): a tool call with its output, a
web or RAG result, a database row, a memory entry, or a user message. Receipts
are read from three formats, told apart by *content* (never by file extension,
since transcripts are often saved as ``.log`` or ``.txt``):

* **receipts JSONL**: one receipt object a line (SPEC §10). A JSON array of
  receipt objects is accepted too and reported as ``receipts_jsonl``.
* **OpenAI transcript**: ``{"messages": [...]}`` or a bare list of chat
  messages. ``user`` messages become ``user`` receipts; an assistant's
  ``tool_calls[i]`` and the ``tool`` message with the matching
  ``tool_call_id`` become one ``tool`` receipt. Legacy ``function_call`` /
  ``role: "function"`` pairs are matched by function name, oldest first.
* **OpenClaw session JSONL**: the pi-agent session log OpenClaw writes to
  ``~/.openclaw/agents/<agent>/sessions/<session>.jsonl``::

      {"type": "session", "version": 3, "id": "…", "timestamp": "…", "cwd": "…"}
      {"type": "message", "id": "…", "parentId": "…", "timestamp": "2026-02-06T07:49:03Z",
       "message": {"role": "user", "content": "…", "timestamp": 1770364143489}}
      {"type": "message", …, "message": {"role": "assistant", "content": [
          {"type": "text", "text": "…"},
          {"type": "toolCall", "id": "c1", "name": "exec", "arguments": {"command": "ls"}}]}}
      {"type": "message", …, "message": {"role": "toolResult", "toolCallId": "c1",
          "toolName": "exec", "content": [{"type": "text", "text": "…"}], "isError": false}}

  Entries of other types (``session``, ``model_change``,
  ``thinking_level_change``, ``custom``, …) and messages of other roles are
  skipped. A line holding a bare message (``{"role": …}`` without ``type``) is
  read like the ``message`` of an entry, in either dialect.

Every malformed input raises :class:`~receiptgate._exceptions.InputError`
naming the file, the line (JSON Lines) or the JSON path
(``messages[3].tool_calls[0].function.arguments``) and the problem.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from receiptgate.evidence._input import error, json_type, loads, show, unique
from receiptgate.evidence.receipt import (
    RECEIPT_KINDS,
    TRUST_LEVELS,
    Receipt,
    ReceiptKind,
    TrustLevel,
    receipt_default_trust,
)
from receiptgate.evidence.transcripts import (
    document_id,
    document_receipt,
    receipts_from_session,
    receipts_from_transcript,
)

__all__ = [
    "RECEIPT_KINDS",
    "TRUST_LEVELS",
    "InputFormat",
    "Receipt",
    "ReceiptKind",
    "TrustLevel",
    "detect_format",
    "document_id",
    "document_receipt",
    "inline_receipts",
    "load_receipts",
    "parse_receipts",
    "receipt_default_trust",
    "receipts_from_messages",
]

InputFormat = Literal["receipts_jsonl", "openai_transcript", "openclaw_session"]


# --------------------------------------------------------------------------- public API


def parse_receipts(data: str, *, source_name: str = "<input>") -> list[Receipt]:
    """Parse receipts from text in any supported format (detected by content).

    Args:
        data: The file content: receipts JSONL, an OpenAI transcript, or an
            OpenClaw session JSONL.
        source_name: The name used in error messages (normally the file path).

    Returns:
        The receipts, in input order.

    Raises:
        InputError: The input is empty, malformed, or holds no evidence.
    """
    detected = _detect(data, source_name)
    if detected.format == "openai_transcript":
        doc = detected.document
        if isinstance(doc, dict):
            messages = doc["messages"]
            if not isinstance(messages, list):
                raise error(
                    f"{source_name}: messages",
                    f"must be a list of chat messages, got {json_type(messages)}",
                )
            system = doc.get("system")
            if system is not None:
                # an Anthropic Messages request: the system prompt beside the messages
                messages = [{"role": "system", "content": system}, *messages]
                return receipts_from_transcript(messages, source_name, "messages", shift=1)
            return receipts_from_transcript(messages, source_name, "messages")
        return receipts_from_transcript(doc, source_name, "")
    if detected.format == "openclaw_session":
        return receipts_from_session(detected.lines, source_name)
    if detected.from_array:
        records = [
            (f"{source_name}: [{i}]", f"[{i}]", item) for i, item in enumerate(detected.document)
        ]
    else:
        records = [(f"{source_name}:{n}", f"line {n}", obj) for n, obj in detected.lines]
    return _receipts_from_records(records)


def load_receipts(path: str | os.PathLike[str]) -> list[Receipt]:
    """Read a receipts or transcript file and parse it with :func:`parse_receipts`.

    Args:
        path: The file to read (UTF-8, a byte-order mark is allowed).

    Returns:
        The receipts, in file order.

    Raises:
        InputError: The file is unreadable, not UTF-8, or malformed.
    """
    name = os.fspath(path)
    try:
        raw = Path(name).read_bytes()
    except OSError as exc:
        raise error(name, f"cannot read receipts file: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise error(name, f"not UTF-8 text (bad byte at offset {exc.start})") from exc
    return parse_receipts(text, source_name=name)


def receipts_from_messages(
    messages: list[dict[str, Any]], *, source_name: str = "<messages>"
) -> list[Receipt]:
    """Build receipts from OpenAI-style chat messages (already decoded).

    Args:
        messages: The chat messages, as in a transcript's ``messages`` list.
        source_name: The name used in error messages.

    Returns:
        User receipts and tool receipts, in message order.

    Raises:
        InputError: A message is malformed, or there is no user message and no
            tool result.
    """
    if not isinstance(messages, list):
        raise error(source_name, f"messages must be a list, got {json_type(messages)}")
    return receipts_from_transcript(messages, source_name, "messages")


def inline_receipts(
    receipts: list[dict[str, Any]] | None, messages: list[dict[str, Any]] | None
) -> list[Receipt]:
    """Receipts given inline by an API or tool call: receipt objects and/or a transcript.

    The objects are validated exactly as a receipts file is (errors name ``receipts`` and
    the item), the transcript as ``--receipts`` reads one (errors name ``messages``).

    Raises:
        InputError: a receipt or a message is malformed, or not JSON-serialisable.
    """
    out: list[Receipt] = []
    if receipts:
        try:
            data = json.dumps(receipts)
        except (TypeError, ValueError) as exc:
            raise error("receipts", f"not JSON: {exc}") from None
        out.extend(parse_receipts(data, source_name="receipts"))
    if messages:
        out.extend(receipts_from_messages(messages, source_name="messages"))
    return out


def detect_format(data: str) -> InputFormat:
    """Tell which input format ``data`` is in, by content.

    Args:
        data: The file content.

    Returns:
        ``"receipts_jsonl"`` (also for a JSON array of receipts),
        ``"openai_transcript"`` or ``"openclaw_session"``.

    Raises:
        InputError: The input is empty or in no supported format.
    """
    return _detect(data, "<input>").format


# --------------------------------------------------------------------------- detection


@dataclass(frozen=True, slots=True)
class _Detected:
    format: InputFormat
    document: Any = None  # the whole JSON document, when it parsed as one
    lines: list[tuple[int, Any]] = field(default_factory=list)  # (line number, value)
    from_array: bool = False  # receipts given as a JSON array, not JSON Lines


def _detect(data: str, source_name: str) -> _Detected:
    text = data.removeprefix("\ufeff")
    if not text.strip():
        raise error(source_name, "no receipts: the input is empty")
    try:
        doc = loads(text, source_name)
    except json.JSONDecodeError as exc:
        lines = _json_lines_or_document_error(text, source_name, exc)
    else:
        if isinstance(doc, dict) and "messages" in doc:
            return _Detected("openai_transcript", document=doc)
        if isinstance(doc, list):
            return _detect_array(doc, source_name)
        if not isinstance(doc, dict):
            raise error(source_name, f"expected JSON objects, got {json_type(doc)}")
        # A single object is a one-record JSON Lines file (one receipt or entry).
        lines = [(_first_content_line(text), doc)]
    first_no, first = lines[0]
    where = f"{source_name}:{first_no}"
    if not isinstance(first, dict):
        raise error(where, f"expected a JSON object, got {json_type(first)}")
    if "kind" in first:
        return _Detected("receipts_jsonl", lines=lines)
    if "type" in first or "role" in first:
        return _Detected("openclaw_session", lines=lines)
    raise error(
        where,
        'cannot tell the input format: expected a receipt (with "kind"), an OpenClaw '
        'session entry (with "type"), a chat message (with "role"), or a transcript '
        'object with "messages"',
    )


def _detect_array(doc: list[Any], source_name: str) -> _Detected:
    if not doc:
        raise error(source_name, "no receipts: the JSON array is empty")
    first = doc[0]
    if isinstance(first, dict) and "role" in first:
        return _Detected("openai_transcript", document=doc)
    if isinstance(first, dict) and "kind" in first:
        return _Detected("receipts_jsonl", document=doc, from_array=True)
    raise error(
        f"{source_name}: [0]",
        'expected a chat message (with "role") or a receipt (with "kind"), '
        f"got {json_type(first)}"
        + (f" with keys {', '.join(sorted(first))}" if isinstance(first, dict) else ""),
    )


def _json_lines_or_document_error(
    text: str, source_name: str, document_error: json.JSONDecodeError
) -> list[tuple[int, Any]]:
    first_line = text.lstrip().split("\n", 1)[0].strip()
    # A document opening with "[" or a lone "{" is one (pretty-printed) JSON value,
    # so its own syntax error is the useful one, not "line 1 is not JSON".
    if first_line.startswith("[") or first_line == "{":
        raise error(
            f"{source_name}:{document_error.lineno}:{document_error.colno}",
            f"invalid JSON: {document_error.msg}",
        )
    return _json_lines(text, source_name)


def _json_lines(text: str, source_name: str) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    # split("\n"), not splitlines(): JSON strings may hold raw U+2028 and friends.
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line:
            continue
        try:
            out.append((number, loads(line, f"{source_name}:{number}")))
        except json.JSONDecodeError as exc:
            raise error(
                f"{source_name}:{number}", f"invalid JSON: {exc.msg} (column {exc.colno})"
            ) from exc
    return out


def _first_content_line(text: str) -> int:
    for number, raw in enumerate(text.split("\n"), start=1):
        if raw.strip():
            return number
    return 1


# --------------------------------------------------------------------------- receipts JSONL


def _receipts_from_records(records: list[tuple[str, str, Any]]) -> list[Receipt]:
    """Validate receipt objects; each record is (error location, label, value)."""
    explicit = {
        obj["id"]
        for _, _, obj in records
        if isinstance(obj, dict) and isinstance(obj.get("id"), str)
    }
    first_use: dict[str, str] = {}
    receipts: list[Receipt] = []
    for number, (where, label, obj) in enumerate(records, start=1):
        if not isinstance(obj, dict):
            raise error(where, f"expected a receipt object, got {json_type(obj)}")
        fields = dict(obj)
        if fields.get("id") is None:
            # Generated ids skip every explicit id in the file, so adding an id to
            # one line never turns a valid file into a duplicate-id error.
            fields["id"] = unique(f"r{number}", explicit | first_use.keys())
        try:
            receipt = Receipt.model_validate(fields)
        except ValidationError as exc:
            raise error(where, _describe_validation_error(exc)) from None
        if receipt.id in first_use:
            raise error(
                where, f"duplicate id {show(receipt.id)} (already used on {first_use[receipt.id]})"
            )
        first_use[receipt.id] = label
        receipts.append(receipt)
    return receipts


def _describe_validation_error(exc: ValidationError) -> str:
    problems: list[str] = []
    for err in exc.errors(include_url=False):
        loc = err["loc"]
        name = str(loc[0]) if loc else ""
        err_type = err["type"]
        got = err.get("input")
        if err_type == "missing":
            problem = "required field is missing"
        elif err_type == "extra_forbidden":
            problem = 'unknown field (put extra data under "meta")'
        elif err_type == "literal_error" and name in ("kind", "trust"):
            choices = RECEIPT_KINDS if name == "kind" else TRUST_LEVELS
            problem = f"must be one of {', '.join(choices)} (got {show(got)})"
        elif err_type == "value_error" and "error" in err.get("ctx", {}):
            problem = str(err["ctx"]["error"])
        elif err_type == "string_type":
            problem = f"must be a string (got {show(got)})"
        elif err_type == "bool_type":
            problem = f"must be true, false or null (got {show(got)})"
        elif err_type == "dict_type":
            problem = f"must be an object (got {show(got)})"
        else:
            problem = f"{err['msg'][:1].lower()}{err['msg'][1:]} (got {show(got)})"
        # Model-level errors already name their field.
        problems.append(f'"{name}": {problem}' if name and len(loc) == 1 else problem)
    return "; ".join(problems)
