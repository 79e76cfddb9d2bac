"""An agent thinking aloud about its own reasoning carries no claim; what it then says it
saw still does."""

from __future__ import annotations

import pytest

from receiptgate import Gate

GATE = Gate()


@pytest.mark.parametrize(
    "text",
    [
        "Wait, that's not right.",
        "Actually, I just had a thought.",
        "Ah, now I see the real issue!",
        "Hmm, let me think about this again.",
    ],
)
def test_thinking_aloud_is_no_claim(text: str) -> None:
    (s,) = GATE.validate(text).sentences
    assert (s.tag, s.action) == (None, "pass")


@pytest.mark.parametrize(
    "text", ["I see the problem is in the parser.", "Now I see that the file has 5 lines."]
)
def test_what_the_agent_says_it_saw_is_still_a_claim(text: str) -> None:
    (s,) = GATE.validate(text).sentences
    assert s.tag is not None and s.action != "pass"


@pytest.mark.parametrize(
    "text",
    [
        "I can see that there's already a hello.py file in the current directory.",
        "I can confirm the order was cancelled.",
        "We can see the disk is full.",
    ],
)
def test_what_the_agent_can_see_or_confirm_is_a_claim_not_an_ability(text: str) -> None:
    (s,) = GATE.validate(text).sentences
    assert s.tag is not None and s.action != "pass"


@pytest.mark.parametrize(
    "text",
    [
        "I can help you with that.",
        "I can see why that is confusing.",
        "I can confirm the details once you send them.",
        "I can tell you more about it.",
    ],
)
def test_what_the_agent_can_do_is_still_no_claim(text: str) -> None:
    (s,) = GATE.validate(text).sentences
    assert (s.tag, s.action) == (None, "pass")


@pytest.mark.parametrize(
    "text",
    [
        "I'm glad to hear that.",
        "I’m glad you enjoyed the “hot” price!",
        "I'm happy you like it!",
        "Glad that worked out!",
    ],
)
def test_pleasure_at_what_the_user_said_is_no_claim(text: str) -> None:
    (s,) = GATE.validate(text).sentences
    assert (s.tag, s.action) == (None, "pass")


@pytest.mark.parametrize(
    "text",
    ["I'm glad the refund went through.", "I am glad to hear your refund of $50 was issued."],
)
def test_gladness_about_a_fact_keeps_the_fact(text: str) -> None:
    (s,) = GATE.validate(text).sentences
    assert s.action != "pass"


@pytest.mark.parametrize(
    "text",
    [
        "THOUGHT: I'm confident in the solution.",
        "I am confident in the solution.",
        "This gives me some confidence that I haven't broken existing functionality.",
        "I'm ready to submit.",
        "I want to test if my fix works for fields in other modules.",
        "<thoughts>\nActually, I just had a thought.",
    ],
)
def test_the_agents_stance_and_wishes_are_no_claim(text: str) -> None:
    (s,) = GATE.validate(text).sentences
    assert (s.tag, s.action) == (None, "pass")


def test_a_framework_mark_before_a_claim_leaves_the_claim() -> None:
    (s,) = GATE.validate("THOUGHT: I am confident that the total is $40.").sentences
    assert s.action == "block"


def test_a_number_in_inline_code_is_a_literal_not_a_figure() -> None:
    (s,) = GATE.validate("`50 > 40`, so no parens.").sentences
    assert s.action != "block"
    (s,) = GATE.validate("The queue holds 50 jobs, so no parens.").sentences
    assert s.action == "block"
    # a span that is the number alone is the figure itself (an item id quoted)
    (s,) = GATE.validate("The queue holds `50` jobs.").sentences
    assert s.action == "block"
