#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Rust crate as crates.io would take it: the C core (src/, include/),
# the vector file its tests read and the licences copied into rust/
# (rust/csrc/ is ignored by git), then
# `cargo package`, and the .crate built and its tests run in an empty
# directory with nothing of the repository beside it.
#   tools/rust-package.sh OUT_DIR      (the .crate is written there)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
PATH="$HOME/.cargo/bin:$PATH"
rm -rf "$root/rust/csrc"
mkdir -p "$root/rust/csrc"
cp -r "$root/src" "$root/include" "$root/rust/csrc/"
find "$root/rust/csrc" -name '*.go' -delete
mkdir -p "$root/rust/csrc/vectors"
cp "$root/vectors/shakerand.json" "$root/rust/csrc/vectors/"
cp "$root/LICENSE-MIT" "$root/LICENSE-APACHE" "$root/rust/"
trap 'rm -rf "$root/rust/csrc" "$root/rust/LICENSE-MIT" "$root/rust/LICENSE-APACHE"' EXIT
CARGO_TARGET_DIR=$root/build-rust cargo package -q --manifest-path "$root/rust/Cargo.toml" --allow-dirty --no-verify
version=$(sed -n 's/^version = "\(.*\)"/\1/p' "$root/rust/Cargo.toml" | head -n 1)
crate=$root/build-rust/package/shakerand-$version.crate
cp "$crate" "$out/"
scratch=$(mktemp -d)
tar -xzf "$crate" -C "$scratch"
(cd "$scratch/shakerand-$version" && CARGO_TARGET_DIR=$scratch/target \
    cargo test -q >"$scratch/test.log" 2>&1) || { tail -30 "$scratch/test.log" >&2; exit 1; }
rm -rf "$scratch"
echo "rust-package: $out/shakerand-$version.crate builds and passes its tests alone"
