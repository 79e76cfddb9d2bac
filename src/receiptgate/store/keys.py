"""API keys: creating, verifying (through a short-lived cache), listing and revoking them."""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
import uuid
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError

from receiptgate._exceptions import InputError, StoreError
from receiptgate.store.base import StoreBase, _now
from receiptgate.store.records import KEY_SCOPES, ApiKey
from receiptgate.store.schema import api_keys

_KEY_CACHE_MAX = 4096


class KeysMixin(StoreBase):
    """The API-key methods of :class:`~receiptgate.store.store.Store`."""

    _key_cache_ttl: float
    _key_cache: dict[str, tuple[ApiKey, float]]
    _key_cache_lock: threading.Lock

    def create_key(self, scope: str, name: str | None = None) -> tuple[str, ApiKey]:
        """Creates an API key and returns its plaintext (shown once) and its record.

        Only the key's SHA-256 is stored: the key is 256 random bits, so a fast
        hash cannot be brute-forced and a slow one would only slow every request.

        Raises:
            InputError: when ``scope`` is not ``validate`` or ``admin``.
        """
        if scope not in KEY_SCOPES:
            raise InputError(f"scope: must be one of {', '.join(KEY_SCOPES)} (got {scope!r})")
        plaintext = "rg_" + secrets.token_urlsafe(32)
        key_hash = hashlib.sha256(plaintext.encode()).hexdigest()
        for _ in range(3):  # an 8-hex-digit id may collide, once in billions
            key = ApiKey(id=uuid.uuid4().hex[:8], name=name, scope=scope, created_at=_now())
            try:
                with self._tx("creating an API key", write=True) as conn:
                    conn.execute(
                        api_keys.insert().values(
                            id=key.id,
                            key_hash=key_hash,
                            name=name,
                            scope=scope,
                            created_at=key.created_at,
                        )
                    )
            except StoreError as e:
                if not isinstance(e.__cause__, IntegrityError):
                    raise
                continue
            return plaintext, key
        raise StoreError(f"creating an API key failed on {self.url}: no free id")

    def verify_key(self, plaintext: str) -> ApiKey | None:
        """The key's record, or ``None`` when it is unknown or revoked.

        The lookup is by the key's hash, so its timing says nothing about the
        plaintext. Valid keys are cached for ``key_cache_ttl`` seconds: a
        revocation made by another process takes effect within that time (one
        made through this store, at once).
        """
        key_hash = hashlib.sha256(plaintext.encode()).hexdigest()
        now = time.monotonic()
        with self._key_cache_lock:
            cached = self._key_cache.get(key_hash)
        if cached is not None and cached[1] > now:
            return cached[0]
        with self._tx("verifying an API key") as conn:
            row = conn.execute(
                sa.select(api_keys).where(
                    api_keys.c.key_hash == key_hash, api_keys.c.revoked_at.is_(None)
                )
            ).first()
        with self._key_cache_lock:
            if row is None:
                self._key_cache.pop(key_hash, None)
                return None
            if len(self._key_cache) >= _KEY_CACHE_MAX:
                self._key_cache.clear()
            key = self._key(row)
            self._key_cache[key_hash] = (key, now + self._key_cache_ttl)
        return key

    def list_keys(self) -> list[ApiKey]:
        """Every key, revoked ones included, oldest first."""
        with self._tx("listing API keys") as conn:
            rows = conn.execute(
                sa.select(api_keys).order_by(api_keys.c.created_at, api_keys.c.id)
            ).all()
        return [self._key(r) for r in rows]

    def revoke_key(self, key_id: str) -> bool:
        """Revokes a key; ``True`` when the key exists (revoked now or before)."""
        with self._tx(f"revoking API key {key_id}", write=True) as conn:
            conn.execute(
                api_keys.update()
                .where(api_keys.c.id == key_id, api_keys.c.revoked_at.is_(None))
                .values(revoked_at=_now())
            )
            exists = conn.execute(sa.select(api_keys.c.id).where(api_keys.c.id == key_id)).first()
        with self._key_cache_lock:
            for key_hash, (key, _) in list(self._key_cache.items()):
                if key.id == key_id:
                    del self._key_cache[key_hash]
        return exists is not None

    @staticmethod
    def _key(row: Row[Any]) -> ApiKey:
        return ApiKey(
            id=row.id,
            name=row.name,
            scope=row.scope,
            created_at=row.created_at,
            revoked_at=row.revoked_at,
        )
