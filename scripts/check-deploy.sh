#!/usr/bin/env bash
# check-deploy.sh: checks the deployment kit in deploy/ (run by .ci/run).
#
# 1. `systemd-analyze verify` on every unit (any warning fails) and
#    `systemd-analyze security --offline` with an exposure threshold on every service.
# 2. The units' own command lines, run for real (paths moved under a temporary folder):
#    the build's ExecCondition and ExecStart publish today's day from the sample
#    listings, then each server's ExecStart, with the flags of deploy/systemd/dcx.env,
#    serves that history, answers /health and exits 0 on SIGTERM.
# 3. `nginx -t` on deploy/nginx/dcx.conf.
#
# Installs systemd (for systemd-analyze) and nginx-light from Debian with apt-get when they
# are missing. Uses the debug binaries of cargo's target folder (BIN_DIR overrides), building them if
# needed. Loopback only; bounded in time (a minute once the tools are there).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
DEPLOY=$ROOT/deploy
# Highest exposure score `systemd-analyze security` may give a service (0 safe .. 10).
MAX_EXPOSURE=2.0

say() { echo "check-deploy: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

# shellcheck source=scripts/lib-proc.sh
source "$ROOT/scripts/lib-proc.sh"
need systemd-analyze systemd || fail "systemd-analyze is missing"
need nginx nginx-light nginx || fail "nginx is missing"
BIN_DIR=${BIN_DIR:-$(cd "$ROOT" && target_dir)/debug}

for bin in feed-server tool-server dcx; do
    [ -x "$BIN_DIR/$bin" ] || { say "building $bin"; (cd "$ROOT" && cargo build -q -p feed-server -p tool-server -p dcx); break; }
done

TMP=$(mktemp -d)
cleanup() {
    stop_started
    rm -rf "$TMP"
}
trap cleanup EXIT

# --- 1. systemd-analyze ------------------------------------------------------------------
# The units as installed, with /usr/local/bin pointing at this build (verify checks that
# every command exists and is executable).
mkdir -p "$TMP/units"
cp "$DEPLOY"/systemd/*.service "$DEPLOY"/systemd/*.timer "$TMP/units/"
sed -i "s|/usr/local/bin/|$BIN_DIR/|g" "$TMP"/units/*
(
    cd "$TMP/units"
    out=$(systemd-analyze verify ./*.service ./*.timer 2>&1) || fail "systemd-analyze verify: $out"
    [ -z "$out" ] || fail "systemd-analyze verify warns: $out"
    for unit in ./*.service; do
        score=$(systemd-analyze security --offline=true "$unit" 2>&1 | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
        [ -n "$score" ] || fail "systemd-analyze security gave no score for $unit"
        awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }' || fail "$unit: exposure $score > $MAX_EXPOSURE"
        say "${unit#./}: verified, exposure $score (at most $MAX_EXPOSURE)"
    done
)
say "dcx-build.timer: verified"

# --- 2. the units' command lines ---------------------------------------------------------
STATE=$TMP/var/lib/dcx
mkdir -p "$STATE/history"

# The value of KEY in dcx.env.
env_value() { sed -n "s/^$1=//p" "$DEPLOY/systemd/dcx.env"; }

# A unit's ExecStart / ExecCondition line, with systemd's escapes undone and the paths of
# an installed system moved under $TMP.
unit_line() {
    sed -n "s/^$2=//p" "$DEPLOY/systemd/$1" | sed -e 's/\$\$/$/g' -e 's/%%/%/g' \
        -e "s|/usr/local/bin/|$BIN_DIR/|g" -e "s|/var/lib/dcx|$STATE|g"
}

# The payload of a `/bin/sh -c '...'` line.
shell_payload() { sed -e "s|^/bin/sh -c '||" -e "s|'\$||"; }

build_env=(env DCX_LISTINGS="$ROOT/fixtures/listings/diamonds-sample.csv" DCX_FORMAT=diamonds)
condition=$(unit_line dcx-build.service ExecCondition | shell_payload)
build=$(unit_line dcx-build.service ExecStart | shell_payload)
"${build_env[@]}" sh -c "$condition" || fail "ExecCondition skips a day that is not published"
"${build_env[@]}" sh -c "$build" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log" >&2; fail "the build unit's command failed"; }
today=$(date -u +%F)
[ -f "$STATE/history/$today/index.json" ] || fail "the build did not publish $today"
[ -f "$STATE/last-build.json" ] || fail "the build wrote no report"
if "${build_env[@]}" sh -c "$condition"; then fail "ExecCondition does not skip a published day"; fi
# A day a power cut left with empty files is not valid: the condition lets the build run
# again, and the build replaces it.
for file in "$STATE/history/$today"/*.json; do : >"$file"; done
"${build_env[@]}" sh -c "$condition" || fail "ExecCondition skips a day that is not valid"
"${build_env[@]}" sh -c "$build" >"$TMP/build.log" 2>&1 || { cat "$TMP/build.log" >&2; fail "the build unit did not replace an invalid day"; }
"$BIN_DIR/dcx" validate "$STATE/history/$today" >/dev/null || fail "the rebuilt day $today is not valid"
if "${build_env[@]}" sh -c "$condition"; then fail "ExecCondition does not skip a rebuilt day"; fi
say "dcx-build.service: its command published $today; its condition then skips; a zeroed day is rebuilt"

# Runs a server unit's ExecStart with the flags of dcx.env on port 0; checks /health and a
# clean exit on SIGTERM.
check_server() {
    local unit=$1 listen_var=$2 args_var=$3 line log url pid rc
    line=$(unit_line "$unit" ExecStart)
    line=${line//"\${$listen_var}"/127.0.0.1:0}
    line=${line//"\$$args_var"/$(env_value "$args_var")}
    local -a argv
    read -ra argv <<<"$line"
    log=$TMP/$unit.log
    start_server "$log" "${argv[@]}"
    pid=$STARTED_PID
    url=http://$(announced_addr "$log" "$pid") || fail "$unit: the server did not start"
    curl -sf "$url/health" | grep -q "${today}" || { cat "$log" >&2; fail "$unit: /health does not serve $today"; }
    kill -TERM "$pid"
    rc=0
    wait "$pid" || rc=$?
    [ "$rc" = 0 ] || { cat "$log" >&2; fail "$unit: exit code $rc after SIGTERM"; }
    say "$unit: its command serves $today, exits 0 on SIGTERM"
}
check_server dcx-feed-server.service FEED_LISTEN FEED_ARGS
check_server dcx-tool-server.service TOOL_LISTEN TOOL_ARGS

# --- 3. nginx -t -------------------------------------------------------------------------
mkdir -p "$TMP/nginx/logs"
sed "s|/var/cache/nginx/dcx|$TMP/nginx/cache|" "$DEPLOY/nginx/dcx.conf" >"$TMP/nginx/dcx.conf"
cat >"$TMP/nginx/nginx.conf" <<CONF
pid $TMP/nginx/nginx.pid;
error_log $TMP/nginx/logs/error.log;
events {}
http {
    access_log off;
    client_body_temp_path $TMP/nginx/logs;
    proxy_temp_path $TMP/nginx/logs;
    fastcgi_temp_path $TMP/nginx/logs;
    uwsgi_temp_path $TMP/nginx/logs;
    scgi_temp_path $TMP/nginx/logs;
    include $TMP/nginx/dcx.conf;
}
CONF
nginx -t -q -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" 2>"$TMP/nginx/t.log" || { cat "$TMP/nginx/t.log" >&2; fail "nginx -t on deploy/nginx/dcx.conf"; }
say "deploy/nginx/dcx.conf: nginx -t ok"
say "all checks passed"
