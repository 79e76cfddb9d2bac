"""Secret masking of audit text (RFC-003 §14.3)."""

from __future__ import annotations

import time

import pytest

from receiptgate.store import redact_mapping, redact_text
from receiptgate.store.redact import is_sensitive_key


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("key sk-proj-AbCdEf1234567890AbCdEf12 saved", "key [REDACTED] saved"),
        ("sk-ant-api03-AbCdEf1234567890AbCdEf", "[REDACTED]"),
        ("bot ghp_AbCdEf1234567890AbCdEf1234567890abcd.", "bot [REDACTED]."),
        ("github_pat_11ABCDEFG0123456789_abcdefghijklmnop", "[REDACTED]"),
        ("id AKIAIOSFODNN7EXAMPLE ok", "id [REDACTED] ok"),
        ("xoxb-123456789012-abcdefghij", "[REDACTED]"),
        (
            "jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n end",
            "jwt [REDACTED] end",
        ),
        ("sent Bearer abcdefghijklmnop.qrs to it", "sent Bearer [REDACTED] to it"),
        ("Authorization: Basic dXNlcjpwYXNz", "Authorization: [REDACTED]"),
        (
            "GITHUB_TOKEN=abc123 and password: 'hunter 2'",
            "GITHUB_TOKEN=[REDACTED] and password: [REDACTED]",
        ),
        (
            '{"apiKey": "abc", "client_secret":"x"}',
            '{"apiKey": [REDACTED], "client_secret":[REDACTED]}',
        ),
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY----- done",
            "[REDACTED] done",
        ),
        ("cut -----BEGIN PRIVATE KEY-----\nMIIEabc", "cut [REDACTED]"),
        (
            "max_tokens: 100, tokenizer ok, 2 secrets kept",
            "max_tokens: 100, tokenizer ok, 2 secrets kept",
        ),
        ("sk-short and Bearer of news", "sk-short and Bearer of news"),
    ],
)
def test_when_text_holds_a_secret_shape_then_it_is_masked_and_the_rest_kept(
    text: str, expected: str
) -> None:
    assert redact_text(text) == expected
    assert redact_text(expected) == expected  # idempotent


def test_when_a_mapping_is_redacted_then_sensitive_keys_and_secret_strings_are_masked() -> None:
    given = {
        "Password": 1234,
        "x-api-key": "k",
        "accessToken": "t",
        "max_tokens": 300,
        "cmd": ["echo", "sk-AbCdEf1234567890AbCdEf"],
        "nested": {"set-cookie": "a=b", "note": None, "pair": ("x", 2)},
        "empty_token": None,
    }
    assert redact_mapping(given) == {
        "Password": "[REDACTED]",
        "x-api-key": "[REDACTED]",
        "accessToken": "[REDACTED]",
        "max_tokens": 300,
        "cmd": ["echo", "[REDACTED]"],
        "nested": {"set-cookie": "[REDACTED]", "note": None, "pair": ["x", 2]},
        "empty_token": None,
    }
    assert given["Password"] == 1234  # a copy, the input is untouched


@pytest.mark.parametrize(
    ("key", "sensitive"),
    [
        ("token", True),
        ("API-Key", True),
        ("apikey", True),
        ("client_secret", True),
        ("secret_key", True),
        ("Authorization", True),
        ("credentials", True),
        ("private_key", True),
        ("passwd", True),
        ("tokens", False),
        ("max_tokens", False),
        ("tokenizer", False),
        ("primary_key", False),
        ("author", False),
    ],
)
def test_when_a_key_is_checked_then_only_secret_names_are_sensitive(
    key: str, sensitive: bool
) -> None:
    assert is_sensitive_key(key) is sensitive


def test_when_text_is_adversarial_then_redaction_stays_linear() -> None:
    texts = [
        "token_" * 20_000 + "x",
        "a-" * 50_000,
        "-----BEGIN PRIVATE KEY-----" * 2_000,
        "password" * 10_000 + ":",
    ]
    started = time.perf_counter()
    for text in texts:
        redact_text(text)
    assert time.perf_counter() - started < 2.0
