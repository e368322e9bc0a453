#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Rust crate's checks (make test-rust, in make test and make check):
# rustfmt and clippy with warnings as errors, cargo test (the vector file,
# the system generator's guarantees, the examples in the docs), the vector
# tests again on every other kernel this CPU runs (SHAKERAND_KERNEL), and
# rustdoc with warnings as errors. Builds in build-rust/.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null 2>&1 || { echo "rust/run-tests.sh: no cargo (rustup's toolchain)" >&2; exit 1; }
export CARGO_TARGET_DIR="$root/build-rust"
manifest=$root/rust/Cargo.toml
cargo fmt --manifest-path "$manifest" --check
cargo clippy --manifest-path "$manifest" --all-targets -q -- -D warnings
cargo test --manifest-path "$manifest" -q
for kernel in portable avx2 avx512 neon vsx; do
    got=$(SHAKERAND_KERNEL=$kernel cargo run -q --manifest-path "$manifest" --example kernel 2>/dev/null || true)
    [ "$got" = "$kernel" ] || continue
    echo "== the vectors on the $kernel kernel"
    SHAKERAND_KERNEL=$kernel cargo test --manifest-path "$manifest" -q --test vectors
done
RUSTDOCFLAGS="-D warnings" cargo doc --manifest-path "$manifest" --no-deps -q
echo "rust/run-tests.sh: every Rust check passed"
