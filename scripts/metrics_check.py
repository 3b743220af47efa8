"""Sends one server some traffic, scrapes its /metrics, parses the exposition with the
reference parser (PyPI prometheus_client's OpenMetrics parser, which refuses anything
malformed), and checks the families, labels and counts the traffic must have produced.

Usage: metrics_check.py feed-server METRICS FEED
       metrics_check.py tool-server METRICS TOOL
       metrics_check.py dcx-serve METRICS FEED TOOL      (after a reload to 2026-11-21)
Addresses are host:port on loopback. Exits 1 with the reasons when a check fails.
"""

import json
import sys
import time
import urllib.error
import urllib.request

from prometheus_client.openmetrics.parser import text_string_to_metric_families

CALL_HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
    "MCP-Protocol-Version": "2026-07-28",
    "Mcp-Method": "tools/call",
}
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}
problems = []


def get(addr, path):
    """The status of GET path (errors included)."""
    try:
        with urllib.request.urlopen(f"http://{addr}{path}", timeout=10) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def call(addr, tool, arguments):
    """POSTs tools/call and returns the JSON-RPC answer."""
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments, "_meta": META}}
    headers = dict(CALL_HEADERS, **{"Mcp-Name": tool})
    request = urllib.request.Request(f"http://{addr}/", json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        return json.load(error)


def scrape(addr):
    """Every family of the exposition at addr, by name (the parser refuses bad text)."""
    with urllib.request.urlopen(f"http://{addr}/metrics", timeout=10) as answer:
        kind = answer.headers["Content-Type"]
        text = answer.read().decode()
    if not kind.startswith("application/openmetrics-text; version=1.0.0"):
        problems.append(f"Content-Type {kind!r}")
    families = {family.name: family for family in text_string_to_metric_families(text)}
    return families


def value(families, family, sample, **labels):
    """The value of the sample named `sample` of `family` with exactly `labels`."""
    if family not in families:
        problems.append(f"no family {family}")
        return None
    for found in families[family].samples:
        if found.name == sample and found.labels == labels:
            return found.value
    problems.append(f"no sample {sample}{labels}")
    return None


def expect(families, family, sample, wanted, **labels):
    got = value(families, family, sample, **labels)
    if got is not None and got != wanted:
        problems.append(f"{sample}{labels} = {got}, expected {wanted}")


def check_types(families):
    """Every family this service exposes, with its type."""
    types = {
        "dcx_build": "info", "dcx_snapshot": "info", "dcx_reloads": "counter",
        "dcx_tool_calls": "counter", "dcx_http_requests": "counter",
        "dcx_http_request_duration_seconds": "histogram", "dcx_http_connections_open": "gauge",
        "dcx_http_connections_refused": "counter", "dcx_http_rate_limited": "counter",
        "dcx_snapshot_timestamp_seconds": "gauge", "dcx_snapshot_age_seconds": "gauge",
        "dcx_snapshot_history_days": "gauge", "dcx_snapshot_refused": "gauge",
        "dcx_log_lines_dropped": "counter",
    }
    for name, kind in types.items():
        if name not in families:
            problems.append(f"no family {name}")
        elif families[name].type != kind:
            problems.append(f"{name} is a {families[name].type}, expected {kind}")
    unexpected = sorted(set(families) - set(types))
    if unexpected:
        problems.append(f"families not documented here: {unexpected}")


def check_feeds(families, server, sent):
    """The feed server's requests: `sent` GETs of /matrix.json, one unknown path."""
    expect(families, "dcx_http_requests", "dcx_http_requests_total", sent,
           server=server, route="/matrix.json", status="200")
    expect(families, "dcx_http_requests", "dcx_http_requests_total", 1,
           server=server, route="other", status="404")
    duration = "dcx_http_request_duration_seconds"
    expect(families, duration, f"{duration}_count", sent, server=server, route="/matrix.json")
    expect(families, duration, f"{duration}_bucket", sent,
           server=server, route="/matrix.json", le="+Inf")
    # Route labels are the known routes and `other`, never a raw path.
    routes = {s.labels.get("route") for s in families["dcx_http_requests"].samples}
    if "/no/such/path" in routes:
        problems.append("a raw path became a route label")
    for cap in ("per_address", "total"):
        expect(families, "dcx_http_connections_refused", "dcx_http_connections_refused_total",
               0, server=server, cap=cap)
    expect(families, "dcx_http_rate_limited", "dcx_http_rate_limited_total", 0, server=server)
    value(families, "dcx_http_connections_open", "dcx_http_connections_open", server=server)


def check_tools(families, server):
    """The tool server's calls: 2 ok, 1 refused arguments, 1 unknown tool."""
    calls = "dcx_tool_calls_total"
    expect(families, "dcx_tool_calls", calls, 2, tool="get_diamond_price", outcome="ok")
    expect(families, "dcx_tool_calls", calls, 1,
           tool="get_diamond_price", outcome="invalid_arguments")
    expect(families, "dcx_tool_calls", calls, 1, tool="unknown", outcome="rejected")
    expect(families, "dcx_tool_calls", calls, 0, tool="get_market_depth", outcome="ok")
    expect(families, "dcx_http_requests", "dcx_http_requests_total", 3,
           server=server, route="/", status="200")
    expect(families, "dcx_http_requests", "dcx_http_requests_total", 1,
           server=server, route="/", status="400")


def feed_traffic(addr, sent):
    for _ in range(sent):
        if get(addr, "/matrix.json") != 200:
            problems.append("GET /matrix.json failed")
    if get(addr, "/no/such/path") != 404:
        problems.append("an unknown path was not 404")


def tool_traffic(addr):
    good = {"carat": 1.0, "color": "G", "clarity": "VS2"}
    for _ in range(2):
        if call(addr, "get_diamond_price", good)["result"]["isError"]:
            problems.append("a good call failed")
    if not call(addr, "get_diamond_price", dict(good, carat=99))["result"]["isError"]:
        problems.append("a carat of 99 was priced")
    if "error" not in call(addr, "get_weather", {}):
        problems.append("an unknown tool was called")


def main():
    role, metrics = sys.argv[1], sys.argv[2]
    if role == "feed-server":
        feed_traffic(sys.argv[3], 5)
    elif role == "tool-server":
        tool_traffic(sys.argv[3])
    else:
        feed_traffic(sys.argv[3], 3)
        tool_traffic(sys.argv[4])
    first = scrape(metrics)
    check_types(first)
    builds = first["dcx_build"].samples if "dcx_build" in first else []
    if [sample.value for sample in builds] != [1] or not builds[0].labels.get("version"):
        problems.append(f"dcx_build_info is not one sample with a version: {builds}")
    if role == "feed-server":
        check_feeds(first, "feeds", 5)
        expect(first, "dcx_snapshot", "dcx_snapshot_info", 1, day="2026-11-20", source="embedded")
    elif role == "tool-server":
        check_tools(first, "tools")
    else:
        check_feeds(first, "feeds", 3)
        check_tools(first, "tools")
        expect(first, "dcx_snapshot", "dcx_snapshot_info", 1, day="2026-11-21", source="history")
        expect(first, "dcx_reloads", "dcx_reloads_total", 1, outcome="accepted")
        expect(first, "dcx_snapshot_history_days", "dcx_snapshot_history_days", 2)
    for outcome in ("accepted", "kept", "refused"):
        value(first, "dcx_reloads", "dcx_reloads_total", outcome=outcome)
    # The age is read at scrape time: it grows between two scrapes with no reload.
    time.sleep(1.1)
    second = scrape(metrics)
    age = "dcx_snapshot_age_seconds"
    before, after = value(first, age, age), value(second, age, age)
    if before is not None and after is not None and not after >= before + 1:
        problems.append(f"the snapshot age went from {before} to {after} in 1.1 s")
    if problems:
        print(f"metrics_check {role}: FAILED")
        for problem in problems:
            print(f"  {problem}")
        sys.exit(1)
    print(f"metrics_check {role}: {len(first)} families parse; every expected series counted")


main()
