"""An ops agent's report on pods, services and releases, with the same commands run
through four kinds of shell tool: a plain ``bash`` tool, an MCP tool per kubectl verb,
Codex CLI's JSON-wrapped result and Gemini CLI's "Stdout: / Exit Code:" report. The output
a wrapper holds is read as the command's own output would be (a pod table's rows are
records), a pod is called by the name its controller gave it ("the worker pod" of
worker-5c7b9d4f8-lx2vn), a state is never contradicted by a result about another thing
(a helm release's "STATUS: deployed"), and an action on one thing is not backed by the same
action on another ("I restarted the api deployment" after a restart of the worker).

The outputs are written for this test in the shape the tools print, not taken from a
benchmark.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2026, 4, 2, 12, tzinfo=UTC)
GATE = Gate()

PODS = """NAME                      READY   STATUS             RESTARTS      AGE
api-7d9f8c6b5-2xkqp       1/1     Running            0             3d
worker-5c7b9d4f8-lx2vn    0/1     CrashLoopBackOff   9 (10m ago)   3d
web-6b8c9d7f5-abcde       1/1     Running            2 (1h ago)    3d"""

NGINX = (
    "● nginx.service - A high performance web server\n"
    "     Loaded: loaded (/lib/systemd/system/nginx.service; enabled)\n"
    "     Active: active (running) since Tue 2026-03-31 08:00:01 UTC; 2 days ago"
)

HELM = (
    'Release "api" has been upgraded. Happy Helming!\nNAME: api\nNAMESPACE: staging\n'
    "STATUS: deployed\nREVISION: 7"
)

SESSION = [
    ("kubectl get pods -n prod", PODS),
    ("kubectl rollout restart deployment/worker -n prod", "deployment.apps/worker restarted"),
    ("systemctl status nginx", NGINX),
    ("helm upgrade api ./chart --set image.tag=2.3.1 -n staging", HELM),
]


def _gemini(cmd: str, out: str) -> str:
    return (
        f"Command: {cmd}\nDirectory: (root)\nStdout: {out}\nStderr: (empty)\nError: (none)\n"
        "Exit Code: 0"
    )


SHELLS: dict[str, Callable[[str, str], tuple[str, dict[str, Any], str]]] = {
    "bash": lambda cmd, out: ("bash", {"command": cmd}, out),
    "mcp-kubectl": lambda cmd, out: ("kubectl_" + cmd.split()[1], {"args": cmd}, out),
    "codex-cli": lambda cmd, out: (
        "shell",
        {"command": ["bash", "-lc", cmd]},
        json.dumps({"output": out, "metadata": {"exit_code": 0}}),
    ),
    "gemini-cli": lambda cmd, out: ("run_shell_command", {"command": cmd}, _gemini(cmd, out)),
}


def _verdict(shell: str, text: str) -> str:
    receipts = tool_transcript([SHELLS[shell](cmd, out) for cmd, out in SESSION])
    return GATE.validate(text, receipts=receipts, now=NOW).verdict


@pytest.mark.parametrize("shell", SHELLS)
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The worker pod is in CrashLoopBackOff with 9 restarts.", "pass"),
        ("The api and web pods are Running.", "pass"),
        ("I restarted the worker deployment.", "pass"),
        ("nginx is active and running.", "pass"),
        ("I upgraded the api release in staging to 2.3.1 (revision 7).", "pass"),
        ("The worker pod is Running.", "block"),
        ("The worker pod has restarted 4 times.", "block"),
        ("I restarted the api deployment.", "block"),
        ("I deployed 2.3.2 to staging.", "block"),
        ("I upgraded the api release in production.", "block"),
        ("nginx is down.", "block"),
        ("All pods are healthy.", "block"),
    ],
)
def test_when_an_ops_report_follows_the_commands_then_the_shell_tool_does_not_matter(
    shell: str, text: str, verdict: str
) -> None:
    assert _verdict(shell, text) == verdict


@pytest.mark.xfail(
    reason="a share of a table's rows ('2 of the 3 pods are ready') is read as a claim "
    "about all of them and the count of rows is not counted",
    strict=True,
)
def test_when_a_share_of_the_rows_is_reported_then_it_passes() -> None:
    assert _verdict("bash", "2 of the 3 pods are ready.") == "pass"


UPTIME = " 15:19:54 up 2 days, 11:30,  0 user,  load average: 4.13, 3.92, 3.85"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The server has been up for 2 days, 11 hours, and 30 minutes.", "pass"),
        ("The load averages (4.13, 3.92, 3.85) suggest moderate load.", "pass"),
        ("The server has been up for 3 days.", "block"),
        ("The server has been up for 2 days and 12 hours.", "block"),
        ("The load average is 5.13.", "block"),
    ],
)
def test_when_a_report_restates_what_uptime_printed_then_its_figures_are_backed(
    text: str, verdict: str
) -> None:
    receipts = tool_transcript([("execute", {"command": "uptime"}, UPTIME)])
    assert GATE.validate(text, receipts=receipts, now=NOW).verdict == verdict


def test_when_a_later_call_came_then_naming_the_command_points_at_its_output() -> None:
    receipts = tool_transcript(
        [
            ("execute", {"command": "uptime"}, UPTIME),
            (
                "execute",
                {"command": "ping -c 4 8.8.8.8"},
                "/bin/bash: line 1: ping: command not found",
            ),
        ]
    )
    said = "The server's uptime indicates it has been stable for over two days."
    assert GATE.validate(said, receipts=receipts, now=NOW).verdict == "pass"
    wrong = "The server's uptime indicates it has been stable for over five days."
    assert GATE.validate(wrong, receipts=receipts, now=NOW).verdict == "block"


def test_when_a_semicolon_parts_two_states_then_each_is_of_the_pods_its_part_names() -> None:
    receipts = tool_transcript([("bash", {"command": "kubectl get pods -n prod"}, PODS)])
    said = "The api and web pods are Running; only the worker pod is crash-looping."
    assert GATE.validate(said, receipts=receipts, now=NOW).verdict == "pass"
