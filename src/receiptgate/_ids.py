"""Random 128-bit ids for results and audit records, without a system call each.

``uuid.uuid4()`` reads ``os.urandom`` on every call; on some virtual machines
that costs about 100 µs, a sixth of a whole validation. Ids only need to be
unique, not secret (API keys use :mod:`secrets`), so they come from a
Mersenne Twister seeded once per process with 256 bits from ``os.urandom``,
re-seeded in a forked child so that two processes never share a sequence.
"""

from __future__ import annotations

import os
import random

_rng = random.Random(os.urandom(32))


def _reseed() -> None:
    _rng.seed(os.urandom(32))


os.register_at_fork(after_in_child=_reseed)


def new_id() -> str:
    """32 lowercase hex digits, like ``uuid.uuid4().hex`` (version bits aside)."""
    return f"{_rng.getrandbits(128):032x}"
