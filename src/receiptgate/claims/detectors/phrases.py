"""Noun-phrase helpers shared by the pattern detectors.

Detector patterns anchor on the verb phrase ("is not installed", "could not
find") because a literal anchor is cheap to find; the subject is then read off
the words just before (or after) the match. Reading a few tokens by hand is far
cheaper than a regex that tries a noun phrase at every position.
"""

from __future__ import annotations

import re

#: Words that end a noun phrase when scanning away from the verb.
BOUNDARY_WORDS = frozenset(
    """
        and or but so because since as that which who whom whose if unless when whenever while
        whether then than i we you they he she it me us them i'm we're you're they're it's think
        believe said says say noticed notice seems seem seemed found find see saw know knew confirm
        confirmed checked check guess suspect assume reported report reports looks look on in at of
        for to from with by after before during into onto about via per is are was were be been
        being has have had do does did will would can could should must may might not no yes also
        just now still currently already again
        """.split()
)

#: Linters and type checkers by name, as a reply names their run and a command calls them
#: (the action detector's checker claims; checks/builds' checker runs and subjects).
CHECKER_NAMES = r"eslint|ruff|flake8|pylint|mypy|pyright|tsc|clippy|rubocop|shellcheck"

#: Words that may start a noun phrase; scanning backwards stops after one.
DETERMINERS = frozenset(
    """
        the a an our my your their his her its this that these those all every each some any
        """.split()
)

#: Nouns that name a kind of thing; "file config.json" is about "config.json".
KIND_WORDS = frozenset(
    """
        feature function method file config option setting field parameter module package endpoint
        table column directory folder branch command tool service server database repo repository
        plugin library key variable env secret bucket queue topic index
        """.split()
)

#: Words that signal the speaker is unsure; claims after them get lower confidence.
HEDGE_WORDS = frozenset(
    """
        think believe guess suspect maybe perhaps probably possibly might may seems seem
        """.split()
)

#: Words whose presence before the verb makes the clause conditional, not an assertion.
CONDITIONAL_WORDS = frozenset(["if", "unless", "whether", "when", "whenever"])

_PREPOSITIONS = frozenset("in on at of for".split())
_STRIP = "\"'`“”‘’()[]{}<>*_"
_MAX_TOKENS = 4
_TOKEN = re.compile(r"\S+")


def _clean(token: str) -> str:
    return token.strip(_STRIP)


def subject_before(text: str, sent_start: int, at: int) -> tuple[str, int, bool, bool]:
    """Reads the noun phrase that ends just before ``at``.

    Returns ``(subject, subject_start, hedged, conditional)``: ``hedged`` is set
    when a hedge word ("I think", "maybe") stands before the phrase in the same
    clause, ``conditional`` when an "if"/"unless"/"whether" does. The subject is
    empty when no phrase precedes the verb.
    """
    prefix = text[sent_start:at]
    tokens = [(m.start(), m.group()) for m in _TOKEN.finditer(prefix)]
    picked: list[tuple[int, str]] = []
    stop_index = -1
    for i in range(len(tokens) - 1, -1, -1):
        pos, raw = tokens[i]
        if raw[-1] in ",;:!?" or raw in ("-", "—", "–") or (raw[-1] == "." and picked):
            stop_index = i
            break
        word = _clean(raw).lower()
        if not word or not any(ch.isalnum() for ch in word):
            stop_index = i  # a mark before the phrase ("✅ **Reservation X** has been ...")
            break
        if word in HEDGE_WORDS:
            stop_index = i
            break
        if word in DETERMINERS:
            picked.append((pos, raw))
            stop_index = i - 1
            break
        if (
            word in _PREPOSITIONS
            and picked
            and len(picked) < _MAX_TOKENS
            and i > 0
            and _clean(tokens[i - 1][1]).lower() not in BOUNDARY_WORDS
            and _clean(tokens[i - 1][1]).lower() not in DETERMINERS
            and tokens[i - 1][1][-1] not in ",;:"
        ):
            # "the pods in prod", "Postgres on db-01": the phrase goes on to its head.
            picked.append((pos, raw))
            continue
        if word in BOUNDARY_WORDS or len(picked) >= _MAX_TOKENS:
            stop_index = i
            break
        picked.append((pos, raw))
    hedged = conditional = False
    for _, raw in tokens[max(0, stop_index - 3) : max(0, stop_index + 1)]:
        w = _clean(raw).lower()
        hedged = hedged or w in HEDGE_WORDS
        conditional = conditional or w in CONDITIONAL_WORDS
    if not picked:
        return "", at, hedged, conditional
    picked.reverse()
    first_pos, first_raw = picked[0]
    lead = len(first_raw) - len(first_raw.lstrip(_STRIP))
    start = sent_start + first_pos + lead
    last_pos, last_raw = picked[-1]
    end = sent_start + last_pos + len(last_raw.rstrip(_STRIP))
    return text[start:end], start, hedged, conditional


_COUNT_WORDS = frozenset("one two three four five six seven eight nine ten".split())


def _after_count(words: list[tuple[int, int, str]]) -> bool:
    if not words:
        return False
    last = _clean(words[-1][2]).lower()
    return last.isdigit() or last in _COUNT_WORDS


#: A count or a quantifier that may stand before "of" ("three of", "all of", "both of").
_QUANTITY = re.compile(
    r"\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|all|both|each|some|most|"
    r"several|many|none|any|either|neither"
)
_OF = re.compile(r"\s+of\b")


def phrase_after(text: str, at: int, sent_end: int) -> tuple[str, str | None, int]:
    """Reads the noun phrase that starts at ``at`` (after a trigger).

    Returns ``(subject, kind, end)``. Leading determiners are skipped; when the
    phrase is a kind word followed by a name ("file config.json") the subject is
    the name and ``kind`` the kind word.
    """
    words: list[tuple[int, int, str]] = []
    quantity = False  # a count or quantifier before "of" was read
    for m in _TOKEN.finditer(text, at, sent_end):
        raw = m.group()
        word = _clean(raw.rstrip(".,;:!?")).lower()
        if not words and _QUANTITY.fullmatch(word) and _OF.match(text, m.end(), sent_end):
            quantity = True  # "three of the six reservations": the reservations
            continue
        if quantity and word == "of":
            quantity = False
            continue
        if not words and (word in DETERMINERS or word == "such"):
            continue
        if not word or word in ("anywhere", "yet", "either", "there"):
            break
        if word in BOUNDARY_WORDS and not (word.endswith("ed") and _after_count(words)):
            break  # "added three checked bags": after a count, "checked" describes the bags
        words.append((m.start(), m.end(), raw))
        if raw[-1] in ",;:!?" or (raw[-1] == "." and m.end() >= sent_end):
            break
        if len(words) >= _MAX_TOKENS:
            break
    if not words:
        return "", None, at
    kind: str | None = None
    if len(words) >= 2 and _clean(words[0][2]).lower() in KIND_WORDS:
        kind = _clean(words[0][2]).lower()
        words = words[1:2]
    start = words[0][0]
    start += len(words[0][2]) - len(words[0][2].lstrip(_STRIP))
    last_start, _, last_raw = words[-1]
    trimmed = last_raw.rstrip(".,;:!?").rstrip(_STRIP)
    end = last_start + len(trimmed)
    return text[start:end], kind, end


#: Products named like files: "Vue.js", "Node.js", "Next.js".
PRODUCT = re.compile(
    r"(?:Vue|Node|React|Next|Nuxt|Express|Three|D3|Chart|Ember|Backbone|Angular)\.js",
    re.IGNORECASE,
)
