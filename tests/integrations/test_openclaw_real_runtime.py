"""The OpenClaw shim inside the REAL OpenClaw runtime: OpenClaw's own plugin loader and hook
runner (``test/real-openclaw.test.js``), and one real ``openclaw agent --local`` turn with a
scripted model and a loopback Telegram channel (``test/real-agent-turn.test.js``: what
receiptgate audited, the saved transcript, the cancelled delivery, an honest control turn).

OpenClaw's own plugin loader loads ``integrations/openclaw`` (manifest, config, ``register``)
and its own hook runner fires the four hooks against a live ``receiptgate serve`` started by
the Node test with this interpreter (``RECEIPTGATE_PYTHON``).

OpenClaw needs Node >= 24.16 and is not part of the default install, so this test is SKIPPED
unless both are there: ``OPENCLAW_NODE`` (else ``node`` on PATH, else the folder provisioned by
``integrations/openclaw/scripts/real-runtime-check.sh``) and ``OPENCLAW_PKG`` (an installed
``openclaw`` package; default: the script's folder). Run the script once to provision both from
the npm registry; ``OPENCLAW_RT_DIR`` moves its folder. ``scripts/test.sh`` (CI) provisions
it and sets ``RECEIPTGATE_REQUIRE_OPENCLAW=1``, which turns a skip into a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NODE_TESTS = REPO / "integrations" / "openclaw" / "test"
RT_DIR = Path(
    os.environ.get("OPENCLAW_RT_DIR") or Path(tempfile.gettempdir()) / "receiptgate-openclaw-rt"
)
HOW = (
    "run integrations/openclaw/scripts/real-runtime-check.sh once (provisions Node 24 and "
    "openclaw from npm), or set OPENCLAW_NODE and OPENCLAW_PKG"
)


def _node_version(node: str) -> tuple[int, ...] | None:
    try:
        out = subprocess.run(
            [node, "-p", "process.versions.node"],
            capture_output=True,
            text=True,
            timeout=30,
            check=True,
        ).stdout.strip()
        return tuple(int(p) for p in out.split("."))
    except (OSError, subprocess.SubprocessError, ValueError):
        return None


def _supported(version: tuple[int, ...]) -> bool:
    """OpenClaw's engines: ``>=24.16.0 <25 || >=26.1.0``."""
    return (version[0] == 24 and version >= (24, 16)) or version >= (26, 1)


def _find_node() -> tuple[str | None, str]:
    candidates = [
        os.environ.get("OPENCLAW_NODE"),
        shutil.which("node"),
        str(RT_DIR / "node/bin/node"),
    ]
    seen = []
    for node in candidates:
        if not node or not Path(node).exists():
            continue
        version = _node_version(node)
        seen.append(f"{node}: {'.'.join(map(str, version)) if version else 'unusable'}")
        if version and _supported(version):
            return node, ""
    return None, "; ".join(seen) or "no node found"


def _find_openclaw() -> Path | None:
    pkg = Path(os.environ.get("OPENCLAW_PKG") or RT_DIR / "oc" / "node_modules" / "openclaw")
    needed = (
        "dist/plugins/loader.js",  # the plugin loader and hook runner (real-openclaw.test.js)
        "openclaw.mjs",  # the CLI and its bundled Telegram channel (real-agent-turn.test.js)
        "dist/extensions/telegram/openclaw.plugin.json",
    )
    return pkg if all((pkg / f).is_file() for f in needed) else None


def _unavailable(reason: str) -> None:
    if os.environ.get("RECEIPTGATE_REQUIRE_OPENCLAW") == "1":
        pytest.fail(f"{reason} (RECEIPTGATE_REQUIRE_OPENCLAW=1: the real runtime is required)")
    pytest.skip(reason)


@pytest.mark.parametrize(
    ("node_tests", "passes"),
    [
        # OpenClaw's own plugin loader and hook runner fire the four hooks.
        ("real-openclaw.test.js", 5),
        # One real `openclaw agent --local` turn: a scripted OpenAI-compatible model on
        # loopback, the bundled Telegram channel pointed at loopback, the plugin installed.
        ("real-agent-turn.test.js", 2),
    ],
)
def test_shim_inside_the_real_openclaw_runtime(node_tests: str, passes: int) -> None:
    node, seen = _find_node()
    if node is None:
        _unavailable(f"OpenClaw needs Node >=24.16 (found {seen}); {HOW}")
    pkg = _find_openclaw()
    if pkg is None:
        _unavailable(f"no installed openclaw package (OPENCLAW_PKG or {RT_DIR}/oc); {HOW}")
    assert node is not None and pkg is not None
    env = {**os.environ, "RECEIPTGATE_PYTHON": sys.executable, "OPENCLAW_PKG": str(pkg)}
    proc = subprocess.run(
        [node, "--test", "--test-reporter=tap", str(NODE_TESTS / node_tests)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = f"--- stdout ---\n{proc.stdout}\n--- stderr ---\n{proc.stderr}"
    assert proc.returncode == 0, f"node --test failed (exit {proc.returncode})\n{output}"
    assert "# fail 0" in proc.stdout, output
    # The Node files skip themselves without Node 24/openclaw; both were found: nothing may skip.
    assert "# skipped 0" in proc.stdout, output
    assert f"# pass {passes}" in proc.stdout, output
