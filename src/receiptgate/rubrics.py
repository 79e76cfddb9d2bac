"""Rubrics: how a validation's findings become the PRD grade.

The PRD grades every answer ``correct``, ``partially_correct`` or ``incorrect``
and asks for "YAML rubrics stored per domain" with "configurable rubric
weights". A rubric is deliberately small so that a grade can be explained in
one line:

* every sentence with a tag or a non-pass action is a *finding*; it earns
  ``weights.tags[tag] + weights.actions[action]`` points, multiplied by the
  largest ``weights.categories`` multiplier among its claims' categories;
* the score is the sum of the points; ``score >= thresholds.incorrect`` is
  ``incorrect``, ``score >= thresholds.partiallyCorrect`` is
  ``partially_correct``, anything lower is ``correct``;
* ``minGrade`` sets the least severe grade a verdict may have (``block:
  incorrect``: a blocked output is never better than incorrect).

The packaged default rubric (``rubrics_default.yaml``) reproduces the fixed
mapping pass -> correct, flag -> partially_correct, block -> incorrect, so a
gate without a rubric grades exactly as before.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator
from pydantic.alias_generators import to_camel

from receiptgate._exceptions import ConfigError
from receiptgate._validation import format_validation_error
from receiptgate.claims.models import ClaimCategory
from receiptgate.config import read_structured_file

if TYPE_CHECKING:
    from receiptgate.results import Grade, ValidationResult

__all__ = [
    "DEFAULT_RUBRIC_FILE",
    "Rubric",
    "RubricFinding",
    "RubricScore",
    "default_rubric",
    "load_rubric",
    "load_rubric_dir",
    "parse_rubric",
]

#: The packaged default rubric (the verdict -> grade mapping of SPEC §6).
DEFAULT_RUBRIC_FILE = Path(__file__).with_name("rubrics_default.yaml")

#: File suffixes ``load_rubric_dir`` reads.
RUBRIC_SUFFIXES = (".yaml", ".yml", ".json")

GradeName = Literal["correct", "partially_correct", "incorrect"]
_GRADE_RANK: dict[str, int] = {"correct": 0, "partially_correct": 1, "incorrect": 2}
TagName = Literal["T1", "T2", "T3", "T4", "T5", "T6", "T7"]
ActionName = Literal["pass", "warn", "block"]
VerdictName = Literal["pass", "flag", "block"]

#: Scores are rounded before they are compared, so 0.1 + 0.2 reaches a 0.3 threshold.
_DIGITS = 6


class _Model(BaseModel):
    model_config = ConfigDict(
        extra="forbid", populate_by_name=True, alias_generator=to_camel, frozen=True
    )


#: A weight: a finite number >= 0 (errors name the key, e.g. ``weights.tags.T5``).
Weight = Annotated[float, Field(ge=0, allow_inf_nan=False)]


def _default_actions() -> dict[ActionName, float]:
    return {"warn": 1.0, "block": 1.0}


class RubricWeights(_Model):
    """Points per finding and multipliers per claim category.

    A tag or action that is not listed earns 0 points; an unlisted category
    multiplies by 1. Omitting ``actions`` keeps the default: a warned or
    blocked sentence earns 1 point.
    """

    tags: dict[TagName, Weight] = Field(default_factory=dict)
    actions: dict[ActionName, Weight] = Field(default_factory=_default_actions)
    categories: dict[ClaimCategory, Weight] = Field(default_factory=dict)


class RubricThresholds(_Model):
    """Score limits: at or above ``incorrect`` is incorrect, at or above
    ``partiallyCorrect`` is partially correct; ``incorrect: null`` never grades
    incorrect by score (only ``minGrade`` can)."""

    partially_correct: float = Field(default=1.0, gt=0, allow_inf_nan=False)
    incorrect: float | None = Field(default=None, gt=0, allow_inf_nan=False)

    @field_validator("incorrect")
    @classmethod
    def _ordered(cls, v: float | None, info: ValidationInfo) -> float | None:
        if v is None:
            return v
        partial = info.data.get("partially_correct")
        if partial is not None and v < partial:
            raise ValueError(f"must be >= thresholds.partiallyCorrect ({partial:g}), got {v:g}")
        return v


def _default_min_grade() -> dict[VerdictName, GradeName]:
    return {"block": "incorrect"}


class Rubric(_Model):
    """A grading rubric for one domain (PRD "Rubric Library").

    Attributes:
        id: how requests and ``--rubric`` name the rubric; unique in a directory.
        domain: the domain it is written for ("finance", "support", ...).
        description: one line for people reading reports.
        weights: points per finding (by tag and action) and category multipliers.
        thresholds: the scores at which the grade drops.
        min_grade: the least severe grade per verdict (default: a block is incorrect).
    """

    id: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", max_length=64)
    domain: str | None = None
    description: str = ""
    weights: RubricWeights = Field(default_factory=RubricWeights)
    thresholds: RubricThresholds = Field(default_factory=RubricThresholds)
    min_grade: dict[VerdictName, GradeName] = Field(default_factory=_default_min_grade)

    def score(self, result: ValidationResult) -> RubricScore:
        """Scores ``result``; does not change it (see :meth:`apply`).

        A result whose fail mode applied has no trustworthy sentence decisions,
        so only ``minGrade`` of its verdict counts.
        """
        findings: list[RubricFinding] = []
        if result.fail_mode_applied is None:
            tags, actions, cats = self.weights.tags, self.weights.actions, self.weights.categories
            for s in result.sentences:
                base = (tags.get(s.tag, 0.0) if s.tag else 0.0) + actions.get(s.action, 0.0)
                if base <= 0:
                    continue
                categories = tuple(
                    sorted({result.claims[i].category for i in s.claims if i < len(result.claims)})
                )
                multiplier = max((cats.get(c, 1.0) for c in categories), default=1.0)
                points = round(base * multiplier, _DIGITS)
                if points > 0:
                    findings.append(RubricFinding(s.index, s.tag, s.action, categories, points))
        total = round(sum(f.points for f in findings), _DIGITS)
        limits = self.thresholds
        grade: GradeName = "correct"
        why = f"score {total:g} < partiallyCorrect {limits.partially_correct:g}"
        if limits.incorrect is not None and total >= limits.incorrect:
            grade, why = "incorrect", f"score {total:g} >= incorrect {limits.incorrect:g}"
        elif total >= limits.partially_correct:
            grade = "partially_correct"
            why = f"score {total:g} >= partiallyCorrect {limits.partially_correct:g}"
        floor = self.min_grade.get(result.verdict)
        if floor is not None and _GRADE_RANK[floor] > _GRADE_RANK[grade]:
            grade, why = floor, f"verdict {result.verdict}: minGrade {floor} ({why})"
        if result.fail_mode_applied is not None:
            why += f"; fail mode {result.fail_mode_applied} applied, sentences not scored"
        return RubricScore(self.id, total, grade, tuple(findings), why)

    def apply(self, result: ValidationResult) -> ValidationResult:
        """Scores ``result`` and stores the score on it, which sets ``result.grade``."""
        result.rubric = self.score(result)
        return result


@dataclass(frozen=True, slots=True)
class RubricFinding:
    """One sentence that contributed points to a rubric score."""

    sentence_index: int
    tag: str | None
    action: str
    categories: tuple[str, ...]
    points: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "sentence_index": self.sentence_index,
            "tag": self.tag,
            "action": self.action,
            "categories": list(self.categories),
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class RubricScore:
    """A rubric's judgement of one result: the score, the grade and why."""

    rubric_id: str
    score: float
    grade: Grade
    findings: tuple[RubricFinding, ...] = ()
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.rubric_id,
            "score": self.score,
            "grade": self.grade,
            "reason": self.reason,
            "findings": [f.to_dict() for f in self.findings],
        }


def parse_rubric(data: Any, *, source: str = "<rubric>") -> Rubric:
    """Validates a rubric mapping; errors name ``source`` and the field path.

    Raises:
        ConfigError: e.g. ``finance.yaml: thresholds.incorrect: must be >= ...``.
    """
    if isinstance(data, Rubric):
        return data
    if not isinstance(data, Mapping):
        got = "an empty file" if data is None else type(data).__name__
        raise ConfigError(f"{source}: expected a mapping of rubric keys (got {got})")
    try:
        return Rubric.model_validate(dict(data))
    except ValidationError as e:
        raise ConfigError(format_validation_error(source, e)) from e


def load_rubric(path: str | Path) -> Rubric:
    """Loads one rubric file (YAML for ``.yaml``/``.yml``, JSON otherwise).

    Raises:
        ConfigError: missing, unreadable or invalid file; the message starts with the path.
    """
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"{p}: is a directory, expected a rubric file")
    return parse_rubric(read_structured_file(p), source=str(p))


def load_rubric_dir(directory: str | Path) -> dict[str, Rubric]:
    """Loads every ``*.yaml``, ``*.yml`` and ``*.json`` file of ``directory`` by id.

    Files are read in name order; subdirectories are ignored. The service
    looks rubrics up by id, so an id used twice is an error naming both files.

    Raises:
        ConfigError: the directory is missing, a file is invalid, or an id repeats.
    """
    d = Path(directory)
    if not d.exists():
        raise ConfigError(f"{d}: rubric directory not found")
    if not d.is_dir():
        raise ConfigError(f"{d}: not a directory")
    out: dict[str, Rubric] = {}
    where: dict[str, Path] = {}
    for path in sorted(d.iterdir()):
        if not path.is_file() or path.suffix.lower() not in RUBRIC_SUFFIXES:
            continue
        rubric = load_rubric(path)
        if rubric.id in out:
            raise ConfigError(
                f"{path}: id: rubric id {rubric.id!r} is already used by {where[rubric.id]}"
            )
        out[rubric.id] = rubric
        where[rubric.id] = path
    return out


@functools.cache
def default_rubric() -> Rubric:
    """The packaged default rubric (loaded once)."""
    data = yaml.safe_load(DEFAULT_RUBRIC_FILE.read_text(encoding="utf-8"))
    return parse_rubric(data, source=str(DEFAULT_RUBRIC_FILE))
