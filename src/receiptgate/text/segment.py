"""Rule-based sentence segmentation with exact offsets into the original text.

``segment(text)`` splits agent output into sentences without a model. Every
``Sentence`` satisfies ``sentence.text == text[sentence.start:sentence.end]``;
the text is never normalised, so claim offsets map straight back to the input.

Block structure is decided line by line, then prose is split inside blocks:

* Markdown markers are EXCLUDED from spans: a heading ``# Title`` yields the
  span of ``Title``; list markers (``-``, ``*``, ``+``, ``1.``, ``1)``) and
  blockquote markers (``>``) and the whitespace after them are dropped, so the
  span starts at the content. Ordered markers have at most three digits, so
  "2024. The year ..." stays prose and keeps its number. A closing ``##``
  sequence of a heading is dropped too. Table rows keep their pipes
  (``| a | b |`` is the span); separator rows, thematic breaks (``---``) and
  blank lines yield nothing.
* Headings are one sentence each (kind ``"heading"``), never split further. A
  one-line paragraph directly underlined with ``===`` or ``---`` is a heading.
* A list item may hold several sentences (each of kind ``"list_item"``). An
  indented line right after a list item continues the item; an unindented plain
  line starts a new prose paragraph.
* Consecutive blockquote lines form one paragraph (kind ``"prose"``). A sentence
  that wraps over quoted lines keeps the inner ``>`` markers in its span,
  because a span must be one contiguous slice of the original text.
* Fenced code blocks (three or more backticks or tildes, optional info
  string) are one sentence of kind ``"code"`` covering the stripped content
  between the fences (fence lines excluded); an unterminated fence runs to the
  end of the text. Fences inside blockquotes are not recognised. Inline code
  never splits.
* A blank line always ends a sentence. A single newline ends one only next to a
  heading, list item, table row or fence line; inside a paragraph it is plain
  whitespace.

Prose is split after ``.``, ``!``, ``?``, ``…`` or ``...`` (plus closing quotes,
brackets and emphasis markers) when whitespace and a likely sentence start
follow. Decimals, versions, URLs, paths and domains never match because no
whitespace follows their dots; abbreviations, initials and inline code are
filtered by cheap checks on each candidate. Titles and prefixes (``Dr.``,
``e.g.``, ``vs.``) never end a sentence; abbreviations that often do (``etc.``,
``Inc.``, ``p.m.``, ``U.S.``, month names) end one only before a common opener
word ("... at 5 p.m. The room ..."), and ``No.``-style numbering only before a
non-digit. Everything runs in linear time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from receiptgate.text.clean import plain_reading

__all__ = ["Sentence", "SentenceKind", "segment"]

#: A line that is one bold title: letters, spaces and a few marks only (no digit, no colon,
#: no closing punctuation), at most 80 characters ("**What I need next**"), perhaps after
#: its number ("**1. Available Nonstop Flights**").
BOLD_TITLE = re.compile(
    r"(\*\*|__)((?:\d{1,3}[.)][ \t]+)?"
    r"(?:[^\W\d_]|[ \t'’&/()-])(?:[^\W\d_]|[ \t'’&/(),-]){0,78}(?:[^\W\d_]|\)))\1[ \t]*"
)

SentenceKind = Literal["prose", "list_item", "heading", "code", "table_row"]


@dataclass(slots=True, frozen=True)
class Sentence:
    """One sentence located in the original text.

    Attributes:
        index: 0-based position in the list returned by ``segment``.
        start: Offset of the first character in the original text.
        end: Offset one past the last character.
        text: ``original[start:end]``; never empty, never padded with whitespace.
        kind: The block the sentence came from.
    """

    index: int
    start: int
    end: int
    text: str
    kind: SentenceKind


# The generated __init__ of a frozen dataclass goes through object.__setattr__
# per field; writing the slots directly builds the same object in about half
# the time, which matters because a message yields dozens of sentences.
_SLOTS = vars(Sentence)
_SET_INDEX = _SLOTS["index"].__set__
_SET_START = _SLOTS["start"].__set__
_SET_END = _SLOTS["end"].__set__
_SET_TEXT = _SLOTS["text"].__set__
_SET_KIND = _SLOTS["kind"].__set__
_new = object.__new__


def _sentence(index: int, start: int, end: int, text: str, kind: SentenceKind) -> Sentence:
    """Build a ``Sentence`` exactly as ``Sentence(...)`` would, only faster."""
    obj = _new(Sentence)
    _SET_INDEX(obj, index)
    _SET_START(obj, start)
    _SET_END(obj, end)
    _SET_TEXT(obj, text)
    _SET_KIND(obj, kind)
    return obj


# Terminators other than "." are replaced by "." in a scan copy of the text
# (same length, same offsets), so this pattern starts with a literal, which
# the regex engine finds far faster than a character class. Groups: 1 = the
# sentence's last part (terminators + closers). The lookbehind after the first
# dot refuses to start inside a run of dots (quadratic on "....." otherwise);
# the possessive quantifiers stop backtracking. The final lookahead drops
# ASCII-lowercase continuations ("e.g. in") in C; other characters are judged
# by ``_is_sentence_start``; a lowercase word opens a sentence only after a
# plain word and a single period ("nginx is running. redis is down."), see
# ``_lowercase_start``.
_BOUNDARY = re.compile(r"(\.(?<!\.\.)\.*+[)\]}\"'”’»*_]*+)\s++(?=\S)")
_QUOTE_PREFIX = re.compile(r"(?:>\s*+)++")
_QUOTE_LEAD = re.compile(r"[\s>]*+")
_HEADING = re.compile(r"#{1,6}+(?:\s++|$)")
# Three digits at most: a line opening with a year ("2024. The ...") stays prose
# so the number is not dropped as a marker.
#: The characters that start a list item: markdown's ("-", "*", "+") and the bullets other
#: writers use ("•", "◦", "▪", "‣", "–", "·"); ``BULLETS`` is their regex class.
BULLET_CHARS = "-*+•◦▪‣–·"
BULLETS = f"[{BULLET_CHARS}]"
#: A list marker: a bullet, or a number ("1.", "1)").
_LIST = re.compile(rf"(?:{BULLETS}|\d{{1,3}}+[.)])(?:\s++|$)")
_FENCE_OPEN = re.compile(r"(`{3,}+|~{3,}+)(.*)")
_FENCE_CLOSE_BACKTICK = re.compile(r"^[^\S\n]*+(`{3,}+)[^\S\n]*+$", re.MULTILINE)
_FENCE_CLOSE_TILDE = re.compile(r"^[^\S\n]*+(~{3,}+)[^\S\n]*+$", re.MULTILINE)
_TABLE_SEPARATOR = re.compile(r"\|[\s:|-]*+")
# Single-line code spans only; the character classes keep each attempt bounded
# by the next backtick or newline, so the scan stays linear.
_INLINE_CODE = re.compile(r"``[^\n]*?``|`[^`\n]++`")
_NEXT_WORD = re.compile(r"[\"'“‘(\[*_]*+([A-Za-z]++)")
_DOTTED_ACRONYM = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]")


def _words(words: str) -> list[str]:
    """Split a space-separated word list (kept as one string for readability)."""
    return words.split()


_NEVER = "never"
_TERMINAL = "terminal"
_BEFORE_DIGIT = "before_digit"
_ABBREVIATIONS: dict[str, str] = {
    # Titles and prefixes: practically never end a sentence.
    **dict.fromkeys(
        _words(
            "mr mrs ms mx dr prof rev hon gen col capt lt sgt sen rep gov pres "
            "e.g i.e vs v cf viz approx fig figs eq mt incl excl esp resp ca"
        ),
        _NEVER,
    ),
    # Can end a sentence ("... at 5 p.m. The next day"): split only when the next
    # word is a common sentence opener, so "U.S. Army" and "Jan. 5" stay whole.
    **dict.fromkeys(
        _words(
            "etc inc ltd corp co jr sr st bros llc plc dept est al ft "
            "jan feb mar apr jun jul aug sep sept oct nov dec "
            "a.m p.m u.s u.k e.u u.n"
        ),
        _TERMINAL,
    ),
    # Numbering: only a following digit keeps the sentence together
    # ("No. 5" vs. "No. It failed.").
    **dict.fromkeys(_words("no nos vol vols pp p ch sec nr op ref"), _BEFORE_DIGIT),
}
_SENTENCE_OPENERS = frozenset(
    _words(
        "The This That These Those There Then Thus Therefore It Its We I You He She "
        "They Our My His Her Their Your A An In On At If When While But And So Yet "
        "However Also After Before As For To All No Yes Now Here What Which Who Why "
        "How Please Note See Next Finally First Second Third Meanwhile Overall"
    )
)
_START_PUNCT = frozenset("\"'“‘«„¿¡([{*_`#>|~-+$€£¥!<")
_TOKEN_STRIP = "([{\"'“‘*_`"
_ABBREV_WINDOW = 10


def _is_sentence_start(c: str) -> bool:
    """Return whether ``c`` plausibly opens a sentence."""
    if c.islower():
        return False
    if c.isalnum() or c in _START_PUNCT:
        return True
    o = ord(c)
    # Emoji and pictographs (✅, 🚀, ...).
    return o >= 0x1F000 or 0x2600 <= o <= 0x27BF or 0x2B00 <= o <= 0x2BFF


#: The number of a title in bold or italics, from its line's start: "**1", "__2", "*3".
_EMPHASISED_NUMBER = re.compile(r"[ \t>]*[*_]{1,3}\d{1,3}")


def _keeps_together(text: str, dot: int, lo: int, nxt: int) -> bool:
    """Return whether the single ``.`` at ``dot`` ends an abbreviation or initial.

    Args:
        text: The original text.
        dot: Offset of the period.
        lo: Start of the enclosing block (the token never reaches before it).
        nxt: Offset of the first character of the would-be next sentence.
    """
    line = max(lo, text.rfind("\n", lo, dot) + 1)
    if _EMPHASISED_NUMBER.fullmatch(text, line, dot):
        return True  # "**1. Available Nonstop Flights**": a numbered title, in bold
    # Every abbreviation handled here is shorter than the window, so a window
    # without whitespace holds a token that is too long to be one.
    window = text[max(lo, dot - _ABBREV_WINDOW) : dot]
    if not window or window[-1].isspace():
        return False
    token = window.rsplit(None, 1)[-1]
    if len(token) == _ABBREV_WINDOW:
        return False
    token = token.lstrip(_TOKEN_STRIP)
    low = token.lower()
    rule = _ABBREVIATIONS.get(low)
    if rule is None:
        if len(token) == 1:
            return token.isupper()  # an initial: "J. R. R. Tolkien"
        if "." not in token or _DOTTED_ACRONYM.fullmatch(token) is None:
            return False
        rule = _TERMINAL  # an unlisted acronym such as "U.S.A."
    if rule == _NEVER:
        return True
    if rule == _BEFORE_DIGIT:
        return text[nxt].isdigit()
    m = _NEXT_WORD.match(text, nxt)
    return m is None or m.group(1) not in _SENTENCE_OPENERS


# Lowercase words that continue a thought rather than start one ("... running. and then").
_CONTINUATIONS = frozenset(
    _words("and but or so then maybe which because yet nor though although while whereas if")
)
_PLAIN_WORD = re.compile(r"[A-Za-z][a-z]+|[0-9][0-9,]*%?")
_LOWER_WORD = re.compile(r"[a-z][a-z0-9_-]*+(?=[\s,;:])")


def _lowercase_start(text: str, dot: int, closer: str, nxt: int, lo: int) -> bool:
    """Whether a lowercase word after ``dot`` opens a new sentence.

    Agents often start sentences with a lowercase tool name ("nginx is running.
    redis is down."). Only a single period after a plain word or number counts,
    never one after an abbreviation ("e.g. in", "approx. three") or an ellipsis.
    """
    if closer != "." or text[dot] != "." or (dot > lo and text[dot - 1] == "."):
        return False
    token_start = dot
    while token_start > lo and not text[token_start - 1].isspace():
        token_start -= 1
    token = text[token_start:dot]
    if _PLAIN_WORD.fullmatch(token) is None or token.lower() in _ABBREVIATIONS:
        return False
    if len(token) == 1:
        return False  # an initial
    m = _LOWER_WORD.match(text, nxt)
    return m is not None and m.group() not in _CONTINUATIONS


def _push(out: list[Sentence], text: str, a: int, b: int, kind: SentenceKind) -> None:
    """Append ``text[a:b]`` trimmed of whitespace, unless nothing is left."""
    seg = text[a:b]
    stripped = seg.strip()
    if not stripped:
        return
    start = a + len(seg) - len(seg.lstrip())
    out.append(_sentence(len(out), start, start + len(stripped), stripped, kind))


def _split(
    out: list[Sentence],
    text: str,
    scan: str,
    start: int,
    end: int,
    kind: SentenceKind,
    quoted: bool,
) -> None:
    """Split the prose block ``text[start:end]`` into sentences.

    Args:
        out: Sentences found so far; new ones are appended.
        text: The original text.
        scan: ``text`` with every terminator replaced by ``.``.
        start: Block start, on a non-blank character (or equal to ``end``).
        end: Block end.
        kind: Kind given to every sentence of the block.
        quoted: Whether the block is a blockquote, whose lines start with ``>``.
    """
    code_spans: list[tuple[int, int]] = []
    if text.find("`", start, end) >= 0:
        code_spans = [m.span() for m in _INLINE_CODE.finditer(text, start, end)]
    span_i = 0
    a = start
    for m in _BOUNDARY.finditer(scan, start, end):
        nxt = m.end()
        c = text[nxt]
        if quoted and c == ">":
            # Look past the marker of the next quoted line.
            lead = _QUOTE_LEAD.match(text, nxt, end)
            nxt = lead.end() if lead is not None else nxt
            if nxt >= end:
                continue
            c = text[nxt]
        if "a" <= c <= "z":
            if not _lowercase_start(text, m.start(), m.group(1), nxt, start):
                continue
        elif not (c.isupper() or _is_sentence_start(c)):
            continue
        t0 = m.start()
        if code_spans:
            while span_i < len(code_spans) and code_spans[span_i][1] <= t0:
                span_i += 1
            if span_i < len(code_spans) and code_spans[span_i][0] <= t0:
                continue  # inside inline code
        if (
            text[t0] == "."
            and scan[t0 + 1] != "."
            # Seven letters before the dot: too long for any abbreviation.
            and not (t0 - 7 >= start and text[t0 - 7 : t0].isalpha())
            and _keeps_together(text, t0, start, nxt)
        ):
            continue
        # Both ends sit on non-blank characters, so no trimming is needed.
        b = m.end(1)
        out.append(_sentence(len(out), a, b, text[a:b], kind))
        a = nxt
    _push(out, text, a, end, kind)


def is_table_separator(text: str, start: int) -> bool:
    """Whether the line of ``text`` at ``start`` is a table's separator row (``|---|---|``),
    as :func:`segment` reads one (and skips)."""
    end = text.find("\n", start)
    end = len(text) if end < 0 else end
    while start < end and text[start] in " \t":
        start += 1
    return start < end and _TABLE_SEPARATOR.fullmatch(text, start, end) is not None


def _is_thematic_break(line: str, marker: str) -> bool:
    """Return whether ``line`` (stripped, starting with ``marker``) is ``---``-like."""
    compact = "".join(line.split())
    return len(compact) >= 3 and compact.count(marker) == len(compact)


def segment(text: str) -> list[Sentence]:
    """Split ``text`` into sentences with offsets into ``text``.

    Boundaries are found in the text's plain reading (``text/clean.plain_reading``: a
    no-break space is a space, a reply written as JSON is its message), so a text and its
    reading split alike; each sentence's ``text`` is a slice of ``text``.

    Args:
        text: Agent output, plain text or Markdown.

    Returns:
        Sentences in order, non-overlapping, indexed from 0.
    """
    plain, where = plain_reading(text)
    out = _segment(plain)
    if where is not None:
        # a reply written as a JSON object: the sentences of its message, with offsets into
        # the object (as the gate reads it: pipeline/claims.segment_text)
        mapped = []
        for x in out:
            a, b = where[x.start], where[x.end - 1] + 1
            mapped.append(_sentence(x.index, a, b, text[a:b], x.kind))
        return mapped
    if plain is not text:
        out = [_sentence(x.index, x.start, x.end, text[x.start : x.end], x.kind) for x in out]
    return out


def _segment(text: str) -> list[Sentence]:
    out: list[Sentence] = []
    n = len(text)
    scan = text
    for term in "!?…":
        if term in scan:
            scan = scan.replace(term, ".")
    # The open block that later lines may extend: a prose paragraph or list item.
    blk_kind: SentenceKind | None = None
    blk_start = blk_end = blk_lines = 0
    blk_quoted = False
    pos = 0
    while pos <= n:
        nl = text.find("\n", pos)
        if nl < 0:
            nl = n
        line = text[pos:nl]
        stripped = line.lstrip()
        cs = nl - len(stripped)  # first non-blank character
        quoted = False
        if stripped and stripped[0] == ">":
            qm = _QUOTE_PREFIX.match(text, cs, nl)
            cs = qm.end() if qm is not None else cs
            quoted = True
        if cs >= nl:
            # Blank line (or bare ">"): ends any open block.
            if blk_kind is not None:
                _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
                blk_kind = None
            pos = nl + 1
            continue
        c = text[cs]

        if c in "`~" and not quoted:
            fm = _FENCE_OPEN.match(text, cs, nl)
            if fm is not None and not (c == "`" and "`" in fm.group(2)):
                if blk_kind is not None:
                    _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
                    blk_kind = None
                flen = len(fm.group(1))
                body = nl + 1
                body_end, pos = n, n + 1
                closer = _FENCE_CLOSE_BACKTICK if c == "`" else _FENCE_CLOSE_TILDE
                for cm in closer.finditer(text, min(body, n)):
                    if len(cm.group(1)) >= flen:
                        body_end, pos = cm.start(), cm.end() + 1
                        break
                if body < body_end:
                    _push(out, text, body, body_end, "code")
                continue

        elif c == "#":
            hm = _HEADING.match(text, cs, nl)
            if hm is not None:
                if blk_kind is not None:
                    _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
                    blk_kind = None
                content = text[hm.end() : nl].rstrip()
                bare = content.rstrip("#")
                if len(bare) < len(content) and (not bare or bare[-1].isspace()):
                    content = bare  # closing sequence: "## Title ##"
                _push(out, text, hm.end(), hm.end() + len(content), "heading")
                pos = nl + 1
                continue

        elif c == "|":
            if blk_kind is not None:
                _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
                blk_kind = None
            if _TABLE_SEPARATOR.fullmatch(text, cs, nl) is None:
                _push(out, text, cs, nl, "table_row")
            pos = nl + 1
            continue

        elif c in BULLET_CHARS or c in "_=" or c.isdigit():
            rest = text[cs:nl]
            if (
                c in "=-"
                and blk_kind == "prose"
                and blk_lines == 1
                and blk_quoted == quoted
                and len(rest.rstrip()) >= 3
                and not rest.rstrip().strip(c)
            ):
                # Setext underline of a one-line paragraph: that line is a heading.
                _push(out, text, blk_start, blk_end, "heading")
                blk_kind = None
                pos = nl + 1
                continue
            if c in "-*_" and _is_thematic_break(rest, c):
                if blk_kind is not None:
                    _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
                    blk_kind = None
                pos = nl + 1
                continue
            lm = _LIST.match(text, cs, nl)
            if lm is not None:
                if blk_kind is not None:
                    _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
                blk_kind = "list_item"
                blk_start, blk_end, blk_lines, blk_quoted = lm.end(), nl, 1, quoted
                pos = nl + 1
                continue

        if c in "*_" and (bm := BOLD_TITLE.fullmatch(text, cs, nl)) is not None:
            # "**Vacuum cleaners in this order**" alone in its line: a heading, as "### ..."
            if blk_kind is not None:
                _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
                blk_kind = None
            _push(out, text, bm.start(2), bm.end(2), "heading")
            pos = nl + 1
            continue

        # A plain line: extend the open block or start a paragraph.
        if blk_kind == "prose" and blk_quoted == quoted:
            blk_end = nl
            blk_lines += 1
        elif blk_kind == "list_item" and not quoted and not blk_quoted and line[:1].isspace():
            if blk_start >= blk_end:
                blk_start = cs  # the marker line was empty ("-"); content starts here
            blk_end = nl
            blk_lines += 1
        else:
            if blk_kind is not None:
                _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
            blk_kind = "prose"
            blk_start, blk_end, blk_lines, blk_quoted = cs, nl, 1, quoted
        pos = nl + 1

    if blk_kind is not None:
        _split(out, text, scan, blk_start, blk_end, blk_kind, blk_quoted)
    return out
