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
  units ("16GB" -> ``"16 gb"``); ordinals are numbers ("3rd" -> ``"3"``), except
  a day after "the" ("on the 28th", "not the 27th,"), a day of the month ``"---28"``.
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

import re
from bisect import bisect_right
from datetime import date, datetime

from receiptgate.claims.hardfacts._dates import _keyword, _with_ctime
from receiptgate.claims.hardfacts._lexicon import (
    _DOLLAR_PREFIX,
    _KEYWORDS,
    _MASTER,
    _NUMPHRASE,
    _SHAPED,
    _SYMBOL_CUR,
    _SYMBOLIC,
    _TOKCH,
    _TRIGGER,
    _Cand,
)
from receiptgate.claims.hardfacts._numbers import _with_european_money, normalise_number
from receiptgate.claims.hardfacts._phrases import _master, _numphrase
from receiptgate.claims.hardfacts._tokens import _tok_end, _token
from receiptgate.claims.models import HardFact

__all__ = ["extract_hard_facts", "normalise_number"]


def _lower_same_length(seg: str) -> str:
    low = seg.lower()
    if len(low) == len(seg):
        return low
    # A few characters grow when lowercased ("İ"); keep them so offsets line up.
    return "".join(c if len(c.lower()) != 1 else c.lower() for c in seg)


#: A file extension right after a number: "2048.py", "404.html", "01.txt".
_FILE_EXT = re.compile(r"\.[a-z][a-z0-9]{0,4}\b(?![.-]?\d)")


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
                elif mm.end() < n and low[mm.end()] == "." and _FILE_EXT.match(low, mm.end()):
                    # "2048.py", "404.html": a file's name, not a number
                    res = None, max(_tok_end(low, p), p + 1)
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
    out = [
        HardFact(kind, seg[s:e], start + s, start + e, value, number, unit)
        for s, e, kind, value, number, unit in cands
    ]
    if "the " in low:
        out = [_day_of_month(text, h) for h in out]
    if "-" in seg or "–" in seg or " t" in seg or " un" in seg:
        out = _later_days(text, out)
    if len(out) >= 2:
        out = _earlier_days(text, out)
    if "+" in seg:
        # "arrives 03:00 + 1 day", "05:10 (+1 day)": the schedule's next-day mark
        out = [h for h in out if not _next_day_mark(text, h)]
    if len(out) >= 2 and "min" in low:
        out = _hours_and_minutes(text, out)
    if _CLOCK_SPAN_HINT.search(seg):
        out = _clock_spans(text, start, seg, out)
    return out


#: A span written as a runner or a CI page prints it: "7m 39s", "1h 5m", "4m12s", "2h".
_CLOCK_SPAN = re.compile(
    r"(?<![\w.:])(?:(\d{1,3})h\s?)?(?:(\d{1,3})m\s?)?(?:(\d{1,3}(?:\.\d+)?)s)?(?!\w|\.\d)"
)


#: Two parts of such a span side by side (what makes it worth reading the text for them).
_CLOCK_SPAN_HINT = re.compile(r"\d\s?[hm]\s?\d{1,3}(?:\.\d+)?\s?[ms]\b")


def _clock_spans(text: str, offset: int, seg: str, out: list[HardFact]) -> list[HardFact]:
    """Each "7m 39s" (two or three parts: hours, minutes, seconds) as one duration in
    seconds, in place of the figures read from its parts ("7m" as seven metres)."""
    spans: list[HardFact] = []
    for m in _CLOCK_SPAN.finditer(seg):
        parts = [m.group(i) for i in (1, 2, 3)]
        if sum(p is not None for p in parts) < 2:
            continue
        h, mi, sec = (float(p) if p is not None else 0.0 for p in parts)
        total = h * 3600 + mi * 60 + sec
        iso = f"PT{int(h)}H{int(mi)}M{sec:g}S"
        a, b = offset + m.start(), offset + m.end()
        spans.append(HardFact("duration", text[a:b], a, b, iso, total, "second"))
    if not spans:
        return out
    kept = [f for f in out if not any(f.start < x.end and x.start < f.end for x in spans)]
    return sorted(kept + spans, key=lambda f: f.start)


#: What joins the hours and the minutes of one duration: "5 hours 30 minutes", "1 hour and
#: 15 minutes", "2 hrs, 10 min".
_HOURS_THEN_MINUTES = re.compile(r"\s*(?:,\s*)?(?:and\s+)?")


def _hours_and_minutes(text: str, out: list[HardFact]) -> list[HardFact]:
    """Hours and the minutes right after them as one duration: "5 hours 30 minutes" is
    ``PT5H30M`` (5.5 hours), not a span of 5 hours and another of 30 minutes."""
    result: list[HardFact] = []
    for h in out:
        prev = result[-1] if result else None
        if (
            prev is not None
            and prev.kind == h.kind == "duration"
            and prev.unit == "hour"
            and h.unit == "minute"
            and prev.number is not None
            and prev.number.is_integer()
            and h.number is not None
            and h.number.is_integer()
            and h.number < 60
            and _HOURS_THEN_MINUTES.fullmatch(text, prev.end, h.start)
        ):
            hours, minutes = int(prev.number), int(h.number)
            result[-1] = HardFact(
                "duration",
                text[prev.start : h.end],
                prev.start,
                h.end,
                f"PT{hours}H{minutes}M",
                hours + minutes / 60,
                "hour",
            )
            continue
        result.append(h)
    return result


def _next_day_mark(text: str, h: HardFact) -> bool:
    """Whether a duration is the mark of a schedule's next day after a time ("03:00 + 1
    day", "3:00 PM +1 day"), no span a reply claims."""
    if h.kind != "duration":
        return False
    end = h.start + 1 if h.text.startswith("+") else h.start
    return _NEXT_DAY_MARK.search(text, max(0, end - 30), end) is not None


#: What puts a day after a time: "03:00 + " of "arrives 03:00 + 1 day".
_NEXT_DAY_MARK = re.compile(
    r"\d{1,2}:\d{2}(?:\s*[AaPp]\.?[Mm]\.?)?(?:\s*[A-Z]{2,4})?\s*\(?\s*\+\s*$"
)


#: The end of a range of days after a date: "May 29-30, 2024", "May 6–13", "May 20-25.",
#: "May 20 to 25"; not a count of something ("May 20 to 25 people").
_RANGE_END = re.compile(
    # ("Oct 14–17:" ends a label; "14-17:30" is no day)
    r"(?:\s?[-–]\s?(?P<day>\d{1,2})(?!\d|:\d|\.\d)|"
    r"\s+(?:to|through|thru|until)\s+(?P<to>\d{1,2})(?!\d|:\d|\.\d|\s*[a-z]))"
    r"(?:,?\s+(?P<year>\d{4})\b)?"
)
#: A later day written after a full date as month and day: "2024-05-06/05-13".
_NEXT_DAY = re.compile(r"/(\d{2})-(\d{2})(?![\d-])")


def _later_days(text: str, out: list[HardFact]) -> list[HardFact]:
    """The later days written right after a date: a range in one month ("May 29-30, 2024":
    two dates, the year after them both of theirs) or the days of one trip after a full date
    ("2024-05-25/05-29/05-30": dates of its year); not the numbers 30, 29 and 2024."""
    result: list[HardFact] = []
    skip_to = -1
    for h in out:
        if h.start < skip_to:
            continue  # a number the range holds
        result.append(h)
        if h.kind != "date" or len(h.value) != 10 or h.value[4] != "-":
            continue
        if (m := _RANGE_END.match(text, h.end)) is not None:
            year = m.group("year") or h.value[:4]
            group = "day" if m.group("day") else "to"
            last = int(m.group(group))
            if last <= int(h.value[8:]) or not _is_day(int(year), int(h.value[5:7]), last):
                continue
            result[-1] = HardFact(
                "date", h.text, h.start, h.end, f"{year}{h.value[4:]}", None, h.unit
            )
            at = m.start(group)
            value = f"{year}-{h.value[5:7]}-{last:02d}"
            result.append(HardFact("date", m.group(group), at, m.end(group), value, None, h.unit))
            skip_to = m.end()
            continue
        if not text.startswith(h.value, h.start):
            continue
        at = h.end
        while (m := _NEXT_DAY.match(text, at)) is not None:
            month, day = int(m.group(1)), int(m.group(2))
            if not _is_day(int(h.value[:4]), month, day):
                break
            value = f"{h.value[:4]}-{month:02d}-{day:02d}"
            result.append(
                HardFact("date", m.group()[1:], m.start() + 1, m.end(), value, None, h.unit)
            )
            at = skip_to = m.end()
    return result


#: Between the first day of a range and a later date: "13–14 June", "Friday 13 and Saturday
#: 14 June", "13th to 16th June".
_TO_LATER_DAY = re.compile(
    r"(?:st|nd|rd|th)?\s*(?:[-–]|to|and|through|thru|until|till)\s*"
    r"(?:(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?\.?,?\s+)?",
    re.IGNORECASE,
)
_DAY_NUMBER = re.compile(r"\d{1,2}(?:st|nd|rd|th)?")


def _earlier_days(text: str, out: list[HardFact]) -> list[HardFact]:
    """The first day of a range written before the date that names the month ("13–14 June",
    "between Friday 13 and Saturday 14 June"): a date of that month, not the number 13."""
    result = list(out)
    for i in range(1, len(result)):
        h, p = result[i], result[i - 1]
        if h.kind != "date" or len(h.value) != 10 or h.value[4] != "-":
            continue
        if p.kind not in ("number", "count") or not _DAY_NUMBER.fullmatch(p.text):
            continue
        first = int(re.sub(r"\D", "", p.text))
        if not 1 <= first < int(h.value[8:]) or not _TO_LATER_DAY.fullmatch(text, p.end, h.start):
            continue
        value = f"{h.value[:8]}{first:02d}"
        result[i - 1] = HardFact("date", p.text, p.start, p.end, value, None, h.unit)
    return result


def _is_day(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


#: "on the 28th", "not the 27th": an ordinal day of a month the sentence does not name.
_ORDINAL_DAY = re.compile(r"^(\d{1,2})(?:st|nd|rd|th)$", re.IGNORECASE)
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)
_DAY_AFTER = re.compile(
    r"\s*(?:$|[,.;:!?)\]*_—–-]|(?:of|and|or|at|instead|not|but|so|to|for|in|is|was|rather|"
    r"then|when|which|as)\b)",
    re.IGNORECASE,
)


def _day_of_month(text: str, h: HardFact) -> HardFact:
    """An ordinal after "the" ("on the 28th") is a day of the month (``---28``), not a
    number: it is looked up among the days of dates."""
    if h.kind != "number" or not (m := _ORDINAL_DAY.match(h.text)):
        return h
    day = int(m.group(1))
    if not 1 <= day <= 31 or not _THE_BEFORE.search(text, max(0, h.start - 8), h.start):
        return h
    if not _DAY_AFTER.match(text, h.end):
        return h  # "the 3rd attempt": an ordinal of a noun
    return HardFact("date", h.text, h.start, h.end, f"---{day:02d}", None, "day")
