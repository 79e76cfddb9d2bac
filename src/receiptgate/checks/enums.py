"""Values of a set a sentence gives a record: a line that denies one ("Not business
class", "❌ Not basic economy" in a reply's checklist of a reservation,
:func:`not_value`) and a membership level given to the customer ("given your Gold-member
status", :func:`your_value`).

The record's field holds one value of a set ("cabin": "economy", "membership":
"regular"); the set is what the evidence shows side by side as alternatives (a search
result's "prices": {"economy": ..., "business": ...}), the values the same field takes
in other records, or a list in a passage of the operator's documents that holds both
("three cabin classes: basic economy, economy, business"). A value the evidence never
sets beside the field's own says nothing either way.
"""

from __future__ import annotations

import re

from receiptgate.checks.documents import library
from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import record_fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record

#: A verbless line that denies one value: "Not business class", "- ❌ Not a basic economy
#: ticket" (the kind of thing after the value is no part of it).
DENIAL = re.compile(
    # ... or a sentence that says it of the record: "It is not a business class
    # reservation", "This booking isn't basic economy"
    r"^[\W_]*(?:(?:it|this|that|(?:the|this|your)\s+(?:reservation|booking|order|ticket))"
    r"\s+(?:is\s+|was\s+)?|it['’]s\s+)?(?:not|isn['’]t|wasn['’]t)\s+"
    r"(?:a\s+|an\s+|in\s+)?(?P<what>[a-z][a-z -]{1,30}?)"
    r"(?:\s+(?:class|cabin|ticket|fare|seat|member|membership|level|tier|status))?"
    r"(?:\s+(?:reservation|booking|order|ticket|flight))?[\W_]*$",
    re.IGNORECASE,
)


def not_value(index: ReceiptIndex, sentence: str, scope: frozenset[int]) -> Finding | None:
    """Support or contradiction of a line that denies a value of the records in ``scope``
    (``id()``s of the records the line is about; see the module doc)."""
    m = DENIAL.match(_unmarked(sentence))
    if m is None or not scope:
        return None
    named = _key(m.group("what"))
    for leaf in _word_leaves(index, scope):
        held = _key(leaf.value.shown)
        if held == named:
            r = index.receipt_of(leaf)
            line = f"{r.id} {leaf.path} = {leaf.value.shown}"
            return Finding("contradicted", r.id, r.kind, f"contradicts {line}", leaf.path)
        if _alternatives(index, held, named, leaf.key):
            r = index.receipt_of(leaf)
            line = f"{r.id} {leaf.path} = {leaf.value.shown}, not {named}"
            return Finding("supported", r.id, r.kind, line, leaf.path)
    return None


def denies(sentence: str) -> bool:
    """Whether a sentence denies one value of a set (see :data:`DENIAL`)."""
    low = sentence.lower()
    if "not" not in low and "n't" not in low and "n’t" not in low:
        return False  # most sentences: no regex run
    return DENIAL.match(_unmarked(sentence)) is not None


def _unmarked(sentence: str) -> str:
    """The sentence without emphasis marks ("It is **not a business class** reservation")."""
    return sentence.replace("**", "").replace("__", "").strip()


def _key(text: str) -> str:
    return "_".join(text.lower().replace("-", " ").split())


def _word_leaves(index: ReceiptIndex, scope: frozenset[int]) -> list[Leaf]:
    """The one-word values of the records in scope ("economy", "gold"), newest first."""
    out: list[Leaf] = []
    for e in reversed(index.entries):
        for rec in e.records:
            for r in _in_scope(rec, scope):
                out.extend(
                    leaf
                    for leaf in r.leaves
                    if leaf.value.kind in ("word", "text") and 2 < len(leaf.value.shown) <= 30
                )
    return out


def _in_scope(rec: Record, scope: frozenset[int]) -> list[Record]:
    return [r for r in rec.subtree() if id(r) in scope]


def _alternatives(index: ReceiptIndex, held: str, named: str, field: str) -> bool:
    """Whether the evidence sets ``named`` beside ``held`` as one of a set: the keys of one
    object ("prices": {"economy", "business"}), or values of the field ``field`` in other
    records."""
    if held == named:
        return False
    for leaf in index.by_field.get(named, ()):
        group = leaf.path.rpartition(".")[0]
        if group and any(x.path == f"{group}.{held}" for x in leaf.record.leaves):
            return True
    if any(_key(x.value.shown) == named for x in index.by_field.get(field.lower(), ())):
        return True
    # the operator's documents list them together: "There are three cabin classes:
    # basic economy, economy, business."
    lib, _ = library(index)
    a, b = _item(held), _item(named)
    return any(a.search(p.text) is not None and b.search(p.text) is not None for _, p in lib.items)


def _item(value: str) -> re.Pattern[str]:
    """A value as an item of a list a document writes ("basic_economy": ": **basic
    economy**," or ", and basic economy."): after a colon, a comma, "and" or "or", and
    before a comma, a full stop, "and", "or" or the end."""
    words = r"[\s_*-]+".join(map(re.escape, value.split("_")))
    return re.compile(
        rf"(?:[:,]|\band|\bor)\s*\**{words}\**\s*(?:[,.;]|\band\b|\bor\b|$)", re.IGNORECASE
    )


#: A level given to the customer's membership: "your Gold-member status", "your silver
#: membership", "your gold status".
_YOUR = re.compile(
    r"\byour\s+([a-z]+)[\s-]+(member(?:ship)?|tier|level)(?:\s+status)?\b"
    r"|\byour\s+([a-z]+)\s+status\b"
    # "As a valued Gold member, ...", "you're a silver member"
    r"|\b(?:as\s+an?|you(?:['’]re|\s+are)\s+an?)\s+(?:valued\s+|loyal\s+)?([a-z]+)[\s-]+member\b",
    re.IGNORECASE,
)
#: Reported speech before a level: "you've indicated you're a gold member".
_REPORTED = re.compile(
    r"\b(?:said|say|says|indicated|mentioned|claimed|stated|told|believe|think|thought)\b"
    r"(?:\s+(?:me|us))?(?:\s+that)?\s*$",
    re.IGNORECASE,
)
#: Words before "member"/"status" that are no level ("your current membership").
_NO_LEVEL = frozenset("current new own account loyalty member membership vip".split())


def your_value(
    index: ReceiptIndex, sentence: str, offset: int = 0
) -> list[tuple[int, int, Finding]]:
    """Membership levels a sentence gives the customer ("your Gold-member status"), against
    the newest ``membership`` field (``regular``): the same level backs it, another level
    of its set contradicts it; a word the evidence never sets beside the field's value
    says nothing. (start, end, finding), ``offset`` added to offsets into ``sentence``."""
    out: list[tuple[int, int, Finding]] = []
    for m in _YOUR.finditer(sentence):
        g = next(i for i in (1, 3, 4) if m.group(i))
        named = _key(m.group(g))
        if named in _NO_LEVEL or _REPORTED.search(sentence, max(0, m.start() - 40), m.start()):
            continue  # "you've indicated you're a gold member": the user's word, reported
        leaves = index.by_field.get("membership", ())
        leaf = next((x for x in reversed(leaves) if x.value.kind in ("word", "text")), None)
        if leaf is None:
            continue
        held = _key(leaf.value.shown)
        r = index.receipt_of(leaf)
        line = f"{r.id} {leaf.path} = {leaf.value.shown}"
        a, b = offset + m.start(g), offset + m.end(g)
        fact = record_fact("state", a, b, m.group(g))
        if held == named:
            out.append((a, b, Finding("supported", r.id, r.kind, line, leaf.path, value=fact)))
        elif _alternatives(index, held, named, leaf.key):
            detail = f"contradicts {line}"
            out.append((a, b, Finding("contradicted", r.id, r.kind, detail, leaf.path, value=fact)))
    return out


#: The levels of a scale every tracker uses, in a field named for the scale: "high
#: priority", "critical severity", "a low-risk change". Each is another's alternative.
_LEVELS = ("low", "medium", "normal", "moderate", "high", "urgent", "critical")
_SCALES = ("priority", "severity", "urgency", "impact", "risk")
_GRADED = re.compile(
    rf"\b(?P<level>{'|'.join(_LEVELS)})[-\s]+(?P<scale>{'|'.join(_SCALES)})\b"
    rf"|\b(?P<scale2>{'|'.join(_SCALES)})(?:\s+(?:is|was|of|set\s+to))?[*_:\s]+"
    rf"(?P<level2>{'|'.join(_LEVELS)})\b",
    re.IGNORECASE,
)


def graded_value(
    index: ReceiptIndex, sentence: str, records: list[Record], offset: int = 0
) -> list[tuple[int, int, Finding]]:
    """A level a sentence gives a record on a scale ("The ticket has high priority",
    "Severity: critical"), against the field of that name of the records the sentence is
    about (else the newest record of the evidence that has one): the same level backs
    it, another level contradicts it. (start, end, finding), as :func:`your_value`."""
    out: list[tuple[int, int, Finding]] = []
    for m in _GRADED.finditer(sentence):
        g = "level" if m.group("level") else "level2"
        level, scale = m.group(g).lower(), (m.group("scale") or m.group("scale2")).lower()
        own = [
            x
            for rec in records
            for r in rec.lineage()
            for x in r.leaves
            if x.key.lower() == scale and x.value.kind in ("word", "text")
        ]
        held = (
            own
            or [x for x in index.by_field.get(scale, ()) if x.value.kind in ("word", "text")][-1:]
        )
        if not held:
            continue
        leaf = held[0]
        value = leaf.value.shown.lower()
        r = index.receipt_of(leaf)
        line = f"{r.id} {leaf.path} = {leaf.value.shown}"
        a, b = offset + m.start(g), offset + m.end(g)
        fact = record_fact("state", a, b, m.group(g))
        if value == level:
            out.append((a, b, Finding("supported", r.id, r.kind, line, leaf.path, value=fact)))
        elif value in _LEVELS and len({x.value.shown.lower() for x in held}) == 1:
            detail = f"contradicts {line}"
            out.append((a, b, Finding("contradicted", r.id, r.kind, detail, leaf.path, value=fact)))
    return out
