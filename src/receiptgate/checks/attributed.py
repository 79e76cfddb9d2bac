"""Who a record names for a role: "assigned to dchen", "opened by mkowalski", "approved
by Jonas Weber". The verb names the field ("assigned to" an ``assignee``, "opened by" a
``user`` or ``author``); the person after it is read against that field of the records
the sentence is about (else the newest record that has it): the same login or name backs
it, another one or an empty field (``"assignee": null``) contradicts it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import record_fact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Record

#: The verb of a role, and the fields that hold who has it (lowercase field names).
_ROLES: dict[str, tuple[str, ...]] = {
    "assigned": ("assignee", "assigned_to", "assignedto", "owner"),
    "opened": ("user", "author", "reporter", "creator", "created_by", "opened_by"),
    "reported": ("reporter", "user", "author", "created_by", "reported_by"),
    "created": ("creator", "created_by", "author", "user"),
    "filed": ("reporter", "user", "author", "created_by"),
    "authored": ("author", "user"),
    "approved": ("approved_by", "approver", "decided_by"),
    "merged": ("merged_by",),
    "closed": ("closed_by",),
}
_ROLE = re.compile(
    r"\b(?P<verb>assigned|opened|reported|created|filed|authored|approved|merged|closed)"
    r"\s+(?:to|by)\s+(?:@)?(?P<who>[A-Za-z][\w.-]*[A-Za-z0-9](?:\s+[A-Z][a-z]+)?)"
)
#: Fields of a person object that name them.
_NAME_KEYS = ("login", "username", "name", "display_name", "displayname", "email")
#: Words after "to"/"by" that are no person ("assigned to the team", "by then").
_NOT_A_PERSON = frozenset(
    "the a an you your me us them him her it this that then now default".split()
)


def attributions(
    index: ReceiptIndex, sentence: str, records: Sequence[Record], offset: int = 0
) -> list[tuple[int, int, Finding]]:
    """(start, end, finding) of each person a sentence names for a role (see the module
    doc); ``offset`` added to offsets into ``sentence``."""
    out: list[tuple[int, int, Finding]] = []
    for m in _ROLE.finditer(sentence):
        who = m.group("who")
        if who.split()[0].lower() in _NOT_A_PERSON:
            continue
        role = _role(index, _ROLES[m.group("verb").lower()], records)
        if role is None:
            continue
        a, b = offset + m.start("who"), offset + m.end("who")
        fact = record_fact("name", a, b, who)
        said = who.lower()
        if any(said == n or said == n.split()[0] for n in role.names):
            found = Finding("supported", role.rid, "tool", role.line, role.path, value=fact)
        else:
            what = f"contradicts {role.line}"
            found = Finding("contradicted", role.rid, "tool", what, role.path, value=fact)
        out.append((a, b, found))
    return out


@dataclass(frozen=True, slots=True)
class _Role:
    """Who a record's field names for a role (no one: an empty field)."""

    names: tuple[str, ...]
    rid: str | None
    path: str
    line: str


def _role(index: ReceiptIndex, keys: tuple[str, ...], records: Sequence[Record]) -> _Role | None:
    """The role's field in the records the sentence is about, else in the newest result
    that has it: a value, a person object's names, or null."""
    for key in keys:
        for rec in records:
            for r in rec.lineage():
                if (found := _in_record(index, r, key)) is not None:
                    return found
    for entry in reversed(index.entries):
        if entry.receipt.kind != "tool":
            continue
        for key in keys:
            for rec in entry.records:
                if (found := _in_record(index, rec, key)) is not None:
                    return found
            if re.search(rf'"{key}"\s*:\s*null\b', entry.text):
                rid = entry.receipt.id
                return _Role((), rid, key, f"{rid} {key} = null (no one)")
    return None


def _in_record(index: ReceiptIndex, rec: Record, key: str) -> _Role | None:
    rid = index.receipt_of(rec).id
    for leaf in rec.leaves:
        if leaf.key.lower() == key and leaf.value.kind in ("word", "id", "text"):
            name = leaf.value.shown.strip().lower()
            return _Role((name,), rid, leaf.path, f"{rid} {leaf.path} = {leaf.value.shown}")
    for child in rec.children:
        if child.path.rsplit(".", 1)[-1].lower() != key:
            continue
        names = [x for x in child.leaves if x.key.lower() in _NAME_KEYS]
        if names:
            shown = ", ".join(x.value.shown for x in names)
            line = f"{rid} {child.path} = {shown}"
            return _Role(tuple(x.value.shown.strip().lower() for x in names), rid, child.path, line)
    return None
