"""What kind of sentence this is: factual, inference, speculation, or no claim at all.

Greetings, questions, instructions, intentions and opinions carry no factual
content and get no tag (SPEC §4). Of the rest, inference markers make a T2
candidate, hedges a T6 candidate, and a plain declarative statement a T3
candidate. Word lists are small on purpose: this runs on every sentence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from receiptgate.claims.sentence_phrases import (
    ABILITY,
    ADVICE,
    AFFIRMS,
    AFTER_STEP,
    CLOSING,
    CONDITION,
    COURTESY,
    EMPATHY,
    FINITE,
    FUTURE,
    FUTURE_MAIN,
    GOES_ON_TO_A_CLAIM,
    INTENT,
    LABEL_LEAD,
    LEAD_LABEL,
    MONTH_MAY,
    OFFER_TAIL,
    OPENER,
    OPTION_OFFERED,
    OPTION_WORDS,
    QUESTION_END,
    RECOMMEND,
    REPORT_LEAD,
    REQUEST_LABEL,
    THINKING,
    TO_CONFIRM,
    USER_RESTATED,
    WANTED,
    not_yet,
    verbless_words,
)
from receiptgate.text.segment import BOLD_TITLE

if TYPE_CHECKING:
    pass

SentenceType = Literal[
    "code",
    "question",
    "greeting",
    "imperative",
    "intent",
    "future",
    "plan",
    "condition",
    "label",
    "fragment",
    "status",
    "user",
    "opinion",
    "inference",
    "hedged",
    "statement",
]

#: Sentence types whose numbers and dates are not assertions (instructions, questions).
NO_HARD_FACT_TYPES = frozenset({"code", "question", "greeting", "imperative"})

_WORD = re.compile(r"[a-z']+")
_DIGIT = re.compile(r"\d")

_GREETINGS = frozenset(
    """
        hi hello hey thanks thank cheers welcome sure okay ok great sorry congrats bye goodbye
        """.split()
)
_IMPERATIVE = frozenset(
    """
    run use check try install add make let please see consider click open remove delete
    set configure create update restart rerun review read follow go start stop enable disable
    ensure keep avoid do don't copy paste replace type enter select choose call send reply
    contact ask tell share upload download visit navigate refer feel verify double-check
    investigate monitor rotate revert confirm look say watch
    """.split()
)
#: Verbs of an option the agent lays out for the user, as a list line or in bold
#: ("- **Cancel the entire reservation** and rebook"): commands there, not in a plain
#: sentence ("Change your flight to HAT410 on May 24" states the new flight); a title made
#: of one ("**Cancel Reservation XEHM4B**:") names a step of the agent's own, and the
#: lines under it say what is true of it.
OPTION_VERBS = frozenset(
    """
    cancel rebook book upgrade downgrade switch proceed modify change pick request wait
    exchange split pay transfer apply move
    """.split()
)
#: A hyphenated first word ("double-check"), which ``_WORD`` reads as two.
_HYPHENATED_LEAD = re.compile(r"[^a-z']*([a-z']+-[a-z']+)")


def _offers_option(text: str, first: str) -> bool:
    """Whether a (lowercase) list line or bold lead opens with the verb of an option laid
    out for the user ("- **Cancel the entire reservation** and rebook ...")."""
    # "Change of plan", "**Change:** not possible": a noun or a label, not an option
    return first in OPTION_VERBS and re.match(rf"\W*{first}(?:\W+of\b|[\s*_]*:)", text) is None


def _commands(text: str, first: str) -> bool:
    """Whether a (lowercase) sentence opens with a verb of command ("check", "Double-check
    the spelling")."""
    if first in _IMPERATIVE:
        # "Check-in is from 3 PM", "Follow-up is scheduled": a noun made of the verb
        return re.match(rf"\W*{re.escape(first)}-[a-z]", text) is None
    if first in ("just", "simply"):
        # "Just tell me which ones you'd like to send back"
        rest = _WORD.findall(text[:40])
        return len(rest) > 1 and rest[0] == first and rest[1] in _IMPERATIVE
    if "-" not in text[:40]:
        return False
    m = _HYPHENATED_LEAD.match(text)
    if m is None:
        return False
    word = m.group(1)
    # "Double-check the spelling"; "Re-check the email address", "re-enter it": a verb again
    return word in _IMPERATIVE or (word.startswith("re-") and word[3:] in _IMPERATIVE)


#: A list of examples after its lead: "For example, the flights, the cabin, or baggage."
_EXAMPLES = re.compile(r"^(?:for\s+(?:example|instance)|e\.g\.|such\s+as)\b")
#: A sentence ending in "!" (an emoji or a mark may follow).
_EXCLAIMED = re.compile(r"!\W*$")
#: Words of praise or ease an exclamation gives as its view, not as a fact.
_PRAISE = frozenset(
    """
    easy easier simple simpler quick quicker straightforward perfect perfectly indeed
    lovely wonderful fantastic amazing fun neat smooth painless
    """.split()
)
_OPINION = frozenset(
    """
        good great nice better best bad worse worst recommend recommended love like prefer happy
        glad hope hopefully excited awesome excellent interesting important useful helpful
        """.split()
)


@dataclass(frozen=True, slots=True)
class Hedges:
    """The policy's hedge words (one-word ones as a set, phrases as substrings)."""

    words: frozenset[str]
    phrases: tuple[str, ...]

    def search(self, text: str) -> bool:
        return self.found(_WORD.findall(text.lower()), text.lower())

    def found(self, words: list[str], lowered: str) -> bool:
        if not self.words.isdisjoint(words):
            return True
        return any(p in lowered for p in self.phrases)


def compile_hedges(words: list[str]) -> Hedges:
    """Prepares the policy's hedge words and phrases for fast lookup."""
    single = frozenset(w.lower() for w in words if " " not in w.strip())
    phrases = tuple(" ".join(w.lower().split()) for w in words if " " in w.strip())
    return Hedges(single, phrases)


_INFERENCE_WORDS = frozenset("therefore thus hence consequently accordingly logically".split())
_INFERENCE_PHRASES = (
    "it follows",
    "this suggests",
    "this implies",
    "this means",
    "this indicates",
    "which suggests",
    "which implies",
    "which means",
    "as a result",
)
_MODAL_INFERENCE = re.compile(
    r"\b(?:should|would)\s+(?:likely\s+)?(?:become|be|lead|make|help|reduce|improve|increase|"
    r"decrease|result|mean|go|get)\b|\bso\s+(?:we|it|this|the)\b"
)
_IF_THEN = re.compile(r"\bif\b.{1,120}\b(?:then|will|would|should)\b")


def _is_inference(words: list[str], lowered: str) -> bool:
    if not _INFERENCE_WORDS.isdisjoint(words):
        return True
    if any(p in lowered for p in _INFERENCE_PHRASES):
        return True
    if ("should" in words or "would" in words or "so" in words) and _MODAL_INFERENCE.search(
        lowered
    ):
        return True
    return "if" in words and bool(_IF_THEN.search(lowered))


def plain_text(text: str) -> str:
    """The sentence without markdown emphasis."""
    return text.replace("**", "").replace("__", "").strip()


def _body(plain: str) -> str:
    """The (lowercased, :func:`_plain`) sentence without a short lead label ("payment
    method: please confirm ...") and short opening clauses."""
    out = plain
    head = out[:45]
    lead = LABEL_LEAD.match(out) if ":" in head or "—" in head or "–" in head else None
    if lead is not None and len(lead.group(1).split()) <= 4 and len(out) - lead.end() >= 3:
        out = out[lead.end() :]
    for _ in range(3):
        m = OPENER.match(out)
        if m is None or len(out) - m.end() < 3:
            break
        out = out[m.end() :]
    return out


#: Emoji, arrows and check marks, before a sentence's first word ("✅ ", "👉 ", "➡️ ") or
#: after its last ("Here's the breakdown: 💰").
_SYMBOLS = (
    "[\\s\u2190-\u21ff\u2300-\u23ff\u2500-\u27bf\u2b00-\u2bff\ufe0f\u200d\U0001f000-\U0001faff]+"
)
_LEAD_SYMBOLS = re.compile("^" + _SYMBOLS)
#: The mark an agent framework puts before the model's reasoning: "THOUGHT: " (SWE-agent,
#: mini-swe-agent), "<thoughts>" (moatless-tools), "Thought:" (ReAct).
AGENT_MARKER = re.compile(
    r"^\s*(?:<\s*/?\s*(?:thoughts?|thinking|reasoning)\s*>\s*|(?:thoughts?|reasoning)\s*:\s*)",
    re.IGNORECASE,
)
_TRAIL_SYMBOLS = re.compile(_SYMBOLS + "$")
#: A sentence that announces the lines after it: "Here's a summary of your new booking".
_ANNOUNCES = re.compile(
    r"^(?:great,\s*|okay,\s*|ok,\s*)?here(?:'s|’s|\s+is|\s+are)\s+(?:a\s+|the\s+|your\s+)?"
    r"(?:quick\s+|short\s+|updated\s+|full\s+)?(?:summary|breakdown|overview|recap|rundown)\b"
)
#: A sentence with no figure that announces what follows: "Here's the return I'm ready to
#: set up", "here's what's currently available", "There is one complication I should be
#: upfront about", "One thing worth mentioning".
_INTRODUCES_WORDS = ("here", "should", "worth", "want to", "like to", "something", "there")
_INTRODUCES = re.compile(
    r"^(?:in\s+the\s+meantime,\s*)?here(?:'s|’s|\s+is|\s+are)\s+(?:what|how|the|a|an|your|some|all)\b"
    # "There is a second problem.", "There's one more thing."
    r"|^(?:but\s+|and\s+|also,?\s+)?there(?:'s|’s|\s+is)\s+(?:a|an|one)\s+(?:second|third|another|"
    r"further|more|last|final|other|small|big|bigger)?\s*(?:problem|issue|thing|catch|point|"
    r"wrinkle|complication|snag|detail)(?:\s+(?:to\s+(?:flag|mention|note)|here))?\W*$"
    r"|\b(?:i\s+should|i\s+want(?:ed)?\s+to|i['’]d\s+like\s+to|worth)\s+(?:be\s+upfront\s+about|"
    r"clarify|mention(?:ing)?|point(?:ing)?\s+out|flag(?:ging)?|not(?:e|ing))\W*$"
    r"|\bsomething\s+i\s+can\s+help\s+(?:you\s+)?with\b"
)

#: A heading that gives a value: a label and a figure after it.
_HEADING_VALUE = re.compile(r":\s*\S*\d")


def is_expression(line: str) -> bool:
    """Whether a line is math or code rather than prose ("(-1)**x * 4**x"): an operator
    (not the marks of bold text), no word of three letters and no amount of money
    ("$150.25 + $20.10 = $170.35" is arithmetic the reply asserts)."""
    return (
        _OPERATOR.search(line) is not None
        and _WORD3.search(line) is None
        and not any(c in line for c in "$€£%")
    )


_OPERATOR = re.compile(r"(?<=[\w)])\*\*(?=[\w(-])|\s[*^/=]\s|\w\(|\)[*^/]")
_WORD3 = re.compile(r"[A-Za-z]{3,}")


#: A line that is all bold, perhaps numbered: "**1. Preferred partner – SecureTravel
#: Guard**", "**Option 1: Distribute certificates and gift cards**".
_WHOLE_BOLD = re.compile(
    r"\s*(?:\d{1,2}[.)]\s*)?(\*\*|__)\s*(?:(?:\d{1,2}[.)]|(?:option|step|part|choice)\s+\d{1,2}"
    r"\s*[:.)–—-])\s*)?([^*_\d]{2,100}?)\s*\1\s*:?\s*",
    re.IGNORECASE,
)


#: A numbered step of a plan: "Step 1:", "Phase 2 -".
_STEP_LABEL = re.compile(r"^(?:step|phase|stage)\s+\d{1,2}\s*[:.)–—-]\s*\S")
#: ... that reports something done or found: a figure, a past form, a finite "is".
_STEP_DONE = re.compile(r"\d|\b\w{3,}ed\b|\b(?:was|were|is|are|has|have|had|found|made)\b")


def _bold_title(text: str) -> bool:
    """Whether a line is a title set in bold: all of it bold, no figure (a leading number
    aside), and no verb that would make it a statement ("**Your order has been
    cancelled**" is one)."""
    m = _WHOLE_BOLD.fullmatch(text)
    if m is None:
        return False
    words = _WORD.findall(m.group(2).lower())
    # "**Flights booked**": a participle last is a report of what was done
    last = words[-1] if words else ""
    return (
        bool(words)
        and not (last.endswith("ed") and not last.endswith("eed"))
        and not any(w in FINITE or "'" in w for w in words)
    )


#: A sentence set wholly in brackets: "(No change fee needed.)", "(Note: free bags cost
#: nothing.)".
_ASIDE = re.compile(r"\(\s*([^()]+?[.!?]?)\s*\)[.!?]?\s*")

#: What may open a clause of the agent's limits: ", unfortunately, ...".
_LIMIT_LEAD = re.compile(r"^[\s,]*(?:(?:unfortunately|sadly|regrettably|still)[\s,]+)*")


def classify(text: str, kind: str, hedges: Hedges) -> SentenceType:
    """Classifies one sentence (``kind`` from the segmenter).

    The phrase patterns are matched against the lowercased sentence (matching
    without ``re.IGNORECASE`` is about twice as fast, and this runs on every sentence).
    """
    text = _LEAD_SYMBOLS.sub("", text)  # "✅ No problem at all!": the mark is no word
    text = AGENT_MARKER.sub("", text)  # "THOUGHT: ...", "<thoughts>\n...": the format's mark
    if (inner := _ASIDE.fullmatch(text)) is not None:
        text = inner.group(1)  # "(No change fee needed.)": an aside reads as what it says
    if kind == "code" or (kind == "heading" and not _HEADING_VALUE.search(text)):
        return "code"  # "### Total New Price: $1,625" is a line of figures, not a title
    if is_expression(text):
        return "code"  # "(-4)**x = (-1)**x * 4**x": math or code written as a line
    if kind == "table_row" and text.strip().strip("|").count("|") == 1:
        # a row of two cells, "| City | New York |", reads as the line "City: New York"
        label, value = (c.strip() for c in text.strip().strip("|").split("|"))
        text, kind = f"{label}: {value}", "list_item"
    if QUESTION_END.search(text):
        return "question"
    if kind == "list_item" and BOLD_TITLE.fullmatch(text.strip()):
        return "label"  # "2. **Vacuum cleaners in this order**": a section's title
    if _bold_title(text):
        return "label"  # "**Reservation Summary (please review and confirm “yes”)**"
    lowered = text.lower()
    if (seen := REPORT_LEAD.match(lowered)) is not None:
        # "I can confirm the order was cancelled": the clause
        text, lowered = text[seen.end() :], lowered[seen.end() :]
    plain = plain_text(lowered)
    body = _body(plain)
    if _TRAIL_SYMBOLS.sub("", body).rstrip("*_ ").endswith((":", " —", " –")):
        return "label"  # "Here are the details:": the lines under it carry the claims
    if _ANNOUNCES.match(body):
        return "label"  # "Here's a summary of the change before I make it."
    if _STEP_LABEL.match(plain) and not _STEP_DONE.search(body):
        return "intent"  # "Step 1: Identify the order": a step of a plan, nothing done yet
    if COURTESY.match(body) or COURTESY.match(plain):
        return "greeting"
    if THINKING.match(lowered):
        return "opinion"  # "Wait, that's not right.", "Ah, now I see the real issue!"
    if EMPATHY.match(body):
        turn = GOES_ON_TO_A_CLAIM.search(body)
        if turn is None:
            return "greeting"
        rest = _LIMIT_LEAD.sub("", body[turn.end() :])
        if turn.group() in ("but", "however") and (ABILITY.match(rest) or not_yet(rest)):
            # "I understand your budget concern, but unfortunately I'm not able to ...":
            # sympathy, then what the agent cannot do
            return "intent"
    if body is not lowered:
        words_body = _WORD.findall(body)
        if words_body and _commands(body, words_body[0]):
            return "imperative"
        if (
            words_body
            and (kind == "list_item" or text.lstrip().startswith(("**", "__")))
            and _offers_option(body, words_body[0])
        ):
            # an option, no statement of its own (no T3); what it quotes (a price, an
            # item's id) is checked as an offer's is, and a date it moves to is its plan
            return "intent"
        if INTENT.match(body):
            return "intent"
    if ABILITY.match(body) or not_yet(body) or (" if " in body and OFFER_TAIL.search(body)):
        return "intent"
    if ADVICE.match(body):
        return "imperative"  # "It may help to confirm the email on the account": advice
    if plain != body and (INTENT.match(plain) or not_yet(plain)):
        return "intent"  # "Next: look up the orders", "**Changes made:** none"
    if plain.startswith(OPTION_WORDS) and OPTION_OFFERED.match(plain):
        return "intent"  # "Option 2: transfer to a human agent": what could be done
    if ("confirm" in body or "tbc" in body) and TO_CONFIRM.search(body):
        return "plan"  # "State: NY (please confirm)": a value proposed, not yet a fact
    if plain.startswith("to ") and NEED_LEAD.search(plain):
        return "intent"  # "To update the delivery address I need two things."
    if WANTED.search(plain):
        return "plan"  # "Need: the new size you want", "Order lookup: Awaiting order ID"
    condition = CONDITION.match(body)
    if condition is not None:
        rest = body[condition.end() :]
        if INTENT.match(rest):
            return "intent"
        if COURTESY.match(rest):
            return "greeting"  # "If you have more questions, feel free to ask!"
        rest_words = _WORD.findall(rest[:20])
        if rest_words and _commands(rest, rest_words[0]):
            return "imperative"  # "Since there might be a difference, please provide ..."
        if ABILITY.match(rest) or CLOSING.match(rest) or _LATER_LIMIT.match(rest):
            return "intent"  # "If the order is already delivered, I won't be able to ..."
        if RECOMMEND.match(rest):
            return "opinion"  # "If it is urgent, I recommend contacting a human agent"
    if AFFIRMS.match(plain):
        return "user"  # "Yes, that's correct.": the user's own words, agreed with
    if USER_RESTATED.match(body) or REQUEST_LABEL.match(plain):
        return "user"  # "You asked for ...", "Request: change the size of the boots"
    words = _WORD.findall(lowered)
    if kind == "table_row":  # a row of more cells (two-cell rows read as lines above)
        return "statement" if any(c.isdigit() for c in text) else "code"
    if len(words) < 3:
        return "greeting" if not any(c.isdigit() for c in text) else "statement"
    if words[0] in _GREETINGS and len(words) <= 8:
        return "greeting"
    if _commands(lowered, words[0]) and not LEAD_LABEL.match(text):
        return "imperative"
    if INTENT.match(lowered):
        return "intent"
    if words[0] in ("i", "we") and any(w in _OPINION for w in words[1:6]):
        return "opinion"  # "I think the new dashboard is great."
    if len(words) <= 8 and ":" not in text and not _DIGIT.search(text) and verbless_words(words):
        return "fragment"  # "Change of plan", "Upgrade to business class."
    if (
        len(words) <= 12
        and words[0] in ("for", "e", "such")
        and _EXAMPLES.match(lowered)
        and not _DIGIT.search(text)
        and verbless_words([w for w in words if not w.endswith("s")])
    ):
        return "fragment"  # "For example, the flights, the cabin, or baggage."
    if (
        len(words) <= 7
        and not _DIGIT.search(text)
        and _EXCLAIMED.search(text)
        and any(w in _PRAISE for w in words)
    ):
        return "opinion"  # "Returning a watch is easy! ⌚", "That works perfectly!"
    hedge_words, hedge_text = words, lowered
    if "may" in words and MONTH_MAY.search(text):
        # "your flight on May 17": the month, not the hedge "may"
        hedge_text = MONTH_MAY.sub(" ", text).lower()
        hedge_words = _WORD.findall(hedge_text)
    if hedges.found(hedge_words, " ".join(hedge_text.split())):
        return "hedged"
    if AFTER_STEP.match(plain):
        return "future"  # "After confirmation: status 'return requested', an email with ..."
    if FUTURE.search(body) and FUTURE_MAIN.match(body) and not _is_inference(words, lowered):
        return "future"  # figures in it are still checked (a sunset date is a commitment)
    if (
        any(w in body for w in _INTRODUCES_WORDS)
        and not _DIGIT.search(body)
        and _INTRODUCES.search(_TRAIL_SYMBOLS.sub("", body))
    ):
        return "label"  # "Here's the return I'm ready to set up 👇"
    if _is_inference(words, lowered):
        return "inference"
    return "statement"


#: A limit of the agent's said of a case that may come: "I won't be able to change it".
_LATER_LIMIT = re.compile(
    r"(?:i|we)\s+(?:won['’]t|will\s+not|wouldn['’]t|would\s+not)\s+be\s+able\b"
)


#: A sentence that says what the agent needs: "To update the address I need two things."
NEED_LEAD = re.compile(r"\b(?:i|we)(?:['’]ll|\s+will|\s+still)?\s+(?:need|require)\b")
