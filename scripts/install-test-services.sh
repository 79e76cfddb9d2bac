#!/usr/bin/env bash
# Installs, from Debian's packages, the servers the test suite starts for itself:
# PostgreSQL and Redis (the multi-instance service tests) and Chromium (the
# dashboard tests, driven by Playwright with executablePath=/usr/bin/chromium).
# Idempotent: nothing is installed when the programs are already there.
# The tests start and stop their own private server processes (tests/services.py);
# nothing here starts a system service.
set -euo pipefail
need=()
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || need+=(postgresql)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
[ -x /usr/bin/chromium ] || need+=(chromium)
[ ${#need[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing from Debian: ${need[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null
$SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
