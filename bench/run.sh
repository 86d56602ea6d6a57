#!/usr/bin/env bash
# redrive's benchmark (issue 6): starts a private redis-server (no persistence) on a free port, runs
# the packaged service (target/quarkus-app/quarkus-run.jar) with bench handlers for each measurement,
# prints one JSON line per measurement and a summary table. See bench/README.md.
#
# Usage: bench/run.sh [--jobs N] [--reps R] [--only LIST] [--concurrency C] [--peers]
#   --jobs N         success-path jobs (default 200000); failure path N/2, replay N/2, HTTP N/4
#   --reps R         timed repetitions of the success and cost-growth runs, interleaved (default 5)
#   --only LIST      comma list of: success,growth,failure,replay,latency,http,traced,console, and issue 12's
#                    manyqueues,idle,punctuality,httpceiling (Scale; "scale" = those four) (default all);
#                    console: 100,000 dead letters, the console's Overview, Causes and a filtered Entries page;
#                    issue 24's tls (success and failure paths over TLS beside plain text) and replicas
#                    (a primary and a replica: success, failure, bulk replay with wait-replicas=1 beside 0)
#   --queues LIST    manyqueues: the queue counts, one service each (default 1,100,1000)
#   --idle-seconds S idle: the window with 1,000 idle queues (default 60)
#   --retry-jobs N   punctuality: jobs failing once (default 10000)
#   --concurrency C  the queue's concurrency (default 1000; batch is min(C, 200) as redrive defaults)
#   --latency-seconds S   length of the latency run (default 30)
#   --peers          afterwards, run a private copy of the peers ($PEERS_DIR, default
#                    /work/shared/bench/peers; run.sh --jobs N/2) in the same session
#   --no-build       use the jar as it is (default: mvn -o package when sources are newer than the jar)
# Env: BENCH_QUEUE_OPTS (extra queue properties, e.g. "retry-poll=10ms,concurrency=400"),
#      BENCH_JAVA_OPTS (JVM options for the service; default -Xmx128m, what docker/Dockerfile.jvm and
#      run.sh ship with; e.g. add a JFR recording; "{tag}"
#      becomes the measurement's name), REDIS_PORT (first port to try, default 6400),
#      BENCH_JAR (the service's jar, default target/quarkus-app/quarkus-run.jar: A/B of two builds).
# Output: the table on stdout; JSON lines, service logs and redis.log in bench/results/<timestamp>/.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
cd "$ROOT"

JOBS=200000; REPS=5; ONLY="success,growth,failure,replay,latency,http,traced,console,manyqueues,idle,punctuality,httpceiling,tls,replicas"
CONC=1000; LAT_S=30; PEERS=0; BUILD=1; QUEUES=1,100,1000; IDLE_S=60; RETRY_JOBS=10000
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) JOBS="${2:?}"; shift 2 ;;
    --reps) REPS="${2:?}"; shift 2 ;;
    --only) ONLY="${2:?}"; shift 2 ;;
    --concurrency) CONC="${2:?}"; shift 2 ;;
    --latency-seconds) LAT_S="${2:?}"; shift 2 ;;
    --queues) QUEUES="${2:?}"; shift 2 ;;
    --idle-seconds) IDLE_S="${2:?}"; shift 2 ;;
    --retry-jobs) RETRY_JOBS="${2:?}"; shift 2 ;;
    --peers) PEERS=1; shift ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
ONLY="${ONLY//scale/manyqueues,idle,punctuality,httpceiling}"
[[ "$JOBS" =~ ^[0-9]+$ ]] && [ "$JOBS" -ge 100 ] || { echo "--jobs must be an integer >= 100" >&2; exit 2; }

JAR="${BENCH_JAR:-target/quarkus-app/quarkus-run.jar}"
if [ "$BUILD" = 1 ] && { [ ! -f "$JAR" ] || [ -n "$(find src pom.xml -newer "$JAR" -type f -print -quit)" ]; }; then
  echo "building the service (mvn -o -q -B package -DskipTests)" >&2
  mvn -o -q -B package -DskipTests >&2
  mkdir -p target/bench-classes && touch target/bench-classes/.built # package compiled the bench too
fi
[ -f "$JAR" ] || { echo "no $JAR; build it first" >&2; exit 1; }

TS="$(date -u +%Y%m%dT%H%M%SZ)"
OUT="$HERE/results/$TS"
mkdir -p "$OUT"

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT="${REDIS_PORT:-6400}"
while port_in_use "$PORT"; do PORT=$((PORT + 1)); done

REDIS_PID=""
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  if [ -n "$REDIS_PID" ] && kill -0 "$REDIS_PID" 2>/dev/null; then kill "$REDIS_PID" 2>/dev/null || true; wait "$REDIS_PID" 2>/dev/null || true; fi
  [ "$rc" = 0 ] || echo "FAILED (exit $rc); logs in $OUT" >&2
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

redis-server --port "$PORT" --bind 127.0.0.1 --save "" --appendonly no --dir "$OUT" --logfile "$OUT/redis.log" \
  --daemonize no &
REDIS_PID=$!
for _ in $(seq 100); do [ "$(redis-cli -p "$PORT" ping 2>/dev/null)" = PONG ] && break; sleep 0.1; done
[ "$(redis-cli -p "$PORT" ping 2>/dev/null)" = PONG ] || { echo "redis-server did not start" >&2; exit 1; }
echo "redis-server $(redis-server --version | awk '{print $3}') pid $REDIS_PID on 127.0.0.1:$PORT; jobs=$JOBS reps=$REPS concurrency=$CONC; $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

# The harness (bench/java/dev/redrive/bench, its own source set in pom.xml: mvn compiles it into
# target/bench-classes after the tests, whose fixtures it builds on) runs on the service's own
# libraries (Vert.x Redis client, Vert.x HTTP server) and classes (the dead-letter record, keys and
# scripts it seeds with), taken from the jar under test.
STAMP=target/bench-classes/.built
if [ ! -f "$STAMP" ] || [ -n "$(find bench/java src pom.xml -newer "$STAMP" -type f -print -quit)" ]; then
  echo "compiling the bench (mvn -o -q -B test-compile)" >&2
  mvn -o -q -B test-compile >&2
  touch "$STAMP"
fi
APP="$(dirname "$JAR")"
CP="target/bench-classes:target/test-classes:$APP/lib/main/*:$APP/app/*"

# traced: the SDK's floor beside each rep is the peers' jvm/OtelFloor; success: their raw JVM drain
# (jvm/RawDrain) after each rep; built once in a private copy (Maven offline first; the OTLP
# sender is not among the service's artifacts, so then once online)
if [[ ",$ONLY," == *,traced,* || ",$ONLY," == *,success,* ]]; then
  PEERS_JVM="${PEERS_JVM:-${TMPDIR:-/tmp}/redrive-bench-peers/jvm}"
  if [ ! -f "$PEERS_JVM/target/classes/OtelFloor.class" ]; then
    mkdir -p "$PEERS_JVM" && cp -r "${PEERS_DIR:-/work/shared/bench/peers}/jvm/." "$PEERS_JVM/" && chmod -R u+w "$PEERS_JVM"
    (cd "$PEERS_JVM" && { mvn -o -q -B package > build.txt 2>&1 || mvn -q -B package >> build.txt 2>&1; }) \
      || echo "the peers' jvm/ did not build (see $PEERS_JVM/build.txt): the tracing floor is not measured" >&2
  fi
  export PEERS_JVM
fi
java -cp "$CP" dev.redrive.bench.Bench --redis-port "$PORT" --jobs "$JOBS" --reps "$REPS" \
  --only "$ONLY" --concurrency "$CONC" --latency-seconds "$LAT_S" --jar "$JAR" --out "$OUT" \
  --queues "$QUEUES" --idle-seconds "$IDLE_S" --retry-jobs "$RETRY_JOBS" \
  --java-opts "${BENCH_JAVA_OPTS:--Xmx128m}" | tee "$OUT/stdout.txt" | { grep --line-buffered '^RESULT ' || true; } | sed -u 's/^RESULT //'
grep '^RESULT ' "$OUT/stdout.txt" | sed 's/^RESULT //' > "$OUT/results.jsonl"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

python3 "$HERE/summarize.py" "$OUT/results.jsonl" | tee "$OUT/summary.txt"

if [ "$PEERS" = 1 ]; then
  kill "$REDIS_PID" 2>/dev/null || true; wait "$REDIS_PID" 2>/dev/null || true; REDIS_PID=""
  # a private copy: as root, the peers' run.sh would otherwise write node_modules and logs into shared/
  PEERS_SRC="${PEERS_DIR:-/work/shared/bench/peers}"
  PEERS_COPY="${TMPDIR:-/tmp}/redrive-bench-peers"
  mkdir -p "$PEERS_COPY" && cp -r "$PEERS_SRC"/. "$PEERS_COPY"/ && chmod -R u+w "$PEERS_COPY"
  bash "$PEERS_COPY/run.sh" --jobs $((JOBS / 2)) 2>&1 | tee "$OUT/peers.txt"
fi
