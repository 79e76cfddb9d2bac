"""Request bodies of the HTTP API (pydantic v2; unknown fields are refused)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ModelWrapValidatorHandler, model_validator

from receiptgate.bounds import MAX_RECEIPTS_PER_REQUEST, BoundedTime
from receiptgate.text.clean import clean_data, replaced_note


class _Body(BaseModel):
    """A request body: lone surrogates in any string become U+FFFD (text/clean.py)."""

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="wrap")
    @classmethod
    def _clean(cls, data: Any, handler: ModelWrapValidatorHandler[Any]) -> Any:
        cleaned, n = clean_data(data) if isinstance(data, dict) else (data, 0)
        model = handler(cleaned)
        if n:
            model._replaced = n
        return model

    _replaced: int = 0

    def cleaning_notes(self) -> list[str]:
        """The note a result carries when strings of this body were cleaned."""
        return [replaced_note("request body", self._replaced)] if self._replaced else []


class ValidateRequest(_Body):
    """``POST /validate``: one agent output and what it may rely on."""

    text: str = Field(description="The agent output to validate.")
    agent_id: str | None = Field(default=None, description="Agent id (overrides, exemptions).")
    trust: int | None = Field(default=None, ge=0, le=100, description="Agent trust, 0-100.")
    channel: str | None = Field(default=None, description="Where the text is going.")
    hook: str | None = Field(default=None, description="Runtime hook that triggered this.")
    session_id: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="Session whose ingested receipts are evidence; inline receipts join it.",
    )
    turn_id: str | None = Field(default=None, max_length=200, description="PRD turn id.")
    user_id: str | None = Field(
        default=None, max_length=200, description="End user, for the per-user rate limit."
    )
    receipts: list[dict[str, Any]] | None = Field(
        default=None,
        max_length=MAX_RECEIPTS_PER_REQUEST,
        description="Receipts (SPEC §10 JSONL objects) for this validation.",
    )
    messages: list[dict[str, Any]] | None = Field(
        default=None,
        max_length=MAX_RECEIPTS_PER_REQUEST,
        description="An OpenAI-style transcript; tool calls become receipts.",
    )
    now: BoundedTime | None = Field(
        default=None, description="Reference time for TTLs, freshness and relative dates."
    )
    rubric: str | None = Field(default=None, description="Rubric id (see GET /rubrics).")


class ReceiptsRequest(_Body):
    """``POST /sessions/{id}/receipts`` as JSON: receipt objects or a transcript."""

    receipts: list[dict[str, Any]] | None = Field(default=None, max_length=MAX_RECEIPTS_PER_REQUEST)
    messages: list[dict[str, Any]] | None = Field(default=None, max_length=MAX_RECEIPTS_PER_REQUEST)


class FeedbackRequest(_Body):
    """``POST /audit/{id}/feedback``: a reviewer's agreement or override."""

    kind: Literal["agree", "disagree", "override"]
    verdict: Literal["pass", "flag", "block"] | None = None
    note: str | None = Field(default=None, max_length=2000)
