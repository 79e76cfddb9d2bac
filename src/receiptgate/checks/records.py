"""Ids, names, states and values a sentence restates, checked against the records it is
about (:func:`record_claims`; the availability it claims is ``checks/availability``, the
full names and e-mail addresses are read by ``checks/record_names``, denials and
membership levels by ``checks/enums``, payment methods by ``checks/payments``).

Ids of the evidence's shapes that no record holds, a state word ("pending") that
differs from the anchored record's state, and a name in address position that is not
the customer's are contradictions; ids, names and values the records hold support
their sentence.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence

from receiptgate.checks.anchoring import SPACED_ID, TOKEN, Anchor, id_key, word_spans
from receiptgate.checks.attributed import attributions
from receiptgate.checks.availability import SAID_OF, labelled_availability
from receiptgate.checks.card_digits import last_digit_spans
from receiptgate.checks.enums import denies, graded_value, your_value
from receiptgate.checks.figures import supported
from receiptgate.checks.finding import Finding
from receiptgate.checks.labels import label_value, last_digits
from receiptgate.checks.payments import original_kind, original_method, paid_with, recorded_payment
from receiptgate.checks.record_claim import RecordClaim, record_fact
from receiptgate.checks.record_names import EMAIL, email_claim, half_known_names, unknown_name
from receiptgate.checks.record_states import (
    latest,
    record_nouns,
    reports_state,
    state_claim,
    state_heads,
)
from receiptgate.checks.rivals import evidence_line
from receiptgate.checks.words import GENERIC, content_words, word_pattern
from receiptgate.evidence.index import ReceiptIndex, id_shape
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import words_of
from receiptgate.text.segment import Sentence

# A full name addressed at the start of a sentence: "Dana Li, your order ...".
#: ("Hi Priya, thanks ...": a greeting and a first name, no full name)
_ADDRESSED = re.compile(
    r"^\s*(?!(?:Hi|Hello|Hey|Dear|Thanks|Sorry|Great|Sure|Good|Okay|Yes|Welcome|Morning)\b)"
    r"([A-Z][a-z]+)\s+([A-Z][a-z]+),\s"
)

# A name in address position: "Hi Mia", "Thank you, Mia!", "You're welcome, Mia."
_VOCATIVE = re.compile(
    r"\b(?i:hi|hello|hey|dear|thanks|thank\s+you|welcome|sorry|no\s+problem|great|sure)"
    r",?\s+([A-Z][a-z]{2,})\b"
    r"|,\s*([A-Z][a-z]{2,})\s*[!.]?\s*$"
)

#: A token as ``TOKEN`` reads it, tried only where one with a digit starts (an id
#: candidate): the lookahead skips the words of a sentence in one regex pass.
_DIGIT_TOKEN = re.compile(r"(?=#?[A-Za-z0-9_\-.]*\d)" + TOKEN.pattern)
#: What makes the token after it an example: 'e.g. "AB12CD"', "for example W1234567".
_EXAMPLE = re.compile(
    r"(?:\be\.g\.|\bfor\s+(?:example|instance)|\bsuch\s+as|\blike)[,:]?\s*[\"'“‘(]?\s*$",
    re.IGNORECASE,
)
#: The word right before a token, and the space between them: "gift card_8541487".
_WORD_BEFORE = re.compile(r"[A-Za-z]+ $")


def _joined_id(text: str, at: int, low: str, index: ReceiptIndex) -> tuple[list[Leaf], int] | None:
    """The leaves holding an id a reply wrote with a space for its first "_" ("gift
    card_8541487" of gift_card_8541487), and where the id starts in ``text``; ``None``
    when the word before and the token, joined, are no id of the records."""
    m = _WORD_BEFORE.search(text, max(0, at - 30), at)
    if m is None or m.end() != at:
        return None
    held = index.leaves((f"i:{m.group().strip().lower()}_{low}",))
    return (held, m.start()) if held else None


#: A token of 5 to 10 capitals where an id stands: after "reservation", "booking", "ID",
#: "code", "#", or alone in its line ("2. **UHDAHE**").
_CAPS_ID = re.compile(
    r"(?:\b(?:reservation|booking|confirmation)(?:\s+(?:id|code|number))?|\bID|\bcode)"
    r"(?:\s+(?:is|was))?[\s*_:#]*\b([A-Z0-9]{5,10})\b(?![-'’])"
    r"|^[\W\d_]*?\b([A-Z]{5,10})\b[\W_]*$"
)

#: Words written in capitals alone in a line ("**IMPORTANT**"): no ids.
_CAPS_WORDS = frozenset(
    "important notice warning update updated summary urgent please thanks success "
    "failed error total refund change changes booking booked details status pending "
    "delivered cancelled canceled confirmed completed complete processed reminder "
    "attention action required options option results result flights orders order".split()
)

_DATE_TOKEN = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?$|^\d{1,2}:\d{2}(?::\d{2})?$")


def record_claims(
    s: Sentence,
    anchor_: Anchor,
    index: ReceiptIndex,
    taken: Sequence[tuple[int, int]],
    *,
    states: bool = True,
) -> list[RecordClaim]:
    """Ids, names, states and values a sentence restates, each checked against the records.

    ``taken`` are spans already claimed as figures (money, dates): not read again.
    ``states=False`` reads no state words (a label such as "Cancelled orders:" names
    the group the lines under it belong to; those lines carry the claims).
    """
    out: list[RecordClaim] = []
    busy = list(taken)

    def free(a: int, b: int) -> bool:
        return not any(a < e and s_ < b for s_, e in busy)

    # the last digits of a card or account ("Visa ending in 7285"): a value whose field
    # holds them, or, where the evidence lists last digits, none of them
    for a, b, digits in last_digit_spans(s):
        # read here even when a detector took it as a quantity
        out.append(last_digits(index, digits, a, b))
        busy.append((a, b))
    # "the original payment method (gift card gift_card_7480005)": the first payment of the
    # records the sentence is about, before the id is read as a mere id
    for a, b, finding in [
        *original_method(index, anchor_.records, s.text, s.start, context=anchor_.context),
        # "Refund method: PayPal (original payment method)": a kind, not an id
        *original_kind(index, anchor_.records, s.text, s.start, context=anchor_.context),
    ]:
        if not free(a, b):
            continue
        out.append(RecordClaim("method", a, b, s.text[a - s.start : b - s.start], finding))
        busy.append((a, b))
    # "It is currently out of stock." after the sentence that named the item: that item's
    # availability, not a value any variant of the product holds
    if (said := SAID_OF.match(s.text)) is not None and (
        found := labelled_availability(index, s.text, anchor_.records)
    ) is not None:
        a, b = s.start + said.start("state"), s.start + said.end("state")
        fact = record_fact("state", a, b, said.group("state"))
        out.append(RecordClaim("state", a, b, fact.text, dataclasses.replace(found, value=fact)))
        busy.append((a, b))
    # "your Gold-member status" against the profile's membership (checks/enums)
    for a, b, finding in your_value(index, s.text, s.start):
        if free(a, b):
            out.append(RecordClaim("state", a, b, s.text[a - s.start : b - s.start], finding))
            busy.append((a, b))
    # "assigned to dchen", "opened by mkowalski": the person the role's field names
    for a, b, finding in attributions(index, s.text, anchor_.records, s.start):
        if free(a, b):
            out.append(RecordClaim("name", a, b, s.text[a - s.start : b - s.start], finding))
            busy.append((a, b))
    # "The ticket has high priority" against the ticket's priority (checks/enums)
    for a, b, finding in graded_value(index, s.text, anchor_.records, s.start):
        if free(a, b):
            out.append(RecordClaim("state", a, b, s.text[a - s.start : b - s.start], finding))
            busy.append((a, b))
    # "HAT 023": an id the records hold as HAT023 (anchoring found it)
    for a, b, _ in anchor_.named:
        tok = s.text[a - s.start : b - s.start]
        if " " in tok and SPACED_ID.fullmatch(tok) and free(a, b):
            held = index.leaves((f"i:{tok.replace(' ', '').lower()}",))
            if held:
                out.append(RecordClaim("id", a, b, tok, _supported_id(index, tok, a, b, held[0])))
                busy.append((a, b))
    # ids: held by a record (supports), or shaped like the evidence's ids and held by none
    for m in _DIGIT_TOKEN.finditer(s.text):
        tok = m.group().rstrip(".")
        if len(tok) < 4 or not any(c.isdigit() for c in tok) or _DATE_TOKEN.match(tok):
            continue  # "2024-05-19" is a date (a figure), never an id
        a, b = s.start + m.start(), s.start + m.end()
        if not free(a, b):
            continue
        low = tok.lower()
        if _EXAMPLE.search(s.text, max(0, m.start() - 30), m.start()):
            continue  # 'a short code, e.g. "AB12CD"': an example, no record's id
        hits = index.leaves((f"i:{low}", f"i:{low.lstrip('#')}"))
        if not hits and "_" in low and (joined := _joined_id(s.text, m.start(), low, index)):
            # "your gift card_8541487": the id gift_card_8541487 with its first "_" as a space
            hits, at = joined
            a, tok = s.start + at, s.text[at : m.end()]
        # a tool's record of the id is better evidence than the user's message naming it
        hits = sorted(hits, key=lambda leaf: index.receipt_of(leaf).kind == "user")
        if hits:
            out.append(RecordClaim("id", a, b, tok, _supported_id(index, tok, a, b, hits[0])))
            busy.append((a, b))
        elif (key := id_key(tok, index)) is not None:
            rec = index.records_by_id[key][0]
            r = index.receipt_of(rec)
            f = record_fact("id", a, b, tok)
            m2 = Finding(
                "supported", r.id, r.kind, f"{r.id} {rec.path or 'record'} is {tok}", value=f
            )
            out.append(RecordClaim("id", a, b, tok, m2))
            busy.append((a, b))
        elif (unheld := _unheld_commit(index, s.text, tok, a, b)) is not None:
            out.append(unheld)
            busy.append((a, b))
        else:
            shape = id_shape(tok)
            known = index.id_shapes.get(shape)
            if (known and not tok.isdigit()) or (known and tok.isdigit() and len(tok) >= 6):
                out.append(_unknown_id(tok, a, b, sorted(known)))
                busy.append((a, b))
    # ids of capitals only where an id stands ("Reservation ID: UHDAHE", a list item of
    # one bold id): none held, where the evidence has record ids of that length
    for m in _CAPS_ID.finditer(s.text):
        g = 1 if m.group(1) else 2
        tok = m.group(g)
        a, b = s.start + m.start(g), s.start + m.end(g)
        if not free(a, b):
            continue
        held = index.leaves((f"i:{tok.lower()}", f"w:{tok.lower()}"))
        if not held and g == 2 and (tok.lower() in _CAPS_WORDS or tok.lower() in index.words):
            continue  # "**IMPORTANT**", "PENDING" alone in a line: a word in capitals
        if held:
            out.append(RecordClaim("id", a, b, tok, _supported_id(index, tok, a, b, held[0])))
            busy.append((a, b))
        elif forms := sorted(index.id_shapes.get(f"x{len(tok)}", ())):
            # "K7Q2XM", "M05KNL": the evidence's ids of this length mix capitals and
            # digits; one of capitals only is of that form too, and no record has it
            out.append(_unknown_id(tok, a, b, [k.upper() for k in forms]))
            busy.append((a, b))
    # e-mail addresses: held word for word by a receipt (a record, the user's message),
    # or, where the evidence holds addresses, by none of them
    for m in EMAIL.finditer(s.text):
        a, b = s.start + m.start(), s.start + m.end()
        if not free(a, b):
            continue
        out_email = email_claim(index, m.group(), a, b)
        if out_email is not None:
            out.append(out_email)
            busy.append((a, b))
    # ids with no digit that name a record ("Your reservation ID is HATHAT")
    for a, b, rec in anchor_.named:
        tok = s.text[a - s.start : b - s.start]
        if len(tok) >= 5 and tok.isalnum() and tok.isupper() and free(a, b):
            leaf = next((x for x in rec.leaves if x.value.shown.lower() == tok.lower()), None)
            if leaf is not None:
                out.append(RecordClaim("id", a, b, tok, _supported_id(index, tok, a, b, leaf)))
                busy.append((a, b))
    # states: a state word that the anchored records' state field holds, or contradicts
    low_text = s.text.lower()
    if states and anchor_.records and index.states:
        heads = state_heads(index)
        pairs = [fv for w in dict.fromkeys(words_of(low_text)) for fv in heads.get(w, ())]
        for fieldname, value in pairs:
            for m in word_pattern(value).finditer(low_text):
                a, b = s.start + m.start(), s.start + m.end()
                if not free(a, b) or _in_a_name(s.text, m.start(), m.end()):
                    continue
                reach = reports_state(low_text, m.start(), m.end(), record_nouns(index))
                if reach is None:
                    continue
                if reach == "all" and anchor_.how not in ("named", "section"):
                    continue  # "two pending orders": which two, the sentence does not say
                claim = state_claim(
                    index,
                    anchor_,
                    fieldname,
                    value,
                    a,
                    b,
                    s.text[m.start() : m.end()],
                    every=reach == "all",
                    attribute=reach in ("attribute", "all"),
                    said=low_text,
                )
                if claim is not None and (reach != "labelled" or claim.match.status == "supported"):
                    out.append(claim)
                    busy.append((a, b))
    # "you will receive the refund as a gift card": the method an action recorded
    for m in _METHOD.finditer(s.text) if anchor_.records else ():
        a, b = s.start + m.start(), s.start + m.end()
        if _SET_ASIDE.search(s.text, max(0, m.start() - 25), m.start()):
            continue  # "recorded against PayPal rather than a gift card": not the method
        if free(a, b) and (claim := _method_claim(index, anchor_, m.group(), a, b)) is not None:
            out.append(claim)
            busy.append((a, b))
    # "the payment was processed using your gift card": the method the paying call was given
    # and "Order #W5490111 was paid with your PayPal account": the payment its history holds
    named = [r for _, _, r in anchor_.named] if anchor_.how == "named" else []
    methods = paid_with(index, s.text, s.start) + recorded_payment(index, named, s.text, s.start)
    if anchor_.how in ("section", "previous"):
        # "- Paid with PayPal" under "2. Order #W7387996:" and its item's line: the order's
        under = list(dict.fromkeys(r.root for r in anchor_.records))
        methods += recorded_payment(index, under, s.text, s.start, right_after=True)
    for a, b, finding in methods:
        if free(a, b):
            out.append(RecordClaim("method", a, b, s.text[a - s.start : b - s.start], finding))
            busy.append((a, b))
    # "Dana Li, your order ...": a full name addressed at the start that shares a word
    # with a person of the records but is not that person
    addressed = _ADDRESSED.match(s.text) if index.people else None
    if addressed is not None:
        first, last = addressed.group(1).lower(), addressed.group(2).lower()
        shares = first in index.people_words or last in index.people_words
        a, b = s.start + addressed.start(1), s.start + addressed.end(2)
        if shares and f"{first} {last}" not in index.people and free(a, b):
            name = f"{addressed.group(1)} {addressed.group(2)}"
            out.append(unknown_name(index, a, b, name))
            busy.append((a, b))
    # "Passenger: Ivan Rebecca": a first name of a person of the records followed by a
    # word no record or message holds, or such a word before a person's last name
    for claim in half_known_names(s, index) if index.people else ():
        if free(claim.start, claim.end):
            out.append(claim)
            busy.append((claim.start, claim.end))
    # a name in address position ("Thanks, Mia!") must be the customer's
    if index.records_by_name:
        for m in _VOCATIVE.finditer(s.text):
            name = m.group(1) or m.group(2)
            g = 1 if m.group(1) else 2
            a, b = s.start + m.start(g), s.start + m.end(g)
            if not free(a, b):
                continue
            low = name.lower()
            if low in index.people_words:
                rec = next(iter(index.records_by_name.values()))[0]
                r = index.receipt_of(rec)
                f = record_fact("name", a, b, name)
                out.append(
                    RecordClaim(
                        "name",
                        a,
                        b,
                        name,
                        Finding("supported", r.id, r.kind, f"{r.id} names {name}", value=f),
                    )
                )
            elif low not in index.words and low not in index.user_words and index.people:
                out.append(unknown_name(index, a, b, name))
            busy.append((a, b))
    # values the anchored records hold ("Backpack - green, leather"): support
    if anchor_.records:
        out.extend(_values(s, anchor_, index, free, busy))
    # "Refund method: PayPal": a field restated as a label and a value that a record of
    # the evidence holds, whichever record the line is anchored to
    if not out:
        # "**Bags:** 1 checked | **Insurance:** Yes": each label of the line, with its value
        at = 0
        for part in _LABEL_PARTS.split(s.text):
            at = s.text.find(part, at)
            piece = dataclasses.replace(
                s, start=s.start + at, end=s.start + at + len(part), text=part
            )
            labelled = label_value(piece, index, anchor_.scope())
            if labelled is not None:
                out.append(labelled)
            at += len(part)
    return out


#: A capitalised word after another: "Running Shoes" (a name, not a state word).
_NEXT_CAPITAL = re.compile(r"[^\S\n]+[A-Z][a-z]")


def _in_a_name(text: str, start: int, end: int) -> bool:
    """Whether a state word is part of a name: capitalised inside a line ("includes
    Running Shoes") and followed by another capitalised word."""
    if not text[start : start + 1].isupper():
        return False
    line = text.rfind("\n", 0, start) + 1
    lead = text[line:start].strip(" *_#>•-:0123456789.)")
    return bool(lead) and _NEXT_CAPITAL.match(text, end) is not None


#: Where one line's labels part: "**Bags:** none; **Insurance:** none".
_LABEL_PARTS = re.compile(
    r"\s*[;|]\s*(?=\*\*[^*\n]{1,30}:?\*\*|[A-Za-z][\w'-]*(?:\s[\w'-]+){0,3}:\s)"
)


#: What a sentence sets aside before a method: "rather than a gift card", "instead of
#: PayPal", "not to your gift card".
_SET_ASIDE = re.compile(
    r"\b(?:rather\s+than|instead\s+of|not)\s+(?:to\s+|as\s+|onto\s+)?(?:a|an|the|your)?\s*$",
    re.IGNORECASE,
)


#: A commit's hash (7 to 40 hex digits, a letter and a digit among them) where the
#: sentence says it is one: "committed as 3f2a1bc", "commit 3f2a1bc", "SHA 3f2a1bc".
_HEX = re.compile(r"(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}")
_OF_COMMIT = re.compile(r"\b(?:commit(?:ted|s)?|sha|hash|revision|rev|HEAD|cherry-picked)\b", re.I)


def _unheld_commit(
    index: ReceiptIndex, sentence: str, tok: str, a: int, b: int
) -> RecordClaim | None:
    """A commit hash the sentence names: supported by the newest receipt that prints it (a
    short hash by one that prints the long one), unsupported when none does. ``None``
    when it is no commit's hash."""
    low = tok.lower()
    if not _HEX.fullmatch(low) or not _OF_COMMIT.search(sentence):
        return None
    f = record_fact("id", a, b, tok)
    held = next((e for e in reversed(index.entries) if low in e.text.lower()), None)
    if held is not None:
        # "The head commit is 9c1e4b7": the first digits of the sha a result prints
        r = held.receipt
        detail = f"{r.id} holds the commit {tok}"
        return RecordClaim("id", a, b, tok, Finding("supported", r.id, r.kind, detail, value=f))
    detail = f"no receipt holds the commit {tok}"
    return RecordClaim("id", a, b, tok, Finding("unsupported", None, None, detail, value=f))


def _unknown_id(tok: str, a: int, b: int, forms: list[str]) -> RecordClaim:
    """An id of a form the evidence's ids have that no record holds: contradicted."""
    f = record_fact("id", a, b, tok)
    detail = f"no record has the id {tok} (ids of that form here: {', '.join(forms[:3])})"
    return RecordClaim("id", a, b, tok, Finding("contradicted", None, None, detail, value=f))


def _supported_id(index: ReceiptIndex, tok: str, a: int, b: int, leaf: Leaf) -> Finding:
    r = index.receipt_of(leaf)
    line = evidence_line(index, leaf)
    return Finding("supported", r.id, r.kind, line, leaf.path, value=record_fact("id", a, b, tok))


#: Payment methods a sentence names, and the prefix of their ids in the records.
_METHOD = re.compile(r"\b(?:gift\s+card|paypal|credit\s+card)\b", re.IGNORECASE)


def _method_claim(
    index: ReceiptIndex, anchor_: Anchor, shown: str, a: int, b: int
) -> RecordClaim | None:
    """A payment method named for an action the records show done ("the refund as a gift
    card" after an exchange whose ``exchange_payment_method_id`` is ``paypal_2433177``):
    the action's own method field decides. No claim where no action recorded one (an
    offer, before the call, names any method the customer has)."""
    roots: list[Record] = []
    for rec in anchor_.records:
        root = rec.root
        if root not in roots:
            roots.append(root)
    fields = [
        leaf
        for rec in latest(index, roots)
        for leaf in rec.leaves
        # an action's own method ("exchange_payment_method_id"), not a payment's
        # "payment_method_id", which the underscore already leaves out
        if leaf.key.lower().endswith("_payment_method_id")
    ]
    if not fields:
        return None
    prefix = "_".join(shown.lower().split())
    f = record_fact("method", a, b, shown)
    held = [leaf for leaf in fields if leaf.value.shown.lower().startswith(prefix)]
    if held:
        return RecordClaim("method", a, b, shown, supported(index, f, held[-1]))
    leaf = fields[-1]
    r = index.receipt_of(leaf)
    detail = f"contradicts {evidence_line(index, leaf)}, claimed {shown}"
    return RecordClaim(
        "method", a, b, shown, Finding("contradicted", r.id, r.kind, detail, leaf.path, value=f)
    )


def _values(
    s: Sentence,
    anchor_: Anchor,
    index: ReceiptIndex,
    free: Callable[[int, int], bool],
    busy: list[tuple[int, int]],
) -> list[RecordClaim]:
    scope = anchor_.scope()
    out: list[RecordClaim] = []
    words = word_spans(s.text)
    heads = index.word_heads
    denial = denies(s.text)
    i = 0
    while i < len(words):
        if words[i][0] not in heads:
            i += 1
            continue
        for n in (4, 3, 2, 1):
            if i + n > len(words):
                continue
            phrase = " ".join(w[0] for w in words[i : i + n])
            if n == 1 and (len(phrase) < 3 or phrase in GENERIC or not content_words(phrase)):
                continue
            a, b = s.start + words[i][1], s.start + words[i + n - 1][2]
            if not free(a, b) or denial:
                continue  # "Not business class": a value denied, not restated (checks/enums)
            hit = next(
                (leaf for leaf in index.by_key.get(f"w:{phrase}", ()) if id(leaf.record) in scope),
                None,
            )
            if hit is not None:
                f = record_fact("value", a, b, s.text[words[i][1] : words[i + n - 1][2]])
                out.append(RecordClaim("value", a, b, f.text, supported(index, f, hit)))
                busy.append((a, b))
                i += n - 1
                break
        i += 1
    return out
