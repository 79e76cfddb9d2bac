"""API keys: created once in plaintext, stored as a hash, verified, revoked."""

from __future__ import annotations

import hashlib
import time

import pytest
from store_helpers import raw_dump

from receiptgate import InputError
from receiptgate.store import Store, open_store


def test_when_a_key_is_created_then_only_its_hash_is_stored_and_it_verifies(
    store: Store,
) -> None:
    plaintext, key = store.create_key("validate", name="agent fleet")
    assert plaintext.startswith("rg_")
    assert len(plaintext) == 3 + 43  # 32 random bytes, urlsafe base64
    assert len(key.id) == 8
    assert (key.name, key.scope, key.revoked_at) == ("agent fleet", "validate", None)
    assert store.verify_key(plaintext) == key
    dump = raw_dump(store.url)
    assert plaintext not in dump
    assert plaintext[3:] not in dump
    assert hashlib.sha256(plaintext.encode()).hexdigest() in dump
    assert store.verify_key("rg_" + "x" * 43) is None
    assert store.verify_key("") is None


def test_when_keys_are_listed_then_every_key_shows_in_creation_order_without_secrets(
    store: Store,
) -> None:
    _, admin = store.create_key("admin")
    _, worker = store.create_key("validate", name="worker")
    assert store.revoke_key(admin.id) is True
    listed = store.list_keys()
    assert [k.id for k in listed] == [admin.id, worker.id]
    assert listed[0].revoked_at is not None
    assert listed[1].revoked_at is None
    assert listed[0].to_dict().keys() == {"id", "name", "scope", "created_at", "revoked_at"}


def test_when_a_key_is_revoked_then_it_stops_verifying_at_once(store: Store) -> None:
    plaintext, key = store.create_key("admin")
    assert store.verify_key(plaintext) == key  # now cached
    assert store.revoke_key(key.id) is True
    assert store.verify_key(plaintext) is None
    assert store.revoke_key(key.id) is True  # still exists, still revoked
    assert store.revoke_key("nope1234") is False


def test_when_another_instance_revokes_a_key_then_this_one_sees_it_within_the_ttl(
    db_url: str,
) -> None:
    with open_store(db_url) as a, open_store(db_url, key_cache_ttl=0.3) as b:
        plaintext, key = a.create_key("validate")
        assert b.verify_key(plaintext) == key
        assert a.revoke_key(key.id) is True
        assert a.verify_key(plaintext) is None
        time.sleep(0.35)
        assert b.verify_key(plaintext) is None


def test_when_the_scope_is_unknown_then_an_input_error_names_it(store: Store) -> None:
    with pytest.raises(InputError, match=r"^scope: .*'root'"):
        store.create_key("root")
    assert store.list_keys() == []
