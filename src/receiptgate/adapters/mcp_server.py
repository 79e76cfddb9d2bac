"""An MCP server exposing the gate as two tools: ``validate`` and ``check_claim``.

Any MCP client (Claude Desktop, an IDE, an agent runtime) can ask the gate, before it sends
a text, which sentences are supported, which are contradicted, and what may be delivered::

    pip install 'receiptgate[mcp]'
    python -m receiptgate.adapters.mcp_server --facts examples/quickstart/facts.yaml

The server speaks MCP over stdio (the client spawns it), with mcp 1.x (>= 1.2) or 2.x
installed. The gate is built once at start-up from ``--config``, ``--facts`` (repeatable) and
``--policy``, or from the environment variables ``RECEIPTGATE_CONFIG``, ``RECEIPTGATE_FACTS``
(paths joined by ``os.pathsep``) and ``RECEIPTGATE_POLICY`` when the options are not given.
``--receipts`` files (repeatable) are evidence for every call, in addition to the receipts a
call passes.

Tools:

- ``validate(text, agent_id?, trust?, channel?, receipts?, messages?, now?)`` returns the full
  report (``ValidationResult.to_dict()``, the JSON of ``receiptgate check --format json``).
- ``check_claim(sentence, agent_id?, trust?, channel?, receipts?, messages?, now?)`` checks one
  sentence and returns its verdict, tag, evidence, reasons and suggestions.

A bad argument (trust outside 0-100, a malformed receipt, an unparsable ``now``) is a tool
error (``isError``) with a one-line message; the server keeps running.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field

# The one seam between mcp versions. mcp 2 renamed FastMCP (mcp.server.fastmcp) to MCPServer
# (mcp.server.mcpserver); the parts used here (the constructor's name/instructions/log_level,
# add_tool(fn, name=, description=), ToolError and run("stdio")) behave the same in 1.x and 2.x.
# Each branch is unresolvable for mypy under the other major version, hence the ignores.
try:  # mcp >= 2
    from mcp.server.mcpserver import MCPServer  # type: ignore[import-not-found, unused-ignore]
    from mcp.server.mcpserver.exceptions import ToolError  # type: ignore[import-not-found, unused-ignore]
except ImportError:  # mcp 1.x (>= 1.2)
    from mcp.server.fastmcp import FastMCP as MCPServer  # type: ignore[attr-defined, no-redef, unused-ignore]
    from mcp.server.fastmcp.exceptions import ToolError  # type: ignore[import-not-found, no-redef, unused-ignore]

from receiptgate._exceptions import UserError
from receiptgate.api import build_gate, load_receipt_files
from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt, inline_receipts
from receiptgate.results import ValidationResult

__all__ = ["ServerSettings", "create_server", "main", "settings_from_args"]

SERVER_NAME = "receiptgate"

INSTRUCTIONS = (
    "receiptgate is a claim gate. Before you send a message that states facts (test results, "
    "system state, figures, names, dates, 'I checked ...'), call `validate` with the message and "
    "the receipts of your tool calls (or the chat `messages`), then send only `delivered_text`. "
    "Use `check_claim` to test a single sentence. Verdicts: pass, flag (unverified), block "
    "(contradicted by a fact or a receipt)."
)

_RECEIPTS_HELP = (
    "Evidence for this call: receipt objects {kind: tool|web|rag|db|memory|user, content, "
    "id?, source?, created_at? (ISO 8601), tool?, args?, ok?, trust?, call_id?, meta?}."
)
_MESSAGES_HELP = (
    "Evidence as an OpenAI-style chat transcript: assistant tool_calls with their tool "
    "results become action receipts; user messages become user receipts."
)

Text = Annotated[str, Field(description="The text the agent is about to send.")]
Sentence = Annotated[str, Field(description="One sentence (one claim) to check.")]
AgentId = Annotated[
    str | None, Field(description="The agent id (matched against exempt/agentOverrides).")
]
Trust = Annotated[
    int | None,
    Field(description="The agent's trust score 0-100; omitted: the config's defaults."),
]
Channel = Annotated[
    str | None, Field(description="Where the text goes (slack, email, twitter, ...).")
]
Receipts = Annotated[list[dict[str, Any]] | None, Field(description=_RECEIPTS_HELP)]
Messages = Annotated[list[dict[str, Any]] | None, Field(description=_MESSAGES_HELP)]
Now = Annotated[
    str | None,
    Field(description="Reference time (ISO 8601) for TTLs, freshness and relative dates."),
]


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """Where the server's gate and standing evidence come from."""

    config: str | None = None
    facts: tuple[str, ...] = ()
    policy: str | None = None
    receipts: tuple[str, ...] = ()


def parse_now(value: str | None) -> datetime | None:
    """Parses an ISO 8601 time (``Z`` allowed); a naive time is UTC.

    Raises:
        ToolError: the value is not an ISO 8601 time.
    """
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise ToolError(
            f"now: not an ISO 8601 time: {value!r} (e.g. 2026-03-11T10:00:00Z)"
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def call_receipts(
    receipts: list[dict[str, Any]] | None, messages: list[dict[str, Any]] | None
) -> list[Receipt]:
    """The receipts a tool call passed, validated as a receipts file would be.

    Raises:
        ToolError: a receipt or a message is malformed (the message says where and why).
    """
    try:
        return inline_receipts(receipts, messages)
    except UserError as exc:
        raise ToolError(str(exc)) from None


def _merge(standing: Sequence[Receipt], extra: Sequence[Receipt]) -> list[Receipt]:
    """Standing receipts plus a call's, the call's ids made unique against the standing ones."""
    if not standing:
        return list(extra)
    seen = {r.id for r in standing}
    merged = list(standing)
    for r in extra:
        if r.id in seen:
            r = r.model_copy(update={"id": f"call:{r.id}"})
        seen.add(r.id)
        merged.append(r)
    return merged


def sentence_verdict(result: ValidationResult) -> dict[str, Any]:
    """The one-sentence answer of ``check_claim``, from a validation of that sentence."""
    s = result.sentences[0]
    return {
        "sentence": s.text,
        "verdict": result.verdict,
        "action": s.action,
        "tag": s.tag,
        "kind": s.kind,
        "evidence": [e.to_dict() for e in s.evidence],
        "reasons": list(s.reasons),
        "suggestions": list(result.suggestions),
        "delivered_text": result.delivered_text,
        "trust_tier": result.trust_tier,
    }


def create_server(
    gate: Gate, *, receipts: Sequence[Receipt] = (), name: str = SERVER_NAME
) -> MCPServer:
    """Builds the MCP server around a gate.

    Args:
        gate: the gate every call validates with (built once, shared by all calls).
        receipts: standing evidence joined to every call's receipts.
        name: the server name shown to clients.
    """
    server = MCPServer(name, instructions=INSTRUCTIONS, log_level="WARNING")
    standing = list(receipts)

    def run(
        text: str,
        agent_id: str | None,
        trust: int | None,
        channel: str | None,
        receipts: list[dict[str, Any]] | None,
        messages: list[dict[str, Any]] | None,
        now: str | None,
    ) -> ValidationResult:
        evidence = _merge(standing, call_receipts(receipts, messages))
        try:
            return gate.validate(
                text,
                agent_id=agent_id,
                trust=trust,
                channel=channel,
                now=parse_now(now),
                hook="mcp",
                receipts=evidence,
            )
        except UserError as exc:
            raise ToolError(str(exc)) from None

    def validate(
        text: Text,
        agent_id: AgentId = None,
        trust: Trust = None,
        channel: Channel = None,
        receipts: Receipts = None,
        messages: Messages = None,
        now: Now = None,
    ) -> dict[str, Any]:
        return run(text, agent_id, trust, channel, receipts, messages, now).to_dict()

    def check_claim(
        sentence: Sentence,
        agent_id: AgentId = None,
        trust: Trust = None,
        channel: Channel = None,
        receipts: Receipts = None,
        messages: Messages = None,
        now: Now = None,
    ) -> dict[str, Any]:
        if not sentence.strip():
            raise ToolError("sentence: must not be empty")
        result = run(sentence, agent_id, trust, channel, receipts, messages, now)
        if len(result.sentences) != 1:
            raise ToolError(
                f"sentence: expected one sentence, got {len(result.sentences)} "
                "(use the validate tool for a whole text)"
            )
        return sentence_verdict(result)

    # add_tool rather than @server.tool(): the same call in mcp 1.x and 2.x, and with mcp 1.x
    # installed mypy sees MCPServer as Any, which would make a decorated function untyped.
    server.add_tool(
        validate,
        name="validate",
        description=(
            "Validate a text before it is sent: every factual sentence is checked against the "
            "operator's facts and the receipts given. Returns the report: verdict "
            "(pass|flag|block), per-sentence tags T1-T7 with evidence and reasons, violations, "
            "suggestions and delivered_text (what may be sent)."
        ),
    )
    server.add_tool(
        check_claim,
        name="check_claim",
        description=(
            "Check one sentence against the facts and the receipts given. Returns its verdict "
            "(pass|flag|block), tag (T1 supported ... T5 contradicted), evidence and reasons."
        ),
    )
    return server


def _env_paths(name: str) -> tuple[str, ...]:
    value = os.environ.get(name, "")
    return tuple(p for p in value.split(os.pathsep) if p.strip())


def settings_from_args(argv: Sequence[str] | None = None) -> ServerSettings:
    """Reads the command line; options not given fall back to the environment."""
    parser = argparse.ArgumentParser(
        prog="python -m receiptgate.adapters.mcp_server",
        description="receiptgate as an MCP server (stdio): tools validate and check_claim.",
    )
    parser.add_argument("--config", help="gate config file (env RECEIPTGATE_CONFIG)")
    parser.add_argument(
        "--facts",
        action="append",
        default=[],
        metavar="FILE",
        help="fact registry file, repeatable (env RECEIPTGATE_FACTS, os.pathsep-separated)",
    )
    parser.add_argument("--policy", help="policy file (env RECEIPTGATE_POLICY)")
    parser.add_argument(
        "--receipts",
        action="append",
        default=[],
        metavar="FILE",
        help="receipts/transcript file that is evidence for every call, repeatable "
        "(env RECEIPTGATE_RECEIPTS)",
    )
    args = parser.parse_args(argv)
    return ServerSettings(
        config=args.config or os.environ.get("RECEIPTGATE_CONFIG") or None,
        facts=tuple(args.facts) or _env_paths("RECEIPTGATE_FACTS"),
        policy=args.policy or os.environ.get("RECEIPTGATE_POLICY") or None,
        receipts=tuple(args.receipts) or _env_paths("RECEIPTGATE_RECEIPTS"),
    )


def server_from_settings(settings: ServerSettings) -> MCPServer:
    """Builds the gate and the server; raises ``UserError`` for a bad file."""
    gate = build_gate(config=settings.config, facts=settings.facts, policy=settings.policy)
    receipts = load_receipt_files([Path(p) for p in settings.receipts])
    return create_server(gate, receipts=receipts)


def main(argv: Sequence[str] | None = None) -> int:
    """Runs the server on stdio; exits 2 with a one-line error for a bad file."""
    settings = settings_from_args(argv)
    try:
        server = server_from_settings(settings)
    except UserError as exc:
        print(f"receiptgate mcp: {exc}", file=sys.stderr)
        return 2
    server.run("stdio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
