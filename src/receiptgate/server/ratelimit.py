"""Per key and user rate limits (PRD: 3 validations per minute per user).

Counted with the ``limits`` library's sliding-window counter: O(1) per hit, in
process memory for one instance, or in Redis so that every instance sharing the
Redis server counts against the same budget. If the limiter's storage fails
(Redis down), the request is refused with 503 rather than let through
unmetered.
"""

from __future__ import annotations

import math
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
        if redis_url is not None:
            try:
                shared = storage.storage_from_string(redis_url)
            except Exception as e:
                raise ConfigError(f"RECEIPTGATE_REDIS_URL: {e}") from e
            if not isinstance(shared, storage.Storage):
                raise ConfigError(f"RECEIPTGATE_REDIS_URL: {redis_url!r} is not a Redis URL")
            self._storage: storage.Storage = shared
        else:
            self._storage = storage.MemoryStorage()
        self._limiter = strategies.SlidingWindowCounterRateLimiter(self._storage)

    def hit(self, identity: str) -> Decision:
        """Counts one validation for ``identity`` and says whether it may run."""
        if self.item is None:
            return Decision(True, 0, 0, 0)
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
        try:
            return bool(self._storage.check())
        except Exception:
            return False
