"""The generated fact registry: facts from findings, merged, written atomically.

The file is the RFC-006 §8.3 format that
:func:`receiptgate.evidence.facts.load_registry_file` reads::

    {"id": "trace-learned", "generatedAt": "2026-02-20T08:00:00Z",
     "facts": [{"subject": "nats-events", "predicate": "count", "value": "255908",
                "source": "trace-analyzer", "updatedAt": "...", "description": "..."}]}

Merge rules (see docs/bridge.md):

* a fact's key is (normalised subject, lower-cased predicate); the predicate of a
  correction without one is ``value``;
* the newest wins: a new fact replaces the one in the file when its ``updatedAt``
  is the same or later; an older one is ignored;
* facts in the file that no finding touches are kept, whatever their shape;
* a replaced fact keeps the operator's ``id`` and ``ttlSeconds``;
* output order is deterministic: facts that are not triples first, in file order,
  then triples sorted by key.

Writes go to a temporary file in the same folder, which is validated with the very
loader the gate uses and then renamed over the target: a reader sees the old file or
the new one, never half of one, and a file the gate cannot load is never installed.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from receiptgate._exceptions import ConfigError
from receiptgate.bridge.findings import TraceFinding
from receiptgate.evidence.fact_words import normalise_subject
from receiptgate.evidence.facts import load_registry_file, parse_fact

__all__ = [
    "DEFAULT_PREDICATE",
    "DEFAULT_REGISTRY_ID",
    "DEFAULT_SOURCE",
    "FactKey",
    "FactsFile",
    "GeneratedFact",
    "MergeResult",
    "check_loadable",
    "fact_from_finding",
    "fact_key",
    "format_time",
    "merge_facts",
    "read_facts_file",
    "render_facts_file",
    "write_atomic",
]

#: Registry id of a new generated file (the RFC-006 §8.3 example's).
DEFAULT_REGISTRY_ID: Final = "trace-learned"
#: ``source`` of generated facts.
DEFAULT_SOURCE: Final = "trace-analyzer"
#: Predicate of a correction that names none (as in the reference bridge).
DEFAULT_PREDICATE: Final = "value"

# Header keys of an existing file that a rewrite keeps as they are.
_KEPT_HEADER: Final = ("id", "name", "description", "enabled")
# Fact keys an operator may have added to a generated fact; a replacement keeps them.
_KEPT_FACT: Final = ("id", "ttlSeconds")

FactKey = tuple[str, str]
"""(normalised subject, lower-cased predicate): two facts with one key are one fact."""


def fact_key(subject: str, predicate: str) -> FactKey:
    """The dedup key of a triple: case, spacing, quotes and trailing dots do not count."""
    return normalise_subject(subject), " ".join(predicate.split()).lower()


def format_time(moment: datetime) -> str:
    """ISO 8601 in UTC with a ``Z``, exact to the microsecond so it reads back equal."""
    moment = moment.astimezone(UTC) if moment.tzinfo else moment.replace(tzinfo=UTC)
    spec = "microseconds" if moment.microsecond else "seconds"
    return moment.isoformat(timespec=spec).replace("+00:00", "Z")


@dataclass(frozen=True, slots=True)
class GeneratedFact:
    """A fact made from one finding's ``factCorrection``.

    Attributes:
        subject: the correction's subject, as written.
        predicate: its predicate, or ``value``.
        value: the actual value.
        source: who asserted it (``trace-analyzer``).
        updated_at: when the finding was made; the newest fact wins.
        description: which finding, which signal, what was claimed.
        origin: where the finding is (``daily.json: findings[3]``), for tie-breaks.
    """

    subject: str
    predicate: str
    value: str
    source: str
    updated_at: datetime
    description: str
    origin: str

    @property
    def key(self) -> FactKey:
        """See :func:`fact_key`."""
        return fact_key(self.subject, self.predicate)

    def to_json(self) -> dict[str, Any]:
        """The triple as written in the registry file."""
        return {
            "subject": self.subject,
            "predicate": self.predicate,
            "value": self.value,
            "source": self.source,
            "updatedAt": format_time(self.updated_at),
            "description": self.description,
        }


def fact_from_finding(
    finding: TraceFinding,
    *,
    shown: str,
    where: str,
    updated_at: datetime,
    source: str = DEFAULT_SOURCE,
    registry_id: str = DEFAULT_REGISTRY_ID,
) -> GeneratedFact | None:
    """Turn a finding's ``factCorrection`` into a fact; ``None`` when it has none.

    The fact is validated as the gate will load it, so that one bad correction
    (``predicate: exists`` with ``actual: "maybe"``) is reported against its finding
    instead of making the whole generated file unloadable.

    Args:
        finding: a valid finding.
        shown: the findings file as named in errors.
        where: the finding's location in the file (``findings[3]``).
        updated_at: the finding's time.
        source: the fact's ``source``.
        registry_id: the registry the fact goes into (for the loader's checks).

    Raises:
        ConfigError: ``daily.json: findings[3].factCorrection.actual: ...``.
    """
    correction = finding.fact_correction
    if correction is None:
        return None
    signal = finding.signal
    fact = GeneratedFact(
        subject=correction.subject,
        predicate=correction.predicate or DEFAULT_PREDICATE,
        value=correction.actual,
        source=source,
        updated_at=updated_at if updated_at.tzinfo else updated_at.replace(tzinfo=UTC),
        description=(
            f"trace finding {finding.id} ({signal.signal}, {signal.severity}, agent "
            f"{finding.agent}): claimed {json.dumps(correction.claimed, ensure_ascii=False)}"
        ),
        origin=f"{shown}: {where}",
    )
    loc = f"{where}.factCorrection"
    try:
        parse_fact(fact.to_json(), registry_id=registry_id, where=shown, loc=(loc,))
    except ConfigError as exc:
        # The loader names fact fields; the finding calls the value "actual".
        raise ConfigError(str(exc).replace(f"{loc}.value:", f"{loc}.actual:")) from None
    return fact


@dataclass(frozen=True, slots=True)
class FactsFile:
    """The generated file as it is on disk.

    Attributes:
        path: the file.
        exists: ``False`` when there is no file yet.
        header: the top-level keys a rewrite keeps (``id``, ``name``, ...).
        facts: the raw facts, in file order.
        updated: each fact's ``updatedAt`` as the gate sees it (``generatedAt`` when
            the fact has none), ``None`` when unknown.
    """

    path: Path
    exists: bool = False
    header: Mapping[str, Any] | None = None
    facts: tuple[Mapping[str, Any], ...] = ()
    updated: tuple[datetime | None, ...] = ()


def read_facts_file(path: Path) -> FactsFile:
    """Read the generated file, validated exactly as the gate loads it.

    An empty file reads as no file: it holds nothing to lose.

    Raises:
        ConfigError: the file exists but the gate could not load it. The bridge
            then writes nothing: overwriting would lose the facts in it.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return FactsFile(path=path)
    except (OSError, UnicodeDecodeError):
        text = None  # the loader names the problem below
    if text is not None and not text.strip():
        # A file created empty (to set its owner, say) holds no facts to lose.
        return FactsFile(path=path)
    registry = load_registry_file(path)
    document = json.loads(text) if text is not None else None
    if not isinstance(document, dict) or len(document.get("facts", ())) != len(registry.facts):
        raise ConfigError(f"{path}: changed while it was being read; try again")
    return FactsFile(
        path=path,
        exists=True,
        header={k: document[k] for k in _KEPT_HEADER if k in document},
        facts=tuple(document["facts"]),
        updated=tuple(fact.updated_at for fact in registry.facts),
    )


def _triple_key(raw: Mapping[str, Any]) -> FactKey | None:
    subject, predicate = raw.get("subject"), raw.get("predicate")
    if isinstance(subject, str) and isinstance(predicate, str):
        return fact_key(subject, predicate)
    return None


@dataclass(frozen=True, slots=True)
class MergeResult:
    """The merged facts and what changed.

    Attributes:
        facts: the facts to write, in output order.
        added: facts with a new key.
        updated: facts replaced by a newer finding with a different content.
        changed: the facts differ from the file's (order included).
    """

    facts: tuple[dict[str, Any], ...]
    added: int
    updated: int
    changed: bool


def merge_facts(existing: FactsFile, new: Iterable[GeneratedFact]) -> MergeResult:
    """Merge new facts (one per key) into the file's facts; see the module rules."""
    facts = [dict(raw) for raw in existing.facts]
    keyed: dict[FactKey, int] = {}
    for i, raw in enumerate(facts):
        key = _triple_key(raw)
        if key is not None:
            keyed.setdefault(key, i)  # a hand-made duplicate stays as it is
    added = updated = 0
    for fact in new:
        found = keyed.get(fact.key)
        if found is None:
            keyed[fact.key] = len(facts)
            facts.append(fact.to_json())
            added += 1
            continue
        i = found
        old_time = existing.updated[i] if i < len(existing.updated) else None
        if old_time is not None and fact.updated_at < old_time:
            continue
        replacement = fact.to_json()
        replacement.update({k: facts[i][k] for k in _KEPT_FACT if k in facts[i]})
        if replacement != facts[i]:
            facts[i] = replacement
            updated += 1
    triples = set(keyed.values())
    ordered = [raw for i, raw in enumerate(facts) if i not in triples]
    ordered += [facts[i] for _, i in sorted(keyed.items())]
    changed = ordered != [dict(raw) for raw in existing.facts]
    return MergeResult(facts=tuple(ordered), added=added, updated=updated, changed=changed)


def render_facts_file(
    header: Mapping[str, Any], generated_at: datetime, facts: Sequence[Mapping[str, Any]]
) -> str:
    """The file's text: header keys, then ``generatedAt`` (to the second), then ``facts``."""
    document: dict[str, Any] = {"id": header.get("id", DEFAULT_REGISTRY_ID)}
    document.update({k: header[k] for k in _KEPT_HEADER if k in header and k != "id"})
    document["generatedAt"] = format_time(generated_at.replace(microsecond=0))
    document["facts"] = list(facts)
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _fsync_dir(folder: Path) -> None:
    # Makes the rename itself durable; not every platform can open a folder.
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def write_atomic(path: Path, text: str, *, check: Callable[[Path], object] | None = None) -> None:
    """Replace ``path`` with ``text`` in one rename; readers never see a partial file.

    The text goes to a hidden temporary file in the same folder (so the rename stays
    on one file system), is flushed to disk, optionally checked, then renamed over
    ``path``. On any failure the temporary file is removed and ``path`` is untouched.
    The file keeps the mode of the one it replaces (``0644`` for a new file).

    Args:
        path: the target.
        text: the whole new content.
        check: called with the temporary file before the rename; raising aborts.

    Raises:
        OSError: writing or renaming failed.
        Exception: whatever ``check`` raised.
    """
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        mode = 0o644
    fd, tmp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.chmod(mode)
        if check is not None:
            check(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    _fsync_dir(path.parent)


def check_loadable(path: Path) -> None:
    """Raise :class:`ConfigError` unless the gate's loader accepts ``path``."""
    load_registry_file(path)
