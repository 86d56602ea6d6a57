#!/usr/bin/env bash
# Runs redrive with a demo queue. Without REDIS_URL it starts a private redis-server (installing
# Debian's package when missing); a small producer adds ok, flaky, poison and corrupt jobs every
# two seconds so you can watch them complete, retry and land in the dead-letter stream.
# Stop with Ctrl-C or SIGTERM: the service drains first, then the producer and Redis stop.
# Settings come from the environment or ./.env (see .env.example); RUN_BUILD=auto (default: build
# when a source is newer than the jar), always, or off (use the jar as it is).
# The Redis URL in use is written to .run/redis-url while it runs.
set -euo pipefail
cd "$(dirname "$0")"

if [ -f .env ]; then set -a; . ./.env; set +a; fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  as_root apt-get update -qq || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

java_pid=""
producer_pid=""
redis_dir=""
stop() {
  trap - EXIT INT TERM
  # The service first, while Redis is still there: it stops reading, lets running jobs finish and
  # acks them. Then the producer, then Redis.
  if [ -n "$java_pid" ]; then
    kill -TERM "$java_pid" 2>/dev/null || true
    wait "$java_pid" 2>/dev/null || true
  fi
  if [ -n "$producer_pid" ]; then
    kill "$producer_pid" 2>/dev/null || true
    wait "$producer_pid" 2>/dev/null || true
  fi
  if [ -n "$redis_dir" ] && [ -s "$redis_dir/redis.pid" ]; then
    local pid
    pid=$(cat "$redis_dir/redis.pid")
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f .run/redis-url
}
trap stop EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

if [ -z "${REDIS_URL:-}" ]; then
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  port=6390
  while (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do port=$((port + 1)); done
  redis_dir=$(mktemp -d)
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$redis_dir" \
    --daemonize yes --pidfile "$redis_dir/redis.pid" --logfile "$redis_dir/redis.log"
  for _ in $(seq 50); do [ -s "$redis_dir/redis.pid" ] && break; sleep 0.1; done
  export REDIS_URL="redis://127.0.0.1:$port"
  echo "redrive demo: started a private redis-server at $REDIS_URL"
fi
command -v redis-cli >/dev/null 2>&1 || apt_install redis-tools
mkdir -p .run
(umask 077; echo "$REDIS_URL" > .run/redis-url) # may hold a password

jar=target/quarkus-app/quarkus-run.jar
case "${RUN_BUILD:-auto}" in
  always) mvn -B -q package -DskipTests ;;
  auto) if [ ! -f "$jar" ] || [ -n "$(find src pom.xml -newer "$jar" -type f -print -quit)" ]; then
          mvn -B -q package -DskipTests
        fi ;;
  off) [ -f "$jar" ] || { echo "RUN_BUILD=off but $jar is missing" >&2; exit 1; } ;;
  *) echo "RUN_BUILD must be auto, always or off" >&2; exit 2 ;;
esac

if [ "${DEMO_PRODUCER:-on}" != off ]; then
  (
    n=0
    while sleep 2; do
      for kind in ok ok flaky poison corrupt; do
        n=$((n + 1))
        redis-cli -u "$REDIS_URL" XADD demo '*' kind "$kind" job "demo-$kind" payload "{\"doc\":$n}" >/dev/null
      done
    done
  ) &
  producer_pid=$!
  echo "redrive demo: producing 5 jobs every 2 s into stream 'demo' (ok, ok, flaky, poison, corrupt)"
fi

echo "redrive demo: dead letters: redis-cli -u $REDIS_URL XRANGE '{demo}:dlq' - +"
echo "redrive demo: metrics: curl -s localhost:${MANAGEMENT_PORT:-9000}/q/metrics | grep ^redrive_"
# In the background so that a signal to this script reaches the trap at once; the trap drains it.
java ${JAVA_OPTS:--Xmx128m} -Dquarkus.profile=demo -jar "$jar" &
java_pid=$!
wait "$java_pid"
