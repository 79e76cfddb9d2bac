"""What kind of sentence this is: factual, inference, speculation, or no claim at all.

Greetings, questions, instructions, intentions and opinions carry no factual
content and get no tag (SPEC §4). Of the rest, inference markers make a T2
candidate, hedges a T6 candidate, and a plain declarative statement a T3
candidate. Word lists are small on purpose: this runs on every sentence.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from receiptgate.text.segment import BOLD_TITLE, is_table_separator

if TYPE_CHECKING:
    from receiptgate.text.segment import Sentence

SentenceType = Literal[
    "code",
    "question",
    "greeting",
    "imperative",
    "intent",
    "future",
    "plan",
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
#: A hyphenated first word ("double-check"), which ``_WORD`` reads as two.
_HYPHENATED_LEAD = re.compile(r"[^a-z']*([a-z']+-[a-z']+)")


def _commands(text: str, first: str) -> bool:
    """Whether a (lowercase) sentence opens with a verb of command ("check", "Double-check
    the spelling")."""
    if first in _IMPERATIVE:
        return True
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
_LEAD_LABEL = re.compile(r"^\w+\s*:")  # "Update: the deploy finished." is a report
# Courtesy that asserts nothing: thanks, apologies, offers of more help, wishes.
_COURTESY = re.compile(
    r"^(?:have\s+a\s+(?:great|good|nice|wonderful|fantastic|lovely|pleasant|safe|terrific)|"
    r"safe\s+travels?|enjoy\s+your\s+(?:trip|flight|day|stay)|i\s+apologi[sz]e|(?:i'?m|i\s+am|we'?re)\s+sorry|"
    r"(?:please\s+)?feel\s+free|if\s+(?:there\s+is|there's|you\s+have|you\s+need)\s+anything|"
    r"take\s+your\s+time|thank\s+you|thanks|you'?re\s+welcome|glad\s+to\s+help|"
    r"that'?s\s+(?:no\s+problem|completely\s+understandable|understandable|totally\s+fine|"
    r"perfectly\s+fine)|(?:just\s+)?let\s+me\s+know|got\s+it(?=(?:,\s*[a-z]+)?\s*[!.]?$)|"
    r"good\s+luck\b|all\s+set(?=(?:,\s*[a-z]+)?\s*[!.]?$)|"
    r"no\s+(?:further\s+action|[\w-]+(?:\s+[\w-]+)?)\s+(?:is\s+)?(?:needed|required)"
    r"(?=\s*[;.!]|\s+(?:from|for|until|at|right)\b|\s*$)|"
    r"(?:i\s+am\s+|i'?m\s+|we'?re\s+)?look(?:ing)?\s+forward\s+to|"
    # an apology for a misunderstanding, no fact of the evidence
    r"(?:it\s+(?:seems|appears|looks)\s+(?:like\s+|that\s+)?)?there\s+(?:is|was|has\s+been|"
    r"may\s+have\s+been|might\s+have\s+been)\s+(?:a|an|some)\s+(?:slight\s+|small\s+)?"
    r"(?:misunderstanding|oversight|mix-?up|confusion|miscommunication)|"
    r"(?:i'?m|i\s+am)\s+(?:glad|happy)\s+(?:i|we)\s+could|"
    r"happy\s+to\s+help|no\s+(?:problem|worries)|of\s+course|certainly|absolutely|"
    r"(?:i\s+)?hope\s+(?:this|that|you|your|everything|all|things)|"
    # "I'm here if you need anything else too!", "I'm around if anything comes up"
    r"(?:i['’]m|i\s+am|we['’]re)\s+(?:here|around|available)\s+if\b|"
    # "I'd be glad to help", "I'm happy to look into other flights for you"
    r"(?:i['’]d|i\s+would|we['’]d)\s+be\s+(?:glad|happy|delighted)\s+to|"
    r"(?:i['’]m|i\s+am|we['’]re)\s+(?:happy|glad)\s+to\s+(?:help|look|check|assist|dig)|"
    # the user's proposal accepted: "Yes, that works."
    r"(?:yes|yep|sure|great)[,!.]?\s+that\s+(?:works|is\s+fine|sounds\s+good)(?=\s*[!.]?$)|"
    r"(?:the|this|your|my)\s+task\s+(?:is|has\s+been)\s+"
    r"(?:now\s+)?(?:complete|completed|done|finished)|"
    # closings about the work itself: "There are no further actions required for this task."
    r"there\s+(?:are|is)\s+no\s+(?:further|more|other)\s+(?:tasks?|actions?|steps?|"
    r"requests?|questions?)\b)\b"
)
# An agent thinking aloud about its own reasoning, with nothing of the evidence in it:
# "Wait, that's not right.", "Actually, I just had a thought.", "Ah, now I see the real
# issue!", "Let me think about this."
_THINKING = re.compile(
    r"^(?:(?:wait|hmm+|ah+|oh|oops|actually|okay|ok|so|right|alright)[,!.]*\s+)*"
    r"(?:i\s+(?:just\s+)?had\s+(?:a|an|another)\s+(?:thought|idea)|"
    r"(?:now\s+)?i\s+(?:think\s+i\s+)?(?:see|understand|get\s+it)(?:\s+(?:the\s+(?:real\s+)?"
    r"(?:issue|problem)|what['’]s\s+(?:going\s+on|happening)|now))?|"
    r"(?:that['’]s|that\s+is|this\s+is)\s+not\s+(?:right|correct|it)|i\s+was\s+wrong|"
    r"let\s+me\s+(?:think|reconsider|rethink)(?:\s+(?:about\s+)?(?:this|that|again))?|"
    # the agent's stance on its own work: "I'm confident in the solution.", "I'm ready to
    # submit.", "This gives me some confidence that I haven't broken anything."
    r"i\s*(?:['’]m|am)\s+(?:now\s+|fairly\s+|quite\s+|very\s+|pretty\s+)?(?:confident|satisfied)"
    r"(?:\s+(?:in|with)\s+(?:the|this|my|our)\s+(?:solution|fix|change|changes|approach|patch))?|"
    r"i\s*(?:['’]m|am)\s+(?:now\s+)?ready\s+to\s+(?:submit|finish|wrap\s+up)(?:\s+\w+){0,3}|"
    r"this\s+gives\s+me\s+(?:some\s+|more\s+|good\s+)?confidence\b[^.!]*)"
    r"[\s.!]*$"
)
# Empathy and reassurance, about the customer's feelings ("I'm so sorry to hear that", "I
# understand why this matters"): no claim, unless the sentence goes on to one ("I
# understand your concern, but the policy is $100 per passenger").
_EMPATHY = re.compile(
    r"^(?:(?:i'?m|i\s+am|we'?re)\s+(?:so\s+|really\s+|very\s+|truly\s+|terribly\s+)?"
    r"(?:sorry|happy\s+to\s+help|glad\s+to\s+help)|"
    r"i\s+(?:completely\s+|totally\s+|fully\s+)?(?:understand|realize|realise|know|appreciate|"
    r"can\s+see)\s+(?:why|how|that\s+this|this|that\s+isn|your\s+(?:concern|frustration|"
    r"situation|disappointment)))\b"
)
_GOES_ON_TO_A_CLAIM = re.compile(r"\b(?:but|however|although|though|yet)\b|\d")
# A short opening clause before the sentence proper ("No worries, I can ...", "Once you
# confirm, I'll ...", "To proceed with the return, please ...", "Unfortunately, we ...").
_OPENER = re.compile(
    r"^(?:"
    # "To continue I need the reason for cancellation" (no comma after the opener)
    r"to\s+(?:proceed|continue|go\s+ahead)\s+(?=(?:i|we)\s)|"
    # "Now I need to implement this", "Actually let me check": a narrating opener
    r"(?:now|actually|okay|ok|so)\s+(?=(?:i|we|let['’]s|let\s+me)\b)|"
    r"(?:no\s+(?:worries|problem)|sure|certainly|of\s+course|great|alright|all\s+right|okay|ok|"
    r"yes|yeah|"
    r"now|also|additionally|however|unfortunately|fortunately|if\s+so|in\s+(?:that|this)\s+case|"
    r"to\s+(?:proceed|confirm|continue|clarify|summari[sz]e)[^,]{0,60}|once\s+[^,]{1,60}|"
    r"before\s+[^,]{1,60}|after\s+[^,]{1,60}|for\s+(?:the|your|this)\s+[^,]{1,40}|"
    r"in\s+your\s+[^,]{1,40}|based\s+on\s+[^,]{1,60}|so|then|next|first|finally|"
    r"absolutely|perfect|thank\s+you|thanks|in\s+summary|to\s+sum\s+up|in\s+short|overall|"
    r"got\s+it|understood|noted|"
    r"as\s+(?:mentioned|noted)(?:\s+(?:above|earlier|before))?)\s*[,!:.]\s+|"
    r"(?:therefore|thus|hence|or|then|alternatively|otherwise),?\s+|and\s+)"
)
# "You will receive an email", "The refund will be processed": what will happen, a
# promise or a plan, not a fact about the evidence (figures in it are still checked).
_FUTURE = re.compile(r"will|['’]ll|going\s+to")  # a cheap test before _FUTURE_MAIN
_FUTURE_MAIN = re.compile(
    r"^(?:\S+\s+){0,10}?(?:will|\S*['’]ll|is\s+going\s+to|are\s+going\s+to)\s+"
    r"(?:be\s+|then\s+|also\s+|now\s+)?\w+"
)
# What happens after a step the user or the agent has yet to take: "After confirmation:
# status 'return requested'", "Once you confirm, the order ...", "After I submit it, ...".
_AFTER_STEP = re.compile(
    r"^[\W_]*(?:after|once|when)\s+(?:your\s+|the\s+|you\s+|i\s+|we\s+)?"
    r"(?:confirm\w*|submi\w*|approv\w*|go-ahead|say\s+yes)\b[^:,]{0,40}[*_]*[:,]"
)
# The user's own request, restated: "You mentioned ...", "you'd like to ...".
_USER_RESTATED = re.compile(
    r"^(?:you\s+(?:originally\s+|initially\s+|first\s+|earlier\s+|also\s+)?(?:mentioned|said|"
    r"asked|requested|told\s+me|indicated|wish|want|wanted|would\s+like|"
    r"'d\s+like|prefer|preferred|chose|selected|provided)|you'd\s+like|as\s+you\s+(?:requested|"
    r"asked|mentioned))\b"
)
#: A line that labels the user's request: "Request: change the size ...", "Your request:".
_REQUEST_LABEL = re.compile(
    r"^[\W_]*(?:your\s+|customer\s+|user\s+)?(?:request|requested|ask)[\W_]*:\s*\S"
)
# Abilities and limits ("we cannot cancel single items", "I'm unable to place orders"):
# what the agent may do, a rule of its operator, not an observation.
_ABILITY = re.compile(
    r"^(?:i|we)(?:\s+|(?=['’]))(?:can(?:not|'t|’t)?|could(?:n't|n’t)?|am\s+unable|"
    r"['’]m\s+unable|are\s+unable|['’]re\s+unable|"
    r"am\s+not\s+able|['’]m\s+not\s+able|are\s+not\s+able|can\s+only|only\s+can|"
    r"do\s+not\s+have\s+the\s+ability|don't\s+have\s+the\s+ability)\b"
)
_LABEL_LEAD = re.compile(r"^([a-z][\w /&'()-]{0,40}?)(?::|\s[—–])\s+(?=\S)")
# Words that make a clause (finite verbs, auxiliaries, modals); a short line with none of
# them ("Change of plan", "Credit card on file", "Upgrade to business class") names an
# option or a heading and asserts nothing.
_VERBS = frozenset(
    """
    is are was were be been being am has have had do does did done will would can could
    shall should may might must get got go went gone make made take took show said say
    find found leave left send sent pay paid run ran write wrote written keep kept come
    came become became give gave given see saw seen know knew put set read lost won
    cannot not no
    """.split()
)


def _verbless(words: list[str]) -> bool:
    for w in words:
        if w in _VERBS or "'" in w or w.endswith("ed"):
            return False
        if w.endswith("s") and not w.endswith(("ss", "us", "is")):
            return False  # "departs", "costs" (or a plural: left as a statement)
    return True


def verbless(text: str) -> bool:
    """Whether a (lowercased) phrase has no verb ("lga–dtw on may 19")."""
    words = _WORD.findall(text)
    return bool(words) and _verbless(words)


_MONTH_MAY = re.compile(r"\bMay(?=\s+\d{1,2}(?:st|nd|rd|th)?\b)|(?<=\d\s)May\b")
_RECOMMEND = re.compile(r"(?:i|we)(?:['’]d|\s+would)?\s+(?:recommend|suggest|advise)\b")
#: Advice put as a hedge: "It may help to confirm ...", "It might be worth checking
#: ...", "Or if you've got another email, that works too": what the user could do.
_ADVICE = re.compile(
    r"^\(?(?:(?:it|that|this)\s+(?:may|might|could|would)\s+(?:help|be\s+(?:worth|best|better|wise|easier|"
    r"a\s+good\s+idea|helpful|useful))\b"
    r"|(?:or|and|also)\s+if\s+you(?:['’]ve|\s+have|['’]d|\s+would|\s+want|\s+prefer)\b)"
)
_QUESTION_END = re.compile(r"\?[\s\"'”’)]*$")
INTENT = re.compile(
    r"^(?:i['’]ll|i\s+will|we['’]ll|we\s+will|let\s+me|let['’]s|i['’]m\s+going\s+to|"
    r"i\s+am\s+going\s+to|i\s+can|i\s+could|we\s+can|you\s+can|you\s+could|you\s+should|"
    r"you\s+might|you\s+may|you\s+need|if\s+you|would\s+you|could\s+you|can\s+you|"
    r"you\s+would|we\s+could|(?:i|we)\s+(?:also\s+|still\s+|just\s+)?need|(?:i|we)\s+have\s+to|"
    r"(?:i|we)['’]d\s+need|"
    r"(?:i|we)\s+should|"
    # "I'd like to put this right", "What I can still do is upgrade the cabin"
    r"(?:i|we)['’]d\s+like\s+to|(?:i|we)\s+would\s+like\s+to|(?:i|we)\s+want\s+to|"
    r"what\s+(?:i|we)\s+can\s+(?:still\s+|also\s+)?do\s+is|"
    r"(?:the\s+)?next\s+step\s+(?:is|will\s+be)\s+to|"
    # what the agent's own next step is for: "This will help me check the status"
    r"this\s+will\s+(?:help|allow|let|enable)\s+(?:me|us)|"
    # where the request stands: "Status: Awaiting your confirmation", "Pending your reply"
    r"(?:pending|awaiting|waiting\s+(?:for|on)|ready\s+for)\s+your|"
    # what the agent still needs: "It would also help to know which model you'd like"
    r"it\s+would\s+(?:also\s+|really\s+)?help|"
    # a ticket's next step ("Next: look up the orders on the profile"), a task for the
    # customer ("Customer to confirm the new address")
    r"next(?:\s+steps?)?(?:\s*[:—–-]\s*(?=\w)|(?=\W*$))|"
    r"(?:the\s+)?(?:customer|user|client)\s+to\s+\w+)\b"
)
#: What has not been done yet: "Nothing has been booked yet.", "No changes made yet.", "The
#: return has not been submitted yet.", "Your reservation remains unchanged." (the agent's
#: pending work, no act to check).
NOT_YET = re.compile(
    r"^(?:nothing|no\s+(?:changes?|updates?|action|actions|payment|charges?))\b[^.;]*?"
    r"\b(?:yet|so\s+far)\b|^no\s+changes?\s+(?:have|has)\s+been\s+made\b|"
    r"^(?:your\s+|the\s+|all\s+)?(?:[\w#-]+\s+){0,3}(?:remains?|stays?|is\s+still)\s+unchanged\W*$|"
    # "Your existing checked bag and travel insurance carry over unchanged."
    r"^(?:your\s+|the\s+|all\s+)?(?:[\w#-]+\s+){0,6}(?:carr(?:y|ies)\s+over|remains?|stays?)\s+"
    r"(?:unchanged|the\s+same|as\s+(?:is|before|they\s+are|it\s+is))\W*$|"
    r"\b(?:pending|awaiting|ready\s+for)\s+your\s+(?:confirmation|approval|reply|response|"
    r"decision|choice|go-ahead)\b|"
    r"\b(?:has|have|was|were)\s+not\s+(?:yet\s+)?(?:been\s+)?\w+(?:\s+\w+)?\s+yet\b|"
    # the agent's own work not done: "I have not yet checked which order holds the tablet"
    r"^(?:i|we)\s+(?:have\s+not|haven['’]t)\s+(?:yet\s+)?(?:\w+ed|looked|seen|done|made)\b|"
    # a ticket's pending items: "Contents and status not checked yet.", "No order lookup
    # performed yet.", "Return not started.", "No changes made to the order."
    r"\b(?:not|no)\b[^.;:]*?\byet\b|^[\w\s]{0,30}\bnot\s+(?:yet\s+)?started\W*$|"
    r"^no\s+(?:changes?|updates?)\s+(?:(?:have|has)\s+been\s+|were\s+|was\s+)?made\b|"
    r"^changes?\s+made\s*:\s*none\b|\bwithout\s+changing\s+anything\b"
)
#: Words one of NOT_YET's forms needs (a cheap test before the search).
_NOT_YET_WORDS = (
    "yet",
    "unchanged",
    "started",
    "no ",
    "pending",
    "awaiting",
    "ready for",
    "without changing",
    "made",
    "haven",
    "have not",
    "nothing",
    "so far",
)


def not_yet(low: str) -> bool:
    """Whether a (lowercased) sentence says what has not been done yet (``NOT_YET``)."""
    return any(w in low for w in _NOT_YET_WORDS) and NOT_YET.search(low) is not None


#: An offer at the end of a sentence: "The cabin can still be changed, if that's something
#: you'd like." (what could be done on the user's word, no fact).
_OFFER_TAIL = re.compile(
    r",?\s+if\s+(?:you(?:['’]d|\s+would)\s+like|you\s+(?:want|wish|prefer)|"
    r"that['’]?s\s+(?:something\s+)?(?:you(?:['’]d|\s+would)?\s+)?(?:like|want|prefer)\w*|"
    r"(?:that|this)\s+(?:helps|works\s+for\s+you))\W*$"
)
#: An option the agent offers, as a verb: "Option 1: explore flights on a different date".
_OPTION_OFFERED = re.compile(
    r"^(?:[-*•]\s*)?(?:option|alternative|choice)\s*[\w]{0,3}\s*[:—–-]\s*(?:i\s+can\s+|we\s+can\s+)?"
    r"(?:explore|transfer|search|look|wait|keep|switch|try|contact|check|cancel|change|book|"
    r"modify|upgrade|downgrade|choose|pick|request|return|exchange|get|leave|move)\b"
)
_OPTION_WORDS = ("option", "alternative", "choice", "- option", "* option", "• option")
#: A value the agent proposes for the user to confirm: "State: NY (please confirm)".
_TO_CONFIRM = re.compile(
    r"[(*_\s—–-]\s*(?:please\s+confirm|to\s+be\s+confirmed|tbc|unconfirmed)\s*[)*_]*\W*$"
)


#: A line of what is still wanted: "Need: the order ID", "Order lookup: Awaiting order ID".
_WANTED = re.compile(
    r"^(?:still\s+)?(?:need(?:ed)?|required|missing|to\s+provide)\s*:"
    r"|^[\w\s]{0,30}\b(?:needed|required|missing|still\s+needed)\s*:"
    r"|^[^:]{1,40}:\s*(?:awaiting|waiting\s+for|pending\s+your)\b"
)


def proposed(text: str) -> bool:
    """Whether a line proposes its value for the user to confirm ("State: NY (please
    confirm)"): no record's value is claimed."""
    return _TO_CONFIRM.search(text.lower()) is not None


#: What a status line may have been read as (a short one, "Status: Done.", as a greeting).
_STATUS_TYPES = frozenset({"statement", "fragment", "inference", "greeting"})
#: A reply's first line that says where the request stands, as an ops ticket opens
#: ("Status: Completed.", "Status: Search complete."): what became of the request, told
#: by the sentences under it, not a record's status field.
_STATUS_LINE = re.compile(r"^[\W_]*(?:status|outcome|result)[*_]*\s*:", re.IGNORECASE)
#: A status label whose value is what became of a request, no record's state: "**Status:**
#: Not possible", "Outcome: declined".
_REQUEST_OUTCOME = re.compile(
    r"^[\W_]*(?:status|outcome|result|decision)[*_]*\s*:[*_\s]*(?:not\s+)?(?:possible|allowed|"
    r"permitted|eligible|approved|declined|denied|done|unchanged)[*_.!\s]*$",
    re.IGNORECASE,
)
# The agent ending its turn: "I'll end the conversation here", "I'll conclude the task".
_CLOSING = re.compile(
    r"^(?:i['’]ll|i\s+will|i\s+can|we\s+can)\s+(?:now\s+)?(?:end|conclude|close|finish|"
    r"wrap\s+up|stop)\b"
)
# A condition or a reason before a plan: "If everything looks good, we can proceed.",
# "Now that the issue is fixed, we can submit the changes.", "Since the task is done,
# I'll conclude." (claims inside the condition are still detected and checked).
_CONDITION = re.compile(
    r"^(?:if|when|whenever|once|since|now\s+that|with|to|in\s+a|in\s+the)\s+[^,]{1,120},\s*"
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


def _plain(text: str) -> str:
    """The sentence without markdown emphasis."""
    return text.replace("**", "").replace("__", "").strip()


def _body(plain: str) -> str:
    """The (lowercased, :func:`_plain`) sentence without a short lead label ("payment
    method: please confirm ...") and short opening clauses."""
    out = plain
    head = out[:45]
    lead = _LABEL_LEAD.match(out) if ":" in head or "—" in head or "–" in head else None
    if lead is not None and len(lead.group(1).split()) <= 4 and len(out) - lead.end() >= 3:
        out = out[lead.end() :]
    for _ in range(3):
        m = _OPENER.match(out)
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


def classify(text: str, kind: str, hedges: Hedges) -> SentenceType:
    """Classifies one sentence (``kind`` from the segmenter).

    The phrase patterns are matched against the lowercased sentence (matching
    without ``re.IGNORECASE`` is about twice as fast, and this runs on every sentence).
    """
    text = _LEAD_SYMBOLS.sub("", text)  # "✅ No problem at all!": the mark is no word
    text = AGENT_MARKER.sub("", text)  # "THOUGHT: ...", "<thoughts>\n...": the format's mark
    if kind == "code" or (kind == "heading" and not _HEADING_VALUE.search(text)):
        return "code"  # "### Total New Price: $1,625" is a line of figures, not a title
    if is_expression(text):
        return "code"  # "(-4)**x = (-1)**x * 4**x": math or code written as a line
    if kind == "table_row" and text.strip().strip("|").count("|") == 1:
        # a row of two cells, "| City | New York |", reads as the line "City: New York"
        label, value = (c.strip() for c in text.strip().strip("|").split("|"))
        text, kind = f"{label}: {value}", "list_item"
    if _QUESTION_END.search(text):
        return "question"
    if kind == "list_item" and BOLD_TITLE.fullmatch(text.strip()):
        return "label"  # "2. **Vacuum cleaners in this order**": a section's title
    lowered = text.lower()
    plain = _plain(lowered)
    body = _body(plain)
    if _TRAIL_SYMBOLS.sub("", body).rstrip("*_ ").endswith((":", " —", " –")):
        return "label"  # "Here are the details:": the lines under it carry the claims
    if _ANNOUNCES.match(body):
        return "label"  # "Here's a summary of the change before I make it."
    if _COURTESY.match(body) or _COURTESY.match(plain):
        return "greeting"
    if _THINKING.match(lowered):
        return "opinion"  # "Wait, that's not right.", "Ah, now I see the real issue!"
    if _EMPATHY.match(body) and not _GOES_ON_TO_A_CLAIM.search(body):
        return "greeting"
    if body is not lowered:
        words_body = _WORD.findall(body)
        if words_body and _commands(body, words_body[0]):
            return "imperative"
        if INTENT.match(body):
            return "intent"
    if _ABILITY.match(body) or not_yet(body) or (" if " in body and _OFFER_TAIL.search(body)):
        return "intent"
    if _ADVICE.match(body):
        return "imperative"  # "It may help to confirm the email on the account": advice
    if plain != body and (INTENT.match(plain) or not_yet(plain)):
        return "intent"  # "Next: look up the orders", "**Changes made:** none"
    if plain.startswith(_OPTION_WORDS) and _OPTION_OFFERED.match(plain):
        return "intent"  # "Option 2: transfer to a human agent": what could be done
    if ("confirm" in body or "tbc" in body) and _TO_CONFIRM.search(body):
        return "plan"  # "State: NY (please confirm)": a value proposed, not yet a fact
    if plain.startswith("to ") and _NEED_LEAD.search(plain):
        return "intent"  # "To update the delivery address I need two things."
    if _WANTED.search(plain):
        return "plan"  # "Need: the new size you want", "Order lookup: Awaiting order ID"
    condition = _CONDITION.match(body)
    if condition is not None:
        rest = body[condition.end() :]
        if INTENT.match(rest):
            return "intent"
        if _COURTESY.match(rest):
            return "greeting"  # "If you have more questions, feel free to ask!"
        rest_words = _WORD.findall(rest[:20])
        if rest_words and _commands(rest, rest_words[0]):
            return "imperative"  # "Since there might be a difference, please provide ..."
        if _ABILITY.match(rest) or _CLOSING.match(rest):
            return "intent"
        if _RECOMMEND.match(rest):
            return "opinion"  # "If it is urgent, I recommend contacting a human agent"
    if _USER_RESTATED.match(body) or _REQUEST_LABEL.match(plain):
        return "user"  # "You asked for ...", "Request: change the size of the boots"
    words = _WORD.findall(lowered)
    if kind == "table_row":  # a row of more cells (two-cell rows read as lines above)
        return "statement" if any(c.isdigit() for c in text) else "code"
    if len(words) < 3:
        return "greeting" if not any(c.isdigit() for c in text) else "statement"
    if words[0] in _GREETINGS and len(words) <= 8:
        return "greeting"
    if _commands(lowered, words[0]) and not _LEAD_LABEL.match(text):
        return "imperative"
    if INTENT.match(lowered):
        return "intent"
    if words[0] in ("i", "we") and any(w in _OPINION for w in words[1:6]):
        return "opinion"  # "I think the new dashboard is great."
    if len(words) <= 8 and ":" not in text and not _DIGIT.search(text) and _verbless(words):
        return "fragment"  # "Change of plan", "Upgrade to business class."
    if (
        len(words) <= 12
        and words[0] in ("for", "e", "such")
        and _EXAMPLES.match(lowered)
        and not _DIGIT.search(text)
        and _verbless([w for w in words if not w.endswith("s")])
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
    if "may" in words and _MONTH_MAY.search(text):
        # "your flight on May 17": the month, not the hedge "may"
        hedge_text = _MONTH_MAY.sub(" ", text).lower()
        hedge_words = _WORD.findall(hedge_text)
    if hedges.found(hedge_words, " ".join(hedge_text.split())):
        return "hedged"
    if _AFTER_STEP.match(plain):
        return "future"  # "After confirmation: status 'return requested', an email with ..."
    if _FUTURE.search(body) and _FUTURE_MAIN.match(body) and not _is_inference(words, lowered):
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


#: What a lead line may be for the list under it to be a plan or a request: "Here's what
#: we'll do:", "I'll need the following details:", "Please provide:".
_PLAN_LEADS = frozenset({"intent", "imperative", "future"})


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
        lead = s.text.rstrip("*_ ").rstrip(":").rstrip("*_ ")
        asks = _ASKS.search(_plain(lead.lower())) is not None
        if types[i] == "code" and s.kind == "heading":
            if not asks:
                continue  # "### What I need next" over the list of what is wanted
        elif types[i] in ("statement", "intent"):
            if not (asks and _NEED_LEAD.search(lead.lower())):
                continue  # "To update the address I need two things." above them
        elif types[i] not in ("label", "question"):
            continue
        elif (
            types[i] == "label"
            and classify(lead + ".", s.kind, hedges) not in _PLAN_LEADS
            and not asks
        ):
            continue  # a question above a list asks for its items, or offers them
        for j in range(i + 1, len(sentences)):
            if sentences[j].kind != "list_item" or types[j] == "label":
                break  # the list ends, or the next section's title starts
            if types[j] in ("statement", "fragment"):
                types[j] = "plan"


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


#: A sentence that says what the agent needs: "To update the address I need two things."
_NEED_LEAD = re.compile(r"\b(?:i|we)(?:['’]ll|\s+will|\s+still)?\s+(?:need|require)\b")


def status_line(sentences: Sequence[Sentence], types: list[str]) -> None:
    """The reply's first sentence, when it is a status line of the request ("Status:
    Completed.", "Outcome: no alternatives found"), becomes "status": it says what became of
    the request, which the sentences under it tell (and are checked for); no record's
    status. A figure in it is still checked. Changes ``types`` in place."""
    if sentences and types[0] in _STATUS_TYPES and _STATUS_LINE.match(sentences[0].text):
        types[0] = "status"
    for i, s in enumerate(sentences):
        # "**Status:** Not possible" under a section: what became of the request
        if types[i] in _STATUS_TYPES and _REQUEST_OUTCOME.match(s.text):
            types[i] = "status"


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
