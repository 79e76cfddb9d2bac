"""A passive report of a state a record holds: "Your request has been approved" (by the
approver, after the agent submitted it), "Your order was delivered yesterday". It names no
one who acted: it is true when the newest result of the record the object names holds
that state, whoever brought it about. The action ledger asks this (:func:`state_held`)
before it reports "no call": a state word in the passive that a record holds needs no call
of the agent's, and one it does not hold still needs one.
"""

from __future__ import annotations

import re

from receiptgate.checks.about import field_words
from receiptgate.checks.finding import Finding
from receiptgate.checks.record_states import (
    LAST_OBJECT,
    STATE_SPELLINGS,
    kind_words,
    latest,
    own_state,
)
from receiptgate.checks.words import content_words
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record

#: The passive (or a state word after "is"): "has been approved", "was delivered".
_PASSIVE = re.compile(
    r"\b(?:(?:has|have|had)\s+(?:now\s+|already\s+|just\s+)?been|was|were|is|are|got)\s+"
    r"(?:now\s+|already\s+|just\s+|fully\s+)?(?P<word>[a-z]+ed)\b",
    re.IGNORECASE,
)
#: Ids in the object phrase: "LR-88213", "#W5565470".
_ID = re.compile(r"#?\b(?=[\w-]*\d)[A-Za-z0-9][\w-]{2,}\b")
#: Fields that hold a record's state.
_STATE_FIELDS = ("status", "state")


def state_held(index: ReceiptIndex, claim: DetectedClaim) -> Finding | None:
    """Support of a passive action claim from the state field of the record its object
    names (by an id, or by what the evidence calls such records: "your request" of a
    ``request`` object); ``None`` when no such record holds the state word."""
    m = _PASSIVE.search(claim.matched_text)
    if m is None or not claim.object:
        return None
    return _held(index, m.group("word").lower(), claim.object)


def stated_state(index: ReceiptIndex, sentence: str) -> Finding | None:
    """Support of a statement with no claim detected in it that reports a state in the
    passive ("The payment has been captured."): the state field of the record its
    subject names, as :func:`state_held` reads it; ``None`` otherwise (it never
    contradicts: a state word no record holds leaves the statement with no receipt)."""
    m = _PASSIVE.search(sentence)
    if m is None or not sentence[: m.start()].strip():
        return None
    return _held(index, m.group("word").lower(), sentence[: m.start()])


def _held(index: ReceiptIndex, word: str, obj: str) -> Finding | None:
    spelled = {word, *STATE_SPELLINGS.get(word, ())}
    ids = {i.lower().lstrip("#") for i in _ID.findall(obj)}
    nouns = content_words(_ID.sub(" ", obj))
    named: list[Record] = []
    holders: dict[int, Leaf] = {}
    parts: list[Leaf] = []  # states of an object field the subject names (a "payment")
    for fieldname in _STATE_FIELDS:
        for leaf in index.by_field.get(fieldname, ()):
            rec = leaf.record
            if not own_state(leaf):
                part = LAST_OBJECT.search(leaf.path)
                if not ids and part is not None and nouns & content_words(part.group(1)):
                    parts.append(leaf)
                continue
            by_id = bool(ids) and bool(ids & set(rec.ids))
            if by_id or (not ids and nouns & kind_words(rec)):
                if rec not in named:
                    named.append(rec)
                holders[id(rec)] = leaf
    if not named and parts:
        # "The payment has been captured" of a booking's ``payment.status``: the newest
        leaf = max(parts, key=index.position)
    elif not named:
        return _flag_held(index, word, nouns)
    else:
        newest = latest(index, named)
        if len(newest) != 1:
            return None  # two records of that kind: which one the sentence means is unsaid
        leaf = holders[id(newest[0])]
    if leaf.value.shown.lower() not in spelled:
        return None
    rid = index.receipt_of(leaf).id
    return Finding(
        "supported",
        rid,
        "tool",
        f"{rid} {leaf.path} = {leaf.value.shown}: the state the sentence reports",
    )


def _flag_held(index: ReceiptIndex, word: str, nouns: frozenset[str]) -> Finding | None:
    """ "The restaurant has been notified" of ``"restaurant_notified": true``: a yes/no
    field named for the object and the participle, in its newest result (false: the
    sentence is contradicted)."""
    said = content_words(word)
    found: Leaf | None = None
    for key, leaves in index.by_field.items():
        if word[:5] not in key:
            continue
        for leaf in leaves:
            words = field_words(leaf)
            newer = found is None or index.position(leaf) >= index.position(found)
            if leaf.value.kind == "bool" and said <= words and nouns & words and newer:
                found = leaf
    if found is None:
        return None
    rid = index.receipt_of(found).id
    line = f"{rid} {found.path} = {found.value.shown}"
    if found.value.shown == "true":
        return Finding("supported", rid, "tool", f"{line}: what the sentence reports")
    return Finding("contradicted", rid, "tool", f"contradicts {line}")
