"""The MCP server, driven by the real ``mcp`` client over stdio (a server subprocess)."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

from receiptgate.adapters.mcp_server import settings_from_args

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"
FAILING = ROOT / "examples" / "transcripts" / "fabricated_tests.json"
NOW = "2026-03-11T10:00:00Z"


def run_session(
    body: Callable[[ClientSession], Awaitable[None]], *args: str, env: dict[str, str] | None = None
) -> None:
    """Spawns ``python -m receiptgate.adapters.mcp_server ARGS`` and runs ``body`` on a session."""

    async def main() -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "receiptgate.adapters.mcp_server", *args],
            env=env,
            cwd=str(ROOT),
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await body(session)

    asyncio.run(asyncio.wait_for(main(), timeout=60))


def payload(result: CallToolResult) -> dict[str, Any]:
    assert not result.isError, result.content
    assert result.structuredContent is not None
    structured: dict[str, Any] = result.structuredContent
    # The text content carries the same JSON, for clients without structured output.
    first = result.content[0]
    assert isinstance(first, TextContent)
    assert json.loads(first.text) == structured
    return structured


def error_text(result: CallToolResult) -> str:
    assert result.isError
    first = result.content[0]
    assert isinstance(first, TextContent)
    return first.text


def test_tools_listed_and_both_called() -> None:
    async def body(session: ClientSession) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"validate", "check_claim"}
        props = tools["validate"].inputSchema["properties"]
        assert {"text", "agent_id", "trust", "channel", "receipts", "messages", "now"} <= set(props)
        assert tools["validate"].inputSchema["required"] == ["text"]
        assert tools["check_claim"].inputSchema["required"] == ["sentence"]

        claim = payload(
            await session.call_tool(
                "check_claim",
                {"sentence": "Node.js is not installed on the build host.", "now": NOW},
            )
        )
        assert claim["verdict"] == "block"
        assert claim["tag"] == "T5"
        assert any(
            e["kind"] == "fact" and e["id"] == "node-installed" and e["relation"] == "contradicts"
            for e in claim["evidence"]
        )

        ok = payload(
            await session.call_tool(
                "check_claim", {"sentence": "Node.js is installed on the build host."}
            )
        )
        assert ok["verdict"] == "pass"
        assert ok["tag"] == "T4"  # supported by a fact

        report = payload(
            await session.call_tool(
                "validate",
                {
                    "text": "Node.js is not installed. The pipeline is operational.",
                    "agent_id": "ops-bot",
                    "trust": 20,
                    "channel": "slack",
                    "now": NOW,
                },
            )
        )
        assert report["verdict"] == "block"
        assert report["agent_id"] == "ops-bot"
        assert report["channel"] == "slack"
        assert report["trust"] == {"score": 20, "tier": "restricted"}
        assert report["hook"] == "mcp"
        assert [s["action"] for s in report["sentences"]] == ["block", "pass"]
        assert "operational" in report["delivered_text"]
        assert "not installed" not in report["delivered_text"]

    run_session(body, "--facts", str(FACTS))


def test_receipts_and_messages_are_evidence() -> None:
    transcript = json.loads(FAILING.read_text())["messages"]

    async def body(session: ClientSession) -> None:
        claim = "I ran the tests and they all pass."
        lying = payload(
            await session.call_tool("check_claim", {"sentence": claim, "messages": transcript})
        )
        assert lying["verdict"] == "block"
        assert any(e["id"] == "call_pytest_1" for e in lying["evidence"])

        receipts = [
            {
                "id": "pytest-1",
                "kind": "tool",
                "tool": "exec",
                "args": {"command": "pytest -q"},
                "ok": True,
                "content": "42 passed in 3.1s",
            }
        ]
        honest = payload(
            await session.call_tool("check_claim", {"sentence": claim, "receipts": receipts})
        )
        assert honest["verdict"] == "pass"
        assert honest["tag"] == "T1"

        # No receipt at all: the action claim has no evidence.
        bare = payload(await session.call_tool("check_claim", {"sentence": claim}))
        assert bare["verdict"] != "pass"

    run_session(body)


def test_bad_arguments_are_tool_errors_and_the_server_keeps_running() -> None:
    async def body(session: ClientSession) -> None:
        text = "Node.js is not installed."
        msg = error_text(await session.call_tool("validate", {"text": text, "trust": 400}))
        assert "trust" in msg
        msg = error_text(
            await session.call_tool("validate", {"text": text, "receipts": [{"kind": "nope"}]})
        )
        assert "kind" in msg
        msg = error_text(await session.call_tool("validate", {"text": text, "now": "yesterday"}))
        assert "ISO 8601" in msg
        msg = error_text(await session.call_tool("validate", {"trust": 10}))
        assert "text" in msg
        msg = error_text(
            await session.call_tool("check_claim", {"sentence": "Node is up. Redis is down."})
        )
        assert "one sentence" in msg
        # Still serving, with the facts from the environment.
        after = payload(await session.call_tool("check_claim", {"sentence": text}))
        assert after["verdict"] == "block"

    run_session(body, env={"RECEIPTGATE_FACTS": str(FACTS)})


def test_standing_receipts_file_and_bad_startup_file(tmp_path: Path) -> None:
    async def body(session: ClientSession) -> None:
        r = payload(
            await session.call_tool(
                "check_claim",
                {
                    "sentence": "I ran the tests and they all pass.",
                    # Same id as the standing transcript's call: made unique, not an error.
                    "receipts": [{"id": "call_pytest_1", "kind": "user", "content": "hi"}],
                },
            )
        )
        assert r["verdict"] == "block"

    run_session(body, "--receipts", str(FAILING))

    import subprocess

    missing = tmp_path / "missing.yaml"
    proc = subprocess.run(
        [sys.executable, "-m", "receiptgate.adapters.mcp_server", "--facts", str(missing)],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2
    assert str(missing) in proc.stderr
    assert proc.stdout == ""


def test_settings_from_args_and_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECEIPTGATE_FACTS", f"a.yaml{__import__('os').pathsep}b.yaml")
    monkeypatch.setenv("RECEIPTGATE_POLICY", "p.yaml")
    s = settings_from_args([])
    assert s.facts == ("a.yaml", "b.yaml")
    assert s.policy == "p.yaml"
    s = settings_from_args(["--facts", "c.yaml", "--config", "g.yaml"])
    assert s.facts == ("c.yaml",)
    assert s.config == "g.yaml"
