"""Shares: a percentage a reply gives of a limit or a whole ("That's about 64% of your API
quota", "you're using 92% of your seats") as one field of a row over another of the same
row, or across rows the sentence names (a payslip's line over its gross, a row's field
over its list's sum, one person's usage over their plan's cap); checks/arithmetic tries
it first for a percentage no record holds."""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.about import field_words, own_words
from receiptgate.checks.operands import Derivation, show_number
from receiptgate.checks.words import content_words
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import SIZE_UNITS

#: A share rounded or said as about: "about 64%", "roughly 92%", "~40%".
_ABOUT = re.compile(r"\b(?:about|around|roughly|approximately|nearly|almost|over|under)\s+$|~\s*$")


def share_of(
    index: ReceiptIndex, h: HardFact, records: Sequence[Record], sentence: str
) -> Derivation | None:
    """ "That's about 64% of your API quota": one field of a record over another of the
    same record (``api_calls`` over ``api_call_limit``; ``used`` over ``purchased``), as
    a percentage rounded as the claim is written (to its last digit; "about" allows one
    point more). Two fields of one row first; across rows only as :func:`_across_rows`
    allows (any two numbers of a result would give almost any share)."""
    if h.number is None:
        return None
    at = sentence.find(h.text)
    decimals = len(h.text.split(".", 1)[1].rstrip("%").strip()) if "." in h.text else 0
    slack = 0.5 * 10**-decimals + (1.0 if at >= 0 and _ABOUT.search(sentence[:at]) else 0.0)
    said = content_words(sentence)
    rows = {id(r): r for r in records}
    for rec in list(rows.values()):
        for r in rec.subtree():
            rows.setdefault(id(r), r)
    for entry in index.entries:
        # ... and the rows of any result whose fields the sentence names ("your API quota"
        # of api_call_limit), wherever it is
        for r in entry.records:
            if any(said & field_words(x) for x in r.leaves if x.value.number is not None):
                rows.setdefault(id(r), r)
    for rec in rows.values():
        nums = [
            x
            for x in rec.leaves
            if x.value.kind in ("count", "number", "money") and x.path != "text"
        ]  # (fields of records: two figures a command printed make no share)
        for part in nums:
            for whole in nums:
                p, w = part.value.number, whole.value.number
                if part is whole or p is None or not w or p <= 0 or p >= w:
                    continue
                if not said & (field_words(part) | field_words(whole)):
                    continue  # two fields of the row the sentence does not name
                share = 100 * p / w
                if abs(share - h.number) <= slack:
                    formula = (
                        f"{h.text} ≈ {show_number(p)} / {show_number(w)} = {share:.1f}% "
                        f"({part.key} of {whole.key})"
                    )
                    return Derivation("supported", formula, part)
    return _across_rows(list(rows.values()), h, said, slack, sentence)


def _across_rows(
    rows: list[Record], h: HardFact, said: frozenset[str], slack: float, sentence: str
) -> Derivation | None:
    """A share whose part and whole sit in two rows: a line of a payslip over its gross
    ("Income tax was about 17% of your April gross"), one row's field over the same field
    summed over its list ("make up about 95% of the net cost"), and two rows of one
    person ("Maya used 115% of her 10 GB allowance": her usage row over her plan row).
    The part's row must be named by the sentence, and the whole by its field words or
    its value written out; the two of one kind and unit."""
    assert h.number is not None
    written = {m.group().replace(",", "") for m in _FIGURE.finditer(sentence)}
    sums: dict[tuple[int, str, str], float] = {}  # a field summed over a list, once per list
    # the rows of each person the sentence names, found once (not every pair of rows)
    people: dict[str, list[Record]] = {}
    for rec in rows:
        for name in _lineage_names(rec):
            if said & content_words(name):
                people.setdefault(name, []).append(rec)
    for rec in rows:
        wholes = [w for w in _numbers(rec) if said & field_words(w)]
        for sub in rec.subtree() if wholes else ():
            if sub is rec or not said & (own_words(sub) - _field_words_of(wholes)):
                continue
            for part in _numbers(sub):
                for whole in wholes:
                    if (found := _try(h, part, whole, None, slack)) is not None:
                        return found
        for part in _numbers(rec):
            if not said & field_words(part) or not said & own_words(rec):
                continue
            rows_of_list = _list_rows(rec)
            if len(rows_of_list) >= 2:
                at = (id(rec.parent), rec.path[: rec.path.rindex("[")], part.key)
                if at not in sums:
                    sums[at] = sum(
                        x.value.number or 0.0
                        for r in rows_of_list
                        for x in _numbers(r)
                        if x.key == part.key
                    )
                total = sums[at]
                if (found := _try(h, part, part, total, slack)) is not None:
                    return found
        for other in _same_person(rec, people):
            for whole in _numbers(other):
                own = field_words(whole) - _numbers_words(rec)  # "cap" of data_cap_gb
                if whole.value.shown not in written and not said & own:
                    continue
                for part in _numbers(rec):
                    if said & field_words(part) and (found := _try(h, part, whole, None, slack)):
                        return found
    return None


_FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _same_person(rec: Record, people: dict[str, list[Record]]) -> list[Record]:
    """The other rows of a person the sentence names whose rows ``rec`` is among."""
    out: list[Record] = []
    for name in _lineage_names(rec):
        out.extend(r for r in people.get(name, ()) if r is not rec and r not in out)
    return out


def _lineage_names(rec: Record) -> set[str]:
    """The names of a row and of the rows it sits in (a plan's line's owner)."""
    return {n for r in rec.lineage() for n in r.names}


def _numbers(rec: Record) -> list[Leaf]:
    return [x for x in rec.numeric_leaves() if x.value.kind in ("count", "number", "money")]


def _numbers_words(rec: Record) -> frozenset[str]:
    return frozenset().union(*(field_words(x) for x in _numbers(rec)))


def _field_words_of(leaves: list[Leaf]) -> frozenset[str]:
    return frozenset().union(*(field_words(x) for x in leaves))


def _list_rows(rec: Record) -> list[Record]:
    """The rows of the list a row is an item of (itself among them)."""
    if rec.parent is None or not rec.path.endswith("]"):
        return []
    stem = rec.path[: rec.path.rindex("[")]
    return [
        r
        for r in rec.parent.children
        if r.path.endswith("]") and r.path[: r.path.rindex("[")] == stem
    ]


def _unit(leaf: Leaf) -> str:
    last = leaf.words[-1] if leaf.words else ""
    return f"{leaf.value.kind}:{last if last in SIZE_UNITS else ''}"


def _try(
    h: HardFact, part: Leaf, whole: Leaf, total: float | None, slack: float
) -> Derivation | None:
    assert h.number is not None
    p, w = part.value.number, total if total is not None else whole.value.number
    if p is None or not w or p <= 0 or w <= 0 or (p >= w and h.number <= 100):
        return None
    if part is not whole and (
        _unit(part) != _unit(whole)
        or (
            None not in (part.value.unit, whole.value.unit) and part.value.unit != whole.value.unit
        )  # (money in two currencies)
    ):
        return None
    share = 100 * p / w
    if abs(share - h.number) > slack:
        return None
    of = f"the sum of {whole.key}" if total is not None else whole.key
    formula = f"{h.text} ≈ {show_number(p)} / {show_number(w)} = {share:.1f}% ({part.key} of {of})"
    return Derivation("supported", formula, part)
