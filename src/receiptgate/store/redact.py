"""Masking of secrets in what the audit trail stores (RFC-003 §14.3).

Agent output reaches the audit only as matched claim spans, reasons and
evidence details; a secret the agent leaked into one of them must still never
be written to the database. :func:`redact_text` replaces common token shapes
with ``[REDACTED]``; :func:`redact_mapping` does that to every string of a JSON
structure and also masks the values of sensitive keys (``password``,
``api_key``, ...).

The patterns run on RE2, so their cost stays linear in the text whatever the
agent wrote.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import re2

REDACTED = "[REDACTED]"

# One alternation, one pass. The groups "assign" and "bearer" hold a prefix that
# stays visible ("password=", "Bearer ") so that a reader sees what was masked.
_SECRET = re2.compile(
    "|".join(
        (
            # PEM private key blocks, also when the END line was cut off.
            r"-----BEGIN [A-Z ]*PRIVATE KEY-----(?s:.*?-----END [A-Z ]*PRIVATE KEY-----|.*)",
            # key=value / key: value assignments of secrets, quoted or not.
            r"(?P<assign>(?i:\b[A-Za-z0-9_]*(?:passwd|password|pwd|secret|token|api[_-]?key"
            r"|access[_-]?key|private[_-]?key|credentials?|authorization|cookie)"
            r"(?:[_-][A-Za-z0-9]+)*[\"']?\s*[:=]\s*))"
            # (A value already masked stays one: redacting twice changes nothing.)
            r"(?:(?i:bearer|basic|token)\s+)?"
            r"(?:\[REDACTED\]|\"[^\"\n]*\"|'[^'\n]*'|[^\s,;&\"'\]}]+)",
            # Authorization header values.
            r"(?P<bearer>(?i:\bbearer)\s+)[A-Za-z0-9._~+/=-]{8,}",
            # OpenAI / Anthropic style keys: sk-..., sk-proj-..., sk-ant-...
            r"\bsk-[A-Za-z0-9_-]{16,}",
            # GitHub tokens.
            r"\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
            # AWS access key ids.
            r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b",
            # Slack tokens.
            r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
            # JSON Web Tokens (header.payload.signature, base64url).
            r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*",
        )
    )
)

# Every secret shape above contains one of these literals. Most audit strings
# contain none, and this scan of plain alternatives (an RE2 DFA, about 2 µs per
# KB, ten times faster than Python's re here) lets them skip the full patterns.
_MAYBE_SECRET = re2.compile(
    r"(?i)-----begin|bearer|sk-|gh[pousr]_|github_pat_|akia|asia|xox[abprs]-|eyj|passw|pwd|secret"
    r"|token|api[_-]?key|access[_-]?key|private[_-]?key|credential|authorization|cookie"
)

_SENSITIVE_KEYS = (
    "password",
    "passwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "authorization",
    "cookie",
    "credential",
    "credentials",
    "private_key",
)


_CAMEL = re.compile(r"([a-z0-9])([A-Z])")


def _replace(match: re2._Match[str]) -> str:
    keep = match.group("assign") or match.group("bearer") or ""
    return keep + REDACTED


def might_hold_secret(text: str) -> bool:
    """Whether ``text`` contains a word every secret shape needs (a cheap screen).

    ``False`` proves :func:`redact_text` and :func:`redact_mapping` would change
    nothing in it (no secret shape and no sensitive key name can match).
    """
    return _MAYBE_SECRET.search(text) is not None


def redact_text(text: str) -> str:
    """Returns ``text`` with every secret-shaped token replaced by ``[REDACTED]``.

    Idempotent: redacting twice gives the same text.
    """
    if _MAYBE_SECRET.search(text) is None:
        return text
    return _SECRET.sub(_replace, text)


@functools.lru_cache(maxsize=4096)
def is_sensitive_key(key: str) -> bool:
    """Whether a mapping key names a secret (case-insensitive, ``-`` same as ``_``).

    A key matches when it is one of the sensitive words or has one as a ``_``
    separated prefix or suffix (``access_token``, ``secret_key``, ``x-api-key``,
    ``apiKey``), so that ``max_tokens`` or ``tokenizer`` do not.
    """
    k = _CAMEL.sub(r"\1_\2", key).lower().replace("-", "_")
    return any(k == w or k.endswith("_" + w) or k.startswith(w + "_") for w in _SENSITIVE_KEYS)


def redact_mapping(obj: Any) -> Any:
    """Returns a redacted copy of a JSON-like structure.

    Values of sensitive keys (see :func:`is_sensitive_key`) become
    ``[REDACTED]`` whatever their type; every other string goes through
    :func:`redact_text`. Lists, tuples (returned as lists) and dicts are walked
    recursively; other values are returned as they are.
    """
    if isinstance(obj, str):
        return redact_text(obj)
    if isinstance(obj, dict):
        return {
            k: REDACTED
            if isinstance(k, str) and is_sensitive_key(k) and v is not None
            else redact_mapping(v)
            for k, v in obj.items()
        }
    if isinstance(obj, list | tuple):
        return [redact_mapping(v) for v in obj]
    return obj
