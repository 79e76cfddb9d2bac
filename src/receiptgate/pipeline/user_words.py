"""What the reply says back of the user's own messages: a sentence that restates the
user's request ("You mentioned you want to return the lamp"), a label the user's words
fill ("City: New York"), a yes or no the user gave ("Travel Insurance: No") and a
statement one of the user's messages holds nearly every word of ("The issue is when
converting FROM JSON back to DICOM") are T7 when the user's messages back them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.labels import labelled
from receiptgate.checks.words import content_words
from receiptgate.claims.sentence_phrases import AFFIRMS
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.text.segment import Sentence


def check_user_restatements(
    sentences: Sequence[Sentence], types: list[str], ledger: ReceiptIndex | None
) -> list[str]:
    """A sentence that restates the user's request ("You mentioned you want to return the
    lamp") is T7 only when the user's messages hold its words; else a plain statement."""
    if ledger is None:
        return ["statement" if t == "user" else t for t in types]
    user = ledger.cache.get("user_stems")
    if not isinstance(user, frozenset):
        # the user's words, stemmed like the sentence's; once per index
        user = ledger.cache["user_stems"] = frozenset().union(
            *(e.words for e in ledger.entries if e.receipt.kind == "user")
        )
    out = list(types)
    for s, t in zip(sentences, types, strict=True):
        if t == "user" and AFFIRMS.match(s.text.lower().replace("**", "").strip()):
            if not user:
                out[s.index] = "statement"  # no user's message to agree with
        elif t == "user":
            words = content_words(s.text) - _YOU_WORDS
            if not user or not words or len(words & user) * 2 < len(words):
                out[s.index] = "statement"
        elif t == "statement" and user and (m := labelled(_with_lead(sentences, types, s))):
            # "City: New York" after the user gave the address: their words restated
            value = re.sub(r"\([^)]*\)", " ", m.group(2))
            words = content_words(value)
            if (words and words <= user and _figures_said(value, ledger)) or _user_answered(
                m.group(1), m.group(2), ledger
            ):
                out[s.index] = "user"
        elif t == "statement" and user and _said_by_user(s.text, ledger):
            out[s.index] = "user"
    return out


_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


def _figures_said(value: str, ledger: ReceiptIndex) -> bool:
    """Whether each figure of a value is in one of the user's messages: "Bags: 2 checked
    bags" restates a user who asked for two, not one who asked for none."""
    figures = _FIGURE.findall(value)
    if not figures:
        return True
    said = [e.receipt.content for e in ledger.entries if e.receipt.kind == "user"]
    return all(
        any(re.search(rf"(?<![\d.,]){re.escape(f)}(?![\d])", u) for u in said) for f in figures
    )


def _with_lead(sentences: Sequence[Sentence], types: list[str], s: Sentence) -> str:
    """A list line with no label of its own, with the label above its list ("**Baggage:**"
    over "- 0 checked bags" reads "Baggage: 0 checked bags"); any other sentence as it is."""
    if s.kind != "list_item" or labelled(s.text) is not None:
        return s.text  # "- City: New York" has its own label
    j = s.index - 1
    while j >= 0 and sentences[j].kind == "list_item" and types[j] != "label":
        j -= 1
    if j < 0 or types[j] != "label":
        return s.text
    lead = sentences[j].text.strip(" *_").rstrip(":").strip(" *_")
    return f"{lead}: {s.text}" if lead and len(lead.split()) <= 4 else s.text


#: What a statement says of the agent's own work or its result, which no user's words
#: can back: "the patch", "our fix", "should now be resolved", "it works".
_OWN_WORK = re.compile(
    r"\b(?:i|we|our|my|patch|fix\w*|chang\w*|modif\w*|edit\w*|updat\w*|now|resolv\w*|"
    r"work\w*|pass\w*|succe\w*|complet\w*|done|should|will)\b",
    re.IGNORECASE,
)
#: A statement restates a user's message when it has this many content words, and one
#: message holds this share of them.
_RESTATED_WORDS = 5
_RESTATED_SHARE = 0.85


def _said_by_user(text: str, ledger: ReceiptIndex) -> bool:
    """Whether one of the user's messages holds nearly every word of a statement: "The
    issue is when converting FROM JSON back to DICOM" of a task that says so, the user's
    own account of the problem told back (T7)."""
    if _OWN_WORK.search(text):
        return False  # "The issue should now be resolved": the agent's work, not the user's
    words = content_words(text)
    if len(words) < _RESTATED_WORDS:
        return False
    need = _RESTATED_SHARE * len(words)
    return any(e.receipt.kind == "user" and len(words & e.words) >= need for e in ledger.entries)


#: A value that says there is none of a thing: "0 checked bags", "No travel insurance".
_NONE_OF = re.compile(r"\W*(no|0|zero)\s+([a-z][a-z -]{2,40}?)\W*", re.IGNORECASE)
_YES_NO = re.compile(r"\W*(yes|no|none|not included|declined)\W*", re.IGNORECASE)
_NEGATED = re.compile(r"\b(?:no|not|don't|do not|doesn't|won't|without|decline\w*|skip)\b|n't\b")


def _user_answered(label: str, value: str, ledger: ReceiptIndex) -> bool:
    """A yes or no the user's newest message on the label's subject gave: "Travel
    Insurance: No" after "I don't want to include travel insurance"."""
    answer = _YES_NO.fullmatch(value)
    if answer is None:
        # "Baggage: 0 checked bags", "Insurance: No travel insurance": a no, of the thing
        # it names
        answer = _NONE_OF.fullmatch(value)
        label = answer.group(2) if answer is not None else label
    words = content_words(label)
    if answer is None or not words:
        return False
    # the label's head noun is enough: "Travel insurance: No" after "I don't need insurance"
    head = content_words(label.split()[-1]) or words
    for e in reversed(ledger.entries):
        if e.receipt.kind == "user" and head <= e.words:
            negated = _NEGATED.search(e.receipt.content.lower()) is not None
            return negated == (answer.group(1).lower() != "yes")
    return False


_YOU_WORDS = frozenset("mentioned said asked requested like want wish prefer would".split())
