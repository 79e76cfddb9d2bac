"""Subjects with a prepositional phrase, and state checks that read tables row by row."""

from __future__ import annotations

from datetime import UTC, datetime

from receiptgate import Gate, Receipt, parse_config
from tool_transcripts import tool_transcript

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


DF = Receipt(
    id="d1",
    kind="tool",
    tool="exec",
    args={"cmd": "df -h / /data", "host": "db-01"},
    content=(
        "Filesystem      Size  Used Avail Use% Mounted on\n"
        "/dev/sda1        50G   21G   27G  44% /\n"
        "/dev/nvme1n1    2.0T  1.2T  760G  62% /data"
    ),
)


def test_when_df_shows_room_then_a_full_disk_claim_is_contradicted() -> None:
    result = Gate().validate("The disk on db-01 is full.", now=NOW, receipts=[DF])
    assert result.verdict == "block"
    assert any(e.relation == "contradicts" for e in result.sentences[0].evidence)


def test_when_a_subject_names_a_host_then_that_hosts_output_decides() -> None:
    ready = Receipt(
        id="p1",
        kind="tool",
        tool="exec",
        args={"cmd": "pg_isready -h db-01 -p 5432"},
        content="db-01:5432 - no response",
    )
    result = Gate().validate(
        "Postgres on db-01 is accepting connections.", now=NOW, receipts=[ready]
    )
    assert result.verdict == "block"


def test_when_a_json_array_holds_several_runs_then_the_named_run_decides() -> None:
    runs = Receipt(
        id="ci",
        kind="tool",
        tool="http_get",
        args={"url": "https://ci.example.com/api/runs"},
        content=(
            '[{"id": 4830, "branch": "main", "duration_min": 9}, '
            '{"id": 4827, "branch": "main", "duration_min": 14}]'
        ),
    )
    gate = Gate()
    wrong = gate.validate("Build 4830 on main took 14 minutes.", now=NOW, receipts=[runs])
    right = gate.validate("Build 4830 on main took 9 minutes.", now=NOW, receipts=[runs])
    assert (wrong.verdict, right.verdict) == ("block", "pass")


def test_when_a_certificate_field_is_named_by_its_meaning_then_the_date_is_backed() -> None:
    cert = Receipt(
        id="c1",
        kind="tool",
        tool="exec",
        args={"cmd": "openssl x509 -noout -enddate -in /etc/ssl/www.pem"},
        content="notAfter=May 26 07:59:59 2026 GMT",
    )
    gate = Gate()
    right = gate.validate(
        "The www certificate is valid until May 26, 2026.", now=NOW, receipts=[cert]
    )
    wrong = gate.validate(
        "The www certificate is valid until June 26, 2026.", now=NOW, receipts=[cert]
    )
    assert (right.verdict, wrong.verdict) == ("pass", "block")


def _airline_attempt() -> list[Receipt]:
    flight = {"flight_number": "HAT229", "origin": "LAS", "destination": "SEA"}
    flight["status"] = "available"
    return tool_transcript(
        [
            ("search_direct_flight", {"origin": "LAS", "destination": "SEA"}, [flight]),
            (
                "update_reservation_flights",
                {"reservation_id": "OBUT9V", "cabin": "economy"},
                "Error: not enough seats on flight HAT229",
            ),
        ],
        before=[{"role": "user", "content": "Move me to HAT229."}],
    )


def test_a_table_of_attempts_reports_their_outcome_not_a_records_status() -> None:
    receipts = _airline_attempt()
    attempts = (
        "| Attempt | Cabin | Result |\n|---|---|---|\n"
        "| 1 | Economy | Failed: not enough seats on HAT229 |"
    )
    flights = "| Flight | Status |\n|---|---|\n| HAT229 | Cancelled |"

    assert Gate().validate(attempts, now=NOW, receipts=receipts).verdict == "pass"
    # a table of flights does say what state each flight is in
    result = Gate().validate(flights, now=NOW, receipts=receipts)
    assert result.verdict == "block"
    assert any("status = available" in e.detail for e in result.sentences[-1].evidence)


def test_a_flight_the_customer_is_booked_on_may_be_available() -> None:
    # "booked" is the customer's booking of the flight, no rival of its "available" status
    result = Gate().validate(
        "You are now booked on HAT229 from Las Vegas.", now=NOW, receipts=_airline_attempt()
    )
    assert not any("status = available" in r for s in result.sentences for r in s.reasons)
