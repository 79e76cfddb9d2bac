"""What the agent says its tools do not show: "The system doesn't list any fees or
shipping costs for this item", "My catalog view doesn't expose a brand or model name",
"I don't see sale or bundle flags in my view".

Such a sentence is about the tool results, not the world: it is backed when none of the
newest structured results has a field of what it names (each thing it names, "fees or
shipping costs", on its own), and left unsettled when one has (the field may be empty or
zero there: what it holds is for the other checks to read). The operator's documents
leaving something out is ``checks/restated_rules.unlisted``.
"""

from __future__ import annotations

import re

from receiptgate.checks.calls import failed, tool_calls
from receiptgate.checks.finding import Finding
from receiptgate.checks.words import GENERIC, content_words
from receiptgate.evidence.index import ReceiptIndex

_ARTICLE = r"(?:any\s+|a\s+|an\s+|the\s+)?(?:specific\s+|separate\s+)?"
_THING = r"[a-z][a-z /-]{2,50}?"
_END = r"(?=[.;,:()—–]|\s+(?:for|in|on|beyond|like|such|so|but|at\s+this)\b|$)"
_UNSHOWN = re.compile(
    # "the system doesn't list any fees", "my catalog view doesn't expose a brand name"
    r"\b(?:the|my|our)\s+(?:system|catalog|catalogue|records?|data|view|catalog\s+view|"
    r"order\s+data|tools?)\s+(?:does\s+not|doesn['’]t|did\s+not|didn['’]t|do\s+not|don['’]t)"
    rf"\s+(?:list|show|provide|include|display|expose|contain|have|give)\s+{_ARTICLE}"
    rf"(?P<a>{_THING}){_END}"
    # "I don't see sale or bundle flags in my view"
    rf"|\bi\s+(?:do\s+not|don['’]t)\s+see\s+{_ARTICLE}(?P<b>{_THING})"
    r"(?=\s+(?:in|on)\s+(?:my|the)\s+(?:view|system|records?|catalog|data)\b)",
    re.IGNORECASE,
)
#: Things a sentence names together: "fees or shipping costs".
_EITHER = re.compile(r"\s*,\s*|\s+(?:or|and|nor)\s+|/", re.IGNORECASE)
#: Words that say nothing of which field: "details", "information".
_FILL = content_words("details detail information info data value values number numbers")
#: How many of the newest structured results are read.
_RESULTS = 6


def unshown(index: ReceiptIndex, sentence: str) -> Finding | None:
    """The newest structured results, as support of a sentence that says they do not
    show something (see the module doc); ``None`` when one of them has such a field, or
    when there are none."""
    m = _UNSHOWN.search(sentence)
    if m is None:
        return None
    said = m.group("a") or m.group("b")
    things = [content_words(part) - GENERIC - _FILL for part in _EITHER.split(said)]
    things = [t for t in things if t]
    if not things:
        return None
    results = [e for e in reversed(tool_calls(index)) if e.records and not failed(e)][:_RESULTS]
    if not results:
        return None
    for e in results:
        for rec in e.records:
            for leaf in rec.subtree_leaves():
                named = content_words(re.sub(r"[._\[\]\"]+", " ", leaf.path))
                if any(t <= named for t in things):
                    return None  # a field of it is there: what it holds decides elsewhere
    rid = results[0].receipt.id
    shown = said.strip()
    return Finding("supported", rid, "tool", f"{rid}: no field of {shown} in the newest results")
