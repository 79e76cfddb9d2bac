"""Types a sentence takes from the lines around it: the items of a list under a lead that
plans, asks or offers choices ("Here's what we'll do:", "Is it:"), a reply's status line, a
plain title over a list ("Summary of actions") and a table's header row. Each pass changes
the types :func:`receiptgate.claims.sentence_type.classify` gave, in place."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from receiptgate.claims.sentence_phrases import FINITE, REQUEST_OUTCOME, STATUS_LINE, STATUS_TYPES
from receiptgate.claims.sentence_type import (
    NEED_LEAD,
    OPTION_VERBS,
    Hedges,
    classify,
    plain_text,
)
from receiptgate.text.segment import is_table_separator

if TYPE_CHECKING:
    from receiptgate.text.segment import Sentence

_WORD = re.compile(r"[a-z']+")


#: What a lead line may be for the list under it to be a plan or a request: "Here's what
#: we'll do:", "I'll need the following details:", "Please provide:".
_PLAN_LEADS = frozenset({"intent", "imperative", "future"})


def _first_word(text: str) -> str:
    words = _WORD.findall(plain_text(text.lower()))
    return words[0] if words else ""


def plan_items(sentences: Sequence[Sentence], types: list[str], hedges: Hedges) -> None:
    """The items of a list under a lead that plans or asks ("Here's what we'll do:", "I'll
    need the following details:", "Could you share the new address?") say what will be
    done or is wanted, not what is: a statement among them becomes "plan", no general
    statement of its own (no T3), while its figures, ids and action claims are checked as
    in any statement ("please confirm the following details:" lists what the agent
    asserts). Changes ``types`` in place."""
    for i, s in enumerate(sentences):
        if i + 1 >= len(sentences) or sentences[i + 1].kind != "list_item":
            continue
        if _CONDITIONS_LEAD.search(plain_text(s.text.lower())):
            # "... is only possible when one of the following conditions is met:": each
            # item is a condition, no act or state of this conversation
            for j in range(i + 1, len(sentences)):
                if sentences[j].kind != "list_item" or types[j] == "label":
                    break
                if types[j] in ("statement", "fragment", "plan", "intent"):
                    types[j] = "condition"
            continue
        lead = s.text.rstrip("*_ ").rstrip(":").rstrip("*_ ")
        if _BECAUSE.search(lead.lower()):
            continue  # "Let me finish the task since:": the items are its reasons, claims
        if s.text.rstrip("*_ ").endswith(":") and _OFFERS_LEAD.search(plain_text(lead.lower())):
            # "Is it:", "you would need to use one of these:": the items are the choices
            # a question or an offer lays out, no statement of their own
            _plan_list(sentences, types, i)
            continue
        asks = _ASKS.search(plain_text(lead.lower())) is not None
        if types[i] == "code" and s.kind == "heading":
            if not asks:
                continue  # "### What I need next" over the list of what is wanted
        elif types[i] in ("statement", "intent"):
            if not (asks and NEED_LEAD.search(lead.lower())):
                continue  # "To update the address I need two things." above them
        elif types[i] not in ("label", "question"):
            continue
        elif (
            types[i] == "label"
            and (
                classify(lead + ".", s.kind, hedges) not in _PLAN_LEADS
                or _first_word(lead) in OPTION_VERBS
            )
            and not asks
        ):
            continue  # a question above a list asks for its items, or offers them
        _plan_list(sentences, types, i)


def _plan_list(sentences: Sequence[Sentence], types: list[str], lead: int) -> None:
    """The statements of the list under sentence ``lead`` become "plan"."""
    for j in range(lead + 1, len(sentences)):
        if sentences[j].kind != "list_item" or types[j] == "label":
            break  # the list ends, or the next section's title starts
        if types[j] in ("statement", "fragment"):
            types[j] = "plan"


#: A lead over the choices of a question or an offer: "Is it:", "Would you prefer:",
#: "you would need to use one of these:", "You can choose either:".
_OFFERS_LEAD = re.compile(
    r"^(?:is|are|was|were|do|does|did|would|could|can|will|shall|should|which|whether)\s+"
    r"(?:it|this|that|they|you|there|one|of)\b"
    r"|\b(?:one|any|either|each)\s+of\s+(?:these|those|them|the\s+following|the\s+options?)"
    r"\s*$|\beither\s*$"
)


#: A lead whose list gives its reasons: "Let me finish the task since:", "... because:".
_BECAUSE = re.compile(r"\b(?:since|because|as|given\s+that|now\s+that)\W*$")
#: A lead over a list of conditions, ending in a colon: "when one of the following
#: conditions is met:", "if any of the following is true:", "Eligibility criteria:".
_CONDITIONS_LEAD = re.compile(
    r"(?:\b(?:one|any|all|each|both|either|none)\s+of\s+the\s+(?:following|these|below)\b"
    r"[^:]{0,40}\b(?:conditions?|criteria|requirements?|is\s+true|are\s+true|applies|apply|"
    r"(?:is|are)\s+met)\b|\b(?:conditions?|criteria|requirements?)\b[^:]{0,30}|"
    r"\b(?:if|when|unless|only\s+if)\b)[\s*_]*:[\s*_]*$"
)
#: A title over what the agent still needs or the user asked for: "What I need next",
#: "Required to proceed", "Pending requests", "Missing details".
_ASKS = re.compile(
    r"^to\s+(?:set\s+up|continue|proceed|process|complete|start|finish|update|change|modify|"
    r"return|exchange|cancel|book|look\s+up|find|help)\b|"
    r"\b(?:what\s+(?:i|we)(?:['’]ll|\s+will|\s+still)?\s+need|"
    r"(?:i|we)(?:['’]ll|\s+will)?\s+(?:still\s+)?need|"
    r"still\s+needed|needed|required|missing|to\s+proceed|to\s+continue|next\s+steps?|"
    r"pending\s+requests?|your\s+requests?|what\s+you(?:['’]ve|\s+have)?\s+asked)\b"
)


def status_line(sentences: Sequence[Sentence], types: list[str]) -> None:
    """The reply's first sentence, when it is a status line of the request ("Status:
    Completed.", "Outcome: no alternatives found"), becomes "status": it says what became of
    the request, which the sentences under it tell (and are checked for); no record's
    status. A figure in it is still checked. Changes ``types`` in place."""
    if sentences and types[0] in STATUS_TYPES and STATUS_LINE.match(sentences[0].text):
        types[0] = "status"
    for i, s in enumerate(sentences):
        # "**Status:** Not possible" under a section: what became of the request
        if types[i] in STATUS_TYPES and REQUEST_OUTCOME.match(s.text):
            types[i] = "status"


#: A list item's mark at the start of a line: "- ", "* ", "1) ", "2. ".
_ITEM_NEXT = re.compile(r"\n(?:[^\S\n]*\n)?[^\S\n]*(?:[-*•]|\d{1,2}[.)])\s")
#: Words a title may open with and still hold a verb: "What happens next", "What I've
#: done", "About locking and next steps", "Regarding your questions".
_TITLE_LEADS = frozenset("what how why where when who which about regarding re".split())
#: The most words a plain title has.
_TITLE_WORDS = 6


def plain_title(text: str, sent: Sentence) -> bool:
    """Whether a sentence is the plain title of the list under it: a line of its own, of
    six words or fewer, no figure and no end mark, above a list ("Summary of actions",
    "What happens next", "Totals and financials"). A title names what the lines under it
    say and asserts nothing itself (a markdown heading is read so by the segmenter, a bold
    one by :func:`classify`). A short line with a verb is a statement ("Everything is
    set", "Return request submitted"), unless a question word leads it ("What I
    changed")."""
    if sent.kind != "prose" or sent.text.rstrip()[-1:] in ".!?:;,":
        return False
    line_start = text.rfind("\n", 0, sent.start) + 1
    if text[line_start : sent.start].strip():
        return False
    end = text.find("\n", sent.end)
    if end < 0 or text[sent.end : end].strip() or any(c.isdigit() for c in sent.text):
        return False
    if _ITEM_NEXT.match(text, end) is None:
        return False  # no list under it: a short paragraph of its own
    words = _WORD.findall(plain_text(sent.text.lower()))
    if not words or len(words) > _TITLE_WORDS:
        return False
    if words[0] in _TITLE_LEADS:
        return True
    last = words[-1]
    return not (last.endswith("ed") and not last.endswith("eed")) and not any(
        w in FINITE or "'" in w for w in words
    )


def plain_titles(text: str, sentences: Sequence[Sentence], types: list[str]) -> None:
    """Sentences that are plain titles (:func:`plain_title`) become labels, no claim.
    Changes ``types``."""
    for s in sentences:
        if types[s.index] in ("statement", "fragment", "inference") and plain_title(text, s):
            types[s.index] = "label"


def table_headers(text: str, sentences: Sequence[Sentence], types: list[str]) -> None:
    """A table row right above the table's separator row (``|---|---|``, as the segmenter
    reads it) is its header ("| Field | Your new value |"): a label for the rows under it,
    no claim. Changes ``types``."""
    for s in sentences:
        if s.kind != "table_row":
            continue
        nl = text.find("\n", s.end)
        if nl >= 0 and is_table_separator(text, nl + 1):
            types[s.index] = "label"
