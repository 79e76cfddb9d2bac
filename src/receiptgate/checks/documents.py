"""Documents as evidence: the operator's rules and retrieved text, passage by passage.

System and developer messages (read from a transcript as ``rag`` receipts), retrieved
chunks (``rag``), memory and fetched pages (``web``) hold statements and rules rather
than records: "the total will be refunded via the original payment method
immediately if it is a gift card, otherwise in 5 to 7 business days". A document is
split into passages (a sentence, a list item, under its heading), and a sentence of
the reply is matched to the passage it restates by the words they share, each word
weighted by how rare it is among the passages (a word every rule uses says little):

* a figure of the sentence that the passage holds is supported by it (tag T4, the
  passage as the evidence: ``sys1 § Cancel pending order: '…in 5 to 7 business
  days.'``) — :func:`receiptgate.checks.document_figures.document_figure`;
* a figure that differs from the passage's figure of the same kind, in a sentence
  that closely restates the passage, contradicts it ("returns are accepted within
  60 days of delivery" against "within 30 days of delivery");
* a statement with no figure that closely restates a passage, in the same polarity,
  is supported by it instead of being a general statement (T3) —
  :func:`receiptgate.checks.restated_rules.restated_passage`.

Matching is lexical (no model): rule words are stemmed and a few synonyms of rules
meet ("modify" and "change", "every" and "all"), but a reply that restates a rule in
words the passage does not use stays a general statement. Passages are built once
per document text and indexed once per request.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from datetime import UTC, datetime

from receiptgate.checks.words import GENERIC, content_words, stem
from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt
from receiptgate.evidence.values import Value, fact_value
from receiptgate.text.segment import segment

#: Receipt kinds read as documents (when their content is prose, not records).
DOCUMENT_KINDS = frozenset({"rag", "memory", "web"})

_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*$")

_ITEM = re.compile(r"^(?:[-*+•]|\d{1,3}[.)])\s+")

NEGATION = re.compile(r"\b(?:not|never|no|cannot|can't|won't|isn't|aren't|don't|doesn't|without)\b")

_MAX_PASSAGES = 2_000  # per document: a bound on the cost of one receipt


@dataclass(frozen=True, slots=True)
class Passage:
    """One statement of a document: a sentence or list item, with its heading."""

    heading: str
    text: str
    words: frozenset[str]  # its content words and its heading's
    values: tuple[tuple[HardFact, Value], ...]  # the figures it states
    negated: bool


@dataclass(frozen=True, slots=True)
class DocumentMatch:
    """A passage a sentence restates."""

    receipt: Receipt
    passage: Passage
    shared: frozenset[str]
    coverage: float

    def line(self, near: str | None = None) -> str:
        """The evidence line: ``sys1 § Cancel pending order: '…7 business days.'``."""
        where = self.receipt.id
        if self.passage.heading:
            where += f" § {self.passage.heading}"
        return f"{where}: {_quote(self.passage.text, near)!r}"


def _quote(text: str, near: str | None, width: int = 110) -> str:
    if len(text) <= width:
        return text
    at = text.find(near) if near else -1
    if at < 0:
        return text[: width - 1] + "…"
    start = max(0, min(at - width // 2, len(text) - width))
    head = "…" if start else ""
    tail = "…" if start + width < len(text) else ""
    return f"{head}{text[start : start + width].strip()}{tail}"


def split_passages(content: str, now: datetime | None) -> list[Passage]:
    """A document's passages: sentences of its paragraphs and list items, each under the
    heading above it."""
    out: list[Passage] = []
    heading = ""
    lines: list[str] = []

    def flush() -> None:
        if not lines or len(out) >= _MAX_PASSAGES:
            lines.clear()
            return
        para = " ".join(lines)
        lines.clear()
        for s in segment(para):
            text = s.text.strip()
            if len(out) >= _MAX_PASSAGES or not text:
                continue
            values = tuple(
                (h, v)
                # "at most three gift cards": a rule's count, spelled out
                for h in extract_hard_facts(numerals(text), now=now)
                if h.kind != "identifier" and (v := fact_value(h)) is not None
            )
            words = canon(content_words(text) | content_words(heading) | _kept(text))
            negated = bool(NEGATION.search(text.lower()))
            out.append(Passage(heading, text, frozenset(words), values, negated))

    for raw in content.splitlines():
        line = raw.strip()
        if not line:
            flush()
            continue
        m = _HEADING.match(line)
        if m is not None:
            flush()
            heading = m.group(1).strip()
            continue
        item = _ITEM.match(line)
        if item is not None:
            flush()
            line = line[item.end() :]
        lines.append(line)
    flush()
    return out


@dataclass(frozen=True, slots=True)
class Library:
    """The passages of some documents, and each word's weight among them."""

    items: tuple[tuple[int, Passage], ...]  # (which document, passage)
    by_word: dict[str, tuple[int, ...]]
    weight: dict[str, float]
    unseen: float  # the weight of a word no passage uses


@functools.lru_cache(maxsize=128)
def _build(docs: tuple[tuple[str, str], ...]) -> Library:
    """The library of some documents, each (content, day its relative dates count from);
    cached by them (the same system prompt comes with every request of a session, and
    of every session of an agent)."""
    items: list[tuple[int, Passage]] = []
    for k, (content, day) in enumerate(docs):
        when = datetime.fromisoformat(day).replace(tzinfo=UTC)
        items.extend((k, p) for p in split_passages(content, when))
    by_word: dict[str, list[int]] = {}
    for i, (_, p) in enumerate(items):
        for w in p.words:
            by_word.setdefault(w, []).append(i)
    n = len(items)
    weight = {w: math.log(1 + n / len(at)) for w, at in by_word.items()}
    return Library(
        tuple(items),
        {w: tuple(at) for w, at in by_word.items()},
        weight,
        math.log(1 + 2 * n) if n else 1.0,
    )


def library(index: ReceiptIndex) -> tuple[Library, list[Receipt]]:
    """The request's documents (receipts of a document kind whose content is prose) and
    their library."""
    cached = index.cache.get("documents")
    if isinstance(cached, tuple):
        return cached
    receipts = [
        e.receipt for e in index.entries if e.receipt.kind in DOCUMENT_KINDS and e.format == "text"
    ]
    lib = _build(
        tuple((r.content, (r.created_at or index.now).date().isoformat()) for r in receipts)
    )
    found = (lib, receipts)
    index.cache["documents"] = found
    return found


def doc_words(text: str) -> frozenset[str]:
    return canon((content_words(text) - GENERIC - _CONTRACTED) | _kept(text))


#: What is left of "won't", "don't", "isn't": a negation (read apart), no word of a rule.
_CONTRACTED = frozenset(
    "don doesn didn isn aren wasn weren won wouldn couldn shouldn hasn haven hadn".split()
)


def _kept(text: str) -> frozenset[str]:
    low = text.lower()
    return frozenset(stem(t) for t in _RULE_WORD.findall(low))


#: Words a figure's subject does without but a rule turns on ("can only be called
#: once", "cannot modify the number of passengers", "the same cabin"): kept for
#: matching a rule although they are stopwords or generic measures elsewhere.
_RULE_WORD = re.compile(
    r"\b(?:once|number|items?|changes?|changed|changing|status|same|new|total|amount|"
    r"before|after|within|all|every)\b"
)

#: Words a rule and its restatement use for one thing ("buy" insurance and "purchase"
#: it; a rule "enables" a refund and the reply says it "allows" one), by stem.
_SAME = {
    stem(a): stem(b)
    for a, b in [
        ("purchase", "buy"),
        ("bought", "buy"),
        ("purchased", "buy"),
        ("allow", "enable"),
        ("allows", "enable"),
        ("permit", "enable"),
        ("cancellation", "cancel"),
        ("cancellations", "cancel"),
        ("canceled", "cancel"),
        ("cancelled", "cancel"),
        ("modification", "change"),
        ("modifications", "change"),
        ("modified", "change"),
        ("modify", "change"),
        ("refundable", "refund"),
        ("reimbursement", "refund"),
        ("alter", "change"),
        ("altered", "change"),
        ("switch", "change"),
        ("switched", "change"),
        ("every", "all"),
        ("single", "one"),
        ("policy", "rule"),
        ("policies", "rule"),
        # a product's variants: "a different version of the same product" is another option
        ("version", "option"),
        ("versions", "option"),
        ("variant", "option"),
        ("variants", "option"),
        ("update", "change"),
        ("updated", "change"),
        ("updates", "change"),
        ("afterward", "after"),
        ("afterwards", "after"),
        ("swap", "exchange"),
        ("swapped", "exchange"),
        ("another", "different"),
        # "can no longer be modified" and "will not be able to modify ... anymore"
        ("longer", "anymore"),
    ]
}


def canon(words: frozenset[str] | set[str]) -> frozenset[str]:
    return frozenset(_SAME.get(w, w) for w in words if w not in _ROLES)


#: Who a rule speaks of ("the user will receive an email"), which a reply says as "you".
_ROLES = content_words("user users customer customers agent agents")

_CAPITALISED = re.compile(r"\b[A-Z][\w'’-]*")


def rule_words(index: ReceiptIndex, sentence: str, *, lead: bool = False) -> frozenset[str]:
    """A sentence's words for matching a rule, without the names of records it restates
    ("the original payment method (PayPal)": PayPal is the customer's, not the rule's; it
    is checked against the records). ``lead``: keep a label before a colon ("Refund: 5
    to 7 business days" is of refunds)."""
    head = None if lead else LEAD.match(sentence)
    if head is not None and len(sentence) - head.end() > 30:
        sentence = sentence[head.end() :]  # "One thing to keep in mind: ...": the rule after
    sentence = _PER_POLICY.sub(" ", sentence)
    text = _CAPITALISED.sub(
        lambda m: " " if f"w:{m.group().lower()}" in index.by_key else m.group(), sentence
    )
    return doc_words(text) - HEDGE_WORDS


#: Where the sentence says its rule comes from ("Per our policy,", "according to the
#: policy", "under our rules"): a pointer to the document, no word of the rule.
_PER_POLICY = re.compile(
    r"\b(?:per|according\s+to|based\s+on|under|as\s+per|in\s+line\s+with|in\s+accordance\s+with)"
    r"\s+(?:our|the|airline|company|store)?\s*(?:policy|policies|rules?|guidelines?|terms)\b",
    re.IGNORECASE,
)


#: A short lead before a colon: "One thing to keep in mind:", "**Note:**".
LEAD = re.compile(r"^[\W_]*[A-Za-z][^:\n]{0,40}?[*_]*:[*_]*\s+")

#: "It seems that the refund must go to ...": how sure the sentence is, not the rule.
HEDGE_WORDS = content_words(
    "seems appears likely probably possibly perhaps maybe however unfortunately fortunately "
    "note please also additionally just actually currently typically generally usually "
    "primarily mainly due quite case cases regard cannot without existing "
    # how a rule binds, not what it is of: "changes are possible only while pending"
    "possible allowed permitted supported eligible "
    # connectives: "Because of that, the order can't be modified": how it follows, not the rule
    "because therefore thus hence consequently"
)


def ranked(lib: Library, words: frozenset[str]) -> list[tuple[float, int, frozenset[str]]]:
    """Passages sharing words with ``words``: (coverage, position, shared), best first."""
    if not words:
        return []
    total = sum(lib.weight.get(w, lib.unseen) for w in words)
    hits: dict[int, set[str]] = {}
    for w in words:
        for i in lib.by_word.get(w, ()):
            hits.setdefault(i, set()).add(w)
    ranked = [
        (sum(lib.weight[w] for w in shared) / total, i, frozenset(shared))
        for i, shared in hits.items()
    ]
    ranked.sort(key=lambda x: (-x[0], x[1]))
    return ranked


_SPELLED_COUNT = re.compile(
    r"\b(one|two|three|four|five|six|seven|eight|nine|ten)(?=\s+[a-z]{3,}(?:\s|[.,;:]|$))(?!\s+of\b)",
    re.IGNORECASE,
)

_NUMERAL = {
    w: str(i) for i, w in enumerate("one two three four five six seven eight nine ten".split(), 1)
}


def numerals(text: str) -> str:
    """A passage with its spelled counts before a noun as numerals ("at most three gift
    cards" -> "at most 3 gift cards"), for reading its figures (same length is not kept:
    only the figures' values are read from it)."""
    return _SPELLED_COUNT.sub(lambda m: _NUMERAL[m.group(1).lower()], text)
