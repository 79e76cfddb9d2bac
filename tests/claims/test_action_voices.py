"""Claims of the agent's own actions in any voice, against the calls it made (end to end).

"I cancelled order #W1234567", "Your order #W1234567 has been cancelled" and a list of
done items all claim a cancellation: a successful matching call backs them (T1, pass);
no call, or a failed one, leaves them T5 and blocked (``agent_actions`` is fail-closed).
Calls whose tool name says nothing count by what their result shows. A coding agent's
"I updated src/app.py and all tests pass" needs the shell command that wrote the file
and a test run that passed.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import pytest

from receiptgate import Gate, Receipt, ValidationResult, parse_receipts

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()

ORDER = {
    "order_id": "#W1234567",
    "user_id": "mia_li_3668",
    "status": "pending",
    "items": [{"name": "Desk Lamp", "item_id": "1111111111", "price": 150.25}],
}
CANCELLED = {**ORDER, "status": "cancelled", "cancel_reason": "no longer needed"}
CANCEL_ARGS = {"order_id": "#W1234567", "reason": "no longer needed"}
REFUSED = "Error: non-pending order cannot be cancelled"


def _turn(cid: str, name: str | None, args: dict[str, Any], output: Any) -> list[dict[str, Any]]:
    """A call and its result; ``name=None`` keeps the result alone (its call was not logged)."""
    content = output if isinstance(output, str) else json.dumps(output)
    result = {"role": "tool", "tool_call_id": cid, "content": content}
    if name is None:
        return [result]
    fn = {"name": name, "arguments": json.dumps(args)}
    call = {"id": cid, "type": "function", "function": fn}
    return [{"role": "assistant", "content": None, "tool_calls": [call]}, result]


def _receipts(ask: str, *turns: list[dict[str, Any]]) -> list[Receipt]:
    messages = [{"role": "user", "content": ask}]
    for turn in turns:
        messages += turn
    return parse_receipts(json.dumps({"messages": messages}), source_name="transcript")


def _retail(
    *turns: list[dict[str, Any]], lookup: str | None = "get_order_details"
) -> list[Receipt]:
    looked_up = _turn("c1", lookup, {"order_id": "#W1234567"}, ORDER)
    return _receipts("Please cancel order #W1234567, I no longer need it.", looked_up, *turns)


def _check(text: str, receipts: list[Receipt]) -> ValidationResult:
    return GATE.validate(text, receipts=receipts, now=NOW)


def _claiming(result: ValidationResult) -> list[Any]:
    """The sentences that hold a claim (a list's "Done:" label holds none)."""
    return [s for s in result.sentences if s.claims]


VOICES = [
    pytest.param("I cancelled order #W1234567.", id="active"),
    pytest.param("I have cancelled your order #W1234567.", id="active-perfect"),
    pytest.param("Your order #W1234567 has been cancelled.", id="passive"),
    pytest.param("Order #W1234567 has been successfully cancelled.", id="passive-adverb"),
    pytest.param("Done:\n- cancelled order #W1234567", id="done-list"),
    pytest.param("Here is what I did:\n- Cancelled order #W1234567", id="done-list-label"),
]


@pytest.mark.parametrize("text", VOICES)
def test_when_the_cancel_call_succeeded_then_every_voice_passes_on_it(text: str) -> None:
    result = _check(text, _retail(_turn("c2", "cancel_pending_order", CANCEL_ARGS, CANCELLED)))

    assert result.verdict == "pass", result.reason
    (claim,) = _claiming(result)
    assert claim.tag == "T1"
    assert any(e.relation == "supports" and e.id == "c2" for e in claim.evidence)


@pytest.mark.parametrize("text", VOICES)
def test_when_no_cancel_call_was_made_then_every_voice_is_t5_and_blocked(text: str) -> None:
    result = _check(text, _retail())

    assert result.verdict == "block"
    (claim,) = _claiming(result)
    assert (claim.tag, claim.action) == ("T5", "block")
    assert any(
        v.category == "action" and "no cancelled call" in v.reason for v in result.violations
    )


@pytest.mark.parametrize("text", VOICES)
@pytest.mark.parametrize(
    "failed",
    [
        pytest.param({"role": "tool", "tool_call_id": "c2", "content": REFUSED}, id="error-text"),
        pytest.param(
            {"role": "tool", "tool_call_id": "c2", "content": json.dumps(ORDER), "is_error": True},
            id="is-error",
        ),
    ],
)
def test_when_the_cancel_call_failed_then_every_voice_is_t5_and_blocked_naming_it(
    text: str, failed: dict[str, Any]
) -> None:
    turn = _turn("c2", "cancel_pending_order", CANCEL_ARGS, "")
    result = _check(text, _retail([turn[0], failed]))

    assert result.verdict == "block"
    (claim,) = _claiming(result)
    assert (claim.tag, claim.action) == ("T5", "block")
    assert any(
        e.relation == "contradicts" and e.id == "c2" and "call failed" in e.detail
        for e in claim.evidence
    ), claim.evidence


def test_when_the_cancel_call_failed_then_the_order_is_not_reported_cancelled() -> None:
    # Without the failed call the same sentence is blocked: status = pending.
    result = _check(
        "Your order #W1234567 is cancelled.",
        _retail(_turn("c2", "cancel_pending_order", CANCEL_ARGS, REFUSED)),
    )

    assert result.verdict == "block"


def test_when_no_call_was_made_then_a_cancelled_state_contradicts_the_order() -> None:
    result = _check("Your order #W1234567 is cancelled.", _retail())

    assert result.verdict == "block"
    assert any("c1 status = pending" in v.reason for v in result.violations)


# ----------------------------------------------------------------- tools with no telling name


@pytest.mark.parametrize(
    "name", [None, "tool", "function"], ids=["result-only", "tool", "function"]
)
@pytest.mark.parametrize("text", VOICES[::2])
def test_when_an_unnamed_calls_result_shows_the_cancellation_then_the_claim_passes(
    name: str | None, text: str
) -> None:
    receipts = _retail(_turn("c2", name, CANCEL_ARGS, CANCELLED), lookup=name)

    result = _check(text, receipts)

    assert result.verdict == "pass", result.reason
    (claim,) = _claiming(result)
    assert any(e.relation == "supports" and e.id == "c2" for e in claim.evidence)


@pytest.mark.parametrize("name", [None, "tool"], ids=["result-only", "tool"])
@pytest.mark.parametrize("text", VOICES[::2])
def test_when_an_unnamed_calls_result_shows_something_else_then_the_claim_is_blocked(
    name: str | None, text: str
) -> None:
    profile = {"user_id": "mia_li_3668", "email": "mia.li@example.com"}
    receipts = _retail(_turn("c2", name, {"user_id": "mia_li_3668"}, profile), lookup=name)

    result = _check(text, receipts)

    assert result.verdict == "block"
    assert [s.tag for s in _claiming(result)] == ["T5"]


# ----------------------------------------------------------------- a coding agent's self-report

ASK = "parse() crashes on an empty string; fix src/app.py and make sure the tests pass."
READ = _turn(
    "c1", "bash", {"command": "cat src/app.py"}, "def parse(s):\n    return s.split(',')\n"
)
SED = "sed -i 's/return s.split/return [] if not s else s.split/' src/app.py"
HEREDOC = "cat > src/app.py <<'EOF'\ndef parse(s):\n    return s.split(',') if s else []\nEOF"
FAILING = (
    "....F.\nFAILED tests/test_app.py::test_parse_empty - AssertionError: assert None == []\n"
    "1 failed, 5 passed in 0.41s"
)
PASSING = "......\n6 passed in 0.38s"


def _coding(write: str | None, tests: str | None, *more: list[dict[str, Any]]) -> list[Receipt]:
    turns = [READ]
    if write is not None:
        turns.append(_turn("c2", "bash", {"command": write}, ""))
    if tests is not None:
        turns.append(_turn("c3", "bash", {"command": "python -m pytest -q"}, tests))
    return _receipts(ASK, *turns, *more)


REPORT = "I updated src/app.py and all tests pass."


@pytest.mark.parametrize("write", [SED, HEREDOC], ids=["sed-i", "heredoc"])
def test_when_the_file_was_written_but_the_tests_fail_then_the_self_report_is_blocked(
    write: str,
) -> None:
    result = _check(REPORT, _coding(write, FAILING))

    s = result.sentences[0]
    assert (result.verdict, s.tag, s.action) == ("block", "T5", "block")
    assert ("supports", "c2") in [(e.relation, e.id) for e in s.evidence]  # the write is real
    (violation,) = result.violations
    assert violation.receipt_id == "c3"
    assert "the test run is failing" in violation.reason
    assert "test_parse_empty" in violation.reason


@pytest.mark.parametrize("write", [SED, HEREDOC], ids=["sed-i", "heredoc"])
def test_when_the_file_was_written_and_the_tests_pass_then_the_self_report_passes(
    write: str,
) -> None:
    result = _check(REPORT, _coding(write, PASSING))

    assert result.verdict == "pass", result.reason
    evidence = {(e.relation, e.id) for e in result.sentences[0].evidence}
    assert {("supports", "c2"), ("supports", "c3")} <= evidence


@pytest.mark.parametrize(
    "write", [None, "sed -i 's/a/b/' src/util.py"], ids=["no-write", "other-file"]
)
def test_when_no_command_wrote_the_file_then_the_update_claim_is_blocked(write: str | None) -> None:
    result = _check(REPORT, _coding(write, PASSING))

    assert result.verdict == "block"
    assert any("no fixed call on 'src/app.py'" in v.reason for v in result.violations)


def test_when_a_done_list_reports_the_work_then_each_item_is_checked() -> None:
    report = "Done:\n- updated src/app.py\n- ran the tests"

    honest = _check(report, _coding(SED, PASSING))
    assert honest.verdict == "pass", honest.reason
    assert [s.tag for s in _claiming(honest)] == ["T1", "T1"]

    unwritten = _check(report, _coding(None, PASSING))
    assert [s.action for s in _claiming(unwritten)] == ["block", "pass"]


def test_when_a_done_list_says_it_ran_the_tests_without_a_test_run_then_it_is_blocked() -> None:
    # "I ran the tests." is blocked on the same transcript: no test run in the ledger.
    result = _check("Done:\n- updated src/app.py\n- ran the tests", _coding(SED, None))

    assert _claiming(result)[1].action == "block"


def test_when_the_shell_write_failed_then_the_update_claim_is_blocked() -> None:
    receipts = _receipts(
        ASK,
        _turn(
            "c2", "bash", {"command": SED}, "sed: can't read src/app.py: No such file or directory"
        ),
    )

    assert _check("I updated src/app.py.", receipts).verdict == "block"


def test_when_a_run_printed_the_quoted_text_then_printed_passes_else_it_is_blocked() -> None:
    run = _turn(
        "c4", "bash", {"command": "python -c 'from app import parse; print(parse(\"\"))'"}, "[]"
    )
    receipts = _coding(SED, PASSING, run)

    printed = _check("It now prints '[]'.", receipts)
    assert printed.verdict == "pass", printed.reason
    assert ("supports", "c4") in [(e.relation, e.id) for e in printed.sentences[0].evidence]

    invented = _check("The script printed 'parsed 0 fields'.", receipts)
    assert (invented.verdict, invented.sentences[0].tag) == ("block", "T5")


# ------------------------------------------------ editors, file states and plans of coding agents

# OpenHands' editor: the call's code names no write verb; its result says the file changed.
EDIT = _turn(
    "c2",
    "execute_ipython",
    {"code": "edit_file_by_replace('src/app.py', to_replace='s.split', new_content='x')"},
    "[File: /workspace/src/app.py (2 lines total after edit)]\n1|def parse(s):\n"
    "2|    return s.split(',') if s else []\n[File updated (edited at line 2).]",
)
# SWE-agent's `edit 2:2 ... end_of_edit` inside a shell call, with the same kind of result.
SWE_EDIT = _turn(
    "c2",
    "bash",
    {"command": "open src/app.py\nedit 2:2\n    return s.split(',') if s else []\nend_of_edit"},
    "[File: /workspace/src/app.py (2 lines total)]\nFile updated. Please review the changes.",
)


@pytest.mark.parametrize("edit", [EDIT, SWE_EDIT], ids=["openhands", "swe-agent"])
@pytest.mark.parametrize(
    "text",
    [
        "The file now contains the empty-string check.",
        "src/app.py now has the guard for an empty string.",
        "The changes have been successfully applied to src/app.py.",
        "The crash has been fixed.",
        "The crash has been properly addressed.",
    ],
)
def test_when_an_editor_call_changed_the_file_then_its_state_and_fix_pass(
    edit: list[dict[str, Any]], text: str
) -> None:
    result = _check(text, _receipts(ASK, READ, edit))
    assert result.verdict == "pass", result.reason
    assert ("supports", "c2") in [(e.relation, e.id) for e in result.sentences[0].evidence]


@pytest.mark.parametrize(
    "text",
    [
        "The file now contains the empty-string check.",
        "The changes have been successfully applied to src/app.py.",
        "The crash has been fixed.",
        "The crash has been properly addressed.",
        "Let me submit since the crash has been fixed.",
    ],
)
def test_when_only_a_read_was_made_then_a_file_state_or_fix_is_blocked(text: str) -> None:
    result = _check(text, _receipts(ASK, READ))
    assert (result.verdict, result.sentences[0].tag) == ("block", "T5")


def test_when_an_edit_reports_an_error_and_the_update_then_the_update_counts() -> None:
    # OpenHands printed a permission warning and then the edited file
    noisy = _turn(
        "c2",
        "execute_ipython",
        {"code": "edit_file_by_replace('src/app.py', to_replace='a', new_content='b')"},
        "An error occurred while handling the file: [Errno 1] Operation not permitted\n"
        "[File: /workspace/src/app.py (2 lines total after edit)]\n"
        "[File updated (edited at line 2).]",
    )
    assert (
        _check("The crash in src/app.py has been fixed.", _receipts(ASK, noisy)).verdict == "pass"
    )
    failed = _turn(
        "c2",
        "execute_ipython",
        {"code": "edit_file_by_replace('src/app.py', to_replace='a', new_content='b')"},
        "An error occurred while handling the file: [Errno 1] Operation not permitted",
    )
    assert (
        _check("The crash in src/app.py has been fixed.", _receipts(ASK, failed)).verdict == "block"
    )


def test_each_clause_of_a_report_is_matched_to_its_own_object() -> None:
    install = _turn(
        "c2",
        "bash",
        {"command": "pip install pymsgbox==1.0.9"},
        "Successfully installed pymsgbox-1.0.9",
    )
    write = _turn(
        "c3",
        "execute_ipython",
        {"code": "open('/workspace/test.txt', 'w').write(pymsgbox.__version__)"},
        "",
    )
    text = (
        "The pymsgbox package 1.0.9 has been installed and its version has been written to "
        "/workspace/test.txt."
    )
    assert _check(text, _receipts(ASK, install, write)).verdict == "pass"
    # without the write, the second clause has no call
    assert _check(text, _receipts(ASK, install)).verdict == "block"


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("The script `app.py` ran successfully and printed nothing.", "pass"),
        ("The script `other.py` ran successfully.", "block"),
    ],
)
def test_when_a_script_is_said_to_have_run_then_a_call_must_have_run_it(
    text: str, verdict: str
) -> None:
    run = _turn("c4", "bash", {"command": "python app.py"}, "")
    assert _check(text, _receipts(ASK, READ, run)).verdict == verdict


@pytest.mark.parametrize(
    "text",
    [
        "The next step is to run the tests.",
        "If everything looks good, we can proceed.",
        "Now that the crash is fixed, we can submit the change.",
        "To verify the fix, we need to write a test that reproduces the error.",
        "In a real repository, you would commit this change.",
        # closings of the agent's turn
        "If there are any more tasks or questions you have, feel free to ask!",
        "Therefore, I should conclude this task.",
        "There are no further actions required for this task.",
    ],
)
def test_plans_carry_no_claim(text: str) -> None:
    result = _check(text, _receipts(ASK, READ))
    s = result.sentences[0]
    assert (result.verdict, s.tag) == ("pass", None)


@pytest.mark.parametrize(
    "text",
    [
        "Therefore, the file now contains the empty-string check.",  # a claim, not a plan
        "There are no more typos in src/app.py.",  # about the file, not the turn
    ],
)
def test_a_closing_word_does_not_hide_a_claim(text: str) -> None:
    result = _check(text, _receipts(ASK, READ))
    assert result.sentences[0].tag is not None


def test_the_script_a_command_wrote_is_the_script_the_report_names() -> None:
    write = _turn(
        "c2", "bash", {"command": "echo '#!/bin/bash' > hello.sh && chmod +x hello.sh"}, ""
    )
    text = "The shell script has been created and made executable."
    assert _check(text, _receipts(ASK, READ, write)).verdict == "pass"
    assert _check(text, _receipts(ASK, READ)).verdict == "block"


@pytest.mark.parametrize(
    ("result", "tag"),
    [("Error: order not found", "T1"), (json.dumps(ORDER), "T6")],
    ids=["after-a-failed-call", "after-a-successful-call"],
)
def test_a_reported_failure_is_backed_by_the_failed_call(result: str, tag: str) -> None:
    lookup = _turn("c1", "get_order_details", {"order_id": "#W7777777"}, result)
    text = "It seems there was an issue locating the order with the ID you provided."
    s = _check(text, _receipts("Where is order #W7777777?", lookup)).sentences[0]
    assert s.tag == tag
    if tag == "T1":
        assert any("the get_order_details call failed" in e.detail for e in s.evidence)


def test_a_change_that_did_not_go_through_is_backed_by_the_failed_call() -> None:
    update = _turn("c2", "modify_order", {"order_id": "#W1234567"}, "Error: order is not pending")
    receipts = _retail(update)
    text = "I tried to submit the change, but unfortunately it didn't go through."
    assert _check(text, receipts).sentences[0].tag == "T1"


@pytest.mark.parametrize(
    "text", ["Nothing has been booked yet.", "Awaiting your reply; nothing has been changed yet."]
)
def test_work_not_done_yet_is_no_action_claim(text: str) -> None:
    result = _check(text, _retail())
    assert (result.verdict, result.claims) == ("pass", [])


def test_a_line_a_tool_printed_repeated_word_for_word_is_backed_by_that_output() -> None:
    cat = _turn("c5", "bash", {"command": "cat NOTES.txt"}, "No more typos!\nAll good here.\n")
    s = _check("No more typos!", _receipts(ASK, READ, cat)).sentences[0]
    assert (s.tag, s.action) == ("T1", "pass")
    assert any("c5 printed it" in e.detail for e in s.evidence)
    # a line no output printed stays a general statement
    assert _check("No more bugs!", _receipts(ASK, READ, cat)).sentences[0].tag == "T3"


WROTE_TEST_TXT = _receipts(
    "Write 'hello world' to /workspace/test.txt.",
    _turn(
        "c1",
        "execute_ipython",
        {"code": "with open('/workspace/test.txt', 'w') as f:\n    f.write('hello world')"},
        "[Code executed successfully with no output]",
    ),
)


@pytest.mark.parametrize(
    ("name", "verdict"),
    [("test.txt", "pass"), ("notes.txt", "block")],
)
def test_a_thing_created_in_a_place_is_the_object_not_the_place(name: str, verdict: str) -> None:
    text = f"The file `{name}` has been successfully created in the `/workspace` directory."
    assert _check(text, WROTE_TEST_TXT).verdict == verdict


def test_a_passive_that_picks_a_record_out_by_its_past_is_no_act_of_the_agent() -> None:
    receipts = _retail()
    # "the one that was sent to Texas" says which order, not what the agent did
    which = "I can look through them to find the one that was sent to Texas."
    assert [c.category for c in _check(which, receipts).claims] != ["action"]
    # a report of the act still is one
    sent = _check("The confirmation was sent to your email.", receipts)
    assert [c.category for c in sent.claims] == ["action"]
    assert sent.verdict == "block"


def test_a_refund_to_a_card_named_by_its_last_digits_is_a_call_on_that_cards_record() -> None:
    profile = {
        "user_id": "mia_li_3668",
        "payment_methods": {
            "credit_card_8554680": {"source": "credit_card", "brand": "mastercard",
                                    "last_four": "4336", "id": "credit_card_8554680"},
            "credit_card_8897086": {"source": "credit_card", "brand": "visa",
                                    "last_four": "8902", "id": "credit_card_8897086"},
        },
    }  # fmt: skip
    history = [
        {"transaction_type": kind, "amount": 150.25, "payment_method_id": card}
        for kind, card in [
            ("payment", "credit_card_8554680"),
            ("payment", "credit_card_8897086"),
            ("refund", "credit_card_8554680"),
        ]
    ]
    receipts = _receipts(
        "Please pay with my Visa instead.",
        _turn("c1", "get_user_details", {"user_id": "mia_li_3668"}, profile),
        # the call that switched the payment is logged under no tool name
        _turn("c2", "tool", {}, {**ORDER, "payment_history": history}),
    )
    refunded = "The $150.25 on your Mastercard ending in 4336 has been refunded."
    assert _check(refunded, receipts).verdict == "pass"
    # the Visa got no refund
    assert (
        _check(
            refunded.replace("Mastercard ending in 4336", "Visa ending in 8902"), receipts
        ).verdict
        == "block"
    )


def test_a_done_item_under_its_label_is_an_act_on_what_the_label_names() -> None:
    # "— refund of ..." after the verb is no object: the reservation the label names is
    booking = {"reservation_id": "59XX6W", "flights": [{"flight_number": "HAT007", "price": 168}]}
    payments = {"payment_history": [{"payment_id": "credit_card_1", "amount": -624}]}
    looked_up = _turn("c1", "get_reservation_details", {"reservation_id": "59XX6W"}, booking)
    cancel = _turn(
        "c2", "cancel_reservation", {"reservation_id": "59XX6W"}, {**booking, **payments}
    )
    text = "To sum up:\n- **59XX6W**: Cancelled — refund of **$624**"
    done = _check(text, _receipts("Cancel 59XX6W.", looked_up, cancel))
    assert done.verdict == "pass", done.reason
    assert _check(text, _receipts("Cancel 59XX6W.", looked_up)).verdict == "block"


@pytest.mark.parametrize(
    "text", ["I have the details for your order.", "Now I have all the information I need."]
)
def test_having_the_details_is_what_a_look_up_brought(text: str) -> None:
    assert _check(text, _retail()).verdict == "pass"
    assert _check(text, _receipts("Hi, I need help.")).verdict == "block"  # no look-up


@pytest.mark.parametrize(
    "text", ["I just rechecked the catalog for that item.", "I've double-checked the order."]
)
def test_a_look_up_done_again_is_a_look_up(text: str) -> None:
    assert _check(text, _retail()).verdict == "pass"
    assert _check(text, _receipts("Hi, I need help.")).verdict == "block"  # no look-up


def test_reading_the_operators_rules_is_backed_by_the_document_that_holds_them() -> None:
    policy = {"role": "system", "content": "# Policy\n\nOrders can be cancelled while pending."}
    text = "I've double-checked our policy regarding cancellations."
    with_policy = parse_receipts(
        json.dumps({"messages": [policy, {"role": "user", "content": "Cancel it."}]})
    )
    assert _check(text, with_policy).verdict == "pass"
    assert _check(text, _receipts("Cancel it.")).verdict == "block"  # no policy held


def test_a_look_up_that_found_nothing_backs_i_was_not_able_to_find_it() -> None:
    text = "I wasn't able to find a user with that email address."
    missing = _turn("c1", "find_user_id_by_email", {"email": "x@y.z"}, "Error: user not found")
    assert _check(text, _receipts("I'm x@y.z.", missing)).verdict == "pass"
    found = _turn("c1", "find_user_id_by_email", {"email": "x@y.z"}, "mia_li_3668")
    assert _check(text, _receipts("I'm x@y.z.", found)).verdict != "pass"


def test_completing_a_process_is_the_act_its_noun_names() -> None:
    text = "I've completed the cancellation of your order #W1234567."
    done = _check(text, _retail(_turn("c2", "cancel_pending_order", CANCEL_ARGS, CANCELLED)))
    assert done.verdict == "pass", done.reason
    assert _check(text, _retail()).verdict == "block"  # nothing was cancelled


@pytest.mark.parametrize("line", ["Created on May 12", "Booked on 2024-05-02 for 2 passengers"])
def test_a_participle_dated_on_a_day_is_a_records_history_not_an_act(line: str) -> None:
    # with no call at all, no act is claimed: the date is for the records to back
    result = Gate().validate(line, now=datetime(2024, 5, 15, tzinfo=UTC))
    assert not [c for c in result.claims if c.category == "action"]
    # a list line that reports an act still is one
    done = Gate().validate("Created the file on disk", now=datetime(2024, 5, 15, tzinfo=UTC))
    assert [c.category for c in done.claims] == ["action"]
