"""Content words for subject overlap: is this receipt about the same thing as the claim?

Tokens are lowercase letter-led runs (``contract_value_usd`` gives ``contract``,
``value``, ``usd``), minus stopwords and very common verbs, lightly stemmed so
"signed" meets "sign" and "revenues" meets "revenue".
"""

from __future__ import annotations

import functools
import re
from functools import lru_cache

_TOKEN = re.compile(r"[a-z][a-z0-9]*")

STOPWORDS = frozenset(
    """
        a an the and or but if then else of to in on at by for with from into onto over under about
        as than that this these those there here it its it's is are was were be been being am do
        does did done doing have has had having will would shall should can could may might must i
        me my we us our you your he she him her his they them their what which who whom whose when
        where why how all any both each few more most other some such no nor not only own same so
        too very just also now up down out off again further once per via vs etc new total value
        number amount rate level count data info item items thing things one get got gets make made
        makes come came comes go went goes goes show shows showed shown stand stands stood say says
        said see saw seen take took taken give gave given put let set sets keep kept reach reached
        reaches hit hits around approximately roughly about nearly almost exactly over under least
        most since until while during after before year years month months day days week weeks
        quarter quarters today yesterday tomorrow last next ago within current currently still
        already yet ok yes ll ve re seem seems seemed appear appears appeared bring brings bringing
        brought two three four five six seven eight nine ten eleven twelve
        """.split()  # ll, ve, re: what is left of "you'll", "we've", "they're"
)

_IRREGULAR = {
    "grew": "grow",
    "grown": "grow",
    "growth": "grow",
    "growing": "grow",
    "sold": "sell",
    "paid": "pay",
    "signed": "sign",
    "renewal": "renew",
    "renews": "renew",
    "renewed": "renew",
    "renewing": "renew",
    "ran": "run",
    "running": "run",
    "began": "begin",
    "wrote": "write",
    "written": "write",
    "due": "due",
    "customers": "customer",
    "employees": "employee",
    "people": "person",
    "persons": "person",
    "staff": "employee",
    "terminated": "terminate",
    "termination": "terminate",
    "deployed": "deploy",
    "deployment": "deploy",
    "releases": "release",
    "released": "release",
    "invoiced": "invoice",
    "invoices": "invoice",
    # a field's noun and a sentence's verb: "departure_time" and "departs"
    "departure": "depart",
    "departures": "depart",
    "arrival": "arrive",
    "arrivals": "arrive",
    # short verbs whose -ed and -ing forms the suffix rules leave apart: "can be used per
    # reservation" restates "can use at most one"
    "used": "use",
    "using": "use",
    "saved": "save",
    "saving": "save",
    "made": "make",
    "making": "make",
}


@lru_cache(maxsize=8192)
def stem(word: str) -> str:
    """A light stemmer: irregular forms, or one of -ing, -ed, -es, -s; then a final -e.

    The final "e" goes so that "merged" (-> "merg") meets "merge" (-> "merg").
    """
    w = _IRREGULAR.get(word)
    if w is None:
        w = _strip_suffix(word)
    if len(w) > 4 and w.endswith("e"):
        w = w[:-1]
    return w


def _strip_suffix(word: str) -> str:
    if len(word) > 6 and word.endswith("ings"):
        word = word[:-1]  # "bookings" as "booking"
    if len(word) > 5 and word.endswith("ing"):
        return _undouble(word[:-3])
    if len(word) > 4 and word.endswith("ied"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith("ed") and not word.endswith("eed"):
        return _undouble(word[:-2])
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def _undouble(w: str) -> str:
    """ "submitt" (of "submitted") as "submit", "splitt" as "split"; "call" and "pass"
    keep theirs."""
    if len(w) > 3 and w[-1] == w[-2] and w[-1] in "bdgmnprtz":
        return w[:-1]
    return w


#: Measurement nouns that say *what kind* of figure, not *whose*: "disk usage" and
#: "CPU usage" share "usage" but are about different things.
GENERIC = frozenset(
    stem(w)
    for w in [
        "usage",
        "use",
        "rate",
        "ratio",
        "share",
        "percent",
        "percentage",
        "pct",
        "level",
        "size",
        "volume",
        "load",
        "utilization",
        "util",
        "growth",
        "change",
        "status",
        "state",
        "time",
        "duration",
        "period",
        "metric",
        "metrics",
        "figure",
        "total",
        "value",
        "amount",
        "sum",
        "average",
        "avg",
        "mean",
        "median",
        "min",
        "max",
        "minimum",
        "maximum",
        "score",
        "result",
        "results",
    ]
)


#: Field names in tool output and what a sentence calls them ("valid until May 26"
#: is the certificate's notAfter; "released" is a release's publishedAt).
FIELD_SYNONYMS: dict[str, str] = {
    "notafter": "valid until expire expiry end",
    "notbefore": "valid issue issued renew renewed start",
    "publishedat": "publish release released",
    "mergedat": "merge merged",
    "createdat": "create created open opened",
    "closedat": "close closed",
    "opened": "report reported raise raised file filed log logged",
    "updatedat": "update updated change changed",
    "expires": "expire expiry valid until",
    "enddate": "end ends until",
    "startdate": "start starts begin",
    "started": "start begin began kick kicked",
    "price": "cost costs priced fare fares",
    "amount": "paid pay charged charge balance",
    "balance": "remaining left",
    "created at": "booked book placed",
    "departure": "leave leaves leaving",
    "arrival": "land lands landing",
    "estimated": "eta expected",
    "maximum": "max peak peaked highest",
    "minimum": "min lowest",
    "average": "avg mean",
}
_CAMEL = re.compile(r"([a-z])([A-Z])|([A-Z])([A-Z][a-z])")


def content_words(text: str) -> frozenset[str]:
    """Stemmed content words of ``text`` (a short text's are remembered: the same
    phrases and field names are asked about for every sentence and figure)."""
    if len(text) <= 120:
        return _short_words(text)
    return _content_words(text)


@functools.lru_cache(maxsize=16384)
def _short_words(text: str) -> frozenset[str]:
    return _content_words(text)


def _content_words(text: str) -> frozenset[str]:
    """Stemmed content words of ``text``.

    camelCase is split ("mergedAt" gives "merged"), and a few field names of tool
    output add the words a sentence would use for them (``FIELD_SYNONYMS``).
    """
    low = text.lower()
    # each distinct token once (a tool's output repeats its field names and values)
    words = {stem(t) for t in set(_TOKEN.findall(low)) - STOPWORDS if len(t) > 1}
    if text != low and _CAMEL.search(text):
        split = _CAMEL.sub(lambda m: f"{m.group(1) or m.group(3)} {m.group(2) or m.group(4)}", text)
        split = split.lower()
        words.update(stem(t) for t in set(_TOKEN.findall(split)) - STOPWORDS if len(t) > 1)
    for field, extra in _FIELD_STEMS:
        if field in low:
            words.update(extra)
    return frozenset(words)


_FIELD_STEMS: tuple[tuple[str, frozenset[str]], ...] = tuple(
    (field, frozenset(stem(w) for w in extra.split())) for field, extra in FIELD_SYNONYMS.items()
)


@functools.lru_cache(maxsize=4096)
def word_pattern(text: str) -> re.Pattern[str]:
    """``text`` as a whole word (compiled once: per-value patterns would thrash ``re``'s
    own cache of 512)."""
    return re.compile(rf"\b{re.escape(text)}\b")
