"""Edge cases of the ledger and receipt matching found while documenting the product."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate.engine import Gate
from receiptgate.evidence.receipts import Receipt, receipts_from_messages
from receiptgate.results import ValidationResult

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
PASSING = Receipt(
    id="t1", kind="tool", tool="exec", args={"command": "pytest -q"}, content="42 passed in 3.0s"
)


def _validate(text: str, *receipts: Receipt) -> ValidationResult:
    return Gate().validate(text, now=NOW, receipts=list(receipts))


def test_when_a_label_stands_after_a_backed_sentence_then_it_is_backed() -> None:
    result = _validate("I ran the tests and they all pass. [T1 verified]", PASSING)
    assert result.verdict == "pass"
    assert [s.tag for s in result.sentences] == ["T1", "T1"]


def test_when_a_label_stands_after_an_unbacked_sentence_then_it_blocks() -> None:
    result = _validate("Revenue was $9M. [T1 verified]", PASSING)
    assert result.sentences[1].tag == "T5"
    assert result.verdict == "block"


FAILING = Receipt(
    id="t2", kind="tool", tool="exec", args={"command": "pytest -q"}, content="3 failed, 39 passed"
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Let me finish the task since all the tests pass.", ("pass", "block")),
        ("Let me finish the task because all the tests pass.", ("pass", "block")),
        # the instruction alone asserts nothing
        ("Let me run the tests to see whether they pass.", ("pass", "pass")),
    ],
)
def test_the_reason_an_instruction_gives_is_a_claim(text: str, verdict: tuple[str, str]) -> None:
    assert (_validate(text, PASSING).verdict, _validate(text, FAILING).verdict) == verdict


def test_when_an_intention_names_a_day_then_the_day_needs_no_receipt() -> None:
    result = _validate("I'll look into the flaky test tomorrow.")
    assert result.verdict == "pass"


SEARCH = Receipt(
    id="s1",
    kind="tool",
    tool="search_direct_flight",
    args={"origin": "IAH", "destination": "SFO", "date": "2026-03-19"},
    content='[{"flight_number": "HAT072", "date": "2026-03-19", "price": 177}]',
)


@pytest.mark.parametrize(
    "text",
    [
        "I'll search for flights from IAH to SFO on March 19, 2026, and then for flights "
        "back on March 23, 2026.",
        "I'll book the outbound flight for March 19, 2026, and also for the return on "
        "March 23, 2026.",
    ],
)
def test_when_a_plan_goes_on_in_a_clause_with_no_subject_then_its_days_are_the_plan(
    text: str,
) -> None:
    assert _validate(text, SEARCH).verdict == "pass"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # a plan that leads the lines it will find: its day is the plan's
        ("Now let me search for flights from IAH to SFO on March 23, 2026:", "pass"),
        ("First, I'll check flights on March 23, 2026:", "pass"),
        # a label that is no plan states its day
        ("**Your flight on March 23, 2026:**", "block"),
    ],
)
def test_when_a_plan_ends_with_a_colon_then_its_day_is_still_the_plan(
    text: str, verdict: str
) -> None:
    assert _validate(text, SEARCH).verdict == verdict


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the second day is one more object of the search, in a clause with no verb
        (
            "I'll now search for flights on March 19, 2026, for the outbound flight and "
            "March 23, 2026, for the return flight.",
            "pass",
        ),
        # a clause that opens with the day and has a verb of its own states a fact
        ("I'll now search for flights on March 19, 2026, and March 23, 2026 is full.", "block"),
    ],
)
def test_when_a_plan_names_a_second_day_after_and_then_only_a_verb_makes_it_a_fact(
    text: str, verdict: str
) -> None:
    assert _validate(text, SEARCH).verdict == verdict


ISSUE = Receipt(
    id="u1",
    kind="user",
    content="astroid 2.9.1 breaks pylint; with `pip install astroid==2.9.0` there is no failure.",
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Let me check what changed between 2.9.0 and 2.9.1 that might affect this:", "pass"),
        ("Let me check what changed between 2.9.0 and 2.9.4 that might affect this:", "block"),
    ],
)
def test_a_version_the_evidence_holds_backs_its_sentence_whatever_words_surround_it(
    text: str, verdict: str
) -> None:
    assert _validate(text, ISSUE).verdict == verdict


def test_when_a_later_clause_of_a_plan_states_a_fact_then_its_day_is_checked() -> None:
    text = "I'll search for flights on March 19, 2026, but your return flight is on March 23, 2026."
    assert _validate(text, SEARCH).verdict == "block"


def test_when_an_agent_opened_a_ticket_then_a_create_call_backs_it() -> None:
    create = Receipt(
        id="j1",
        kind="tool",
        tool="jira_create_issue",
        args={"summary": "Outage"},
        content='{"key": "OPS-1"}',
    )
    result = _validate("I opened a ticket for the outage.", create)
    assert result.claims[0].assertion == "created"
    assert result.verdict == "pass"


def test_when_the_tool_call_never_returned_then_it_backs_no_action() -> None:
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": "Deploy the api to staging."},
        {
            "role": "assistant",
            "tool_calls": [
                {
                    "id": "c1",
                    "type": "function",
                    "function": {
                        "name": "deploy",
                        "arguments": '{"service": "api", "env": "staging"}',
                    },
                }
            ],
        },
    ]
    result = _validate("I deployed the api to staging.", *receipts_from_messages(messages))
    assert result.verdict == "block"
    assert any("no result" in e.detail for e in result.sentences[0].evidence)


def test_when_the_receipt_is_about_another_host_then_it_does_not_back_the_figure() -> None:
    mpstat = Receipt(
        id="m1",
        kind="tool",
        tool="exec",
        args={"cmd": "mpstat 1 1", "host": "web-01"},
        content="CPU usage: 37%",
    )
    assert _validate("CPU usage on web-02 is at 37%.", mpstat).verdict == "block"
    assert _validate("CPU usage on web-01 is at 37%.", mpstat).verdict == "pass"


def test_when_the_agent_checked_the_config_file_then_a_log_tail_does_not_back_it() -> None:
    tail = Receipt(
        id="l1", kind="tool", tool="exec", args={"cmd": "tail /var/log/api.log"}, content="ok"
    )
    assert _validate("I checked the config file.", tail).verdict == "block"


def _bash(cid: str, command: str, output: str, *, ok: bool = True) -> Receipt:
    return Receipt(
        id=cid, kind="tool", tool="bash", args={"command": command}, content=output, ok=ok
    )


def test_a_script_said_to_work_is_backed_by_a_successful_run_of_it() -> None:
    ran = _bash("c2", "bash hello.sh", "hello\n[exit code 0]")
    result = _validate("The script `hello.sh` is working correctly.", ran)
    assert (result.verdict, result.sentences[0].tag) == ("pass", "T1")


def test_a_script_said_to_work_is_contradicted_by_a_failed_run_of_it() -> None:
    failed = _bash("c2", "bash hello.sh", "bash: hello.sh: No such file or directory", ok=False)
    assert _validate("The script `hello.sh` is working correctly.", failed).verdict == "block"


def test_a_purpose_clause_asserts_nothing() -> None:
    opened = _bash("c1", "cat tests/missing_colon.py", "def division(a, b):\n    return a/b")
    text = (
        "To ensure that there are no other issues with the `missing_colon.py` file, "
        "we should run the file."
    )
    result = _validate(text, opened)
    assert result.verdict == "pass", result.reason
    assert not result.claims


def test_closing_that_no_further_changes_are_needed_is_no_claim() -> None:
    ran = _bash("c1", "bash hello.sh", "hello")
    text = "The script prints hello, so there are no further modifications or actions needed."
    assert not [c for c in _validate(text, ran).claims if c.category == "existence"]


def test_a_statement_quoting_what_a_call_printed_is_backed_by_that_call() -> None:
    ran = _bash("c3", "python reproduce.py", "Traceback ...\nAttributeError: no attribute 'x'")
    result = _validate("The script reproduced the bug: it raised an `AttributeError`.", ran)
    assert (result.verdict, result.sentences[0].tag) == ("pass", "T1")
    assert result.sentences[0].evidence[0].id == "c3"


def test_quoted_words_no_call_holds_back_nothing() -> None:
    ran = _bash("c3", "python reproduce.py", "Traceback ...\nAttributeError: no attribute 'x'")
    result = _validate("The script reproduced the bug: it raised a `KeyError`.", ran)
    assert result.verdict == "flag"


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        # a value in single quotes, quoted as Python printed it
        ("The test failure shows that we're getting 'dummy' instead of 'my_method'.", "T1"),
        # a single-quoted word the output holds only inside a name is no quote of it
        ("The test failure shows that we're getting 'test'.", "T3"),
        # the apostrophes of "we're" and "it's" quote nothing
        ("We're sure it's the wrapper that renames it.", "T3"),
    ],
)
def test_a_single_quoted_value_is_backed_by_the_output_that_prints_it_quoted(
    text: str, tag: str
) -> None:
    ran = _bash("c3", "pytest tests/test_wraps.py", "AssertionError: 'dummy' != 'my_method'")
    assert _validate(text, ran).sentences[0].tag == tag


def test_a_failure_report_is_backed_by_the_last_call_that_acted_not_a_note() -> None:
    failed = _bash("c1", "make", "make: *** [Makefile:192: build] Error 2", ok=False)
    note = Receipt(id="c2", kind="tool", tool="think", content="Your thought has been logged.")
    result = _validate("However, the compiler could not be built.", failed, note)
    assert result.sentences[0].tag == "T1"
    assert result.sentences[0].evidence[0].id == "c1"
    # a success report is no failure report, even with "issue" in it: a fix claimed
    # after a failed build and no edit is blocked, not backed by the failure
    fixed = _validate("The issue with the tuple parser has been addressed.", failed, note)
    assert fixed.sentences[0].tag == "T5"
    assert all(e.relation != "supports" for e in fixed.sentences[0].evidence)


def test_a_change_from_old_to_new_text_is_backed_by_the_edit_that_holds_the_new_text() -> None:
    read = Receipt(id="c1", kind="tool", tool="open_file", content="1|This is a stupid typoo.")
    edit = Receipt(
        id="c2",
        kind="tool",
        tool="edit_file",
        args={"path": "bad.txt", "content": "This is a stupid typo."},
        content="[File: bad.txt (1 lines total after edit)]",
    )
    result = _validate('Line 1: Changed "typoo" to "typo"', read, edit)
    assert (result.verdict, result.sentences[0].tag) == ("pass", "T1"), result.reason
    # a change to text no edit holds is still unbacked
    assert _validate('Line 1: Changed "typoo" to "tyop"', read, edit).verdict == "block"


def test_when_a_run_printed_nothing_then_its_command_line_does_not_back_what_it_printed() -> None:
    # "./hello.sh" holds the word hello; the run printed nothing, and a failed run's
    # "./hello.sh: Permission denied" names the file, it does not print hello
    denied = _bash("c1", "./hello.sh", "-bash: ./hello.sh: Permission denied")
    silent = _bash("c2", "chmod +x hello.sh && ./hello.sh", "")
    text = "The script hello.sh has been executed, and it printed 'hello'."
    assert _validate(text, denied, silent).verdict == "block"
    printed = _bash("c3", "./hello.sh", "hello")
    assert _validate(text, denied, printed).verdict == "pass"


@pytest.mark.parametrize(
    ("line", "verdict"),
    [
        ("- Tests: 4/4 passing", "pass"),
        ("- Tests: ✔ 4 passed", "pass"),
        ("- Tests: 4 passed, 0 failed", "pass"),
        ("- Tests: 3 passed, 1 failed", "block"),
        ("I ran the tests: everything is green.", "pass"),
    ],
)
def test_when_a_summary_reports_a_run_in_a_label_line_then_the_run_decides(
    line: str, verdict: str
) -> None:
    passing = _bash("c3", "python -m pytest -q", "....\n4 passed in 0.12s")
    assert _validate(f"Summary:\n\n{line}\n", passing).verdict == verdict


def test_when_a_label_line_reports_passing_tests_with_no_run_then_it_is_blocked() -> None:
    ran = _bash("c1", "cat app.py", "def f(x):\n    return x\n")
    assert _validate("Summary:\n\n- Tests: 4/4 passing\n", ran).verdict == "block"


def _csv_session() -> list[Receipt]:
    read = Receipt(
        id="c1",
        kind="tool",
        tool="read_file",
        args={"path": "data/input.csv"},
        content="id,amount\n1,20\n2,35\n",
    )
    return [read, _bash("c3", "python summarize.py data/input.csv", "total: 55\n")]


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("I read `data/input.csv` (2 rows).", "pass"),
        ("I read `data/input.csv` (3 rows).", "block"),
        # "id": 1 of a row is no count of rows
        ("The file has 1 row.", "block"),
    ],
)
def test_when_a_report_counts_a_results_rows_then_the_rows_decide(text: str, verdict: str) -> None:
    assert _validate(text, *_csv_session()).verdict == verdict


@pytest.mark.parametrize(("total", "verdict"), [("55", "pass"), ("56", "block")])
def test_when_a_report_says_what_a_run_printed_then_its_output_backs_it(
    total: str, verdict: str
) -> None:
    assert _validate(f"The script printed the total: {total}.", *_csv_session()).verdict == verdict


@pytest.mark.parametrize(
    "text",
    [
        "The ultimate answer is OpenHands is all you need!",
        "The ultimate answer is **OpenHands is all\nyou need!**",  # a bold span wrapped
    ],
)
def test_when_a_sentence_gives_a_calls_output_as_its_answer_then_the_call_backs_it(
    text: str,
) -> None:
    ran = _bash("c1", "python answer.py", "OpenHands is all you need!")
    result = _validate(text, ran)
    assert (result.verdict, result.sentences[0].tag) == ("pass", "T1"), result.sentences


def test_when_a_list_gives_the_conditions_of_a_rule_then_its_acts_are_no_claims() -> None:
    text = (
        "A refund is only possible when one of the following conditions is met:\n\n"
        "* The airline has cancelled the flight,\n"
        "* The reservation is business class **and the flight has been cancelled**, or\n"
        "* The fee is $50."
    )
    result = _validate(text)
    assert [s.action for s in result.sentences] == ["pass", "pass", "pass", "block"]
    assert "a condition" in result.sentences[2].reasons[0]
    # the same act under a lead that reports what was done is still checked
    assert _validate("Here is what I did:\n- The flight has been cancelled.").verdict == "block"


SENT = Receipt(
    id="c1",
    kind="tool",
    tool="send_certificate",
    args={"user_id": "noah_1", "amount": 50},
    content="Certificate certificate_3221322 added to user noah_1 with amount 50.",
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the call's own result says the act was done on that object
        ("A $50 certificate (ID: certificate_3221322) has been added to your account.", "pass"),
        # another object, or an act the result does not report
        ("A $50 certificate (ID: certificate_9999999) has been added to your account.", "block"),
        ("Certificate certificate_3221322 has been refunded to your card.", "block"),
    ],
)
def test_an_act_the_result_of_a_changing_call_reports_on_the_object_is_that_call(
    text: str, verdict: str
) -> None:
    assert _validate(text, SENT).verdict == verdict
    lookup = SENT.model_copy(update={"tool": "get_certificate"})
    assert _validate(text, lookup).verdict == "block"  # a look-up adds nothing


def test_options_reviewed_under_the_policies_are_a_read_of_the_documents() -> None:
    doc = Receipt(id="sys1", kind="rag", content="Insurance cannot be added after booking.")
    text = "I've reviewed all available options under our policies."
    assert _validate(text, doc).verdict == "pass"
    # with no document held, nothing was read
    assert _validate(text).verdict == "block"
    # an object of its own is what was reviewed: the policy after it backs no read of it
    assert _validate("I've reviewed your booking history under our policies.", doc).verdict == (
        "block"
    )


CANCELLED = Receipt(
    id="c2",
    kind="tool",
    tool="cancel_reservation",
    args={"reservation_id": "K1NW8N"},
    content=(
        '{"reservation_id": "K1NW8N", "status": "cancelled", "payment_history": ['
        '{"payment_id": "gift_card_6136092", "amount": 567}, '
        '{"payment_id": "gift_card_6136092", "amount": -567}]}'
    ),
)


@pytest.mark.parametrize(
    "text",
    [
        "The refund of $567.00 has been processed to your gift card.",
        "Your refund has been processed.",
    ],
)
def test_a_refund_named_by_its_act_is_backed_by_the_call_that_recorded_it(text: str) -> None:
    # the cancellation's negative payment row is the refund, whatever the call is named
    assert _validate(text, CANCELLED).verdict == "pass"
    # a look-up of the reservation before any cancellation made no refund
    before = Receipt(
        id="c1",
        kind="tool",
        tool="get_reservation_details",
        args={"reservation_id": "K1NW8N"},
        content='{"reservation_id": "K1NW8N", "payment_history": '
        '[{"payment_id": "gift_card_6136092", "amount": 567}]}',
    )
    assert _validate(text, before).verdict == "block"


def _return_call(ok: bool) -> Receipt:
    return Receipt(
        id="r1",
        kind="tool",
        tool="return_delivered_order_items",
        args={"order_id": "#W5565470", "item_ids": ["7602931732"]},
        content=(
            '{"order_id": "#W5565470", "status": "return requested"}'
            if ok
            else "Error: order #W5565470 is not delivered"
        ),
    )


PENDING_ORDER = Receipt(
    id="g1",
    kind="tool",
    tool="get_order_details",
    args={"order_id": "#W2575533"},
    content='{"order_id": "#W2575533", "status": "pending", "return_items": null}',
)


@pytest.mark.parametrize(
    ("ok", "verdict"),
    [(True, "pass"), (False, "block")],
)
def test_a_business_process_begun_is_the_call_that_does_it(ok: bool, verdict: str) -> None:
    # "the return process has been started" is the return, not a system process whose
    # output ("pending" in another order's look-up) would show it not running
    text = "The return process has been started for order #W5565470."
    assert _validate(text, PENDING_ORDER, _return_call(ok)).verdict == verdict


def test_a_process_no_call_performs_is_read_from_outputs_as_before() -> None:
    # no return call at all: the claim keeps no receipt of the act
    text = "The return process has been started for order #W5565470."
    assert _validate(text, PENDING_ORDER).verdict != "pass"
    # a system process is still read from its output
    down = Receipt(
        id="s1",
        kind="tool",
        tool="exec",
        args={"command": "systemctl status nginx"},
        content="nginx.service: Active: inactive (dead)",
    )
    assert _validate("The nginx process has been started.", down).verdict == "block"


ADDRESS_CHANGED = Receipt(
    id="m1",
    kind="tool",
    tool="modify_pending_order_address",
    args={"order_id": "#W6750959", "city": "New York", "zip": "10093"},
    content='{"order_id": "#W6750959", "status": "pending", "address": {"city": "New York"}}',
)


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        # the id the address was taken from is no object of the change
        ("Updated order #W6750959's shipping address to the one from order #W3407479.", "pass"),
        # the changed order must still be the call's
        ("Updated order #W3407479's shipping address to the one from order #W6750959.", "block"),
    ],
)
def test_the_source_of_a_changed_value_is_not_the_object_of_the_change(
    text: str, verdict: str
) -> None:
    source = Receipt(
        id="g2",
        kind="tool",
        tool="get_order_details",
        args={"order_id": "#W3407479"},
        content='{"order_id": "#W3407479", "status": "delivered", "address": {"city": "New York"}}',
    )
    assert _validate(text, source, ADDRESS_CHANGED).verdict == verdict


@pytest.mark.parametrize(("old", "verdict"), [("game_2048.py", "pass"), ("zz_game.py", "block")])
def test_the_from_of_a_rename_is_one_of_its_objects(old: str, verdict: str) -> None:
    asked = Receipt(id="u1", kind="user", content="Please rename game_2048.py to 2048.py")
    moved = Receipt(
        id="e1",
        kind="tool",
        tool="execute_bash",
        args={"command": "mv /workspace/game_2048.py /workspace/2048.py"},
        content="",
    )
    text = f"The file has been successfully renamed from `{old}` to `2048.py`."
    assert _validate(text, asked, moved).verdict == verdict


def test_a_file_a_later_call_read_exists_though_a_first_write_failed() -> None:
    # the write to /workspace failed; the listing and the read of the file in the working
    # directory came after: the newest call on the file decides
    missing = _bash(
        "c1", "cat > /workspace/hello.py", "[Errno 2] No such file or directory", ok=False
    )
    read = Receipt(
        id="c2",
        kind="tool",
        tool="str_replace_editor",
        args={"command": "view", "path": "/home/dev/project/hello.py"},
        content="Here's the result of running `cat -n` on hello.py:\n     1\tprint('Hi')",
    )
    text = "The `hello.py` file already exists in your current directory."
    assert _validate(text, missing, read).verdict == "pass"
    # with no read after it, the failure stands
    assert _validate(text, missing).verdict == "block"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("There's already a hello.py file in the current directory.", "pass"),
        ("I can see there's already a hello.py file in the current directory.", "pass"),
        # a name the listing does not hold
        ("There's already a main.py file in the current directory.", "block"),
    ],
)
def test_a_file_said_to_be_there_is_backed_by_a_listing_that_shows_it(
    text: str, verdict: str
) -> None:
    listing = _bash(
        "c1",
        "pwd && ls -la",
        "/home/dev\n-rw-r--r-- 1 dev 22 README.md\n-rw-r--r-- 1 dev 22 hello.py\n",
    )
    assert _validate(text, listing).verdict == verdict
