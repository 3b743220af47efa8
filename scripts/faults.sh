#!/usr/bin/env bash
# faults.sh: the history under the faults that happen in production (run by .ci/run).
#
# Each check fails the run. After each fault: every day of the history passes
# `dcx validate`, no day that was published is lost, and no wrong day is live.
#  1. a kill at each step of publishing (strace -e inject=SYSCALL:signal=KILL:when=N at
#     every mkdir, fsync, renameat2 and unlinkat of a new day and of a --force replacement);
#  2. a power cut: the history on a loop-mounted ext4 image, the image copied (without
#     syncing) as soon as `dcx build` exits 0, the copy mounted and validated (skipped,
#     saying why, where the machine cannot mount loop devices);
#  3. 20 builders at once for one date (failing fast, then with --wait), and 20 rounds of
#     two builders at once for consecutive dates (the later day's trend is against the
#     day before it);
#  4. a --date far in the future;
#  5. a FIFO and a 2 GB sparse file as a new day's feed, while a feed server polls;
#  6. dripping request bodies, open-file limits, and SIGHUPs from the moment the handler
#     is installed while a 200-day history loads, against release binaries
#     (scripts/faults-serve.sh; FAULTS_SERVE=0 skips).
# Uses the debug binaries of cargo's target folder (BIN_DIR overrides), building them if
# needed. Needs root for the loop device; installs strace. Loopback only; about two
# minutes, once the release build of part 7 is there.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
LISTINGS=$ROOT/fixtures/listings/diamonds-sample.csv

say() { echo "faults: $*" >&2; }
fail() { say "FAILED: $*"; exit 1; }

# shellcheck source=scripts/lib-proc.sh
source "$ROOT/scripts/lib-proc.sh"
need strace strace || fail "strace is missing"
BIN_DIR=${BIN_DIR:-$(cd "$ROOT" && target_dir)/debug}
for bin in dcx feed-server tool-server; do
    [ -x "$BIN_DIR/$bin" ] || { say "building the binaries"; (cd "$ROOT" && cargo build -q -p dcx -p feed-server -p tool-server); break; }
done
DCX=$BIN_DIR/dcx

TMP=$(mktemp -d)
MOUNTS=()
cleanup() {
    stop_started
    for mnt in "${MOUNTS[@]}"; do umount "$mnt" 2>/dev/null || true; done
    rm -rf "$TMP"
}
trap cleanup EXIT

# build HISTORY DATE [FLAG...]: dcx build of the sample listings into HISTORY.
build() {
    local history=$1 date=$2
    shift 2
    "$DCX" build --listings "$LISTINGS" --format diamonds --history "$history" --date "$date" "$@"
}

# valid HISTORY DAY...: every day of HISTORY passes dcx validate, and each DAY is there.
valid() {
    local history=$1 day
    shift
    "$DCX" validate "$history" >"$TMP/validate.log" 2>&1 || { cat "$TMP/validate.log" >&2; return 1; }
    for day in "$@"; do
        [ -d "$history/$day" ] || { say "the published day $day is gone"; return 1; }
    done
}

# leftovers HISTORY: the temporary folders of HISTORY.
leftovers() { find "$1" -maxdepth 1 -name '.*.tmp-*' -printf '%f\n'; }

# dcx_of DAY_DIR: the DCX of a day.
dcx_of() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["dcx"])' "$1/index.json"; }

BASE=$TMP/base
build "$BASE" 2026-11-19 >/dev/null
build "$BASE" 2026-11-20 >/dev/null
valid "$BASE" 2026-11-19 2026-11-20 || fail "the base history is not valid"

# --- 1. a kill at each step of publishing ------------------------------------------------
# How often a build calls SYSCALL, traced.
calls() {
    local sys=$1
    shift
    strace -f -qq -o "$TMP/count.txt" -e trace="$sys" "$@" >/dev/null 2>&1 || true
    grep -c "$sys(" "$TMP/count.txt" || true
}

kill_at_each_step() {
    local label=$1 date=$2
    shift 2
    local sys n count rc killed=0 work
    for sys in mkdir fsync renameat2 unlinkat; do
        rm -rf "$TMP/probe" && cp -a "$BASE" "$TMP/probe"
        count=$(calls "$sys" "$DCX" build --listings "$LISTINGS" --format diamonds \
            --history "$TMP/probe" --date "$date" "$@")
        for n in $(seq 1 "$count"); do
            work=$TMP/kill-$label-$sys-$n
            rm -rf "$work" && cp -a "$BASE" "$work"
            rc=0
            # (in a subshell, so that bash does not report the kill)
            { (exec strace -f -qq -o /dev/null -e trace="$sys" -e inject="$sys:signal=KILL:when=$n" \
                "$DCX" build --listings "$LISTINGS" --format diamonds --history "$work" --date "$date" "$@" \
                >/dev/null 2>&1); } 2>/dev/null || rc=$?
            [ "$rc" != 0 ] || fail "$label: the kill at $sys #$n did not happen"
            valid "$work" 2026-11-19 2026-11-20 || fail "$label: killed at $sys #$n, the history is not whole"
            # The next build sweeps what the killed one left and publishes.
            build "$work" 2026-11-23 >/dev/null 2>&1 || fail "$label: killed at $sys #$n, the next build failed"
            [ -z "$(leftovers "$work")" ] || fail "$label: killed at $sys #$n, left $(leftovers "$work")"
            valid "$work" 2026-11-19 2026-11-20 2026-11-23 || fail "$label: after $sys #$n, the next day"
            killed=$((killed + 1))
            rm -rf "$work"
        done
    done
    say "$label: killed at each of $killed publishing steps; every day stayed whole and valid"
}
[ "${FAULTS_SKIP_KILLS:-0}" = 1 ] || {
    kill_at_each_step "new day" 2026-11-21
    kill_at_each_step "--force replacement" 2026-11-20 --force
}

# --- 2. a power cut -------------------------------------------------------------------------
power_cut() {
    local image=$TMP/history.img copy=$TMP/copy.img mnt=$TMP/mnt cut=$TMP/cut
    truncate -s 64M "$image"
    mkfs.ext4 -q -F "$image" >/dev/null 2>&1 || { say "power cut: SKIPPED, mkfs.ext4 failed"; return 0; }
    mkdir -p "$mnt" "$cut"
    if ! mount -o loop "$image" "$mnt" 2>"$TMP/mount.log"; then
        say "power cut: SKIPPED, this machine cannot mount a loop device: $(head -1 "$TMP/mount.log")"
        return 0
    fi
    MOUNTS+=("$mnt")
    cp -a "$BASE" "$mnt/history" && sync
    build "$mnt/history" 2026-11-21 >/dev/null || fail "power cut: the build failed"
    # A control written the way a plain copy writes: no sync.
    cp -a "$mnt/history/2026-11-21" "$mnt/unsynced"
    # The power goes: what reached the disk is what the image file holds now.
    cp --sparse=always "$image" "$copy"
    mount -o loop "$copy" "$cut" || fail "power cut: the copy does not mount"
    MOUNTS+=("$cut")
    local control="the whole folder is gone"
    if [ -d "$cut/unsynced" ]; then
        control="$(find "$cut/unsynced" -type f -size 0 | wc -l) of its files are empty"
    fi
    valid "$cut/history" 2026-11-19 2026-11-20 2026-11-21 || fail "power cut: a published day was lost"
    say "power cut: the published day survived (of an unsynced copy of it, $control)"
}
power_cut

# --- 3. builders racing -------------------------------------------------------------------
# race HISTORY DATE COUNT [FLAG...]: COUNT builders at once; prints their exit codes.
race() {
    local history=$1 date=$2 count=$3 i
    shift 3
    for i in $(seq 1 "$count"); do
        (
            rc=0
            build "$history" "$date" "$@" >"$TMP/race-$i.out" 2>"$TMP/race-$i.err" || rc=$?
            echo "$rc" >"$TMP/race-$i.rc"
        ) &
    done
    wait
}

for mode in fail-fast --wait; do
    work=$TMP/race-$mode
    rm -rf "$work" && cp -a "$BASE" "$work"
    flags=()
    [ "$mode" = --wait ] && flags=(--wait)
    race "$work" 2026-11-21 20 "${flags[@]}"
    published=$(grep -l '^0$' "$TMP"/race-*.rc | wc -l)
    [ "$published" = 1 ] || fail "20 builders of one day ($mode): $published published, not 1"
    for i in $(seq 1 20); do
        rc=$(cat "$TMP/race-$i.rc")
        [ "$rc" = 0 ] && continue
        [ "$rc" = 1 ] || fail "builder $i ($mode) exited $rc: $(cat "$TMP/race-$i.err")"
        grep -q "another build holds\|already published" "$TMP/race-$i.err" \
            || fail "builder $i ($mode) refused without saying why: $(cat "$TMP/race-$i.err")"
    done
    valid "$work" 2026-11-19 2026-11-20 2026-11-21 || fail "20 builders of one day ($mode)"
    [ -z "$(leftovers "$work")" ] || fail "20 builders ($mode) left $(leftovers "$work")"
    say "20 builders of one day ($mode): one published, 19 refused saying why"
done

# Two builders at once for consecutive days, 20 times: the later day, when published, has
# its trend against the day before it in the final history.
for round in $(seq 1 20); do
    work=$TMP/consecutive
    rm -rf "$work" && cp -a "$BASE" "$work"
    (build "$work" 2026-11-21 >/dev/null 2>&1 || true) &
    (build "$work" 2026-11-22 >/dev/null 2>&1 || true) &
    wait
    valid "$work" 2026-11-19 2026-11-20 || fail "consecutive builders, round $round"
    [ -d "$work/2026-11-22" ] || continue
    before=$work/2026-11-20
    [ -d "$work/2026-11-21" ] && before=$work/2026-11-21
    python3 - "$before/index.json" "$work/2026-11-22/index.json" <<'PY' || fail "consecutive builders, round $round: the trend of 2026-11-22 is against the wrong day"
import json, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
expected = (new["dcx"] / old["dcx"] - 1) * 100
sys.exit(0 if abs(new["trend"] - expected) < 0.01 else 1)
PY
done
say "consecutive builders: 20 rounds, every published day's trend against the day before it"

# --- 4. a day from the future -------------------------------------------------------------
work=$TMP/future
rm -rf "$work" && cp -a "$BASE" "$work"
rc=0
build "$work" 9999-12-31 >/dev/null 2>"$TMP/future.err" || rc=$?
[ "$rc" = 2 ] || fail "--date 9999-12-31 exited $rc, not 2"
grep -q "more than 1 day ahead" "$TMP/future.err" || fail "--date 9999-12-31: $(cat "$TMP/future.err")"
[ ! -e "$work/9999-12-31" ] || fail "--date 9999-12-31 published"
say "a --date far in the future is refused"

# --- 5. odd files in a polled history ------------------------------------------------------
# health URL: the body of /health.
health() { curl -sf --max-time 5 "$1/health"; }

odd_file() {
    local label=$1 make=$2 work=$TMP/odd log pid url rss
    rm -rf "$work" && cp -a "$BASE" "$work"
    log=$TMP/odd-feed.log
    start_server "$log" "$BIN_DIR/feed-server" --listen 127.0.0.1:0 --history "$work" --poll-secs 1
    pid=$STARTED_PID
    url=http://$(announced_addr "$log" "$pid") || fail "$label: the feed server did not start"
    mkdir "$work/2026-11-21"
    cp "$work/2026-11-20"/*.json "$work/2026-11-21/"
    rm "$work/2026-11-21/matrix.json"
    $make "$work/2026-11-21/matrix.json"
    sleep 3
    kill -HUP "$pid"
    sleep 1
    health "$url" | grep -q '2026-11-20' || fail "$label: /health does not serve 2026-11-20: $(health "$url")"
    rss=$(awk '/VmRSS/ { print $2 }' "/proc/$pid/status")
    [ "$rss" -lt 204800 ] || fail "$label: the feed server holds $rss KiB"
    grep -q "2026-11-21" "$log" || fail "$label: the refused day is not reported: $(cat "$log")"
    kill -TERM "$pid"
    timeout 10 tail --pid="$pid" -f /dev/null || fail "$label: the feed server did not stop on SIGTERM"
    say "$label: refused and reported; 2026-11-20 kept serving (RSS $rss KiB); stopped on SIGTERM"
}
fifo() { mkfifo "$1"; }
sparse() { truncate -s 2G "$1"; }
odd_file "a FIFO as a feed" fifo
odd_file "a 2 GB sparse feed" sparse

# --- 6. requests and signals that must not stop a server ----------------------------------
if [ "${FAULTS_SERVE:-1}" = 1 ]; then
    bash "$ROOT/scripts/faults-serve.sh" || fail "scripts/faults-serve.sh"
fi

say "all checks passed"
