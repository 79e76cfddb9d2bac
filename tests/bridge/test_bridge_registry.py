"""The generated registry: keys, merge rules, output order, atomic writes."""

from __future__ import annotations

import json
import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from receiptgate._exceptions import ConfigError
from receiptgate.bridge import TraceFinding, fact_key
from receiptgate.bridge.registry import (
    FactsFile,
    GeneratedFact,
    check_loadable,
    fact_from_finding,
    format_time,
    merge_facts,
    read_facts_file,
    render_facts_file,
    write_atomic,
)
from receiptgate.evidence.facts import load_registry_file

T0 = datetime(2026, 3, 10, 6, tzinfo=UTC)
T1 = datetime(2026, 3, 10, 7, tzinfo=UTC)


def _fact(
    subject: str, value: str, *, at: datetime = T1, predicate: str = "count"
) -> GeneratedFact:
    return GeneratedFact(
        subject=subject,
        predicate=predicate,
        value=value,
        source="trace-analyzer",
        updated_at=at,
        description="test",
        origin="test.json: [0]",
    )


def _existing(facts: list[dict[str, Any]], tmp_path: Path) -> FactsFile:
    path = tmp_path / "facts.json"
    document = {"id": "trace-learned", "generatedAt": format_time(T0), "facts": facts}
    path.write_text(json.dumps(document), encoding="utf-8")
    return read_facts_file(path)


def test_the_key_ignores_case_spacing_quotes_and_trailing_dots() -> None:
    assert fact_key(' "NATS-Events". ', " Count ") == fact_key("nats-events", "count")
    assert fact_key("nats  events", "count") == ("nats events", "count")
    assert fact_key("nats-events", "count") != fact_key("nats-events", "version")


def test_format_time_is_utc_with_z_and_reads_back_equal() -> None:
    moment = datetime(2026, 3, 10, 7, 30, 1, 123456, tzinfo=UTC)

    assert format_time(moment) == "2026-03-10T07:30:01.123456Z"
    assert format_time(T0) == "2026-03-10T06:00:00Z"
    assert datetime.fromisoformat(format_time(moment)) == moment


def test_new_keys_are_added_and_untouched_facts_kept(tmp_path: Path) -> None:
    typed = {
        "id": "ops-nginx",
        "category": "system_state",
        "subject": "nginx",
        "value": {"type": "state", "state": "running"},
    }
    kept = {"subject": "redis", "predicate": "state", "value": "running", "source": "ops"}
    existing = _existing([typed, kept], tmp_path)

    merged = merge_facts(existing, [_fact("nats-events", "255908")])

    assert (merged.added, merged.updated, merged.changed) == (1, 0, True)
    assert merged.facts[0] == typed  # not a triple: first, as it was
    assert [f["subject"] for f in merged.facts[1:]] == ["nats-events", "redis"]
    assert merged.facts[2] == kept


def test_the_newest_fact_wins_and_an_older_one_is_ignored(tmp_path: Path) -> None:
    old = {
        "subject": "nats-events",
        "predicate": "count",
        "value": "1",
        "updatedAt": "2026-03-10T06:30:00Z",
    }
    existing = _existing([old], tmp_path)

    older = merge_facts(existing, [_fact("NATS-events", "2", at=T0)])
    newer = merge_facts(existing, [_fact("NATS-events", "3", at=T1)])

    assert (older.added, older.updated, older.changed) == (0, 0, False)
    assert older.facts == (old,)
    assert (newer.added, newer.updated, newer.changed) == (0, 1, True)
    assert newer.facts[0]["value"] == "3"
    assert newer.facts[0]["subject"] == "NATS-events"  # the winner's spelling


def test_a_fact_without_updated_at_is_as_old_as_the_file(tmp_path: Path) -> None:
    existing = _existing([{"subject": "x", "predicate": "count", "value": "1"}], tmp_path)

    before = merge_facts(existing, [_fact("x", "2", at=datetime(2026, 3, 10, 5, tzinfo=UTC))])
    same_time = merge_facts(existing, [_fact("x", "2", at=T0)])

    assert before.updated == 0
    assert same_time.updated == 1  # equal times: the finding wins


def test_a_replacement_keeps_the_operators_id_and_ttl(tmp_path: Path) -> None:
    old = {
        "id": "nats",
        "subject": "nats-events",
        "predicate": "count",
        "value": "1",
        "ttlSeconds": 60,
    }
    existing = _existing([old], tmp_path)

    merged = merge_facts(existing, [_fact("nats-events", "2")])

    assert merged.facts[0]["id"] == "nats"
    assert merged.facts[0]["ttlSeconds"] == 60
    assert merged.facts[0]["value"] == "2"


def test_the_same_fact_again_changes_nothing(tmp_path: Path) -> None:
    fact = _fact("nats-events", "255908")
    existing = _existing([fact.to_json()], tmp_path)

    merged = merge_facts(existing, [fact])

    assert (merged.added, merged.updated, merged.changed) == (0, 0, False)


def test_output_order_does_not_depend_on_input_order(tmp_path: Path) -> None:
    facts = [_fact(s, "1") for s in ("zeta", "alpha", "Mid")]
    empty = FactsFile(path=tmp_path / "none.json")

    one = merge_facts(empty, facts)
    other = merge_facts(empty, list(reversed(facts)))

    assert one.facts == other.facts
    assert [f["subject"] for f in one.facts] == ["alpha", "Mid", "zeta"]


def test_rendered_file_is_what_the_gate_loads(tmp_path: Path) -> None:
    facts = [
        _fact("nats-events", "255908").to_json(),
        _fact("nginx", "running", predicate="state").to_json(),
        _fact("webhooks", "yes", predicate="supported").to_json(),
    ]
    path = tmp_path / "generated.json"
    path.write_text(
        render_facts_file({"id": "trace-learned"}, datetime(2026, 3, 11, 1, 2, 3, 999, UTC), facts)
    )

    registry = load_registry_file(path)

    assert registry.id == "trace-learned"
    assert registry.generated_at == datetime(2026, 3, 11, 1, 2, 3, tzinfo=UTC)
    assert [(f.category, f.subject, f.predicate) for f in registry.facts] == [
        ("quantity", "nats-events", "count"),
        ("system_state", "nginx", "state"),
        ("capability", "webhooks", "capability"),
    ]
    assert all(f.updated_at == T1 and f.source == "trace-analyzer" for f in registry.facts)


def test_a_correction_the_gate_could_not_load_names_the_actual_field() -> None:
    finding = TraceFinding.model_validate(
        {
            "id": "f1",
            "agent": "a",
            "signal": {"signal": "SIG-HALLUCINATION", "severity": "low", "summary": ""},
            "factCorrection": {
                "subject": "docker",
                "predicate": "exists",
                "claimed": "no",
                "actual": "maybe",
            },
        }
    )

    with pytest.raises(ConfigError) as err:
        fact_from_finding(finding, shown="daily.json", where="findings[3]", updated_at=T0)

    assert str(err.value) == (
        'daily.json: findings[3].factCorrection.actual: predicate "exists" needs true/false, '
        'yes/no or 1/0 (got "maybe")'
    )


def test_an_invalid_facts_file_is_an_error_not_an_empty_registry(tmp_path: Path) -> None:
    path = tmp_path / "facts.json"
    path.write_text('{"id": "trace-learned", "facts": [')

    with pytest.raises(ConfigError, match=r"facts\.json: invalid JSON"):
        read_facts_file(path)


def test_write_atomic_replaces_the_file_and_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "facts.json"
    path.write_text("old")
    path.chmod(0o640)

    write_atomic(path, "new")

    assert path.read_text() == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts.json"]


def test_a_new_file_is_world_readable(tmp_path: Path) -> None:
    path = tmp_path / "facts.json"

    write_atomic(path, "{}")

    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_a_failed_check_or_write_leaves_the_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "facts.json"
    path.write_text('{"facts": []}')

    with pytest.raises(ConfigError):
        write_atomic(path, '{"facts": 3}', check=check_loadable)

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        write_atomic(path, '{"facts": []} and more')

    assert path.read_text() == '{"facts": []}'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts.json"]
