"""End-to-end check with the Python MCP SDK 1.x (2025-11-25 `initialize`; no 2026 mode),
over streamable HTTP or over stdio (`dcx mcp` as a child process).

Usage: mcp_legacy_check.py http URL DCX_BINARY
       mcp_legacy_check.py stdio DCX_BINARY

Runs the shared checks of `mcp_checks.py` (tools, then resources, prompts and a
completion) and checks the negotiated version. Exits 1 on any mismatch.
"""

import asyncio
import importlib.metadata
import sys
from contextlib import asynccontextmanager

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client
from mcp.types import PromptReference

import mcp_checks


@asynccontextmanager
async def streams(transport, target):
    if transport == "http":
        async with streamablehttp_client(target) as (read, write, _):
            yield read, write
    else:
        async with stdio_client(StdioServerParameters(command=target, args=["mcp"])) as (read, write):
            yield read, write


async def main(transport, target, dcx):
    version = importlib.metadata.version("mcp")
    tally = mcp_checks.Tally(f"mcp {version} {transport}")
    async with streams(transport, target) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tally.check("initialize negotiates 2025-11-25", init.protocolVersion == "2025-11-25",
                        init.protocolVersion)
            tally.check("serverInfo names the server",
                        init.serverInfo.name == "dcx-diamond-pricing", init.serverInfo)

            list_tools, call_tool = mcp_checks.session_calls(session)

            await mcp_checks.run(tally, dcx, list_tools, call_tool)
            await mcp_checks.run_primitives(
                tally, session, lambda name: PromptReference(type="ref/prompt", name=name))
    return mcp_checks.report(tally)


if __name__ == "__main__":
    if sys.argv[1] == "http":
        code = asyncio.run(main("http", sys.argv[2], sys.argv[3]))
    else:
        code = asyncio.run(main("stdio", sys.argv[2], sys.argv[2]))
    sys.exit(code)
