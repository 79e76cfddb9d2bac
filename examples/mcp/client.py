"""Talk to the receiptgate MCP server as any MCP client does: spawn it over stdio, list its
tools, check one claim and validate a whole answer against a tool transcript.

Works with mcp 1.x and 2.x. Results are read in their wire form (camelCase, as the protocol
sends them): mcp 2 renamed the result models' fields to snake_case (``is_error``,
``structured_content``), mcp 1.x has ``isError``, ``structuredContent``.

Run from the repository root (offline, no model):

    .venv/bin/pip install -q '.[mcp]'
    .venv/bin/python examples/mcp/client.py
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult

ROOT = Path(__file__).resolve().parents[2]
FACTS = ROOT / "examples" / "quickstart" / "facts.yaml"
TRANSCRIPT = ROOT / "examples" / "transcripts" / "fabricated_tests.json"
NOW = "2026-03-11T10:00:00Z"


def wire(result: CallToolResult) -> dict[str, Any]:
    """The result as the protocol sends it: same keys with mcp 1.x and 2.x."""
    dumped: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return dumped


def structured(result: CallToolResult) -> dict[str, Any]:
    r = wire(result)
    if r.get("isError"):
        raise SystemExit(f"tool error: {r['content'][0]['text']}")
    report: dict[str, Any] = r["structuredContent"]
    return report


async def main() -> None:
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "receiptgate.adapters.mcp_server", "--facts", str(FACTS)],
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = await session.list_tools()
        print("tools:", ", ".join(t.name for t in tools.tools))

        claim = structured(
            await session.call_tool(
                "check_claim", {"sentence": "Node.js is not installed on the build host."}
            )
        )
        print(f"check_claim: {claim['verdict']} {claim['tag']} {claim['sentence']}")
        for e in claim["evidence"]:
            print(f"    {e['relation']} {e['kind']}:{e['id']} - {e['detail']}")

        messages = json.loads(TRANSCRIPT.read_text())["messages"]
        answer = "I ran the tests and they all pass. Node.js is installed on the build host."
        report = structured(
            await session.call_tool(
                "validate",
                {"text": answer, "messages": messages, "agent_id": "coder", "now": NOW},
            )
        )
        print(f"validate: {report['verdict']}")
        for s in report["sentences"]:
            print(f"    [{s['index'] + 1}] {s['tag']} {s['action']:5} {s['text']}")
        print("delivered:", report["delivered_text"])

        bad = await session.call_tool("validate", {"text": answer, "trust": 400})
        print("bad argument -> isError:", wire(bad).get("isError", False))


if __name__ == "__main__":
    asyncio.run(main())
