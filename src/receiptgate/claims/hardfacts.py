"""Hard-fact extraction: the checkable values inside a sentence.

``extract_hard_facts`` finds every number, amount, percentage, count, date,
time, duration, version and identifier in a span and normalises each one to a
comparable ``value`` key, so that equal values written differently give equal
keys ("2.4 million USD", "$2,400,000" and "USD 2.4M" all give ``"USD 2400000"``).
Whether a receipt concerns the same subject as a claim is decided elsewhere
(``receiptgate.checks.figures``).

Value keys (``number`` is set for money, percent, count, duration and number;
``unit`` is the currency, ``%``/``pp``, the count noun, the duration unit, the
date granularity or the identifier type):

* money ``"USD 2400000"``; percent ``"37%"``, percentage points ``"5pp"``;
  count ``"255908 event"``; number ``"2.4"``. Numbers print without ``.0`` and
  with at most 6 decimals. A count is a number followed by a unit word that is
  not a stopword, date word or past participle ("3 were skipped", "3 failed"
  are numbers); the word is lowercased and singularised, and a modifier joins
  the next noun ("3 failing tests" -> ``"3 failing test"``). Glued letters are
  units ("16GB" -> ``"16 gb"``); ordinals are numbers ("3rd" -> ``"3"``).
* version ``"1.2.3-rc.1"`` (leading ``v`` dropped). Only ``v``-prefixed,
  ``version``-prefixed or 3+-part dotted numbers are versions; ``2.4`` alone is
  a number.
* date: a day ``"2026-03-03"``, an ISO week ``"2026-W10"``, a month
  ``"2026-03"``, a quarter ``"2026-Q2"``, a year ``"2026"``. A day without a
  year ("March 6", "6 March") is its occurrence nearest to ``now``, so
  "January 2" said on December 30 is next year's. ``03/04/2026`` is US
  month/day unless the first field is over 12. A 4-digit year alone is a date
  after a preposition ("in 2025", "since 1999") or before a singular noun
  ("the 2024 report"). Date-shaped but invalid text ("2026-02-30", "25:00")
  gives nothing rather than stray numbers.
* relative dates resolve against ``now`` (``datetime.now(UTC)`` when
  None; an aware ``now`` is used in its own zone). "last Friday" is the most
  recent Friday strictly before today, "next Monday" the first Monday strictly
  after today, "this Friday" the Friday of the current ISO week (Mon-Sun);
  "last/this/next week|month|quarter|year" give a week/month/quarter/year key;
  "N days|weeks|months|years ago", "N ... from now" and "in N ..." shift by N
  and keep the unit's granularity ("in 2 weeks" is a week key). With
  hours/minutes/seconds, or a fractional N, they stay durations.
* time ``"14:05"`` (seconds kept only when non-zero), ``"14:05Z"`` when a zone
  is given; any offset or known zone abbreviation is converted to UTC. ISO
  datetimes give ``"2026-03-03T14:05:00Z"`` (UTC when zoned, naive otherwise).
* duration ``"P30D"``, ``"PT2H"``, ``"PT90M"``, ``"P6M"``, ``"P1.5Y"``; the
  written unit is kept ("90 minutes" is not "1.5 hours") except for the exact
  conversions weeks to days ("2 weeks" is ``"P14D"``) and milliseconds to
  seconds (``"PT0.2S"``). ``number`` and ``unit`` stay as written.
* identifier: URLs (trailing punctuation and slash stripped from the value),
  e-mails, IPv4 (optional port/CIDR), host:port, dotted host and file names,
  paths with an extension ("main.py:42" drops the line), ``JIRA-123``-style
  names, ``prod-01``-style names (a letter, a digit and a dash or dot), commit
  SHAs (7-40 hex with a digit and a letter). ``#4521`` and ``PR #12`` both give
  ``"#N"`` (the word is the unit). ``value`` is the lowercase text.
  Abbreviations ("e.g.", "U.S.A.") and "Word.Word" prose are not identifiers.

Multipliers ``k``/``m``/``mm``/``b``/``bn`` and "thousand"/"million"/
"billion"/"trillion" always scale (``5m`` is five million, never five
minutes: minutes need "min"). "dollars" means USD and ``¥`` means JPY; "pounds"
is money only as "pounds sterling". Spelled numbers (one..nineteen,
twenty..ninety, compounds, "hundred"/"thousand") are read only before a
duration unit or "percent", or beside a parenthesised numeral ("thirty (30)
days" is one duration; the numeral wins if they disagree). A bare spelled
number is not a fact ("no one", "one of them").

Overlaps: one pass left to right where the longest, most specific form at a
position wins and consumes its text, so a money amount is not also a number
and the digits of dates, versions and identifiers are not numbers. Only
``text[start:end]`` is read: a word before ``start`` never changes a fact.

Speed: the scan jumps between trigger characters (digits, currency symbols,
``#``, a ``.`` before a letter) with one precompiled character-class search
and a handful of ``str.find`` calls for date words, then runs anchored
patterns at each trigger; units are classified with set lookups, not regex
alternatives. Every pattern that can run far either consumes what it scanned
or is possessive, so adversarial input (100k digits, commas, dots) is linear.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_right
from datetime import UTC, date, datetime, timedelta
from typing import Final

from receiptgate.claims.models import HardFact, HardFactKind

__all__ = ["extract_hard_facts", "normalise_number"]

# (start, end, kind, value, number, unit), offsets local to the scanned segment.
_Cand = tuple[int, int, HardFactKind, str, float | None, str | None]

# ---------------------------------------------------------------------------
# Vocabulary
# ---------------------------------------------------------------------------


def _words(spaced: str) -> frozenset[str]:
    return frozenset(spaced.split())


_MONTHS: Final[dict[str, int]] = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3,
    "april": 4, "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7,
    "august": 8, "aug": 8, "september": 9, "sep": 9, "sept": 9, "october": 10,
    "oct": 10, "november": 11, "nov": 11, "december": 12, "dec": 12,
}  # fmt: skip
_WEEKDAYS: Final[dict[str, int]] = {
    "monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
    "saturday": 5, "sunday": 6,
}  # fmt: skip
_SPELLED_UNITS: Final[dict[str, int]] = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19,
}  # fmt: skip
_SPELLED_TENS: Final[dict[str, int]] = {
    "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
    "seventy": 70, "eighty": 80, "ninety": 90,
}  # fmt: skip
_MULT_EXP: Final[dict[str, int]] = {
    "hundred": 2, "thousand": 3, "k": 3, "million": 6, "mln": 6, "mn": 6, "mm": 6,
    "m": 6, "billion": 9, "bn": 9, "b": 9, "trillion": 12, "tn": 12,
}  # fmt: skip
_SYMBOL_CUR: Final[dict[str, str]] = {
    "$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY", "₹": "INR", "₩": "KRW",
    "₽": "RUB", "₺": "TRY", "₪": "ILS",
}  # fmt: skip
# Letters glued before "$": "US$5", "A$5", "C$5".
_DOLLAR_PREFIX: Final[dict[str, str]] = {
    "us": "USD", "a": "AUD", "au": "AUD", "c": "CAD", "ca": "CAD", "nz": "NZD",
    "hk": "HKD", "s": "SGD", "r": "BRL", "nt": "TWD", "mx": "MXN",
}  # fmt: skip
_CUR_CODES: Final[frozenset[str]] = _words(
    "usd eur gbp jpy inr chf cad aud cny rmb sek nok dkk sgd hkd nzd brl mxn krw zar pln"
)
_CUR_WORDS: Final[dict[str, str]] = {
    "dollar": "USD", "dollars": "USD", "euro": "EUR", "euros": "EUR", "yen": "JPY",
    "rupee": "INR", "rupees": "INR", "franc": "CHF", "francs": "CHF", "yuan": "CNY",
    "sterling": "GBP", "rmb": "CNY",
}  # fmt: skip
_DUR_UNITS: Final[dict[str, tuple[str, str]]] = {
    # word -> (ISO designator, canonical unit)
    "ms": ("MS", "millisecond"), "millisecond": ("MS", "millisecond"),
    "milliseconds": ("MS", "millisecond"), "s": ("S", "second"),
    "sec": ("S", "second"), "secs": ("S", "second"), "second": ("S", "second"),
    "seconds": ("S", "second"), "min": ("TM", "minute"), "mins": ("TM", "minute"),
    "minute": ("TM", "minute"), "minutes": ("TM", "minute"), "h": ("H", "hour"),
    "hr": ("H", "hour"), "hrs": ("H", "hour"), "hour": ("H", "hour"),
    "hours": ("H", "hour"), "d": ("D", "day"), "day": ("D", "day"),
    "days": ("D", "day"), "w": ("W", "week"), "wk": ("W", "week"),
    "wks": ("W", "week"), "week": ("W", "week"), "weeks": ("W", "week"),
    "mo": ("M", "month"), "mos": ("M", "month"), "month": ("M", "month"),
    "months": ("M", "month"), "y": ("Y", "year"), "yr": ("Y", "year"),
    "yrs": ("Y", "year"), "year": ("Y", "year"), "years": ("Y", "year"),
}  # fmt: skip
# Zone abbreviations with a fixed offset in minutes (ambiguous ones like IST left out).
_TZ_OFFSETS: Final[dict[str, int]] = {
    "z": 0, "utc": 0, "gmt": 0, "pst": -480, "pdt": -420, "mst": -420, "mdt": -360,
    "cst": -360, "cdt": -300, "est": -300, "edt": -240, "cet": 60, "cest": 120,
    "bst": 60, "eet": 120, "eest": 180, "jst": 540, "aest": 600,
}  # fmt: skip

_STOPWORDS: Final[frozenset[str]] = _words(
    """a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing done down during each
    either else ever every few for from further had has have having he her here hers him his
    how however i if in into is it its itself just let me more most much must my neither no
    nor not now of off on once only or other our ours out over own per same shall she should
    so some such than that the their theirs them then there these they this those through
    thus to too under until up upon us very via was we were what when where which while who
    whom whose why will with within without would yet you your yours
    s t m d ll re ve don doesn didn isn aren wasn weren won wouldn couldn shouldn hasn haven
    hadn can't cannot ok okay yes one"""
)
# Words after a number that are not its unit: "37 of them", "3 may fail", "2 last week".
_NOT_UNIT: Final[frozenset[str]] = (
    _STOPWORDS
    | frozenset(_MONTHS)
    | frozenset(_WEEKDAYS)
    | _words("ago am pm utc gmt percent pct cent last next this version today yesterday tomorrow")
    | _words("more less fewer")
)
# Modifiers that form a two-word unit with the next noun: "3 failing tests".
_MODIFIERS: Final[frozenset[str]] = _words(
    """new old active open closed failing passing failed passed running stopped pending
    unique distinct total additional critical major minor high low medium unread"""
)
_YEAR_PREPS: Final[frozenset[str]] = _words(
    "in since by during until till through before after early mid late circa around"
)
_YEAR_PREPS_WEAK: Final[frozenset[str]] = _words("of from to year fy")
_VERSION_WORDS: Final[frozenset[str]] = frozenset(("version", "ver", "release", "v"))
_REF_WORDS: Final[frozenset[str]] = _words("pr issue ticket bug mr request case incident")
_FILE_EXTS: Final[frozenset[str]] = _words(
    """py pyi js mjs cjs ts tsx jsx json jsonl yaml yml toml md rst txt csv tsv log sh bash
    zsh cfg ini conf env xml html htm css scss go rs java kt c h cc cpp hpp cs rb php sql
    lock tf ipynb pdf png jpg jpeg gif svg zip gz tgz tar whl parquet db sqlite proto"""
)

# Every character that can belong to an identifier-like token.
_TOKCH: Final[frozenset[str]] = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_-./\\:@~+%")
_SEPS: Final[frozenset[str]] = frozenset("-./\\:_@~+%")
# Stripped from the end of a token: sentence punctuation, not part of the name.
_TRAILING: Final = ".,:;-/\\+%@~"
_URL_SCHEMES: Final[tuple[str, ...]] = (
    "http://", "https://", "ftp://", "ws://", "wss://", "file://", "ssh://", "git://",
)  # fmt: skip

# Keys searched with str.find to locate word-based dates and spelled durations.
_KEYWORDS: Final[tuple[str, ...]] = (
    "day", "week", "month", "quarter", "year", "tomorrow", "hour", "minute", "percent",
)  # fmt: skip

# ---------------------------------------------------------------------------
# Patterns (all run on lowercased text)
# ---------------------------------------------------------------------------

_NUM: Final = r"(?:[0-9]{1,3}(?:,[0-9]{3})++|[0-9]++)(?:\.[0-9]++)?"
_MONTH_ALT: Final = "|".join(sorted(_MONTHS, key=len, reverse=True))
_TZ: Final = (
    r"(?:\s*(?:utc|gmt)\s*[+-][0-9]{1,2}(?::?[0-9]{2})?(?![0-9])"
    r"|\s*\+[0-9]{2}:?[0-9]{2}(?![0-9])"
    r"|\s*(?:z|utc|gmt)(?![a-z])"
    r"|\s+(?:" + "|".join(k for k in _TZ_OFFSETS if len(k) > 1) + r")(?![a-z]))"
)
_CUR_ALT: Final = (
    r"us\s+dollars?|dollars?|euros?|yen|rupees?|swiss\s+francs?|francs?|yuan"
    r"|pounds?\s+sterling|sterling|" + "|".join(sorted(_CUR_CODES))
)
_SYMBOLS: Final = "".join(_SYMBOL_CUR)

# Where a fact can start: digits, currency symbols, '#', and a '.' followed by a
# letter (".env", "api.example.com"). The whole pattern is one character class
# so the regex engine scans for it at C speed; the lookbehind drops sentence dots.
_TRIGGER: Final = re.compile("[0-9#." + re.escape(_SYMBOLS) + r"](?<!\.(?![a-z]))")

# Fixed forms that start at a digit, a currency symbol or '#', most specific first.
_FIXED: Final = (
    r"(?P<dt>(?P<dty>[0-9]{4})-(?P<dtm>[0-9]{2})-(?P<dtd>[0-9]{2})[t\s]"
    r"(?P<dth>[0-9]{2}):(?P<dtmi>[0-9]{2})(?::(?P<dts>[0-9]{2})(?:[.,](?P<dtf>[0-9]{1,9}))?)?"
    r"(?P<dtz>z|\s*(?:utc|gmt)(?![a-z])|[+-][0-9]{2}:?[0-9]{2}(?![0-9]))?)"
    r"|(?P<ymd>(?P<y1>[0-9]{4})(?P<s1>[-/])(?P<m1>[0-9]{1,2})(?P=s1)(?P<d1>[0-9]{1,2})(?![0-9]))"
    r"|(?P<mdy>(?P<m2>[0-9]{1,2})/(?P<d2>[0-9]{1,2})/(?P<y2>[0-9]{4})(?![0-9]))"
    r"|(?P<yw>(?P<y3>[0-9]{4})-?w(?P<w3>[0-9]{2})(?![0-9a-z]))"
    r"|(?P<yq>(?P<y4>[0-9]{4})[-\s]?q(?P<q4>[1-4])(?![0-9a-z]))"
    r"|(?P<ym>(?P<y5>[0-9]{4})-(?P<m5>[0-9]{2})(?![0-9a-z]|-[0-9]))"
    r"|(?P<dmy>(?P<d6>[0-9]{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mo6>" + _MONTH_ALT + r")"
    r"(?![a-z])\.?(?:,?\s+(?P<y6>[0-9]{4})(?![0-9]))?)"
    r"|(?P<ip>[0-9]{1,3}(?:\.[0-9]{1,3}){3}(?::[0-9]{1,5})?(?:/[0-9]{1,2})?(?![0-9]|\.[0-9]))"
    r"|(?P<ver>[0-9]++(?:\.[0-9]++){2,}+(?:-[0-9a-z]++(?:\.[0-9a-z]++)*+)?"
    r"(?:\+[0-9a-z]++(?:\.[0-9a-z]++)*+)?)"
    r"|(?P<tm>(?P<th>[0-9]{1,2}):(?P<tmi>[0-9]{2})(?::(?P<ts>[0-9]{2}))?(?![0-9])"
    r"(?:\s*(?P<tap>[ap])\.?m(?![a-z])\.?)?(?P<tz>" + _TZ + r")?)"
    r"|(?P<tap2>(?P<th2>[0-9]{1,2})\s*(?P<ap2>[ap])\.?m(?![a-z])\.?(?P<tz2>" + _TZ + r")?)"
)
# Forms that start at a currency symbol or '#'.
_SYMBOLIC: Final = re.compile(
    r"(?P<sym>(?P<sy>[" + re.escape(_SYMBOLS) + r"])\s?(?P<sn>" + _NUM + r")"
    r"(?:\s*(?P<smw>thousand|million|mln|billion|trillion)(?![a-z])"
    r"|(?P<sma>k|mm|mn|m|bn|b)(?![a-z0-9]))?"
    r"(?:\s*(?:" + _CUR_ALT + r")(?![a-z]))?)"
    r"|(?P<hash>\#(?P<hn>[0-9]++)(?![a-z0-9_]))"
)

# A number, an optional closing parenthesis ("thirty (30) days"), then up to two
# words or symbols. Units are classified in Python with set lookups: one generic
# word capture is much cheaper for the regex engine than dozens of alternatives.
_NP: Final = (
    r"(?P<n>" + _NUM + r")(?P<cp>\s*\))?(?P<sp>\s*-\s*|\s*)"
    r"(?:(?P<sy>[%" + re.escape(_SYMBOLS) + r"])|(?P<w>[a-z]++))?"
    r"(?:(?P<sp2>\s*)(?P<w2>[a-z]++|[%" + re.escape(_SYMBOLS) + r"]))?"
)
# Fixed forms need a separator or a letter after the first digit run; checking
# that first lets plain numbers ("255,908", "37%") skip every fixed branch.
_MASTER: Final = re.compile(r"(?:(?=[0-9]*+(?:[-/:.]|\s*[a-z]))(?:" + _FIXED + r"))|" + _NP)
_NUMPHRASE: Final = re.compile(_NP)
_NEXT_WORD: Final = re.compile(r"\s*([a-z]++)")
# Fixed forms whose shape alone rules out reading them as plain numbers.
_SHAPED: Final[frozenset[str]] = frozenset(("dt", "ymd", "mdy", "ym", "yw", "tm"))
_MONTH_FIRST: Final = re.compile(
    r"(?P<mo>" + _MONTH_ALT + r")\.?\s+(?:(?P<d>[0-9]{1,2})(?:st|nd|rd|th)?(?![0-9a-z])"
    r"(?:,?\s+(?P<y>[0-9]{4})(?![0-9]))?|(?P<yo>[0-9]{4})(?![0-9]))"
)
_QUARTER_YEAR: Final = re.compile(r"\s+(?:of\s+)?(?:fy\s*)?(?P<y>[0-9]{4})(?![0-9])")
_TOKEN_FWD: Final = re.compile(r"[a-z0-9_\-./\\:@~+%]*+")
_URL_FWD: Final = re.compile(r"[^\s<>\"'`{}|\\^\[\]]*+")
_EMAIL: Final = re.compile(r"[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}")
_VER_V: Final = re.compile(
    r"v[0-9]+(?:\.[0-9]+)*(?:-[0-9a-z]+(?:\.[0-9a-z]+)*)?(?:\+[0-9a-z]+(?:\.[0-9a-z]+)*)?"
)
_SHA: Final = re.compile(r"[0-9a-f]{7,40}")
_HOST: Final = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9-]+)*\.[a-z]{2,}")
_HOSTPORT: Final = re.compile(r"[a-z0-9][a-z0-9.-]*:[0-9]{2,5}")
_PATH_EXT: Final = re.compile(r"[^/\\.]\.[a-z0-9]*[a-z][a-z0-9]*\Z")
_PATH_LINE: Final = re.compile(r"(?<=[a-z0-9]):[0-9]+(?::[0-9]+)?\Z")
_DOTFILE: Final = re.compile(r"\.[a-z0-9_-]+")
_NAMEY: Final = re.compile(r"[a-z0-9_]+(?:[-.@][a-z0-9_]+)+")
_TICKET: Final = re.compile(r"[a-z][a-z0-9]{1,9}-[0-9]+")
_YEAR_TOKEN: Final = re.compile(r"(?:mid|early|late|pre|post|end|start)-(?P<y>(?:19|20)[0-9]{2})")
_SPELLED_WORD: Final = re.compile(
    r"(?:(?P<tens>"
    + "|".join(_SPELLED_TENS)
    + r")(?:[\s-](?P<tu>"
    + "|".join(list(_SPELLED_UNITS)[1:10])
    + r"))?|(?P<u>"
    + "|".join(sorted(_SPELLED_UNITS, key=len, reverse=True))
    + r"))(?:\s+(?P<sm>hundred|thousand|million|billion)(?![a-z]))?\Z"
)
_NORMALISE: Final = re.compile(
    r"\s*(?P<sign>[-+−]?)\s*(?P<n>" + _NUM + r")\s*"
    r"(?P<mult>thousand|million|mln|billion|trillion|k|mm|mn|m|bn|b)?\s*\Z"
)
_WORD: Final = re.compile(r"[^\W\d_]+")
_NON_LETTERS: Final = str.maketrans(
    {chr(i): " " for i in range(128) if not ("a" <= chr(i) <= "z" or "A" <= chr(i) <= "Z")}
)
# Two or more capitalised words separated by single spaces: "Acme Corp".
# It starts with the capital (then checks the character before it) so the regex
# engine can skip to capitals at C speed.
_NAME_RUN: Final = re.compile(r"[A-ZÀ-ÖØ-Þ](?<![^\W_].)[^\W_]*(?: [A-ZÀ-ÖØ-Þ][^\W_]*)+")
_HAS_ALPHA: Final = re.compile(r"[a-z]").search
_HAS_DIGIT: Final = re.compile(r"[0-9]").search


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------


def _fmt(x: float) -> str:
    """Format a number as a key: no trailing ``.0``, at most 6 decimals."""
    if x.is_integer() and abs(x) < 1e16:
        return str(int(x))
    s = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if s in ("", "-0") else s


def _key(num: str, exp: int, x: float) -> str:
    """The key of a matched numeral scaled by ``10**exp``, with the sign of ``x``.

    Up to 15 digits a float is exact, so ``_fmt`` is used. Longer numerals (IDs,
    account numbers) are formatted from their digits, so two that differ only
    past float precision never share a key.
    """
    plain = num.replace(",", "")
    whole, _, frac = plain.partition(".")
    digits = whole + frac
    if len(digits) <= 15:
        return _fmt(x)
    point = len(whole) + exp
    if point >= len(digits):
        ip, fp = digits + "0" * (point - len(digits)), ""
    elif point <= 0:
        ip, fp = "0", "0" * -point + digits
    else:
        ip, fp = digits[:point], digits[point:]
    fp = fp[:6].rstrip("0")
    out = (ip.lstrip("0") or "0") + ("." + fp if fp else "")
    return "-" + out if x < 0 and out != "0" else out


def _to_float(num: str, exp: int = 0) -> float | None:
    """Parse a matched numeral exactly: ``"2.4"`` with ``exp=6`` is 2400000.0."""
    whole, _, frac = num.replace(",", "").partition(".")
    # Scaling in the decimal string keeps "2.4 million" exact (no 2399999.9999).
    x = float(f"{whole}{frac}e{exp - len(frac)}")
    return x if math.isfinite(x) else None


def _singular(word: str) -> str:
    """Light singularisation: events->event, queries->query, processes->process."""
    n = len(word)
    if n > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if n > 3 and word[-1] == "s" and not word.endswith(("ss", "us", "is")):
        if word.endswith(("sses", "ches", "shes", "xes")):
            return word[:-2]
        return word[:-1]
    return word


def _prev_word(low: str, p: int, floor: int = 0) -> tuple[str, int]:
    """The word just before ``p`` (one or two spaces between), and its start.

    Returns ``("", p)`` when there is none or it starts before ``floor`` (the
    end of the previous fact, which must not be reused).
    """
    j = p - 1
    if j < 1 or low[j] != " ":
        return "", p
    if low[j - 1] == " ":
        j -= 1
    lo = j - 16 if j - 16 > floor else floor
    ws = low.rfind(" ", lo, j) + 1
    if ws == 0:
        if lo > 0:
            return "", p
        ws = lo
    if ws < floor:
        return "", p
    word = low[ws:j]
    if word.isalpha():
        return word, ws
    # "(usd 5" and "mar. 3": drop punctuation glued to the word's outer edges.
    inner = word.lstrip("([{\"'")
    return inner.rstrip(".,"), ws + len(word) - len(inner)


def _spelled_value(phrase: str) -> int | None:
    """Value of a spelled number phrase such as "twenty-five" or "three hundred"."""
    m = _SPELLED_WORD.match(phrase)
    if m is None:
        return None
    if m["u"] is not None:
        val = _SPELLED_UNITS[m["u"]]
    else:
        val = _SPELLED_TENS[m["tens"]] + (_SPELLED_UNITS[m["tu"]] if m["tu"] else 0)
    if m["sm"]:
        val *= 10 ** _MULT_EXP[m["sm"]]
    return val


def _spelled_before(low: str, p: int, floor: int = 0) -> tuple[int, int] | None:
    """A spelled number ending right before ``p`` (after one space): (start, value)."""
    w1, s1 = _prev_word(low, p, floor)
    if not w1:
        return None
    # Try the longest phrase first: "twenty five hundred", "twenty five", "five".
    w2, s2 = _prev_word(low, s1, floor)
    if w2:
        w3, s3 = _prev_word(low, s2, floor)
        if w3:
            v = _spelled_value(low[s3:p].rstrip())
            if v is not None:
                return s3, v
        v = _spelled_value(low[s2:p].rstrip())
        if v is not None:
            return s2, v
    v = _spelled_value(w1)
    return None if v is None else (s1, v)


def _ref_day(now: datetime | None) -> date:
    """The reference date for relative expressions (today in UTC when ``now`` is None)."""
    return (now if now is not None else datetime.now(UTC)).date()


def _nearest_day(ref: date, month: int, day: int) -> str | None:
    """A day given without a year ("March 6"): the occurrence nearest to ``ref``."""
    best: date | None = None
    for year in (ref.year - 1, ref.year, ref.year + 1):
        try:
            cand = date(year, month, day)
        except ValueError:
            continue  # Feb 29 outside a leap year, or day 31 in a short month
        if best is None or abs(cand - ref) < abs(best - ref):
            best = cand
    return None if best is None else best.isoformat()


def _add_months(d: date, months: int) -> tuple[int, int]:
    idx = d.year * 12 + d.month - 1 + months
    return idx // 12, idx % 12 + 1


def _week_key(d: date) -> str:
    y, w, _ = d.isocalendar()
    return f"{y}-W{w:02d}"


def _shift_key(ref: date, unit: str, n: int) -> str | None:
    """The date key ``n`` units from ``ref`` at that unit's granularity."""
    try:
        if unit == "day":
            return (ref + timedelta(days=n)).isoformat()
        if unit == "week":
            return _week_key(ref + timedelta(weeks=n))
        if unit == "month":
            y, m = _add_months(ref, n)
            return f"{y:04d}-{m:02d}"
        if unit == "quarter":
            qi = ref.year * 4 + (ref.month - 1) // 3 + n
            return f"{qi // 4:04d}-Q{qi % 4 + 1}"
        if unit == "year":
            return f"{ref.year + n:04d}"
    except (OverflowError, ValueError):
        return None
    return None


def _tz_minutes(tz: str) -> int | None:
    """Offset east of UTC in minutes for a matched zone suffix, or None."""
    tz = tz.strip()
    for prefix in ("utc", "gmt"):
        if tz.startswith(prefix) and len(tz) > 3:
            tz = tz[3:].strip()
            break
    if tz in _TZ_OFFSETS:
        return _TZ_OFFSETS[tz]
    if tz[:1] in "+-":
        sign = -1 if tz[0] == "-" else 1
        digits = tz[1:].replace(":", "")
        if not digits.isdigit():
            return None
        hh, mm = (digits[:-2], digits[-2:]) if len(digits) > 2 else (digits, "0")
        mins = int(hh) * 60 + int(mm)
        return sign * mins if mins <= 14 * 60 else None
    return None


def _time_value(h: int, mi: int, s: int, tz: str | None) -> str | None:
    if h > 23 or mi > 59 or s > 59:
        return None
    suffix = ""
    if tz:
        off = _tz_minutes(tz)
        if off is None:
            return None
        total = (h * 60 + mi - off) % (24 * 60)
        h, mi = divmod(total, 60)
        suffix = "Z"
    sec = f":{s:02d}" if s else ""
    return f"{h:02d}:{mi:02d}{sec}{suffix}"


# ---------------------------------------------------------------------------
# Token (identifier) path
# ---------------------------------------------------------------------------


def _tok_end(low: str, p: int) -> int:
    m = _TOKEN_FWD.match(low, p)
    return p if m is None else m.end()


def _classify_token(tok: str, orig: str) -> str | None:
    """Identifier type of a lowercase token, or None when it is not one."""
    if "://" in tok or tok.startswith("www."):
        return "url"
    if "@" in tok and _EMAIL.fullmatch(tok):
        return "email"
    if _HAS_ALPHA(tok) is None:
        return None
    has_digit = _HAS_DIGIT(tok) is not None
    if has_digit and _SHA.fullmatch(tok):
        return "sha"
    if "/" in tok or "\\" in tok:
        if _PATH_EXT.search(tok):
            return "path"
        head = re.split(r"[/\\]", tok, maxsplit=1)[0]
        return "url" if _HOST.fullmatch(head) or _HOSTPORT.fullmatch(head) else None
    if ":" in tok:
        return "host" if _HOSTPORT.fullmatch(tok) else None
    if tok[0] == ".":
        # A dotfile: ".env", ".gitignore".
        return "file" if len(tok) > 2 and _DOTFILE.fullmatch(tok) else None
    if "." in tok and _NAMEY.fullmatch(tok):
        labels = tok.split(".")
        last = labels[-1]
        # "e.g", "u.s.a": abbreviations, not names.
        if not all(len(x) == 1 for x in labels):
            if last in _FILE_EXTS:
                return "file"
            # "Mr.Smith", "done.Next": a capitalised word after the dot is prose.
            if (
                last.isalpha()
                and (len(last) >= 2 or len(labels[-2]) >= 2)
                and not orig[len(orig) - len(last)].isupper()
            ):
                return "host"
    if has_digit and ("-" in tok or "." in tok) and _NAMEY.fullmatch(tok):
        if _TICKET.fullmatch(tok) and orig.split("-", 1)[0].isupper():
            return "ticket"
        return "name"
    return None


def _token(seg: str, low: str, p: int, floor: int) -> tuple[_Cand | None, int] | None:
    """Handle a trigger inside an identifier-like token.

    Returns None when ``p`` does not sit inside a token (the caller reads a
    number there), else (candidate or None, resume offset).
    """
    s = p
    lim = max(floor, p - 256)
    while s > lim and low[s - 1] in _TOKCH:
        s -= 1
    if s == lim and s > floor:
        # Longer than any identifier we care about: skip the whole run.
        return None, max(_tok_end(low, p), p + 1)
    if s == floor and s > 0 and low[s - 1].isalnum():
        # Glued to the previous fact ("10-20", "1/2"): separators start nothing.
        while s < p and low[s] in _SEPS:
            s += 1
    else:
        while s < p and low[s] in _SEPS and low[s] not in "./~\\":
            s += 1
    if s == p and low[p] != ".":
        return None
    if "://" in low[s : p + 3] or low.startswith(_URL_SCHEMES, s):
        i = low.find("://", s)
        k = i
        while k > s and low[k - 1].isalpha():
            k -= 1
        s = k
        m = _URL_FWD.match(low, s)
        e = s if m is None else m.end()
        while e > s and low[e - 1] in ".,;:!?'\"":
            e -= 1
        if e > s and low[e - 1] == ")" and low.count("(", s, e) < low.count(")", s, e):
            e -= 1
        return (s, e, "identifier", low[s:e].rstrip("/"), None, "url"), max(e, p + 1)
    end_all = _tok_end(low, p)
    e = end_all
    while e > s and low[e - 1] in _TRAILING:
        e -= 1
    tok = low[s:e]
    if not tok:
        return None, max(end_all, p + 1)
    if tok[0] == "v" and len(tok) > 1 and _VER_V.fullmatch(tok):
        return (s, e, "version", tok[1:], None, None), end_all
    if len(tok) == 2 and tok[0] == "q" and tok[1] in "1234":
        m = _QUARTER_YEAR.match(low, e)
        if m is None:
            return None, end_all
        return (s, m.end(), "date", f"{m['y']}-Q{tok[1]}", None, "quarter"), m.end()
    ym = _YEAR_TOKEN.fullmatch(tok)
    if ym is not None:
        return (s + ym.start("y"), e, "date", ym["y"], None, "year"), end_all
    kind = _classify_token(tok, seg[s:e])
    if kind is None:
        pl = _PATH_LINE.search(tok)
        if pl is not None:
            # "src/app/main.py:42": the file is the identifier, the line is dropped.
            e = s + pl.start()
            tok = tok[: pl.start()]
            kind = _classify_token(tok, seg[s:e])
    if kind is None:
        return None, max(end_all, p + 1)
    return (s, e, "identifier", tok, None, kind), end_all


# ---------------------------------------------------------------------------
# Digit path
# ---------------------------------------------------------------------------


def _date_cand(s: int, e: int, y: int, m: int, d: int) -> _Cand | None:
    try:
        return (s, e, "date", date(y, m, d).isoformat(), None, "day")
    except ValueError:
        return None


def _master(seg: str, low: str, m: re.Match[str], floor: int, now: datetime | None) -> _Cand | None:
    """Turn a match of ``_MASTER`` into a candidate (None: read a number instead)."""
    g = m.lastgroup
    s, e = m.span()
    if g == "ymd":
        return _date_cand(s, e, int(m["y1"]), int(m["m1"]), int(m["d1"]))
    if g == "sym":
        cur = _SYMBOL_CUR[m["sy"]]
        mult = m["smw"] or m["sma"]
        exp = _MULT_EXP[mult] if mult else 0
        x = _to_float(m["sn"], exp)
        if x is None:
            return None
        return (s, e, "money", f"{cur} {_key(m['sn'], exp, x)}", x, cur)
    if g == "tm" or g == "tap2":
        if g == "tm":
            h, mi, sec, ap, tz = int(m["th"]), int(m["tmi"]), int(m["ts"] or 0), m["tap"], m["tz"]
        else:
            h, mi, sec, ap, tz = int(m["th2"]), 0, 0, m["ap2"], m["tz2"]
        if ap:
            if not 1 <= h <= 12:
                return None
            h = h % 12 + (12 if ap == "p" else 0)
        value = _time_value(h, mi, sec, tz)
        return None if value is None else (s, e, "time", value, None, None)
    if g == "mdy":
        mo, d = int(m["m2"]), int(m["d2"])
        if mo > 12 >= d:
            mo, d = d, mo  # clearly day/month
        return _date_cand(s, e, int(m["y2"]), mo, d)
    if g == "dt":
        try:
            dt = datetime(
                int(m["dty"]), int(m["dtm"]), int(m["dtd"]), int(m["dth"]), int(m["dtmi"]),
                int(m["dts"] or 0),
            )  # fmt: skip
        except ValueError:
            return None
        suffix = ""
        if m["dtz"]:
            off = _tz_minutes(m["dtz"])
            if off is None:
                return None
            dt -= timedelta(minutes=off)
            suffix = "Z"
        frac = (m["dtf"] or "").rstrip("0")
        value = f"{dt:%Y-%m-%dT%H:%M:%S}" + (f".{frac}" if frac else "") + suffix
        return (s, e, "datetime", value, None, None)
    if g == "dmy":
        mo = _MONTHS[m["mo6"]]
        d = int(m["d6"])
        if m["y6"]:
            return _date_cand(s, e, int(m["y6"]), mo, d)
        # "3 may fail": a lowercase "may" without a year is the verb.
        if m["mo6"] == "may" and seg[m.start("mo6")] == "m":
            return None
        key = _nearest_day(_ref_day(now), mo, d)
        return None if key is None else (s, m.end("mo6"), "date", key, None, "day")
    if g == "ip":
        text = m["ip"]
        if all(int(o) <= 255 for o in text.split(":")[0].split("/")[0].split(".")):
            return (s, e, "identifier", text, None, "ip")
        return (s, e, "version", text, None, None)
    if g == "ver":
        return (s, e, "version", m["ver"], None, None)
    if g == "yw":
        w = int(m["w3"])
        return (s, e, "date", f"{m['y3']}-W{w:02d}", None, "week") if 1 <= w <= 53 else None
    if g == "yq":
        return (s, e, "date", f"{m['y4']}-Q{m['q4']}", None, "quarter")
    if g == "ym":
        mo = int(m["m5"])
        return (s, e, "date", f"{m['y5']}-{mo:02d}", None, "month") if 1 <= mo <= 12 else None
    if g == "hash":
        word, ws = _prev_word(low, s, floor)
        if word in _REF_WORDS:
            return (ws, e, "identifier", f"#{m['hn']}", None, word)
        return (s, e, "identifier", f"#{m['hn']}", None, "ref")
    return None  # pragma: no cover - every branch is named


def _bare(p: int, s: int, sign: int, num: str) -> tuple[_Cand | None, int]:
    """The number alone, with no unit."""
    x = _to_float(num)
    e = p + len(num)
    if x is None:
        return None, e
    if sign < 0:
        x = -x
    return (s, e, "number", _key(num, 0, x), x, None), e


_MULT_GLUED: Final[frozenset[str]] = frozenset(("k", "m", "mm", "mn", "bn", "b"))
_MULT_WORDS: Final[frozenset[str]] = frozenset(
    ("thousand", "million", "mln", "billion", "trillion")
)
_DUR_GLUED_ONLY: Final[frozenset[str]] = frozenset(("s", "h", "d", "w", "y"))
_ORDINALS: Final[frozenset[str]] = frozenset(("st", "nd", "rd", "th"))
_PERCENT_WORDS: Final[frozenset[str]] = frozenset(
    ("%", "percent", "pct", "pp", "per", "percentage")
)
_MONEY_WORDS: Final[frozenset[str]] = (
    frozenset(_SYMBOL_CUR) | _CUR_CODES | frozenset(_CUR_WORDS) | {"us", "swiss", "pound", "pounds"}
)
_CONTEXT_WORDS: Final[frozenset[str]] = (
    frozenset(_MONTHS) | _VERSION_WORDS | _YEAR_PREPS | _YEAR_PREPS_WEAK
)


def _next_word(low: str, i: int) -> tuple[str, int]:
    """The word after ``i`` (whitespace allowed before it) and its end."""
    m = _NEXT_WORD.match(low, i)
    return ("", i) if m is None else (m.group(1), m.end())


def _cur_of(word: str) -> str | None:
    if word in _CUR_CODES:
        return "CNY" if word == "rmb" else word.upper()
    return _CUR_WORDS.get(word)


#: After a house number: capitalised words and a street type ("443 Maple Drive",
#: "101 Highway", "12 Elm St").
_STREET = re.compile(
    r"[ \t]+(?:[A-Z][a-z]+[ \t]+){0,3}(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Lane|Ln|"
    r"Boulevard|Blvd|Way|Court|Ct|Place|Pl|Highway|Hwy|Terrace|Parkway|Pkwy|Circle|Cir|"
    r"Square|Sq|Trail|Alley|Row)\b\.?"
)


#: Words a number after which only names one of several ("Option 3", "Step 2").
_ORDINAL_LABEL = re.compile(r"\b(?:option|step|choice|phase|tier|round|question)\s+$")


def _numphrase(
    seg: str, low: str, m: re.Match[str], p: int, sign: int, floor: int, now: datetime | None
) -> tuple[_Cand | None, int]:
    """A number at ``p`` and the unit after it: (candidate, resume offset)."""
    num, cp, sp, sy, w, w2 = m.group("n", "cp", "sp", "sy", "w", "w2")
    n = len(low)
    if sign == 0 and num.isdigit() and _ORDINAL_LABEL.search(low, max(floor, p - 10), p):
        return None, m.end("n")  # "Option 3 offers the lowest cost": a label, no quantity
    if sign > 0 and p >= 2 and low[p - 2] == "(" and w in ("day", "days"):
        return None, m.end("w")  # "arriving at 01:00 EST (+1 day)": the next day, no duration
    street = _STREET.match(seg, m.end("n"))
    if street is not None and sign == 0 and m.group("n").isdigit():
        # "443 Maple Drive": a house number is part of an address (a name), not a count
        return None, street.end()
    s = p if sign == 0 else p - 1
    num_end = m.end("n")
    mult: str | None = None
    # The unit slot: what follows the number (and its multiplier, if any).
    if sy is not None:
        usp, unit, ue = sp, sy, m.end("sy")
    else:
        usp, unit, ue = sp, w, m.end("w")
    nxt, nxt_end = w2, m.end("w2")
    if (
        w is not None
        and (w in _MULT_WORDS or (not sp and w in _MULT_GLUED))
        and (ue == n or not low[ue].isdigit())
    ):
        mult, num_end = w, ue
        usp, unit, ue = m.group("sp2"), w2, nxt_end
        nxt, nxt_end = _next_word(low, ue) if w2 else ("", ue)
    if cp is not None and (p == floor or low[p - 1] != "(" or mult or not unit):
        return _bare(p, s, sign, num)
    if mult is None and len(num) < 16 and num.isdigit():
        x = float(num)  # the common case; _to_float handles the rest and infinity
    else:
        xf = _to_float(num, _MULT_EXP[mult] if mult else 0)
        if xf is None:
            return None, num_end
        x = xf
    if sign < 0:
        x = -x
    vs = _key(num, _MULT_EXP[mult] if mult else 0, x)
    if cp is not None:
        # "(30) days", "thirty (30) days": the numeral in parentheses carries the unit.
        sb = _spelled_before(low, p - 1, floor)
        s = sb[0] if sb is not None else p - 1

    word = ""
    ws = s
    if s - 1 > floor and low[s - 1] == " ":
        word, ws = _prev_word(low, s, floor)
        if word in _CUR_CODES and unit not in _PERCENT_WORDS:
            cur = "CNY" if word == "rmb" else word.upper()
            return (ws, num_end, "money", f"{cur} {vs}", x, cur), num_end

    kind: HardFactKind = "number"
    e = num_end
    out_unit: str | None = None
    if unit is None:
        pass
    elif unit in _PERCENT_WORDS:
        if unit in ("%", "percent", "pct"):
            kind, e, out_unit = "percent", ue, "%"
        elif unit == "pp":
            kind, e, out_unit = "percent", ue, "pp"
        elif unit == "per" and nxt == "cent":
            kind, e, out_unit = "percent", nxt_end, "%"
        elif unit == "percentage" and nxt in ("point", "points"):
            kind, e, out_unit = "percent", nxt_end, "pp"
        if kind == "percent":
            value = f"{vs}%" if out_unit == "%" else f"{vs}pp"
            return (s, e, "percent", value, x, out_unit), e
    elif unit in _MONEY_WORDS:
        mcur = _SYMBOL_CUR.get(unit) or _cur_of(unit)
        if unit in ("us", "swiss"):
            mcur = _cur_of(nxt) if nxt in ("dollar", "dollars", "franc", "francs") else None
            ue = nxt_end
        elif unit in ("pound", "pounds"):
            mcur = "GBP" if nxt == "sterling" else None
            ue = nxt_end
        if mcur is not None:
            return (s, ue, "money", f"{mcur} {vs}", x, mcur), ue
    elif ue < n and low[ue].isdigit():
        # "5 x86", "3a7": the word runs into digits, so it is not a unit.
        if not usp:
            return _glued(seg, low, p, s, x, vs, unit, ue)
    elif unit in ("business", "working", "calendar") and nxt in ("day", "days") and not mult:
        # "5 to 7 business days": a duration in days, not a count of "business".
        return _duration(s, nxt_end, x, nxt, "", 0, word, ws, now)
    elif unit in _DUR_UNITS and (not usp or unit not in _DUR_GLUED_ONLY):
        if mult:
            return _bare(p, s, sign, num)
        if (
            unit == "s"
            and not usp
            and "." not in num
            and x >= 100
            and word not in ("in", "took", "after", "within", "for", "every", "of", "over")
        ):
            # "502s", "1990s": a plural of a code or a decade, not seconds.
            return _bare(p, s, sign, num)
        ago = ""
        ago_len = 0
        if nxt == "ago":
            ago, ago_len = "ago", nxt_end - ue
        elif nxt == "from" and low.startswith(" now", nxt_end):
            ago, ago_len = "from now", nxt_end + 4 - ue
        return _duration(s, ue, x, unit, ago, ago_len, word, ws, now)
    elif not usp:
        if unit not in _ORDINALS:
            return _glued(seg, low, p, s, x, vs, unit, ue, mult)
        num_end = ue  # "3rd": an ordinal is its number (and "March 3rd" a date)
    elif (
        unit not in _NOT_UNIT
        and not (len(unit) > 4 and unit.endswith("ed"))
        and "\n" not in (usp or "")
        and not (ue < n and low[ue] in "=:_")
    ):
        # A word on the next line, or a key ("2400000 term=12"), is no unit.
        kind, e = "count", ue
        head = unit
        if (unit in _MODIFIERS or unit.endswith("ing")) and nxt and nxt not in _NOT_UNIT:
            head = nxt
            out_unit = f"{unit} {_singular(nxt)}"
            e = nxt_end
        else:
            out_unit = _singular(unit)
        if (
            len(num) == 4
            and num[:2] in ("19", "20")
            and head[-1] != "s"
            and sign == 0
            and mult is None
            and cp is None
        ):
            # "the 2024 report", "2025 revenue": a year before a singular noun.
            return (p, p + 4, "date", num, None, "year"), p + 4

    if word in _CONTEXT_WORDS and mult is None and sign == 0 and cp is None:
        dated = _prev_context(seg, low, p, num, word, ws, kind == "count", now)
        if dated is not None:
            return dated
    if kind == "count":
        return (s, e, "count", f"{vs} {out_unit}", x, out_unit), e
    return (s, num_end, "number", vs, x, None), num_end


def _glued(
    seg: str, low: str, p: int, s: int, x: float, vs: str, unit: str, ue: int,
    mult: str | None = None,
) -> tuple[_Cand | None, int]:  # fmt: skip
    """Letters glued to a number: an identifier ("2a3f9c1e") or a unit ("16gb")."""
    if mult is None:
        tok = _token_from(seg, low, p)
        if tok is not None:
            return tok
    if len(unit) <= 5 and (ue == len(low) or not low[ue].isalnum()):
        unit = _singular(unit)
        return (s, ue, "count", f"{vs} {unit}", x, unit), ue
    # Digits inside a longer token that is no identifier ("1e6x", "5xx2"): skip it.
    return None, max(_tok_end(low, p), ue)


def _token_from(seg: str, low: str, p: int) -> tuple[_Cand | None, int] | None:
    """A digit-led token glued to letters ("2a3f9c1e"): an identifier or None."""
    end_all = _tok_end(low, p)
    e = end_all
    while e > p and low[e - 1] in _TRAILING:
        e -= 1
    tok = low[p:e]
    kind = _classify_token(tok, seg[p:e])
    if kind is None:
        return None
    return (p, e, "identifier", tok, None, kind), end_all


_DATE_DESIGNATORS: Final[frozenset[str]] = frozenset("DWMY")


def _duration_value(x: float, designator: str) -> str:
    if designator == "MS":
        return f"PT{_fmt(x / 1000)}S"
    if designator == "W":
        return f"P{_fmt(x * 7)}D"  # exact, so "two weeks" and "14 days" share a key
    if designator in _DATE_DESIGNATORS:
        return f"P{_fmt(x)}{designator}"
    return f"PT{_fmt(x)}{designator[-1]}"


def _duration(
    s: int, e: int, x: float, du: str, ago: str, ago_len: int, word: str, ws: int,
    now: datetime | None,
) -> tuple[_Cand | None, int]:  # fmt: skip
    """A duration, or a relative date for "3 days ago" / "in 2 weeks"."""
    designator, unit = _DUR_UNITS[du]
    if designator in _DATE_DESIGNATORS and x.is_integer():
        n = int(x)
        if ago:
            key = _shift_key(_ref_day(now), unit, -n if ago == "ago" else n)
            if key is not None:
                return (s, e + ago_len, "date", key, None, unit), e + ago_len
        elif word == "in":
            key = _shift_key(_ref_day(now), unit, n)
            if key is not None:
                return (ws, e, "date", key, None, unit), e
    return (s, e, "duration", _duration_value(x, designator), x, unit), e


def _prev_context(
    seg: str, low: str, p: int, num: str, word: str, ws: int, has_unit: bool,
    now: datetime | None,
) -> tuple[_Cand | None, int] | None:  # fmt: skip
    """Words before a number that change its meaning: months, "version", "in 2025"."""
    if word in _MONTHS:
        mf = _MONTH_FIRST.match(low, ws)
        if mf is not None and (word != "may" or seg[ws] == "M"):
            mo = _MONTHS[mf["mo"]]
            if mf["yo"]:
                return (ws, mf.end(), "date", f"{mf['yo']}-{mo:02d}", None, "month"), mf.end()
            d = int(mf["d"])
            cand: _Cand | None
            if mf["y"]:
                cand = _date_cand(ws, mf.end(), int(mf["y"]), mo, d)
            else:
                key = _nearest_day(_ref_day(now), mo, d)
                cand = None if key is None else (ws, mf.end(), "date", key, None, "day")
            if cand is not None:
                return cand, mf.end()
    if word in _VERSION_WORDS:
        e = p + len(num)
        return (ws, e, "version", num.replace(",", ""), None, None), e
    if (
        len(num) == 4
        and num[:2] in ("19", "20")
        and (word in _YEAR_PREPS or (word in _YEAR_PREPS_WEAK and not has_unit))
    ):
        e = p + len(num)
        return (p, e, "date", num, None, "year"), e
    return None


# ---------------------------------------------------------------------------
# Keyword path (word dates and spelled durations)
# ---------------------------------------------------------------------------

_DAY_SHIFT: Final[dict[str, int]] = {"today": 0, "yesterday": -1, "tomorrow": 1}
_STEP: Final[dict[str, int]] = {"last": -1, "next": 1, "this": 0}


def _keyword(low: str, i: int, now: datetime | None) -> _Cand | None:
    """A date word or a spelled duration around a keyword hit at ``i``."""
    ws = i
    lim = max(0, i - 6)
    while ws > lim and low[ws - 1].isalpha():
        ws -= 1
    if ws > 0 and low[ws - 1].isalnum():
        return None
    n = len(low)
    we = i
    while we < n and we < i + 12 and low[we].isalpha():
        we += 1
    if we < n and low[we].isalnum():
        return None
    word = low[ws:we]
    shift = _DAY_SHIFT.get(word)
    if shift is not None:
        return (ws, we, "date", (_ref_day(now) + timedelta(days=shift)).isoformat(), None, "day")
    prev, ps = _prev_word(low, ws)
    step = _STEP.get(prev)
    if step is not None:
        if word in _WEEKDAYS:
            d = _ref_day(now)
            wd = _WEEKDAYS[word]
            if step < 0:
                delta = -((d.weekday() - wd) % 7 or 7)
            elif step > 0:
                delta = (wd - d.weekday()) % 7 or 7
            else:
                delta = wd - d.weekday()
            return (ps, we, "date", (d + timedelta(days=delta)).isoformat(), None, "day")
        if word in ("week", "month", "quarter", "year"):
            key = _shift_key(_ref_day(now), word, step)
            return None if key is None else (ps, we, "date", key, None, word)
        return None
    dur = _DUR_UNITS.get(word)
    if dur is None and word != "percent":
        return None
    sb = _spelled_before(low, ws)
    if sb is None:
        return None
    s, val = sb
    x = float(val)
    if dur is None:
        return (s, we, "percent", f"{val}%", x, "%")
    designator, unit = dur
    if designator in _DATE_DESIGNATORS:
        if low.startswith(" ago", we) and (we + 4 == n or not low[we + 4].isalnum()):
            key = _shift_key(_ref_day(now), unit, -val)
            if key is not None:
                return (s, we + 4, "date", key, None, unit)
        pw, pws = _prev_word(low, s)
        if pw == "in":
            key = _shift_key(_ref_day(now), unit, val)
            if key is not None:
                return (pws, we, "date", key, None, unit)
    return (s, we, "duration", _duration_value(x, designator), x, unit)


# ---------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------


def _lower_same_length(seg: str) -> str:
    low = seg.lower()
    if len(low) == len(seg):
        return low
    # A few characters grow when lowercased ("İ"); keep them so offsets line up.
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in seg)


def _scan(seg: str, low: str, now: datetime | None) -> list[_Cand]:
    """All candidates in ``low``, sorted by start, without overlaps."""
    cands: list[_Cand] = []
    search = _TRIGGER.search
    master = _MASTER.match
    n = len(low)
    pos = 0
    floor = 0  # end of the last fact: nothing may reach back before it
    while True:
        t = search(low, pos)
        if t is None:
            break
        p = t.start()
        c = low[p]
        prev = low[p - 1] if p > floor else " "
        res: tuple[_Cand | None, int] | None = None
        if c == ".":
            nxt = low[p + 1] if p + 1 < n else ""
            if "a" <= nxt <= "z" and (prev in _TOKCH or not prev.isalnum()):
                res = _token(seg, low, p, floor)
        elif c in _SYMBOL_CUR or c == "#":
            mm = _SYMBOLIC.match(low, p)
            if mm is not None:
                cand = _master(seg, low, mm, floor, now)
                if cand is not None and c == "$" and prev.isalpha():
                    # "US$2.4 million": a glued letter prefix names the dollar.
                    k = p
                    while k > max(floor, p - 3) and low[k - 1].isalpha():
                        k -= 1
                    cur = _DOLLAR_PREFIX.get(low[k:p])
                    if cur is not None and cand[4] is not None:
                        x = cand[4]
                        amount = cand[3].split(" ", 1)[1]
                        cand = (k, cand[1], "money", f"{cur} {amount}", x, cur)
                elif cand is not None and prev in "-−" and cand[4] is not None:
                    before = low[p - 2] if p >= 2 else " "
                    if before not in _TOKCH:  # "-$5": a negative amount
                        x = -cand[4]
                        amount = cand[3].split(" ", 1)[1]
                        value = f"{cand[5]} -{amount}" if amount != "0" else cand[3]
                        cand = (p - 1, cand[1], "money", value, x, cand[5])
                res = (cand, mm.end())
        else:
            sign = 0
            if prev in "+-−":
                before = low[p - 2] if p >= 2 else " "
                if before not in _TOKCH:
                    sign = -1 if prev != "+" else 1
            if sign == 0 and prev in _TOKCH:
                res = _token(seg, low, p, floor)
            if res is None:
                mm = master(low, p)
                if mm is None:  # pragma: no cover - a digit always matches a number
                    res = None, p + 1
                elif mm.start("n") >= 0:
                    res = _numphrase(seg, low, mm, p, sign, floor, now)
                else:
                    cand = _master(seg, low, mm, floor, now)
                    if cand is None and mm.lastgroup in _SHAPED:
                        # "2026-02-30", "25:00": date-shaped but invalid; no numbers.
                        res = None, mm.end()
                    elif cand is None:
                        np = _NUMPHRASE.match(low, p)
                        res = _numphrase(seg, low, np, p, sign, floor, now) if np else None
                    elif cand[2] == "version" and mm.end() < n and low[mm.end()].isalnum():
                        # "1.2.3x": part of a longer token, not a version.
                        res = None, max(_tok_end(low, p), p + 1)
                    else:
                        res = cand, mm.end()
        if res is None:
            pos = p + 1
            continue
        cand, nxt_pos = res
        if cand is not None:
            cands.append(cand)
            floor = cand[1]
        pos = nxt_pos if nxt_pos > p else p + 1

    # Word dates and spelled durations, only where no fact already sits. They are
    # few, so each is inserted in place rather than re-sorting every candidate.
    starts = [c[0] for c in cands]
    for key in _KEYWORDS:
        i = low.find(key)
        while i != -1:
            k = bisect_right(starts, i)
            if k == 0 or cands[k - 1][1] <= i:
                cand = _keyword(low, i, now)
                if cand is not None:
                    _insert(cands, starts, cand)
            i = low.find(key, i + len(key))
    return cands


def _insert(cands: list[_Cand], starts: list[int], cand: _Cand) -> None:
    """Insert ``cand`` in start order; on overlap the longer form wins."""
    s, e = cand[0], cand[1]
    lo = bisect_right(starts, s)
    while lo > 0 and cands[lo - 1][1] > s:
        lo -= 1
    hi = lo
    while hi < len(cands) and cands[hi][0] < e:
        hi += 1
    if lo < hi and any(c[1] - c[0] >= e - s for c in cands[lo:hi]):
        return
    cands[lo:hi] = [cand]
    starts[lo:hi] = [s]


def extract_hard_facts(
    text: str, start: int = 0, end: int | None = None, *, now: datetime | None = None
) -> list[HardFact]:
    """Scan ``text[start:end]`` for hard facts.

    Args:
        text: The original text.
        start: Offset where the scan starts.
        end: Offset where it stops (None: the end of ``text``).
        now: Reference time for relative dates (None: current UTC time).

    Returns:
        The facts sorted by start; offsets index ``text`` (the original).
    """
    n = len(text)
    end = n if end is None else max(0, min(end, n))
    start = max(0, start)
    if start >= end:
        return []
    seg = text[start:end]
    low = _lower_same_length(seg)
    cands = _scan(seg, low, now)
    if "," in seg and ("€" in seg or "eur" in low):
        cands = _with_european_money(seg, cands)
    if ":" in seg:
        cands = _with_ctime(seg, cands)
    return [
        HardFact(kind, seg[s:e], start + s, start + e, value, number, unit)
        for s, e, kind, value, number, unit in cands
    ]


# "12.405,00 €", "84,50 EUR": dots group thousands and the comma is the decimal mark.
# ("1.250 EUR" without a decimal comma keeps the English reading, 1.25.)
_EURO_AMOUNT: Final = re.compile(
    r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+,\d{1,2}|\d+,\d{1,2})"
    r"\s?(?:€|EUR\b)"
)


# ctime-style stamps in tool output: "May 26 07:59:59 2026 GMT" (openssl),
# "Wed Mar 11 08:58:41 2026" (dmesg -T, date).
_CTIME: Final = re.compile(
    r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?\s+(\d{1,2})\s+"
    r"(\d{2}):(\d{2})(?::(\d{2}))?\s+(\d{4})(\s+(?:GMT|UTC|Z)\b)?"
)
_MONTH_NUMBER: Final = {
    m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())
}


def _with_ctime(seg: str, cands: list[_Cand]) -> list[_Cand]:
    """Replaces the pieces the scan read in a ctime-style stamp by one datetime fact."""
    spans: list[_Cand] = []
    for m in _CTIME.finditer(seg):
        month, day = _MONTH_NUMBER[m.group(1)], int(m.group(2))
        if not 1 <= day <= 31:
            continue
        hh, mm, ss = m.group(3), m.group(4), m.group(5) or "00"
        zone = "Z" if m.group(7) else ""
        value = f"{m.group(6)}-{month:02d}-{day:02d}T{hh}:{mm}:{ss}{zone}"
        spans.append((m.start(), m.end(), "datetime", value, None, None))
    if not spans:
        return cands
    kept = [c for c in cands if not any(c[0] < e and s < c[1] for s, e, *_ in spans)]
    return sorted(kept + spans, key=lambda c: c[0])


def _with_european_money(seg: str, cands: list[_Cand]) -> list[_Cand]:
    """Replaces what the scan read in a European-format euro amount by one money fact."""
    spans: list[_Cand] = []
    for m in _EURO_AMOUNT.finditer(seg):
        raw = m.group(1).replace(".", "").replace(",", ".")
        x = float(raw)
        spans.append((m.start(), m.end(), "money", f"EUR {_fmt(x)}", x, "EUR"))
    if not spans:
        return cands
    kept = [c for c in cands if not any(c[0] < e and s < c[1] for s, e, *_ in spans)]
    return sorted(kept + spans, key=lambda c: c[0])


def normalise_number(raw: str) -> float | None:
    """Parse a written number: "2,400,000", "2.4M", "2.4 million", "thirty", "1.2k".

    Args:
        raw: The number as written, optionally signed.

    Returns:
        Its value, or None when ``raw`` is not a number.
    """
    low = raw.strip().lower()
    m = _NORMALISE.match(low)
    if m is not None:
        mult = m["mult"]
        x = _to_float(m["n"], _MULT_EXP[mult] if mult else 0)
        if x is None:
            return None
        return -x if m["sign"] in ("-", "−") else x
    spelled = _spelled_value(" ".join(low.split()))
    return None if spelled is None else float(spelled)
