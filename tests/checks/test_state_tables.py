"""Subjects with a prepositional phrase, and state checks that read tables row by row."""

from __future__ import annotations

from datetime import UTC, datetime

from receiptgate import Gate, Receipt, parse_config

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
PODS = Receipt(
    id="k1",
    kind="tool",
    tool="exec",
    args={"cmd": "kubectl get pods -n prod"},
    content=(
        "NAME                     READY   STATUS             RESTARTS   AGE\n"
        "api-7d9f8c6b5-2xkqp      1/1     Running            0          2d\n"
        "worker-5c7b9d4f8-lx2vn   0/1     CrashLoopBackOff   9          1d"
    ),
)


def test_when_a_subject_has_a_place_then_a_fact_about_its_head_applies() -> None:
    facts = [{"subject": "postgres", "predicate": "state", "value": "stopped"}]
    gate = Gate(parse_config({"factRegistries": [{"id": "ops", "facts": facts}]}))
    result = gate.validate("Postgres on db-01 is running.", trust=30, now=NOW)
    assert result.claims[0].subject == "Postgres on db-01"
    assert [f.status for f in result.fact_checks] == ["contradicted"]


def test_when_a_table_holds_other_rows_then_only_the_subjects_rows_count() -> None:
    gate = Gate()
    assert gate.validate("The api pods in prod are running.", now=NOW, receipts=[PODS]).verdict == (
        "pass"
    )
    assert gate.validate("The worker pod is running.", now=NOW, receipts=[PODS]).verdict == (
        "block"
    )
