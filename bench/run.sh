#!/bin/sh
# The benchmark harness in one command: builds the server and the benchmark jars, installs wrk from Debian's
# packages when it is missing (as root), then measures every figure of BENCHMARKS.md on JDK 17 (the `java` on
# the PATH) and the JDK 25 under /usr/lib/jvm when there is one, and writes them into BENCHMARKS.md.
# Usage: bench/run.sh [bench.py options: --seconds N, --streams N, --log-runs N, --jdk NAME=JAVA, --no-write,
#   --only-postgres (just the blocking runs on PostgreSQL, one and two instances: about 1.5 minutes per JDK),
#   --only-start [--jar NAME=JAR[@LAUNCHER] ...] [--tries N] (cold starts: java -jar and bin/hexaflow, on an empty
#   and an existing data dir; see bench/starts.py), --only-durability (runs/s in each HEXAFLOW_DURABILITY),
#   --only-limits [--rounds N] (just blocking runs with every limit of an app on and off, interleaved),
#   --only-inline [--rounds N] [--connections N] (just blocking runs on the request's thread and on the engine's),
#   --only-runs [--rounds N] [--baseline JAR] (a kept run against /health, beside the floor server)]
# It takes about ten minutes on two cores. Benchmarks report; nothing here fails a build.
set -eu
cd "$(dirname "$0")/.."
if ! command -v wrk > /dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq && apt-get install -y -qq wrk > /dev/null
    else
        echo "bench/run.sh needs wrk: sudo apt-get install wrk" >&2
        exit 2
    fi
fi
mvn -B -q -Pbench -DskipTests package
exec python3 bench/bench.py --command "$(echo "bench/run.sh $*" | sed 's/ *$//')" "$@"
