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

_ARTICLE = r"(?:any\s+|a\s+|an\s+|the\s+)?(?:specific\s+|separate\s+|finer\s+|direct\s+|exact\s+)?"
_THING = r"[a-z][a-z /\u2010\u2011-]{2,50}?"
_END = (
    r"(?=[.;,:()—–]|\s+(?:for|in|on|beyond|like|such|so|but|at\s+this|until|here)\b|"
    r"\s+or\s+whether\b|$)"
)
#: Where the agent looks: "in this system", "in my view", "in the order record".
_SYSTEM = (
    r"(?:system|catalog|catalogue|records?|data|view|tools?|order\s+data|product\s+data|"
    r"account|profile)"
)
_WHERE = rf"(?:in|on|within|from)\s+(?:my|the|this|our)\s+(?:[\w-]+\s+)?{_SYSTEM}\b"
_SHOWN = r"(?:shown|visible|listed|available|indicated|included)"
_NOT = r"(?:does\s+not|doesn['’]t|did\s+not|didn['’]t|do\s+not|don['’]t)"
_UNSHOWN = re.compile(
    # "the system doesn't list any fees", "my catalog view doesn't expose a brand name",
    # "Our system also doesn't show any subscriptions", "The records I can access don't
    # include item-specific return deadlines", "The system did not return a specific ETA"
    rf"\b(?:the|my|our)\s+(?:{_SYSTEM}|catalog\s+view)(?:\s+i\s+can\s+(?:access|see))?"
    rf"(?:\s+also)?\s+{_NOT}\s+(?:list|show|provide|include|display|expose|contain|have|"
    rf"give|indicate|return|mention)\s+{_ARTICLE}(?P<a>{_THING}){_END}"
    # "I don't see sale or bundle flags in my view", "I'm not seeing an ETA field ... in
    # the order record"
    rf"|\bi(?:\s+do\s+not\s+see|\s+don['’]t\s+see|['’]m\s+not\s+seeing|\s+am\s+not\s+seeing)\s+"
    rf"{_ARTICLE}(?P<b>{_THING})(?=\s+(?:available\s+)?{_WHERE})"
    # "I don't have visibility in this system into restocking or shipping fees", "I don't
    # have access to customer reviews", "... system visibility on whether the replacement
    # ships upon first scan"
    rf"|\bi\s+(?:do\s+not|don['’]t)\s+have\s+(?:any\s+)?(?:direct\s+|system\s+)?"
    rf"(?:visibility|access)(?:\s+{_WHERE})?\s+(?:(?:in)?to|on|of)\s+"
    rf"(?:whether\s+(?P<f>[^.;,]{{3,80}})|{_ARTICLE}(?P<c>{_THING}){_END})"
    # "I don't have separate return authorization numbers in my system", "I don't have fee
    # or shipping-charge details in the system", "... finer shade details beyond the color"
    rf"|\bi\s+(?:do\s+not|don['’]t)\s+have\s+{_ARTICLE}(?P<d>{_THING})\s+(?:{_WHERE}|beyond\b)"
    # "Specific window duration and fees aren't shown in my system", "No specific
    # shrinkage notes appeared in our product data", "No fees are indicated here"
    rf"|^(?:[^:]{{1,40}}:\s*)?(?:no\s+{_ARTICLE}(?P<e>{_THING})\s+(?:(?:is|are|were|was)\s+{_SHOWN}|"
    rf"appear(?:s|ed)?)|{_ARTICLE}(?P<g>{_THING})\s+(?:is|are)(?:\s+not|n['’]t)\s+{_SHOWN})\s+"
    rf"(?:{_WHERE}|here\b)"
    # "No estimated delivery date is available yet", "there's no tracking or arrival date
    # available at this time", "Direct download links aren't available from my side"
    rf"|(?:^(?:[^:]{{1,40}}:\s*)?|\bthere(?:['’]s|\s+is|\s+are)\s+)no\s+{_ARTICLE}(?P<h>{_THING})\s+"
    rf"(?:(?:is|are)\s+)?(?:currently\s+)?available\b(?=\s+(?:yet|at\s+this\s+(?:time|point)|"
    rf"right\s+now|from\s+my\s+(?:side|end)|through\s+this\s+system)\b|\s*[.!;]?\s*$)"
    rf"|(?:^(?:[^:]{{1,40}}:\s*)?|,\s*but\s+){_ARTICLE}(?P<i>{_THING})\s+(?:is|are)(?:\s+not|n['’]t)\s+"
    rf"available\s+"
    rf"(?:from\s+my\s+(?:side|end)|through\s+this\s+system|in\s+this\s+system)\b",
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
    said = next(g for g in m.groups() if g)
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
