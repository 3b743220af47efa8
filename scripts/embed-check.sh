#!/usr/bin/env bash
# Proof from outside (README "Use the pricing in your Rust program"): runs the README's
# commands as written (`cargo new`, `cargo add --path ../dcx/...`) in a temporary folder
# outside the workspace, beside a folder `dcx` that is this clone, puts the README's program
# in `src/main.rs`, runs it on the embedded snapshot and on fixtures/snapshot, and checks
# every price it prints against `dcx quote --json` for the same stone.
# Offline when it can be: the workspace's Cargo.lock pins the versions, the registry cache
# already holds them, and the build shares the workspace's target folder.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
WORK=$(mktemp -d "${TMPDIR:-/tmp}/dcx-embed-check.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
ln -s "$ROOT" "$WORK/dcx"

python3 - "$ROOT" "$WORK" <<'PY'
import pathlib, re, sys
root, work = map(pathlib.Path, sys.argv[1:])
readme = (root / "README.md").read_text()
heading = "## Use the pricing in your Rust program"
section = readme.split(heading, 1)[1].split("\n## ", 1)[0]
blocks = dict((lang, text) for lang, text in re.findall(r"```(\w+)\n(.*?)```", section, re.S))
commands = blocks["sh"]
for package in ["pricing", "datasets"]:
    assert f"cargo add --path ../dcx/crates/{package}\n" in commands, \
        f"README's commands do not add crates/{package} by path"
(work / "commands.sh").write_text(commands)
(work / "main.rs").write_text(blocks["rust"])
print("== the README's commands:\n" + commands)
PY
echo "== running them beside the clone (offline first)"
(cd "$WORK" && CARGO_NET_OFFLINE=true bash -euo pipefail commands.sh) \
  || { echo "(offline failed; retrying online)"; rm -rf "$WORK/prices"; (cd "$WORK" && bash -euo pipefail commands.sh); }
cp "$WORK/main.rs" "$WORK/prices/src/main.rs"
cp Cargo.lock "$WORK/prices/Cargo.lock"
echo "== its Cargo.toml:"
cat "$WORK/prices/Cargo.toml"

export CARGO_TARGET_DIR="$ROOT/target"
build() { cargo build --quiet --manifest-path "$WORK/prices/Cargo.toml" "$@"; }
echo "== building it outside the workspace"
build --offline || { echo "(offline build failed; retrying online)"; build; }
cargo build --quiet --locked -p dcx

python3 - "$ROOT" <<'PY'
import json, pathlib, re, subprocess, sys
root = pathlib.Path(sys.argv[1])
program, dcx = root / "target/debug/prices", root / "target/debug/dcx"
line_re = re.compile(r"^(\w+) ([\d.]+) ct (\w+) (\w+), L/W ([\d.]+): ([\d.]+) USD per carat, ([\d.]+) USD in total$")
checked = 0
for folder in [None, root / "fixtures/snapshot"]:
    where = ["--snapshot", str(folder)] if folder else []
    printed = subprocess.run([program] + ([str(folder)] if folder else []),
                             check=True, capture_output=True, text=True).stdout.splitlines()
    print(f"== {program.name} {folder or '(embedded snapshot)'}:\n" + "\n".join(printed))
    as_of = printed[0].removeprefix("Prices as of ")
    assert len(printed) == 3, f"expected a date line and two stones, got {printed}"
    for line in printed[1:]:
        m = line_re.match(line)
        assert m, f"unexpected line {line!r}"
        shape, carat, color, clarity, ratio, per_carat, total = m.groups()
        args = ["quote", "--json", "--carat", carat, "--color", color, "--clarity", clarity,
                "--shape", shape] + (["--ratio", ratio] if shape != "round" else []) + where
        quote = json.loads(subprocess.run([dcx] + args, check=True, capture_output=True,
                                          text=True).stdout)
        theirs = (f"{quote['per_carat_usd']:.2f}", f"{quote['total_usd']:.2f}", quote["as_of"])
        if (per_carat, total, as_of) != theirs:
            sys.exit(f"MISMATCH: {line!r} but dcx {' '.join(args)} says per carat "
                     f"{theirs[0]}, total {theirs[1]}, as of {theirs[2]}")
        checked += 1
print(f"== {checked} quotes of the README's program agree with dcx quote --json")
PY
