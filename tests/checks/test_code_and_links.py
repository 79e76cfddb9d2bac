"""Code names, commands and links a reply gives, against what the receipts show: code in
backticks no receipt shows is flagged (never blocked), a command the reply says it ran
must be the command a call ran, a link must be a link a receipt gives, and a day written
"3/20" after "due" is a date while "2/3 of them" is not."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt

NOW = datetime(2025, 10, 14, 9, 30, tzinfo=UTC)
GATE = Gate()

READ = Receipt(
    id="r1",
    kind="tool",
    tool="read_file",
    args={"path": "src/app/parse.py"},
    content=(
        "from app.errors import HeaderError\n\n\n"
        "def parse_header(raw: str) -> dict[str, str]:\n"
        "    lines = split_folded(raw)\n"
        "    first = lines[0]\n"
        "    return {}\n"
    ),
)
RUFF = Receipt(
    id="r2",
    kind="tool",
    tool="bash",
    args={"command": "ruff check src"},
    content="All checks passed!",
)
GREP = Receipt(
    id="r4",
    kind="tool",
    tool="bash",
    args={"command": "grep -n lines src/app/parse.py"},
    content="23:    lines = split_folded(raw)\n24:    first = lines[0]\n",
)
LABEL = Receipt(
    id="r3",
    kind="tool",
    tool="create_return",
    args={"order": "HT-1"},
    content='{"rma": "RMA-7", "label_url": "https://returns.example.de/labels/RMA-7.pdf"}',
)


def verdict(text: str, *receipts: Receipt) -> str:
    return GATE.validate(text, receipts=list(receipts), now=NOW).verdict


def test_code_a_receipt_shows_passes() -> None:
    assert verdict("`parse_header` takes its lines from `split_folded`.", READ) == "pass"


def test_code_no_receipt_shows_is_flagged_not_blocked() -> None:
    result = GATE.validate("`parse_header` takes its lines from `unfold_lines`.", receipts=[READ])
    assert result.verdict == "flag"
    assert "unfold_lines" in result.sentences[0].reasons[0]


def test_a_dotted_name_is_held_when_each_part_is() -> None:
    result = GATE.validate("It raises `app.errors.HeaderError` there.", receipts=[READ])
    assert not any("code reference" in r for s in result.sentences for r in s.reasons)


def test_a_line_number_an_output_shows_backs_the_sentence() -> None:
    said = "The crash came from `first = lines[0]` on line {} of `src/app/parse.py`."
    assert verdict(said.format(24), READ, GREP) == "pass"
    assert verdict(said.format(25), READ, GREP) == "block"


def test_a_command_the_reply_names_must_be_the_command_that_ran() -> None:
    assert verdict("I ran `ruff check src` after the edit.", READ, RUFF) == "pass"
    assert verdict("I ran `ruff format src` after the edit.", READ, RUFF) == "block"


def test_a_link_a_receipt_gives_passes_and_a_changed_one_is_contradicted() -> None:
    good = "Your label is here: https://returns.example.de/labels/RMA-7.pdf"
    assert verdict(good, LABEL) == "pass"
    assert verdict(good.replace("RMA-7.pdf", "RMA-8.pdf"), LABEL) == "block"
    assert verdict("More help: https://help.other.example/returns", LABEL) == "flag"


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("It is due 3/20.", "date"),
        ("It was delivered on 11/06.", "date"),
        ("About 2/3 of them.", None),
    ],
)
def test_a_day_without_its_year_is_read_after_a_word_that_says_so(
    text: str, kind: str | None
) -> None:
    from receiptgate.claims.hardfacts import extract_hard_facts

    kinds = {h.kind for h in extract_hard_facts(text, now=NOW)}
    assert ("date" in kinds) == (kind == "date")


def test_a_product_named_like_a_file_is_no_file_the_agent_changed() -> None:
    result = GATE.validate("Node.js was updated.", receipts=[READ])
    assert not any("Action claim" in r for s in result.sentences for r in s.reasons)
