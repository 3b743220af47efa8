"""`/openapi.json` against a real validator and against real answers.

Usage: openapi_check.py FEED_URL

1. The description is valid OpenAPI 3.1 (PyPI openapi-spec-validator).
2. Real answers of the running feed server, one or more per route and status, each have
   a status and media type the description declares for that route, and every JSON body
   matches its declared schema (PyPI jsonschema, draft 2020-12, `$ref`s resolved inside
   the description).
"""

import json
import sys
import urllib.error
import urllib.request

from jsonschema import Draft202012Validator
from openapi_spec_validator import validate
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

FEED = sys.argv[1]
BASE = "urn:openapi"
STONE = "shape=oval&carat=1.23&color=G&clarity=VS2&ratio=1.4"
# (method, path with query, request headers, body, status expected, response to check
# against when the route has no operation for the method: a components/responses key).
CASES = [
    ("GET", "/matrix.json", {}, None, 200, None),
    ("GET", "/matrix_cushion.json", {}, None, 200, None),
    ("GET", "/ratio_models.json", {}, None, 200, None),
    ("GET", "/index.json", {}, None, 200, None),
    ("GET", "/depth.json", {}, None, 200, None),
    ("GET", "/matrix_stats.json", {}, None, 200, None),
    ("GET", "/index.json", {"If-None-Match": "*"}, None, 304, None),
    ("GET", f"/track?{STONE}", {}, None, 200, None),
    ("GET", "/track?carat=1&color=G&clarity=VS2&format=csv", {}, None, 200, None),
    ("GET", "/track?shape=blob&carat=9&color=Z&clarity=VS2&colour=G", {}, None, 400, None),
    ("GET", "/track?carat=1&color=G&clarity=VS2&format=xml", {}, None, 400, None),
    ("GET", f"/quote?{STONE}", {}, None, 200, None),
    ("GET", "/quote?carat=9&color=G&clarity=VS2", {}, None, 400, None),
    ("GET", f"/quote?{STONE}&asking_price_usd=6500", {}, None, 200, None),
    ("GET", f"/check?{STONE}&asking_price_usd=6500", {}, None, 200, None),
    ("GET", f"/check?{STONE}&asking_price_usd=100000", {}, None, 200, None),
    ("GET", "/check?carat=1&color=G&clarity=VS2&asking_price_usd=-5&days=3", {}, None, 400, None),
    ("GET", "/index/history.json", {}, None, 200, None),
    ("GET", "/index/history.csv", {}, None, 200, None),
    ("GET", "/matrix.csv", {}, None, 200, None),
    ("GET", "/matrix_cushion.csv", {}, None, 200, None),
    ("GET", "/matrix_stats.csv", {}, None, 200, None),
    ("GET", "/openapi.json", {}, None, 200, None),
    ("GET", "/site.css", {}, None, 200, None),
    ("GET", "/site.js", {}, None, 200, None),
    ("GET", "/health", {}, None, 200, None),
    ("GET", "/", {}, None, 200, None),
    ("GET", "/", {"Accept": "text/html"}, None, 200, None),
    ("GET", "/nope", {}, None, 404, "NotFound"),
    ("DELETE", "/matrix.json", {}, None, 405, "MethodNotAllowed"),
    ("POST", "/health", {"Content-Type": "text/plain"}, b"x=1", 413, "PayloadTooLarge"),
]


def fetch(method, path, headers, body):
    request = urllib.request.Request(FEED + path, data=body, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.headers.get("Content-Type", ""), answer.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers.get("Content-Type", ""), err.read()


def pointer(*parts):
    return "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def main():
    spec = json.load(urllib.request.urlopen(FEED + "/openapi.json", timeout=10))
    validate(spec)
    print("ok: /openapi.json is valid OpenAPI 3.1 (openapi-spec-validator)")
    registry = Registry().with_resource(BASE, Resource(contents=spec, specification=DRAFT202012))

    checked = 0
    for method, target, headers, body, status, fallback in CASES:
        path = target.split("?")[0]
        got, kind, data = fetch(method, target, headers, body)
        where = f"{method} {target}"
        assert got == status, f"{where}: status {got}, expected {status}"
        if fallback:
            location = ("components", "responses", fallback)
        else:
            operation = spec["paths"][path][method.lower()]
            assert str(got) in operation["responses"], f"{where}: {got} is not declared"
            location = ("paths", path, method.lower(), "responses", str(got))
        response = spec
        for part in location:
            response = response[part]
        response = deref(spec, response)
        location = ref_location(spec, location)
        content = response.get("content", {})
        if got == 304:
            assert not data and not content, f"{where}: a 304 has no body"
        else:
            media = kind.split(";")[0].strip()
            assert media in content, f"{where}: {media} is not declared ({list(content)})"
            if media == "application/json":
                schema_at = pointer(*location, "content", media, "schema")
                validator = Draft202012Validator({"$ref": f"{BASE}#/{schema_at}"}, registry=registry)
                errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator.iter_errors(json.loads(data))]
                assert not errors, f"{where}: the body breaks its schema: {errors[:5]}"
        checked += 1
        print(f"ok: {where} -> {got} {kind or '(no body)'} matches the description")
    print(f"{checked + 1} passed, 0 failed")


def deref(spec, obj):
    """`obj`, or what its `$ref` points at inside `spec`."""
    return lookup(spec, obj["$ref"]) if "$ref" in obj else obj


def ref_location(spec, location):
    """The path of the object at `location`, following a `$ref` there."""
    obj = spec
    for part in location:
        obj = obj[part]
    if "$ref" in obj:
        return tuple(p.replace("~1", "/").replace("~0", "~") for p in obj["$ref"][2:].split("/"))
    return location


def lookup(spec, ref):
    obj = spec
    for part in ref[2:].split("/"):
        obj = obj[part.replace("~1", "/").replace("~0", "~")]
    return obj


if __name__ == "__main__":
    main()
