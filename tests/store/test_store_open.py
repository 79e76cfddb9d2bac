"""Opening a store: default location, URLs and their errors, migrations."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from platformdirs import user_data_dir

from receiptgate import ConfigError, StoreError
from receiptgate.store import AuditFilter, default_data_dir, open_store
from receiptgate.store.connect import _alembic_config
from receiptgate.store.schema import metadata

#: The newest schema revision the code ships (read from the migrations, not hard-coded).
HEAD = ScriptDirectory.from_config(_alembic_config()).get_current_head()

ROOT = Path(__file__).resolve().parents[2]


def _engine(url: str) -> sa.Engine:
    return sa.create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))


def _revisions(url: str) -> list[str]:
    engine = _engine(url)
    try:
        with engine.connect() as conn:
            return [r[0] for r in conn.execute(sa.text("SELECT version_num FROM alembic_version"))]
    finally:
        engine.dispose()


def test_when_no_data_dir_is_set_then_the_platform_user_data_dir_is_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("RECEIPTGATE_DATA_DIR", raising=False)
    assert default_data_dir() == Path(user_data_dir("receiptgate", appauthor=False))
    monkeypatch.setenv("RECEIPTGATE_DATA_DIR", str(tmp_path / "rg"))
    assert default_data_dir() == tmp_path / "rg"


def test_when_no_url_is_given_then_a_wal_sqlite_file_is_made_in_the_data_dir(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("RECEIPTGATE_DATA_DIR", str(tmp_path / "from-env"))
    with open_store() as store:
        assert store.dialect == "sqlite"
        assert store.url == f"sqlite:///{tmp_path / 'from-env' / 'receiptgate.db'}"
    data_dir = tmp_path / "a" / "b"
    with open_store(data_dir=data_dir, sqlite_synchronous="full") as store:
        assert (data_dir / "receiptgate.db").is_file()
        with store._engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
            assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == 5000
            assert conn.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    with open_store(data_dir=data_dir) as store, store._engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 1  # NORMAL


def test_when_a_database_is_opened_twice_then_migrating_again_changes_nothing(
    db_url: str,
) -> None:
    with open_store(db_url) as store:
        store.put_fact("ops", {"id": "f1"})
    with open_store(db_url) as store:
        assert store.facts_version() == 1
        assert [f.fact_id for f in store.list_facts()] == ["f1"]
    with open_store(db_url, migrate=False) as store:
        assert store.count(AuditFilter()) == 0
    assert _revisions(db_url) == [HEAD]


def test_when_the_schema_is_missing_and_migrate_is_off_then_a_store_error_says_so(
    db_url: str,
) -> None:
    with pytest.raises(StoreError, match=rf"revision none, not {HEAD}.*migrate=True"):
        open_store(db_url, migrate=False)


def test_when_the_database_is_from_a_newer_version_then_a_store_error_names_the_revision(
    db_url: str,
) -> None:
    open_store(db_url).close()
    engine = _engine(db_url)
    try:
        with engine.begin() as conn:
            conn.execute(sa.text("UPDATE alembic_version SET version_num = '9999'"))
    finally:
        engine.dispose()
    with pytest.raises(StoreError, match=r"cannot migrate database .*'9999'"):
        open_store(db_url)
    with pytest.raises(StoreError, match=rf"revision 9999, not {HEAD}"):
        open_store(db_url, migrate=False)


def test_when_migrated_then_the_schema_is_exactly_the_declared_tables(db_url: str) -> None:
    open_store(db_url).close()
    engine = _engine(db_url)
    try:
        with engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), metadata)
    finally:
        engine.dispose()
    assert diff == []


_OPEN_AT = """
import sys, time
from receiptgate.store import open_store
start = float(sys.argv[2])
while time.time() < start:
    time.sleep(0.001)
store = open_store(sys.argv[1])
store.put_fact("ops", {"id": sys.argv[3]})
store.close()
"""


def test_when_several_processes_open_a_new_database_at_once_then_all_succeed(
    db_url: str,
) -> None:
    start = time.time() + 2.0  # all interpreters are up by then
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", _OPEN_AT, db_url, str(start), f"f{i}"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(4)
    ]
    outcomes = [(p.wait(timeout=60), p.stderr.read() if p.stderr else "") for p in procs]
    for p in procs:
        for stream in (p.stdout, p.stderr):
            if stream:
                stream.close()
    assert [code for code, _ in outcomes] == [0, 0, 0, 0], outcomes
    assert _revisions(db_url) == [HEAD]
    with open_store(db_url) as store:
        assert sorted(f.fact_id for f in store.list_facts()) == ["f0", "f1", "f2", "f3"]
        assert store.facts_version() == 4


@pytest.mark.parametrize(
    ("url", "shown", "problem"),
    [
        (
            "postgresql://rg:s3cret@db.example:notaport/rg",
            "postgresql://rg:***@db.example:notaport/rg",
            "malformed",
        ),
        ("not a url", "not a url", "malformed"),
        ("mysql://rg:s3cret@db.example/rg", "mysql://rg:***@db.example/rg", "unsupported"),
        ("sqlite://", "sqlite://", "in-memory"),
        ("sqlite:///:memory:", "sqlite:///:memory:", "in-memory"),
        (
            "postgresql://db.example/rg?password=s3cret&sslmode=require",
            "postgresql://db.example/rg?password=***&sslmode=require",
            None,
        ),
    ],
)
def test_when_a_url_is_bad_then_a_config_error_names_it_with_the_password_masked(
    url: str, shown: str, problem: str | None
) -> None:
    if problem is None:  # a good URL: only its masking is checked, offline
        from receiptgate.store.connect import mask_url

        assert mask_url(url) == shown
        return
    with pytest.raises(ConfigError) as info:
        open_store(url)
    message = str(info.value)
    assert repr(shown) in message
    assert problem in message
    assert "s3cret" not in message


def test_when_the_database_is_unreachable_then_a_store_error_names_it_masked() -> None:
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    started = time.monotonic()
    with pytest.raises(StoreError) as info:
        open_store(f"postgresql://rg:s3cret@127.0.0.1:{port}/rg")
    assert time.monotonic() - started < 15
    message = str(info.value)
    assert f"postgresql://rg:***@127.0.0.1:{port}/rg" in message
    assert "s3cret" not in message


def test_when_a_sqlite_file_cannot_be_created_then_a_store_error_names_it(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'missing-dir' / 'rg.db'}"
    with pytest.raises(StoreError, match="missing-dir"):
        open_store(url)


def test_when_the_synchronous_pragma_is_unknown_then_a_config_error_names_it(
    tmp_path: Path,
) -> None:
    with pytest.raises(ConfigError, match=r"^sqlite_synchronous: .*'SOMETIMES'"):
        open_store(data_dir=tmp_path, sqlite_synchronous="SOMETIMES")


def test_when_installed_from_the_wheel_then_the_packaged_migrations_run(
    tmp_path: Path,
) -> None:
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path / "dist"), str(ROOT)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (wheel,) = (tmp_path / "dist").glob("receiptgate-*.whl")
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    code = (
        "import receiptgate, sys; from receiptgate.store import open_store; "
        "s = open_store(sys.argv[1]); print(receiptgate.__file__); s.close()"
    )
    env = {**os.environ, "PYTHONPATH": str(site)}
    ran = subprocess.run(
        [sys.executable, "-c", code, f"sqlite:///{tmp_path / 'rg.db'}"],
        capture_output=True, text=True, env=env, cwd=tmp_path, check=False,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.strip().startswith(str(site))
    assert _revisions(f"sqlite:///{tmp_path / 'rg.db'}") == [HEAD]
