"""``receiptgate serve``, ``receiptgate keys`` and ``receiptgate audit export``.

These need the ``server`` extra; without it they exit 2 saying what to install.
Options become ``RECEIPTGATE_*`` variables, so worker processes started by
uvicorn build the same app (see receiptgate.server.settings).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from receiptgate._exceptions import ReceiptgateError
from receiptgate.cli.errors import BadInput

if TYPE_CHECKING:
    from receiptgate.store import Store

_EXTRA = "the service needs the server extra: pip install 'receiptgate[server]'"


def _require_server_extra() -> None:
    try:
        import fastapi  # noqa: F401
        import sqlalchemy  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError as e:
        raise BadInput(f"{_EXTRA} ({e.name} is missing)") from None


def _open_store(db: str | None, data_dir: str | None) -> Store:
    _require_server_extra()
    from receiptgate.store import open_store

    try:
        return open_store(db, data_dir=Path(data_dir) if data_dir else None)
    except ReceiptgateError as e:
        raise BadInput(str(e)) from None


def _db_options(f: Any) -> Any:
    f = click.option("--db", "db", help="Database URL (default: SQLite file in the data dir).")(f)
    f = click.option("--data-dir", "data_dir", help="Folder of the default SQLite file.")(f)
    return f


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@_db_options
@click.option("--config", "config", help="Gate config (YAML/JSON).")
@click.option("--facts", "facts", multiple=True, help="Fact registry file, repeatable.")
@click.option("--policy", "policy", help="Policy file (YAML).")
@click.option("--rubrics", "rubrics", help="Folder of rubric files a request can name.")
@click.option("--redis", "redis", help="Redis URL: rate limits shared by all instances.")
@click.option(
    "--rate-limit", "rate_limit", help="Validations per key and user, e.g. 3/minute (default)."
)
@click.option(
    "--key-rate-limit",
    "key_rate_limit",
    help="Validations per key, all its users together, e.g. 60/minute (default).",
)
@click.option(
    "--hook-rate-limit",
    "hook_rate_limit",
    help="Hook events (POST /hooks/...) per key, e.g. 6000/minute (default).",
)
@click.option("--store-text", is_flag=True, help="Keep full output text in the audit.")
@click.option(
    "--findings-dir", "findings_dir", help="Trace findings folder for the trace-to-facts bridge."
)
@click.option(
    "--bridge-facts", "bridge_facts", help="Registry file the bridge writes and the gate loads."
)
@click.option(
    "--otel-endpoint",
    "otel_endpoint",
    help="OTLP/HTTP collector (e.g. http://localhost:4318): finished turns are sent as spans.",
)
@click.option(
    "--otel-previews", is_flag=True, help="Add redacted content previews to the exported spans."
)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64))
@click.option(
    "--log-level",
    default="info",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
def serve(
    host: str,
    port: int,
    db: str | None,
    data_dir: str | None,
    config: str | None,
    facts: tuple[str, ...],
    policy: str | None,
    rubrics: str | None,
    redis: str | None,
    rate_limit: str | None,
    key_rate_limit: str | None,
    hook_rate_limit: str | None,
    store_text: bool,
    findings_dir: str | None,
    bridge_facts: str | None,
    otel_endpoint: str | None,
    otel_previews: bool,
    workers: int,
    log_level: str,
) -> None:
    """Run the HTTP service: POST /validate, audit, facts, dashboard at /."""
    _require_server_extra()
    import uvicorn

    from receiptgate.server.app import create_app, tune_process
    from receiptgate.server.settings import ServerSettings

    env = {
        "RECEIPTGATE_DB": db,
        "RECEIPTGATE_DATA_DIR": str(Path(data_dir).resolve()) if data_dir else None,
        "RECEIPTGATE_CONFIG": str(Path(config).resolve()) if config else None,
        "RECEIPTGATE_FACTS": os.pathsep.join(str(Path(f).resolve()) for f in facts) or None,
        "RECEIPTGATE_POLICY": str(Path(policy).resolve()) if policy else None,
        "RECEIPTGATE_RUBRICS": str(Path(rubrics).resolve()) if rubrics else None,
        "RECEIPTGATE_REDIS_URL": redis,
        "RECEIPTGATE_RATE_LIMIT": rate_limit,
        "RECEIPTGATE_KEY_RATE_LIMIT": key_rate_limit,
        "RECEIPTGATE_HOOK_RATE_LIMIT": hook_rate_limit,
        "RECEIPTGATE_STORE_TEXT": "1" if store_text else None,
        "RECEIPTGATE_FINDINGS_DIR": str(Path(findings_dir).resolve()) if findings_dir else None,
        "RECEIPTGATE_BRIDGE_FACTS": str(Path(bridge_facts).resolve()) if bridge_facts else None,
        "RECEIPTGATE_OTEL_ENDPOINT": otel_endpoint,
        "RECEIPTGATE_OTEL_PREVIEWS": "1" if otel_previews else None,
    }
    for name, value in env.items():
        if value is not None:
            os.environ[name] = value
    try:
        settings = ServerSettings.from_env()
        app = create_app(settings)
    except ReceiptgateError as e:
        raise BadInput(str(e)) from None
    service = app.state.service
    if not service.has_keys():
        # First start: without a key nobody could use the service or its dashboard.
        plaintext, key = service.store.create_key("admin", "first-admin")
        click.echo(
            "receiptgate: no API keys yet; created admin key "
            f"{key.id} (shown once, keep it):\n{plaintext}",
            err=True,
        )
    click.echo(
        f"receiptgate: serving on http://{host}:{port} (audit: {service.store.url})", err=True
    )
    tune_process()
    if workers == 1:
        uvicorn.run(app, host=host, port=port, log_level=log_level)
    else:
        service.close()
        uvicorn.run(
            "receiptgate.server.app:serving_app",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level=log_level,
        )


@click.group()
def keys() -> None:
    """Create, list and revoke API keys (stored hashed)."""


@keys.command("create")
@click.option("--scope", required=True, type=click.Choice(["validate", "admin"]))
@click.option("--name", help="A name to recognise the key by in the audit.")
@_db_options
def keys_create(scope: str, name: str | None, db: str | None, data_dir: str | None) -> None:
    """Create a key and print it once on stdout (one line)."""
    store = _open_store(db, data_dir)
    try:
        plaintext, key = store.create_key(scope, name)
    finally:
        store.close()
    click.echo(plaintext)
    click.echo(f"receiptgate: created {scope} key {key.id}", err=True)


@keys.command("list")
@_db_options
def keys_list(db: str | None, data_dir: str | None) -> None:
    """List keys (ids, names, scopes; never the keys themselves)."""
    store = _open_store(db, data_dir)
    try:
        for k in store.list_keys():
            state = f"revoked {k.revoked_at}" if k.revoked_at else "active"
            click.echo(f"{k.id}\t{k.scope}\t{k.name or '-'}\t{k.created_at}\t{state}")
    finally:
        store.close()


@keys.command("revoke")
@click.argument("key_id")
@_db_options
def keys_revoke(key_id: str, db: str | None, data_dir: str | None) -> None:
    """Revoke the key with id KEY_ID."""
    store = _open_store(db, data_dir)
    try:
        if not store.revoke_key(key_id):
            raise BadInput(f"no key with id {key_id!r}")
    finally:
        store.close()
    click.echo(f"receiptgate: revoked key {key_id}", err=True)


@keys.command("hash")
@click.argument("key")
def keys_hash(key: str) -> None:
    """Print the SHA-256 of KEY, for a keys file (RECEIPTGATE_API_KEYS_FILE)."""
    import hashlib

    click.echo(hashlib.sha256(key.encode("utf-8")).hexdigest())


@click.group()
def audit() -> None:
    """Read the audit trail."""


@audit.command("export")
@_db_options
@click.option("--agent", "agent_id")
@click.option("--verdict")
@click.option("--category")
@click.option("--session", "session_id")
@click.option("--turn", "turn_id", help="Only this turn's records.")
@click.option("--since", help="ISO 8601 time.")
@click.option("--until", help="ISO 8601 time.")
def audit_export(
    db: str | None,
    data_dir: str | None,
    agent_id: str | None,
    verdict: str | None,
    category: str | None,
    session_id: str | None,
    turn_id: str | None,
    since: str | None,
    until: str | None,
) -> None:
    """Print matching audit records as JSONL on stdout (oldest first)."""
    from datetime import datetime

    def when(value: str | None, name: str) -> datetime | None:
        if value is None:
            return None
        try:
            return datetime.fromisoformat(value.replace("Z", "+00:00"))
        except ValueError:
            raise BadInput(f"--{name}: not an ISO 8601 time: {value!r}") from None

    store = _open_store(db, data_dir)
    from receiptgate.store import AuditFilter

    try:
        count = store.export_jsonl(
            AuditFilter(
                agent_id=agent_id,
                verdict=verdict,
                category=category,
                session_id=session_id,
                turn_id=turn_id,
                since=when(since, "since"),
                until=when(until, "until"),
            ),
            sys.stdout,
        )
    finally:
        store.close()
    click.echo(f"receiptgate: exported {count} records", err=True)


@audit.command("turns")
@_db_options
@click.option("--session", "session_id", help="Only this session's turns.")
def audit_turns(db: str | None, data_dir: str | None, session_id: str | None) -> None:
    """Print the saved turns (provenance graphs: taint, removed and blocked tools, policy
    decisions) as JSONL on stdout, oldest first."""
    store = _open_store(db, data_dir)
    try:
        count = store.export_turns_jsonl(sys.stdout, session_id=session_id)
    finally:
        store.close()
    click.echo(f"receiptgate: exported {count} turns", err=True)
