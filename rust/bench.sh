#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# make bench-rust: rust/benches/peers.rs twice, in one run: first built with
# getrandom's custom switch and this crate's back end (it prints the time
# of a 16-byte getrandom::fill served by shakerand), then the ordinary build,
# which prints the tables and the targets with that figure beside the OS
# back end's; the result goes into BENCHMARKS.md's Rust section.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
PATH="$HOME/.cargo/bin:$PATH"
export CARGO_TARGET_DIR="$root/build-rust"
manifest=$root/rust/Cargo.toml
out=$root/build-bench
mkdir -p "$out"
# The best of three processes, as the ordinary build takes for each figure.
custom=$(for _ in 1 2 3; do
    RUSTFLAGS='--cfg getrandom_backend="custom"' CARGO_TARGET_DIR="$CARGO_TARGET_DIR/getrandom-custom" \
        cargo bench -q --manifest-path "$manifest" --features uuid,getrandom --bench peers 2>/dev/null | tail -1
done | sort -g | head -n 1)
cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
{
    echo "## Rust (\`make bench-rust\`)"
    echo
    echo "$(date -u +%Y-%m-%d), $(rustc --version | cut -d' ' -f1-2), $cpu, $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg) at the start. Peers: rand 0.10, getrandom 0.4, uuid 1, fastrand 2."
    echo
    SHAKERAND_BENCH_GETRANDOM_CUSTOM_NS=$custom cargo bench -q --manifest-path "$manifest" --features uuid --bench peers
} >"$out/rust.md"
cat "$out/rust.md"
python3 "$root/tools/bench_section.py" rust "$out/rust.md" "$root/BENCHMARKS.md"
