# Sourced by the CI scripts: builds the release binaries and starts tool-server on a free
# loopback port. Sets TARGET (cargo's target directory), SERVER_PID and ADDR (host:port);
# an EXIT trap stops the server. Usage: source scripts/lib-tool-server.sh; start_tool_server -p dcx
start_tool_server() {
  echo "== cargo build --release -p tool-server $*"
  cargo build --release --locked -p tool-server "$@"
  TARGET=$(cargo metadata --format-version 1 --no-deps \
    | python3 -c 'import json,sys;print(json.load(sys.stdin)["target_directory"])')
  SERVER_LOG=$(mktemp)
  "$TARGET/release/tool-server" --listen 127.0.0.1:0 2> "$SERVER_LOG" &
  SERVER_PID=$!
  trap 'kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; rm -f "$SERVER_LOG"' EXIT
  ADDR=""
  for _ in $(seq 1 100); do
    ADDR=$(grep -o 'listening on http://[0-9.:]*' "$SERVER_LOG" | head -1 | sed 's|listening on http://||') || true
    [ -n "$ADDR" ] && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$SERVER_LOG"; echo "tool-server exited"; exit 1; }
    sleep 0.1
  done
  [ -n "$ADDR" ] || { cat "$SERVER_LOG"; echo "tool-server did not report its address"; exit 1; }
  echo "== tool-server at http://$ADDR/"
}
