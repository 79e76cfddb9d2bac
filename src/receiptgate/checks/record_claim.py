"""The outcome of one restated id, name, state or value (the record checks' result)."""

from __future__ import annotations

from dataclasses import dataclass

from receiptgate.checks.finding import Finding
from receiptgate.claims.models import HardFact


@dataclass(slots=True)
class RecordClaim:
    """A restated id, name, state or value, with its outcome."""

    kind: str  # id | name | state | value | digits | method
    start: int
    end: int
    text: str
    match: Finding


def record_fact(kind: str, start: int, end: int, text: str) -> HardFact:
    """The claimed value of a record claim, as a hard fact of that kind."""
    return HardFact("identifier", text, start, end, text.lower(), None, kind)


def unsupported_claim(kind: str, start: int, end: int, text: str, detail: str) -> RecordClaim:
    """A restated thing no receipt holds ("no receipt names the file x.py")."""
    fact = record_fact(kind, start, end, text)
    return RecordClaim(
        kind, start, end, text, Finding("unsupported", None, None, detail, value=fact)
    )
