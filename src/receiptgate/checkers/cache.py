"""The judge's answer cache: keyed by text + evidence signature, with a TTL.

A key is the SHA-256 of everything that decides an answer (prompt version,
model, the messages: the text, the facts and the receipts sent). Three
back-ends behind one small interface:

* SQLite (default): one file, stdlib ``sqlite3``, shared by processes; expired
  rows are ignored on read and purged on write;
* Redis (``cacheUrl: redis://…``): ``SET`` with an expiry, for several instances; needs the
  ``redis`` package (in ``receiptgate[server]``);
* memory (``cacheUrl: memory:``): per process, for tests and short scripts.

A cache failure never fails a validation: the judge logs it and asks the model.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

from receiptgate._exceptions import ConfigError

logger = logging.getLogger("receiptgate.judge")

Clock = Callable[[], float]


class JudgeCache(Protocol):
    """Where judge answers are kept between validations."""

    #: ``sqlite``, ``redis`` or ``memory``.
    backend: str

    def get(self, key: str) -> dict[str, Any] | None: ...

    def put(self, key: str, value: dict[str, Any], ttl_seconds: int) -> None: ...

    def close(self) -> None: ...


def cache_key(*parts: Any) -> str:
    """SHA-256 of the JSON of ``parts`` (the text + evidence signature)."""
    blob = json.dumps(parts, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class MemoryCache:
    """A per-process dict with expiry times."""

    backend = "memory"

    def __init__(self, *, clock: Clock = time.time) -> None:
        self._clock = clock
        self._data: dict[str, tuple[float, dict[str, Any]]] = {}
        self._lock = threading.Lock()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            item = self._data.get(key)
            if item is None:
                return None
            if item[0] <= self._clock():
                del self._data[key]
                return None
            return item[1]

    def put(self, key: str, value: dict[str, Any], ttl_seconds: int) -> None:
        with self._lock:
            self._data[key] = (self._clock() + ttl_seconds, value)

    def close(self) -> None:
        with self._lock:
            self._data.clear()


class SqliteCache:
    """One SQLite file: ``judge_cache(key, value, expires_at)``."""

    backend = "sqlite"

    def __init__(self, path: Path, *, clock: Clock = time.time) -> None:
        self.path = path
        self._clock = clock
        self._lock = threading.Lock()
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(path), timeout=5.0, check_same_thread=False, isolation_level=None
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS judge_cache ("
                "key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at REAL NOT NULL)"
            )
        except (OSError, sqlite3.Error) as e:
            raise ConfigError(f"llmValidator.cacheUrl: cannot open the cache {path}: {e}") from e

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT value, expires_at FROM judge_cache WHERE key = ?", (key,)
            ).fetchone()
        if row is None or row[1] <= self._clock():
            return None
        value = json.loads(row[0])
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any], ttl_seconds: int) -> None:
        now = self._clock()
        blob = json.dumps(value, ensure_ascii=False)
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO judge_cache (key, value, expires_at) VALUES (?, ?, ?)",
                (key, blob, now + ttl_seconds),
            )
            self._db.execute("DELETE FROM judge_cache WHERE expires_at <= ?", (now,))

    def close(self) -> None:
        with self._lock:
            self._db.close()


class RedisCache:
    """Redis ``SET … EX ttl`` under ``receiptgate:judge:<key>``."""

    backend = "redis"
    prefix = "receiptgate:judge:"

    def __init__(self, url: str) -> None:
        try:
            import redis
        except ImportError:
            raise ConfigError(
                "llmValidator.cacheUrl: a redis:// cache needs the redis package "
                "(pip install 'receiptgate[server]' or pip install redis)"
            ) from None
        try:
            self._redis = redis.Redis.from_url(url, socket_timeout=1.0, socket_connect_timeout=1.0)
        except ValueError as e:
            raise ConfigError(f"llmValidator.cacheUrl: {e}") from e

    def get(self, key: str) -> dict[str, Any] | None:
        raw = self._redis.get(self.prefix + key)
        if raw is None:
            return None
        value = json.loads(raw if isinstance(raw, str | bytes) else str(raw))
        return value if isinstance(value, dict) else None

    def put(self, key: str, value: dict[str, Any], ttl_seconds: int) -> None:
        self._redis.set(self.prefix + key, json.dumps(value, ensure_ascii=False), ex=ttl_seconds)

    def close(self) -> None:
        self._redis.close()


def default_cache_path() -> Path:
    """``$XDG_CACHE_HOME/receiptgate/judge-cache.sqlite3`` (``~/.cache`` by default)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "receiptgate" / "judge-cache.sqlite3"


def open_cache(url: str | None, base_dir: Path | None = None) -> JudgeCache:
    """The cache named by ``llmValidator.cacheUrl``.

    ``None`` is the SQLite file of :func:`default_cache_path`; ``memory:`` a
    per-process cache; ``redis://``/``rediss://``/``unix://`` Redis; a plain path or
    ``sqlite:///relative.db`` / ``sqlite:////absolute.db`` a SQLite file (relative
    paths resolve against ``base_dir``, the config file's folder).
    """
    if url is None:
        return SqliteCache(default_cache_path())
    if url in ("memory", "memory:"):
        return MemoryCache()
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisCache(url)
    path_text = url.removeprefix("sqlite:///")  # SQLAlchemy style: sqlite:////abs/path
    if path_text == url and "://" in url:
        raise ConfigError(
            f"llmValidator.cacheUrl: unknown cache {url!r} "
            "(a SQLite path, sqlite:///path, redis://host:port/db or memory:)"
        )
    path = Path(path_text).expanduser()
    if not path.is_absolute() and base_dir is not None:
        path = base_dir / path
    return SqliteCache(path)
