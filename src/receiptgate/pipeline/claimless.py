"""Sentences with no claim of their own (T2, T3, T6) that a receipt may still back: a
failure a call reported, a line a tool printed, an absence, an outcome told as a state,
an ordering over the reply's own lines, or a rule of the documents restated."""

from __future__ import annotations

import re
from collections.abc import Callable

from receiptgate.checks.absences import (
    absent_field,
    absent_item,
    empty_label,
    held_on_file,
    negated_field,
)
from receiptgate.checks.availability import labelled_availability
from receiptgate.checks.counts import field_count, spelled_count
from receiptgate.checks.documents import DocumentMatch, rule_words
from receiptgate.checks.edits import CHANGES_INTRO, NOW_DOES, described_edit, empty_file
from receiptgate.checks.enums import not_value
from receiptgate.checks.files import existing_file, located_files
from receiptgate.checks.finding import Finding
from receiptgate.checks.no_state import none_in_state
from receiptgate.checks.option_values import option_values
from receiptgate.checks.options import option_ordering
from receiptgate.checks.outcomes import details_read, outcome
from receiptgate.checks.outputs import (
    quoted_output,
    quoted_span,
    reported_failure,
)
from receiptgate.checks.passive_states import stated_state
from receiptgate.checks.restated_rules import restated_passage, unlisted
from receiptgate.checks.restated_values import restated_values
from receiptgate.checks.runs import run_result
from receiptgate.checks.unshown import unshown
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.pipeline.freshness import freshness
from receiptgate.pipeline.request import Request, Settings
from receiptgate.results import Evidence, SentenceResult


def ground_claimless(s: Settings, req: Request, sr: SentenceResult) -> None:
    """The receipt of a sentence with no claim of its own (T2, T3 or T6), if it has one.

    "It seems there was an issue locating the order" right after a call that failed
    is backed by the failure, and a line a tool printed, repeated word for word, by
    that output (T1); a statement, inference or hedge that restates a rule of the
    documents by the rule's passage (T4; T1 for a fetched page).
    """
    ledger = req.ledger
    if ledger is None:
        return
    if sr.tag in ("T3", "T6") and (empty := empty_file(ledger, sr.text)) is not None:
        # "It seems that the file `bad.txt` is empty": the newest listing of that file
        _settle(sr, "tool", empty.receipt_id, empty.status, empty.detail, "file content")
        return
    if sr.tag in ("T3", "T6"):
        found = reported_failure(ledger, sr.text) or quoted_output(ledger, sr.text)
        if found is None and sr.tag == "T3":
            found = quoted_span(ledger, sr.text)
        if found is not None and found.receipt_id is not None:
            sr.tag = "T1"
            sr.evidence.append(Evidence("tool", found.receipt_id, "supports", found.detail))
    if (
        sr.tag == "T3"
        and (_in_change_list(req, sr.index) or NOW_DOES.search(sr.text) is not None)
        and (edit := described_edit(ledger, sr.text)) is not None
    ):
        # "The changes:" then "- Adds the email field to the hash", "The function now
        # checks for the base language": the edit that did it
        _settle(sr, "tool", edit.receipt_id, edit.status, edit.detail, "change")
        return
    if sr.tag == "T3" and (found := negated_field(ledger, sr.text, req.anchor_of(sr.index))):
        # "This reservation has **no** travel insurance", "- No travel insurance" under the
        # reservation the lines are about (no negative claim detected)
        _settle(sr, "tool", found.receipt_id, found.status, found.detail, "absence")
        return
    if sr.tag == "T3" and (found := field_count(ledger, sr.text, req.anchor_of(sr.index).records)):
        # "Currently, your reservation includes 1 checked bag": total_baggages of it
        _settle(sr, "tool", found.receipt_id, found.status, found.detail, "count")
        return
    if sr.tag == "T3" and (
        found := labelled_availability(ledger, sr.text, req.anchor_of(sr.index).records)
    ):
        # "- Availability: In stock" under the new item of a change
        _settle(sr, "tool", found.receipt_id, found.status, found.detail, "availability")
        return
    if sr.tag == "T3" and (found := not_value(ledger, sr.text, req.anchor_of(sr.index).scope())):
        # "- Not business class" under the reservation: its cabin is economy
        _settle(sr, "tool", found.receipt_id, found.status, found.detail, "value")
        return
    for check, what in _STATED_BY_RECORDS if sr.tag == "T3" else ():
        if (found := check(ledger, sr.text)) is not None:
            if found.status != "unsupported":  # not shown either way: stays a statement
                _settle(sr, "tool", found.receipt_id, found.status, found.detail, what)
            return
    o = option_ordering(req.work, sr.text) if sr.tag in ("T2", "T3") else None
    if o is not None and (o.status == "contradicted" or all(_backed_line(req, a) for a in o.at)):
        # "Option 3 offers the lowest additional cost": over the options listed above
        _settle(sr, "reply", None, o.status, o.detail, "ordering")
        return
    if sr.tag not in ("T2", "T3", "T6"):
        return
    fresh = freshness(ledger, req.now, s.policy.freshness, None)
    doc = restated_passage(ledger, sr.text, fresh) or _restated_of_previous(req, sr, fresh)
    if doc is None and (gap := unlisted(ledger, sr.text)) is not None:
        # "Fees: our policy does not list a separate change fee" of a policy with no fee
        sr.tag = "T4"
        kind = gap.receipt_kind or "doc"
        sr.evidence.append(Evidence(kind, gap.receipt_id, "supports", gap.detail))
        return
    if doc is not None:
        sr.tag = "T1" if doc.receipt.kind == "web" else "T4"
        sr.evidence.append(Evidence(doc.receipt.kind, doc.receipt.id, "supports", doc.line()))


#: A sentence whose subject is a pronoun: "Its flights cannot be changed." says what
#: the sentence before named.
_PRONOUN_SUBJECT = re.compile(r"^(?:It|Its|It's|They|Their|These|Those|This|That)\b")


def _in_change_list(req: Request, at: int) -> bool:
    """Whether sentence ``at`` is an item of a list that a line naming the changes
    introduces ("The changes we made:", "The implementation:")."""
    if req.sentences[at].kind != "list_item":
        return False
    for j in range(at - 1, -1, -1):
        before = req.sentences[j]
        if CHANGES_INTRO.search(before.text.strip()):
            return True
        if before.kind != "list_item":
            return False
    return False


def _restated_of_previous(
    req: Request, sr: SentenceResult, fresh: Callable[[Receipt], bool]
) -> DocumentMatch | None:
    """The rule a sentence restates of what the sentence before it named: "Reservation
    XEWRD9 is basic economy. Its flights cannot be changed." restates "Basic economy
    flights cannot be modified". The sentence's own words must all be the rule's (the
    sentence before only says what "its" is)."""
    if sr.index == 0 or _PRONOUN_SUBJECT.match(sr.text) is None or req.ledger is None:
        return None
    prev = req.result.sentences[sr.index - 1]
    if "\n\n" in req.text[prev.end : sr.start]:
        return None  # another paragraph: "it" is not what that one named
    doc = restated_passage(req.ledger, f"{prev.text.rstrip()} {sr.text}", fresh)
    own = rule_words(req.ledger, sr.text)
    if doc is None or len(own) < 2 or not own <= doc.shared:
        return None
    return doc


#: Checks of a general statement (T3) against the records and the calls, in order; the
#: first that answers settles it.
_STATED_BY_RECORDS: tuple[tuple[Callable[[ReceiptIndex, str], Finding | None], str], ...] = (
    # "**Direct flights:** None available" after a direct-flight search found nothing
    (empty_label, "absence"),
    # "the exact departure time is not provided in the reservation details"
    (absent_field, "absence"),
    # "The system doesn't list any fees or shipping costs for this item"
    (unshown, "absence"),
    # "- Canister, bagged, cordless": the options of one variant
    (option_values, "value"),
    # "You have a gift card on file.": the user's details hold one
    (held_on_file, "value"),
    # "Order #W5565470 does not contain a garden hose" (no negative claim detected)
    (absent_item, "absence"),
    # "The fix works.", "The patch looks good.": the newest run or edit
    (run_result, "run"),
    # "Two orders on your account.": the user's list of orders has two
    (spelled_count, "count"),
    # "Your trip is booked.", "Both returns are in.": what a successful call did
    (outcome, "outcome"),
    # "I have your reservation details.": the look-up that gave them
    (details_read, "look-up"),
    # "There's already a hello.py file in the current directory.": a listing shows it
    (existing_file, "file"),
    # "The implementation lives in src/pagekit/pagination.py": a path a listing printed
    (located_files, "file"),
    # "Delivered orders: none at the moment.": the newest result of each order
    (none_in_state, "state"),
    # "The payment has been captured.": the state of the record the subject names
    (stated_state, "state"),
    # "The ticket has high priority and is assigned to Field Ops - Portland.": one row's
    # values, and no word that is not the row's
    (restated_values, "values"),
)


def _settle(
    sr: SentenceResult, kind: str, rid: str | None, status: str, detail: str, what: str
) -> None:
    """A sentence with no claim of its own settled by one check: T1 with the evidence that
    backs it, or T5 with the evidence that contradicts it and the reason."""
    if status == "contradicted":
        sr.tag = "T5"
        sr.evidence.append(Evidence(kind, rid, "contradicts", detail))
        sr.reasons.append(f"Contradicted {what}: {detail}")
    else:
        sr.tag = "T1"
        sr.evidence.append(Evidence(kind, rid, "supports", detail))


def _backed_line(req: Request, at: int) -> bool:
    """Whether the sentence of the reply at offset ``at`` was decided, backed (T1, T4)."""
    return any(
        sr.start <= at < sr.end and sr.tag in ("T1", "T4") and sr.action == "pass"
        for sr in req.result.sentences
    )
