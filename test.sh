#!/usr/bin/env bash
# Runs every test: unit, script and end-to-end tests against real redis-server processes that
# the tests start on free ports (never the machine's shared Redis). Installs what it needs.
set -euo pipefail
cd "$(dirname "$0")"

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  as_root apt-get update -qq || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

command -v redis-server >/dev/null 2>&1 || apt_install redis-server
command -v promtool >/dev/null 2>&1 || apt_install prometheus || echo "prometheus not installed: alert rule tests will say so and skip"
# The console's browser tests drive Debian's chromium through Debian's chromedriver (no download).
{ [ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ]; } || apt_install chromium chromium-driver
# it/ClockSkewIT runs a replica with its clock an hour off under Debian's faketime (testing/SkewedReplicas).
[ -r /usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1 ] || apt_install faketime

# it/McpTypeScriptClientIT drives /mcp with the official MCP TypeScript SDK, pinned by its lock file.
command -v npm >/dev/null 2>&1 || apt_install nodejs npm
(cd src/test/mcp-client && npm ci --no-audit --no-fund)

exec mvn -B verify "$@"
