"""``TraceFinding`` files: what a trace analyzer reports (RFC-006 §8.2).

A findings file is JSON: a list of findings, or an object with a ``findings`` list
(the Cortex report shape, whose other keys are ignored). Each finding is validated
against the standard interface; unknown keys are ignored so that any analyzer's
richer report still reads. Only findings with a ``factCorrection`` become facts.

Reading never raises for bad content: a file that cannot be used at all (unreadable,
invalid or truncated JSON, wrong top-level shape) yields one error and no findings,
and a finding that does not match the interface is skipped with an error naming the
file and the field (``daily.json: findings[2].signal.severity: ...``), while the
file's other findings still count. A background learning loop should lose as little
as possible to one analyzer bug, and say exactly what it dropped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    ValidationError,
)

from receiptgate._validation import format_validation_error

__all__ = [
    "Classification",
    "FactCorrection",
    "FindingsFile",
    "Signal",
    "TraceFinding",
    "read_findings_file",
]

_MODEL_CONFIG = ConfigDict(extra="ignore", populate_by_name=True, frozen=True)


def _text(value: Any) -> Any:
    # Analyzers emit 255908 or true where the RFC says string; a fact keeps text.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        return value.strip()
    return value  # pydantic reports the wrong type


def _not_empty(value: str) -> str:
    if not value:
        raise ValueError("must not be empty")
    return value


_Text = Annotated[str, BeforeValidator(_text)]
_NonEmpty = Annotated[str, BeforeValidator(_text), AfterValidator(_not_empty)]


class Signal(BaseModel):
    """The failure signal a finding reports (``SIG-HALLUCINATION``, ``SIG-CORRECTION``)."""

    model_config = _MODEL_CONFIG
    signal: _NonEmpty
    severity: Literal["critical", "high", "medium", "low"]
    summary: str


class Classification(BaseModel):
    """An analyzer's (often an LLM's) root-cause classification of a finding."""

    model_config = _MODEL_CONFIG
    root_cause: str = Field(alias="rootCause")
    action_type: str = Field(alias="actionType")
    action_text: str = Field(alias="actionText")
    confidence: float = Field(ge=0, le=1)


class FactCorrection(BaseModel):
    """What the agent claimed and what is actually true: the seed of a fact.

    Attributes:
        subject: what the claim was about ("nats-events").
        claimed: the agent's wrong value.
        actual: the true value; becomes the fact's ``value``.
        predicate: what about the subject ("count", "state"); ``None`` means "value".
    """

    model_config = _MODEL_CONFIG
    subject: _NonEmpty
    claimed: _Text
    actual: _NonEmpty
    predicate: _NonEmpty | None = None


class TraceFinding(BaseModel):
    """One finding in the standard interface of RFC-006 §8.2.

    Attributes:
        id: the analyzer's finding id.
        agent: the agent whose trace produced it.
        signal: the detected signal.
        classification: optional root-cause classification (``null`` before triage).
        fact_correction: optional claimed-vs-actual values; only these become facts.
        detected_at: when the analyzer found it (ISO 8601, or epoch seconds or
            milliseconds as Cortex writes them); ``occurredAt`` is accepted too. It
            decides which finding is newest when several correct the same fact.
    """

    model_config = _MODEL_CONFIG
    id: _NonEmpty
    agent: _NonEmpty
    signal: Signal
    classification: Classification | None = None
    fact_correction: FactCorrection | None = Field(default=None, alias="factCorrection")
    detected_at: datetime | None = Field(
        default=None, validation_alias=AliasChoices("detectedAt", "occurredAt")
    )


@dataclass(frozen=True, slots=True)
class FindingsFile:
    """What one findings file yielded.

    Attributes:
        path: the file.
        findings: the valid findings with their location in the file (``findings[3]``
            or ``[3]``), in file order.
        errors: one line per problem, each starting with the file name.
        generated_at: the report's own ``generatedAt``, if it has one.
        usable: ``False`` when the file as a whole could not be read.
        corrections: how many of the findings carry a ``factCorrection``.
    """

    path: Path
    findings: tuple[tuple[str, TraceFinding], ...] = ()
    errors: tuple[str, ...] = ()
    generated_at: datetime | None = None
    usable: bool = True
    corrections: int = 0


def _got(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool | int | float | str):
        return json.dumps(value)
    return "a list" if isinstance(value, list) else type(value).__name__


def _unusable(path: Path, shown: str, problem: str) -> FindingsFile:
    return FindingsFile(path=path, errors=(f"{shown}: {problem}",), usable=False)


def _report_time(document: Any) -> datetime | None:
    if not isinstance(document, dict):
        return None
    raw = document.get("generatedAt")
    if not isinstance(raw, str):
        return None
    try:
        moment = datetime.fromisoformat(raw.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _items(document: Any) -> tuple[Sequence[Any], str] | str:
    """(findings, location prefix), or why the document has the wrong shape."""
    if isinstance(document, list):
        return document, ""
    if isinstance(document, dict):
        if "findings" not in document:
            return 'expected a list of findings or an object with a "findings" list'
        findings = document["findings"]
        if not isinstance(findings, list):
            return f"findings: must be a list (got {_got(findings)})"
        return findings, "findings"
    return f'expected a list of findings or an object with a "findings" list (got {_got(document)})'


def read_findings_file(path: Path, *, shown: str | None = None) -> FindingsFile:
    """Read and validate one findings file; problems become errors, never exceptions.

    Args:
        path: the JSON file.
        shown: how the file is named in errors (default: the path as given).

    Returns:
        The valid findings and the errors. A file that vanished since it was listed
        is returned empty and without errors: an analyzer replacing its report is
        not a problem.
    """
    shown = shown or str(path)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return FindingsFile(path=path, usable=False)
    except IsADirectoryError:
        return _unusable(path, shown, "is a directory, not a findings file")
    except PermissionError:
        return _unusable(path, shown, "permission denied")
    except OSError as exc:
        return _unusable(path, shown, f"cannot read: {exc.strerror or exc}")
    if not raw.strip():
        return _unusable(path, shown, "empty file (still being written?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _unusable(path, shown, f"not valid UTF-8 (byte {exc.start})")
    try:
        document = json.loads(text)
    except json.JSONDecodeError as exc:
        return _unusable(
            path, shown, f"invalid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"
        )
    shape = _items(document)
    if isinstance(shape, str):
        return _unusable(path, shown, shape)
    items, prefix = shape
    findings: list[tuple[str, TraceFinding]] = []
    errors: list[str] = []
    for i, item in enumerate(items):
        loc: tuple[int | str, ...] = (prefix, i) if prefix else (i,)
        where = f"{prefix}[{i}]"
        if not isinstance(item, dict):
            errors.append(f"{shown}: {where}: must be an object (got {_got(item)})")
            continue
        try:
            finding = TraceFinding.model_validate(item)
        except ValidationError as exc:
            errors.append(format_validation_error(shown, exc, loc_prefix=loc))
            continue
        findings.append((where, finding))
    return FindingsFile(
        path=path,
        findings=tuple(findings),
        errors=tuple(errors),
        generated_at=_report_time(document),
        corrections=sum(1 for _, f in findings if f.fact_correction is not None),
    )
