"""Checks server.json, the MCP registry entry, before anyone publishes it.

Usage: registry_check.py [--bundle FILE.mcpb] [--stamp FILE.mcpb]

- valid against the registry's own server.json schema, vendored in
  deploy/registry/server.schema.json (its `$id` is the `$schema` server.json names);
- the rules the registry adds at publish time that the schema cannot say (from its
  validators): a reverse-DNS name in the repository owner's `io.github.` namespace, remote
  URLs on https and not on a loopback host, an MCPB package on an https URL that names
  `mcp`, with a `fileSha256`;
- in step with the rest of the repository: the workspace version and repository, the
  bundle manifest's version, the bundle's release URL, and the README's `mcp-name:` line;
- and a broken copy of it is refused, so the validation is known to bite.
--bundle FILE: the package's fileSha256 must be FILE's SHA-256 (at release time).
--stamp FILE: writes FILE's SHA-256 into server.json first.
"""

import copy
import hashlib
import json
import pathlib
import re
import sys
import tomllib
from urllib.parse import urlparse

import jsonschema

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "deploy/registry/server.schema.json"
SERVER = ROOT / "server.json"
MANIFEST = ROOT / "deploy/bundle/manifest.json"
failures = []


def check(name, ok, detail=""):
    print(f"{'ok  ' if ok else 'FAIL'}  {name}{'' if ok else ' ' + str(detail)}")
    if not ok:
        failures.append(name)


def sha256(path):
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def schema_errors(validator, doc):
    return sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))


def main(argv):
    args = dict(zip(argv[::2], argv[1::2]))
    if "--stamp" in args:
        text = SERVER.read_text()
        stamped, n = re.subn(r'("fileSha256": ")[0-9a-f]{64}(")',
                             rf"\g<1>{sha256(args['--stamp'])}\g<2>", text)
        assert n == 1, "server.json should hold one fileSha256"
        SERVER.write_text(stamped)
        print(f"== stamped the SHA-256 of {args['--stamp']} into server.json")

    schema = json.loads(SCHEMA.read_text())
    noted = re.search(r"This copy's SHA-256 is\s+`([0-9a-f]{64})`",
                      (SCHEMA.parent / "README.md").read_text())
    check("the vendored schema is the copy its note describes (SHA-256)",
          noted and noted.group(1) == sha256(SCHEMA), noted and noted.group(1))
    server = json.loads(SERVER.read_text())
    validator = jsonschema.Draft7Validator(schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
    errors = schema_errors(validator, server)
    check(f"server.json is valid against {schema['$id']}", not errors,
          "; ".join(f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in errors))
    check("server.json's $schema is the vendored schema's $id", server.get("$schema") == schema["$id"],
          server.get("$schema"))

    workspace = tomllib.loads((ROOT / "Cargo.toml").read_text())["workspace"]["package"]
    version, repository = workspace["version"], workspace["repository"]
    owner = urlparse(repository).path.strip("/").split("/")[0]
    check("version is the workspace's (the release dcx --version shows)",
          server["version"] == version, f"{server['version']} != {version}")
    check("repository is the workspace's", server.get("repository", {}).get("url") == repository,
          server.get("repository"))
    check(f"name is in the repository owner's namespace io.github.{owner}/",
          server["name"].startswith(f"io.github.{owner}/"), server["name"])
    readme = (ROOT / "README.md").read_text()
    readme_names = re.findall(r"^mcp-name: (\S+)$", readme, re.M)
    check("README carries one `mcp-name:` line with the name", readme_names == [server["name"]],
          readme_names)
    bundles = set(re.findall(r"dcx-[0-9][^ `]*?-linux-x86_64\.mcpb", readme))
    check("the bundle the README names is this version's",
          bundles == {f"dcx-{version}-linux-x86_64.mcpb"}, bundles)

    for i, remote in enumerate(server.get("remotes", [])):
        url = urlparse(re.sub(r"\{[^}]+\}", "placeholder.example", remote["url"]))
        check(f"remotes[{i}] is https and not loopback",
              url.scheme == "https" and url.hostname not in ("localhost", "127.0.0.1", "::1"),
              remote["url"])
        used = set(re.findall(r"\{([^}]+)\}", remote["url"]))
        check(f"remotes[{i}] defines every variable its URL uses",
              used <= set(remote.get("variables", {})), used)

    manifest = json.loads(MANIFEST.read_text())
    check("the bundle manifest's version is the workspace's", manifest["version"] == version,
          manifest["version"])
    mcpb = [p for p in server.get("packages", []) if p["registryType"] == "mcpb"]
    check("one mcpb package", len(mcpb) == 1, mcpb)
    for package in mcpb:
        expected = (f"{repository}/releases/download/dcx-v{version}/"
                    f"dcx-{version}-linux-x86_64.mcpb")
        check("the mcpb package is this version's release download (https, names mcp)",
              package["identifier"] == expected, f"{package['identifier']} != {expected}")
        check("the mcpb package's version is the workspace's", package.get("version") == version,
              package.get("version"))
        check("the mcpb package has a fileSha256 and runs over stdio",
              bool(package.get("fileSha256")) and package["transport"]["type"] == "stdio", package)
        if "--bundle" in args:
            check(f"fileSha256 is the SHA-256 of {args['--bundle']}",
                  package.get("fileSha256") == sha256(args["--bundle"]), package.get("fileSha256"))

    broken = copy.deepcopy(server)
    broken["description"] = "x" * 101
    broken["packages"][0]["version"] = "latest"
    broken["remotes"][0]["type"] = "websocket"
    broken["websiteUrl"] = "not a URI"
    paths = {"/".join(map(str, e.absolute_path)) for e in schema_errors(validator, broken)}
    check("a broken copy is refused (description too long, version latest, bad transport, "
          "a website that is no URI)",
          {"description", "packages/0/version", "remotes/0", "websiteUrl"} <= paths, paths)

    print(f"{len(failures) == 0 and 'registry entry: all checks passed' or 'registry entry: FAILED'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
