"""End-to-end check of tool-server with the official Python MCP client (2026-07-28 mode).

Usage: mcp_client_check.py URL DCX_BINARY

Runs the shared checks of `mcp_checks.py` (the tools listed, all four called, each quote
compared with `dcx quote --json`; the resources, the history template, a prompt and a
completion) through `mcp` 2.x's `Client`. Exits 1 on any mismatch.
"""

import asyncio
import sys

from mcp import Client
from mcp.types import PromptReference

import mcp_checks


async def main(url, dcx):
    tally = mcp_checks.Tally("mcp 2.3.0 http 2026-07-28")
    async with Client(url, mode="2026-07-28") as client:
        list_tools, call_tool = mcp_checks.session_calls(client)

        await mcp_checks.run(tally, dcx, list_tools, call_tool)
        await mcp_checks.run_primitives(
            tally, client, lambda name: PromptReference(type="ref/prompt", name=name))
    return mcp_checks.report(tally)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
