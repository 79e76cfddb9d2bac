"""``receiptgate facts lint``: validate registry files and report problems.

Errors are what stops a file from loading (the same messages the gate gives).
Warnings are legal but suspicious: expired facts, TTLs with no ``updatedAt``,
a subject given twice with different values across files, regex subjects that
swallow another fact's subject.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from receiptgate._exceptions import ConfigError
from receiptgate.evidence.fact_words import normalise_subject
from receiptgate.evidence.facts import FactRegistry, load_registry_file


def lint_files(paths: list[Path], *, now: datetime) -> list[dict[str, Any]]:
    """Lints each file; returns one report per file (``errors``, ``warnings``, ``facts``)."""
    reports: list[dict[str, Any]] = []
    loaded: list[tuple[dict[str, Any], FactRegistry]] = []
    for path in paths:
        report: dict[str, Any] = {"file": str(path), "facts": 0, "errors": [], "warnings": []}
        reports.append(report)
        try:
            reg = load_registry_file(path)
        except ConfigError as e:
            report["errors"].append(str(e))
            continue
        report["facts"] = len(reg.facts)
        report["warnings"].extend(reg.warnings)
        if not reg.facts:
            report["warnings"].append(f"{path}: registry {reg.id!r} holds no facts")
        for i, fact in enumerate(reg.facts):
            where = f"{path}: facts[{i}] ({fact.id})"
            if fact.ttl_seconds is not None and fact.updated_at is None:
                report["warnings"].append(
                    f"{where}: ttlSeconds without updatedAt: the fact is always expired"
                )
            elif fact.expires_at is not None and fact.expires_at <= now:
                report["warnings"].append(
                    f"{where}: expired at {fact.expires_at.isoformat()} (now {now.isoformat()})"
                )
        loaded.append((report, reg))
    _cross_check(loaded)
    return reports


def _cross_check(loaded: list[tuple[dict[str, Any], FactRegistry]]) -> None:
    ids: dict[str, str] = {}
    for report, reg in loaded:
        if reg.id in ids:
            report["errors"].append(
                f"{report['file']}: registry id {reg.id!r} is also used by {ids[reg.id]}; "
                "the gate refuses two registries with one id"
            )
        ids.setdefault(reg.id, report["file"])
    seen: dict[tuple[str, str, str], tuple[str, str]] = {}
    exact: list[tuple[str, str, str]] = []
    for report, reg in loaded:
        for fact in reg.facts:
            if fact.subject_is_regex:
                continue
            key = (fact.category, normalise_subject(fact.subject), fact.predicate)
            value = fact.value.model_dump_json()
            if key in seen and seen[key][1] != value:
                report["warnings"].append(
                    f"{report['file']}: fact {fact.id} ({key[1]!r}, {key[2]}) disagrees with "
                    f"{seen[key][0]}; the later registry wins"
                )
            seen[key] = (f"{report['file']}:{fact.id}", value)
            exact.append((fact.category, normalise_subject(fact.subject), fact.id))
    import re2

    options = re2.Options()
    options.case_sensitive = False
    for report, reg in loaded:
        for fact in reg.facts:
            if not fact.subject_is_regex:
                continue
            pattern = re2.compile(fact.subject, options)
            for category, subject, other in exact:
                if category == fact.category and other != fact.id and pattern.fullmatch(subject):
                    report["warnings"].append(
                        f"{report['file']}: regex subject of {fact.id} also matches {subject!r} "
                        f"(fact {other}); both will answer claims about it"
                    )
