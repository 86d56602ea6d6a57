#!/usr/bin/env bash
# Counts the instructions Redis spends per parked job (the failure path: 3 attempts, no backoff)
# and per replayed entry (one bulk redrive of everything parked), with callgrind. Instruction
# counts do not move with the load of the box the way seconds do (the same binary and inputs give
# the same count within a fraction of a percent), so a change to a Lua script can be judged here
# on a busy machine. See bench/README.md, "Instructions per job".
#
# Usage: bench/lua-cost.sh [N]     N jobs (default 10000); the packaged jar must exist
#        (LUA_COST_JAR: another quarkus-run.jar, e.g. a copy of an older build, to compare)
# Output: one line per phase, and the callgrind files and annotations in bench/results/lua-<time>/.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
cd "$ROOT"
N="${1:-10000}"
JAR="${LUA_COST_JAR:-target/quarkus-app/quarkus-run.jar}"
[ -f "$JAR" ] || { echo "no $JAR; build it first (mvn -o -q -B package -DskipTests)" >&2; exit 1; }
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install valgrind)" >&2; exit 1; }

OUT="$HERE/results/lua-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() { local p=$1; while port_in_use "$p"; do p=$((p + 1)); done; echo "$p"; }
PORT=$(free_port 6480)
HTTP=$(free_port 18480)
MGMT=$(free_port $((HTTP + 1)))
R() { redis-cli -p "$PORT" "$@"; }

REDIS_PID="" SERVICE_PID=""
stop_service() {
  if [ -n "$SERVICE_PID" ]; then kill "$SERVICE_PID" 2>/dev/null || true; wait "$SERVICE_PID" 2>/dev/null || true; fi
  SERVICE_PID=""
}
cleanup() {
  stop_service
  if [ -n "$REDIS_PID" ]; then kill "$REDIS_PID" 2>/dev/null || true; wait "$REDIS_PID" 2>/dev/null || true; fi
}
trap cleanup EXIT

# Only what commands cost is counted (processCommand: parsing, the command, the scripts it runs),
# not the event loop or the sockets.
valgrind --tool=callgrind --toggle-collect=processCommand --callgrind-out-file="$OUT/callgrind.out" \
  redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$OUT" \
  >"$OUT/valgrind.log" 2>&1 &
REDIS_PID=$!
for _ in $(seq 300); do [ "$(R ping 2>/dev/null)" = PONG ] && break; sleep 0.1; done

# User bench / bench-secret, role dlq-operator (digest as application.properties expects it).
DIGEST=$(printf '%s' "bench:redrive:bench-secret" | sha256sum | cut -d' ' -f1)
start_service() { # handler
  # No warm-up: its jobs would be counted as the measured ones (the counts are per job, not per start).
  java -Xmx128m -Dredrive.warm-up.jobs=0 -Dquarkus.redis.hosts="redis://127.0.0.1:$PORT" -Dquarkus.http.port="$HTTP" \
    -Dquarkus.management.port="$MGMT" -Dredrive.queues.bench.handler="$1" -Dredrive.queues.bench.attempts=3 \
    -Dredrive.queues.bench.backoff=0ms -Dredrive.queues.bench.concurrency=1000 -Dredrive.queues.bench.batch=200 \
    -Dquarkus.security.users.embedded.users.bench="$DIGEST" \
    -Dquarkus.security.users.embedded.roles.bench=dlq-operator \
    -jar "$JAR" >"$OUT/service-$1.log" 2>&1 &
  SERVICE_PID=$!
  for _ in $(seq 1200); do
    R CLIENT LIST | grep -q cmd=xreadgroup && return 0
    sleep 0.1
  done
  echo "the service did not start reading; see $OUT/service-$1.log" >&2
  exit 1
}
await() { # what, condition command
  for _ in $(seq 1200); do
    if eval "$2"; then return 0; fi
    sleep 0.5
  done
  echo "timed out waiting for $1" >&2
  exit 1
}
# The phase's instructions, per function (inclusive), divided by N.
report() { # phase, dump file
  callgrind_annotate --inclusive=yes "$2" >"$2.txt" 2>/dev/null
  awk -v n="$N" -v phase="$1" '
    /PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
    { gsub(",", "", $1) }
    $0 ~ /evalGenericCommand/ && !ev { ev = $1 }
    $0 ~ /xclaimCommand/ && !xc { xc = $1 }
    $0 ~ /xreadgroupCommand|xreadCommand/ && !xr { xr = $1 }
    $0 ~ /xackCommand/ && !xa { xa = $1 }
    END { printf "%s: %d jobs, %.1fk instructions per job in commands (scripts %.1fk, XCLAIM %.1fk, XREADGROUP %.1fk, XACK %.1fk)\n",
          phase, n, total / n / 1000, ev / n / 1000, xc / n / 1000, xr / n / 1000, xa / n / 1000 }' "$2.txt"
}

# How many calls of each command a job cost (scripts and the commands they ran: a script's
# per-call cost is shared by the jobs of its batch, so fewer calls per job is cheaper).
calls() { # commandstats file
  tr -d '\r' <"$1" | awk -F'[:=,]' -v n="$N" '/^cmdstat_/ { sub("cmdstat_", "", $1); if ($3 / n >= 0.01) printf "%s %.2f  ", $1, $3 / n }
    END { print "calls per job" }'
}

GEN='local n = tonumber(ARGV[1]) for i = 0, n - 1 do redis.call("XADD", KEYS[1], "*", "payload", "{\"job\":" .. i .. "}") end return n'
R EVAL "$GEN" 1 bench:stage "$N" >/dev/null
R XGROUP CREATE bench:stage redrive 0 ENTRIESREAD 0 >/dev/null
R XGROUP CREATE bench redrive '$' MKSTREAM >/dev/null

start_service fail
callgrind_control -z "$REDIS_PID" >/dev/null 2>&1
R CONFIG RESETSTAT >/dev/null
R RENAME bench:stage bench >/dev/null
await "the failure path" '[ "$(R XLEN "{bench}:dlq")" = "$N" ] && [ "$(R XPENDING bench redrive | head -1)" = 0 ]'
callgrind_control -d failure "$REDIS_PID" >/dev/null 2>&1
R INFO commandstats >"$OUT/commandstats-failure.txt"
stop_service
report "failure path (parked jobs)" "$OUT/callgrind.out.1"
calls "$OUT/commandstats-failure.txt"

start_service noop
callgrind_control -z "$REDIS_PID" >/dev/null 2>&1
curl -sf -u bench:bench-secret -H 'Content-Type: application/json' -d '{"filter":{},"maxPerSecond":0}' \
  "http://127.0.0.1:$HTTP/dlq/%7Bbench%7D%3Adlq/redrives" >"$OUT/redrive.json"
await "the redrive" '[ "$(R XLEN "{bench}:dlq")" = 0 ] && [ "$(R XPENDING bench redrive | head -1)" = 0 ]'
callgrind_control -d replay "$REDIS_PID" >/dev/null 2>&1
stop_service
report "bulk replay (replayed entries; XREADGROUP/XACK: running them)" \
  "$OUT/callgrind.out.2"
