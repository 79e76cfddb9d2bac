"""The gate's configuration: RFC-003 §10.1 ``OutputValidationConfig`` plus ``failMode``.

One pydantic model with the RFC-003 §10.2 defaults. Files are YAML or JSON whose
top-level keys are the RFC's camelCase field names; an unknown key, a wrong type
or a bad value is a ``ConfigError`` naming the file and the field path.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from receiptgate._exceptions import ConfigError
from receiptgate.claims.models import ClaimCategory
from receiptgate.evidence.facts import FactRegistryConfig, format_validation_error

PolicyAction = Literal["ignore", "flag", "block"]
ProfileName = Literal["strict", "standard", "lenient", "disabled"]
FailMode = Literal["fail_open", "fail_closed"]


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, alias_generator=to_camel, frozen=True
    )


class CustomClaimDetector(_Model):
    """A detector defined in config (RFC-003 §4.5); patterns are compiled with RE2."""

    id: str = Field(pattern=r"^[A-Za-z0-9_.:-]+$", description="Unique detector id.")
    category: ClaimCategory
    patterns: list[str] = Field(min_length=1)
    subject_group: str | None = Field(
        default=None, description="Named group holding the subject (default: first group)."
    )
    assertion: str
    negative: bool = False
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)


class BuiltinDetectors(_Model):
    """Switches for the built-in detectors (all on by default)."""

    system_state: bool = True
    entity_name: bool = True
    existence: bool = True
    operational_status: bool = True
    self_referential: bool = True
    capability: bool = True
    quantity: bool = True
    action: bool = True
    attribution: bool = True


class PolicyDefaults(_Model):
    """Policies used when no trust score is given and no override applies."""

    unverified_claim_policy: PolicyAction = "flag"
    contradiction_policy: PolicyAction = "block"
    self_referential_policy: PolicyAction = "flag"


class AgentOverride(_Model):
    """Per-agent override (RFC-003 §9.4); ``agent`` is an id or a glob."""

    agent: str = Field(min_length=1)
    profile: ProfileName | None = None
    unverified_claim_policy: PolicyAction | None = None
    contradiction_policy: PolicyAction | None = None
    self_referential_policy: PolicyAction | None = None
    additional_registries: list[str] = Field(default_factory=list)
    exclude_registries: list[str] = Field(default_factory=list)


class Hooks(_Model):
    """Which runtime hooks validate (used by the hook dispatcher)."""

    message_sending: bool = True
    before_message_write: bool = True
    llm_output: bool = False


class Performance(_Model):
    """Budgets: bail-out time, claim cap and text cap."""

    max_eval_us: int = Field(default=8000, gt=0)
    max_claims_per_output: int = Field(default=50, ge=1)
    max_text_length: int = Field(default=10000, ge=1)


class GateConfig(_Model):
    """The whole configuration of one gate (RFC-003 §10.1 and §10.2 defaults)."""

    enabled: bool = True
    min_text_length: int = Field(default=10, ge=0)
    exempt: list[str] = Field(default_factory=list, description="Agent ids or globs skipped.")
    trust_exempt_threshold: int = Field(default=90, ge=0, le=101)
    fact_registries: list[FactRegistryConfig] = Field(default_factory=list)
    custom_detectors: list[CustomClaimDetector] = Field(default_factory=list)
    builtin_detectors: BuiltinDetectors = Field(default_factory=BuiltinDetectors)
    defaults: PolicyDefaults = Field(default_factory=PolicyDefaults)
    agent_overrides: list[AgentOverride] = Field(default_factory=list)
    hooks: Hooks = Field(default_factory=Hooks)
    performance: Performance = Field(default_factory=Performance)
    fail_mode: FailMode = "fail_open"
    min_block_confidence: float = Field(
        default=0.75,
        ge=0.0,
        le=1.0,
        description="RFC-003 §14.4: a claim matched with lower confidence can flag, never block.",
    )


def read_structured_file(path: Path) -> Any:
    """Reads a YAML (``.yaml``/``.yml``) or JSON file; errors name the file."""
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ConfigError(f"{path}: cannot read: {e}") from e
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            return yaml.safe_load(raw)
        return json.loads(raw)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1} column {mark.column + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise ConfigError(f"{path}: invalid YAML{where}: {problem}") from e
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path}: invalid JSON: {e}") from e


def parse_config(data: Any, *, source: str = "<config>") -> GateConfig:
    """Validates a config mapping; errors name ``source`` and the field."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{source}: the top level must be a mapping of config keys")
    if "outputValidation" in data and len(data) == 1:
        raise ConfigError(
            f"{source}: outputValidation: put the OutputValidationConfig keys at the top level"
        )
    try:
        return GateConfig.model_validate(data)
    except ValidationError as e:
        raise ConfigError(format_validation_error(source, e)) from e


def load_config(path: str | Path) -> tuple[GateConfig, Path]:
    """Loads a config file; returns the config and the folder relative paths resolve in."""
    p = Path(path)
    return parse_config(read_structured_file(p), source=str(p)), p.parent
