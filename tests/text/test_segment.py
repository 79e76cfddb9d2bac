"""Tests for the rule-based sentence segmenter."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from receiptgate.text.segment import Sentence, SentenceKind, segment

Expected = list[tuple[str, SentenceKind]]


def _run(text: str) -> list[Sentence]:
    """Segment ``text`` and check the invariants every result must satisfy."""
    sentences = segment(text)
    prev_end = 0
    for i, s in enumerate(sentences):
        assert s.index == i
        assert s.text == text[s.start : s.end]
        assert s.text
        assert s.text == s.text.strip()
        assert prev_end <= s.start < s.end
        prev_end = s.end
    return sentences


def _texts(text: str) -> list[str]:
    return [s.text for s in _run(text)]


def _pairs(text: str) -> Expected:
    return [(s.text, s.kind) for s in _run(text)]


# --- terminators -------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("It works. Then it stops.", ["It works.", "Then it stops."]),
        ("Really? Yes! Good.", ["Really?", "Yes!", "Good."]),
        ("Really?! Yes.", ["Really?!", "Yes."]),
        ("Wait… Done.", ["Wait…", "Done."]),
        ("Loading... Done.", ["Loading...", "Done."]),
        ('He said "yes." Then he left.', ['He said "yes."', "Then he left."]),
        ("He said “yes.” Then he left.", ["He said “yes.”", "Then he left."]),
        ("(It failed.) Then we retried.", ["(It failed.)", "Then we retried."]),
        ("It is **done.** Next step.", ["It is **done.**", "Next step."]),
        ("Costs rose. 2024 was worse.", ["Costs rose.", "2024 was worse."]),
        ('It ended. "Why?" she asked.', ["It ended.", '"Why?" she asked.']),
        ("It ended. (Then it restarted.)", ["It ended.", "(Then it restarted.)"]),
        ("Done. ✅ All tests pass.", ["Done.", "✅ All tests pass."]),
        ("Done. 🚀 Shipped.", ["Done.", "🚀 Shipped."]),
        ("Done. `make test` passes.", ["Done.", "`make test` passes."]),
        ("Done. **Next** we deploy.", ["Done.", "**Next** we deploy."]),
        ("Größe ist gut. Über alles.", ["Größe ist gut.", "Über alles."]),
        ("Ça va. Écoute.", ["Ça va.", "Écoute."]),
        ("It failed.   Then   it passed.", ["It failed.", "Then   it passed."]),
        ("Trailing text without terminator", ["Trailing text without terminator"]),
        ("  Padded sentence.  ", ["Padded sentence."]),
        ("It failed. \n It passed.", ["It failed.", "It passed."]),
    ],
)
def test_when_terminator_then_split_after_it(text: str, expected: list[str]) -> None:
    assert _texts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "It is running. and then it stops.",
        "It worked! so we moved on.",
        "It failed? maybe not.",
        "Wait... what happened here?",
        "Hmm… maybe later.",
        "Well... it depends.",
        "It ended.Then a typo followed.",
    ],
)
def test_when_terminator_then_lowercase_or_no_space_then_no_split(text: str) -> None:
    assert _texts(text) == [text]


# --- things that contain dots but are not boundaries --------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Revenue hit $2.4M in Q3 and pi is 3.14 today.",
        "Version 2.4 is out.",
        "We shipped v0.1.0 and 1.2.3-rc.1 yesterday.",
        "The host 192.168.0.1 answers on 10.0.0.255 too.",
        "See https://example.com/a.b?x=1 for details.",
        "Mail bob.smith@example.com now.",
        "Edit config.yaml and ./src/main.py today.",
        "It runs on node.js and Node.js alike.",
        "Call api.example.com directly.",
        "Read /etc/nginx/nginx.conf first.",
    ],
)
def test_when_decimal_version_url_path_or_domain_then_no_split(text: str) -> None:
    assert _texts(text) == [text]


def test_when_url_ends_sentence_then_period_ends_sentence() -> None:
    text = "See https://example.com/a.b?x=1. Next step."
    assert _texts(text) == ["See https://example.com/a.b?x=1.", "Next step."]


@pytest.mark.parametrize(
    "text",
    [
        "Use a language, e.g. Python here.",
        "Use the fast one, i.e. Rust.",
        "Apples, pears, etc. are fruit.",
        "Cats vs. Dogs is a film.",
        "Mr. Smith and Mrs. Smith met Ms. Jones.",
        "Dr. Who and Prof. Xavier spoke.",
        "Acme Inc. Board members approved it.",
        "Acme Ltd. Shares rose.",
        "Acme Corp. Shares fell.",
        "Acme Co. Ltd. Shares fell.",
        "Martin Luther King Jr. Day is a holiday.",
        "John Smith Sr. Wrote it.",
        "St. Louis is big.",
        "See No. 5 for details.",
        "It costs approx. 5 dollars.",
        "See Fig. 3 below.",
        "It shipped Jan. 5 and Dec. 12 this year.",
        "It shipped Feb. 2, Mar. 3, Apr. 4, Jun. 6, Jul. 7, Aug. 8, Sep. 9 and Oct. 10.",
        "It shipped Sept. 9 and Nov. 11.",
        "The U.S. Army moved.",
        "The U.S.A. Team won.",
        "We meet at 9 a.m. Monday.",
        "It ends at 5 p.m. Eastern time.",
        "J. R. R. Tolkien wrote it.",
        "George R. R. Martin writes slowly.",
        "Read it (cf. Smith) first.",
    ],
)
def test_when_abbreviation_or_initial_then_no_split(text: str) -> None:
    assert _texts(text) == [text]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We met at 5 p.m. The room was cold.", ["We met at 5 p.m.", "The room was cold."]),
        (
            "They sell apples, pears, etc. The list goes on.",
            ["They sell apples, pears, etc.", "The list goes on."],
        ),
        ("It moved to the U.S. It grew.", ["It moved to the U.S.", "It grew."]),
        ("I joined Acme Inc. It was fun.", ["I joined Acme Inc.", "It was fun."]),
        ("No. It failed.", ["No.", "It failed."]),
        ("The answer was no. Absolutely not.", ["The answer was no.", "Absolutely not."]),
    ],
)
def test_when_sentence_final_abbreviation_then_opener_then_split(
    text: str, expected: list[str]
) -> None:
    assert _texts(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "Run `make test. Then` again.",
        "Call `like.this()` now.",
        "Use ``a. B`` here.",
    ],
)
def test_when_inline_code_then_no_split(text: str) -> None:
    assert _texts(text) == [text]


# --- newlines ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("First para\n\nSecond para", [("First para", "prose"), ("Second para", "prose")]),
        ("No period\n   \t\nNext", [("No period", "prose"), ("Next", "prose")]),
        ("A line\r\n\r\nB line", [("A line", "prose"), ("B line", "prose")]),
        ("line one\nline two.", [("line one\nline two.", "prose")]),
        ("It failed.\nIt passed.", [("It failed.", "prose"), ("It passed.", "prose")]),
        (
            "Intro:\n- a\n- b",
            [("Intro:", "prose"), ("a", "list_item"), ("b", "list_item")],
        ),
        (
            "Intro\n# Head\nBody",
            [("Intro", "prose"), ("Head", "heading"), ("Body", "prose")],
        ),
        ("- item\nplain after", [("item", "list_item"), ("plain after", "prose")]),
        ("- item\n  continued line.", [("item\n  continued line.", "list_item")]),
        ("-\n  late content", [("late content", "list_item")]),
        ("text\n| a | b |", [("text", "prose"), ("| a | b |", "table_row")]),
        ("| a | b |\ntext", [("| a | b |", "table_row"), ("text", "prose")]),
        ("text\n```\ncode\n```", [("text", "prose"), ("code", "code")]),
        ("# Head\nBody", [("Head", "heading"), ("Body", "prose")]),
        ("Top\n---\nBottom", [("Top", "heading"), ("Bottom", "prose")]),
        ("One\nTwo\n---\nThree", [("One\nTwo", "prose"), ("Three", "prose")]),
    ],
)
def test_when_newlines_then_split_by_block_rules(text: str, expected: Expected) -> None:
    assert _pairs(text) == expected


# --- markdown ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# Title", [("Title", "heading")]),
        ("   ## Indented", [("Indented", "heading")]),
        ("## Setup. Install. ##", [("Setup. Install.", "heading")]),
        ("# C#", [("C#", "heading")]),
        ("###### Deep", [("Deep", "heading")]),
        ("####### Seven", [("####### Seven", "prose")]),
        ("#hashtag here", [("#hashtag here", "prose")]),
        ("#", []),
        ("Title\n=====", [("Title", "heading")]),
        ("- one. Two.", [("one.", "list_item"), ("Two.", "list_item")]),
        ("* star", [("star", "list_item")]),
        ("+ plus", [("plus", "list_item")]),
        ("1. first", [("first", "list_item")]),
        ("2) second", [("second", "list_item")]),
        ("10. tenth", [("tenth", "list_item")]),
        ("  - nested", [("nested", "list_item")]),
        ("- [ ] todo", [("[ ] todo", "list_item")]),
        ("-", []),
        ("*emphasis* starts this.", [("*emphasis* starts this.", "prose")]),
        ("-5 degrees outside.", [("-5 degrees outside.", "prose")]),
        ("1.5 million users.", [("1.5 million users.", "prose")]),
        ("2024. The year", [("2024.", "prose"), ("The year", "prose")]),
        # a numbered title in bold is one heading, not "**1." and a sentence after it
        ("**1. Available Flights**", [("1. Available Flights", "heading")]),
        ("__2) What Stays the Same__", [("2) What Stays the Same", "heading")]),
        ("**3. Refund** is due.", [("**3. Refund** is due.", "prose")]),
        ("> quoted. Text.", [("quoted.", "prose"), ("Text.", "prose")]),
        ("> line one\n> line two.", [("line one\n> line two.", "prose")]),
        ("> One.\n> Two.", [("One.", "prose"), ("Two.", "prose")]),
        ("> ends.\n> but continues.", [("ends.\n> but continues.", "prose")]),
        ("> - quoted item", [("quoted item", "list_item")]),
        ("> # Quoted head", [("Quoted head", "heading")]),
        (">\n>", []),
        ("> a\nb", [("a", "prose"), ("b", "prose")]),
        (
            "| a | b |\n|---|---|\n| 1 | 2 |",
            [("| a | b |", "table_row"), ("| 1 | 2 |", "table_row")],
        ),
        ("| One. Two. |", [("| One. Two. |", "table_row")]),
        ("|:--|--:|", []),
        ("---", []),
        ("* * *", []),
        ("___", []),
    ],
)
def test_when_markdown_then_markers_excluded_and_kinds_set(text: str, expected: Expected) -> None:
    assert _pairs(text) == expected


def test_when_heading_then_span_excludes_marker() -> None:
    [s] = _run("## Title ##\n")
    assert (s.start, s.end) == (3, 8)


def test_when_list_item_then_span_starts_at_content() -> None:
    [s] = _run("  12) content here")
    assert s.start == 6


# --- code ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("```python\nx = 1. Y = 2.\n```", [("x = 1. Y = 2.", "code")]),
        ("~~~\ncode\n~~~", [("code", "code")]),
        ("```\nunterminated\nstill code. Yes.", [("unterminated\nstill code. Yes.", "code")]),
        ("````\n```\ninner\n```\n````", [("```\ninner\n```", "code")]),
        ("~~~\n```\n~~~", [("```", "code")]),
        ("```\n\n```", []),
        ("```", []),
        (
            "Before.\n```sh\nls -la\n```\nAfter.",
            [("Before.", "prose"), ("ls -la", "code"), ("After.", "prose")],
        ),
        ("  ```\n  indented\n  ```", [("indented", "code")]),
        ("- item\n  ```\n  code\n  ```", [("item", "list_item"), ("code", "code")]),
        ("```inline``` is not a fence.", [("```inline``` is not a fence.", "prose")]),
        ("```\n# not heading\n- not list\n```", [("# not heading\n- not list", "code")]),
    ],
)
def test_when_fenced_code_then_one_code_sentence(text: str, expected: Expected) -> None:
    assert _pairs(text) == expected


# --- edge cases -----------------------------------------------------------------


def test_when_sentence_returned_then_equal_to_constructed_and_frozen() -> None:
    # segment() builds Sentence objects through a fast path; they must be
    # indistinguishable from ones made by the dataclass constructor.
    [s] = segment("Hi there.")
    assert s == Sentence(0, 0, 9, "Hi there.", "prose")
    assert hash(s) == hash(Sentence(0, 0, 9, "Hi there.", "prose"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        s.start = 1  # type: ignore[misc]


@pytest.mark.parametrize("text", ["", " ", "\n\n\n", " \t \r\n ", "\u2028\u3000"])
def test_when_blank_then_no_sentences(text: str) -> None:
    assert _run(text) == []


def test_when_mixed_document_then_indices_consecutive() -> None:
    text = (
        "# Report\n\nThe API is up. Latency is 42 ms.\n\n"
        "- Memory is stable. CPU is fine.\n- Disk at 40%.\n\n"
        "| host | ok |\n|---|---|\n| a | yes |\n\n```\nuptime\n```\nDone."
    )
    assert _pairs(text) == [
        ("Report", "heading"),
        ("The API is up.", "prose"),
        ("Latency is 42 ms.", "prose"),
        ("Memory is stable.", "list_item"),
        ("CPU is fine.", "list_item"),
        ("Disk at 40%.", "list_item"),
        ("| host | ok |", "table_row"),
        ("| a | yes |", "table_row"),
        ("uptime", "code"),
        ("Done.", "prose"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "." * 100_000,
        " " * 100_000,
        "a" * 50_000,
        "\n" * 100_000,
        "…" * 50_000,
        "! " * 50_000,
        "A. " * 30_000,
        "a. " * 30_000,
        "e.g. " * 20_000,
        "etc. " + "A" * 50_000,
        "1. " * 30_000,
        "`" * 50_000,
        "` a" * 30_000,
        "``" + "a" * 50_000,
        "#" * 50_000,
        "# " + "#" * 50_000 + "x",
        "-" * 50_000,
        "- " * 50_000,
        "|" * 50_000,
        ">" * 50_000,
        "> " * 50_000,
        "```\n" * 20_000,
        "````\n" + "```\n" * 20_000,
        ('." ' * 30_000),
        ".)" * 50_000 + " A",
        "x" * 50_000 + ". " + "y" * 50_000,
    ],
    ids=lambda t: repr(t[:12]),
)
def test_when_adversarial_input_then_returns(text: str) -> None:
    # Linear-time guard: a quadratic path would make this test hang, not fail.
    assert isinstance(segment(text), list)


# --- properties -------------------------------------------------------------------

_MARKDOWN_ALPHABET = st.sampled_from(
    [*"aAzZ09 .!?…\n\t#-*+>|`~)(\"'_=:", "...", "```", "~~~", "1. ", "- ", "# ", "e.g. "]
)
_TEXTS = st.one_of(
    st.text(max_size=200),
    st.lists(_MARKDOWN_ALPHABET, max_size=80).map("".join),
)
_FENCE_LINE = re.compile(r"\s*(?:```|~~~)")
_ORDERED_MARKER = re.compile(r"\s*(?:>\s*)*(\d{1,3})[.)](?:\s|$)")


def _exempt_offsets(text: str) -> set[int]:
    """Offsets of alphanumerics a sentence may drop: fence lines, list numbers."""
    exempt: set[int] = set()
    pos = 0
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            exempt.update(range(pos, pos + len(line)))
        m = _ORDERED_MARKER.match(line)
        if m:
            exempt.update(range(pos + m.start(1), pos + m.end(1)))
        pos += len(line) + 1
    return exempt


@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_when_any_text_then_invariants_hold(text: str) -> None:
    sentences = _run(text)
    covered = [False] * len(text)
    for s in sentences:
        covered[s.start : s.end] = [True] * (s.end - s.start)
    exempt = _exempt_offsets(text)
    lost = [
        (i, ch) for i, ch in enumerate(text) if ch.isalnum() and not covered[i] and i not in exempt
    ]
    assert lost == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("nginx is running. redis is down.", ["nginx is running.", "redis is down."]),
        ("The count is 12. nginx is stopped.", ["The count is 12.", "nginx is stopped."]),
        ("Deploy finished. kubectl shows 3 pods.", ["Deploy finished.", "kubectl shows 3 pods."]),
        ("Use e.g. foo here.", ["Use e.g. foo here."]),
        ("It is running. and then it stops.", ["It is running. and then it stops."]),
    ],
    ids=["tool-names", "after-number", "after-word", "abbreviation", "continuation"],
)
def test_when_a_lowercase_word_follows_a_plain_period_then_it_starts_a_sentence(
    text: str, expected: list[str]
) -> None:
    sentences = segment(text)
    assert [s.text for s in sentences] == expected
    assert all(text[s.start : s.end] == s.text for s in sentences)


@pytest.mark.parametrize("bullet", ["•", "◦", "▪", "‣", "–", "·"])
def test_when_a_line_starts_with_a_bullet_character_then_it_is_a_list_item(bullet: str) -> None:
    text = f"Details:\n\n{bullet} Reservation: QWPZKM\n{bullet} Cabin: economy\n"
    assert [(s.kind, s.text) for s in segment(text)] == [
        ("prose", "Details:"),
        ("list_item", "Reservation: QWPZKM"),
        ("list_item", "Cabin: economy"),
    ]


def test_when_a_dash_stands_inside_a_sentence_then_it_is_no_bullet() -> None:
    assert [s.kind for s in segment("Your flight – HAT410 – departs at 7 PM.")] == ["prose"]
