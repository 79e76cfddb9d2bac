"""Builds, type checkers and linters as runs of their own: "The production build
succeeded", "the Docker build failed", "Ruff is clean", "the type check reports 2
errors" are about the calls that built or checked (their command), read by a build's or a
checker's own report, not about test runs (checks/ledger asks which runs a pass/fail
claim is about)."""

from __future__ import annotations

import re

from receiptgate.checks.calls import FAILING, ledger_view, output_of
from receiptgate.claims.detectors.phrases import CHECKER_NAMES
from receiptgate.evidence.index import ReceiptEntry, ReceiptIndex

#: What builds: a bundler, a compiler, an image build ("npm run build", "cargo build").
_BUILD_RUN = re.compile(
    r"\b(?:(?:npm|yarn|pnpm)\s+(?:run\s+)?build|vite\s+build|webpack|next\s+build|"
    r"cargo\s+build|go\s+build|docker\s+(?:build|compose\s+build)|podman\s+build|"
    r"gradle\w*\s+(?:build|assemble)|mvn\w*\s+(?:package|install|compile|verify)|"
    r"dotnet\s+build|bazel\s+build|cmake\s+--build|make(?!\s+test)(?:\s|$)|"
    r"python[\d.]*\s+-m\s+build|tsc(?!\s+--noEmit)\b)"
)
#: What checks code without running it: type checkers and linters.
_CHECK_RUN = re.compile(
    rf"\b(?:{CHECKER_NAMES}|cargo\s+check|go\s+vet|golangci-lint|stylelint|"
    r"prettier\s+--check|black\s+--check|isort\s+--check|biome\s+(?:check|lint))\b"
)

#: The subject of a pass/fail claim that is a build, or a type check or lint, not tests.
BUILD_SUBJECT = re.compile(r"\b(?:build|compil\w*|bundle|image)\b", re.IGNORECASE)
CHECK_SUBJECT = re.compile(
    rf"\b(?:type[\s-]?check\w*|typecheck\w*|lint\w*|{CHECKER_NAMES}|typescript|vet)\b",
    re.IGNORECASE,
)


#: A build's or a checker's report of success: vite's "✓ built in 2.81s", Docker's
#: "Successfully built", Maven's "BUILD SUCCESS", cargo's "Finished", mypy's "Success: no
#: issues found", ruff's "All checks passed!".
_BUILT = re.compile(
    r"\bbuilt in [\d.]+m?s\b|\bSuccessfully (?:built|tagged|compiled)\b|\bBUILD SUCCESS"
    r"|^\s*Finished\b|\bCompiled successfully\b|^Success: no issues found"
    r"|\bAll checks passed\b|\b0 (?:errors?|problems?)\b",
    re.MULTILINE,
)
#: ... and of failure: "ERROR: failed to solve", "error TS2322:", "Found 2 errors".
_NOT_BUILT = re.compile(
    r"^(?:ERROR|error)\b|\berror(?:\[\w+\])?(?: TS\d+)?:|\bFound [1-9]\d* errors?\b"
    r"|\bBUILD FAILED\b|\b[1-9]\d* (?:errors?|problems?)\b",
    re.MULTILINE,
)


#: An output with nothing printed, as harnesses show it: "", "(no output)", "(No content)".
_SILENT = re.compile(r"|\(?(?:no output|no content|empty)\)?\.?", re.IGNORECASE)


def build_outcome(e: ReceiptEntry) -> str:
    """ "passing", "failing" or "unknown" for a build's or a checker's run. A checker that
    printed nothing (and no failure flag) passed: linters are silent on clean code."""
    out = output_of(e)
    text, status = out.text, out.status
    if e.receipt.ok is False or (status is not None and status != 0):
        return "failing"
    if _NOT_BUILT.search(text) or FAILING.search(text):
        return "failing"
    if _BUILT.search(text) or e.receipt.ok is True or status == 0:
        return "passing"
    if _SILENT.fullmatch(text.strip()) and _CHECK_RUN.search(e.text.split("\n", 1)[0]):
        return "passing"
    return "unknown"


def build_runs(index: ReceiptIndex) -> list[ReceiptEntry]:
    """The calls that ran a build (their first line's command), in order."""
    return [e for e in ledger_view(index).tools if _BUILD_RUN.search(e.text.split("\n", 1)[0])]


def check_runs(index: ReceiptIndex) -> list[ReceiptEntry]:
    """The calls that ran a type checker or a linter, in order."""
    return [e for e in ledger_view(index).tools if _CHECK_RUN.search(e.text.split("\n", 1)[0])]
