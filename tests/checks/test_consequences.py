"""checks/consequences.py: a sending the operator's documents say follows a call the
agent made ("the user will receive an email regarding how to return items" after a
return), end to end."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
GATE = Gate()
POLICY = {
    "role": "system",
    "content": (
        "# Retail agent policy\n\n"
        "## Return delivered order\n\n"
        "- After user confirmation, the order status will be changed to 'return requested', "
        "and the user will receive an email regarding how to return items.\n"
    ),
}
PROFILE = {"user_id": "isa_1", "email": "isa.j@example.com", "orders": ["#W1"]}
RETURNED = {"order_id": "#W1", "status": "return requested"}


def _receipts(*calls: tuple[str, dict[str, object], object]) -> list:  # type: ignore[type-arg]
    return tool_transcript(list(calls), before=[POLICY])


LOOKUP = ("get_user_details", {"user_id": "isa_1"}, PROFILE)
RETURN = ("return_delivered_order_items", {"order_id": "#W1"}, RETURNED)


@pytest.mark.parametrize(
    "text",
    [
        "An email with return steps has been sent to the email on file.",
        "A return email has been sent to isa.j@example.com.",
    ],
)
def test_an_email_the_documents_say_a_return_sends_is_backed_by_the_return(text: str) -> None:
    result = GATE.validate(text, receipts=_receipts(LOOKUP, RETURN), now=NOW)
    assert result.verdict == "pass", result.reason
    assert "return_delivered_order_items" in result.sentences[0].evidence[0].detail


@pytest.mark.parametrize(
    ("calls", "text"),
    [
        # only a look-up: nothing the documents tie an email to was done
        ((LOOKUP,), "An email with return steps has been sent to the email on file."),
        # the return failed
        (
            (LOOKUP, ("return_delivered_order_items", {"order_id": "#W1"}, "Error: not delivered")),
            "An email with return steps has been sent to the email on file.",
        ),
        # an address no result holds
        ((LOOKUP, RETURN), "A return email has been sent to someone.else@example.com."),
        # the documents say no text message follows a return
        ((LOOKUP, RETURN), "A text message has been sent to your phone."),
    ],
)
def test_no_call_the_documents_tie_the_sending_to_leaves_it_without_receipt(
    calls: tuple[tuple[str, dict[str, object], object], ...], text: str
) -> None:
    result = GATE.validate(text, receipts=_receipts(*calls), now=NOW)
    assert result.verdict == "block", [s.reasons for s in result.sentences]


def test_an_act_said_not_done_of_two_things_is_no_action_claim() -> None:
    text = "Also, note that no baggage or insurance has been added as per your instruction."
    result = GATE.validate(text, receipts=_receipts(LOOKUP), now=NOW)
    assert result.verdict != "block", result.reason
