#!/bin/sh
# Soak: the packaged jar on a fresh data dir, blocking runs of bench/apps/four-nodes.yml at RATE a second
# (half the measured peak, see BENCHMARKS.md) for SECONDS, memory sampled each minute.
# Usage: bench/soak.sh [RATE] [SECONDS]    (after mvn -B -DskipTests package)
set -eu
RATE=${1:-160}
SECONDS_TO_RUN=${2:-600}
PORT=${PORT:-18484}
HERE=$(cd "$(dirname "$0")/.." && pwd)
DATA=$(mktemp -d)
TOKEN=soak-admin-token-0123456789
HEXAFLOW_ADMIN_TOKEN=$TOKEN java ${JAVA_OPTS:-} -jar "$HERE/app/target/hexaflow.jar" --port "$PORT" \
    --data-dir "$DATA" > "$DATA/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT
until curl -sf "http://127.0.0.1:$PORT/health" > /dev/null; do sleep 0.2; done
KEY=$(curl -sf -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/yaml' \
    --data-binary @"$HERE/bench/apps/four-nodes.yml" "http://127.0.0.1:$PORT/admin/apps" \
    | python3 -c 'import json, sys; print(json.load(sys.stdin)["api_key"])')
java -version 2>&1 | head -1
python3 "$HERE/bench/soak.py" "http://127.0.0.1:$PORT/v1/workflows/run" "$KEY" "$RATE" "$SECONDS_TO_RUN" "$SERVER"
