"""Dates, times and durations as the scanner reads them: a day without a year is its
occurrence nearest to ``now``, relative dates ("last Friday", "in 2 weeks") resolve
against it, times keep their zone (claims/hardfacts)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from receiptgate.claims.hardfacts._lexicon import (
    _CTIME,
    _DATE_DESIGNATORS,
    _DAY_SHIFT,
    _DUR_UNITS,
    _MONTH_FIRST,
    _MONTH_NUMBER,
    _MONTHS,
    _STEP,
    _TZ_OFFSETS,
    _VERSION_WORDS,
    _WEEKDAYS,
    _YEAR_PREPS,
    _YEAR_PREPS_WEAK,
    _Cand,
)
from receiptgate.claims.hardfacts._numbers import _fmt, _prev_word, _spelled_before


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


def _date_cand(s: int, e: int, y: int, m: int, d: int) -> _Cand | None:
    try:
        return (s, e, "date", date(y, m, d).isoformat(), None, "day")
    except ValueError:
        return None


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
