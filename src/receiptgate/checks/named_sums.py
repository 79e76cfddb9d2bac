"""Sums over the rows a reply names: an itinerary's fare, a basket's price, and what it
costs more or less than the rows it replaces.

"HAT286 + HAT047 in economy: $279" adds one field (``prices.economy``) over the rows the
sentence names together; "New business itinerary total: $2,613" under lines naming
HAT023, HAT204 and HAT100 adds it over the rows the reply named last, times the
passengers of the reservation (``3 × (364 + 248 + 259)``); "$42 more" with "HAT286 +
HAT047" is that sum less the rows of the record it replaces (the same number of rows
of one of its lists, in a row), per head or for all of them.

Only what the reply names is added, one field at a time, and a difference only where the
sentence names one ("more", "difference", "additional"): the search stays small (a few
dozen candidate figures), so a figure changed at random is seldom one of them.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.heads import heads_of, stated_counts
from receiptgate.checks.operands import TOLERANCE, Derivation, show_number
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import PATH_INDEX, ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record

#: Rows added at most, and ways of choosing a row per id (one flight on two days).
_MAX_ROWS = 5
_MAX_CHOICES = 16
#: Between two ids of one group: "HAT190 + HAT047", "HAT136, HAT039", "A and B".
_JOINED = re.compile(r"^[\s*_`]*(?:\+|,|&|/|and|then|→|->)?[\s*_`]*$", re.IGNORECASE)
#: A sentence that names a difference of two sums.
_DIFFERENCE = re.compile(
    r"\b(?:difference|more|less|additional|extra|cheaper|save[sd]?|savings?|refund\w*|"
    r"owe|due|collect\w*|back)\b",
    re.IGNORECASE,
)


def named_sum(
    index: ReceiptIndex,
    h: HardFact,
    sentence: str,
    anchor_: Anchor,
    before: Sequence[Anchor],
    fresh: Callable[[Receipt], bool],
) -> Derivation | None:
    """A sum of one field over rows the reply names that gives ``h`` (see the module
    doc), or ``None``. ``before``: the anchors of the reply's sentences above this one."""
    if h.kind != "money" or h.number is None or h.number <= 0:
        return None
    target = h.number
    # "Basic Economy: $154 | Economy: $279": each figure's own part names its field
    low = _part_of(sentence, h.text).lower()
    groups = _groups(anchor_, before)
    moved = False
    if not groups:
        # only for a change to a field the rows hold ("to economy"): the record's own
        # rows at their new value, less what they cost
        groups, moved = _own_rows(anchor_), True
    if not groups:
        return None
    named = [r for a in (*before, anchor_) for _, _, r in a.named]
    if _CHARGED.search(sentence) and _payments(named):
        # "Charged: $1,640" after an update whose payment history holds what was charged
        # (the difference): what a card was charged, the payment says, not the fares
        return None
    # per head, or times the passengers of a record the reply named or a count it states
    heads = {1} | stated_counts(sentence, h)
    heads.update(n for r in (*named, *anchor_.records) if 2 <= (n := heads_of([r])) < 10)
    replaced = _DIFFERENCE.search(sentence) is not None
    # the lines above say which field when the sentence does not ("the cheapest economy
    # options", then "Price: $115")
    above = " ".join(a.text for a in before).lower()
    for group in groups:
        for rel, rows in _fields(index, group, low, fresh, above, moved=moved):
            for chosen in itertools.islice(itertools.product(*rows), _MAX_CHOICES):
                olds = _replaced(named, len(chosen), fresh, index) if replaced else iter(())
                shown = _formula(target, chosen, sorted(heads), olds)
                if shown is not None:
                    where = ", ".join(dict.fromkeys(leaf.record.label() for leaf in chosen))
                    formula = f"{show_number(target)} = {shown} ({rel} of {where})"
                    return Derivation("supported", formula, chosen[0])
    return None


#: Where a line's labelled parts meet: "Basic Economy: $154 | Economy: $279".
_PARTS = re.compile(r"\s[|;•]\s")


def _part_of(sentence: str, figure: str) -> str:
    """The part of a line of several labelled figures that holds ``figure``; the whole
    sentence when it has one part or the figure is not found."""
    parts = _PARTS.split(sentence)
    if len(parts) < 2:
        return sentence
    held = [p for p in parts if figure in p]
    return held[0] if len(held) == 1 else sentence


def _formula(
    target: float,
    chosen: Sequence[Leaf],
    heads: Sequence[int],
    olds: Iterator[tuple[float, list[Leaf]]],
) -> str | None:
    """``target`` as the chosen values' sum times a head count, or as the difference of
    that sum and one of ``olds`` (the rows it replaces) times a head count."""
    total = sum(_number(leaf) for leaf in chosen)
    terms = " + ".join(show_number(_number(leaf)) for leaf in chosen)
    for n in heads:
        if abs(n * total - target) <= TOLERANCE:
            return f"{n} × ({terms})" if n > 1 else terms
    for old, old_leaves in olds:
        was = " + ".join(show_number(_number(x)) for x in old_leaves)
        for n in heads if old != total else ():
            if abs(n * abs(total - old) - target) <= TOLERANCE:
                diff = f"({terms}) − ({was})" if total > old else f"({was}) − ({terms})"
                return f"{n} × ({diff})" if n > 1 else diff
    return None


def _number(leaf: Leaf) -> float:
    return leaf.value.number or 0.0


#: A sentence about money that moved: what the payment records say, not a sum of fares.
_CHARGED = re.compile(r"\b(?:charged|billed|debited|paid)\b", re.IGNORECASE)


def _payments(named: Sequence[Record]) -> bool:
    """Whether a record the reply named keeps a list of payments (``payment_history``)."""
    for rec in named:
        for r in rec.root.subtree():
            if "payment" in r.path.lower() and r.path.endswith("]"):
                return True
    return False


def _groups(anchor_: Anchor, before: Sequence[Anchor]) -> list[list[str]]:
    """The ids whose rows a figure may add up: runs the sentence joins ("HAT190 +
    HAT047"), else every id it names; when it names fewer than two, the ids the reply
    named last (two to five of them, the latest ones)."""
    text, at = anchor_.text, anchor_.start
    mentions: list[tuple[int, int, str]] = []
    for start, end, rec in anchor_.named:
        if rec.ids and (not mentions or mentions[-1][0] != start):
            mentions.append((start, end, rec.ids[0]))
    out: list[list[str]] = []
    run: list[str] = []
    for i, (_, _, ident) in enumerate(mentions):
        between = text[mentions[i - 1][1] - at : mentions[i][0] - at] if i else ""
        if run and not _JOINED.match(between):
            out.append(run)
            run = []
        if ident not in run:
            run.append(ident)
    if run:
        out.append(run)
    joined = [g for g in out if len(g) >= 2]
    if joined:
        return joined
    ids = list(dict.fromkeys(m[2] for m in mentions))
    if len(ids) >= 2:
        return [ids[:_MAX_ROWS]]
    # each id where the reply named it last ("Option 2: HAT213 → HAT234" after option 1's
    # "HAT213 → HAT099": HAT213 and HAT234 are the latest two)
    said = [r.ids[0] for a in before for _, _, r in a.named if r.ids]
    earlier = list(reversed(dict.fromkeys(reversed(said))))
    if len(earlier) >= 2:
        # the latest first: "HAT023 ... HAT204, then HAT100" and then "Total: $2,613"
        return [earlier[-n:] for n in range(2, min(len(earlier), _MAX_ROWS) + 1)]
    return []


def _own_rows(anchor_: Anchor) -> list[list[str]]:
    """The ids of the rows of each list of the records a sentence is about: what "Upgrade
    XEHM4B to economy: $288 more" adds up when the reply names no rows, only the record
    that holds them."""
    lists: dict[tuple[int, str], list[str]] = {}
    for r in anchor_.records:
        for c in r.children:
            if c.ids:
                lists.setdefault((id(r), PATH_INDEX.sub("", c.path)), []).append(c.ids[0])
    return [rows for rows in lists.values() if 2 <= len(rows) <= _MAX_ROWS]


def _fields(
    index: ReceiptIndex,
    group: Sequence[str],
    low: str,
    fresh: Callable[[Receipt], bool],
    above: str = "",
    *,
    moved: bool = False,
) -> Iterator[tuple[str, list[list[Leaf]]]]:
    """Per money field that every id's rows hold (``prices.economy``), each id's values of
    it; a field whose last word the sentence names ("in economy") before the others, and
    only those when it names one; when it names none, only the one field the lines
    ``above`` name, if they name just one."""
    per_id: list[dict[str, list[Leaf]]] = []
    for ident in group:
        fields: dict[str, list[Leaf]] = {}
        for rec in index.records_by_id.get(ident, ()):
            if rec.parent is None:
                continue  # a row of a list, not a whole result
            for leaf in rec.leaves:
                if leaf.value.kind not in ("money", "number") or leaf.value.number is None:
                    continue
                if any(k.startswith("i:") for k in leaf.value.keys) or not fresh(
                    index.receipt_of(leaf)
                ):
                    continue
                rel = leaf.path[len(rec.path) :].lstrip(".")
                values = fields.setdefault(rel, [])
                if all(abs(_number(x) - leaf.value.number) > TOLERANCE for x in values):
                    values.append(leaf)
        per_id.append(fields)
    common = set(per_id[0]).intersection(*per_id[1:]) if per_id else set()
    if not common:
        return
    said = _moved_to(common, low)
    if moved and not said:
        return  # the record's own rows count only at the value a change moves them to
    said = said or _named(common, low) or _named(common, above, only=True)
    for rel in sorted(said or common):
        rows = [fields[rel] for fields in per_id]
        if all(leaf.value.kind == "money" or _money_key(leaf) for row in rows for leaf in row):
            yield rel, rows


def _named(fields: set[str], text: str, *, only: bool = False) -> list[str]:
    """The fields whose last word ``text`` names ("economy" names ``prices.economy``, and
    "basic economy" names ``prices.basic_economy`` only); with ``only``, none unless it
    names one word alone (``prices.economy`` and ``available_seats.economy``)."""
    said = [rel for rel in fields if _last_word(rel) in text]
    said = [
        rel
        for rel in said
        if not any(
            _last_word(rel) != _last_word(o) and _last_word(rel) in _last_word(o) for o in said
        )
    ]
    return said if not only or len({_last_word(rel) for rel in said}) == 1 else []


def _moved_to(fields: set[str], text: str) -> list[str]:
    """The field a change moves to: "upgrade from basic economy to economy" names
    ``prices.economy`` (the rows' new value), not the ``basic_economy`` it leaves."""
    return [rel for rel in fields if re.search(rf"\bto\s+{re.escape(_last_word(rel))}\b", text)]


def _last_word(rel: str) -> str:
    return re.split(r"[.\]]", rel)[-1].replace("_", " ").lower()


def _money_key(leaf: Leaf) -> bool:
    return bool({"price", "prices", "fare", "cost", "amount", "total"} & set(leaf.words))


def _replaced(
    named: Sequence[Record], n: int, fresh: Callable[[Receipt], bool], index: ReceiptIndex
) -> Iterator[tuple[float, list[Leaf]]]:
    """Sums of one money field over ``n`` rows in a row (or all) of a list of a record the
    reply named: the segments a new itinerary replaces."""
    seen: set[int] = set()
    for rec in named:
        for owner in rec.lineage():
            if id(owner) in seen:
                continue
            seen.add(id(owner))
            lists: dict[str, list[Record]] = {}
            for child in owner.children:
                lists.setdefault(PATH_INDEX.sub("", child.path), []).append(child)
            for rows in lists.values():
                if len(rows) < 2:
                    continue
                fields: dict[str, list[Leaf]] = {}
                for row in rows:
                    for leaf in row.leaves:
                        if leaf.value.kind == "money" or (
                            leaf.value.kind == "number" and _money_key(leaf)
                        ):
                            fields.setdefault(leaf.key, []).append(leaf)
                for leaves in fields.values():
                    if len(leaves) != len(rows) or not fresh(index.receipt_of(leaves[0])):
                        continue
                    spans = {(i, i + n) for i in range(len(leaves) - n + 1)} | {(0, len(leaves))}
                    for a, b in sorted(spans):
                        part = leaves[a:b]
                        yield sum(_number(x) for x in part), part
