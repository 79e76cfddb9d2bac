"""Runtime fact updates through the gate (the operator API the service will expose)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest

from receiptgate import ConfigError, Gate, parse_config

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
TEXT = "nginx is running."


def _statuses(gate: Gate) -> list[str]:
    return [f.status for f in gate.validate(TEXT, trust=30, now=NOW).fact_checks]


def _gate() -> Gate:
    return Gate(parse_config({"factRegistries": [{"id": "ops", "facts": []}]}))


def test_when_a_fact_is_added_then_the_next_validation_uses_it() -> None:
    gate = _gate()
    assert _statuses(gate) == []  # an empty registry checks nothing (RFC-003 §12.2)
    gate.update_fact("ops", {"subject": "nginx", "predicate": "state", "value": "stopped"})
    result = gate.validate(TEXT, trust=30, now=NOW)
    assert result.fact_checks[0].status == "contradicted"
    assert result.verdict == "block"


def test_when_a_fact_is_replaced_or_removed_then_validations_follow() -> None:
    gate = _gate()
    fact = gate.update_fact("ops", {"subject": "nginx", "predicate": "state", "value": "stopped"})
    gate.update_fact("ops", {"subject": "nginx", "predicate": "state", "value": "running"})
    assert _statuses(gate) == ["confirmed"]
    gate.update_fact("ops", {"subject": "redis", "predicate": "state", "value": "running"})
    assert gate.remove_fact("ops", fact.id) is True
    assert gate.remove_fact("ops", fact.id) is False
    assert _statuses(gate) == ["no_fact_found"]


def test_when_the_registry_or_fact_is_bad_then_a_config_error_names_it() -> None:
    gate = _gate()
    with pytest.raises(ConfigError, match="no fact registry with id 'nope'"):
        gate.update_fact("nope", {"subject": "x", "predicate": "state", "value": "up"})
    with pytest.raises(ConfigError, match="category"):
        gate.update_fact("ops", {"id": "f1", "subject": "x", "value": {"type": "state"}})


def test_when_facts_change_during_validations_then_every_result_is_whole() -> None:
    gate = _gate()
    errors: list[BaseException] = []

    def validate() -> None:
        try:
            for _ in range(200):
                assert _statuses(gate) in ([], ["confirmed"], ["contradicted"])
        except BaseException as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=validate) for _ in range(2)]
    for t in threads:
        t.start()
    for i in range(200):
        value = "running" if i % 2 else "stopped"
        gate.update_fact("ops", {"subject": "nginx", "predicate": "state", "value": value})
    for t in threads:
        t.join()
    assert errors == []
