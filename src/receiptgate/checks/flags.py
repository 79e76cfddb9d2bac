"""Yes/no fields a sentence restates: "Breakfast is included in your rate" against
``"breakfast_included": true``, "The Junior Suite is non-refundable" against the suite's
``"refundable": false``.

A true/false field is restated when the sentence holds every content word of its name
(``breakfast_included`` -> breakfast, included); the sentence says yes or no by a
negation in the clause of those words ("not included", "non-refundable", "isn't
refundable"). The field is read of the rows the sentence is about: those it names by id
(its anchor), else those one of whose words it repeats ("the Junior Suite"), else every
row that has the field, when they all agree. Rows that disagree and a sentence that
picks none of them say nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.availability import AVAILABLE_KEYS
from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.checks.rivals import evidence_line
from receiptgate.checks.words import content_words
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import key_words
from receiptgate.text.segment import Sentence

#: A no in the clause of a field's words: "not included", "non-refundable", "isn't".
_NEGATION = re.compile(
    r"\b(?:not|no|never|nothing|none|neither|without|isn['’]t|aren['’]t|wasn['’]t|"
    r"weren['’]t|doesn['’]t|don['’]t|won['’]t|cannot|can['’]t)\b|\bnon-?(?=[a-z])"
    # "Autopay is off", "turned off", "disabled": a switch's no
    r"|\b(?:is|are|was|were|stays?|remains?|turned|switched|set)\s+(?:now\s+)?(?:off|disabled)\b"
)
#: A label's no after the field's words: "**Autopay:** off", "Refundable: no".
_LABEL_NO = re.compile(r"[*_\s]*:[*_\s]*(?:off|disabled|no|none|false)\b")
_CLAUSE_EDGE = re.compile(r"[;:,()]|\s[-–—]\s|\b(?:but|while|whereas|although)\b")
_WORD = re.compile(r"[a-z][a-z'-]*")

#: A field's name as code writes one: "breakfast_included", "isRefundable".
_FIELD_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")

#: Field words that are no claim's (``is_refundable``: the "is" says nothing).
_FLAG_FILLER = frozenset({"is", "has", "can", "flag", "bool"})


def _flag_fields(index: ReceiptIndex) -> dict[str, tuple[frozenset[str], list[Leaf]]]:
    """The true/false fields of tool results, by name: (content words of the name, leaves);
    found through the index's true and false values, once per index size."""
    size = len(index.by_key.get("b:true", ())) + len(index.by_key.get("b:false", ()))
    cached = index.cache.get("flag_fields")
    if isinstance(cached, tuple) and cached[0] == size:
        return cached[1]  # type: ignore[no-any-return]
    found: dict[str, tuple[frozenset[str], list[Leaf]]] = {}
    for value in ("b:true", "b:false"):
        for leaf in index.by_key.get(value, ()):
            key = leaf.key.lower()
            if key in AVAILABLE_KEYS or not _FIELD_NAME.fullmatch(leaf.key):
                continue  # (availability is checks/availability's; "Is nan" is printed)
            if leaf.path.startswith("args") or index.receipt_of(leaf).kind != "tool":
                continue
            if key not in found:
                said = [w for w in key_words(leaf.key) if w not in _FLAG_FILLER]
                words = content_words(" ".join(said))
                found[key] = (words, [])
            found[key][1].append(leaf)
    found = {k: (w, sorted(v, key=index.position)) for k, (w, v) in found.items() if w}
    index.cache["flag_fields"] = (size, found)
    return found


def described_rows(leaves: Sequence[Leaf], low: str) -> list[Leaf]:
    """The leaves whose row holds a word value the sentence repeats ("Junior Suite")."""
    out = []
    for leaf in leaves:
        for other in leaf.record.leaves:
            shown = other.value.shown.lower()
            if (
                other.value.kind in ("word", "text")
                and 3 <= len(shown) <= 60
                and re.search(rf"(?<![\w-]){re.escape(shown)}(?![\w-])", low)
            ):
                out.append(leaf)
                break
    return out


def flag_claims(s: Sentence, anchor_: Anchor, index: ReceiptIndex) -> list[RecordClaim]:
    """The yes/no fields a statement restates, each checked (see the module doc)."""
    fields = _flag_fields(index)
    if not fields:
        return []
    low = s.text.lower()
    said = content_words(low)
    scope = anchor_.scope()
    out: list[RecordClaim] = []
    candidates = [
        (words, leaves)
        for words, leaves in fields.values()
        if words <= said and _said_as_participle(low, leaves[0].key)
    ]
    for words, leaves in candidates:
        if any(words < other for other, _ in candidates):
            continue  # "Arjun's hotspot was throttled": hotspot_throttled, not throttled
        span = _span(low, words)
        if span is None:
            continue
        a, b = span
        if _COUNTED_SUBJECT.search(low, 0, a) or _SHARE_BEFORE.search(low, 0, a):
            continue  # "6 of the 8 pods were ready", "6/6 ready": how many rows, not one's
        scoped = [leaf for leaf in leaves if id(leaf.record) in scope]
        named = scoped if anchor_.how == "named" else []
        rows = named or described_rows(leaves, low) or scoped or leaves
        # a later result of the same record is its state now (the line L-7781 after
        # enable_roaming), though the sentence named it by what an older result showed
        ids = {i for leaf in rows for i in _own_ids(leaf)}
        # ... or a later call on it by id whose result has the field ({"merged": true}
        # from merging pull request 482, after the pull request's "merged": false)
        rows = [
            leaf for leaf in leaves if leaf in rows or ids & (_own_ids(leaf) or _asked_ids(leaf))
        ]
        rows = _newest_each(index, rows)
        held = {leaf.value.shown for leaf in rows}
        if len(held) != 1:
            continue  # rows that disagree, and the sentence picks none of them
        start, end = _clause(low, a, b)
        negated = _NEGATION.search(low, start, end) is not None or bool(_LABEL_NO.match(low, b))
        leaf = max(rows, key=index.position)
        yes = leaf.value.shown == "true"
        r = index.receipt_of(leaf)
        line = evidence_line(index, leaf)
        fact = record_fact("state", s.start + a, s.start + b, s.text[a:b])
        if yes != negated:
            finding = Finding("supported", r.id, r.kind, line, leaf.path, value=fact)
        else:
            finding = Finding(
                "contradicted", r.id, r.kind, f"contradicts {line}", leaf.path, value=fact
            )
        out.append(RecordClaim("state", s.start + a, s.start + b, s.text[a:b], finding))
    return out


#: A subject counted before a flag's words: "6 of the 8 pods were ready", "all three
#: rooms are refundable", "two pods aren't ready".
_COUNTED_SUBJECT = re.compile(
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|all|both|none|most|several)"
    r"(?:\s+of)?(?:\s+the)?(?:\s+\d+)?(?:\s+[\w-]+)?\s+[a-z]+s\s+(?:are|were|is|was|have|had)\b"
)


#: A share written right before a flag's words: "6/6 ready" (kubectl's READY column).
_SHARE_BEFORE = re.compile(r"\b\d+\s*/\s*\d+\s*$")


def _newest_each(index: ReceiptIndex, leaves: list[Leaf]) -> list[Leaf]:
    """Of leaves of the same record (sharing an id) in several results, the newest."""
    out: list[Leaf] = []
    for leaf in sorted(leaves, key=index.position, reverse=True):
        ids = _own_ids(leaf)
        if not ids or not any(ids & _own_ids(o) for o in out):
            out.append(leaf)
    return out


def _own_ids(leaf: Leaf) -> set[str]:
    """The ids of the nearest record of a leaf that has some (a line's, not its
    customer's)."""
    return next((set(r.ids) for r in leaf.record.lineage() if r.ids), set())


def _said_as_participle(low: str, key: str) -> bool:
    """Whether each word of a field name that is a participle ("merged") is said as one
    ("was merged", "squash-merged", "unmerged"), not as another form of its verb ("It
    merges feat/x into main", "the merge state")."""
    for w in key_words(key):
        if len(w) > 4 and w.endswith("ed") and not re.search(rf"{w[:-2]}(?:ed|en)\b", low):
            return False
    return True


def _asked_ids(leaf: Leaf) -> set[str]:
    """The ids the call that returned a leaf was asked about (its arguments')."""
    root = leaf.record.root
    return {
        x.value.shown.lower().lstrip("#")
        for x in root.leaves
        if x.path.startswith("args.") and x.value.kind in ("id", "number", "count")
    }


def _span(low: str, words: frozenset[str]) -> tuple[int, int] | None:
    """From the first to the last word of ``low`` that is one of ``words`` (stemmed)."""
    hits = [m for m in _WORD.finditer(low) if content_words(m.group()) & words]
    if not hits:
        return None
    return hits[0].start(), hits[-1].end()


def _clause(low: str, a: int, b: int) -> tuple[int, int]:
    start = max((m.end() for m in _CLAUSE_EDGE.finditer(low, 0, a)), default=0)
    nxt = _CLAUSE_EDGE.search(low, b)
    return start, nxt.start() if nxt is not None else len(low)
