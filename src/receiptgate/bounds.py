"""Bounds on every number receiptgate takes from outside.

A value outside its bound is refused where it enters (a 422/400 naming the
field, exit 2 from the CLI, :class:`~receiptgate._exceptions.InputError` or
:class:`~receiptgate._exceptions.ConfigError` in Python), so nothing deeper
can overflow: a fact with a TTL of 1e30 seconds once made every validation fall
back to the fail mode. The limits are generous for real use and documented in
``docs/service.md``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Final

from pydantic import AfterValidator

#: Timestamps (``now``, ``updatedAt``, ``created_at``): dates and TTLs are
#: computed from them, so they stay far from ``datetime``'s own limits.
EARLIEST: Final = datetime(1970, 1, 1, tzinfo=UTC)
LATEST: Final = datetime(2999, 12, 31, 23, 59, 59, tzinfo=UTC)
#: A fact's ``ttlSeconds``: at most a hundred years.
MAX_TTL_SECONDS: Final = 100 * 366 * 24 * 3600
#: Receipts (and transcript messages) one request may carry inline.
MAX_RECEIPTS_PER_REQUEST: Final = 2_000
#: Characters of one receipt's content (a large file read still fits).
MAX_RECEIPT_CHARS: Final = 1_000_000
#: ``offset`` and ``limit`` of list queries.
MAX_OFFSET: Final = 2**53
MAX_PAGE: Final = 1_000


def time_problem(value: datetime) -> str | None:
    """Why ``value`` is out of bounds (naive times are read as UTC), or ``None``."""
    aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
    try:
        inside = EARLIEST <= aware <= LATEST
    except OverflowError:  # a UTC offset that pushes it past datetime's range
        inside = False
    if inside:
        return None
    return f"must be between {EARLIEST.date()} and {LATEST.date()} (got {value.isoformat()})"


def in_range(value: datetime) -> datetime:
    problem = time_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


#: A pydantic ``datetime`` inside [EARLIEST, LATEST].
BoundedTime = Annotated[datetime, AfterValidator(in_range)]
