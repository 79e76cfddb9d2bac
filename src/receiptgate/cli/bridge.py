"""``receiptgate bridge``: trace findings in, a generated fact registry out (RFC-006 §4.1.2).

``--once`` processes the findings folder, writes the facts file and exits 0;
``--watch`` keeps doing so on every change and every ``--interval`` seconds until
SIGINT or SIGTERM, then exits 0. Exit 2 (one line, ``receiptgate: error: ...``) for
bad usage, a findings folder that cannot be read, or a facts file that cannot be
loaded or written: it is then left exactly as it was. A bad findings file is only a
warning: it is skipped, named on stderr, and everything else is used.
"""

from __future__ import annotations

import signal
import threading
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Final

import click

from receiptgate.cli.errors import BadInput

if TYPE_CHECKING:
    from receiptgate.bridge import Bridge, BridgeReport

# receiptgate.bridge.DEFAULT_INTERVAL, repeated so that every other command's start-up
# does not pay for importing the bridge (pydantic models, the fact loader).
DEFAULT_INTERVAL: Final = 300.0


def _echo_report(report: BridgeReport, facts_file: Path) -> None:
    level = "error" if report.failed else "warning"
    for error in report.errors:
        click.echo(f"receiptgate: {level}: {error}", err=True)
    if not report.failed:
        click.echo(f"receiptgate: {report.summary(facts_file)}", err=True)


def _check_paths(findings_dir: Path, facts_file: Path) -> None:
    if not findings_dir.exists():
        raise BadInput(f"{findings_dir}: no such findings folder")
    if not findings_dir.is_dir():
        raise BadInput(f"{findings_dir}: not a folder (--findings-dir)")
    if facts_file.is_dir():
        raise BadInput(f"{facts_file}: is a folder; --facts-file names the generated JSON file")
    parent = facts_file.parent
    if not parent.is_dir():
        raise BadInput(f"{facts_file}: its folder {parent} does not exist")


def _watch(bridge_: Bridge) -> None:
    stop = threading.Event()
    fatal: list[str] = []
    first = True

    def on_report(report: BridgeReport) -> None:
        nonlocal first
        if first and report.failed:
            # Nothing could be done at all: a usage problem, not a passing glitch.
            fatal.extend(report.errors)
            stop.set()
            return
        first = False
        _echo_report(report, bridge_.facts_file)

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    handled = (signal.SIGINT, signal.SIGTERM)
    in_main = threading.current_thread() is threading.main_thread()
    previous = [signal.signal(s, on_signal) for s in handled] if in_main else []
    try:
        click.echo(
            f"receiptgate: bridge: watching {bridge_.findings_dir} "
            f"(rescan every {bridge_.interval:g}s); stop with Ctrl-C",
            err=True,
        )
        bridge_.watch(stop, on_report)
    finally:
        for s, handler in zip(handled, previous, strict=False):
            signal.signal(s, handler)
    if fatal:
        raise BadInput(fatal[0])
    click.echo("receiptgate: bridge: stopped", err=True)


@click.command("bridge")
@click.option(
    "--findings-dir",
    "findings_dir",
    required=True,
    metavar="DIR",
    help="Folder of TraceFinding JSON files (*.json, not recursive).",
)
@click.option(
    "--facts-file",
    "facts_file",
    required=True,
    metavar="FILE",
    help="The generated fact registry (JSON, RFC-006 §8.3); created if missing.",
)
@click.option("--once", is_flag=True, help="Process the folder once, write the file, exit.")
@click.option(
    "--watch", "watch_mode", is_flag=True, help="Keep processing on every change until stopped."
)
@click.option(
    "--interval",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SECONDS",
    help=f"With --watch: rescan at least this often (default {DEFAULT_INTERVAL:g}).",
)
def bridge(
    findings_dir: str,
    facts_file: str,
    once: bool,
    watch_mode: bool,
    interval: float | None,
) -> None:
    """Turn trace findings' factCorrections into facts in a generated registry file."""
    from receiptgate.bridge import Bridge, BridgeError

    if once == watch_mode:
        raise BadInput("give exactly one of --once and --watch")
    if once and interval is not None:
        raise BadInput("--interval only applies to --watch")
    findings, facts = Path(findings_dir), Path(facts_file)
    _check_paths(findings, facts)
    try:
        bridge_ = Bridge(findings, facts, interval or DEFAULT_INTERVAL)
    except BridgeError as e:
        raise BadInput(str(e)) from None
    if watch_mode:
        _watch(bridge_)
        return
    try:
        report = bridge_.run_once()
    except BridgeError as e:
        raise BadInput(str(e)) from None
    _echo_report(report, facts)
