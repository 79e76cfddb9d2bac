"""What an action claim is about, matched to a call: the file, id or name it names, its
synonyms ("the shell script" is a ``.sh`` file), and the generic objects any call of
the kind backs ("the changes", "the following items") (checks/ledger)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from receiptgate.checks.words import STOPWORDS, content_words, stem
from receiptgate.claims.detectors.phrases import PRODUCT
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.index import ReceiptEntry

#: Words for a tool that name the tools themselves ("I ran the linter" and ``ruff check``).
_OBJECT_SYNONYMS: dict[str, re.Pattern[str]] = {
    # "the shell script has been created": the .sh file a command wrote
    "shell script": re.compile(r"\.(?:sh|bash|zsh)\b|#!/(?:usr/)?bin/(?:env\s+)?(?:ba|z)?sh\b"),
    "script": re.compile(r"\.(?:sh|bash|py|js|ts|rb|pl|ps1)\b"),
    "linter": re.compile(
        r"\b(?:ruff|eslint|flake8|pylint|golangci|clippy|rubocop|lint|shellcheck|stylelint)"
    ),
    "lint": re.compile(r"\b(?:ruff|eslint|flake8|pylint|golangci|clippy|rubocop|lint|shellcheck)"),
    "type checker": re.compile(r"\b(?:mypy|pyright|tsc|flow|pyre)"),
    "formatter": re.compile(r"\b(?:black|prettier|ruff\s+format|gofmt|rustfmt)"),
    "migration": re.compile(r"\b(?:migrat|alembic|flyway|liquibase)"),
    "backup": re.compile(r"\b(?:backup|restic|borg|pg_dump|snapshot)"),
    "ticket": re.compile(r"\b(?:ticket|issue|jira|incident|case)"),
    "pull request": re.compile(r"\b(?:pull|pr\b|merge request)"),
    "pr": re.compile(r"\b(?:pull|pr\b|merge request)"),
    # "two checked bags have been added": a call on the booking's baggage
    "bag": re.compile(r"(?<![a-z])(?:bag|luggage)"),
    "luggage": re.compile(r"(?<![a-z])(?:bag|luggage)"),
    # "I checked the nonstop options": a search for direct flights
    "nonstop": re.compile(r"direct|non-?stop"),
    "non-stop": re.compile(r"direct|non-?stop"),
    # "I've checked the one-stop options": a search for connecting flights
    "one-stop": re.compile(r"one-?stop|connect"),
    "one stop": re.compile(r"one-?stop|connect"),
    "connecting": re.compile(r"one-?stop|connect"),
}

_IDENTIFIER = re.compile(
    r"[\w.-]*[/@][\w./@-]+|[\w-]+\.[a-z]{2,5}\b|[A-Z]+-\d+|\b[\w]+-\d+\b|#\w*\d\w*"
    # a chat channel: "posted an update to #incidents"
    r"|(?<![\w#])#[a-z][a-z0-9_-]+"
)

#: Digits and dashes only ("5-7", "2024-05"): a range or a date, no name of a thing.
_NUMBER_RANGE = re.compile(r"[\d-]+")

#: A label before an object ("**Refund:** $2571").
_LEAD_LABEL = re.compile(r"^[\s*_]*[A-Za-z][\w ]{0,30}[*_]*:[*_]*\s*")

GENERIC_OBJECTS = frozenset(
    "result results output it them everything file files report changes change data the "
    "fix update work code your my our identity account details detail information info "
    "request requests "
    "profile record records user successfully id ids number "
    # where things are looked up ("I rechecked the catalog", "the inventory"): any
    # look-up of it
    "catalog catalogue inventory "
    # words that point at what the reply lists ("the following items", "the selected
    # items"): the listed lines name the objects, and are checked on their own
    "following selected above below listed mentioned these those item items "
    # what the agent made of its results ("I found a combination that ..."): any look-up
    "combination combinations option options solution alternative alternatives way "
    # what points back at the actions just taken ("both actions", "the requested updates")
    "action actions updates modification modifications requested combined".split()
)

#: Words that count an object ("several options", "a few alternatives", "3 results").
_HOW_MANY = frozenset(
    "a an the some several few many multiple various couple of more other two three four "
    "five six seven eight nine ten both all each "
    # which of them: "I found the cheapest option"
    "cheapest earliest latest best lowest fastest shortest nearest".split()
)

#: What a fix is of, when no file is named: the problem, not an artifact a call names.
_PROBLEMS = frozenset(
    "error errors bug bugs issue issues typo typos problem problems mistake mistakes crash "
    "failure failures syntax spelling".split()
)


#: What a code change is called when the reply names its kind, not its place ("Added
#: handling of empty strings", "modified the condition to check for None"): the rest of
#: the sentence says what the change is about.
_CODE_PARTS = content_words(
    "handling handler handlers logic support check checks validation condition conditions "
    "guard guards method methods function functions helper "
    "helpers parameter parameters argument arguments comment comments docstring docstrings "
    "import imports fallback branch branches attribute attributes property properties "
    "assertion assertions annotation annotations hint hints default defaults implementation "
    "special new proper explicit additional extra missing simple small dedicated separate "
    "error exception exceptions line lines call calls"
)

#: Stems of words no call's words hold ("values" stems to the stem of "value", which
#: content words leave out).
_STOP_STEMS = frozenset(stem(w) for w in STOPWORDS)

#: What an amount of money is called when it is refunded or charged.
_AMOUNTS = frozenset(
    "difference price amount balance remainder remaining rest money total sum of a an full "
    "entire whole "
    # "the refund of $567.00 has been processed": the act itself, whichever call made it
    "refund refunds reimbursement charge charges payment payments".split()
)
_MONEY = re.compile(r"[$€£]\s?\d[\d,]*(?:\.\d+)?|\b\d[\d,]*(?:\.\d+)?\s*(?:dollars?|usd)\b")


#: What a line says a text or a change does, not what it holds: "Provides steps to
#: reproduce" of a report that holds "Steps to reproduce", "Adds a check for ...".
_DESCRIBING = content_words(
    "add adds added adding provide provides provided providing include includes included "
    "including describe describes described describing suggest suggests suggested "
    "explain explains explained contain contains contained cover covers covered "
    "outline outlines outlined offer offers mention mentions present presents"
)


def change_words(text: str) -> frozenset[str]:
    """What a description of a code change is about: its words past the kind of change
    ("handling", "logic") and what it does to it ("provides", "adds"), the generic
    objects and how it is done ("explicitly")."""
    words = content_words(text) - GENERIC_OBJECTS - _CODE_PARTS - _STOP_STEMS - _DESCRIBING
    return frozenset(w for w in words if not w.endswith("ly"))


def describes(description: frozenset[str], call_words: frozenset[str]) -> bool:
    """Whether a call's own words (its tool and arguments: an edit's new text) hold what a
    change is described by: code shares words such as "string" and "value" with any
    change, so all of them, or three in four of a long description."""
    shared = len(description & call_words)
    return shared > 0 and shared * 4 >= len(description) * 3


def _after(tail: str, obj: str) -> str:
    """What a sentence says after the object ("of sensitive string values")."""
    at = tail.lower().find(obj.lower()) if obj else -1
    return tail[at + len(obj) :] if at >= 0 else ""


#: The first word of a tool's name: "modify" of "modify_pending_order_items".
_TOOL_VERB = re.compile(r"([a-z]{3,})(?:[_\-.]|$)", re.IGNORECASE)
_SUFFIXES = ("ications", "ication", "ations", "ation", "ings", "ing", "ments", "ment", "es", "s")


def root(word: str) -> str:
    """A word without its suffix of a noun of action or a plural, and without a doubled
    last letter: "modification" and "modify" give "modif", "cancellation" and "cancel"
    "cancel", "booking" and "book" "book", "exchanges" and "exchange" "exchang"."""
    w = word.lower()
    for suffix in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 4:
            w = w[: -len(suffix)]
            break
    if w.endswith(("y", "e")) and len(w) >= 5:
        w = w[:-1]
    if len(w) >= 5 and w[-1] == w[-2]:
        w = w[:-1]
    return w


def tool_root(tool: str) -> str | None:
    """The root of what a tool does, from the first word of its name: "modif" of
    "modify_pending_order_items", "return" of "return_delivered_order_items"."""
    verb = _TOOL_VERB.match(tool)
    return root(verb.group(1)) if verb is not None else None


#: Where a value was taken from: "from order #W3407479", "from the file notes.txt".
_SOURCE = re.compile(r"\bfrom\s+(?:(?:the|your|this|that|order|file|item|record)\s+)*\S+", re.I)

#: Acts whose "from" is one of their objects: "renamed from a.py to b.py".
_TWO_ENDS = re.compile(r"\b(?:renam|mov|cop(?:y|ie)|migrat|transfer)", re.IGNORECASE)

#: A preposition opening a look-up's object ("found regarding the items").
_ABOUT_LEAD = re.compile(r"^\s*(?:regarding|about|concerning|on|for)\s+", re.IGNORECASE)
#: An object that starts with a dash or a colon is none ("I found—please review").
_NO_OBJECT = re.compile(r"^\s*[—–:-].*", re.DOTALL)


#: A command in backticks: its program and, when the next word is no option, its
#: subcommand ("`ruff format src tests`", "`git diff --stat`", "`python -m pytest`").
_COMMAND_SPAN = re.compile(r"`([a-z][\w.+-]*)(?:\s+([a-z][\w:.+-]*))?[^`]*`")
#: The means of an act, named after it: "created the branch with `git switch -c x`".
_BY_COMMAND = re.compile(r"\b(?:with|using|via|running|by\s+running)\s+(?=`)", re.IGNORECASE)
#: Acts whose object in backticks is a command that was run.
_RUN_KINDS = frozenset({"ran", "checked", "ran_tests", "installed", "searched"})


def _commands(claim: DetectedClaim, raw: str, tail: str) -> tuple[re.Pattern[str], ...]:
    """What a call's line must hold for each command the claim names: "I ran `ruff format
    src tests`" is no ``ruff check`` run; "I created the branch with `git switch -c x`"
    is no ``git checkout -b x``."""
    spans: list[re.Match[str]] = []
    if claim.assertion in _RUN_KINDS and raw.strip():
        # the object as the sentence wrote it, in backticks ("I ran `ruff format src`")
        at = tail.find(f"`{raw.strip()}")
        if at >= 0 and (m := _COMMAND_SPAN.match(tail, at)) is not None:
            spans.append(m)
    by = _BY_COMMAND.search(tail)
    if by is not None and (m := _COMMAND_SPAN.match(tail, by.end())) is not None:
        spans.append(m)
    out = []
    for m in spans:
        prog, sub = m.group(1), m.group(2)
        out.append(
            re.compile(rf"(?<![\w/.-]){re.escape(prog)}(?:\s+-\S+)*\s+{re.escape(sub)}\b")
            if sub
            else re.compile(rf"(?<![\w/.-]){re.escape(prog)}\b")
        )
    return tuple(out)


#: A clause that denies an act, after the one claimed: ", and didn't touch X", "but not X".
_NOT_CLAUSE = re.compile(
    r"(?:[,;]|\band\b|\bbut\b)\s+(?:I\s+|we\s+)?(?:did\s*n[o'’]?t|have\s*n[o'’]?t|never|not|"
    r"left)\b.*",
    re.IGNORECASE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class ObjectMatcher:
    """Whether a call is about a claim's object (a file, a recipient, a version...).

    Identifiers (paths, emails, ticket keys) must appear as written:
    ``config/prod.yaml`` is not ``config/staging.yaml`` however many words they share.
    Built once per claim, then asked of each candidate call.
    """

    obj: str
    idents: tuple[str, ...]
    synonyms: tuple[re.Pattern[str], ...]
    words: frozenset[str]
    anything: bool
    #: matched in the call's tool and arguments only ("Added handling of ..." is true of
    #: an edit whose new text handles it, not of a search that printed such code)
    in_call: bool = False
    #: the commands it names, each to be found in the call's own line (``_commands``)
    commands: tuple[re.Pattern[str], ...] = ()

    @classmethod
    def of(cls, claim: DetectedClaim, tail: str) -> ObjectMatcher:
        # "**Refund:** $2571 has been refunded": the label is no part of the object
        raw = _LEAD_LABEL.sub("", claim.object or "")
        if claim.assertion == "checked":
            # "Here's what I found regarding the items", "what I found—please review": what
            # follows a look-up verb there is what it was about, or no object at all
            raw = _NO_OBJECT.sub("", _ABOUT_LEAD.sub("", raw))
        obj = raw.strip(" *_`").lower()
        # "I edited pagination.py and didn't touch compat/legacy.py": what a negated clause
        # after it names is no object of the act
        tail = _NOT_CLAUSE.sub("", tail)
        if _IDENTIFIER.search(raw) and not _TWO_ENDS.search(claim.matched_text):
            # "Updated order #W6750959's address to the one from order #W3407479": what it
            # was taken from is read by another call; the object's own id decides
            tail = _SOURCE.sub(" ", tail)
        idents = tuple(
            i.lower().rstrip(".")
            for i in _IDENTIFIER.findall(f"{raw} {tail}")
            if not PRODUCT.fullmatch(i.rstrip("."))  # "a Vue.js app": a product, no file
            and not _NUMBER_RANGE.fullmatch(i)  # "within 5-7 business days": no name
        )
        words = content_words(raw)
        generic = GENERIC_OBJECTS
        in_call = False
        if claim.assertion in ("fixed", "checked"):
            # "the syntax error has been corrected": any edit; "I've found the issue": any
            # look-up
            generic = generic | _PROBLEMS
        elif claim.assertion in ("refunded", "charged"):
            # "the difference of $7.98 has been refunded": an amount, whichever call moved it
            # (the amount itself is checked as a figure)
            generic = generic | _AMOUNTS
            obj = _MONEY.sub(" ", obj)
            words = content_words(_MONEY.sub(" ", raw))
        if claim.assertion in ("created", "fixed") and words and words <= _CODE_PARTS:
            about = change_words(_after(tail, raw)) - generic
            if about:
                # "Added handling of sensitive string values": the values, not the
                # handling, in what the call sent (an edit's new text), not what it printed
                obj, words, in_call = "", frozenset(about), True
            else:
                # "we've modified the condition to check for None": any edit, as "the
                # changes" are
                obj = ""
        # "I found several options": how many of them is no name of what was found
        named = {w for w in obj.split() if w not in _HOW_MANY and not w.isdigit()}
        anything = not in_call and not idents and (not obj or named <= generic or not words)
        synonyms = tuple(
            p
            for w, p in _OBJECT_SYNONYMS.items()
            if w in obj and re.search(rf"\b{w}(?:e?s)?\b", obj)  # "bags"; "pr", not "price"
        )
        return cls(obj, idents, synonyms, words, anything, in_call, _commands(claim, raw, tail))

    def _in(self, text: str) -> bool | None:
        """What a call's text says about the object by ids, the object itself and its
        synonyms; ``None`` when only its words can tell."""
        if self.idents:
            # "saved the results to report.csv": the file named anywhere after the verb.
            # ("PR #482" of a call given "pull_number": 482)
            return all(i in text or (i[:1] == "#" and i[1:] in text) for i in self.idents)
        if self.anything or (self.obj and self.obj in text):
            return True
        if any(p.search(text) for p in self.synonyms):
            return True
        return None

    def names_in_call(self, head: str) -> bool:
        """Whether a call's own line (tool name and arguments) names the object."""
        found = self._in(head)
        if found is not None:
            return found
        if self.in_call:
            return describes(self.words, content_words(head))
        return bool(self.words & content_words(head))

    def __call__(self, entry: ReceiptEntry) -> bool:
        if self.commands:
            line = entry.text.split("\n", 1)[0]
            return all(p.search(line) for p in self.commands)
        found = self._in(entry.text)
        if found is not None:
            return found
        if self.in_call:
            return describes(self.words, entry.context_words)
        shared = len(self.words & entry.words)
        if shared > 0 and shared * 2 >= min(len(self.words), 2):
            return True
        # "the one-time item modification", "your exchanges and cancellation": the object
        # names what the tool does ("modify_pending_order_items", "cancel_pending_order")
        act = tool_root(entry.receipt.tool or "")
        return act is not None and act in {root(w) for w in self.words}
