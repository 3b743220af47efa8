#!/usr/bin/env bash
# Semver discipline for the published libraries (docs/compatibility.md): for each of
# dcx-pricing and dcx-datasets, runs cargo-semver-checks against the crate's newest
# release tag (`dcx-pricing-vX.Y.Z`, `dcx-datasets-vX.Y.Z`; docs/releasing.md). A crate
# with no tag yet is skipped, and says so. cargo-semver-checks is installed into
# .cache/cargo-semver-checks (a long compile, done once) only when some tag exists.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VERSION=0.51.0
INSTALL="$ROOT/.cache/cargo-semver-checks"
BIN="$INSTALL/bin/cargo-semver-checks"

tagged=()
for crate in dcx-pricing dcx-datasets; do
  tag=$(git tag --list "$crate-v*" --sort=-v:refname | head -n 1)
  if [ -z "$tag" ]; then
    echo "== semver: SKIPPED for $crate: no $crate-v* release tag yet (docs/releasing.md)"
  else
    tagged+=("$crate=$tag")
  fi
done
[ ${#tagged[@]} -eq 0 ] && exit 0

if ! { [ -x "$BIN" ] && "$BIN" semver-checks --version | grep -qF "$VERSION"; }; then
  echo "== installing cargo-semver-checks $VERSION into .cache/cargo-semver-checks"
  cargo install --locked --quiet --version "$VERSION" --root "$INSTALL" cargo-semver-checks
fi
failed=()
for entry in "${tagged[@]}"; do
  crate=${entry%%=*}
  tag=${entry#*=}
  echo "== semver: $crate against $tag"
  "$BIN" semver-checks check-release -p "$crate" --baseline-rev "$tag" || failed+=("$crate")
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "== semver: FAILED for ${failed[*]}: bump the version as docs/releasing.md says, or undo the break"
  exit 1
fi
