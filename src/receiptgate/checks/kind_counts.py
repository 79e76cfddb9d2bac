"""Counts of rows of one kind: "2 gift cards", "three certificates", "1 credit card".

A user's payment methods are rows of one object, each with a field saying what it is
(``"source": "gift_card"``); a count of a kind is the number of rows of the newest such
object whose field holds the noun the sentence counts. Another number of them is a
contradiction: the object lists every row it has.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import failed
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Record

#: The words after a count: "gift cards", "travel certificates", "credit cards on file".
_NOUN = re.compile(
    r"[\w.,]+\s*(?:[*_]+\s*)?([A-Za-z]+)(?:[\s_-]+([A-Za-z]+))?(?:[\s_-]+([A-Za-z]+))?"
)
#: A bound before the count ("max 3 gift cards" per reservation): a rule, not the rows.
_LIMIT = re.compile(
    r"\b(?:max(?:imum)?|up\s+to|at\s+most|no\s+more\s+than|limit(?:ed)?(?:\s+(?:of|to))?|"
    r"only|min(?:imum)?|at\s+least)[\s:*_]*$",
    re.IGNORECASE,
)
#: A count of what the user holds: "you have 3 gift cards", "your 2 certificates".
_HELD = re.compile(
    r"\b(?:(?:you|user|customer|account|profile)\s+(?:ha(?:ve|s)|holds?|owns?)|your|there\s+are)"
    r"[\s*_]*(?:only\s+|just\s+)?$",
    re.IGNORECASE,
)
#: Fields that say what kind of thing a row is.
_KIND_KEYS = frozenset({"source", "type", "kind", "category", "method"})


def kind_count(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """The number of rows of the kind the words after the count name (``at``: where the
    count starts in ``sentence``), in the newest result that has rows of that kind.
    Another number contradicts it only when the sentence says the user has that many
    ("you have 3 gift cards")."""
    if h.kind != "count" or h.number is None or _LIMIT.search(sentence, 0, at):
        return None
    m = _NOUN.match(sentence, at)
    if m is None:
        return None
    words = [w.lower() for w in m.groups() if w]
    for e in reversed(index.entries):
        if e.receipt.kind != "tool" or failed(e):
            continue
        for (field, kind), n in _kinds(e.records).items():
            if _names(words, kind):
                rid = e.receipt.id
                where = f"{n} rows with {field} = {kind}"
                if n == h.number:
                    return Finding("supported", rid, "tool", f"{rid} {where}", value=h)
                if not _HELD.search(sentence, 0, at):
                    # "use 2 certificates instead of 1", a list of what the rules allow:
                    # a count of what is used or allowed, not of what the user holds
                    return None
                detail = f"contradicts {rid}: {where}, claimed {h.text}"
                return Finding("contradicted", rid, "tool", detail, value=h)
    return None


def _names(words: list[str], kind: str) -> bool:
    """Whether the counted words ("gift", "cards") name a kind ("gift_card"): its words,
    the last one in the plural."""
    parts = kind.split("_")
    if len(words) < len(parts):
        return False
    said = words[: len(parts)]
    last = said[-1]
    singular = last[:-2] if last.endswith("es") and last[:-2] == parts[-1] else last.rstrip("s")
    return said[:-1] == parts[:-1] and singular == parts[-1] and last != parts[-1]


def _kinds(records: list[Record]) -> dict[tuple[str, str], int]:
    """How many rows of one object (of two or more rows) hold each value of a kind field,
    by (the rows' field, as ``payment_methods.*.source``, the value); the first object
    of each field only."""
    out: dict[tuple[str, str], int] = {}
    owner: dict[str, int] = {}
    for rec in records:
        parent = rec.parent
        if parent is None or len(parent.children) < 2:
            continue
        for leaf in rec.leaves:
            if leaf.key.lower() not in _KIND_KEYS or leaf.value.kind in ("money", "number"):
                continue
            value = leaf.value.shown.strip().lower().replace(" ", "_")
            field = f"{_rows_of(rec.path)}.{leaf.key}"
            if not value or len(value) > 40 or owner.setdefault(field, id(parent)) != id(parent):
                continue
            out[(field, value)] = out.get((field, value), 0) + 1
    return out


def _rows_of(path: str) -> str:
    """``payment_methods.gift_card_1`` -> ``payment_methods.*``, ``items[2]`` -> ``items[*]``."""
    if path.endswith("]"):
        return path[: path.rindex("[")] + "[*]"
    return path.rsplit(".", 1)[0] + ".*" if "." in path else "*"
