"""Opening a store: URLs, engines, SQLite pragmas, migrations under a lock.

SQLite (the default, one file in the data directory) runs in WAL mode so that
readers never wait for the writer; writes take the lock up front
(``BEGIN IMMEDIATE``) so that two writers queue on ``busy_timeout`` instead of
failing on a lock upgrade. PostgreSQL is reached through psycopg 3.

Several processes may open one database at the same moment; each migrates
inside one transaction holding a lock (a PostgreSQL advisory lock, SQLite's
write lock), so the second finds the schema complete and does nothing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from platformdirs import user_data_dir
from sqlalchemy import event
from sqlalchemy.engine import URL, Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from receiptgate._exceptions import ConfigError, StoreError
from receiptgate.store.store import WRITE_OPTION, Store, error_detail
from receiptgate.store.writes import _WriterLock

DB_FILENAME = "receiptgate.db"
SQLITE_BUSY_TIMEOUT_MS = 5000
SQLITE_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")

_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
# "rcptgate" in ASCII: the advisory lock every opener takes around its upgrade.
_PG_MIGRATION_LOCK = 0x7263_7074_6761_7465
# The userinfo split SQLAlchemy's own URL parser makes: the password ends at the first "@".
_PASSWORD_IN_URL = re.compile(r"^([\w+]+://[^:/]*:)[^@]*@")
_PASSWORD_PARAM = re.compile(r"([?&]password=)[^&]*", re.IGNORECASE)


def default_data_dir() -> Path:
    """The directory of the default SQLite database.

    ``RECEIPTGATE_DATA_DIR`` when set, else the platform's per-user data
    directory (``~/.local/share/receiptgate`` on Linux).
    """
    env = os.environ.get("RECEIPTGATE_DATA_DIR")
    if env:
        return Path(env).expanduser()
    return Path(user_data_dir("receiptgate", appauthor=False))


def mask_url(url: str) -> str:
    """Returns ``url`` as written, its password (also a ``password=`` parameter) as ``***``."""
    return _PASSWORD_PARAM.sub(r"\1***", _PASSWORD_IN_URL.sub(r"\1***@", url))


def _parse(url: str | None, data_dir: Path | str | None) -> tuple[URL, str]:
    """Returns the driver URL and the URL to show (password masked).

    Raises:
        ConfigError: for a malformed URL, an unsupported database or driver,
            or an in-memory SQLite database (each pooled connection would get
            its own empty one).
        StoreError: when the data directory cannot be created.
    """
    if url is None:
        directory = Path(data_dir).expanduser() if data_dir is not None else default_data_dir()
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"cannot create the data directory {directory}: {e}") from e
        path = directory.resolve() / DB_FILENAME
        return URL.create("sqlite", database=str(path)), f"sqlite:///{path}"
    shown = mask_url(url)
    try:
        parsed = make_url(url)
    except (ArgumentError, ValueError) as e:
        raise ConfigError(f"database URL {shown!r} is malformed: {e}") from e
    backend, _, _ = parsed.drivername.partition("+")
    if backend in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    elif parsed.drivername in ("sqlite", "sqlite+pysqlite"):
        if parsed.database in (None, "", ":memory:"):
            raise ConfigError(
                f"database URL {shown!r}: in-memory SQLite is not supported, give a file path"
            )
    else:
        raise ConfigError(
            f"database URL {shown!r}: unsupported database {parsed.drivername!r}; "
            "use sqlite:///PATH or postgresql://USER:PASSWORD@HOST/DB"
        )
    return parsed, shown


def _sqlite_engine(url: URL, synchronous: str) -> Engine:
    engine = sa.create_engine(
        url,
        connect_args={"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
        pool_size=8,
        max_overflow=24,
    )

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver's own transaction handling skips BEGIN for DDL and SELECT;
        # SQLAlchemy emits BEGIN instead (see _on_begin).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute(f"PRAGMA synchronous = {synchronous}")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


def _alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(_MIGRATIONS))
    cfg.set_main_option("path_separator", "os")
    return cfg


def _migrate(engine: Engine) -> None:
    cfg = _alembic_config()
    with engine.connect() as conn:
        conn.execution_options(**{WRITE_OPTION: True})
        with conn.begin():
            if engine.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(:k)"), {"k": _PG_MIGRATION_LOCK})
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")


def _check_schema(engine: Engine, shown: str) -> None:
    head = ScriptDirectory.from_config(_alembic_config()).get_current_head()
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    if current != head:
        raise StoreError(
            f"database {shown} is at schema revision {current or 'none'}, not {head}: "
            "open it with migrate=True (the default) to upgrade it"
        )


def open_store(
    url: str | None = None,
    *,
    data_dir: Path | str | None = None,
    migrate: bool = True,
    sqlite_synchronous: str = "NORMAL",
    key_cache_ttl: float = 5.0,
) -> Store:
    """Opens (and by default migrates) the store.

    Args:
        url: ``None`` for the SQLite file ``<data_dir>/receiptgate.db``;
            ``sqlite:///PATH``; or ``postgresql://USER:PASSWORD@HOST:PORT/DB``
            (psycopg 3 whatever driver the URL names).
        data_dir: where the default SQLite file lives (created if missing);
            default :func:`default_data_dir`.
        migrate: upgrade the schema to the newest revision (safe when several
            processes open the database at once). With ``False`` the schema must
            already be current.
        sqlite_synchronous: SQLite's ``synchronous`` pragma. ``NORMAL`` loses no
            committed record when the process is killed, but a power loss may
            lose the last transactions; ``FULL`` syncs every commit.
        key_cache_ttl: seconds a verified API key stays cached in this process
            (revocation by another process is seen within that time).

    Raises:
        ConfigError: for a malformed or unsupported URL or pragma value.
        StoreError: when the database cannot be reached, created or migrated.
    """
    synchronous = sqlite_synchronous.upper()
    if synchronous not in SQLITE_SYNCHRONOUS:
        raise ConfigError(
            f"sqlite_synchronous: must be one of {', '.join(SQLITE_SYNCHRONOUS)} "
            f"(got {sqlite_synchronous!r})"
        )
    parsed, shown = _parse(url, data_dir)
    write_lock: Path | None = None
    if parsed.get_backend_name() == "sqlite":
        engine = _sqlite_engine(parsed, synchronous)
        if parsed.database:
            write_lock = Path(parsed.database + ".writelock")
    else:
        engine = sa.create_engine(parsed, pool_pre_ping=True, connect_args={"connect_timeout": 10})
    try:
        if migrate:
            # SQLite: queue on the writers' lock file like every other write, so
            # that processes opening a new database together wait their turn
            # instead of running out of busy_timeout behind a long migration.
            lock = _WriterLock(write_lock)
            try:
                with lock.held(True):
                    _migrate(engine)
            finally:
                lock.close()
        else:
            _check_schema(engine, shown)
    except SQLAlchemyError as e:
        engine.dispose()
        detail = error_detail(e, secret=parsed.password)
        raise StoreError(f"cannot open database {shown}: {detail}") from e
    except CommandError as e:  # e.g. a revision from a newer receiptgate
        engine.dispose()
        raise StoreError(f"cannot migrate database {shown}: {e}") from e
    except BaseException:
        engine.dispose()
        raise
    store = Store(engine, url=shown, key_cache_ttl=key_cache_ttl, write_lock=write_lock)
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        store.remember_file(Path(parsed.database))
    return store
