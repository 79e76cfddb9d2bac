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
import re
from collections.abc import Container
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from receiptgate._exceptions import InputError
from receiptgate.bounds import time_problem
from receiptgate.text.clean import clean_data

ReceiptKind = Literal["tool", "web", "rag", "db", "memory", "user"]
TrustLevel = Literal["system", "owner", "local", "shared", "external", "untrusted"]
InputFormat = Literal["receipts_jsonl", "openai_transcript", "openclaw_session"]

RECEIPT_KINDS: tuple[ReceiptKind, ...] = get_args(ReceiptKind)
TRUST_LEVELS: tuple[TrustLevel, ...] = get_args(TrustLevel)

_DEFAULT_TRUST: dict[ReceiptKind, TrustLevel] = {
    "tool": "local",
    "db": "local",
    "rag": "local",
    "memory": "local",
    "web": "external",
    "user": "owner",
}

# Tool output that starts like this reports a failure when the harness gives no
# flag. "Error" must end as a word so that "Errors: 0" does not count.
_ERROR_START = re.compile(r"(?:Error\b|error:|Traceback)")

# Epoch numbers above this are milliseconds (pi-agent writes Date.now()); below, seconds.
_EPOCH_MS_THRESHOLD = 100_000_000_000


def receipt_default_trust(kind: ReceiptKind) -> TrustLevel:
    """Return the trust level a receipt of ``kind`` gets when none is stated.

    Args:
        kind: The receipt kind.

    Returns:
        ``"owner"`` for user receipts, ``"external"`` for web, ``"local"`` otherwise.
    """
    return _DEFAULT_TRUST[kind]


class Receipt(BaseModel):
    """One piece of evidence produced during a session (SPEC §3, §10).

    Validation is strict (no coercion of ``1`` to ``True`` or ``3`` to ``"3"``)
    because receipts are evidence: a value that needs guessing is a bad input.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str
    kind: ReceiptKind
    content: str
    source: str | None = None
    created_at: datetime | None = None
    trust: TrustLevel | None = None
    tool: str | None = None
    args: dict[str, Any] | None = None
    ok: bool | None = None
    call_id: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _clean_strings(cls, data: Any) -> Any:
        # text/clean.py: lone surrogates become U+FFFD, counted in meta.
        if not isinstance(data, dict):
            return data
        cleaned, n = clean_data(data)
        if n:
            meta = cleaned.get("meta")
            meta = dict(meta) if isinstance(meta, dict) else {}
            meta["replaced_surrogates"] = n
            cleaned = {**cleaned, "meta": meta}
        return cleaned

    @field_validator("id")
    @classmethod
    def _id_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("created_at", mode="before")
    @classmethod
    def _parse_created_at(cls, value: object) -> object:
        # Only ISO 8601 text (or a datetime from Python callers): an epoch number in
        # a receipts file is ambiguous (seconds or milliseconds?), so it is refused.
        if value is None or isinstance(value, datetime):
            return value
        if not isinstance(value, str):
            raise ValueError(f"must be an ISO 8601 date-time string (got {_show(value)})")
        return _parse_iso(value)

    @field_validator("created_at")
    @classmethod
    def _make_aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        if value is not None and (problem := time_problem(value)) is not None:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _content_present(self) -> Receipt:
        # A tool call may legitimately print nothing; any other receipt without
        # text could support nothing and is almost certainly a mistake.
        if self.kind != "tool" and not self.content.strip():
            raise ValueError(
                '"content": must not be empty (only a tool receipt may have empty content)'
            )
        return self

    @property
    def effective_trust(self) -> TrustLevel:
        """The stated trust, or the default for the receipt's kind."""
        return self.trust if self.trust is not None else receipt_default_trust(self.kind)


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
                raise _error(
                    f"{source_name}: messages",
                    f"must be a list of chat messages, got {_json_type(messages)}",
                )
            return _receipts_from_transcript(messages, source_name, "messages")
        return _receipts_from_transcript(doc, source_name, "")
    if detected.format == "openclaw_session":
        return _receipts_from_session(detected.lines, source_name)
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
        raise _error(name, f"cannot read receipts file: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _error(name, f"not UTF-8 text (bad byte at offset {exc.start})") from exc
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
        raise _error(source_name, f"messages must be a list, got {_json_type(messages)}")
    return _receipts_from_transcript(messages, source_name, "messages")


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
            raise _error("receipts", f"not JSON: {exc}") from None
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
        raise _error(source_name, "no receipts: the input is empty")
    try:
        doc = _loads(text, source_name)
    except json.JSONDecodeError as exc:
        lines = _json_lines_or_document_error(text, source_name, exc)
    else:
        if isinstance(doc, dict) and "messages" in doc:
            return _Detected("openai_transcript", document=doc)
        if isinstance(doc, list):
            return _detect_array(doc, source_name)
        if not isinstance(doc, dict):
            raise _error(source_name, f"expected JSON objects, got {_json_type(doc)}")
        # A single object is a one-record JSON Lines file (one receipt or entry).
        lines = [(_first_content_line(text), doc)]
    first_no, first = lines[0]
    where = f"{source_name}:{first_no}"
    if not isinstance(first, dict):
        raise _error(where, f"expected a JSON object, got {_json_type(first)}")
    if "kind" in first:
        return _Detected("receipts_jsonl", lines=lines)
    if "type" in first or "role" in first:
        return _Detected("openclaw_session", lines=lines)
    raise _error(
        where,
        'cannot tell the input format: expected a receipt (with "kind"), an OpenClaw '
        'session entry (with "type"), a chat message (with "role"), or a transcript '
        'object with "messages"',
    )


def _detect_array(doc: list[Any], source_name: str) -> _Detected:
    if not doc:
        raise _error(source_name, "no receipts: the JSON array is empty")
    first = doc[0]
    if isinstance(first, dict) and "role" in first:
        return _Detected("openai_transcript", document=doc)
    if isinstance(first, dict) and "kind" in first:
        return _Detected("receipts_jsonl", document=doc, from_array=True)
    raise _error(
        f"{source_name}: [0]",
        'expected a chat message (with "role") or a receipt (with "kind"), '
        f"got {_json_type(first)}"
        + (f" with keys {', '.join(sorted(first))}" if isinstance(first, dict) else ""),
    )


def _json_lines_or_document_error(
    text: str, source_name: str, document_error: json.JSONDecodeError
) -> list[tuple[int, Any]]:
    first_line = text.lstrip().split("\n", 1)[0].strip()
    # A document opening with "[" or a lone "{" is one (pretty-printed) JSON value,
    # so its own syntax error is the useful one, not "line 1 is not JSON".
    if first_line.startswith("[") or first_line == "{":
        raise _error(
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
            out.append((number, _loads(line, f"{source_name}:{number}")))
        except json.JSONDecodeError as exc:
            raise _error(
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
            raise _error(where, f"expected a receipt object, got {_json_type(obj)}")
        fields = dict(obj)
        if fields.get("id") is None:
            # Generated ids skip every explicit id in the file, so adding an id to
            # one line never turns a valid file into a duplicate-id error.
            fields["id"] = _unique(f"r{number}", explicit | first_use.keys())
        try:
            receipt = Receipt.model_validate(fields)
        except ValidationError as exc:
            raise _error(where, _describe_validation_error(exc)) from None
        if receipt.id in first_use:
            raise _error(
                where, f"duplicate id {_show(receipt.id)} (already used on {first_use[receipt.id]})"
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
            problem = f"must be one of {', '.join(choices)} (got {_show(got)})"
        elif err_type == "value_error" and "error" in err.get("ctx", {}):
            problem = str(err["ctx"]["error"])
        elif err_type == "string_type":
            problem = f"must be a string (got {_show(got)})"
        elif err_type == "bool_type":
            problem = f"must be true, false or null (got {_show(got)})"
        elif err_type == "dict_type":
            problem = f"must be an object (got {_show(got)})"
        else:
            problem = f"{err['msg'][:1].lower()}{err['msg'][1:]} (got {_show(got)})"
        # Model-level errors already name their field.
        problems.append(f'"{name}": {problem}' if name and len(loc) == 1 else problem)
    return "; ".join(problems)


# --------------------------------------------------------------------------- transcripts


@dataclass(frozen=True, slots=True)
class _Loc:
    """Builds error locations such as ``t.json: messages[3].tool_calls[0]``."""

    head: str  # "file.json" or "file.jsonl:7"
    base: str  # JSON path of the message: "messages[3]", "[3]", "message" or ""

    def __call__(self, sub: str = "") -> str:
        path = f"{self.base}{sub}".lstrip(".")
        return f"{self.head}: {path}" if path else self.head


def document_id(role: str, number: int) -> str:
    """The id of the ``number``-th system (``sys1``) or developer (``dev1``) message."""
    return f"{'dev' if role == 'developer' else 'sys'}{number}"


def document_receipt(receipt_id: str, role: str, text: str, created_at: datetime | None) -> Receipt:
    """A system or developer message as a document receipt: the operator's rules, trusted
    as the system, matched passage by passage (checks/documents)."""
    return Receipt(
        id=receipt_id,
        kind="rag",
        content=text,
        source=role,
        created_at=created_at,
        trust="system",
        meta={"document": role},
    )


@dataclass(slots=True)
class _Entry:
    """A receipt under construction; tool entries wait here for their result."""

    kind: ReceiptKind
    content: str = ""
    created_at: datetime | None = None
    tool: str | None = None
    args: dict[str, Any] | None = None
    ok: bool | None = None
    call_id: str | None = None
    answered: bool = False
    orphan: bool = False


class _Ledger:
    """Collects user messages and pairs tool calls with their results."""

    def __init__(self) -> None:
        self._entries: list[_Entry] = []
        self._pending: dict[str, _Entry] = {}
        self._pending_unnamed: list[_Entry] = []  # legacy function_call, no id
        self._users = 0
        self._results = 0
        self._documents = 0

    def add_user(self, text: str, created_at: datetime | None) -> None:
        self._users += 1
        self._entries.append(_Entry("user", content=text, created_at=created_at))

    def add_document(self, role: str, text: str, created_at: datetime | None) -> None:
        """A system or developer message: the operator's rules, a document receipt."""
        self._documents += 1
        self._entries.append(_Entry("rag", content=text, created_at=created_at, tool=role))

    def add_call(
        self, call_id: str | None, name: str, args: dict[str, Any], created_at: datetime | None
    ) -> None:
        # The receipt keeps the call's position, so it sits where the action happened.
        entry = _Entry("tool", created_at=created_at, tool=name, args=args, call_id=call_id)
        self._entries.append(entry)
        if call_id is None:
            self._pending_unnamed.append(entry)
        else:
            # A reused id while the first call is unanswered leaves that one as
            # "missing result"; the result goes to the latest call.
            self._pending[call_id] = entry

    def add_result(
        self,
        call_id: str | None,
        name: str | None,
        content: str,
        ok: bool | None,
        created_at: datetime | None,
    ) -> None:
        self._results += 1
        entry: _Entry | None
        if call_id is not None:
            entry = self._pending.pop(call_id, None)
        else:
            entry = next((e for e in self._pending_unnamed if e.tool == name), None)
            if entry is not None:
                self._pending_unnamed.remove(entry)
        if entry is None:
            # A result whose call was trimmed from history is still tool output.
            entry = _Entry("tool", tool=name, call_id=call_id, orphan=True)
            self._entries.append(entry)
        entry.content = content
        entry.ok = ok
        entry.answered = True
        if created_at is not None:
            entry.created_at = created_at

    def finish(self, source_name: str, noun: str) -> list[Receipt]:
        if not self._users and not self._results and not self._documents:
            raise _error(
                source_name,
                f"no receipts: the {noun} has no user, system or developer message "
                "and no tool result",
            )
        used: set[str] = set()
        receipts: list[Receipt] = []
        users = tools = 0
        documents: dict[str, int] = {}
        for entry in self._entries:
            if entry.kind == "rag":
                # "sys1", "dev1": the system and developer messages, as documents
                role = entry.tool or "system"
                n = documents[role] = documents.get(role, 0) + 1
                receipt_id = _unique(document_id(role, n), used)
                used.add(receipt_id)
                receipts.append(document_receipt(receipt_id, role, entry.content, entry.created_at))
                continue
            if entry.kind == "user":
                users += 1
                base = f"u{users}"
            else:
                tools += 1
                base = entry.call_id or f"r{tools}"
            receipt_id = _unique(base, used)
            used.add(receipt_id)
            meta: dict[str, Any] = {}
            if entry.orphan:
                meta["orphan_result"] = True
            elif entry.kind == "tool" and not entry.answered:
                meta["missing_result"] = True
            receipts.append(
                Receipt(
                    id=receipt_id,
                    kind=entry.kind,
                    content=entry.content,
                    source=entry.tool,
                    created_at=entry.created_at,
                    tool=entry.tool,
                    args=entry.args,
                    ok=entry.ok,
                    call_id=entry.call_id,
                    meta=meta,
                )
            )
        return receipts


def _receipts_from_transcript(messages: list[Any], source_name: str, prefix: str) -> list[Receipt]:
    ledger = _Ledger()
    for index, message in enumerate(messages):
        loc = _Loc(source_name, f"{prefix}[{index}]")
        if not isinstance(message, dict):
            raise _error(loc(), f"expected a message object, got {_json_type(message)}")
        _read_message(message, loc, ledger, _message_time(message, loc))
    return ledger.finish(source_name, "transcript")


def _receipts_from_session(lines: list[tuple[int, Any]], source_name: str) -> list[Receipt]:
    ledger = _Ledger()
    for number, entry in lines:
        head = f"{source_name}:{number}"
        if not isinstance(entry, dict):
            raise _error(head, f"expected a JSON object, got {_json_type(entry)}")
        if "type" in entry:
            if entry["type"] != "message":
                continue  # session header, model_change, custom, …: no evidence
            message = entry.get("message")
            if not isinstance(message, dict):
                raise _error(f"{head}: message", "required, must be an object")
            loc = _Loc(head, "message")
            stamp = entry.get("timestamp")
            created_at = (
                _parse_time(stamp, f"{head}: timestamp")
                if stamp is not None
                else _message_time(message, loc)
            )
        elif "role" in entry:
            message = entry
            loc = _Loc(head, "")
            created_at = _message_time(message, loc)
        else:
            raise _error(
                head, 'expected a session entry (with "type") or a chat message (with "role")'
            )
        _read_message(message, loc, ledger, created_at)
    return ledger.finish(source_name, "session")


def _read_message(
    message: dict[str, Any], loc: _Loc, ledger: _Ledger, created_at: datetime | None
) -> None:
    """Feed one chat message (OpenAI or pi-agent dialect) into the ledger."""
    role = message.get("role")
    if not isinstance(role, str):
        raise _error(loc(".role"), f"required, must be a string (got {_show(role)})")
    if role == "user":
        text = _text_of(message.get("content"), loc, ".content")
        # Image-only or empty user turns carry no checkable text.
        if text.strip():
            ledger.add_user(text, created_at)
    elif role in ("system", "developer"):
        text = _text_of(message.get("content"), loc, ".content")
        if text.strip():
            ledger.add_document(role, text, created_at)
    elif role == "assistant":
        _read_assistant_calls(message, loc, ledger, created_at)
    elif role == "tool":
        call_id = message.get("tool_call_id")
        if not isinstance(call_id, str):
            raise _error(loc(".tool_call_id"), 'required on a "tool" message, must be a string')
        content = _text_of(message.get("content"), loc, ".content")
        flag = _opt_bool(message.get("is_error"), loc, ".is_error")
        name = _opt_str(message.get("name"), loc, ".name")
        ledger.add_result(call_id, name, content, _tool_ok(flag, content), created_at)
    elif role == "function":
        name = _req_name(message.get("name"), loc, ".name")
        content = _text_of(message.get("content"), loc, ".content")
        ledger.add_result(None, name, content, _tool_ok(None, content), created_at)
    elif role == "toolResult":
        call_id = message.get("toolCallId")
        if not isinstance(call_id, str):
            raise _error(loc(".toolCallId"), 'required on a "toolResult" message, must be a string')
        content = _text_of(message.get("content"), loc, ".content")
        flag = _opt_bool(message.get("isError"), loc, ".isError")
        name = _opt_str(message.get("toolName"), loc, ".toolName")
        ledger.add_result(call_id, name, content, _tool_ok(flag, content), created_at)
    # other roles (the assistant's own text) carry no evidence.


def _read_assistant_calls(
    message: dict[str, Any], loc: _Loc, ledger: _Ledger, created_at: datetime | None
) -> None:
    calls = message.get("tool_calls")
    if calls is not None:
        if not isinstance(calls, list):
            raise _error(loc(".tool_calls"), f"must be a list, got {_json_type(calls)}")
        for index, call in enumerate(calls):
            sub = f".tool_calls[{index}]"
            if not isinstance(call, dict):
                raise _error(loc(sub), f"expected a tool call object, got {_json_type(call)}")
            call_type = call.get("type") or "function"
            if call_type != "function":
                raise _error(
                    loc(f"{sub}.type"),
                    f'unsupported tool call type {_show(call_type)} (only "function")',
                )
            call_id = _opt_str(call.get("id"), loc, f"{sub}.id")
            function = call.get("function")
            if not isinstance(function, dict):
                raise _error(loc(f"{sub}.function"), "required, must be an object")
            name = _req_name(function.get("name"), loc, f"{sub}.function.name")
            args = _parse_args(function.get("arguments"), loc, f"{sub}.function.arguments")
            ledger.add_call(call_id, name, args, created_at)
    legacy = message.get("function_call")
    if legacy is not None:
        if not isinstance(legacy, dict):
            raise _error(loc(".function_call"), f"must be an object, got {_json_type(legacy)}")
        name = _req_name(legacy.get("name"), loc, ".function_call.name")
        args = _parse_args(legacy.get("arguments"), loc, ".function_call.arguments")
        ledger.add_call(None, name, args, created_at)
    content = message.get("content")
    if isinstance(content, list):
        for index, part in enumerate(content):
            if not (isinstance(part, dict) and part.get("type") == "toolCall"):
                continue
            sub = f".content[{index}]"
            call_id = _opt_str(part.get("id"), loc, f"{sub}.id")
            name = _req_name(part.get("name"), loc, f"{sub}.name")
            args = _parse_args(part.get("arguments"), loc, f"{sub}.arguments")
            ledger.add_call(call_id, name, args, created_at)


def _text_of(content: Any, loc: _Loc, sub: str) -> str:
    """Return a message's text: the string, or its text parts joined by newlines."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise _error(
            loc(sub), f"must be a string or a list of content parts, got {_json_type(content)}"
        )
    texts: list[str] = []
    for index, part in enumerate(content):
        if isinstance(part, str):
            texts.append(part)
            continue
        if not isinstance(part, dict):
            raise _error(
                loc(f"{sub}[{index}]"), f"expected a content part object, got {_json_type(part)}"
            )
        part_type = part.get("type")
        if part_type in ("text", "input_text", "output_text") or (
            part_type is None and "text" in part
        ):
            text = part.get("text")
            if not isinstance(text, str):
                raise _error(loc(f"{sub}[{index}].text"), f"must be a string (got {_show(text)})")
            texts.append(text)
        # Images, files, audio and thinking parts hold no checkable text.
    # Newlines, not "", so words from adjacent parts never fuse into one token.
    return "\n".join(texts)


def _parse_args(value: Any, loc: _Loc, sub: str) -> dict[str, Any]:
    """Return tool arguments given as a JSON-encoded string or as an object."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return {}
    if isinstance(value, str):
        try:
            value = _loads(value, loc(sub))
        except json.JSONDecodeError as exc:
            raise _error(
                loc(sub), f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            ) from exc
        if not isinstance(value, dict):
            raise _error(loc(sub), f"must encode a JSON object, got {_json_type(value)}")
        return value
    if isinstance(value, dict):
        return value
    raise _error(loc(sub), f"must be a JSON string or an object, got {_json_type(value)}")


def _tool_ok(is_error: bool | None, content: str) -> bool | None:
    # The harness's explicit flag wins: output may quote an "Error" line and still
    # come from a successful call.
    if is_error is not None:
        return not is_error
    if _ERROR_START.match(content.lstrip()):
        return False
    return None


def _message_time(message: dict[str, Any], loc: _Loc) -> datetime | None:
    for key in ("created_at", "timestamp"):
        value = message.get(key)
        if value is not None:
            return _parse_time(value, loc(f".{key}"))
    return None


def _opt_str(value: Any, loc: _Loc, sub: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise _error(loc(sub), f"must be a string (got {_show(value)})")


def _opt_bool(value: Any, loc: _Loc, sub: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise _error(loc(sub), f"must be true or false (got {_show(value)})")


def _req_name(value: Any, loc: _Loc, sub: str) -> str:
    if isinstance(value, str) and value.strip():
        return value
    raise _error(loc(sub), f"required, must be a non-empty string (got {_show(value)})")


# --------------------------------------------------------------------------- helpers


def _parse_iso(text: str) -> datetime:
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"must be an ISO 8601 date-time (got {_show(text)})") from None
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def _parse_time(value: Any, where: str) -> datetime:
    """Parse a transcript timestamp: ISO 8601 text, or epoch seconds/milliseconds."""
    if isinstance(value, str):
        try:
            moment = _parse_iso(value)
        except ValueError as exc:
            raise _error(where, str(exc)) from None
    elif isinstance(value, int | float) and not isinstance(value, bool):
        seconds = value / 1000 if abs(value) >= _EPOCH_MS_THRESHOLD else value
        try:
            moment = datetime.fromtimestamp(seconds, tz=UTC)
        except (OverflowError, OSError, ValueError):
            raise _error(where, f"epoch timestamp out of range (got {_show(value)})") from None
    else:
        raise _error(where, f"must be an ISO 8601 date-time (got {_show(value)})")
    if (problem := time_problem(moment)) is not None:
        raise _error(where, problem)
    return moment


def _unique(base: str, used: Container[str]) -> str:
    if base not in used:
        return base
    suffix = 2
    while f"{base}-{suffix}" in used:
        suffix += 1
    return f"{base}-{suffix}"


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _show(value: Any, limit: int = 60) -> str:
    """Render a value as JSON for an error message, shortened."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except ValueError:  # e.g. a circular structure from a Python caller
        text = repr(value)
    return text if len(text) <= limit else f"{text[: limit - 1]}…"


def _loads(text: str, where: str) -> Any:
    """``json.loads``, turning absurd nesting into an input error instead of a crash."""
    try:
        return json.loads(text)
    except RecursionError:
        raise _error(where, "invalid JSON: nested too deeply") from None


def _error(where: str, problem: str) -> InputError:
    return InputError(f"{where}: {problem}")
