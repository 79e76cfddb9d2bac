"""API keys with scopes: who may validate, who may administer.

Keys come from three places, checked in this order: ``RECEIPTGATE_API_KEYS``
(plaintext in the environment, hashed at start), a keys file holding SHA-256
hashes only, and the store (``receiptgate keys create``). Only hashes are kept
in memory or on disk. ``admin`` includes ``validate``. Agents get ``validate``
keys: they can never write facts.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from receiptgate._exceptions import ConfigError
from receiptgate.config import read_structured_file

Scope = Literal["validate", "admin"]
SCOPES: tuple[Scope, ...] = ("validate", "admin")


@dataclass(frozen=True, slots=True)
class Principal:
    """The caller behind a valid key."""

    key_id: str
    name: str | None
    scope: Scope

    def allows(self, scope: Scope) -> bool:
        return self.scope == "admin" or self.scope == scope


def hash_key(plaintext: str) -> str:
    """SHA-256 hex of a key: keys are 256-bit random, so a fast hash suffices."""
    return hashlib.sha256(plaintext.encode("utf-8")).hexdigest()


def load_keys_file(path: Path) -> dict[str, Principal]:
    """Reads ``[{name, scope, sha256}]`` (YAML or JSON); errors name the file and entry."""
    doc = read_structured_file(path)
    entries = doc.get("keys") if isinstance(doc, dict) else doc
    if not isinstance(entries, list):
        raise ConfigError(f"{path}: expected a list of keys (or {{keys: [...]}})")
    out: dict[str, Principal] = {}
    for i, entry in enumerate(entries):
        where = f"{path}: keys[{i}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{where}: must be an object with name, scope and sha256")
        unknown = set(entry) - {"name", "scope", "sha256"}
        if unknown:
            raise ConfigError(f"{where}.{sorted(unknown)[0]}: unknown field")
        scope = entry.get("scope")
        if scope not in SCOPES:
            raise ConfigError(f"{where}.scope: must be 'validate' or 'admin' (got {scope!r})")
        digest = entry.get("sha256")
        if not isinstance(digest, str) or len(digest) != 64:
            raise ConfigError(
                f"{where}.sha256: must be the 64-hex-digit SHA-256 of the key "
                "(receiptgate keys hash KEY prints it)"
            )
        name = entry.get("name")
        out[digest.lower()] = Principal(f"file:{i}", str(name) if name else None, scope)
    return out
