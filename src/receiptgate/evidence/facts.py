"""Fact registries: operator ground truth, indexed for O(1) claim checks (RFC-003 §5).

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

:class:`FactIndex` holds the registries in priority order (later wins) and answers
lookups by ``(category, normalised subject)`` from a dict, with regex subjects grouped
into one RE2 set per category. :func:`check_claim` compares one detected claim with the
matching facts and returns a :class:`FactCheckResult`.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, Final, Literal, cast

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
from receiptgate.bounds import MAX_TTL_SECONDS, in_range
from receiptgate.claims.models import ClaimCategory, DetectedClaim, DetectorCategory
from receiptgate.text.clean import clean_data

__all__ = [
    "MAX_REGEX_LENGTH",
    "CapabilityValue",
    "ExistsValue",
    "Fact",
    "FactCheckResult",
    "FactCheckStatus",
    "FactIndex",
    "FactRegistry",
    "FactRegistryConfig",
    "FactValue",
    "NameValue",
    "StateValue",
    "StatusValue",
    "TripleValue",
    "check_claim",
    "format_validation_error",
    "load_registry",
    "load_registry_file",
    "normalise_subject",
    "parse_fact",
]

#: Longest regex subject accepted (the same limit as custom detector patterns).
MAX_REGEX_LENGTH: Final = 500

logger = logging.getLogger("receiptgate")

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
        raise ValueError(f"must be a string, number or boolean (got {_got(value)})")
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
        id: registry id, unique within a :class:`FactIndex`.
        facts: the facts, in file order.
        name: human-readable name.
        enabled: disabled registries are skipped by :class:`FactIndex`.
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


# ------------------------------------------------------------------ error messages

_FRIENDLY: Final = {
    "missing": "field required",
    "extra_forbidden": "unknown field",
}


def _got(value: Any) -> str:
    if value is None or isinstance(value, str | int | float | bool):
        return json.dumps(value)
    return type(value).__name__


def _loc_path(loc: Iterable[int | str]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif "=" in part:
            continue  # a union tag ("type=state"), not an input field
        else:
            out += f".{part}" if out else part
    return out


def _error_message(err: Mapping[str, Any]) -> tuple[str, str]:
    """(extra path suffix, message) for one pydantic error."""
    kind = err["type"]
    ctx = err.get("ctx") or {}
    value = err.get("input")
    if kind == "union_tag_invalid":
        tags = [t.strip().strip("'") for t in str(ctx.get("expected_tags", "")).split(",")]
        field_name, _, got = str(ctx.get("tag", "")).partition("=")
        names = ", ".join(t.partition("=")[2] or t for t in tags)
        field_name = field_name or "type"
        if not got:
            return f".{field_name}", f"field required (one of {names})"
        got = got if got.startswith('"') else json.dumps(got)
        return f".{field_name}", f"must be one of {names} (got {got})"
    if kind == "union_tag_not_found":
        return "", f"must be an object with a type field (got {_got(value)})"
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        return "", f"must be one of {expected} (got {_got(value)})"
    if kind in _FRIENDLY:
        return "", _FRIENDLY[kind]
    msg = str(err["msg"])
    msg = msg.removeprefix("Value error, ").removeprefix("Assertion failed, ")
    msg = msg[:1].lower() + msg[1:]
    if kind != "value_error":
        msg += f" (got {_got(value)})"
    return "", msg


def format_validation_error(
    prefix: str,
    err: ValidationError,
    *,
    loc_prefix: Sequence[int | str] = (),
    max_errors: int = 5,
) -> str:
    """Render a pydantic error as ``prefix: facts[3].value.type: message``.

    Locations become dotted paths with ``[i]`` indexes; union tags written
    ``field=value`` (see :data:`FactValue`) are dropped so the path names input fields.

    Args:
        prefix: what was being read, usually the file name.
        err: the validation error.
        loc_prefix: location of the validated object inside the file.
        max_errors: at most this many errors are listed.

    Returns:
        One line; several errors are joined with ``"; "``.
    """
    parts: list[str] = []
    errors = err.errors(include_url=False)
    for item in errors[:max_errors]:
        suffix, message = _error_message(item)
        path = _loc_path([*loc_prefix, *item["loc"]]) + suffix
        path = path.removeprefix(".")
        parts.append(f"{path}: {message}" if path else message)
    if len(errors) > max_errors:
        parts.append(f"and {len(errors) - max_errors} more")
    return f"{prefix}: " + "; ".join(parts)


# ------------------------------------------------------------------- normalisation

_QUOTES: Final = "\"'`\u2018\u2019\u201c\u201d\u00ab\u00bb"
_TRAILING: Final = ".,;:!?"
_DETERMINERS: Final = frozenset(
    {"the", "a", "an", "our", "my", "your", "their", "this", "that", "these", "those"}
)


@functools.lru_cache(maxsize=8192)
def normalise_subject(subject: str) -> str:
    """Lower-case, collapse whitespace, drop surrounding quotes and trailing punctuation.

    Example:
        ``normalise_subject(' "Node.js". ')`` is ``"node.js"``.
    """
    text = " ".join(subject.split()).lower()
    previous = None
    while text != previous:
        previous = text
        text = text.strip(_QUOTES).rstrip(_TRAILING).strip()
    return text


def _strip_determiner(normalised: str) -> str:
    first, _, rest = normalised.partition(" ")
    return rest if rest and first in _DETERMINERS else normalised


_PREPOSITION = re.compile(r" (?:in|on|at|of|for) ")


def _subject_forms(subject: str) -> tuple[str, ...]:
    norm = normalise_subject(subject)
    bare = _strip_determiner(norm)
    forms = (norm,) if bare == norm else (norm, bare)
    head = _PREPOSITION.split(bare, maxsplit=1)[0]
    # "Postgres on db-01" is also about "postgres"; the full phrase stays first.
    return forms if head == bare or not head else (*forms, head)


@functools.lru_cache(maxsize=8192)
def _claim_forms(subject: str, obj: str | None) -> tuple[str, ...]:
    forms = _subject_forms(subject)
    if obj:
        # "X doesn't support Y": a fact about "x y" or "y" is more specific than one
        # about "x", so those forms go first.
        obj_forms = _subject_forms(obj)
        forms = (*(f"{s} {obj_forms[-1]}" for s in forms), *obj_forms, *forms)
    return tuple(dict.fromkeys(f for f in forms if f))


@functools.lru_cache(maxsize=4096)
def _norm_word(word: str) -> str:
    return "_".join(word.strip().lower().replace("'", "").replace("\u2019", "").split()).replace(
        "-", "_"
    )


_NEGATION_PREFIXES: Final = (
    "not_",
    "no_",
    "non_",
    "isnt_",
    "is_not_",
    "doesnt_",
    "does_not_",
    "dont_",
    "do_not_",
    "cannot_",
    "cant_",
    "never_",
)


def _split_negation(word: str) -> tuple[str, bool]:
    for prefix in _NEGATION_PREFIXES:
        if word.startswith(prefix) and len(word) > len(prefix):
            return word[len(prefix) :], True
    return word, False


# State words canonicalised to (base, polarity): "stopped" and "running" speak to the
# same question, "installed" and "running" do not.
_STATE_WORDS: Final[dict[str, tuple[str, bool]]] = {
    **dict.fromkeys(("running", "active", "up", "online", "started", "live"), ("running", True)),
    **dict.fromkeys(
        ("stopped", "down", "offline", "inactive", "dead", "halted"), ("running", False)
    ),
    **dict.fromkeys(("installed", "present", "available", "found"), ("installed", True)),
    **dict.fromkeys(
        ("uninstalled", "missing", "absent", "not_found", "unavailable"), ("installed", False)
    ),
    "enabled": ("enabled", True),
    "disabled": ("enabled", False),
    "configured": ("configured", True),
    "unconfigured": ("configured", False),
    "loaded": ("loaded", True),
    "unloaded": ("loaded", False),
}

# Words that *are* a negation ("I couldn't find docker" -> not_found, negative=True):
# the claim's negative flag describes them and must not flip them back.
_SELF_NEGATING: Final = frozenset({"not_found", "missing", "absent", "nonexistent", "gone"})


@functools.lru_cache(maxsize=4096)
def _canonical_state(word: str, negative: bool) -> tuple[str, bool]:
    word = _norm_word(word)
    if word in _STATE_WORDS:
        base, polarity = _STATE_WORDS[word]
        if negative and word not in _SELF_NEGATING:
            polarity = not polarity
        return base, polarity
    rest, prefixed = _split_negation(word)
    base, polarity = _STATE_WORDS.get(rest, (rest, True))
    # The "not_" prefix and the negative flag usually report the same "not": flip once.
    return base, polarity != (prefixed or negative)


_STATUS_WORDS: Final[dict[str, str]] = {
    **dict.fromkeys(
        (
            "broken",
            "down",
            "crashed",
            "dead",
            "offline",
            "unreachable",
            "failed",
            "errored",
            "timed_out",
            "outage",
        ),
        "down",
    ),
    **dict.fromkeys(("failing", "unresponsive", "degraded", "slow", "flaky"), "degraded"),
    **dict.fromkeys(
        ("up", "healthy", "operational", "working", "green", "fine", "running", "ok", "online"),
        "operational",
    ),
}
_STATUS_FLIP: Final = {"operational": "down", "down": "operational"}


@functools.lru_cache(maxsize=4096)
def _canonical_status(word: str, negative: bool) -> str | None:
    word = _norm_word(word)
    status = _STATUS_WORDS.get(word)
    prefixed = False
    if status is None:
        rest, prefixed = _split_negation(word)
        status = _STATUS_WORDS.get(rest)
    if status is None:
        return None
    if prefixed or negative:
        return _STATUS_FLIP.get(status)  # "not degraded" says nothing definite
    return status


_NEGATIVE_EXISTENCE: Final = frozenset(
    {"missing", "absent", "not_found", "nonexistent", "gone", "deleted", "removed", "none"}
)
_NEGATIVE_CAPABILITY: Final = frozenset({"unsupported", "unavailable", "cannot", "cant"})


def _asserts_negation(claim: DetectedClaim, negative_words: frozenset[str]) -> bool:
    if claim.negative:
        return True
    word = _norm_word(claim.assertion)
    return word in negative_words or _split_negation(word)[1]


_TRUE_WORDS: Final = frozenset({"true", "yes", "1"})
_FALSE_WORDS: Final = frozenset({"false", "no", "0"})


def _parse_bool(text: str) -> bool | None:
    word = "".join(text.split()).lower()
    if word in _TRUE_WORDS:
        return True
    if word in _FALSE_WORDS:
        return False
    return None


# Internal fixed patterns use the stdlib engine; only user patterns need RE2.
_NUMBER_RE: Final = re.compile(
    r"(?P<sign>[-+]?)(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)\s*(?P<unit>.*)"
)
_UNIT_RE: Final = re.compile(r"%|[^\W\d_][^\W\d]*(?:[ /][^\W\d_][^\W\d]*){0,2}")
_SCALES: Final = {
    "k": 10**3,
    "thousand": 10**3,
    "mn": 10**6,
    "mln": 10**6,
    "million": 10**6,
    "bn": 10**9,
    "billion": 10**9,
    "trillion": 10**12,
}
# "2.4M" is millions after a currency sign; otherwise it may be metres or minutes.
_MONEY_SCALES: Final = {"m": 10**6, "mm": 10**6, "b": 10**9}
_CURRENCY: Final = "$€£¥"


@functools.lru_cache(maxsize=8192)
def _norm_value(text: str) -> str:
    value = normalise_subject(text)
    if len(value) > 1 and value[0] == "v" and value[1].isdigit():
        value = value[1:]  # "v1.24" is the version 1.24
    return value


@functools.lru_cache(maxsize=8192)
def _parse_number(text: str) -> tuple[Decimal, str] | None:
    """``"255,908 events"`` -> ``(Decimal(255908), "event")``; ``None`` if not a number.

    Decimals keep the comparison exact: "999,999,999" must not equal "1,000,000,000".
    """
    value = _norm_value(text)
    bare = value.lstrip(_CURRENCY).strip()
    match = _NUMBER_RE.fullmatch(bare)
    if match is None:
        return None
    number = Decimal(match["num"].replace(",", ""))
    if match["sign"] == "-":
        number = -number
    unit = match["unit"].strip()
    if unit and not _UNIT_RE.fullmatch(unit):
        return None
    first, _, rest = unit.partition(" ")
    scale = _SCALES.get(first) or (_MONEY_SCALES.get(first) if bare != value else None)
    if scale is not None:
        number *= scale
        unit = rest.strip()
    elif first in _MONEY_SCALES:
        return None  # ambiguous: do not guess a magnitude
    if unit == "percent":
        unit = "%"
    elif len(unit) > 2 and unit.endswith("s"):
        unit = unit[:-1]
    return number, unit


# ------------------------------------------------------------------------- loading

_TRIPLE_CATEGORY: Final[dict[str, ClaimCategory]] = {
    "state": "system_state",
    "exists": "existence",
    "name": "entity_name",
    "status": "operational_status",
    "supported": "capability",
    "capability": "capability",
}


def _regex_options() -> re2.Options:
    options = re2.Options()
    options.case_sensitive = False
    options.log_errors = False  # RE2 would print to stderr; we raise instead
    return options


_RE2_OPTIONS: Final = _regex_options()


@functools.lru_cache(maxsize=2048)
def _regex_problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot be a subject regex, or ``None`` if it can."""
    if len(pattern) > MAX_REGEX_LENGTH:
        return f"regex is {len(pattern)} characters long (max {MAX_REGEX_LENGTH})"
    try:
        re2.compile(pattern, _RE2_OPTIONS)
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
    elif predicate == "status" and (status := _STATUS_WORDS.get(_norm_word(text))):
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
    loc_text = _loc_path(loc)
    if isinstance(data, Fact):
        fact = data
    else:
        if not isinstance(data, Mapping):
            raise ConfigError(
                f"{where}: {loc_text or 'fact'}: must be an object (got {_got(data)})"
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
    if fact.subject_is_regex and (problem := _regex_problem(fact.subject)):
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


# --------------------------------------------------------------------------- index

_Key = tuple[str, str, str]  # (category, subject key, predicate)


@dataclass(eq=False, slots=True)
class _Entry:
    """A fact prepared for checking: everything a check needs, computed once."""

    fact: Fact
    registry_id: str
    priority: tuple[int, int]  # (registry position, sequence): higher wins
    key: _Key
    category: str
    forms: tuple[str, ...]  # exact subject forms indexed; empty for regex subjects
    is_regex: bool
    kind: str
    predicate: str
    expires_at: datetime | None
    expires_us: int | None  # expires_at in µs since the epoch: a cheap comparison per check
    expected: str
    flag: bool | None = None
    state: tuple[str, bool] | None = None
    names: frozenset[str] = frozenset()
    status: str | None = None
    number: tuple[Decimal, str] | None = None
    text: str = ""


_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND: Final = timedelta(microseconds=1)


def _micros(moment: datetime) -> int:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // _MICROSECOND


def _make_entry(fact: Fact, registry_id: str, priority: tuple[int, int]) -> _Entry:
    value = fact.value
    subject_key = f"re:{fact.subject}" if fact.subject_is_regex else normalise_subject(fact.subject)
    entry = _Entry(
        fact=fact,
        registry_id=registry_id,
        priority=priority,
        key=(fact.category, subject_key, fact.predicate),
        category=fact.category,
        forms=() if fact.subject_is_regex else _subject_forms(fact.subject),
        is_regex=fact.subject_is_regex,
        kind=value.type,
        predicate=fact.predicate,
        expires_at=fact.expires_at,
        expires_us=None if fact.expires_at is None else _micros(fact.expires_at),
        expected="",
    )
    if isinstance(value, ExistsValue):
        entry.flag = value.exists
        entry.expected = "exists" if value.exists else "does not exist"
    elif isinstance(value, CapabilityValue):
        entry.flag = value.supported
        entry.expected = "supported" if value.supported else "not supported"
    elif isinstance(value, StateValue):
        entry.state = _canonical_state(value.state, False)
        entry.expected = value.state.strip()
    elif isinstance(value, NameValue):
        entry.names = frozenset(
            normalise_subject(n) for n in (value.correct_name, *value.aliases) if n.strip()
        )
        entry.expected = value.correct_name
    elif isinstance(value, StatusValue):
        entry.status = value.status
        entry.expected = value.status
    else:
        entry.number = _parse_number(value.value)
        entry.text = _norm_value(value.value)
        entry.expected = value.value
    return entry


def _by_priority(entries: Iterable[_Entry]) -> tuple[_Entry, ...]:
    return tuple(sorted(entries, key=lambda e: e.priority, reverse=True))


@dataclass(frozen=True, slots=True)
class _RegexGroup:
    matcher: re2.Set
    entries: tuple[_Entry, ...]  # Set index -> entry, highest priority first


def _regex_group(entries: Iterable[_Entry]) -> _RegexGroup | None:
    ordered = _by_priority(entries)
    if not ordered:
        return None
    matcher = re2.Set.FullMatchSet(_RE2_OPTIONS)
    for entry in ordered:
        matcher.Add(entry.fact.subject)
    matcher.Compile()
    return _RegexGroup(matcher, ordered)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """An immutable view of the index; replaced whole, never mutated once published."""

    winners: dict[_Key, _Entry]
    exact: dict[tuple[str, str], tuple[_Entry, ...]]
    by_subject: dict[str, tuple[_Entry, ...]]
    regex: dict[str, _RegexGroup]

    def collect(self, category: str, forms: Sequence[str]) -> list[_Entry]:
        """Matching entries: per form, exact subjects then regexes, by priority."""
        out: list[_Entry] = []
        group = self.regex.get(category)
        for form in forms:
            for entry in self.exact.get((category, form), ()):
                if entry not in out:
                    out.append(entry)
            if group is not None:
                hits = cast("list[int] | None", group.matcher.Match(form))
                if hits:
                    for i in sorted(hits):
                        entry = group.entries[i]
                        if entry not in out:
                            out.append(entry)
        return out


def _add_to(
    table: dict[Any, tuple[_Entry, ...]], key: Any, remove: _Entry | None, add: _Entry | None
) -> None:
    current = [e for e in table.get(key, ()) if e is not remove]
    if add is not None:
        current.append(add)
    if current:
        table[key] = _by_priority(current)
    else:
        table.pop(key, None)


def _build_snapshot(winners: dict[_Key, _Entry]) -> _Snapshot:
    exact: dict[tuple[str, str], list[_Entry]] = {}
    by_subject: dict[str, list[_Entry]] = {}
    regex: dict[str, list[_Entry]] = {}
    for entry in winners.values():
        if entry.is_regex:
            regex.setdefault(entry.category, []).append(entry)
            continue
        for form in entry.forms:
            exact.setdefault((entry.category, form), []).append(entry)
            by_subject.setdefault(form, []).append(entry)
    groups = {cat: g for cat, es in regex.items() if (g := _regex_group(es)) is not None}
    return _Snapshot(
        winners=winners,
        exact={k: _by_priority(v) for k, v in exact.items()},
        by_subject={k: _by_priority(v) for k, v in by_subject.items()},
        regex=groups,
    )


def _patch_snapshot(
    snap: _Snapshot, changes: Mapping[_Key, tuple[_Entry | None, _Entry | None]]
) -> _Snapshot:
    """A new snapshot with only the touched buckets and regex sets rebuilt."""
    winners = dict(snap.winners)
    exact = dict(snap.exact)
    by_subject = dict(snap.by_subject)
    regex_removed: set[int] = set()
    regex_added: dict[str, list[_Entry]] = {}
    for key, (before, after) in changes.items():
        if before is after:
            continue
        if after is None:
            winners.pop(key, None)
        else:
            winners[key] = after
        for entry, is_new in ((before, False), (after, True)):
            if entry is None:
                continue
            if entry.is_regex:
                regex_added.setdefault(entry.category, [])
                if is_new:
                    regex_added[entry.category].append(entry)
                else:
                    regex_removed.add(id(entry))
                continue
            for form in entry.forms:
                if is_new:
                    _add_to(exact, (entry.category, form), None, entry)
                    _add_to(by_subject, form, None, entry)
                else:
                    _add_to(exact, (entry.category, form), entry, None)
                    _add_to(by_subject, form, entry, None)
    regex = dict(snap.regex)
    for category, added in regex_added.items():
        old = regex.get(category)
        kept = [e for e in (old.entries if old else ()) if id(e) not in regex_removed]
        group = _regex_group([*kept, *added])
        if group is None:
            regex.pop(category, None)
        else:
            regex[category] = group
    return _Snapshot(winners=winners, exact=exact, by_subject=by_subject, regex=regex)


@dataclass(slots=True)
class _RegistryState:
    id: str
    name: str | None
    position: int
    entries: dict[str, _Entry] = field(default_factory=dict)  # fact id -> entry


class FactIndex:
    """Facts of several registries, indexed by (category, normalised subject).

    Registries are given in priority order: for the same (category, subject,
    predicate) key a later registry wins (and within a registry, a later fact).
    Lookups read an immutable snapshot; :meth:`update_fact` and :meth:`remove_fact`
    build a new one under a lock and swap it in, so concurrent readers never see a
    half-built index.

    Args:
        registries: loaded registries; disabled ones are skipped.

    Raises:
        ConfigError: two registries share an id, or a regex subject is invalid.
    """

    def __init__(self, registries: Iterable[FactRegistry] = ()) -> None:
        self._lock = threading.Lock()
        self._registries: dict[str, _RegistryState] = {}
        self._candidates: dict[_Key, list[_Entry]] = {}
        self._seq = 0
        self._generation = 0
        #: Facts that could not be indexed and were skipped (one bad fact never
        #: takes the registry down): "registry/fact: problem".
        self.warnings: list[str] = []
        positions: dict[str, int] = {}
        for position, registry in enumerate(registries):
            if not registry.enabled:
                continue
            if registry.id in positions:
                raise ConfigError(
                    f'fact registries: registry id "{registry.id}" is used twice '
                    f"(registries {positions[registry.id]} and {position}); give each an id"
                )
            positions[registry.id] = position
            state = _RegistryState(registry.id, registry.name, len(self._registries))
            self._registries[registry.id] = state
            for fact in registry.facts:
                self._check_regex(registry.id, fact)
                try:
                    self._store(state, fact)
                except Exception as e:  # a fact built without validation, say
                    problem = f"{registry.id}/{fact.id}: skipped, unusable: {e}"
                    logger.error("fact %s", problem)
                    self.warnings.append(problem)
        winners = {key: max(es, key=lambda e: e.priority) for key, es in self._candidates.items()}
        self._snap = _build_snapshot(winners)

    @classmethod
    def from_configs(
        cls,
        configs: Iterable[FactRegistryConfig | Mapping[str, Any]],
        *,
        base_dir: Path | None = None,
    ) -> FactIndex:
        """Load every registry config (see :func:`load_registry`) and index them."""
        return cls(load_registry(cfg, base_dir=base_dir) for cfg in configs)

    @staticmethod
    def _check_regex(registry_id: str, fact: Fact) -> None:
        if fact.subject_is_regex and (problem := _regex_problem(fact.subject)):
            raise ConfigError(
                f'registry "{registry_id}", fact "{fact.id}": invalid subject regex: {problem}'
            )

    def _store(self, state: _RegistryState, fact: Fact) -> tuple[_Entry | None, _Entry]:
        old = state.entries.get(fact.id)
        if old is None:
            self._seq += 1
            seq = self._seq
        else:
            seq = old.priority[1]  # an update keeps the fact's place in its registry
            self._candidates[old.key].remove(old)
        entry = _make_entry(fact, state.id, (state.position, seq))
        state.entries[fact.id] = entry
        self._candidates.setdefault(entry.key, []).append(entry)
        return old, entry

    def _commit(self, keys: Iterable[_Key]) -> None:
        snap = self._snap
        changes: dict[_Key, tuple[_Entry | None, _Entry | None]] = {}
        for key in keys:
            candidates = self._candidates.get(key)
            if not candidates:
                self._candidates.pop(key, None)
            after = max(candidates, key=lambda e: e.priority) if candidates else None
            changes[key] = (snap.winners.get(key), after)
        self._snap = _patch_snapshot(snap, changes)
        self._generation += 1

    def update_fact(self, registry_id: str, fact: Fact | Mapping[str, Any]) -> Fact:
        """Add or replace (by id) a fact at run time; visible to the next lookup.

        An unknown ``registry_id`` creates a new registry after all others (so it
        wins). Raw mappings are validated like file facts.

        Raises:
            ConfigError: the fact is invalid.
        """
        parsed = parse_fact(fact, registry_id=registry_id, where=f'registry "{registry_id}"')
        with self._lock:
            state = self._registries.get(registry_id)
            if state is None:
                state = _RegistryState(registry_id, None, len(self._registries))
                self._registries[registry_id] = state
            old, entry = self._store(state, parsed)
            self._commit({entry.key} | ({old.key} if old else set()))
        return parsed

    def remove_fact(self, registry_id: str, fact_id: str) -> bool:
        """Remove a fact; ``False`` when the registry or fact does not exist."""
        with self._lock:
            state = self._registries.get(registry_id)
            old = state.entries.pop(fact_id, None) if state else None
            if old is None:
                return False
            self._candidates[old.key].remove(old)
            self._commit({old.key})
        return True

    def lookup(self, category: str, subject: str) -> list[Fact]:
        """Facts of ``category`` whose subject matches (exact first, then regex)."""
        return [e.fact for e in self._snap.collect(category, _claim_forms(subject, None))]

    def lookup_by_subject(self, subject: str) -> list[Fact]:
        """Facts of any category whose subject matches."""
        snap = self._snap
        out: list[_Entry] = []
        for form in _claim_forms(subject, None):
            for entry in snap.by_subject.get(form, ()):
                if entry not in out:
                    out.append(entry)
            matched: list[_Entry] = []
            for group in snap.regex.values():
                hits = cast("list[int] | None", group.matcher.Match(form))
                matched.extend(group.entries[i] for i in hits or ())
            out.extend(e for e in _by_priority(matched) if e not in out)
        return [e.fact for e in out]

    def all_facts(self) -> list[Fact]:
        """Every effective fact (one per key, the later one), in priority order."""
        return [e.fact for e in sorted(self._snap.winners.values(), key=lambda e: e.priority)]

    @property
    def size(self) -> int:
        """Number of effective facts."""
        return len(self._snap.winners)

    @property
    def generation(self) -> int:
        """Bumped on every runtime update; lets callers key caches on the fact set."""
        return self._generation

    def registry_ids(self) -> list[str]:
        """Indexed registry ids, in priority order."""
        with self._lock:  # update_fact may add a registry while we copy
            return list(self._registries)

    def categories_with_facts(self) -> frozenset[str]:
        """Categories that have at least one effective fact."""
        return frozenset(entry.category for entry in self._snap.winners.values())


# ------------------------------------------------------------------------ checking

FactCheckStatus = Literal["no_fact_found", "confirmed", "contradicted", "expired_fact"]


@dataclass(frozen=True, slots=True)
class FactCheckResult:
    """The outcome of checking one claim against the fact index (RFC-003 §5.4).

    Attributes:
        status: ``no_fact_found``, ``confirmed``, ``contradicted`` or ``expired_fact``.
        fact_id: the deciding fact.
        expected: what the fact says, as a short string.
        claimed: what the claim says, in the same terms.
        registry_id: the registry holding the fact.
        detail: one readable sentence for the audit trail.
    """

    status: FactCheckStatus
    fact_id: str | None = None
    expected: str | None = None
    claimed: str | None = None
    registry_id: str | None = None
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "fact_id": self.fact_id,
            "expected": self.expected,
            "claimed": self.claimed,
            "registry_id": self.registry_id,
            "detail": self.detail,
        }


_GENERIC_PREDICATES: Final = frozenset({"", "metric", "count", "value", "amount", "number"})
_TYPED_PREDICATES: Final = frozenset(
    {"state", "exists", "name", "identity", "status", "capability", "supported"}
)

# A verdict is (agrees, expected, claimed); a string says why the fact does not speak.
_Verdict = tuple[bool, str, str] | str


def _claimed_value(claim: DetectedClaim) -> str | None:
    if claim.value is not None and claim.value.strip():
        return claim.value.strip()
    for hard in claim.hard_facts:
        if hard.number is not None:
            return hard.text
    return None


def _is_value_claim(claim: DetectedClaim) -> bool:
    if claim.category == "quantity":
        return True
    predicate = (claim.predicate or "").strip().lower()
    return claim.value is not None and predicate not in _TYPED_PREDICATES


def _judge_value(entry: _Entry, claimed: str) -> _Verdict:
    fact_id = entry.fact.id
    mine = _parse_number(claimed)
    theirs = entry.number
    if mine is not None and theirs is not None:
        if mine[0] != theirs[0]:
            return (False, entry.expected, claimed)
        if mine[1] and theirs[1] and mine[1] != theirs[1]:
            return f'units differ: fact {fact_id} has "{theirs[1]}", the claim "{mine[1]}"'
        return (True, entry.expected, claimed)
    if (mine is None) != (theirs is None):
        return f"fact {fact_id} and the claim cannot be compared as numbers"
    return (_norm_value(claimed) == entry.text, entry.expected, claimed)


def _judge(entry: _Entry, claim: DetectedClaim) -> _Verdict:
    """Compare one typed fact with the claim."""
    category = claim.category
    kind = entry.kind
    fact_id = entry.fact.id
    if kind == "exists" and category == "existence":
        claimed_exists = not _asserts_negation(claim, _NEGATIVE_EXISTENCE)
        said = "exists" if claimed_exists else "does not exist"
        return (claimed_exists == entry.flag, entry.expected, said)
    if kind == "capability" and category == "capability":
        supported = not _asserts_negation(claim, _NEGATIVE_CAPABILITY)
        said = "supported" if supported else "not supported"
        return (supported == entry.flag, entry.expected, said)
    if kind == "state" and category == "system_state" and entry.state is not None:
        word = claim.assertion.strip() or (claim.value or "").strip()
        base, polarity = _canonical_state(word, claim.negative)
        if base != entry.state[0]:
            return f'fact {fact_id} about "{entry.expected}" does not speak to "{word}"'
        said = word.replace("_", " ")
        return (polarity == entry.state[1], entry.expected, said)
    if kind == "status" and category == "operational_status":
        status = _canonical_status(claim.assertion, claim.negative)
        if status is None:
            return f'fact {fact_id} is a status; "{claim.assertion}" is not one'
        return (status == entry.status, entry.expected, status)
    if kind == "name" and category == "entity_name":
        name = claim.subject.strip().strip(_QUOTES)
        return (normalise_subject(name) in entry.names, entry.expected, name)
    if kind == "name" and category == "self_referential":
        predicate = (claim.predicate or "name").strip().lower()
        if predicate not in ("name", "identity"):
            return f'fact {fact_id} is a name; the claim is about "{predicate}"'
        if not claim.value or not claim.value.strip():
            return f"fact {fact_id} is a name; the claim carries none"
        name = claim.value.strip().strip(_QUOTES)
        return (normalise_subject(name) in entry.names, entry.expected, name)
    return f'fact {fact_id} holds a "{kind}" value, which does not fit a {category} claim'


def _select_triple(claim: DetectedClaim, triples: Sequence[_Entry]) -> _Entry | str:
    predicate = (claim.predicate or "").strip().lower()
    for entry in triples:
        if entry.predicate == predicate:
            return entry
    if predicate in _GENERIC_PREDICATES:
        numeric = [e for e in triples if e.number is not None]
        if len(numeric) == 1:
            return numeric[0]
    shown = predicate or "value"
    return f'no fact gives the {shown} of "{claim.subject}"'


# Results are immutable and the same claims recur across messages; building a frozen
# dataclass costs more than the lookup itself, so both result builders are memoised.
@functools.lru_cache(maxsize=4096)
def _result(status: FactCheckStatus, entry: _Entry, expected: str, claimed: str) -> FactCheckResult:
    fact_id = entry.fact.id
    if status == "confirmed":
        detail = f'confirmed by {fact_id}: "{expected}"'
    elif status == "contradicted":
        detail = f'contradicts {fact_id}: expected "{expected}", claimed "{claimed}"'
    else:
        when = entry.expires_at
        at = when.isoformat() if when and when.year > 1 else "unknown (no updatedAt)"
        detail = f"fact {fact_id} would decide this but expired at {at}"
    return FactCheckResult(status, fact_id, expected, claimed, entry.registry_id, detail)


@functools.lru_cache(maxsize=4096)
def _no_fact(subject: str, category: str, reason: str | None = None) -> FactCheckResult:
    if reason is None:
        return FactCheckResult("no_fact_found", detail=f'no fact about "{subject}" ({category})')
    return FactCheckResult("no_fact_found", detail=reason)


def check_claim(index: FactIndex, claim: DetectedClaim, *, now: datetime) -> FactCheckResult:
    """Check one claim against the facts (RFC-003 §5.4).

    The first matching live fact that speaks to the claim decides (exact subjects
    before regex subjects, later registries first). Facts that match but answer a
    different question (``installed`` vs ``running``) never produce a contradiction.
    When only expired facts would decide, the result is ``expired_fact``.

    Args:
        index: the fact index.
        claim: a detected claim.
        now: reference time for TTLs (naive means UTC).
    """
    snap = index._snap  # read once: a concurrent update swaps in a new snapshot
    category = claim.category
    forms = _claim_forms(claim.subject, claim.object if category == "capability" else None)
    entries = snap.collect(category, forms)
    value_claim = _is_value_claim(claim)
    if value_claim and category != "quantity":
        entries += snap.collect("quantity", forms)
    if not entries:
        return _no_fact(claim.subject, category)
    now_us: int | None = None  # only computed when a matching fact has a TTL

    reason: str | None = None
    claimed_value: str | None = None
    ordered = entries
    if value_claim:
        triples = [e for e in entries if e.kind == "value"]
        ordered = [e for e in entries if e.kind != "value"]
        if triples:
            claimed_value = _claimed_value(claim)
            if claimed_value is None:
                reason = f'the claim about "{claim.subject}" carries no value'
            else:
                if any(e.expires_us is not None for e in triples):
                    now_us = _micros(now)
                    live = [e for e in triples if e.expires_us is None or e.expires_us >= now_us]
                    triples = live + [e for e in triples if e not in live]
                chosen = _select_triple(claim, triples)
                if isinstance(chosen, str):
                    reason = chosen
                else:
                    ordered.insert(0, chosen)

    expired: list[tuple[_Entry, tuple[bool, str, str]]] = []
    for entry in ordered:
        if entry.kind == "value":
            if claimed_value is None:
                continue  # a triple only speaks to a value claim
            verdict = _judge_value(entry, claimed_value)
        else:
            verdict = _judge(entry, claim)
        if isinstance(verdict, str):
            reason = reason or verdict
            continue
        if entry.expires_us is not None:
            if now_us is None:
                now_us = _micros(now)
            if entry.expires_us < now_us:
                expired.append((entry, verdict))
                continue
        return _result("confirmed" if verdict[0] else "contradicted", entry, *verdict[1:])
    if expired:
        entry, verdict = expired[0]
        return _result("expired_fact", entry, *verdict[1:])
    if reason is None:
        reason = f'no fact about "{claim.subject}" speaks to this {category} claim'
    return _no_fact(claim.subject, category, reason)
