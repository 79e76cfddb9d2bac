"""Session receipts and operator facts, shared by every instance on one database."""

from __future__ import annotations

import threading
from datetime import UTC, datetime

import pytest
from store_helpers import PASS_TEXT, validate

from receiptgate import Gate, InputError, Receipt
from receiptgate.store import AuditFilter, Store, open_store

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)


def _receipt(i: int, **extra: object) -> Receipt:
    return Receipt.model_validate({"id": f"r{i}", "kind": "tool", "content": f"out {i}", **extra})


def test_when_receipts_are_added_then_they_come_back_in_order_exactly_as_given(
    store: Store,
) -> None:
    rich = _receipt(
        1,
        tool="deploy",
        args={"version": "2.3.1", "password": "hunter2"},  # evidence: stored as given
        ok=True,
        created_at=NOW,
        trust="owner",
        meta={"host": "ci-1"},
    )
    assert store.add_receipts("s1", [rich, _receipt(2)]) == 2
    assert store.add_receipts("s2", [_receipt(9)]) == 1
    assert store.add_receipts("s1", [_receipt(3)]) == 3
    assert store.add_receipts("s1", []) == 3
    got = store.receipts_since("s1")
    seqs = [seq for seq, _ in got]
    assert seqs == sorted(seqs)
    assert len(set(seqs)) == 3
    assert [r for _, r in got] == [rich, _receipt(2), _receipt(3)]
    assert got[0][1].args == {"version": "2.3.1", "password": "hunter2"}
    assert store.receipts_since("s1", after_seq=seqs[0]) == got[1:]
    assert store.receipts_since("s1", after_seq=seqs[-1]) == []
    assert [r.id for _, r in store.receipts_since("s2")] == ["r9"]
    assert store.receipts_since("unknown") == []
    with pytest.raises(InputError, match=r"^session_id:"):
        store.add_receipts("", [_receipt(1)])


def test_when_threads_add_to_one_session_then_seqs_rise_and_none_is_lost(
    store: Store,
) -> None:
    def work(n: int) -> None:
        for i in range(10):
            store.add_receipts("shared", [_receipt(n * 100 + i)])

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    got = store.receipts_since("shared")
    assert len(got) == 40
    assert [seq for seq, _ in got] == sorted({seq for seq, _ in got})


def test_when_facts_are_put_and_deleted_then_the_version_moves_with_every_change(
    store: Store,
) -> None:
    assert store.facts_version() == 0
    assert store.list_facts() == []
    fact = {"id": "nginx", "subject": "nginx", "predicate": "state", "value": "stopped"}
    stored = store.put_fact("ops", fact)
    assert (stored.registry_id, stored.fact_id, stored.data) == ("ops", "nginx", fact)
    assert stored.updated_at.tzinfo is not None
    assert store.facts_version() == 1
    replaced = store.put_fact("ops", {**fact, "value": "running"})
    store.put_fact("team", {"id": "irina", "subject": "Irina"})
    assert store.facts_version() == 3
    assert [(f.registry_id, f.fact_id) for f in store.list_facts()] == [
        ("ops", "nginx"),
        ("team", "irina"),
    ]
    assert store.list_facts("ops") == [replaced]
    assert store.list_facts("ops")[0].data["value"] == "running"
    assert store.delete_fact("ops", "nginx") is True
    assert store.facts_version() == 4
    assert store.delete_fact("ops", "nginx") is False
    assert store.facts_version() == 4
    assert [f.fact_id for f in store.list_facts()] == ["irina"]


@pytest.mark.parametrize(
    "fact",
    [{"subject": "x"}, {"id": ""}, {"id": 3}, {"id": "f", "when": datetime(2026, 1, 1)}],
)
def test_when_a_fact_has_no_id_or_is_not_json_then_an_input_error_names_it(
    store: Store, fact: dict[str, object]
) -> None:
    with pytest.raises(InputError, match=r"^fact"):
        store.put_fact("ops", fact)
    assert store.facts_version() == 0


def test_when_two_instances_share_a_database_then_each_sees_the_others_writes(
    db_url: str, gate: Gate
) -> None:
    with open_store(db_url) as a, open_store(db_url) as b:
        a.put_fact("ops", {"id": "f1", "value": 1})
        assert b.facts_version() == 1
        assert [f.fact_id for f in b.list_facts()] == ["f1"]
        b.delete_fact("ops", "f1")
        assert a.facts_version() == 2
        a.add_receipts("s", [_receipt(1)])
        assert b.add_receipts("s", [_receipt(2)]) == 2
        assert [r.id for _, r in a.receipts_since("s")] == ["r1", "r2"]
        plaintext, key = b.create_key("admin")
        assert a.verify_key(plaintext) == key
        result = validate(gate, PASS_TEXT)
        a.record_validation(result, PASS_TEXT)
        b.add_feedback(result.id, kind="agree")
        stored = a.get_record(result.id)
        assert stored is not None
        assert [f.kind for f in stored.feedback] == ["agree"]
        assert b.count(AuditFilter()) == 1
