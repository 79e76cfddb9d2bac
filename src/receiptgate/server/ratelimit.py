"""Per key and user rate limits (PRD: 3 validations per minute per user).

Counted with the ``limits`` library's sliding-window counter: O(1) per hit, in
process memory for one instance, or in Redis so that every instance sharing the
Redis server counts against the same budget. If the limiter's storage fails
(Redis down), the request is refused with 503 rather than let through
unmetered.

In process memory the counters are :class:`LocalCounters`, the same
arithmetic as ``limits``' ``MemoryStorage`` without its expiry timer thread,
which was restarted every 10 ms under load (a thread start per few requests).
"""

from __future__ import annotations

import math
import threading
import time
from dataclasses import dataclass

from limits import RateLimitItem, parse, storage, strategies

from receiptgate._exceptions import ConfigError, RuntimeFailure


class RateLimiterUnavailable(RuntimeFailure):
    """The shared counter store could not be reached."""


@dataclass(frozen=True, slots=True)
class Decision:
    allowed: bool
    limit: int
    remaining: int
    retry_after: int


class LocalCounters:
    """Sliding-window counters in process memory, for one rate.

    The arithmetic of ``limits``' ``SlidingWindowCounterRateLimiter`` on its
    ``MemoryStorage`` (a window's counter lives two windows; the previous
    window's count is weighted by the part of it still inside the sliding
    window). Expired counters are read as zero and swept inline once a window,
    so no timer thread runs.
    """

    def __init__(self, item: RateLimitItem) -> None:
        self.item = item
        self.limit = item.amount
        self.expiry = item.get_expiry()
        self._lock = threading.Lock()
        #: counter key -> (count, expires at)
        self._counts: dict[str, tuple[int, float]] = {}
        self._next_sweep = time.time() + self.expiry

    def _count(self, key: str, now: float) -> int:
        entry = self._counts.get(key)
        if entry is None:
            return 0
        if entry[1] <= now:
            del self._counts[key]
            return 0
        return entry[0]

    def _window(self, key: str, now: float) -> tuple[int, float, int, float]:
        expiry = self.expiry
        previous = self._count(f"{key}/{int((now - expiry) / expiry)}", now)
        current = self._count(f"{key}/{int(now / expiry)}", now)
        previous_ttl = 0.0 if previous == 0 else (1 - (((now - expiry) / expiry) % 1)) * expiry
        current_ttl = (1 - ((now / expiry) % 1)) * expiry + expiry
        return previous, previous_ttl, current, current_ttl

    def hit(self, key: str) -> bool:
        """Counts one hit for ``key`` unless that would pass the limit."""
        now = time.time()
        expiry = self.expiry
        with self._lock:
            if now >= self._next_sweep:
                self._sweep(now)
            previous, previous_ttl, current, _ = self._window(key, now)
            if math.floor(previous * previous_ttl / expiry + current) + 1 > self.limit:
                return False
            current_key = f"{key}/{int(now / expiry)}"
            if current:
                self._counts[current_key] = (current + 1, self._counts[current_key][1])
            else:
                self._counts[current_key] = (1, now + 2 * expiry)
            return True

    def reset_time(self, key: str) -> float:
        """When the next hit for ``key`` may be allowed (``limits``' ``WindowStats.reset_time``)."""
        now = time.time()
        with self._lock:
            previous, previous_ttl, current, current_ttl = self._window(key, now)
        if not (previous or current):
            return now
        expiry = self.expiry
        previous_reset_in = previous_ttl % (expiry / previous) if previous else math.inf
        current_reset_in = current_ttl % expiry if current else math.inf
        return now + min(previous_reset_in, current_reset_in)

    def _sweep(self, now: float) -> None:
        self._counts = {k: v for k, v in self._counts.items() if v[1] > now}
        self._next_sweep = now + self.expiry


class RateLimiter:
    """Counts validations per identity (``key id`` + ``user id``).

    Args:
        rate: a ``limits`` rate string such as ``3/minute`` or ``500/second``;
            ``off`` disables limiting.
        redis_url: share the counters through this Redis server.
        namespace: keeps these counters apart from another limiter's.
        setting: the variable errors name.
    """

    def __init__(
        self,
        rate: str,
        redis_url: str | None = None,
        *,
        namespace: str = "validate",
        setting: str = "RECEIPTGATE_RATE_LIMIT",
    ) -> None:
        self.rate = rate
        self.namespace = namespace
        self.item: RateLimitItem | None = None
        if rate.strip().lower() != "off":
            try:
                self.item = parse(rate)
            except ValueError as e:
                raise ConfigError(
                    f"{setting}: {rate!r} is not a rate like '3/minute' ({e})"
                ) from None
        self.shared = redis_url is not None
        self._local: LocalCounters | None = None
        self._storage: storage.Storage | None = None
        self._limiter: strategies.SlidingWindowCounterRateLimiter | None = None
        if redis_url is not None:
            try:
                shared = storage.storage_from_string(redis_url)
            except Exception as e:
                raise ConfigError(f"RECEIPTGATE_REDIS_URL: {e}") from e
            if not isinstance(shared, storage.Storage):
                raise ConfigError(f"RECEIPTGATE_REDIS_URL: {redis_url!r} is not a Redis URL")
            self._storage = shared
            self._limiter = strategies.SlidingWindowCounterRateLimiter(shared)
        elif self.item is not None:
            self._local = LocalCounters(self.item)

    def hit(self, identity: str) -> Decision:
        """Counts one validation for ``identity`` and says whether it may run."""
        if self.item is None:
            return Decision(True, 0, 0, 0)
        local = self._local
        if local is not None:
            key = self.item.key_for(self.namespace, identity)
            if local.hit(key):
                return Decision(True, self.item.amount, -1, 0)
            retry = max(1, math.ceil(local.reset_time(key) - time.time()))
            return Decision(False, self.item.amount, 0, retry)
        assert self._limiter is not None  # shared: set up with the Redis storage
        try:
            allowed = self._limiter.hit(self.item, self.namespace, identity)
            if allowed:
                return Decision(True, self.item.amount, -1, 0)
            stats = self._limiter.get_window_stats(self.item, self.namespace, identity)
        except Exception as e:
            raise RateLimiterUnavailable(f"rate limiter storage unavailable: {e}") from e
        retry = max(1, math.ceil(stats.reset_time - time.time()))
        return Decision(False, self.item.amount, stats.remaining, retry)

    def healthy(self) -> bool:
        if self._storage is None:  # in process memory
            return True
        try:
            return bool(self._storage.check())
        except Exception:
            return False
