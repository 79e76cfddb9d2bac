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
