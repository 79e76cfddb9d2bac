"""The receipt: one piece of evidence a session produced (SPEC §3, §10).

A tool call with its output, a web or RAG result, a database row, a memory entry or
a user message. The readers that build receipts from files and transcripts are in
:mod:`receiptgate.evidence.receipts`.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from receiptgate.bounds import time_problem
from receiptgate.evidence._input import parse_iso, show
from receiptgate.text.clean import clean_data

ReceiptKind = Literal["tool", "web", "rag", "db", "memory", "user", "reply"]
TrustLevel = Literal["system", "owner", "local", "shared", "external", "untrusted"]

RECEIPT_KINDS: tuple[ReceiptKind, ...] = get_args(ReceiptKind)
TRUST_LEVELS: tuple[TrustLevel, ...] = get_args(TrustLevel)

_DEFAULT_TRUST: dict[ReceiptKind, TrustLevel] = {
    "tool": "local",
    "db": "local",
    "rag": "local",
    "memory": "local",
    "web": "external",
    "user": "owner",
    # the agent's own earlier words: never evidence (see ReceiptIndex.replies)
    "reply": "untrusted",
}


def receipt_default_trust(kind: ReceiptKind) -> TrustLevel:
    """Return the trust level a receipt of ``kind`` gets when none is stated.

    Args:
        kind: The receipt kind.

    Returns:
        ``"owner"`` for user receipts, ``"external"`` for web, ``"local"`` otherwise.
    """
    return _DEFAULT_TRUST[kind]


class Receipt(BaseModel):
    """One piece of evidence produced during a session (SPEC §3, §10).

    Validation is strict (no coercion of ``1`` to ``True`` or ``3`` to ``"3"``)
    because receipts are evidence: a value that needs guessing is a bad input.
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str
    kind: ReceiptKind
    content: str
    source: str | None = None
    created_at: datetime | None = None
    trust: TrustLevel | None = None
    tool: str | None = None
    args: dict[str, Any] | None = None
    ok: bool | None = None
    call_id: str | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _clean_strings(cls, data: Any) -> Any:
        # text/clean.py: lone surrogates become U+FFFD, counted in meta.
        if not isinstance(data, dict):
            return data
        cleaned, n = clean_data(data)
        if n:
            meta = cleaned.get("meta")
            meta = dict(meta) if isinstance(meta, dict) else {}
            meta["replaced_surrogates"] = n
            cleaned = {**cleaned, "meta": meta}
        return cleaned

    @field_validator("id")
    @classmethod
    def _id_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("created_at", mode="before")
    @classmethod
    def _parse_created_at(cls, value: object) -> object:
        # Only ISO 8601 text (or a datetime from Python callers): an epoch number in
        # a receipts file is ambiguous (seconds or milliseconds?), so it is refused.
        if value is None or isinstance(value, datetime):
            return value
        if not isinstance(value, str):
            raise ValueError(f"must be an ISO 8601 date-time string (got {show(value)})")
        return parse_iso(value)

    @field_validator("created_at")
    @classmethod
    def _make_aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        if value is not None and (problem := time_problem(value)) is not None:
            raise ValueError(problem)
        return value

    @model_validator(mode="after")
    def _content_present(self) -> Receipt:
        # A tool call may legitimately print nothing; any other receipt without
        # text could support nothing and is almost certainly a mistake.
        if self.kind != "tool" and not self.content.strip():
            raise ValueError(
                '"content": must not be empty (only a tool receipt may have empty content)'
            )
        return self

    @property
    def effective_trust(self) -> TrustLevel:
        """The stated trust, or the default for the receipt's kind."""
        return self.trust if self.trust is not None else receipt_default_trust(self.kind)
