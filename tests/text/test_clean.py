"""text/clean.py: one rule for text from outside (lone surrogates, non-UTF-8 bytes,
look-alike hyphens and spaces)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt, StreamGate
from receiptgate._exceptions import InputError
from receiptgate.text.clean import clean_data, clean_text, decode_utf8, json_reply, read_as

NOW = datetime(2024, 5, 15, 20, tzinfo=UTC)
#: A reservation with one flight on 2024-05-26 at $274.
FLIGHT = Receipt(
    id="t1",
    kind="tool",
    tool="get_reservation_details",
    content='{"reservation_id": "XEWRD9", "flights": [{"flight_number": "HAT289", '
    '"date": "2024-05-26", "price": 274}]}',
)


@pytest.mark.parametrize(
    ("text", "cleaned", "count"),
    [
        pytest.param("plain ascii", "plain ascii", 0, id="ascii"),
        pytest.param("Café – ✓ 日本", "Café – ✓ 日本", 0, id="utf8"),
        pytest.param("tail \ud800", "tail \ufffd", 1, id="lone-high"),
        pytest.param("\udc00 head", "\ufffd head", 1, id="lone-low"),
        pytest.param("a\ud83d\ude00b", "a😀b", 0, id="pair-is-joined"),
        pytest.param("\ude00\ud83d", "\ufffd\ufffd", 2, id="reversed-pair"),
        pytest.param("keep \ufffd", "keep \ufffd", 0, id="existing-replacement-not-counted"),
    ],
)
def test_clean_text(text: str, cleaned: str, count: int) -> None:
    assert clean_text(text) == (cleaned, count)
    cleaned.encode("utf-8")  # always encodable afterwards


def test_clean_data_cleans_keys_and_nested_values_and_keeps_clean_objects() -> None:
    data = {"a\ud800": ["x", {"k": "v\udc00"}], "n": 5}
    out, n = clean_data(data)
    assert n == 2
    assert out == {"a\ufffd": ["x", {"k": "v\ufffd"}], "n": 5}
    clean = {"a": ["b", {"c": 1}]}
    assert clean_data(clean) == (clean, 0)
    assert clean_data(clean)[0] is clean


def test_bytes_that_are_not_utf8_are_refused_naming_the_source() -> None:
    assert decode_utf8("\ufeffhé".encode(), "f.txt") == "hé"
    with pytest.raises(InputError, match=r"answer\.txt: not UTF-8 text \(byte 0xe9 at offset 3\)"):
        decode_utf8(b"Caf\xe9", "answer.txt")


# ------------------------------------------------------------- look-alike hyphens and spaces


def test_read_as_maps_lookalike_hyphens_and_spaces_one_to_one() -> None:
    text = "2024\u201105\u201126 at 05:00\u202fEST, \u2212$5 and\u00a0more – kept"
    plain = read_as(text)
    assert plain == "2024-05-26 at 05:00 EST, -$5 and more – kept"
    assert len(plain) == len(text)  # offsets into one are offsets into the other
    assert read_as("plain") == "plain"


def test_a_date_written_with_non_breaking_hyphens_is_checked_and_the_sentence_kept() -> None:
    gate = Gate()
    text = "Flight HAT289 departs on 2024\u201105\u201126 and costs $274\u202ftotal."
    right = gate.validate(text, receipts=[FLIGHT], now=NOW)
    wrong = gate.validate(text.replace("26", "27", 1), receipts=[FLIGHT], now=NOW)

    assert right.verdict == "pass", right.reason
    assert right.sentences[0].text == text  # the agent's own characters
    assert right.delivered_text == text
    assert wrong.verdict == "block"
    assert wrong.sentences[0].text == text.replace("26", "27", 1)


def test_evidence_with_look_alike_characters_is_read_as_the_reply_is() -> None:
    # the user typed the date with non-breaking hyphens and a narrow space; the reply
    # restates it in ASCII, and the other way round
    user = Receipt(
        id="u1",
        kind="user",
        content="Please add Kevin\u202fSmith (DOB\u202f2001\u201104\u201112) to the trip.",
    )
    gate = Gate()
    said = gate.validate("Kevin Smith, DOB 2001-04-12, is added.", receipts=[user], now=NOW)
    other = gate.validate("Kevin Smith, DOB 2001-04-13, is added.", receipts=[user], now=NOW)
    back = gate.validate(
        "Flight HAT289 departs on 2024-05-26.",
        receipts=[FLIGHT.model_copy(update={"content": FLIGHT.content.replace("-", "\u2011")})],
        now=NOW,
    )
    assert said.sentences[0].tag == "T7", said.sentences[0].reasons
    assert other.verdict == "block"
    assert back.verdict == "pass", back.reason


# ------------------------------------------------------------------- replies written as JSON


def test_json_reply_reads_the_message_field_with_its_escapes_and_maps_back() -> None:
    text = '{"message": "Done.\\nIt\\u2019s \\"booked\\" \\ud83d\\ude00.", "done": true}'
    reading, where = json_reply(text) or ("", [])
    assert reading == 'Done.\nIt’s "booked" 😀.'
    assert len(where) == len(reading) + 1
    assert text[where[0] : where[4] + 1] == "Done."
    assert json_reply("Plain text.") is None
    assert json_reply('{"status": 200}') is None  # no message field
    assert json_reply('{"message": "unterminated}') is None


def test_a_reply_written_as_json_is_judged_by_its_message_with_offsets_into_the_reply() -> None:
    text = (
        '{"message":"I found your reservation.\\n\\n'
        '- Flight HAT289 costs $274.\\n- It departs on 2024-05-27."}'
    )
    result = Gate().validate(text, receipts=[FLIGHT], now=NOW)

    assert result.verdict == "block"
    blocked = [s for s in result.sentences if s.action == "block"]
    assert [s.text for s in blocked] == ["It departs on 2024-05-27."]
    assert all(text[s.start : s.end] == s.text for s in result.sentences)
    assert [s.text for s in result.sentences if s.action == "pass"][-1] == (
        "Flight HAT289 costs $274."
    )


@pytest.mark.parametrize("lead", ["", "  \n"])
def test_a_reply_written_as_json_streams_sentence_by_sentence_like_the_gate_judges_it(
    lead: str,
) -> None:
    text = lead + '{"message": "Your refund of $42 has been issued.\\nThanks!"}'
    stream = StreamGate(Gate(), now=NOW)
    events = []
    for i in range(0, len(text), 7):
        events += stream.feed(text[i : i + 7])
    events += stream.flush()

    assert [(e.text, e.action) for e in events] == [
        ("Your refund of $42 has been issued.", "block"),
        ("Thanks!", "pass"),
    ]
