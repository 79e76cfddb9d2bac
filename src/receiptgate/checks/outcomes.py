"""Outcomes told as a state: "Your trip is booked.", "Both returns are in.", "The two
checked bags were added."

Such a sentence names no actor, so no action claim is detected in it, and it would stay
a general statement (T3, flagged) although it reports what a call of the agent did. Read
as the action it reports, it is checked against the ledger like "I booked your trip":
a successful call that performs it, on that object, backs it (T1). Without one the
sentence stays what it was: an outcome sentence is also how a reply restates a record's
state ("your order is cancelled"), which the records may back instead, so no call is no
contradiction here.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import READ_TOOL, changes_made, failed, tool_calls, tool_name_words
from receiptgate.checks.finding import Finding
from receiptgate.checks.ledger import check_action
from receiptgate.checks.words import content_words
from receiptgate.claims.detectors.actions import ACTION_VERBS, PROCESS_ACTIONS
from receiptgate.claims.models import DetectedClaim, HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: The words of an outcome: "booked", "all set", "in" ("Both returns are in").
_DONE = (
    r"booked|cancell?ed|confirmed|completed?|done|set(?:\s+up)?|in|processed|through|"
    r"created|in\s+place|"
    r"submitted|placed|updated|added|changed|upgraded|exchanged|refunded|requested|"
    r"initiated|reserved|scheduled|verified|authenticated"
)
#: "<the thing> is/are/was/were/has been <done>": the thing, then the outcome.
_OUTCOME = re.compile(
    r"^(?:and\s+|so\s+|done,\s*|great,\s*|all\s+set,\s*|"
    r"(?:in\s+summary|to\s+sum\s+up|in\s+short|overall),\s*)?"
    # "The system shows that ...": where the agent read it, then the outcome
    r"(?:(?:the\s+system|the\s+records?|it)\s+(?:now\s+)?(?:shows?|confirms?|indicates?)"
    r"\s+(?:that\s+)?)?"
    r"(?P<subject>(?:your|the|both|all|this|these|those|that)\b[^.;:!?]{0,60}?|you|everything)"
    r"(?:\s+(?:is|are|was|were|(?:has|have)\s+(?:now\s+|just\s+|already\s+)?(?:been|gone)|went)"
    r"|['’](?:s|re))\s+"
    r"(?:now\s+|all\s+|already\s+|successfully\s+|officially\s+)*"
    rf"(?P<done>{_DONE})\b",
    re.IGNORECASE,
)
#: An outcome told as a line of a summary, with no article and no "is": "Passenger updated
#: successfully.", "Return request submitted", "Shipping address updated to your NYC
#: address on file."
_TERSE_OUTCOME = re.compile(
    # (no auxiliary and no negation in the subject: "No reservation has been created" and
    # "The booking was not completed" say the act was not done)
    r"^(?P<subject>(?!(?:no|nothing|none|not)\b)[A-Za-z][\w'’-]*"
    r"(?:\s+(?!(?:is|are|was|were|has|have|had|been|be|not|never|no)\b)[a-z][\w'’-]*){0,3}?)"
    r"\s+(?:successfully\s+)?"
    rf"(?P<done>{_DONE})\b(?=(?:\s+successfully)?(?:\s+(?:to|for|on|in|with)\b[^.;!?]*)?\W*$)",
    re.IGNORECASE,
)
#: The detector id of an outcome read as an action claim (its finding is made on detection).
OUTCOME_DETECTOR = "outcome"
_MARKUP = re.compile(r"[*_`]+")
#: A word of an outcome (a cheap first test before the full pattern).
_DONE_WORD = re.compile(rf"\b(?:{_DONE})\b", re.IGNORECASE)
_LEAD_MARKS = re.compile(r"^[^\w\s]+\s*")  # "🎉 Your earbuds swap is all done!"
#: What writers call a process besides its own name: "your earbuds swap is all done".
_SAME_PROCESS = {
    "swap": "exchange",
    "reservation": "booking",
    "trip": "booking",
    "change": "modification",
    "update": "modification",
}
#: Outcomes that say only that something is over: what it was, the subject's noun says.
_OVER = frozenset(
    {"confirmed", "complete", "completed", "done", "set", "set up", "in", "through", "created",
     "in place"}
)  # fmt: skip
#: Outcomes that are also a record's state ("your order is cancelled"): a failed call to
#: cancel it does not contradict them, the record's status decides.
_RECORD_STATES = frozenset({"cancelled", "canceled", "processed", "in", "updated", "changed"})
#: "<the thing> was booked with 3 bags": a record's history, not this reply's act, when
#: a date or time follows ("was booked on May 7").
_WHEN = re.compile(
    r"\s*(?:on|at)\s+(?:\d|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s)",
    re.IGNORECASE,
)


def outcome(index: ReceiptIndex, text: str) -> Finding | None:
    """The call that did what an outcome sentence reports, or ``None``."""
    if _DONE_WORD.search(text) is None:
        return None  # (most sentences: no outcome word, nothing to read)
    plain = _LEAD_MARKS.sub("", _MARKUP.sub("", text).strip())
    m = _OUTCOME.match(plain) or _TERSE_OUTCOME.match(plain)
    if m is None or _WHEN.match(plain, m.end()):
        return None
    done = " ".join(m.group("done").lower().split())
    subject = m.group("subject")
    if done in _OVER:
        noun = next(
            (
                n
                for n in (*PROCESS_ACTIONS, *_SAME_PROCESS)
                if re.search(rf"\b{n}s?\b", subject, re.I)
            ),
            None,
        )
        if noun is None:
            # "Everything is set.", "Everything is done!": what the agent's newest change
            # that succeeded did
            return _newest_change(index) if subject.lower() == "everything" else None
        verb, kind = PROCESS_ACTIONS[_SAME_PROCESS.get(noun, noun)]
    else:
        verb, kind = done, ACTION_VERBS.get(done.replace("canceled", "cancelled"), "")
        if not kind:
            return None
    found = _check_act(index, m.group(0), 0, kind, verb, subject, plain[m.end() :])
    if found.status == "contradicted" and done not in _RECORD_STATES:
        # "Your reservation is already confirmed" when the only booking call failed
        e = _entry(index, found.receipt_id)
        return found if e is not None and failed(e) else None
    if found.status != "supported":
        return None
    if (
        done in ("verified", "authenticated")
        and (e := _entry(index, found.receipt_id)) is not None
        and failed(e)
    ):
        return None  # a look-up that found no one verified no one
    return found


def _newest_change(index: ReceiptIndex) -> Finding | None:
    """The newest successful call that changed something (no look-up), as support of
    "Everything is set"; ``None`` when the agent changed nothing."""
    changed = changes_made(index)
    if not changed:
        return None
    rid = changed[-1].receipt.id
    return Finding("supported", rid, "tool", f"{rid}: {changed[-1].receipt.tool or ''} call")


def failed_outcome(index: ReceiptIndex, text: str) -> Finding | None:
    """The failed call that contradicts an outcome a sentence reports ("Your reservation
    for Ivan is already confirmed" when the only booking call failed), or ``None``.

    Unlike :func:`outcome`, for any sentence: one that also restates a record's values
    (the passenger's name) still reports the act."""
    found = outcome(index, text)
    return found if found is not None and found.status == "contradicted" else None


def _entry(index: ReceiptIndex, receipt_id: str | None) -> ReceiptEntry | None:
    """The indexed result of a receipt id (the call a finding names)."""
    return next((e for e in index.entries if e.receipt.id == receipt_id), None)


def _check_act(
    index: ReceiptIndex, text: str, at: int, kind: str, verb: str, obj: str | None, tail: str
) -> Finding:
    """The ledger's finding for an act a sentence reports without an actor."""
    claim = DetectedClaim(
        category="action",
        detector_id="outcome",
        matched_text=text,
        offset=at,
        end=at + len(text),
        subject="self",
        assertion=kind,
        object=obj,
        value=verb,
    )
    return check_action(index, claim, tail)


#: A process noun or a past participle of an act, in a clause that says when it was done.
_ACT = re.compile(
    r"\b(?P<noun>"
    + "|".join(PROCESS_ACTIONS)
    + r")s?\b|\b(?P<verb>"
    + "|".join(sorted((v for v in ACTION_VERBS if " " not in v), key=len, reverse=True))
    + r")\b",
    re.IGNORECASE,
)


def done_today(index: ReceiptIndex, h: HardFact, clause: str) -> Finding | None:
    """ "since today's air purifier return", "the return was requested today": a date that
    is today, of an act a call of this conversation performed (a receipt with no time of
    its own is of this conversation, so of today)."""
    if h.kind != "date" or h.value != index.now.date().isoformat():
        return None
    if not h.text.lower().startswith("today"):
        return None
    for m in _ACT.finditer(clause):
        if m.group("noun"):
            verb, kind = PROCESS_ACTIONS[m.group("noun").lower()]
        else:
            verb = m.group("verb").lower()
            kind = ACTION_VERBS.get(verb, "")
        if not kind or kind in ("checked", "searched", "queried", "fetched"):
            continue
        found = _check_act(index, m.group(0), m.start(), kind, verb, None, clause[m.end() :])
        if found.status != "supported" or found.receipt_id is None:
            continue
        e = _entry(index, found.receipt_id)
        made = e.receipt.created_at if e is not None else None
        if made is not None and made.date() != index.now.date():
            continue  # a call with a time of its own, on another day
        detail = f"{found.detail}, made in this conversation (today)"
        return Finding("supported", found.receipt_id, found.receipt_kind, detail, value=h)
    return None


#: What the agent says it has read: "I have your reservation details.", "Now I have all the
#: pricing information.", "I now have all the information."
_HAVE_READ = re.compile(
    r"^(?:(?:now|okay|ok|great|perfect|thanks|thank\s+you)[,!.]?\s+)?i\s+(?:now\s+|already\s+)?"
    r"(?:have|['’]ve\s+got|got)\s+(?:all\s+)?(?:of\s+)?(?:the|your|this|these|those)\s+"
    r"(?P<what>(?:[\w-]+\s+){0,3}?)(?:details|information|info|records?)"
    r"(?:\s+(?:i\s+need|we\s+need|needed))?\s*[.!]?$",
    re.IGNORECASE,
)


def details_read(index: ReceiptIndex, text: str) -> Finding | None:
    """The look-up that gave the agent what it says it has ("I have your reservation
    details."): the newest successful look-up call (``get_``, ``search_`` ...) whose name or
    result holds what the sentence names; ``None`` without one (no look-up is no
    contradiction: the details may be the user's)."""
    m = _HAVE_READ.match(_LEAD_MARKS.sub("", _MARKUP.sub("", text).strip()))
    if m is None:
        return None
    what = content_words(m.group("what"))
    for e in reversed(tool_calls(index)):
        tool = e.receipt.tool or ""
        if not READ_TOOL.match(tool) or failed(e) or not e.receipt.content.strip():
            continue
        if what and not what <= (tool_name_words(e) | e.words):
            continue
        rid = e.receipt.id
        return Finding("supported", rid, "tool", f"{rid}: {tool} call")
    return None
