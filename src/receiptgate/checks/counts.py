"""Counts a reply states, against the lists and rows of the records.

- "I found 5 orders on your account": the length of the newest list named for what is
  counted (:func:`list_count`); spelled ("Two orders") and vague ("several
  reservations") counts too, contradicted only where the sentence says what the
  customer has (:func:`spelled_count`);
- "2 gift cards": the rows of one object whose kind field (``"source": "gift_card"``)
  holds the noun (:func:`kind_count`), contradicted only where the user is said to have
  them ("you have 3 gift cards"), never after a bound ("at most 3 gift cards").
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import READ_TOOL, failed
from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf, Record

#: A count no list of a result is compared with: a table's size, a threshold.
NO_LIST_THAT_LONG = 10_000


def list_count(index: ReceiptIndex, h: HardFact, before: str = "") -> Finding | None:
    """ "I found 5 orders on your account": the length of the newest list field named for
    what is counted (``"orders": [...]`` of the user's details). Another length contradicts
    the count, unless the words ``before`` it make it one that would be ("if we split
    into 2 reservations"); ``None`` when no result has such a list."""
    if h.kind != "count" or h.number is None or not h.unit or h.number >= NO_LIST_THAT_LONG:
        return None  # ("tables over 1 million rows": no list a result shows)
    found = counted_list(index, h.unit, h.number)
    if found is None:
        return None
    rid, field, n = found
    if n == h.number:
        return Finding("supported", rid, "tool", f"{rid} {field} lists {n}", field, value=h)
    if _WOULD_BE.search(before):
        return None
    if _field_holds(index, h.unit, h.number):
        return None  # "4 credits" of a section's "credits": 4, not the list of credits
    detail = f"contradicts {rid}: {field} lists {n}, claimed {h.text}"
    return Finding("contradicted", rid, "tool", detail, field, value=h)


def _field_holds(index: ReceiptIndex, unit: str, number: float) -> bool:
    """Whether a field named for the unit ("credits", "credit") holds the number."""
    low = unit.lower()
    for key in {low, f"{low}s", low.rstrip("s")}:
        if any(leaf.value.number == number for leaf in index.by_field.get(key, ())):
            return True
    return False


def subset_count(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """ "you have 5 business class reservations", "All 5 reservations downgraded from
    business": of the ids a list holds (the user's 6 reservations), those whose records
    hold a word the sentence qualifies them by (``"cabin": "business"``), as many as
    the count; ``None`` when no word of the sentence picks that many."""
    if h.kind != "count" or h.number is None or h.number < 1:
        return None
    after = sentence[at + len(h.text) :]
    noun_m = _PLURAL_AFTER.match(after)
    noun = noun_m.group(1) if noun_m is not None else (h.unit or "")
    ids = _listed_ids(index, noun)
    if len(ids) <= h.number:
        return None
    words = {w for w in _WORD.findall(sentence.lower()) if w not in _NOT_A_QUALIFIER}
    words.discard(noun.lower())
    words.discard(noun.lower().rstrip("s"))
    for word in sorted(words):
        holding = [i for i in ids if _holds(index, i, word)]
        if len(holding) == h.number:
            rid = index.receipt_of(index.records_by_id[holding[0]][0]).id
            detail = f"{rid}: {len(holding)} of the {len(ids)} {noun} hold {word!r}"
            return Finding("supported", rid, "tool", detail, value=h)
    # "All 5 reservations have been downgraded": those the agent's calls changed
    acted = [i for i in ids if _acted_on(index, i)]
    if len(acted) == h.number and _DONE.search(sentence):
        rid = index.receipt_of(index.records_by_id[acted[0]][0]).id
        detail = f"{rid}: calls changed {len(acted)} of the {len(ids)} {noun}"
        return Finding("supported", rid, "tool", detail, value=h)
    return None


#: Words of a change made: "have been downgraded", "were cancelled", "updated".
_DONE = re.compile(r"\b\w{3,}ed\b")


def _acted_on(index: ReceiptIndex, ident: str) -> bool:
    """Whether a successful call that changes things (no look-up) named ``ident``."""
    for entry in index.entries:
        r = entry.receipt
        if r.kind != "tool" or not r.tool or READ_TOOL.match(r.tool) or failed(entry):
            continue
        if ident in str(r.args or "").lower():
            return True
    return False


#: The plural noun a count qualifies: "5 business class reservations".
_PLURAL_AFTER = re.compile(r"(?:[\s*_]+[A-Za-z-]+){0,2}?[\s*_]+([a-z]{2,}[a-rt-z]s)\b")
_WORD = re.compile(r"[a-z]{4,}")
_NOT_A_QUALIFIER = frozenset(
    "have your with that this these those there their they from into been will were "
    "which what when where than then them also just only each both more most some "
    "total class".split()
)


def _listed_ids(index: ReceiptIndex, noun: str) -> list[str]:
    """The ids the newest list named for ``noun`` holds, where records have them."""
    lists = list(_value_lists(index, noun).values())
    best = max(lists, key=lambda v: index.position(v[0]), default=[])
    return [
        k
        for leaf in best
        if (k := leaf.value.shown.lower().lstrip("#")) in index.records_by_id
        or (k := leaf.value.shown.lower()) in index.records_by_id
    ]


def _holds(index: ReceiptIndex, ident: str, word: str) -> bool:
    """Whether any record of the id holds ``word`` as a value ("business" of a cabin)."""
    for rec in index.records_by_id[ident]:
        for leaf in rec.leaves:
            if (
                leaf.value.kind == "word"
                and word in leaf.value.shown.lower().replace("_", " ").split()
            ):
                return True
    return False


def _value_lists(index: ReceiptIndex, noun: str) -> dict[int, list[Leaf]]:
    """The lists of values named for ``noun`` ("reservations": [...]), by record: the
    items of such a list are filed under the list's field name."""
    base = noun.lower().rstrip("s")
    items: dict[int, list[Leaf]] = {}
    for key in (base, f"{base}s", f"{base}es"):
        for leaf in index.by_field.get(key, ()):
            rec = leaf.record
            if leaf.path.startswith(f"{rec.path}.{leaf.key}[" if rec.path else f"{leaf.key}["):
                items.setdefault(id(rec), []).append(leaf)
    return items


def counted_list(index: ReceiptIndex, unit: str, number: float) -> tuple[str, str, int] | None:
    """The newest list named for what ``unit`` counts: (receipt id, field, length). A list
    of values under that name first; else a list of objects of ``number`` rows, or the
    only list of them (there may be other orders, other reservations)."""
    noun = unit.split()[-1].lower().rstrip("s")
    items = _value_lists(index, noun)
    lists = [
        (index.position(v[0]), v[0].record, v[0].key, len(v))
        for v in items.values()
        if not failed(index.entries[index.position(v[0])])
    ]
    if not lists:
        objects = _object_lists(index, noun)
        same = [x for x in objects if x[3] == number]
        lists = same[-1:] or (objects if len(objects) == 1 else [])
    if not lists:
        return None
    at, rec, key, n = max(lists, key=lambda x: x[0])
    field = f"{rec.path + '.' if rec.path else ''}{key}"
    return index.entries[at].receipt.id, field, n


#: Words that make a count one that would be, not one there is: "if we split into 2
#: reservations", "you could book 3 reservations".
_WOULD_BE = re.compile(r"\b(?:if|would|could|might|into|instead)\b", re.IGNORECASE)

#: A spelled count before a plural noun: "Two orders on your account".
_SPELLED_COUNT = re.compile(
    r"\b(?P<n>one|two|three|four|five|six|seven|eight|nine|ten|both)\s+(?P<noun>[a-z]{3,}s)\b",
    re.IGNORECASE,
)
#: A spelled count of a two-word kind: "two vacuum cleaners", "three gift cards".
_SPELLED_KIND = re.compile(
    r"\b(?P<n>one|two|three|four|five|six|seven|eight|nine|ten)\s+[a-z]{3,}[\s_-]+[a-z]{3,}s\b",
    re.IGNORECASE,
)
#: Counts a sentence spells (checks/record_states counts records in a state by them too).
SPELLED_COUNTS = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "both": 2,
}  # fmt: skip


def spelled_count(index: ReceiptIndex, sentence: str) -> Finding | None:
    """ "Two orders on your account." with no figure the scanner reads (a spelled number
    is no hard fact): the list of orders backs it when it has two. A spelled number is
    too often a manner of speech ("two options", "one of them") to contradict, except
    where the sentence says what the customer has ("You have three orders on file",
    "your account has two reservations"): a list of another length contradicts that."""
    for m in _SPELLED_COUNT.finditer(sentence):
        n = SPELLED_COUNTS[m.group("n").lower()]
        noun = m.group("noun").lower()
        h = HardFact("count", m.group(0), m.start(), m.end(), f"{n} {noun}", float(n), noun)
        # "two orders on your account" (a list), "two vacuum cleaners in your order" (the
        # rows of one kind)
        found = list_count(index, h) or kind_count(index, h, sentence, m.start())
        if found is None:
            continue
        if found.status == "supported" or _HAS.search(sentence, 0, m.start()):
            return found
    for m in _SPELLED_KIND.finditer(sentence):
        # "two vacuum cleaners in your order": rows whose name is "Vacuum Cleaner"
        n = SPELLED_COUNTS[m.group("n").lower()]
        h = HardFact("count", m.group(0), m.start(), m.end(), m.group(0).lower(), float(n))
        found = kind_count(index, h, sentence, m.start())
        if found is not None:
            return found  # contradicted only where the customer is said to have them
    for m in _VAGUE_COUNT.finditer(sentence):
        # "You have several reservations": a list of three or more backs it; one of one
        # contradicts it where the sentence says what the customer has
        low, high = _VAGUE[" ".join(m.group("q").lower().split())]
        noun = m.group("noun").lower()
        listed = counted_list(index, noun, low)
        if listed is None:
            continue
        rid, field, n = listed
        if low <= n <= high:
            detail = f"{rid} {field} lists {n}: {m.group('q').lower()}"
            return Finding("supported", rid, "tool", detail, field)
        if _HAS.search(sentence, 0, m.start()):
            detail = f"contradicts {rid}: {field} lists {n}, claimed {m.group(0)}"
            return Finding("contradicted", rid, "tool", detail, field)
    return None


#: A count said without a number: "several reservations", "a couple of orders".
_VAGUE_COUNT = re.compile(
    r"\b(?P<q>several|multiple|many|numerous|a\s+few|a\s+couple\s+of)\s+"
    # "several recent orders": a word of when or which before what is counted
    r"(?:(?:recent|past|previous|older|earlier|other|existing|current)\s+)?(?P<noun>[a-z]{3,}s)\b",
    re.IGNORECASE,
)
#: The numbers each such word allows.
_VAGUE = {
    "several": (3, 99), "multiple": (2, 99), "many": (4, 999), "numerous": (4, 999),
    "a few": (2, 5), "a couple of": (2, 3),
}  # fmt: skip


#: What the customer has, right before a count: "You have three orders", "your account
#: has two reservations", "I can see four orders".
_HAS = re.compile(
    r"\b(?:you\s+(?:currently\s+)?have|(?:account|profile)\s+(?:has|holds|lists|shows)|"
    r"(?:i\s+)?(?:can\s+)?see)\s+(?:only\s+|just\s+)?$",
    re.IGNORECASE,
)


def _object_lists(index: ReceiptIndex, noun: str) -> list[tuple[int, Record, str, int]]:
    """(position, parent record, field, length) of each list of objects filed under the
    noun ("items", "orders") in a result that did not fail (once per index and noun)."""
    cache_key = f"object_lists:{noun}"
    cached = index.cache.get(cache_key)
    if isinstance(cached, list):
        return cached
    names = (noun, f"{noun}s", f"{noun}es")
    out: list[tuple[int, Record, str, int]] = []
    for at, e in enumerate(index.entries):
        if e.receipt.kind != "tool" or failed(e):
            continue
        lists = _entry_lists(e)
        out.extend((at, parent, key, n) for name in names for parent, key, n in lists.get(name, ()))
    index.cache[cache_key] = out
    return out


#: A row of a list ("items[2]") or of an object keyed by its rows' ids
#: ('variants["9612497925"]').
_LIST_ROW = re.compile(r"(?:^|\.)([A-Za-z_][\w -]*)(?:\[\d+\]|\[\"[^\"]*\"\])$")


def _entry_lists(e: ReceiptEntry) -> dict[str, list[tuple[Record, str, int]]]:
    """A result's lists of objects by field name (lowercase): (parent, field, length);
    kept with the result's records."""
    found = e.memo.get("object_lists")
    if isinstance(found, dict):
        return found
    counted: dict[tuple[int, str], tuple[Record, str, int]] = {}
    for rec in e.records:
        m = _LIST_ROW.search(rec.path)
        if m is not None and rec.parent is not None:
            at = (id(rec.parent), m.group(1))  # a parent's "flights" and its "passengers"
            parent, key, n = counted.get(at, (rec.parent, m.group(1), 0))
            counted[at] = (parent, key, n + 1)
    lists: dict[str, list[tuple[Record, str, int]]] = {}
    for parent, key, n in counted.values():
        lists.setdefault(key.lower(), []).append((parent, key, n))
    e.memo["object_lists"] = lists
    return lists


# ------------------------------------------------------------------ rows of a kind

#: The words after a count: "gift cards", "travel certificates", "credit cards on file".
_NOUN = re.compile(
    r"[\w.,]+\s*(?:[*_]+\s*)?([A-Za-z]+)(?:[\s_-]+([A-Za-z]+))?(?:[\s_-]+([A-Za-z]+))?"
)
#: A bound before the count ("max 3 gift cards" per reservation): a rule, not the rows.
_LIMIT = re.compile(
    r"\b(?:max(?:imum)?|up\s+to|at\s+most|no\s+more\s+than|limit(?:ed)?(?:\s+(?:of|to))?|"
    r"only|min(?:imum)?|at\s+least)[\s:*_]*$",
    re.IGNORECASE,
)
#: A count of what the user holds: "you have 3 gift cards", "your 2 certificates".
_HELD = re.compile(
    r"\b(?:(?:you|user|customer|account|profile)\s+(?:ha(?:ve|s)|holds?|owns?)|your|there\s+are)"
    r"[\s*_]*(?:only\s+|just\s+)?$",
    re.IGNORECASE,
)
#: Fields that say what kind of thing a row is.
_KIND_KEYS = frozenset({"source", "type", "kind", "category", "method", "name"})


def kind_count(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """The number of rows of the kind the words after the count name (``at``: where the
    count starts in ``sentence``), in the newest result that has rows of that kind.
    Another number contradicts it only when the sentence says the user has that many
    ("you have 3 gift cards")."""
    if h.kind != "count" or h.number is None or _LIMIT.search(sentence, 0, at):
        return None
    m = _NOUN.match(sentence, at)
    if m is None:
        return None
    words = [w.lower() for w in m.groups() if w]
    for e in reversed(index.entries):
        if e.receipt.kind != "tool" or failed(e):
            continue
        for (field, kind), n in _entry_kinds(e).items():
            if _names(words, kind):
                rid = e.receipt.id
                where = f"{n} rows with {field} = {kind}"
                if n == h.number:
                    return Finding("supported", rid, "tool", f"{rid} {where}", value=h)
                if not _HELD.search(sentence, 0, at):
                    # "use 2 certificates instead of 1", a list of what the rules allow:
                    # a count of what is used or allowed, not of what the user holds
                    return None
                detail = f"contradicts {rid}: {where}, claimed {h.text}"
                return Finding("contradicted", rid, "tool", detail, value=h)
    return None


def state_count(index: ReceiptIndex, h: HardFact, sentence: str, at: int) -> Finding | None:
    """The number of rows of one list whose state the counted word names ("It has 2
    approvals" of two reviews in state APPROVED beside one COMMENTED; "3 failures"),
    in the newest result with such rows; only support (a count of other rows, or of
    rows the records do not list, stays without a receipt)."""
    if h.kind != "count" or h.number is None or _LIMIT.search(sentence, 0, at):
        return None
    m = _NOUN.match(sentence, at)
    if m is None:
        return None
    said = [w.lower() for w in m.groups()[:2] if w and len(w) >= 5]
    heads = {w[:5] for w in said}
    if not heads:
        return None
    # "2 unpaid bills" of one unpaid and one overdue: the states the word covers
    from receiptgate.checks.record_states import STATE_UMBRELLAS  # (it reads counts)

    covered = {v for w in said for v in STATE_UMBRELLAS.get(w, ())}
    for e in reversed(index.entries):
        if e.receipt.kind != "tool" or failed(e):
            continue
        by_field: dict[str, list[tuple[str, int]]] = {}
        for (field, value), n in _entry_states(e).items():
            if value[:5] in heads or value in covered:
                by_field.setdefault(field, []).append((value, n))
        for field, held in by_field.items():
            if sum(n for _, n in held) == h.number:
                rid = e.receipt.id
                values = " or ".join(v for v, _ in held)
                detail = f"{rid} {int(h.number)} rows with {field} = {values}"
                return Finding("supported", rid, "tool", detail, value=h)
    return None


def _entry_states(e: ReceiptEntry) -> dict[tuple[str, str], int]:
    """How many rows of one list hold each value of a state field (``reviews[*].state``,
    ``approved``), of a result, kept with it."""
    found = e.memo.get("row_states")
    if isinstance(found, dict):
        return found
    out: dict[tuple[str, str], int] = {}
    seen: set[int] = set()
    for root in e.records:
        for rec in root.subtree():
            if rec.parent is None or not rec.path.endswith("]") or id(rec) in seen:
                continue
            seen.add(id(rec))
            for leaf in rec.leaves:
                if leaf.value.kind != "word" or not set(leaf.words[:1]) & _STATE_KEYS:
                    continue
                value = leaf.value.shown.strip().lower()
                if 0 < len(value) <= 30:
                    key = (f"{_rows_of(rec.path)}.{leaf.key}", value)
                    out[key] = out.get(key, 0) + 1
    e.memo["row_states"] = out
    return out


#: Fields of a row's state or outcome (a review's "state", a check run's "conclusion").
_STATE_KEYS = frozenset({"state", "status", "conclusion", "result", "outcome", "health"})


def _names(words: list[str], kind: str) -> bool:
    """Whether the counted words ("gift", "cards") name a kind ("gift_card"): its words,
    the last one in the plural."""
    parts = kind.split("_")
    if len(words) < len(parts):
        return False
    said = words[: len(parts)]
    last = said[-1]
    singular = last[:-2] if last.endswith("es") and last[:-2] == parts[-1] else last.rstrip("s")
    return said[:-1] == parts[:-1] and singular == parts[-1] and last != parts[-1]


def _entry_kinds(e: ReceiptEntry) -> dict[tuple[str, str], int]:
    """:func:`_kinds` of a result's records, kept with them."""
    found = e.memo.get("row_kinds")
    if not isinstance(found, dict):
        found = e.memo["row_kinds"] = _kinds(e.records)
    return found


def _kinds(records: list[Record]) -> dict[tuple[str, str], int]:
    """How many rows of one object (of two or more rows) hold each value of a kind field,
    by (the rows' field, as ``payment_methods.*.source``, the value); the first object
    of each field only."""
    out: dict[tuple[str, str], int] = {}
    owner: dict[str, int] = {}
    for rec in records:
        parent = rec.parent
        if parent is None or len(parent.children) < 2:
            continue
        for leaf in rec.leaves:
            if leaf.key.lower() not in _KIND_KEYS or leaf.value.kind in ("money", "number"):
                continue
            value = leaf.value.shown.strip().lower().replace(" ", "_")
            field = f"{_rows_of(rec.path)}.{leaf.key}"
            if not value or len(value) > 40 or owner.setdefault(field, id(parent)) != id(parent):
                continue
            out[(field, value)] = out.get((field, value), 0) + 1
    return out


def _rows_of(path: str) -> str:
    """``payment_methods.gift_card_1`` -> ``payment_methods.*``, ``items[2]`` -> ``items[*]``."""
    if path.endswith("]"):
        return path[: path.rindex("[")] + "[*]"
    return path.rsplit(".", 1)[0] + ".*" if "." in path else "*"


#: A small count before what it counts, with up to two words between: "1 checked bag",
#: "2 passengers"; and a label of one: "Number of passengers: 3", "| Number of passengers | 3 |".
_SMALL_COUNT = re.compile(
    r"(?<![\d$€£.,:])\b(?P<n>\d{1,2})\s+(?P<what>(?:[a-z][a-z-]*\s+){0,2}[a-z]{3,})\b(?![\d:])"
    r"|\bnumber\s+of\s+(?P<what2>[a-z]{3,})[\s*_|:]+(?P<n2>\d{1,2})\b"
    # "Baggage: No checked bags": none, a count of 0
    r"|\b(?P<none>no)\s+(?P<what3>(?:[a-z][a-z-]*\s+)?[a-z]{3,})\b",
    re.IGNORECASE,
)


#: Words of a count field's name that say it counts all of them ("total_baggages").
_PLAIN_COUNT = frozenset({"total", "count", "number", "num", "n"})


def field_count(index: ReceiptIndex, sentence: str, records: list[Record]) -> Finding | None:
    """ "Currently, your reservation includes 1 checked bag", "Number of passengers: 3" in a
    sentence with no figure of its own: a number field of a record in scope whose name
    shares a word with what is counted (``"total_baggages": 1``), or the list it is named
    for (three passengers), holding the count; ``records``: the sentence's anchor. Only
    backs: another number there may be another count of the same thing
    (``nonfree_baggages``), so none contradicts."""
    if not records:
        return None
    results = list(dict.fromkeys(rec.root for rec in records))
    flat = re.sub(r"[\s_-]+", "", sentence.lower())
    for m in _SMALL_COUNT.finditer(sentence):
        if m.group("none") and sentence[m.end() :].strip(" .!*_|"):
            continue  # "No checked bags, travel insurance included": more than the count
        n = 0 if m.group("none") else int(m.group("n") or m.group("n2"))
        what = m.group("what") or m.group("what2") or m.group("what3")
        words = [w.lower().rstrip("s") for w in what.split()]
        noun = words[-1]
        for leaf in (x for rec in results for x in rec.subtree_leaves()):
            if leaf.value.number != n or leaf.value.kind not in ("number", "count"):
                continue
            keys = [k.rstrip("s") for k in leaf.key.lower().replace("-", "_").split("_") if k]
            named = [
                k
                for k in keys
                if any(len(w) >= 3 and (k.startswith(w) or w.startswith(k)) for w in words)
            ]
            # "nonfree_baggages": 0 counts some of the bags; "No checked bags" says nothing
            # of which, so only a field the sentence qualifies as it does ("0 non-free")
            qualified = [k for k in keys if k not in named and k not in _PLAIN_COUNT]
            if named and all(k in flat for k in qualified):
                rid = index.receipt_of(leaf).id
                return Finding("supported", rid, "tool", f"{rid} {leaf.path} = {n}", leaf.path)
        found = counted_list(index, noun, n)
        if found is not None and found[2] == n:
            rid, where, _ = found
            return Finding("supported", rid, "tool", f"{rid} {where} lists {n}", where)
    return None
