"""Claims against records: the right field of the right record, by typed value.

Two steps per reply:

1. **Anchoring** (:func:`anchor`): each sentence is about the records its ids and
   names point at (``#W4923227``, ``Mia Li``, ``Desk Lamp``); a sentence that names
   none takes the records of the heading, bold label or list item it sits under,
   else those of the sentence before it.
2. **Checking**: a claimed figure (money, count, percent, date, time) is looked up
   by typed value. Held by a field of an anchored record: supported. Held by
   another record and that record's field is about what the sentence says:
   supported too — a value of another record never contradicts this one.
   Held by no receipt: a *contradiction* when an anchored record's field of the
   same kind, chosen by the sentence's words ("price", "departs"), holds another
   value; otherwise unsupported. Ids of the evidence's shapes that no record holds,
   a state word ("pending") that differs from the anchored record's state, and a
   name in address position that is not the customer's are contradictions; ids,
   names and values the records hold support their sentence.

Evidence lines name the receipt and the field path:
``call_3 reservations[0].flights[1].price = 153``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from receiptgate.checks.words import GENERIC, content_words, word_pattern
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex, id_shape
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import (
    STATUS_VOCABULARY,
    Value,
    claim_keys,
    compatible,
    same_family,
    words_of,
)
from receiptgate.text.segment import Sentence

_TOKEN = re.compile(r"#?[A-Za-z0-9][A-Za-z0-9_\-]*(?:\.[A-Za-z0-9]+)*")
_WORD_SPAN = re.compile(r"[\w'’-]+")
# Words in a state word's clause that make it no report of the current state: modals,
# conditions, negations ("can only be cancelled if pending", "hasn't shipped yet").
_NOT_A_STATE_REPORT = re.compile(
    r"\b(?:will|would|could|can|cannot|can't|may|might|should|must|once|after|until|if|"
    r"when|unless|whether|not|never|no|only|yet|before|to\s+be)\b|n't\b"
)
# Processes that a state word may describe instead of the record ("the return request
# has been processed", "the exchange has been successfully processed").
_PROCESS_NOUNS = re.compile(
    r"\b(?:requests?|exchanges?|returns?|refunds?|modifications?|changes?|updates?|"
    r"payments?|process|cancellation|transactions?)\b"
)
_CLAUSE_EDGE = re.compile(r"[,;:()]|\s[-–—]\s|\bbut\b|\band\b")
# A full name addressed at the start of a sentence: "Dana Li, your order ...".
_ADDRESSED = re.compile(r"^\s*([A-Z][a-z]+)\s+([A-Z][a-z]+),\s")
# Words for one state: spellings, and "processed" as a status label reads as "processing"
# ("your order is still processing" restates status=processed).
_SPELLING = {
    "canceled": "cancelled",
    "cancelled": "canceled",
    "processing": "processed",
    "processed": "processing",
}
# A name in address position: "Hi Mia", "Thank you, Mia!", "You're welcome, Mia."
_VOCATIVE = re.compile(
    r"\b(?i:hi|hello|hey|dear|thanks|thank\s+you|welcome|sorry|no\s+problem|great|sure)"
    r",?\s+([A-Z][a-z]{2,})\b"
    r"|,\s*([A-Z][a-z]{2,})\s*[!.]?\s*$"
)


@dataclass(slots=True)
class Anchor:
    """What one sentence is about."""

    records: list[Record] = field(default_factory=list)
    how: str = "none"  # named | section | previous | latest | none
    #: Ids and names the sentence itself restates that records hold (start, end, leaf text).
    named: list[tuple[int, int, Record]] = field(default_factory=list)
    #: The sentence (its text and where it starts), to read what lies between a name
    #: and a figure.
    text: str = ""
    start: int = 0

    def scope(self) -> set[int]:
        """ids (``id()``) of the records in scope: anchors, their subtrees and lineage."""
        out: set[int] = set()
        for rec in self.records:
            out.update(id(r) for r in rec.subtree())
            out.update(id(r) for r in rec.lineage())
        return out


def _id_key(token: str, index: ReceiptIndex) -> str | None:
    """The key under which records hold an id the text writes ("#W1" or "W1"), if any."""
    tok = token.lower().rstrip(".")
    for key in (tok, tok.lstrip("#")):
        if key in index.records_by_id:
            return key
    return None


def _word_spans(text: str) -> list[tuple[str, int, int]]:
    """The words of a text, lowercase, with where they are."""
    return [(w.group().lower(), w.start(), w.end()) for w in _WORD_SPAN.finditer(text)]


def _named(text: str, offset: int, index: ReceiptIndex) -> list[tuple[int, int, Record]]:
    found: list[tuple[int, int, Record]] = []
    for m in _TOKEN.finditer(text):
        key = _id_key(m.group(), index)
        if key is not None:
            found.extend(
                (offset + m.start(), offset + m.end(), r) for r in index.records_by_id[key]
            )
    if index.records_by_name:
        words = _word_spans(text)
        for i in range(len(words)):
            if words[i][0] not in index.name_heads:
                continue
            for n in (4, 3, 2, 1):
                if i + n > len(words):
                    continue
                phrase = " ".join(w[0] for w in words[i : i + n])
                recs = index.records_by_name.get(phrase)
                if recs and (n > 1 or len(phrase) > 3):
                    found.extend(
                        (offset + words[i][1], offset + words[i + n - 1][2], r) for r in recs
                    )
                    break
    return found


def anchor(text: str, sentences: Sequence[Sentence], index: ReceiptIndex) -> list[Anchor]:
    """What each sentence is about (see the module doc).

    A sentence that names records is about them; a heading or a line ending in
    ":" that names records opens a section, and the list items and lines under
    it are about those records until the next section; any other sentence is
    about what the sentence before it was about.
    """
    out: list[Anchor] = []
    section: list[Record] = []
    previous: list[Record] = []
    latest = _latest_result(index)
    for s in sentences:
        named = _named(s.text, s.start, index)
        opens = s.kind == "heading" or s.text.rstrip("*_ ").endswith(":")
        if named:
            recs = list(dict.fromkeys(r for _, _, r in named))
            a = Anchor(recs, "named", named)
            if opens:
                section = recs
        elif section and (s.kind == "list_item" or _right_under(text, s)):
            a = Anchor(section, "section")
        elif previous:
            a = Anchor(previous, "previous")
        elif latest:
            a = Anchor(latest, "latest")
        else:
            a = Anchor()
        if opens and not named:
            section = []
        a.text, a.start = s.text, s.start
        out.append(a)
        previous = a.records
    return out


def _latest_result(index: ReceiptIndex) -> list[Record]:
    """The records of the newest structured tool result: what a reply that names
    nothing is about (an agent answers right after its tools)."""
    for entry in reversed(index.entries):
        if entry.receipt.kind != "user" and entry.records:
            return [rec for rec in entry.records if rec.parent is None]
    return []


def _right_under(text: str, s: Sentence) -> bool:
    """Whether a sentence starts a line right under the line before (no blank line)."""
    line_start = text.rfind("\n", 0, s.start) + 1
    if text[line_start : s.start].strip():
        return False
    return line_start > 0 and text[max(0, line_start - 2) : line_start] != "\n\n"


# --------------------------------------------------------------------- figures


@dataclass(slots=True)
class Match:
    """The outcome for one claimed value (a figure, an id, a state, a name)."""

    fact: HardFact
    status: str  # supported | contradicted | unsupported | stale
    receipt_id: str | None = None
    receipt_kind: str | None = None
    detail: str = ""
    path: str | None = None


def _line(index: ReceiptIndex, leaf: Leaf) -> str:
    r = index.receipt_of(leaf)
    if leaf.quote:
        return f"{r.id}: {leaf.quote!r}"
    return f"{r.id} {leaf.path} = {leaf.value.shown}"


def _equal(h: HardFact, leaf: Leaf) -> bool:
    v = leaf.value
    if v.kind in ("word", "text", "id"):
        # A figure inside a field's text: the same characters, as a whole word.
        return _literal_in(h.text, v.shown)
    if not compatible(h, v):
        return False
    if (
        h.kind in ("money", "count", "number", "percent")
        and v.kind != "duration"
        and (h.number is not None and v.number is not None)
    ):
        return abs(h.number - v.number) < 0.005 or (
            h.kind == "percent" and abs(h.number / 100 - v.number) < 0.00005
        )
    return True


def _other_row(leaf: Leaf, low: str) -> bool:
    """The sentence names what a sibling row holds and this row does not.

    "48 customers on the Enterprise plan" is not backed by the row plan=pro
    customers=48 when plan=enterprise is another row; "the checkout deployment ... 12
    replicas" not by the row of search; "68% in FY2025" not by the FY2024 row.
    """
    rec = leaf.record
    parent = rec.parent
    if parent is None or not low:
        return False
    own = {x.key: x for x in rec.leaves}
    for sibling in parent.children:
        if sibling is rec:
            continue
        for other in sibling.leaves:
            if other.value.kind not in ("word", "id", "date", "datetime") or other.key == leaf.key:
                continue
            mine = own.get(other.key)
            if mine is None or mine.value.shown.lower() == other.value.shown.lower():
                continue
            if _named_in(other.value, low) and not _named_in(mine.value, low):
                return True
    return False


def _named_in(value: Value, low: str) -> bool:
    shown = value.shown.lower()
    if len(shown) < 2:
        return False
    if _literal_in(shown, low) or (
        shown[-1:].isalpha() and (_literal_in(shown + "s", low) or _literal_in(shown + "es", low))
    ):
        return True  # "engineer" is named by "14 engineers"
    if value.kind in ("date", "datetime"):
        return _month_named(shown, low)
    return False


_MONTHS = (
    "january february march april may june july august september october november december"
).split()


def _month_named(shown: str, low: str) -> bool:
    m = re.match(r"(\d{4})-(\d{2})", shown)
    if m is None:
        return False
    month = _MONTHS[int(m.group(2)) - 1]
    return bool(word_pattern(month).search(low))


def check_figure(
    index: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    clause: frozenset[str],
    sentence: frozenset[str],
    fresh: Callable[[Receipt], bool],
    sentence_text: str = "",
    anchors: Sequence[str] = (),
    linked: frozenset[str] = frozenset(),
) -> Match:
    """Support, contradiction or absence of one claimed figure (see the module doc).

    ``clause`` and ``sentence`` are the content words around the figure and of the
    whole sentence; ``anchors`` the names, hosts and paths the sentence names;
    ``linked`` the receipts that back another claim of the sentence (the test run
    behind "I ran the tests and all 42 pass"): a value they hold needs no more.
    """
    keys = claim_keys(h)
    anchor_ = _for_figure(anchor_, h)
    scope = anchor_.scope()
    low = sentence_text.lower()
    if h.kind == "number" and h.text.isdigit() and len(h.text) >= 6:
        # A long run of digits is a name (an item, a tracking number): it exists or not.
        named = index.leaves((f"i:{h.text}",))
        if named:
            return _supported(index, h, named[0])
    equal = [leaf for leaf in index.leaves(keys) if _equal(h, leaf)]
    if len(equal) > MAX_EQUAL:
        # a value many receipts hold ("42" in a long session): the newest ones decide,
        # so a figure costs the same however long the session
        equal.sort(key=index.position, reverse=True)
        equal = equal[:MAX_EQUAL]
    others: list[Leaf] = []
    is_fresh = [fresh(index.receipt_of(leaf)) for leaf in equal]
    stale = [leaf for leaf, ok in zip(equal, is_fresh, strict=True) if not ok]
    equal = [
        leaf for leaf, ok in zip(equal, is_fresh, strict=True) if ok and not _other_row(leaf, low)
    ]
    # A record the sentence names (or the section it sits in) holding the value backs
    # it; a weaker anchor (the sentence before, the latest result) needs the value's
    # field to be about the figure, as any other record does.
    strong = anchor_.how in ("named", "section")
    inside = [
        leaf
        for leaf in equal
        if (strong and id(leaf.record) in scope) or index.receipt_of(leaf).id in linked
    ]
    if inside:
        best = max(inside, key=lambda leaf: _overlap(index, leaf, clause))
        return _disagreed(index, h, best, low, fresh) or _supported(index, h, best)
    about = [leaf for leaf in equal if _is_about(index, leaf, clause, sentence, anchors)]
    if anchor_.how in ("named", "section"):
        # "Order #W1 came to $2,649": the price of order #W2 is no support; nor, in the
        # lines under an item, another item's price.
        ids = _named_ids(sentence_text, index) or _anchor_ids(anchor_)
        others = [leaf for leaf in about if _of_a_sibling(leaf.record, ids)]
        about = [leaf for leaf in about if leaf not in others]
    rival = _rival(index, h, anchor_, clause, scope, fresh)
    if rival is not None and anchor_.how == "named":
        # The sentence names the record and its field holds another value: the same
        # field of another record ("build 4827 took 14 minutes") is no support.
        about = [leaf for leaf in about if leaf.key.lower() != rival.key.lower()]
        if not about:
            return _contradicted(index, h, rival)
    if about:
        best = max(about, key=lambda leaf: _overlap(index, leaf, clause))
        return _disagreed(index, h, best, low, fresh) or _supported(index, h, best)
    literal = _literal(h, anchor_)
    if literal is not None:
        return _supported(index, h, literal)
    rival = rival or _labelled_rival(index, h, clause, low, fresh)
    if rival is not None:
        return _contradicted(index, h, rival)
    if stale:
        r = index.receipt_of(stale[0])
        age = f"{(index.now - r.created_at).days} days old" if r.created_at else "too old"
        return Match(
            h,
            "stale",
            r.id,
            r.kind,
            f"{r.id} carries {h.text} but is {age}, past the freshness window for {r.kind}",
            stale[0].path,
        )
    if others:
        leaf = others[0]
        owner = next(r for r in leaf.record.lineage() if r.ids)
        detail = f"{h.text} is not a value of the record the sentence names"
        return Match(
            h, "unsupported", None, None, f"{detail} ({_line(index, leaf)} is {owner.ids[0]}'s)"
        )
    return Match(h, "unsupported", None, None, f"no receipt holds {h.text}")


#: At most this many receipt values equal to a claimed figure are weighed (the newest).
MAX_EQUAL = 32

_FIGURE_BETWEEN = re.compile(r"[$€£]\s?\d|\d[\d,.]*\s?%|\b\d+(?:[.,]\d+)?\b")


def _for_figure(anchor_: Anchor, h: HardFact) -> Anchor:
    """In a sentence that names several records ("the Desk Lamp cost $19.99 and the
    Office Chair $145.50"), a figure is about the one named nearest to it."""
    spans = sorted({(a, b) for a, b, _ in anchor_.named})
    if len(spans) < 2 or len({id(r) for _, _, r in anchor_.named}) < 2:
        return anchor_

    def distance(span: tuple[int, int]) -> tuple[int, int]:
        a, b = span
        if b <= h.start:
            return (h.start - b, 0)
        if a >= h.end:
            return (a - h.end, 1)
        return (0, 0)

    near = min(spans, key=distance)
    a, b = near
    lo, hi = (b, h.start) if b <= h.start else (h.end, a)
    between = anchor_.text[max(0, lo - anchor_.start) : max(0, hi - anchor_.start)]
    if a < h.start and (_FIGURE_BETWEEN.search(between) or "(" in between):
        # "the Smart Watch ($336.15) add up to $595.12": the name has its own figure;
        # this one is about what the sentence says of all of them
        return anchor_
    named = [n for n in anchor_.named if (n[0], n[1]) == near]
    return Anchor(
        list(dict.fromkeys(r for _, _, r in named)), anchor_.how, named, anchor_.text, anchor_.start
    )


def _named_ids(text: str, index: ReceiptIndex) -> set[str]:
    """The record ids a sentence names, lowercase without "#"."""
    return {
        m.group().lower().rstrip(".").lstrip("#")
        for m in _TOKEN.finditer(text)
        if _id_key(m.group(), index) is not None
    }


def _anchor_ids(anchor_: Anchor) -> set[str]:
    """The ids of the records a sentence is about, and of the records they belong to."""
    return {i.lstrip("#") for rec in anchor_.records for r in rec.lineage() for i in r.ids}


def _of_a_sibling(rec: Record, named: set[str]) -> bool:
    """Whether a record belongs to another record of the kind the sentence names: one
    with an id of the same form (another order) and none of the named ids."""
    if not named:
        return False
    shapes = {id_shape(i) for i in named}
    for r in rec.lineage():
        ids = {i.lstrip("#") for i in r.ids}
        if ids & named:
            return False
        if any(id_shape(i) in shapes for i in ids):
            return True
    return False


def _disagreed(
    index: ReceiptIndex,
    h: HardFact,
    support: Leaf,
    low: str,
    fresh: Callable[[Receipt], bool],
) -> Match | None:
    """Contradiction wins over support (SPEC §4): another receipt gives another value
    for the same field of the same thing.

    The same thing is a row without ids in another receipt with the same field that
    no named value tells apart (``revenue_usd`` in two reports). Records with ids (an
    order before and after a change) are states over time, not a disagreement.
    """
    rec = support.record
    for other in index.by_field.get(support.key.lower(), ()):
        if index.position(other) == index.position(support) or not same_family(h, other.value):
            continue
        if other.value.keys[:1] == support.value.keys[:1] or not fresh(index.receipt_of(other)):
            continue
        if _has_id(rec) or _has_id(other.record) or _other_row(other, low):
            continue  # records with ids change over time; state checks read the latest
        if _tell_apart(rec, other.record, support.key):
            continue  # two releases, two days: other fields say they are other things
        r = index.receipt_of(other)
        agree = index.receipt_of(support).id
        detail = f"contradicts {_line(index, other)}, claimed {h.text} (though {agree} agrees)"
        return Match(h, "contradicted", r.id, r.kind, detail, other.path)
    return None


def _has_id(rec: Record) -> bool:
    """Whether a record is, or belongs to, a record with an id (an order's payment)."""
    return any(r.ids for r in rec.lineage())


def _tell_apart(a: Record, b: Record, key: str) -> bool:
    """Whether two id-less records differ in a field other than ``key``."""
    mine = {x.key: x.value.keys[:1] or (x.value.shown,) for x in a.leaves if x.key != key}
    return any(
        x.key in mine and mine[x.key] != (x.value.keys[:1] or (x.value.shown,))
        for x in b.leaves
        if x.key != key
    )


def _labelled_rival(
    index: ReceiptIndex,
    h: HardFact,
    clause: frozenset[str],
    low: str,
    fresh: Callable[[Receipt], bool],
) -> Leaf | None:
    """A value anywhere, of the same kind, whose field or surrounding words are what
    the clause says the figure is ("ARR was $18.5M" and ``arr_usd=17950000``; "paid
    last Friday" and ``paid_at: 2026-03-06``), when there is exactly one such value."""
    specific = clause - GENERIC
    if not specific:
        return None
    labels = _labels(index)
    candidates: dict[int, tuple[Leaf, frozenset[str]]] = {}
    for word in specific:
        for n, leaf, label in labels.get(word, ()):
            candidates.setdefault(n, (leaf, label))
    found: dict[str, Leaf] = {}
    for n in sorted(candidates):
        leaf, label = candidates[n]
        shared = label & specific
        if len(shared) < 2 and len(specific) > 2:
            continue
        if not same_family(h, leaf.value) or _other_row(leaf, low):
            continue
        if fresh(index.receipt_of(leaf)):
            found.setdefault(leaf.value.keys[0] if leaf.value.keys else "", leaf)
    return next(iter(found.values())) if len(found) == 1 else None


def _labels(index: ReceiptIndex) -> dict[str, list[tuple[int, Leaf, frozenset[str]]]]:
    """Label word -> the values labelled by it (field names, or the words around a value
    in a text), in receipt order; what the user said is no record of what is. Built once
    per index."""
    cached = index.cache.get("labels")
    if isinstance(cached, dict):
        return cached
    out: dict[str, list[tuple[int, Leaf, frozenset[str]]]] = {}
    n = 0
    for entry in index.entries:
        if entry.receipt.kind == "user":
            continue
        for rec in entry.records:
            for leaf in rec.leaves:
                label = frozenset(leaf.words) if leaf.path == "text" else field_words(leaf)
                label = label - GENERIC
                for word in label:
                    out.setdefault(word, []).append((n, leaf, label))
                n += 1
    index.cache["labels"] = out
    return out


def _contradicted(index: ReceiptIndex, h: HardFact, rival: Leaf) -> Match:
    r = index.receipt_of(rival)
    detail = f"contradicts {_line(index, rival)}, claimed {h.text}"
    return Match(h, "contradicted", r.id, r.kind, detail, rival.path)


@functools.lru_cache(maxsize=8192)
def _stems(words: tuple[str, ...]) -> frozenset[str]:
    return content_words(" ".join(words))


def field_words(leaf: Leaf) -> frozenset[str]:
    """The content words of a value's field name and its parent field's."""
    return _stems(leaf.words)


def leaf_words(index: ReceiptIndex, leaf: Leaf) -> frozenset[str]:
    """What a value is about: its field and its row (field names, the row's words and
    names, the record's path), or in prose the words around it; and the call it came
    from (tool, source, arguments)."""
    entry = index.entries[index.position(leaf)]
    if leaf.path == "text":
        return frozenset(leaf.words) | entry.context_words
    cache = index.cache.setdefault("row_words", {})
    assert isinstance(cache, dict)
    rec = leaf.record
    found = cache.get(id(rec))
    if found is None:
        parts: list[str] = []
        for r in rec.lineage():
            parts.extend(r.names)
            parts.append(r.path.replace("[", " ").replace("]", " ").replace(".", " "))
            for other in r.leaves if r is rec else ():
                parts.append(other.key)
                if other.value.kind in ("word", "id", "date"):
                    parts.append(other.value.shown)
        found = content_words(" ".join(parts)) | entry.context_words
        cache[id(rec)] = found
    return field_words(leaf) | found


def _overlap(index: ReceiptIndex, leaf: Leaf, words: frozenset[str]) -> int:
    return len(leaf_words(index, leaf) & words)


def _is_about(
    index: ReceiptIndex,
    leaf: Leaf,
    clause: frozenset[str],
    sentence: frozenset[str],
    anchors: Sequence[str],
) -> bool:
    """Whether a value's field and row are about what the sentence says of the figure.

    The clause's own words must meet them — two of them, or one when the clause has
    at most two, or when the row or the call names the sentence's host, file or
    customer; the sentence's words count as a second chance (two of them). A clause
    with no content words ("It was 37%.") is about anything.
    """
    entry = index.entries[index.position(leaf)]
    if leaf.path == "text" and _bare(entry.receipt.content) == leaf.value.shown.strip():
        # The call returned just this value ("17.99" from a calculator): it is about
        # what the call asked, so the call's own words must not say otherwise.
        context = entry.context_words - _TOOL_WORDS
        if not context or context & (clause | sentence):
            return True
    if leaf.path == "text" and _owned_by_other_name(entry.receipt.content, leaf, anchors):
        return False
    words = leaf_words(index, leaf)
    if leaf.path == "text" and entry.receipt.kind == "user":
        words = words | entry.words  # a user's message is about one thing throughout
    anchored = bool(anchors) and any(a in _row_text(index, leaf) for a in anchors)
    specific = clause - GENERIC
    if not specific:
        return (
            not clause or bool(clause & words) or anchored or len((sentence - GENERIC) & words) >= 2
        )
    shared = specific & words
    if len(shared) >= 2 or anchored or (shared and len(specific) <= 2):
        return True
    return len((sentence - GENERIC) & words) >= 2


def _bare(content: str) -> str:
    """A result's one value: without YAML's document markers (``---``, ``...``) or quotes."""
    lines = [ln.strip() for ln in content.strip().splitlines()]
    lines = [ln for ln in lines if ln not in ("---", "...")]
    return " ".join(lines).strip("\"'")


# "behind Contoso (22%)": a name right before a parenthesised value owns it.
_NAMED_BEFORE = re.compile(r"\b([A-Z][a-zA-Z0-9&-]+)\s*\(\s*[$€£]?\s*$")


def _owned_by_other_name(content: str, leaf: Leaf, anchors: Sequence[str]) -> bool:
    names = {a for a in anchors if a.isalpha()}
    if not names:
        return False
    at = content.find(leaf.value.shown)
    while at >= 0:
        m = _NAMED_BEFORE.search(content[max(0, at - 40) : at])
        if m is None or m.group(1).lower() in names:
            return False
        at = content.find(leaf.value.shown, at + 1)
    return True


# Words of a call that say nothing about its subject: how it ran, or that it computed
# ("calculate", "expression": a calculator's answer is about what the reply computes).
_TOOL_WORDS = frozenset(
    content_words(
        "tool exec run cmd command bash shell sh call function "
        "calculate calculator compute expression evaluate eval math formula"
    )
)


def _row_text(index: ReceiptIndex, leaf: Leaf) -> str:
    entry = index.entries[index.position(leaf)]
    if leaf.path == "text":
        return entry.text
    values = " ".join(
        x.value.shown.lower() for x in leaf.record.leaves if x.value.kind in ("word", "id")
    )
    return f"{entry.text.split(chr(10), 1)[0]} {values}"


def _literal_in(claimed: str, shown: str, *, head: bool = False) -> bool:
    """``claimed`` written inside ``shown`` as a whole word ("Suite 640", "4K"); with
    ``head``, its first word is enough ("4K resolution" in a field holding "4K")."""
    needle = claimed.lower().strip()
    if head and " " in needle and needle not in shown.lower():
        needle = needle.split()[0]
    hay = shown.lower()
    at = hay.find(needle)
    while at >= 0:
        end = at + len(needle)
        before = hay[at - 1] if at else " "
        after = hay[end : end + 2]
        # A dot ends a word unless a character follows it ("4.5", "v2.3", "web-01.lan").
        glued_after = after[:1].isalnum() or (after[:1] == "." and after[1:2].isalnum())
        if not (before.isalnum() or before == ".") and not glued_after:
            return True
        at = hay.find(needle, at + 1)
    return False


def _literal(h: HardFact, anchor_: Anchor) -> Leaf | None:
    """A figure written inside a field's text ("4K resolution", "28 inch") of an
    anchored record."""
    for rec in anchor_.records:
        for r in rec.subtree():
            for leaf in r.leaves:
                if leaf.value.kind in ("word", "text", "id") and _literal_in(
                    h.text, leaf.value.shown, head=True
                ):
                    return leaf
    return None


def _supported(index: ReceiptIndex, h: HardFact, leaf: Leaf) -> Match:
    r = index.receipt_of(leaf)
    line = _line(index, leaf)
    if h.kind != "identifier" and h.text.strip().lower() != leaf.value.shown.strip().lower():
        line += f", matches {h.text}"
    return Match(h, "supported", r.id, r.kind, line, leaf.path)


def _rival(
    index: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    clause: frozenset[str],
    scope: set[int],
    fresh: Callable[[Receipt], bool],
) -> Leaf | None:
    """The anchored records' field of the same kind that the claim is about."""
    if not scope:
        return None
    same: list[Leaf] = []
    for rec in anchor_.records:
        for r in rec.subtree():
            same.extend(
                leaf
                for leaf in r.leaves
                if same_family(h, leaf.value) and fresh(index.receipt_of(leaf))
            )
    if not same:
        return None
    scored = [(len(field_words(leaf) & clause), leaf) for leaf in same]
    best = max(s for s, _ in scored)
    top = [leaf for s, leaf in scored if s == best]
    values = {leaf.value.keys[0] if leaf.value.keys else leaf.value.shown for leaf in top}
    if best == 0 and (len(values) > 1 or anchor_.how != "named"):
        return None  # no field named, and the record is not the sentence's own
    if len(values) > 1:
        return None
    return top[0]


# ------------------------------------------------------------------ ids, names, states


@dataclass(slots=True)
class RecordClaim:
    """A restated id, name, state or value, with its outcome."""

    kind: str  # id | name | state | value
    start: int
    end: int
    text: str
    match: Match


def _fact(kind: str, start: int, end: int, text: str) -> HardFact:
    return HardFact("identifier", text, start, end, text.lower(), None, kind)


def record_claims(
    s: Sentence,
    anchor_: Anchor,
    index: ReceiptIndex,
    taken: Sequence[tuple[int, int]],
) -> list[RecordClaim]:
    """Ids, names, states and values a sentence restates, each checked against the records.

    ``taken`` are spans already claimed as figures (money, dates): not read again.
    """
    out: list[RecordClaim] = []
    busy = list(taken)

    def free(a: int, b: int) -> bool:
        return not any(a < e and s_ < b for s_, e in busy)

    # ids: held by a record (supports), or shaped like the evidence's ids and held by none
    for m in _TOKEN.finditer(s.text):
        a, b = s.start + m.start(), s.start + m.end()
        tok = m.group().rstrip(".")
        if not free(a, b) or not any(c.isdigit() for c in tok) or len(tok) < 4:
            continue
        low = tok.lower()
        hits = index.leaves((f"i:{low}", f"i:{low.lstrip('#')}"))
        # a tool's record of the id is better evidence than the user's message naming it
        hits = sorted(hits, key=lambda leaf: index.receipt_of(leaf).kind == "user")
        if hits:
            out.append(RecordClaim("id", a, b, tok, _supported_id(index, tok, a, b, hits[0])))
            busy.append((a, b))
        elif (key := _id_key(tok, index)) is not None:
            rec = index.records_by_id[key][0]
            r = index.receipt_of(rec)
            f = _fact("id", a, b, tok)
            m2 = Match(f, "supported", r.id, r.kind, f"{r.id} {rec.path or 'record'} is {tok}")
            out.append(RecordClaim("id", a, b, tok, m2))
            busy.append((a, b))
        else:
            shape = id_shape(tok)
            known = index.id_shapes.get(shape)
            if (known and not tok.isdigit()) or (known and tok.isdigit() and len(tok) >= 6):
                f = _fact("id", a, b, tok)
                sample = ", ".join(sorted(known)[:3])
                detail = f"no record has the id {tok} (ids of that form here: {sample})"
                out.append(
                    RecordClaim("id", a, b, tok, Match(f, "contradicted", None, None, detail))
                )
                busy.append((a, b))
    # states: a state word that the anchored records' state field holds, or contradicts
    low_text = s.text.lower()
    if anchor_.records and index.states:
        present = set(words_of(low_text))
        for fieldname, seen in index.states.items():
            values = seen | STATUS_VOCABULARY if fieldname == "status" else seen
            for value in values:
                if value.split(" ", 1)[0] not in present:
                    continue
                for m in word_pattern(value).finditer(low_text):
                    a, b = s.start + m.start(), s.start + m.end()
                    if not free(a, b) or not _reports_state(low_text, m.start(), m.end()):
                        continue
                    claim = _state_claim(
                        index, anchor_, fieldname, value, a, b, s.text[m.start() : m.end()]
                    )
                    if claim is not None:
                        out.append(claim)
                        busy.append((a, b))
    # "Dana Li, your order ...": a full name addressed at the start that shares a word
    # with a person of the records but is not that person
    addressed = _ADDRESSED.match(s.text) if index.people else None
    if addressed is not None:
        first, last = addressed.group(1).lower(), addressed.group(2).lower()
        shares = first in index.people_words or last in index.people_words
        a, b = s.start + addressed.start(1), s.start + addressed.end(2)
        if shares and f"{first} {last}" not in index.people and free(a, b):
            name = f"{addressed.group(1)} {addressed.group(2)}"
            out.append(_unknown_name(index, a, b, name))
            busy.append((a, b))
    # a name in address position ("Thanks, Mia!") must be the customer's
    if index.records_by_name:
        for m in _VOCATIVE.finditer(s.text):
            name = m.group(1) or m.group(2)
            g = 1 if m.group(1) else 2
            a, b = s.start + m.start(g), s.start + m.end(g)
            if not free(a, b):
                continue
            low = name.lower()
            if low in index.people_words:
                rec = next(iter(index.records_by_name.values()))[0]
                r = index.receipt_of(rec)
                f = _fact("name", a, b, name)
                out.append(
                    RecordClaim(
                        "name",
                        a,
                        b,
                        name,
                        Match(f, "supported", r.id, r.kind, f"{r.id} names {name}"),
                    )
                )
            elif low not in index.words and low not in index.user_words and index.people:
                out.append(_unknown_name(index, a, b, name))
            busy.append((a, b))
    # values the anchored records hold ("Backpack - green, leather"): support
    if anchor_.records:
        out.extend(_values(s, anchor_, index, free, busy))
    return out


def _unknown_name(index: ReceiptIndex, a: int, b: int, name: str) -> RecordClaim:
    """A person's name that no record holds, where the records name people."""
    people = ", ".join(sorted(index.people)[:3])
    detail = f"no record names {name} (the people here: {people})"
    return RecordClaim(
        "name", a, b, name, Match(_fact("name", a, b, name), "contradicted", None, None, detail)
    )


def _supported_id(index: ReceiptIndex, tok: str, a: int, b: int, leaf: Leaf) -> Match:
    r = index.receipt_of(leaf)
    return Match(_fact("id", a, b, tok), "supported", r.id, r.kind, _line(index, leaf), leaf.path)


def _latest(index: ReceiptIndex, records: list[Record]) -> list[Record]:
    """Of records that share an id, the newest (a later tool result is the current state)."""
    newest: dict[str, Record] = {}
    out: list[Record] = []
    for rec in records:
        if rec.ids:
            key = rec.ids[0]
            if key not in newest or index.position(newest[key]) < index.position(rec):
                newest[key] = rec
        else:
            out.append(rec)
    return out + list(newest.values())


def _reports_state(low: str, start: int, end: int) -> bool:
    """Whether a state word at ``[start, end)`` reports the record's current state."""
    clause_start = 0
    for m in _CLAUSE_EDGE.finditer(low, 0, start):
        clause_start = m.end()
    before = low[clause_start:start]
    if _NOT_A_STATE_REPORT.search(before):
        return False
    if _PROCESS_NOUNS.search(low[:start]):
        return False  # the state of a request or an exchange, not of the record
    after = low[end : end + 30].split()
    if after and after[0].endswith("s") and after[0] not in ("is", "was", "has", "as"):
        return False  # "two pending orders": several records, no one state to compare
    # "was shipped to the address": an event in the record's past, not its state now.
    return not (
        re.search(r"\b(?:was|were|had\s+been)\s+$", before)
        and after[:1] in (["to"], ["on"], ["at"], ["from"], ["by"], ["via"])
    )


def _state_claim(
    index: ReceiptIndex,
    anchor_: Anchor,
    fieldname: str,
    value: str,
    a: int,
    b: int,
    shown: str,
) -> RecordClaim | None:
    holders: list[Leaf] = []
    # the newest record of each id that holds the field (a later call naming the order
    # in its arguments, or failing, says nothing of its status)
    having = [r for r in anchor_.records if any(x.key.lower() == fieldname for x in r.leaves)]
    for rec in _latest(index, having):
        holders.extend(leaf for leaf in rec.leaves if leaf.key.lower() == fieldname)
    if not holders:
        return None
    f = _fact("state", a, b, shown)
    spelled = {value, _SPELLING.get(value, value)}
    same = [
        leaf
        for leaf in holders
        if leaf.value.shown.lower() in spelled
        or any(_literal_in(v, leaf.value.shown) for v in spelled)
    ]
    if same:
        return RecordClaim("state", a, b, shown, _supported(index, f, same[0]))
    if value in index.user_words:
        return None  # the user's own word (a new address's state): not the record's claim
    leaf = holders[0]
    r = index.receipt_of(leaf)
    detail = f"contradicts {_line(index, leaf)}, claimed {shown}"
    return RecordClaim(
        "state", a, b, shown, Match(f, "contradicted", r.id, r.kind, detail, leaf.path)
    )


def _values(
    s: Sentence,
    anchor_: Anchor,
    index: ReceiptIndex,
    free: Callable[[int, int], bool],
    busy: list[tuple[int, int]],
) -> list[RecordClaim]:
    scope = anchor_.scope()
    out: list[RecordClaim] = []
    words = _word_spans(s.text)
    heads = index.word_heads
    i = 0
    while i < len(words):
        if words[i][0] not in heads:
            i += 1
            continue
        for n in (4, 3, 2, 1):
            if i + n > len(words):
                continue
            phrase = " ".join(w[0] for w in words[i : i + n])
            if n == 1 and (len(phrase) < 3 or phrase in GENERIC or not content_words(phrase)):
                continue
            a, b = s.start + words[i][1], s.start + words[i + n - 1][2]
            if not free(a, b):
                continue
            hits = [
                leaf for leaf in index.by_key.get(f"w:{phrase}", ()) if id(leaf.record) in scope
            ]
            if hits:
                f = _fact("value", a, b, s.text[words[i][1] : words[i + n - 1][2]])
                out.append(RecordClaim("value", a, b, f.text, _supported(index, f, hits[0])))
                busy.append((a, b))
                i += n - 1
                break
        i += 1
    return out


# ------------------------------------------------------------------- availability

_AVAILABLE_KEYS = frozenset({"available", "availability", "in_stock", "instock", "stock"})
_VALUE_WORD = re.compile(r"[a-z0-9][a-z0-9'’-]*")


def check_availability(
    index: ReceiptIndex, sentence: str, available: bool
) -> tuple[str, str, str, str] | None:
    """Whether the record a sentence describes is available, as it claims.

    The record is the one with an availability field whose values (a product's
    options, a flight's number and date) the sentence names most; its lineage's
    names count too ("Hiking Boots"). A contradiction needs the sentence to name
    every value of that record (it describes exactly that one); support needs it
    to be the only best match. Returns ``(status, receipt id, kind, detail)``, or
    ``None`` when no record with such a field is described.
    """
    words = set(_VALUE_WORD.findall(sentence.lower()))
    scored = [(_described(leaf.record, words), leaf) for leaf in _availability_leaves(index)]
    if not scored:
        return None
    top = max(score for (score, _), _ in scored)
    best = [(full, leaf) for (score, full), leaf in scored if score == top]
    if top < 2 or len({leaf.value.keys for _, leaf in best}) > 1:
        return None
    full, leaf = best[0]
    held = leaf.value.keys == ("b:true",)
    r = index.receipt_of(leaf)
    line = _line(index, leaf)
    if held == available:
        return ("supported", r.id, r.kind, line)
    if not full:
        return None  # the sentence does not describe this record exactly
    return ("contradicted", r.id, r.kind, f"contradicts {line}")


def _availability_leaves(index: ReceiptIndex) -> list[Leaf]:
    cached = index.cache.get("availability")
    if isinstance(cached, list):
        return cached
    found = [
        leaf
        for key in ("b:true", "b:false")
        for leaf in index.by_key.get(key, ())
        if leaf.key.lower() in _AVAILABLE_KEYS
    ]
    index.cache["availability"] = found
    return found


_NOT_DESCRIPTIVE = frozenset({"money", "bool", "id", "text"})


def _described(rec: Record, words: set[str]) -> tuple[int, bool]:
    """How many of a record's names and values a sentence mentions, and whether all."""
    score = 0
    for r in rec.lineage():
        for name in r.names:
            if set(name.split()) <= words:
                score += 2
    values = [
        leaf
        for leaf in rec.subtree_leaves()
        if leaf.value.kind not in _NOT_DESCRIPTIVE and "price" not in leaf.words
    ]
    named = 0
    for leaf in values:
        parts = set(_VALUE_WORD.findall(leaf.value.shown.lower()))
        if parts and parts <= words:
            named += 1
    return score + named, bool(values) and named == len(values)
