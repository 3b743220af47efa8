"""Calls drawn from the tools' own inputSchemas are never refused.

Usage: schema_check.py TOOL_URL [EXAMPLES]

Lists the tools of the tool server at TOOL_URL (`tools/list`, 2026-07-28 era, over HTTP)
and, for each tool, draws EXAMPLES argument objects (default 300) from its `inputSchema`
with PyPI hypothesis-jsonschema, sends each as `tools/call` and counts the refusals (an
`isError` result or a JSON-RPC error). Each drawn object is first checked against the
schema with PyPI jsonschema (draft 2020-12), and each answer's `structuredContent` against
the tool's `outputSchema`. Prints the share refused per tool and the first refusals;
exits 1 if any call was refused or any check failed. The draws are derandomized, so a
run is reproducible.
"""

import json
import sys
import urllib.error
import urllib.request
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis_jsonschema import from_schema
from jsonschema import Draft202012Validator

TOOL = sys.argv[1].rstrip("/") + "/"
EXAMPLES = int(sys.argv[2]) if len(sys.argv) > 2 else 300
VERSION = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": VERSION,
        "io.modelcontextprotocol/clientCapabilities": {}}


def rpc(method, params, name=None):
    """POSTs one JSON-RPC request of the 2026-07-28 era and returns the answer."""
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": dict(params, _meta=META)}
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": VERSION, "Mcp-Method": method}
    if name:
        headers["Mcp-Name"] = name
    request = urllib.request.Request(TOOL, json.dumps(body).encode(), headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.load(answer)
    except urllib.error.HTTPError as error:
        return json.load(error)


def refusal(answer):
    """Why the server refused a call, or None when it answered."""
    if "error" in answer:
        return f"JSON-RPC error {answer['error'].get('code')}: {answer['error'].get('message')}"
    result = answer["result"]
    if result.get("isError"):
        return result["content"][0]["text"]
    return None


def check_tool(tool):
    """Draws EXAMPLES calls of `tool` from its inputSchema; returns (calls, refusals, problems)."""
    name, schema = tool["name"], tool["inputSchema"]
    Draft202012Validator.check_schema(schema)
    inputs = Draft202012Validator(schema)
    outputs = Draft202012Validator(tool["outputSchema"])
    calls, refused, problems, drawn = [], [], [], Counter()

    @settings(max_examples=EXAMPLES, database=None, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck))
    @given(from_schema(schema))
    def call(arguments):
        errors = [e.message for e in inputs.iter_errors(arguments)]
        if errors:
            problems.append(f"{name}: drawn {arguments} breaks its own schema: {errors[:3]}")
            return
        calls.append(arguments)
        drawn[(arguments.get("shape", "(none)"), "shape_ratio" in arguments)] += 1
        answer = rpc("tools/call", {"name": name, "arguments": arguments}, name)
        why = refusal(answer)
        if why is not None:
            refused.append((arguments, why))
            return
        structured = answer["result"].get("structuredContent")
        errors = [e.message for e in outputs.iter_errors(structured)]
        if errors:
            problems.append(f"{name} {arguments}: structuredContent breaks outputSchema: {errors[:3]}")

    call()
    share = 100.0 * len(refused) / max(len(calls), 1)
    print(f"{name}: {len(calls)} calls drawn from its inputSchema, {len(refused)} refused ({share:.1f} %)")
    if name == "get_diamond_price":
        with_ratio = sum(n for (_, ratio), n in drawn.items() if ratio)
        shapes = sorted({shape for shape, _ in drawn})
        print(f"  shapes drawn: {', '.join(shapes)}; {with_ratio} calls with a shape_ratio")
    for arguments, why in refused[:5]:
        print(f"  REFUSED {json.dumps(arguments)}: {why[:300]}")
    return len(calls), len(refused), problems


def main():
    tools = rpc("tools/list", {})["result"]["tools"]
    total = refused_total = 0
    problems = []
    for tool in tools:
        calls, refused, found = check_tool(tool)
        total += calls
        refused_total += refused
        problems += found
    for problem in problems[:10]:
        print(f"FAIL {problem}")
    failed = refused_total + len(problems)
    print(f"{total - refused_total} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
