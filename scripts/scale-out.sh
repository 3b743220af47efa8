#!/usr/bin/env bash
# scale-out.sh: the service as deployed at scale, on loopback. nginx (Debian's package,
# installed here when missing) runs deploy/nginx/dcx.conf, addresses rewritten, in front
# of two feed-server and two tool-server replicas (release builds) that share one history
# folder. wrk loads the feeds (through the cache, plus the uncached /health) and the
# tools/call route, and the script:
#
#   1. measures what the proxy cache takes off the replicas: the same feed load with the
#      cache on and off, counting requests that reach a replica and the replicas' CPU;
#   2. under load, stops one replica of each kind with SIGTERM, starts it again, and
#      publishes a new day (dcx build) that the replicas pick up by polling: the goal is
#      0 failed requests;
#   3. under load, kills the other replica of each kind with SIGKILL: nginx retries the
#      requests it lost on the surviving replica; the script reports the failures
#      (MAX_KILL_FAILURES, 5 by default, is the most it accepts: requests in flight on
#      the killed replica that nginx could not resend);
#   4. reports how long the proxy kept serving the previous day after the publish.
#
# A failed request is one wrk saw fail: a status other than 2xx/3xx, or a socket error.
# Tunables: PHASE (seconds per step, 8), THREADS (2), CONNS (16). Takes about 2 minutes
# (PHASE=4 in CI: about 1) plus the release build. Exits 1 when a goal is missed.
# docs/operations.md records the figures.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
PHASE=${PHASE:-8}
THREADS=${THREADS:-2}
CONNS=${CONNS:-16}
MAX_KILL_FAILURES=${MAX_KILL_FAILURES:-5}
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}
BIN=$CARGO_TARGET_DIR/release
SAMPLE=$ROOT/fixtures/listings/diamonds-sample.csv

say() { echo "scale-out: $*" >&2; }
fail() {
    say "FAILED: $*"
    if [ -f "${TMP:-}/nginx/logs/access.log" ]; then
        say "nginx answers by status, cache status, upstream status:"
        awk '{ print $1, $2, $4 }' "$TMP/nginx/logs/access.log" | sort | uniq -c | sort -rn | head >&2
        tail -n 5 "$TMP/nginx/logs/error.log" >&2
    fi
    exit 1
}

# shellcheck source=scripts/lib-proc.sh
source "$ROOT/scripts/lib-proc.sh"
need nginx nginx-light nginx || fail "nginx is missing"
need wrk wrk || fail "wrk is missing"

# shellcheck source=scripts/lib-cpu.sh
source "$ROOT/scripts/lib-cpu.sh"
echo "== host: $(host_line)"

say "building feed-server, tool-server, dcx --release"
(cd "$ROOT" && cargo build --release --locked -q -p feed-server -p tool-server -p dcx)

TMP=$(mktemp -d)
declare -A PID=()
cleanup() {
    # TERM, not KILL: nginx's master then stops its workers too.
    for name in "${!PID[@]}"; do kill -TERM "${PID[$name]}" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$TMP"
}
trap cleanup EXIT

# --- the history: the two days before today; today is published mid-run -----------------
HISTORY=$TMP/history
publish() {
    "$BIN/dcx" build --format diamonds --listings "$SAMPLE" --history "$HISTORY" --date "$1" >/dev/null
}
TODAY=$(date -u +%F)
publish "$(date -u -d '2 days ago' +%F)"
publish "$(date -u -d 'yesterday' +%F)"

# --- replicas ----------------------------------------------------------------------------
declare -A PORT=([feed1]=$(free_port) [feed2]=$(free_port) [tool1]=$(free_port) [tool2]=$(free_port))
start_replica() {
    local name=$1 binary
    case $name in feed*) binary=feed-server ;; *) binary=tool-server ;; esac
    "$BIN/$binary" --listen "127.0.0.1:${PORT[$name]}" --history "$HISTORY" --poll-secs 1 --trusted-proxy 127.0.0.1 \
        2>>"$TMP/$name.log" &
    PID[$name]=$!
    for _ in $(seq 100); do
        curl -sf -o /dev/null "http://127.0.0.1:${PORT[$name]}/health" && return 0
        sleep 0.1
    done
    cat "$TMP/$name.log" >&2
    fail "$name did not start"
}
for name in feed1 feed2 tool1 tool2; do start_replica "$name"; done
replica_ticks() { cpu_ticks "${PID[feed1]}" "${PID[feed2]}"; }

# --- nginx: deploy/nginx/dcx.conf with loopback addresses --------------------------------
NGINX_FEEDS=$(free_port)
NGINX_TOOLS=$(free_port)
mkdir -p "$TMP/nginx/logs" "$TMP/nginx/cache"
# nginx started as root runs its workers as another user: they write the cache and temp files.
chmod 755 "$TMP" "$TMP/nginx"
chmod 777 "$TMP/nginx/logs" "$TMP/nginx/cache"
# $1: "on" keeps the example's feed cache, "off" turns it off.
write_nginx_conf() {
    sed -e "s|/var/cache/nginx/dcx|$TMP/nginx/cache|" \
        -e "s|server 127.0.0.1:8080 |server 127.0.0.1:${PORT[feed1]} |" \
        -e "s|server 127.0.0.1:8090 |server 127.0.0.1:${PORT[feed2]} |" \
        -e "s|server 127.0.0.1:8081 |server 127.0.0.1:${PORT[tool1]} |" \
        -e "s|server 127.0.0.1:8091 |server 127.0.0.1:${PORT[tool2]} |" \
        "$ROOT/deploy/nginx/dcx.conf" |
        awk -v feeds="$NGINX_FEEDS" -v tools="$NGINX_TOOLS" -v cache="$1" '
            /^ *listen 80;/ { n++; sub(/80/, "127.0.0.1:" (n == 1 ? feeds : tools)) }
            cache == "off" && /^ *proxy_cache dcx_feeds;/ { sub(/dcx_feeds/, "off") }
            { print }' >"$TMP/nginx/dcx.conf"
    grep -q "listen 127.0.0.1:$NGINX_TOOLS;" "$TMP/nginx/dcx.conf" || fail "could not rewrite deploy/nginx/dcx.conf"
}
cat >"$TMP/nginx/nginx.conf" <<CONF
worker_processes 1;
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/logs/error.log;
events { worker_connections 4096; }
http {
    log_format scale '\$status "\$upstream_cache_status" "\$upstream_addr" "\$upstream_status" \$request_method \$uri';
    access_log $TMP/nginx/logs/access.log scale;
    client_body_temp_path $TMP/nginx/logs;
    proxy_temp_path $TMP/nginx/logs;
    fastcgi_temp_path $TMP/nginx/logs;
    uwsgi_temp_path $TMP/nginx/logs;
    scgi_temp_path $TMP/nginx/logs;
    include $TMP/nginx/dcx.conf;
}
CONF
start_nginx() {
    write_nginx_conf "$1"
    nginx -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" -g 'daemon off;' 2>>"$TMP/nginx/logs/start.log" &
    PID[nginx]=$!
    for _ in $(seq 50); do
        curl -sf -o /dev/null "http://127.0.0.1:$NGINX_FEEDS/health" && return 0
        sleep 0.1
    done
    cat "$TMP/nginx/logs/"*.log >&2
    fail "nginx did not start"
}
stop_nginx() {
    kill -QUIT "${PID[nginx]}"
    wait "${PID[nginx]}" 2>/dev/null || true
    unset 'PID[nginx]'
}

# --- load --------------------------------------------------------------------------------
FEEDS_URL=http://127.0.0.1:$NGINX_FEEDS
TOOLS_URL=http://127.0.0.1:$NGINX_TOOLS
cat >"$TMP/feeds.lua" <<'LUA'
-- The six feeds (gzip) round robin; with HEALTH set, every fifth request is /health.
local paths = { "/matrix.json", "/matrix_cushion.json", "/matrix_stats.json", "/ratio_models.json", "/index.json", "/depth.json" }
local health = os.getenv("HEALTH") == "1"
local n = 0
wrk.headers["Accept-Encoding"] = "gzip"
request = function()
    n = n + 1
    if health and n % 5 == 0 then return wrk.format("GET", "/health") end
    return wrk.format("GET", paths[n % #paths + 1])
end
LUA
cat >"$TMP/tools.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "get_diamond_price"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_diamond_price","arguments":{"carat":1.23,"color":"G","clarity":"VS2"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
LUA

# wrk in the background: $1 name, $2 URL, $3 Lua script, $4 seconds, then env settings.
start_wrk() {
    local name=$1 url=$2 lua=$3 secs=$4
    shift 4
    env "$@" wrk -t"$THREADS" -c"$CONNS" -d"${secs}s" -s "$lua" "$url" >"$TMP/$name.wrk" 2>&1 &
    PID[wrk_$name]=$!
}
wait_wrk() {
    wait "${PID[wrk_$1]}" || true
    unset "PID[wrk_$1]"
}
# "REQUESTS FAILED" of a finished wrk run: failed = non-2xx/3xx + socket errors.
wrk_counts() {
    awk '/requests in/ { total = $1 }
         /Non-2xx or 3xx responses:/ { bad += $NF }
         /Socket errors:/ { gsub(",", ""); bad += $4 + $6 + $8 + $10 }
         END { print total + 0, bad + 0 }' "$TMP/$1.wrk"
}
log_lines() { wc -l <"$TMP/nginx/logs/access.log"; }

# --- 1. what the cache takes off the replicas --------------------------------------------
# Runs the feed load with the cache $1 (on/off); sets MEASURED to "REQUESTS LOGGED
# REACHED TICKS": client requests, nginx log lines, requests that reached a replica
# (an upstream address logged), replica CPU ticks.
measure_cache() {
    local mode=$1 from ticks reached total requests failed
    start_nginx "$mode"
    curl -s -o /dev/null -H 'Accept-Encoding: gzip' "$FEEDS_URL/index.json"
    from=$(log_lines)
    ticks=$(replica_ticks)
    start_wrk "cache_$mode" "$FEEDS_URL" "$TMP/feeds.lua" "$PHASE"
    wait_wrk "cache_$mode"
    ticks=$(($(replica_ticks) - ticks))
    total=$(tail -n +"$((from + 1))" "$TMP/nginx/logs/access.log" | wc -l)
    reached=$(tail -n +"$((from + 1))" "$TMP/nginx/logs/access.log" | grep -vc '"-" "-" GET' || true)
    stop_nginx
    read -r requests failed < <(wrk_counts "cache_$mode")
    [ "$failed" = 0 ] || fail "cache $mode: $failed failed requests in a steady run"
    MEASURED="$requests $total $reached $ticks"
}
say "step 1: feed load through nginx with the cache off, then on (${PHASE}s each)"
measure_cache off
read -r OFF_REQ OFF_TOTAL OFF_REACHED OFF_TICKS <<<"$MEASURED"
measure_cache on
read -r ON_REQ ON_TOTAL ON_REACHED ON_TICKS <<<"$MEASURED"
HZ=$(getconf CLK_TCK)

# --- 2. graceful stop, restart and a new day, under load ---------------------------------
start_nginx on
say "step 2: SIGTERM feed1 and tool1 at ${PHASE}s, restart them at $((2 * PHASE))s, publish $TODAY at $((3 * PHASE))s; load for $((5 * PHASE))s"
start_wrk graceful_feeds "$FEEDS_URL" "$TMP/feeds.lua" $((5 * PHASE)) HEALTH=1
start_wrk graceful_tools "$TOOLS_URL" "$TMP/tools.lua" $((5 * PHASE))
sleep "$PHASE"
kill -TERM "${PID[feed1]}" "${PID[tool1]}"
wait "${PID[feed1]}" || fail "feed1 exited $? after SIGTERM"
wait "${PID[tool1]}" || fail "tool1 exited $? after SIGTERM"
say "feed1 and tool1 stopped (exit 0); restarting them at $((2 * PHASE))s"
sleep "$PHASE"
start_replica feed1
start_replica tool1
sleep "$PHASE"
PUBLISHED_AT=$(date +%s.%N)
publish "$TODAY"
say "published $TODAY"
# How long the proxy serves the previous day once the new one is published: the replicas
# poll every second; the cache keeps an overdue day's feeds up to max-age=60.
STALE=""
for _ in $(seq 900); do
    if curl -s -H 'Accept-Encoding: gzip' --compressed "$FEEDS_URL/index.json" | grep -q "${TODAY}T"; then
        STALE=$(awk -v a="$PUBLISHED_AT" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
        break
    fi
    sleep 0.1
done
wait_wrk graceful_feeds
wait_wrk graceful_tools
for name in feed1 feed2 tool1 tool2; do
    curl -s "http://127.0.0.1:${PORT[$name]}/health" | grep -q "$TODAY" || fail "$name does not serve $TODAY"
done
[ -n "$STALE" ] || fail "the proxy still served the previous day 90 s after the publish"
read -r GF_REQ GF_FAILED < <(wrk_counts graceful_feeds)
read -r GT_REQ GT_FAILED < <(wrk_counts graceful_tools)

# --- 3. a hard kill under load ------------------------------------------------------------
say "step 3: SIGKILL feed2 and tool2 at ${PHASE}s; load for $((2 * PHASE))s"
start_wrk kill_feeds "$FEEDS_URL" "$TMP/feeds.lua" $((2 * PHASE)) HEALTH=1
start_wrk kill_tools "$TOOLS_URL" "$TMP/tools.lua" $((2 * PHASE))
sleep "$PHASE"
kill -KILL "${PID[feed2]}" "${PID[tool2]}"
wait "${PID[feed2]}" "${PID[tool2]}" 2>/dev/null || true
unset 'PID[feed2]' 'PID[tool2]'
wait_wrk kill_feeds
wait_wrk kill_tools
read -r KF_REQ KF_FAILED < <(wrk_counts kill_feeds)
read -r KT_REQ KT_FAILED < <(wrk_counts kill_tools)
RETRIED=$(grep -c ', 127\.0\.0\.1' "$TMP/nginx/logs/access.log" || true)

# --- report ------------------------------------------------------------------------------
percent() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? 100 * a / b : 0 }'; }
cpu_ms() { awk -v t="$1" -v hz="$HZ" -v r="$2" 'BEGIN { printf "%.1f", r ? t / hz * 1e6 / r : 0 }'; }
echo
echo "scale-out: nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), 2 feed-server + 2 tool-server replicas, one history, wrk -t$THREADS -c$CONNS, $(nproc) cores, loopback"
echo "proxy cache, feeds only, ${PHASE}s each:"
echo "  cache off: $OFF_REQ requests, $OFF_REACHED reached a replica ($(percent "$OFF_REACHED" "$OFF_TOTAL") %), replica CPU $(cpu_ms "$OFF_TICKS" "$OFF_REQ") us per client request"
echo "  cache on:  $ON_REQ requests, $ON_REACHED reached a replica ($(percent "$ON_REACHED" "$ON_TOTAL") %), replica CPU $(cpu_ms "$ON_TICKS" "$ON_REQ") us per client request"
echo "graceful stop + restart of one replica each, publish of $TODAY:"
echo "  feeds (1 in 5 uncached /health): $GF_REQ requests, $GF_FAILED failed"
echo "  tools (tools/call):              $GT_REQ requests, $GT_FAILED failed"
echo "  the proxy served $TODAY ${STALE}s after the publish"
echo "SIGKILL of one replica each:"
echo "  feeds: $KF_REQ requests, $KF_FAILED failed"
echo "  tools: $KT_REQ requests, $KT_FAILED failed"
echo "  requests nginx sent to a second replica over the whole run: $RETRIED"
status=0
[ "$GF_FAILED" = 0 ] && [ "$GT_FAILED" = 0 ] || { say "goal missed: failures during the graceful stop and reload"; status=1; }
[ $((KF_FAILED + KT_FAILED)) -le "$MAX_KILL_FAILURES" ] || { say "goal missed: more than $MAX_KILL_FAILURES failures after SIGKILL"; status=1; }
[ "$status" = 1 ] && tail -n 20 "$TMP/nginx/logs/error.log" >&2
exit "$status"
