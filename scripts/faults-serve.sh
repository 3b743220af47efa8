#!/usr/bin/env bash
# Files and signals that must not stop a server (docs/reliability.md, docs/operations.md):
# builds release feed-server, tool-server and dcx, starts them on 127.0.0.1:0 and replays each
# fault with its threshold (scripts/faults_serve.py):
#   drip   a body dripped a byte at a time is answered 408 after 10 s; 1,100 clients
#          dripping bodies (1 byte per 5 s, reconnecting when closed) from five
#          addresses leave another address >= 70 % of its throughput on the tool server
#          (medians of 1 s windows; the drippers run in a process of their own);
#   files  1,100 connections held open: under `ulimit -Sn 1024` (soft) the servers raise
#          the limit, under `ulimit -n 1024` (hard too) they lower --max-connections to
#          fit and say so; either way the cap (making room, or 503) acts and no accept
#          fails;
#   hup    SIGHUP sent repeatedly from the start while a long history loads: each server
#          (and `dcx serve`) comes up and serves.
# Loopback only; about a minute. Arguments pick scenarios (drip, files, hup); none runs
# them all. Exits 1 when a threshold is missed.
set -euo pipefail
cd "$(dirname "$0")/.."
ulimit -n 8192 2>/dev/null || true
# shellcheck source=scripts/lib-proc.sh
source scripts/lib-proc.sh
need python3 python3
cargo build --release --locked -q -p feed-server -p tool-server -p dcx
timeout 600 python3 scripts/faults_serve.py "$(target_dir)/release" "$@"
