#!/usr/bin/env bash
# bench-feeds.sh: load-test the release feed-server on GET /matrix.json (gzip,
# keep-alive) with wrk, and nginx serving the same bytes as a baseline.
#
# Loopback only, bounded duration. Tunables: THREADS (2), CONNS (64), DURATION (10s).
# Prints requests/s, p50/p99 latency, the feed-server/nginx ratio, and the server's
# RSS before and after the load. Installs wrk (and nginx) with apt-get when root.
# For reference it also measures a bare hyper server (benches/examples/fixed_json.rs)
# answering every request with the feed-server's own gzip bytes: the floor of any
# hyper-based server.
#
# `scripts/bench-feeds.sh --instructions` counts instead, as bench-tools.sh does: the
# feed-server and the bare hyper server run under callgrind while one wrk connection
# sends the same gzip request for DURATION, and it prints the instructions each executes
# per request; each server runs one tokio worker (`CALLGRIND` in scripts/lib-proc.sh), so
# these repeat closely whatever else the machine is doing.
# FEED_SERVER_FLAGS adds flags to the feed server in both modes, e.g.
# FEED_SERVER_FLAGS="--metrics-listen 127.0.0.1:0" to measure it with metrics on.
set -euo pipefail
MODE=load
case "${1:-}" in
  "") ;;
  --instructions) MODE=instructions ;;
  *) echo "usage: $0 [--instructions]" >&2; exit 2 ;;
esac

ROOT=$(cd "$(dirname "$0")/.." && pwd)
THREADS=${THREADS:-2}
CONNS=${CONNS:-64}
DURATION=${DURATION:-10s}

say() { echo "bench-feeds: $*" >&2; }

# shellcheck source=scripts/lib-proc.sh
source "$ROOT/scripts/lib-proc.sh"
need wrk wrk || exit 1
[ "$MODE" = instructions ] && { need valgrind valgrind || exit 1; }

rss() { awk '/^VmRSS/ { print $2 " " $3 }' "/proc/$1/status"; }

# shellcheck source=scripts/lib-cpu.sh
source "$ROOT/scripts/lib-cpu.sh"
echo "== host: $(host_line)"

# Runs wrk against $1 and prints "requests/s p50 p99".
load() {
    local out
    out=$(wrk -t"$THREADS" -c"$CONNS" -d"$DURATION" --latency -H 'Accept-Encoding: gzip' "$1")
    echo "$out" >&2
    local rps p50 p99
    rps=$(echo "$out" | awk '/^Requests\/sec:/ { print $2 }')
    p50=$(echo "$out" | awk '$1 == "50%" { print $2 }')
    p99=$(echo "$out" | awk '$1 == "99%" { print $2 }')
    echo "$rps $p50 $p99"
}

TMP=$(mktemp -d)
trap 'stop_started; rm -rf "$TMP"' EXIT

say "building feed-server --release"
(cd "$ROOT" && cargo build --release -q -p feed-server && cargo build --release -q -p benches --example fixed_json)

BIN=$(cd "$ROOT" && target_dir)/release

# count LOG COMMAND...: starts the server under callgrind (its stderr in LOG), counts
# from a clean slate while one wrk connection asks for /matrix.json (gzip) for
# DURATION, and prints "REQUESTS TOTAL-INSTRUCTIONS".
count() {
    local log=$1; shift
    start_server "$log" "${CALLGRIND[@]}" --callgrind-out-file="$log.out" "$@"
    local pid=$STARTED_PID url requests
    url=http://$(announced_addr "$log" "$pid" "" 60)
    curl -sf -o /dev/null -H 'Accept-Encoding: gzip' "$url/matrix.json"
    callgrind_zero "$pid"
    requests=$(wrk -t1 -c1 -d"$DURATION" -H 'Accept-Encoding: gzip' "$url/matrix.json" \
        | awk '/requests in/ { print $1 }')
    callgrind_control -d "$pid" >/dev/null 2>&1
    kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null || true
    echo "$requests $(sed -n 's/^totals: //p' "$log.out.1")"
}

if [ "$MODE" = instructions ]; then
    # shellcheck disable=SC2086 # FEED_SERVER_FLAGS is a list of flags
    read -r FEED_N FEED_TOTAL < <(count "$TMP/server.log" \
        "$BIN/feed-server" --listen 127.0.0.1:0 ${FEED_SERVER_FLAGS:-})
    cp "$ROOT/fixtures/snapshot/matrix.json" "$TMP/matrix.json"
    gzip -9 -k "$TMP/matrix.json"
    read -r HYPER_N HYPER_TOTAL < <(count "$TMP/hyper.log" \
        "$BIN/examples/fixed_json" 127.0.0.1:0 "$TMP/matrix.json.gz" gzip)
    echo "== callgrind, one tokio worker, wrk -t1 -c1 -d$DURATION GET /matrix.json gzip (instructions per request)"
    awk -v fn="$FEED_N" -v ft="$FEED_TOTAL" -v hn="$HYPER_N" -v ht="$HYPER_TOTAL" 'BEGIN {
        printf "feed-server GET /matrix.json: %.1f k over %d requests\n", ft / fn / 1000, fn
        printf "bare hyper, gzip bytes:       %.1f k over %d requests\n", ht / hn / 1000, hn
        printf "feed-server = %.2f x baseline instructions per request\n", (ft / fn) / (ht / hn)
    }'
    exit 0
fi

# shellcheck disable=SC2086 # FEED_SERVER_FLAGS is a list of flags
start_server "$TMP/server.log" "$BIN/feed-server" --listen 127.0.0.1:0 ${FEED_SERVER_FLAGS:-}
SERVER_PID=$STARTED_PID
URL=http://$(announced_addr "$TMP/server.log" "$SERVER_PID")
curl -sf -o /dev/null -H 'Accept-Encoding: gzip' "$URL/matrix.json"

RSS_BEFORE=$(rss "$SERVER_PID")
say "feed-server at $URL: wrk -t$THREADS -c$CONNS -d$DURATION --latency -H 'Accept-Encoding: gzip' $URL/matrix.json"
TICKS=$(cpu_ticks "$SERVER_PID")
read -r FEED_RPS FEED_P50 FEED_P99 < <(load "$URL/matrix.json")
FEED_CPU=$(cpu_per_request $(($(cpu_ticks "$SERVER_PID") - TICKS)) "$FEED_RPS" "$DURATION")
RSS_AFTER=$(rss "$SERVER_PID")

curl -sf -H 'Accept-Encoding: gzip' -o "$TMP/matrix.json.gz" "$URL/matrix.json"
start_server "$TMP/hyper.log" "$BIN/examples/fixed_json" 127.0.0.1:0 "$TMP/matrix.json.gz" gzip
HYPER_PID=$STARTED_PID
HYPER_URL=http://$(announced_addr "$TMP/hyper.log" "$HYPER_PID")
say "bare hyper at $HYPER_URL, the same gzip bytes"
read -r HYPER_RPS HYPER_P50 HYPER_P99 < <(load "$HYPER_URL/matrix.json")
kill "$HYPER_PID" 2>/dev/null; wait "$HYPER_PID" 2>/dev/null || true

NGINX_LINE="nginx: not available (install nginx-light or nginx to get the baseline)"
if need nginx nginx-light nginx; then
    mkdir -p "$TMP/www" "$TMP/logs"
    cp "$ROOT/fixtures/snapshot/matrix.json" "$TMP/www/"
    GZIP_LINE="gzip on; gzip_types application/json; gzip_comp_level 6;"
    if nginx -V 2>&1 | grep -q gzip_static; then
        gzip -9 -k "$TMP/www/matrix.json"
        GZIP_LINE="gzip_static on;"
    fi
    chmod -R a+rX "$TMP"
    NPORT=$(free_port)
    cat >"$TMP/nginx.conf" <<CONF
worker_processes auto;
pid $TMP/nginx.pid;
error_log $TMP/logs/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 1000000;
    types { application/json json; }
    client_body_temp_path $TMP/logs;
    proxy_temp_path $TMP/logs;
    fastcgi_temp_path $TMP/logs;
    uwsgi_temp_path $TMP/logs;
    scgi_temp_path $TMP/logs;
    server {
        listen 127.0.0.1:$NPORT;
        root $TMP/www;
        $GZIP_LINE
    }
}
CONF
    start_server "$TMP/logs/start.log" nginx -p "$TMP" -c "$TMP/nginx.conf" -g 'daemon off;'
    NGINX_PID=$STARTED_PID
    for _ in $(seq 50); do
        curl -sf -o /dev/null "http://127.0.0.1:$NPORT/matrix.json" && break
        sleep 0.1
    done
    NGINX_URL="http://127.0.0.1:$NPORT/matrix.json"
    ENCODING=$(curl -sI -H 'Accept-Encoding: gzip' "$NGINX_URL" | tr -d '\r' | awk 'tolower($1) == "content-encoding:" { print $2 }')
    say "nginx at $NGINX_URL (${GZIP_LINE%%;*}, content-encoding: ${ENCODING:-none})"
    WORKERS=$(pgrep -P "$NGINX_PID" | tr '\n' ' ')
    # shellcheck disable=SC2086 # one argument per worker
    TICKS=$(cpu_ticks $WORKERS)
    read -r NGINX_RPS NGINX_P50 NGINX_P99 < <(load "$NGINX_URL")
    # shellcheck disable=SC2086
    NGINX_CPU=$(cpu_per_request $(($(cpu_ticks $WORKERS) - TICKS)) "$NGINX_RPS" "$DURATION")
    RATIO=$(awk -v a="$FEED_RPS" -v b="$NGINX_RPS" 'BEGIN { printf "%.2f", a / b }')
    CPU_RATIO=$(awk -v a="$FEED_CPU" -v b="$NGINX_CPU" 'BEGIN { printf "%.2f", a / b }')
    NGINX_LINE="nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'): $NGINX_RPS req/s, p50 $NGINX_P50, p99 $NGINX_P99, $NGINX_CPU us CPU/request (${GZIP_LINE%%;*})
feed-server/nginx: throughput $RATIO, CPU per request $CPU_RATIO (lower is cheaper)"
fi

echo
echo "GET /matrix.json, Accept-Encoding: gzip, keep-alive: wrk -t$THREADS -c$CONNS -d$DURATION --latency ($(nproc) cores, loopback)"
echo "feed-server: $FEED_RPS req/s, p50 $FEED_P50, p99 $FEED_P99, $FEED_CPU us CPU/request"
echo "bare hyper, same gzip bytes (reference): $HYPER_RPS req/s, p50 $HYPER_P50, p99 $HYPER_P99"
echo "$NGINX_LINE"
echo "feed-server RSS: $RSS_BEFORE before, $RSS_AFTER after load"
