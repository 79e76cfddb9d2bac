"""Watch loops: the findings folder for the bridge, fact files for the service.

:func:`watch_findings` reruns a :class:`~receiptgate.bridge.core.Bridge` on every
change in its folder (``watchfiles``, the ``bridge`` extra) and at least every
``interval`` seconds: events can be lost (network file systems, a full inotify
queue) and the rescan catches up. Without ``watchfiles``, or when the watcher
fails, it polls on the interval alone.

:class:`FactsFileWatcher` tells the service that a fact registry file changed, so it
can reload its registries without a restart. It compares (mtime, size, inode,
device) once a second instead of using file events, because the bridge and most
editors replace a file by renaming a new one over it, which ends a watch on the old
file; a ``stat`` per file per second costs nothing and sees every such replacement.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Final

from receiptgate.bridge.core import BridgeError, BridgeReport

if TYPE_CHECKING:
    from receiptgate.bridge.core import Bridge

__all__ = ["FactsFileWatcher", "log_report", "watch_findings"]

logger = logging.getLogger("receiptgate.bridge")

#: How often the watch loop wakes without events, to honour the interval (seconds).
_TICK: Final = 1.0


def log_report(report: BridgeReport, facts_file: Path | str) -> None:
    """The default ``on_report``: the summary at INFO, each problem at WARNING."""
    for error in report.errors:
        logger.warning("%s", error)
    logger.log(logging.WARNING if report.failed else logging.INFO, "%s", report.summary(facts_file))


def watch_findings(
    bridge: Bridge,
    stop_event: threading.Event,
    on_report: Callable[[BridgeReport], None] | None = None,
    *,
    use_watchfiles: bool = True,
) -> None:
    """Run ``bridge`` now, on every change in its folder and every interval, until stopped.

    Args:
        bridge: the bridge to run.
        stop_event: set it to stop; checked at least every 50 ms.
        on_report: see :meth:`Bridge.watch`.
        use_watchfiles: ``False`` polls on the interval only.
    """
    report_to = on_report or (lambda report: log_report(report, bridge.facts_file))
    previous: tuple[str, ...] | None = None

    def run() -> None:
        nonlocal previous
        try:
            report = bridge.run_once()
        except BridgeError as exc:
            report = BridgeReport(errors=(str(exc),), failed=True)
        except Exception as exc:  # a bug must not end the loop that keeps facts fresh
            logger.exception("bridge run failed")
            report = BridgeReport(errors=(f"bridge run failed: {exc!r}",), failed=True)
        if report.written or report.failed or report.errors != previous:
            report_to(report)
        previous = report.errors

    run()
    last = time.monotonic()
    if use_watchfiles and not stop_event.is_set():
        try:
            import watchfiles
        except ImportError:
            logger.info("watchfiles is not installed; polling every %ss", bridge.interval)
        else:
            tick_ms = max(1, int(min(_TICK, bridge.interval) * 1000))
            # The first wake-up runs once more: files written while the watcher was
            # being set up produced no event.
            settled = False
            try:
                for changes in watchfiles.watch(
                    bridge.findings_dir,
                    watch_filter=lambda _change, path: bridge.is_findings_path(path),
                    stop_event=stop_event,
                    rust_timeout=tick_ms,
                    yield_on_timeout=True,
                    recursive=False,
                    raise_interrupt=False,
                ):
                    now = time.monotonic()
                    if changes or not settled or now - last >= bridge.interval:
                        settled = True
                        run()
                        last = time.monotonic()
            except Exception as exc:  # the folder vanished, inotify limits, ...
                logger.warning(
                    "watching %s failed (%s); polling every %ss",
                    bridge.findings_dir,
                    exc,
                    bridge.interval,
                )
            else:
                if stop_event.is_set():
                    return
    while not stop_event.wait(max(0.0, bridge.interval - (time.monotonic() - last))):
        run()
        last = time.monotonic()


_FileSignature = tuple[int, int, int, int] | None  # (mtime_ns, size, inode, device)


def _signature(path: Path) -> _FileSignature:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino, st.st_dev)


class FactsFileWatcher:
    """Calls ``on_change`` when fact registry files change, appear or disappear.

    Create it *before* loading the files: a change between loading and the first
    snapshot would otherwise go unnoticed. ``on_change`` gets the changed paths,
    once per change; if it raises (say, the new file is invalid and the service keeps
    its old registries), the change is not reported again until the file changes
    again, so a broken file is logged once instead of every second.

    Args:
        paths: the files to watch.
        on_change: called with the list of changed paths, in the order given.
        interval: seconds between checks in :meth:`run` and :meth:`start`.

    Example:
        ``FactsFileWatcher(["facts.json"], lambda changed: reload()).start()``, and
        ``stop()`` at shutdown (or use it as a context manager).
    """

    def __init__(
        self,
        paths: Iterable[str | os.PathLike[str]],
        on_change: Callable[[list[Path]], object],
        *,
        interval: float = 1.0,
    ) -> None:
        if not interval > 0:
            raise ValueError(f"interval must be positive (got {interval})")
        self.paths: tuple[Path, ...] = tuple(dict.fromkeys(Path(p) for p in paths))
        self.interval = float(interval)
        self._on_change = on_change
        self._signatures = {path: _signature(path) for path in self.paths}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self) -> list[Path]:
        """Compare the files with the last check; call ``on_change`` if any changed.

        Returns:
            The changed paths (empty when none changed).

        Raises:
            Exception: whatever ``on_change`` raised.
        """
        with self._lock:
            changed = []
            for path in self.paths:
                signature = _signature(path)
                if signature != self._signatures[path]:
                    self._signatures[path] = signature
                    changed.append(path)
        if changed:
            self._on_change(changed)
        return changed

    def run(self, stop_event: threading.Event) -> None:
        """Check every ``interval`` seconds until ``stop_event`` is set; errors are logged."""
        while not stop_event.wait(self.interval):
            try:
                self.check()
            except Exception:
                logger.exception("reloading changed fact files failed")

    def start(self) -> None:
        """Run :meth:`run` in a daemon thread; see :meth:`stop`."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self.run, args=(self._stop,), name="receiptgate-facts-watcher", daemon=True
        )
        self._thread.start()

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop the thread started by :meth:`start` and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> FactsFileWatcher:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()
