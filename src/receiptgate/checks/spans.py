"""How long lay between two recorded moments: "From placing the order to delivery took 62
minutes" (``placed_at`` 18:42:10, the ``delivered`` event at 19:44:20), "Tomasz was
assigned 16 minutes after you ordered", "I acked it 3 minutes after it triggered".

A span of time no record holds is backed by two full timestamps of the tool results
that lie that far apart, in the unit the sentence writes it in (whole minutes, hours or
days, cut or rounded), when each of the two is about the sentence: its field or its row
shares a word with it ("placing" and ``placed_at``, "delivery" and a ``delivered``
event). Only support: a span no pair gives stays without a receipt, as any figure.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime

from receiptgate.checks.about import field_words
from receiptgate.checks.document_figures import PROMISE
from receiptgate.checks.operands import Derivation
from receiptgate.checks.words import GENERIC, content_words
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf

#: Seconds in the units a sentence measures a span in (a span in seconds is one a runner
#: printed, "7m 39s": it is matched to the second).
_UNIT_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}

#: The most moments compared (the newest), so a long session costs no more.
MAX_MOMENTS = 40

_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}")

#: Words of a span itself, not of what it is between.
_SPAN_WORDS = content_words("took take takes after before later earlier since ago between minutes")


def span_between(
    index: ReceiptIndex, h: HardFact, sentence: str, fresh: Callable[[Receipt], bool]
) -> Derivation | None:
    """Two moments of the tool results that lie ``h`` apart, each about the sentence, as
    the formula that backs it; ``None`` when no such pair is held."""
    unit = _UNIT_SECONDS.get((h.unit or "").rstrip("s"))
    if unit is None or h.number is None or h.number <= 0 or not h.number.is_integer():
        return None
    if "business" in h.text.lower() or PROMISE.search(sentence):
        return None  # "should arrive within 5–7 business days": a span promised, not measured
    words = content_words(sentence) - GENERIC - _SPAN_WORDS
    if not words:
        return None
    held = [
        (leaf, t)
        for leaf, t in moments(index)
        if fresh(index.receipt_of(leaf)) and _meets(_what_happened(leaf), words)
    ]
    n = int(h.number)
    for i, (a, ta) in enumerate(held):
        for b, tb in held[i + 1 :]:
            gap = abs((tb - ta).total_seconds())
            if gap and (int(gap // unit) == n or round(gap / unit) == n):
                early, late = (a, b) if ta <= tb else (b, a)
                formula = f"{h.text} = {late.value.shown} − {early.value.shown}"
                return Derivation("supported", f"{formula} ({late.path}, {early.path})", late)
    return None


def _meets(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether two sets of stems share one, or two long ones their first five letters
    ("delivery" and the "deliver" of "delivered")."""
    if a & b:
        return True
    heads = {w[:5] for w in a if len(w) >= 5}
    return any(w[:5] in heads for w in b if len(w) >= 5)


def _what_happened(leaf: Leaf) -> frozenset[str]:
    """What a moment is the time of: its field's words ("placed" of ``placed_at``) and
    its row's word values (the "delivered" of ``{"status": "delivered", "at": ...}``)."""
    row = " ".join(x.value.shown for x in leaf.record.leaves if x.value.kind == "word")
    return field_words(leaf) | content_words(row)


def moments(index: ReceiptIndex) -> list[tuple[Leaf, datetime]]:
    """The full timestamps of the tool results (the newest :data:`MAX_MOMENTS`), each with
    its moment (a stamp without a zone read as UTC), once per index size."""
    cached = index.cache.get("moments")
    if isinstance(cached, tuple) and cached[0] == len(index.entries):
        return cached[1]  # type: ignore[no-any-return]
    found: list[tuple[Leaf, datetime]] = []
    for leaves in index.by_field.values():
        for leaf in leaves:
            if leaf.value.kind != "datetime" or leaf.path.startswith("args"):
                continue
            if index.receipt_of(leaf).kind != "tool" or not _STAMP.match(leaf.value.shown):
                continue
            t = moment_of(leaf.value.shown)
            if t is not None:
                found.append((leaf, t))
    found.sort(key=lambda x: index.position(x[0]))
    found = found[-MAX_MOMENTS:]
    index.cache["moments"] = (len(index.entries), found)
    return found


def moment_of(shown: str) -> datetime | None:
    """The moment an ISO stamp gives (one without a zone read as UTC)."""
    try:
        t = datetime.fromisoformat(shown.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)
