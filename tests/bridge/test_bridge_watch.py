"""Watch loops with real files: a real ``watchfiles`` watcher, polling, fact-file changes."""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import watchfiles
from bridge_helpers import facts_of, finding, wait_for, write_json

from receiptgate.bridge import Bridge, BridgeReport, FactsFileWatcher
from receiptgate.bridge.watch import watch_findings


class _Watching:
    """A bridge watching in a thread, with every report it gave."""

    def __init__(self, bridge: Bridge, *, use_watchfiles: bool = True) -> None:
        self.bridge = bridge
        self.reports: list[BridgeReport] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(
            target=watch_findings,
            args=(bridge, self.stop, self.reports.append),
            kwargs={"use_watchfiles": use_watchfiles},
        )

    def __enter__(self) -> _Watching:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(5)
        assert not self.thread.is_alive()


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "findings"
    path.mkdir()
    return path


def _has(facts: Path, subject: str, value: str) -> bool:
    return facts_of(facts).get((subject, "count")) == value


def test_a_real_watcher_picks_up_new_and_changed_files_without_waiting_for_the_interval(
    folder: Path, tmp_path: Path
) -> None:
    facts = tmp_path / "facts.json"
    # An hour-long interval: only file events can explain a quick update.
    with _Watching(Bridge(folder, facts, interval=3600)) as watching:
        assert wait_for(lambda: facts.exists())
        time.sleep(1.2)  # the watcher's first wake-up (its start-up rescan) has passed

        write_json(folder / "a.json", [finding("f1", "nats-events", "1")])
        assert wait_for(lambda: _has(facts, "nats-events", "1"), timeout=5)

        started = time.monotonic()
        write_json(folder / "a.json", [finding("f1", "nats-events", "2")])
        assert wait_for(lambda: _has(facts, "nats-events", "2"), timeout=5)
        assert time.monotonic() - started < 4

        (folder / "b.json").write_text('{"findings": [')  # malformed: reported, facts kept
        assert wait_for(lambda: any(r.errors for r in watching.reports), timeout=5)
        assert _has(facts, "nats-events", "2")

    bad = [r for r in watching.reports if r.errors]
    assert bad[0].errors[0].startswith(f"{folder / 'b.json'}: invalid JSON")
    assert [r.facts_total for r in watching.reports if r.written] == [0, 1, 1]


def test_a_file_written_in_place_in_pieces_ends_up_read(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    text = json.dumps([finding("f1", "nats-events", "7")])
    with _Watching(Bridge(folder, facts, interval=3600)):
        assert wait_for(lambda: facts.exists())
        with (folder / "slow.json").open("w") as handle:
            handle.write(text[:20])
            handle.flush()
            time.sleep(0.3)
            handle.write(text[20:])
        assert wait_for(lambda: _has(facts, "nats-events", "7"), timeout=5)


def test_without_watchfiles_it_polls_on_the_interval(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    with _Watching(Bridge(folder, facts, interval=0.1), use_watchfiles=False) as watching:
        assert wait_for(lambda: facts.exists())
        write_json(folder / "a.json", [finding("f1", "nats-events", "5")])
        assert wait_for(lambda: _has(facts, "nats-events", "5"), timeout=5)
        time.sleep(0.3)  # several more polls, nothing new: nothing reported

    assert len(watching.reports) == 2


@pytest.mark.parametrize("failure", ["not installed", "watcher fails"])
def test_without_a_working_watcher_it_falls_back_to_polling(
    folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: str
) -> None:
    if failure == "not installed":
        monkeypatch.setitem(sys.modules, "watchfiles", None)  # import raises ImportError
    else:

        def broken(*args: object, **kwargs: object) -> Iterator[set[tuple[int, str]]]:
            raise RuntimeError("inotify watch limit reached")
            yield set()

        monkeypatch.setattr(watchfiles, "watch", broken)
    facts = tmp_path / "facts.json"
    with _Watching(Bridge(folder, facts, interval=0.1)):
        assert wait_for(lambda: facts.exists())
        write_json(folder / "a.json", [finding("f1", "nats-events", "6")])
        assert wait_for(lambda: _has(facts, "nats-events", "6"), timeout=5)


def test_a_failing_run_is_reported_and_the_loop_goes_on(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    facts.write_text("{broken")
    with _Watching(Bridge(folder, facts, interval=0.1), use_watchfiles=False) as watching:
        assert wait_for(lambda: bool(watching.reports))
        facts.unlink()  # the operator fixes it
        assert wait_for(lambda: facts.exists())

    first = watching.reports[0]
    assert first.failed and "(not overwritten: fix or remove it)" in first.errors[0]
    assert watching.reports[-1].written


def test_bridge_start_and_stop_run_the_watch_in_a_thread(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    bridge = Bridge(folder, facts, interval=3600)
    bridge.start(on_report=lambda report: None)
    try:
        assert wait_for(lambda: facts.exists())
        write_json(folder / "a.json", [finding("f1", "nats-events", "3")])
        assert wait_for(lambda: _has(facts, "nats-events", "3"), timeout=5)
    finally:
        bridge.stop()
    assert bridge._thread is None


# ------------------------------------------------------------ FactsFileWatcher


def test_facts_file_watcher_sees_replacements_edits_and_removals(tmp_path: Path) -> None:
    changes: list[list[Path]] = []
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    one.write_text('{"facts": []}')
    watcher = FactsFileWatcher([one, two, one], changes.append)

    assert watcher.paths == (one, two)
    assert watcher.check() == []

    write_json(one, {"facts": []})  # same content and size, a new file renamed over it
    assert watcher.check() == [one]
    two.write_text("{}")  # appears
    assert watcher.check() == [two]
    stamp = one.stat().st_mtime_ns + 5_000_000_000
    os.utime(one, ns=(stamp, stamp))  # edited in place: same inode, new time
    assert watcher.check() == [one]
    one.unlink()  # removed
    assert watcher.check() == [one]
    assert watcher.check() == []
    assert changes == [[one], [two], [one], [one]]


def test_facts_file_watcher_thread_survives_a_failing_callback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "facts.json"
    path.write_text("{}")
    seen: list[list[Path]] = []

    def reload(changed: list[Path]) -> None:
        seen.append(changed)
        if len(seen) == 1:
            raise ValueError("invalid registry")

    with FactsFileWatcher([path], reload, interval=0.05):
        write_json(path, {"facts": []})
        assert wait_for(lambda: len(seen) == 1)
        time.sleep(0.2)
        assert len(seen) == 1  # a failed reload is not retried every tick
        write_json(path, {"facts": [], "id": "x"})
        assert wait_for(lambda: len(seen) == 2)

    assert "reloading changed fact files failed" in caplog.text


def test_facts_file_watcher_notices_the_bridges_writes(folder: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts.json"
    bridge = Bridge(folder, facts)
    bridge.run_once()
    changed: list[list[Path]] = []
    watcher = FactsFileWatcher([facts], changed.append)

    bridge.run_once()  # nothing new: not rewritten, no reload
    assert watcher.check() == []
    write_json(folder / "a.json", [finding("f1", "nats-events", "1")])
    bridge.run_once()
    assert watcher.check() == [facts]
    assert changed == [[facts]]


def test_watchers_reject_a_non_positive_interval(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="positive"):
        FactsFileWatcher([tmp_path / "x.json"], print, interval=0)
