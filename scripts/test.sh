#!/usr/bin/env bash
# The one test command: install the servers the tests start for themselves
# (PostgreSQL, Redis, Chromium, from Debian's packages, when missing), make a venv,
# install receiptgate with its test extras, then lint (ruff), type-check
# (mypy --strict on src/) and run the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-test-services.sh
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
