"""Rules restated: a reply's sentence with no figure against the operator's passages.

A sentence restates a rule when it covers a passage's words (or holds nearly all of a
clause's) in the same polarity: a negation and a plain statement disagree, and a limit
("only", "requires", "unless", "without") agrees with either. A sentence that joins a
rule and its application to this user ("..., so I'm not able to set one up right
now") restates the rule by its rule clause. Matching is lexical; :mod:`documents`
builds the passages and their word weights.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from receiptgate.checks.documents import (
    LEAD,
    DocumentMatch,
    Library,
    Passage,
    doc_words,
    library,
    ranked,
    rule_words,
)
from receiptgate.checks.finding import Finding
from receiptgate.evidence.index import ReceiptIndex
from receiptgate.evidence.receipts import Receipt

#: A sentence restates a passage when it shares this many words with it, and they
#: carry this share of the sentence's weight.
RESTATE_SHARED = 3
RESTATE_COVERAGE = 0.7

#: ... or when it holds this share of the passage's own word weight (a rule restated
#: about a record: the sentence adds which one).
RESTATE_HELD = 0.7

#: ... or when it holds most of a passage's weight in four shared words or more, and
#: they carry half of its own.
RESTATE_MOST = 0.8
RESTATE_SOME = 0.5


def restated_passage(
    index: ReceiptIndex, sentence: str, fresh: Callable[[Receipt], bool]
) -> DocumentMatch | None:
    """The passage a sentence with no figure restates closely (same words, same polarity).

    A sentence that joins two rules ("Business class flights can always be cancelled, but
    the refund will go to the original payment methods") restates each of its clauses;
    a clause restates a passage that covers its words, or whose own words it holds
    nearly all of ("this reservation is in basic economy class, which cannot be
    modified" holds "Basic economy flights cannot be modified" and says which
    reservation).
    """
    lib, docs = library(index)
    if not lib.items:
        return None
    whole_text = sentence
    whole = _restated(index, lib, docs, sentence, fresh, least=RESTATE_SHARED)
    if whole is not None:
        return whole  # "the origin, destination, and trip type cannot be changed": one rule
    sentence = _ASIDE.sub(" ", sentence)
    lead = LEAD.match(sentence)
    if lead is not None:
        sentence = sentence[lead.end() :]  # "**Cancel:** not possible, since ..."
    clauses = [c for c in _CLAUSE_SPLIT.split(sentence) if c.strip()]
    if len(clauses) == 1 and clauses[0] != whole_text:
        # "Also worth knowing (not to rain on the parade): basic economy flights can't be
        # modified": the rule without its lead and asides
        return _restated(index, lib, docs, clauses[0], fresh, least=RESTATE_SHARED)
    if len(clauses) > 1:
        found: DocumentMatch | None = None
        omitted: list[str] = []
        for clause in clauses:
            if len(rule_words(index, clause)) < 2:
                continue  # "which is strict": nothing of its own to restate
            m = _restated(index, lib, docs, clause, fresh, least=2)
            if m is None and _APPLIED.search(clause) is None:
                if _polarity(clause) != "neg":
                    return None
                omitted.append(clause)
            found = found or m
        if found is not None and all(_left_out(index, found, c) for c in omitted):
            return found
    return None


def _left_out(index: ReceiptIndex, match: DocumentMatch, clause: str) -> bool:
    """Whether a negated clause says what the rule its sentence restates leaves out: "The
    insurance covers cancellations for health or weather reasons, but it does not cover
    change fees" restates "... travel insurance ... enables full refund if the user needs
    to cancel the flight given health or weather reasons", which names no change fee.
    The clause's own words (past the rule's subject it shares) must be none of the
    passage's: "... but not for health reasons" turns the rule round and is no omission."""
    words = rule_words(index, clause)
    own = words - match.passage.words
    return len(own) >= 1 and len(words & match.passage.words) <= 1


#: Where a sentence joins two statements: "..., but ...", "...; ...", "..., which ...",
#: "..., so ...", "... since ...".
_CLAUSE_SPLIT = re.compile(
    r"\s*(?:;|,\s*(?:but|and|which|so|while|though|although)\b|\s+but\s+|\bhowever\b|"
    r",?\s+(?:since|because|so)\s+)\s*"
)

#: An aside in brackets: "(like an airline-cancelled flight)".
_ASIDE = re.compile(r"\s*\([^()]*\)")

#: A clause that applies a rule to this conversation rather than stating one: "so I'm
#: not able to set one up right now", "so please confirm this is the only item". It
#: needs no passage of its own when another clause of the sentence restates one.
_APPLIED = re.compile(
    r"\b(?:I|I'm|I'd|I've|I'll|me|we|we're|we'll|you|you're|you'd|your|please|now)\b|"
    r"\b(?:this|that)\s+(?:order|reservation|item|flight|booking|one|means)\b|"
    r"\b(?:it'?s|it\s+is)\s+(?:best|easiest|better)\b",
    re.IGNORECASE,
)


def _restated(
    index: ReceiptIndex,
    lib: Library,
    docs: list[Receipt],
    text: str,
    fresh: Callable[[Receipt], bool],
    least: int,
) -> DocumentMatch | None:
    words = rule_words(index, text)
    # "The policies are quite strict": two words, both the rule's, one of them its own
    pair = least == RESTATE_SHARED and len(words) == 2
    if len(words) < least and not pair:
        return None
    polarity = _polarity(text)
    modal = _modality(text)
    best: tuple[float, DocumentMatch] | None = None
    for coverage, i, shared in ranked(lib, words)[:10]:
        k, passage = lib.items[i]
        if not _agree(polarity, _passage_polarity(lib, passage, shared)) or not fresh(docs[k]):
            continue
        if pair and shared == words and any(len(lib.by_word[w]) <= 2 for w in shared):
            return DocumentMatch(docs[k], passage, shared, coverage)
        if len(shared) < least:
            continue
        held = _held(lib, passage, shared)
        if (
            coverage >= RESTATE_COVERAGE
            or (len(shared) >= RESTATE_SHARED and len(words - shared) <= 2 and held >= RESTATE_HELD)
            # nearly all of a rule, in more words of the sentence's own: "Refunds for canceled
            # reservations go back to the original payment methods used at booking"
            or (len(shared) >= 4 and coverage >= RESTATE_SOME and held >= RESTATE_MOST)
        ):
            # of the passages it restates, the one most about it: "only pending orders
            # can be cancelled" restates "An order can only be cancelled if its status is
            # 'pending'" more than "you can help users cancel or modify pending orders"
            score = coverage + held + (0.25 if modal and modal == _modality(passage.text) else 0)
            if best is None or score > best[0]:
                best = (score, DocumentMatch(docs[k], passage, shared, coverage))
    return best[1] if best is not None else None


#: How a rule binds: "can only", "must", "at most".
_MODAL = re.compile(r"\b(?:only|must|at\s+most|at\s+least|always|never)\b", re.IGNORECASE)


def _modality(text: str) -> frozenset[str]:
    return frozenset(" ".join(m.lower().split()) for m in _MODAL.findall(text))


def _passage_polarity(lib: Library, passage: Passage, shared: frozenset[str]) -> str:
    """The polarity of the part of a passage that a sentence restates: the clause
    holding most of the shared words ("Cabin class must be the same across all the
    flights; changing cabin for just one segment is not possible" is a rule in each
    polarity)."""
    clauses = _clause_polarity(passage.text)
    if not clauses:
        return _polarity(passage.text)
    weight = lib.weight
    best = max(clauses, key=lambda c: sum(weight.get(w, 0.0) for w in shared & c[0]))
    return best[1]


@functools.lru_cache(maxsize=4096)
def _clause_polarity(text: str) -> tuple[tuple[frozenset[str], str], ...]:
    """Each clause of a passage of two or more clauses: its words and its polarity."""
    parts = [p for p in _PASSAGE_CLAUSE.split(text) if p.strip()]
    if len(parts) < 2:
        return ()
    return tuple((doc_words(p), _polarity(p)) for p in parts)


def _polarity(text: str) -> str:
    """How a rule or its restatement is put: ``"neg"`` ("cannot", "isn't"), ``"limit"``
    ("only", "requires", "unless", "without"), or ``"plain"``.

    A limit agrees with either of the others: "only pending orders can be cancelled"
    restates "an order can only be cancelled if its status is 'pending'";
    "splitting between two cards isn't supported" restates "the user can only choose a
    single payment method"; "certificates are only offered when a flight is delayed"
    restates "if ... complains about delayed flights, the agent can offer a
    certificate". A negation and a plain statement do not agree.
    """
    low = text.lower()
    if _LIMIT.search(low):
        return "limit"
    return "neg" if _NEGATED.search(low) else "plain"


def _agree(a: str, b: str) -> bool:
    return a == b or "limit" in (a, b)


_LIMIT = re.compile(r"\b(?:only|unless|requires?|required|without)\b")

#: A negation ("without" is none: "can change cabin without changing the flights").
_NEGATED = re.compile(
    r"\b(?:not|never|no|cannot|can[’']t|won[’']t|isn[’']t|aren[’']t|don[’']t|doesn[’']t)\b"
)


def _held(lib: Library, passage: Passage, shared: frozenset[str]) -> float:
    """The share of a passage's word weight that a sentence holds: of the whole passage,
    or of one of its clauses ("..., and the user will receive an email regarding how to
    return items" is restated by "you'll receive an email on how to return the item")."""
    best = 0.0
    for words in (passage.words, *_clause_sets(passage.text)):
        total = sum(lib.weight.get(w, lib.unseen) for w in words)
        if total:
            held = sum(lib.weight.get(w, lib.unseen) for w in shared & words) / total
            best = max(best, held)
    return best


@functools.lru_cache(maxsize=4096)
def _clause_sets(text: str) -> tuple[frozenset[str], ...]:
    """The words of each clause of three words or more, of a passage of two or more
    clauses."""
    return tuple(words for words, _ in _clause_polarity(text) if len(words) >= 3)


#: Where a rule's clauses meet: "...; ...", "..., and ...", "..., but ...".
_PASSAGE_CLAUSE = re.compile(r"\s*(?:;|,\s*(?:and|but|so|while|or)\b|\s+but\s+)\s*")


#: What a sentence says the operator's documents leave out: "our policy does not list a
#: separate change fee", "there's no change fee in our policy".
_UNLISTED = re.compile(
    r"\b(?:policy|policies|rules?|terms)\b[^.;:]{0,30}?\b(?:does\s+not|doesn[’']t|do\s+not|"
    r"don[’']t)\s+(?:list|mention|include|specify|set|have)\s+(?:an?\s+|any\s+)?"
    r"(?P<a>[a-z][a-z -]{2,40}?)(?=[.;,:)]|\s+(?:for|so|and|but)\b|$)"
    r"|\bthere(?:[’']s|\s+is|\s+are)\s+no\s+(?P<b>[a-z][a-z -]{2,40}?)\s+"
    r"(?:in|under|per)\s+(?:our|the)\s+(?:policy|policies|rules?|terms)\b",
    re.IGNORECASE,
)

#: Words that say nothing of what is left out: "a separate change fee".
_UNLISTED_FILL = doc_words("separate additional extra specific special any such other")


def unlisted(index: ReceiptIndex, sentence: str) -> Finding | None:
    """The operator's documents, as support of a sentence saying they leave something
    out ("there's no separate change fee in our policy"), when one of that thing's words
    is in none of their passages (a policy that never says "fee")."""
    m = _UNLISTED.search(sentence)
    if m is None:
        return None
    lib, docs = library(index)
    words = doc_words(m.group("a") or m.group("b")) - _UNLISTED_FILL
    missing = sorted(w for w in words if w not in lib.by_word)
    if not lib.items or not missing:
        return None  # the documents use its words: what they say decides, not absence
    names = ", ".join(sorted({d.id for d in docs}))
    detail = f"{names}: no passage has the word {missing[0]!r}"
    return Finding("supported", docs[0].id, docs[0].kind, detail)
