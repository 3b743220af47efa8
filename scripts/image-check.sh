#!/usr/bin/env bash
# deploy/Dockerfile, built and run: the static dcx (lib-static-dcx.sh), an image built
# from the Dockerfile by buildah (daemonless; `FROM scratch`, so nothing is pulled), run by
# podman as the Dockerfile's CMD would run it but on free loopback ports (host network):
# /health of both servers, a feed byte for byte against fixtures/snapshot (the embedded
# reference snapshot), a tool call whose price `dcx quote --json` agrees with, the
# unprivileged user, then a clean stop on SIGTERM (exit 0). Our machines need runc, vfs
# storage, the cgroupfs manager and no default ulimits (docs/operations.md, "Container");
# the settings are below. Installs buildah, podman and runc through `need`. Removes its
# image and container on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
# shellcheck source=scripts/lib-static-dcx.sh
source scripts/lib-static-dcx.sh
need buildah buildah
need podman podman
need runc runc
build_static_dcx

WORK=$(mktemp -d "${TMPDIR:-/tmp}/dcx-image-check.XXXXXX")
TAG="localhost/dcx-image-check:$$"
NAME="dcx-image-check-$$"
printf '[containers]\ndefault_ulimits = []\n' > "$WORK/containers.conf"
export CONTAINERS_CONF="$WORK/containers.conf"
BUILDAH=(buildah --storage-driver vfs)
PODMAN=(podman --runtime runc --storage-driver vfs --cgroup-manager cgroupfs)
cleanup() {
  "${PODMAN[@]}" rm -f "$NAME" > /dev/null 2>&1 || true
  "${PODMAN[@]}" rmi -f "$TAG" > /dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

# The build context is the repository root, as documented; with a target folder outside it
# (CARGO_TARGET_DIR), a context of the binary alone at the same relative path.
CONTEXT=.
rel=$(realpath --relative-to="$ROOT" "$STATIC_DCX")
case $rel in
  ../*)
    rel="target/$STATIC_TRIPLE/release/dcx"
    CONTEXT="$WORK/context"
    mkdir -p "$CONTEXT/$(dirname "$rel")"
    cp "$STATIC_DCX" "$CONTEXT/$rel"
    ;;
esac
echo "== buildah bud -f deploy/Dockerfile --build-arg DCX=$rel $CONTEXT"
started=$(date +%s)
"${BUILDAH[@]}" bud --quiet -f deploy/Dockerfile --build-arg "DCX=$rel" -t "$TAG" "$CONTEXT" > /dev/null
echo "== built in $(($(date +%s) - started)) s: $("${PODMAN[@]}" image inspect --format '{{.Size}}' "$TAG") bytes"

user=$("${PODMAN[@]}" image inspect --format '{{.Config.User}}' "$TAG")
[ "$user" = "10001:10001" ] || { echo "FAIL the image runs as '$user', not 10001:10001"; exit 1; }
echo "ok    the image runs as $user"

FEED_PORT=$(free_port)
TOOL_PORT=$(free_port)
echo "== podman run: dcx serve on 127.0.0.1:$FEED_PORT (feeds) and 127.0.0.1:$TOOL_PORT (tools)"
"${PODMAN[@]}" run -d --name "$NAME" --network host --ulimit host "$TAG" \
  serve --feed-listen "127.0.0.1:$FEED_PORT" --tool-listen "127.0.0.1:$TOOL_PORT" > /dev/null

python3 - "$FEED_PORT" "$TOOL_PORT" "$STATIC_DCX" fixtures/snapshot <<'PY'
import json, subprocess, sys, time, urllib.request
feed, tool, dcx = f"http://127.0.0.1:{sys.argv[1]}", f"http://127.0.0.1:{sys.argv[2]}", sys.argv[3]
reference = sys.argv[4]
failures = []
def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'}  {name}{'' if ok else ' ' + str(detail)}")
    ok or failures.append(name)
def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.status, r.read()
for _ in range(100):
    try:
        get(feed + "/health"); get(tool + "/health"); break
    except OSError:
        time.sleep(0.1)
for name, base in [("feed server", feed), ("tool server", tool)]:
    status, body = get(base + "/health")
    doc = json.loads(body)
    check(f"{name} /health answers 200 with a status", status == 200 and "status" in doc, doc)
status, body = get(feed + "/index.json")
with open(reference + "/index.json", "rb") as f:
    check("GET /index.json is the reference snapshot's index.json byte for byte",
          status == 200 and body == f.read(), body[:200])
args = {"carat": 1.23, "color": "G", "clarity": "VS2"}
request = urllib.request.Request(tool + "/", method="POST", data=json.dumps({
    "jsonrpc": "2.0", "id": 1, "method": "tools/call",
    "params": {"name": "get_diamond_price", "arguments": args,
               "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                         "io.modelcontextprotocol/clientCapabilities": {}}}}).encode(),
    headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
             "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call",
             "Mcp-Name": "get_diamond_price"})
with urllib.request.urlopen(request, timeout=10) as r:
    result = json.loads(r.read())["result"]
quote = json.loads(subprocess.run([dcx, "quote", "--json", "--carat", "1.23", "--color", "G",
                                   "--clarity", "VS2"], check=True, capture_output=True, text=True).stdout)
got = result.get("structuredContent", {})
check("tools/call get_diamond_price agrees with dcx quote --json",
      not result.get("isError") and got.get("total_usd") == quote["total_usd"]
      and got.get("per_carat_usd") == quote["per_carat_usd"], got)
print(f"image: {len(failures) == 0 and 'all checks passed' or 'FAILED'}")
sys.exit(1 if failures else 0)
PY

echo "== podman stop (SIGTERM, drain)"
"${PODMAN[@]}" stop -t 15 "$NAME" > /dev/null
code=$("${PODMAN[@]}" inspect --format '{{.State.ExitCode}}' "$NAME")
"${PODMAN[@]}" logs "$NAME" 2>&1 | tail -n 3
[ "$code" = 0 ] || { echo "FAIL the container exited $code after SIGTERM"; exit 1; }
echo "ok    the container stopped on SIGTERM with exit 0"
