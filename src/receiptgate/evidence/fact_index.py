"""The fact index: loaded registries, indexed for O(1) claim lookups (RFC-003 §5).

:class:`FactIndex` holds the registries in priority order (later wins) and answers
lookups by ``(category, normalised subject)`` from a dict, with regex subjects grouped
into one RE2 set per category. Each fact is prepared once into an :class:`Entry` (its
subject forms, canonical state, parsed number, expiry in microseconds), so checking a
claim (:mod:`receiptgate.checks.facts`) never parses a fact again. Lookups read an
immutable snapshot; runtime updates build a new one under a lock and swap it in.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any, Final, cast

import re2

from receiptgate._exceptions import ConfigError
from receiptgate.evidence.fact_words import (
    canonical_state,
    claim_forms,
    norm_value,
    normalise_subject,
    parse_number,
    subject_forms,
)
from receiptgate.evidence.facts import (
    RE2_OPTIONS,
    CapabilityValue,
    ExistsValue,
    Fact,
    FactRegistry,
    FactRegistryConfig,
    NameValue,
    StateValue,
    StatusValue,
    load_registry,
    parse_fact,
    regex_problem,
)

__all__ = ["FactIndex"]

logger = logging.getLogger("receiptgate")

_Key = tuple[str, str, str]  # (category, subject key, predicate)


@dataclass(eq=False, slots=True)
class Entry:
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


def micros(moment: datetime) -> int:
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - _EPOCH) // _MICROSECOND


def _make_entry(fact: Fact, registry_id: str, priority: tuple[int, int]) -> Entry:
    value = fact.value
    subject_key = f"re:{fact.subject}" if fact.subject_is_regex else normalise_subject(fact.subject)
    entry = Entry(
        fact=fact,
        registry_id=registry_id,
        priority=priority,
        key=(fact.category, subject_key, fact.predicate),
        category=fact.category,
        forms=() if fact.subject_is_regex else subject_forms(fact.subject),
        is_regex=fact.subject_is_regex,
        kind=value.type,
        predicate=fact.predicate,
        expires_at=fact.expires_at,
        expires_us=None if fact.expires_at is None else micros(fact.expires_at),
        expected="",
    )
    if isinstance(value, ExistsValue):
        entry.flag = value.exists
        entry.expected = "exists" if value.exists else "does not exist"
    elif isinstance(value, CapabilityValue):
        entry.flag = value.supported
        entry.expected = "supported" if value.supported else "not supported"
    elif isinstance(value, StateValue):
        entry.state = canonical_state(value.state, False)
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
        entry.number = parse_number(value.value)
        entry.text = norm_value(value.value)
        entry.expected = value.value
    return entry


def _by_priority(entries: Iterable[Entry]) -> tuple[Entry, ...]:
    return tuple(sorted(entries, key=lambda e: e.priority, reverse=True))


@dataclass(frozen=True, slots=True)
class _RegexGroup:
    matcher: re2.Set
    entries: tuple[Entry, ...]  # Set index -> entry, highest priority first


def _regex_group(entries: Iterable[Entry]) -> _RegexGroup | None:
    ordered = _by_priority(entries)
    if not ordered:
        return None
    matcher = re2.Set.FullMatchSet(RE2_OPTIONS)
    for entry in ordered:
        matcher.Add(entry.fact.subject)
    matcher.Compile()
    return _RegexGroup(matcher, ordered)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    """An immutable view of the index; replaced whole, never mutated once published."""

    winners: dict[_Key, Entry]
    exact: dict[tuple[str, str], tuple[Entry, ...]]
    by_subject: dict[str, tuple[Entry, ...]]
    regex: dict[str, _RegexGroup]

    def collect(self, category: str, forms: Sequence[str]) -> list[Entry]:
        """Matching entries: per form, exact subjects then regexes, by priority."""
        out: list[Entry] = []
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
    table: dict[Any, tuple[Entry, ...]], key: Any, remove: Entry | None, add: Entry | None
) -> None:
    current = [e for e in table.get(key, ()) if e is not remove]
    if add is not None:
        current.append(add)
    if current:
        table[key] = _by_priority(current)
    else:
        table.pop(key, None)


def _build_snapshot(winners: dict[_Key, Entry]) -> _Snapshot:
    exact: dict[tuple[str, str], list[Entry]] = {}
    by_subject: dict[str, list[Entry]] = {}
    regex: dict[str, list[Entry]] = {}
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
    snap: _Snapshot, changes: Mapping[_Key, tuple[Entry | None, Entry | None]]
) -> _Snapshot:
    """A new snapshot with only the touched buckets and regex sets rebuilt."""
    winners = dict(snap.winners)
    exact = dict(snap.exact)
    by_subject = dict(snap.by_subject)
    regex_removed: set[int] = set()
    regex_added: dict[str, list[Entry]] = {}
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
    entries: dict[str, Entry] = field(default_factory=dict)  # fact id -> entry


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
        self._candidates: dict[_Key, list[Entry]] = {}
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
        if fact.subject_is_regex and (problem := regex_problem(fact.subject)):
            raise ConfigError(
                f'registry "{registry_id}", fact "{fact.id}": invalid subject regex: {problem}'
            )

    def _store(self, state: _RegistryState, fact: Fact) -> tuple[Entry | None, Entry]:
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
        changes: dict[_Key, tuple[Entry | None, Entry | None]] = {}
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
        return [e.fact for e in self._snap.collect(category, claim_forms(subject, None))]

    def lookup_by_subject(self, subject: str) -> list[Fact]:
        """Facts of any category whose subject matches."""
        snap = self._snap
        out: list[Entry] = []
        for form in claim_forms(subject, None):
            for entry in snap.by_subject.get(form, ()):
                if entry not in out:
                    out.append(entry)
            matched: list[Entry] = []
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
