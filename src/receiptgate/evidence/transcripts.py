"""Chat transcripts and OpenClaw sessions read as receipts.

``user`` messages become ``user`` receipts; an assistant's ``tool_calls[i]`` and the
``tool`` message with the matching ``tool_call_id`` become one ``tool`` receipt
(legacy ``function_call`` / ``role: "function"`` pairs are matched by function name,
oldest first); system and developer messages become document receipts. The formats
are described in :mod:`receiptgate.evidence.receipts`; every malformed message
raises :class:`~receiptgate._exceptions.InputError` naming its JSON path
(``messages[3].tool_calls[0].function.arguments``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from receiptgate.evidence._input import error, json_type, loads, parse_time, show, unique
from receiptgate.evidence.receipt import Receipt, ReceiptKind

# Tool output that starts like this reports a failure when the harness gives no
# flag. "Error" must end as a word so that "Errors: 0" does not count.
_ERROR_START = re.compile(r"(?:Error\b|error:|Traceback)")


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

    def add_reply(self, text: str, created_at: datetime | None) -> None:
        """An earlier reply of the agent (its text beside any tool calls)."""
        self._entries.append(_Entry("reply", content=text, created_at=created_at))

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
            raise error(
                source_name,
                f"no receipts: the {noun} has no user, system or developer message "
                "and no tool result",
            )
        used: set[str] = set()
        receipts: list[Receipt] = []
        users = tools = replies = 0
        documents: dict[str, int] = {}
        for entry in self._entries:
            if entry.kind == "rag":
                # "sys1", "dev1": the system and developer messages, as documents
                role = entry.tool or "system"
                n = documents[role] = documents.get(role, 0) + 1
                receipt_id = unique(document_id(role, n), used)
                used.add(receipt_id)
                receipts.append(document_receipt(receipt_id, role, entry.content, entry.created_at))
                continue
            if entry.kind == "user":
                users += 1
                base = f"u{users}"
            elif entry.kind == "reply":
                replies += 1
                base = f"a{replies}"
            else:
                tools += 1
                base = entry.call_id or f"r{tools}"
            receipt_id = unique(base, used)
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


def receipts_from_transcript(
    messages: list[Any], source_name: str, prefix: str, *, shift: int = 0
) -> list[Receipt]:
    """Receipts of chat messages. ``shift``: how many messages were put before the
    input's own (a top-level ``system`` prompt), so errors name the input's index;
    the first of them is named ``system``."""
    ledger = _Ledger()
    for index, message in enumerate(messages):
        at = index - shift
        loc = _Loc(source_name, f"{prefix}[{at}]" if at >= 0 else "system")
        if not isinstance(message, dict):
            raise error(loc(), f"expected a message object, got {json_type(message)}")
        _read_message(message, loc, ledger, _message_time(message, loc))
    return ledger.finish(source_name, "transcript")


def receipts_from_session(lines: list[tuple[int, Any]], source_name: str) -> list[Receipt]:
    ledger = _Ledger()
    for number, entry in lines:
        head = f"{source_name}:{number}"
        if not isinstance(entry, dict):
            raise error(head, f"expected a JSON object, got {json_type(entry)}")
        if "type" in entry:
            if entry["type"] != "message":
                continue  # session header, model_change, custom, …: no evidence
            message = entry.get("message")
            if not isinstance(message, dict):
                raise error(f"{head}: message", "required, must be an object")
            loc = _Loc(head, "message")
            stamp = entry.get("timestamp")
            created_at = (
                parse_time(stamp, f"{head}: timestamp")
                if stamp is not None
                else _message_time(message, loc)
            )
        elif "role" in entry:
            message = entry
            loc = _Loc(head, "")
            created_at = _message_time(message, loc)
        else:
            raise error(
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
        raise error(loc(".role"), f"required, must be a string (got {show(role)})")
    if role == "user":
        # Anthropic's tool results come back as blocks of a user message
        _read_tool_results(message.get("content"), loc, ledger, created_at)
        text = _text_of(message.get("content"), loc, ".content")
        # Image-only or empty user turns carry no checkable text.
        if text.strip():
            ledger.add_user(text, created_at)
    elif role in ("system", "developer"):
        text = _text_of(message.get("content"), loc, ".content")
        if text.strip():
            ledger.add_document(role, text, created_at)
    elif role == "assistant":
        # the agent's own words: no evidence, but what it worked out there may be said
        # again (pipeline/carried)
        text = _text_of(message.get("content"), loc, ".content")
        if text.strip():
            ledger.add_reply(text, created_at)
        _read_assistant_calls(message, loc, ledger, created_at)
    elif role == "tool":
        call_id = message.get("tool_call_id")
        if not isinstance(call_id, str):
            raise error(loc(".tool_call_id"), 'required on a "tool" message, must be a string')
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
            raise error(loc(".toolCallId"), 'required on a "toolResult" message, must be a string')
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
            raise error(loc(".tool_calls"), f"must be a list, got {json_type(calls)}")
        for index, call in enumerate(calls):
            sub = f".tool_calls[{index}]"
            if not isinstance(call, dict):
                raise error(loc(sub), f"expected a tool call object, got {json_type(call)}")
            call_type = call.get("type") or "function"
            if call_type != "function":
                raise error(
                    loc(f"{sub}.type"),
                    f'unsupported tool call type {show(call_type)} (only "function")',
                )
            call_id = _opt_str(call.get("id"), loc, f"{sub}.id")
            function = call.get("function")
            if not isinstance(function, dict):
                raise error(loc(f"{sub}.function"), "required, must be an object")
            name = _req_name(function.get("name"), loc, f"{sub}.function.name")
            args = _parse_args(function.get("arguments"), loc, f"{sub}.function.arguments")
            ledger.add_call(call_id, name, args, created_at)
    legacy = message.get("function_call")
    if legacy is not None:
        if not isinstance(legacy, dict):
            raise error(loc(".function_call"), f"must be an object, got {json_type(legacy)}")
        name = _req_name(legacy.get("name"), loc, ".function_call.name")
        args = _parse_args(legacy.get("arguments"), loc, ".function_call.arguments")
        ledger.add_call(None, name, args, created_at)
    content = message.get("content")
    if isinstance(content, list):
        for index, part in enumerate(content):
            kind = part.get("type") if isinstance(part, dict) else None
            if kind not in ("toolCall", "tool_use"):
                continue
            assert isinstance(part, dict)
            sub = f".content[{index}]"
            call_id = _opt_str(part.get("id"), loc, f"{sub}.id")
            name = _req_name(part.get("name"), loc, f"{sub}.name")
            # pi-agent's toolCall holds "arguments"; Anthropic's tool_use holds "input"
            key = "arguments" if kind == "toolCall" else "input"
            args = _parse_args(part.get(key), loc, f"{sub}.{key}")
            ledger.add_call(call_id, name, args, created_at)


def _read_tool_results(
    content: Any, loc: _Loc, ledger: _Ledger, created_at: datetime | None
) -> None:
    """Anthropic Messages API tool results: ``{"type": "tool_result", "tool_use_id": …,
    "content": "…" or [text blocks], "is_error": true}`` blocks of a user message."""
    if not isinstance(content, list):
        return
    for index, part in enumerate(content):
        if not (isinstance(part, dict) and part.get("type") == "tool_result"):
            continue
        sub = f".content[{index}]"
        call_id = part.get("tool_use_id")
        if not isinstance(call_id, str):
            raise error(loc(f"{sub}.tool_use_id"), "required on a tool_result, must be a string")
        text = _text_of(part.get("content"), loc, f"{sub}.content")
        flag = _opt_bool(part.get("is_error"), loc, f"{sub}.is_error")
        ledger.add_result(call_id, None, text, _tool_ok(flag, text), created_at)


def _text_of(content: Any, loc: _Loc, sub: str) -> str:
    """Return a message's text: the string, or its text parts joined by newlines."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        raise error(
            loc(sub), f"must be a string or a list of content parts, got {json_type(content)}"
        )
    texts: list[str] = []
    for index, part in enumerate(content):
        if isinstance(part, str):
            texts.append(part)
            continue
        if not isinstance(part, dict):
            raise error(
                loc(f"{sub}[{index}]"), f"expected a content part object, got {json_type(part)}"
            )
        part_type = part.get("type")
        if part_type in ("text", "input_text", "output_text") or (
            part_type is None and "text" in part
        ):
            text = part.get("text")
            if not isinstance(text, str):
                raise error(loc(f"{sub}[{index}].text"), f"must be a string (got {show(text)})")
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
            value = loads(value, loc(sub))
        except json.JSONDecodeError as exc:
            raise error(
                loc(sub), f"invalid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
            ) from exc
        if not isinstance(value, dict):
            raise error(loc(sub), f"must encode a JSON object, got {json_type(value)}")
        return value
    if isinstance(value, dict):
        return value
    raise error(loc(sub), f"must be a JSON string or an object, got {json_type(value)}")


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
            return parse_time(value, loc(f".{key}"))
    return None


def _opt_str(value: Any, loc: _Loc, sub: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise error(loc(sub), f"must be a string (got {show(value)})")


def _opt_bool(value: Any, loc: _Loc, sub: str) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise error(loc(sub), f"must be true or false (got {show(value)})")


def _req_name(value: Any, loc: _Loc, sub: str) -> str:
    if isinstance(value, str) and value.strip():
        return value
    raise error(loc(sub), f"required, must be a non-empty string (got {show(value)})")
