"""``Bridge.run_once`` on real folders: merge, dedup, bad files, atomic writes."""

from __future__ import annotations

import json
import os
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from bridge_helpers import REPO, facts_of, finding, write_json

from receiptgate.bridge import Bridge, BridgeError
from receiptgate.checks.facts import check_claim
from receiptgate.claims.models import DetectedClaim
from receiptgate.evidence.fact_index import FactIndex
from receiptgate.evidence.facts import load_registry_file

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "findings"
    path.mkdir()
    return path


def _bridge(folder: Path, facts: Path) -> Bridge:
    return Bridge(folder, facts, clock=lambda: NOW)


def test_examples_become_facts_the_gate_checks_claims_against(tmp_path: Path) -> None:
    facts = tmp_path / "generated-facts.json"

    report = _bridge(REPO / "examples" / "findings", facts).run_once()

    assert (report.files_read, report.files_skipped, report.corrections) == (2, 0, 4)
    assert (report.facts_added, report.facts_written, report.errors) == (3, 3, ())
    assert facts_of(facts) == {
        ("NATS-Events", "count"): "255908",  # the newer of two findings (09:45 over 06:00)
        ("nginx", "state"): "running",
        ("webhooks", "supported"): "yes",
    }
    index = FactIndex([load_registry_file(facts)])
    claim = DetectedClaim(
        category="quantity",
        detector_id="test",
        matched_text="nats-events has 300,000 events",
        offset=0,
        end=30,
        subject="nats-events",
        assertion="has",
        predicate="count",
        value="300,000",
    )
    result = check_claim(index, claim, now=NOW)
    assert (result.status, result.expected) == ("contradicted", "255908")


def test_the_file_has_the_rfc_006_format(folder: Path, tmp_path: Path) -> None:
    write_json(folder / "a.json", [finding("f1", "nats-events", 255908, at="2026-03-10T06:00:00Z")])
    facts = tmp_path / "facts.json"

    _bridge(folder, facts).run_once()

    assert json.loads(facts.read_text()) == {
        "id": "trace-learned",
        "generatedAt": "2026-03-11T10:00:00Z",
        "facts": [
            {
                "subject": "nats-events",
                "predicate": "count",
                "value": "255908",
                "source": "trace-analyzer",
                "updatedAt": "2026-03-10T06:00:00Z",
                "description": (
                    'trace finding f1 (SIG-HALLUCINATION, high, agent ops-bot): claimed "0"'
                ),
            }
        ],
    }


@pytest.mark.parametrize("existing", [None, "", "\n"])
def test_an_empty_folder_still_writes_a_loadable_registry(
    folder: Path, tmp_path: Path, existing: str | None
) -> None:
    facts = tmp_path / "facts.json"
    if existing is not None:
        facts.write_text(existing)  # created empty beforehand: nothing to lose

    report = _bridge(folder, facts).run_once()

    assert report.written and report.facts_total == 0
    assert load_registry_file(facts).facts == ()


def test_newest_finding_wins_across_files_then_file_name_then_position(
    folder: Path, tmp_path: Path
) -> None:
    write_json(
        folder / "b.json",
        [
            finding("b1", "nats-events", "3", at="2026-03-10T07:00:00Z"),
            finding("b2", "redis", "tie-b", predicate="version", at="2026-03-10T06:00:00Z"),
            finding("b3", "redis", "tie-b-later", predicate="version", at="2026-03-10T06:00:00Z"),
        ],
    )
    write_json(
        folder / "a.json",
        [
            finding("a1", "NATS-events", "9", at="2026-03-10T09:00:00Z"),
            finding("a2", "Redis", "tie-a", predicate="VERSION", at="2026-03-10T06:00:00Z"),
        ],
    )
    facts = tmp_path / "facts.json"

    report = _bridge(folder, facts).run_once()

    assert facts_of(facts) == {
        ("NATS-events", "count"): "9",
        ("redis", "version"): "tie-b-later",  # same time: later file name, then later position
    }
    assert report.corrections == 5


def test_without_detected_at_the_reports_generated_at_then_the_file_time_count(
    folder: Path, tmp_path: Path
) -> None:
    report_file = write_json(
        folder / "report.json",
        {"generatedAt": "2026-03-10T06:00:00Z", "findings": [finding("r1", "x", "report")]},
    )
    plain = write_json(folder / "plain.json", [finding("p1", "x", "plain")])
    os.utime(plain, (0, datetime(2026, 3, 10, 5, tzinfo=UTC).timestamp()))
    facts = tmp_path / "facts.json"
    bridge = _bridge(folder, facts)

    bridge.run_once()
    assert facts_of(facts) == {("x", "count"): "report"}

    os.utime(plain, (0, datetime(2026, 3, 10, 8, tzinfo=UTC).timestamp()))
    bridge.run_once()
    assert facts_of(facts) == {("x", "count"): "plain"}
    assert report_file.exists()


def test_an_unchanged_folder_does_not_rewrite_the_file(folder: Path, tmp_path: Path) -> None:
    write_json(folder / "a.json", [finding("f1", "nats-events", "1", at="2026-03-10T06:00:00Z")])
    facts = tmp_path / "facts.json"
    _bridge(folder, facts).run_once()
    before = facts.stat()

    again = Bridge(folder, facts, clock=lambda: datetime(2030, 1, 1, tzinfo=UTC)).run_once()

    assert not again.written and again.facts_written == 0 and again.facts_total == 1
    assert (facts.stat().st_mtime_ns, facts.stat().st_ino) == (before.st_mtime_ns, before.st_ino)
    assert again.summary(facts) == (
        f"bridge: 1 findings file read, 1 correction; {facts} unchanged (1 fact)"
    )


def test_facts_stay_when_their_findings_file_is_removed(folder: Path, tmp_path: Path) -> None:
    first = write_json(
        folder / "a.json", [finding("f1", "nats-events", "1", at="2026-03-10T06:00:00Z")]
    )
    facts = tmp_path / "facts.json"
    bridge = _bridge(folder, facts)
    bridge.run_once()

    first.unlink()
    write_json(folder / "b.json", [finding("f2", "redis", "running", predicate="state")])
    report = bridge.run_once()

    assert facts_of(facts) == {("nats-events", "count"): "1", ("redis", "state"): "running"}
    assert (report.files_seen, report.facts_added, report.facts_total) == (1, 1, 2)


def test_facts_the_operator_put_in_the_file_are_kept(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    typed = {
        "id": "gw",
        "category": "operational_status",
        "subject": "gateway",
        "value": {"type": "status", "status": "operational"},
    }
    facts.write_text(json.dumps({"id": "learned", "name": "Learned", "facts": [typed]}))
    write_json(folder / "a.json", [finding("f1", "nats-events", "1")])

    _bridge(folder, facts).run_once()

    document = json.loads(facts.read_text())
    assert (document["id"], document["name"]) == ("learned", "Learned")
    assert document["facts"][0] == typed
    assert len(load_registry_file(facts).facts) == 2


def test_a_malformed_file_is_skipped_named_and_earlier_facts_are_kept(
    folder: Path, tmp_path: Path
) -> None:
    write_json(folder / "a.json", [finding("f1", "nats-events", "1", at="2026-03-10T06:00:00Z")])
    facts = tmp_path / "facts.json"
    bridge = _bridge(folder, facts)
    bridge.run_once()

    (folder / "a.json").write_text('[{"id": "f1", "agent": "ops-bot", "signal": {')  # truncated
    (folder / "b.json").write_text('{"findings": "nope"}')
    broken = bridge.run_once()

    assert facts_of(facts) == {("nats-events", "count"): "1"}
    assert not broken.written
    assert (broken.files_read, broken.files_skipped) == (0, 2)
    assert broken.errors == (
        f"{folder / 'a.json'}: invalid JSON: Expecting property name enclosed in double quotes "
        "at line 1 column 46",
        f'{folder / "b.json"}: findings: must be a list (got "nope")',
    )

    write_json(folder / "a.json", [finding("f1", "nats-events", "2", at="2026-03-10T07:00:00Z")])
    fixed = bridge.run_once()
    assert facts_of(facts) == {("nats-events", "count"): "2"}
    assert fixed.facts_updated == 1 and len(fixed.errors) == 1


def test_a_finding_the_gate_could_not_load_is_skipped_with_its_field(
    folder: Path, tmp_path: Path
) -> None:
    write_json(
        folder / "a.json",
        [
            finding("f1", "docker", "maybe", predicate="exists"),
            finding("f2", "docker", "yes", predicate="exists", at="2026-03-10T05:00:00Z"),
        ],
    )
    facts = tmp_path / "facts.json"

    report = _bridge(folder, facts).run_once()

    assert facts_of(facts) == {("docker", "exists"): "yes"}
    assert report.errors == (
        f'{folder / "a.json"}: [0].factCorrection.actual: predicate "exists" needs true/false, '
        'yes/no or 1/0 (got "maybe")',
    )


def test_hidden_files_other_extensions_subfolders_and_the_facts_file_are_not_read(
    folder: Path,
) -> None:
    write_json(folder / ".partial.json", [finding("h", "hidden", "1")])
    (folder / "notes.txt").write_text("not json")
    (folder / "sub").mkdir()
    write_json(folder / "sub" / "deep.json", [finding("d", "deep", "1")])
    write_json(folder / "a.json", [finding("f1", "nats-events", "1")])
    facts = folder / "generated.json"  # inside the watched folder

    bridge = _bridge(folder, facts)
    bridge.run_once()
    report = bridge.run_once()

    assert bridge.findings_files() == [folder / "a.json"]
    assert report.errors == () and report.files_seen == 1
    assert facts_of(facts) == {("nats-events", "count"): "1"}


def test_an_invalid_facts_file_is_not_overwritten(folder: Path, tmp_path: Path) -> None:
    write_json(folder / "a.json", [finding("f1", "nats-events", "1")])
    facts = tmp_path / "facts.json"
    facts.write_text('{"id": "trace-learned", "facts": [{"subject": "x"}]}')

    with pytest.raises(BridgeError) as err:
        _bridge(folder, facts).run_once()

    assert str(err.value).startswith(f"{facts}: facts[0]")
    assert str(err.value).endswith("(not overwritten: fix or remove it)")
    assert facts.read_text() == '{"id": "trace-learned", "facts": [{"subject": "x"}]}'


def test_a_failed_write_is_a_bridge_error_and_leaves_the_file(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    facts = tmp_path / "facts.json"
    bridge = _bridge(folder, facts)
    bridge.run_once()
    before = facts.read_text()
    write_json(folder / "a.json", [finding("f1", "nats-events", "1")])

    def disk_full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(BridgeError, match="cannot write: No space left on device"):
        bridge.run_once()

    assert facts.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["facts.json", "findings"]


def test_a_missing_folder_and_a_yaml_facts_file_are_errors(tmp_path: Path) -> None:
    with pytest.raises(BridgeError, match="cannot list the findings folder"):
        Bridge(tmp_path / "nope", tmp_path / "facts.json").run_once()
    with pytest.raises(BridgeError, match="is JSON"):
        Bridge(tmp_path, tmp_path / "facts.yaml")
    with pytest.raises(ValueError, match="positive"):
        Bridge(tmp_path, tmp_path / "facts.json", interval=0)


def test_a_reader_never_sees_a_half_written_file(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    bridge = _bridge(folder, facts)
    many = [finding(f"f{i}", f"stream-{i:04d}", str(i)) for i in range(500)]
    write_json(folder / "many.json", many)
    bridge.run_once()
    stop = threading.Event()
    reads: list[int] = []
    bad: list[str] = []

    def reader() -> None:
        while not stop.is_set():
            text = facts.read_text(encoding="utf-8")
            try:
                reads.append(len(json.loads(text)["facts"]))
            except ValueError as exc:
                bad.append(f"{exc} ({len(text)} chars)")

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for round_ in range(10):
            write_json(folder / "many.json", [*many, finding("x", "changing", str(round_))])
            assert bridge.run_once().written
    finally:
        stop.set()
        thread.join()

    assert bad == []
    assert reads and set(reads) <= {500, 501}
