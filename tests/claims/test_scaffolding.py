"""Scaffolding carries no claim: greetings, thanks, acknowledgements, questions, offers,
labels, headings and the steps of a plan, in the words of several writers, pass with no
tag beside a real receipt (SPEC §4: sentences with no factual content get no tag). The
phrases are written for this test."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate
from tool_transcripts import tool_transcript

NOW = datetime(2026, 4, 2, 12, tzinfo=UTC)
GATE = Gate()
RECEIPTS = tool_transcript(
    [("get_order", {"order_id": "#W1"}, {"order_id": "#W1", "status": "delivered", "total": 54.2})]
)

SCAFFOLDING = [
    "Absolutely! Happy to help.",
    "Here's a summary of what I did:",
    "Let me know if you need anything else!",
    "Great question!",
    "### Summary",
    "**Next steps:**",
    "Feel free to reach out if anything else comes up.",
    "Hope this helps!",
    "Sure thing — let's get this sorted.",
    "Thanks for your patience.",
    "No problem at all.",
    "I understand how frustrating this must be.",
    "Sorry for the inconvenience.",
    "Got it.",
    "Perfect, thank you!",
    "Is there anything else you'd like me to do?",
    "Would you like me to proceed?",
    "Just to confirm, you'd like to return the item?",
    "Done!",
    "All set.",
    "You're welcome!",
    "Have a great day!",
    "Let me look into that for you.",
    "I'll check on that now.",
    "One moment while I pull that up.",
    "Here you go:",
    "Quick recap:",
    "TL;DR:",
    "Let me know which option works best for you.",
    "Please confirm (yes/no).",
    "I'm here if you need anything else.",
    "Good news!",
    "Unfortunately, there's a catch.",
    "Below are the details:",
    "In short:",
    "Happy coding!",
    "Cheers,",
    "Best regards,",
    "— Support Team",
    "I appreciate your understanding.",
    "That makes sense.",
    "Understood — thanks for clarifying.",
    "Noted.",
    "Sounds good!",
    "Certainly!",
    "Of course.",
    "Let's do it.",
    "Next, I'll update the order.",
    "First, let me verify your identity.",
    "Step 1: Identify the order",
    "## Changes made",
    "### Verification",
    "**Summary of changes**",
]


@pytest.mark.parametrize("text", SCAFFOLDING)
def test_when_a_sentence_is_scaffolding_then_it_passes_untagged(text: str) -> None:
    result = GATE.validate(text, receipts=RECEIPTS, now=NOW)
    assert result.verdict == "pass"
    assert [s.tag for s in result.sentences] == [None] * len(result.sentences)


@pytest.mark.parametrize(
    "text", ["Step 2: Updated the shipping address.", "Step 3: Refund is $54.20."]
)
def test_when_a_step_reports_what_was_done_then_it_is_a_claim(text: str) -> None:
    result = GATE.validate(text, receipts=RECEIPTS, now=NOW)
    assert any(s.tag is not None for s in result.sentences)
