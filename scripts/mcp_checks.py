"""The checks every MCP client of the CI runs against the pricing tools, whatever its API.

A client script adapts its library to two async callables and hands them to `run`:
`list_tools()` returns `[{"name", "description", "output_schema"}]` and
`call_tool(name, arguments)` returns `{"is_error", "structured", "texts"}`. `run` lists
the tools, calls all four (a round and two fancy quotes, the DCX index, market depth with
and without carat, an asking price checked, one bad argument each for the price and the
check) and compares each quote's structured content with `dcx quote --json` for the same
inputs. `run_primitives` takes the client session itself
(the SDKs name the methods alike: `list_resources`, `read_resource`, `list_prompts`,
`get_prompt`, `complete`) and checks the resources, the history template, the prompts
and a completion. `report` prints the tally and gives the exit code.
"""

import json
import subprocess

EXPECTED_TOOLS = ["get_diamond_price", "get_dcx_index", "get_market_depth", "check_asking_price"]
QUOTES = [
    {"carat": 1.23, "color": "G", "clarity": "VS2"},
    {"carat": 1.23, "color": "G", "clarity": "VS2", "shape": "oval", "shape_ratio": 1.35},
    {"carat": 2.5, "color": "e", "clarity": "vvs1", "shape": "cushion"},
]


class Tally:
    """Passed and failed checks, printed as they happen."""

    def __init__(self, label):
        self.label = label
        self.passes = 0
        self.failures = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passes += 1
            print(f"ok    [{self.label}] {name}")
        else:
            self.failures.append(name)
            print(f"FAIL  [{self.label}] {name} {detail}")


def dcx_quote(dcx, args):
    cmd = [dcx, "quote", "--carat", str(args["carat"]), "--color", args["color"],
           "--clarity", args["clarity"], "--json"]
    if "shape" in args:
        cmd += ["--shape", args["shape"]]
    if "shape_ratio" in args:
        cmd += ["--ratio", str(args["shape_ratio"])]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


async def run(tally, dcx, list_tools, call_tool):
    check = tally.check
    tools = await list_tools()
    names = [t["name"] for t in tools]
    check("tools/list returns the four tools in order", names == EXPECTED_TOOLS, names)
    for tool in tools:
        check(f"{tool['name']} has a description and an output schema",
              bool(tool["description"]) and bool(tool["output_schema"]))

    for args in QUOTES:
        label = f"get_diamond_price {args}"
        result = await call_tool("get_diamond_price", args)
        check(f"{label}: not an error", not result["is_error"], result["texts"])
        structured = result["structured"] or {}
        expected = dcx_quote(dcx, args)
        check(f"{label}: equals dcx quote --json", structured == expected,
              f"\n  tool: {structured}\n  dcx:  {expected}")
        texts = result["texts"]
        check(f"{label}: readable text then JSON text",
              len(texts) == 2 and json.loads(texts[1]) == structured, texts)

    index = await call_tool("get_dcx_index", {})
    s = index["structured"] or {}
    check("get_dcx_index: dcx and three trends",
          not index["is_error"] and s.get("dcx_usd_per_carat", 0) > 0
          and set(s.get("trends_percent", {})) == {"24h", "7d", "30d"}, s)

    depth = await call_tool("get_market_depth", {"carat": 1.04})
    s = depth["structured"] or {}
    check("get_market_depth(1.04): nearest key 1.0 and a total",
          not depth["is_error"] and s.get("carat_key") == "1.0"
          and s.get("comparable_offer_count") == sum(s.get("by_clarity", {}).values()), s)

    overview = await call_tool("get_market_depth", {})
    s = overview["structured"] or {}
    check("get_market_depth(): carat points and 10 combinations",
          not overview["is_error"] and len(s.get("top_combinations") or []) == 10
          and s.get("available_carats") == sorted(s.get("available_carats") or []), s)

    stone = QUOTES[1]
    quote = dcx_quote(dcx, stone)
    asked = await call_tool("check_asking_price", {**stone, "asking_price_usd": 6500})
    s = asked["structured"] or {}
    check("check_asking_price: the benchmark, range and basis of dcx quote --json",
          not asked["is_error"] and s.get("benchmark_usd") == quote["total_usd"]
          and s.get("range") == quote.get("range") and s.get("basis") == quote.get("basis"),
          f"\n  tool: {s}\n  dcx:  {quote}")
    check("check_asking_price: a verdict, a percentile and the discount",
          s.get("verdict") in ("below_market", "within_market", "above_market")
          and 0 <= s.get("percentile", -1) <= 100
          and abs((6500 / quote["total_usd"] - 1) * 100 - s.get("discount_pct", 1e9)) <= 0.06, s)
    refused = await call_tool("check_asking_price", {**stone, "asking_price_usd": -1})
    texts = " ".join(refused["texts"])
    check("check_asking_price with a negative ask: isError naming asking_price_usd",
          refused["is_error"] and "asking_price_usd" in texts, texts)

    bad = await call_tool("get_diamond_price", {"carat": 7, "color": "Z", "clarity": "VS2"})
    texts = " ".join(bad["texts"])
    check("bad arguments: isError naming carat and color",
          bad["is_error"] and "carat" in texts and "color" in texts, texts)


EXPECTED_RESOURCES = [
    "dcx://feeds/matrix.json", "dcx://feeds/matrix_cushion.json",
    "dcx://feeds/ratio_models.json", "dcx://feeds/index.json", "dcx://feeds/depth.json",
    "dcx://docs/methodology.md", "dcx://docs/api.md", "dcx://history/dcx.json",
    "ui://dcx/chart.html", "ui://dcx/calculator.html",
]


def attr(obj, *names):
    """The first of `names` that `obj` has: SDK 1.x models use camelCase, 2.x snake_case."""
    for name in names:
        if hasattr(obj, name):
            return getattr(obj, name)
    return None


def session_calls(session):
    """The `list_tools` and `call_tool` that `run` takes, through an SDK client or session
    (1.x or 2.x models)."""
    async def list_tools():
        tools = (await session.list_tools()).tools
        return [{"name": t.name, "description": t.description,
                 "output_schema": attr(t, "outputSchema", "output_schema")} for t in tools]

    async def call_tool(name, arguments):
        r = await session.call_tool(name, arguments)
        return {"is_error": attr(r, "isError", "is_error"),
                "structured": attr(r, "structuredContent", "structured_content"),
                "texts": text_items(r.content)}

    return list_tools, call_tool


async def run_primitives(tally, session, prompt_reference):
    """Resources, the template, prompts and a completion, through the SDK's own methods.
    `prompt_reference(name)` builds the SDK's reference to a prompt for `complete`."""
    check = tally.check
    resources = (await session.list_resources()).resources
    uris = [str(r.uri) for r in resources]
    check("resources/list: the five feeds, two documents, the DCX by day, two views", uris == EXPECTED_RESOURCES, uris)
    index = (await session.read_resource("dcx://feeds/index.json")).contents[0]
    body = json.loads(index.text)
    check("resources/read dcx://feeds/index.json: the index feed as JSON",
          attr(index, "mimeType", "mime_type") == "application/json" and body.get("dcx", 0) > 0,
          index)
    templates = (await session.list_resource_templates())
    template = attr(templates, "resourceTemplates", "resource_templates")[0]
    check("resources/templates/list: the history template",
          attr(template, "uriTemplate", "uri_template") == "dcx://history/{date}/{feed}")
    day = body["ts"][:10]
    past = (await session.read_resource(f"dcx://history/{day}/index.json")).contents[0]
    check("resources/read of the live day through the template", json.loads(past.text) == body)
    prompts = [p.name for p in (await session.list_prompts()).prompts]
    check("prompts/list: price_stone, fair_asking_price",
          prompts == ["price_stone", "fair_asking_price"], prompts)
    prompt = await session.get_prompt("fair_asking_price", {
        "carat": "1.2", "color": "G", "clarity": "VS2", "asking_price_usd": "9000"})
    text = prompt.messages[0].content.text
    check("prompts/get fair_asking_price names the tools",
          "get_diamond_price" in text and "9000" in text, text)
    completion = await session.complete(
        prompt_reference("price_stone"), {"name": "clarity", "value": "vs"})
    values = completion.completion.values
    check("completion/complete clarity 'vs'", values == ["VS1", "VS2"], values)


def text_items(content):
    return [c.text for c in content if getattr(c, "type", "") == "text"]


def report(tally):
    print(f"[{tally.label}] {tally.passes} passed, {len(tally.failures)} failed")
    return 1 if tally.failures else 0
