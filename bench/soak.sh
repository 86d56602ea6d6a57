#!/usr/bin/env bash
# redrive's soak (issue 10): the packaged service under faults for a set time, then an invariant
# check over every job it was given. Not part of CI nor of test.sh. See bench/README.md, "Soak".
#
# Usage: bench/soak.sh
# Env: SOAK_MINUTES (default 20), SOAK_SERVICES (service processes, default 3), SOAK_RATE (jobs/s,
#      default 40), SOAK_MAXLEN (the producer's XADD ... MAXLEN ~, default 5000), SOAK_BUILD=off to use
#      the jar as it is (default: mvn package when sources are newer).
# The invariant check is the tests' own (src/test/java/dev/redrive/testing/JobLedger.java): Soak
# (bench/java/dev/redrive/bench) runs with target/test-classes on its class path.
# Output: progress on stderr, the summary on stdout and in bench/results/soak-<timestamp>/summary.txt
# with each service's log and redis.log. Exit code 0 when every invariant holds, 1 when one does not.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$(dirname "$HERE")"

JAR=target/quarkus-app/quarkus-run.jar
if [ "${SOAK_BUILD:-auto}" != off ] && { [ ! -f "$JAR" ] || [ -n "$(find src pom.xml -newer "$JAR" -type f -print -quit)" ]; }; then
  echo "building the service (mvn -o -q -B package -DskipTests)" >&2
  mvn -o -q -B package -DskipTests >&2
  mkdir -p target/bench-classes && touch target/bench-classes/.built # package compiled the bench too
fi
[ -f "$JAR" ] || { echo "no $JAR; build it first" >&2; exit 1; }
# Soak (bench/java/dev/redrive/bench) is compiled by mvn into target/bench-classes, after the tests
# whose invariant check it runs.
STAMP=target/bench-classes/.built
if [ ! -f "$STAMP" ] || [ -n "$(find bench/java src pom.xml -newer "$STAMP" -type f -print -quit)" ]; then
  echo "compiling the soak (mvn -o -q -B test-compile)" >&2
  mvn -o -q -B test-compile >&2
  touch "$STAMP"
fi
command -v redis-server >/dev/null 2>&1 || { echo "redis-server is missing (apt-get install redis-server)" >&2; exit 1; }

OUT="$HERE/results/soak-$(date -u +%Y%m%dT%H%M%SZ)"
mkdir -p "$OUT"
exec java -cp "target/bench-classes:target/test-classes:target/quarkus-app/lib/main/*:target/quarkus-app/app/*" dev.redrive.bench.Soak --minutes "${SOAK_MINUTES:-20}" --services "${SOAK_SERVICES:-3}" \
  --rate "${SOAK_RATE:-40}" --maxlen "${SOAK_MAXLEN:-5000}" --jar "$JAR" --out "$OUT"
