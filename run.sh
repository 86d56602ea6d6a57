#!/usr/bin/env bash
# Runs redrive with a demo queue. Without REDIS_URL it starts a private redis-server (installing
# Debian's package when missing); a small producer adds ok, flaky, poison and corrupt jobs every
# two seconds so you can watch them complete, retry and land in the dead-letter stream.
# Stop with Ctrl-C. Settings come from the environment or ./.env (see .env.example).
set -euo pipefail
cd "$(dirname "$0")"

if [ -f .env ]; then set -a; . ./.env; set +a; fi

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }
apt_install() {
  as_root apt-get update -qq || true
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

cleanup=()
trap 'for c in "${cleanup[@]}"; do eval "$c"; done' EXIT

if [ -z "${REDIS_URL:-}" ]; then
  command -v redis-server >/dev/null 2>&1 || apt_install redis-server
  port=6390
  while (exec 3<>/dev/tcp/127.0.0.1/$port) 2>/dev/null; do port=$((port + 1)); done
  dir=$(mktemp -d)
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --dir "$dir" \
    --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
  for _ in $(seq 50); do [ -s "$dir/redis.pid" ] && break; sleep 0.1; done
  cleanup+=("kill \$(cat '$dir/redis.pid') 2>/dev/null || true")
  export REDIS_URL="redis://127.0.0.1:$port"
  echo "redrive demo: started a private redis-server at $REDIS_URL"
fi
command -v redis-cli >/dev/null 2>&1 || apt_install redis-tools

mvn -B -q package -DskipTests

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
  cleanup+=("kill $! 2>/dev/null || true")
  echo "redrive demo: producing 5 jobs every 2 s into stream 'demo' (ok, ok, flaky, poison, corrupt)"
fi

echo "redrive demo: dead letters: redis-cli -u $REDIS_URL XRANGE '{demo}:dlq' - +   metrics: curl localhost:9000/q/metrics"
java ${JAVA_OPTS:--Xmx128m} -Dquarkus.profile=demo -jar target/quarkus-app/quarkus-run.jar
