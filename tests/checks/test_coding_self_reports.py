"""A coding agent's self-reports after SWE-agent-style calls (the Python bug-fix probe of
the thirteenth session), end to end: an edit claimed beside a file it says it did not
touch, and a run's time written with the unit apart ("in 7.94 s")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_python_bugfix_session import NOW as SESSION_NOW
from test_python_bugfix_session import RECEIPTS

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2025, 10, 14, 10, 45, tzinfo=UTC)

CALLS = [
    (
        "edit",
        {"path": "/repo/src/pagekit/pagination.py", "start_line": 42, "end_line": 42},
        {"output": "[File: /repo/src/pagekit/pagination.py (118 lines total)]\nFile updated."},
    ),
    (
        "bash",
        {"command": "python -m pytest -q"},
        {"exit_code": 0, "output": "213 passed, 3 skipped, 1 warning in 7.94s\n"},
    ),
]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # what a negated clause after the act names is no object of it
        ("I edited src/pagekit/pagination.py and didn't touch compat/legacy.py.", "pass"),
        ("I edited src/pagekit/compat/legacy.py and didn't touch pagination.py.", "block"),
        # a span written with its unit apart, and one with two decimals, however named
        ("The complete suite reports 213 passed and 3 skipped in 7.94 s.", "pass"),
        ("The complete suite reports 213 passed and 3 skipped in 9.94 s.", "block"),
        ("That's 216 tests in total, finished in 7.94 seconds.", "pass"),
        ("That's 216 tests in total, finished in 7.49 seconds.", "block"),
    ],
)
def test_self_reports_of_an_edit_and_a_run(text: str, verdict: str) -> None:
    assert Gate().validate(text, receipts=tool_transcript(CALLS), now=NOW).verdict == verdict


FAILING = (
    "bash",
    {"command": "python -m pytest tests/test_pagination.py -q"},
    {
        "exit_code": 1,
        "output": (
            "____________________________ test_last_partial_page ____________________________\n"
            "\n"
            "    def test_last_partial_page():\n"
            ">       assert len(pages) == 5\n"
            "E       assert 4 == 5\n"
            "\n"
            "tests/test_pagination.py:58: AssertionError\n"
            "__________________________ test_total_pages_rounds_up __________________________\n"
            ">       assert pages[0].total_pages == 3\n"
            "E       assert 2 == 3\n"
            "\n"
            "tests/test_pagination.py:71: AssertionError\n"
            "  /repo/src/pagekit/compat/legacy.py:12: DeprecationWarning: deprecated\n"
            "2 failed, 12 passed in 0.31s\n"
        ),
    },
)


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # none of the tests failing is a passing run, no failing one
        ("No tests fail.", CALLS, "pass"),
        ("None of the tests failed.", CALLS, "pass"),
        ("No tests pass.", CALLS, "block"),
        # a file's line in a traceback or a warning, under the test the sentence names
        ("The warning comes from line 12 of src/pagekit/compat/legacy.py.", [FAILING], "pass"),
        ("The warning comes from line 21 of src/pagekit/compat/legacy.py.", [FAILING], "block"),
        ("The first failure is test_last_partial_page, at line 58.", [FAILING], "pass"),
        ("The first failure is test_last_partial_page, at line 17.", [FAILING], "block"),
    ],
)
def test_negated_tallies_and_traceback_lines(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert Gate().validate(text, receipts=tool_transcript(calls), now=NOW).verdict == verdict


DIFF = (
    "bash",
    {"command": "git diff --stat"},
    {
        "exit_code": 0,
        "output": (
            " src/pagekit/pagination.py | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
        ),
    },
)
OPENED = (
    "open",
    {"path": "/repo/src/pagekit/pagination.py"},
    {
        "output": "[File: pagination.py (118 lines total)]\n(29 more lines above)\n"
        + "".join(f"{n}:    line {n}\n" for n in range(30, 60))
        + "page_size 20, 4 pages\n"
    },
)


@pytest.mark.parametrize(
    ("text", "calls", "verdict"),
    [
        # a count printed with its unit in a summary line
        ("The diff is 1 file changed, 1 insertion(+), 1 deletion(-).", [DIFF], "pass"),
        ("The diff is 1 file changed, 3 insertions(+), 1 deletion(-).", [DIFF], "block"),
        # a line number is never a sum of two printed figures ("24 = 20 + 4")
        ("Line 42 now reads `line 42`.", [OPENED, DIFF], "pass"),
        ("Line 24 now reads `line 42`.", [OPENED, DIFF], "block"),
        # code quoted beside a range of lines is on one of them
        ("Lines 40-45 hold `line 43`.", [OPENED], "pass"),
    ],
)
def test_printed_counts_and_lines(text: str, calls: list, verdict: str) -> None:  # type: ignore[type-arg]
    assert Gate().validate(text, receipts=tool_transcript(calls), now=NOW).verdict == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # in the whole bug-fix session, where "Page(number=3, ...)" and an exit code of 1
        # are printed too: the counts are the diff's, the line the edit's
        ("The diff is 1 file changed, 3 insertions(+), 1 deletion(-).", "block"),
        ("I replaced line 24 with `total_pages = (total + page_size - 1) // page_size`.", "block"),
        ("I replaced line 42 with `total_pages = (total + page_size - 1) // page_size`.", "pass"),
    ],
)
def test_in_the_bug_fix_session(text: str, verdict: str) -> None:
    assert Gate().validate(text, receipts=RECEIPTS[None], now=SESSION_NOW).verdict == verdict


EXPLAIN = (
    "sql",
    {"query": "EXPLAIN ANALYZE SELECT * FROM orders WHERE customer_id = 88213"},
    {
        "output": (
            "Parallel Seq Scan on orders\nPlanning Time: 0.412 ms\nExecution Time: 1843.217 ms\n"
        )
    },
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a timing written to fewer places than the tool printed it
        ("Before the index, the query took 1,843 ms.", "pass"),
        ("Before the index, the query took about 1.8 seconds.", "pass"),
        ("Before the index, the query took 1,834 ms.", "block"),
    ],
)
def test_a_timing_rounded(text: str, verdict: str) -> None:
    assert Gate().validate(text, receipts=tool_transcript([EXPLAIN]), now=NOW).verdict == verdict


FOUND = (
    "find_file",
    {"file_name": "*pagination*.py", "dir": "/repo"},
    {
        "output": (
            'Found 3 matches for "*pagination*.py" in /repo:\n'
            "/repo/src/pagekit/pagination.py\n/repo/tests/test_pagination.py\n"
            "/repo/docs/examples/pagination_demo.py\n"
        )
    },
)
RUN = (
    "bash",
    {"command": "python -m pytest tests/test_pagination.py -q"},
    {
        "exit_code": 1,
        "output": "FAILED tests/test_pagination.py::test_pages\n2 failed, 12 passed in 0.31s\n",
    },
)
MILESTONE = (
    "github_get_issue",
    {"number": 482},
    {"number": 482, "milestone": {"title": "v2.4", "open_issues": 3, "closed_issues": 9}},
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # where parts of the code base are, as a listing printed them
        (
            "The implementation lives in src/pagekit/pagination.py and its tests in "
            "tests/test_pagination.py.",
            "pass",
        ),
        ("The implementation lives in src/pagekit/paging.py.", "block"),
        ("There's also an example script at docs/examples/pagination_demo.py.", "pass"),
        # where an event happened is a claim of its own: no listing backs it
        ("The failures are in src/pagekit/pagination.py.", "flag"),
        # a count of tests is the sum of a run's tally line
        ("Before the fix, the file had 2 failures out of 14 tests.", "pass"),
        ("Before the fix, the file had 2 failures out of 16 tests.", "block"),
        # a share of the tests that failed is how many failed
        ("Before the fix, 2 of the 14 tests failed.", "pass"),
        ("Before the fix, 3 of the 14 tests failed.", "block"),
        # the sum of a record's fields named for the unit
        ("The milestone has 12 issues.", "pass"),
        ("The milestone has 13 issues.", "block"),
    ],
)
def test_places_tallies_and_sums(text: str, verdict: str) -> None:
    receipts = tool_transcript([FOUND, RUN, MILESTONE])
    assert Gate().validate(text, receipts=receipts, now=NOW).verdict == verdict


BUILD = (
    "bash",
    {"command": "cargo build --workspace"},
    {
        "exit_code": 101,
        "stdout": (
            "error[E0382]: borrow of moved value: `frame`\n"
            "   --> crates/tidepool-core/src/ring.rs:142:27\n"
            "error[E0308]: mismatched types\n"
            "  --> crates/tidepool-io/src/codec.rs:88:19\n"
        ),
    },
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a place as the compiler printed it
        ("The borrow error is at crates/tidepool-core/src/ring.rs:142:27.", "pass"),
        ("The mismatch is at codec.rs:88.", "pass"),
        # another line of a file the output prints elsewhere
        ("The borrow error is at crates/tidepool-core/src/ring.rs:124:27.", "block"),
        ("The mismatch is at codec.rs:88:91.", "block"),
    ],
)
def test_file_line_places_against_the_output_that_prints_them(text: str, verdict: str) -> None:
    receipts = tool_transcript([BUILD])
    assert Gate().validate(text, receipts=receipts, now=NOW).verdict == verdict


CARGO_TEST = (
    "bash",
    {"command": "cargo test --workspace --no-fail-fast"},
    {
        "exit_code": 101,
        "stdout": (
            "     Running unittests src/lib.rs (target/debug/deps/tidepool_core-1a2b)\n"
            "test result: FAILED. 13 passed; 1 failed; 0 ignored; 0 measured\n"
            "     Running unittests src/lib.rs (target/debug/deps/tidepool_net-3c4d)\n"
            "test result: ok. 7 passed; 0 failed; 2 ignored; 0 measured\n"
            "   Doc-tests tidepool_core\n"
            "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured\n"
        ),
    },
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # one test binary's tally line, and all of them together
        ("tidepool-core: 13 passed, 1 failed.", "pass"),
        ("Across the workspace, 23 tests passed, 1 failed and 2 were ignored.", "pass"),
        ("Across the workspace, 25 tests passed, 1 failed and 2 were ignored.", "block"),
        ("That's 26 tests in total.", "pass"),
        ("That's 28 tests in total.", "block"),
    ],
)
def test_a_run_of_several_test_binaries(text: str, verdict: str) -> None:
    receipts = tool_transcript([CARGO_TEST])
    assert Gate().validate(text, receipts=receipts, now=NOW).verdict == verdict
