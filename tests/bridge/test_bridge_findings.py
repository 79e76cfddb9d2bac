"""Reading TraceFinding files (RFC-006 §8.2): shapes, validation, errors naming file and field."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from bridge_helpers import REPO, finding, write_json

from receiptgate.bridge import TraceFinding, read_findings_file


def test_a_list_and_a_findings_object_both_read(tmp_path: Path) -> None:
    as_list = write_json(tmp_path / "a.json", [finding("f1", "nats-events", "1")])
    as_object = write_json(
        tmp_path / "b.json",
        {"generatedAt": "2026-03-10T06:00:00Z", "findings": [finding("f2", "redis", "2")]},
    )

    first, second = read_findings_file(as_list), read_findings_file(as_object)

    assert [f.id for _, f in first.findings] == ["f1"]
    assert first.findings[0][0] == "[0]"
    assert [f.id for _, f in second.findings] == ["f2"]
    assert second.findings[0][0] == "findings[0]"
    assert second.generated_at == datetime(2026, 3, 10, 6, tzinfo=UTC)
    assert first.errors == second.errors == ()
    assert first.corrections == second.corrections == 1


def test_the_cortex_report_shape_reads_and_its_extra_keys_are_ignored() -> None:
    read = read_findings_file(REPO / "examples" / "findings" / "trace-report-daily.json")

    assert read.errors == ()
    assert len(read.findings) == 3
    assert read.corrections == 2  # the doom-loop finding carries no correction
    _, first = read.findings[0]
    assert first.detected_at == datetime(2026, 3, 10, 6, tzinfo=UTC)  # epoch milliseconds
    assert first.classification is not None and first.classification.confidence == 0.91
    assert read.findings[1][1].classification is None  # null before triage


def test_numbers_become_text_and_occurred_at_stands_in_for_detected_at() -> None:
    data = finding("f1", "nats-events", 255908, claimed=300000)
    data["occurredAt"] = "2026-03-01T12:00:00+01:00"

    parsed = TraceFinding.model_validate(data)

    assert parsed.fact_correction is not None
    assert (parsed.fact_correction.actual, parsed.fact_correction.claimed) == ("255908", "300000")
    assert parsed.detected_at == datetime(2026, 3, 1, 11, tzinfo=UTC)


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "empty file (still being written?)"),
        (b'[{"id": "f1", "agent": "ops-bot", "sig', "invalid JSON: Unterminated string"),
        (b'{"findings": [', "invalid JSON: Expecting value at line 1 column 15"),
        (b"\xff\xfe[]", "not valid UTF-8 (byte 0)"),
        (b'"just text"', 'expected a list of findings or an object with a "findings" list'),
        (b'{"report": []}', 'expected a list of findings or an object with a "findings" list'),
        (b'{"findings": {"id": 1}}', "findings: must be a list (got dict)"),
    ],
)
def test_an_unusable_file_is_one_error_naming_the_file(
    tmp_path: Path, content: bytes, problem: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)

    read = read_findings_file(path, shown="findings/bad.json")

    assert not read.usable
    assert read.findings == ()
    assert len(read.errors) == 1
    assert read.errors[0].startswith(f"findings/bad.json: {problem}")


def test_a_bad_finding_is_skipped_with_its_field_and_the_others_still_count(
    tmp_path: Path,
) -> None:
    bad_severity = finding("f2", "redis", "running", predicate="state")
    bad_severity["signal"]["severity"] = "urgent"
    no_signal = finding("f3", "nginx", "running", predicate="state")
    del no_signal["signal"]
    empty_actual = finding("f4", "gateway", "  ")
    path = write_json(
        tmp_path / "mixed.json",
        {
            "findings": [
                finding("f1", "nats-events", "1"),
                bad_severity,
                no_signal,
                "not an object",
                empty_actual,
            ]
        },
    )

    read = read_findings_file(path, shown="mixed.json")

    assert read.usable
    assert [f.id for _, f in read.findings] == ["f1"]
    assert read.errors == (
        "mixed.json: findings[1].signal.severity: must be one of critical, high, medium, low "
        '(got "urgent")',
        "mixed.json: findings[2].signal: field required",
        'mixed.json: findings[3]: must be an object (got "not an object")',
        "mixed.json: findings[4].factCorrection.actual: must not be empty",
    )


def test_a_file_that_vanished_is_neither_read_nor_an_error(tmp_path: Path) -> None:
    read = read_findings_file(tmp_path / "gone.json")

    assert (read.usable, read.findings, read.errors) == (False, (), ())


def test_every_example_findings_file_is_valid() -> None:
    files = sorted((REPO / "examples" / "findings").glob("*.json"))

    assert files
    for path in files:
        assert read_findings_file(path).errors == (), path
        json.loads(path.read_text(encoding="utf-8"))
