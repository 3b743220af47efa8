"""End-to-end check of tool-server with the official Python MCP client (2026-07-28 mode).

Usage: mcp_client_check.py URL DCX_BINARY

Lists the tools, calls all three (a round and a fancy quote, the DCX index, market depth
with and without carat, and one bad argument), and compares each quote's
structuredContent with `dcx quote --json` for the same inputs. Exits 1 on any mismatch.
"""

import asyncio
import json
import subprocess
import sys

from mcp import Client

EXPECTED_TOOLS = ["get_diamond_price", "get_dcx_index", "get_market_depth"]
QUOTES = [
    {"carat": 1.23, "color": "G", "clarity": "VS2"},
    {"carat": 1.23, "color": "G", "clarity": "VS2", "shape": "oval", "shape_ratio": 1.35},
    {"carat": 2.5, "color": "e", "clarity": "vvs1", "shape": "cushion"},
]

failures = []
passes = 0


def check(label, ok, detail=""):
    global passes
    if ok:
        passes += 1
        print(f"ok    {label}")
    else:
        failures.append(label)
        print(f"FAIL  {label} {detail}")


def dcx_quote(dcx, args):
    cmd = [dcx, "quote", "--carat", str(args["carat"]), "--color", args["color"],
           "--clarity", args["clarity"], "--json"]
    if "shape" in args:
        cmd += ["--shape", args["shape"]]
    if "shape_ratio" in args:
        cmd += ["--ratio", str(args["shape_ratio"])]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def text_items(result):
    return [c.text for c in result.content if getattr(c, "type", "") == "text"]


async def main(url, dcx):
    async with Client(url, mode="2026-07-28") as client:
        tools = (await client.list_tools()).tools
        names = [t.name for t in tools]
        check("tools/list returns the three tools in order", names == EXPECTED_TOOLS, names)
        for tool in tools:
            check(f"{tool.name} has a description and an output schema",
                  bool(tool.description) and bool(tool.output_schema))

        for args in QUOTES:
            label = f"get_diamond_price {args}"
            result = await client.call_tool("get_diamond_price", args)
            check(f"{label}: not an error", not result.is_error, text_items(result))
            structured = result.structured_content or {}
            expected = dcx_quote(dcx, args)
            check(f"{label}: equals dcx quote --json", structured == expected,
                  f"\n  tool: {structured}\n  dcx:  {expected}")
            texts = text_items(result)
            check(f"{label}: readable text then JSON text",
                  len(texts) == 2 and json.loads(texts[1]) == structured, texts)

        index = await client.call_tool("get_dcx_index", {})
        s = index.structured_content or {}
        check("get_dcx_index: dcx and three trends",
              not index.is_error and s.get("dcx_usd_per_carat", 0) > 0
              and set(s.get("trends_percent", {})) == {"24h", "7d", "30d"}, s)

        depth = await client.call_tool("get_market_depth", {"carat": 1.04})
        s = depth.structured_content or {}
        check("get_market_depth(1.04): nearest key 1.0 and a total",
              not depth.is_error and s.get("carat_key") == "1.0"
              and s.get("comparable_offer_count") == sum(s.get("by_clarity", {}).values()), s)

        overview = await client.call_tool("get_market_depth", {})
        s = overview.structured_content or {}
        check("get_market_depth(): carat points and 10 combinations",
              not overview.is_error and len(s.get("top_combinations") or []) == 10
              and s.get("available_carats") == sorted(s.get("available_carats") or []), s)

        bad = await client.call_tool("get_diamond_price", {"carat": 7, "color": "Z", "clarity": "VS2"})
        texts = " ".join(text_items(bad))
        check("bad arguments: isError naming carat and color",
              bad.is_error and "carat" in texts and "color" in texts, texts)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
    print(f"{passes} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
