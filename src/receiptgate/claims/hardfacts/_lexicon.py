"""The words and patterns of the hard-fact scanner: month and weekday names, currencies,
units, stopwords, and the regular expressions that find candidates (claims/hardfacts)."""

from __future__ import annotations

import re
from typing import Final

from receiptgate.claims.models import HardFactKind

# (start, end, kind, value, number, unit), offsets local to the scanned segment.
_Cand = tuple[int, int, HardFactKind, str, float | None, str | None]


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
    r"|(?P<md>(?P<m8>[0-9]{1,2})/(?P<d8>[0-9]{1,2})(?![0-9/]))"
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

#: Words after which "3/20" is a day ("due 3/20", "Tue 3/4", "on 11/06"), not a share.
_DAY_BEFORE: Final = frozenset(
    "on due by until till before after from since through thru dated eta date "
    "mon tue tues wed thu thur thurs fri sat sun".split()
) | frozenset(_WEEKDAYS)

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

#: After a house number: capitalised words and a street type ("443 Maple Drive",
#: "101 Highway", "12 Elm St").
_STREET = re.compile(
    r"[ \t]+(?:[A-Z][a-z]+[ \t]+){0,3}(?:Street|St|Avenue|Ave|Road|Rd|Drive|Dr|Lane|Ln|"
    r"Boulevard|Blvd|Way|Court|Ct|Place|Pl|Highway|Hwy|Terrace|Parkway|Pkwy|Circle|Cir|"
    r"Square|Sq|Trail|Alley|Row)\b\.?"
)

#: Words a number after which only names one of several ("Option 3", "Step 2").
_ORDINAL_LABEL = re.compile(r"\b(?:option|step|choice|phase|tier|round|question)\s+$")

_DATE_DESIGNATORS: Final[frozenset[str]] = frozenset("DWMY")

_DAY_SHIFT: Final[dict[str, int]] = {"today": 0, "yesterday": -1, "tomorrow": 1}

_STEP: Final[dict[str, int]] = {"last": -1, "next": 1, "this": 0}

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
