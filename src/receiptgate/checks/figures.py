"""A claimed figure against the records: the right field of the right record, by typed
value (:func:`check_figure`).

Held by a field of an anchored record: supported. Held by another record whose field
is about what the sentence says: supported too — a value of another record never
contradicts this one, but it does not back a sentence that names a record of the same
kind ("Order #W1 came to $2,649" when $2,649 is order #W2's). Held by no receipt: a
*contradiction* when an anchored record's field of the same kind, chosen by the
sentence's words ("price", "departs"), holds another value; otherwise unsupported.

Evidence lines name the receipt and the field path:
``call_3 reservations[0].flights[1].price = 153``.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from collections.abc import Set as AbstractSet

from receiptgate.checks.anchoring import TOKEN, Anchor, for_figure, id_key
from receiptgate.checks.documents import DOCUMENT_KINDS
from receiptgate.checks.finding import Finding
from receiptgate.checks.words import GENERIC, content_words, word_pattern
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex, id_shape
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import Value, claim_keys, compatible, same_family


def evidence_line(index: ReceiptIndex, leaf: Leaf) -> str:
    """How evidence shows a value: ``call_3 items[0].price = 153``, or in a text the
    words around it."""
    r = index.receipt_of(leaf)
    if leaf.quote:
        return f"{r.id}: {leaf.quote!r}"
    return f"{r.id} {leaf.path} = {leaf.value.shown}"


def _equal(h: HardFact, leaf: Leaf) -> bool:
    v = leaf.value
    if v.kind in ("word", "text", "id"):
        # A figure inside a field's text: the same characters, as a whole word.
        return literal_in(h.text, v.shown)
    if not compatible(h, v):
        return False
    if (
        h.kind in ("money", "count", "number", "percent")
        and v.kind != "duration"
        and (h.number is not None and v.number is not None)
    ):
        return (
            abs(h.number - v.number) < 0.005
            or (h.kind == "percent" and abs(h.number / 100 - v.number) < 0.00005)
            # a negative amount ("price_difference": -9.89, a calculator's "-2580.0") is
            # claimed as its size
            or (h.kind == "money" and v.number < 0 and abs(h.number + v.number) < 0.005)
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
    # what this row holds in any field: "flight HAT522 from ORD" names this row's origin,
    # not the destination of the row before it
    held = {x.value.shown.lower() for x in rec.leaves}
    for sibling in parent.children:
        if sibling is rec:
            continue
        for other in sibling.leaves:
            if other.value.kind not in ("word", "id", "date", "datetime") or other.key == leaf.key:
                continue
            mine = own.get(other.key)
            if mine is None or other.value.shown.lower() in held:
                continue
            if _named_in(other.value, low) and not _named_in(mine.value, low):
                return True
    return False


def _named_in(value: Value, low: str) -> bool:
    return _named_shown(value.shown, value.kind, low)


@functools.lru_cache(maxsize=16384)
def _named_shown(shown: str, kind: str, low: str) -> bool:
    """Whether a sentence (lowercase) names a value, shown as a record holds it (cached:
    the rows of a long search result are asked about again for every figure)."""
    shown = shown.lower()
    if len(shown) < 2:
        return False
    if kind == "word" and "_" in shown:
        shown = shown.replace("_", " ")  # "gift_card" is named by "your $62 gift card"
    if literal_in(shown, low) or (
        shown[-1:].isalpha() and (literal_in(shown + "s", low) or literal_in(shown + "es", low))
    ):
        return True  # "engineer" is named by "14 engineers"
    if kind in ("date", "datetime"):
        return _month_named(shown, low)
    words = shown.split()
    if 2 <= len(words) <= 4 and kind == "word":
        # "Search latency" is named by "Search p99 latency": every word, in order
        return _in_order(tuple(words)).search(low) is not None
    return False


@functools.lru_cache(maxsize=4096)
def _in_order(words: tuple[str, ...]) -> re.Pattern[str]:
    """Words in order, a few characters apart (compiled once per value: one pattern per
    value would thrash ``re``'s own cache, as in ``word_pattern``)."""
    return re.compile(r"\b" + r"\b.{0,30}?\b".join(map(re.escape, words)) + r"\b")


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
    anchors: Sequence[str] = (),
    linked: frozenset[str] = frozenset(),
) -> Finding:
    """Support, contradiction or absence of one claimed figure (see the module doc).

    ``anchor_`` is what the sentence is about, with its text; ``clause`` and
    ``sentence`` are the content words around the figure and of the whole sentence;
    ``anchors`` the names, hosts and paths the sentence names; ``linked`` the receipts
    that back another claim of the sentence (the test run behind "I ran the tests and
    all 42 pass"): a value they hold needs no more.
    """
    keys = claim_keys(h)
    anchor_ = for_figure(anchor_, h)
    scope = anchor_.scope()
    low = anchor_.text.lower()
    if h.kind == "number" and h.text.isdigit() and len(h.text) >= 6:
        # A long run of digits is a name (an item, a tracking number): it exists or not.
        named = index.leaves((f"i:{h.text}",))
        if named:
            return supported(index, h, named[0])
    equal = [leaf for leaf in index.leaves(keys) if _equal(h, leaf)]
    if h.kind == "money" and clause & _PAY_MORE and not clause & _NEGATIVE_MONEY:
        # a calculator's -114 is $114 less, never "an additional $114"
        equal = [leaf for leaf in equal if (leaf.value.number or 0) >= 0]
    if len(equal) > MAX_EQUAL:
        # a value many receipts hold ("42" in a long session, "$62" among the fares of
        # many searches): those whose field the clause names ("your $62 gift card"), then
        # the newest, decide, so a figure costs the same however long the session
        equal.sort(
            key=lambda leaf: (bool(field_words(leaf) & clause), index.position(leaf)),
            reverse=True,
        )
        equal = equal[:MAX_EQUAL]
    others: list[Leaf] = []
    is_fresh = [fresh(index.receipt_of(leaf)) for leaf in equal]
    stale = [leaf for leaf, ok in zip(equal, is_fresh, strict=True) if not ok]
    # the rows of a record the sentence names as a whole ("your reservation M05KNL ... on May
    # 23": both flights' dates are the reservation's) are its own, whichever row it names
    whole = {id(r) for r in anchor_.records} if anchor_.how in ("named", "section") else set()
    equal = [
        leaf
        for leaf, ok in zip(equal, is_fresh, strict=True)
        if ok
        and (
            not _other_row(leaf, low)
            or (leaf.record.parent is not None and id(leaf.record.parent) in whole)
        )
    ]
    # A record the sentence names (or the section it sits in) holding the value backs
    # it; a weaker anchor (the sentence before, the latest result) needs the value's
    # field to be about the figure, as any other record does.
    strong = anchor_.how in ("named", "section")
    # "The return of the Smart Watch from #W1 is processed. The refund of $367.38 will be
    # issued ...": an amount of the record the sentence before named, in a sentence
    # about money, is that record's; so is a date or a time ("I found your reservation
    # OBUT9V. You return on May 28th.")
    previous = anchor_.how == "previous" and (
        (h.kind == "money" and bool(clause & _MONEY_WORDS)) or h.kind in ("date", "time")
    )
    inside = [
        leaf
        for leaf in equal
        if ((strong or (previous and same_family(h, leaf.value))) and id(leaf.record) in scope)
        or index.receipt_of(leaf).id in linked
    ]
    if inside:
        best = max(inside, key=lambda leaf: _overlap(index, leaf, clause))
        return _disagreed(index, h, best, low, fresh) or supported(index, h, best)
    about = [leaf for leaf in equal if _is_about(index, leaf, clause, sentence, anchors)]
    if anchor_.how in ("named", "section"):
        # "Order #W1 came to $2,649": the price of order #W2 is no support; nor, in the
        # lines under an item, another item's price.
        ids = _named_ids(anchor_.text, index) or _anchor_ids(anchor_)
        own = {i.lstrip("#") for rec in anchor_.records for i in rec.ids}
        others = [
            leaf
            for leaf in about
            if _of_a_sibling(leaf.record, ids) or _another_row(leaf.record, own)
        ]
        about = [leaf for leaf in about if leaf not in others]
    rival = _rival(index, h, anchor_, clause, scope, fresh)
    if rival is not None and index.receipt_of(rival).kind == "user":
        rival = None  # what the user wrote may back a restatement, never contradict a fact
    if rival is not None and anchor_.how == "named":
        # The sentence names the record and its field holds another value: the same
        # field of another record ("build 4827 took 14 minutes") is no support.
        about = [leaf for leaf in about if leaf.key.lower() != rival.key.lower()]
        if not about:
            return _contradicted(index, h, rival)
    if about:
        best = max(about, key=lambda leaf: _overlap(index, leaf, clause))
        return _disagreed(index, h, best, low, fresh) or supported(index, h, best)
    literal = _literal(h, anchor_)
    if literal is not None:
        return supported(index, h, literal)
    if h.kind == "number" and h.text.isdigit() and len(h.text) >= 4:
        # a code the user typed ("my zip code is 10001"), restated as they wrote it
        typed = [
            leaf
            for leaf in equal
            if leaf.value.shown == h.text and index.receipt_of(leaf).kind == "user"
        ]
        if typed:
            return supported(index, h, typed[0])
    if h.kind == "money" and equal and rival is None:
        # "under $1,000" after the user asked to "bring it under $1000": an amount only
        # the user's own messages hold is theirs, restated (T7), whatever words surround it
        users = [leaf for leaf in equal if index.receipt_of(leaf).kind == "user"]
        if len(users) == len(equal):
            return supported(index, h, users[-1])
    weak = rival is None or anchor_.how not in ("named", "section")
    rival = rival or _labelled_rival(index, h, clause, low, fresh)
    if rival is not None and weak:
        held = [leaf for leaf in equal if index.receipt_of(leaf).kind != "user"]
        if held and all(leaf.record is not rival.record for leaf in held):
            # a value another record holds is never a contradiction of this one: "your
            # original payment was $2787" with payment_history 2787 and a fare labelled
            # "business" elsewhere
            return Finding(
                "unsupported",
                None,
                None,
                f"{h.text} is held by {evidence_line(index, held[0])}, not by the field the "
                f"sentence names ({evidence_line(index, rival)})",
                value=h,
            )
    if rival is not None:
        return _contradicted(index, h, rival)
    if stale:
        r = index.receipt_of(stale[0])
        age = f"{(index.now - r.created_at).days} days old" if r.created_at else "too old"
        return Finding(
            "stale",
            r.id,
            r.kind,
            f"{r.id} carries {h.text} but is {age}, past the freshness window for {r.kind}",
            stale[0].path,
            value=h,
        )
    if others:
        leaf = others[0]
        owner = next(r for r in leaf.record.lineage() if r.ids)
        whose = f"{evidence_line(index, leaf)} is {owner.ids[0]}'s"
        detail = f"{h.text} is not a value of the record the sentence names ({whose})"
        return Finding("unsupported", None, None, detail, value=h)
    return Finding("unsupported", None, None, f"no receipt holds {h.text}", value=h)


#: Words of a clause about an amount of money (stemmed).
_MONEY_WORDS = content_words("refund refunded charge charged paid pay cost price fee total")

#: At most this many receipt values equal to a claimed figure are weighed (the newest).
MAX_EQUAL = 32


def _named_ids(text: str, index: ReceiptIndex) -> set[str]:
    """The record ids a sentence names, lowercase without "#"."""
    return {
        m.group().lower().rstrip(".").lstrip("#")
        for m in TOKEN.finditer(text)
        if id_key(m.group(), index) is not None
    }


def _anchor_ids(anchor_: Anchor) -> set[str]:
    """The ids of the records a sentence is about, and of the records they belong to."""
    return {i.lstrip("#") for rec in anchor_.records for r in rec.lineage() for i in r.ids}


def _another_row(rec: Record, own: set[str]) -> bool:
    """Whether a record is another row of the kind the sentence is about: it has an id of
    the form the anchored record's own ids have (an item id), and none of them — even
    when both belong to one product (two variants share its product id)."""
    if not own:
        return False
    ids = {i.lstrip("#") for i in rec.ids}
    if ids & own:
        return False
    shapes = {id_shape(i) for i in own}
    return any(id_shape(i) in shapes for i in ids)


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
) -> Finding | None:
    """Contradiction wins over support (SPEC §4): another receipt gives another value
    for the same field of the same thing.

    The same thing is a row without ids in another receipt with the same field that
    no named value tells apart (``revenue_usd`` in two reports). Records with ids (an
    order before and after a change) are states over time, not a disagreement.
    """
    rec = support.record
    if support.path.startswith("args"):
        return None  # what a call asked for ("date": the day searched) is no measurement
    for other in index.by_field.get(support.key.lower(), ()):
        if index.position(other) == index.position(support) or not same_family(h, other.value):
            continue
        if other.path.startswith("args"):
            continue  # two searches for two days do not disagree
        if other.value.keys[:1] == support.value.keys[:1] or not fresh(index.receipt_of(other)):
            continue
        if _has_id(rec) or _has_id(other.record) or _other_row(other, low):
            continue  # records with ids change over time; state checks read the latest
        if _tell_apart(rec, other.record, support.key):
            continue  # two releases, two days: other fields say they are other things
        r = index.receipt_of(other)
        agree = index.receipt_of(support).id
        line = evidence_line(index, other)
        detail = f"contradicts {line}, claimed {h.text} (though {agree} agrees)"
        return Finding("contradicted", r.id, r.kind, detail, other.path, value=h)
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
        if len(shared) < min(2, len(specific)):
            continue  # "Credit card: $171" is not what a gift card's amount is
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
        if entry.receipt.kind in DOCUMENT_KINDS and entry.format == "text":
            continue  # a rule's figure is weighed against the rule it is in (documents)
        for rec in entry.records:
            for leaf in rec.leaves:
                label = frozenset(leaf.words) if leaf.path == "text" else field_words(leaf)
                label = label - GENERIC
                for word in label:
                    out.setdefault(word, []).append((n, leaf, label))
                n += 1
    index.cache["labels"] = out
    return out


def _contradicted(index: ReceiptIndex, h: HardFact, rival: Leaf) -> Finding:
    r = index.receipt_of(rival)
    detail = f"contradicts {evidence_line(index, rival)}, claimed {h.text}"
    return Finding("contradicted", r.id, r.kind, detail, rival.path, value=h)


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
    if leaf.value.kind == "money" and (leaf.value.number or 0) < 0:
        found = found | _NEGATIVE_MONEY  # a payment of -2544 is a refund
    return field_words(leaf) | found


#: What a negative amount of money is, and words of paying more, which it is not.
_NEGATIVE_MONEY = content_words(
    "refund credit return back receive save saving less lower reduce reduction cheaper "
    "decrease difference"
)
_PAY_MORE = content_words("additional extra more charge pay owe due cost")


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
    if clause & _OUTPUT_VERBS and entry.receipt.kind == "tool" and not leaf.path.startswith("args"):
        return True  # "the script printed the total: 55": what a call printed, said as such
    return len((sentence - GENERIC) & words) >= 2


#: Verbs that report what a call put out ("the script printed 55", "the query returned 12").
_OUTPUT_VERBS = content_words(
    "printed prints output outputs returned returns showed shows displayed"
)


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


def literal_in(claimed: str, shown: str, *, head: bool = False) -> bool:
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
                if leaf.value.kind in ("word", "text", "id") and literal_in(
                    h.text, leaf.value.shown, head=True
                ):
                    return leaf
    return None


def supported(index: ReceiptIndex, h: HardFact, leaf: Leaf) -> Finding:
    """``h`` backed by ``leaf``, with its evidence line."""
    r = index.receipt_of(leaf)
    line = evidence_line(index, leaf)
    if h.kind != "identifier" and h.text.strip().lower() != leaf.value.shown.strip().lower():
        line += f", matches {h.text}"
    return Finding("supported", r.id, r.kind, line, leaf.path, value=h)


def _rival(
    index: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    clause: frozenset[str],
    scope: AbstractSet[int],
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
