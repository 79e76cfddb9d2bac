"""Fact registries: operator ground truth, its models and its loading (RFC-003 §5).

A *fact* is a typed statement about a subject ("Node.js is installed", "the owner is
called Albert", "nats-events count is 255908"). Facts come in registries, inline in the
config or from JSON/YAML files in either RFC format:

* RFC-003 registry objects: ``{"id", "name", "facts": [{"id", "category", "subject",
  "value": {"type": ...}}]}``;
* RFC-006 §8.3 generated files: ``{"id", "generatedAt", "facts": [{"subject",
  "predicate", "value", "source"}]}``.

A facts list may mix both shapes. Loading validates everything (field types, regex
subjects, duplicate ids) and raises :class:`~receiptgate._exceptions.ConfigError` with the file and
the field path; nothing is compiled or validated again when claims are checked.

Loaded registries are indexed by :class:`~receiptgate.evidence.fact_index.FactIndex`, and
:func:`~receiptgate.checks.facts.check_claim` compares a detected claim with the matching
facts.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Annotated, Any, Final, Literal

import re2
import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from receiptgate._exceptions import ConfigError
from receiptgate._validation import describe_value, format_validation_error, loc_path
from receiptgate.bounds import MAX_TTL_SECONDS, in_range
from receiptgate.claims.models import ClaimCategory, DetectorCategory
from receiptgate.evidence.fact_words import STATUS_WORDS, norm_word, normalise_subject
from receiptgate.text.clean import clean_data

__all__ = [
    "MAX_REGEX_LENGTH",
    "CapabilityValue",
    "ExistsValue",
    "Fact",
    "FactRegistry",
    "FactRegistryConfig",
    "FactValue",
    "NameValue",
    "StateValue",
    "StatusValue",
    "TripleValue",
    "load_registry",
    "load_registry_file",
    "parse_fact",
]

#: Longest regex subject accepted (the same limit as custom detector patterns).
MAX_REGEX_LENGTH: Final = 500

_MODEL_CONFIG = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

# --------------------------------------------------------------------------- models


class ExistsValue(BaseModel):
    """The subject exists (or does not)."""

    model_config = _MODEL_CONFIG
    type: Literal["exists"] = "exists"
    exists: bool


class StateValue(BaseModel):
    """The subject is in a state ("installed", "running", "stopped")."""

    model_config = _MODEL_CONFIG
    type: Literal["state"] = "state"
    state: str = Field(min_length=1)


class NameValue(BaseModel):
    """The subject's correct name, with accepted aliases."""

    model_config = _MODEL_CONFIG
    type: Literal["name"] = "name"
    correct_name: str = Field(alias="correctName", min_length=1)
    aliases: list[str] = Field(default_factory=list)


class StatusValue(BaseModel):
    """The subject's operational status."""

    model_config = _MODEL_CONFIG
    type: Literal["status"] = "status"
    status: Literal["operational", "degraded", "down"]


class CapabilityValue(BaseModel):
    """Whether the subject supports something."""

    model_config = _MODEL_CONFIG
    type: Literal["capability"] = "capability"
    supported: bool


class TripleValue(BaseModel):
    """A subject/predicate/value triple: counts, metrics, versions (RFC-006 §8.3)."""

    model_config = _MODEL_CONFIG
    type: Literal["value"] = "value"
    predicate: str = Field(min_length=1)
    value: str


_VALUE_TYPES: Final = ("exists", "state", "name", "status", "capability", "value")


def _value_tag(value: Any) -> str | None:
    # Tags are written "type=<x>" so that format_validation_error can drop them from
    # error paths: pydantic inserts the tag into the location of member errors.
    if isinstance(value, Mapping):
        tag = value.get("type")
        if tag is None:
            return "type="
        return f"type={tag}" if isinstance(tag, str) else f"type={json.dumps(tag, default=str)}"
    tag = getattr(value, "type", None)
    return f"type={tag}" if isinstance(tag, str) else None


FactValue = Annotated[
    Annotated[ExistsValue, Tag("type=exists")]
    | Annotated[StateValue, Tag("type=state")]
    | Annotated[NameValue, Tag("type=name")]
    | Annotated[StatusValue, Tag("type=status")]
    | Annotated[CapabilityValue, Tag("type=capability")]
    | Annotated[TripleValue, Tag("type=value")],
    Discriminator(_value_tag),
]
"""One of the six fact value types, chosen by its ``type`` field."""

# Which claim categories a typed value can answer; a mismatch could never match a
# claim, so it is rejected at load instead of silently doing nothing.
_VALUE_CATEGORIES: Final[dict[str, frozenset[str]]] = {
    "exists": frozenset({"existence"}),
    "state": frozenset({"system_state"}),
    "name": frozenset({"entity_name", "self_referential"}),
    "status": frozenset({"operational_status"}),
    "capability": frozenset({"capability"}),
}


def _date_is_midnight_utc(value: Any) -> Any:
    # YAML turns "2026-03-01" into a date; a fact timestamp wants a datetime.
    if isinstance(value, date) and not isinstance(value, datetime):
        return datetime.combine(value, time(), UTC)
    return value


_Timestamp = Annotated[datetime, BeforeValidator(_date_is_midnight_utc), AfterValidator(in_range)]
_Ttl = Annotated[int, Field(gt=0, le=MAX_TTL_SECONDS)]


def _to_utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value


class Fact(BaseModel):
    """One operator fact (RFC-003 §5.2, plus ``value`` triples and ``source``).

    Attributes:
        id: unique within its registry.
        category: the claim category this fact can check.
        subject: what the fact is about; an RE2 pattern when ``subject_is_regex``.
        subject_is_regex: match ``subject`` as a case-insensitive full-match regex.
        value: the known truth.
        description: for audits and debugging.
        ttl_seconds: the fact expires ``ttl_seconds`` after ``updated_at``.
        updated_at: when the fact was last confirmed (naive times are UTC).
        source: who asserted the fact ("trace-analyzer", "ops").
    """

    model_config = _MODEL_CONFIG
    id: str = Field(min_length=1)
    category: DetectorCategory
    subject: str = Field(min_length=1)
    subject_is_regex: bool = Field(default=False, alias="subjectIsRegex")
    value: FactValue
    description: str | None = None
    ttl_seconds: _Ttl | None = Field(default=None, alias="ttlSeconds")
    updated_at: _Timestamp | None = Field(default=None, alias="updatedAt")
    source: str | None = None

    @field_validator("updated_at")
    @classmethod
    def _naive_is_utc(cls, value: datetime | None) -> datetime | None:
        return _to_utc(value)

    @field_validator("value")
    @classmethod
    def _value_fits_category(cls, value: Any, info: ValidationInfo) -> Any:
        category = info.data.get("category")
        allowed = _VALUE_CATEGORIES.get(value.type)
        if category is not None and allowed is not None and category not in allowed:
            raise ValueError(
                f'a "{value.type}" value cannot check {category} claims '
                f"(use category {' or '.join(sorted(allowed))})"
            )
        return value

    @property
    def predicate(self) -> str:
        """The lower-cased predicate: the value type, or a triple's own predicate."""
        if isinstance(self.value, TripleValue):
            return self.value.predicate.strip().lower()
        return self.value.type

    @property
    def expires_at(self) -> datetime | None:
        """When the fact stops counting; ``None`` when it never expires."""
        if self.ttl_seconds is None:
            return None
        if self.updated_at is None:
            # A TTL with no timestamp cannot be trusted to be fresh.
            return datetime.min.replace(tzinfo=UTC)
        try:
            return self.updated_at + timedelta(seconds=self.ttl_seconds)
        except OverflowError:  # only for facts built without validation
            return datetime.max.replace(tzinfo=UTC)


def _scalar_text(value: Any) -> Any:
    # JSON/YAML may give 255908 or true for a triple value; the fact keeps text.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if not isinstance(value, str):
        raise ValueError(f"must be a string, number or boolean (got {describe_value(value)})")
    return value


class _TripleFact(BaseModel):
    """A fact written as a subject/predicate/value triple (RFC-006 §8.3)."""

    model_config = _MODEL_CONFIG
    subject: str = Field(min_length=1)
    predicate: str = Field(min_length=1)
    value: Annotated[str, BeforeValidator(_scalar_text)]
    source: str | None = None
    id: str | None = Field(default=None, min_length=1)
    category: DetectorCategory | None = None
    subject_is_regex: bool = Field(default=False, alias="subjectIsRegex")
    description: str | None = None
    ttl_seconds: _Ttl | None = Field(default=None, alias="ttlSeconds")
    updated_at: _Timestamp | None = Field(default=None, alias="updatedAt")


class _RegistryFile(BaseModel):
    """The top level of a registry file, in either RFC format."""

    model_config = _MODEL_CONFIG
    id: str | None = Field(default=None, min_length=1)
    name: str | None = None
    description: str | None = None
    generated_at: _Timestamp | None = Field(default=None, alias="generatedAt")
    enabled: bool = True
    facts: list[Any]


class FactRegistryConfig(BaseModel):
    """Where a registry's facts come from: inline ``facts`` or a ``filePath``.

    Attributes:
        id: registry id; defaults to the file's ``id``, then its stem, then ``"inline"``.
        name: human-readable name.
        facts: inline facts, typed or triples (validated by :func:`load_registry`).
        file_path: a JSON or YAML registry file; ``~`` is expanded and a relative
            path is resolved against the config file's folder.
        enabled: a disabled registry is neither read nor indexed.
        optional: a missing or invalid file gives an empty registry and a warning
            instead of an error.
    """

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
    id: str | None = Field(default=None, min_length=1)
    name: str | None = None
    facts: list[dict[str, Any]] | None = None
    file_path: str | None = Field(default=None, alias="filePath", min_length=1)
    enabled: bool = True
    optional: bool = False

    @model_validator(mode="after")
    def _one_source(self) -> FactRegistryConfig:
        if (self.facts is None) == (self.file_path is None):
            got = "both" if self.facts is not None else "neither"
            raise ValueError(f'exactly one of "facts" and "filePath" must be given (got {got})')
        return self

    def resolve_path(self, base_dir: Path | None = None) -> Path | None:
        """The file path with ``~`` expanded and made absolute against ``base_dir``."""
        if self.file_path is None:
            return None
        path = Path(self.file_path).expanduser()
        if not path.is_absolute() and base_dir is not None:
            path = base_dir / path
        return path


@dataclass(frozen=True, slots=True)
class FactRegistry:
    """A loaded, validated registry (RFC-003 §5.3).

    Attributes:
        id: registry id, unique within a :class:`~receiptgate.evidence.fact_index.FactIndex`.
        facts: the facts, in file order.
        name: human-readable name.
        enabled: disabled registries are skipped by
            :class:`~receiptgate.evidence.fact_index.FactIndex`.
        path: the file the facts came from, if any.
        generated_at: an RFC-006 file's ``generatedAt``.
        warnings: problems that did not stop loading (an optional file was missing).
    """

    id: str
    facts: tuple[Fact, ...] = ()
    name: str | None = None
    enabled: bool = True
    path: Path | None = None
    generated_at: datetime | None = None
    warnings: tuple[str, ...] = ()


# ------------------------------------------------------------------------- loading

_TRIPLE_CATEGORY: Final[dict[str, ClaimCategory]] = {
    "state": "system_state",
    "exists": "existence",
    "name": "entity_name",
    "status": "operational_status",
    "supported": "capability",
    "capability": "capability",
}


_TRUE_WORDS: Final = frozenset({"true", "yes", "1"})
_FALSE_WORDS: Final = frozenset({"false", "no", "0"})


def _parse_bool(text: str) -> bool | None:
    word = "".join(text.split()).lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return None


def _regex_options() -> re2.Options:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False  # RE2 would print to stderr; we raise instead
    return options


RE2_OPTIONS: Final = _regex_options()


@functools.lru_cache(maxsize=2048)
def regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot be a subject regex, or ``None`` if it can."""
    if len(pattern) > MAX_REGEX_LENGTH:
        return f"regex is {len(pattern)} characters long (max {MAX_REGEX_LENGTH})"
    try:
        re2.compile(pattern, RE2_OPTIONS)
    except re2.error as exc:
        detail = exc.args[0] if exc.args else exc
        if isinstance(detail, bytes):
            detail = detail.decode("utf-8", "replace")
        return f"RE2 cannot compile it: {detail}"
    return None


def _triple_to_fact(
    triple: _TripleFact, *, registry_id: str, where: str, loc: str
) -> dict[str, Any]:
    predicate = triple.predicate.strip().lower()
    text = triple.value.strip()
    category: ClaimCategory | None = triple.category
    value: dict[str, Any]
    mapped = _TRIPLE_CATEGORY.get(predicate)
    if predicate in ("exists", "supported", "capability"):
        flag = _parse_bool(text)
        if flag is None:
            raise ConfigError(
                f"{where}: {loc}.value: predicate {json.dumps(predicate)} needs true/false, "
                f"yes/no or 1/0 (got {json.dumps(text)})"
            )
        value = (
            {"type": "exists", "exists": flag}
            if predicate == "exists"
            else {"type": "capability", "supported": flag}
        )
    elif predicate == "state":
        value = {"type": "state", "state": text}
    elif predicate == "name":
        value = {"type": "name", "correctName": text}
        if normalise_subject(triple.subject) == "self":
            mapped = "self_referential"
    elif predicate == "status" and (status := STATUS_WORDS.get(norm_word(text))):
        value = {"type": "status", "status": status}
    else:
        value = {"type": "value", "predicate": triple.predicate.strip(), "value": text}
        mapped = "quantity"
    fact_id = triple.id or f"{registry_id}:{triple.subject}:{predicate}".lower()
    data: dict[str, Any] = {
        "id": fact_id,
        "category": category or mapped,
        "subject": triple.subject,
        "subjectIsRegex": triple.subject_is_regex,
        "value": value,
        "description": triple.description,
        "ttlSeconds": triple.ttl_seconds,
        "updatedAt": triple.updated_at,
        "source": triple.source,
    }
    return data


def parse_fact(
    data: Any,
    *,
    registry_id: str,
    where: str = "fact",
    loc: Sequence[int | str] = (),
    generated_at: datetime | None = None,
) -> Fact:
    """Validate one fact, typed (``value: {type: ...}``) or a triple (``predicate``).

    Args:
        data: the raw fact, or a :class:`Fact` (returned as is after the regex check).
        registry_id: used for generated ids (``registry:subject:predicate``).
        where: error prefix, usually the file name.
        loc: location of the fact in the file, e.g. ``("facts", 3)``.
        generated_at: default ``updatedAt`` (an RFC-006 file's ``generatedAt``).

    Raises:
        ConfigError: naming ``where``, the field path and the problem.
    """
    loc_text = loc_path(loc)
    if isinstance(data, Fact):
        fact = data
    else:
        if not isinstance(data, Mapping):
            raise ConfigError(
                f"{where}: {loc_text or 'fact'}: must be an object (got {describe_value(data)})"
            )
        data, _ = clean_data(data)  # text/clean.py: lone surrogates become U+FFFD
        try:
            if "predicate" in data:
                triple = _TripleFact.model_validate(data)
                data = _triple_to_fact(triple, registry_id=registry_id, where=where, loc=loc_text)
            fact = Fact.model_validate(data)
        except ValidationError as exc:
            raise ConfigError(format_validation_error(where, exc, loc_prefix=loc)) from exc
    if fact.updated_at is None and generated_at is not None:
        fact = fact.model_copy(update={"updated_at": _to_utc(generated_at)})
    if fact.subject_is_regex and (problem := regex_problem(fact.subject)):
        subject_loc = f"{loc_text}.subject" if loc_text else "subject"
        raise ConfigError(
            f'{where}: {subject_loc}: invalid regex in registry "{registry_id}", '
            f'fact "{fact.id}": {problem}'
        )
    return fact


def _parse_facts(
    items: Sequence[Any], *, registry_id: str, where: str, generated_at: datetime | None
) -> tuple[Fact, ...]:
    facts: list[Fact] = []
    seen: dict[str, int] = {}
    for i, item in enumerate(items):
        fact = parse_fact(
            item,
            registry_id=registry_id,
            where=where,
            loc=("facts", i),
            generated_at=generated_at,
        )
        if fact.id in seen:
            raise ConfigError(
                f'{where}: facts[{i}].id: duplicate fact id "{fact.id}" in registry '
                f'"{registry_id}" (also facts[{seen[fact.id]}])'
            )
        seen[fact.id] = i
        facts.append(fact)
    return tuple(facts)


def _read_document(path: Path, shown: str) -> Any:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{shown}: file not found") from None
    except IsADirectoryError:
        raise ConfigError(f"{shown}: is a directory, not a facts file") from None
    except PermissionError:
        raise ConfigError(f"{shown}: permission denied") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{shown}: not valid UTF-8 (byte {exc.start})") from None
    except OSError as exc:
        raise ConfigError(f"{shown}: cannot read: {exc.strerror or exc}") from None
    if path.suffix.lower() in (".yaml", ".yml"):
        try:
            return yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            at = f" at line {mark.line + 1} column {mark.column + 1}" if mark else ""
            raise ConfigError(f"{shown}: invalid YAML: {problem}{at}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"{shown}: invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        ) from None


def _load_file(
    path: Path, *, shown: str, registry_id: str | None, name: str | None, enabled: bool
) -> FactRegistry:
    document = _read_document(path, shown)
    if not isinstance(document, Mapping):
        got = "an empty file" if document is None else type(document).__name__
        raise ConfigError(f'{shown}: expected an object with a "facts" list (got {got})')
    try:
        header = _RegistryFile.model_validate(document)
    except ValidationError as exc:
        raise ConfigError(format_validation_error(shown, exc)) from exc
    reg_id = registry_id or header.id or path.stem
    generated_at = _to_utc(header.generated_at)
    facts = _parse_facts(header.facts, registry_id=reg_id, where=shown, generated_at=generated_at)
    return FactRegistry(
        id=reg_id,
        facts=facts,
        name=name or header.name,
        enabled=enabled and header.enabled,
        path=path,
        generated_at=generated_at,
    )


def load_registry_file(path: str | Path) -> FactRegistry:
    """Load a registry file: YAML for ``.yaml``/``.yml``, JSON otherwise.

    Raises:
        ConfigError: the file is missing or unreadable, or its content is invalid;
            the message starts with the path.
    """
    shown = str(path)
    resolved = Path(path).expanduser()
    return _load_file(resolved, shown=shown, registry_id=None, name=None, enabled=True)


def load_registry(
    cfg: FactRegistryConfig | Mapping[str, Any],
    *,
    base_dir: Path | None = None,
    where: str | None = None,
) -> FactRegistry:
    """Load one registry from its config: inline facts or a file.

    Args:
        cfg: the registry config, as a model or a mapping.
        base_dir: folder that relative ``filePath`` values are resolved against.
        where: error prefix for inline facts (e.g. ``"config.yaml: factRegistries[0]"``).

    Raises:
        ConfigError: bad config, missing or invalid file (unless ``optional``), bad facts.
    """
    if not isinstance(cfg, FactRegistryConfig):
        try:
            cfg = FactRegistryConfig.model_validate(cfg)
        except ValidationError as exc:
            raise ConfigError(format_validation_error(where or "fact registry", exc)) from exc
    path = cfg.resolve_path(base_dir)
    if path is None:
        reg_id = cfg.id or "inline"
        if not cfg.enabled:
            return FactRegistry(id=reg_id, name=cfg.name, enabled=False)
        facts = _parse_facts(
            cfg.facts or (),
            registry_id=reg_id,
            where=where or f'fact registry "{reg_id}"',
            generated_at=None,
        )
        return FactRegistry(id=reg_id, facts=facts, name=cfg.name)
    shown = cfg.file_path or str(path)
    if not cfg.enabled:
        # Not read at all: disabling is how one parks a registry whose file is gone.
        return FactRegistry(id=cfg.id or path.stem, name=cfg.name, enabled=False, path=path)
    try:
        return _load_file(path, shown=shown, registry_id=cfg.id, name=cfg.name, enabled=True)
    except ConfigError as exc:
        if not cfg.optional:
            raise
        return FactRegistry(
            id=cfg.id or path.stem, name=cfg.name, path=path, warnings=(f"{exc} (optional)",)
        )
