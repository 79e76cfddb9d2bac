"""What a record does not hold, and what a list holds how many of: "the departure time is
not provided in the reservation details" (:func:`absent_field`), "there are no gift cards
on your profile" (:func:`absent_value`), "it has no travel insurance"
(:func:`negated_field`), "I found 2 orders on your account" (:func:`list_count`),
"**Direct flights:** None available" (:func:`empty_label`).

Only structured results speak to what is absent (prose may omit what it holds); a record
that does hold it contradicts the sentence."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator

from receiptgate.checks.anchoring import Anchor
from receiptgate.checks.calls import failed, tool_calls
from receiptgate.checks.finding import Finding
from receiptgate.checks.words import GENERIC, content_words
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf, Record

#: A result with nothing in it.
EMPTY = frozenset({"[]", "{}", "null", "None", "[[]]"})

_NOT_PROVIDED = re.compile(
    r"\b(?:the\s+|your\s+)?(?:exact\s+|specific\s+|actual\s+)?(?P<what>[a-z][a-z _-]{2,40}?)\s+"
    r"(?:is|are|was|were)\s+not\s+(?:provided|listed|included|shown|specified|mentioned|"
    r"given|stated)\s+in\s+(?:the\s+|your\s+)?(?P<where>[a-z]+)\b",
    re.IGNORECASE,
)


def _plain(sentence: str) -> str:
    """The sentence without emphasis marks ("has **no** travel insurance")."""
    return sentence.replace("**", "").replace("__", "")


def absent_field(index: ReceiptIndex, sentence: str) -> Finding | None:
    """ "The exact departure time is not provided in the reservation details": the newest
    result of a call about reservations has no field of a departure time (supported), or
    has one (contradicted)."""
    m = _NOT_PROVIDED.search(sentence)
    if m is None:
        return None
    what = content_words(m.group("what")) - GENERIC or content_words(m.group("what"))
    where = content_words(m.group("where"))
    if not what or not where:
        return None
    for e in reversed(tool_calls(index)):
        if failed(e) or not e.records or not where <= e.context_words:
            continue
        return _held_or_absent(
            e,
            lambda leaf: what <= _path_words(leaf.path),
            f"no field of {m.group('what').strip()}",
        )
    return None


_NONE_ON = re.compile(
    r"\b(?:no|any)\s+(?P<what>[a-z][a-z -]{2,30}?)\s+(?:on|in|under|saved\s+(?:on|in|to))\s+"
    r"(?:your|the|this)\s+(?P<where>[a-z]+)\b"
    # "there's no phone number on file", "There is no credit card listed", "you do not have
    # a gift card on file"
    r"|\b(?:no|(?:do\s+not|don['’]t)\s+have\s+(?:a|an|any))\s+(?P<what2>[a-z][a-z -]{2,30}?)\s+"
    r"(?P<where2>on\s+file|listed)\b",
    re.IGNORECASE,
)

#: What a sentence calls the record a call returned ("your profile": a user's details;
#: what is "on file" or "listed" is the user's).
_RECORD_WORDS = {"profile": "user", "account": "user", "on file": "user", "listed": "user"}


def absent_value(index: ReceiptIndex, sentence: str) -> Finding | None:
    """ "There are no gift cards on your profile": the newest result about the user holds no
    field or value of a gift card (supported), or holds one (contradicted)."""
    m = _NONE_ON.search(_plain(sentence))
    if m is None:
        return None
    said = m.group("what") or m.group("what2")
    what = " ".join(w.rstrip("s") for w in said.lower().replace("-", " ").split())
    where = " ".join((m.group("where") or m.group("where2")).lower().split())
    where_words = content_words(_RECORD_WORDS.get(where, where))
    if not what or not where_words:
        return None
    e = _result_about(index, where_words)
    return _held_or_absent(e, _names(what), f"no {said.strip()}") if e is not None else None


def _result_about(index: ReceiptIndex, where_words: frozenset[str]) -> ReceiptEntry | None:
    """The newest structured result about ``where_words`` ("user"): the call names what it
    returned, or the result's own fields do ("user_id")."""
    for e in _structured_results(index):
        fields = content_words(" ".join(leaf.key for leaf in e.records[0].leaves))
        if where_words <= e.context_words or where_words <= fields:
            return e
    return None


#: "You have a gift card on file", "you have a PayPal account saved": one thing said held.
_HAS_ON_FILE = re.compile(
    r"\byou\s+(?:currently\s+|also\s+|already\s+)?have\s+(?:a|an|one)\s+"
    r"(?P<what>[a-z][a-z -]{2,30}?)\s+(?:on\s+file|saved|on\s+your\s+(?:account|profile))\b",
    re.IGNORECASE,
)


def held_on_file(index: ReceiptIndex, sentence: str) -> Finding | None:
    """ "You have a gift card on file": the newest result about the user holds a field or
    value of a gift card (supported), or holds none (contradicted); ``None`` with no such
    result."""
    m = _HAS_ON_FILE.search(_plain(sentence))
    if m is None:
        return None
    what = " ".join(w.rstrip("s") for w in m.group("what").lower().replace("-", " ").split())
    what = re.sub(r"\s+account$", "", what)  # "a PayPal account": paypal
    e = _result_about(index, _USER)
    if e is None:
        return None
    absent = _held_or_absent(e, _names(what), f"no {what}")
    if absent.status == "contradicted":  # a leaf holds it: what the sentence says
        return Finding("supported", absent.receipt_id, "tool", absent.detail[12:], absent.path)
    detail = f"contradicts {e.receipt.id} ({e.receipt.tool}): no {what} on file"
    return Finding("contradicted", e.receipt.id, "tool", detail)


_USER = content_words("user")


_HAS_NO = re.compile(
    r"(?:\b(?:has|have|had|with|without|includes?|included|there\s+(?:is|are|was|were)|"
    r"there['’]s)\s+(?:no|any)\s+|"
    # a line of a record's list: "- No travel insurance", "❌ No checked bags"
    r"^[^\w]*no\s+(?=[a-z -]{2,30}[.!]?$)|"
    # "This reservation doesn't have travel insurance"
    r"\b(?:doesn['’]t|does\s+not|didn['’]t|did\s+not|don['’]t|do\s+not)\s+"
    r"(?:have|include|come\s+with)\s+(?:any\s+)?)"
    r"(?P<what>[a-z][a-z -]{2,30}?)(?=[.,;:!?)]|\s+(?:on|in|for|and|but|so|with|"
    # "no travel insurance associated with this reservation"
    r"associated|attached|linked)\b|$)",
    re.IGNORECASE,
)

#: Words a sentence may add to a yes/no field's name ("no travel insurance").
_FILL = content_words("travel checked extra additional any purchased added left remaining")


def _path_words(path: str) -> frozenset[str]:
    return content_words(re.sub(r"[._\[\]\"]+", " ", path))


_NO_VALUES = frozenset({"no", "false", "none", "0", "n"})

_YES_VALUES = frozenset({"yes", "true", "y"})


def negated_field(
    index: ReceiptIndex, sentence: str, about: Anchor | None = None
) -> Finding | None:
    """ "The reservation has no travel insurance": the newest structured result with a field
    of that name says no (supported) or yes (contradicted). ``about``: what the sentence
    is about (its anchor), when it has records: a field of another record says nothing of
    this one. Where that is only the sentence before or the newest result and neither has
    the field, the newest result that has it may back the sentence ("Your atorvastatin has
    no refills remaining" after a look-up of appointments), never contradict it."""
    scope = about.scope() if about is not None else frozenset()
    found = _negated_field(index, sentence, scope)
    if found is None and about is not None and about.how not in ("named", "section"):
        loose = _negated_field(index, sentence, frozenset())
        return loose if loose is not None and loose.status == "supported" else None
    return found


def _negated_field(index: ReceiptIndex, sentence: str, scope: frozenset[int]) -> Finding | None:
    plain = _plain(sentence)
    m = _HAS_NO.search(plain)
    if m is not None:
        # "No baggage or insurance": each thing named has its own field
        named = _EITHER.split(m.group("what"))
    elif (label := _NO_LABEL.match(plain)) is not None:
        named = [label.group("what")]  # "Baggage: none", "| Travel insurance | Not selected |"
    else:
        return None
    found: list[Finding | None] = []
    for one in named:
        what = frozenset(_ONE_THING.get(w, w) for w in content_words(one) - GENERIC)
        said = _negated(index, what, scope) if what else None
        if said is not None and said.status == "contradicted":
            return said
        found.append(said)
    # backed when a field backs every thing it names: one no record tells of leaves the
    # line unsettled
    return found[0] if None not in found else None


#: Things a line denies together: "no baggage or insurance".
_EITHER = re.compile(r"\s*,\s*|\s+(?:or|and|nor)\s+", re.IGNORECASE)
#: A label whose value says none: "Baggage: none (no checked bags)", "| Travel insurance |
#: Not selected |".
_NO_LABEL = re.compile(
    r"^[\W_]*(?P<what>[A-Za-z][\w -]{2,30}?)[\s*_]*[:|][\s*_]*"
    r"(?:none|no|not\s+(?:selected|purchased|included|added|chosen|booked))\b"
    r"(?:\s*\([^()]{0,60}\))?[\s|.!]*$",
    re.IGNORECASE,
)


def _negated(index: ReceiptIndex, what: frozenset[str], scope: frozenset[int]) -> Finding | None:
    """What the newest structured result with a yes/no (or zero) field named ``what`` says
    of it: no (supported) or yes (contradicted)."""
    for e in _structured_results(index):
        for rec in e.records:
            if scope and id(rec) not in scope:
                continue
            prefixes = _key_prefixes(rec)
            for leaf in rec.leaves:
                # "exchange_price_difference" beside "exchange_items": a price difference
                # "total_baggages": 0 is "no checked bags" (a count's "total" is no word
                # of what it counts; a bag is baggage)
                key = _counted(content_words(leaf.key.replace("_", " ")) - prefixes)
                shown = leaf.value.shown.strip().lower()
                path = _counted(_path_words(leaf.path))
                if not key or not key <= what or not what - path <= _FILL:
                    continue  # "no cheaper options available" is no "available" field
                if leaf.value.number == 0 and leaf.value.kind in ("money", "number", "count"):
                    # "exchange_price_difference": 0.0 is none (a count of another field's
                    # row, "no economy seats" on another flight, is no contradiction here:
                    # which row the sentence names, this check does not read)
                    shown = "0"
                if shown not in _NO_VALUES | _YES_VALUES:
                    continue
                rid = e.receipt.id
                line = f"{rid} {leaf.path} = {leaf.value.shown}"
                if shown in _NO_VALUES:
                    return Finding("supported", rid, "tool", line, leaf.path)
                return Finding("contradicted", rid, "tool", f"contradicts {line}", leaf.path)
    return None


#: Words of a count's field that are no word of what it counts ("total_baggages").
_COUNT_WORDS = content_words("total number count num pct percent percentage amount")
#: One thing under two names, in a field and in a reply ("baggages", "bags").
_ONE_THING = {w: "bag" for w in content_words("baggage baggages luggage")}


def _counted(key: frozenset[str]) -> frozenset[str]:
    return frozenset(_ONE_THING.get(w, w) for w in key - _COUNT_WORDS) or key


def _key_prefixes(rec: Record) -> frozenset[str]:
    """The first words that two or more of a record's keys share ("exchange" of
    "exchange_items", "exchange_price_difference"): a group's name, no word of the field."""
    firsts: dict[str, int] = {}
    for leaf in rec.leaves:
        head, sep, _ = leaf.key.partition("_")
        if sep:
            firsts[head.lower()] = firsts.get(head.lower(), 0) + 1
    return content_words(" ".join(w for w, n in firsts.items() if n >= 2))


_NONE_LABEL = re.compile(
    r"^[\W_]*(?P<label>[A-Za-z][\w -]{2,40}?)[\W_]*:[\W_]*"
    r"(?P<value>none(?:\s+(?:available|found|started|yet|so\s+far))*|"
    r"no(?:thing)?(?:\s+(?:available|found|yet))*|0|zero|not\s+available|n/a)[\W_]*$",
    re.IGNORECASE,
)


def empty_label(index: ReceiptIndex, sentence: str) -> Finding | None:
    """ "**Direct flights:** None available": a search the label names (every word of it in
    the tool's name, ``search_direct_flight``) found nothing."""
    m = _NONE_LABEL.match(sentence)
    if m is None:
        return None
    words = [w.rstrip("s") for w in re.findall(r"[a-z]+", m.group("label").lower())]
    if not words:
        return None
    for e in reversed(tool_calls(index)[-8:]):
        name = re.sub(r"[^a-z]", "", (e.receipt.tool or "").lower())
        if not name or not all(w in name for w in words):
            continue
        content = e.receipt.content.strip()
        if failed(e) or content not in EMPTY:
            return None  # the newest such search found something
        rid = e.receipt.id
        return Finding("supported", rid, "tool", f"{rid}: the {e.receipt.tool} found nothing")
    return _empty_field(index, m.group("label"))


def _empty_field(index: ReceiptIndex, label: str) -> Finding | None:
    """ "Address line 2: (none)": the newest result with a field the label names (every
    word and number of the field's name in the label: ``address2``) holds it empty. The
    records leave empty values out, so the result's own JSON is read."""
    # "Fulfillment: none" of a "fulfillments" list: one word, singular or plural
    said = {w.rstrip("s") for w in re.findall(r"[a-z]+|\d+", label.lower())}
    for e in list(_structured_results(index))[:8]:
        if e.format != "json":
            continue
        try:
            tree = json.loads(e.receipt.content)
        except (ValueError, RecursionError):
            continue
        for path, value in _fields(tree, ""):
            parts = [
                w.rstrip("s") for w in re.findall(r"[a-z]+|\d+", path.rsplit(".", 1)[-1].lower())
            ]
            if parts and set(parts) <= said and len(parts) * 2 >= len(said):
                if value not in ("", None, [], {}):
                    return None  # the field holds a value: not this check's to judge
                rid = e.receipt.id
                return Finding("supported", rid, "tool", f"{rid} {path} is empty", path)
    return None


def _fields(node: object, path: str, depth: int = 0) -> Iterator[tuple[str, object]]:
    """Every field of a JSON tree with its path (down to 32 levels: a tool's result nested
    deeper than that is read no further, never a crash)."""
    if depth > 32:
        return
    if isinstance(node, dict):
        for k, v in node.items():
            here = f"{path}.{k}" if path else str(k)
            yield here, v
            yield from _fields(v, here, depth + 1)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _fields(v, f"{path}[{i}]", depth + 1)


def _structured_results(index: ReceiptIndex) -> Iterator[ReceiptEntry]:
    """The calls that returned records, newest first: only a record's fields say what it
    does not hold (prose may omit it)."""
    for e in reversed(tool_calls(index)):
        if not failed(e) and e.records and e.format != "text":
            yield e


def _held_or_absent(e: ReceiptEntry, holds: Callable[[Leaf], bool], absent: str) -> Finding:
    """A result's first leaf that ``holds`` contradicts a sentence saying it is absent;
    none backs it (``absent``: what the evidence line says is missing)."""
    rid = e.receipt.id
    for rec in e.records:
        for r in rec.subtree():
            for leaf in r.leaves:
                if holds(leaf):
                    detail = f"contradicts {rid} {leaf.path} = {leaf.value.shown}"
                    return Finding("contradicted", rid, "tool", detail, leaf.path)
    return Finding("supported", rid, "tool", f"{rid} ({e.receipt.tool}): {absent}")


def _names(what: str) -> Callable[[Leaf], bool]:
    """Whether a leaf's field or value names ``what`` ("gift card": ``gift_card_1``)."""
    named = re.compile(rf"\b{re.escape(what)}")

    def holds(leaf: Leaf) -> bool:
        text = f"{leaf.path} {leaf.value.shown}".lower().replace("_", " ")
        return named.search(text) is not None

    return holds


#: "Order #W1 has no garden hose", "#W1 does not contain a garden hose", "the hose isn't
#: in order #W1": a thing said not to be among a named record's items.
_NOT_AMONG = re.compile(
    r"\b(?:has|have|had|contains?|includes?)\s+no\s+(?:an?\s+)?(?P<a>[a-z][a-z -]{2,30}?)"
    r"(?=[.,;:!?)]|\s+(?:on|in|and|but|so)\b|$)"
    r"|\b(?:doesn['’]t|does\s+not|didn['’]t|did\s+not)\s+(?:contain|include|have)\s+"
    r"(?:an?\s+|any\s+)?(?P<b>[a-z][a-z -]{2,30}?)(?=[.,;:!?)]|\s+(?:on|in|and|but|so)\b|$)",
    re.IGNORECASE,
)

#: Fields that name an item of a list: an order's items, a cart's products.
_ITEM_NAME_KEYS = frozenset({"name", "product_name", "title", "item_name"})


def absent_item(index: ReceiptIndex, sentence: str) -> Finding | None:
    """ "Order #W5565470 does not contain a garden hose": the items of the record the
    sentence names by id hold no such name (supported), or one does (contradicted)."""
    m = _NOT_AMONG.search(_plain(sentence))
    if m is None:
        return None
    what = content_words(m.group("a") or m.group("b")) - GENERIC
    rec = _named_by_id(index, sentence)
    if not what or rec is None:
        return None
    names = [
        leaf
        for child in rec.subtree()
        if child is not rec
        for leaf in child.leaves
        if leaf.key.lower() in _ITEM_NAME_KEYS
    ]
    if not names:
        return None
    rid = index.receipt_of(rec).id
    for leaf in names:
        if what <= content_words(leaf.value.shown):
            detail = f"contradicts {rid} {leaf.path} = {leaf.value.shown}"
            return Finding("contradicted", rid, "tool", detail, leaf.path)
    listed = ", ".join(dict.fromkeys(leaf.value.shown for leaf in names))
    return Finding("supported", rid, "tool", f"{rid} {rec.path or 'record'} holds only: {listed}")


_ID_TOKEN = re.compile(r"#?[A-Za-z0-9][A-Za-z0-9_-]{3,}")


def _named_by_id(index: ReceiptIndex, sentence: str) -> Record | None:
    """The newest record the sentence names by an id with a digit ("#W5565470")."""
    for m in _ID_TOKEN.finditer(sentence):
        tok = m.group().lower()
        if not any(c.isdigit() for c in tok):
            continue
        for key in (tok, tok.lstrip("#")):
            recs = index.records_by_id.get(key)
            if recs:
                return max(recs, key=index.position)
    return None


#: A term the sentence quotes: "Google Home", 'sample.txt'.
_QUOTED = re.compile(r"[\"“”]([^\"“”\n]{2,40})[\"“”]")


def absent_quoted(index: ReceiptIndex, sentence: str) -> Finding | None:
    """ "There's no option labelled "Google Home"": a term the sentence quotes that no tool
    result holds (the user's word, not the catalogue's) backs its absence. A term a result
    holds is left to the other checks."""
    terms = [t.strip().lower() for t in _QUOTED.findall(sentence)]
    calls = tool_calls(index)
    if not terms or not calls:
        return None
    for term in terms:
        if any(term in e.text for e in calls):
            return None
    rid = calls[-1].receipt.id
    return Finding("supported", rid, "tool", f"no tool result holds {terms[0]!r}")


def null_field(index: ReceiptIndex, thing: str) -> Finding | None:
    """ "Issue #482 has no assignee yet": the newest result that has a field of that name
    holds null, or an empty list, there (supported), or a value (contradicted); ``None``
    when no result has such a field."""
    words = re.findall(r"[a-z]+", thing.lower())
    if not words or len(words) > 3:
        return None
    key = "_".join(words)
    field = re.compile(rf'"{key}s?"\s*:\s*(\[\s*\]|\{{\s*\}}|"[^"]*"|[\w.-]+|[\[{{])', re.I)
    for e in reversed(index.entries):
        if e.receipt.kind != "tool" or failed(e):
            continue
        m = field.search(e.receipt.content)
        if m is None:
            continue
        rid = e.receipt.id
        held = m.group(1).strip('"').lower()
        if held in _NONE_HELD or re.fullmatch(r"\[\s*\]|\{\s*\}", held):
            return Finding("supported", rid, "tool", f"{rid} {key} = {m.group(1)} (none)")
        if held in ("[", "{") or (held and held not in _NO_WORDS):
            return Finding("contradicted", rid, "tool", f"contradicts {rid}: {key} holds a value")
        return None  # ("insurance": "no", false, 0: none either, in words the sentence uses)
    return None


#: What a field holds when there is none of it.
_NONE_HELD = frozenset({"null", "", "none"})
#: Values that say no in words: no contradiction of "has no ...", no support either.
_NO_WORDS = frozenset({"no", "false", "0", "n/a", "na"})
