"""The hostile-client suite (scripts/hostile.sh): replays each attack of
docs/reliability.md against release feed-server and tool-server processes on loopback,
prints the figures, and exits 1 when a threshold is missed. Python 3 standard library
only; loopback only (a second client address is 127.0.0.2, which Linux routes to lo)."""

import json
import os
import re
import select
import subprocess
import sys
import threading
import time

from raw_http import connect, read_reply

BIN = sys.argv[1]
FAILED = []
MCP_HEADERS = (
    "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
    "MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\n"
    "Mcp-Name: get_diamond_price\r\n"
)
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def check(name, ok, figure):
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {figure}")
    if not ok:
        FAILED.append(name)


class Server:
    """A server binary on 127.0.0.1:0; `addr` is read off its stderr."""

    def __init__(self, name, *args, under=()):
        self.proc = subprocess.Popen(
            [*under, os.path.join(BIN, name), "--listen", "127.0.0.1:0", *args],
            stderr=subprocess.PIPE, text=True)
        for line in self.proc.stderr:
            found = re.search(r"listening on http://([\d.]+):(\d+)", line)
            if found:
                self.addr = (found.group(1), int(found.group(2)))
                break
        threading.Thread(target=lambda: [None for _ in self.proc.stderr], daemon=True).start()

    def cpu_seconds(self):
        with open(f"/proc/{self.proc.pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as status:
            return int(re.search(r"VmRSS:\s+(\d+)", status.read()).group(1))

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=60)


def exchange(addr, raw, source="127.0.0.1"):
    with connect(addr, source) as sock:
        sock.sendall(raw)
        return read_reply(sock)


def post_rpc(addr, body):
    head = (f"POST / HTTP/1.1\r\nHost: t\r\n{MCP_HEADERS}"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    return exchange(addr, head.encode() + body)


def throughput(addr, raw, seconds, source):
    """Requests per second one keep-alive client gets for `raw`."""
    done, deadline = 0, time.monotonic() + seconds
    sock = connect(addr, source)
    while time.monotonic() < deadline:
        sock.sendall(raw)
        status, _, _ = read_reply(sock)
        if status != 200:
            sock.close()
            sock = connect(addr, source)
            continue
        done += 1
    sock.close()
    return done / seconds


# Server CPU for one tools/call with 100,000 unknown arguments (930 kB), reading included:
# 5-6 ms on a quiet machine, up to 9 ms when the machine's neighbours are busy; the bound
# leaves room for that. The work itself is judged by the instruction count below.
ERROR_CPU_MAX_MS = 15
# User-space instructions per such call, counted by callgrind (43.8 M: serde_json's pace
# over 100,000 short keys; 55.5 M before the filtered read built nothing for them).
ERROR_INSTRUCTIONS_MAX = 50_000_000
# Rounds 2-8 of the memory scenario end, in the median, at most this much above round 1,
# and each at most MEMORY_STRAY_MAX_MIB (MiB): a worker that goes idle before the last
# frees other workers made into its pages keeps them until it next runs out of work.
MEMORY_GROWTH_MAX_MIB = 2
MEMORY_STRAY_MAX_MIB = 8
# A run of 20 calls with 100,000 unknown arguments leaves at most this much behind (MiB):
# RSS reads within +-1 MiB of itself from one moment to the next; glibc kept 15.6 MiB.
ERROR_MEMORY_MAX_MIB = 2
# Slowest of 1,100 connections opened in a row from one address (ms): the accept queue
# holds them all (1-16 ms on the 2-core machine, busy or not); one SYN dropped for a full
# queue costs a second.
CONNECT_MAX_MS = 500
# The servers' default --max-connections-per-ip: the slow connections the server keeps.
PER_ADDRESS_CAP = 256


def settle():
    """Waits for the server to go idle before RSS is read: its workers hand back what
    their heaps hold unused when they run out of work (docs/reliability.md, "Memory"),
    with no further request needed."""
    time.sleep(0.4)


def unknown_arguments_call():
    """The refused tools/call body: 100,000 unknown arguments, 930 kB."""
    args = {f"{i:x}": 1 for i in range(100_000)}
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "get_diamond_price", "arguments": args, "_meta": META}},
        separators=(",", ":")).encode()


def error_instructions():
    """User-space instructions the tool server executes per refused 930 kB call, counted
    by callgrind: what the call costs, whatever else the machine is doing."""
    out = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"hostile-callgrind-{os.getpid()}")
    tools = Server("tool-server", under=("valgrind", "--tool=callgrind",
                                         f"--callgrind-out-file={out}"))
    try:
        body, runs = unknown_arguments_call(), 5
        post_rpc(tools.addr, body)  # warm up
        control = lambda flag: subprocess.run(["callgrind_control", flag, str(tools.proc.pid)],
                                              capture_output=True, check=True)
        control("-z")
        for _ in range(runs):
            status, _, _ = post_rpc(tools.addr, body)
        control("-d")
        with open(f"{out}.1") as dump:
            total = int(re.search(r"^totals: (\d+)", dump.read(), re.M).group(1))
    finally:
        tools.stop()
        for name in os.listdir(os.path.dirname(out)):
            if name.startswith(os.path.basename(out)):
                os.remove(os.path.join(os.path.dirname(out), name))
    per = total / runs
    check(f"tools/call with 100,000 unknown arguments: at most "
          f"{ERROR_INSTRUCTIONS_MAX / 1e6:.0f} M instructions",
          status == 200 and per <= ERROR_INSTRUCTIONS_MAX,
          f"{per / 1e6:.1f} M instructions per call (callgrind, {runs} calls)")


def error_amplification(tools, feeds):
    body = unknown_arguments_call()
    post_rpc(tools.addr, body)  # warm up
    settle()
    rss_before = tools.rss_kib()
    # Server CPU per call: the median of 5 batches of 10 (clock ticks are 10 ms), so that
    # one batch slowed by the rest of the machine does not decide.
    batches, size = [], 10
    for _ in range(5):
        cpu = tools.cpu_seconds()
        for _ in range(size):
            status, _, reply = post_rpc(tools.addr, body)
        batches.append((tools.cpu_seconds() - cpu) / size * 1000)
    per = sorted(batches)[len(batches) // 2]
    settle()
    kept = (tools.rss_kib() - rss_before) / 1024
    check("tools/call with 100,000 unknown arguments: answer at most 16 KiB",
          status == 200 and len(reply) <= 16384,
          f"{len(body) / 1e3:.0f} kB request, {len(reply)} B answer")
    check(f"tools/call with 100,000 unknown arguments: at most {ERROR_CPU_MAX_MS} ms of CPU",
          per <= ERROR_CPU_MAX_MS,
          f"{per:.1f} ms of server CPU per call, reading the request included (median of "
          f"batches: {' '.join(f'{ms:.1f}' for ms in batches)})")
    check(f"tools/call with 100,000 unknown arguments: no lasting memory (at most "
          f"{ERROR_MEMORY_MAX_MIB} MiB)", kept <= ERROR_MEMORY_MAX_MIB,
          f"RSS {rss_before / 1024:.1f} MiB before {5 * size} calls, {kept:+.1f} MiB after")
    query = "shape=round&carat=1&color=G&clarity=VS2" + "&a" * 15_000
    raw = f"GET /track?{query} HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n".encode()
    status, _, reply = exchange(feeds.addr, raw)
    check("/track with 15,000 unknown parameters: 400 of at most 16 KiB",
          status == 400 and len(reply) <= 16384,
          f"{len(raw) / 1e3:.0f} kB request, {len(reply)} B answer")


def hygiene(feeds):
    raw = b"GET /health HTTP/1.1\r\nHost: t\r\nX-Long: " + b"x" * 40_000 + b"\r\n\r\n"
    status, _, _ = exchange(feeds.addr, raw)
    check("a 40 KiB head gets 431", status == 431, f"status {status}")
    status, _, _ = exchange(feeds.addr, b"GET /health HTTP/1.1\r\n\r\n")
    check("HTTP/1.1 without Host gets 400", status == 400, f"status {status}")


def slowloris(name, server, raw):
    """1,100 connections from 127.0.0.1 sending a head byte by byte; a client from
    127.0.0.2 keeps at least 70 % of its throughput. The throughput without them is
    measured before and after, and their mean is the baseline: a neighbour that starts or
    stops working on the machine during the run then moves both sides alike. The
    1,101st connection is tried as soon as the 1,100 are open, well inside the 10 s the
    server gives a head, so that it meets the cap whatever the machine's pace."""
    base = throughput(server.addr, raw, 3, "127.0.0.2")
    slow, failed, slowest = [], 0, 0.0
    opening = time.monotonic()
    for _ in range(1100):
        started = time.monotonic()
        try:
            sock = connect(server.addr)
            sock.sendall(b"GET /health HTTP/1.1\r\n")
            slow.append(sock)
        except OSError:
            failed += 1
        slowest = max(slowest, time.monotonic() - started)
    opened_in = time.monotonic() - opening
    started = time.monotonic()
    status, headers, _ = exchange(server.addr, raw.replace(b"keep-alive", b"close"))
    refused_in = (time.monotonic() - started) * 1000
    stop = threading.Event()

    def trickle():
        while not stop.is_set():
            for sock in slow:
                try:
                    sock.sendall(b"X")
                except OSError:
                    pass
            stop.wait(1)
    threading.Thread(target=trickle, daemon=True).start()
    time.sleep(0.5)
    under = throughput(server.addr, raw, 3, "127.0.0.2")
    stop.set()
    held = still_open(slow)
    for sock in slow:
        sock.close()
    time.sleep(0.5)
    after = throughput(server.addr, raw, 3, "127.0.0.2")
    baseline = (base + after) / 2
    share = under / baseline if baseline else 0
    # A SYN the kernel drops for a full accept queue costs its client a second.
    check(f"{name}: 1,100 connections in a row from one address each connect within "
          f"{CONNECT_MAX_MS} ms", slowest * 1000 <= CONNECT_MAX_MS and failed == 0,
          f"slowest {slowest * 1000:.0f} ms, all in {opened_in:.2f} s, {failed} failed")
    check(f"{name}: the 1,101st connection from the slow address is refused at once",
          status == 429 and refused_in < 1000,
          f"status {status}, Retry-After {headers.get('retry-after')}, {refused_in:.0f} ms")
    check(f"{name}: another address keeps >= 70 % under 1,100 slow connections, "
          f"{PER_ADDRESS_CAP} of them held throughout",
          share >= 0.7 and held == PER_ADDRESS_CAP,
          f"{base:.0f} before, {under:.0f} under, {after:.0f} after req/s ({share:.0%}); "
          f"{held} held at the end")


def still_open(socks):
    """How many of `socks` the server has neither answered nor closed: nothing to read."""
    poller = select.poll()
    for sock in socks:
        poller.register(sock, select.POLLIN)
    return len(socks) - len(poller.poll(0))


def memory(name, server, raw):
    """Eight rounds of 1,000 keep-alive connections, each sending one request: after
    rounds 2-8 the RSS is within MEMORY_GROWTH_MAX_MIB of where round 1 ended in the
    median, and within MEMORY_STRAY_MAX_MIB each."""
    rss = []
    for _ in range(8):
        socks = []
        for i in range(1000):
            sock = connect(server.addr, f"127.0.0.{2 + i // 250}")
            sock.sendall(raw)
            socks.append(sock)
        for sock in socks:
            read_reply(sock)
        for sock in socks:
            sock.close()
        settle()
        rss.append(server.rss_kib())
    later = [(kib - rss[0]) / 1024 for kib in rss[1:]]
    median, highest = sorted(later)[len(later) // 2], max(later)
    check(f"{name}: memory comes back, rounds 2-8 of 1,000 connections within "
          f"{MEMORY_GROWTH_MAX_MIB} MiB of round 1 in the median, each within "
          f"{MEMORY_STRAY_MAX_MIB} MiB",
          median <= MEMORY_GROWTH_MAX_MIB and highest <= MEMORY_STRAY_MAX_MIB,
          "RSS after each round (MiB): " + " ".join(f"{kib / 1024:.1f}" for kib in rss)
          + f"; rounds 2-8 - round 1: median {median:+.1f}, highest {highest:+.1f}")


def main():
    """Runs every scenario, or only those named after the binaries' folder
    (errors, hygiene, slowloris, memory)."""
    wanted = set(sys.argv[2:]) or {"errors", "hygiene", "slowloris", "memory"}
    feeds = Server("feed-server", "--max-connections-per-ip", "256")
    tools = Server("tool-server")
    get = b"GET /health HTTP/1.1\r\nHost: t\r\nConnection: keep-alive\r\n\r\n"
    try:
        if "errors" in wanted:
            error_amplification(tools, feeds)
            error_instructions()
        if "hygiene" in wanted:
            hygiene(feeds)
        if "slowloris" in wanted:
            slowloris("feed-server", feeds, get)
            slowloris("tool-server", tools, get)
        if "memory" in wanted:
            memory("feed-server", feeds, get)
            memory("tool-server", tools, get)
    finally:
        feeds.stop()
        tools.stop()
    if FAILED:
        print(f"{len(FAILED)} threshold(s) missed: {', '.join(FAILED)}")
        sys.exit(1)
    print("every threshold met")


main()
