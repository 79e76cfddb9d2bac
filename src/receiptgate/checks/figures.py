"""A claimed figure against the records: the right field of the right record, by typed
value (:func:`check_figure`).

Held by a field of an anchored record: supported. Held by another record whose field
is about what the sentence says: supported too — a value of another record never
contradicts this one, but it does not back a sentence that names a record of the same
kind ("Order #W1 came to $2,649" when $2,649 is order #W2's). Held by no receipt: a
*contradiction* when an anchored record's field of the same kind, chosen by the
sentence's words ("price", "departs"), holds another value; otherwise unsupported.

Evidence lines name the receipt and the field path:
``call_3 reservations[0].flights[1].price = 153``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from receiptgate.checks.about import (
    NEGATIVE_MONEY,
    PAY_MORE,
    counted_unit,
    field_words,
    head_noun,
    is_about,
    leaf_words,
    nouns_after,
    overlap,
)
from receiptgate.checks.anchoring import Anchor, worded_ids
from receiptgate.checks.calls import echoed
from receiptgate.checks.document_figures import RATE_AFTER
from receiptgate.checks.field_labels import labelled_rival
from receiptgate.checks.figure_owner import for_figure
from receiptgate.checks.finding import Finding
from receiptgate.checks.rivals import (
    contradicted,
    disagreed,
    evidence_line,
    field_rival,
    other_field,
)
from receiptgate.checks.rows import (
    anchor_ids,
    another_row,
    literal_in,
    named_ids,
    of_a_sibling,
    other_row,
)
from receiptgate.checks.sentence_amounts import (
    NEW_VALUE_BEFORE,
    gap_stated,
)
from receiptgate.checks.user_figures import BOUND_BEFORE, user_phrase
from receiptgate.checks.weekdays import wrong_weekday
from receiptgate.checks.words import GENERIC, content_words
from receiptgate.checks.zones import in_named_zone, zoned_moment
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf
from receiptgate.evidence.values import MEASURES, PENNIES, claim_keys, compatible, same_family

#: Field words of a count of what was taken away ("deletions": 87 is the "-87" of a diff).
_TAKEN = frozenset("deletions deleted removed removals decrease dropped lost".split())


def same_value(h: HardFact, leaf: Leaf) -> bool:
    v = leaf.value
    if v.kind in ("word", "text", "id"):
        # A figure inside a field's text: the same characters, as a whole word.
        return literal_in(h.text, v.shown)
    if not compatible(h, v):
        return False
    if (
        h.kind in ("money", "count", "number", "percent")
        and v.kind != "duration"
        and (h.number is not None and v.number is not None)
    ):
        return (
            abs(h.number - v.number) < 0.005
            or (h.kind == "percent" and abs(h.number / 100 - v.number) < 0.00005)
            # "60p" of a price of 0.60 (in pounds)
            or (h.kind == "money" and h.unit in PENNIES and abs(h.number / 100 - v.number) < 5e-5)
            # an amount and its size are one: a negative record value ("price_difference":
            # -9.89, a calculator's "-2580.0") claimed as its size, a deduction written with
            # its sign ("Certificate: -$500") of the amount the record holds
            or (h.kind == "money" and abs(h.number + v.number) < 0.005)
            # "+412 / -87": the lines a diff removed, which the record counts as such
            or (
                h.number < 0 and abs(h.number + v.number) < 0.005 and bool(_TAKEN & set(leaf.words))
            )
        )
    return True


def _unit_beside(h: HardFact, leaf: Leaf) -> bool:
    """Whether a count's unit is a word beside the figure in the text that printed it."""
    if h.kind != "count" or not h.unit:
        return False
    unit = content_words(h.unit)
    return bool(unit) and unit <= field_words(leaf)


def _printed(index: ReceiptIndex, leaf: Leaf, h: HardFact, clause: frozenset[str]) -> bool:
    """Whether a value is one a command printed as plain text (no record's field): a span
    of time or a figure with decimals ("up 2 days", "load average: 4.13"); a whole
    number or a percentage, which many measures share, only in a clause whose words are
    the output's ("Test coverage is 91%" is not what ``df`` printed as 91%)."""
    if leaf.path != "text" or index.receipt_of(leaf).kind != "tool":
        return False
    if h.kind in ("duration", "time", "date", "datetime") or (
        h.number is not None and not float(h.number).is_integer()
    ):
        return True
    own = clause - GENERIC
    return not own or bool(own & leaf_words(index, leaf))


def _ids_asked(anchor_: Anchor) -> frozenset[str]:
    """The ids of the rows a sentence names (for results of calls asked about them)."""
    return frozenset(i for rec in anchor_.records for i in rec.row().ids if len(i) >= 6)


def _asks_about(index: ReceiptIndex, leaf: Leaf, ids: frozenset[str]) -> bool:
    """Whether the call that returned a value named one of ``ids`` in its arguments, and
    its result is no record of that thing itself (a metric's datapoints, not the updated
    reservation, whose fields the usual checks read)."""
    r = index.receipt_of(leaf)
    if r.kind != "tool" or not r.args or leaf.path.startswith("args"):
        return False
    args = str(r.args).lower()
    if not any(i in args for i in ids):
        return False
    if leaf.path == "text" and not any(i in r.content.lower() for i in ids):
        return False  # an error of a call on two flights, about the other one
    return not any(rec.path != "args" and set(rec.ids) & ids for rec in leaf.record.root.subtree())


def check_figure(
    index: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    clause: frozenset[str],
    sentence: frozenset[str],
    fresh: Callable[[Receipt], bool],
    anchors: Sequence[str] = (),
    linked: frozenset[str] = frozenset(),
) -> Finding:
    """Support, contradiction or absence of one claimed figure (see the module doc); a
    date found, written with a weekday that is not its own ("Friday, October 2" of
    2025-10-02, a Thursday), is contradicted by its weekday."""
    found = _check_figure(index, h, anchor_, clause, sentence, fresh, anchors, linked)
    if h.kind == "date" and found.status == "supported":
        return wrong_weekday(anchor_, h, found) or found
    return found


def _check_figure(
    index: ReceiptIndex,
    h: HardFact,
    anchor_: Anchor,
    clause: frozenset[str],
    sentence: frozenset[str],
    fresh: Callable[[Receipt], bool],
    anchors: Sequence[str] = (),
    linked: frozenset[str] = frozenset(),
) -> Finding:
    """Support, contradiction or absence of one claimed figure (see the module doc).

    ``anchor_`` is what the sentence is about, with its text; ``clause`` and
    ``sentence`` are the content words around the figure and of the whole sentence;
    ``anchors`` the names, hosts and paths the sentence names; ``linked`` the receipts
    that back another claim of the sentence (the test run behind "I ran the tests and
    all 42 pass"): a value they hold needs no more.
    """
    keys = claim_keys(h)
    of_sentence = anchor_
    anchor_ = for_figure(anchor_, h)
    # the rows for_figure found the figure to be of (one of several names, a "HAT286 +
    # HAT047" group) are its own, whatever else the sentence names
    narrowed = anchor_ is not of_sentence and bool(anchor_.records)
    scope = anchor_.scope()
    low = anchor_.text.lower()
    if h.kind == "number" and h.text.isdigit() and len(h.text) >= 6:
        # A long run of digits is a name (an item, a tracking number): it exists or not.
        named = index.leaves((f"i:{h.text}",))
        if named:
            return supported(index, h, named[0])
    digits = h.text.strip("()#")
    if h.kind == "number" and digits.isdigit() and len(digits) >= 6:
        # "your Gift Card (6136092)": the number of the id gift_card_6136092
        for key, _ in worded_ids(index).get(digits, ()):
            named = index.leaves((f"i:{key}",))
            if named:
                return supported(index, h, named[0])
    # (never the agent's own words in a message it sent: "CPU peaked at 97.3%" in a Slack
    # post backs nothing)
    equal = [leaf for leaf in index.leaves(keys) if same_value(h, leaf) and not echoed(index, leaf)]
    if h.kind == "money" and clause & PAY_MORE and not clause & NEGATIVE_MONEY:
        # a calculator's -114 is $114 less, never "an additional $114"
        # (the debit of a row the sentence names is its charge: "the Netflix charge of
        # $15.49" of "amount": -15.49)
        debits = {id(r) for r in anchor_.records} if anchor_.how == "named" else set()
        equal = [
            leaf for leaf in equal if (leaf.value.number or 0) >= 0 or id(leaf.record) in debits
        ]
    if len(equal) > MAX_EQUAL:
        # a value many receipts hold ("42" in a long session, "$62" among the fares of
        # many searches): those whose field the clause names ("your $62 gift card"), then
        # the newest, decide, so a figure costs the same however long the session
        equal.sort(
            key=lambda leaf: (bool(field_words(leaf) & clause), index.position(leaf)),
            reverse=True,
        )
        equal = equal[:MAX_EQUAL]
    others: list[Leaf] = []
    is_fresh = [fresh(index.receipt_of(leaf)) for leaf in equal]
    stale = [leaf for leaf, ok in zip(equal, is_fresh, strict=True) if not ok]
    # the rows of a record the sentence names as a whole ("your reservation M05KNL ... on May
    # 23": both flights' dates are the reservation's) are its own, whichever row it names
    whole = {id(r) for r in anchor_.records} if anchor_.how in ("named", "section") else set()
    anywhere = equal
    equal = [
        leaf
        for leaf, ok in zip(equal, is_fresh, strict=True)
        if ok
        and (
            not other_row(leaf, low)
            # the one row the figure is about is its own, whatever else the sentence
            # names ("replaces HAT085 and HAT023 on May 18": HAT023's date)
            or ((len(whole) == 1 or narrowed) and id(leaf.record) in whole)
            or (leaf.record.parent is not None and id(leaf.record.parent) in whole)
        )
    ]
    # A record the sentence names (or the section it sits in) holding the value backs
    # it; a weaker anchor (the sentence before, the latest result) needs the value's
    # field to be about the figure, as any other record does.
    strong = anchor_.how in ("named", "section")
    # "The return of the Smart Watch from #W1 is processed. The refund of $367.38 will be
    # issued ...": an amount of the record the sentence before named, in a sentence
    # about money, is that record's; so is a date or a time ("I found your reservation
    # OBUT9V. You return on May 28th.")
    previous = anchor_.how == "previous" and (
        (h.kind == "money" and bool(clause & _MONEY_WORDS)) or h.kind in ("date", "time")
    )
    if h.kind in ("money", "time", "date"):
        # "even with a payment of up to $100" after the user asked to pay "up to $100";
        # "options that leave after 11 AM" after "I don't want to fly before 11 AM": the
        # user's own figure, restated as their limit
        before = anchor_.text[: h.start - anchor_.start]
        bound = BOUND_BEFORE.search(before) is not None
        for leaf in equal:
            r = index.receipt_of(leaf)
            if r.kind == "user" and (bound or user_phrase(r.content, before, h)):
                return supported(index, h, leaf)
        if bound and h.kind == "money" and not clause & _MONEY_WORDS:
            # "If the difference exceeds $86.00, may I use your PayPal?": a limit the
            # sentence compares with, a value a record holds (the gift card's balance),
            # whichever row the sentence names
            held = [leaf for leaf in anywhere if index.receipt_of(leaf).kind == "tool"]
            if held:
                return supported(index, h, held[-1])
    # a figure a command printed in plain text, in a sentence about that output (it
    # names nothing else: "The server has been up for 2 days" after ``uptime``): a text
    # has no rows whose values could be another thing's
    printed = anchor_.how in ("previous", "latest")
    asked_ids = _ids_asked(anchor_) if strong else frozenset()
    inside = [
        leaf
        for leaf in equal
        if (
            (
                strong
                or (previous and same_family(h, leaf.value))
                or (printed and leaf.value.kind == h.kind and _printed(index, leaf, h, clause))
            )
            and id(leaf.record) in scope
        )
        or (index.receipt_of(leaf).id in linked and _unit_fits(index, h, leaf))
        # "CPU on checkout-web-1 peaked at 97.3%": a result of a call whose arguments name
        # the instance (get-metric-statistics ... InstanceId=i-0a4f...) is about it
        or (asked_ids and same_family(h, leaf.value) and _asks_about(index, leaf, asked_ids))
    ]
    if inside:
        best = max(inside, key=lambda leaf: overlap(index, leaf, clause))
        return (
            disagreed(index, h, best, low, fresh)
            or other_field(index, h, best, clause)
            or supported(index, h, best)
        )
    unit = counted_unit(index, h)
    about = [
        leaf
        for leaf in equal
        # "for 4 nights" of "nights": 4: the count's unit names the field
        if (unit and unit <= field_words(leaf))
        # "487 packages" of a command's "added 487 packages": the unit beside it in print
        or (leaf.key == "text" and _unit_beside(h, leaf))
        or _distinctive(h, leaf)
        or is_about(index, leaf, clause, sentence, anchors)
    ]
    head = head_noun(anchor_.text, h.start - anchor_.start) if not about else None
    if head is not None:
        # "Your original payment was $2787": what the figure is of, named right before it,
        # is the field's row (a payment of payment_history)
        about = [leaf for leaf in equal if head in leaf_words(index, leaf)]
    elif not about and h.kind == "money":
        # "the $500 one gives the best value" no; "the $500 certificate gives the best
        # value": the noun the amount stands before is what it is of (the certificate's)
        after = nouns_after(anchor_.text, h.end - anchor_.start)
        if after:
            about = [leaf for leaf in equal if leaf_words(index, leaf).intersection(after)]
    if anchor_.how in ("named", "section"):
        # "Order #W1 came to $2,649": the price of order #W2 is no support; nor, in the
        # lines under an item, another item's price.
        ids = named_ids(anchor_.text, index) or anchor_ids(anchor_)
        own = {i.lstrip("#") for rec in anchor_.records for i in rec.ids}
        others = [
            leaf
            for leaf in about
            if of_a_sibling(leaf.record, ids) or another_row(leaf.record, own)
        ]
        about = [leaf for leaf in about if leaf not in others]
    rival = field_rival(index, h, anchor_, clause, scope, fresh)
    if rival is not None and index.receipt_of(rival).kind == "user":
        rival = None  # what the user wrote may back a restatement, never contradict a fact
    if rival is not None and _rate(index, rival) != bool(
        RATE_AFTER.match(anchor_.text, h.end - anchor_.start)
    ):
        rival = None  # a rate ("30 dollars per passenger") says nothing of a total
    if rival is not None and gap_stated(anchor_, h, rival):
        # "Price difference from your current puzzle ($46.00) is $3.10" under the new
        # puzzle's $49.10: the figure is the other term of the difference the sentence
        # states, a value of another record
        held = [leaf for leaf in equal if index.receipt_of(leaf).kind != "user"]
        if held:
            return supported(index, h, held[-1])
        rival = None
    if rival is not None and anchor_.how == "named":
        # The sentence names the record and its field holds another value: the same
        # field of another record ("build 4827 took 14 minutes") is no support.
        about = [leaf for leaf in about if leaf.key.lower() != rival.key.lower()]
        if not about:
            return _newer_value(index, h, rival, anywhere) or contradicted(index, h, rival)
    if about:
        best = max(about, key=lambda leaf: overlap(index, leaf, clause))
        return (
            disagreed(index, h, best, low, fresh)
            or other_field(index, h, best, clause)
            or supported(index, h, best)
        )
    literal = _literal(h, anchor_)
    if literal is not None:
        return supported(index, h, literal)
    if h.kind == "number" and h.text.isdigit() and len(h.text) >= 4:
        # a code the user typed ("my zip code is 10001"), restated as they wrote it
        typed = [
            leaf
            for leaf in equal
            if leaf.value.shown == h.text and index.receipt_of(leaf).kind == "user"
        ]
        if typed:
            return supported(index, h, typed[0])
    if h.kind == "count" and h.unit in MEASURES and equal and rival is None:
        # "it's the 64GB one": a measure written as an option holds it ("storage":
        # "64GB"), the only one of its kind in scope of nothing else
        said = _MEASURE_GAP.sub("", h.text).lower()  # "34-inch" is "34 inch"
        same = [leaf for leaf in equal if _MEASURE_GAP.sub("", leaf.value.shown).lower() == said]
        if same:
            return supported(index, h, same[-1])
    if h.kind == "date" and equal and rival is None:
        # "Cheapest economy option on May 24 is $207": the day the agent searched for
        # (a call's arguments), when nothing in scope holds another day
        asked = [leaf for leaf in equal if leaf.path.startswith("args.")]
        if asked:
            return supported(index, h, asked[-1])
    if (
        h.kind == "number"
        and h.number is not None
        and not float(h.number).is_integer()
        and equal
        and rival is None
    ):
        # "It passed on Python 3.11": a decimal written inside a name ("unit-tests
        # (3.11)") is as specific as a version
        named = [leaf for leaf in equal if leaf.value.kind in ("word", "id")]
        if named:
            return supported(index, h, named[-1])
    if h.kind == "version" and equal and rival is None:
        # "changes between 2.9.0 and 2.9.1" after the issue named both releases: a
        # version string is itself specific; what surrounds it need not repeat the
        # receipt's words ("astroid", "pip install")
        return supported(index, h, equal[-1])
    if h.kind == "money" and equal and rival is None:
        # "under $1,000" after the user asked to "bring it under $1000": an amount only
        # the user's own messages hold is theirs, restated (T7), whatever words surround it
        users = [leaf for leaf in equal if index.receipt_of(leaf).kind == "user"]
        if len(users) == len(equal):
            return supported(index, h, users[-1])
    weak = rival is None or anchor_.how not in ("named", "section")
    rival = rival or labelled_rival(index, h, clause, low, fresh)
    paid = [leaf for leaf in equal if "payment" in leaf.path.lower()]
    if rival is not None and paid and _PAID_BEFORE.search(anchor_.text[: h.start - anchor_.start]):
        # "Original booking (Business): $2,787" with payment_history 2787: what was paid,
        # which the words before the figure name, not the fare they also name
        return supported(index, h, paid[-1])
    if rival is not None and weak:
        held = [leaf for leaf in equal if index.receipt_of(leaf).kind != "user"]
        if held and all(leaf.record is not rival.record for leaf in held):
            # a value another record holds is never a contradiction of this one: "your
            # original payment was $2787" with payment_history 2787 and a fare labelled
            # "business" elsewhere
            return Finding(
                "unsupported",
                None,
                None,
                f"{h.text} is held by {evidence_line(index, held[0])}, not by the field the "
                f"sentence names ({evidence_line(index, rival)})",
                value=h,
            )
    if rival is not None:
        return (
            _newer_value(index, h, rival, anywhere)
            or in_named_zone(index, h, rival)
            or contradicted(index, h, rival)
        )
    if stale:
        r = index.receipt_of(stale[0])
        age = f"{(index.now - r.created_at).days} days old" if r.created_at else "too old"
        return Finding(
            "stale",
            r.id,
            r.kind,
            f"{r.id} carries {h.text} but is {age}, past the freshness window for {r.kind}",
            stale[0].path,
            value=h,
        )
    if others and NEW_VALUE_BEFORE.search(anchor_.text[: h.start - anchor_.start]):
        # "Update the shipping address on #W3730488 to ... Suite 872": the new value of the
        # record the sentence names comes from another record (the profile, another order)
        return supported(index, h, others[0])
    if others:
        leaf = others[0]
        owner = next(r for r in leaf.record.lineage() if r.ids)
        whose = f"{evidence_line(index, leaf)} is {owner.ids[0]}'s"
        detail = f"{h.text} is not a value of the record the sentence names ({whose})"
        return Finding("unsupported", None, None, detail, value=h)
    if (zoned := zoned_moment(index, h, clause, sentence)) is not None:
        return zoned  # "went out at 11:14 am ET" of a sent_at of 15:14Z
    if h.kind == "count" and (held_as := _written_as(index, h)) is not None:
        # "5K waterproof variants": the option value "5K" a record holds as written, not
        # five thousand of something
        return supported(index, h, held_as)
    return Finding("unsupported", None, None, f"no receipt holds {h.text}", value=h)


def _newer_value(
    index: ReceiptIndex, h: HardFact, rival: Leaf, held: Sequence[Leaf]
) -> Finding | None:
    """A later result that names the rival's record by its id and holds the claimed value
    in a field of the same words: the record's value now ("Checking: $2,840.18" after a
    transfer whose result gives ``"to_account": "ACC-1001", "new_balance_to": 2840.18``,
    where the account's own row still says 2340.18)."""
    owner = next((r for r in rival.record.lineage() if r.ids), None)
    if owner is None:
        return None
    ids = {owner.ids[0]}  # the account's own id, not its customer's
    words = field_words(rival)
    for leaf in sorted(held, key=index.position, reverse=True):
        if index.position(leaf) <= index.position(rival) or not words & field_words(leaf):
            continue
        if index.receipt_of(leaf).kind != "tool":
            continue
        if not set(leaf.words) & _NEW_WORDS:
            continue  # "new_balance_to": a value after the change, not a catalog's price
        names = {x.value.shown.lower() for r in leaf.record.lineage() for x in r.leaves}
        own = {i for r in leaf.record.lineage() for i in r.ids}
        if ids & names and not ids & own:
            return supported(index, h, leaf)  # a result that refers to the record
    return None


#: Field words of a value after a change: "new_balance", "updated_total".
_NEW_WORDS = frozenset({"new", "updated", "current", "after", "resulting", "latest"})


def _unit_fits(index: ReceiptIndex, h: HardFact, leaf: Leaf) -> bool:
    """Whether a field may hold a count of what the claim counts: "3 nights" is not the
    3 rooms a search row has left ("available": 3), though the search backs the
    sentence's dates; an output's text says what it counts in words of its own."""
    if h.kind != "count" or not h.unit or h.unit in MEASURES or leaf.path == "text":
        return True
    unit = counted_unit(index, h)
    # (a unit of no content words, "5 new seats", fits no field of a linked result)
    return bool(unit & field_words(leaf)) if unit else bool(content_words(h.unit))


#: Words before a figure that say it is what was paid: "Original booking: $2,787", "you
#: paid $1,671", "Amount charged: $567".
_PAID_BEFORE = re.compile(
    r"\b(?:original(?:ly)?|paid|charged|you\s+spent)\b[^$€£\d]{0,40}$", re.IGNORECASE
)


def _written_as(index: ReceiptIndex, h: HardFact) -> Leaf | None:
    """A record's word value that is the figure's number as written ("5K", "4K"): a
    resolution, a size or a code, read by the scanner as a count."""
    token = h.text.split()[0].lower()
    if not any(c.isalpha() for c in token):
        return None
    keys = [f"w:{token}"]
    if h.number is not None and float(h.number).is_integer():
        keys.append(f"n:{int(h.number)}")  # "5K" of an option read as a number, 5000
    return next(
        (leaf for leaf in index.leaves(keys) if leaf.value.shown.strip().lower() == token), None
    )


#: What may stand between a measure's number and its unit: "34 inch", "34-inch", "64 GB".
_MEASURE_GAP = re.compile(r"[\s\-\u2010-\u2011]+")

#: Words of a clause about an amount of money (stemmed).
_MONEY_WORDS = content_words("refund refunded charge charged paid pay cost price fee total")

#: At most this many receipt values equal to a claimed figure are weighed (the newest).
MAX_EQUAL = 32


def _rate(index: ReceiptIndex, leaf: Leaf) -> bool:
    """Whether a value in prose is a rate ("30 dollars per passenger")."""
    if leaf.path != "text":
        return False
    content = index.receipt_of(leaf).content
    at = content.find(leaf.value.shown)
    return at >= 0 and bool(RATE_AFTER.match(content, at + len(leaf.value.shown)))


def _literal(h: HardFact, anchor_: Anchor) -> Leaf | None:
    """A figure written inside a field's text ("4K resolution", "28 inch") of an
    anchored record."""
    for rec in anchor_.records:
        for r in rec.subtree():
            for leaf in r.leaves:
                if leaf.value.kind in ("word", "text", "id") and literal_in(
                    h.text, leaf.value.shown, head=True
                ):
                    return leaf
    return None


def held_anywhere(
    index: ReceiptIndex, h: HardFact, fresh: Callable[[Receipt], bool]
) -> Finding | None:
    """A fresh tool or document value equal to ``h``, whichever record holds it (the
    newest): backing for a term of a calculation the reply writes out, which gathers its
    terms from several records."""
    held = [
        leaf
        for leaf in index.leaves(claim_keys(h))
        if same_value(h, leaf) and fresh(r := index.receipt_of(leaf)) and r.kind != "user"
    ]
    if not held:
        return None
    return supported(index, h, max(held, key=index.position))


def supported(index: ReceiptIndex, h: HardFact, leaf: Leaf) -> Finding:
    """``h`` backed by ``leaf``, with its evidence line."""
    r = index.receipt_of(leaf)
    line = evidence_line(index, leaf)
    if h.kind != "identifier" and h.text.strip().lower() != leaf.value.shown.strip().lower():
        line += f", matches {h.text}"
    return Finding("supported", r.id, r.kind, line, leaf.path, value=h)


def _distinctive(h: HardFact, leaf: Leaf) -> bool:
    """A figure no coincidence gives: a span with two decimals, or a plain number of
    four digits or more, not round and no year ("24,342 to 24,611" of a meter's
    readings, whatever words the sentence uses for them). Amounts of money are excluded:
    another row's price is a price too."""
    x = h.number
    if h.kind == "duration" and leaf.value.kind in ("duration", "text"):
        # "finished in 7.94 seconds" of a run's "in 7.94s": two decimals match no other
        # span; nor does one of two units ("5 h 38 min" of a journey's "PT5H38M")
        return bool(re.match(r"\d+\.\d\d", h.text)) or len(re.findall(r"\d+", h.text)) >= 2
    return (
        x is not None
        and h.kind in ("number", "count")
        and leaf.value.kind in ("number", "count")
        and abs(x) >= 1000
        and x % 100 != 0
        and not 1900 <= x <= 2100
    )
