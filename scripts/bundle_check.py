"""Drives an unpacked MCP bundle as a desktop host does.

Usage: bundle_check.py UNPACKED_DIR REPO_ROOT

Reads the bundle's manifest.json, resolves `${__dirname}` in its `server.mcp_config`
command and args to the unpacked folder, checks the entry point is there and executable,
starts the command as a child process over stdio with the Python MCP SDK 1.x client
(the 2025 `initialize` handshake that desktop hosts use), and runs the shared checks of
`mcp_checks.py` (tools listed, all four called, quotes compared with the bundled
binary's `dcx quote --json`). The release version is checked through `dcx --version`:
`serverInfo.version` is the fixed 2.0.0 of docs/decisions.md 4.6. Exits 1 on any failure.
"""

import asyncio
import json
import os
import pathlib
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import mcp_checks  # noqa: E402


async def main(unpacked, root):
    manifest = json.loads((unpacked / "manifest.json").read_text())
    tally = mcp_checks.Tally(f"bundle {manifest['name']} {manifest['version']}")
    server = manifest["server"]
    config = server["mcp_config"]
    resolve = lambda s: s.replace("${__dirname}", str(unpacked))  # noqa: E731
    command, args = resolve(config["command"]), [resolve(a) for a in config.get("args", [])]
    entry = unpacked / server["entry_point"]
    tally.check("the entry point is in the bundle and executable",
                entry.is_file() and os.access(entry, os.X_OK), entry)
    tally.check("the command is the entry point", pathlib.Path(command) == entry, command)
    tally.check("the icon is in the bundle", (unpacked / manifest["icon"]).is_file())
    shown = subprocess.run([str(entry), "--version"], capture_output=True, text=True).stdout
    tally.check("the bundled dcx --version is the manifest's version",
                shown.split() == ["dcx", manifest["version"]], shown)
    print(f"host would run: {command} {' '.join(args)}")

    params = StdioServerParameters(command=command, args=args, env=config.get("env"))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            tally.check("serverInfo names the server", init.serverInfo.name == "dcx-diamond-pricing",
                        init.serverInfo)

            list_tools, call_tool = mcp_checks.session_calls(session)

            tools = await list_tools()
            listed = [t["name"] for t in manifest.get("tools", [])]
            tally.check("the manifest lists the tools the server lists",
                        listed == [t["name"] for t in tools], listed)
            await mcp_checks.run(tally, str(entry), list_tools, call_tool)
    return mcp_checks.report(tally)


if __name__ == "__main__":
    sys.exit(asyncio.run(main(pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]))))
