"""The built-in claim detectors of RFC-003 §4.4, plus value (metric) claims.

Each detector is a class of ``PATTERNS``. Patterns anchor on the verb phrase
and read the subject off the words around it (see ``phrases``). Every regex is
valid for RE2 and for Python's ``re``: RE2 runs them all at once as a
prefilter, ``re`` extracts groups only from sentences the prefilter flagged.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from receiptgate.claims.detectors.actions import (
    ActionDetector,
    AttributionDetector,
    ForgedLabelDetector,
)
from receiptgate.claims.detectors.base import Detector, Pattern, RegisterFn
from receiptgate.claims.detectors.phrases import BOUNDARY_WORDS, DETERMINERS
from receiptgate.claims.models import DetectedClaim
from receiptgate.claims.sentence_phrases import ABILITY

if TYPE_CHECKING:
    from receiptgate.text.segment import Sentence

# "is not", "isn't", "is no longer" — the polarity group of most patterns.
_BE = r"(?:is|are|was|were)"
_NEG = r"(\s+not|n['’]t|\s+no\s+longer)?"
_ADV = (
    # "the flights are all still available": a floating "all" or "both" first
    r"(?:\s+(?:all|both))?"
    r"(?:\s+(?:currently|now|still|already|properly|correctly|actually|definitely|completely|"
    r"totally|partially|fully))?"
)
#: A noun phrase after a state word: "available economy options" (the word is its adjective).
_NOUN_AFTER = re.compile(r"\s+[a-z]")
_NAME = r"(?-i:[A-Z])[\w-]*(?:\.[\w-]+)*(?:\s+(?-i:[A-Z])[\w-]*(?:\.[\w-]+)*)?"


class SystemStateDetector(Detector):
    """Installation, configuration and run state: "Node.js is not installed"."""

    id = "system_state"
    category = "system_state"
    config_key = "systemState"
    PATTERNS = (
        Pattern(
            "state",
            rf"\b{_BE}{_NEG}{_ADV}\s+(installed|running|configured|available|enabled|active|"
            r"loaded|present|stopped|online|healthy|unhealthy|deployed|disabled|inactive|started|"
            r"ready|mounted|connected|reachable|set\s+up|accepting\s+connections|listening|full)\b",
            subject="before",
            assertion=2,
            negative=1,
        ),
        Pattern(
            # "The Junior Suite is sold out", "the flight is fully booked"
            "sold_out",
            rf"\b{_BE}{_ADV}\s+(?:sold\s+out|fully\s+booked|out\s+of\s+stock|unavailable)\b",
            subject="before",
            assertion="not_available",
            negative=True,
        ),
        Pattern(
            "has_been",
            r"\b(?:has|have)(\s+not|n['’]t|\s+never)?\s+been\s+(installed|configured|enabled|"
            r"deployed|started|stopped|disabled|set\s+up|mounted)\b",
            subject="before",
            assertion=2,
            negative=1,
        ),
        Pattern(
            "not_found",
            r"\b(?:could\s+not|couldn['’]t|cannot|can['’]t|can\s+not|unable\s+to|failed\s+to|"
            r"did\s+not|didn['’]t|(?:was|were)\s+not\s+able\s+to|(?:wasn|weren)['’]t\s+able\s+to)"
            r"\s+(?:find|locate|detect)\b",
            subject="after",
            assertion="not_found",
            negative=True,
        ),
        Pattern(
            "missing",
            rf"\b{_BE}{_ADV}\s+(?:missing|absent|not\s+found|nowhere\s+to\s+be\s+found)\b|"
            r"\b(?:cannot|can['’]t|could\s+not|couldn['’]t)\s+be\s+found\b",
            subject="before",
            assertion="not_found",
            negative=True,
        ),
    )

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        if claim.subject.lower() in ("here", "there") and _NOUN_AFTER.match(text, match.end()):
            return None  # "Here are all available options:": a label, no state
        if claim.detector_id.endswith(".sold_out") and not _NAMED_SUBJECT.search(claim.subject):
            # "The Junior Suite is sold out" names what it is of; "two are out of stock"
            # leaves that to the sentence's other claims
            return None
        if _TO_BE_CHECKED.search(text, sentence.start, match.start()):
            # "we should ensure that key services are running": what is to be checked,
            # not what is
            return None
        if not claim.negative and (
            _NO_BEFORE.search(text, sentence.start, claim.offset)
            # "Nothing is listening on port 5432": said of nothing
            or claim.subject.lower() in _NOTHING
        ):
            # "No nonstop flights are available on May 23": said of none of them, as
            # "there are no nonstop flights available" is
            claim.negative = True
            claim.assertion = "not_" + claim.assertion
        return claim


#: A state put as what is still to be checked: "we should ensure that", "let me verify
#: whether", "I'll check if".
_TO_BE_CHECKED = re.compile(
    r"\b(?:should|must|need\s+to|needs\s+to|have\s+to|has\s+to|let['’]s|let\s+me|i['’]ll|"
    r"we['’]ll|will|going\s+to|want\s+to|please)\s+(?:\w+\s+){0,2}?(?:ensure|make\s+sure|"
    r"check|verify|confirm|see|test|determine)\s+(?:that|whether|if)\b[^.;:!?]*$",
    re.IGNORECASE,
)

#: A subject that names a thing: a capitalised word past its first ("the Junior Suite",
#: "Flight HAT052"), or an id.
_NAMED_SUBJECT = re.compile(r"(?<=\s)(?-i:[A-Z])|\b(?=[A-Za-z_-]*\d)[A-Za-z0-9_-]{4,}\b")

#: Subjects that deny the state of everything: "Nothing is listening on port 5432".
_NOTHING = frozenset({"nothing", "nobody", "no one", "none"})

#: "No" or "none of the" right before a subject: the state is denied of every one.
_NO_BEFORE = re.compile(r"(?:^|[\s,:;(*_])(?:no|none\s+of\s+the)\s+$", re.IGNORECASE)


class EntityNameDetector(Detector):
    """People, projects and systems named: "The user's name is Iulia"."""

    id = "entity_name"
    category = "entity_name"
    config_key = "entityName"
    PATTERNS = (
        Pattern(
            "role",
            r"\b(user|person|team\s+member|developer|author|owner|maintainer|creator|customer|"
            r"client|manager|partner|founder|ceo|cto|lead|contact|reviewer|assignee)"
            r"(?:['’]s\s+name)?\s+(?:is\s+(?:named|called)|is|was|named|called)\s+[\"'“]?"
            rf"({_NAME})",
            subject=2,
            assertion="name_reference",
            obj=1,
            confidence=0.95,
        ),
        Pattern(
            "named",
            r"\b(?:name\s+is|named|called|known\s+as)\s+[\"'“`]?"
            r"([\w][\w.-]*(?:\s+(?-i:[A-Z])[\w.-]*)?)",
            subject=1,
            assertion="name_reference",
            obj="before",
        ),
        Pattern(
            "speaker",
            rf"({_NAME})\s+(said|wrote|created|built|developed|designed|reviewed|approved|"
            r"signed|confirmed|reported|mentioned|asked)\b",
            subject=1,
            assertion="name_reference",
            obj=2,
            confidence=0.7,
        ),
    )

    _NOT_NAMES = frozenset(
        """
            the this that these those it he she they we i you our my your their his her its someone
            everyone nobody somebody everybody there here then it's
            once when whenever if unless until after before since while as though although
            """.split()
    )

    #: What follows "called" when it is a call: "called twice", "called with two arguments".
    _HOW_CALLED = frozenset(
        "once twice again with from by on in for when before after back first later".split()
    )

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        first = claim.subject.split()[0].lower()
        if first in self._NOT_NAMES or first in DETERMINERS or first in BOUNDARY_WORDS:
            return None
        name = claim.detector_id.rsplit(".", 1)[1]
        if name == "speaker" and match.start() != sentence.start:
            return None  # only "<Name> said ..." at the start of a sentence names a speaker
        before = text[max(sentence.start, match.start() - 3) : match.start()].lower()
        if name == "named" and before.endswith("my "):
            return None  # "My name is X" is self-referential, not about a third party
        word = claim.subject.lower().rstrip(".")
        if (
            name == "named"
            and match.group(0).lower().startswith("called")
            and (word.endswith("ly") or word in self._HOW_CALLED)
        ):
            return None  # "works when called directly", "called twice": a call, no name
        return claim


class ExistenceDetector(Detector):
    """Whether features, files or resources exist: "Feature Y doesn't exist"."""

    id = "existence"
    category = "existence"
    config_key = "existence"
    PATTERNS = (
        Pattern(
            "kind_missing",
            r"\b(feature|function|method|file|config|option|setting|field|parameter|module|"
            r"package|endpoint|table|column|directory|folder|branch|command|plugin)\s+[\"'`]?"
            r"([\w./@-]+)[\"'`]?\s+(?:is\s+missing|does\s+not\s+exist|doesn['’]t\s+exist|"
            r"(?:is\s+not|isn['’]t)\s+(?:available|present|defined|implemented))",
            subject=2,
            assertion="not_exists",
            negative=True,
            obj=1,
            confidence=0.95,
        ),
        Pattern(
            "not_exist",
            r"\b(?:does\s+not|doesn['’]t|did\s+not|didn['’]t|do\s+not|don['’]t)\s+exist\b|"
            r"\bno\s+longer\s+exists?\b",
            subject="before",
            assertion="not_exists",
            negative=True,
        ),
        Pattern(
            "exists",
            r"\b(?:exists|existed|already\s+exists|does\s+exist)\b",
            subject="before",
            assertion="exists",
            confidence=0.85,
        ),
        Pattern(
            "there_is_no",
            r"\b(?:there\s+(?:is|are|was|were)\s+no|there['’]s\s+no|no\s+such)\b",
            subject="after",
            assertion="not_exists",
            negative=True,
        ),
        Pattern(
            "has_no",
            r"\b(?:has|have|had)\s+no\s",
            subject="after",
            assertion="not_exists",
            negative=True,
            obj="before",
            confidence=0.85,
        ),
        Pattern(
            "lacks",
            r"\b(?:does\s+not|doesn['’]t|did\s+not|didn['’]t)\s+(?:have|contain|include)\b",
            subject="before",
            assertion="lacks",
            negative=True,
            obj="after",
            confidence=0.8,
        ),
        Pattern(
            "we_dont_have",
            r"\b(?:we|you|they|i)\s+(?:do\s+not|don['’]t|did\s+not|didn['’]t)\s+have\s+"
            r"(?:a|an|the|any)\s",
            subject="after",
            assertion="not_exists",
            negative=True,
        ),
    )

    # "There are no further tasks / actions required": the state of the agent's own turn,
    # nothing the evidence could hold.
    _TURN = re.compile(
        r"\s*(?:further|more|other|additional)\s+(?:(?:tasks?|actions?|steps?|requests?|"
        r"questions?)\b|(?:(?:changes?|modifications?|edits?|fixes)(?:\s+(?:or|and)\s+\w+)?"
        r"\s+(?:are\s+|is\s+)?(?:needed|required|necessary)\b))",
        re.IGNORECASE,
    )

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        if claim.detector_id.endswith("there_is_no") and self._TURN.match(text, match.end()):
            return None
        if (
            claim.detector_id.endswith("we_dont_have")
            and match.group().lower().startswith("i")
            and ABILITY.match(text[match.start() : sentence.end].lower())
        ):
            # "I don't have a way to fetch the carrier", "I don't have an exact ship date
            # in this system": what the agent can do or see, an ability or a limit (the
            # one list of them, sentence_phrases.ABILITY), no observation of a record
            return None
        return claim


#: A subject that ends in a number: the count of a tally ("... shows 1" failed).
_TALLY = re.compile(r"(?:^|\s)\d+$")


#: A subject that is a test run: "the Jest run", "the test suite" ("All tests are
#: failing" stays the RFC's operational claim).
_TEST_RUN_SUBJECT = re.compile(
    r"\b(?:(?:jest|pytest|vitest|mocha|rspec|test)\s+run|test\s+suite)$",
    re.IGNORECASE,
)


#: A subject that is none of something: "None of the tests", "No services".
_NO_SUBJECT = re.compile(
    r"\b(?:no|none\s+of)\s+(?:the\s+|my\s+|our\s+|your\s+|these\s+)?[\w-]+\s+$", re.IGNORECASE
)


class OperationalStatusDetector(Detector):
    """Health of systems: "Pipeline is broken", "Build failed", "All services are down"."""

    id = "operational_status"
    category = "operational_status"
    config_key = "operationalStatus"
    PATTERNS = (
        Pattern(
            "all_down",
            r"\b(everything|all\s+(?:systems|services|tests|builds|servers|checks|jobs|pipelines))"
            rf"\s+{_BE}\s+(broken|failing|down|red|offline)\b",
            subject=1,
            assertion=2,
            confidence=0.95,
        ),
        Pattern(
            "down",
            rf"\b(?:{_BE}|has\s+been|have\s+been){_NEG}{_ADV}\s+(broken|down|failing|crashed|"
            r"dead|offline|unreachable|unresponsive|degraded|flaky|erroring|red|crashing)\b",
            subject="before",
            assertion=2,
            negative=1,
        ),
        Pattern(
            "failed",
            r"\b(failed|crashed|timed\s+out|errored|went\s+down|broke|is\s+failing)\b",
            subject="before",
            assertion=1,
            confidence=0.85,
        ),
        Pattern(
            "up",
            rf"\b{_BE}{_NEG}{_ADV}\s+(?:back\s+)?(up\s+and\s+running|operational|working|green|"
            r"functional|up)\b",
            subject="before",
            assertion="operational",
            negative=1,
            confidence=0.85,
        ),
    )

    _OPERATIONAL = re.compile(r"\s+(?:to|for|with)\b")

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        tail = text[match.end() : min(sentence.end, match.end() + 6)]
        # "failed to find", "up to date", "working on" are not status claims.
        if self._OPERATIONAL.match(tail) or (
            tail.startswith(" on") and claim.assertion in ("operational", "not_operational")
        ):
            return None
        if _NO_SUBJECT.search(text, max(sentence.start, match.start() - 40), match.start()):
            # "None of the tests failed", "No services went down": said of none, no one
            # system's state (a test run's is the action ledger's)
            return None
        if _TEST_RUN_SUBJECT.search(claim.subject.strip()):
            # "The Jest run is green", "the test suite is green": a test run's outcome,
            # which the action ledger checks (tests_pass), no system's health
            return None
        if _TALLY.search(claim.subject.strip()):
            # "4 passed, 0 failed", "the test run shows 1 failed": a count of a run's
            # results (checked as a figure), no system's state
            return None
        if claim.assertion in ("not_operational",):
            claim.assertion = "operational"
        claim.assertion = claim.assertion.replace("is_failing", "failing")
        return claim


class CapabilityDetector(Detector):
    """What a system can or cannot do: "OpenClaw doesn't support webhooks"."""

    id = "capability"
    category = "capability"
    config_key = "capability"
    PATTERNS = (
        Pattern(
            "no_support",
            r"\b(?:does\s+not|doesn['’]t|do\s+not|don['’]t|cannot|can['’]t|can\s+not|"
            r"(?:is\s+not|isn['’]t|is\s+unable)\s+able\s+to|is\s+unable\s+to|no\s+longer)\s+"
            r"supports?\b",
            subject="before",
            assertion="not_supported",
            negative=True,
            obj="after",
        ),
        Pattern(
            "supports",
            r"\b(?:supports|can\s+handle|is\s+capable\s+of|has\s+support\s+for|now\s+supports)\b",
            subject="before",
            assertion="supported",
            obj="after",
            confidence=0.85,
        ),
        Pattern(
            "unavailable",
            r"\b((?:this|that|the)\s+(?:feature|option|functionality|capability|integration|"
            r"endpoint|command|tool|api|mode))\s+(?:is|are)\s+(?:not|no\s+longer)\s+"
            r"(?:available|supported|possible)\b",
            subject=1,
            assertion="not_available",
            negative=True,
            confidence=0.95,
        ),
    )


class SelfReferentialDetector(Detector):
    """An agent reflecting on itself instead of working: "my instructions say"."""

    id = "self_referential"
    category = "self_referential"
    config_key = "selfReferential"
    PATTERNS = (
        Pattern(
            "prompt_says",
            r"\bmy\s+(system\s+prompt|instructions|guidelines|rules|constraints|prompt)\s+"
            r"(?:say|says|tell|tells|instruct|instructs|direct|directs|require|requires|state|"
            r"states|forbid|forbids|prevent|prevents)\b",
            subject="self",
            assertion="self_referential",
            obj=1,
        ),
        Pattern(
            "i_am_ai",
            r"\b(?:i\s+am|i['’]m)\s+(?:just\s+|only\s+|merely\s+)?(?:an?\s+)?(ai\s+assistant|ai|"
            r"assistant|large\s+language\s+model|language\s+model|llm|sub-agent|subagent|agent|"
            r"bot|chatbot)\b",
            subject="self",
            assertion="self_referential",
            obj=1,
        ),
        Pattern(
            "according_to_my",
            r"\b(?:according\s+to|based\s+on|per)\s+my\s+(instructions|system\s+prompt|prompt|"
            r"guidelines|training|programming|rules)\b",
            subject="self",
            assertion="self_referential",
            obj=1,
        ),
        Pattern(
            "was_told",
            r"\bi\s+was\s+(told|instructed|asked|tasked|programmed|designed|trained)\s+to\b",
            subject="self",
            assertion="self_referential",
            obj=1,
            confidence=0.8,
        ),
        Pattern(
            "my_name",
            r"\bmy\s+name\s+is\s+((?-i:[A-Z])[\w-]*)",
            subject="self",
            assertion="name",
            predicate="name",
            value=1,
            confidence=0.85,
        ),
        Pattern(
            "i_am_name",
            r"\b(?:i\s+am|i['’]m)\s+((?-i:[A-Z])(?-i:[a-z])[\w-]*)\b",
            subject="self",
            assertion="identity",
            predicate="name",
            value=1,
            confidence=0.7,
        ),
        Pattern(
            "access",
            r"\bi\s+(?:have|had)\s+(?:full\s+|root\s+|admin\s+|read\s+|write\s+)?access\s+to\b",
            subject="self",
            assertion="capability",
            obj="after",
            confidence=0.7,
        ),
    )


class QuantityDetector(Detector):
    """Counts and metrics about a subject: "nats-events has 255908 items", "CPU is at 85%".

    These are checked against subject/predicate/value facts (RFC-006 §8.3).
    """

    id = "quantity"
    category = "quantity"
    config_key = "quantity"
    PATTERNS = (
        Pattern(
            "has_count",
            r"\b(?:has|have|had|holds|contains|contained|processed|processes|handles|handled|"
            r"stores|stored|serves|served|reached|reaches|hit|hits)\s+(?:about\s+|around\s+|"
            r"over\s+|exactly\s+|approximately\s+|roughly\s+|nearly\s+|almost\s+|more\s+than\s+|"
            r"less\s+than\s+|fewer\s+than\s+)?(\d[\d,]*(?:\.\d+)?(?:\s?(?:k|m|million|billion|"
            r"thousand)\b)?)(\s+[a-z][\w-]*)?",
            subject="before",
            assertion="count",
            predicate="count",
            value=1,
            confidence=0.85,
        ),
        Pattern(
            "at_percent",
            rf"\b{_BE}\s+(?:at|around|about|running\s+at|sitting\s+at|now\s+at)\s+"
            r"(\d+(?:\.\d+)?)\s*(?:%|percent\b)",
            subject="before",
            assertion="percentage",
            predicate="percentage",
            value=1,
            confidence=0.9,
        ),
    )

    def validate_result(
        self, claim: DetectedClaim, text: str, sentence: Sentence, match: re.Match[str]
    ) -> DetectedClaim | None:
        if claim.predicate == "percentage":
            claim.value = f"{match.group(1)}%"
        elif match.lastindex and match.lastindex >= 2 and match.group(2):
            claim.value = f"{match.group(1)} {match.group(2).strip()}"
        return claim


BUILTIN_DETECTORS: tuple[type[Detector], ...] = (
    ActionDetector,
    ForgedLabelDetector,
    AttributionDetector,
    SystemStateDetector,
    EntityNameDetector,
    ExistenceDetector,
    OperationalStatusDetector,
    CapabilityDetector,
    SelfReferentialDetector,
    QuantityDetector,
)


def register_detectors(register: RegisterFn) -> None:
    """Entry point of the built-in set (``receiptgate.detectors`` group)."""
    for cls in BUILTIN_DETECTORS:
        register(cls())
