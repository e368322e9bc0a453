#!/bin/sh
# SPDX-License-Identifier: MIT OR Apache-2.0
# The Go module cross-built for macOS, arm64 and x86-64, with cgo (the C
# core compiled and linked by zig cc, PyPI's ziglang) and without (pure
# Go): go vet, go build and the test binaries of ./go and
# ./go/internal/purego, linked. Nothing here can run them: built, not run.
#
# Linking a cgo program for macOS needs two libraries besides libSystem
# (the one zig carries): the standard library's runtime/cgo asks for
# CoreFoundation on arm64 and internal/syscall/unix for libresolv. So text
# stubs (.tbd) for them are written here, listing the symbols the installed
# Go imports from each (its cgo_import_dynamic lines), under the install
# names macOS uses: the binary then names the real libraries.
# -ldflags=-w: no DWARF, since with DWARF Go's linker runs dsymutil and
# strip, Apple tools this machine lacks.
# Usage: go.sh [WORK_DIR] (default build-platforms/go). Prints a line per
# target and build; non-zero if any fails.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${1:-$root/build-platforms/go}
mkdir -p "$work"
work=$(cd "$work" && pwd) # absolute: compilers and linkers run elsewhere
command -v go >/dev/null 2>&1 || { echo "go.sh: go is not installed" >&2; exit 1; }
# zig from the tools environment (tools/install-deps.sh platforms).
zig=$("${SHAKERAND_TOOLS_VENV:-$root/build-tools/venv}/bin/python" -c \
      'import ziglang, os; print(os.path.join(os.path.dirname(ziglang.__file__), "zig"))' \
      2>/dev/null) || { echo "no ziglang: run tools/install-deps.sh platforms" >&2; exit 1; }
export GOTOOLCHAIN=local

# The stubs: tbd LIBRARY_INSTALL_NAME > FILE.
goroot=$(go env GOROOT)
tbd() {
    symbols=$(grep -rh --include='*.go' "cgo_import_dynamic .* \"$1\"" "$goroot/src" |
        awk '{ print "_" $3 }' | sort -u | paste -sd, - | sed 's/,/, /g')
    cat <<EOF
--- !tapi-tbd
tbd-version:     4
targets:         [ x86_64-macos, arm64-macos, arm64e-macos ]
install-name:    '$1'
current-version: 1
exports:
  - targets:         [ x86_64-macos, arm64-macos, arm64e-macos ]
    symbols:         [ $symbols ]
...
EOF
}
sdk=$work/sdk
mkdir -p "$sdk/CoreFoundation.framework"
tbd /usr/lib/libresolv.9.dylib > "$sdk/libresolv.tbd"
tbd /System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation \
    > "$sdk/CoreFoundation.framework/CoreFoundation.tbd"

cd "$root"
status=0
for arch in arm64 amd64; do
    # The Mach-O header's first eight bytes: the 64-bit magic and the CPU type.
    case $arch in
    arm64) target=aarch64-macos header="cffaedfe0c000001" ;;
    amd64) target=x86_64-macos header="cffaedfe07000001" ;;
    esac
    for cgo in 1 0; do
        [ $cgo = 1 ] && build=cgo || build=pure
        out=$work/darwin-$arch-$build
        log=$out.log
        mkdir -p "$out"
        start=$(date +%s)
        if (
            export GOOS=darwin GOARCH=$arch CGO_ENABLED=$cgo \
                CC="$zig cc -target $target" CGO_LDFLAGS="-L$sdk -F$sdk"
            go vet ./go/... &&
                go build ./go/... &&
                go test -ldflags=-w -c -o "$out/shakerand.test" ./go &&
                go test -ldflags=-w -c -o "$out/purego.test" ./go/internal/purego &&
                for f in shakerand purego; do
                    [ "$(od -An -tx1 -N8 "$out/$f.test" | tr -d ' \n')" = "$header" ] ||
                        { echo "$out/$f.test is not a 64-bit Mach-O for $arch"; exit 1; }
                done
        ) >"$log" 2>&1; then
            echo "platform darwin/$arch go $build: built, not run: vet, build, test binaries of ./go and ./go/internal/purego (Mach-O $arch; $(($(date +%s) - start)) s)"
        else
            status=1
            tail -30 "$log" >&2
            echo "platform darwin/$arch go $build: FAILED ($(($(date +%s) - start)) s; $log)"
        fi
    done
done
exit $status
