"""``receiptgate bridge`` through a subprocess: exit codes, messages, ``--watch`` and signals."""

from __future__ import annotations

import json
import signal
import subprocess
from pathlib import Path

import pytest
from bridge_helpers import facts_of, finding, run_cli, start_cli, wait_for, write_json

from receiptgate import bridge as bridge_api
from receiptgate.cli import bridge as bridge_cli
from receiptgate.evidence.facts import load_registry_file


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "findings"
    path.mkdir()
    return path


def _one_error_line(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("receiptgate: error: ")
    return lines[0].removeprefix("receiptgate: error: ")


def test_once_writes_the_facts_file_and_exits_0(tmp_path: Path) -> None:
    facts = tmp_path / "generated-facts.json"

    proc = run_cli(
        "bridge", "--findings-dir", "examples/findings", "--facts-file", str(facts), "--once"
    )

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert proc.stderr == (
        "receiptgate: bridge: 2 findings files read, 4 corrections; "
        f"wrote 3 facts to {facts} (3 added, 0 updated)\n"
    )
    assert len(load_registry_file(facts).facts) == 3

    again = run_cli(
        "bridge", "--findings-dir", "examples/findings", "--facts-file", str(facts), "--once"
    )
    assert again.returncode == 0
    assert f"{facts} unchanged (3 facts)" in again.stderr


def test_once_warns_about_a_bad_findings_file_and_still_exits_0(
    folder: Path, tmp_path: Path
) -> None:
    write_json(folder / "good.json", [finding("f1", "nats-events", "1")])
    (folder / "bad.json").write_text("[{")
    facts = tmp_path / "facts.json"

    proc = run_cli("bridge", "--findings-dir", str(folder), "--facts-file", str(facts), "--once")

    assert proc.returncode == 0
    lines = proc.stderr.splitlines()
    assert lines[0].startswith(f"receiptgate: warning: {folder / 'bad.json'}: invalid JSON")
    assert lines[1].startswith("receiptgate: bridge: 1 findings file read, 1 skipped")
    assert facts_of(facts) == {("nats-events", "count"): "1"}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((), "give exactly one of --once and --watch"),
        (("--once", "--watch"), "give exactly one of --once and --watch"),
        (("--once", "--interval", "5"), "--interval only applies to --watch"),
        (("--watch", "--interval", "0"), "Invalid value for '--interval'"),
        (("--watch", "--interval", "soon"), "Invalid value for '--interval'"),
    ],
)
def test_bad_usage_exits_2_with_one_line(
    folder: Path, tmp_path: Path, args: tuple[str, ...], message: str
) -> None:
    facts = tmp_path / "facts.json"

    proc = run_cli("bridge", "--findings-dir", str(folder), "--facts-file", str(facts), *args)

    assert message in _one_error_line(proc)
    assert not facts.exists()


def test_missing_options_and_paths_exit_2(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"

    no_dir = run_cli("bridge", "--facts-file", str(facts), "--once")
    assert "Missing option '--findings-dir'" in _one_error_line(no_dir)

    gone = tmp_path / "nope"
    missing = run_cli("bridge", "--findings-dir", str(gone), "--facts-file", str(facts), "--once")
    assert _one_error_line(missing) == f"{gone}: no such findings folder"

    orphan = tmp_path / "no-such-folder" / "facts.json"
    args = ("bridge", "--findings-dir", str(folder), "--facts-file", str(orphan), "--once")
    assert _one_error_line(run_cli(*args)) == (
        f"{orphan}: its folder {orphan.parent} does not exist"
    )

    yaml_file = tmp_path / "facts.yaml"
    args = ("bridge", "--findings-dir", str(folder), "--facts-file", str(yaml_file), "--once")
    assert "is JSON (RFC-006 §8.3)" in _one_error_line(run_cli(*args))


def test_an_invalid_facts_file_exits_2_and_is_left_as_it_was(folder: Path, tmp_path: Path) -> None:
    write_json(folder / "a.json", [finding("f1", "nats-events", "1")])
    facts = tmp_path / "facts.json"
    facts.write_text('{"facts": [')

    for mode in ("--once", "--watch"):
        proc = run_cli("bridge", "--findings-dir", str(folder), "--facts-file", str(facts), mode)
        message = _one_error_line(proc) if mode == "--once" else proc.stderr.splitlines()[-1]
        assert proc.returncode == 2
        assert f"{facts}: invalid JSON" in message
        assert message.endswith("(not overwritten: fix or remove it)")
    assert facts.read_text() == '{"facts": ['


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_watch_follows_the_folder_and_stops_cleanly_on_a_signal(
    folder: Path, tmp_path: Path, stop_signal: signal.Signals
) -> None:
    facts = tmp_path / "facts.json"
    proc = start_cli("bridge", "--findings-dir", str(folder), "--facts-file", str(facts), "--watch")
    try:
        assert wait_for(lambda: facts.exists(), timeout=15)
        write_json(folder / "a.json", [finding("f1", "nats-events", "42")])
        assert wait_for(lambda: facts_of(facts) == {("nats-events", "count"): "42"}, timeout=8)
        proc.send_signal(stop_signal)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()

    assert proc.returncode == 0, err
    assert out == ""
    lines = err.splitlines()
    assert (
        lines[0] == f"receiptgate: bridge: watching {folder} (rescan every 300s); stop with Ctrl-C"
    )
    assert any("wrote 1 fact to" in line for line in lines)
    assert lines[-1] == "receiptgate: bridge: stopped"
    assert json.loads(facts.read_text())["id"] == "trace-learned"


def test_the_cli_default_interval_is_the_bridges() -> None:
    assert bridge_cli.DEFAULT_INTERVAL == bridge_api.DEFAULT_INTERVAL
