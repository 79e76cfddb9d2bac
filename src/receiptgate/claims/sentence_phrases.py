"""Phrases of sentences that carry no claim of their own, or whose figures are not
observed facts: courtesy and empathy, the agent thinking aloud or stating its stance,
openers, plans and intents, offers and options, what is still needed, closings, and
conditions (used by :mod:`receiptgate.claims.sentence_type`, which classifies)."""

from __future__ import annotations

import re

_WORD = re.compile(r"[a-z']+")

LEAD_LABEL = re.compile(r"^\w+\s*:")  # "Update: the deploy finished." is a report
# Courtesy that asserts nothing: thanks, apologies, offers of more help, wishes.
COURTESY = re.compile(
    r"^(?:have\s+a\s+(?:great|good|nice|wonderful|fantastic|lovely|pleasant|safe|terrific)|"
    r"safe\s+travels?|enjoy\s+your\s+(?:trip|flight|day|stay)|i\s+apologi[sz]e|(?:i'?m|i\s+am|we'?re)\s+sorry|"
    r"(?:please\s+)?feel\s+free|if\s+(?:there\s+is|there's|you\s+have|you\s+need)\s+anything|"
    r"take\s+your\s+time|thank\s+you|thanks|you['’]?re\s+(?:very\s+|most\s+|so\s+)?welcome|"
    r"glad\s+to\s+help|"
    # a letter's salutation, alone or with its thanks: "Dear Ms. Raman, thank you for ..."
    r"dear\s+(?:[a-z][\w.'’-]*\s+){0,3}[a-z][\w'’-]*(?:(?=,?\s*$)|,?\s*(?:thank\s+you|thanks))|"
    # "Any questions, just ask.", "Happy to dig into these numbers.": an offer, no fact
    r"any\s+(?:other\s+|more\s+|further\s+)?questions?\b|"
    r"(?![^.!?]*\d)(?:i['’]?m\s+|i\s+am\s+)?(?:happy|glad)\s+to\s+(?:dig|look|walk|go|take\s+a\s+look)\b|"
    r"that'?s\s+(?:no\s+problem|completely\s+understandable|understandable|totally\s+fine|"
    r"perfectly\s+fine)|that\s+makes\s+(?:total\s+|perfect\s+|complete\s+)?sense(?=\s*[!.]?$)|(?:just\s+)?let\s+me\s+know|got\s+it(?=(?:,\s*[a-z]+)?\s*[!.]?$)|"
    r"good\s+luck\b|(?:you['’]?re\s+|you\s+are\s+)?all\s+set(?=(?:,\s*[a-z]+)?\s*[!.]?$)|"
    # "I don't need anything else from you at this time."
    r"(?:i|we)\s+(?:do\s+not|don['’]t)\s+need\s+anything\s+(?:else\s+|more\s+)?from\s+you\b|"
    r"no\s+(?:further\s+action|[\w-]+(?:\s+[\w-]+)?)\s+(?:is\s+)?(?:needed|required)"
    r"(?=\s*[;.!]|\s+(?:from|for|until|at|right)\b|\s*$)|"
    r"(?:i\s+am\s+|i'?m\s+|we'?re\s+)?look(?:ing)?\s+forward\s+to|"
    # an apology for a misunderstanding, no fact of the evidence
    r"(?:it\s+(?:seems|appears|looks)\s+(?:like\s+|that\s+)?)?there\s+(?:is|was|has\s+been|"
    r"may\s+have\s+been|might\s+have\s+been)\s+(?:a|an|some)\s+(?:slight\s+|small\s+)?"
    r"(?:misunderstanding|oversight|mix-?up|confusion|miscommunication)|"
    r"(?:i'?m|i\s+am)\s+(?:glad|happy)\s+(?:i|we)\s+could|"
    # "I'm glad to hear that", "I'm glad you enjoyed the price!", "Glad that worked out!":
    # pleasure at what the user said or felt, no fact of the evidence ("I'm glad the refund
    # went through" still says the refund went through)
    r"(?![^.!?]*\d)(?:(?:i['’]?m|i\s+am|we['’]?re|we\s+are)\s+)?(?:so\s+|really\s+|very\s+|"
    r"truly\s+)?(?:glad|happy|pleased|delighted|thrilled)\s+(?:to\s+(?:hear|help|assist|know|"
    r"see)(?:\s+(?:that|it|this|so))?(?=\s*[!.,]?\s*$)|"
    r"(?:that\s+)?you(?:['’](?:re|ve))?\s+(?:like|liked|love|loved|enjoy|enjoyed|are|were)\b|"
    r"(?:that|it)\s+(?:helped|helps|worked|works)\b)|"
    r"happy\s+to\s+help|no\s+(?:problem|worries)|of\s+course|certainly|absolutely|"
    # praise of the user's question: "That's a good thought!", "Great question."
    r"(?:that['’]?s\s+(?:a|an)\s+|what\s+(?:a|an)\s+)?(?:very\s+|really\s+)?(?:good|great|"
    r"excellent|fair|valid|reasonable|smart|important|thoughtful|creative|clever|nice)\s+"
    r"(?:question|point|thought|"
    r"idea|catch)(?=\s*[!.]?$)|"
    r"(?:i\s+)?hope\s+(?:this|that|you|your|everything|all|things)|"
    # "I'm here if you need anything else too!", "I'm around if anything comes up"
    r"(?:i['’]m|i\s+am|we['’]re)\s+(?:here|around|available)\s+if\b|"
    # "I'm here to assist.", "I appreciate you providing those details."
    r"(?:i['’]m|i\s+am|we['’]re)\s+(?:always\s+)?here\s+to\s+(?:help|assist)|"
    r"(?:i|we)\s+(?:really\s+|truly\s+)?appreciate\s+(?:you\b|your\b|(?:it|that|this)(?=\s*[!.]?$))|"
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
THINKING = re.compile(
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
EMPATHY = re.compile(
    r"^(?:(?:i'?m|i\s+am|we'?re)\s+(?:so\s+|really\s+|very\s+|truly\s+|terribly\s+)?"
    r"(?:sorry|happy\s+to\s+help|glad\s+to\s+help)|"
    r"i\s+(?:(?:completely|totally|fully|truly|really|absolutely|do|definitely|certainly)\s+)*"
    r"(?:understand|realize|realise|know|appreciate|can\s+see|empathi[sz]e|sympathi[sz]e|hear)"
    r"\s+(?:why|how|what|that\s+this|this|"
    r"that\s+isn|that['’]?s|that\s+(?:is|it['’]?s|it\s+is)|(?:with\s+)?your\s+(?:[\w-]+\s+)?"
    r"(?:concerns?|frustration|situation|disappointment|desire|preference|needs?|wish|"
    r"request|patience|trust|point|worry|worries|position|urgency)|"
    # "I appreciate the detailed information!", "I appreciate the trust"
    r"the\s+(?:[\w-]+\s+)?(?:information|details|context|clarification|patience|trust|"
    r"update|heads-up)|you\b)|"
    # regret: "I really wish I could help with this."
    r"i\s+(?:really\s+|genuinely\s+|truly\s+|sincerely\s+|do\s+)?wish\s+(?:i|we)\s+"
    r"(?:could|had|were\s+able))\b"
)
GOES_ON_TO_A_CLAIM = re.compile(r"\b(?:but|however|although|though|yet)\b|\d")
# A short opening clause before the sentence proper ("No worries, I can ...", "Once you
# confirm, I'll ...", "To proceed with the return, please ...", "Unfortunately, we ...").
OPENER = re.compile(
    r"^(?:"
    # "To continue I need the reason for cancellation" (no comma after the opener)
    r"to\s+(?:proceed|continue|go\s+ahead)\s+(?=(?:i|we)\s)|"
    # "Now I need to implement this", "Actually let me check": a narrating opener
    r"(?:now|actually|okay|ok|so)\s+(?=(?:i|we|let['’]s|let\s+me)\b)|"
    r"(?:no\s+(?:worries|problem)|sure|certainly|of\s+course|great|alright|all\s+right|okay|ok|"
    r"yes|yeah|"
    r"now|also|additionally|however|unfortunately|fortunately|if\s+so|in\s+(?:that|this)\s+case|"
    r"that\s+said|instead|"
    r"to\s+(?:proceed|confirm|continue|clarify|summari[sz]e)[^,]{0,60}|once\s+[^,]{1,60}|"
    r"before\s+[^,]{1,60}|after\s+[^,]{1,60}|for\s+(?:the|your|this)\s+[^,]{1,40}|"
    r"in\s+your\s+[^,]{1,40}|based\s+on\s+[^,]{1,60}|so|then|next|first|finally|"
    r"absolutely|perfect|thank\s+you|thanks|in\s+summary|to\s+sum\s+up|in\s+short|overall|"
    r"got\s+it|understood|noted|"
    r"as\s+(?:mentioned|noted)(?:\s+(?:above|earlier|before))?)\s*[,!:.]\s+|"
    r"(?:therefore|thus|hence|or|then|alternatively|otherwise),?\s+|and\s+)"
)
#: What the agent reports it sees, before the clause that says it: "I can see that
#: there's already a hello.py file", "I can confirm the order was cancelled" (no ability:
#: "I can see why", "I can confirm the details once you send them" have no clause of
#: their own after it).
REPORT_LEAD = re.compile(
    r"^(?:i|we)\s+(?:can|could)\s+(?:see|confirm|verify|tell)\s+(?:that\s+)?"
    r"(?=(?:there|the|your|it|this|these|those|all|both|each|no|none|our)\b[^.;:!?]{0,80}?"
    r"(?:\b(?:is|are|was|were|has|have|had|exists?|contains?|shows?)\b|['’]s\b))"
)
# "You will receive an email", "The refund will be processed": what will happen, a
# promise or a plan, not a fact about the evidence (figures in it are still checked).
FUTURE = re.compile(r"will|['’]ll|going\s+to")  # a cheap test before FUTURE_MAIN
FUTURE_MAIN = re.compile(
    r"^(?:\S+\s+){0,10}?(?:will|\S*['’]ll|is\s+going\s+to|are\s+going\s+to)\s+"
    r"(?:be\s+|then\s+|also\s+|now\s+)?\w+"
)
# What happens after a step the user or the agent has yet to take: "After confirmation:
# status 'return requested'", "Once you confirm, the order ...", "After I submit it, ...".
AFTER_STEP = re.compile(
    r"^[\W_]*(?:after|once|when)\s+(?:your\s+|the\s+|you\s+|i\s+|we\s+)?"
    r"(?:confirm\w*|submi\w*|approv\w*|go-ahead|say\s+yes)\b[^:,]{0,40}[*_]*[:,]"
)
# The user's own request, restated: "You mentioned ...", "you'd like to ...".
USER_RESTATED = re.compile(
    r"^(?:you\s+(?:originally\s+|initially\s+|first\s+|earlier\s+|also\s+)?(?:mentioned|said|"
    r"asked|requested|told\s+me|indicated|confirmed|wish|want|wanted|would\s+like|"
    r"'d\s+like|prefer|preferred|chose|selected|provided)|you'd\s+like|as\s+you\s+(?:requested|"
    r"asked|mentioned))\b"
)
#: An answer that agrees with what the user just said, and says nothing of its own: "Yes,
#: that's correct.", "That's right!", "Exactly."
AFFIRMS = re.compile(
    r"^(?:(?:yes|yep|yeah|correct|right|exactly)[,.!—–-]*\s*)?(?:(?:that['’]?s|that\s+is|"
    r"you['’]?re|you\s+are)\s+(?:absolutely\s+|exactly\s+|quite\s+)?(?:correct|right)|"
    r"(?:yes|yep|correct|exactly))[.!]*$"
)
#: A line that labels the user's request: "Request: change the size ...", "Your request:".
REQUEST_LABEL = re.compile(
    r"^[\W_]*(?:your\s+|customer\s+|user\s+)?(?:request|requested|ask)[\W_]*:\s*\S"
)
# Abilities and limits ("we cannot cancel single items", "I'm unable to place orders"):
# what the agent may do, a rule of its operator, not an observation.
ABILITY = re.compile(
    r"^(?:i|we)(?:\s+|(?=['’]))(?:can(?:not|'t|’t)?|could(?:n't|n’t)?|am\s+unable|"
    r"['’]m\s+unable|are\s+unable|['’]re\s+unable|"
    r"am\s+not\s+able|['’]m\s+not\s+able|are\s+not\s+able|can\s+only|only\s+can|"
    r"do\s+not\s+have\s+the\s+ability|don't\s+have\s+the\s+ability|"
    # "I don't have a way to fetch the carrier", "... an automated alert capability"
    r"(?:do\s+not|don't)\s+have\s+(?:a|an|the|any)\s+(?:[\w-]+\s+){0,2}?(?:way|ways|"
    r"ability|abilities|capability|capabilities|means|access|option|permission|permissions|"
    r"authority|authorization|tool|tools|visibility)|"
    # (the agent's own options: "I don't have the options to ..."; "we don't have any
    # options" may be what a search found)
    r"(?<=i\s)(?:do\s+not|don['’]t)\s+have\s+(?:a|an|the|any)\s+(?:[\w-]+\s+){0,2}?"
    r"options|"
    # what the agent's own view lacks: "I don't have an exact ship date in this system",
    # "I don't have a view here into ...", "I don't have a guaranteed timeframe to share"
    r"(?<=i\s)(?:do\s+not|don['’]t)\s+have\s+(?:a|an|the|any)\s+[^.;:!?]{0,60}?\b(?:here|"
    r"in\s+(?:this|my|the)\s+system|from\s+(?:here|my\s+side)|on\s+my\s+end|to\s+share)"
    r")\b"
)
LABEL_LEAD = re.compile(r"^([a-z][\w /&'()-]{0,40}?)(?::|\s[—–])\s+(?=\S)")
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


#: The words that make a clause of a title a statement ("**Your order has been cancelled**").
FINITE = _VERBS


def verbless_words(words: list[str]) -> bool:
    for w in words:
        if w in _VERBS or "'" in w or w.endswith("ed"):
            return False
        if w.endswith("s") and not w.endswith(("ss", "us", "is")):
            return False  # "departs", "costs" (or a plural: left as a statement)
    return True


def verbless(text: str) -> bool:
    """Whether a (lowercased) phrase has no verb ("lga–dtw on may 19")."""
    words = _WORD.findall(text)
    return bool(words) and verbless_words(words)


MONTH_MAY = re.compile(r"\bMay(?=\s+\d{1,2}(?:st|nd|rd|th)?\b)|(?<=\d\s)May\b")
RECOMMEND = re.compile(r"(?:i|we)(?:['’]d|\s+would)?\s+(?:recommend|suggest|advise)\b")
#: Advice put as a hedge: "It may help to confirm ...", "It might be worth checking
#: ...", "Or if you've got another email, that works too": what the user could do.
ADVICE = re.compile(
    r"^\(?(?:(?:it|that|this)\s+(?:may|might|could|would)\s+(?:help|be\s+(?:worth|best|better|wise|easier|"
    r"a\s+good\s+idea|helpful|useful))\b"
    r"|(?:or|and|also)\s+if\s+you(?:['’]ve|\s+have|['’]d|\s+would|\s+want|\s+prefer)\b)"
)
#: "Which option would you like?", "**Which option would you like to choose?**".
QUESTION_END = re.compile(r"\?[\s\"'”’)*_]*$")
INTENT = re.compile(
    # after a word that moves on ("Now let me search", "First, I'll check", "Okay, I will")
    r"^(?:(?:now|next|first|then|so|ok|okay|alright|all\s+right)[,.!]?\s+)?"
    # after what it is for: "To make this change, I would update your reservation"
    r"(?:to\s+[a-z][^,.;:!?]{0,60},\s*)?"
    r"(?:i['’]ll|i\s+will|we['’]ll|we\s+will|let\s+me|let['’]s|i['’]m\s+going\s+to|"
    # a step the agent would take: "we would need to cancel this reservation first"
    r"(?:i|we)\s+would|"
    r"i\s+am\s+going\s+to|i\s+can|i\s+could|we\s+can|you\s+can|you\s+could|you\s+should|"
    r"you\s+might|you\s+may|you\s+need|if\s+you|would\s+you|could\s+you|can\s+you|"
    r"you\s+would|we\s+could|(?:i|we)\s+(?:also\s+|still\s+|just\s+)?need|(?:i|we)\s+have\s+to|"
    r"(?:i|we)['’]d\s+need|"
    r"(?:i|we)\s+should|"
    # "Sure, give me a second to pull up the checks."
    r"(?:sure[,!.]?\s+)?(?:give|allow)\s+me\s+(?:a|one)\s+(?:second|sec|moment|minute)\b|"
    # "Just a moment while I check that for you.", "One sec while I pull that up"
    r"(?:just\s+)?(?:a|one)\s+(?:second|sec|moment|minute)\s+while\s+(?:i|we)\b|"
    # "I'd like to put this right", "What I can still do is upgrade the cabin"
    r"(?:i|we)['’]d\s+like\s+to|(?:i|we)\s+would\s+like\s+to|(?:i|we)\s+want\s+to|"
    # "I'm ready to help with either option once you confirm"
    r"(?:i['’]m|i\s+am|we['’]re|we\s+are)\s+(?:all\s+)?(?:ready|standing\s+by)\s+to|"
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
OFFER_TAIL = re.compile(
    r",?\s+if\s+(?:you(?:['’]d|\s+would)\s+like|you\s+(?:want|wish|prefer)|"
    r"that['’]?s\s+(?:something\s+)?(?:you(?:['’]d|\s+would)?\s+)?(?:like|want|prefer)\w*|"
    r"(?:that|this)\s+(?:helps|works\s+for\s+you))\W*$"
)
#: An option the agent offers, as a verb: "Option 1: explore flights on a different date".
OPTION_OFFERED = re.compile(
    r"^(?:[-*•]\s*)?(?:option|alternative|choice)\s*[\w]{0,3}\s*[:—–-]\s*(?:i\s+can\s+|we\s+can\s+)?"
    r"(?:explore|transfer|search|look|wait|keep|switch|try|contact|check|cancel|change|book|"
    r"modify|upgrade|downgrade|choose|pick|request|return|exchange|get|leave|move)\b"
)
OPTION_WORDS = ("option", "alternative", "choice", "- option", "* option", "• option")
#: A value the agent proposes for the user to confirm: "State: NY (please confirm)".
TO_CONFIRM = re.compile(
    r"[(*_\s—–-]\s*(?:please\s+confirm|to\s+be\s+confirmed|tbc|unconfirmed)\s*[)*_]*\W*$"
)


#: A line of what is still wanted: "Need: the order ID", "Order lookup: Awaiting order ID".
WANTED = re.compile(
    r"^(?:still\s+)?(?:need(?:ed)?|required|missing|to\s+provide)\s*:"
    r"|^[\w\s]{0,30}\b(?:needed|required|missing|still\s+needed)\s*:"
    r"|^[^:]{1,40}:\s*(?:awaiting|waiting\s+for|pending\s+your)\b"
)


def proposed(text: str) -> bool:
    """Whether a line proposes its value for the user to confirm ("State: NY (please
    confirm)"): no record's value is claimed."""
    return TO_CONFIRM.search(text.lower()) is not None


#: What a status line may have been read as (a short one, "Status: Done.", as a greeting).
STATUS_TYPES = frozenset({"statement", "fragment", "inference", "greeting"})
#: A reply's first line that says where the request stands, as an ops ticket opens
#: ("Status: Completed.", "Status: Search complete."): what became of the request, told
#: by the sentences under it, not a record's status field.
STATUS_LINE = re.compile(r"^[\W_]*(?:status|outcome|result)[*_]*\s*:", re.IGNORECASE)
#: A status label whose value is what became of a request, no record's state: "**Status:**
#: Not possible", "Outcome: declined".
REQUEST_OUTCOME = re.compile(
    r"^[\W_]*(?:status|outcome|result|decision)[*_]*\s*:[*_\s]*(?:not\s+)?(?:possible|allowed|"
    r"permitted|eligible|approved|declined|denied|done|unchanged)[*_.!\s]*$",
    re.IGNORECASE,
)
# The agent ending its turn: "I'll end the conversation here", "I'll conclude the task".
CLOSING = re.compile(
    r"^(?:i['’]ll|i\s+will|i\s+can|we\s+can)\s+(?:now\s+)?(?:end|conclude|close|finish|"
    r"wrap\s+up|stop)\b"
)
# A condition or a reason before a plan: "If everything looks good, we can proceed.",
# "Now that the issue is fixed, we can submit the changes.", "Since the task is done,
# I'll conclude.", "Given these circumstances, I'm unable to ..." (claims inside the
# condition are still detected and checked).
CONDITION = re.compile(
    r"^(?:if|when|whenever|once|since|now\s+that|with|to|in\s+a|in\s+the|given|without)\s+"
    r"[^,]{1,120},\s*"
)
