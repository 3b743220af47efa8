#!/usr/bin/env bash
# The hostile-client suite (docs/reliability.md): builds release feed-server
# and tool-server, starts them on 127.0.0.1:0, and replays each attack with its threshold
# (scripts/hostile.py): error amplification (100,000 unknown tool arguments, 15,000
# unknown /track parameters), a 40 KiB head, HTTP/1.1 without Host, 1,100 slowloris
# connections from one address while another measures its throughput, and eight rounds
# of 1,000 keep-alive connections (RSS per round); the refused call's CPU is also
# counted in instructions under callgrind. Loopback only; about a minute and a half.
# Arguments after the script name pick scenarios: errors, hygiene, slowloris, memory.
# Exits 1 when a threshold is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 8192 2>/dev/null || true
# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
if [ $# -eq 0 ] || [[ " $* " == *" errors "* ]]; then
  need valgrind valgrind # the refused call's instructions, counted by callgrind
fi
cargo build --release --locked -q -p feed-server -p tool-server
timeout 300 python3 scripts/hostile.py "$(target_dir)/release" "$@"
