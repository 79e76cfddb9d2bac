"""State words a sentence says of the records it is about: "the order is pending", "your
delivered order", "both orders are delivered" (checks/records reads them, this module
decides whether a state word reports a record's state and checks it against the state field)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.card_digits import digits_owners
from receiptgate.checks.counts import SPELLED_COUNTS
from receiptgate.checks.figures import supported
from receiptgate.checks.finding import Finding
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.checks.rivals import evidence_line
from receiptgate.checks.rows import literal_in
from receiptgate.checks.words import content_words
from receiptgate.claims.collect import clause_around
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import STATE_WORDS, STATUS_VOCABULARY

# Words in a state word's clause that make it no report of the current state: modals,
# conditions, negations ("can only be cancelled if pending", "hasn't shipped yet").
_NOT_A_STATE_REPORT = re.compile(
    r"\b(?:will|would|could|can|cannot|can't|may|might|should|must|once|after|until|if|"
    r"when|unless|whether|not|never|no|only|yet|before|to\s+be|as\s+soon\s+as)\b|n't\b"
)

# Processes that a state word may describe instead of the record ("the return request
# has been processed", "the exchange has been successfully processed").
_PROCESS_NOUNS = re.compile(
    r"\b(?:requests?|exchanges?|returns?|refunds?|modifications?|changes?|updates?|"
    r"payments?|process|cancellations?|transactions?|bookings?|attempts?|tries|try|searche?s?|"
    # "Both actions completed successfully", "everything completed today"
    r"actions?|steps?|tasks?|operations?|everything)\b"
)


#: An id right after a noun: "booking HB-30917", "return #R-2231".
_ID_AFTER = re.compile(r"\s+#?(?=[a-z_-]*\d)[a-z0-9][a-z0-9_-]{3,}\b")


def names_process(text: str) -> bool:
    """Whether a text names a process ("Attempt", "Refund request"): its states are the
    process's outcome, not a record's state."""
    return _PROCESS_NOUNS.search(text.lower()) is not None


_CLAUSE_EDGE = re.compile(r"[,;:()]|\s[-–—]\s|\bbut\b|\band\b")

#: Where a reason starts: "eligible for exchange since the order status is delivered".
_REASON_EDGE = re.compile(r"\b(?:since|because|as)\s")

# Words for one state: spellings, "processed" as a status label reads as "processing"
# ("your order is still processing" restates status=processed), and a seat or a slot
# that is "open" is one that is available.
STATE_SPELLINGS: dict[str, tuple[str, ...]] = {
    "canceled": ("cancelled",),
    "cancelled": ("canceled",),
    "processing": ("processed",),
    "processed": ("processing",),
    "open": ("available",),
    # a booking that is confirmed is booked ("Booked: Wed 4/16 10:15" of an event whose
    # status is "confirmed")
    "booked": ("confirmed", "reserved"),
}


#: A booking's states, and the states of what can be booked: not rivals.
#: States that cover others: an order that is pending or processed is active, and one
#: that is delivered or cancelled is closed.
_OPEN_STATES = frozenset(
    {"pending", "processing", "processed", "shipped", "confirmed", "booked", "running", "open",
     "scheduled", "on time", "delayed", "available", "active"}
)  # fmt: skip
STATE_UMBRELLAS: dict[str, frozenset[str]] = {
    "active": _OPEN_STATES,
    "open": _OPEN_STATES,
    "closed": frozenset({"completed", "delivered", "cancelled", "canceled", "resolved"}),
    "inactive": frozenset({"cancelled", "canceled", "expired", "suspended", "closed"}),
    # a bill that is overdue is unpaid too
    "unpaid": frozenset({"overdue", "due", "outstanding", "open"}),
}
_BOOKED = frozenset({"booked", "confirmed", "reserved"})
_BOOKABLE = frozenset({"available", "open", "scheduled", "on time"})


def state_heads(index: ReceiptIndex) -> dict[str, list[tuple[str, str]]]:
    """The index's state values (and the status vocabulary for a ``status`` field) by
    their first word: (field, value) pairs, computed once per index size."""
    cached = index.cache.get("state_heads")
    if cached is None:
        heads: dict[str, list[tuple[str, str]]] = {}
        for fieldname, seen in index.states.items():
            # a field whose values are status words (an instance's State.Name holding
            # "stopped") is read against the whole vocabulary, as a ``status`` field is
            lifecycle = fieldname == "status" or bool(seen & STATUS_VOCABULARY)
            values = seen | STATUS_VOCABULARY if lifecycle else seen
            for value in values:
                heads.setdefault(value.split(" ", 1)[0], []).append((fieldname, value))
        cached = index.cache["state_heads"] = heads
    return cached  # type: ignore[return-value]


def latest(index: ReceiptIndex, records: list[Record]) -> list[Record]:
    """Of records that are one thing, the newest (a later tool result is the current state).

    Two records are one thing when one's ids hold all the other's: all its ids, not the
    first (which id comes first is the layout's choice: an order's user_id may come
    before its order_id), and a later result may add some (a return adds its payment
    method's id to the order)."""
    newest: list[Record] = []
    out: list[Record] = []
    for rec in sorted(records, key=index.position):
        if not rec.ids:
            out.append(rec)
            continue
        ids = set(rec.ids)
        same = [
            i
            for i, r in enumerate(newest)
            if (set(r.ids) <= ids or ids <= set(r.ids)) and not _another_kind(r, rec)
        ]
        for i in reversed(same):
            del newest[i]
        newest.append(rec)
    return out + newest


_ID_SUFFIX = re.compile(r"[_\s-]*(?:id|ref|reference|number|no|code)$", re.IGNORECASE)


def _id_noun(key: str) -> str:
    """What an id field names: "booking" of ``booking_ref``, "" of ``reference``."""
    return _ID_SUFFIX.sub("", key).lower()


def _id_nouns(rec: Record) -> list[str]:
    """What a record's id fields name, in order, the one its list is named for first:
    "booking" of ``booking_ref``, "claim" of ``claim_reference``; "instance" of an
    ``Instances[0]`` row's ``InstanceId`` before its ``ImageId``."""
    nouns = [
        _id_noun(leaf.key)
        for leaf in rec.leaves
        if leaf.value.kind == "id" and leaf.value.shown.lower().lstrip("#") in rec.ids
    ]
    listed = _LIST_NAME.search(rec.path)
    if listed is not None:
        kind = listed.group(1).lower()
        own = [n for n in nouns if n and kind in (n, f"{n}s", f"{n}es")]
        nouns = own + [n for n in nouns if n not in own]
    return nouns


#: The name of the list a row is of: "Instances" of ``Reservations[1].Instances[0]``.
_LIST_NAME = re.compile(r"([A-Za-z_]\w*)\[\d+\]$")


def _refers_only(rec: Record, said: str) -> bool:
    """Whether every id of the record that a sentence (lower case) names is held under a
    key naming another kind of thing than the record's own first id does."""
    nouns = _id_nouns(rec)
    if not nouns:
        return False
    named = [
        _id_noun(leaf.key)
        for leaf in rec.leaves
        if leaf.value.kind == "id" and literal_in(leaf.value.shown.lower(), said)
    ]
    return bool(named) and all(n and n != nouns[0] for n in named)


def _another_kind(old: Record, new: Record) -> bool:
    """Whether a later record that holds an earlier one's id is another thing that refers
    to it: a booking (``booking_ref`` first) that names the claim it is for
    (``claim_reference``) is no newer state of the claim."""
    before, after = _id_nouns(old), _id_nouns(new)
    return bool(before and after) and after[0] not in before


def _named_by_id(anchor_: Anchor) -> bool:
    """Whether the sentence names a record by an id ("#W5565470"), not only by a name."""
    return any(
        any(c.isdigit() for c in anchor_.text[a - anchor_.start : b - anchor_.start])
        for a, b, _ in anchor_.named
    )


# "your pending order", "the delivered order", "two pending orders": a state word used
# as an attribute of the record it names (asserted even inside an offer or a plan).
_DETERMINER_BEFORE = re.compile(
    r"\b(?:your|the|this|that|these|those|my|our|their|his|her|both|all|each|two|three|"
    r"four|five|several|\d+)\s+(?:(?:still|only|other|entire|remaining|current)\s+)?$"
)

_NOT_A_NOUN = frozenset(
    "to by on at from via and or but in for with yet since as is are was were has have had "
    "will would can could be been it its".split()
)


def record_nouns(index: ReceiptIndex) -> frozenset[str]:
    """What the evidence calls its records (the index's ``record_nouns``), once per index."""
    cached = index.cache.get("record_nouns")
    if isinstance(cached, frozenset):
        return cached
    nouns = index.cache["record_nouns"] = frozenset(index.record_nouns)
    return nouns


#: A state word that an agent's act precedes: "the orders we just cancelled", "the
#: one I've updated": the act (the ledger checks it), not a state the records report.
#: What lies between a record's noun and its state word when the noun is the subject:
#: "The refund is still pending", "the refund has already been processed".
_SUBJECT_ONLY = re.compile(
    r"\s+(?:is|was|has\s+been|had\s+been)\s+(?:still\s+|already\s+|now\s+|not\s+yet\s+)?$"
)

#: How a record's state is shown: "marked as delivered", "shows as scheduled".
_SHOWN_AS = re.compile(
    r"\b(?:marked|shows?|showing|shown|listed|flagged|recorded|appears|set)\s+as\s+$"
)
_AGENT_BEFORE = re.compile(
    r"\b(?:we|i)(?:\s+(?:just|already|have|had|then))*(?:['’]ve|['’]d)?"
    r"(?:\s+(?:just|already))?\s+$"
)


#: A part of a group before a state word: "two of your three orders are", "one of them is".
_SOME_OF = re.compile(
    r"\b(?:one|two|three|four|five|some|several|\d+)\s+of\s+(?:your\s+|the\s+|these\s+|"
    r"those\s+|them\b|its\s+)[^.;:]{0,25}?\b(?:is|are|was|were)\s+(?:still\s+|now\s+)?$"
)


def reports_state(
    low: str, start: int, end: int, nouns: frozenset[str] = frozenset()
) -> str | None:
    """Whether a state word at ``[start, end)`` reports a record's current state: of one
    record ("one": "the order is pending"; "attribute": "your delivered order"), of
    every record the sentence lists ("all": "two pending orders"), perhaps of what a
    line's label names ("labelled": it may back, not contradict), or not at all
    (``None``: a condition, a modal, a process's state). An attribute must qualify what
    the evidence calls its records (``nouns``)."""
    if _AGENT_BEFORE.search(low, max(0, start - 30), start):
        return None  # "the two orders we just cancelled": what the agent did, an action
    if _USER_DID.search(low, max(0, start - 20), start) and low[start:end].endswith("ed"):
        return None  # "You've confirmed these are all the changes": what the user did
    if _POSSESSIVE.search(low, max(0, start - 4), start):
        return None  # "depending on PayPal's processing": a noun, no record's state
    if _CONDITION_LEAD.match(low):
        # "Once the items are received and processed, refunds will be issued": the whole
        # lead clause is a condition, past any "and" inside it; what the sentence says
        # after it rests on the condition ("If you believe it was delivered, let me know
        # the delivered order's id"): it may back a state, never contradict one
        return None if "," not in low[:start] else "labelled"
    if low.rstrip(" *_)\"'").endswith("?"):
        # "... or an order that has already been delivered?": a question asks; it may
        # back a state, never contradict one
        return "labelled"
    line = low.rfind("\n", 0, start) + 1
    label = _OTHER_LABEL.match(low, line, start)
    if label is not None and not (set(label.group(1).split()) & (nouns | _STATE_WORDS)):
        # "Shipping address: 555 Highland Drive — confirmed and applied": maybe the state of
        # what the label names, not the record's ("Status: pending", "Order #W1:
        # delivered" name the state or the record): it may back, never contradict
        return "labelled"
    if _SOME_OF.search(low, max(0, start - 40), start):
        return None  # "two of your three orders are pending": which two, it does not say
    after = low[end : end + 30].split()
    head = after[0].strip(".,;:!?)\"'*") if after else ""
    if (
        _IN_LABEL.match(low, end)
        and _LINE_START.search(low[:start])
        and head.rstrip("s") not in nouns
    ):
        # "Shipped to: 812 Cedar Avenue" labels an address ("Pending orders:" does name
        # the state of the records under it)
        return None
    if (
        head
        and head.isalpha()
        and head not in _NOT_A_NOUN
        and head.rstrip("s") in nouns
        and _DETERMINER_BEFORE.search(low[:start])
    ):
        # an attribute: "your delivered order", "two pending orders"
        return "all" if head.endswith("s") and not head.endswith("ss") else "attribute"
    clause_start, _ = clause_around(low, 0, len(low), start, end, _CLAUSE_EDGE)
    before = low[clause_start:start]
    if _NOT_A_STATE_REPORT.search(before):
        return None
    if re.search(r"\bas\s+(?:\w+\s+)?$", before) and not _SHOWN_AS.search(before):
        return None  # "0 bags (as previously booked)": how, not what state a record is in
        # ("is marked as delivered", "shows as scheduled" do say it)
    reason = max((m.end() for m in _REASON_EDGE.finditer(low, 0, start)), default=0)
    if any(
        m.group().rstrip("s") not in nouns
        or not (_ID_AFTER.match(low, m.end()) or _SUBJECT_ONLY.match(low, m.end(), start))
        for m in _PROCESS_NOUNS.finditer(low, reason, start)
    ):
        # the state of a request or an exchange, not of the record ("booking HB-30917 is
        # pending" names a record, where the evidence calls its records bookings; so does
        # "The refund is still pending", the subject of the state word, where a result
        # is a refund)
        return None
    # ("pending items ...", "processing times, ..."; "Pending orders:" is a label)
    plural = after[0].rstrip(".,;!?)") if after else ""
    if plural.endswith("s") and not plural.endswith(("ss", "us", "is", "as")):
        return None  # "pending items ...": no one record to compare
    # "was shipped to the address", "the order shipped to Texas": an event in the
    # record's past, not its state now ("the order is shipped to ..." still says its state)
    if (after[0].rstrip(":") if after else "") in _WHERE_WORDS and (
        re.search(r"\b(?:was|were|had\s+been)\s+$", before)
        or not re.search(r"\b(?:is|are|has|have|now)\s+(?:\w+\s+){0,2}$", before)
    ):
        return None
    if _EVERY_BEFORE.search(low[:start]) and re.search(
        r"\b(?:are|were)\s+(?:now\s+|all\s+|both\s+)?$", before
    ):
        return "all"  # "Both orders #W1 and #W2 are delivered": each of them
    return "one"


#: The user as the one who acted: "you've confirmed", "you want cancelled".
_USER_DID = re.compile(r"\byou(?:['’]ve|\s+have|\s+had|\s+want|\s+wanted)?\s+$")
#: A possessive right before a word: "PayPal's processing".
_POSSESSIVE = re.compile(r"\w['’]s\s+$")
#: A sentence that opens with a condition: "Once ...", "If ...", "When ...".
_CONDITION_LEAD = re.compile(
    r"^[\s*_>•-]*(?:once|if|when|whenever|after|until|unless|as\s+soon\s+as|before)\b"
)

#: A word after a past event that says where or how it went ("shipped to: ...").
_WHERE_WORDS = frozenset({"to", "on", "at", "from", "by", "via"})
#: A line's label before the state word: "shipping address: ..." (lowercase).
_OTHER_LABEL = re.compile(r"[\s*_#>•-]*([a-z][a-z ]{1,40}?)[*_\s]*:(?!\S)")
#: Words of a label that names the state itself.
_STATE_WORDS = frozenset({"status", "state", "statuses"})

#: The rest of a label after a state word ("Shipped to:", "Delivered on:").
_IN_LABEL = re.compile(r"(?:[^\S\n]+[a-z-]+){1,3}[*_`]*:")

_LINE_START = re.compile(r"(?:^|\n)[\s*_#>•-]*$")

#: How many records a sentence says are in a state: "both", "the two", "all three".
#: A clock time or a date at the start of a line: the line is a timeline's entry.
_TIMELINE = re.compile(r"^[\s*_#>•-]*(?:\d{1,2}:\d{2}\b|\d{4}-\d{2}-\d{2}\b)")
_HOW_MANY = re.compile(r"\b(both|two|three|four|five)\b")

#: A quantifier over the records a sentence lists ("both", "all", "each of").
_EVERY_BEFORE = re.compile(r"\b(?:both|all|each|every)\b")


def _changed_from(
    index: ReceiptIndex,
    records: list[Record],
    fieldname: str,
    holds: Callable[[Leaf], bool],
    said: str,
) -> bool:
    """Whether every one of ``records`` whose newest result does not hold the state is in
    the state the sentence tells it changed to (its newest value is in ``said``) and held
    the state in an earlier result of the same id."""
    changed = [
        leaf
        for rec in latest(index, records)
        for leaf in rec.leaves
        if leaf.key.lower() == fieldname and not holds(leaf)
    ]
    if not changed:
        return False
    for leaf in changed:
        rec = leaf.record
        if not literal_in(leaf.value.shown.lower(), said):
            return False
        ids = set(rec.ids)
        earlier = (  # one thing, as ``latest`` tells it: one's ids hold all the other's
            other
            for ident in rec.ids
            for other in index.records_by_id.get(ident, ())
            if other is not rec and (set(other.ids) <= ids or ids <= set(other.ids))
        )
        if not any(
            x.key.lower() == fieldname and holds(x) for other in earlier for x in other.leaves
        ):
            return False
    return True


def _held_before(
    index: ReceiptIndex, having: Sequence[Record], fieldname: str, holds: Callable[[Leaf], bool]
) -> Leaf | None:
    """The field of an earlier result of one of ``having``'s records (the same id) that
    held the claimed state."""
    for rec in having:
        for ident in rec.ids:
            low = ident.lower()
            for key in dict.fromkeys((low, low.lstrip("#"))):
                for older in index.records_by_id.get(key, ()):
                    mine, theirs = set(rec.ids), set(older.ids)
                    if older is rec or not (mine <= theirs or theirs <= mine):
                        continue  # another record that holds the id (an order's user_id)
                    if index.position(older) > index.position(rec):
                        continue  # a later result of it: not what it showed before
                    for leaf in older.leaves:
                        if leaf.key.lower() == fieldname and holds(leaf):
                            return leaf
    return None


def _latest_field(index: ReceiptIndex, ident: str, fieldname: str) -> list[Leaf]:
    """The field of the newest result of the record with that id."""
    found = [
        r
        for r in index.records_by_id.get(ident, ())
        if r.ids and r.ids[0] == ident and any(x.key.lower() == fieldname for x in r.leaves)
    ]
    newest = latest(index, found)
    return [x for rec in newest for x in rec.leaves if x.key.lower() == fieldname]


def _names_another_call(index: ReceiptIndex, anchor_: Anchor, said: str) -> bool:
    """Whether a sentence anchored to the newest result only names what another call was
    made on (a word of that call's tool or arguments that the newest result does not
    hold)."""
    words = content_words(said)
    newest = {index.position(rec) for rec in anchor_.records}
    held = frozenset().union(*(index.entries[i].words for i in newest))
    return any(
        (words & e.context_words) - held
        for i, e in enumerate(index.entries)
        if i not in newest and e.receipt.kind == "tool"
    )


#: Fields of a record's outcome beside its status (a check run's "conclusion").
_OUTCOME_KEYS = frozenset({"conclusion", "result", "outcome"})


def _outcome_of(holders: list[Leaf], value: str) -> Leaf | None:
    """The outcome field of a holder's record that gives ``value`` in another form of its
    word ("failure" for "failed", "success" for "succeeded"), if any."""
    head = value[:4]
    if len(head) < 4:
        return None
    for leaf in holders:
        for x in leaf.record.leaves:
            if x.key.lower() in _OUTCOME_KEYS and x.value.shown.strip().lower().startswith(head):
                return x
    return None


def _named_before(anchor_: Anchor, at: int) -> list[Record]:
    """The records a sentence names in the part of it, between semicolons, that holds a
    state word ("All api pods are Running; only the worker pod is crash-looping": the api
    pods, not the worker pod of the next part); none when it has one part."""
    if anchor_.how != "named" or ";" not in anchor_.text:
        return []
    rel = at - anchor_.start
    lo = anchor_.text.rfind(";", 0, rel) + 1
    hi = anchor_.text.find(";", rel)
    hi = len(anchor_.text) if hi < 0 else hi
    out: list[Record] = []
    for x, y, rec in anchor_.named:
        if lo <= x - anchor_.start and y - anchor_.start <= hi and rec not in out:
            out.append(rec)
    return out


#: The noun a state is said of, right before its verb: "the card is frozen".
_SUBJECT_BEFORE = re.compile(
    r"\b([a-z]{3,})\s+(?:is|are|was|were|has\s+been|have\s+been)\s+(?:\w+\s+){0,2}$"
)


_WEAK = frozenset({"latest", "previous"})


def _subject_rows(index: ReceiptIndex, anchor_: Anchor, a: int, fieldname: str) -> list[Record]:
    """The rows with the state field whose words hold the noun a state is said of, when
    the anchored records hold no such word ("the card" of ``"type": "credit_card"``)."""
    low = anchor_.text.lower()
    before = anchor_.text[: a - anchor_.start]
    if owners := digits_owners(index, before):
        # "Your credit card ending in 7714 is frozen": the account with those last digits
        return [
            rec
            for leaf in index.by_field.get(fieldname, ())
            if set((rec := leaf.record).ids) & owners
        ]
    m = _SUBJECT_BEFORE.search(low, 0, a - anchor_.start)
    if m is None:
        return []
    noun = content_words(m.group(1))
    if not noun or any(noun & kind_words(r) for r in anchor_.records):
        return []
    # "Your order is marked as delivered" after an email call whose result names the
    # order by its order_id: the record that is an order, not one that refers to it
    rows = [
        rec for leaf in index.by_field.get(fieldname, ()) if noun & kind_words(rec := leaf.record)
    ]
    if not rows:
        if any(noun & _row_words(r) for r in anchor_.records):
            return []
        rows = [
            rec
            for leaf in index.by_field.get(fieldname, ())
            if noun & _row_words(rec := leaf.record)
        ]
    if len({id(r) for r in rows}) <= 1:
        return rows
    single = [r for r in rows if not r.path.endswith("]")]
    if len({id(r) for r in single}) == 1 and noun & kind_words(single[0]):
        # "Your order": the order a call returned on its own, not a row of the customer's
        # order history beside it
        return single
    # several accounts: those whose words the sentence also uses ("your checking account")
    said = content_words(before)
    picked = [rec for rec in rows if (_row_words(rec) - noun) & said]
    return picked if len({id(r) for r in picked}) == 1 else []


def kind_words(rec: Record) -> frozenset[str]:
    """What a record is: the name of the field or list that holds it ("order" of
    ``{"order": {...}}``, of ``orders[2]``) and what its own id names."""
    names = re.findall(r"[A-Za-z_]+", rec.path)
    own = _id_nouns(rec)[:1]
    return content_words(" ".join(names[-1:] + own).replace("_", " "))


def _row_words(rec: Record) -> frozenset[str]:
    """The content words of a row's field names and word values."""
    parts = [leaf.key for leaf in rec.leaves]
    parts += [leaf.value.shown for leaf in rec.leaves if leaf.value.kind in ("word", "id")]
    return content_words(" ".join(parts).replace("_", " "))


#: An object field whose "State" is the record's own: "State.Name", "TargetHealth.State".
_OWN_STATE_OBJECT = re.compile(r"state|status|health|condition|phase|lifecycle", re.IGNORECASE)
LAST_OBJECT = re.compile(r"(?:^|\.)([A-Za-z_][\w-]*)\.[^.\[\]]+$")


def own_state(leaf: Leaf) -> bool:
    """Whether a state field is its record's, not an object field's of it: an instance's
    ``Monitoring.State`` ("enabled") is its monitoring's state, its ``State.Name``
    ("running") its own."""
    if leaf.path in (leaf.key, f"{leaf.record.path}.{leaf.key}"):
        return True  # a field of the record itself ({"ticket": {"status": ...}})
    m = LAST_OBJECT.search(leaf.path)
    return m is None or _OWN_STATE_OBJECT.search(m.group(1)) is not None


def state_claim(
    index: ReceiptIndex,
    anchor_: Anchor,
    fieldname: str,
    value: str,
    a: int,
    b: int,
    shown: str,
    *,
    every: bool = False,
    attribute: bool = False,
    said: str = "",
) -> RecordClaim | None:
    """A state word against the anchored records' state field: supported when a record
    holds it (``every``: when each record that has the field holds it). ``said``: the
    sentence, in lower case."""
    holders: list[Leaf] = []
    # each anchored record, or the record it belongs to (an item's order), that has the
    # field; the newest of each id (a later call naming the order in its arguments, or
    # failing, says nothing of its status)
    having: list[Record] = []
    # a record the sentence names that has the field itself ("order #W1 is the only
    # pending order") is what the state word is about, not the order of an item it also
    # names ("... the Smart Watch from it"), which may be another order
    part = _named_before(anchor_, a)
    if not part and anchor_.how == "named" and ";" in anchor_.text:
        # "Only unit-tests (3.12) failed; integration-tests was skipped": the records the
        # other part names are not what this part's state word is said of
        return None
    records = part or anchor_.records
    subject = _subject_rows(index, anchor_, a, fieldname) if anchor_.how in _WEAK else []
    # "Because the card is frozen": what the sentence calls its subject may be a row of
    # another result (the account whose type is credit_card), not the newest one
    records = subject or records
    direct = [rec for rec in records if any(x.key.lower() == fieldname for x in rec.leaves)]
    for rec in direct or records:
        if rec.names and not rec.path.endswith("]") and rec not in direct:
            continue  # "the approved garage Kennet Bodyworks": the booking's status is no
            # state of the garage it names (an item of a list shares its order's state)
        owner = next(
            (r for r in rec.lineage() if any(x.key.lower() == fieldname for x in r.leaves)), None
        )
        if owner is not None and owner not in having:
            having.append(owner)
    if len(having) > 1 and said:
        # "Claim CLM-2025-03117 is approved": the claim, not the booking that refers to it
        # (its claim_reference) and has a status of its own
        own = [rec for rec in having if not _refers_only(rec, said)]
        having = own or having
    for rec in latest(index, having):
        holders.extend(
            leaf
            for leaf in rec.leaves
            if leaf.key.lower() == fieldname
            and own_state(leaf)
            # a state's "Name" ({"State": {"Name": "stopped"}}), not a tag's "Name"
            and (fieldname in STATE_WORDS or bool(set(leaf.words) & STATE_WORDS))
        )
    if not holders:
        return None
    f = record_fact("state", a, b, shown)
    spelled = {value, *STATE_SPELLINGS.get(value, ())}

    def holds(leaf: Leaf) -> bool:
        return leaf.value.shown.lower() in spelled or any(
            literal_in(v, leaf.value.shown) for v in spelled
        )

    same = [leaf for leaf in holders if holds(leaf)]
    other = [leaf for leaf in holders if not holds(leaf)]
    if same and not (every and other):
        return RecordClaim("state", a, b, shown, supported(index, f, same[0]))
    if other and not same and (outcome := _outcome_of(other, value)) is not None:
        # "unit-tests (3.12) failed" of a check run whose status is "completed" and whose
        # conclusion is "failure": its outcome field says it, in another form of the word
        return RecordClaim("state", a, b, shown, supported(index, f, outcome))
    if (
        (every or attribute)
        and same
        and (m := _HOW_MANY.search(said))
        and SPELLED_COUNTS[m.group(1)] == len(same)
    ):
        # "both pending orders are cancelled", "the two cancelled orders" beside a third,
        # delivered order the reply also names: both is two, and two of them hold it
        return RecordClaim("state", a, b, shown, supported(index, f, same[0]))
    if value in index.user_words and not _named_by_id(anchor_):
        # the user's own word: a new address's state, or the state the user called the
        # records by before they changed ("cancel all my pending orders", then "both of
        # your pending orders have been cancelled"): not the record's current state. A
        # sentence that names the record by its id ("the pending order #W5565470") says
        # it of that record now.
        return None
    if (attribute or every) and _changed_from(index, having, fieldname, holds, said):
        # "Both of your pending orders (#W1 and #W2) have been cancelled", "your pending
        # order #W1 is now cancelled": the sentence tells the change to the state the
        # records hold now, and names them by the state an earlier result of them shows
        return None
    if (
        attribute
        and anchor_.how not in ("named", "section")
        and any(holds(x) for x in index.by_field.get(fieldname, ()))
    ):
        # "your delivered order" in a sentence that names no order picks an order by its
        # state: another record of the evidence is delivered, so nothing contradicts it
        return None
    if (
        attribute
        and (m := _HOW_MANY.search(said)) is not None
        and SPELLED_COUNTS[m.group(1)] != len(having)
    ):
        # "for the two cancelled orders" in a sentence about another order's item: not
        # the records the sentence is about (it counts more of them), but as many records
        # of the evidence as it counts hold the state, so it names them
        held = {x.record.ids[0] for x in index.by_field.get(fieldname, ()) if x.record.ids}
        held = {i for i in held if any(holds(x) for x in _latest_field(index, i, fieldname))}
        if len(held) == SPELLED_COUNTS[m.group(1)]:
            return None
    if anchor_.how == "latest" and not subject and _names_another_call(index, anchor_, said):
        # "nginx is active and running" after a helm upgrade's "STATUS: deployed": the
        # sentence names what an earlier call looked at, not the newest result
        return None
    leaf = other[0]
    before = _held_before(index, [leaf.record], fieldname, holds)
    if before is not None and _TIMELINE.search(said):
        # "14:02 PD Q1X8 triggered (high)": a line of a timeline, the state the record
        # had at the time it gives, not its state now
        return RecordClaim("state", a, b, shown, supported(index, f, before))
    if before is not None:
        # "Order #W1: delivered" after the return the agent just requested: the state an
        # earlier result of the same record shows, said of it now; stale, so not backed,
        # but no contradiction of a state it really had
        detail = (
            f"{shown} is the state {evidence_line(index, before)} showed before "
            f"{evidence_line(index, leaf)}"
        )
        return RecordClaim(
            "state", a, b, shown, Finding("unsupported", None, None, detail, value=f)
        )
    if leaf.value.shown.lower() in STATE_UMBRELLAS.get(value, ()):
        # "Your pending order remains active": a state that covers the one the record
        # holds (pending is one way of being active), none that rivals it
        return None
    if value in _BOOKED and leaf.value.shown.lower() in _BOOKABLE:
        # "HAT047 is booked on May 24", "you're now booked on HAT041": the customer's
        # booking of a flight whose status says it can be booked, no rival of "available"
        return None
    r = index.receipt_of(leaf)
    detail = f"contradicts {evidence_line(index, leaf)}, claimed {shown}"
    return RecordClaim(
        "state", a, b, shown, Finding("contradicted", r.id, r.kind, detail, leaf.path, value=f)
    )
