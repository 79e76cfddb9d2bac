"""What a value is about: its field and its row, or in prose the words around it, and
the call it came from; whether that meets what a sentence says of a figure
(checks/figures)."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from receiptgate.checks.rows import row_text
from receiptgate.checks.words import GENERIC, content_words
from receiptgate.claims.hard import DEADLINE_WORDS
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex
from receiptgate.evidence.records import Leaf, Record
from receiptgate.evidence.values import key_words


@functools.lru_cache(maxsize=8192)
def _stems(words: tuple[str, ...]) -> frozenset[str]:
    return content_words(" ".join(words))


def field_words(leaf: Leaf) -> frozenset[str]:
    """The content words of a value's field name and its parent field's."""
    return _stems(leaf.words)


def field_nouns(index: ReceiptIndex) -> frozenset[str]:
    """The content words of every field name of the evidence that holds numbers
    ("nights", "guests"), once per index: a count's unit among them says which field
    counts it."""
    cached = index.cache.get("field_nouns")
    if isinstance(cached, tuple) and cached[0] == len(index.by_field):
        # (a streaming index grows: the count of field names says when)
        return cached[1]  # type: ignore[no-any-return]
    # (a field that holds a word, "unit": "each", counts nothing)
    found: frozenset[str] = frozenset().union(
        *(
            content_words(" ".join(key_words(leaves[0].key)))  # "readyReplicas": ready
            for leaves in index.by_field.values()
            if leaves and any(leaf.value.number is not None for leaf in leaves)
        )
    )
    index.cache["field_nouns"] = (len(index.by_field), found)
    return found


def counted_unit(index: ReceiptIndex, h: HardFact) -> frozenset[str]:
    """The stems of what a count counts when the evidence has a field of that name ("4
    nights" of ``nights``, "3 guests" of ``guests``): that field, and no other, holds or
    makes such a count; empty for another figure or a unit no field is named for."""
    if h.kind != "count" or not h.unit:
        return frozenset()
    unit = content_words(h.unit)
    if unit <= _ANY_THING:
        return frozenset()  # "24 units", "3 items": things of any field, not "unit_price"
    return unit if unit <= field_nouns(index) else frozenset()


#: Units that count things of any kind.
_ANY_THING = content_words("unit units piece pieces")


def own_words(rec: Record) -> frozenset[str]:
    """The words a row is called by: its names and its short word values ("Income
    tax", "International calling - 38 min to India")."""
    parts = list(rec.names) + [
        x.value.shown
        for x in rec.leaves
        if x.value.kind in ("word", "text") and len(x.value.shown) <= 60
    ]
    return content_words(" ".join(parts))


def leaf_words(index: ReceiptIndex, leaf: Leaf) -> frozenset[str]:
    """What a value is about: its field and its row (field names, the row's words and
    names, the record's path), or in prose the words around it; and the call it came
    from (tool, source, arguments)."""
    entry = index.entries[index.position(leaf)]
    if leaf.path == "text":
        return frozenset(leaf.words) | entry.context_words
    cache = index.cache.setdefault("row_words", {})
    assert isinstance(cache, dict)
    rec = leaf.record
    found = cache.get(id(rec))
    if found is None:
        parts: list[str] = []
        for r in rec.lineage():
            parts.extend(r.names)
            parts.append(r.path.replace("[", " ").replace("]", " ").replace(".", " "))
            for other in r.leaves if r is rec else ():
                parts.append(other.key)
                if other.value.kind in ("word", "id", "date") or (
                    # a line item's short description ("International calling - 38
                    # min to India") says what its amount is for
                    other.value.kind == "text" and len(other.value.shown) <= 60
                ):
                    parts.append(other.value.shown)
        for r in rec.row().fields():
            # the row's other object fields: "Cardiology" (its provider's specialty) is
            # what the appointment's start time is of
            if r is not rec:
                parts.extend(r.names)
                parts.extend(o.value.shown for o in r.leaves if o.value.kind == "word")
        found = content_words(" ".join(parts)) | entry.context_words
        cache[id(rec)] = found
    if leaf.value.kind == "money" and (leaf.value.number or 0) < 0:
        found = found | NEGATIVE_MONEY  # a payment of -2544 is a refund
    return field_words(leaf) | found


#: What a negative amount of money is, and words of paying more, which it is not.
NEGATIVE_MONEY = content_words(
    "refund credit return back receive save saving less lower reduce reduction cheaper "
    "decrease difference"
)

PAY_MORE = content_words("additional extra more charge pay owe due cost")


def overlap(index: ReceiptIndex, leaf: Leaf, words: frozenset[str]) -> int:
    return len(leaf_words(index, leaf) & words)


def is_about(
    index: ReceiptIndex,
    leaf: Leaf,
    clause: frozenset[str],
    sentence: frozenset[str],
    anchors: Sequence[str],
) -> bool:
    """Whether a value's field and row are about what the sentence says of the figure.

    The clause's own words must meet them — two of them, or one when the clause has
    at most two, or when the row or the call names the sentence's host, file or
    customer; the sentence's words count as a second chance (two of them). A clause
    with no content words ("It was 37%.") is about anything.
    """
    entry = index.entries[index.position(leaf)]
    if leaf.path == "text" and _bare(entry.receipt.content) == leaf.value.shown.strip():
        # The call returned just this value ("17.99" from a calculator): it is about
        # what the call asked, so the call's own words must not say otherwise.
        context = entry.context_words - _TOOL_WORDS
        if not context or context & (clause | sentence):
            return True
    if leaf.path == "text" and _owned_by_other_name(entry.receipt.content, leaf, anchors):
        return False
    if leaf.path == "text" and sentence & content_words(" ".join(command_names(entry))):
        return True  # "the server's uptime ... over two days": what ``uptime`` printed
    if leaf.value.kind == "duration" and clause & _RUN_WORDS and command_names(entry):
        return True  # "The first test run took 0.38s": pytest's "in 0.38s"
    words = leaf_words(index, leaf)
    if leaf.path == "text" and entry.receipt.kind == "user":
        words = words | entry.words  # a user's message is about one thing throughout
    anchored = bool(anchors) and any(a in row_text(index, leaf) for a in anchors)
    specific = clause - GENERIC
    if not specific:
        return (
            not clause or bool(clause & words) or anchored or len((sentence - GENERIC) & words) >= 2
        )
    own = field_words(leaf)
    if own and own <= clause:
        return True  # "Your stay totals €756": the clause names the whole field ("total")
    shared = specific & words
    if clause & DEADLINE_WORDS and own & _DEADLINE_FIELDS:
        return True  # "cancel free of charge until April 11": the cancellation deadline
    if len(shared) >= 2 or anchored or (shared and len(specific) <= 2):
        return True
    if clause & _OUTPUT_VERBS and entry.receipt.kind == "tool" and not leaf.path.startswith("args"):
        return True  # "the script printed the total: 55": what a call printed, said as such
    return len((sentence - GENERIC) & words) >= 2


#: What a command's run is called: its time is the run's ("the test run took 0.38s").
_RUN_WORDS = content_words("run runs test tests suite build job command script")

#: Field names of a deadline: "cancellation_deadline", "expires_at", "due_date", "valid_until".
_DEADLINE_FIELDS = content_words("deadline expires expiry until due cutoff")


def command_names(entry: ReceiptEntry) -> frozenset[str]:
    """The commands a shell call ran, by name ("uptime", "df", "kubectl"): the first
    word of each command line of its ``command`` argument, past wrappers (``sudo``,
    ``bash -lc``) and ``cd``."""
    args = entry.receipt.args or {}
    cmd = args.get("command", args.get("cmd"))
    if isinstance(cmd, list):
        cmd = " ".join(str(x) for x in cmd)
    if not isinstance(cmd, str):
        return frozenset()
    out = set()
    for part in _COMMAND_SPLIT.split(cmd):
        words = [w for w in part.split() if not w.startswith("-")]
        while words and words[0] in _WRAPPERS:
            words = words[1:]
        if words and _COMMAND.fullmatch(words[0]) and words[0] not in _ENGLISH:
            out.add(words[0].lower())
    return frozenset(out)


_COMMAND_SPLIT = re.compile(r"&&|\|\||[;|\n]")
_WRAPPERS = frozenset("sudo bash sh zsh env time nohup exec cd".split())
#: Commands whose names are everyday words ("find", "make"): a sentence using the word
#: does not name the command.
_ENGLISH = frozenset(
    "find head tail sort make test date echo which file touch print cat more less diff list "
    "open show read write run check get set free watch top kill wait join split paste".split()
)
#: A command's name: letters, no path, no file extension.
_COMMAND = re.compile(r"[a-z][a-z0-9_-]{1,30}")


#: Verbs that report what a call put out ("the script printed 55", "the query returned 12").
_OUTPUT_VERBS = content_words(
    "printed prints output outputs returned returns showed shows displayed"
)


def _bare(content: str) -> str:
    """A result's one value: without YAML's document markers (``---``, ``...``) or quotes."""
    lines = [ln.strip() for ln in content.strip().splitlines()]
    lines = [ln for ln in lines if ln not in ("---", "...")]
    return " ".join(lines).strip("\"'")


# "behind Contoso (22%)": a name right before a parenthesised value owns it.
_NAMED_BEFORE = re.compile(r"\b([A-Z][a-zA-Z0-9&-]+)\s*\(\s*[$€£]?\s*$")


def _owned_by_other_name(content: str, leaf: Leaf, anchors: Sequence[str]) -> bool:
    names = {a for a in anchors if a.isalpha()}
    if not names:
        return False
    at = content.find(leaf.value.shown)
    while at >= 0:
        m = _NAMED_BEFORE.search(content[max(0, at - 40) : at])
        if m is None or m.group(1).lower() in names:
            return False
        at = content.find(leaf.value.shown, at + 1)
    return True


# Words of a call that say nothing about its subject: how it ran, or that it computed
# ("calculate", "expression": a calculator's answer is about what the reply computes).
_TOOL_WORDS = frozenset(
    content_words(
        "tool exec run cmd command bash shell sh call function "
        "calculate calculator compute expression evaluate eval math formula"
    )
)


#: Words between a figure and the noun it is of: "payment was $2787", "total of $50".
_LINKS = frozenset(
    "was is were are be been of at for to totaling totalling came comes amounted amounts "
    "costs cost stood stands".split()
)
_WORD_BEFORE = re.compile(r"([A-Za-z][\w'-]*)[\s*_:=(]*$")


#: The words right after a figure: "the $500 certificate", "your $129.00 gift card".
_WORDS_AFTER = re.compile(r"[\s*_]*([A-Za-z][A-Za-z'-]*)(?:\s+([A-Za-z][A-Za-z'-]*))?")


def nouns_after(text: str, end: int) -> tuple[str, ...]:
    """The stemmed content words a figure ending at ``text[end]`` modifies, when it stands
    before them as an adjective does ("the $500 certificate", "a $30 travel insurance"):
    at most two words, the first a content word; empty otherwise ("$500 is", "$500.")."""
    m = _WORDS_AFTER.match(text, max(0, end))
    if m is None:
        return ()
    out: list[str] = []
    for word in m.groups():
        if word is None or word.lower() in _LINKS:
            break
        stems = content_words(word) - GENERIC
        if len(stems) != 1:
            break
        out.extend(stems)
    return tuple(out)


def head_noun(text: str, at: int) -> str | None:
    """The word a figure at ``text[at:]`` is of, stemmed: the last content word before it
    past linking words ("Your original payment was $2787" -> payment); ``None`` when
    it says nothing of a field (a generic word like "total" or "amount")."""
    before = text[: max(0, at)]
    for _ in range(3):
        m = _WORD_BEFORE.search(before)
        if m is None:
            return None
        word = m.group(1).lower()
        if word not in _LINKS:
            stems = content_words(word) - GENERIC
            return next(iter(stems)) if len(stems) == 1 else None
        before = before[: m.start()]
    return None
