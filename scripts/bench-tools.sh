#!/usr/bin/env bash
# Load bench of the tool server: wrk POSTs `tools/call get_diamond_price` (full MCP headers
# and _meta) at a release tool-server on loopback, then the same wrk settings hit a bare
# hyper server returning a fixed JSON body (benches/examples/fixed_json.rs): the very
# bytes the tool server answered, so the ratio is the cost of computing the answer. Prints
# req/s, p50/p99 latency and server CPU time per request (from /proc; all, and user mode
# alone) of both, and the throughput and CPU ratios. Last, a calibration run: the baseline
# made to burn (BUSY_NANOS) as much extra user-mode CPU per request as the tool server
# spent above it, to show what that much work alone does to throughput on this machine.
# Settings: BENCH_SECONDS (default 10), BENCH_THREADS (2), BENCH_CONNECTIONS (32).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/lib-cpu.sh
source scripts/lib-cpu.sh
SECONDS_=${BENCH_SECONDS:-10}
THREADS=${BENCH_THREADS:-2}
CONNECTIONS=${BENCH_CONNECTIONS:-32}

if ! command -v wrk > /dev/null; then
  echo "== installing wrk"
  apt-get install -y wrk > /dev/null || { apt-get update > /dev/null && apt-get install -y wrk > /dev/null; }
fi

echo "== cargo build --release -p tool-server, example fixed_json"
cargo build --release --locked -p tool-server
cargo build --release --locked -p benches --example fixed_json
TARGET=$(cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json,sys;print(json.load(sys.stdin)["target_directory"])')

WORK=$(mktemp -d)
PIDS=()
cleanup() {
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# start NAME COMMAND...: runs a server on a free port and sets ADDR from its stderr.
start() {
  local name=$1; shift
  "$@" 2> "$WORK/$name.log" &
  SERVER_PID=$!
  PIDS+=("$SERVER_PID")
  ADDR=""
  for _ in $(seq 1 100); do
    ADDR=$(grep -o 'listening on http://[0-9.:]*' "$WORK/$name.log" | head -1 | sed 's|listening on http://||') || true
    [ -n "$ADDR" ] && return 0
    sleep 0.1
  done
  cat "$WORK/$name.log"; echo "$name did not start"; exit 1
}

cat > "$WORK/call.lua" <<'LUA'
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Accept"] = "application/json, text/event-stream"
wrk.headers["MCP-Protocol-Version"] = "2026-07-28"
wrk.headers["Mcp-Method"] = "tools/call"
wrk.headers["Mcp-Name"] = "get_diamond_price"
wrk.body = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_diamond_price","arguments":{"carat":1.23,"color":"G","clarity":"VS2","shape":"oval","shape_ratio":1.35},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
done = function(summary, latency, requests)
  io.write(string.format("RESULT %.1f %.3f %.3f %d\n", summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
LUA

# run ADDR SCRIPT: prints "RESULT req/s p50 p99 errors CPU-us-per-request user-CPU-us-per-request"
# for $SERVER_PID.
run() {
  local ticks user result
  ticks=$(cpu_ticks "$SERVER_PID")
  user=$(user_ticks "$SERVER_PID")
  result=$(wrk -t"$THREADS" -c"$CONNECTIONS" -d"${SECONDS_}s" --latency -s "$2" "http://$1/" | grep '^RESULT')
  local rps all_us user_us
  rps=$(echo "$result" | cut -d' ' -f2)
  all_us=$(cpu_per_request $(($(cpu_ticks "$SERVER_PID") - ticks)) "$rps" "$SECONDS_")
  user_us=$(cpu_per_request $(($(user_ticks "$SERVER_PID") - user)) "$rps" "$SECONDS_")
  echo "$result $all_us $user_us"
}

start tool-server "$TARGET/release/tool-server" --listen 127.0.0.1:0
# Check the request is answered correctly once before timing it.
lua_body=$(sed -n "s/^wrk.body = '\(.*\)'$/\1/p" "$WORK/call.lua")
curl -sf -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
  -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: tools/call' -H 'Mcp-Name: get_diamond_price' \
  --data "$lua_body" "http://$ADDR/" > "$WORK/answer.json"
grep -q '"isError":false' "$WORK/answer.json" || { echo "tool call failed"; exit 1; }
read -r _ tool_rps tool_p50 tool_p99 tool_err tool_cpu tool_user < <(run "$ADDR" "$WORK/call.lua")

start fixed_json "$TARGET/release/examples/fixed_json" 127.0.0.1:0 "$WORK/answer.json"
read -r _ base_rps base_p50 base_p99 base_err base_cpu base_user < <(run "$ADDR" "$WORK/call.lua")

# Calibration: the baseline again, made to do as much extra user-mode work per request as
# the tool server did above it in this run. Landing near the tool server shows that the
# gap is that work itself (amplified by wrk sharing the cores), not hidden overhead.
busy_us=$(awk -v t="$tool_user" -v b="$base_user" 'BEGIN { d = t - b; printf "%.1f", (d > 0 ? d : 0) }')
BUSY_NANOS=$(awk -v us="$busy_us" 'BEGIN { printf "%d", us * 1000 }') \
  start busy_json "$TARGET/release/examples/fixed_json" 127.0.0.1:0 "$WORK/answer.json"
read -r _ busy_rps busy_p50 busy_p99 busy_err busy_cpu busy_user < <(run "$ADDR" "$WORK/call.lua")

echo "== wrk -t$THREADS -c$CONNECTIONS -d${SECONDS_}s (loopback, $(nproc) cores)"
row() { printf '%-40s %10s %8s %8s %7s %8s %9s\n' "$@"; }
row server req/s p50_ms p99_ms errors us_cpu us_user
row "tool-server tools/call price" "$tool_rps" "$tool_p50" "$tool_p99" "$tool_err" "$tool_cpu" "$tool_user"
row "bare hyper, same $(wc -c < "$WORK/answer.json") B (baseline)" "$base_rps" "$base_p50" "$base_p99" "$base_err" "$base_cpu" "$base_user"
row "baseline + ${busy_us} us work (calibration)" "$busy_rps" "$busy_p50" "$busy_p99" "$busy_err" "$busy_cpu" "$busy_user"
python3 -c "print(f'tool-server throughput = {float($tool_rps)/float($base_rps):.2f} x baseline; CPU per request = {float($tool_cpu)/float($base_cpu):.2f} x baseline; calibration throughput = {float($busy_rps)/float($base_rps):.2f} x baseline')"
[ "$tool_err" = 0 ] || { echo "tool-server: $tool_err failed requests"; exit 1; }
