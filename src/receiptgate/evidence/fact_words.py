"""The words facts and claims are compared in: subjects, states, statuses and numbers.

A fact and a claim meet when their subjects' normalised forms do
(:func:`normalise_subject`: case, spacing, quotes and trailing punctuation do not
count; a leading determiner or a trailing "on db-01" gives further forms). State and
status words are canonicalised so that "stopped" answers "running" and "not
operational" means "down", and values are parsed as exact decimals with a unit
("255,908 events", "$2.4M"). Loading (:mod:`receiptgate.evidence.facts`), the index
(:mod:`receiptgate.evidence.fact_index`) and the check (:mod:`receiptgate.checks.facts`)
all read words through here, so a fact and a claim are always read alike.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal
from typing import Final

QUOTES: Final = "\"'`\u2018\u2019\u201c\u201d\u00ab\u00bb"
_TRAILING: Final = ".,;:!?"
_DETERMINERS: Final = frozenset(
    {"the", "a", "an", "our", "my", "your", "their", "this", "that", "these", "those"}
)


@functools.lru_cache(maxsize=8192)
def normalise_subject(subject: str) -> str:
    """Lower-case, collapse whitespace, drop surrounding quotes and trailing punctuation.

    Example:
        ``normalise_subject(' "Node.js". ')`` is ``"node.js"``.
    """
    text = " ".join(subject.split()).lower()
    previous = None
    while text != previous:
        previous = text
        text = text.strip(QUOTES).rstrip(_TRAILING).strip()
    return text


def _strip_determiner(normalised: str) -> str:
    first, _, rest = normalised.partition(" ")
    return rest if rest and first in _DETERMINERS else normalised


_PREPOSITION = re.compile(r" (?:in|on|at|of|for) ")


def subject_forms(subject: str) -> tuple[str, ...]:
    norm = normalise_subject(subject)
    bare = _strip_determiner(norm)
    forms = (norm,) if bare == norm else (norm, bare)
    head = _PREPOSITION.split(bare, maxsplit=1)[0]
    # "Postgres on db-01" is also about "postgres"; the full phrase stays first.
    return forms if head == bare or not head else (*forms, head)


@functools.lru_cache(maxsize=8192)
def claim_forms(subject: str, obj: str | None) -> tuple[str, ...]:
    forms = subject_forms(subject)
    if obj:
        # "X doesn't support Y": a fact about "x y" or "y" is more specific than one
        # about "x", so those forms go first.
        obj_forms = subject_forms(obj)
        forms = (*(f"{s} {obj_forms[-1]}" for s in forms), *obj_forms, *forms)
    return tuple(dict.fromkeys(f for f in forms if f))


@functools.lru_cache(maxsize=4096)
def norm_word(word: str) -> str:
    return "_".join(word.strip().lower().replace("'", "").replace("\u2019", "").split()).replace(
        "-", "_"
    )


_NEGATION_PREFIXES: Final = (
    "not_",
    "no_",
    "non_",
    "isnt_",
    "is_not_",
    "doesnt_",
    "does_not_",
    "dont_",
    "do_not_",
    "cannot_",
    "cant_",
    "never_",
)


def split_negation(word: str) -> tuple[str, bool]:
    for prefix in _NEGATION_PREFIXES:
        if word.startswith(prefix) and len(word) > len(prefix):
            return word[len(prefix) :], True
    return word, False


# State words canonicalised to (base, polarity): "stopped" and "running" speak to the
# same question, "installed" and "running" do not.
_STATE_WORDS: Final[dict[str, tuple[str, bool]]] = {
    **dict.fromkeys(("running", "active", "up", "online", "started", "live"), ("running", True)),
    **dict.fromkeys(
        ("stopped", "down", "offline", "inactive", "dead", "halted"), ("running", False)
    ),
    **dict.fromkeys(("installed", "present", "available", "found"), ("installed", True)),
    **dict.fromkeys(
        ("uninstalled", "missing", "absent", "not_found", "unavailable"), ("installed", False)
    ),
    "enabled": ("enabled", True),
    "disabled": ("enabled", False),
    "configured": ("configured", True),
    "unconfigured": ("configured", False),
    "loaded": ("loaded", True),
    "unloaded": ("loaded", False),
}

# Words that *are* a negation ("I couldn't find docker" -> not_found, negative=True):
# the claim's negative flag describes them and must not flip them back.
_SELF_NEGATING: Final = frozenset({"not_found", "missing", "absent", "nonexistent", "gone"})


@functools.lru_cache(maxsize=4096)
def canonical_state(word: str, negative: bool) -> tuple[str, bool]:
    word = norm_word(word)
    if word in _STATE_WORDS:
        base, polarity = _STATE_WORDS[word]
        if negative and word not in _SELF_NEGATING:
            polarity = not polarity
        return base, polarity
    rest, prefixed = split_negation(word)
    base, polarity = _STATE_WORDS.get(rest, (rest, True))
    # The "not_" prefix and the negative flag usually report the same "not": flip once.
    return base, polarity != (prefixed or negative)


STATUS_WORDS: Final[dict[str, str]] = {
    **dict.fromkeys(
        (
            "broken",
            "down",
            "crashed",
            "dead",
            "offline",
            "unreachable",
            "failed",
            "errored",
            "timed_out",
            "outage",
        ),
        "down",
    ),
    **dict.fromkeys(("failing", "unresponsive", "degraded", "slow", "flaky"), "degraded"),
    **dict.fromkeys(
        ("up", "healthy", "operational", "working", "green", "fine", "running", "ok", "online"),
        "operational",
    ),
}
_STATUS_FLIP: Final = {"operational": "down", "down": "operational"}


@functools.lru_cache(maxsize=4096)
def canonical_status(word: str, negative: bool) -> str | None:
    word = norm_word(word)
    status = STATUS_WORDS.get(word)
    prefixed = False
    if status is None:
        rest, prefixed = split_negation(word)
        status = STATUS_WORDS.get(rest)
    if status is None:
        return None
    if prefixed or negative:
        return _STATUS_FLIP.get(status)  # "not degraded" says nothing definite
    return status


# Internal fixed patterns use the stdlib engine; only user patterns need RE2.
_NUMBER_RE: Final = re.compile(
    r"(?P<sign>[-+]?)(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)\s*(?P<unit>.*)"
)
_UNIT_RE: Final = re.compile(r"%|[^\W\d_][^\W\d]*(?:[ /][^\W\d_][^\W\d]*){0,2}")
_SCALES: Final = {
    "k": 10**3,
    "thousand": 10**3,
    "mn": 10**6,
    "mln": 10**6,
    "million": 10**6,
    "bn": 10**9,
    "billion": 10**9,
    "trillion": 10**12,
}
# "2.4M" is millions after a currency sign; otherwise it may be metres or minutes.
_MONEY_SCALES: Final = {"m": 10**6, "mm": 10**6, "b": 10**9}
_CURRENCY: Final = "$€£¥"


@functools.lru_cache(maxsize=8192)
def norm_value(text: str) -> str:
    value = normalise_subject(text)
    if len(value) > 1 and value[0] == "v" and value[1].isdigit():
        value = value[1:]  # "v1.24" is the version 1.24
    return value


@functools.lru_cache(maxsize=8192)
def parse_number(text: str) -> tuple[Decimal, str] | None:
    """``"255,908 events"`` -> ``(Decimal(255908), "event")``; ``None`` if not a number.

    Decimals keep the comparison exact: "999,999,999" must not equal "1,000,000,000".
    """
    value = norm_value(text)
    bare = value.lstrip(_CURRENCY).strip()
    match = _NUMBER_RE.fullmatch(bare)
    if match is None:
        return None
    number = Decimal(match["num"].replace(",", ""))
    if match["sign"] == "-":
        number = -number
    unit = match["unit"].strip()
    if unit and not _UNIT_RE.fullmatch(unit):
        return None
    first, _, rest = unit.partition(" ")
    scale = _SCALES.get(first) or (_MONEY_SCALES.get(first) if bare != value else None)
    if scale is not None:
        number *= scale
        unit = rest.strip()
    elif first in _MONEY_SCALES:
        return None  # ambiguous: do not guess a magnitude
    if unit == "percent":
        unit = "%"
    elif len(unit) > 2 and unit.endswith("s"):
        unit = unit[:-1]
    return number, unit
