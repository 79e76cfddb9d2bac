"""What each sentence of a reply is about: the records it names, the section it sits
in, or the sentence before it (see :func:`anchor`).

A sentence is about the records its ids and names point at (``#W4923227``, ``Mia Li``,
``Desk Lamp``); a sentence that names none takes the records of the heading, bold
label or list item it sits under, else those of the sentence before it; a reply that
names nothing is about the newest tool result. In a sentence that names several
records, a figure is about the one named right before it (``checks/figure_owner``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from receiptgate.checks.words import STOPWORDS, content_words
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.records import Record
from receiptgate.text.segment import BULLETS, Sentence

TOKEN = re.compile(r"#?[A-Za-z0-9][A-Za-z0-9_\-]*(?:\.[A-Za-z0-9]+)*")
#: An id written with a space between its letters and its digits ("HAT 023" for HAT023,
#: "UA 1234"): one id where the records hold the two parts joined.
SPACED_ID = re.compile(r"\b([A-Z]{2,4}) (\d{2,6})\b")
_WORD_SPAN = re.compile(r"[\w'’-]+")


@dataclass(slots=True)
class Anchor:
    """What one sentence is about."""

    records: list[Record] = field(default_factory=list)
    how: str = "none"  # named | section | previous | latest | none
    #: Ids and names the sentence itself restates that records hold (start, end, leaf text).
    named: list[tuple[int, int, Record]] = field(default_factory=list)
    #: The sentence (its text and where it starts): what the checks read.
    text: str = ""
    start: int = 0
    #: The words of the heading the sentence sits under when the heading names no
    #: record ("### Price" above "- Current outbound: $161 + $192"): what its figures are.
    topic: frozenset[str] = frozenset()
    #: For a sentence that names records of its own, the records of the list item or
    #: section it sits under ("- refund details: ... credit_card_3951670" under "- order
    #: id: #W8855135"): what its own records belong to.
    context: list[Record] = field(default_factory=list)
    #: The heading or the line ending in ":" that a list item or a line right under it
    #: sits under ("Price difference (applied to your card):" above "- If exchanging
    #: from #W2: You'll be charged $167.87"): it may name what the line's figure is.
    lead: str = ""
    _scope: frozenset[int] | None = field(default=None, repr=False, compare=False)

    def results(self) -> list[Record]:
        """The whole results the sentence's records are in (each record's root, once):
        "your original reservation" of a line about one of its passengers."""
        return list(dict.fromkeys(rec.root for rec in self.records))

    def scope(self) -> frozenset[int]:
        """ids (``id()``) of the records in scope: anchors, their subtrees and lineage
        (computed once: every figure and value of the sentence asks)."""
        if self._scope is None:
            out: set[int] = set()
            for rec in self.records:
                out.update(id(r) for r in rec.subtree())
                out.update(id(r) for r in rec.lineage())
                row = rec.row()
                if row is not rec:
                    # "Dr. Leah Whitfield" names an appointment's provider object: the
                    # appointment's start and room are what the sentence says of her visit
                    out.update(id(r) for r in row.subtree())
            self._scope = frozenset(out)
        return self._scope


def id_key(token: str, index: ReceiptIndex) -> str | None:
    """The key under which records hold an id the text writes ("#W1" or "W1"), if any."""
    tok = token.lower().rstrip(".")
    for key in (tok, tok.lstrip("#")):
        if key in index.records_by_id:
            return key
    return None


def _spaced_ids(text: str, index: ReceiptIndex) -> list[tuple[int, int, str]]:
    """The ids ``text`` writes with a space inside ("HAT 023"), as (start, end, the key
    the records hold them under), where records hold them joined."""
    if not index.records_by_id:
        return []
    out: list[tuple[int, int, str]] = []
    for m in SPACED_ID.finditer(text):
        key = (m.group(1) + m.group(2)).lower()
        if key in index.records_by_id:
            out.append((m.start(), m.end(), key))
    return out


#: An id of words and a number ("gift_card_8020792", "credit_card_4920843").
_WORDED_ID = re.compile(r"^([a-z]+(?:_[a-z]+)*)_(\d{4,})$")
#: A number of four digits or more, alone, and the words before it.
_BARE_NUMBER = re.compile(r"(?<![\w#.-])\d{4,}(?![\w-])")


def worded_ids(index: ReceiptIndex) -> dict[str, list[tuple[str, list[str]]]]:
    """The evidence's ids of words and a number, by their number: "8020792" ->
    [("gift_card_8020792", ["gift", "card"])] (built once per index size)."""
    cached = index.cache.get("worded_ids")
    suffixes: dict[str, list[tuple[str, list[str]]]]
    if isinstance(cached, dict):
        suffixes = cached
    else:
        suffixes = {}
        for key in index.records_by_id:
            m = _WORDED_ID.match(key)
            if m is not None:
                suffixes.setdefault(m.group(2), []).append((key, m.group(1).split("_")))
        index.cache["worded_ids"] = suffixes
    return suffixes


def _worded_ids(text: str, index: ReceiptIndex) -> list[tuple[int, int, str]]:
    """The ids ``text`` writes as words and a number ("Gift Card 8020792", "certificate
    3765853" for ``gift_card_8020792``, ``certificate_3765853``): the number, where the
    words of the id's name come right before it."""
    if not index.records_by_id:
        return []
    suffixes = worded_ids(index)
    if not suffixes:
        return []
    out: list[tuple[int, int, str]] = []
    for m in _BARE_NUMBER.finditer(text):
        keys = suffixes.get(m.group())
        if not keys:
            continue
        before = [
            w.lower() for w in re.findall(r"[A-Za-z]+", text[max(0, m.start() - 30) : m.start()])
        ]
        for key, words in keys:
            if before[-len(words) :] == words:
                out.append((m.start(), m.end(), key))
    return out


@functools.lru_cache(maxsize=512)
def word_spans(text: str) -> tuple[tuple[str, int, int], ...]:
    """The words of a text, lowercase, with where they are (anchoring and the values a
    sentence restates both read them: worked out once per sentence)."""
    low = text.lower()
    if len(low) != len(text):  # a letter whose lowercase is longer ("İ")
        return tuple((w.group().lower(), w.start(), w.end()) for w in _WORD_SPAN.finditer(text))
    return tuple((w.group(), w.start(), w.end()) for w in _WORD_SPAN.finditer(low))


def _named(text: str, offset: int, index: ReceiptIndex) -> list[tuple[int, int, Record]]:
    found: list[tuple[int, int, Record]] = []
    by_id = index.records_by_id
    for m in TOKEN.finditer(text) if by_id else ():
        tok = m.group().lower().rstrip(".")
        key = tok if tok in by_id else tok[1:] if tok[:1] == "#" and tok[1:] in by_id else None
        if key is not None:
            found.extend(
                (offset + m.start(), offset + m.end(), r) for r in index.records_by_id[key]
            )
    for a, b, key in _worded_ids(text, index):
        found.extend((offset + a, offset + b, r) for r in by_id[key])
    spaced = _spaced_ids(text, index)
    for a, b, key in spaced:
        found.extend((offset + a, offset + b, r) for r in by_id[key])
    if spaced:
        found.sort(key=lambda x: x[0])  # in the order the sentence names them
    if index.records_by_name:
        words = _hyphens_split(word_spans(text), index)
        # "Arjun Raman's line": the name without its possessive ending
        owners = {a for w, a, _ in words if w.endswith(("'s", "’s"))}
        words = tuple((w[:-2], a, b - 2) if a in owners else (w, a, b) for w, a, b in words)
        for i in range(len(words)):
            if words[i][0] not in index.name_heads:
                continue
            person = _first_names(index).get(words[i][0])
            if person and text[words[i][1]].isupper() and not _VOCATIVE.match(text, words[i][2]):
                # "Maya's plan", "Tom has declined": the one person of the records of
                # that first name (not "Maya, your plan ...", which addresses her)
                found.extend(
                    (offset + words[i][1], offset + words[i][2], r)
                    for r in index.records_by_name[person]
                )
                continue
            for n in (4, 3, 2, 1):
                if i + n > len(words):
                    continue
                phrase = " ".join(w[0] for w in words[i : i + n])
                recs = index.records_by_name.get(phrase)
                if recs and (
                    n > 1 or len(phrase) > 3 or (len(phrase) == 3 and phrase not in STOPWORDS)
                ):
                    found.extend(
                        (offset + words[i][1], offset + words[i + n - 1][2], r) for r in recs
                    )
                    break
            else:
                # "the Shell charge" of "Shell Oil", "Whole Foods" of "Whole Foods Market":
                # the first words of one name only, written as a name is
                # (or joined by a hyphen in any case: "the sick-visit statement" of "Sick
                # visit - Dr. Anita Rao"; not "a gift card" of "Gift Card 1234")
                upper = text[words[i][1]].isupper()
                if not _VOCATIVE.match(text, words[i][2]):
                    for n in (3, 2, 1) if upper else (3, 2):
                        phrase = " ".join(w[0] for w in words[i : i + n])
                        # (three letters will do for a capitalised name: "Tom" of "Tom Becker")
                        short = len(phrase) == 3 and upper and phrase not in STOPWORDS
                        whole = (
                            _name_prefixes(index).get(phrase) if len(phrase) > 3 or short else None
                        )
                        joined = i + n <= len(words) and (
                            upper or "-" in text[words[i][1] : words[i + n - 1][2]]
                        )
                        if whole is not None and joined:
                            found.extend(
                                (offset + words[i][1], offset + words[i + n - 1][2], r)
                                for r in index.records_by_name[whole]
                            )
                            break
    return found


#: A name followed by a comma or "!": whom the reply addresses ("Priya, your ..."), no
#: record it is about.
_VOCATIVE = re.compile(r"\s*[,!]")


def _hyphens_split(
    words: tuple[tuple[str, int, int], ...], index: ReceiptIndex
) -> tuple[tuple[str, int, int], ...]:
    """The words with a hyphenated one that begins no name as its parts: "the sick-visit
    statement" names "Sick visit - Dr. Anita Rao" ("t-shirt" stays whole)."""
    if not any("-" in w for w, _, _ in words):
        return words
    out: list[tuple[str, int, int]] = []
    for w, a, b in words:
        if "-" not in w or w in index.name_heads:
            out.append((w, a, b))
            continue
        at = a
        for part in w.split("-"):
            if part:
                out.append((part, at, at + len(part)))
            at += len(part) + 1
    return tuple(out)


def _first_names(index: ReceiptIndex) -> dict[str, str]:
    """The first names of the records' people, each to the one person of that first name,
    once per index size."""
    cached = index.cache.get("first_names")
    if isinstance(cached, tuple) and cached[0] == len(index.people):
        return cached[1]  # type: ignore[no-any-return]
    seen: dict[str, set[str]] = {}
    for person in index.people:
        if " " in person and person in index.records_by_name:
            seen.setdefault(person.split()[0], set()).add(person)
    found = {first: min(people) for first, people in seen.items() if len(people) == 1}
    index.cache["first_names"] = (len(index.people), found)
    return found


def _name_prefixes(index: ReceiptIndex) -> dict[str, str]:
    """The first words of names of several words, each to the one name they begin (a
    prefix two names share begins none), once per index size."""
    cached = index.cache.get("name_prefixes")
    if isinstance(cached, tuple) and cached[0] == len(index.records_by_name):
        return cached[1]  # type: ignore[no-any-return]
    seen: dict[str, set[str]] = {}
    for name in index.records_by_name:
        if name in index.people:
            continue  # "Priya, ...": a person addressed by first name is no record named
        parts = name.split()
        for n in range(1, len(parts)):
            seen.setdefault(" ".join(parts[:n]), set()).add(name)
    by_name = index.records_by_name
    found = {
        p: min(names)
        for p, names in seen.items()
        # one name, or one thing written two ways ("dr. leah whitfield", "dr leah whitfield")
        if len({frozenset(id(r) for r in by_name[n]) for n in names}) == 1
    }
    found = {p: name for p, name in found.items() if p not in index.records_by_name}
    index.cache["name_prefixes"] = (len(index.records_by_name), found)
    return found


def anchor(text: str, sentences: Sequence[Sentence], index: ReceiptIndex) -> list[Anchor]:
    """What each sentence is about (see the module doc).

    A sentence that names records is about them; a heading or a line ending in
    ":" that names records opens a section, and the list items and lines under
    it are about those records until the next section; any other sentence is
    about what the sentence before it was about.
    """
    out: list[Anchor] = []
    section: list[Record] = []
    previous: list[Record] = []
    # list items that name records, by indentation: the parents of the items under them
    parents: list[tuple[int, list[Record]]] = []
    latest = _latest_result(index)
    topic: frozenset[str] = frozenset()
    lead = ""
    for s in sentences:
        named = _named(s.text, s.start, index)
        opens = (
            s.kind == "heading"
            or _introduces(s)
            or (s.kind == "prose" and _BOLD_LINE.match(s.text) is not None)
        )
        indent = _item_indent(text, s)
        if indent is not None:
            while parents and parents[-1][0] >= indent:
                parents.pop()
        elif _starts_line(text, s):
            parents.clear()  # a paragraph after the list ends it
        if named:
            recs = list(dict.fromkeys(r for _, _, r in named))
            a = Anchor(recs, "named", named)
            if indent is not None and parents:
                a.context = parents[-1][1]
            elif section and (s.kind == "list_item" or _right_under(text, s)):
                a.context = section
            if opens:
                section = recs
            if indent is not None:
                parents.append((indent, recs))
        elif indent is not None and parents:
            # "1. **Water Bottle**" then "   - Price: $54.85": the item it sits under
            a = Anchor(parents[-1][1], "section")
        elif section and (s.kind == "list_item" or _right_under(text, s)):
            a = Anchor(section, "section")
        elif previous:
            a = Anchor(previous, "previous")
        elif latest:
            a = Anchor(latest, "latest")
        else:
            a = Anchor()
        if opens and not named:
            section = []
        if s.kind == "list_item" or _right_under(text, s):
            a.lead = lead
        if opens:
            lead = s.text
        elif indent is None and _starts_line(text, s) and not _right_under(text, s):
            lead = ""  # a paragraph ends what the line above introduced
        if s.kind == "heading" or (s.kind == "prose" and _BOLD_LINE.match(s.text) is not None):
            topic = frozenset() if named else content_words(s.text)
        elif topic:
            a.topic = topic
        a.text, a.start = s.text, s.start
        out.append(a)
        previous = a.records
    _siblings(text, sentences, out, index)
    _introduced(text, sentences, out)
    # sentences about the same records share one scope (a sentence's figures and values
    # all ask for it; "previous" and "section" anchors repeat the records of one line)
    scopes: dict[tuple[int, ...], frozenset[int]] = {}
    for a in out:
        if a.records:
            key = tuple(id(r) for r in a.records)
            if (known := scopes.get(key)) is not None:
                a._scope = known
            else:
                scopes[key] = a.scope()
    return out


def _introduced(text: str, sentences: Sequence[Sentence], out: list[Anchor]) -> None:
    """A sentence that ends in ":" and names nothing is about what the list (or the table)
    under it names:
    "The fastest option is Option 2, with a total travel time of 5 hours:" above the
    lines of its two flights."""
    for i, s in enumerate(sentences):
        a = out[i]
        if a.how not in ("previous", "latest", "none") or not _introduces(s):
            continue
        recs: dict[int, Record] = {}
        for j in range(i + 1, len(sentences)):
            if sentences[j].kind not in ("list_item", "table_row"):
                break
            if out[j].how == "named":
                recs.update((id(r), r) for r in out[j].records)
        if recs:
            out[i] = Anchor(list(recs.values()), "section", text=a.text, start=a.start)


def _introduces(s: Sentence) -> bool:
    """Whether a sentence ends in ":" (the lines under it are what it is about)."""
    return s.text.rstrip("*_ ").endswith(":")


#: A line that is all bold ("**Connecting Flight HAT039 (ATL to SEA)**"): a heading.
_BOLD_LINE = re.compile(r"^(\*\*|__)[^*_\n]+\1:?$")


def _siblings(
    text: str, sentences: Sequence[Sentence], out: list[Anchor], index: ReceiptIndex
) -> None:
    """Lines of one list describe one thing: "- Price: $180.10" and "- Item ID:
    6843647669" under "1. **28 inch, Graphic Design**" (a sub-list), or under
    "**Canister Vacuum Cleaner**" (a list under a line). When the lines of a list name
    exactly one record (or one record and those it belongs to: an order and its item),
    the others are about it too — those anchored by nothing
    stronger, and those anchored to a section the record belongs to (the product, when
    the list names one of its variants)."""
    groups: dict[int, list[int]] = {}
    stack: list[tuple[int, int]] = []  # (indent, sentence) of the open list items
    run = -1  # the first item of a list that sits under no list item
    run_indent = 0
    for i, s in enumerate(sentences):
        indent = _item_indent(text, s)
        if indent is None:
            if _starts_line(text, s):
                stack.clear()
                run = -1
            continue
        while stack and stack[-1][0] >= indent:
            stack.pop()
        if stack:
            groups.setdefault(stack[-1][1], []).append(i)
        else:
            if run < 0 or indent < run_indent:
                # an item left of the run's items starts another list (a sub-list under
                # a bold line, then "2. ..." of the outer list)
                run, run_indent = i, indent
            groups.setdefault(-1 - run, []).append(i)
        stack.append((indent, i))
    for members in groups.values():
        named = {id(r): r for i in members if out[i].how == "named" for r in out[i].records}
        named = _tool_records(named, index)
        # "Order ID: #W1" and "Item: Air Purifier" name one thing: the item of that order
        deepest = [
            r
            for r in named.values()
            if not any(o is not r and r in o.lineage() for o in named.values())
        ]
        if len(deepest) != 1 or any(r not in deepest[0].lineage() for r in named.values()):
            continue
        rec = deepest[0]
        owners = {id(r) for r in rec.lineage()}
        for i in members:
            a = out[i]
            weak = a.how in ("previous", "latest", "none")
            narrower = a.how == "section" and any(id(r) in owners for r in a.records)
            if weak or narrower:
                out[i] = Anchor([rec], "section", text=a.text, start=a.start)


def _tool_records(named: dict[int, Record], index: ReceiptIndex) -> dict[int, Record]:
    """Of the records a list names, what the tools returned: the user's message that
    typed an id is no record of it, and a call's arguments name what its result holds
    (the result is the record)."""
    tools = {k: r for k, r in named.items() if index.receipt_of(r).kind != "user"}
    if tools:
        named = tools
    if any(not _is_args(r) for r in named.values()):
        return {k: r for k, r in named.items() if not _is_args(r)}
    results: dict[int, Record] = {}
    for r in named.values():
        entry = index.entries[index.position(r)]
        results.update((id(x), x) for x in entry.records if x.parent is None and not _is_args(x))
    return results or named


def _is_args(rec: Record) -> bool:
    """Whether a record is a call's arguments (``get_reservation(id=...)``), not a result."""
    return rec.root.path == "args"


def _latest_result(index: ReceiptIndex) -> list[Record]:
    """The records of the newest structured tool result: what a reply that names
    nothing is about (an agent answers right after its tools)."""
    for entry in reversed(index.entries):
        if entry.receipt.kind != "user" and entry.records:
            return [rec for rec in entry.records if rec.parent is None]
    return []


_ITEM_PREFIX = re.compile(rf"^([ \t]*)(?:{BULLETS}|\d{{1,3}}[.)])[ \t]+(?:\*\*|__)?$")


def _item_indent(text: str, s: Sentence) -> int | None:
    """The indentation of the list item a sentence starts, if it starts one."""
    if s.kind != "list_item":
        return None
    line_start = text.rfind("\n", 0, s.start) + 1
    m = _ITEM_PREFIX.match(text[line_start : s.start])
    return len(m.group(1).expandtabs(4)) if m is not None else None


def _starts_line(text: str, s: Sentence) -> bool:
    line_start = text.rfind("\n", 0, s.start) + 1
    return not text[line_start : s.start].strip()


def _right_under(text: str, s: Sentence) -> bool:
    """Whether a sentence starts a line right under the line before (no blank line)."""
    line_start = text.rfind("\n", 0, s.start) + 1
    if text[line_start : s.start].strip():
        return False
    return line_start > 0 and text[max(0, line_start - 2) : line_start] != "\n\n"
