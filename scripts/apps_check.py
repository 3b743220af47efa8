"""The MCP Apps views in a real browser, behind a minimal host (Debian chromium, playwright).

Usage: apps_check.py TOOL_URL DCX HISTORY_DIR SCREENSHOT_DIR

The host is a page of its own: a sandboxed iframe (allow-scripts only, an opaque origin,
the CSP built from the resource's _meta.ui.csp) whose srcdoc is the view as read over MCP.
It answers ui/initialize, sends the tool result of a call "the model" made, and forwards
the view's tools/call and resources/read to the real server (through Python, so that any
request the page makes is the view's own; a request the CSP blocks logs a console error,
which fails too). Prints one line per check; fails on the first miss. Screenshots of both
views are saved for review.
"""

import json
import os
import subprocess
import sys
import tempfile
import urllib.request

from playwright.sync_api import sync_playwright

TOOL, DCX, HISTORY, SHOTS = sys.argv[1:5]
MIME = "text/html;profile=mcp-app"
MODERN = "2026-07-28"
LEGACY = "2025-11-25"
STONES = [
    {"shape": "round", "carat": 1.01, "color": "G", "clarity": "VS2"},
    {"shape": "round", "carat": 0.52, "color": "E", "clarity": "VVS2"},
    {"shape": "oval", "carat": 1.23, "color": "G", "clarity": "VS2", "shape_ratio": 1.4},
    {"shape": "pear", "carat": 2.1, "color": "H", "clarity": "SI1"},
]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
passed = 0
next_id = 0


def check(condition, what):
    global passed
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)
    passed += 1
    print(f"ok: {what}")


def mcp(method, params, era=MODERN):
    """One JSON-RPC request to the server in `era`; the whole reply."""
    global next_id
    next_id += 1
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": era}
    params = dict(params)
    if era == MODERN:
        headers["Mcp-Method"] = method
        if "name" in params or "uri" in params:
            headers["Mcp-Name"] = params.get("name") or params.get("uri")
        params["_meta"] = {"io.modelcontextprotocol/protocolVersion": MODERN,
                           "io.modelcontextprotocol/clientCapabilities": {
                               "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": [MIME]}}},
                           "io.modelcontextprotocol/clientInfo": {"name": "apps-check", "version": "1"}}
    body = json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params})
    request = urllib.request.Request(TOOL, body.encode(), headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)


HOST = """<!doctype html><html><body>
<iframe id="view" sandbox="allow-scripts" style="width:720px;height:560px;border:0"></iframe>
<script>
const frame = document.getElementById("view");
window.hostLog = [];
function post(message) { frame.contentWindow.postMessage(Object.assign({ jsonrpc: "2.0" }, message), "*"); }
window.addEventListener("message", async event => {
  if (event.source !== frame.contentWindow) return;
  const m = event.data;
  window.hostLog.push(m.method || "reply");
  if (m.method === "ui/initialize") {
    post({ id: m.id, result: { protocolVersion: m.params.protocolVersion,
      hostInfo: { name: "apps-check", version: "1" },
      hostCapabilities: { serverTools: {}, serverResources: {} },
      hostContext: { theme: "light", displayMode: "inline", availableDisplayModes: ["inline"] } } });
  } else if (m.method === "ui/notifications/initialized") {
    if (window.toolResult) post({ method: "ui/notifications/tool-result", params: window.toolResult });
  } else if (m.method === "tools/call" || m.method === "resources/read") {
    const reply = JSON.parse(await window.forward(m.method, JSON.stringify(m.params)));
    post(reply.error ? { id: m.id, error: reply.error } : { id: m.id, result: reply.result });
  } else if (m.method !== undefined && m.id !== undefined) {
    post({ id: m.id, error: { code: -32601, message: "not offered by this host" } });
  }
});
window.show = (html, csp, toolResult) => {
  window.toolResult = toolResult;
  frame.setAttribute("csp", csp);
  frame.srcdoc = html;
};
</script></body></html>"""


def csp_of(meta):
    """The CSP a host builds from `_meta.ui.csp`: nothing but inline code and the domains named."""
    csp = meta["ui"]["csp"]
    connect = " ".join(csp.get("connectDomains", [])) or "'none'"
    resources = " ".join(csp.get("resourceDomains", []))
    return (f"default-src 'none'; script-src 'unsafe-inline' {resources}; "
            f"style-src 'unsafe-inline' {resources}; connect-src {connect}").replace("  ", " ")


def views():
    """Both views as read in each era, checked against the list and the tools' links."""
    listed = {r["uri"]: r for r in mcp("resources/list", {})["result"]["resources"]}
    tools = {t["name"]: t for t in mcp("tools/list", {})["result"]["tools"]}
    links = {"get_dcx_index": "ui://dcx/chart.html", "get_diamond_price": "ui://dcx/calculator.html"}
    for name, uri in links.items():
        meta = tools[name].get("_meta", {})
        check(meta.get("ui", {}).get("resourceUri") == uri and meta.get("ui/resourceUri") == uri,
              f"tools/list links {name} to {uri}")
        check(listed.get(uri, {}).get("mimeType") == MIME, f"resources/list lists {uri} as {MIME}")
    check("_meta" not in tools["get_market_depth"], "get_market_depth has no view")
    check("_meta" not in tools["check_asking_price"], "check_asking_price has no view")
    read = {}
    for uri in links.values():
        items = [mcp("resources/read", {"uri": uri}, era)["result"]["contents"][0] for era in (MODERN, LEGACY)]
        check(items[0] == items[1], f"{uri} reads the same in both eras")
        check(items[0]["mimeType"] == MIME and items[0]["text"].startswith("<!doctype html>"),
              f"{uri} is an MCP App page")
        domains = [d for ds in items[0]["_meta"]["ui"]["csp"].values() for d in ds]
        check(domains == [], f"{uri} declares a CSP with no outside domain")
        read[uri] = items[0]
    return read


def forwarder(calls):
    def forward(method, params):
        calls.append(method)
        reply = mcp(method, json.loads(params))
        return json.dumps({k: v for k, v in reply.items() if k in ("result", "error")})
    return forward


def open_view(browser, item, tool_result, calls, requests, problems):
    page = browser.new_page()
    page.on("request", lambda r: requests.append(r.url) if not r.url.startswith(("data:", "about:")) else None)
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.expose_function("forward", forwarder(calls))
    page.set_content(HOST)
    page.evaluate("([html, csp, result]) => window.show(html, csp, result)",
                  [item["text"], csp_of(item["_meta"]), tool_result])
    return page, page.frame_locator("#view")


def days():
    out = []
    for name in sorted(n for n in os.listdir(HISTORY) if n[:1].isdigit()):
        with open(os.path.join(HISTORY, name, "index.json")) as f:
            out.append([name, json.load(f)["dcx"]])
    return out


def quote(stone, live_day):
    args = [DCX, "quote", "--json", "--snapshot", os.path.join(HISTORY, live_day)]
    for key, flag in (("shape", "shape"), ("carat", "carat"), ("color", "color"),
                      ("clarity", "clarity"), ("shape_ratio", "ratio")):
        if key in stone:
            args += [f"--{flag}", str(stone[key])]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def chart(browser, item, history):
    calls, requests, problems = [], [], []
    result = mcp("tools/call", {"name": "get_dcx_index", "arguments": {}})["result"]
    page, view = open_view(browser, item, result, calls, requests, problems)
    points = view.locator("#chart circle.point")
    points.nth(len(history) - 1).wait_for(timeout=10000)
    got = view.locator("#chart").evaluate(
        "svg => [...svg.querySelectorAll('circle.point')].map(c => [c.dataset.date, Number(c.dataset.dcx)])")
    check(got == history, f"the chart draws one point per history day {got}")
    headline = view.locator("#headline").inner_text()
    check(f"{result['structuredContent']['dcx_usd_per_carat']:,.2f}" in headline,
          f"the chart shows the tool result's DCX: {headline!r}")
    check(calls == ["resources/read"], f"the chart read the series through the host ({calls})")
    check(not requests, f"the chart made no network request ({requests})")
    check(not problems, f"the chart logged no error ({problems})")
    page.screenshot(path=f"{SHOTS}/apps-chart.png")
    page.close()


def calculator(browser, item, live_day):
    calls, requests, problems = [], [], []
    first = STONES[0]
    result = mcp("tools/call", {"name": "get_diamond_price", "arguments": first})["result"]
    page, view = open_view(browser, item, result, calls, requests, problems)
    total = view.locator("#total[data-usd]")
    total.wait_for(timeout=10000)
    expected = quote(first, live_day)
    check(float(total.get_attribute("data-usd")) == expected["total_usd"],
          f"the calculator shows the model's call: total {expected['total_usd']}")
    view.locator("#price:enabled").wait_for(timeout=10000)
    for stone in STONES[1:]:
        view.locator("#shape").select_option(stone["shape"])
        view.locator("#carat").fill(str(stone["carat"]))
        view.locator("#color").select_option(stone["color"])
        view.locator("#clarity").select_option(stone["clarity"])
        view.locator("#ratio").fill(str(stone.get("shape_ratio", "")))
        before = len(calls)
        view.locator("#price").click()
        page.wait_for_function(f"window.hostLog.filter(m => m === 'tools/call').length > {before}")
        expected = quote(stone, live_day)
        view.locator(f"#total[data-usd='{expected['total_usd']}']").wait_for(timeout=10000)
        per_carat = float(view.locator("#per-carat").get_attribute("data-usd"))
        check(per_carat == expected["per_carat_usd"],
              f"calculator {stone}: {per_carat}/ct and total {expected['total_usd']} = dcx quote --json")
    check(set(calls) == {"tools/call"} and len(calls) == len(STONES) - 1,
          f"each answer is a tools/call through the host ({len(calls)})")
    check(not requests, f"the calculator made no network request ({requests})")
    check(not problems, f"the calculator logged no error ({problems})")
    page.screenshot(path=f"{SHOTS}/apps-calculator.png")
    page.close()


def main():
    read = views()
    history = days()
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        browser = p.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", args=ARGS, headless=True)
        try:
            chart(browser, read["ui://dcx/chart.html"], history)
            calculator(browser, read["ui://dcx/calculator.html"], history[-1][0])
        finally:
            browser.close()
    print(f"{passed} passed, 0 failed")


if __name__ == "__main__":
    main()
