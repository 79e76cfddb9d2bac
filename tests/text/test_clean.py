"""text/clean.py: one rule for text from outside (lone surrogates, non-UTF-8 bytes)."""

from __future__ import annotations

import pytest

from receiptgate._exceptions import InputError
from receiptgate.text.clean import clean_data, clean_text, decode_utf8


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
