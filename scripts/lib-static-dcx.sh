# Sourced by the packaging scripts (bundle.sh, image-check.sh): builds `dcx` as one static
# executable (static-pie, glibc linked in: `-C target-feature=+crt-static`), which runs on
# any x86_64 Linux whatever its libc, and alone in a `FROM scratch` image. The explicit
# --target keeps these flags off build scripts and apart from the ordinary release build.
# The flag is added to `build.rustflags` by `--config`, which Cargo joins to the
# workspace's own (.cargo/config.toml); a RUSTFLAGS would replace them.
# Sets STATIC_DCX (its path). Usage: source scripts/lib-static-dcx.sh; build_static_dcx
# shellcheck source=scripts/lib-proc.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib-proc.sh"
STATIC_TRIPLE=x86_64-unknown-linux-gnu
build_static_dcx() {
  if [ "$(uname -m)" != x86_64 ]; then
    echo "the static dcx is built for x86_64 Linux; this is $(uname -m)" >&2
    return 1
  fi
  echo "== cargo build --release -p dcx --target $STATIC_TRIPLE (static-pie)"
  cargo build --release --locked -p dcx --target "$STATIC_TRIPLE" \
    --config 'build.rustflags = ["-C", "target-feature=+crt-static"]'
  STATIC_DCX="$(target_dir)/$STATIC_TRIPLE/release/dcx"
  if ldd "$STATIC_DCX" 2>&1 | grep -q '=>'; then
    echo "$STATIC_DCX links shared libraries:" >&2
    ldd "$STATIC_DCX" >&2
    return 1
  fi
  echo "== $(file -b "$STATIC_DCX" | cut -d, -f1-2)"
}
