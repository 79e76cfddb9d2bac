"""Match hard facts against receipts: support, contradiction or absence.

A receipt *supports* a hard fact when it carries an equal normalised value
(``"$2.4M"`` meets ``revenue_usd=2400000``) **and** the text around that value
is about the same subject as the claim (content-word overlap, see
``is_about``): a CPU reading of 37% never supports "revenue grew 37%". A
receipt *contradicts* it when, about the same subject, it carries a value of
the same family that differs. Stale receipts (older than the freshness window
of their kind and of the claim's risk class) neither support nor contradict.

Receipts are indexed once per validation by value key and by magnitude, so a
claim costs a few dictionary lookups, not a scan of every receipt.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from receiptgate.checks.words import GENERIC, content_words
from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import HardFact
from receiptgate.evidence.receipts import Receipt, ReceiptKind

#: Kinds whose values compare by magnitude across forms (money vs a bare number).
_MAGNITUDE = frozenset({"money", "number", "count"})
_WINDOW = 160


def family(kind: str) -> str:
    """Comparison family of a hard-fact kind."""
    if kind in _MAGNITUDE:
        return "magnitude"
    if kind == "datetime":
        return "date"
    return kind


@dataclass(slots=True, frozen=True)
class Occurrence:
    """A hard fact inside a receipt, with the words around it."""

    receipt: int
    fact: HardFact
    words: frozenset[str]
    label: str  # the words just before the value ("contract_value_usd")
    text: str  # the window and the call's context, lowercased (for anchors)
    body: str  # the receipt text the value was read from (for qualifier checks)
    content_end: int = -1  # where the receipt's own content ends in ``body`` (args follow)


@dataclass(slots=True)
class ReceiptEntry:
    receipt: Receipt
    words: frozenset[str]
    text: str  # tool name, args and content, lowercased (for the action ledger)
    occurrences: list[Occurrence] = field(default_factory=list)


def _window(content: str, start: int, end: int) -> tuple[int, int]:
    """The line holding [start, end), or a bounded window when lines are long."""
    line_start = content.rfind("\n", 0, start) + 1
    line_end = content.find("\n", end)
    if line_end < 0:
        line_end = len(content)
    if line_end - line_start <= 2 * _WINDOW:
        return line_start, line_end
    return max(line_start, start - _WINDOW), min(line_end, end + _WINDOW)


_PERCENTISH = re.compile(r"pct|percent|rate|ratio|share|util|usage|%", re.IGNORECASE)
# The field a value belongs to: "contract_value_usd=", "\"error_rate_pct\": ", "Gross margin: ".
_KEY = re.compile(r"([A-Za-z_][\w.-]{0,40})[\"']?\s*[:=]\s*[\"']?[$€£]?\s*$")
_LABEL = re.compile(r"([A-Za-z_][\w .-]{0,40}?)[\"']?\s*[:=]?\s*[\"']?[$€£]?\s*$")


class ReceiptIndex:
    """The receipts of a session, indexed for hard-fact and ledger lookups.

    Build it once per session and ``add`` receipts as they arrive; pass it to
    ``Gate.validate(receipts=...)`` so that a validation costs lookups, not a
    re-read of every receipt. (A plain list of receipts is indexed per call.)
    Relative dates inside a receipt resolve against its ``created_at`` (or the
    time it was added); freshness is judged at query time against ``now``.

    Not thread-safe for concurrent ``add``; reads after ``add`` returns are safe.
    """

    def __init__(self, receipts: Sequence[Receipt] = (), *, now: datetime | None = None) -> None:
        self.now = now or datetime.now(UTC)
        self.entries: list[ReceiptEntry] = []
        self.by_value: dict[tuple[str, str], list[Occurrence]] = defaultdict(list)
        self.by_family: dict[str, list[Occurrence]] = defaultdict(list)
        self.by_word: dict[tuple[str, str], list[Occurrence]] = defaultdict(list)
        self.entries_by_word: dict[str, list[int]] = defaultdict(list)
        #: Derived views (the action ledger's) cached per index size.
        self.cache: dict[str, object] = {}
        for r in receipts:
            self.add(r)

    def add(self, r: Receipt) -> None:
        """Indexes one more receipt."""
        i = len(self.entries)
        context = " ".join(
            x for x in (r.source or "", r.tool or "", json.dumps(r.args) if r.args else "") if x
        )
        context_words = content_words(context)
        entry = ReceiptEntry(
            r,
            content_words(r.content) | context_words,
            f"{context}\n{r.content}".lower(),
        )
        body = r.content
        if r.args:
            # Values passed to a tool count too: deploy(version="2.3.1").
            body += "\n" + "\n".join(f"{k}: {_flat(v)}" for k, v in r.args.items())
        has_percent = "%" in body
        for h in extract_hard_facts(body, now=r.created_at or self.now):
            if h.kind == "identifier":
                continue
            ws, we = _window(body, h.start, h.end)
            window = body[ws : h.start] + " " + body[h.end : we]
            occ = Occurrence(
                i,
                h,
                content_words(window) | context_words | _month_words(window),
                _label(body[ws : h.start]),
                f"{context}\n{body[ws:we]}".lower(),
                body,
                len(r.content),
            )
            entry.occurrences.append(occ)
            for key in _keys(occ, has_percent):
                self.by_value[key].append(occ)
            fam = family(h.kind)
            self.by_family[fam].append(occ)
            for w in occ.words - GENERIC:
                self.by_word[(fam, w)].append(occ)
        for w in entry.words:
            self.entries_by_word[w].append(i)
        self.entries.append(entry)
        self.cache.clear()

    def __len__(self) -> int:
        return len(self.entries)

    def is_fresh(
        self, receipt: Receipt, limit: timedelta | None, now: datetime | None = None
    ) -> bool:
        """Whether ``receipt`` is inside the freshness window ``limit`` at ``now``."""
        if limit is None or receipt.created_at is None:
            return True
        return (now or self.now) - receipt.created_at <= limit

    def near(self, fam: str, words: frozenset[str]) -> list[Occurrence]:
        """Values of a family whose surroundings share a content word with ``words``."""
        seen: dict[int, Occurrence] = {}
        for w in words:
            for occ in self.by_word.get((fam, w), ()):
                seen.setdefault(id(occ), occ)
        return list(seen.values())

    def candidates(self, h: HardFact) -> list[Occurrence]:
        """Occurrences in receipts whose value equals ``h``'s, in any written form."""
        seen: dict[int, Occurrence] = {}
        for key in _claim_keys(h):
            for occ in self.by_value.get(key, ()):
                if _same_currency(h, occ.fact, occ.label):
                    seen.setdefault(id(occ), occ)
        return list(seen.values())


_DURATION_UNIT = re.compile(
    r"(?:^|_|\b)(ms|millis\w*|secs?|seconds?|mins?|minutes?|hours?|hrs?|"
    r"days?|weeks?|months?|years?|yrs?)(?:$|_|\b)",
    re.IGNORECASE,
)
_UNIT_KEY = {
    "ms": ("s", 0.001),
    "millis": ("s", 0.001),
    "sec": ("s", 1.0),
    "second": ("s", 1.0),
    "min": ("s", 60.0),
    "minute": ("s", 60.0),
    "hour": ("s", 3600.0),
    "hr": ("s", 3600.0),
    "day": ("d", 1.0),
    "week": ("d", 7.0),
    "month": ("mo", 1.0),
    "year": ("mo", 12.0),
    "yr": ("mo", 12.0),
}


def _unit_of(word: str) -> tuple[str, float] | None:
    w = word.lower()
    if w not in ("ms", "s") and w.endswith("s"):
        w = w[:-1]  # "seconds" -> "second"; "ms" stays
    if w.startswith("milli"):
        w = "millis"
    return _UNIT_KEY.get(w)


def _duration_key(number: float, unit_word: str) -> str | None:
    u = _unit_of(unit_word)
    if u is None:
        return None
    return f"{u[0]}:{_num_key(number * u[1])}"


_ISO_DURATION = re.compile(r"^PT?([\d.]+)([YMWDHS])$")
_ISO_UNIT = {"Y": "year", "W": "week", "D": "day", "H": "hour", "S": "second"}


def _iso_duration_key(value: str) -> str | None:
    m = _ISO_DURATION.match(value)
    if m is None:
        return None
    unit = m.group(2)
    word = "minute" if (unit == "M" and value.startswith("PT")) else _ISO_UNIT.get(unit, "month")
    return _duration_key(float(m.group(1)), word)


def _keys(occ: Occurrence, has_percent_sign: bool) -> list[tuple[str, str]]:
    """Every key under which a receipt value can be found."""
    h = occ.fact
    fam = family(h.kind)
    keys = [(fam, h.value)]
    if h.number is not None and fam in ("magnitude", "percent"):
        keys.append((fam, _num_key(h.number)))
    if h.kind in ("number", "count") and h.number is not None:
        if h.number.is_integer() and 1900 <= h.number <= 2100:
            keys.append(("date", str(int(h.number))))  # year=2025
        if 0 < h.number < 1:
            # "0.861" in a receipt is the 86.1% a sentence reports.
            keys.append(("percent", _num_key(h.number * 100)))
        if _PERCENTISH.search(occ.label) or has_percent_sign:
            # conversion_rate_pct=37.0, or a table whose header says %usr.
            keys.append(("percent", _num_key(h.number)))
        unit = _DURATION_UNIT.search(occ.label)
        if unit:
            # term_months=36, non_renewal_notice_days=60, p95_ms=810
            dk = _duration_key(h.number, unit.group(1))
            if dk:
                keys.append(("duration", dk))
    if h.kind == "duration":
        dk = _iso_duration_key(h.value)
        if dk:
            keys.append(("duration", dk))
    if h.kind == "datetime" and len(h.value) >= 16:
        # A timestamp supports the day and the clock time it contains.
        keys.append(("time", h.value[11:16] + ("Z" if h.value.endswith("Z") else "")))
        keys.append(("time", h.value[11:16]))
    if fam == "date" and _ISO_DAY.match(h.value):
        # A dated receipt also backs "in March 2026", "in 2026" and "next quarter".
        year, month = h.value[:4], int(h.value[5:7])
        keys += [
            ("date", h.value[:10]),
            ("date", h.value[:7]),
            ("date", year),
            ("date", f"{year}-Q{(month - 1) // 3 + 1}"),
        ]
    elif fam == "date" and _ISO_MONTH_KEY.match(h.value):
        keys += [
            ("date", h.value[:4]),
            ("date", f"{h.value[:4]}-Q{(int(h.value[5:7]) - 1) // 3 + 1}"),
        ]
    if h.kind == "version":
        keys.append(("version", h.value.lstrip("v")))
    return keys


def _claim_keys(h: HardFact) -> list[tuple[str, str]]:
    """Keys to look a claimed value up by."""
    fam = family(h.kind)
    keys = [(fam, h.value)]
    if h.number is not None and fam in ("magnitude", "percent"):
        keys.append((fam, _num_key(h.number)))
    if h.kind == "duration":
        dk = _iso_duration_key(h.value)
        if dk:
            keys.append(("duration", dk))
        if h.number is not None and h.unit:
            dk = _duration_key(h.number, h.unit)
            if dk:
                keys.append(("duration", dk))
    if h.kind == "count" and h.number is not None and h.unit:
        dk = _duration_key(h.number, h.unit)
        if dk:
            keys.append(("duration", dk))  # "810 ms" read as a count
    if h.kind == "version":
        keys.append(("version", h.value.lstrip("v")))
    if h.kind == "time" and h.value.endswith("Z"):
        keys.append(("time", h.value[:-1]))
    return keys


_ISO_MONTH = re.compile(r"\b\d{4}-(0[1-9]|1[0-2])\b")
_MONTHS = (
    "january february march april may june july august september october november december"
).split()


def _month_words(text: str) -> frozenset[str]:
    """Month names for ISO months in a row ("month=2026-02" is about February)."""
    return frozenset(_MONTHS[int(m.group(1)) - 1] for m in _ISO_MONTH.finditer(text))


def _label(prefix: str) -> str:
    """The field a value belongs to.

    ``key=value`` rows and JSON give the key ("contract_value_usd"); prose with a
    colon gives the words before it ("revenue growth: 36%" -> "revenue growth").
    """
    key = _KEY.search(prefix)
    if key is not None and ("=" in prefix[key.end(1) :] or "_" in key.group(1)):
        return key.group(1)
    m = _LABEL.search(prefix)
    if m is not None:
        return m.group(1).strip()
    return key.group(1) if key is not None else ""


def _flat(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


_ISO_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}")
_ISO_MONTH_KEY = re.compile(r"^\d{4}-\d{2}$")


def _looks_like_year(h: HardFact) -> bool:
    return (
        h.kind in ("number", "date")
        and h.number is not None
        and float(h.number).is_integer()
        and 1900 <= h.number <= 2100
    ) or (h.kind == "date" and len(h.value) == 4)


def _num_key(n: float) -> str:
    return "#" + repr(round(n, 6))


_CURRENCY_IN_LABEL = re.compile(r"(?:^|[^a-z])(usd|eur|gbp|jpy|chf|inr|cad|aud|cny)(?:$|[^a-z])")


def _currency(h: HardFact, label: str) -> str | None:
    if h.kind == "money":
        return h.unit
    m = _CURRENCY_IN_LABEL.search(label.lower())
    return m.group(1).upper() if m else None


def _same_currency(a: HardFact, b: HardFact, b_label: str = "") -> bool:
    """Money compares only with the same currency; a bare number takes its field's
    currency ("revenue_usd=2400000" is dollars, so it does not back "€2.4M")."""
    if a.kind != "money":
        return True
    other = _currency(b, b_label)
    return other is None or other == a.unit


def is_about(
    claim_words: frozenset[str],
    window_words: frozenset[str],
    anchored: bool = False,
) -> bool:
    """Whether a receipt window is about the claim's subject.

    Generic measurement nouns ("usage", "rate") do not count: the claim's own
    words must meet the window — two of them, or one when the claim has at most
    two, or when the receipt names the sentence's host, file or customer
    (``anchored``). A claim with no content words ("It was 37%.") is about
    anything.
    """
    specific = claim_words - GENERIC
    if not specific:
        return not claim_words or bool(claim_words & window_words) or anchored
    shared = specific & window_words
    if len(shared) >= 2:
        return True
    return anchored or (bool(shared) and len(specific) <= 2)


@dataclass(slots=True)
class HardFactMatch:
    """The outcome for one hard fact."""

    fact: HardFact
    status: str  # supported | contradicted | unsupported | stale
    receipt_id: str | None = None
    receipt_kind: str | None = None
    detail: str = ""


def _show(h: HardFact) -> str:
    if h.number is not None and family(h.kind) == "magnitude":
        n = h.number
        return f"{int(n):,}" if float(n).is_integer() else f"{n:,.6g}"
    return h.text


@dataclass(frozen=True, slots=True)
class ClaimContext:
    """What a hard fact's sentence is about.

    Attributes:
        clause: content words of the clause around the figure.
        sentence: content words of the whole sentence (a weaker second chance).
        anchors: names, hosts, paths and ids the sentence names.
        qualifiers: periods the sentence names ("fy2025", "q4"), lowercased.
        linked: receipts already backing another claim of the sentence.
    """

    clause: frozenset[str]
    sentence: frozenset[str] = frozenset()
    anchors: tuple[str, ...] = ()
    qualifiers: frozenset[str] = frozenset()
    linked: frozenset[str] = frozenset()
    near: str = ""  # the lowercased words around the figure (its clause window)
    others: tuple[str, ...] = ()  # the other figures of the sentence (ids, dates), lowercased


_QUALIFIER = re.compile(r"\b(?:fy\s?(\d{2,4})|(q[1-4])|(h[12])|((?:19|20)\d\d))\b", re.IGNORECASE)
# "behind Contoso (22%)": a name right before a parenthesised value owns it.
_NAMED_BEFORE = re.compile(r"\b([A-Z][a-zA-Z0-9&-]+)\s*\(\s*[$€£]?\s*$")


def qualifiers_of(text: str) -> frozenset[str]:
    """Periods named in a text, as atoms.

    "FY2025" gives {"fy2025", "2025"}; "Q4 2025" gives {"q4", "2025"}.
    """
    out: set[str] = set()
    for m in _QUALIFIER.finditer(text):
        fy, q, half, year = m.groups()
        if fy:
            full = fy if len(fy) == 4 else "20" + fy
            out.update((f"fy{full}", full))
        elif q:
            out.add(q.lower())
        elif half:
            out.add(half.lower())
        elif year:
            out.add(year)
    return frozenset(out)


def _conflicts(occ: Occurrence, ctx: ClaimContext) -> bool:
    """The receipt ties this value to another period or another name than the sentence.

    "Gross margin: 71% (FY2025), 68% (FY2024)" does not back "68% in FY2025";
    "Northwind holds 14%, behind Contoso (22%)" does not back "Northwind has 22%".
    Only the words right next to the value count, on its own line.
    """
    body, start, end = occ.body, occ.fact.start, occ.fact.end
    line_start = body.rfind("\n", 0, start) + 1
    line_end = body.find("\n", end)
    line_end = len(body) if line_end < 0 else line_end
    before = body[max(line_start, start - 12) : start]
    after = body[end : min(line_end, end + 14)]
    if ctx.qualifiers:
        found = qualifiers_of(after) | qualifiers_of(before)
        if found and not found & ctx.qualifiers:
            return True
    if names_other_host(ctx.anchors, occ.text):
        return True
    if _other_row(occ, ctx):
        return True
    names = {a for a in ctx.anchors if a.isalpha()}
    if names:
        m = _NAMED_BEFORE.search(before)
        if m and m.group(1).lower() not in names and m.group(1).lower() not in _NOT_NAMES:
            return True
    return False


_SERIAL = re.compile(r"([a-z][a-z-]*?[-_.]?)\d+")


def names_other_host(names: Iterable[str], text: str) -> bool:
    """The sentence names hosts (``web-02``); the text names none of them but a sibling.

    "web-02" in the sentence and only "web-01" in the receipt: another host, another
    value. ``text`` is lowercased.
    """
    serial = [(n, m.group(1)) for n in names if (m := _SERIAL.fullmatch(n))]
    if not serial or any(n in text for n, _ in serial):
        return False
    return any(re.search(rf"\b{re.escape(prefix)}\d", text) for _, prefix in serial)


_ROW_EDGE = re.compile(r"\n|\}\s*,\s*\{")


def _other_row(occ: Occurrence, ctx: ClaimContext) -> bool:
    """The sentence names what another data row of the receipt holds, and this row none of it.

    "48 customers on the Enterprise plan" is not backed by "plan=pro customers=48" when
    "plan=enterprise ..." is another row; "memory on web-02" not by web-01's row; "build
    4830 took 14 minutes" not by the JSON object of run 4827. Rows are lines, or the
    objects of a JSON array. Months count in either spelling ("February", "2026-02").
    """
    content_end = occ.content_end if occ.content_end >= 0 else len(occ.body)
    if occ.fact.start >= content_end:
        return False  # a value in the call's arguments, not in a row of its output
    body = occ.body[:content_end].lower()
    rows: list[str] = []
    this = ""
    pos = 0
    for m in [*_ROW_EDGE.finditer(body), None]:
        end = m.start() if m is not None else len(body)
        row = body[pos:end]
        if pos <= occ.fact.start < max(end, pos + 1):
            this = row
        elif row.strip() and any(c.isdigit() for c in row):
            rows.append(row)
        pos = m.end() if m is not None else len(body)
    if not rows or not this:
        return False
    months = {r: " ".join(_month_words(r)) for r in (this, *rows)}
    every = [f"{r} {months[r]}" for r in (this, *rows)]
    line = every[0]
    marks = [a for a in ctx.anchors if a in ctx.near]
    marks += [w for w in content_words(ctx.near) - GENERIC if len(w) > 3]
    marks += [o for o in ctx.others if len(o) > 2]  # "build 4830", "yesterday" = 2026-03-10
    # Only marks that tell rows apart count ("plan" is in every row, "enterprise" in one).
    telling = [m for m in marks if 0 < sum(m in r for r in every) < len(every)]
    return bool(telling) and not any(m in line for m in telling)


_NOT_NAMES = frozenset(
    """
        the a an in on at of for to by total is was usd eur gbp
        """.split()
)


def match_hard_fact(
    index: ReceiptIndex,
    h: HardFact,
    ctx: ClaimContext,
    freshness: Mapping[ReceiptKind, timedelta | None],
    class_limit: timedelta | None,
    now: datetime | None = None,
) -> HardFactMatch:
    """Decides support / contradiction / absence of one hard fact.

    A value found in a receipt that already backs another claim of the sentence
    (``ctx.linked``: the test run behind "I ran the tests") needs no further
    subject overlap ("all 42 pass" and "42 passed").
    """
    stale: Occurrence | None = None
    support: Occurrence | None = None
    for occ in _support_candidates(index, h, ctx):
        r = index.entries[occ.receipt].receipt
        limit = _tighter(freshness.get(r.kind), class_limit)
        if not index.is_fresh(r, limit, now):
            stale = stale or occ
            continue
        support = occ
        break
    if support is not None:
        r = index.entries[support.receipt].receipt
        # Contradiction wins (SPEC §4): another receipt giving another value for
        # the same thing turns support into a conflict the reader must see.
        other = None
        if family(h.kind) != "version" and support.label:
            other = _rival(index, h, ctx, freshness, class_limit, now, exclude=support.receipt)
            if other is not None and other.label.lower() != support.label.lower():
                other = None  # only the same field in another receipt is a conflict
        if other is not None:
            o = index.entries[other.receipt].receipt
            return HardFactMatch(
                h,
                "contradicted",
                o.id,
                o.kind,
                f"contradicts {o.id}: {other.label or 'value'} {_show(other.fact)} ≠ claimed "
                f"{_show(h)} (though {r.id} agrees)",
            )
        label = f"{support.label} " if support.label else ""
        return HardFactMatch(
            h, "supported", r.id, r.kind, f"{r.id}: {label}{support.fact.text} matches {h.text}"
        )
    rival = _rival(index, h, ctx, freshness, class_limit, now)
    if rival is not None:
        r = index.entries[rival.receipt].receipt
        label = rival.label or "value"
        return HardFactMatch(
            h,
            "contradicted",
            r.id,
            r.kind,
            f"contradicts {r.id}: {label} {_show(rival.fact)} ≠ claimed {_show(h)}",
        )
    if stale is not None:
        r = index.entries[stale.receipt].receipt
        age = (now or index.now) - r.created_at if r.created_at else None
        days = f"{age.days} days old" if age is not None else "too old"
        return HardFactMatch(
            h,
            "stale",
            r.id,
            r.kind,
            f"{r.id} carries {h.text} but is {days}, past the freshness window for {r.kind}",
        )
    return HardFactMatch(h, "unsupported", None, None, f"no receipt carries {h.text}")


def _support_candidates(index: ReceiptIndex, h: HardFact, ctx: ClaimContext) -> list[Occurrence]:
    out: list[Occurrence] = []
    for occ in index.candidates(h):
        r = index.entries[occ.receipt].receipt
        if r.id in ctx.linked:
            out.append(occ)
            continue
        anchored = any(a in occ.text for a in ctx.anchors)
        about = is_about(ctx.clause, occ.words, anchored) or (
            len((ctx.sentence - GENERIC) & occ.words) >= 2
        )
        if about and not _conflicts(occ, ctx):
            out.append(occ)
    if not out and h.kind == "percent" and h.number is not None and ctx.anchors:
        # "CPU on web-01 is 37%" and mpstat on host web-01 printing 37.00.
        for occ in index.by_value.get(("magnitude", _num_key(h.number)), ()):
            if (
                occ.fact.kind == "number"
                and any(a in occ.text for a in ctx.anchors)
                and not _conflicts(occ, ctx)
            ):
                out.append(occ)
    if not out and h.kind == "version":
        # A version printed inside another token ("nginx/1.24.0").
        needle = re.compile(rf"(?<![\w.])v?{re.escape(h.value.lstrip('v'))}(?![\w])")
        for n, e in enumerate(index.entries):
            if needle.search(e.text):
                out.append(Occurrence(n, h, e.words, "", e.text, e.receipt.content))
                break
    return out


def _rival(
    index: ReceiptIndex,
    h: HardFact,
    ctx: ClaimContext,
    freshness: Mapping[ReceiptKind, timedelta | None],
    class_limit: timedelta | None,
    now: datetime | None = None,
    exclude: int | None = None,
) -> Occurrence | None:
    """A different value of the same kind, for the same subject and label."""
    fam = family(h.kind)
    for occ in index.near(fam, ctx.clause - GENERIC):
        if occ.receipt == exclude:
            continue
        v = occ.fact.value
        if v == h.value or (
            h.number is not None and occ.fact.number is not None and h.number == occ.fact.number
        ):
            continue
        if _looks_like_year(occ.fact) and not _looks_like_year(h):
            continue  # "[Wed Mar 11 2026]" is a timestamp, not a rival for "code 137"
        if fam == "date" and (len(v) != len(h.value) or v.startswith(h.value)):
            continue  # a quarter is no rival for a day
        r = index.entries[occ.receipt].receipt
        if not is_about(ctx.clause, occ.words) or not ctx.clause - GENERIC:
            continue
        label_words = content_words(occ.label) - GENERIC
        if label_words and not label_words & ctx.clause:
            continue  # "window 24h" is no rival for "p95 latency 810 ms"
        if not label_words and len((ctx.clause - GENERIC) & occ.words) < 2:
            continue  # an unlabelled value needs a closer match to count as a rival
        if fam == "magnitude" and not _same_currency(h, occ.fact, occ.label):
            continue
        if (
            fam == "magnitude"
            and (occ.fact.kind == "count") != (h.kind == "count")
            and occ.fact.unit
            and h.unit
            and occ.fact.unit != h.unit
        ):
            continue  # "12 months" in a contract row is no rival for a dollar amount
        if not index.is_fresh(r, _tighter(freshness.get(r.kind), class_limit), now):
            continue
        if _conflicts(occ, ctx):
            continue  # tied to another period, host or row: not this claim's value
        return occ
    return None


def _tighter(a: timedelta | None, b: timedelta | None) -> timedelta | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)
