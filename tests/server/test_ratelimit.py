"""The in-memory rate limiter against the reference: ``limits``' sliding-window counter.

``RateLimiter`` keeps its in-process counters itself (``LocalCounters``: ``limits``'
``MemoryStorage`` restarts an expiry timer thread every 10 ms under load). The decisions must
stay those of ``limits``, so both run the same random sequences of hits on one clock.
"""

from __future__ import annotations

import math
import random
import time

import pytest
from limits import parse, storage, strategies

from receiptgate.server.ratelimit import RateLimiter


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("rate", ["3/minute", "5/second", "10/10 seconds", "2/hour"])
@pytest.mark.parametrize("seed", range(6))
def test_decisions_and_retry_times_equal_limits_sliding_window(
    rate: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    monkeypatch.setattr(time, "time", clock)
    ours = RateLimiter(rate)
    item = parse(rate)
    reference_storage = storage.MemoryStorage()
    reference = strategies.SlidingWindowCounterRateLimiter(reference_storage)
    rng = random.Random(seed)
    window = item.get_expiry()
    refused = 0
    for _ in range(400):
        clock.now += rng.choice([0.0] * 8 + [window / 50, window / 7, window / 2, window * 1.3])
        identity = rng.choice(["k1:-", "k1:alice", "k2:-"])
        decision = ours.hit(identity)
        expected = reference.hit(item, "validate", identity)
        assert decision.allowed == expected, (clock.now, identity)
        if not expected:
            refused += 1
            stats = reference.get_window_stats(item, "validate", identity)
            assert decision.retry_after == max(1, math.ceil(stats.reset_time - clock.now))
    reference_storage.timer.cancel()
    assert refused > 0  # the sequences do reach the limit


def test_off_never_refuses_and_a_bad_rate_names_the_setting() -> None:
    off = RateLimiter("off")
    assert all(off.hit("k:-").allowed for _ in range(1000))
    from receiptgate import ConfigError

    with pytest.raises(ConfigError, match="RECEIPTGATE_HOOK_RATE_LIMIT: 'lots'"):
        RateLimiter("lots", setting="RECEIPTGATE_HOOK_RATE_LIMIT")
