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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from receiptgate.checks.words import content_words
from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import HardFact
from receiptgate.evidence.receipts import Receipt, ReceiptKind

#: Kinds whose values compare by magnitude across forms (money vs a bare number).
_MAGNITUDE = frozenset({"money", "number", "count"})
_WINDOW = 160
_NUM_FMT = "{:,.6g}"


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
_LABEL = re.compile(r"([A-Za-z_][\w .-]{0,40}?)\s*[:=]?\s*[$€£]?\s*$")


class ReceiptIndex:
    """The receipts of one validation, indexed for hard-fact and ledger lookups."""

    def __init__(self, receipts: Sequence[Receipt], *, now: datetime) -> None:
        self.now = now
        self.entries: list[ReceiptEntry] = []
        self.by_value: dict[tuple[str, str], list[Occurrence]] = defaultdict(list)
        self.by_family: dict[str, list[Occurrence]] = defaultdict(list)
        for i, r in enumerate(receipts):
            context = " ".join(
                x for x in (r.source or "", r.tool or "", json.dumps(r.args) if r.args else "") if x
            )
            context_words = content_words(context)
            entry = ReceiptEntry(
                r,
                content_words(r.content) | context_words,
                f"{context}\n{r.content}".lower(),
            )
            ref = r.created_at or now
            body = r.content
            if r.args:
                # Values passed to a tool count too: deploy(version="2.3.1").
                body += "\n" + "\n".join(f"{k}: {_flat(v)}" for k, v in r.args.items())
            for h in extract_hard_facts(body, now=ref):
                if h.kind == "identifier":
                    continue
                ws, we = _window(body, h.start, h.end)
                words = content_words(body[ws : h.start] + " " + body[h.end : we])
                m = _LABEL.search(body[ws : h.start])
                occ = Occurrence(
                    i,
                    h,
                    words | context_words,
                    m.group(1).strip() if m else "",
                    f"{context}\n{body[ws:we]}".lower(),
                )
                entry.occurrences.append(occ)
                fam = family(h.kind)
                self.by_value[(fam, h.value)].append(occ)
                if h.number is not None and fam == "magnitude":
                    self.by_value[(fam, _num_key(h.number))].append(occ)
                elif h.number is not None and fam == "percent":
                    self.by_value[("percent", _num_key(h.number))].append(occ)
                if h.kind == "number" and h.number is not None:
                    if 0 < h.number < 1:
                        # "0.861" in a receipt is the 86.1% a sentence reports.
                        self.by_value[("percent", _num_key(h.number * 100))].append(occ)
                    if _PERCENTISH.search(occ.label) or "%" in body:
                        # conversion_rate_pct=37.0, or a table whose header says %usr.
                        self.by_value[("percent", _num_key(h.number))].append(occ)
                if h.kind == "datetime" and len(h.value) >= 16:
                    # A timestamp supports the day and the clock time it contains.
                    self.by_value[("date", h.value[:10])].append(occ)
                    zone = "Z" if h.value.endswith("Z") else ""
                    self.by_value[("time", h.value[11:16] + zone)].append(occ)
                    self.by_value[("time", h.value[11:16])].append(occ)
                self.by_family[fam].append(occ)
            self.entries.append(entry)

    def __len__(self) -> int:
        return len(self.entries)

    def is_fresh(self, receipt: Receipt, limit: timedelta | None) -> bool:
        """Whether ``receipt`` is inside the freshness window ``limit``."""
        if limit is None or receipt.created_at is None:
            return True
        return self.now - receipt.created_at <= limit

    def candidates(self, h: HardFact) -> list[Occurrence]:
        """Occurrences in receipts whose value equals ``h``'s."""
        fam = family(h.kind)
        found = list(self.by_value.get((fam, h.value), ()))
        if h.number is not None and fam in ("magnitude", "percent"):
            for occ in self.by_value.get((fam, _num_key(h.number)), ()):
                if occ not in found and _same_currency(h, occ.fact):
                    found.append(occ)
        if fam == "date":
            # "in March 2026" is supported by a receipt dated 2026-03-06.
            for occ in self.by_family.get("date", ()):
                if occ.fact.value.startswith(h.value) and occ not in found:
                    found.append(occ)
        return found


def _flat(value: object) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _num_key(n: float) -> str:
    return "#" + repr(round(n, 6))


def _same_currency(a: HardFact, b: HardFact) -> bool:
    if a.kind == "money" and b.kind == "money":
        return a.unit == b.unit
    return True


def is_about(
    claim_words: frozenset[str],
    window_words: frozenset[str],
    anchored: bool = False,
) -> bool:
    """Whether a receipt window is about the claim's subject.

    Two shared content words, or every claim word when the claim has one or two,
    or no content words at all on the claim side ("It was 37%."); ``anchored``
    (the receipt names a host, file or id the sentence names) needs one.
    """
    if not claim_words:
        return True
    if anchored and (claim_words & window_words or len(claim_words) <= 2):
        return True
    shared = len(claim_words & window_words)
    if shared >= 2:
        return True
    return len(claim_words) <= 2 and claim_words <= window_words


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
        return _NUM_FMT.format(h.number)
    return h.text


def match_hard_fact(
    index: ReceiptIndex,
    h: HardFact,
    claim_words: frozenset[str],
    freshness: Mapping[ReceiptKind, timedelta | None],
    class_limit: timedelta | None,
    *,
    linked: set[str] | frozenset[str] = frozenset(),
    anchors: Sequence[str] = (),
) -> HardFactMatch:
    """Decides support / contradiction / absence of one hard fact.

    ``linked`` are receipts that already back another claim of the same sentence
    (the test run behind "I ran the tests"); a value found there needs no
    further subject overlap ("all 42 pass" and "42 passed").
    """
    stale: Occurrence | None = None
    for occ in index.candidates(h):
        entry = index.entries[occ.receipt]
        r = entry.receipt
        anchored = any(a in occ.text for a in anchors)
        if r.id not in linked and not is_about(claim_words, occ.words, anchored):
            continue
        limit = _tighter(freshness.get(r.kind), class_limit)
        if not index.is_fresh(r, limit):
            stale = stale or occ
            continue
        label = f"{occ.label} " if occ.label else ""
        return HardFactMatch(
            h, "supported", r.id, r.kind, f"{r.id}: {label}{occ.fact.text} matches {h.text}"
        )
    if h.kind == "percent" and h.number is not None and anchors:
        # "CPU on web-01 is 37%" and mpstat on host web-01 printing 37.00.
        for occ in index.by_value.get(("magnitude", _num_key(h.number)), ()):
            entry = index.entries[occ.receipt]
            r = entry.receipt
            if occ.fact.kind == "number" and any(a in occ.text for a in anchors):
                limit = _tighter(freshness.get(r.kind), class_limit)
                if index.is_fresh(r, limit):
                    return HardFactMatch(
                        h, "supported", r.id, r.kind, f"{r.id}: {occ.fact.text} matches {h.text}"
                    )
    fam = family(h.kind)
    for occ in index.by_family.get(fam, ()):
        if occ.fact.value == h.value or (fam == "date" and occ.fact.value.startswith(h.value)):
            continue
        if fam == "date" and h.value.startswith(occ.fact.value):
            continue
        entry = index.entries[occ.receipt]
        r = entry.receipt
        if len(claim_words & occ.words) < 2 and not (claim_words and claim_words <= occ.words):
            continue
        if fam == "magnitude" and not _same_currency(h, occ.fact):
            continue
        # "12 months" in a contract row is no rival for a dollar amount.
        if (
            fam == "magnitude"
            and (occ.fact.kind == "count") != (h.kind == "count")
            and occ.fact.unit
            and h.unit
            and occ.fact.unit != h.unit
        ):
            continue
        limit = _tighter(freshness.get(r.kind), class_limit)
        if not index.is_fresh(r, limit):
            continue
        label = occ.label or "value"
        return HardFactMatch(
            h,
            "contradicted",
            r.id,
            r.kind,
            f"contradicts {r.id}: {label} {_show(occ.fact)} ≠ claimed {_show(h)}",
        )
    if stale is not None:
        r = index.entries[stale.receipt].receipt
        age = index.now - r.created_at if r.created_at else None
        days = f"{age.days} days old" if age is not None else "too old"
        return HardFactMatch(
            h,
            "stale",
            r.id,
            r.kind,
            f"{r.id} carries {h.text} but is {days}, past the freshness window for {r.kind}",
        )
    return HardFactMatch(h, "unsupported", None, None, f"no receipt carries {h.text}")


def _tighter(a: timedelta | None, b: timedelta | None) -> timedelta | None:
    if a is None:
        return b
    if b is None:
        return a
    return min(a, b)
