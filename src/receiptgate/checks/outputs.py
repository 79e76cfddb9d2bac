"""What the tools' outputs say by their shape: a search that found nothing, fares all above
a budget, a call that failed, and words a call printed that a sentence repeats.

Each backs a sentence that has no claim of its own to check, or whose claim the ledger
cannot decide: "there are no nonstop flights from JFK to SFO" (:func:`empty_result`),
"none within your budget of $100" (:func:`over_budget`), "it seems there was an issue
locating the order" (:func:`reported_failure`), a line of output repeated
(:func:`quoted_output`) or quoted (:func:`quoted_span`). What a record does not hold is
read in ``checks/absences``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from receiptgate.checks.absences import EMPTY
from receiptgate.checks.calls import ERRORISH, failed, tool_calls
from receiptgate.checks.counts import NO_LIST_THAT_LONG
from receiptgate.checks.finding import Finding
from receiptgate.checks.ledger import snippet
from receiptgate.claims.hardfacts import extract_hard_facts
from receiptgate.claims.models import HardFact
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

# A sentence reporting that something went wrong: "there was an issue locating the
# order", "I couldn't find your account", "the lookup failed".
_REPORTS_FAILURE = re.compile(
    r"\b(?:issue|issues|problem|error|trouble|unable|couldn['’]t|could\s+not|can['’]t|"
    r"cannot|failed|not\s+(?:able|found)|(?:wasn|weren)['’]t\s+able|no\s+(?:record|match|results?)|"
    r"(?:didn['’]t|did\s+not|wasn['’]t|was\s+not)\s+(?:go\s+through|complete[d]?|accepted|"
    r"successful)|rejected|declined|refused)\b",
    re.IGNORECASE,
)


def empty_result(index: ReceiptIndex, sentence: str) -> Finding | None:
    """A call that found nothing (``[]``, ``{}``) behind "there are no nonstop flights
    from JFK to SFO on May 6": the latest such call of the last few whose arguments the
    sentence names (or the very last call)."""
    tools = tool_calls(index)
    low = sentence.lower()
    empty = [e for e in tools[-6:] if _found_nothing(e)]
    # every day the sentence names must be a day a search that found nothing asked for:
    # "no flights on June 15 and June 22" after searching June 15 only is not backed
    days = [h.value for h in extract_hard_facts(sentence, now=index.now) if h.kind == "date"]
    if days:
        asked = {str(v)[-5:] for e in empty for v in (e.receipt.args or {}).values()}
        if any(isinstance(d, str) and d[-5:] not in asked for d in days):
            return None
    nothing = {id(e) for e in empty}
    for back, e in enumerate(reversed(tools[-6:])):
        if id(e) not in nothing:
            continue  # a search that printed nothing found nothing; a silent chmod did not
        args = [
            str(v).lower()
            for v in (e.receipt.args or {}).values()
            if isinstance(v, str | int | float) and len(str(v)) >= 3
        ]
        if (
            back == 0
            or any(re.search(rf"\b{re.escape(a)}\b", low) for a in args)
            or _names_search(e, tools[-6:], set(_WORDS.findall(low)))
        ):
            rid = e.receipt.id
            return Finding(
                "supported", rid, "tool", f"{rid}: the {e.receipt.tool or 'call'} found nothing"
            )
    return None


def _found_nothing(e: ReceiptEntry) -> bool:
    content = e.receipt.content.strip()
    searched = _SEARCHES.search((e.receipt.tool or "").lower()) is not None
    return not failed(e) and (content in EMPTY or (not content and searched))


def found_results(index: ReceiptIndex, sentence: str) -> Finding | None:
    """A search that found something behind "direct flights are available both ways":
    the latest of the last few searches whose tool name shares a word with the sentence
    ("search_direct_flight": "direct") and that returned rows."""
    words = set(_WORDS.findall(sentence.lower()))
    recent = tool_calls(index)[-6:]
    searches = [e for e in recent if _SEARCHES.search((e.receipt.tool or "").lower())]
    # "Both return flights are available" names no search of several: any that shares a
    # word; "direct flights are available" names the direct one, which alone may back it
    named = [e for e in searches if _names_search(e, recent, words)] or [
        e for e in searches if any(w in words or f"{w}s" in words for w in _tool_words(e))
    ]
    for e in reversed(named):
        if failed(e) or e.receipt.content.strip() in EMPTY:
            continue
        rows = sum(len(rec.children) for rec in e.records if rec.children) or len(e.records)
        if not rows:
            continue
        rid = e.receipt.id
        return Finding("supported", rid, "tool", f"{rid}: the {e.receipt.tool} found {rows}")
    return None


_WORDS = re.compile(r"[a-z]+")
_SEARCH_VERBS = frozenset({"search", "find", "list", "query", "lookup", "get", "by", "for"})


def _tool_words(e: ReceiptEntry) -> set[str]:
    tool = (e.receipt.tool or "").lower().replace("_", " ")
    return {w for w in _WORDS.findall(tool) if w not in _SEARCH_VERBS}


def _names_search(e: ReceiptEntry, recent: list[ReceiptEntry], words: set[str]) -> bool:
    """Whether a sentence's words name a search by the words of its tool's name that the
    other recent searches' names lack ("direct flights" names search_direct_flight, not
    search_onestop_flight, though both search flights); a word of the name, when no other
    search is recent."""
    own = _tool_words(e)
    others = [
        _tool_words(x)
        for x in recent
        if x is not e and _SEARCHES.search((x.receipt.tool or "").lower()) and _tool_words(x) != own
    ]
    telling = own - set().union(*others) if others else own
    return any(w in words or f"{w}s" in words for w in telling)


def over_budget(index: ReceiptIndex, sentence: str) -> Finding | None:
    """The newest search behind "there are no nonstop flights within your budget of $100":
    every price it lists is above the budget. (A search that lists one within it neither
    backs nor contradicts the sentence here: which row it is about, the sentence may not
    say.)"""
    m = _BUDGET.search(sentence)
    if m is None:
        return None
    limit = float(m.group(1).replace(",", ""))
    for e in reversed(tool_calls(index)[-6:]):
        if failed(e) or not _SEARCHES.search((e.receipt.tool or "").lower()):
            continue
        prices = [
            leaf.value.number
            for rec in e.records
            for leaf in rec.subtree_leaves()
            if leaf.value.kind == "money"
            and leaf.value.number is not None
            and not leaf.path.startswith("args")
        ]
        if not prices:
            continue
        if min(prices) <= limit:
            return None
        rid = e.receipt.id
        detail = (
            f"{rid}: every price it lists is above {m.group(1)} (the lowest is {min(prices):g})"
        )
        return Finding("supported", rid, "tool", detail)
    return None


#: A budget a sentence holds results against: "within your budget of $100", "under $500".
_BUDGET = re.compile(
    r"\b(?:within|under|below|less\s+than|cheaper\s+than|at\s+most|at\s+or\s+(?:under|below)|"
    r"no\s+more\s+than|up\s+to)\s+(?:your\s+|the\s+)?"
    r"(?:budget\s+(?:of\s+)?)?[$€£]\s?(\d[\d,]*(?:\.\d+)?)",
    re.IGNORECASE,
)

#: Calls that list options to choose from: searches, and a product's variants.
_SEARCHES = re.compile(r"search|find|list|query|lookup|grep|product|catalog")


def reports_failure(text: str) -> bool:
    """Whether a text says something went wrong ("the system rejected the request")."""
    if _REPORTS_FAILURE.search(text) is None or _REPORTS_FIX.search(text):
        return False
    return not _AIMS_AT.search(text) or _ATTEMPT_FAILED.search(text) is not None


def reported_failure(index: ReceiptIndex, sentence: str) -> Finding | None:
    """The latest call's failure, when the sentence reports that something went wrong
    ("It seems there was an issue locating the order" after ``Error: order not found``)."""
    if not reports_failure(sentence):
        return None  # "The issue ... has been fixed" reports a success
    tools = tool_calls(index)
    if not tools or not failed(tools[-1]):
        return None
    last = tools[-1]
    rid = last.receipt.id
    what = snippet(last.receipt.content, ERRORISH)
    return Finding(
        "supported", rid, "tool", f"{rid}: the {last.receipt.tool or 'tool'} call failed ({what})"
    )


_REPORTS_FIX = re.compile(
    r"\b(?:has|have|had|was|were|been)\s+(?:now\s+|successfully\s+)?(?:addressed|fixed|"
    r"resolved|solved|corrected|handled)\b",
    re.IGNORECASE,
)
#: What a change is for: "changes made to address the issue", "this should resolve the
#: problem" (the issue is the task, no failure) ...
_AIMS_AT = re.compile(
    r"\b(?:to|that|which|will|should|would)\s+(?:now\s+)?(?:address|fix|resolve|solve|"
    r"correct|handle)(?:es|s)?\s+(?:the|this|that|your|an?)\s+(?:\w+\s+)?(?:issue|problem|error)",
    re.IGNORECASE,
)
#: ... unless the sentence says the attempt failed: "I was unable to fix the issue".
_ATTEMPT_FAILED = re.compile(
    r"\b(?:unable|couldn['’]t|could\s+not|can['’]t|cannot|failed|not\s+able|"
    r"(?:didn['’]t|did\s+not)\s+(?:manage|work))\b",
    re.IGNORECASE,
)

_QUOTE_EDGE = re.compile(r"^[\W_]+|[\W_]+$")


def quoted_output(index: ReceiptIndex, sentence: str) -> Finding | None:
    """A tool output the sentence repeats word for word ("This is a stupid typo." after
    ``cat bad.txt`` printed that line): the output is its receipt. Three words at least."""
    text = " ".join(_QUOTE_EDGE.sub("", sentence).split()).lower()
    if len(text.split()) < 3:
        return None
    # "The answer is OpenHands is all you need!": what follows "is" (or a colon) may be
    # the output, said as the answer
    tails = [
        t
        for m in _ANSWER.finditer(text)
        if len((t := _QUOTE_EDGE.sub("", text[m.end() :])).split()) >= 3
    ]
    flat = index.cache.get("flat_outputs")
    if not isinstance(flat, list):
        # each call's output, lowercase with runs of spaces as one: once per index
        flat = index.cache["flat_outputs"] = [
            (e.receipt.id, " ".join(e.receipt.content.lower().split())) for e in tool_calls(index)
        ]
    for rid, output in reversed(flat):
        said = next((t for t in (text, *tails) if t in output), None)
        if said is not None:
            return Finding("supported", rid, "tool", f"{rid} printed it: {said[:80]!r}")
    return None


#: Where a sentence gives its answer: "... is", "... was", ":".
_ANSWER = re.compile(r"\b(?:is|was|are|were|reads|says)\s+|:\s+")


def quoted_span(index: ReceiptIndex, sentence: str) -> Finding | None:
    """A statement whose quoted material a call printed or was given word for word: "The
    file we need is `/repo/pydicom/numpy_handler.py`", "it raised an `AttributeError`",
    "The answer is **OpenHands is all you need!**". The quoted words are restated from the
    call, which is the sentence's receipt (the newest that holds them)."""
    spans = [(x.strip(), q) for x, q in _quoted(sentence) if len(x.strip()) >= 3]
    found = _held_span(index, spans)
    if found is None:
        return None
    rid, span = found
    return Finding("supported", rid, "tool", f"{rid} holds {span[:80]!r}")


def quoted_claim(index: ReceiptIndex, sentence: str, claimed: str) -> Finding | None:
    """A claim inside quoted material that a call printed word for word: "The error in
    my test is `AttributeError: 'NoneType' object has no attribute 'format'`" repeats the
    traceback, it does not say by itself that something lacks an attribute."""
    claimed = claimed.strip(" '\"`").lower()
    if not claimed:
        return None
    found = _held_span(index, [(x, q) for x, q in _quoted(sentence) if claimed in x.lower()])
    if found is None:
        return None
    rid, span = found
    return Finding("supported", rid, "tool", f"{rid} printed it: {span[:80]!r}")


def _quoted(sentence: str) -> list[tuple[str, bool]]:
    """The quoted spans of a sentence, each with whether it is single-quoted ('Fare',
    'dummy': a value as Python prints one, KeyError: 'Fare'); a span wrapped across a
    line break is read as one line."""
    flat = " ".join(sentence.split())
    return [
        (m.group(1) or m.group(2) or m.group(3) or m.group(4) or "", m.group(4) is not None)
        for m in _QUOTED_SPAN.finditer(flat)
    ]


def _held_span(index: ReceiptIndex, spans: list[tuple[str, bool]]) -> tuple[str, str] | None:
    """The newest call that holds one of ``spans`` (its id) and the span it holds."""
    for e in reversed(tool_calls(index)) if spans else ():
        held = f"{e.receipt.content}\n{e.text.split(chr(10), 1)[0]}"
        found = next((x for x, q in spans if _holds(e.receipt.content, held, e.text, x, q)), None)
        if found is not None:
            return e.receipt.id, found
    return None


def _holds(output: str, held: str, text: str, span: str, single: bool) -> bool:
    """Whether a call holds a quoted span: a single-quoted value in what it printed, quoted
    there too ('Fare' as a ``KeyError: 'Fare'`` or a JSON ``"Fare"``; 'hello' is no part
    of a file named hello.sh); other spans in its output or its arguments."""
    if single:
        return f"'{span}'" in output or f'"{span}"' in output
    return span in held or span.lower() in text


#: Quoted material in a sentence: `code`, **bold**, "double quotes", 'single quotes' (a
#: quote that opens after a space or a bracket and closes before no letter: the
#: apostrophe of "we're" opens nothing).
_QUOTED_SPAN = re.compile(
    r"`([^`\n]{1,200})`|\*\*([^*\n]{1,200})\*\*|\"([^\"\n]{1,200})\""
    r"|(?:(?<=[\s(\[])|^)'([^'\n]{1,200}?)'(?!\w)"
)

#: What a count of a result's rows is counted in: "2 rows", "12 records", "5 results".
_ROW_UNITS = frozenset({"row", "record", "entry", "line", "item", "result", "match"})


def row_count(index: ReceiptIndex, h: HardFact, anchors: Sequence[str]) -> Finding | None:
    """ "I read data/input.csv (2 rows)", "the query returned 12 records": the number of rows
    of the newest result that is a list — of the call whose arguments name the file or
    table the sentence names, when it names one. Another number of rows there contradicts
    the count (leaves it unsupported when the sentence names no file); ``None`` when no
    such result is read."""
    if h.kind != "count" or h.number is None or not h.unit or h.number >= NO_LIST_THAT_LONG:
        return None  # ("tables over 1 million rows": a size, no result's rows)
    if h.unit.split()[-1] not in _ROW_UNITS:
        return None
    for e in reversed(tool_calls(index)):
        head = e.text.split("\n", 1)[0]
        if anchors and not any(a.lower() in head for a in anchors):
            continue
        root = next((r for r in e.records if r.parent is None and r.children), None)
        if root is None or root.path == "args":
            continue
        rows = len(root.children)
        rid = e.receipt.id
        if rows == h.number:
            return Finding("supported", rid, "tool", f"{rid} lists {rows} rows", value=h)
        if anchors:
            detail = f"contradicts {rid}: it lists {rows} rows, claimed {h.text}"
            return Finding("contradicted", rid, "tool", detail, value=h)
        # the newest list has another number of rows: no other value of the transcript
        # that happens to be that number ("id": 1) stands for a count of rows
        return Finding("unsupported", None, None, f"{rid} lists {rows} rows, not {h.text}", value=h)
    return None


def listed_rows(index: ReceiptIndex, h: HardFact) -> Finding | None:
    """ "All 6 pods are Running": the rows of the table the newest call that asked for
    that thing printed ("kubectl get pods", a ``resource`` of "pods"), as many as the
    count. It only backs: another number of rows leaves the count to the other checks."""
    if h.kind != "count" or h.number is None or not h.unit or h.number < 1:
        return None
    unit = h.unit.lower()
    words = {unit, f"{unit}s", unit.rstrip("s")}
    for e in reversed(tool_calls(index)):
        asked = set(_ASKED_WORDS.findall(repr(e.receipt.args or {}).lower()))
        if not asked & words:
            continue
        groups: dict[str, int] = {}
        for rec in e.records:
            m = _TOP_ROW.match(rec.path)
            if m is not None:
                groups[m.group(1)] = groups.get(m.group(1), 0) + 1
        if groups and max(groups.values()) == h.number:
            rid = e.receipt.id
            return Finding("supported", rid, "tool", f"{rid} lists {int(h.number)} {unit}", value=h)
        if groups:
            return None  # the newest such listing decides; it holds another number
    return None


_ASKED_WORDS = re.compile(r"[a-z]+")
#: A row of a result's list: "stdout[3]", "items[0]" (not a row of a row's list).
_TOP_ROW = re.compile(r"^([A-Za-z_]\w*)\[\d+\]$")


#: The code a sentence names: "`my_id`", "'my_id'".
_NAMED_CODE = re.compile(r"`([^`\n]{1,60})`|'([^'\n]{1,60})'")
#: How many of the newest outputs a line's indent is read from.
_INDENT_OUTPUTS = 3


def indent_of(index: ReceiptIndex, h: HardFact, sentence: str) -> Finding | None:
    """ "Now `my_id` has 8 spaces": the line of one of the newest outputs that holds the
    code the sentence names starts with that many spaces (a listing after a formatter
    ran). A line indented otherwise leaves the figure unsettled: "4 spaces" may be counted
    from the line above."""
    if h.kind != "count" or h.unit != "space" or h.number is None:
        return None
    names = [a or b for a, b in _NAMED_CODE.findall(sentence)]
    if not names:
        return None
    for e in reversed(tool_calls(index)[-_INDENT_OUTPUTS:]):
        if failed(e):
            continue
        for line in e.receipt.content.splitlines():
            if not any(n in line for n in names):
                continue
            spaces = len(line) - len(line.lstrip(" "))
            if spaces == h.number:
                rid = e.receipt.id
                shown = line.strip()[:60]
                detail = f"{rid} printed {shown!r} after {spaces} spaces"
                return Finding("supported", rid, "tool", detail, value=h)
    return None
