"""Hard-fact claims: the numbers, amounts and dates a sentence asserts.

Every hard fact in a factual sentence must show a receipt. Hard facts inside a
detector claim's span (``nats-events has 255908 items``) ride on that claim;
the others become claims of their own (``quantity`` or ``temporal``). Each gets
a risk class from its kind and the words of its sentence, which picks the
policy that applies when the receipt is missing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from receiptgate.checks.words import content_words
from receiptgate.claims.collect import clause_around
from receiptgate.claims.models import ClaimCategory, DetectedClaim, HardFact
from receiptgate.claims.sentence_type import is_expression
from receiptgate.policy.policy_file import RiskClass

_MEDICAL = re.compile(
    r"\b(?:dose|dosage|mg|mcg|ml|patients?|medication|medicine|drugs?|diagnos\w*|treatments?|"
    r"symptoms?|clinical|prescri\w*|therapy|vaccine)\b",
)
_LEGAL = re.compile(
    r"\b(?:legal|law|laws|lawsuit|court|liab\w*|regulat\w*|gdpr|hipaa|compliance|statute|"
    r"jurisdiction|indemn\w*|attorney|litigation|fine[sd]?|penalt\w*)\b",
)
_CONTRACT = re.compile(
    r"\b(?:contracts?|agreements?|msa|sla|clauses?|renew\w*|terms?|notice|terminat\w*|signed|"
    r"sow|purchase\s+order|invoices?|payment|net\s+\d+|due|order\s+form|subscription|seats?|"
    r"commitment|obligat\w*|warrant\w*)\b",
)
_FINANCE = re.compile(
    r"\b(?:revenue|arr|mrr|profit|margins?|churn|growth|grew|sales|budget|costs?|price|pricing|"
    r"valuation|funding|cash|burn|runway|ebitda|income|expenses?|spend|discount|refund|"
    r"headcount|customers?|market\s+share|bookings|pipeline|quota|acv|ltv|cac|nrr|gmv)\b",
)
_BENCH = re.compile(
    r"\b(?:benchmarks?|accuracy|latency|throughput|p\d\d|precision|recall|f1|score[sd]?|faster|"
    r"slower|qps|rps|speedup|auroc|auc|bleu|perplexity|error\s+rate|uptime|ms)\b",
)

#: Bare numbers up to this size, with no unit, are not treated as hard facts by default.
SMALL_NUMBER = 10


@dataclass(frozen=True, slots=True)
class RiskWords:
    """Which risk vocabularies a sentence uses (computed once per sentence)."""

    medical: bool
    legal: bool
    contract: bool
    finance: bool
    bench: bool

    @classmethod
    def of(cls, sentence: str) -> RiskWords:
        # Five short-circuiting, case-sensitive searches over the lowercased text
        # beat one scan that must find every match, and case-insensitive matching.
        low = sentence.lower()
        return cls(
            bool(_MEDICAL.search(low)),
            bool(_LEGAL.search(low)),
            bool(_CONTRACT.search(low)),
            bool(_FINANCE.search(low)),
            bool(_BENCH.search(low)),
        )


def risk_class(fact: HardFact, sentence: str | RiskWords) -> RiskClass:
    """Chooses the risk class of a hard fact from its kind and its sentence's words."""
    w = sentence if isinstance(sentence, RiskWords) else RiskWords.of(sentence)
    if w.medical:
        return "medical"
    if w.legal:
        return "legal"
    kind = fact.kind
    if kind == "money":
        return "contractual" if w.contract else "financial"
    if kind == "duration" and w.bench and not w.contract:
        return "benchmark"  # "p95 latency is 85 ms"
    if kind in ("date", "time", "datetime", "duration"):
        return "contractual" if w.contract else "schedule"
    if kind in ("percent", "count", "number"):
        if w.finance:
            return "financial"
        if w.bench:
            return "benchmark"
        if w.contract:
            return "contractual"
    return "general"


def requires_receipt(fact: HardFact, small_numbers_are_facts: bool) -> bool:
    """Whether a hard fact must be backed (identifiers name things; they assert nothing)."""
    if fact.kind == "identifier":
        return False
    small = (
        fact.kind == "number"
        and fact.number is not None
        and float(fact.number).is_integer()
        and 0 <= fact.number <= SMALL_NUMBER
    )
    return small_numbers_are_facts or not small


def in_code_span(text: str, fact: HardFact) -> bool:
    """Whether a plain number sits inside inline code with other code ("`50 > 40`, so no
    parens"): a literal of the code the agent quotes, no figure it asserts."""
    if fact.kind != "number":
        return False
    a, b = _line_of(text, fact)
    before, after = text[a : fact.start], text[fact.end : b]
    if before.count("`") % 2 == 0 or "`" not in after:
        return False
    # a span that is the number alone (`6118151718`, an item id quoted) is the figure itself
    span = before[before.rfind("`") + 1 :] + fact.text + after[: after.find("`")]
    return span.strip() != fact.text.strip()


def in_expression(text: str, fact: HardFact) -> bool:
    """Whether a plain number sits in a line of math or code rather than prose
    ("(-1)**x * 4**x * (-1)**(-x)")."""
    if fact.kind != "number":
        return False
    a, b = _line_of(text, fact)
    return is_expression(text[a:b])


def _line_of(text: str, fact: HardFact) -> tuple[int, int]:
    """Where the line holding a fact starts and ends."""
    end = text.find("\n", fact.end)
    return text.rfind("\n", 0, fact.start) + 1, end if end >= 0 else len(text)


# Clause edges: punctuation, dashes, contrast words, and "and" before a new
# name or figure ("Berlin had 1,240 orders and Munich 980").
_CLAUSE = re.compile(
    r"[,;:()\[\]|]|\s[-–—]\s|\bbut\b|\bwhile\b|\bwhereas\b|\band\s+(?=[A-Z0-9$€£])"
)


_TOKEN = re.compile(r"\S+")
_BACK = 4
_FORWARD = 4


def _inside(m: re.Match[str], facts: Sequence[HardFact]) -> bool:
    return any(h.start <= m.start() < h.end for h in facts)


def clause_bounds(text: str, start: int, end: int, at: HardFact) -> tuple[int, int]:
    """The whole clause holding a figure (between punctuation, "but", "and 31 ...")."""
    return clause_around(text, start, end, at.start, at.end, _CLAUSE)


def clause_span(
    text: str, start: int, end: int, facts: Sequence[HardFact], at: HardFact
) -> tuple[int, int]:
    """The words next to a figure, inside its clause: what the figure is about.

    "$2.4M and churn was 5%" is about churn, not revenue: a few words each way
    (``_BACK``, ``_FORWARD``), not crossing a clause edge, skipping other figures.
    """
    left, right = clause_bounds(text, start, end, at)
    before = [m for m in _TOKEN.finditer(text, left, at.start) if not _inside(m, facts)][-_BACK:]
    after = [m for m in _TOKEN.finditer(text, at.end, right) if not _inside(m, facts)][:_FORWARD]
    if before:
        left = max(left, before[0].start())
    if after:
        right = min(right, after[-1].end())
    return left, right


#: Days of the week and time zones as a date or a time is written with them ("Tuesday,
#: March 4", "Tue 3/4", "8:45am Pacific").
_DAY_AND_ZONE_WORDS = content_words(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs "
    "fri sat sun pacific eastern central mountain pt pst pdt et est edt ct cst cdt mt mst mdt"
)


def clause_words(
    text: str, start: int, end: int, facts: Sequence[HardFact], at: HardFact | None
) -> frozenset[str]:
    """Content words of the clause around ``at`` (the sentence when ``at`` is None)."""
    if at is None:
        return _words_outside(text, start, end, facts)
    left, right = clause_span(text, start, end, facts, at)
    words = _words_outside(text, left, right, facts)
    if words and (unit := _PER_UNIT.match(text, at.end, right)) is not None:
        # "$364 per person": the unit is how the figure is counted, not what it is of
        words -= content_words(unit.group(1))
    if (cut := min(left, at.start)) > start and _LABEL_ONLY.match(text, start, cut):
        # "Business class: $364 per passenger": the line's label says what the figure is
        words |= _words_outside(text, start, cut, facts)
    if not words:
        words = _words_outside(text, start, end, facts)
    if at.kind in ("date", "time", "datetime"):
        # "Tue 3/4, 8:45am Pacific": the day's name and the zone are the figure's own
        words -= _DAY_AND_ZONE_WORDS
    if at.kind in ("date", "time", "datetime") and _UNTIL.search(
        text, max(start, at.start - 30), at.start
    ):
        # "You can cancel free of charge until April 11": the figure is a deadline
        words |= DEADLINE_WORDS
    return words


#: A deadline's word right before a date or a time ("until April 11", "by 6 PM on").
_UNTIL = re.compile(
    r"\b(?:until|till|by|no\s+later\s+than)\s+(?:the\s+)?(?:[\w:,]+\s+){0,3}$", re.IGNORECASE
)
#: What a deadline is called in a field's name ("cancellation_deadline").
DEADLINE_WORDS = content_words("deadline")


#: The unit right after a figure: "per person", "per passenger", "per night".
_PER_UNIT = re.compile(r"\s*(?:[*_]+\s*)?per\s+([a-z]+)\b", re.IGNORECASE)

#: A line's label and nothing else: "**Business class:** ", "- Total fare: ".
_LABEL_ONLY = re.compile(r"[\W_]*[A-Za-z][\w &/-]{0,40}[*_]*:[*_\s]*$")


def _words_outside(text: str, start: int, end: int, facts: Sequence[HardFact]) -> frozenset[str]:
    parts: list[str] = []
    pos = start
    for h in facts:
        if h.end <= start or h.start >= end:
            continue
        parts.append(text[pos : max(pos, h.start)])
        pos = max(pos, h.end)
    parts.append(text[pos:end])
    return content_words(" ".join(parts))


def hard_claim(fact: HardFact, sentence_index: int, subject: str) -> DetectedClaim:
    """A standalone claim for one hard fact."""
    category: ClaimCategory = (
        "temporal" if fact.kind in ("date", "time", "datetime") else "quantity"
    )
    return DetectedClaim(
        category=category,
        detector_id=f"hardfact.{fact.kind}",
        matched_text=fact.text,
        offset=fact.start,
        end=fact.end,
        subject=subject,
        assertion=fact.kind,
        confidence=0.95,
        sentence_index=sentence_index,
        value=fact.value,
        hard_facts=[fact],
    )


_PATH = re.compile(r"(?<![\w/])(?:\.{0,2}/[\w.@-]+)+")
_NAME = re.compile(r"(?<![\w.])([A-Z][a-zA-Z0-9&-]+(?:\s+[A-Z][a-zA-Z0-9&-]+)*)")
#: Capitalised words that are not names (sentence openers, months, days, periods).
NOT_NAMES = frozenset(
    """
    i the a an this that these those it we you they he she our my your their his her its if when
    while but and or so then there here yes no not ok per from according in on at of for to by
    with as also however therefore thus after before during please note january february march
    april may june july august september october november december jan feb mar apr jun jul aug
    sep sept oct nov dec monday tuesday wednesday thursday friday saturday sunday today
    yesterday tomorrow q1 q2 q3 q4 fy usd eur gbp
    """.split()
)


def sentence_anchors(sentence: str, facts: Sequence[HardFact]) -> list[str]:
    """Names, hosts, paths and ids in a sentence: strong hints of what it is about.

    A receipt that names the same host or customer is about the same subject
    even when the wording differs ("CPU on web-01" vs ``mpstat`` with host web-01).
    """
    out = [h.value for h in facts if h.kind == "identifier"]
    out.extend(m.group().lower() for m in _PATH.finditer(sentence) if len(m.group()) > 2)
    for m in _NAME.finditer(sentence):
        if m.start() == 0 and " " not in m.group():
            continue  # a capital at the start of a sentence is grammar, not a name
        for word in m.group().split():
            w = word.lower()
            if len(w) > 2 and w not in NOT_NAMES:
                out.append(w)
    return list(dict.fromkeys(out))
