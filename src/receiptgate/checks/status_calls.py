"""States that calls returned by themselves: ``get_flight_status(flight_number="HAT023",
date="2024-05-26")`` answering ``available`` (:func:`called_state`).

Such a result is no record with fields: the state is the whole output, and what it is
the state of is in the call's arguments. "HAT023 is available" is about the calls whose
arguments name HAT023; "all flights are still available" about every object such calls
asked for (the newest answer for each). One answer that differs contradicts the claim.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import ledger_view
from receiptgate.checks.finding import Finding
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: A subject that is every thing of a kind: "All flights", "all three of your flights".
_ALL = re.compile(
    r"^(?:(?:all|every|each)|(?P<both>both))"
    r"(?:\s+(?:of|the|your|my|our|two|three|four|five|these|those))*"
    # "both return flights": a word of which two before the noun ("all remaining flights"
    # are not all the flights asked about)
    r"(?(both)(?:\s+[a-z]{3,})?)\s+(?P<noun>[a-z]{3,})$",
    re.IGNORECASE,
)
#: An output that is one state: "available", "on time", "delayed", "flying".
_STATE = re.compile(r"^[a-z][a-z _-]{1,24}$")
#: An argument that names an object (a flight number, an order id), not a day.
_NAMES = re.compile(r"^(?=[#\w-]*\d)(?=[#\w-]*[A-Za-z])[#\w-]{3,}$")


def called_state(index: ReceiptIndex, available: bool, subject: str) -> Finding | None:
    """Support or contradiction of "X is available" (``available`` False: "not
    available") from calls that returned a bare state, or of "all flights are available"
    (``subject`` "All flights": every object the calls of a tool named for flights asked
    about); ``None`` when no such call is about what the sentence names."""
    answers = _answers(index)
    if not answers:
        return None
    # the objects the claim's subject names ("Flight HAT023 is available"), not the
    # sentence's others ("I'll watch HAT039 and tell you when news is available")
    low = subject.lower()
    meant = {k: v for k, v in answers.items() if k.lower().lstrip("#") in low}
    if not meant and available and (m := _ALL.match(subject.strip())) is not None:
        # "All flights are still available": each flight a status call asked about
        noun = m.group("noun").lower().rstrip("s")
        meant = {k: v for k, v in answers.items() if noun in (v[0].receipt.tool or "").lower()}
        if m.group("both") and len(meant) > 2:
            # "both flights are still available": the two the newest calls asked about, not
            # a flight of an earlier leg checked before them
            order = {id(e): i for i, e in enumerate(ledger_view(index).tools)}
            meant = dict(sorted(meant.items(), key=lambda kv: order.get(id(kv[1][0]), -1))[-2:])
    if not meant:
        return None
    for obj, (e, state) in meant.items():
        if (state == "available") != available:
            rid = e.receipt.id
            return Finding("contradicted", rid, "tool", f"contradicts {rid}: {obj} is {state}")
    e = next(iter(meant.values()))[0]
    what = "available" if available else "not available"
    objects = ", ".join(meant)
    return Finding("supported", e.receipt.id, "tool", f"{e.receipt.id}: {objects} {what}")


def _answers(index: ReceiptIndex) -> dict[str, tuple[ReceiptEntry, str]]:
    """The newest bare-state answer for each object a call asked about (cached per index)."""
    cached = index.cache.get("called_states")
    if isinstance(cached, dict):
        return cached
    out: dict[str, tuple[ReceiptEntry, str]] = {}
    for e in ledger_view(index).tools:
        state = e.receipt.content.strip().strip("\"'").lower()
        if not _STATE.match(state):
            continue
        for value in (e.receipt.args or {}).values():
            if isinstance(value, str) and _NAMES.match(value):
                out[value] = (e, state)
    index.cache["called_states"] = out
    return out
