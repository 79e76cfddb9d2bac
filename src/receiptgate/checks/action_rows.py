"""Which row an action claim names by a name, and whether the call acted on it: "I've
cancelled your consultation with Dr. Leah Whitfield" is the call on her appointment's id
(APT-58450, the row her provider object belongs to); the same words about Dr. Rao after
that call are contradicted by it (checks/ledger).
"""

from __future__ import annotations

import re

from receiptgate.checks.rows import literal_in
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.index import ReceiptIndex, id_shape

#: Acts that change a record: the row they name must be the row the call changed.
CHANGING = frozenset(
    {"cancelled", "fixed", "refunded", "created", "requested", "charged", "transferred", "saved"}
)
#: Where a clause of the sentence ends.
_CLAUSE_END = re.compile(r"[;!?]|,?\s+(?:and|but|so|then)\s+|,\s+")


def named_row_ids(index: ReceiptIndex, claim: DetectedClaim, tail: str) -> dict[str, str]:
    """The ids of the rows whose names (or whose object fields' names: an appointment's
    provider) the claim's object or the rest of its sentence gives, as a call's line
    writes them ("apt 58450") with their shapes."""
    # the object and what follows it in its clause ("... with Dr. Leah Whitfield that was
    # set for Tuesday"), not another clause's ("... and captured your request to return
    # the Bookshelf")
    low = f"{claim.object or ''} {_CLAUSE_END.split(tail, maxsplit=1)[0]}".lower()
    ids: dict[str, str] = {}
    for name, recs in index.records_by_name.items():
        if len(name) > 3 and literal_in(name, low):
            for r in recs:
                for i in r.row().ids:
                    ids[_as_in_head(i)] = id_shape(i)
    return ids


def _as_in_head(ident: str) -> str:
    return ident.replace("_", " ").replace("-", " ")


def other_row_acted(index: ReceiptIndex, head: str, rows: dict[str, str]) -> str | None:
    """An id of a call's line (``head``, as ``calls.call_head`` writes it) that names
    another row of the kind the sentence names (an id of the same shape), or ``None``."""
    shapes = set(rows.values())
    for ident in index.records_by_id:
        if ident not in rows and id_shape(ident) in shapes and literal_in(_as_in_head(ident), head):
            return ident
    return None
