"""Typed values: what a field of a record holds, and when a claimed figure equals it.

A leaf of a tool result becomes a :class:`Value` from its raw value, its field
name and its siblings: ``{"price": 153}`` is money, ``{"count": 2}`` a count,
``{"scheduled_departure_time_est": "06:00:00"}`` a time in US Eastern time,
``{"date": "2024-05-17"}`` a date, ``{"status": "pending"}`` a state. Each value
is filed under *lookup keys* (``n:153``, ``t:06:00``, ``tz:11:00Z``,
``d:2024-05-17``, ``md:05-17``, ``w:pending``), and a claimed hard fact is looked
up under the keys it can equal, so "May 17" finds ``2024-05-17`` and
"6:00 AM EST" finds ``06:00:00`` in a ``*_est`` field. Equality is then checked
by type (money with money in one currency, a count with a whole number, ...).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any, Final

from receiptgate.claims.models import HardFact

#: Field words that make a number money.
MONEY_WORDS: Final = frozenset(
    """price prices amount amounts cost costs balance subtotal fee fees refund refunds
    paid charge charges charged payment payments fare fares tax taxes revenue salary usd eur gbp
    deposit credit debit spend spent budget invoice pay owed tip tips deductible
    deductibles copay copays coinsurance premium premiums rent wage wages income earnings
    payout payouts excess credits debits bill""".split()
)
#: Field words of an amount in hundredths: "standing_charge_p_per_day".
_PENCE_WORDS: Final = frozenset({"p", "pence", "cents", "ct"})
#: The units of an amount in hundredths: "26.35p", "99c".
PENNIES: Final = frozenset({"p", "c"})
#: Field words that are an amount when a ``currency`` sits beside them.
_CURRENCY_AMOUNT_WORDS: Final = frozenset("value amount total gross net due outstanding".split())
#: Objects whose fields are amounts by option ("prices": {"economy": 105}).
_AMOUNT_GROUPS: Final = frozenset("prices fares costs fees amounts balances charges".split())
COUNT_WORDS: Final = frozenset(
    "count counts quantity qty num number total items passengers bags seats nights".split()
)
#: Field words of loyalty units, counted, never money ("points_balance", "miles_earned").
_POINT_WORDS: Final = frozenset("points miles".split())
#: Units of size and measure a field's name may end with ("data_used_gb", "distance_km").
SIZE_UNITS: Final = frozenset("kb mb gb tb kib mib gib tib bytes km mi kg lb lbs kwh".split())
#: Field words of a rate per unit of time or use ("rate_per_night", "nightly_rate").
_PER_WORDS: Final = frozenset("per nightly daily hourly weekly monthly".split())
PERCENT_WORDS: Final = frozenset("pct percent percentage ratio share util utilization".split())
_CURRENCY_WORDS: Final = {c.lower(): c for c in ("USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD")}
#: Zone abbreviations in field names ("departure_time_est") and their UTC offsets (minutes).
ZONES: Final = {
    "utc": 0, "gmt": 0, "z": 0, "est": -300, "edt": -240, "cst": -360, "cdt": -300,
    "mst": -420, "mdt": -360, "pst": -480, "pdt": -420, "cet": 60, "cest": 120,
    "bst": 60, "ist": 330, "jst": 540, "aest": 600,
}  # fmt: skip
ID_KEYS: Final = frozenset(
    {
        "id",
        "uuid",
        "key",
        "code",
        "sku",
        "number",
        "ref",
        "reference",
        "confirmation",
        "pnr",
        "locator",
    }
)
NAME_KEYS: Final = frozenset({"name", "title", "first_name", "last_name", "full_name", "username"})
#: Field words of short enumerated values: a claimed word that differs is a contradiction.
STATE_WORDS: Final = frozenset(
    "status state phase stage health condition availability result outcome".split()
)

#: Common values of a ``status`` field: a sentence that calls an anchored record by one
#: of these is checked against the record's status even when no receipt used the word.
STATUS_VOCABULARY: Final = frozenset(
    """pending processing processed shipped delivered cancelled canceled completed confirmed
    booked active inactive suspended expired failed succeeded running stopped open closed
    resolved terminated terminating stopping""".split()
)

_KEY_SPLIT = re.compile(r"[^A-Za-z0-9]+|(?<=[a-z])(?=[A-Z])")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
_DOTTED_DATE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_ISO_DT = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$"
)
# "06:00:00", "6:00 PM EST", "00:00:00+1" (a schedule's next day)
_TIME = re.compile(
    r"^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\+\d)?\s*([AaPp]\.?[Mm]\.?)?\s*([A-Za-z]{1,4})?$"
)
_MONEY_TEXT = re.compile(r"^([$€£])\s?(-?[\d,]*\.?\d+)$|^(-?[\d,]*\.?\d+)\s?(USD|EUR|GBP)$")
_NUMBER_TEXT = re.compile(r"^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^-?\d+(?:\.\d+)?$")
_PERCENT_TEXT = re.compile(r"^(-?\d+(?:\.\d+)?)\s?%$")
#: A version inside a longer token: "nginx/1.24.0", "node-v22.4.0", an image's tag
#: ("registry.internal/payments/checkout-api:v2.7.3").
VERSION_IN_TOKEN = re.compile(r"(?<=[/@:_-])v?(\d+\.\d+\.\d+(?:[-+.][0-9A-Za-z.]+)?)\b")
#: An id made of what it is and a number ("certificate_7504069", "credit_card_4421486").
_TYPED_ID = re.compile(r"^[a-z]+(?:_[a-z]+)*_(\d{6,})$")
_ID_TEXT = re.compile(r"^#?[A-Za-z0-9][A-Za-z0-9_\-./:#]*$")
_WORD = re.compile(r"[a-z0-9]+(?:['’][a-z]+)?")
_EMBEDDED = re.compile(r"(?<![\d.])\d+(?:\.\d+)?(?![\d.])")
_SYMBOL_CURRENCY: Final = {"$": "USD", "€": "EUR", "£": "GBP"}


@functools.lru_cache(maxsize=8192)
def key_words(key: str) -> tuple[str, ...]:
    """``scheduled_departure_time_est`` -> ``("scheduled", "departure", "time", "est")``."""
    return tuple(w.lower() for w in _KEY_SPLIT.split(key) if w)


def num_key(x: float) -> str:
    """The lookup key of a magnitude (``153``, ``153.0`` and ``"153.00"`` are equal)."""
    r = round(x, 6)
    return f"n:{int(r)}" if float(r).is_integer() else f"n:{r!r}"


@dataclass(frozen=True, slots=True)
class Value:
    """A typed leaf value.

    Attributes:
        kind: money, count, number, percent, date, datetime, time, bool, id, word or text.
        keys: lookup keys it is filed under.
        shown: how evidence lines show it.
        number: the magnitude of a numeric value.
        unit: the currency of money, the zone of a time.
    """

    kind: str
    keys: tuple[str, ...]
    shown: str
    number: float | None = None
    unit: str | None = None

    @property
    def numeric(self) -> bool:
        return self.number is not None


@dataclass(frozen=True, slots=True)
class _Siblings:
    """What a leaf's sibling fields say of it: a ``currency`` and a ``timezone``."""

    currency: str | None = None
    zone: str | None = None
    #: a "unit": "percent" beside the value (a metric's value and previous value)
    percent: bool = False
    #: a "unit": "days" (or hours, minutes) beside the values: a leave balance's
    duration: str | None = None
    #: amounts in the currency's smallest unit: Stripe's lowercase "currency": "usd"
    #: beside "amount": 2500 ($25.00)
    minor: bool = False

    @classmethod
    def of(cls, siblings: dict[str, Any] | None) -> _Siblings:
        if not siblings:
            return _NO_SIBLINGS
        cur = siblings.get("currency") or siblings.get("currency_code")
        tz = siblings.get("timezone") or siblings.get("tz") or siblings.get("time_zone")
        unit = (
            siblings.get("unit")
            or siblings.get("units")
            or siblings.get("unitType")  # GitHub's billing usage: "unitType": "Minutes"
            or siblings.get("unit_type")
        )
        percent = isinstance(unit, str) and unit.strip().lower() in _PERCENT_UNITS
        if cur is None and isinstance(unit, str) and unit.strip().lower() in _CURRENCY_WORDS:
            cur = _CURRENCY_WORDS[unit.strip().lower()]  # "unit": "USD"
        span = unit.strip().lower() if isinstance(unit, str) else ""
        duration = span if span in _DURATION_FIELD else None
        if cur is None and tz is None and not percent and duration is None:
            return _NO_SIBLINGS
        minor = isinstance(cur, str) and in_minor_units(cur)
        return cls(
            cur if isinstance(cur, str) else None,
            tz if isinstance(tz, str) else None,
            percent,
            duration,
            minor,
        )


def in_minor_units(currency: str) -> bool:
    """Whether amounts beside this ``currency`` value are in its smallest unit: a
    lowercase code (Stripe's "usd", "eur") of a currency that has cents."""
    return (
        len(currency) == 3
        and currency.isalpha()
        and currency.islower()
        and currency not in _ZERO_DECIMAL
    )


_PERCENT_UNITS = frozenset({"percent", "%", "pct", "percentage", "percentage_points"})
#: Currencies with no minor unit (Stripe's amounts in them are whole units).
_ZERO_DECIMAL = frozenset("jpy krw vnd clp pyg ugx xaf xof isk huf twd bif djf gnf kmf".split())


_NO_SIBLINGS = _Siblings()


def _currency(words: tuple[str, ...], siblings: _Siblings) -> str | None:
    for w in words:
        if w in _CURRENCY_WORDS:
            return _CURRENCY_WORDS[w]
    cur = siblings.currency
    if cur is not None and len(cur.strip()) == 3:
        return cur.strip().upper()
    return None


def _zone(words: tuple[str, ...], siblings: _Siblings) -> str | None:
    for w in reversed(words):
        if w in ZONES:
            return w
    tz = siblings.zone
    if tz is not None and tz.strip().lower() in ZONES:
        return tz.strip().lower()
    return None


#: Field-name units of durations ("duration_min", "p95_ms", "term_months") in seconds,
#: days or months (the three scales claims are compared on).
_DURATION_FIELD: Final[dict[str, tuple[str, float]]] = {
    "ms": ("s", 0.001), "msec": ("s", 0.001), "millis": ("s", 0.001),
    "milliseconds": ("s", 0.001), "s": ("s", 1), "sec": ("s", 1), "secs": ("s", 1),
    "seconds": ("s", 1), "min": ("s", 60), "mins": ("s", 60), "minutes": ("s", 60),
    "h": ("s", 3600), "hr": ("s", 3600), "hrs": ("s", 3600), "hours": ("s", 3600),
    "days": ("d", 1), "day": ("d", 1), "weeks": ("d", 7), "wk": ("d", 7),
    "months": ("mo", 1), "month": ("mo", 1), "years": ("mo", 12), "yrs": ("mo", 12),
}  # fmt: skip


def _duration_keys(x: float, scale: str, factor: float) -> tuple[str, ...]:
    return (f"dur:{scale}:{num_key(x * factor)[2:]}",)


def seconds_keys(seconds: float) -> tuple[str, ...]:
    """The lookup keys of a span of time given in seconds (how "11 hours, and 30
    minutes" is filed)."""
    return _duration_keys(seconds, "s", 1.0)


def _number_value(
    x: float,
    words: tuple[str, ...],
    siblings: _Siblings,
    context: tuple[str, ...] = (),
) -> Value:
    shown = f"{int(x)}" if float(x).is_integer() else f"{x}"
    # "-2580.0" from a calculator, or a payment of -2544: reported as "a refund of $2580"
    keys: tuple[str, ...] = (num_key(x), num_key(-x)) if x < 0 else (num_key(x),)
    ws = set(words)
    if (
        context
        and context[-1] in _AMOUNT_GROUPS
        and not ws & (COUNT_WORDS | PERCENT_WORDS)
        and siblings.duration is None  # leave "balances" with a "unit": "days"
    ):
        # {"prices": {"economy": 105}}: a field of a group of amounts is an amount (not
        # every field under a money word: "credit_card_1": {"last_four": "7285"})
        ws.add("price")
    if float(x).is_integer() and abs(x) >= 100_000:
        keys += (f"i:{int(x)}",)  # a long number is also a name (an item, a ticket)
    if float(x).is_integer() and 1900 <= x <= 2100 and ws & {"year", "yr", "fy"}:
        keys += (f"d:{int(x)}",)
    # "unit_rate_p_per_kwh": pence per kWh, the words before "per" name the unit
    per = words[: words.index("per")] if "per" in words else words
    if per and per[-1] in _PENCE_WORDS:
        return Value("money", keys, shown, x)  # an amount in pence (or cents)
    if per and per[-1] in SIZE_UNITS:
        # "premium_remaining_gb": the field's last word is its unit, whatever it counts
        return Value("number", keys, shown, x)
    if words and words[-1] == "credits" and siblings.currency is None and float(x).is_integer():
        # "credits": 4 of a course, "enrolled_credits": 13: course credits, no money
        return Value("count", keys, shown, x)
    if ws & _POINT_WORDS:
        # "points_balance": 18450 is a count of points, no amount of money
        return Value("count" if float(x).is_integer() else "number", keys, shown, x)
    if "rate" in ws and (ws & _PER_WORDS or siblings.currency is not None):
        ws.add("price")  # "rate_per_night": 189, a "nightly_rate" beside "currency": "EUR"
    if siblings.percent and not ws & (MONEY_WORDS | COUNT_WORDS) - {"value"}:
        # {"unit": "percent", "value": 18.4, "previous_value": 16.9}
        return Value("percent", keys, shown, x, "%")
    if siblings.currency is not None and ws & _CURRENCY_AMOUNT_WORDS and not ws & PERCENT_WORDS:
        # {"unit": "USD", "value": 120}, {"currency": "USD", "total": 165.61}, a payslip's
        # "gross" and "net" beside its "currency"
        ws.add("price")
    # The field's last word is its unit: "restocking_fee_percent" is a percent of a fee.
    if ws & MONEY_WORDS and not (words and words[-1] in PERCENT_WORDS):
        if siblings.minor and float(x).is_integer() and not ws & COUNT_WORDS - {"total"}:
            # Stripe's "amount": 2500 beside "currency": "usd" is $25.00
            major = x / 100
            shown = f"{shown} ({major:.2f} {siblings.currency})"
            return Value("money", (num_key(major), *keys), shown, major, _currency(words, siblings))
        return Value("money", keys, shown, x, _currency(words, siblings))
    if ws & PERCENT_WORDS or (0 < abs(x) < 1 and ws & {"rate", "ratio", "share"}):
        extra = (num_key(x * 100),) if 0 < abs(x) <= 1 else ()
        return Value("percent", keys + extra, shown, x, "%")
    # "hours_per_day": hours (of each day), the words before "per" name the unit
    measured = words[: words.index("per")] if "per" in words else words
    unit = next((_DURATION_FIELD[w] for w in reversed(measured) if w in _DURATION_FIELD), None)
    if unit is None and siblings.duration is not None and not ws & (MONEY_WORDS | PERCENT_WORDS):
        unit = _DURATION_FIELD[siblings.duration]  # {"unit": "days", "remaining": 24}
    if unit is not None:
        return Value("duration", keys + _duration_keys(x, *unit), shown, x)
    if float(x).is_integer() and ws & COUNT_WORDS and ws != {"total"}:
        # ("total": 756 alone may be an amount or a count: a number, either kind's)
        return Value("count", keys, shown, x)
    if 0 < abs(x) < 1:
        keys += (num_key(x * 100),)  # "0.861" in a row is the 86.1% a sentence reports
    return Value("number", keys, shown, x)


def _utc_time(h: int, m: int, zone: str) -> str:
    total = (h * 60 + m - ZONES[zone]) % (24 * 60)
    return f"tz:{total // 60:02d}:{total % 60:02d}Z"


def _time_value(h: int, mi: int, zone: str | None, shown: str) -> Value:
    keys = [f"t:{h:02d}:{mi:02d}"]
    if zone is not None:
        keys.append(_utc_time(h, mi, zone))
    return Value("time", tuple(keys), shown, unit=zone)


def _date_keys(y: int, mo: int, d: int) -> tuple[str, ...]:
    return (
        f"d:{y:04d}-{mo:02d}-{d:02d}",
        f"md:{mo:02d}-{d:02d}",
        f"d:{y:04d}-{mo:02d}",
        f"d:{y:04d}-Q{(mo - 1) // 3 + 1}",
        f"d:{y:04d}",
        f"dm:{d:02d}",  # "on the 28th"
    )


def leaf_value(
    key: str,
    raw: Any,
    siblings: dict[str, Any] | None = None,
    context: tuple[str, ...] = (),
    *,
    day: datetime | None = None,
) -> Value | None:
    """The typed value of one field, ``None`` for null and empty values. ``context``: the
    words of the field that holds the field's object ("prices" for ``prices.economy``).

    Worked out once per field name, value, context and the siblings that matter (a
    transcript repeats its ids, dates and prices from result to result)."""
    if raw is None or not isinstance(raw, str | int | float):
        return None
    sib = _Siblings.of(siblings)
    if isinstance(raw, str) and len(raw) > _CACHED_TEXT:
        return _leaf_value(key, raw, sib, context, day)
    return _cached_leaf_value(key, raw, sib, context, day)


#: From here on a whole number is an id only (a float keeps 15 digits).
_LONGEST_NUMBER = 10**15

#: Longer text values are typed without the cache (they rarely repeat).
_CACHED_TEXT = 200


@functools.lru_cache(maxsize=32768, typed=True)
def _cached_leaf_value(
    key: str,
    raw: str | float,
    siblings: _Siblings,
    context: tuple[str, ...],
    day: datetime | None,
) -> Value | None:
    return _leaf_value(key, raw, siblings, context, day)


def _leaf_value(
    key: str,
    raw: str | float,
    siblings: _Siblings,
    context: tuple[str, ...],
    day: datetime | None = None,
) -> Value | None:
    words = key_words(key)
    if isinstance(raw, bool):
        return Value("bool", (f"b:{str(raw).lower()}",), str(raw).lower())
    if isinstance(raw, int) and abs(raw) >= _LONGEST_NUMBER:
        return Value("id", (f"i:{raw}",), str(raw))  # a parcel's tracking number
    if isinstance(raw, int | float):
        return epoch_value(raw, words) or _number_value(float(raw), words, siblings, context)
    if not isinstance(raw, str):
        return None
    text = raw.strip()
    if not text:
        return None
    if text.isdigit() and (int(text) >= _LONGEST_NUMBER or (len(text) >= 6 and text[0] == "0")):
        # "00340434161094015902": a tracking number, no quantity (a float would lose its
        # digits and make sums of nothing)
        return Value("id", (f"i:{text}",), text)
    if text.lower() in ("true", "false"):
        # CSV cells, YAML read as text, "True" from Python: the same flag as JSON's true.
        return Value("bool", (f"b:{text.lower()}",), text.lower())
    if (m := _ISO_DT.match(text)) is not None:
        y, mo, d, h, mi = (int(m.group(i)) for i in range(1, 6))
        try:
            date(y, mo, d)
        except ValueError:
            return None
        offset = m.group(7)
        if offset and offset != "Z":
            sign = -1 if offset[0] == "-" else 1
            hh, mm = int(offset[1:3]), int(offset[-2:])
            t = _time_value(h, mi, None, text)
            total = (h * 60 + mi - sign * (hh * 60 + mm)) % (24 * 60)
            utc = f"tz:{total // 60:02d}:{total % 60:02d}Z"
            return Value("datetime", _date_keys(y, mo, d) + t.keys + (utc,), text, unit="offset")
        zone = "utc" if offset == "Z" else _zone(words, siblings)
        t = _time_value(h, mi, zone, text)
        return Value("datetime", _date_keys(y, mo, d) + t.keys, text, unit=zone)
    if text[:1] == "P" and (dur := _duration_from_iso(text)):
        return Value("duration", dur, text)  # "PT2H", "P30D"
    if (m := _DOTTED_DATE.match(text)) is not None:
        # "17.05.2024": day, month, year (the dotted form is day-first everywhere)
        d, mo, y = (int(m.group(i)) for i in range(1, 4))
        try:
            date(y, mo, d)
        except ValueError:
            return None
        return Value("date", _date_keys(y, mo, d), text)
    if (m := _ISO_DATE.match(text)) is not None:
        y, mo, d = (int(m.group(i)) for i in range(1, 4))
        try:
            date(y, mo, d)
        except ValueError:
            return None
        return Value("date", _date_keys(y, mo, d), text)
    if (m := _TIME.match(text)) is not None and ":" in text:
        h, mi = int(m.group(1)), int(m.group(2))
        ampm = (m.group(4) or "").lower().replace(".", "")
        if ampm == "pm" and h < 12:
            h += 12
        elif ampm == "am" and h == 12:
            h = 0
        suffix = (m.group(5) or "").lower()
        zone = suffix if suffix in ZONES else _zone(words, siblings)
        if h < 24 and mi < 60:
            return _time_value(h, mi, zone, text)
    if (m := _MONEY_TEXT.match(text)) is not None:
        digits = (m.group(2) or m.group(3)).replace(",", "")
        cur = _SYMBOL_CURRENCY.get(m.group(1) or "") or (m.group(4) or "").upper() or None
        x = float(digits)
        return Value("money", (num_key(x),), text, x, cur)
    if (m := _PERCENT_TEXT.match(text)) is not None:
        x = float(m.group(1))
        return Value("percent", (num_key(x),), text, x, "%")
    if _NUMBER_TEXT.match(text) and not (len(text) >= 6 and text.isdigit() and text[0] == "0"):
        x = float(text.replace(",", ""))
        value = _number_value(x, words, siblings, context)
        if len(text.replace(",", "").replace(".", "")) >= 6 and "." not in text:
            # A long run of digits is also a name: "6259501109" is an item id.
            return Value(value.kind, (*value.keys, f"i:{text.lower()}"), text, x, value.unit)
        return value
    if (m := _NUMBER_ASIDE.match(text)) is not None:
        # "9 (10m ago)" (kubectl's restarts and when the last one was): the field's
        # number, with an aside
        inner = _leaf_value(key, m.group(1), siblings, context, day)
        if inner is not None:
            return Value(inner.kind, inner.keys, text, inner.number, inner.unit)
    low = " ".join(text.lower().split())
    if any(c.isdigit() for c in text) and len(text) <= 60:
        parsed = _from_prose(text, day)
        if parsed is not None:
            return parsed
    if _ID_TEXT.match(text) and (any(c.isdigit() for c in text) or set(words) & ID_KEYS):
        bare = low.lstrip("#")
        keys: tuple[str, ...] = (f"i:{low}", f"i:{bare}") if bare != low else (f"i:{low}",)
        if (m := _TYPED_ID.match(low)) is not None:
            keys += (f"i:{m.group(1)}",)  # "gift_card_7091239" is "gift card 7091239"
        keys += tuple(f"v:{v}" for v in VERSION_IN_TOKEN.findall(text))  # an image's tag
        return Value("id", keys, text)
    # Numbers inside a short text ("Suite 640", "750ml", "123 Elm Street") are found
    # by number too; equality then asks for the same characters (see _equal).
    embedded = tuple(dict.fromkeys(num_key(float(n)) for n in _EMBEDDED.findall(text)))
    if len(low) <= 60 and low.count(" ") <= 5:
        # "basic_economy", "round-trip": an enum value, written "basic economy"
        spaced = " ".join(low.replace("_", " ").replace("-", " ").split())
        also = (f"w:{spaced}",) if spaced != low and spaced else ()
        return Value("word", (f"w:{low}", *also, *embedded), text)
    return Value("text", embedded, text)


#: Field names of a moment: a whole number in them within the years 2000-2100 counted
#: in seconds (or milliseconds) since 1970 is that moment ("created": 1763460600 of a
#: Stripe charge, "ts" of a log line, "expires_at" of a token).
EPOCH_WORDS = frozenset(
    "created updated modified deleted time timestamp ts at date expires expiry start end "
    "since until issued seen epoch when".split()
)
_EPOCH_SECONDS = (946_684_800, 4_102_444_800)


def is_epoch(raw: object) -> bool:
    """Whether a number reads as a moment of 2000-2100 in Unix seconds or milliseconds."""
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return False
    low, high = _EPOCH_SECONDS
    return low <= raw < high or low * 1000 <= raw < high * 1000


def epoch_value(raw: float, words: tuple[str, ...]) -> Value | None:
    """The moment a Unix timestamp of a time field names, in UTC: its day, its time and
    the number itself (``1763460600`` is 2025-11-18 10:10 UTC); ``None`` for a number of
    another field, or out of range."""
    if not is_epoch(raw) or not EPOCH_WORDS.intersection(words):
        return None
    seconds = raw / 1000 if raw >= _EPOCH_SECONDS[1] else raw
    moment = datetime.fromtimestamp(seconds, UTC)
    t = _time_value(moment.hour, moment.minute, "utc", "")
    whole = int(raw) if float(raw).is_integer() else raw
    keys = (
        *_date_keys(moment.year, moment.month, moment.day),
        *t.keys,
        num_key(float(raw)),
        f"i:{whole}",
    )
    shown = f"{moment.strftime('%Y-%m-%dT%H:%M:%SZ')} ({whole})"
    return Value("datetime", keys, shown, unit="utc")


#: A number and an aside in brackets after it: "9 (10m ago)".
_NUMBER_ASIDE = re.compile(r"^(\d[\d,]*(?:\.\d+)?)\s+\([^()]{1,40}\)$")


def _from_prose(text: str, day: datetime | None = None) -> Value | None:
    """A short string the claim extractor reads as one figure ("03/27/2026", "2025-Q4",
    "v22.4.0", "Feb 25 08:00:00 2026 GMT", "30 days"): typed as a claim would be, a
    relative date ("5 days ago") from ``day`` (when the receipt was read)."""
    from receiptgate.claims.hardfacts import extract_hard_facts

    facts = [h for h in extract_hard_facts(text, now=day) if h.kind != "identifier"]
    if len(facts) != 1 or facts[0].end - facts[0].start < len(text.strip()) * 0.6:
        return None
    return fact_value(facts[0], text)


def fact_value(h: HardFact, shown: str | None = None) -> Value | None:
    """A figure read from prose as a typed value (``shown``: how the receipt wrote it)."""
    keys = fact_keys(h)
    if not keys:
        return None
    return Value(h.kind, keys, h.text if shown is None else shown, h.number, h.unit)


# ------------------------------------------------------------------ claims


_YEARLESS_DAY = re.compile(
    r"^(?:[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?|\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?"
    r"[A-Za-z]{3,9}\.?)$"
)
_ISO_DURATION = re.compile(r"^P(?:T)?(\d+(?:\.\d+)?)([YMWDHS])$")
_ISO_COMPOUND = re.compile(
    r"^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$"
)


def _duration_from_iso(value: str) -> tuple[str, ...]:
    m = _ISO_DURATION.match(value)
    if m is None:
        # "PT11H30M" ("11 hours, and 30 minutes"), "P2DT3H": the whole span in seconds
        c = _ISO_COMPOUND.match(value)
        if c is None or not any(c.groups()):
            return ()
        d, h, mi, sec = (float(g) if g else 0.0 for g in c.groups())
        return seconds_keys(d * 86400 + h * 3600 + mi * 60 + sec)
    x, unit = float(m.group(1)), m.group(2)
    if value.startswith("PT"):
        factor = {"H": 3600.0, "M": 60.0, "S": 1.0}.get(unit)
        return _duration_keys(x, "s", factor) if factor else ()
    if unit in ("D", "W"):
        return _duration_keys(x, "d", 7.0 if unit == "W" else 1.0)
    if unit in ("M", "Y"):
        return _duration_keys(x, "mo", 12.0 if unit == "Y" else 1.0)
    return ()


def _rounded_seconds(key: str) -> str:
    """The key of a span of seconds rounded to whole seconds, when that is within 1% of
    it ("dur:s:5.001" as "dur:s:5"); "" otherwise."""
    if not key.startswith("dur:s:"):
        return ""
    try:
        x = float(key[6:])
    except ValueError:
        return ""
    r = round(x)
    if r < 1 or r == x or abs(x - r) > 0.01 * x:
        return ""
    return _duration_keys(float(r), "s", 1.0)[0]


def fact_keys(h: HardFact, *, claimed: bool = False) -> tuple[str, ...]:
    """The lookup keys of a hard fact: claimed (``claimed=True``) or read from evidence.

    A date written without a year ("March 27") is looked up by month and day; a
    dated receipt is also filed under its month, quarter and year, so that it backs
    "in March 2026" and "in Q1".
    """
    kind, v = h.kind, h.value
    if kind in ("money", "count", "number", "percent") and h.number is not None:
        keys = [num_key(h.number)]
        if h.number < 0:
            # a calculator's "-2580.0": "a refund of $2580"; a deduction a reply writes
            # ("Certificate: -$500") is the certificate's 500; a diff's "-87" its
            # deletions (checks/figures decides which field may hold it)
            keys.append(num_key(-h.number))
        if kind == "percent" or (kind == "money" and h.unit in PENNIES):
            # (60p is the 0.6 of a price in pounds, and the 60 of a field in pence)
            keys.append(num_key(h.number / 100))
        if kind == "count" and h.unit:
            unit = _DURATION_FIELD.get(h.unit) or _DURATION_FIELD.get(h.unit + "s")
            if unit is not None:
                keys.extend(_duration_keys(h.number, *unit))
        return tuple(keys)
    if kind == "duration":
        spans = _duration_from_iso(v)
        if not claimed:
            # "timed out after 5001 milliseconds": "after 5 seconds" as a reply rounds it
            spans += tuple(_rounded_seconds(k) for k in spans if _rounded_seconds(k))
        return spans
    if kind == "version":
        return (f"v:{v.lstrip('v')}",)
    if kind == "date":
        if v.startswith("---"):
            return (f"dm:{v[3:]}",)  # "on the 28th": a day of some month
        day = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", v)
        if day is not None:
            if claimed:
                return (f"md:{v[5:]}",) if _YEARLESS_DAY.match(h.text.strip()) else (f"d:{v}",)
            y, mo = int(day.group(1)), int(day.group(2))
            return (
                f"d:{v}",
                f"md:{v[5:]}",
                f"d:{v[:7]}",
                f"d:{y}-Q{(mo - 1) // 3 + 1}",
                f"d:{y}",
                f"dm:{v[8:]}",
            )
        month = re.fullmatch(r"(\d{4})-(\d{2})", v)
        if month is not None and not claimed:
            y, mo = int(month.group(1)), int(month.group(2))
            return (f"d:{v}", f"d:{y}-Q{(mo - 1) // 3 + 1}", f"d:{y}")
        return (f"d:{v}",)
    if kind == "time":
        if not v.endswith("Z"):
            hour = int(v[:2]) if v[:2].isdigit() else 0
            if claimed and 1 <= hour <= 7 and _TWELVE_HOUR.fullmatch(h.text.strip()):
                # "1:30" with no am or pm (a range's "1:30–2:15 pm", a day's "3:00–4:00")
                # is read as the clock shows it, either half of the day (not "11:00",
                # which a day in 24-hour times writes too)
                return (f"t:{v[:5]}", f"t:{hour + 12:02d}{v[2:5]}")
            return (f"t:{v[:5]}",)
        local = None if claimed else _local_time(h.text)
        # "11 AM EST" in a message is "11 AM" said without its zone, too
        return (f"tz:{v}", f"t:{local}") if local else (f"tz:{v}",)
    if kind == "datetime":
        out = [f"d:{v[:10]}"] if len(v) >= 10 else []
        if not claimed and len(v) >= 10:
            out.append(f"md:{v[5:10]}")
        if len(v) >= 16:
            out.append(f"tz:{v[11:16]}Z" if v.endswith("Z") else f"t:{v[11:16]}")
            if v.endswith("Z") and not claimed:
                out.append(f"t:{v[11:16]}")  # "01:00" said of a UTC stamp is read as written
        return tuple(out)
    return ()


#: An early clock hour written with no am/pm and no leading zero ("1:30", not "01:30",
#: "1:30 pm" or "11:30").
_TWELVE_HOUR = re.compile(r"[1-7](?::[0-5]\d)?")
_CLOCK = re.compile(r"(\d{1,2})(?:[:.](\d{2}))?\s*([ap])?\.?\s*m?\.?", re.IGNORECASE)


def _local_time(text: str) -> str | None:
    """The clock time as written ("11 AM EST" is 11:00), before its zone."""
    m = _CLOCK.match(text.strip())
    if m is None:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    half = (m.group(3) or "").lower()
    if half == "p" and hour < 12:
        hour += 12
    elif half == "a" and hour == 12:
        hour = 0
    if hour > 23 or minute > 59:
        return None
    return f"{hour:02d}:{minute:02d}"


def claim_keys(h: HardFact) -> tuple[str, ...]:
    """The lookup keys a claimed hard fact can be found under."""
    return fact_keys(h, claimed=True)


#: Units of measure: a count of things ("6 items") is never a measure ("6 ft").
MEASURES = frozenset(
    "ft feet foot in inch inches cm mm m km mi mile miles kg g lb lbs oz ml l gal qt "
    "gb mb tb kb w kw v mah hz khz mhz ghz mp px".split()
)


def compatible(h: HardFact, v: Value) -> bool:
    """Whether a claimed hard fact and a leaf value are the same kind of thing."""
    kind = h.kind
    if kind == "money":
        if v.kind not in ("money", "number"):
            return False
        return v.unit is None or h.unit is None or v.unit == h.unit
    if kind == "percent":
        return v.kind in ("percent", "number")
    if kind in ("count", "number"):
        if v.kind == "money" and kind == "count":
            return False
        if h.unit and v.unit and h.unit != v.unit and (h.unit in MEASURES or v.unit in MEASURES):
            return False  # "6 items" is no size of "6 ft"
        return v.kind in ("count", "number", "money", "percent") and v.number is not None
    if kind in ("date", "datetime"):
        # A year field ("founded_year": 2014) holds a date too.
        return v.kind in ("date", "datetime") or any(k.startswith("d:") for k in v.keys)
    if kind == "time":
        return v.kind in ("time", "datetime")
    if kind == "duration":
        return v.kind in ("duration", "number", "count")
    if kind == "version":
        return v.kind == "version"
    return False


def same_family(h: HardFact, v: Value) -> bool:
    """A value that a differing claim would contradict (money vs money, time vs time)."""
    kind = h.kind
    if kind == "money":
        return v.kind == "money" and (v.unit is None or h.unit is None or v.unit == h.unit)
    if kind == "percent":
        return v.kind == "percent"
    if kind == "count":
        return v.kind == "count"
    if kind in ("date", "datetime"):
        return v.kind in ("date", "datetime")
    if kind == "time":
        return v.kind in ("time", "datetime")
    if kind == "duration":
        return v.kind == "duration"
    if kind == "version":
        return v.kind == "version"
    return False


def words_of(text: str) -> list[str]:
    """Lowercase word tokens (for names, states and field words)."""
    return _WORD.findall(text.lower())
