# Sourced by the CI scripts: builds the release binaries and starts tool-server on a free
# loopback port. Sets TARGET (cargo's target directory), SERVER_PID and ADDR (host:port);
# an EXIT trap stops the server. Usage: source scripts/lib-tool-server.sh; start_tool_server -p dcx
# shellcheck source=scripts/lib-proc.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-proc.sh"
start_tool_server() {
  echo "== cargo build --release -p tool-server $*"
  cargo build --release --locked -p tool-server "$@"
  TARGET=$(target_dir)
  SERVER_LOG=$(mktemp)
  trap 'stop_started; rm -f "$SERVER_LOG"' EXIT
  start_server "$SERVER_LOG" "$TARGET/release/tool-server" --listen 127.0.0.1:0
  SERVER_PID=$STARTED_PID
  ADDR=$(announced_addr "$SERVER_LOG" "$SERVER_PID")
  echo "== tool-server at http://$ADDR/"
}
