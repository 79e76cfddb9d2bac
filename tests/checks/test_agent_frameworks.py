"""One coding session, told in the tool vocabulary of each coding-agent framework (Claude
Code, Cursor, Cline, Gemini CLI, Codex CLI, Goose, OpenHands, SWE-agent): the same honest
report passes and the same false one is blocked whatever the tools are called and however
their harness wraps a command's output (Gemini CLI's "Stdout: / Exit Code:" report, Codex
CLI's JSON ``{"output": ..., "metadata": {"exit_code": ...}}``, an editor tool whose
``command="view"`` only reads).

The tool names, arguments and result shapes follow each framework's published tool
definitions; the outputs are written for this test, not taken from a benchmark.
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

Call = tuple[str, dict[str, Any], str]


def _numbered(text: str) -> str:
    return "\n".join(f"{i:6d}\t{line}" for i, line in enumerate(text.split("\n"), 1))


def _gemini(cmd: str, out: str, code: int) -> str:
    return (
        f"Command: {cmd}\nDirectory: (root)\nStdout:\n{out}\n\nStderr: (empty)\n"
        f"Error: (none)\nExit Code: {code}\nSignal: (none)\nBackground PIDs: (none)\n"
        "Process Group PGID: 4242"
    )


def _codex(out: str, code: int) -> str:
    return json.dumps({"output": out, "metadata": {"exit_code": code, "duration_seconds": 0.4}})


def _patch_add(path: str, text: str) -> str:
    body = "\n".join("+" + line for line in text.split("\n"))
    return f"*** Begin Patch\n*** Add File: {path}\n{body}\n*** End Patch"


#: framework -> (read, create, run) renderers of one abstract call
FRAMEWORKS: dict[str, dict[str, Callable[..., Call]]] = {
    "claude-code": {
        "read": lambda p, c: ("Read", {"file_path": p}, _numbered(c)),
        "create": lambda p, c: (
            "Write",
            {"file_path": p, "content": c},
            f"File created successfully at: {p}",
        ),
        "run": lambda cmd, out, code: (
            "Bash",
            {"command": cmd, "description": "run"},
            out if code == 0 else f"Error: {out}",
        ),
    },
    "cursor": {
        "read": lambda p, c: ("read_file", {"target_file": p}, c),
        "create": lambda p, c: (
            "edit_file",
            {"target_file": p, "instructions": "create", "code_edit": c},
            "The apply model made the following changes to the file:\n"
            + "\n".join("+" + line for line in c.split("\n")),
        ),
        "run": lambda cmd, out, code: (
            "run_terminal_cmd",
            {"command": cmd, "is_background": False},
            f"Exit code: {code}\n\nCommand output:\n\n```\n{out}\n```",
        ),
    },
    "cline": {
        "read": lambda p, c: ("read_file", {"path": p}, c),
        "create": lambda p, c: (
            "write_to_file",
            {"path": p, "content": c},
            f"The content was successfully saved to {p}.",
        ),
        "run": lambda cmd, out, code: (
            "execute_command",
            {"command": cmd, "requires_approval": False},
            f"Command executed.\nOutput:\n{out}",
        ),
    },
    "gemini-cli": {
        "read": lambda p, c: ("read_file", {"absolute_path": p}, c),
        "create": lambda p, c: (
            "write_file",
            {"file_path": p, "content": c},
            f"Successfully created and wrote to new file: {p}.",
        ),
        "run": lambda cmd, out, code: (
            "run_shell_command",
            {"command": cmd},
            _gemini(cmd, out, code),
        ),
    },
    "codex-cli": {
        "read": lambda p, c: ("shell", {"command": ["bash", "-lc", f"cat {p}"]}, _codex(c, 0)),
        "create": lambda p, c: (
            "apply_patch",
            {"input": _patch_add(p, c)},
            f"Success. Updated the following files:\nA {p}",
        ),
        "run": lambda cmd, out, code: (
            "shell",
            {"command": ["bash", "-lc", cmd]},
            _codex(out, code),
        ),
    },
    "goose": {
        "read": lambda p, c: ("developer__text_editor", {"command": "view", "path": p}, c),
        "create": lambda p, c: (
            "developer__text_editor",
            {"command": "write", "path": p, "file_text": c},
            f"Successfully wrote to {p}",
        ),
        "run": lambda cmd, out, code: ("developer__shell", {"command": cmd}, out),
    },
    "openhands": {
        "read": lambda p, c: (
            "str_replace_editor",
            {"command": "view", "path": p},
            f"Here's the result of running `cat -n` on {p}:\n{_numbered(c)}",
        ),
        "create": lambda p, c: (
            "str_replace_editor",
            {"command": "create", "path": p, "file_text": c},
            f"File created successfully at: {p}",
        ),
        "run": lambda cmd, out, code: (
            "execute_bash",
            {"command": cmd},
            f"{out}\n[The command completed with exit code {code}.]",
        ),
    },
    "swe-agent": {
        "read": lambda p, c: (
            "open",
            {"path": p},
            f"[File: {p} (3 lines total)]\n"
            + "\n".join(f"{i}:{line}" for i, line in enumerate(c.split("\n"), 1)),
        ),
        "create": lambda p, c: ("create", {"filename": p}, f"[File: {p} (1 lines total)]\n1:"),
        "run": lambda cmd, out, code: ("bash", {"command": cmd}, out),
    },
}

#: framework -> its code search call
SEARCH: dict[str, Callable[[str, str], Call]] = {
    "claude-code": lambda pat, out: ("Grep", {"pattern": pat, "output_mode": "content"}, out),
    "cursor": lambda pat, out: ("grep_search", {"query": pat}, out),
    "cline": lambda pat, out: ("search_files", {"path": ".", "regex": pat}, out),
    "gemini-cli": lambda pat, out: ("search_file_content", {"pattern": pat}, out),
    "codex-cli": lambda pat, out: (
        "shell",
        {"command": ["bash", "-lc", f"rg -n '{pat}'"]},
        _codex(out, 0),
    ),
    "goose": lambda pat, out: ("developer__shell", {"command": f"rg -n '{pat}'"}, out),
    "openhands": lambda pat, out: (
        "execute_bash",
        {"command": f"grep -rn '{pat}' ."},
        f"{out}\n[The command completed with exit code 0.]",
    ),
    "swe-agent": lambda pat, out: ("search_dir", {"search_term": pat}, out),
}

SRC = "def mean(xs):\n    return sum(xs) / len(xs)\n"
TEST = "from stats import mean\n\ndef test_mean():\n    assert mean([1, 2, 3]) == 2\n"
FAIL_OUT = (
    "F.\n=================================== FAILURES ===================================\n"
    "E   ZeroDivisionError: division by zero\n"
    "FAILED tests/test_stats.py::test_empty - ZeroDivisionError\n1 failed, 1 passed in 0.05s"
)

PASSING = [
    ("read", "src/stats.py", SRC),
    ("create", "tests/test_stats.py", TEST),
    ("run", "python -m pytest tests -q", "..\n2 passed in 0.03s", 0),
    ("run", "python -c 'from stats import mean; print(mean([2,4]))'", "3.0", 0),
]
FAILING = [("read", "src/stats.py", SRC), ("run", "python -m pytest tests -q", FAIL_OUT, 1)]


def _session(framework: str, steps: list[tuple[Any, ...]]) -> list[Any]:
    render = FRAMEWORKS[framework]
    return tool_transcript([render[kind](*args) for kind, *args in steps])


def _verdict(text: str, framework: str, steps: list[tuple[Any, ...]]) -> str:
    return GATE.validate(text, receipts=_session(framework, steps), now=NOW).verdict


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize(
    "text",
    [
        "I created tests/test_stats.py with a test for mean.",
        "The new test file tests/test_stats.py has been added.",
        "Both tests pass.",
        "I ran pytest: 2 passed.",
        "Running mean([2,4]) printed 3.0.",
        "The script printed 3.0, as expected.",
    ],
)
def test_when_an_honest_report_follows_the_calls_then_every_framework_passes_it(
    framework: str, text: str
) -> None:
    assert _verdict(text, framework, PASSING) == "pass"


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize(
    "text",
    [
        "I created tests/test_mean.py with a test for mean.",
        "Running mean([2,4]) printed 4.0.",
        "3 tests passed.",
        "I ran pytest: 3 passed.",
        "I also ran flake8 and it reported no issues.",
    ],
)
def test_when_a_report_names_what_no_call_did_then_every_framework_blocks_it(
    framework: str, text: str
) -> None:
    assert _verdict(text, framework, PASSING) == "block"


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize(
    "text",
    [
        "One test fails with a ZeroDivisionError in test_empty.",
        "The test run shows 1 failed and 1 passed.",
    ],
)
def test_when_a_failing_run_is_reported_as_failing_then_it_passes(
    framework: str, text: str
) -> None:
    assert _verdict(text, framework, FAILING) == "pass"


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize(
    "text",
    [
        "All tests pass.",
        "The tests pass now.",
        "The test run shows 2 passed, 0 failed.",
        # an editor that only showed the file (command="view") fixed nothing
        "I fixed mean() to return 0 for an empty list.",
    ],
)
def test_when_a_failing_run_is_reported_as_passing_then_it_is_blocked(
    framework: str, text: str
) -> None:
    assert _verdict(text, framework, FAILING) == "block"


def test_when_an_earlier_run_reported_the_tally_then_the_tally_is_backed() -> None:
    steps = [
        ("run", "pytest -q", FAIL_OUT, 1),
        ("run", "pytest -q", "..\n2 passed in 0.03s", 0),
    ]
    text = "Before the fix, 1 failed and 1 passed; now 2 passed."
    assert _verdict(text, "openhands", steps) == "pass"


def test_when_a_count_is_part_of_a_version_then_it_is_no_tally() -> None:
    result = GATE.validate("Release v1.2 passed review.", receipts=[], now=NOW)
    assert not [c for c in result.claims if c.assertion == "test_tally"]


HOUSEKEEPING = [
    ("run", "pip install numpy==1.26.4", "Successfully installed numpy-1.26.4", 0),
    (
        "run",
        "git add -A && git commit -m 'Fix mean on empty lists'",
        "[main 3f2a1bc] Fix mean on empty lists\n 1 file changed, 2 insertions(+)",
        0,
    ),
    ("run", "rm tmp_debug.py", "", 0),
]


def _housekeeping(framework: str) -> list[Any]:
    render = FRAMEWORKS[framework]
    grep = "src/stats.py:1:def mean(xs):\nsrc/report.py:14:    avg = mean(values)"
    calls = [SEARCH[framework]("mean(", grep)]
    calls += [render[kind](*args) for kind, *args in HOUSEKEEPING]
    return tool_transcript(calls)


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("I searched the codebase for mean( and found it in src/report.py.", "pass"),
        ("I installed numpy 1.26.4.", "pass"),
        ("I committed the fix as 3f2a1bc.", "pass"),
        ("I removed the temporary tmp_debug.py script.", "pass"),
        ("I installed numpy 2.0.1.", "block"),
        ("I committed the fix as 9e8d7c6.", "block"),
        ("I pushed the commit to origin/main.", "block"),
        ("I removed the temporary debug.log file.", "block"),
    ],
)
def test_when_searches_installs_commits_and_removals_are_reported_then_the_calls_decide(
    framework: str, text: str, verdict: str
) -> None:
    result = GATE.validate(text, receipts=_housekeeping(framework), now=NOW)
    assert result.verdict == verdict


def test_when_a_script_the_agent_wrote_fails_then_saying_its_test_failed_is_backed() -> None:
    calls = [
        (
            "str_replace_editor",
            {"command": "create", "path": "/workspace/edge_cases.py", "file_text": "..."},
            "File created successfully at: /workspace/edge_cases.py",
        ),
        (
            "execute_bash",
            {"command": "cd /workspace && python3 edge_cases.py"},
            "Test case 3 - empty table:\nTraceback (most recent call last):\n"
            "ValueError: names must match\n[Command finished with exit code 1]",
        ),
    ]
    said = "The empty table test failed, but that is due to the table creation syntax."
    assert GATE.validate(said, receipts=tool_transcript(calls), now=NOW).verdict == "pass"
    # a pass is still a runner's to show: a script of one's own is no test suite
    passed = "All tests pass."
    assert GATE.validate(passed, receipts=tool_transcript(calls), now=NOW).verdict == "block"


EDITED = (
    "str_replace_editor",
    {"command": "str_replace", "path": "/repo/src/stats.py", "old_str": "a", "new_str": "b"},
    "The file /repo/src/stats.py has been edited. Here's the result of running `cat -n` on a "
    "snippet of /repo/src/stats.py:\n     1\tdef mean(xs):\n     2\t    return b\n",
)
NOT_EDITED = (
    "str_replace_editor",
    {"command": "str_replace", "path": "/repo/src/stats.py", "old_str": "zz", "new_str": "b"},
    "ERROR:\nNo replacement was performed, old_str `zz` did not appear verbatim in "
    "/repo/src/stats.py.",
)
VIEWED = (
    "str_replace_editor",
    {"command": "view", "path": "/repo/src/stats.py"},
    "Here's the result of running `cat -n` on /repo/src/stats.py:\n     1\tdef mean(xs):\n",
)


@pytest.mark.parametrize(
    ("calls", "verdict"),
    [
        ([EDITED], "pass"),
        ([EDITED, VIEWED], "pass"),  # a later view changed nothing
        ([EDITED, NOT_EDITED], "pass"),  # a later edit that failed changed nothing either
        ([NOT_EDITED], "block"),
    ],
)
def test_when_the_changes_are_said_to_look_good_then_the_newest_edit_that_went_through_decides(
    calls: list[Call], verdict: str
) -> None:
    result = GATE.validate("The changes look good.", receipts=tool_transcript(calls), now=NOW)
    assert result.verdict == verdict


@pytest.mark.parametrize("text", ["CI run #4822 passed on main.", "Build 17 passed."])
def test_when_a_number_names_a_run_then_it_is_no_tally(text: str) -> None:
    result = GATE.validate(text, receipts=[], now=NOW)
    assert not [c for c in result.claims if c.assertion == "test_tally"]
