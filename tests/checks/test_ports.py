"""Ports a socket listing shows or leaves out (checks/ports), end to end."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from receiptgate import Gate, Receipt

NOW = datetime(2026, 3, 11, 10, tzinfo=UTC)
GATE = Gate()


def _ss(host: str, rows: str) -> Receipt:
    return Receipt(
        id="ss-1",
        kind="tool",
        tool="exec",
        args={"cmd": "ss -ltn", "host": host},
        ok=True,
        content="State  Recv-Q Send-Q  Local Address:Port  Peer Address:Port\n" + rows,
        created_at=datetime(2026, 3, 11, 9, 40, tzinfo=UTC),
    )


ROWS = (
    "LISTEN 0      128           0.0.0.0:22          0.0.0.0:*\n"
    "LISTEN 0      4096        127.0.0.1:9100        0.0.0.0:*\n"
)


@pytest.mark.parametrize(
    "text",
    [
        "Nothing is listening on port 5432 on db-04.",
        "Port 5432 is not open on db-04.",
        "No process is bound to port 5432 on db-04.",
    ],
)
def test_a_port_the_listing_leaves_out_backs_that_nothing_listens_there(text: str) -> None:
    result = GATE.validate(text, receipts=[_ss("db-04", ROWS)], now=NOW)
    assert result.verdict != "block", result.sentences[0].reasons


def test_a_port_the_listing_shows_contradicts_that_nothing_listens_there() -> None:
    rows = ROWS + "LISTEN 0      244           0.0.0.0:5432        0.0.0.0:*\n"
    result = GATE.validate(
        "Nothing is listening on port 5432 on db-04.", receipts=[_ss("db-04", rows)], now=NOW
    )
    assert result.verdict == "block"
    assert "port 5432" in " ".join(result.sentences[0].reasons)


def test_a_listing_of_another_host_says_nothing_of_this_one() -> None:
    result = GATE.validate(
        "Nothing is listening on port 5432 on db-07.", receipts=[_ss("db-04", ROWS)], now=NOW
    )
    assert result.verdict == "block"
    assert "5432" in " ".join(result.sentences[0].reasons)
