"""Request bodies of the HTTP API (pydantic v2; unknown fields are refused)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class ValidateRequest(BaseModel):
    """``POST /validate``: one agent output and what it may rely on."""

    model_config = ConfigDict(extra="forbid")

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
        default=None, description="Receipts (SPEC §10 JSONL objects) for this validation."
    )
    messages: list[dict[str, Any]] | None = Field(
        default=None, description="An OpenAI-style transcript; tool calls become receipts."
    )
    now: datetime | None = Field(
        default=None, description="Reference time for TTLs, freshness and relative dates."
    )
    rubric: str | None = Field(default=None, description="Rubric id (see GET /rubrics).")


class ReceiptsRequest(BaseModel):
    """``POST /sessions/{id}/receipts`` as JSON: receipt objects or a transcript."""

    model_config = ConfigDict(extra="forbid")

    receipts: list[dict[str, Any]] | None = None
    messages: list[dict[str, Any]] | None = None


class FeedbackRequest(BaseModel):
    """``POST /audit/{id}/feedback``: a reviewer's agreement or override."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["agree", "disagree", "override"]
    verdict: Literal["pass", "flag", "block"] | None = None
    note: str | None = Field(default=None, max_length=2000)
