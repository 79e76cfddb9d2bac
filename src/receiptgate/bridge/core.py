"""The trace-to-facts bridge: a findings folder in, a generated fact registry out.

:class:`Bridge` reads every ``*.json`` findings file in one folder (not its
subfolders; hidden files and the facts file itself are skipped), turns each
``factCorrection`` into a fact, keeps the newest fact per (subject, predicate), merges
them into the facts file and writes it atomically when, and only when, its facts
change. :meth:`Bridge.run_once` does that once; :meth:`Bridge.watch` does it again on
every change in the folder and every ``interval`` seconds.

Parsed files are cached by (mtime, size, inode), so a run only reads what changed;
the merge still starts from every file, so the output depends on the folder's
content, never on the order events arrived in.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

from receiptgate._exceptions import ConfigError, UserError
from receiptgate.bridge.findings import read_findings_file
from receiptgate.bridge.registry import (
    DEFAULT_REGISTRY_ID,
    DEFAULT_SOURCE,
    FactKey,
    GeneratedFact,
    check_loadable,
    fact_from_finding,
    merge_facts,
    read_facts_file,
    render_facts_file,
    write_atomic,
)

__all__ = ["DEFAULT_INTERVAL", "Bridge", "BridgeError", "BridgeReport"]

#: Seconds between rescans when no event arrives (RFC-006 §4.1.2: "every 5 minutes").
DEFAULT_INTERVAL: Final = 300.0


class BridgeError(UserError):
    """The facts file cannot be read, validated or written; it was left as it was."""


@dataclass(frozen=True, slots=True)
class BridgeReport:
    """What one run did.

    Attributes:
        files_seen: findings files in the folder.
        files_read: files whose content could be used (bad findings inside aside).
        files_skipped: files skipped as a whole (invalid JSON, wrong shape, ...).
        corrections: valid findings with a ``factCorrection``.
        facts_added: facts with a new (subject, predicate).
        facts_updated: facts replaced by a newer finding.
        facts_total: facts in the facts file after the run.
        written: the facts file was (re)written.
        errors: one line per problem, each naming its file.
        failed: the run stopped before merging (see ``errors``); nothing was written.
    """

    files_seen: int = 0
    files_read: int = 0
    files_skipped: int = 0
    corrections: int = 0
    facts_added: int = 0
    facts_updated: int = 0
    facts_total: int = 0
    written: bool = False
    errors: tuple[str, ...] = ()
    failed: bool = False

    @property
    def facts_written(self) -> int:
        """Facts in the file written by this run; 0 when nothing was written."""
        return self.facts_total if self.written else 0

    def summary(self, facts_file: Path | str) -> str:
        """One line for logs and the CLI."""
        if self.failed:
            return f"bridge: nothing written to {facts_file}"
        skipped = f", {self.files_skipped} skipped" if self.files_skipped else ""
        files = _count(self.files_read, "findings file")
        corrections = _count(self.corrections, "correction")
        facts = _count(self.facts_total, "fact")
        if self.written:
            change = f"{self.facts_added} added, {self.facts_updated} updated"
            outcome = f"wrote {facts} to {facts_file} ({change})"
        else:
            outcome = f"{facts_file} unchanged ({facts})"
        return f"bridge: {files} read{skipped}, {corrections}; {outcome}"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass(frozen=True, slots=True)
class _Parsed:
    """One findings file's contribution, cached while the file does not change."""

    usable: bool
    facts: tuple[tuple[GeneratedFact, int], ...]  # (fact, position in the file)
    errors: tuple[str, ...]
    corrections: int


_Signature = tuple[int, int, int]  # (mtime_ns, size, inode)


def _now() -> datetime:
    return datetime.now(UTC)


class Bridge:
    """Turns ``TraceFinding`` files into a generated fact registry (RFC-006 §4.1.2).

    Args:
        findings_dir: the folder analyzers drop findings files into.
        facts_file: the generated registry (JSON). Its folder must exist.
        interval: seconds between rescans in :meth:`watch` when no event arrives
            (events can be lost on network file systems; a rescan catches up).
        registry_id: ``id`` of a new facts file; an existing file keeps its own.
        source: ``source`` of generated facts.
        clock: gives ``generatedAt`` (tests pin it).

    Raises:
        ValueError: ``interval`` is not positive.
        BridgeError: ``facts_file`` is named ``.yaml``/``.yml`` (the file is JSON).
    """

    def __init__(
        self,
        findings_dir: str | os.PathLike[str],
        facts_file: str | os.PathLike[str],
        interval: float = DEFAULT_INTERVAL,
        *,
        registry_id: str = DEFAULT_REGISTRY_ID,
        source: str = DEFAULT_SOURCE,
        clock: Callable[[], datetime] = _now,
    ) -> None:
        if not interval > 0:
            raise ValueError(f"interval must be positive (got {interval})")
        self.findings_dir = Path(findings_dir)
        self.facts_file = Path(facts_file)
        if self.facts_file.suffix.lower() in (".yaml", ".yml"):
            raise BridgeError(
                f"{self.facts_file}: the generated facts file is JSON (RFC-006 §8.3); "
                "give it a .json name"
            )
        self.interval = float(interval)
        self.registry_id = registry_id
        self.source = source
        self._clock = clock
        self._lock = threading.Lock()
        self._cache: dict[Path, tuple[_Signature, _Parsed]] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    # ------------------------------------------------------------------ scanning

    def is_findings_path(self, path: str | os.PathLike[str]) -> bool:
        """Whether a file name in the folder is a findings file the bridge reads.

        ``*.json``, not hidden (writers that rename a temporary file into place keep
        it hidden until it is complete), and not the facts file itself.
        """
        candidate = Path(path)
        if candidate.suffix.lower() != ".json" or candidate.name.startswith("."):
            return False
        return candidate.resolve() != self.facts_file.resolve()

    def findings_files(self) -> list[Path]:
        """The findings files in the folder, sorted by name.

        Raises:
            BridgeError: the folder cannot be listed.
        """
        try:
            entries = list(os.scandir(self.findings_dir))
        except OSError as exc:
            raise BridgeError(
                f"{self.findings_dir}: cannot list the findings folder: {exc.strerror or exc}"
            ) from None
        files = []
        for entry in entries:
            try:
                is_file = entry.is_file()
            except OSError:
                continue
            if is_file and self.is_findings_path(entry.path):
                files.append(self.findings_dir / entry.name)
        return sorted(files)

    def _parse(self, path: Path) -> _Parsed | None:
        try:
            st = path.stat()
        except OSError:
            return None  # gone since the listing
        signature = (st.st_mtime_ns, st.st_size, st.st_ino)
        cached = self._cache.get(path)
        if cached is not None and cached[0] == signature:
            return cached[1]
        shown = str(path)
        read = read_findings_file(path, shown=shown)
        mtime = datetime.fromtimestamp(st.st_mtime_ns / 1e9, UTC)
        facts: list[tuple[GeneratedFact, int]] = []
        errors = list(read.errors)
        for position, (where, finding) in enumerate(read.findings):
            moment = finding.detected_at or read.generated_at or mtime
            try:
                fact = fact_from_finding(
                    finding,
                    shown=shown,
                    where=where,
                    updated_at=moment,
                    source=self.source,
                    registry_id=self.registry_id,
                )
            except ConfigError as exc:
                errors.append(str(exc))
                continue
            if fact is not None:
                facts.append((fact, position))
        parsed = _Parsed(read.usable, tuple(facts), tuple(errors), read.corrections)
        self._cache[path] = (signature, parsed)
        return parsed

    # ----------------------------------------------------------------------- run

    def run_once(self) -> BridgeReport:
        """Read the folder, merge the facts and write the facts file if they changed.

        A missing facts file is always written (an empty registry is still a valid
        one for the gate to load). Bad findings files are reported in
        ``errors`` and change nothing; facts already in the file are never dropped.

        Raises:
            BridgeError: the folder cannot be listed, or the facts file cannot be
                loaded (then it is not overwritten: that would lose its facts) or
                written.
        """
        with self._lock:
            return self._run()

    def _run(self) -> BridgeReport:
        files = self.findings_files()
        winners: dict[FactKey, tuple[tuple[datetime, str, int], GeneratedFact]] = {}
        errors: list[str] = []
        read = skipped = corrections = 0
        seen: set[Path] = set()
        for path in files:
            parsed = self._parse(path)
            if parsed is None:
                continue
            seen.add(path)
            errors.extend(parsed.errors)
            if not parsed.usable:
                skipped += 1
                continue
            read += 1
            corrections += parsed.corrections
            for fact, position in parsed.facts:
                rank = (fact.updated_at, path.name, position)
                best = winners.get(fact.key)
                if best is None or rank > best[0]:
                    winners[fact.key] = (rank, fact)
        for gone in set(self._cache) - seen:
            del self._cache[gone]

        try:
            existing = read_facts_file(self.facts_file)
        except ConfigError as exc:
            raise BridgeError(f"{exc} (not overwritten: fix or remove it)") from None
        merged = merge_facts(existing, (winners[key][1] for key in sorted(winners)))
        written = merged.changed or not existing.exists
        if written:
            header = existing.header or {"id": self.registry_id}
            text = render_facts_file(header, self._clock(), merged.facts)
            try:
                write_atomic(self.facts_file, text, check=check_loadable)
            except ConfigError as exc:
                raise BridgeError(
                    f"{self.facts_file}: not written: the generated registry would not load: {exc}"
                ) from None
            except OSError as exc:
                raise BridgeError(
                    f"{self.facts_file}: cannot write: {exc.strerror or exc}"
                ) from None
        return BridgeReport(
            files_seen=len(seen),
            files_read=read,
            files_skipped=skipped,
            corrections=corrections,
            facts_added=merged.added,
            facts_updated=merged.updated,
            facts_total=len(merged.facts),
            written=written,
            errors=tuple(errors),
        )

    # --------------------------------------------------------------------- watch

    def watch(
        self,
        stop_event: threading.Event,
        on_report: Callable[[BridgeReport], None] | None = None,
    ) -> None:
        """Run now, then on every change in the folder and every ``interval`` seconds.

        Blocks until ``stop_event`` is set (checked at least every 50 ms while
        watching). Uses ``watchfiles`` (the ``bridge`` extra) and falls back to
        polling every ``interval`` seconds without it or when the watcher fails.
        A failing run is reported and the loop goes on: a facts file fixed by hand
        is picked up by the next run.

        Args:
            stop_event: set it to stop.
            on_report: called after a run that wrote the file, failed, or whose errors
                differ from the previous run's (so a bad file is reported once, not
                every interval). Default: log to ``receiptgate.bridge``.
        """
        from receiptgate.bridge.watch import watch_findings

        watch_findings(self, stop_event, on_report)

    def start(self, on_report: Callable[[BridgeReport], None] | None = None) -> None:
        """Run :meth:`watch` in a daemon thread (for the service); see :meth:`stop`."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(
            target=self.watch,
            args=(self._stop, on_report),
            name="receiptgate-bridge",
            daemon=True,
        )
        self._thread.start()

    def stop(self, timeout: float | None = 5.0) -> None:
        """Stop the thread started by :meth:`start` and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
