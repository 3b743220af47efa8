"""The feed server's web page in a real browser (Debian chromium driven by playwright).

Usage: browser_check.py FEED_URL TOOL_URL DCX HISTORY_DIR SCREENSHOT_DIR

Checks, printing one line per check and failing on the first miss:
  * the page loads with no console error and no failed request, at 1280x900 and 390x844;
  * the chart has one point per history day, each with that day's date and DCX;
  * the calculator's answer equals `dcx quote --json` for round and fancy stones;
  * with an asking price, the calculator shows the verdict, percentile and discount of
    `GET /check` and a range bar, no wider than a phone;
  * a bad carat shows the API's message next to the carat field;
  * the tool server's /docs is rendered HTML naming the server's own URL.
Screenshots of each page at both sizes are saved for review.
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import urllib.error
import urllib.request

from playwright.sync_api import sync_playwright

FEED, TOOL, DCX, HISTORY, SHOTS = sys.argv[1:6]
SIZES = {"desktop": (1280, 900), "phone": (390, 844)}
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
STONES = [
    {"shape": "round", "carat": "1.01", "color": "G", "clarity": "VS2"},
    {"shape": "round", "carat": "0.52", "color": "E", "clarity": "VVS2"},
    {"shape": "oval", "carat": "1.23", "color": "G", "clarity": "VS2", "ratio": "1.4"},
    {"shape": "pear", "carat": "2.1", "color": "H", "clarity": "SI1"},
    {"shape": "emerald", "carat": "3.5", "color": "F", "clarity": "VS1", "ratio": "1.55"},
]
passed = 0


# Tables cut off at the right edge: a table that does not fit the screen must sit in a box
# that scrolls sideways and itself fits the screen (nothing is hidden, everything reachable).
CUT_TABLES = """width => [...document.querySelectorAll('table')].filter(table => {
    const box = table.getBoundingClientRect();
    if (box.left >= -0.5 && box.right <= width + 0.5) return false;
    for (let up = table.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowX === 'auto' || style.overflowX === 'scroll') {
            const frame = up.getBoundingClientRect();
            return frame.left < -0.5 || frame.right > width + 0.5;
        }
    }
    return true;
}).map(table => table.className || 'table')"""


def cut_tables(page, width):
    """The tables of the page a reader of `width` pixels cannot read in full."""
    return page.evaluate(CUT_TABLES, width)


def check(condition, what):
    global passed
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)
    passed += 1
    print(f"ok: {what}")


def days():
    """(date, dcx) of every history day, from the days' own index.json files."""
    out = []
    for name in sorted(os.listdir(HISTORY)):
        # Only the day folders: the history also holds the build lock (and may hold a
        # build's temporary folder), which readers ignore.
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", name):
            continue
        with open(os.path.join(HISTORY, name, "index.json")) as f:
            out.append((name, json.load(f)["dcx"]))
    return out


def dcx_quote(stone, live_day):
    args = [DCX, "quote", "--json", "--snapshot", os.path.join(HISTORY, live_day)]
    for key in ("shape", "carat", "color", "clarity", "ratio"):
        if key in stone:
            args += [f"--{key}", stone[key]]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def watch(page, problems):
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url} {r.failure}"))
    page.on("response", lambda r: problems.append(f"{r.status} for {r.url}") if r.status >= 400 and "/quote" not in r.url else None)


def main():
    history = days()
    live_day = history[-1][0]
    with sync_playwright() as p, tempfile.TemporaryDirectory() as profile:
        browser = p.chromium.launch_persistent_context(
            profile, executable_path="/usr/bin/chromium", args=ARGS, headless=True,
            viewport={"width": 1280, "height": 900},
        )
        try:
            run(browser, history, live_day)
        finally:
            browser.close()
    print(f"{passed} passed, 0 failed")


def run(browser, history, live_day):
    page = browser.new_page()
    problems = []
    watch(page, problems)

    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(FEED + "/", wait_until="load")
        check(page.title().startswith("DCX"), f"{size}: / is the web page")
        page.screenshot(path=f"{SHOTS}/home-{size}.png", full_page=True)
        page.screenshot(path=f"{SHOTS}/home-{size}-top.png")
        wide = page.evaluate("document.documentElement.scrollWidth")
        check(wide <= width, f"{size}: the page is no wider than the screen ({wide} <= {width})")
        cut = cut_tables(page, width)
        check(not cut, f"{size}: every table of / fits or scrolls in its card ({cut})")
    check(not problems, f"no console error or failed request on / ({problems})")

    points = page.eval_on_selector_all(
        "#chart circle[data-date]", "els => els.map(e => [e.dataset.date, Number(e.dataset.dcx)])")
    check(len(points) == len(history), f"the chart has one point per day ({len(points)} of {len(history)})")
    check(points == [[d, v] for d, v in history], f"each point carries its day's DCX {points}")
    banner = page.locator("#sample-data").count()
    check(banner == 0, "no sample-data banner on a real history")

    page.set_viewport_size({"width": 1280, "height": 900})
    for stone in STONES:
        page.goto(FEED + "/", wait_until="load")
        form = page.locator("form.calculator")
        fill(form, stone)
        with page.expect_navigation():
            form.locator("button[type=submit]").click()
        shown = float(page.locator("[data-total-usd]").get_attribute("data-total-usd"))
        expected = dcx_quote(stone, live_day)["total_usd"]
        check(shown == expected, f"calculator total {shown} = dcx quote --json {expected} for {stone}")
        rows = page.locator("table.history tbody tr").count()
        check(rows == len(history), f"the answer lists the stone on every day ({rows})")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}/quote-{size}.png", full_page=True)
        wide = page.evaluate("document.documentElement.scrollWidth")
        check(wide <= width, f"{size}: the answer is no wider than the screen ({wide} <= {width})")
        cut = cut_tables(page, width)
        check(not cut, f"{size}: every table of the answer fits or scrolls ({cut})")

    for stone, ask in ((STONES[0], "5200"), (STONES[2], "20000"), (STONES[3], "900")):
        page.set_viewport_size({"width": 1280, "height": 900})
        page.goto(FEED + "/", wait_until="load")
        fill(page.locator("form.calculator"), stone)
        page.locator("#asking_price_usd").fill(ask)
        with page.expect_navigation():
            page.locator("form.calculator button[type=submit]").click()
        shown = page.locator("#check")
        query = "&".join(f"{k}={v}" for k, v in stone.items()) + f"&asking_price_usd={ask}"
        with urllib.request.urlopen(FEED + "/check?" + query, timeout=10) as answer:
            expected = json.load(answer)
        got = (shown.get_attribute("data-verdict"), float(shown.get_attribute("data-percentile")),
               float(shown.get_attribute("data-discount-pct")))
        want = (expected["verdict"], expected["percentile"], expected["discount_pct"])
        check(got == want, f"the calculator's check {got} = GET /check {want} for {stone} at {ask}")
        check(page.locator("#check svg.range-bar").count() == 1, "the check draws the ask on a range bar")
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=f"{SHOTS}/check-{stone['shape']}-{size}.png", full_page=True)
            wide = page.evaluate("document.documentElement.scrollWidth")
            bar = page.locator("#check svg.range-bar").bounding_box()
            check(wide <= width and bar["x"] >= 0 and bar["x"] + bar["width"] <= width,
                  f"{size}: the check and its bar fit the screen ({wide} <= {width})")
            cut = cut_tables(page, width)
            check(not cut, f"{size}: every table of the checked answer fits or scrolls ({cut})")

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(FEED + "/", wait_until="load")
    page.locator("#carat").fill("9")
    with page.expect_navigation():
        page.locator("form.calculator button[type=submit]").click()
    message = page.locator("#carat-problem").inner_text()
    track = track_message(FEED + "/track?shape=round&carat=9&color=G&clarity=VS2")
    check(track in message, f"a bad carat shows the API's message next to the field: {message!r}")
    check(page.locator("[data-total-usd]").count() == 0, "a bad carat shows no price")
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.screenshot(path=f"{SHOTS}/bad-carat-{size}.png", full_page=True)
    problems.clear()

    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.goto(TOOL + "/docs", wait_until="load")
        page.screenshot(path=f"{SHOTS}/tool-docs-{size}.png")
        wide = page.evaluate("document.documentElement.scrollWidth")
        check(wide <= width, f"{size}: /docs is no wider than the screen ({wide} <= {width})")
    check(page.locator("h1").count() >= 1, "the tool server's /docs is rendered HTML")
    check(TOOL + "/" in page.content(), "the tool server's /docs shows its own URL")
    check(not problems, f"no console error or failed request on /docs ({problems})")


def fill(form, stone):
    """Fills the calculator form with `stone`."""
    form.locator("#shape").select_option(stone["shape"])
    form.locator("#carat").fill(stone["carat"])
    form.locator("#color").select_option(stone["color"])
    form.locator("#clarity").select_option(stone["clarity"])
    if "ratio" in stone:
        form.locator("#ratio").fill(stone["ratio"])


def track_message(url):
    """The first problem `/track` reports for `url` (a 400 answer)."""
    try:
        urllib.request.urlopen(url, timeout=10)
    except urllib.error.HTTPError as err:
        return json.load(err)["problems"][0]["message"]
    raise AssertionError(f"{url} was accepted")


if __name__ == "__main__":
    main()
