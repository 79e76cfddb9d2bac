"""The ``receiptgate`` command line (SPEC §10).

Exit status: 0 when a verdict was produced (1 if ``--fail-on`` is given and the
verdict is at least that severe); 2 for bad usage or bad input, with a one-line
error on stderr naming the file and the problem.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from receiptgate._exceptions import UserError
from receiptgate.cli.bridge import bridge
from receiptgate.cli.errors import BadInput
from receiptgate.cli.report import render
from receiptgate.cli.serve import audit, keys, serve
from receiptgate.text.clean import decode_utf8

VERDICT_RANK = {"pass": 0, "flag": 1, "block": 2}


def _parse_now(value: str | None) -> datetime | None:
    if value is None:
        return None
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        raise click.BadParameter(
            f"not an ISO 8601 time: {value!r} (e.g. 2026-03-11T10:00:00Z)", param_hint="--now"
        ) from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def _read_text(file: str) -> str:
    """The file (or stdin for ``-``) as text: UTF-8 only, never guessed (text/clean.py)."""
    if file == "-":
        stdin = sys.stdin.buffer if hasattr(sys.stdin, "buffer") else None
        data = stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8")
        source = "<stdin>"
    else:
        source = file
        try:
            data = Path(file).read_bytes()
        except FileNotFoundError:
            raise BadInput(f"{file}: file not found") from None
        except IsADirectoryError:
            raise BadInput(f"{file}: is a directory, expected a text file") from None
        except OSError as e:
            raise BadInput(f"{file}: cannot read: {e.strerror}") from None
    try:
        return decode_utf8(data, source)
    except UserError as e:
        raise BadInput(str(e)) from None


@click.group()
@click.version_option(package_name="receiptgate")
def cli() -> None:
    """receiptgate: every factual sentence an agent sends must show its receipt."""


@cli.command()
@click.argument("file", required=False)
@click.option("--facts", "facts", multiple=True, help="Fact registry file (JSON/YAML), repeatable.")
@click.option(
    "--receipts",
    "receipts",
    multiple=True,
    help="Receipts JSONL, OpenAI transcript JSON or OpenClaw session JSONL, repeatable.",
)
@click.option("--policy", "policy", help="Policy file (YAML): risk classes, tags, rewrite.")
@click.option("--config", "config", help="Gate config (YAML/JSON, RFC-003 §10.1 keys).")
@click.option("--rubric", "rubric", help="Rubric (YAML/JSON) that maps findings to the grade.")
@click.option("--agent", "agent", help="Agent id (for overrides and exemptions).")
@click.option("--trust", "trust", type=click.IntRange(0, 100), help="Agent trust score, 0-100.")
@click.option("--channel", "channel", help="Where the text is going (e.g. slack, email).")
@click.option("--now", "now", help="Reference time (ISO 8601) for TTLs, freshness, dates.")
@click.option(
    "--hook",
    "hook",
    help="Runtime hook that triggered this; before_external_communication runs the LLM judge.",
)
@click.option(
    "--event",
    "event",
    help="A before_tool_call / before_external_communication event (JSON) to validate "
    "instead of FILE: its text, channel and hook.",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
@click.option(
    "--fail-on",
    "fail_on",
    type=click.Choice(["flag", "block"]),
    help="Exit 1 when the verdict is at least this severe, or when the fail mode "
    "produced it (an internal error).",
)
def check(
    file: str,
    facts: tuple[str, ...],
    receipts: tuple[str, ...],
    policy: str | None,
    config: str | None,
    rubric: str | None,
    agent: str | None,
    trust: int | None,
    channel: str | None,
    now: str | None,
    hook: str | None,
    event: str | None,
    fmt: str,
    fail_on: str | None,
) -> None:
    """Validate the text in FILE (or stdin with - or no FILE)."""
    from receiptgate.api import build_gate, load_receipt_files

    if event is not None and file is not None:
        raise click.UsageError("give either FILE or --event, not both")
    ref = _parse_now(now)
    try:
        gate = build_gate(config=config, facts=facts, policy=policy, rubric=rubric)
        ledger = load_receipt_files(receipts)
    except UserError as e:
        raise BadInput(str(e)) from None
    for warning in gate.warnings:
        click.echo(f"receiptgate: warning: {warning}", err=True)
    external: bool | None = None
    if event is not None:
        from receiptgate.checkers.external import read_event

        try:
            data = json.loads(_read_text(event))
            out = read_event(data, gate.config.llm_validator)
        except json.JSONDecodeError as e:
            raise BadInput(f"{event}: invalid JSON: {e}") from None
        except UserError as e:
            raise BadInput(f"{event}: {e}") from None
        if out.text is None:
            raise BadInput(f"{event}: the event carries no text to validate")
        text, channel, hook = out.text, channel or out.channel, hook or out.hook
        external = out.external or None
    else:
        text = _read_text(file or "-")
    try:
        result = gate.validate(
            text,
            agent_id=agent,
            trust=trust,
            channel=channel,
            now=ref,
            receipts=ledger,
            hook=hook,
            external=external,
        )
    except UserError as e:
        raise BadInput(str(e)) from None
    if fmt == "json":
        click.echo(json.dumps(result.to_dict(), ensure_ascii=False))
    else:
        render(result, Console(highlight=False, soft_wrap=True))
    if fail_on is not None and (
        VERDICT_RANK[result.verdict] >= VERDICT_RANK[fail_on]
        # A verdict the fail mode produced is no verdict on the text: a CI job must
        # never go green because the gate crashed.
        or result.fail_mode_applied is not None
    ):
        sys.exit(1)


@cli.group()
def facts() -> None:
    """Work with fact registries."""


@facts.command("lint")
@click.argument("files", nargs=-1, required=True)
@click.option("--now", "now", help="Reference time (ISO 8601) for TTL checks.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text")
def facts_lint(files: tuple[str, ...], now: str | None, fmt: str) -> None:
    """Validate fact registry FILES and report problems (exit 1 if any has errors)."""
    from receiptgate.evidence.lint import lint_files

    for f in files:
        if not Path(f).is_file():
            raise BadInput(f"{f}: file not found" if not Path(f).exists() else f"{f}: not a file")
    reports = lint_files([Path(f) for f in files], now=_parse_now(now) or datetime.now(UTC))
    failed = any(r["errors"] for r in reports)
    if fmt == "json":
        click.echo(json.dumps({"ok": not failed, "files": reports}, ensure_ascii=False))
    else:
        console = Console(highlight=False, soft_wrap=True)
        for r in reports:
            status = "[red]error[/red]" if r["errors"] else "[green]ok[/green]"
            console.print(f"{r['file']}: {status} ({r['facts']} facts)")
            for e in r["errors"]:
                console.print(f"  [red]error[/red] {e}", markup=True)
            for w in r["warnings"]:
                console.print(f"  [yellow]warning[/yellow] {w}", markup=True)
    if failed:
        sys.exit(1)


cli.add_command(serve)
cli.add_command(keys)
cli.add_command(audit)
cli.add_command(bridge)


def main(argv: list[str] | None = None) -> Any:
    """Console-script entry point; usage errors become one line on stderr, exit 2."""
    try:
        return cli.main(args=argv, prog_name="receiptgate", standalone_mode=False)
    except click.exceptions.Exit as e:
        sys.exit(e.exit_code)
    except click.Abort:
        click.echo("receiptgate: aborted", err=True)
        sys.exit(2)
    except click.ClickException as e:
        msg = e.format_message().replace("\n", " ")
        if isinstance(e, click.UsageError) and e.ctx is not None and not isinstance(e, BadInput):
            msg = f"{msg} (see '{e.ctx.command_path} --help')"
        click.echo(f"receiptgate: error: {msg}", err=True)
        sys.exit(2 if isinstance(e, click.UsageError | BadInput) else e.exit_code)


if __name__ == "__main__":
    main()
