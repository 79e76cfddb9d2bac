"""The receipts policy file (YAML): risk classes, freshness, hedging, tags, rewrite.

Without a file the SPEC §4 defaults apply: every risk class is ``fail_closed``
(an unsupported hard fact is T5 and blocks), T2/T3/T6 warn, T1/T4/T7 pass.
Durations are written ``90s``, ``15m``, ``24h``, ``7d``, ``52w`` (or seconds).
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
)
from pydantic.alias_generators import to_camel

from receiptgate._exceptions import ConfigError
from receiptgate._validation import format_validation_error
from receiptgate.config import read_structured_file
from receiptgate.evidence.receipts import TrustLevel
from receiptgate.rewrite import BLOCK_NOTICE, DEFAULT_LABELS, RewriteSettings

RiskClass = Literal[
    "financial",
    "contractual",
    "legal",
    "medical",
    "benchmark",
    "agent_actions",
    "schedule",
    "general",
]
RISK_CLASSES: tuple[RiskClass, ...] = (
    "financial",
    "contractual",
    "legal",
    "medical",
    "benchmark",
    "agent_actions",
    "schedule",
    "general",
)
RiskMode = Literal["fail_closed", "warn_only"]
TagName = Literal["T1", "T2", "T3", "T4", "T5", "T6", "T7"]
TagAction = Literal["pass", "warn", "block"]
ReceiptKindName = Literal["tool", "web", "rag", "db", "memory", "user"]

_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw]?)\s*$")
_UNIT_SECONDS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}


def parse_duration(value: Any) -> timedelta | None:
    """``"24h"`` -> 24 hours; a number is seconds; ``None``/``"never"`` -> no limit."""
    if value is None or value == "never":
        return None
    if isinstance(value, timedelta):
        return value
    if isinstance(value, bool):
        raise ValueError("expected a duration like 24h, 7d or a number of seconds")
    if isinstance(value, int | float):
        return timedelta(seconds=float(value))
    if isinstance(value, str):
        m = _DURATION.match(value)
        if m:
            return timedelta(seconds=float(m.group(1)) * _UNIT_SECONDS[m.group(2)])
    raise ValueError(f"expected a duration like 24h, 7d or a number of seconds (got {value!r})")


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, alias_generator=to_camel, frozen=True
    )


Duration = Annotated[timedelta | None, BeforeValidator(parse_duration)]


class RiskClassPolicy(_Model):
    """What an unsupported or contradicted hard fact of one risk class does."""

    mode: RiskMode = "fail_closed"
    freshness: Duration = Field(
        default=None, description="Receipts older than this do not support this class."
    )


def _default_classes() -> dict[RiskClass, RiskClassPolicy]:
    return {rc: RiskClassPolicy() for rc in RISK_CLASSES}


def _default_freshness() -> dict[ReceiptKindName, timedelta | None]:
    # Generous by default: a receipt of the session is rarely stale within it.
    # Operators tighten these (and per-risk-class windows) in the policy file.
    return {
        "tool": timedelta(days=180),
        "web": timedelta(days=365),
        "rag": None,
        "db": timedelta(days=365),
        "memory": None,
        "user": None,
    }


DEFAULT_EXCUSED: tuple[RiskClass, ...] = ("schedule", "general")


class HedgingPolicy(_Model):
    """Hedged sentences are T6; whether a hedge excuses an unsupported hard fact."""

    words: list[str] = Field(
        default_factory=lambda: [
            "may",
            "might",
            "could",
            "likely",
            "unlikely",
            "probably",
            "possibly",
            "perhaps",
            "maybe",
            "estimated",
            "estimate",
            "approximately",
            "expected to",
            "i think",
            "i believe",
            "it seems",
            "appears to",
            "seems to",
            "potentially",
            "roughly",
        ]
    )
    excuses_classes: list[RiskClass] = Field(
        default_factory=lambda: list(DEFAULT_EXCUSED),
        json_schema_extra={"default_note": "money and % are not excused unless set explicitly"},
        description=(
            "Risk classes where a hedge makes an unsupported figure T6. With the default "
            "list, money and percentages are never excused (SPEC §4); a list you set "
            "is applied as written."
        ),
    )


class RewritePolicy(_Model):
    """How ``delivered_text`` is built (see ``receiptgate.rewrite``)."""

    mode: Literal["sentences", "notice", "none"] = "sentences"
    blocked_replacement: str = ""
    labels: dict[str, str] = Field(default_factory=lambda: dict(DEFAULT_LABELS))
    audit_tail: bool = False
    notice: str = BLOCK_NOTICE

    def settings(self) -> RewriteSettings:
        return RewriteSettings(
            mode=self.mode,
            blocked_replacement=self.blocked_replacement,
            labels=dict(self.labels),
            audit_tail=self.audit_tail,
            notice=self.notice,
        )


DEFAULT_TAG_ACTIONS: dict[TagName, TagAction] = {
    "T1": "pass",
    "T2": "warn",
    "T3": "warn",
    "T4": "pass",
    "T5": "block",
    "T6": "warn",
    "T7": "pass",
}


class EvidencePolicy(_Model):
    """Which receipts may count as evidence at all.

    Attributes:
        min_trust: receipts whose trust (stated, or their kind's default) is below
            this level are ignored — they neither support nor contradict — so a
            claim backed only by untrusted content is unsupported (not T1).
            ``None`` (the default) uses every receipt.
    """

    min_trust: TrustLevel | None = Field(default=None, alias="minTrust")


class ClaimPolicy(_Model):
    """The policy file: how tags become actions for hard facts and action claims."""

    version: Literal[1] = 1
    risk_classes: dict[RiskClass, RiskClassPolicy] = Field(default_factory=_default_classes)
    freshness: dict[ReceiptKindName, Duration] = Field(default_factory=_default_freshness)
    hedging: HedgingPolicy = Field(default_factory=HedgingPolicy)
    tags: dict[TagName, TagAction] = Field(default_factory=lambda: dict(DEFAULT_TAG_ACTIONS))
    grounded_names: Literal["off", "warn", "block"] = Field(
        default="off",
        description=(
            "When the session holds rag/db/web/user/memory receipts, a name in a factual "
            "sentence that no receipt mentions warns or blocks (off by default)."
        ),
    )
    small_numbers_are_facts: bool = Field(
        default=False,
        description="Treat bare numbers up to 10 without a unit as hard facts.",
    )
    rewrite: RewritePolicy = Field(default_factory=RewritePolicy)
    evidence: EvidencePolicy = Field(default_factory=EvidencePolicy)

    @field_validator("freshness", mode="before")
    @classmethod
    def _fresh(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        merged: dict[str, Any] = {str(k): val for k, val in _default_freshness().items()}
        merged.update(v)  # each value is parsed (and its errors located) by the field type
        return merged

    @field_validator("risk_classes", mode="before")
    @classmethod
    def _classes(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        merged: dict[str, Any] = {rc: {} for rc in RISK_CLASSES}
        merged.update(v)
        return merged

    @field_validator("tags", mode="before")
    @classmethod
    def _tags(cls, v: Any) -> Any:
        if not isinstance(v, dict):
            return v
        merged: dict[str, Any] = {str(k): a for k, a in DEFAULT_TAG_ACTIONS.items()}
        merged.update(v)
        return merged

    def excuses(self, risk: str, kinds: set[str]) -> bool:
        """Whether a hedge excuses unsupported figures of these kinds in this class."""
        if risk not in self.hedging.excuses_classes:
            return False
        explicit = "excuses_classes" in self.hedging.model_fields_set
        return explicit or not kinds & {"money", "percent"}

    def mode_for(self, risk: RiskClass) -> RiskMode:
        return self.risk_classes[risk].mode


DEFAULT_POLICY = ClaimPolicy()


def parse_policy(data: Any, *, source: str = "<policy>") -> ClaimPolicy:
    """Validates a policy mapping; errors name ``source`` and the field."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of policy keys")
    try:
        return ClaimPolicy.model_validate(data)
    except ValidationError as e:
        raise ConfigError(format_validation_error(source, e)) from e


def load_policy(path: str | Path) -> ClaimPolicy:
    """Loads a policy YAML/JSON file."""
    p = Path(path)
    return parse_policy(read_structured_file(p), source=str(p))
