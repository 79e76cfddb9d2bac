"""The evidence of a session, indexed once: receipts, their records, and lookups by value.

Build it once per session (``ReceiptIndex(receipts)``, then ``add`` as receipts
arrive) and pass it to ``Gate.validate(receipts=...)``: a claim then costs a few
dictionary lookups, never a scan of every receipt. A plain list of receipts is
indexed per call.

Each receipt's content is parsed by the formats registry (``evidence/formats``)
into records (``evidence/records``); text that no format reads is read as prose.
The index keeps:

* ``by_key``: lookup key of a typed value (``n:153``, ``d:2024-05-17``,
  ``i:#w4923227``, ``w:pending``) -> the leaves that hold it;
* ``records_by_id`` / ``records_by_name``: an id or name -> the records it names;
* ``id_shapes``: the shapes of the ids in the evidence (``#W9999999``), so that a
  sentence's token of the same shape that no record holds is a wrong id;
* ``entries``: each receipt with its words and text, for the action ledger.

Relative dates inside a receipt resolve against its ``created_at`` (or the time
it was added); freshness is judged at query time against ``now``.
Not thread-safe for concurrent ``add``; reads after ``add`` returns are safe.
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from receiptgate.checks.words import content_words
from receiptgate.evidence.formats import parse_content
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.records import Leaf, Record, records_of, text_records
from receiptgate.evidence.values import STATE_WORDS, words_of
from receiptgate.text.clean import read_as

_SHAPE_RUN = re.compile(r"[A-Z]+|[a-z]+|[0-9]+|[^A-Za-z0-9]")

_T = TypeVar("_T")


def id_shape(token: str) -> str:
    """The shape of an id: letters and digits as classes with their counts.

    ``#W4923227`` -> ``#A1d7``; ``credit_card_8897086`` -> ``a_a_d7``; ``K7Q2XM`` and
    ``ZFA04Y`` -> ``x6`` (mixed upper-case letters and digits of one length).
    """
    mixed = token.isalnum() and token.upper() == token and any(c.isdigit() for c in token)
    if mixed and any(c.isalpha() for c in token) and not re.fullmatch(r"[A-Z]+\d+", token):
        return f"x{len(token)}"
    out = []
    for m in _SHAPE_RUN.finditer(token):
        run = m.group()
        if run.isdigit():
            out.append(f"d{len(run)}")
        elif run.isupper():
            out.append(f"A{len(run)}" if len(run) <= 3 else "A")
        elif run.islower():
            out.append("a")
        else:
            out.append(run)
    return "".join(out)


@dataclass(slots=True)
class ReceiptEntry:
    receipt: Receipt
    words: frozenset[str]
    text: str  # tool name, args and content, lowercased (for the action ledger)
    format: str = "text"
    records: list[Record] = field(default_factory=list)
    context_words: frozenset[str] = frozenset()  # the call's tool, source and arguments
    #: What a check works out from the records alone, shared by every index of the same
    #: content (a transcript is sent again with every reply): by the check's name.
    memo: dict[str, object] = field(default_factory=dict)

    def worked_out(self, name: str, work: Callable[[ReceiptEntry], _T]) -> _T:
        """What ``work`` makes of this receipt, made once per content and kept in
        ``memo`` under ``name``."""
        if name not in self.memo:
            self.memo[name] = work(self)
        return self.memo[name]  # type: ignore[return-value]


_PATH_WORD = re.compile(r"[a-z]+")
PATH_INDEX = re.compile(r"\[\d+\]")


@dataclass(frozen=True, slots=True)
class _Filing:
    """Where a receipt's records and values go in an index, worked out once per content
    (an index built per call files the same transcript again and again)."""

    ids: tuple[tuple[str, Record], ...]
    names: tuple[tuple[str, Record], ...]
    name_words: frozenset[str]
    name_heads: frozenset[str]
    people: frozenset[str]
    people_words: frozenset[str]
    keys: tuple[tuple[str, Leaf], ...]
    word_heads: frozenset[str]
    fields: tuple[tuple[str, Leaf], ...]
    id_shapes: tuple[tuple[str, str], ...]
    words: frozenset[str]
    states: tuple[tuple[str, str], ...]
    nouns: frozenset[str]  # what the records are called (checks/records)

    @classmethod
    def of(cls, records: Sequence[Record], *, text: bool) -> _Filing:
        ids: list[tuple[str, Record]] = []
        names: list[tuple[str, Record]] = []
        name_words: set[str] = set()
        name_heads: set[str] = set()
        people: set[str] = set()
        people_words: set[str] = set()
        keys: list[tuple[str, Leaf]] = []
        word_heads: set[str] = set()
        fields: list[tuple[str, Leaf]] = []
        id_shapes: list[tuple[str, str]] = []
        words: set[str] = set()
        states: list[tuple[str, str]] = []
        nouns: set[str] = set()
        for rec in records:
            # what the evidence calls its records: the words of their id fields and of the
            # lists that hold them ("order_id", "orders", "item_id" -> order, item)
            nouns.update(_PATH_WORD.findall(PATH_INDEX.sub(" ", rec.path).lower()))
            ids.extend((ident, rec) for ident in rec.ids)
            for name in rec.names:
                for written in _written_names(name):
                    names.append((written, rec))
                    name_words.update(written.split())
                    name_heads.add(written.split(" ", 1)[0])
            for person in rec.people:
                people.add(person)
                people_words.update(person.split())
            for leaf in rec.leaves:
                for key in leaf.value.keys:
                    keys.append((key, leaf))
                    if key.startswith("w:"):
                        word_heads.add(key[2:].split(" ", 1)[0])
                if leaf.path != "text":
                    fields.append((leaf.key.lower(), leaf))
                v = leaf.value
                if v.kind == "id":
                    nouns.update(leaf.words)
                    shown = v.shown.strip()
                    id_shapes.append((id_shape(shown), shown.lower()))
                elif v.kind in ("word", "text") and not text:
                    low = v.shown.lower()
                    words.update(words_of(low))
                    code = v.shown.isupper() and len(v.shown) <= 3  # "NY": an address's state
                    if v.kind == "word" and set(leaf.words) & STATE_WORDS and not code:
                        states.append((leaf.key.lower(), " ".join(low.split())))
        return cls(
            tuple(ids),
            tuple(names),
            frozenset(name_words),
            frozenset(name_heads),
            frozenset(people),
            frozenset(people_words),
            tuple(keys),
            frozenset(word_heads),
            tuple(fields),
            tuple(id_shapes),
            frozenset(words),
            tuple(states),
            frozenset(w.rstrip("s") for w in nouns if len(w) > 2 and w != "ids"),
        )


def _fields_of(tool: str | None, args: dict[str, Any]) -> dict[str, Any]:
    """A call's arguments without the agent's own reasoning: what it wrote into a
    ``think`` call, or a ``thought`` / ``reasoning`` argument, is its own words, no record
    of what is (its figures would back the same figures in its reply)."""
    if (tool or "").lower() in THINKING_TOOLS:
        return {}
    return {k: v for k, v in args.items() if k.lower() not in _THINKING_ARGS}


#: Tools an agent calls to think aloud: their arguments are its words, and they do nothing.
THINKING_TOOLS = frozenset(
    {"think", "thought", "reflect", "plan", "scratchpad", "reason", "reasoning", "note", "notes"}
)
_THINKING_ARGS = frozenset({"thought", "thoughts", "reasoning", "rationale", "scratchpad"})


@dataclass(frozen=True, slots=True)
class _Built:
    """What a receipt's content gives, whoever sent it: its format, records and words."""

    format: str
    records: list[Record]
    words: frozenset[str]  # content words of the content and the call (checks/words)
    prose_words: tuple[str, ...]  # for prose: its word tokens (values.words_of)
    filing: _Filing
    text: str  # the call line and the content, lowercased
    context_words: frozenset[str]  # content words of the call's tool, source and arguments
    #: What checks work out from the records alone, kept with them (by the check's name).
    memo: dict[str, object] = field(default_factory=dict)


#: Built content, by content (an agent's transcript is sent again with every reply, so
#: the same results and the same system prompt are read again and again). Records are
#: read-only once built, so indexes share them.
_BUILT: OrderedDict[tuple[str, str, str], _Built] = OrderedDict()  # (content, call, day)
_BUILT_MAX = 4096
_BUILT_LOCK = threading.Lock()


def _built(r: Receipt, when: datetime) -> _Built:
    """The format, records and words of a receipt's content and call (cached)."""
    args = json.dumps(r.args, ensure_ascii=False) if r.args else ""
    context = " ".join(x for x in (r.source or "", r.tool or "", args) if x)
    key = (r.content, context, when.date().isoformat())
    with _BUILT_LOCK:
        found = _BUILT.get(key)
        if found is not None:
            _BUILT.move_to_end(key)
            return found
    parsed = parse_content(r.content)
    text = parsed.format == "text"
    records = text_records(r.content, when) if text else records_of(parsed.tree, when)
    if r.args:
        # Values passed to a tool count too: deploy(version="2.3.1"), get_order("#W1").
        args_records = records_of({"args": _fields_of(r.tool, r.args)}, when)
        for rec in args_records:
            rec.path = rec.path or "args"
        if not text and records:
            # what the call asked for is part of every record it answered with: the
            # flights of search(date="2024-05-23") fly on May 23
            root = records[0]
            root.leaves.extend(
                Leaf(root, leaf.path, leaf.key, leaf.words, leaf.value)
                for rec in args_records
                for leaf in rec.leaves
            )
        records.extend(args_records)
    prose = tuple(words_of(r.content)) if text else ()
    filing = _Filing.of(records, text=text)
    context_words = content_words(context)
    built = _Built(
        parsed.format,
        records,
        content_words(r.content) | context_words,
        prose,
        filing,
        f"{context}\n{r.content}".lower(),
        context_words,
    )
    with _BUILT_LOCK:
        _BUILT[key] = built
        while len(_BUILT) > _BUILT_MAX:
            _BUILT.popitem(last=False)
    return built


#: Titles before a person's name: "Dr. Leah Whitfield" is also "Dr. Whitfield".
_TITLES = frozenset("dr mr mrs ms mx prof".split())


def _written_names(name: str) -> tuple[str, ...]:
    """A name as replies write it: as held, without its dots and commas ("dr leah
    whitfield": a reply's words are read without them), and a titled person's title and
    last name ("dr whitfield")."""
    bare = " ".join(name.replace(".", " ").replace(",", " ").split())
    out = [name] if bare == name else [name, bare]
    parts = bare.split()
    if len(parts) >= 3 and parts[0] in _TITLES:
        out.append(f"{parts[0]} {parts[-1]}")
    return tuple(out)


class ReceiptIndex:
    """The receipts of a session, indexed for lookups by value, id and word.

    Args:
        receipts: the receipts to index now.
        now: the reference time for relative dates inside receipts without
            ``created_at``, and for freshness.
    """

    def __init__(self, receipts: Sequence[Receipt] = (), *, now: datetime | None = None) -> None:
        self.now = now or datetime.now(UTC)
        self.entries: list[ReceiptEntry] = []
        self._by_word: dict[str, list[int]] = defaultdict(list)
        self._by_word_filed = 0  # entries filed in _by_word so far
        self.by_key: dict[str, list[Leaf]] = defaultdict(list)
        #: Field name (lowercase) -> the leaves of that field, across receipts.
        self.by_field: dict[str, list[Leaf]] = defaultdict(list)
        self.records_by_id: dict[str, list[Record]] = defaultdict(list)
        self.records_by_name: dict[str, list[Record]] = defaultdict(list)
        self.name_words: set[str] = set()
        #: First words of names and of short text values (where a lookup can start).
        self.name_heads: set[str] = set()
        self.word_heads: set[str] = set()
        #: Person names ("mia li") and their words, from first/last name fields.
        self.people: set[str] = set()
        self.people_words: set[str] = set()
        #: Words of the user's own messages (a name the user gave is grounded).
        self.user_words: set[str] = set()
        self.id_shapes: dict[str, set[str]] = defaultdict(set)
        #: Field words of state-like fields -> the values seen ("status" -> {"pending"}).
        self.states: dict[str, set[str]] = defaultdict(set)
        self.words: set[str] = set()
        #: What the evidence calls its records ("order", "item", "reservation").
        self.record_nouns: set[str] = set()
        #: The agent's earlier replies (``reply`` receipts), each with the number of
        #: entries before it: never indexed, never evidence (pipeline/carried).
        self.replies: list[tuple[int, Receipt]] = []
        #: Derived views (the action ledger's) cached per index size.
        self.cache: dict[str, object] = {}
        self._position: dict[
            int, int
        ] = {}  # id(record) -> entry position (roots at add, others on first lookup)
        for r in receipts:
            self.add(r)

    def __len__(self) -> int:
        return len(self.entries)

    def given(self, before_reply: int | None = None) -> list[Receipt]:
        """The receipts as given, the agent's earlier replies where they came; with
        ``before_reply``, only those that came before that reply (its position in
        ``replies``)."""
        replies = self.replies if before_reply is None else self.replies[:before_reply]
        end = len(self.entries) if before_reply is None else self.replies[before_reply][0]
        out: list[Receipt] = []
        k = 0
        for i, entry in enumerate(self.entries[:end]):
            while k < len(replies) and replies[k][0] <= i:
                out.append(replies[k][1])
                k += 1
            out.append(entry.receipt)
        out.extend(r for _, r in replies[k:])
        return out

    @property
    def entries_by_word(self) -> dict[str, list[int]]:
        """Content word -> the positions of the entries that hold it (filed on first use:
        only system-state checks ask, and most requests have none)."""
        for i in range(self._by_word_filed, len(self.entries)):
            for w in self.entries[i].words:
                self._by_word[w].append(i)
        self._by_word_filed = len(self.entries)
        return self._by_word

    def add(self, r: Receipt) -> None:
        """Indexes one more receipt.

        Its content is read as the reply is (``text.clean.read_as``: a non-breaking hyphen
        or a narrow space as its ASCII form, one character for one), so a user's
        "2001\u201104\u201112" is the date a reply writes "2001-04-12"; the index keeps
        that reading of the receipt, under the same id.
        """
        if r.kind == "reply":
            self.replies.append((len(self.entries), r))
            return
        if not r.content.isascii() and (read := read_as(r.content)) != r.content:
            r = r.model_copy(update={"content": read})
        i = len(self.entries)
        built = _built(r, r.created_at or self.now)
        entry = ReceiptEntry(
            r, built.words, built.text, built.format, built.records, built.context_words, built.memo
        )
        for rec in entry.records:
            if rec.parent is None:
                self._position[id(rec)] = i
        self._file(built.filing)
        self.words.update(built.prose_words)
        if r.kind == "user":
            self.user_words.update(words_of(r.content))
        self.entries.append(entry)
        self.cache.clear()

    def _file(self, f: _Filing) -> None:
        for ident, rec in f.ids:
            self.records_by_id[ident].append(rec)
        for name, rec in f.names:
            self.records_by_name[name].append(rec)
        self.name_words.update(f.name_words)
        self.name_heads.update(f.name_heads)
        self.people.update(f.people)
        self.people_words.update(f.people_words)
        by_key = self.by_key
        for key, leaf in f.keys:
            by_key[key].append(leaf)
        self.word_heads.update(f.word_heads)
        for name, leaf in f.fields:
            self.by_field[name].append(leaf)
        for shape, shown in f.id_shapes:
            self.id_shapes[shape].add(shown)
        self.words.update(f.words)
        for name, value in f.states:
            self.states[name].add(value)
        self.record_nouns.update(f.nouns)

    # -- lookups ---------------------------------------------------------------------

    def leaves(self, keys: Iterable[str]) -> list[Leaf]:
        """Leaves filed under any of ``keys`` (each once)."""
        seen: dict[int, Leaf] = {}
        for key in keys:
            for leaf in self.by_key.get(key, ()):
                seen.setdefault(id(leaf), leaf)
        return list(seen.values())

    def receipt_of(self, leaf: Leaf | Record) -> Receipt:
        rec = leaf.record if isinstance(leaf, Leaf) else leaf
        return self.entries[self.position(rec)].receipt

    def position(self, leaf: Leaf | Record) -> int:
        """The position (in ``entries``) of the receipt a leaf or record came from."""
        rec = leaf.record if isinstance(leaf, Leaf) else leaf
        at = self._position.get(id(rec))
        if at is None:
            at = self._position[id(rec)] = self._position[id(rec.root)]
        return at

    def is_fresh(
        self, receipt: Receipt, limit: timedelta | None, now: datetime | None = None
    ) -> bool:
        """Whether ``receipt`` is inside the freshness window ``limit`` at ``now``."""
        if limit is None or receipt.created_at is None:
            return True
        return (now or self.now) - receipt.created_at <= limit
