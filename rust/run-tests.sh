#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Rust crate's checks (make test-rust, in make test; with --quick, in
# make check: the checks up to rustdoc, without valgrind, the other
# kernels, the MSRV and the cross runs):
# rustfmt and clippy with warnings as errors, cargo test with the uuid and
# num-bigint features (the vector file, the C CLI's values when
# SHAKERAND_CLI names it, the system generator's guarantees, the inlined
# take, the examples in the docs), the getrandom back end in a build with
# getrandom's switch, the vector tests again on every other kernel this CPU
# runs (SHAKERAND_KERNEL), rustdoc with warnings as errors, and the tests
# under qemu-user (aarch64, s390x) and Wine (x86_64-pc-windows-gnu). Builds
# in build-rust/.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
PATH="$HOME/.cargo/bin:$PATH"
command -v cargo >/dev/null 2>&1 || { echo "rust/run-tests.sh: no cargo (rustup's toolchain)" >&2; exit 1; }
export CARGO_TARGET_DIR="$root/build-rust"
manifest=$root/rust/Cargo.toml
cargo fmt --manifest-path "$manifest" --check
features=uuid,num-bigint
cargo clippy --manifest-path "$manifest" --all-targets --features "$features" -q -- -D warnings
cargo test --manifest-path "$manifest" --features "$features" -q
# getrandom's switch changes every crate's build: a target directory of its
# own. The test links only because its getrandom_backend!() defines
# getrandom's custom symbol.
echo "== the getrandom back end"
RUSTFLAGS='--cfg getrandom_backend="custom"' CARGO_TARGET_DIR="$CARGO_TARGET_DIR/getrandom-custom" \
    cargo clippy --manifest-path "$manifest" --all-targets --features getrandom -q -- -D warnings
RUSTFLAGS='--cfg getrandom_backend="custom"' CARGO_TARGET_DIR="$CARGO_TARGET_DIR/getrandom-custom" \
    cargo test --manifest-path "$manifest" --features getrandom -q --test getrandom_backend
RUSTDOCFLAGS="-D warnings" cargo doc --manifest-path "$manifest" --features "$features" --no-deps -q
# make check stops here; make test goes on.
[ "${1:-}" = --quick ] && { echo "rust/run-tests.sh --quick: passed"; exit 0; }
# Miri cannot run the C core that every unsafe block calls or reads, so
# the unit, vector and system tests run under valgrind's memcheck instead
# (a read of a state the core unmapped, or of memory it never wrote); not
# the test that counts signals landing in a loop, which valgrind delivers
# at its own pace (too few land there to count).
echo "== under valgrind"
"$root/tools/install-deps.sh" rust >/dev/null
cargo test --manifest-path "$manifest" --features "$features" -q --no-run --message-format=json 2>/dev/null |
    python3 -c 'import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] in ("shakerand", "vectors", "system"):
        print(m["executable"])' |
    while read -r exe; do
        valgrind -q --error-exitcode=99 "$exe" -q --test-threads=1 \
            --skip a_signal_handler_that_draws_neither_disturbs >"$CARGO_TARGET_DIR/valgrind.log" 2>&1 ||
            { tail -30 "$CARGO_TARGET_DIR/valgrind.log" >&2; echo "rust/run-tests.sh: $exe FAILED under valgrind" >&2; exit 1; }
        echo "$(basename "$exe"): $(grep '^test result' "$CARGO_TARGET_DIR/valgrind.log")"
    done
for kernel in portable avx2 avx512 neon vsx; do
    got=$(SHAKERAND_KERNEL=$kernel cargo run -q --manifest-path "$manifest" --example kernel 2>/dev/null || true)
    [ "$got" = "$kernel" ] || continue
    echo "== the vectors on the $kernel kernel"
    SHAKERAND_KERNEL=$kernel cargo test --manifest-path "$manifest" -q --test vectors
done
# The stated MSRV (rust-version in Cargo.toml), the library with the
# features whose dependencies keep to it (the uuid crate's newest releases
# need a newer Rust: its own MSRV applies to the uuid feature).
msrv=$(sed -n 's/^rust-version = "\(.*\)"/\1/p' "$root/rust/Cargo.toml")
rustup toolchain install "$msrv" --profile minimal >/dev/null 2>&1 ||
    { echo "rust/run-tests.sh: no Rust $msrv from rustup" >&2; exit 1; }
echo "== Rust $msrv (the MSRV)"
CARGO_TARGET_DIR="$CARGO_TARGET_DIR/msrv" cargo "+$msrv" check -q --manifest-path "$manifest" --lib --features getrandom,num-bigint

# The crate's tests under qemu-user on aarch64 and s390x (big-endian: the
# vectors' byte order) and under Wine as x86_64-pc-windows-gnu (the POSIX
# tests are left out there by cfg), each target's standard library from
# rustup, the C core by Debian's cross compilers.
cross() { # RUST_TARGET C_COMPILER RUNNER...
    target=$1 cc=$2
    shift 2
    rustup target add "$target" >/dev/null 2>&1 || { echo "rust/run-tests.sh: no $target from rustup" >&2; exit 1; }
    var=$(echo "$target" | tr 'a-z-' 'A-Z_')
    # The C CLI is a Linux program: qemu-user runs it for its guest, Wine not.
    no_cli=
    case $target in *windows*) no_cli="-u SHAKERAND_CLI -u SHAKERAND_REQUIRE_CLI" ;; esac
    # shellcheck disable=SC2086
    env $no_cli "CARGO_TARGET_${var}_LINKER=$cc" "CARGO_TARGET_${var}_RUNNER=$*" "CC_$(echo "$target" | tr - _)=$cc" \
        cargo test --manifest-path "$manifest" -q --features "$features" --target "$target" --tests >"$CARGO_TARGET_DIR/$target.log" 2>&1 ||
        { tail -30 "$CARGO_TARGET_DIR/$target.log" >&2; echo "rust/run-tests.sh: $target FAILED" >&2; exit 1; }
    echo "== $target ($*): $(grep -h '^test result' "$CARGO_TARGET_DIR/$target.log" | awk '{p += $4; f += $6} END {print p " passed, " f " failed"}')"
}
"$root/tools/install-deps.sh" cross >/dev/null
cross aarch64-unknown-linux-gnu aarch64-linux-gnu-gcc qemu-aarch64 -L /usr/aarch64-linux-gnu
cross s390x-unknown-linux-gnu s390x-linux-gnu-gcc qemu-s390x -L /usr/s390x-linux-gnu
"$root/tools/install-deps.sh" windows >/dev/null
# Rust's standard library draws from ProcessPrng (bcryptprimitives.dll),
# which Wine 8 lacks: the stand-in the Go suite uses (tests/windows/standin.sh).
export SHAKERAND_WINEPREFIX="$CARGO_TARGET_DIR/wineprefix"
"$root/tests/windows/standin.sh" install >/dev/null
cross x86_64-pc-windows-gnu x86_64-w64-mingw32-gcc-posix \
    "$root/tests/windows/wine.sh"
echo "rust/run-tests.sh: every Rust check passed"
