"""Service settings, read from the environment (so ``create_app()`` needs no arguments).

Every variable is optional; the defaults run a single instance on an embedded
SQLite file with in-memory rate limits. ``receiptgate serve`` turns its options
into these variables, so an ASGI server started by hand
(``uvicorn --factory receiptgate.server:create_app``) sees the same settings.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from receiptgate._exceptions import ConfigError

#: Environment variables and what they set (documented in docs/service.md).
ENV_VARS: dict[str, str] = {
    "RECEIPTGATE_DB": "database URL (sqlite:///path or postgresql://...); default: SQLite file",
    "RECEIPTGATE_DATA_DIR": "folder for the default SQLite file",
    "RECEIPTGATE_CONFIG": "gate config file (YAML/JSON, RFC-003 §10.1 keys)",
    "RECEIPTGATE_FACTS": "fact registry files, separated by os.pathsep",
    "RECEIPTGATE_POLICY": "policy file (risk classes, tags, rewrite)",
    "RECEIPTGATE_RUBRICS": "folder of rubric files (YAML/JSON), selectable per request",
    "RECEIPTGATE_REDIS_URL": "Redis URL: rate limits shared by every instance",
    "RECEIPTGATE_RATE_LIMIT": "validations per key and user, e.g. '3/minute' (PRD default)",
    "RECEIPTGATE_HOOK_RATE_LIMIT": "hook events per key (POST /hooks/...), default '6000/minute'",
    "RECEIPTGATE_OFFLOAD_WORKERS": "worker processes for large validations (default 1, 0: none)",
    "RECEIPTGATE_KEY_RATE_LIMIT": "validations per key, all users together, default '60/minute'",
    "RECEIPTGATE_MAX_BODY_BYTES": "largest request body accepted (default 1048576)",
    "RECEIPTGATE_STORE_TEXT": "'1' stores full output text in the audit (default: spans only)",
    "RECEIPTGATE_API_KEYS": "comma-separated scope:key pairs (validate:rg_..., admin:rg_...)",
    "RECEIPTGATE_API_KEYS_FILE": "YAML/JSON list of {name, scope, sha256} (hashed keys)",
    "RECEIPTGATE_FACTS_POLL_SECONDS": "how often API-written facts are re-read (default 1)",
    "RECEIPTGATE_FINDINGS_DIR": "trace findings folder: the bridge turns corrections into facts",
    "RECEIPTGATE_BRIDGE_FACTS": "the registry file the bridge writes (and the gate loads)",
    "RECEIPTGATE_BRIDGE_INTERVAL": "seconds between full rescans of the findings (default 300)",
    "RECEIPTGATE_RELOAD_SECONDS": "how often fact, config and policy files are checked (default 1)",
    "RECEIPTGATE_OTEL_ENDPOINT": "OTLP/HTTP collector URL: every finished turn is sent as spans",
    "RECEIPTGATE_OTEL_PREVIEWS": "'1' adds the (redacted) content previews to those spans",
}

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """What one service instance needs to start.

    Attributes:
        db_url: SQLAlchemy-style URL; ``None`` means the SQLite file under ``data_dir``.
        data_dir: folder of the default SQLite file (``None``: per-user data dir).
        config_path: gate config file.
        facts_paths: extra fact registry files.
        policy_path: policy file.
        rubrics_dir: folder of rubrics a request can name by id.
        redis_url: shared rate-limit storage; in-process memory when ``None``.
        rate_limit: a ``limits`` rate string, per API key and user.
        key_rate_limit: the budget of one API key, all its users together: a
            caller that makes up a new ``user_id`` per request gets no more.
        offload_workers: worker processes for large validations (0: in threads).
        hook_rate_limit: the budget of ``POST /hooks/{event}`` calls per API key (an
            agent turn sends a dozen events, so they do not use ``rate_limit``).
        max_body_bytes: larger request bodies are refused with 413 before being read.
        store_text: keep the full output text in audit records (off: RFC-003 §14.3).
        env_keys: ``(scope, plaintext)`` pairs from ``RECEIPTGATE_API_KEYS``.
        keys_file: file of hashed keys.
        facts_poll_seconds: how often facts written through the API by another
            instance are picked up.
        findings_dir: trace findings the bridge watches (RFC-006 §4.1.2).
        bridge_facts: the registry file the bridge writes; loaded like ``--facts``.
        bridge_interval: seconds between full rescans of ``findings_dir``.
        reload_seconds: how often fact, config and policy files are checked for
            changes (a change rebuilds the gate without a restart).
        otel_endpoint: an OTLP/HTTP collector (``http://host:4318``); each finished
            turn's provenance graph is sent there as spans (the ``otel`` extra).
        otel_previews: include the redacted content previews in those spans.
    """

    db_url: str | None = None
    data_dir: Path | None = None
    config_path: Path | None = None
    facts_paths: tuple[Path, ...] = ()
    policy_path: Path | None = None
    rubrics_dir: Path | None = None
    redis_url: str | None = None
    rate_limit: str = "3/minute"
    key_rate_limit: str = "60/minute"
    offload_workers: int = 1
    hook_rate_limit: str = "6000/minute"
    max_body_bytes: int = 1_048_576
    store_text: bool = False
    env_keys: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    keys_file: Path | None = None
    facts_poll_seconds: float = 1.0
    findings_dir: Path | None = None
    bridge_facts: Path | None = None
    bridge_interval: float = 300.0
    reload_seconds: float = 1.0
    otel_endpoint: str | None = None
    otel_previews: bool = False

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> ServerSettings:
        """Reads ``RECEIPTGATE_*`` variables.

        Raises:
            ConfigError: naming the variable and the problem.
        """
        env = os.environ if environ is None else environ

        def path(name: str) -> Path | None:
            value = env.get(name, "").strip()
            return Path(value).expanduser() if value else None

        facts = tuple(
            Path(p).expanduser() for p in env.get("RECEIPTGATE_FACTS", "").split(os.pathsep) if p
        )
        return cls(
            db_url=env.get("RECEIPTGATE_DB", "").strip() or None,
            data_dir=path("RECEIPTGATE_DATA_DIR"),
            config_path=path("RECEIPTGATE_CONFIG"),
            facts_paths=facts,
            policy_path=path("RECEIPTGATE_POLICY"),
            rubrics_dir=path("RECEIPTGATE_RUBRICS"),
            redis_url=env.get("RECEIPTGATE_REDIS_URL", "").strip() or None,
            rate_limit=env.get("RECEIPTGATE_RATE_LIMIT", "").strip() or "3/minute",
            key_rate_limit=env.get("RECEIPTGATE_KEY_RATE_LIMIT", "").strip() or "60/minute",
            offload_workers=_int(env, "RECEIPTGATE_OFFLOAD_WORKERS", 1, minimum=0),
            hook_rate_limit=env.get("RECEIPTGATE_HOOK_RATE_LIMIT", "").strip() or "6000/minute",
            max_body_bytes=_int(env, "RECEIPTGATE_MAX_BODY_BYTES", 1_048_576, minimum=1024),
            store_text=_bool(env, "RECEIPTGATE_STORE_TEXT"),
            env_keys=_env_keys(env.get("RECEIPTGATE_API_KEYS", "")),
            keys_file=path("RECEIPTGATE_API_KEYS_FILE"),
            facts_poll_seconds=_float(env, "RECEIPTGATE_FACTS_POLL_SECONDS", 1.0),
            findings_dir=path("RECEIPTGATE_FINDINGS_DIR"),
            bridge_facts=path("RECEIPTGATE_BRIDGE_FACTS"),
            bridge_interval=_float(env, "RECEIPTGATE_BRIDGE_INTERVAL", 300.0),
            reload_seconds=_float(env, "RECEIPTGATE_RELOAD_SECONDS", 1.0),
            otel_endpoint=env.get("RECEIPTGATE_OTEL_ENDPOINT", "").strip() or None,
            otel_previews=_bool(env, "RECEIPTGATE_OTEL_PREVIEWS"),
        )._checked()

    def _checked(self) -> ServerSettings:
        if (self.findings_dir is None) != (self.bridge_facts is None):
            raise ConfigError(
                "RECEIPTGATE_FINDINGS_DIR and RECEIPTGATE_BRIDGE_FACTS go together "
                "(--findings-dir and --bridge-facts)"
            )
        if self.findings_dir is not None and not self.findings_dir.is_dir():
            raise ConfigError(f"RECEIPTGATE_FINDINGS_DIR: {self.findings_dir}: not a folder")
        if self.otel_endpoint is not None:
            from receiptgate.provenance.otel import otlp_traces_url

            otlp_traces_url(
                self.otel_endpoint, source="RECEIPTGATE_OTEL_ENDPOINT (--otel-endpoint)"
            )
        return self

    def watched_files(self) -> list[Path]:
        """The files whose change rebuilds the gate."""
        files = [*self.facts_paths]
        files += [p for p in (self.config_path, self.policy_path, self.bridge_facts) if p]
        return files


def _int(env: Mapping[str, str], name: str, default: int, *, minimum: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}: expected an integer, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name}: must be at least {minimum} (got {value})")
    return value


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}: expected a number of seconds, got {raw!r}") from None
    if value <= 0:
        raise ConfigError(f"{name}: must be greater than 0 (got {raw})")
    return value


def _bool(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise ConfigError(f"{name}: expected 1/0, true/false, yes/no or on/off, got {raw!r}")


def _env_keys(raw: str) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for i, item in enumerate(p.strip() for p in raw.split(",")):
        if not item:
            continue
        scope, sep, key = item.partition(":")
        if not sep or scope not in ("validate", "admin") or len(key) < 16:
            raise ConfigError(
                f"RECEIPTGATE_API_KEYS[{i}]: expected 'validate:KEY' or 'admin:KEY' "
                "with a key of at least 16 characters"
            )
        out.append((scope, key))
    return tuple(out)
