"""The user's own figures, restated: "up to $100" after the user offered to pay "up to $100",
"leave after 11 AM" after "I don't want to fly before 11 AM". A figure after the same two
words, or after a word that makes it a limit, is the user's, not a field's value.
"""

from __future__ import annotations

import re

from receiptgate.claims.models import HardFact

#: Words that make the figure after them a limit: "after 11 AM", "under $1,000".
BOUND_BEFORE = re.compile(
    r"\b(?:after|before|until|till|(?:no\s+)?(?:later|earlier)\s+than|under|below|over|above|"
    r"at\s+(?:least|most)|up\s+to|within|(?:less|more)\s+than|exceeds?|exceeding)\s*[*_]*$",
    re.IGNORECASE,
)


def user_phrase(content: str, before: str, h: HardFact) -> bool:
    """Whether the user's message has the figure after the same two words as the
    sentence ("up to $100", "under $1000")."""
    words = _WORD.findall(before.lower())[-2:]
    digits = re.sub(r"[^\d.]", "", h.text)
    if "." in digits:
        digits = digits.rstrip("0").rstrip(".")  # "$100.00" is "$100"
    if len(words) < 2 or not digits:
        return False
    lead = r"\W+".join(map(re.escape, words))
    whole, _, cents = digits.partition(".")
    number = ",?".join(whole) + (rf"\.{cents}" if cents else r"(?:\.0+)?")
    figure = rf"\W*\$?\s*{number}(?![\d])"
    return re.search(rf"\b{lead}{figure}", content.lower()) is not None


_WORD = re.compile(r"[a-z]+")
