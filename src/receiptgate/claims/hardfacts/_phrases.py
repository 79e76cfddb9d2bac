"""Figures with their words around them: a number and its unit or currency ("3 failing
tests", "USD 2.4M", "25 percent"), and the fixed date, time and money forms the
master pattern finds (claims/hardfacts)."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from receiptgate.claims.hardfacts._dates import (
    _date_cand,
    _duration,
    _nearest_day,
    _prev_context,
    _ref_day,
    _time_value,
    _tz_minutes,
)
from receiptgate.claims.hardfacts._lexicon import (
    _CONTEXT_WORDS,
    _CUR_CODES,
    _CUR_WORDS,
    _DAY_BEFORE,
    _DUR_GLUED_ONLY,
    _DUR_UNITS,
    _MODIFIERS,
    _MONEY_WORDS,
    _MONTHS,
    _MULT_EXP,
    _MULT_GLUED,
    _MULT_WORDS,
    _NEXT_WORD,
    _NOT_UNIT,
    _ORDINAL_LABEL,
    _ORDINALS,
    _PERCENT_WORDS,
    _REF_WORDS,
    _STREET,
    _SYMBOL_CUR,
    _Cand,
)
from receiptgate.claims.hardfacts._numbers import (
    _bare,
    _key,
    _prev_word,
    _singular,
    _spelled_before,
    _to_float,
)
from receiptgate.claims.hardfacts._tokens import _glued
from receiptgate.claims.models import HardFactKind

#: Minutes after hours written apart: the " 38 min" of "5 h 38 min".
_MINUTES_AFTER = re.compile(r"\s+\d{1,2}\s*(?:min|mins|minutes?|m)\b")


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
    if g == "md":
        # "due 3/20", "Tue 3/4", "on 11/06": a day without its year after a word that says
        # so (else a share: "2/3 of them"); month/day, or day/month where that is the
        # only reading, or the only one within two months of now
        word, _ = _prev_word(low, s, floor)
        if word.strip(",:") not in _DAY_BEFORE:
            return None
        a, b = int(m["m8"]), int(m["d8"])
        ref = _ref_day(now)
        first, second = _nearest_day(ref, a, b), _nearest_day(ref, b, a)
        key = first or second
        near = timedelta(days=60)
        if (
            first
            and second
            and abs(date.fromisoformat(second) - ref) <= near < abs(date.fromisoformat(first) - ref)
        ):
            key = second
        return None if key is None else (s, e, "date", key, None, "day")
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


def _next_word(low: str, i: int) -> tuple[str, int]:
    """The word after ``i`` (whitespace allowed before it) and its end."""
    m = _NEXT_WORD.match(low, i)
    return ("", i) if m is None else (m.group(1), m.end())


def _cur_of(word: str) -> str | None:
    if word in _CUR_CODES:
        return "CNY" if word == "rmb" else word.upper()
    return _CUR_WORDS.get(word)


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
        if sign == 0 and p - 1 > floor and low[p - 1] == " ":
            # "Outbound (May 17):", "HAT235 (BOS–MCO, May 18)": a day before a bracket
            word, ws = _prev_word(low, p, floor)
            dated = (
                _prev_context(seg, low, p, num, word, ws, False, now) if word in _MONTHS else None
            )
            if dated is not None:
                return dated
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
    elif (
        unit in ("p", "c")
        and not usp
        and (ue >= n or not low[ue].isalnum())
        # (not "1080p", "4c": a resolution, a model)
        and ("." in vs or 10 <= x < 100 or (unit == "p" and x < 100))
    ):
        # "26.35p", "60p", "99c": an amount in pence or cents (of a pound, a euro or a
        # dollar: which, the records say)
        return (s, ue, "money", f"{vs}{unit}", x, unit), ue
    elif ue < n and low[ue].isdigit():
        # "5 x86", "3a7": the word runs into digits, so it is not a unit.
        if not usp:
            return _glued(seg, low, p, s, x, vs, unit, ue)
    elif unit in ("business", "working", "calendar") and nxt in ("day", "days") and not mult:
        # "5 to 7 business days": a duration in days, not a count of "business".
        return _duration(s, nxt_end, x, nxt, "", 0, word, ws, now)
    elif unit in _DUR_UNITS and (
        not usp
        or unit not in _DUR_GLUED_ONLY
        # "in 7.94 s", "Time: 7.84 s", "took 1.5 h": a decimal, then the unit apart
        or ("." in vs and unit in ("s", "h"))
        # "5 h 38 min": hours apart, then minutes (a timetable's journey time)
        or (unit == "h" and _MINUTES_AFTER.match(low, ue) is not None)
    ):
        if mult:
            return _bare(p, s, sign, num)
        if unit == "d" and not usp and seg[ue - 1] == "D" and x in (1, 2, 3, 4):
            # "a 1D array", "the 3D model": dimensions, not days ("3d" stays days)
            return None, ue
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
