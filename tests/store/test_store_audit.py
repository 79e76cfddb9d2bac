"""The audit trail (RFC-003 §11, §14.3) on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
from store_helpers import BLOCK_TEXT, FLAG_TEXT, NOW, PASS_TEXT, at, raw_dump, validate

import receiptgate.store.audit as audit_module
from receiptgate import Gate, InputError, StoreError
from receiptgate.store import AuditFilter, Store, controls_for

SECRET = "sk-proj-Zq8X1mN4vB7cT2yH5kLp9RwE3"


def test_when_a_validation_is_recorded_then_it_round_trips_with_its_audit_fields(
    store: Store, gate: Gate
) -> None:
    text = f"{BLOCK_TEXT} {FLAG_TEXT}"
    result = validate(gate, text, agent_id="agent-1", hook="message_sending")
    record = store.record_validation(result, text, session_id="s1", turn_id="t7", key_name="ci-key")
    stored = store.get_record(result.id)
    assert stored is not None
    assert stored.to_dict() == record.to_dict()
    assert stored.id == result.id
    assert stored.created_at.endswith("+00:00")
    assert (stored.audit_verdict, stored.verdict, stored.grade) == (
        "output_block",
        "block",
        "incorrect",
    )
    assert (stored.agent_id, stored.session_id, stored.turn_id, stored.key_name) == (
        "agent-1",
        "s1",
        "t7",
        "ci-key",
    )
    assert stored.trigger_hook == "message_sending"
    assert stored.trust == {"score": 30, "tier": result.trust_tier}
    assert stored.controls == ["A.8.10", "A.5.24", "A.5.28"]
    assert stored.claim_count == 2
    assert stored.categories == ["operational_status", "system_state"]
    ov = stored.output_validation
    assert ov["claimCount"] == 2
    assert ov["triggerHook"] == "message_sending"
    contradicted = [v for v in ov["violations"] if v["contradictedFactId"]]
    assert contradicted[0] | {"reason": None} == {
        "detectorId": "system_state.state",
        "category": "system_state",
        "matchedText": "Node.js is not installed",
        "subject": "Node.js",
        "assertion": "not_installed",
        "reason": None,
        "severity": "high",
        "contradictedFactId": "node-installed",
        "receiptId": None,
    }
    assert [s["tag"] for s in stored.sentences] == ["T5", "T5"]
    assert stored.sentences[0]["claims"] == ["Node.js is not installed"]
    assert stored.sentences[0]["evidence"][0]["id"] == "node-installed"
    assert stored.claims[0] == {
        "category": "system_state",
        "detector_id": "system_state.state",
        "matched_text": "Node.js is not installed",
        "offset": 0,
        "end": 24,
        "sentence_index": 0,
    }
    assert stored.text_sha256 == hashlib.sha256(text.encode()).hexdigest()
    assert stored.text_length == len(text)
    assert stored.text_preview == "Node.js is not installed … The pipeline is broken"
    assert stored.text is None
    assert stored.feedback == []
    assert store.get_record("no-such-id") is None


def test_when_the_verdict_differs_then_the_iso_27001_controls_follow_rfc_003(
    store: Store, gate: Gate
) -> None:
    expected = {
        PASS_TEXT: ("output_pass", ["A.8.10"]),
        FLAG_TEXT: ("output_flag", ["A.8.10", "A.5.24"]),
        BLOCK_TEXT: ("output_block", ["A.8.10", "A.5.24", "A.5.28"]),
    }
    for text, (audit_verdict, controls) in expected.items():
        record = store.record_validation(validate(gate, text), text)
        assert (record.audit_verdict, record.controls) == (audit_verdict, controls)
    failed = dataclasses.replace(
        validate(gate, PASS_TEXT), fail_mode_applied="fail_open", error="DetectorError: boom"
    )
    record = store.record_validation(failed, PASS_TEXT)
    assert (record.audit_verdict, record.controls) == ("error_fallback", ["A.8.10", "A.5.24"])
    assert record.fail_mode_applied == "fail_open"
    assert record.error == "DetectorError: boom"
    assert controls_for("error_fallback", "block") == ["A.8.10", "A.5.24", "A.5.28"]


def _fill(store: Store, gate: Gate) -> dict[str, str]:
    """Five records over five days, two agents, two sessions, every verdict."""
    day = timedelta(days=1)
    start = datetime(2026, 3, 1, 12, tzinfo=UTC)
    hello = "Hello, happy to help."
    error = dataclasses.replace(
        validate(gate, BLOCK_TEXT, agent_id="b"),
        fail_mode_applied="fail_closed",
        error="CheckerError: x",
    )
    specs = [
        ("pass", validate(gate, PASS_TEXT, agent_id="a"), PASS_TEXT, "s1"),
        ("flag", validate(gate, FLAG_TEXT, agent_id="a"), FLAG_TEXT, "s1"),
        ("block", validate(gate, BLOCK_TEXT, agent_id="b"), BLOCK_TEXT, "s2"),
        ("error", error, BLOCK_TEXT, "s2"),
        ("empty", validate(gate, hello, agent_id="a"), hello, None),
    ]
    ids = {}
    for i, (name, result, text, session) in enumerate(specs):
        r = at(result, start + i * day)
        store.record_validation(r, text, session_id=session)
        ids[name] = r.id
    return ids


def _ids(store: Store, f: AuditFilter) -> list[str]:
    found = [r.id for r in store.query(f)]
    assert store.count(f) == len(found)
    return found


def test_when_filtering_then_agent_verdict_category_time_and_session_select_records(
    store: Store, gate: Gate
) -> None:
    ids = _fill(store, gate)
    assert _ids(store, AuditFilter()) == [
        ids[n] for n in ("empty", "error", "block", "flag", "pass")
    ]
    assert _ids(store, AuditFilter(agent_id="b")) == [ids["error"], ids["block"]]
    assert _ids(store, AuditFilter(verdict="output_block")) == [ids["block"]]
    assert _ids(store, AuditFilter(verdict="error_fallback")) == [ids["error"]]
    # a plain verdict matches what was applied, fail-closed errors included
    assert _ids(store, AuditFilter(verdict="block")) == [ids["error"], ids["block"]]
    assert _ids(store, AuditFilter(verdict="pass")) == [ids["empty"], ids["pass"]]
    assert _ids(store, AuditFilter(category="operational_status")) == [ids["flag"]]
    assert _ids(store, AuditFilter(category="system_state")) == [
        ids["error"],
        ids["block"],
        ids["pass"],
    ]
    assert _ids(store, AuditFilter(category="quantity")) == []
    since = datetime(2026, 3, 2, 12, tzinfo=UTC)
    until = datetime(2026, 3, 4, 12, tzinfo=UTC)
    assert _ids(store, AuditFilter(since=since, until=until)) == [ids["block"], ids["flag"]]
    naive = AuditFilter(since=since.replace(tzinfo=None), until=until.replace(tzinfo=None))
    assert _ids(store, naive) == [ids["block"], ids["flag"]]
    assert _ids(store, AuditFilter(session_id="s2")) == [ids["error"], ids["block"]]
    assert _ids(store, AuditFilter(agent_id="a", verdict="flag", session_id="s1")) == [ids["flag"]]
    assert len(_ids(store, AuditFilter(output_validation_only=True))) == 5


def test_when_paging_then_pages_are_newest_first_and_cover_every_record_once(
    store: Store, gate: Gate
) -> None:
    result = validate(gate, FLAG_TEXT)
    expected = []
    for i in range(7):
        r = at(result, NOW + timedelta(seconds=i))
        store.record_validation(r, FLAG_TEXT)
        expected.insert(0, r.id)
    pages = [[r.id for r in store.query(AuditFilter(limit=3, offset=o))] for o in (0, 3, 6, 9)]
    assert pages == [expected[:3], expected[3:6], expected[6:], []]
    assert store.count(AuditFilter(limit=1)) == 7


@pytest.mark.parametrize(
    ("f", "field"),
    [
        (AuditFilter(limit=0), "limit"),
        (AuditFilter(limit=1001), "limit"),
        (AuditFilter(offset=-1), "offset"),
        (AuditFilter(verdict="allow"), "verdict"),
    ],
)
def test_when_a_filter_value_is_out_of_range_then_an_input_error_names_the_field(
    store: Store, f: AuditFilter, field: str
) -> None:
    with pytest.raises(InputError, match=f"^{field}:"):
        store.query(f)
    with pytest.raises(InputError, match=f"^{field}:"):
        store.count(f)


def test_when_exporting_then_every_match_is_one_json_line_oldest_first_with_feedback(
    store: Store, gate: Gate, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(audit_module, "_EXPORT_PAGE", 2)  # page through equal timestamps
    result = validate(gate, BLOCK_TEXT, agent_id="a")
    ids = []
    for i in range(5):
        r = at(result, NOW + timedelta(seconds=i // 3))  # three records share one instant
        store.record_validation(r, BLOCK_TEXT)
        ids.append(r.id)
    store.record_validation(at(validate(gate, PASS_TEXT, agent_id="other"), NOW), PASS_TEXT)
    store.add_feedback(ids[1], kind="override", verdict="pass", note="a false positive", by="op")
    out = io.StringIO()
    assert store.export_jsonl(AuditFilter(agent_id="a", limit=1), out) == 5
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [line["id"] for line in lines] == ids
    assert lines[1]["feedback"][0] | {"id": None, "created_at": None} == {
        "id": None,
        "record_id": ids[1],
        "kind": "override",
        "verdict": "pass",
        "note": "a false positive",
        "by": "op",
        "created_at": None,
    }
    assert lines[0]["output_validation"]["violations"][0]["contradictedFactId"] == "node-installed"
    empty = io.StringIO()
    assert store.export_jsonl(AuditFilter(agent_id="nobody"), empty) == 0
    assert empty.getvalue() == ""


def test_when_feedback_is_given_then_it_is_kept_in_order_and_validated(
    store: Store, gate: Gate
) -> None:
    record = store.record_validation(validate(gate, FLAG_TEXT), FLAG_TEXT)
    first = store.add_feedback(record.id, kind="agree", by="alice")
    second = store.add_feedback(
        record.id, kind="disagree", verdict="pass", note="deploy token=hunter2xyz was fine"
    )
    third = store.add_feedback(record.id, kind="override", verdict="block")
    stored = store.get_record(record.id)
    assert stored is not None
    assert [f.id for f in stored.feedback] == [first.id, second.id, third.id]
    assert [f.kind for f in stored.feedback] == ["agree", "disagree", "override"]
    assert stored.feedback[0].by == "alice"
    assert stored.feedback[1].note == "deploy token=[REDACTED] was fine"
    assert store.query(AuditFilter())[0].feedback == stored.feedback
    with pytest.raises(InputError, match=r"^kind:"):
        store.add_feedback(record.id, kind="like")
    with pytest.raises(InputError, match=r"^verdict:"):
        store.add_feedback(record.id, kind="override")
    with pytest.raises(InputError, match=r"^verdict:"):
        store.add_feedback(record.id, kind="override", verdict="output_pass")
    with pytest.raises(KeyError):
        store.add_feedback("no-such-record", kind="agree")
    assert "hunter2xyz" not in raw_dump(store.url)  # test URLs have no password to mask


def test_when_output_holds_secrets_then_no_stored_row_contains_them(
    store: Store, gate: Gate
) -> None:
    text = (
        f"The service {SECRET} is down. The bot is called ghp_AbCdEf1234567890AbCdEf1234567890abcd."
    )
    result = validate(gate, text)
    secret_in_reason = [v.reason for v in result.violations if SECRET in v.reason]
    assert secret_in_reason, "the engine puts matched text into reasons"
    failed = dataclasses.replace(
        result, error="CheckerError: Authorization: Bearer abc.def.ghijklmn"
    )
    record = store.record_validation(failed, text)
    flat = json.dumps(record.to_dict())
    assert SECRET not in flat
    assert "ghp_AbCdEf" not in flat
    assert "abc.def.ghijklmn" not in flat
    assert "[REDACTED]" in record.output_validation["violations"][0]["matchedText"]
    assert "[REDACTED]" in record.text_preview
    dump = raw_dump(store.url)
    assert result.id in dump
    for leaked in (SECRET, "ghp_AbCdEf", "abc.def.ghijklmn"):
        assert leaked not in dump


def test_when_text_is_not_opted_in_then_only_hash_length_and_spans_are_stored(
    store: Store, gate: Gate
) -> None:
    text = f"{BLOCK_TEXT} The zebra-marker quokka sat on a mat."
    store.record_validation(validate(gate, text), text)
    dump = raw_dump(store.url)
    assert "Node.js is not installed" in dump
    assert "zebra-marker" not in dump
    assert "quokka" not in dump


def test_when_text_is_opted_in_then_it_is_stored_exactly_as_given(store: Store, gate: Gate) -> None:
    text = f"{BLOCK_TEXT} The quokka's key is {SECRET}."
    record = store.record_validation(validate(gate, text), text, store_text=True)
    assert record.text == text
    stored = store.get_record(record.id)
    assert stored is not None
    assert stored.text == text
    assert "quokka" in raw_dump(store.url)


def test_when_eight_threads_record_at_once_then_no_record_is_lost(store: Store, gate: Gate) -> None:
    result = validate(gate, BLOCK_TEXT)
    ids: list[list[str]] = [[] for _ in range(8)]
    errors: list[BaseException] = []

    def work(n: int) -> None:
        try:
            for _ in range(40):
                r = at(result, NOW)
                store.record_validation(r, BLOCK_TEXT, session_id=f"t{n}")
                ids[n].append(r.id)
        except BaseException as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert store.count(AuditFilter()) == 320
    assert store.count(AuditFilter(session_id="t3")) == 40
    stored = {r.id for r in store.query(AuditFilter(limit=1000))}
    assert stored == {i for thread_ids in ids for i in thread_ids}


def test_when_a_record_fails_among_concurrent_ones_then_only_its_caller_gets_the_error(
    store: Store, gate: Gate
) -> None:
    duplicate = at(validate(gate, FLAG_TEXT), NOW)
    store.record_validation(duplicate, FLAG_TEXT)
    committed: list[str] = []
    failures: list[BaseException] = []
    lock = threading.Lock()

    def work(n: int) -> None:
        for i in range(30):
            r = duplicate if (n == 0 and i % 3 == 0) else at(duplicate, NOW)
            try:
                store.record_validation(r, FLAG_TEXT)
            except StoreError as e:
                with lock:
                    failures.append(e)
            else:
                with lock:
                    committed.append(r.id)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(failures) == 10
    assert all(duplicate.id in str(e) for e in failures)
    assert store.count(AuditFilter()) == 1 + len(committed) == 171


def test_when_the_store_is_closed_then_calls_raise_a_store_error(store: Store, gate: Gate) -> None:
    store.close()
    with pytest.raises(StoreError, match="closed"):
        store.record_validation(validate(gate, PASS_TEXT), PASS_TEXT)
    with pytest.raises(StoreError, match="closed"):
        store.count(AuditFilter())
