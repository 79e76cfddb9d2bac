"""Tests for receipt loading: format detection, field mapping and input errors."""

from __future__ import annotations

import contextlib
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from receiptgate import Gate
from receiptgate._exceptions import InputError
from receiptgate.evidence.receipts import (
    Receipt,
    detect_format,
    load_receipts,
    parse_receipts,
    receipt_default_trust,
    receipts_from_messages,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "receipts"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "transcripts"


def _fixture(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def _jsonl(*objects: dict[str, Any]) -> str:
    return "\n".join(json.dumps(o) for o in objects) + "\n"


def _transcript(*messages: dict[str, Any]) -> str:
    return json.dumps({"messages": list(messages)})


def _call(call_id: str | None, name: str, arguments: Any) -> dict[str, Any]:
    call: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": arguments}}
    if call_id is not None:
        call["id"] = call_id
    return call


USER = {"role": "user", "content": "go"}


# --------------------------------------------------------------------------- detection


@pytest.mark.parametrize(
    ("fixture", "expected"),
    [
        ("receipts.jsonl", "receipts_jsonl"),
        ("receipts_array.json", "receipts_jsonl"),
        ("transcript_openai.json", "openai_transcript"),
        ("transcript_openai_list.json", "openai_transcript"),
        ("session_openclaw.jsonl", "openclaw_session"),
    ],
)
def test_detect_format_of_fixtures(fixture: str, expected: str) -> None:
    assert detect_format(_fixture(fixture)) == expected


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ('{"kind": "web", "content": "x"}', "receipts_jsonl"),  # one-line file
        ('{\n  "kind": "web",\n  "content": "x"\n}\n', "receipts_jsonl"),  # pretty single
        ('\ufeff{"kind": "web", "content": "x"}\n', "receipts_jsonl"),  # byte-order mark
        ('{"messages": []}', "openai_transcript"),
        ('[{"role": "user", "content": "hi"}]', "openai_transcript"),
        ('{"type": "session", "id": "s"}\n{"type": "message"}\n', "openclaw_session"),
        ('{"role": "user", "content": "hi"}\n{"role": "assistant"}\n', "openclaw_session"),
    ],
)
def test_detect_format_by_content(data: str, expected: str) -> None:
    assert detect_format(data) == expected


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ("", "no receipts"),
        ("  \n\n", "no receipts"),
        ("[]", "JSON array is empty"),
        ("[1, 2]", "[0]: expected a chat message"),
        ('"hello"', "expected JSON objects, got string"),
        ('{"foo": 1}', "cannot tell the input format"),
        ("[1, 2", "<input>:1:6: invalid JSON"),
        ('{\n  "kind": "web",\n  "content": \n}\n', "<input>:4:1: invalid JSON"),
        ("not json at all\n", "<input>:1: invalid JSON"),
        ("[" * 100_000, "nested too deeply"),
        ('{"kind": "web", "content": "x"}\n' + "[" * 100_000, "<input>:2: invalid JSON: nested"),
    ],
)
def test_detect_format_errors(data: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        detect_format(data)
    assert fragment in str(info.value)


# --------------------------------------------------------------------------- receipts JSONL


def test_receipts_jsonl_fixture_maps_every_field() -> None:
    receipts = load_receipts(FIXTURES / "receipts.jsonl")
    assert [r.id for r in receipts] == ["run1", "r2", "r3", "r4", "r5", "r6", "r7"]
    assert [r.kind for r in receipts] == ["tool", "web", "rag", "db", "memory", "user", "tool"]
    run = receipts[0]
    assert run == Receipt(
        id="run1",
        kind="tool",
        source="exec",
        content="=== 42 passed in 3.0s ===",
        created_at=datetime(2026, 3, 1, 10, 0, tzinfo=UTC),
        tool="exec",
        args={"command": "pytest -q"},
        ok=True,
        trust="local",
        call_id="call_1",
    )
    # Naive timestamps are taken as UTC.
    assert receipts[1].created_at == datetime(2026, 3, 1, 10, 5, tzinfo=UTC)
    assert receipts[2].meta == {"chunk": 17}
    assert receipts[2].trust == "shared"
    # A tool call with no output is allowed.
    assert receipts[6].content == ""


def test_receipts_array_form() -> None:
    receipts = load_receipts(FIXTURES / "receipts_array.json")
    assert [(r.id, r.kind) for r in receipts] == [("a", "web"), ("r2", "user")]


@pytest.mark.parametrize(
    ("lines", "expected_ids"),
    [
        ([{}, {}, {}], ["r1", "r2", "r3"]),
        ([{"id": "x"}, {}, {"id": "y"}], ["x", "r2", "y"]),
        # A generated id never collides with an explicit one, earlier or later.
        ([{}, {"id": "r1"}], ["r1-2", "r1"]),
        ([{"id": "r2"}, {}], ["r2", "r2-2"]),
        ([{"id": None}], ["r1"]),
    ],
)
def test_receipt_ids_generated(lines: list[dict[str, Any]], expected_ids: list[str]) -> None:
    data = _jsonl(*({"kind": "web", "content": "c", **extra} for extra in lines))
    assert [r.id for r in parse_receipts(data)] == expected_ids


@pytest.mark.parametrize(
    ("fixture", "message"),
    [
        ("empty.jsonl", "empty.jsonl: no receipts: the input is empty"),
        ("not_json_line.jsonl", "not_json_line.jsonl:3: invalid JSON"),
        (
            "bad_kind.jsonl",
            'bad_kind.jsonl:2: "kind": must be one of tool, web, rag, db, memory, user, reply '
            '(got "foo")',
        ),
        ("missing_content.jsonl", 'missing_content.jsonl:1: "content": required field is missing'),
        (
            "unknown_field.jsonl",
            'unknown_field.jsonl:1: "table": unknown field (put extra data under "meta")',
        ),
        (
            "bad_created_at.jsonl",
            'bad_created_at.jsonl:1: "created_at": must be an ISO 8601 date-time (got "yesterday")',
        ),
        ("duplicate_id.jsonl", 'duplicate_id.jsonl:3: duplicate id "r1" (already used on line 1)'),
        (
            "bad_arguments.json",
            "bad_arguments.json: messages[1].tool_calls[0].function.arguments: invalid JSON",
        ),
        (
            "no_evidence.json",
            "no_evidence.json: no receipts: the transcript has no user, system or developer "
            "message and no tool result",
        ),
        (
            "broken_session.jsonl",
            "broken_session.jsonl:2: message.content[0].arguments: invalid JSON",
        ),
    ],
)
def test_broken_fixtures(fixture: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        load_receipts(FIXTURES / fixture)
    text = str(info.value)
    assert text.startswith(str(FIXTURES))  # names the file as given
    assert message in text


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ({"kind": "web"}, '"content": required field is missing'),
        ({"content": "x"}, '"kind": required field is missing'),
        ({"kind": "web", "content": ""}, '"content": must not be empty'),
        ({"kind": "user", "content": "   "}, '"content": must not be empty'),
        ({"kind": "web", "content": 3}, '"content": must be a string (got 3)'),
        ({"kind": "tool", "content": "x", "ok": "yes"}, '"ok": must be true, false or null'),
        ({"kind": "tool", "content": "x", "ok": 1}, '"ok": must be true, false or null'),
        ({"kind": "tool", "content": "x", "args": []}, '"args": must be an object'),
        ({"kind": "web", "content": "x", "trust": "high"}, '"trust": must be one of system, owner'),
        ({"kind": "web", "content": "x", "created_at": 1700000000}, "ISO 8601 date-time string"),
        ({"kind": "web", "content": "x", "id": ""}, '"id": must not be empty'),
        ({"kind": "web", "content": "x", "id": 7}, '"id": must be a string (got 7)'),
        ({"kind": "web", "content": "x", "meta": "m"}, '"meta": must be an object'),
        (
            {"kind": "foo", "content": "x", "extra": 1},
            '"kind": must be one of tool, web, rag, db, memory, user, reply (got "foo"); '
            '"extra": unknown field',
        ),
    ],
)
def test_receipt_line_errors(line: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InputError) as info:
        parse_receipts(_jsonl({"kind": "web", "content": "fine"}, line), source_name="r.jsonl")
    assert str(info.value).startswith("r.jsonl:2: ")
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (
            '{"kind": "web", "content": "x"}\n[1]\n',
            "<input>:2: expected a receipt object, got array",
        ),
        (
            '[{"kind": "web", "content": "x"}, {"kind": "bad", "content": "y"}]',
            '<input>: [1]: "kind": must be one of',
        ),
        (
            '[{"id": "a", "kind": "web", "content": "x"},'
            ' {"id": "a", "kind": "web", "content": "y"}]',
            '<input>: [1]: duplicate id "a" (already used on [0])',
        ),
    ],
)
def test_receipts_structure_errors(data: str, fragment: str) -> None:
    with pytest.raises(InputError) as info:
        parse_receipts(data)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("created_at", "expected"),
    [
        ("2026-03-01T10:00:00Z", datetime(2026, 3, 1, 10, tzinfo=UTC)),
        ("2026-03-01T12:00:00+02:00", datetime(2026, 3, 1, 10, tzinfo=UTC)),
        ("2026-03-01 10:00", datetime(2026, 3, 1, 10, tzinfo=UTC)),
        ("2026-03-01", datetime(2026, 3, 1, tzinfo=UTC)),
    ],
)
def test_created_at_parsing(created_at: str, expected: datetime) -> None:
    (receipt,) = parse_receipts(_jsonl({"kind": "web", "content": "x", "created_at": created_at}))
    assert receipt.created_at == expected
    assert receipt.created_at is not None and receipt.created_at.tzinfo is not None


def test_unreadable_path_names_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(InputError, match=r"nope\.jsonl: cannot read receipts file"):
        load_receipts(missing)
    with pytest.raises(InputError, match="cannot read receipts file"):
        load_receipts(tmp_path)  # a directory


def test_non_utf8_file(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"kind": "web", "content": "caf\xe9"}\n')
    with pytest.raises(InputError, match=r"latin1\.jsonl: not UTF-8"):
        load_receipts(path)


def test_load_accepts_str_path() -> None:
    assert len(load_receipts(str(FIXTURES / "receipts.jsonl"))) == 7


def test_raw_line_separator_inside_string_is_not_a_line_break() -> None:
    data = '{"kind": "web", "content": "a\u2028b"}\n{"kind": "web", "content": "c"}\n'
    assert [r.content for r in parse_receipts(data)] == ["a\u2028b", "c"]


def test_crlf_line_endings() -> None:
    data = '{"kind": "web", "content": "a"}\r\n\r\n{"kind": "web", "content": "b"}\r\n'
    assert [r.id for r in parse_receipts(data)] == ["r1", "r2"]


# --------------------------------------------------------------------------- the model


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("tool", "local"),
        ("db", "local"),
        ("rag", "local"),
        ("memory", "local"),
        ("web", "external"),
        ("user", "owner"),
    ],
)
def test_default_trust(kind: Any, expected: str) -> None:
    assert receipt_default_trust(kind) == expected
    assert Receipt(id="x", kind=kind, content="c").effective_trust == expected
    assert Receipt(id="x", kind=kind, content="c", trust="untrusted").effective_trust == "untrusted"


def test_receipt_is_frozen_and_strict() -> None:
    receipt = Receipt(id="x", kind="web", content="c")
    with pytest.raises(ValidationError):
        receipt.content = "other"  # type: ignore[misc,unused-ignore]
    with pytest.raises(ValidationError):
        Receipt(id="x", kind="web", content="c", surprise=1)  # type: ignore[call-arg]
    naive = Receipt(id="x", kind="web", content="c", created_at=datetime(2026, 1, 1))
    assert naive.created_at == datetime(2026, 1, 1, tzinfo=UTC)
    assert receipt.meta == {}


# --------------------------------------------------------------------------- OpenAI transcripts


def test_openai_transcript_fixture() -> None:
    receipts = load_receipts(FIXTURES / "transcript_openai.json")
    assert [(r.id, r.kind) for r in receipts] == [
        ("sys1", "rag"),
        ("u1", "user"),
        ("call_a", "tool"),
        ("call_b", "tool"),
        ("u2", "user"),
        ("a1", "reply"),  # the agent's own answer: kept apart, never evidence
    ]
    system, user, crm, exe, user2, _ = receipts
    # the system message is a document: the operator's rules, trusted as the system
    assert (system.content, system.source, system.trust) == (
        "You are a helpful assistant.",
        "system",
        "system",
    )
    assert user.content == "How many open tickets are there?"
    assert user.trust is None and user.effective_trust == "owner"
    assert user.created_at == datetime(2026, 3, 1, 9, tzinfo=UTC)
    assert crm == Receipt(
        id="call_a",
        kind="tool",
        content="open_tickets: 17",
        source="crm_query",
        created_at=datetime(2026, 3, 1, 9, 0, 3, tzinfo=UTC),
        tool="crm_query",
        args={"status": "open"},
        ok=None,
        call_id="call_a",
    )
    # Arguments given as an object; the result has no timestamp, so the call's is kept.
    assert exe.args == {"command": "cat missing.txt"}
    assert exe.ok is False
    assert exe.created_at == datetime(2026, 3, 1, 9, 0, 2, tzinfo=UTC)
    # Text parts are joined; the image part is dropped.
    assert user2.content == "And the oldest one?\nSee the screenshot."


def test_openai_transcript_bare_list() -> None:
    receipts = load_receipts(FIXTURES / "transcript_openai_list.json")
    assert [(r.id, r.kind, r.ok) for r in receipts] == [
        ("u1", "user", None),
        ("call_ls", "tool", True),
        ("a1", "reply", None),
    ]
    assert receipts[1].content == "README.md\nsrc"


@pytest.mark.parametrize(
    ("result", "expected_ok"),
    [
        ({"content": "fine"}, None),
        ({"content": "fine", "is_error": False}, True),
        ({"content": "fine", "is_error": True}, False),
        ({"content": "Error: boom"}, False),
        ({"content": "error: boom"}, False),
        ({"content": "  Traceback (most recent call last):"}, False),
        ({"content": "Error 2"}, False),
        ({"content": "Errors: 0"}, None),  # "Error" must be a whole word
        ({"content": "ERROR boom"}, None),
        ({"content": "error boom"}, None),
        # The harness's explicit flag wins over the text.
        ({"content": "Error: in log line 3", "is_error": False}, True),
        ({"content": None}, None),
    ],
)
def test_tool_ok_derivation(result: dict[str, Any], expected_ok: bool | None) -> None:
    data = _transcript(
        {"role": "assistant", "tool_calls": [_call("c1", "exec", "{}")]},
        {"role": "tool", "tool_call_id": "c1", **result},
    )
    (receipt,) = parse_receipts(data)
    assert receipt.ok is expected_ok


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("plain", "plain"),
        ([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}], "a\nb"),
        (["a", {"type": "input_text", "text": "b"}], "a\nb"),
        ([{"type": "image_url", "image_url": {"url": "x"}}, {"text": "untyped"}], "untyped"),
    ],
)
def test_multi_part_content(content: Any, expected: str) -> None:
    data = _transcript(
        {"role": "user", "content": content},
        {"role": "assistant", "tool_calls": [_call("c1", "exec", "{}")]},
        {"role": "tool", "tool_call_id": "c1", "content": content},
    )
    user, tool = parse_receipts(data)
    assert user.content == expected
    assert tool.content == expected


def test_user_message_without_text_is_skipped() -> None:
    data = _transcript(
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "x"}}]},
        {"role": "user", "content": "second"},
    )
    assert [(r.id, r.content) for r in parse_receipts(data)] == [("u1", "second")]


def test_tool_call_without_result() -> None:
    data = _transcript(USER, {"role": "assistant", "tool_calls": [_call("c9", "exec", "{}")]})
    _, tool = parse_receipts(data)
    assert (tool.id, tool.content, tool.ok, tool.meta) == ("c9", "", None, {"missing_result": True})


def test_result_without_call_is_kept_as_orphan() -> None:
    data = _transcript({"role": "tool", "tool_call_id": "gone", "name": "exec", "content": "out"})
    (tool,) = parse_receipts(data)
    assert (tool.id, tool.tool, tool.args, tool.meta) == (
        "gone",
        "exec",
        None,
        {"orphan_result": True},
    )


@pytest.mark.parametrize(
    ("messages", "expected_ids"),
    [
        # Tool receipts without a call id are numbered among tool receipts.
        (
            [
                USER,
                {
                    "role": "assistant",
                    "tool_calls": [_call(None, "a", "{}"), _call("k", "b", "{}")],
                },
                USER,
            ],
            ["u1", "r1", "k", "u2"],
        ),
        # Clashing ids get a suffix.
        (
            [USER, {"role": "assistant", "tool_calls": [_call("u1", "a", "{}")]}],
            ["u1", "u1-2"],
        ),
        # A reused call id (some providers number calls per turn).
        (
            [
                {"role": "assistant", "tool_calls": [_call("call_0", "a", "{}")]},
                {"role": "tool", "tool_call_id": "call_0", "content": "one"},
                {"role": "assistant", "tool_calls": [_call("call_0", "b", "{}")]},
                {"role": "tool", "tool_call_id": "call_0", "content": "two"},
            ],
            ["call_0", "call_0-2"],
        ),
    ],
)
def test_transcript_ids(messages: list[dict[str, Any]], expected_ids: list[str]) -> None:
    assert [r.id for r in receipts_from_messages(messages)] == expected_ids


def test_reused_call_id_pairs_each_result_with_its_call() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "assistant", "tool_calls": [_call("call_0", "a", "{}")]},
        {"role": "tool", "tool_call_id": "call_0", "content": "one"},
        {"role": "assistant", "tool_calls": [_call("call_0", "b", "{}")]},
        {"role": "tool", "tool_call_id": "call_0", "content": "two"},
    ]
    assert [(r.tool, r.content) for r in receipts_from_messages(messages)] == [
        ("a", "one"),
        ("b", "two"),
    ]


def test_legacy_function_call() -> None:
    messages: list[dict[str, Any]] = [
        USER,
        {
            "role": "assistant",
            "function_call": {"name": "weather", "arguments": '{"city": "Oslo"}'},
        },
        {"role": "function", "name": "weather", "content": "4°C, rain"},
    ]
    _, tool = receipts_from_messages(messages)
    assert (tool.id, tool.tool, tool.args, tool.content, tool.call_id) == (
        "r1",
        "weather",
        {"city": "Oslo"},
        "4°C, rain",
        None,
    )


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ({"a": 1}, {"a": 1}),
        ("", {}),
        (None, {}),
    ],
)
def test_tool_arguments_forms(arguments: Any, expected: dict[str, Any]) -> None:
    data = _transcript(
        {"role": "assistant", "tool_calls": [_call("c", "f", arguments)]},
        {"role": "tool", "tool_call_id": "c", "content": "x"},
    )
    assert parse_receipts(data)[0].args == expected


def test_timestamps_on_transcript_messages() -> None:
    data = _transcript(
        {"role": "user", "content": "hi", "created_at": "2026-01-01T00:00:00+01:00"},
        {"role": "user", "content": "epoch", "created_at": 1767225600},
        {"role": "user", "content": "none"},
    )
    assert [r.created_at for r in parse_receipts(data)] == [
        datetime(2025, 12, 31, 23, tzinfo=UTC),
        datetime(2026, 1, 1, tzinfo=UTC),
        None,
    ]


@pytest.mark.parametrize(
    ("messages", "fragment"),
    [
        ([USER, "hello"], "messages[1]: expected a message object, got string"),
        ([{"content": "x"}], "messages[0].role: required"),
        ([{"role": "user", "content": 5}], "messages[0].content: must be a string or a list"),
        ([{"role": "user", "content": [5]}], "messages[0].content[0]: expected a content part"),
        (
            [{"role": "user", "content": [{"type": "text", "text": 1}]}],
            "messages[0].content[0].text: must be a string",
        ),
        ([{"role": "user", "content": "x", "created_at": "soon"}], "messages[0].created_at: must"),
        ([{"role": "tool", "content": "x"}], 'messages[0].tool_call_id: required on a "tool"'),
        (
            [{"role": "tool", "tool_call_id": "c", "content": "x", "is_error": "no"}],
            "messages[0].is_error: must be true or false",
        ),
        (
            [USER, {"role": "assistant", "tool_calls": {"id": "c"}}],
            "messages[1].tool_calls: must be a list",
        ),
        (
            [USER, {"role": "assistant", "tool_calls": [{"id": "c", "type": "function"}]}],
            "messages[1].tool_calls[0].function: required",
        ),
        (
            [USER, {"role": "assistant", "tool_calls": [_call("c", "", "{}")]}],
            "messages[1].tool_calls[0].function.name: required",
        ),
        (
            [USER, {"role": "assistant", "tool_calls": [_call("c", "f", "{bad")]}],
            "messages[1].tool_calls[0].function.arguments: invalid JSON",
        ),
        (
            [USER, {"role": "assistant", "tool_calls": [_call("c", "f", "[1]")]}],
            "messages[1].tool_calls[0].function.arguments: must encode a JSON object, got array",
        ),
        (
            [USER, {"role": "assistant", "tool_calls": [_call("c", "f", 3)]}],
            "messages[1].tool_calls[0].function.arguments: must be a JSON string or an object",
        ),
        (
            [USER, {"role": "assistant", "tool_calls": [{"type": "custom", "id": "c"}]}],
            'messages[1].tool_calls[0].type: unsupported tool call type "custom"',
        ),
        (
            [USER, {"role": "assistant", "function_call": {"name": "f", "arguments": "{"}}],
            "messages[1].function_call.arguments: invalid JSON",
        ),
        ([{"role": "function", "content": "x"}], "messages[0].name: required"),
        ([{"role": "system", "content": " "}], "no user, system or developer message"),
        ([USER | {"content": ""}], "no user, system or developer message and no tool result"),
        (
            [{"role": "assistant", "tool_calls": [_call("c", "f", "{}")]}],
            "no user, system or developer message and no tool result",
        ),
    ],
)
def test_transcript_errors(messages: list[Any], fragment: str) -> None:
    with pytest.raises(InputError) as info:
        receipts_from_messages(messages, source_name="t.json")
    assert str(info.value).startswith("t.json")
    assert fragment in str(info.value)


def test_transcript_messages_must_be_a_list() -> None:
    with pytest.raises(InputError, match=r"t\.json: messages: must be a list of chat messages"):
        parse_receipts('{"messages": {"role": "user"}}', source_name="t.json")
    with pytest.raises(InputError, match="messages must be a list"):
        receipts_from_messages({"role": "user"}, source_name="m")  # type: ignore[arg-type]


def test_bare_list_error_paths_have_no_messages_prefix() -> None:
    with pytest.raises(InputError, match=r"t\.json: \[1\]\.tool_calls\[0\]\.function\.arguments"):
        parse_receipts(
            json.dumps([USER, {"role": "assistant", "tool_calls": [_call("c", "f", "{")]}]),
            source_name="t.json",
        )


# --------------------------------------------------------------------------- OpenClaw sessions


def test_openclaw_session_fixture() -> None:
    receipts = load_receipts(FIXTURES / "session_openclaw.jsonl")
    assert [(r.id, r.kind) for r in receipts] == [
        ("u1", "user"),
        ("a1", "reply"),
        ("toolu_01", "tool"),
        ("a2", "reply"),
    ]
    user, _, tool, _ = receipts
    assert user.content == "Is the build green?"
    assert user.created_at == datetime(2026, 3, 1, 8, 0, 1, tzinfo=UTC)
    assert tool == Receipt(
        id="toolu_01",
        kind="tool",
        content="make: *** [build] Error 2",
        source="exec",
        created_at=datetime(2026, 3, 1, 8, 0, 9, tzinfo=UTC),
        tool="exec",
        args={"command": "make build"},
        ok=False,
        call_id="toolu_01",
    )


@pytest.mark.parametrize(
    ("is_error", "expected_ok"),
    [(False, True), (True, False), (None, None)],
)
def test_openclaw_ok(is_error: bool | None, expected_ok: bool | None) -> None:
    result: dict[str, Any] = {
        "role": "toolResult",
        "toolCallId": "t1",
        "toolName": "read",
        "content": [{"type": "text", "text": "contents"}],
    }
    if is_error is not None:
        result["isError"] = is_error
    data = _jsonl(
        {"type": "session", "id": "s"},
        {
            "type": "message",
            "message": {
                "role": "assistant",
                "content": [{"type": "toolCall", "id": "t1", "name": "read", "arguments": {}}],
            },
        },
        {"type": "message", "message": result},
    )
    (tool,) = parse_receipts(data)
    assert tool.ok is expected_ok


def test_openclaw_message_timestamp_fallback_and_bare_messages() -> None:
    data = _jsonl(
        {
            "type": "message",
            "message": {"role": "user", "content": "a", "timestamp": 1772352001000},
        },
        {"role": "user", "content": "b", "timestamp": "2026-03-01T08:00:02Z"},
        {"role": "assistant", "content": [{"type": "toolCall", "id": "t", "name": "x"}]},
        {"role": "toolResult", "toolCallId": "t", "content": [{"type": "text", "text": "ok"}]},
    )
    a, b, tool = parse_receipts(data)
    assert a.created_at == datetime(2026, 3, 1, 8, 0, 1, tzinfo=UTC)
    assert b.created_at == datetime(2026, 3, 1, 8, 0, 2, tzinfo=UTC)
    assert (tool.tool, tool.args, tool.content) == ("x", {}, "ok")


@pytest.mark.parametrize(
    ("entries", "fragment"),
    [
        ([{"type": "message"}], "s.jsonl:1: message: required"),
        ([{"type": "message", "timestamp": "x", "message": USER}], "s.jsonl:1: timestamp: must"),
        ([{"type": "session"}, {"foo": 1}], 's.jsonl:2: expected a session entry (with "type")'),
        ([{"type": "session"}, [1]], "s.jsonl:2: expected a JSON object, got array"),
        (
            [{"type": "message", "message": {"role": "toolResult", "content": []}}],
            's.jsonl:1: message.toolCallId: required on a "toolResult" message',
        ),
        (
            [
                {
                    "type": "message",
                    "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "t"}]},
                }
            ],
            "s.jsonl:1: message.content[0].name: required",
        ),
        (
            [{"role": "toolResult", "toolCallId": "t", "isError": "yes"}],
            "s.jsonl:1: isError: must be true or false",
        ),
        ([{"type": "session"}, {"type": "model_change"}], "the session has no user, system"),
    ],
)
def test_openclaw_errors(entries: list[Any], fragment: str) -> None:
    data = "\n".join(json.dumps(e) for e in entries)
    with pytest.raises(InputError) as info:
        parse_receipts(data, source_name="s.jsonl")
    assert fragment in str(info.value)


# --------------------------------------------------------------------------- examples


@pytest.mark.parametrize(
    ("name", "summary"),
    [
        ("fabricated_tests.json", "=== 2 failed, 40 passed in 3.1s ==="),
        ("honest_tests.json", "42 passed in 3.0s"),
    ],
)
def test_example_transcripts(name: str, summary: str) -> None:
    path = EXAMPLES / name
    assert detect_format(path.read_text(encoding="utf-8")) == "openai_transcript"
    system, user, run, reply = load_receipts(path)
    assert (system.id, system.kind) == ("sys1", "rag")  # the agent's instructions
    assert user.kind == "user" and "run the test suite" in user.content
    assert (run.kind, run.tool, run.args) == ("tool", "exec", {"command": "pytest -q"})
    assert run.content.rstrip().endswith(summary)
    assert run.meta == {}
    # the answer under check, last in the transcript: the agent's words, no evidence
    assert (reply.id, reply.kind, reply.effective_trust) == ("a1", "reply", "untrusted")


# --------------------------------------------------------------------------- properties


_text = st.text(st.characters(codec="utf-8"), min_size=1).filter(str.strip)


@given(
    st.lists(st.tuples(st.sampled_from(["web", "rag", "db", "memory", "user"]), _text), min_size=1)
)
def test_jsonl_roundtrip(items: list[tuple[str, str]]) -> None:
    data = _jsonl(*({"kind": kind, "content": content} for kind, content in items))
    receipts = parse_receipts(data)
    assert [(r.kind, r.content) for r in receipts] == items
    assert len({r.id for r in receipts}) == len(receipts)


@given(st.text(max_size=200))
def test_parse_never_raises_anything_but_input_error(data: str) -> None:
    with contextlib.suppress(InputError):
        parse_receipts(data)


def test_when_two_calls_share_arguments_and_output_then_each_keeps_its_own_reading() -> None:
    # a think call's arguments are its own words; a lookup with the same arguments and the
    # same (empty) output still names the reservation it asked for
    from receiptgate.evidence.index import ReceiptIndex

    args = {"reservation_id": "QWPZKM", "thought": "check QWPZKM"}
    think = Receipt(id="c1", kind="tool", tool="think", args=args, content="")
    lookup = Receipt(id="c2", kind="tool", tool="get_reservation", args=args, content="")
    index = ReceiptIndex([think, lookup])
    held = {index.receipt_of(leaf).id for leaf in index.leaves(["i:qwpzkm"])}
    assert held == {"c2"}


# -- Anthropic Messages API dialect ---------------------------------------------------

ANTHROPIC = {
    "system": "You are a coding agent. Never push to main.",
    "messages": [
        {"role": "user", "content": "Run the tests."},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "I should run pytest."},
                {"type": "text", "text": "Running the tests."},
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": "Bash",
                    "input": {"command": "pytest -q"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_01",
                    "content": [{"type": "text", "text": "1 failed, 41 passed in 2.10s"}],
                    "is_error": True,
                },
                {"type": "text", "text": "What failed?"},
            ],
        },
    ],
}


def test_anthropic_messages_become_receipts() -> None:
    receipts = parse_receipts(json.dumps(ANTHROPIC), source_name="claude.json")
    by_kind = {(r.kind, r.id) for r in receipts}
    assert ("rag", "sys1") in by_kind  # the top-level system prompt is a document
    call = next(r for r in receipts if r.kind == "tool")
    assert (call.id, call.tool, call.args) == ("toolu_01", "Bash", {"command": "pytest -q"})
    assert call.content == "1 failed, 41 passed in 2.10s"
    assert call.ok is False  # is_error
    users = [r.content for r in receipts if r.kind == "user"]
    assert users == ["Run the tests.", "What failed?"]  # the tool result is no user text


def test_a_claim_against_an_anthropic_transcript_is_checked() -> None:
    receipts = parse_receipts(json.dumps(ANTHROPIC), source_name="claude.json")
    gate = Gate()
    assert gate.validate("All 42 tests pass.", receipts=receipts).verdict == "block"
    assert gate.validate("41 tests passed and 1 failed.", receipts=receipts).verdict == "pass"


@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        ({"system": 5, "messages": [{"role": "user", "content": "hi"}]}, "system.content"),
        (
            {"messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]},
            "messages[0].content[0].tool_use_id",
        ),
        (
            {
                "messages": [
                    {
                        "role": "assistant",
                        "content": [{"type": "tool_use", "id": "t", "name": "x", "input": 3}],
                    }
                ]
            },
            "messages[0].content[0].input",
        ),
    ],
)
def test_anthropic_dialect_errors_name_the_path(doc: dict[str, Any], fragment: str) -> None:
    with pytest.raises(InputError, match=re.escape(fragment)):
        parse_receipts(json.dumps(doc), source_name="claude.json")
