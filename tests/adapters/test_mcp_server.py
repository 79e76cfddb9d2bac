"""The MCP server, driven by the real ``mcp`` client over stdio (a server subprocess).

Runs against mcp 1.x and 2.x. The client API used here (``ClientSession``, ``stdio_client``,
``StdioServerParameters``) is the same in both, but mcp 2 renamed the result models' fields to
snake_case (``is_error``, ``structured_content``, ``input_schema``), so results are read in
their wire form (``wire``: camelCase, as the protocol sends them), which both versions give.
"""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, Tool
from pydantic import BaseModel

from receiptgate import build_gate
from receiptgate.adapters.mcp_server import create_server, settings_from_args

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


def wire(model: BaseModel) -> dict[str, Any]:
    """A result model as the protocol sends it: camelCase keys in mcp 1.x and 2.x alike."""
    dumped: dict[str, Any] = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def payload(result: CallToolResult) -> dict[str, Any]:
    r = wire(result)
    assert not r.get("isError"), r["content"]
    structured: dict[str, Any] = r["structuredContent"]
    # The text content carries the same JSON, for clients without structured output.
    first = r["content"][0]
    assert first["type"] == "text"
    assert json.loads(first["text"]) == structured
    return structured


def error_text(result: CallToolResult) -> str:
    r = wire(result)
    assert r.get("isError") is True, r
    first = r["content"][0]
    assert first["type"] == "text"
    text: str = first["text"]
    return text


def input_schema(tool: Tool) -> dict[str, Any]:
    schema: dict[str, Any] = wire(tool)["inputSchema"]
    return schema


def test_tools_listed_and_both_called() -> None:
    async def body(session: ClientSession) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        assert set(tools) == {"validate", "check_claim"}
        props = input_schema(tools["validate"])["properties"]
        assert {"text", "agent_id", "trust", "channel", "receipts", "messages", "now"} <= set(props)
        assert input_schema(tools["validate"])["required"] == ["text"]
        assert input_schema(tools["check_claim"])["required"] == ["sentence"]

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


def test_server_class_follows_the_installed_mcp() -> None:
    """mcp 2 renamed FastMCP (mcp.server.fastmcp) to MCPServer (mcp.server.mcpserver)."""
    server = create_server(build_gate(facts=[FACTS]))
    if int(version("mcp").split(".")[0]) >= 2:
        from mcp.server.mcpserver import MCPServer

        assert isinstance(server, MCPServer)
    else:
        from mcp.server.fastmcp import FastMCP

        assert isinstance(server, FastMCP)
    assert server.name == "receiptgate"
